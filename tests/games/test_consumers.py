"""The game websocket on the real Redis channel layer."""

import asyncio
import json
import threading

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.db import OperationalError

from games import policy
from games.accounts.tokens import issue_token
from games.identity import GUEST_SESSION_KEY, Player
from games.models import Game
from games.services import games
from games.shared.threads import in_pool
from tests.games.sockets import BROWSER, HOST, Socket, token_header

pytestmark = pytest.mark.django_db(transaction=True)


def communicator(path: str, token: str = "") -> Socket:
    """A token client's socket (no ``Origin``), or a page's of the site's own origin."""
    return Socket(path, headers=[token_header(token)] if token else BROWSER)


async def receive_until(socket: Socket, kind: str) -> dict:
    while True:
        message = await socket.receive_json_from(timeout=5)
        if message["type"] == kind:
            return message


async def reply(socket: Socket) -> dict:
    """The next message that answers the client (presence events come unasked)."""
    while (message := await socket.receive_json_from(timeout=5))["type"] == "presence":
        pass
    return message


@database_sync_to_async
def token_player(alice) -> tuple[str, Player]:
    client, player = alice
    return client._credentials["HTTP_AUTHORIZATION"].split()[1], player


@database_sync_to_async
def new_local_game(player: Player) -> Game:
    return games.create_local_game(player=player, variant={}, undo_allowed=True)


def test_spectator_gets_the_state_and_every_move(alice) -> None:
    async_to_sync(_spectator_gets_the_state_and_every_move)(alice)


async def _spectator_gets_the_state_and_every_move(alice) -> None:
    _, player = await token_player(alice)
    game = await new_local_game(player)
    socket = communicator(f"/ws/games/{game.public_id}/")
    connected, _ = await socket.connect()
    assert connected
    first = await socket.receive_json_from()
    assert (first["type"], first["ply"], first["state"]["you"]) == ("state", 0, [])
    played = await database_sync_to_async(games.play_move)(
        player=player, public_id=game.public_id, notation="f5", ply=0
    )
    event = await receive_until(socket, "move")
    assert (event["ply"], event["version"], event["move"]["move"]) == (
        1,
        first["version"] + 1,
        "f5",
    )
    assert event == json.loads(played.event)  # the mover's answer is the viewers' event
    await socket.send_json_to({"type": "sync", "version": 0})
    resync = await socket.receive_json_from()
    assert (resync["type"], resync["ply"]) == ("state", 1)
    await socket.send_json_to({"type": "sync", "version": resync["version"]})
    assert (await socket.receive_json_from())["type"] == "synced"
    await socket.send_json_to({"type": "shout"})
    assert (await socket.receive_json_from())["error"]["code"] == "bad_message"
    await socket.send_to(text_data="{not json")
    assert (await socket.receive_json_from())["error"]["code"] == "bad_message"
    await socket.send_to(bytes_data=b"\x00")
    assert (await socket.receive_json_from())["error"]["code"] == "bad_message"
    await socket.disconnect()


def test_json_nested_too_deep_is_answered_as_junk_and_the_socket_stays(alice) -> None:
    async_to_sync(_json_nested_too_deep_is_answered_as_junk_and_the_socket_stays)(alice)


async def _json_nested_too_deep_is_answered_as_junk_and_the_socket_stays(alice) -> None:
    """A frame nested past the JSON decoder's recursion limit (a RecursionError, not a
    ValueError) gets ``bad_message`` like any junk; it closed the socket with no close frame."""
    _, player = await token_player(alice)
    game = await new_local_game(player)
    socket = communicator(f"/ws/games/{game.public_id}/")
    assert (await socket.connect())[0]
    first = await socket.receive_json_from()
    await socket.send_to(text_data="[" * 100_000 + "]" * 100_000)
    assert (await reply(socket))["error"]["code"] == "bad_message"
    await socket.send_json_to({"type": "sync", "version": first["version"]})
    assert (await reply(socket))["type"] == "synced"
    await socket.disconnect()


def test_a_flood_of_syncs_is_refused_without_reading_the_game(alice) -> None:
    async_to_sync(_a_flood_of_syncs_is_refused_without_reading_the_game)(alice)


async def _a_flood_of_syncs_is_refused_without_reading_the_game(alice) -> None:
    """Each stale sync reads and sends the whole state: one anonymous client's 8 sockets
    sending them without pause tripled the server's answer times. A socket gets
    ``policy.SOCKET_SYNCS`` of them per window; beyond, a ``too_many_syncs`` error and no read."""
    _, player = await token_player(alice)
    game = await new_local_game(player)
    socket = communicator(f"/ws/games/{game.public_id}/")
    assert (await socket.connect())[0]
    await socket.receive_json_from()
    for _ in range(policy.SOCKET_SYNCS + 5):
        await socket.send_json_to({"type": "sync", "version": 0})
    answers = [await reply(socket) for _ in range(policy.SOCKET_SYNCS + 5)]
    assert [a["type"] for a in answers[: policy.SOCKET_SYNCS]] == ["state"] * policy.SOCKET_SYNCS
    assert {a["type"] for a in answers[policy.SOCKET_SYNCS :]} == {"error"}
    assert answers[-1]["error"]["code"] == "too_many_syncs"
    await socket.disconnect()


BAD_MESSAGE = {
    "en": 'Unknown message: send {"type": "sync", "version": v} with the last version you have.',
    "ja": '不明なメッセージです。{"type": "sync", "version": v} を、手元の最新の version を'
    "入れて送ってください。",
    "ru": 'Непонятное сообщение: отправьте {"type": "sync", "version": v} с последней '
    "полученной версией.",
}


@pytest.mark.parametrize(
    ("headers", "language"),
    [
        ([], "en"),
        ([(b"accept-language", b"ja,en;q=0.8")], "ja"),
        ([(b"accept-language", b"ru-RU")], "ru"),
        # the site's language switch (its cookie) wins over the browser's languages
        ([(b"accept-language", b"ja"), (b"cookie", b"django_language=ru")], "ru"),
    ],
)
def test_error_frames_are_in_the_sockets_language(alice, headers: list, language: str) -> None:
    async_to_sync(_error_frames_are_in_the_sockets_language)(alice, headers, language)


async def _error_frames_are_in_the_sockets_language(alice, headers: list, language: str) -> None:
    """The HTTP API answers in the client's language; the socket's errors were English only."""
    _, player = await token_player(alice)
    game = await new_local_game(player)
    socket = Socket(f"/ws/games/{game.public_id}/", headers=[*BROWSER, *headers])
    assert (await socket.connect())[0]
    await socket.receive_json_from()
    await socket.send_to(text_data="{not json")
    assert (await reply(socket))["error"] == {
        "code": "bad_message",
        "message": BAD_MESSAGE[language],
    }
    await socket.disconnect()


TOO_MANY_SYNCS = {
    "ja": "再同期が多すぎます。10 秒に 10 回までです。少し待ってください。",
    "ru": "Слишком много запросов синхронизации: не больше 10 за 10 с. Подождите немного.",
}


@pytest.mark.parametrize("language", ["ja", "ru"])
def test_the_sync_flood_error_is_in_the_sockets_language(alice, language: str) -> None:
    async_to_sync(_the_sync_flood_error_is_in_the_sockets_language)(alice, language)


async def _the_sync_flood_error_is_in_the_sockets_language(alice, language: str) -> None:
    """An API client's socket (a token, no cookie) follows its Accept-Language."""
    token, player = await token_player(alice)
    game = await new_local_game(player)
    headers = [token_header(token), (b"accept-language", language.encode())]
    socket = Socket(f"/ws/games/{game.public_id}/", headers=headers)
    assert (await socket.connect())[0]
    await socket.receive_json_from()
    for _ in range(policy.SOCKET_SYNCS + 1):
        await socket.send_json_to({"type": "sync", "version": 0})
    answers = [await reply(socket) for _ in range(policy.SOCKET_SYNCS + 1)]
    assert answers[-1]["error"]["message"] == TOO_MANY_SYNCS[language]
    await socket.disconnect()


def test_a_players_connection_drives_presence(alice) -> None:
    async_to_sync(_a_players_connection_drives_presence)(alice)


async def _a_players_connection_drives_presence(alice) -> None:
    """A token client needs no Origin; its seats are present while it is connected, and the
    viewers get the seats only (no new version, no state) when that changes."""
    token, player = await token_player(alice)
    game = await new_local_game(player)
    spectator = communicator(f"/ws/games/{game.public_id}/")
    assert (await spectator.connect())[0]
    first = await spectator.receive_json_from()
    socket = communicator(f"/ws/games/{game.public_id}/", token)
    assert (await socket.connect())[0]
    state = await receive_until(socket, "state")
    assert state["state"]["you"] == ["black", "white"]
    assert all(seat["connected"] for seat in state["state"]["seats"])
    came = await receive_until(spectator, "presence")
    assert set(came) == {"type", "version", "seats", "spectators", "clock", "server_time"}
    assert (came["version"], came["spectators"]) == (first["version"], 1)
    assert all(seat["connected"] and not seat["absent_since"] for seat in came["seats"])
    await socket.disconnect()
    left = await receive_until(spectator, "presence")
    assert all(not seat["connected"] and seat["absent_since"] for seat in left["seats"])
    await spectator.send_json_to({"type": "sync", "version": first["version"]})
    assert (await spectator.receive_json_from())["type"] == "synced"  # still the same version
    await spectator.disconnect()


def test_unknown_game_and_foreign_origin_are_refused(alice) -> None:
    async_to_sync(_unknown_game_and_foreign_origin_are_refused)(alice)


async def _unknown_game_and_foreign_origin_are_refused(alice) -> None:
    _, player = await token_player(alice)
    assert await communicator("/ws/games/999999/").close_code() == 4404
    game = await new_local_game(player)
    path = f"/ws/games/{game.public_id}/"
    for origin in (b"https://evil.example", b"http://testserver:8001"):  # the port counts too
        foreign = Socket(path, headers=[(b"origin", origin), HOST])
        assert await foreign.close_code() == 4403


def test_an_idle_socket_still_gets_events(alice) -> None:
    async_to_sync(_idle_socket_still_gets_events)(alice)


async def _idle_socket_still_gets_events(alice) -> None:
    """The layer's blocking receive outlasts redis-py 8's default 5 s socket timeout."""
    _, player = await token_player(alice)
    game = await new_local_game(player)
    socket = communicator(f"/ws/games/{game.public_id}/")
    assert (await socket.connect())[0]
    await socket.receive_json_from()
    assert await socket.receive_nothing(timeout=6.5)
    await database_sync_to_async(games.play_move)(
        player=player, public_id=game.public_id, notation="f5", ply=0
    )
    assert (await receive_until(socket, "move"))["ply"] == 1
    await socket.disconnect()


def test_a_guest_is_recognised_by_the_session_cookie() -> None:
    async_to_sync(_guest_is_recognised_by_the_session_cookie)()


@database_sync_to_async
def guest_session(guest_id: str) -> str:
    session = SessionStore()
    session[GUEST_SESSION_KEY] = guest_id
    session.save()
    return session.session_key


async def _guest_is_recognised_by_the_session_cookie() -> None:
    game = await new_local_game(Player(guest_id="guest-1"))
    cookie = f"{settings.SESSION_COOKIE_NAME}={await guest_session('guest-1')}".encode()
    socket = Socket(f"/ws/games/{game.public_id}/", headers=[*BROWSER, (b"cookie", cookie)])
    assert (await socket.connect())[0]
    assert (await receive_until(socket, "state"))["state"]["you"] == ["black", "white"]
    await socket.disconnect()


def test_an_unknown_websocket_path_is_refused_not_a_server_error() -> None:
    async def connect() -> int | None:
        return await communicator("/ws/games/abc/").close_code()

    assert async_to_sync(connect)() == 4404


def test_a_bad_websocket_token_is_closed_with_4401(alice) -> None:
    async_to_sync(_a_bad_websocket_token_is_closed_with_4401)(alice)


async def _a_bad_websocket_token_is_closed_with_4401(alice) -> None:
    _, player = await token_player(alice)
    game = await new_local_game(player)
    path = f"/ws/games/{game.public_id}/"
    for value in (b"Token %00", b"Token " + b"0" * 40, b"Bearer x", b"Token"):
        socket = Socket(path, headers=[(b"authorization", value)])
        assert await socket.close_code() == 4401, value


@pytest.mark.parametrize("path", ["/ws/games/abcdefghijkm/", "/ws/games/abc/", "/ws/nowhere/"])
def test_a_refused_socket_ends_as_soon_as_its_client_leaves(path: str) -> None:
    """A refused websocket holds no channel-layer subscription: refused after subscribing, the
    consumer outlived its client (and hung the test run when its event loop closed)."""

    async def refuse_and_leave() -> tuple[int | None, bool]:
        socket = communicator(path)
        answer = await socket.close_code()
        await socket.send_input({"type": "websocket.disconnect", "code": 1000})
        await asyncio.wait({socket.future}, timeout=2)
        return answer, socket.future.done()

    assert async_to_sync(refuse_and_leave)() == (4404, True)


def test_sockets_share_a_bounded_pool_of_threads(alice, settings) -> None:
    """Every socket got a thread of its own (4000 sockets, 4000 threads); now they share the
    server's pool."""
    settings.WEBSOCKETS_PER_VIEWER = 24  # one player's 24 sockets, past the usual cap
    async_to_sync(_sockets_share_a_bounded_pool_of_threads)(alice)


async def _sockets_share_a_bounded_pool_of_threads(alice) -> None:
    token, player = await token_player(alice)
    game = await new_local_game(player)
    before = threading.active_count()
    sockets = [communicator(f"/ws/games/{game.public_id}/", token) for _ in range(24)]
    for socket in sockets:
        assert (await socket.connect())[0]
        await receive_until(socket, "state")
    grown = threading.active_count() - before
    for socket in sockets:
        await socket.disconnect()
    assert grown <= 12, f"{grown} more threads for {len(sockets)} sockets"


def test_socket_calls_give_their_database_connections_back(alice) -> None:
    """The shared threads kept the connection of every call (channels' ``DatabaseSyncToAsync``
    closed it outside the call's context): a few dozen sockets emptied the pool."""
    from django.db import connection

    async_to_sync(_open_and_close_sockets)(alice)
    connection.close()  # this thread's own goes back too: now every connection is idle
    stats = connection.pool.get_stats()
    assert stats["pool_size"] - stats["pool_available"] == 0, stats


async def _open_and_close_sockets(alice) -> None:
    token, player = await token_player(alice)
    game = await new_local_game(player)
    for _ in range(6):
        socket = communicator(f"/ws/games/{game.public_id}/", token)
        assert (await socket.connect())[0]
        await receive_until(socket, "state")
        await socket.disconnect()


def test_a_websocket_token_needs_the_read_scope_and_may_be_a_bearer(alice) -> None:
    async_to_sync(_a_websocket_token_needs_the_read_scope_and_may_be_a_bearer)(alice)


async def _a_websocket_token_needs_the_read_scope_and_may_be_a_bearer(alice) -> None:
    _, player = await token_player(alice)
    game = await new_local_game(player)
    path = f"/ws/games/{game.public_id}/"
    user = await database_sync_to_async(get_user_model().objects.get)(pk=player.user_id)
    _, play_only = await database_sync_to_async(issue_token)(user=user, name="p", scopes=["play"])
    refused = Socket(path, headers=[(b"authorization", f"Token {play_only}".encode())])
    assert await refused.close_code() == 4401
    _, reader = await database_sync_to_async(issue_token)(user=user, name="r", scopes=["read"])
    socket = Socket(path, headers=[(b"authorization", f"Bearer {reader}".encode())])
    assert (await socket.connect())[0]
    assert (await receive_until(socket, "state"))["state"]["you"] == ["black", "white"]
    await socket.disconnect()


def unreachable(*args: object, **kwargs: object) -> None:
    """A database call while no connection can be had (the pool's timeout under load)."""
    raise OperationalError("couldn't get a connection after 5.00 sec")


def test_a_handshake_that_cannot_reach_the_database_is_closed_with_1013(alice, monkeypatch) -> None:
    """The token or the game looked up while no database connection can be had (the pool's
    timeout under load) was an exception in the ASGI application: HTTP 500 on the upgrade."""
    async_to_sync(_a_handshake_that_cannot_reach_the_database_is_closed_with_1013)(
        alice, monkeypatch
    )


async def _a_handshake_that_cannot_reach_the_database_is_closed_with_1013(
    alice, monkeypatch
) -> None:
    token, player = await token_player(alice)
    game = await new_local_game(player)
    path = f"/ws/games/{game.public_id}/"

    monkeypatch.setattr("games.accounts.tokens.token_of", unreachable)
    assert await communicator(path, token).close_code() == 1013  # the token's lookup
    monkeypatch.setattr("games.consumers.selectors.game_pk", unreachable)
    assert await communicator(path).close_code() == 1013  # a page's socket: the game's key


def test_a_socket_that_loses_the_database_after_its_handshake_is_closed_with_1013(
    alice, monkeypatch
) -> None:
    """The state read on connect, or on a resync, while no database connection can be had
    (the soak at a load of 14: the pool's 5 s timeout) was an exception in the ASGI application
    and the socket was cut (1011): now 1013, try again later, as at the handshake."""
    async_to_sync(_a_socket_that_loses_the_database_after_its_handshake_is_closed_with_1013)(
        alice, monkeypatch
    )


async def _a_socket_that_loses_the_database_after_its_handshake_is_closed_with_1013(
    alice, monkeypatch
) -> None:
    token, player = await token_player(alice)
    game = await new_local_game(player)
    path = f"/ws/games/{game.public_id}/"

    synced = communicator(path, token)
    assert (await synced.connect())[0]
    state = await receive_until(synced, "state")
    with monkeypatch.context() as patched:
        patched.setattr("games.consumers.cpu.watched_game", unreachable)
        connecting = communicator(path, token)
        assert await connecting.close_code() == 1013  # the state on connect
        await synced.send_json_to({"type": "sync", "version": state["version"] - 1})
        while (closed := await synced.receive_output(timeout=5))["type"] != "websocket.close":
            pass  # presence events come unasked
        assert closed["code"] == 1013  # a resync's
    await synced.wait()


def test_a_push_never_waits_for_the_thread_sensitive_thread(alice) -> None:
    """Channels' consumers hop to the process's one thread-sensitive thread before each message
    (to close old database connections): a push to every socket queued behind whatever held
    that thread. The sockets' database calls close their own connections (``in_pool``)."""
    async_to_sync(_a_push_never_waits_for_the_thread_sensitive_thread)(alice)


async def _a_push_never_waits_for_the_thread_sensitive_thread(alice) -> None:
    _, player = await token_player(alice)
    game = await new_local_game(player)
    socket = communicator(f"/ws/games/{game.public_id}/")
    assert (await socket.connect())[0]
    await receive_until(socket, "state")
    released = threading.Event()
    holding = asyncio.ensure_future(sync_to_async(released.wait)())  # thread-sensitive
    try:
        await in_pool(games.play_move)(
            player=player, public_id=game.public_id, notation="f5", ply=0
        )
        assert (await receive_until(socket, "move"))["ply"] == 1
    finally:
        released.set()
        await holding
    await socket.disconnect()
