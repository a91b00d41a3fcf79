"""Issue 10 §2, room privacy: games are reached only by random public ids, never by their
primary key, and only a game's seats learn its room's join link (code, page, rematch).

The attack this replays: ids were sequential and ``GET /api/games/{id}/`` showed anyone the
room's URL, so scanning 200 ids found 49 open friend rooms and a stranger joined one.
"""

import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.db import connection
from rest_framework.test import APIClient

from games.models import Game, Room
from games.services import games, rooms
from games.shared.ids import PUBLIC_ID_PATTERN
from tests.games.conftest import BLACK_WIPES_OUT
from tests.games.sockets import Socket, token_header

pytestmark = pytest.mark.django_db(transaction=True)
FIRST_PK = 987654321  # a primary key that cannot turn up in an answer by chance


@pytest.fixture(autouse=True)
def distinctive_primary_keys(db: None) -> None:
    """Games numbered from ``FIRST_PK``, so an answer that echoes a primary key is caught."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT setval(pg_get_serial_sequence('games_game', 'id'), %s, false)", [FIRST_PK]
        )


def open_room(client: APIClient) -> dict:
    response = client.post("/api/rooms/", {}, format="json")
    assert response.status_code == 201
    return response.json()


def text_of(answer: object) -> str:
    return json.dumps(answer)


def assert_no_primary_key(answer: object) -> None:
    text = text_of(answer)
    for pk in Game.objects.values_list("pk", flat=True):
        assert str(pk) not in text, f"primary key {pk} in {text[:200]}"


def assert_no_join_link(answer: object, room: Room) -> None:
    assert room.code not in text_of(answer)


def socket_to(public_id: str, token: str = "") -> Socket:
    return Socket(f"/ws/games/{public_id}/", headers=[token_header(token)] if token else None)


def websocket_messages(public_id: str) -> list[dict]:
    """The first message a websocket viewer of ``public_id`` gets, or ``[{"closed": code}]``."""

    async def watch() -> list[dict]:
        socket = socket_to(public_id)
        assert (await socket.connect())[0]
        message = await socket.receive_output(timeout=5)
        if message["type"] == "websocket.close":
            return [{"closed": message["code"]}]
        await socket.disconnect()
        return [json.loads(message["text"])]

    return async_to_sync(watch)()


def finished_room(black, white) -> Room:
    """A friend room whose game ``black`` won (``BLACK_WIPES_OUT``)."""
    room = rooms.create_room(player=black, variant={}, seats=None)
    rooms.join_room(player=white, code=room.code)
    for ply, notation in enumerate(BLACK_WIPES_OUT):
        mover = black if ply % 2 == 0 else white
        games.play_move(player=mover, public_id=room.game.public_id, notation=notation, ply=ply)
    return room


def test_a_stranger_cannot_find_a_friend_room_by_scanning_ids(alice, bob, make_account) -> None:
    owner, _ = alice
    open_rooms = [open_room(owner) for _ in range(5)]
    bob_client, _ = bob
    bob_client.post("/api/games/", {"mode": "cpu", "level": "easy"}, format="json")
    stranger, _ = make_account("mallory")
    anonymous = APIClient()
    pks = list(Game.objects.values_list("pk", flat=True))
    scanned = range(min(pks) - 5, max(pks) + 6)  # every game's pk and its neighbours

    for client in (stranger, anonymous):
        for pk in scanned:
            for address in (f"/api/games/{pk}/", f"/api/games/{pk}/moves/"):
                answer = client.get(address)
                assert answer.status_code in (404, 405), address
                assert_no_primary_key(answer.json())
            assert client.get(f"/play/{pk}/").status_code == 404
        assert client.get("/api/games/").json() == {"games": []}
        assert client.get("/api/games/?status=waiting").json() == {"games": []}
    for pk in list(scanned)[::3]:
        assert websocket_messages(str(pk)) == [{"closed": 4404}]

    for room in open_rooms:  # public ids one letter away from a real one name nothing
        public_id = room["game"]["id"]
        for neighbour in (public_id[:-1] + chr(ord(public_id[-1]) ^ 1), public_id.swapcase()):
            if neighbour != public_id:
                assert stranger.get(f"/api/games/{neighbour}/").status_code == 404
    assert all(Room.objects.get(code=room["code"]).game.status == "waiting" for room in open_rooms)
    assert [seat["taken"] for seat in open_rooms[0]["game"]["seats"]] == [True, False]


def test_a_watcher_with_the_public_id_never_gets_the_join_link(alice, bob, make_account) -> None:
    owner, _alice_player = alice
    room_answer = open_room(owner)
    room = Room.objects.get(code=room_answer["code"])
    public_id = room_answer["game"]["id"]
    stranger, _ = make_account("mallory")

    for client in (stranger, APIClient()):
        watched = client.get(f"/api/games/{public_id}/")
        assert watched.status_code == 200
        state = watched.json()
        assert (state["you"], state["url"], state["room"]) == (
            [],
            f"/play/{public_id}/",
            {"code": None, "state": "open", "rematch": None},
        )
        assert_no_join_link(state, room)
        assert client.get(f"/play/{public_id}/").status_code == 200
        assert room.code.encode() not in client.get(f"/play/{public_id}/").content
    [spectator_state] = websocket_messages(public_id)
    assert spectator_state["state"]["you"] == []
    assert_no_join_link(spectator_state, room)

    seat_state = owner.get(f"/api/games/{public_id}/").json()
    assert (seat_state["url"], seat_state["room"]["code"]) == (f"/room/{room.code}/", room.code)
    assert owner.get("/api/games/").json()["games"][0]["room"]["code"] == room.code


def test_websocket_events_carry_the_join_link_to_seats_only(alice, bob) -> None:
    owner, black = alice
    _, white = bob
    room = rooms.create_room(player=black, variant={}, seats=None)
    rooms.join_room(player=white, code=room.code)
    public_id = room.game.public_id
    key = owner._credentials["HTTP_AUTHORIZATION"].split()[1]
    seen: dict[str, list[dict]] = {}

    async def watch_a_resignation() -> None:
        sockets = {"seat": socket_to(public_id, key), "spectator": socket_to(public_id)}
        for socket in sockets.values():
            assert (await socket.connect())[0]
        for name, socket in sockets.items():
            seen[name] = [await socket.receive_json_from(timeout=5)]
        await database_sync_to_async(games.resign)(player=black, game_id=room.game_id)
        for name, socket in sockets.items():
            while seen[name][-1]["type"] != "resign":
                seen[name].append(await socket.receive_json_from(timeout=5))
            await socket.disconnect()

    async_to_sync(watch_a_resignation)()

    states = {
        name: [m["state"] for m in messages if "state" in m] for name, messages in seen.items()
    }
    assert all(state["room"]["code"] == room.code for state in states["seat"])
    assert states["seat"][-1]["you"] == ["black"]
    for state in states["spectator"]:
        assert state["room"]["code"] is None
        assert state["url"] == f"/play/{public_id}/"
    assert_no_join_link(seen["spectator"], room)  # nor in the presence events
    assert_no_primary_key(seen)


def test_the_rematch_link_reaches_the_seats_only(alice, bob, make_account) -> None:
    black_client, black = alice
    white_client, white = bob
    room = finished_room(black, white)
    rematch = black_client.post(f"/api/rooms/{room.code}/rematch/").json()
    stranger, _ = make_account("mallory")

    by_code = stranger.get(f"/api/rooms/{room.code}/").json()  # someone the old link reached
    by_id = stranger.get(f"/api/games/{room.game.public_id}/").json()
    assert (by_code["rematch"], by_code["game"]["room"]["rematch"]) == (None, None)
    assert by_id["room"] == {"code": None, "state": "finished", "rematch": None}
    for answer in (by_code, by_id):
        assert rematch["code"] not in text_of(answer)
    seat = white_client.get(f"/api/rooms/{room.code}/").json()
    assert seat["rematch"]["code"] == seat["game"]["room"]["rematch"]["code"] == rematch["code"]


def test_every_answer_and_address_uses_the_public_id(alice, bob) -> None:
    client, _ = alice
    other, _ = bob
    cpu_game = client.post("/api/games/", {"mode": "cpu", "level": "easy"}, format="json").json()
    local = client.post("/api/games/", {"mode": "local", "undo": True}, format="json").json()
    room = open_room(client)
    joined = other.post(f"/api/rooms/{room['code']}/join/", {}, format="json").json()
    moved = client.post(
        f"/api/games/{local['id']}/moves/", {"move": "f5", "ply": 0}, format="json"
    ).json()
    answers = [
        cpu_game,
        local,
        room,
        joined,
        moved,
        client.post(f"/api/games/{local['id']}/undo/").json(),
        client.post(f"/api/games/{local['id']}/hint/").json(),
        client.get("/api/games/").json(),
        client.get(f"/api/rooms/{room['code']}/").json(),
        APIClient().get(f"/api/games/{room['game']['id']}/").json(),
        websocket_messages(local["id"]),
        client.post(f"/api/games/{local['id']}/resign/").json(),
    ]
    for state in (cpu_game, local, room["game"]):
        assert PUBLIC_ID_PATTERN.fullmatch(state["id"])
        assert Game.objects.filter(public_id=state["id"]).exists()
    assert (cpu_game["url"], local["url"]) == (
        f"/play/{cpu_game['id']}/",
        f"/play/{local['id']}/",
    )
    assert_no_primary_key(answers)
    assert_no_primary_key(APIClient().get("/api/schema/?format=json").json())


def test_the_profile_lists_games_by_public_id_without_their_room_link(
    alice, bob, make_account
) -> None:
    room = finished_room(alice[1], bob[1])
    stranger, _ = make_account("mallory")

    profile = stranger.get("/api/players/alice/").json()
    [entry] = profile["recent_games"]
    assert (entry["id"], entry["url"]) == (room.game.public_id, f"/play/{room.game.public_id}/")
    page = stranger.get("/players/alice/").content.decode()
    assert f'href="/play/{room.game.public_id}/"' in page
    for answer in (profile, page):
        assert_no_join_link(answer, room)
        assert_no_primary_key(answer)


@pytest.mark.parametrize(
    "public_id",
    ["abc", "0" * 12, "a" * 11, "a" * 13, "abcdefghijk-", "abcdefghijk%00", "%00", "x" * 300],
)
def test_a_malformed_or_unknown_id_is_the_usual_404(alice, public_id: str) -> None:
    client, _ = alice
    client.post("/api/games/", {"mode": "local"}, format="json")
    for answer in (
        client.get(f"/api/games/{public_id}/"),
        client.post(f"/api/games/{public_id}/moves/", {"move": "f5", "ply": 0}, format="json"),
        client.post(f"/api/games/{public_id}/resign/"),
    ):
        assert answer.status_code == 404
        assert answer.json() == {
            "error": {
                "code": "not_found",
                "message": "This game or room does not exist.",
                "field": None,
            }
        }
    assert client.get(f"/play/{public_id}/").status_code == 404
    assert websocket_messages(public_id) == [{"closed": 4404}]


def test_the_schema_types_game_ids_as_public_ids() -> None:
    schema = APIClient().get("/api/schema/?format=json").json()
    operations = [
        operation
        for address, by_method in schema["paths"].items()
        if address.startswith("/api/games/{")
        for operation in by_method.values()
    ]
    parameters = [
        parameter
        for operation in operations
        for parameter in operation.get("parameters", [])
        if parameter["in"] == "path"
    ]
    assert len(parameters) == len(operations) >= 6  # one game id per operation on a game
    for parameter in parameters:
        assert parameter["name"] == "public_id"
        assert parameter["schema"]["type"] == "string"
        assert parameter["schema"]["pattern"] == f"^{PUBLIC_ID_PATTERN.pattern}$"
