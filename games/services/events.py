"""What the services send, on commit only: game events to the viewers (channel layer) and
searches to the workers (Celery). Nothing here changes a row.

Sending is ``robust``: when Redis is down the write is saved all the same and answered; the
failure is logged, and what could not leave is recovered: a viewer gets the full state on its
next event or ``sync`` (the socket reconnects and resynchronises), and a CPU turn whose search
never left is queued again by the stalled-turn sweep (``games.tasks.sweep_stalled_cpu_turns``).
A lost hint is asked for again (``games.services.cpu.request_hint``)."""

from collections.abc import Callable
from typing import Literal

from asgiref.sync import async_to_sync
from celery import current_app
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from ai_worker.engine import Board
from games import policy, presenters, selectors
from games.models import Game

CPU_MOVE_TASK = "games.tasks.cpu_move"
HINT_TASK = "games.tasks.hint"
FLAG_TASK = "games.tasks.flag"
ANALYSIS_TASK = "games.tasks.analyse_position"
REVIEW_TASK = "games.tasks.review_move"


def game_group(game_id: int) -> str:
    """The channel-layer group of a game's viewers."""
    return f"game-{game_id}"


def publish(*, game: Game, kind: str, board: Board) -> None:
    """Push the game's new state to its viewers once the transaction commits (as its seats see
    it: each consumer makes it its viewer's with ``presenters.seen_by``)."""
    event = presenters.game_event(kind, presenters.event_state(game, board=board))
    group = game_group(game.pk)

    def push_game_event() -> None:
        async_to_sync(get_channel_layer().group_send)(group, {"type": "game.event", "event": event})

    transaction.on_commit(push_game_event, robust=True)


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
        async_to_sync(get_channel_layer().group_send)(
            LOBBY_GROUP, {"type": "lobby.event", "event": event}
        )

    transaction.on_commit(send, robust=True)


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
        async_to_sync(get_channel_layer().group_send)(name, {"type": "lobby.event", "event": event})

    transaction.on_commit(push_user_event, robust=True)


def publish_to_seats(*, game: Game, kind: Literal["gameStart", "gameFinish"]) -> None:
    """Tell each account seated in ``game`` that it has started or finished (on commit)."""
    for user_id in sorted({seat.user_id for seat in game.seats.all() if seat.user_id}):
        game_event: presenters.AccountGameEvent = {
            "type": kind,
            "game": presenters.account_game(game, user_id=user_id),
        }
        publish_to_user(user_id=user_id, event=game_event, group=games_group)


def send_search(*, task: str, game: Game, level: str) -> None:
    """Queue a search (``CPU_MOVE_TASK`` or ``HINT_TASK``) of the game at its current ply, with
    the level's priority, once the transaction commits."""
    game_id, ply = game.pk, game.ply
    options = {
        "queue": settings.CELERY_CPU_QUEUE,
        "priority": policy.TASK_PRIORITY_BY_LEVEL[level],
    }

    def queue_search() -> None:
        current_app.send_task(task, args=(game_id, ply), **options)

    transaction.on_commit(queue_search, robust=True)


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
    """Queue the analysis ``analysis_id`` (``ANALYSIS_TASK``) below every live move, once the
    transaction commits."""
    _send_below_live_moves(ANALYSIS_TASK, (analysis_id,))


def send_review(*, game_id: int, ply: int) -> None:
    """Queue the review of the move at ``ply`` (``REVIEW_TASK``) below every live move, once the
    transaction commits."""
    _send_below_live_moves(REVIEW_TASK, (game_id, ply))


def _send_below_live_moves(task: str, args: tuple[int, ...]) -> None:
    options = {"queue": settings.CELERY_CPU_QUEUE, "priority": policy.ANALYSIS_TASK_PRIORITY}

    def queue_task() -> None:
        current_app.send_task(task, args=args, **options)

    transaction.on_commit(queue_task, robust=True)
