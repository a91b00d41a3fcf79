"""Live game updates over ``/ws/games/<id>/`` (JSON messages).

On connect the viewer gets ``{"type": "state", ...}`` with the full state; every change arrives as
an event ``{"type": "move"|"undo"|..., "ply": n, "version": v, "state": {...}}``. A client that
may have missed events sends ``{"type": "sync", "version": v}`` (or ``"ply"``) and gets the full
state when it is behind. A seated player's connections drive their presence (the 2-minute rule);
anyone else watches as a spectator.
"""

import json
import re
from urllib.parse import parse_qs

from asgiref.sync import ThreadSensitiveContext
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.urls import path, re_path
from rest_framework.authtoken.models import Token

from games import presenters, selectors
from games.identity import Player, player_from_session
from games.models import Game
from games.services import cpu, events, presence

SEAT_CHANGES = {"started", "joined", "takeover"}
TOKEN_KEY = re.compile(r"[0-9a-f]{40}")  # the form of DRF's token keys


class TokenAuthMiddleware:
    """Websocket auth for API clients: ``?token=<key>`` sets the scope's user."""

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
    token = Token.objects.select_related("user").filter(key=key).first()
    return token.user if token else None


@database_sync_to_async
def _scope_player(scope: dict) -> Player | None:
    return player_from_session(scope.get("user"), scope.get("session"), create=False)


@database_sync_to_async
def _game(game_id: int) -> Game | None:
    return Game.objects.filter(pk=game_id).first()


@database_sync_to_async
def _current_state(game_id: int, player: Player | None) -> presenters.GameState:
    return presenters.game_state(cpu.watched_game(game_id=game_id), viewer=player)


@database_sync_to_async
def _viewer_colors(game_id: int, player: Player | None) -> list[str]:
    return selectors.viewer_colors(Game.objects.get(pk=game_id), player)


class GameConsumer(AsyncJsonWebsocketConsumer):
    """One viewer of one game."""

    game_id: int
    group = ""
    player: Player | None = None
    you: list[str]

    async def __call__(self, scope: dict, receive: object, send: object) -> None:
        # Like Django's HTTP handler: this connection's database work gets its own thread
        # instead of queueing behind every other websocket on one shared thread.
        async with ThreadSensitiveContext():
            await super().__call__(scope, receive, send)

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        if await _game(self.game_id) is None:
            await self.close(code=4404)
            return
        self.player = await _scope_player(self.scope)
        self.group = events.game_group(self.game_id)
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
        """A change pushed by ``games.services.events.publish`` to the game's group; ``you`` is
        made this viewer's."""
        event = message["event"]
        if event["type"] in SEAT_CHANGES:
            self.you = await _viewer_colors(self.game_id, self.player)
        state: presenters.GameState = {**event["state"], "you": self.you}
        await self.send_json(presenters.game_event(event["type"], state))


class UnknownPathConsumer(AsyncJsonWebsocketConsumer):
    """Any other websocket address: refused with close code 4404 (not a server error)."""

    async def connect(self) -> None:
        await self.close(code=4404)


websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
    re_path(r"", UnknownPathConsumer.as_asgi()),
]
