"""The NDJSON streams of API clients and bots (issue 14 §6) on a real daphne server: the
account's event stream and a game's stream, their keep-alive, scopes and per-account bound."""

import json
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import httpx
import pytest
import redis
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection

from games import policy, selectors
from games.accounts.tokens import issue_token
from games.identity import Player
from games.models import Room
from games.services import rooms
from games.shared import presence as presence_store
from tests.servers import daphne

READ_TIMEOUT = policy.STREAM_KEEPALIVE + 5  # a quiet stream still sends a line this often


@pytest.fixture(scope="module")
def server_url(django_db_setup: None, django_db_blocker) -> Iterator[str]:
    """daphne on the test database; its tasks go to a private queue nobody takes."""
    queue = f"streams-test-{uuid.uuid4().hex}"
    with django_db_blocker.unblock():
        env = {"POSTGRES_DB": connection.settings_dict["NAME"], "CELERY_CPU_QUEUE": queue}
    with daphne(env) as url:
        yield url
    redis.Redis.from_url(settings.REDIS_URL).delete(queue)


def client_of(url: str, username: str, *scopes: str) -> tuple[httpx.Client, Player]:
    user = get_user_model().objects.create_user(username, password="a long passphrase")
    _, secret = issue_token(user=user, name="test", scopes=scopes or ("read", "play", "challenge"))
    client = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {secret}"}, timeout=10)
    return client, Player(user_id=user.pk)


class Stream:
    """An open NDJSON stream read one line at a time."""

    def __init__(self, response: httpx.Response) -> None:
        self.response = response
        self.lines = response.iter_lines()

    def next_event(self) -> dict:
        """The next object, past the keep-alive empty lines."""
        while not (line := next(self.lines)).strip():
            pass
        return json.loads(line)


@contextmanager
def stream(client: httpx.Client, path: str) -> Iterator[Stream]:
    timeout = httpx.Timeout(10, read=READ_TIMEOUT)
    with client.stream("GET", path, timeout=timeout) as response:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"] == "application/x-ndjson"
        yield Stream(response)


def test_streams_need_an_account_and_the_read_scope(server_url: str, transactional_db) -> None:
    guest = httpx.get(server_url + "/api/stream/event/")
    assert (guest.status_code, guest.json()["error"]["code"]) == (401, "not_signed_in")
    player, _ = client_of(server_url, "alice", "play")
    answer = player.get("/api/stream/event/")
    assert (answer.status_code, answer.json()["error"]["code"]) == (403, "token_scope")
    revoked = httpx.get(server_url + "/api/stream/event/", headers={"Authorization": "Token 0"})
    assert revoked.status_code == 401
    missing = player.get(f"/api/bot/game/stream/{'x' * 12}/")
    assert missing.status_code in (403, 404)


def test_the_event_stream_tells_challenges_and_games(server_url: str, transactional_db) -> None:
    alice, _ = client_of(server_url, "alice")
    bob, _ = client_of(server_url, "bob")
    carol, _ = client_of(server_url, "carol")
    waiting = carol.post("/api/challenges/", json={"username": "bob"}).json()

    with stream(alice, "/api/stream/event/") as alices, stream(bob, "/api/stream/event/") as bobs:
        first = bobs.next_event()  # what was pending when the stream opened
        assert (first["type"], first["challenge"]["id"]) == ("challenge", waiting["id"])

        sent = alice.post("/api/challenges/", json={"username": "bob"}).json()
        incoming = bobs.next_event()
        assert (incoming["type"], incoming["challenge"]["id"]) == ("challenge", sent["id"])
        assert incoming["challenge"]["incoming"] is True
        assert alices.next_event()["challenge"]["incoming"] is False  # its own, sent
        bob.post(f"/api/challenges/{sent['id']}/decline/", json={"reason": "later"})
        declined = alices.next_event()
        assert declined["type"] == "challengeDeclined"
        assert declined["challenge"]["decline_reason"] == "later"
        assert bobs.next_event()["type"] == "challengeDeclined"  # both hear of the answer

        taken_back = alice.post("/api/challenges/", json={"username": "bob"}).json()
        assert bobs.next_event()["type"] == "challenge"
        alice.post(f"/api/challenges/{taken_back['id']}/cancel/")
        assert bobs.next_event()["type"] == "challengeCanceled"
        assert [alices.next_event()["type"] for _ in range(2)] == ["challenge", "challengeCanceled"]

        played = alice.post("/api/challenges/", json={"username": "bob", "color": "black"}).json()
        assert [stream.next_event()["type"] for stream in (alices, bobs)] == ["challenge"] * 2
        bob.post(f"/api/challenges/{played['id']}/accept/")
        starts = [stream.next_event() for stream in (alices, bobs)]
        assert [start["type"] for start in starts] == ["gameStart", "gameStart"]
        assert [start["game"]["colors"] for start in starts] == [["black"], ["white"]]
        game = starts[0]["game"]
        assert game["stream"] == f"/api/bot/game/stream/{game['id']}/"
        assert starts[1]["game"]["opponents"] == ["alice"]
        assert alice.post(f"/api/games/{game['id']}/resign/").status_code == 200
        ends = [stream.next_event() for stream in (alices, bobs)]
        assert [end["type"] for end in ends] == ["gameFinish", "gameFinish"]
        assert ends[1]["game"]["result"]["resigned"] == "black"

    with stream(bob, "/api/stream/event/") as again:  # pending challenges and games in play
        assert again.next_event()["challenge"]["id"] == waiting["id"]


def test_a_quiet_stream_sends_keep_alive_lines(server_url: str, transactional_db) -> None:
    alice, _ = client_of(server_url, "alice")
    with stream(alice, "/api/stream/event/") as quiet:
        assert next(quiet.lines) == ""  # at once: subscribed
        started = time.monotonic()
        assert next(quiet.lines) == ""
        assert (
            policy.STREAM_KEEPALIVE - 1 < time.monotonic() - started < policy.STREAM_KEEPALIVE + 2
        )


def test_an_account_holds_a_bounded_number_of_streams(server_url: str, transactional_db) -> None:
    alice, _ = client_of(server_url, "alice")
    with ExitStack() as open_streams:
        for _ in range(policy.STREAMS_PER_ACCOUNT):
            open_streams.enter_context(stream(alice, "/api/stream/event/"))
        refused = alice.get("/api/stream/event/")
        assert (refused.status_code, refused.json()["error"]["code"]) == (429, "too_many_streams")
    # Closed by the client: the server frees their slots as it sees them go.
    deadline = time.monotonic() + 10
    while alice.get("/api/me/").status_code == 200:
        with alice.stream("GET", "/api/stream/event/") as answer:
            if answer.status_code == 200:
                break
        assert time.monotonic() < deadline, "closed streams kept their slots"
        time.sleep(0.2)


def players_and_room(url: str) -> tuple[httpx.Client, httpx.Client, httpx.Client, Room]:
    """alice (black) and bob (white) seated in a room's game, and carol, each a token client."""
    alice, black = client_of(url, "alice")
    bob, white = client_of(url, "bob")
    carol, _ = client_of(url, "carol")
    room = rooms.create_room(player=black, variant={}, seats=None)
    rooms.join_room(player=white, code=room.code)
    return alice, bob, carol, room


def test_the_game_stream_sends_the_full_state_then_each_change(
    server_url: str, transactional_db
) -> None:
    alice, bob, carol, room = players_and_room(server_url)
    game_id = room.game.public_id
    path = f"/api/bot/game/stream/{game_id}/"

    with stream(bob, path) as bobs, stream(carol, path) as carols:
        full = bobs.next_event()
        assert full["type"] == "gameFull"
        assert (full["state"]["id"], full["state"]["you"], full["state"]["ply"]) == (
            game_id,
            ["white"],
            0,
        )
        assert full["state"]["room"]["code"] == room.code  # a seat's view
        watched = carols.next_event()
        assert (watched["state"]["you"], watched["state"]["room"]["code"]) == ([], None)
        assert watched["state"]["spectators"] == 1  # carol holds no seat: she watches
        online = selectors.online_players()
        assert (online.names, online.guests) == (["bob", "carol"], 0)

        assert alice.post(f"/api/games/{game_id}/moves/", json={"move": "d3", "ply": 0}).is_success
        moved = bobs.next_event()
        assert moved["type"] == "gameState"
        event = moved["event"]  # the websocket's small move event
        assert (event["type"], event["ply"], event["move"]["move"]) == ("move", 1, "d3")
        assert event["version"] == full["state"]["version"] + 1
        assert (event["to_move"], "c3" in event["legal_moves"]) == ("white", True)
        assert carols.next_event()["event"] == event  # the same for every viewer

        assert bob.post(f"/api/games/{game_id}/draw/", json={"action": "offer"}).is_success
        offered = bobs.next_event()["event"]  # a change with the whole state, as bob sees it
        assert (offered["type"], offered["state"]["you"]) == ("draw_offer", ["white"])
        assert offered["state"]["room"]["code"] == room.code
        watched_offer = carols.next_event()["event"]
        assert (watched_offer["state"]["you"], watched_offer["state"]["room"]["code"]) == ([], None)

        assert bob.post(f"/api/games/{game_id}/resign/").status_code == 200
        resigned = bobs.next_event()["event"]
        assert (resigned["type"], resigned["state"]["status"]) == ("resign", "finished")
        assert resigned["version"] == offered["version"] + 1
        assert list(bobs.lines) == []  # the stream ends with the game

    with stream(carol, path) as late:  # a finished game: its state, and the end
        assert late.next_event()["state"]["status"] == "finished"
        assert list(late.lines) == []
    game_pk = selectors.game_pk(game_id)
    assert until(lambda: presence_store.spectators(game_ids=[game_pk])[game_pk] == 0)
    assert until(lambda: selectors.online_players() == selectors.Online([], 0, 0))


def test_a_game_stream_of_a_spectator_counts_until_it_closes(
    server_url: str, transactional_db
) -> None:
    alice, _, carol, room = players_and_room(server_url)
    path = f"/api/bot/game/stream/{room.game.public_id}/"

    with stream(carol, path) as first, stream(carol, path) as second:  # one person, two streams
        assert first.next_event()["state"]["spectators"] == 1
        assert second.next_event()["state"]["spectators"] == 1
        assert presence_store.spectators(game_ids=[room.game_id]) == {room.game_id: 1}
        with stream(alice, path) as seat:  # a player's stream is no spectator
            assert seat.next_event()["state"]["spectators"] == 1
    assert until(lambda: presence_store.spectators(game_ids=[room.game_id]) == {room.game_id: 0})


def until(condition, seconds: float = 20.0) -> bool:
    """Whether ``condition`` holds within ``seconds`` (the server notices a closed stream on its
    own time)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True
