"""The steps every game service shares: lock the game, check the player's seat and the game's
status, and commit a change (version, the CPU's turn, the saved fields, the event)."""

import random
import secrets
from collections.abc import Iterable

from django.db import connection, transaction
from django.utils import timezone

from ai_worker.engine import COLOR_NAMES, Board
from games import selectors
from games.identity import Player
from games.models import Game
from games.services import events
from games.shared.errors import Forbidden, NotFound, ServiceError
from games.shared.ids import is_public_id


def serialise(*, purpose: str, key: object) -> None:
    """Hold a transaction-scoped advisory lock on ``purpose`` and ``key`` (e.g. a player), so
    that concurrent writes counting their own rows (limits) run one after the other."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"{purpose}:{key}"])


def locked_game(*, game_id: int | None = None, public_id: str | None = None) -> Game:
    """The game row, locked until the transaction ends, with its seats: by its key, or by its
    public id (a request's: the lock finds the row, no query looks its key up first; a
    malformed id is ``NotFound`` without a query)."""
    games = Game.objects.select_for_update().prefetch_related(selectors.SEATS)
    found = None
    if game_id is not None:
        found = games.filter(pk=game_id).first()
    elif public_id is not None and is_public_id(public_id):
        found = games.filter(public_id=public_id).first()
    if found is None:
        raise NotFound("not_found")
    return found


def colors_of(*, game: Game, player: Player) -> set[int]:
    """The colours the player holds in the game; ``Forbidden`` when they hold none."""
    mine = {seat.color for seat in game.seats.all() if player.holds(seat)}
    if not mine:
        raise Forbidden("not_your_seat")
    return mine


def require_active(*, game: Game) -> None:
    if game.status == Game.Status.FINISHED:
        raise ServiceError("game_over")
    if game.status == Game.Status.WAITING:
        raise ServiceError("waiting_for_players")


def color_index(*, color: str, players: int, rng: random.Random | None = None) -> int:
    """The index of a colour name; "random" picks one with ``rng`` where it is allowed."""
    if color == "random" and rng is not None:
        return rng.randrange(players)
    names = COLOR_NAMES[:players]
    if color not in names:
        raise ServiceError("bad_color", field="color", colors=", ".join(names), players=players)
    return names.index(color)


def new_seed() -> int:
    return secrets.randbits(31)


def commit(
    *,
    game: Game,
    board: Board,
    kind: str,
    fields: Iterable[str] = (),
    search: events.Search | None = None,
) -> events.GroupMessage:
    """Store a change of ``game`` (whose position is ``board``) and announce it as ``kind``;
    returns the event as its viewers get it.

    Saves ``fields`` with the new version and ``cpu_queued_at``: when the CPU is now to move,
    its search is queued (unless a player of the game has ``QUEUED_SEARCHES_PER_PLAYER`` queued
    already: the turn then waits for one of them, ``cpu.queue_waiting_turns``); otherwise it is
    cleared, and a turn that waited for this one may go. On commit the event leaves first, then
    the CPU's search or ``search`` (a hint).
    """
    changed = {*fields, "version", "updated_at", "cpu_queued_at"}
    answered = game.cpu_queued_at is not None
    game.cpu_queued_at = None
    if selectors.cpu_to_move(game, board) and selectors.may_queue_search(game):
        game.cpu_queued_at = timezone.now()
        search = events.Search(events.CPU_MOVE_TASK, selectors.level_to_move(game, board))
    game.version += 1
    game.save(update_fields=sorted(changed))
    message = events.announce(game=game, kind=kind, board=board, search=search)
    if answered and game.cpu_queued_at is None:
        holders, game_id = selectors.seat_holders(game), game.pk
        transaction.on_commit(lambda: _queue_waiting_turns(holders, game_id))
    return message


def _queue_waiting_turns(players: list[Player], answered: int) -> None:
    from games.services import cpu  # here: cpu builds on these steps

    cpu.queue_waiting_turns(players=players, answered=answered)
