"""Live game updates over ``/ws/games/<public id>/`` (JSON messages).

On connect the viewer gets ``{"type": "state", ...}`` with the full state; every change arrives as
an event ``{"type": "move"|"undo"|..., "ply": n, "version": v, "state": {...}}``. A client that
may have missed events sends ``{"type": "sync", "version": v}`` (or ``"ply"``) and gets the full
state when it is behind. A seated player's connections drive their presence (the 2-minute rule);
anyone else watches as a spectator and never gets the room's join link (``presenters.seen_by``).
An unknown or malformed game id is closed with code 4404.
"""

import json
import re
from collections.abc import Callable
from urllib.parse import parse_qs

from asgiref.sync import ThreadSensitiveContext
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.urls import path, re_path

from games import presenters, selectors
from games.accounts.tokens import token_of
from games.identity import Player, player_from_session
from games.models import Game
from games.services import cpu, events, presence, watching
from games.shared.errors import NotFound
from games.shared.permissions import READ_SCOPE

SEAT_CHANGES = {"started", "joined", "takeover"}
TOKEN_KEY = re.compile(r"[0-9a-f]{40}")  # the form of an access token's secret


class TokenAuthMiddleware:
    """Websocket auth for API clients: ``?token=<secret>`` (an access token with the "read"
    scope) sets the scope's user."""

    def __init__(self, inner: object) -> None:
        self.inner = inner

    async def __call__(self, scope: dict, receive: object, send: object) -> object:
        keys = parse_qs(scope.get("query_string", b"").decode()).get("token")
        if keys and TOKEN_KEY.fullmatch(keys[0]):  # anything else (a NUL byte, junk) is no token
            user = await _token_user(keys[0])
            if user is not None:
                scope = dict(scope, user=user)
        return await self.inner(scope, receive, send)  # type: ignore[operator]


@database_sync_to_async
def _token_user(key: str) -> object | None:
    token = token_of(key)
    return token.user if token and token.allows(READ_SCOPE) else None


@database_sync_to_async
def _scope_player(scope: dict) -> Player | None:
    return player_from_session(scope.get("user"), scope.get("session"), create=False)


@database_sync_to_async
def _game_pk(public_id: str) -> int | None:
    try:
        return selectors.game_pk(public_id)
    except NotFound:
        return None


@database_sync_to_async
def _current_state(game_id: int, player: Player | None) -> presenters.GameState:
    return presenters.game_state(cpu.watched_game(game_id=game_id), viewer=player)


@database_sync_to_async
def _viewer_colors(game_id: int, player: Player | None) -> list[str]:
    return selectors.viewer_colors(Game.objects.get(pk=game_id), player)


async def refuse_with_not_found(scope: dict, receive: Callable, send: Callable) -> None:
    """Refuse a websocket with close code 4404: an unknown address or game (not a server error).

    A plain ASGI application rather than a consumer: it needs neither the channel layer nor the
    database (a consumer refused after subscribing to the layer lingered after its client left)."""
    while (message := await receive())["type"] != "websocket.disconnect":
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.close", "code": 4404})


class GameConsumer(AsyncJsonWebsocketConsumer):
    """One viewer of one game."""

    game_id: int
    group = ""
    player: Player | None = None
    you: list[str]
    spectating = False

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        # Like Django's HTTP handler: this connection's database work gets its own thread
        # instead of queueing behind every other websocket on one shared thread.
        async with ThreadSensitiveContext():
            game_id = await _game_pk(scope["url_route"]["kwargs"]["public_id"])
            if game_id is None:  # refused before it takes a channel-layer subscription
                await refuse_with_not_found(scope, receive, send)
                return
            self.game_id = game_id
            await super().__call__(scope, receive, send)

    async def connect(self) -> None:
        self.player = await _scope_player(self.scope)
        self.group = events.game_group(self.game_id)
        # A spectator is counted before it joins the group: its state below has the count, and
        # it never gets an event of its own arrival.
        self.spectating = not await _viewer_colors(self.game_id, self.player)
        if self.spectating:
            await database_sync_to_async(watching.spectator_connected)(game_id=self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        if self.player is not None:
            await database_sync_to_async(presence.seat_connected)(
                player=self.player, game_id=self.game_id
            )
        await self.send_state()

    async def disconnect(self, code: int) -> None:
        if not self.group:
            return
        await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.spectating:
            await database_sync_to_async(watching.spectator_disconnected)(game_id=self.game_id)
        if self.player is not None:
            await database_sync_to_async(presence.seat_disconnected)(
                player=self.player, game_id=self.game_id
            )

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Decode a client message; junk (bad JSON, binary frames) gets an error, not a crash."""
        try:
            content = json.loads(text_data) if text_data else None
        except ValueError:
            content = None
        await self.receive_json(content)

    async def receive_json(self, content: object, **kwargs: object) -> None:
        if not isinstance(content, dict) or content.get("type") != "sync":
            await self.send_json(
                {"type": "error", "error": {"code": "bad_message", "message": "Send sync."}}
            )
            return
        state = await _current_state(self.game_id, self.player)
        if content.get("version") == state["version"] or (
            "version" not in content and content.get("ply") == state["ply"]
        ):
            await self.send_json(
                {"type": "synced", "ply": state["ply"], "version": state["version"]}
            )
        else:
            await self.send_json(presenters.game_event("state", state))

    async def send_state(self) -> None:
        state = await _current_state(self.game_id, self.player)
        self.you = state["you"]
        await self.send_json(presenters.game_event("state", state))

    async def game_event(self, message: dict[str, presenters.GameEvent]) -> None:
        """A change pushed by ``games.services.events.publish`` to the game's group, made this
        viewer's (``you``, and the join link for seats only)."""
        event = message["event"]
        if event["type"] in SEAT_CHANGES:
            self.you = await _viewer_colors(self.game_id, self.player)
        state = presenters.seen_by(event["state"], you=self.you)
        await self.send_json(presenters.game_event(event["type"], state))


@database_sync_to_async
def _lobby_seeks(player: Player | None) -> list[presenters.SeekState]:
    return presenters.lobby_seeks(selectors.open_seeks(), viewer=player)


class LobbyConsumer(AsyncJsonWebsocketConsumer):
    """A lobby viewer (``/ws/lobby/``): ``{"type": "seeks", "accepted": null, "seeks": [...]}``
    on connect and after every change of the open seeks (``events.publish_lobby``); a signed-in
    viewer also gets ``{"type": "challenge", "challenge": {...}}`` for each change of one of
    their challenges (``events.publish_to_user``)."""

    groups_joined: list[str]

    async def connect(self) -> None:
        player = await _scope_player(self.scope)
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

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The lobby is read-only over the socket (seeks are made and taken over HTTP)."""

    async def lobby_event(
        self, message: dict[str, presenters.LobbyEvent | presenters.UserEvent]
    ) -> None:
        await self.send_json(message["event"])


websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/games/<public_id:public_id>/", GameConsumer.as_asgi()),
    re_path(r"", refuse_with_not_found),  # type: ignore[arg-type]  # an ASGI app, as Channels allows
]
