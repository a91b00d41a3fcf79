"""What the services send, on commit only: game events to the viewers (channel layer) and
searches to the workers (Celery). Nothing here changes a row.

Order: a change's event leaves before the search it triggers is queued (one ``on_commit``
callback does both, in that order), so a worker that answers at once still publishes after it.
Each event is serialized here, once: a move event is the same text for every viewer; an event
with the whole state has one text per distinct view (each seat holder's, and the spectators').

Sending is ``robust``: when Redis is down the write is saved all the same and answered; the
failure is logged, and what could not leave is recovered: a viewer sees the gap in versions on
its next event and resyncs (or gets the full state when its socket reconnects), and a CPU turn
whose search never left is queued again by the stalled-turn sweep
(``games.tasks.sweep_stalled_cpu_turns``). A lost hint is asked for again
(``games.services.cpu.request_hint``).
"""

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal, TypedDict, cast

from celery import current_app
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from ai_worker.engine import Board
from games import policy, presenters, selectors
from games.models import Game
from reversi_site.channel_layer import PubSubChannelLayer

CPU_MOVE_TASK = "games.tasks.cpu_move"
HINT_TASK = "games.tasks.hint"
FLAG_TASK = "games.tasks.flag"
ANALYSIS_TASK = "games.tasks.analyse_position"
REVIEW_TASK = "games.tasks.review_move"
SPECTATOR = ""  # the view key of anyone who holds no seat


class GroupMessage(TypedDict):
    """What a game's group receives (``GameConsumer.game_event``): the event's texts by view key
    (``presenters.viewer_key`` of a seat holder; ``SPECTATOR`` for everyone else)."""

    type: str
    kind: str
    version: int
    texts: dict[str, str]


@dataclass(frozen=True)
class Search:
    """A search to queue: ``CPU_MOVE_TASK`` or ``HINT_TASK`` at a level."""

    task: str
    level: str


def _group_send(group: str, message: Mapping[str, object]) -> None:
    """``message`` to the channel-layer ``group``, from synchronous code, published before this
    returns (``reversi_site.channel_layer.PubSubChannelLayer.group_send_now``)."""
    cast(PubSubChannelLayer, get_channel_layer()).group_send_now(group, message)


def game_group(game_id: int) -> str:
    """The channel-layer group of a game's viewers."""
    return f"game-{game_id}"


def announce(*, game: Game, kind: str, board: Board, search: Search | None = None) -> GroupMessage:
    """On commit, push the change ``kind`` of ``game`` (whose position is ``board``) to its
    viewers, then queue ``search`` of its current ply (the event always leaves first).
    Returns the message (its texts serialized now, once)."""
    message = group_message(game, kind=kind, board=board)
    group = game_group(game.pk)
    queue = _search_sender(game, search) if search else None

    def deliver() -> None:
        try:
            _group_send(group, message)
        finally:  # the search leaves even when the event could not
            if queue:
                queue()

    transaction.on_commit(deliver, robust=True)
    return message


def announce_presence(*, game: Game) -> None:
    """Push who is at the board to the game's viewers now (no version, no search, the seats
    only; the same text for everyone)."""
    message = {"type": "game.presence", "text": json.dumps(presenters.presence_event(game))}
    _group_send(game_group(game.pk), message)


def send_search(*, game: Game, search: Search) -> None:
    """Queue ``search`` of the game at its current ply once the transaction commits (a search
    that no event announces, e.g. a stalled CPU turn queued again)."""
    transaction.on_commit(_search_sender(game, search), robust=True)


def group_message(game: Game, *, kind: str, board: Board) -> GroupMessage:
    """The serialized event of a change: a move's small event, or the whole state in each view."""
    if kind == "move":
        texts = {SPECTATOR: json.dumps(presenters.move_event(game, board=board))}
    else:
        state = presenters.event_state(game, board=board)
        views = [(SPECTATOR, []), *presenters.seat_views(game).items()]
        texts = {
            key: json.dumps(presenters.game_event(kind, presenters.seen_by(state, you=you)))
            for key, you in views
        }
    return {"type": "game.event", "kind": kind, "version": game.version, "texts": texts}


LOBBY_GROUP = "lobby"


def publish_lobby(*, accepted: str | None = None) -> None:
    """Push the open seeks to every lobby viewer once the transaction commits (read then, so
    the list is the committed one); ``accepted``: the seek whose game has just started."""

    def send() -> None:
        event: presenters.LobbyEvent = {
            "type": "seeks",
            "accepted": accepted,
            "seeks": presenters.lobby_seeks(selectors.open_seeks(), viewer=None),
        }
        _group_send(LOBBY_GROUP, {"type": "lobby.event", "event": event})

    transaction.on_commit(send, robust=True)


def publish_online(state: presenters.OnlineState) -> None:
    """Push who is online to every lobby viewer (now: it is no change of a transaction)."""
    event: presenters.OnlineEvent = {"type": "online", "online": state}
    _group_send(LOBBY_GROUP, {"type": "lobby.event", "event": event})


def user_group(user_id: int) -> str:
    """The channel-layer group of an account's lobby sockets and event streams (its
    challenges)."""
    return f"user-{user_id}"


def games_group(user_id: int) -> str:
    """The channel-layer group of an account's event streams only (its games' starts and ends;
    the lobby page learns of them otherwise)."""
    return f"user-games-{user_id}"


def publish_to_user(
    *, user_id: int, event: presenters.UserEvent, group: Callable[[int], str] = user_group
) -> None:
    """Push ``event`` to the account's ``group`` (its lobby sockets and event streams) once the
    transaction commits."""
    name = group(user_id)

    def push_user_event() -> None:
        _group_send(name, {"type": "lobby.event", "event": event})

    transaction.on_commit(push_user_event, robust=True)


def publish_to_seats(*, game: Game, kind: Literal["gameStart", "gameFinish"]) -> None:
    """Tell each account seated in ``game`` that it has started or finished (on commit)."""
    for user_id in sorted({seat.user_id for seat in game.seats.all() if seat.user_id}):
        game_event: presenters.AccountGameEvent = {
            "type": kind,
            "game": presenters.account_game(game, user_id=user_id),
        }
        publish_to_user(user_id=user_id, event=game_event, group=games_group)


def _search_sender(game: Game, search: Search) -> Callable[[], object]:
    game_id, ply = game.pk, game.ply
    strong = search.level in policy.STRONG_QUEUE_LEVELS
    options = {
        "queue": settings.CELERY_STRONG_QUEUE if strong else settings.CELERY_CPU_QUEUE,
        "priority": policy.TASK_PRIORITY_BY_LEVEL[search.level],
    }
    return lambda: current_app.send_task(search.task, args=(game_id, ply), **options)


def send_flag_check(*, game: Game) -> None:
    """Queue the server's flag check of the game's current turn for its ``flag_at``, once the
    transaction commits (a flag further off than ``policy.FLAG_TASK_HORIZON`` is left to the
    periodic sweep: the broker holds a delayed task only that long)."""
    game_id, ply, flag_at = game.pk, game.ply, game.flag_at
    if flag_at is None or flag_at - timezone.now() > policy.FLAG_TASK_HORIZON:
        return
    options = {
        "queue": settings.CELERY_CPU_QUEUE,
        "priority": policy.FLAG_TASK_PRIORITY,
        "eta": flag_at,
    }

    def queue_check() -> None:
        current_app.send_task(FLAG_TASK, args=(game_id, ply), **options)

    transaction.on_commit(queue_check, robust=True)


def send_analysis(*, analysis_id: int) -> None:
    """Queue the analysis ``analysis_id`` (``ANALYSIS_TASK``) on the strong queue below its
    searches, once the transaction commits."""
    _send_below_live_moves(ANALYSIS_TASK, (analysis_id,))


def send_review(*, game_id: int, ply: int) -> None:
    """Queue the review of the move at ``ply`` (``REVIEW_TASK``) on the strong queue below its
    searches, once the transaction commits."""
    _send_below_live_moves(REVIEW_TASK, (game_id, ply))


def _send_below_live_moves(task: str, args: tuple[int, ...]) -> None:
    """On the strong queue's worker: a review or analysis runs for up to seconds and a task
    already running is never put aside for a higher priority, so on the quick queue an easy or
    normal reply waited behind it (each finished game queues a review of every move)."""
    options = {"queue": settings.CELERY_STRONG_QUEUE, "priority": policy.ANALYSIS_TASK_PRIORITY}

    def queue_task() -> None:
        current_app.send_task(task, args=args, **options)

    transaction.on_commit(queue_task, robust=True)
