"""Issue 14 §1, watching: the games between people being played now (rated first), the number
of spectators of a game (websockets without a seat), and who is at a board."""

import time

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games import presenters, selectors
from games.accounts.models import PlayerRating
from games.models import Game
from games.services import watching
from games.shared import presence as presence_store
from tests.games.sockets import Socket, token_header

pytestmark = pytest.mark.django_db


def lobby_game(black: APIClient, white: APIClient, **terms) -> dict:
    """A game begun in public: ``black``'s lobby seek, accepted by ``white``."""
    seek = black.post("/api/lobby/seeks/", {"color": "black", **terms}, format="json")
    assert seek.status_code == 201, seek.json()
    accepted = white.post(f"/api/lobby/seeks/{seek.json()['id']}/accept/")
    assert accepted.status_code == 200, accepted.json()
    return accepted.json()["game"]


def friend_room_game(black: APIClient, white: APIClient) -> dict:
    room = black.post("/api/rooms/", {}, format="json").json()
    return white.post(f"/api/rooms/{room['code']}/join/", {}, format="json").json()["game"]


def challenge_game(challenger: APIClient, challenged: APIClient, username: str) -> dict:
    sent = challenger.post("/api/challenges/", {"username": username}, format="json")
    assert sent.status_code == 201, sent.json()
    room = challenged.post(f"/api/challenges/{sent.json()['id']}/accept/").json()
    return room["game"]


def test_the_live_games_are_public_games_of_people_rated_first(
    alice, bob, make_account, guest
) -> None:
    (a, _), (b, _) = alice, bob
    casual = lobby_game(a, b, time_control="3+2")
    carol, _ = make_account("carol")
    dave, _ = make_account("dave")
    rated = lobby_game(carol, dave, rated=True, time_control="1+0")
    a.post("/api/rooms/", {}, format="json")  # waiting for a player: not live
    a.post("/api/games/", {"mode": "cpu"}, format="json")  # against the CPU: not listed
    listed = guest.get("/api/watch/").json()["games"]
    assert [game["id"] for game in listed] == [rated["id"], casual["id"]]
    assert listed[0]["players"] == ["carol", "dave"]
    assert listed[0]["url"] == f"/play/{rated['id']}/"
    assert (listed[1]["time_control"], listed[1]["rated"], listed[1]["spectators"]) == (
        "3+2",
        False,
        0,
    )
    assert "code" not in str(listed)  # no room's join link


def test_a_friend_room_is_never_listed_but_a_challenge_is(alice, bob, make_account, guest) -> None:
    """A friend room is an invitation by its link: a stranger found friend games on the watch
    page (they were listed like lobby games). A challenge is public, as on lichess."""
    (a, _), (b, _) = alice, bob
    private = friend_room_game(a, b)
    carol, _ = make_account("carol")
    dave, _ = make_account("dave")
    challenged = challenge_game(carol, dave, "dave")
    listed = [game["id"] for game in guest.get("/api/watch/").json()["games"]]
    assert listed == [challenged["id"]]
    assert private["id"] not in guest.get("/watch/").content.decode()
    assert guest.get(f"/api/games/{private['id']}/").status_code == 200  # whoever has the link


@pytest.fixture
def fresh_channel_layer() -> None:
    """A channel layer of this test's own: one that an earlier test used from another event loop
    holds a lock bound to that loop."""
    channel_layers.backends.clear()


def watch_answer() -> dict:
    """What ``GET /api/watch/`` answers (read in the socket test's thread, not over HTTP)."""
    return dict(presenters.watch_state(selectors.live_games(limit=30), selectors.online_players()))


@pytest.mark.django_db(transaction=True)
def test_spectators_are_counted_while_they_watch_and_online_players_are_named(
    alice, bob, fresh_channel_layer: None
) -> None:
    """A spectator's socket counts while it is open (Redis, like a seat's presence): the seats
    hear of it in a presence event, which bumps no version."""
    (a, _), (b, _) = alice, bob
    state = lobby_game(a, b)
    token = a._credentials["HTTP_AUTHORIZATION"].split()[1]

    async def next_presence(socket: Socket) -> dict:
        event = await socket.receive_json_from()
        while event["type"] != "presence":
            event = await socket.receive_json_from()
        return event

    async def watch() -> tuple[dict, dict, dict, dict]:
        seat = Socket(f"/ws/games/{state['id']}/", headers=[token_header(token)])
        spectator = Socket(f"/ws/games/{state['id']}/")
        assert (await seat.connect())[0]
        await seat.receive_json_from()  # its state
        assert (await spectator.connect())[0]
        shown = await spectator.receive_json_from()
        counted = await next_presence(seat)
        online = await database_sync_to_async(watch_answer)()
        await spectator.disconnect()
        left = await next_presence(seat)
        await seat.disconnect()
        return shown["state"], counted, left, online

    shown, counted, left, watched = async_to_sync(watch)()
    assert shown["spectators"] == 1  # counted before its state was read
    assert (counted["spectators"], left["spectators"]) == (1, 0)
    assert counted["version"] == left["version"] == state["version"]  # no change of the game
    assert watched["games"][0]["spectators"] == 1
    assert watched["online"] == {"names": ["alice"], "accounts": 1, "guests": 1}  # + the spectator
    assert presence_store.spectators(game_ids=[shown_pk(state)]) == {shown_pk(state): 0}


@pytest.mark.django_db(transaction=True)
def test_everyone_connected_is_online_once_and_the_lobby_hears_of_changes(
    alice, bob, make_account, fresh_channel_layer: None
) -> None:
    """Who is online counts people, not sockets: a player at the board, a lobby visitor with
    two tabs, a spectator without an account; the lobby's sockets get it on connect and from
    ``announce_online`` (Celery beat) when it has changed, once."""
    (a, _), (b, _) = alice, bob
    carol, _ = make_account("carol")
    state = lobby_game(a, make_account("dave")[0])

    def token(client) -> tuple[bytes, bytes]:
        return token_header(client._credentials["HTTP_AUTHORIZATION"].split()[1])

    async def next_online(socket: Socket) -> dict:
        event = await socket.receive_json_from()
        while event["type"] != "online":
            event = await socket.receive_json_from()
        return event["online"]

    async def visit() -> tuple[dict, dict, bool, dict, dict]:
        seat = Socket(f"/ws/games/{state['id']}/", headers=[token(a)])
        tabs = [Socket("/ws/lobby/", headers=[token(b)]) for _ in range(2)]
        spectator = Socket(f"/ws/games/{state['id']}/")
        for socket in (seat, *tabs, spectator):
            assert (await socket.connect())[0]
        for tab in tabs:
            await next_online(tab)  # as it was when the tab connected
        assert await database_sync_to_async(watching.announce_online)()
        announced = await next_online(tabs[0])
        again = await database_sync_to_async(watching.announce_online)()  # nothing changed
        late = Socket("/ws/lobby/", headers=[token(carol)])
        assert (await late.connect())[0]
        on_connect = await next_online(late)
        for socket in (seat, spectator, tabs[1]):
            await socket.disconnect()
        assert await database_sync_to_async(watching.announce_online)()
        after = await next_online(late)
        for socket in (tabs[0], late):
            await socket.disconnect()
        return announced, on_connect, again, after, await database_sync_to_async(watch_answer)()

    announced, on_connect, again, after, watched = async_to_sync(visit)()
    assert announced == {"names": ["alice", "bob"], "accounts": 2, "guests": 1}
    assert again is False
    assert on_connect == {"names": ["alice", "bob", "carol"], "accounts": 3, "guests": 1}
    assert after == {"names": ["bob", "carol"], "accounts": 2, "guests": 0}  # bob's tab stays
    assert watched["online"] == {"names": [], "accounts": 0, "guests": 0}


def test_online_names_are_capped_but_every_account_counts(make_account, monkeypatch) -> None:
    users = [make_account(f"player{n:02}")[1] for n in range(3)]
    for user in users:
        presence_store.come_online(viewer=f"user:{user.user_id}", connection=f"c{user.user_id}")
    presence_store.come_online(viewer="guest:g1", connection="g1")
    presence_store.come_online(viewer="session:s1", connection="s1")
    monkeypatch.setattr(selectors, "ONLINE_NAMES_SHOWN", 2)
    try:
        online = selectors.online_players()
        assert (online.names, online.accounts, online.guests) == (["player00", "player01"], 3, 2)
    finally:
        for user in users:
            presence_store.go_offline(viewer=f"user:{user.user_id}", connection=f"c{user.user_id}")
        presence_store.go_offline(viewer="guest:g1", connection="g1")
        presence_store.go_offline(viewer="session:s1", connection="s1")
    assert selectors.online_players() == selectors.Online([], 0, 0)


def shown_pk(state: dict) -> int:
    return Game.objects.get(public_id=state["id"]).pk


def test_a_spectator_of_a_server_that_died_stops_counting(alice, bob, monkeypatch) -> None:
    """A spectator's socket never closed (its server was killed) expires like a seat's."""
    (a, _), (b, _) = alice, bob
    game_id = shown_pk(lobby_game(a, b))
    monkeypatch.setattr(presence_store, "TTL", 0.5)
    assert (
        watching.spectator_connected(game_id=game_id, viewer="guest:x", connection="killed") is None
    )
    assert presence_store.spectators(game_ids=[game_id]) == {game_id: 1}
    assert selectors.live_games(limit=1)[0][2] == 1
    time.sleep(0.7)
    assert presence_store.spectators(game_ids=[game_id]) == {game_id: 0}
    assert selectors.live_games(limit=1)[0][2] == 0


def test_the_highest_rated_games_come_first(make_account, guest) -> None:
    players = {name: make_account(name) for name in ("p1", "p2", "p3", "p4", "p5", "p6")}
    for name, rating in (("p1", 1400), ("p2", 1400), ("p3", 1900), ("p4", 1700), ("p5", 1600)):
        PlayerRating.objects.create(user_id=players[name][1].user_id, rating=rating)
    low = lobby_game(players["p1"][0], players["p2"][0], rated=True)
    high = lobby_game(players["p3"][0], players["p4"][0], rated=True)
    casual = lobby_game(players["p5"][0], players["p6"][0])
    listed = guest.get("/api/watch/").json()["games"]
    assert [game["id"] for game in listed] == [high["id"], low["id"], casual["id"]]
    assert [game["rating"] for game in listed] == [1800, 1400, 1550]


@pytest.mark.django_db(transaction=True)
def test_one_person_is_one_spectator_and_holds_a_bounded_number_of_sockets(
    alice, bob, make_account, settings, fresh_channel_layer: None
) -> None:
    """A spectator's tabs count once; the socket past ``WEBSOCKETS_PER_VIEWER`` is refused with
    4429 and one more fits once a tab closes (issue 10 §3)."""
    (a, _), (b, _) = alice, bob
    settings.WEBSOCKETS_PER_VIEWER = 3
    state = lobby_game(a, b)
    carol, _ = make_account("carol")
    headers = [token_header(carol._credentials["HTTP_AUTHORIZATION"].split()[1])]
    path = f"/ws/games/{state['id']}/"

    async def tabs() -> tuple[list[int], int | None, str, int]:
        sockets = [Socket(path, headers=headers) for _ in range(3)]
        counts = []
        for socket in sockets:
            assert (await socket.connect())[0]
            counts.append((await socket.receive_json_from())["state"]["spectators"])
        refused = await Socket(path, headers=headers).close_code()
        await sockets[0].disconnect()
        again = Socket(path, headers=headers)
        admitted = await first_message(again)
        for socket in [*sockets[1:], again]:
            await socket.disconnect()
        return counts, refused, admitted, 0

    counts, refused, admitted, _ = async_to_sync(tabs)()
    assert counts == [1, 1, 1]
    assert refused == 4429
    assert admitted == "state"
    assert presence_store.spectators(game_ids=[shown_pk(state)]) == {shown_pk(state): 0}


@pytest.mark.django_db(transaction=True)
def test_one_client_address_holds_a_bounded_number_of_sockets(
    alice, bob, make_account, settings, fresh_channel_layer: None
) -> None:
    """Sockets of different people from one address stop at ``WEBSOCKETS_PER_ADDRESS``."""
    (a, _), (b, _) = alice, bob
    settings.WEBSOCKETS_PER_ADDRESS = 2
    state = lobby_game(a, b)
    tokens = [make_account(name)[0]._credentials["HTTP_AUTHORIZATION"] for name in "cde"]
    path = f"/ws/games/{state['id']}/"

    async def three_people() -> list[str | int | None]:
        sockets = [Socket(path, headers=[token_header(t.split()[1])]) for t in tokens]
        answers = [await first_message(socket) for socket in sockets[:2]]
        answers.append(await sockets[2].close_code())
        for socket in sockets[:2]:
            await socket.disconnect()
        return answers

    assert async_to_sync(three_people)() == ["state", "state", 4429]


async def first_message(socket: Socket) -> str:
    """The type of the first message of a socket accepted and left open."""
    assert (await socket.connect())[0]
    return (await socket.receive_json_from())["type"]


def test_an_account_deactivated_while_connected_is_no_longer_counted_online(
    make_account,
) -> None:
    _, alice = make_account("alice")
    _, bob = make_account("bob")
    for viewer in (f"user:{alice.user_id}", f"user:{bob.user_id}", "guest:g1"):
        presence_store.come_online(viewer=viewer, connection=f"socket-of-{viewer}")
    get_user_model().objects.filter(pk=bob.user_id).update(is_active=False)

    assert selectors.online_players() == selectors.Online(["alice"], 1, 1)
