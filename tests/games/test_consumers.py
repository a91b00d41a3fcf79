"""The game websocket on the real Redis channel layer."""

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore

from games.identity import GUEST_SESSION_KEY, Player
from games.models import Game, Seat
from games.services import games
from tests.games.sockets import ORIGIN, Socket

pytestmark = pytest.mark.django_db(transaction=True)


def communicator(path: str, token: str = "", origin: tuple = ORIGIN) -> Socket:
    query = f"?token={token}" if token else ""
    return Socket(path + query, headers=[origin])


async def receive_until(socket: Socket, kind: str) -> dict:
    while True:
        message = await socket.receive_json_from(timeout=5)
        if message["type"] == kind:
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
    await database_sync_to_async(games.play_move)(
        player=player, game_id=game.pk, notation="f5", ply=0
    )
    event = await receive_until(socket, "move")
    assert (event["ply"], event["state"]["last_move"]["move"]) == (1, "f5")
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


def test_a_players_connection_drives_presence(alice) -> None:
    async_to_sync(_a_players_connection_drives_presence)(alice)


async def _a_players_connection_drives_presence(alice) -> None:
    token, player = await token_player(alice)
    game = await new_local_game(player)
    socket = communicator(f"/ws/games/{game.public_id}/", token)
    assert (await socket.connect())[0]
    state = await receive_until(socket, "state")
    assert state["state"]["you"] == ["black", "white"]
    seats = await database_sync_to_async(list)(Seat.objects.filter(game_id=game.pk))
    assert all(seat.connections == 1 and seat.absent_since is None for seat in seats)
    await socket.disconnect()
    seats = await database_sync_to_async(list)(Seat.objects.filter(game_id=game.pk))
    assert all(seat.connections == 0 and seat.absent_since for seat in seats)


def test_unknown_game_and_foreign_origin_are_refused(alice) -> None:
    async_to_sync(_unknown_game_and_foreign_origin_are_refused)(alice)


async def _unknown_game_and_foreign_origin_are_refused(alice) -> None:
    _, player = await token_player(alice)
    socket = communicator("/ws/games/999999/")
    connected, code = await socket.connect()
    assert (connected, code) == (False, 4404)
    game = await new_local_game(player)
    foreign = communicator(
        f"/ws/games/{game.public_id}/", origin=(b"origin", b"https://evil.example")
    )
    assert (await foreign.connect())[0] is False


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
        player=player, game_id=game.pk, notation="f5", ply=0
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
    socket = Socket(f"/ws/games/{game.public_id}/", headers=[ORIGIN, (b"cookie", cookie)])
    assert (await socket.connect())[0]
    assert (await receive_until(socket, "state"))["state"]["you"] == ["black", "white"]
    await socket.disconnect()


def test_an_unknown_websocket_path_is_refused_not_a_server_error() -> None:
    async def connect() -> tuple[bool, object]:
        return await communicator("/ws/games/abc/").connect()

    assert async_to_sync(connect)() == (False, 4404)


def test_a_websocket_token_with_a_nul_byte_is_not_a_server_error(alice) -> None:
    async_to_sync(_a_websocket_token_with_a_nul_byte_is_not_a_server_error)(alice)


async def _a_websocket_token_with_a_nul_byte_is_not_a_server_error(alice) -> None:
    _, player = await token_player(alice)
    game = await new_local_game(player)
    socket = communicator(f"/ws/games/{game.public_id}/", "%00")
    assert (await socket.connect())[0]  # a spectator, as with any unknown token
    assert (await receive_until(socket, "state"))["state"]["you"] == []
    await socket.disconnect()


@pytest.mark.parametrize("path", ["/ws/games/abcdefghijkm/", "/ws/games/abc/", "/ws/nowhere/"])
def test_a_refused_socket_ends_as_soon_as_its_client_leaves(path: str) -> None:
    """A refused websocket holds no channel-layer subscription: refused after subscribing, the
    consumer outlived its client (and hung the test run when its event loop closed)."""

    async def refuse_and_leave() -> tuple[tuple[bool, object], bool]:
        socket = communicator(path)
        answer = await socket.connect()
        await socket.send_input({"type": "websocket.disconnect", "code": 1000})
        await asyncio.wait({socket.future}, timeout=2)
        return answer, socket.future.done()

    assert async_to_sync(refuse_and_leave)() == ((False, 4404), True)
