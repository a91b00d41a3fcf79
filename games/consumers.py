"""Live game updates over ``/ws/games/<public id>/`` (JSON messages; README, "Websocket").

On connect the viewer gets ``{"type": "state", "version": v, "state": {...}}``, the full state.
Then every change arrives once, in order of ``version`` (each one more than the last): a move as
a small event (``presenters.MoveEvent``: the move, its flips, who moves next, the legal moves,
the counts), any other change with the whole state. A client that sees a gap in the versions (or
reconnects) sends ``{"type": "sync", "version": v}`` and gets the full state when it is behind;
anything else gets an error frame whose message is in the handshake's language (as for HTTP).
Events come serialized from ``games.services.events``: the consumer picks its viewer's text and
never sends a version older than one it sent. A seated player's connections drive their
presence (the 2-minute rule); anyone else watches as a spectator (counted while it is open) and
never gets the room's join link. A socket on ``/ws/lobby/`` (``LobbyConsumer``) hears of the
open seeks and its account's challenges.

Who may connect (``SocketGate``): an API client sends ``Authorization: Token <secret>`` (an access
token with the "read" scope) and needs no ``Origin``; a browser (session cookie) must come from
the site's own origin, port included. Refusals are accepted, then closed with a code a client
can read: 4401 a bad token, 4403 a foreign origin, 4404 an unknown game or address, 4429 too
many sockets (``CountedSocket``: a viewer may hold ``WEBSOCKETS_PER_VIEWER`` sockets, a client
address ``WEBSOCKETS_PER_ADDRESS``), 1013 (try again later) when the token or the game could not
be looked up (the database down, or no pooled connection free in time: the HTTP API's 503).
"""

import asyncio
import json
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.urls import path, re_path
from django.utils import translation

from games import policy, presenters, selectors
from games.identity import Player, player_from_session, presence_key
from games.services import cpu, events, presence, watching
from games.shared import presence as presence_store
from games.shared.clients import socket_client_ip, socket_language
from games.shared.errors import NotFound, ServiceError
from games.shared.outages import OUTAGES
from games.shared.permissions import READ_SCOPE
from games.shared.threads import in_pool

CLOSE_BAD_TOKEN = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_TOO_MANY = 4429
CLOSE_TRY_AGAIN_LATER = 1013

logger = logging.getLogger(__name__)

ASGIApp = Callable[[dict, Callable, Callable], Awaitable[None]]


def refusal(code: int) -> ASGIApp:
    """An ASGI application that accepts a websocket and closes it at once with ``code``.

    A plain application rather than a consumer: it needs neither the channel layer nor the
    database (a consumer refused after subscribing to the layer lingered after its client left).
    """

    async def refuse(scope: dict, receive: Callable, send: Callable) -> None:
        while (message := await receive())["type"] != "websocket.disconnect":
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.close", "code": code})

    return refuse


refuse_with_not_found = refusal(CLOSE_NOT_FOUND)


async def refuse_for_now(scope: dict, receive: Callable, send: Callable, error: Exception) -> None:
    """A socket whose handshake needed the database while it could not be reached: closed with
    1013, try again later (it was an exception in the ASGI application: a 500 on the upgrade)."""
    logger.warning("websocket refused for now: %r", error)
    await refusal(CLOSE_TRY_AGAIN_LATER)(scope, receive, send)


class SocketGate:
    """Lets a websocket in: a token client by its ``Authorization`` header, a browser only from
    the site's own origin (``origin_allowed``). The token is read before the gate by the
    project's authentication middleware (the accounts app's ``TokenAuthMiddleware`` in
    ``reversi_site/asgi.py``), which puts its account in ``scope["user"]`` and the token, which
    has ``allows(scope)``, in ``scope["auth"]``: a header without a token there, or with a
    token without the "read" scope, is refused."""

    def __init__(self, inner: ASGIApp) -> None:
        self.inner = inner

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        headers = {name.lower(): value for name, value in scope.get("headers", [])}
        if "auth_unavailable" in scope:  # the token could not be looked up: try again later
            return await refuse_for_now(scope, receive, send, scope["auth_unavailable"])
        if b"authorization" in headers:
            token = scope.get("auth")
            if token is None or not token.allows(READ_SCOPE):
                return await refusal(CLOSE_BAD_TOKEN)(scope, receive, send)
        elif not origin_allowed(headers):
            return await refusal(CLOSE_FORBIDDEN)(scope, receive, send)
        return await self.inner(scope, receive, send)


def origin_allowed(headers: dict[bytes, bytes]) -> bool:
    """A browser's socket comes from the page's own origin (scheme-less ``host:port`` equal to
    the ``Host`` it connects to, on an allowed host) or a trusted origin; a client that sends
    no ``Origin`` is no browser (browsers always send it), so no page can forge its requests."""
    origin = headers.get(b"origin")
    if origin is None:
        return True
    text = origin.decode("latin-1")
    if text in settings.CSRF_TRUSTED_ORIGINS:
        return True
    parts = urlsplit(text)
    host = headers.get(b"host", b"").decode("latin-1")
    allowed = settings.ALLOWED_HOSTS
    return (
        bool(host)
        and parts.netloc == host
        and ("*" in allowed or (parts.hostname or "") in allowed)
    )


@in_pool
def _scope_player(scope: dict) -> Player | None:
    return player_from_session(scope.get("user"), scope.get("session"), create=False)


@in_pool
def _game_pk(public_id: str) -> int | None:
    try:
        return selectors.game_pk(public_id)
    except NotFound:
        return None


@in_pool
def _current_state(game_id: int, player: Player | None) -> presenters.GameState:
    return presenters.game_state(cpu.watched_game(game_id=game_id), viewer=player)


class CountedSocket(AsyncJsonWebsocketConsumer):
    """A websocket that counts, while it lives, for its viewer (a person) and its client
    address, each capped (``claim``), and its viewer as online; a heartbeat renews it until it
    ends, and it stops counting however it ends (``leave``), also when a send to a client that
    vanished raised."""

    viewer = ""  # who watches: an account, a guest, else a browser session or an address
    owners: dict[str, int] = {}  # the counters it takes (``presence.claim_socket``) and limits
    heartbeat: asyncio.Task | None = None
    closing: asyncio.Event  # set when the connection ends: its heartbeat stops

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        self.closing = asyncio.Event()
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self.leave()

    async def dispatch(self, message: dict) -> None:
        """Hand a message (the client's, or a group event) to its handler, without the hop that
        channels makes first to the process's one thread-sensitive thread to close old database
        connections: every database call of these sockets runs ``in_pool``, which closes its
        connection itself, and the hop queued every push to every socket of the process behind
        that one thread."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def claim(self, player: Player | None) -> bool:
        """Count this socket for its viewer and address; when one has its limit the socket is
        refused (accepted, then closed with 4429) and False returned."""
        address = socket_client_ip(self.scope) or "unknown"
        self.viewer = presence_key(player, self.scope.get("session"), address)
        limits = {
            f"viewer:{self.viewer}": settings.WEBSOCKETS_PER_VIEWER,
            f"address:{address}": settings.WEBSOCKETS_PER_ADDRESS,
        }
        if not await _count_socket(limits, self.viewer, self.channel_name):
            await self.accept()
            await self.close(code=CLOSE_TOO_MANY)
            return False
        self.owners = limits
        return True

    def keep_counting(self) -> None:
        """Start the heartbeat, once the socket is counted for all it counts for."""
        self.heartbeat = asyncio.create_task(self.keep_present())

    async def keep_present(self) -> None:
        """Renew this connection every heartbeat until it closes (a dead server's expires)."""
        while True:
            try:
                await asyncio.wait_for(self.closing.wait(), presence_store.HEARTBEAT)
                return
            except TimeoutError:
                await self.renew()

    async def renew(self) -> None:
        await _count_socket(self.owners, self.viewer, self.channel_name)

    async def disconnect(self, code: int) -> None:
        await self.leave()

    async def leave(self) -> None:
        """Stop counting this connection, once: its heartbeat stops (a renewal in flight ends
        first, so it cannot count the connection again), then ``forget``."""
        if self.closing.is_set():
            return
        self.closing.set()
        if self.heartbeat:
            await asyncio.wait([self.heartbeat])
        await self.forget()

    async def forget(self) -> None:
        """Drop what this connection holds (extended by each kind of socket)."""
        if self.owners:
            await _release_socket(list(self.owners), self.viewer, self.channel_name)


@in_pool
def _count_socket(limits: dict[str, int], viewer: str, connection: str) -> bool:
    """Count a socket for its owners (False, and nothing counted, past a limit) and its viewer
    as online (``games.shared.presence``)."""
    if not presence_store.claim_socket(limits=limits, connection=connection):
        return False
    presence_store.come_online(viewer=viewer, connection=connection)
    return True


@in_pool
def _release_socket(owners: list[str], viewer: str, connection: str) -> None:
    presence_store.release_socket(owners=owners, connection=connection)
    presence_store.go_offline(viewer=viewer, connection=connection)


class GameConsumer(CountedSocket):
    """One viewer of one game."""

    game_id: int
    group = ""
    player: Player | None = None
    version = -1  # the newest version sent to this viewer
    seats: list[int] = []  # the colours whose presence this connection keeps (none: a spectator)
    syncs: deque[float]  # when its latest resyncs were asked (``policy.SOCKET_SYNCS`` at most)
    accepted = False  # its handshake was answered
    view = events.SPECTATOR  # its key in an event's texts (presenters.viewer_key)
    language = settings.LANGUAGE_CODE  # of its error messages, as of its handshake

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        try:
            game_id = await _game_pk(scope["url_route"]["kwargs"]["public_id"])
        except OUTAGES as error:
            await refuse_for_now(scope, receive, send, error)
            return
        if game_id is None:  # refused before it takes a channel-layer subscription
            await refuse_with_not_found(scope, receive, send)
            return
        self.game_id = game_id
        self.syncs = deque(maxlen=policy.SOCKET_SYNCS)
        await super().__call__(scope, receive, send)

    async def connect(self) -> None:
        try:
            await self.join()
        except OUTAGES as error:
            await self.close_for_now(error)

    async def close_for_now(self, error: Exception) -> None:
        """The database could not be reached mid-connection (no pooled connection in time,
        under load): closed with 1013, try again later (it was an exception in the ASGI
        application, the socket cut with 1011)."""
        logger.warning("websocket closed for now: %r", error)
        if not self.accepted:
            await self.accept()
        await self.close(code=CLOSE_TRY_AGAIN_LATER)

    async def join(self) -> None:
        """Count the socket, join the game's group, send the state."""
        self.player = await _scope_player(self.scope)
        self.language = socket_language(self.scope)
        if not await self.claim(self.player):
            return
        self.view = presenters.viewer_key(self.player)
        self.group = events.game_group(self.game_id)
        if self.player is not None:
            self.seats = await in_pool(presence.held_colors)(
                player=self.player, game_id=self.game_id
            )
        # Counted before it joins the group: its state below has its presence (a spectator, the
        # count), and it never gets the event of its own arrival.
        await self.renew_presence()
        self.keep_counting()
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        self.accepted = True
        await self.send_state()

    async def forget(self) -> None:
        await super().forget()
        if not self.group:
            return
        await self.channel_layer.group_discard(self.group, self.channel_name)
        try:
            if self.seats:
                await in_pool(presence.seat_disconnected)(
                    game_id=self.game_id, colors=self.seats, connection=self.channel_name
                )
            else:
                await in_pool(watching.spectator_disconnected)(
                    game_id=self.game_id, viewer=self.viewer, connection=self.channel_name
                )
        except OUTAGES as error:  # the seat's absence is not stored; its presence expires
            logger.warning("websocket left during an outage: %r", error)

    async def renew(self) -> None:
        await super().renew()
        await self.renew_presence()

    async def renew_presence(self) -> None:
        """Count this connection for its seats, or its viewer as a spectator when it holds none."""
        if self.seats:
            await in_pool(presence.seat_connected)(
                game_id=self.game_id, colors=self.seats, connection=self.channel_name
            )
        else:
            await in_pool(watching.spectator_connected)(
                game_id=self.game_id, viewer=self.viewer, connection=self.channel_name
            )

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Decode a client message; junk (bad JSON, JSON nested too deep for the decoder,
        binary frames) gets an error, not a crash."""
        try:
            content = json.loads(text_data) if text_data else None
        except (ValueError, RecursionError):
            content = None
        await self.receive_json(content)

    async def receive_json(self, content: object, **kwargs: object) -> None:
        """``{"type": "sync", "version": v}``: ``synced`` when ``v`` is current, else the state;
        past ``policy.SOCKET_SYNCS`` in a window, ``too_many_syncs`` (nothing read)."""
        if not isinstance(content, dict) or content.get("type") != "sync":
            await self.send_error(ServiceError("bad_message"))
            return
        now = time.monotonic()
        if (
            len(self.syncs) == policy.SOCKET_SYNCS
            and now - self.syncs[0] < policy.SOCKET_SYNC_WINDOW
        ):
            await self.send_error(
                ServiceError(
                    "too_many_syncs",
                    count=policy.SOCKET_SYNCS,
                    seconds=round(policy.SOCKET_SYNC_WINDOW),
                )
            )
            return
        self.syncs.append(now)
        try:
            state = await _current_state(self.game_id, self.player)
        except OUTAGES as error:
            await self.close_for_now(error)
            return
        if content.get("version") == state["version"] or (
            "version" not in content and content.get("ply") == state["ply"]
        ):
            self.version = max(self.version, state["version"])
            await self.send_json(
                {"type": "synced", "ply": state["ply"], "version": state["version"]}
            )
        else:
            await self.send_full(state)

    async def send_error(self, error: ServiceError) -> None:
        """``{"type": "error", "error": {"code", "message"}}``, the message in the socket's
        language."""
        with translation.override(self.language):
            message = error.message
        await self.send_json({"type": "error", "error": {"code": error.code, "message": message}})

    async def send_state(self) -> None:
        await self.send_full(await _current_state(self.game_id, self.player))

    async def send_full(self, state: presenters.GameState) -> None:
        self.version = state["version"]
        await self.send_json(presenters.game_event("state", state))

    async def game_event(self, message: events.GroupMessage) -> None:
        """A change sent by ``games.services.events.announce`` to the game's group: its text for
        this viewer (the seat holder's view, else the spectators'), unless this viewer already
        has that version or a newer one."""
        if message["version"] <= self.version:
            return
        self.version = message["version"]
        texts = message["texts"]
        await self.send(text_data=texts.get(self.view) or texts[events.SPECTATOR])

    async def game_presence(self, message: dict[str, str]) -> None:
        """Who is at the board (``games.services.events.announce_presence``), unversioned."""
        await self.send(text_data=message["text"])


@in_pool
def _lobby_seeks(player: Player | None) -> list[presenters.SeekState]:
    return presenters.lobby_seeks(selectors.open_seeks(), viewer=player)


@in_pool
def _online() -> presenters.OnlineState:
    return presenters.online_state(selectors.online_players())


class LobbyConsumer(CountedSocket):
    """A lobby viewer (``/ws/lobby/``): ``{"type": "seeks", "accepted": null, "seeks": [...]}``
    on connect and after every change of the open seeks (``events.publish_lobby``), then
    ``{"type": "online", "online": {...}}`` on connect and when who is online changes
    (``watching.announce_online``); a signed-in
    viewer also gets ``{"type": "challenge", "challenge": {...}}`` for each change of one of
    their challenges (``events.publish_to_user``)."""

    groups_joined: list[str] = []

    async def connect(self) -> None:
        player = await _scope_player(self.scope)
        if not await self.claim(player):
            return
        self.keep_counting()
        self.groups_joined = [events.LOBBY_GROUP]
        if player is not None and player.user_id is not None:  # its challenges come here too
            self.groups_joined.append(events.user_group(player.user_id))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        event: presenters.LobbyEvent = {
            "type": "seeks",
            "accepted": None,
            "seeks": await _lobby_seeks(player),
        }
        await self.send_json(event)
        online: presenters.OnlineEvent = {"type": "online", "online": await _online()}
        await self.send_json(online)

    async def forget(self) -> None:
        await super().forget()
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The lobby is read-only over the socket (seeks are made and taken over HTTP)."""

    async def lobby_event(
        self,
        message: dict[str, presenters.LobbyEvent | presenters.OnlineEvent | presenters.UserEvent],
    ) -> None:
        await self.send_json(message["event"])


websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/games/<public_id:public_id>/", GameConsumer.as_asgi()),
    re_path(r"", refuse_with_not_found),  # type: ignore[arg-type]  # an ASGI app, as Channels allows
]
