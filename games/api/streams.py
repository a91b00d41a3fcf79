"""NDJSON streams for API clients and bots (issue 14 §6; lichess's Bot API shapes), so a bot
never polls. One JSON object a line; an empty line every ``policy.STREAM_KEEPALIVE`` keeps the
connection alive. Both read what the services already send to the channel layer (the account's
and the game's groups, ``games.services.events``), never the database in a loop.

- ``GET /api/stream/event``: the account's events. First ``gameStart`` for each game it is
  playing and ``challenge`` for each pending challenge, then as they happen: ``gameStart``,
  ``gameFinish`` (``{"type", "game": presenters.AccountGame}``), ``challenge`` (a new one,
  sent or received), ``challengeDeclined``, ``challengeCanceled``
  (``{"type", "challenge": presenters.ChallengeState}``).
- ``GET /api/bot/game/stream/<id>``: one game. First ``{"type": "gameFull", "state": ...}``
  (the state as ``GET /api/games/<id>/`` answers it), then ``{"type": "gameState", "event":
  ...}`` for each change, the event as the game's websocket sends this viewer (a move's small
  event, any other change with the whole state), in order of version; it ends after the game
  does. Presence is not streamed; a stream of an account that holds no seat of the game counts
  it as a spectator while it is open (``games.services.watching``), as a websocket would.

An open stream counts its account as online (``games.shared.presence``), renewed at each
keep-alive.

An account (session or a token with the "read" scope) may hold ``policy.STREAMS_PER_ACCOUNT``
streams open at once (``games.shared.streams``).
"""

import asyncio
import json
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import aclosing
from uuid import uuid4

import redis.asyncio
from channels.layers import get_channel_layer
from django.conf import settings
from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.views import APIView

from games import policy, presenters, selectors
from games.identity import Player, presence_key
from games.models import Challenge, Game
from games.services import cpu, events, presence, watching
from games.shared import presence as presence_store
from games.shared import streams
from games.shared.api import with_errors
from games.shared.errors import Unauthenticated
from games.shared.threads import in_pool

NDJSON = "application/x-ndjson"
CHALLENGE_EVENTS: dict[str, str] = {  # a challenge's status -> the stream's type; others unsaid
    Challenge.Status.PENDING: "challenge",
    Challenge.Status.DECLINED: "challengeDeclined",
    Challenge.Status.CANCELLED: "challengeCanceled",
}


def line(event: object) -> bytes:
    return json.dumps(event).encode() + b"\n"


def stream_event(event: presenters.UserEvent) -> dict | None:
    """An account's event as its event stream says it (None: not said)."""
    if event["type"] != "challenge":
        return dict(event)
    kind = CHALLENGE_EVENTS.get(event["challenge"]["status"])
    return {"type": kind, "challenge": event["challenge"]} if kind else None


def _account_id(request: Request) -> int:
    """The id of the request's account; 401 for a guest (streams are counted per account)."""
    if not request.user.is_authenticated:
        raise Unauthenticated("not_signed_in")
    return int(request.user.pk)


def _response(
    lines: Callable[[Callable[[], Awaitable[None]]], AsyncGenerator[bytes]], *, user_id: int
) -> StreamingHttpResponse:
    """A streamed answer of ``lines``, holding one of the account's stream slots (429 when none
    is free) that ``lines`` renews at each keep-alive through the callable it is given."""
    slot = streams.open_slot(user_id=user_id, limit=policy.STREAMS_PER_ACCOUNT)
    online = {"viewer": presence_key(Player(user_id=user_id), None, ""), "connection": slot}

    async def held() -> AsyncGenerator[bytes]:
        client = redis.asyncio.Redis.from_url(settings.REDIS_URL)

        async def renew() -> None:
            await streams.renew_slot(client, user_id=user_id, slot=slot)
            await in_pool(presence_store.come_online)(**online)

        try:
            await in_pool(presence_store.come_online)(**online)
            async with aclosing(lines(renew)) as chunks:
                async for chunk in chunks:
                    yield chunk
        finally:
            await streams.close_slot(client, user_id=user_id, slot=slot)
            await in_pool(presence_store.go_offline)(**online)
            await client.aclose()

    response = StreamingHttpResponse(held(), content_type=NDJSON)
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # a proxy passes each line on at once
    return response


async def group_messages(
    groups: list[str], renew: Callable[[], Awaitable[None]]
) -> AsyncGenerator[dict | None]:
    """The channel-layer messages sent to ``groups`` from now on, and None every keep-alive
    period, busy or not (the subscriptions and the stream's slot renewed then)."""
    layer = get_channel_layer()
    channel = await layer.new_channel()
    for group in groups:
        await layer.group_add(group, channel)
    receiving = asyncio.ensure_future(layer.receive(channel))
    clock = asyncio.get_running_loop()
    beat = clock.time() + policy.STREAM_KEEPALIVE
    try:
        yield None  # subscribed: the caller reads what was before, then what comes
        while True:
            done, _ = await asyncio.wait({receiving}, timeout=max(0.0, beat - clock.time()))
            if done:
                message = receiving.result()
                receiving = asyncio.ensure_future(layer.receive(channel))
                yield message
            if clock.time() >= beat:
                beat = clock.time() + policy.STREAM_KEEPALIVE
                for group in groups:  # the layer's memberships lapse too
                    await layer.group_add(group, channel)
                await renew()
                yield None
    finally:
        receiving.cancel()
        for group in groups:
            await layer.group_discard(group, channel)


class EventStreamView(APIView):
    """The account's events as NDJSON, kept open (lichess's ``/api/stream/event``)."""

    @extend_schema(responses=with_errors({200: OpenApiResponse(OpenApiTypes.STR)}, 401, 403, 429))
    def get(self, request: Request) -> StreamingHttpResponse:
        user_id = _account_id(request)
        return _response(lambda renew: account_lines(user_id, renew), user_id=user_id)


def _open_events(user_id: int) -> list[dict]:
    """What an account's event stream starts with: its games in play, its pending challenges."""
    playing = selectors.games_of(Player(user_id=user_id), status=Game.Status.ACTIVE)
    pending = selectors.pending_challenges_of(user_id)
    return [
        *(
            {"type": "gameStart", "game": presenters.account_game(g, user_id=user_id)}
            for g in playing
        ),
        *(
            {"type": "challenge", "challenge": presenters.challenge_state(c, viewer_id=user_id)}
            for c in pending
        ),
    ]


async def account_lines(
    user_id: int, renew: Callable[[], Awaitable[None]]
) -> AsyncGenerator[bytes]:
    async with aclosing(
        group_messages([events.user_group(user_id), events.games_group(user_id)], renew)
    ) as messages:
        await anext(messages)
        yield b"\n"  # subscribed: the answer's headers leave now (a server sends them with it)
        for event in await in_pool(_open_events)(user_id):
            yield line(event)
        async for message in messages:
            said = stream_event(message["event"]) if message else None
            yield line(said) if said else b"\n"


class GameStreamView(APIView):
    """One game as NDJSON: its full state, then each change until it ends."""

    @extend_schema(
        responses=with_errors({200: OpenApiResponse(OpenApiTypes.STR)}, 401, 403, 404, 429)
    )
    def get(self, request: Request, public_id: str) -> StreamingHttpResponse:
        user_id = _account_id(request)
        game_id = selectors.game_pk(public_id)
        player = Player(user_id=user_id)
        return _response(lambda renew: watched_game_lines(game_id, player, renew), user_id=user_id)


def _game_full(game_id: int, player: Player) -> presenters.GameState:
    return presenters.game_state(cpu.watched_game(game_id=game_id), viewer=player)


async def watched_game_lines(
    game_id: int, player: Player, renew: Callable[[], Awaitable[None]]
) -> AsyncGenerator[bytes]:
    """``game_lines``, the account counted as a spectator while they flow when it holds no
    seat of the game (counted before its state is read, as a spectator's socket is)."""
    if await in_pool(presence.held_colors)(player=player, game_id=game_id):
        async with aclosing(game_lines(game_id, player, renew)) as lines:
            async for chunk in lines:
                yield chunk
        return
    watcher = {
        "game_id": game_id,
        "viewer": presence_key(player, None, ""),
        "connection": uuid4().hex,
    }

    async def renew_watching() -> None:
        await renew()
        await in_pool(watching.spectator_connected)(**watcher)

    try:
        await in_pool(watching.spectator_connected)(**watcher)
        async with aclosing(game_lines(game_id, player, renew_watching)) as lines:
            async for chunk in lines:
                yield chunk
    finally:
        await in_pool(watching.spectator_disconnected)(**watcher)


async def game_lines(
    game_id: int, player: Player, renew: Callable[[], Awaitable[None]]
) -> AsyncGenerator[bytes]:
    view = presenters.viewer_key(player)
    async with aclosing(group_messages([events.game_group(game_id)], renew)) as messages:
        await anext(messages)
        state = await in_pool(_game_full)(game_id, player)
        yield line({"type": "gameFull", "state": state})
        if state["status"] == Game.Status.FINISHED:
            return
        version = state["version"]
        async for message in messages:
            if message is None:
                yield b"\n"
                continue
            # Presence is no change of the game (no version); an older version is in the state.
            if message["type"] != "game.event" or message["version"] <= version:
                continue
            version = message["version"]
            texts = message["texts"]
            event = json.loads(texts.get(view) or texts[events.SPECTATOR])
            yield line({"type": "gameState", "event": event})
            if event.get("state", event)["status"] == Game.Status.FINISHED:
                return
