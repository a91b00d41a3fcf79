"""The clock steps of a timed game (issue 14 §2), run by the services on a locked game row.

``game.clock_ms`` is each colour's time left when the current turn started
(``game.turn_started_at``); ``game.flag_at`` is when the player to move runs out. A move
``press``es the mover's clock (time spent taken off, the increment added); ``run`` starts the
next player's and schedules the server's flag check for that moment (``games.tasks.flag``);
``stop`` freezes the clocks when a game ends. The server alone decides a flag
(``games.services.games.end_on_time``).
"""

from datetime import datetime, timedelta

from ai_worker.engine import Board
from games import selectors
from games.models import Game
from games.services import events
from games.shared.time_controls import TimeControl

# The fields the clock steps change.
CLOCK_FIELDS = ("clock_ms", "turn_started_at", "flag_at")


def time_control(game: Game) -> TimeControl | None:
    """The game's time control, or None when it is untimed."""
    return TimeControl.parse(game.time_control) if game.time_control else None


def set_up(*, game: Game, control: TimeControl | None, players: int) -> None:
    """Give every colour the time control's initial time (the clocks run from the start)."""
    game.time_control = control.name if control else ""
    game.clock_ms = [control.initial_ms] * players if control else None


def out_of_time(game: Game, now: datetime) -> bool:
    """Whether the player to move of an active timed game has run out of time by ``now``."""
    return game.status == Game.Status.ACTIVE and game.flag_at is not None and now >= game.flag_at


def press(*, game: Game, color: int, now: datetime) -> None:
    """The player ``color`` moves at ``now``: the time spent is taken off their clock and the
    increment added (a full allowance again in correspondence); the next turn starts now."""
    control = time_control(game)
    left = selectors.clock_remaining_ms(game, now)
    if control is None or left is None:
        return
    game.clock_ms = [*left[:color], control.after_move(left[color]), *left[color + 1 :]]
    game.turn_started_at = now


def run(*, game: Game, board: Board, now: datetime) -> None:
    """Start the clock of the player to move in ``board`` (or none once the game is over) and
    schedule the flag check at the moment they would run out."""
    if game.clock_ms is None or game.status != Game.Status.ACTIVE:
        game.flag_at = None
        return
    if game.turn_started_at is None:
        game.turn_started_at = now
    game.flag_at = game.turn_started_at + timedelta(milliseconds=game.clock_ms[board.turn])
    events.send_flag_check(game=game)


def reschedule(*, game: Game) -> None:
    """Schedule the flag check of the current turn again (one that fired before its time)."""
    events.send_flag_check(game=game)


def stop(*, game: Game, now: datetime) -> None:
    """Freeze the clocks of a game that ends at ``now`` (before its status changes)."""
    if game.clock_ms is None:
        return
    game.clock_ms = selectors.clock_remaining_ms(game, now)
    game.turn_started_at = None
    game.flag_at = None
