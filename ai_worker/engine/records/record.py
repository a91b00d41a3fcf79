"""A game record: the variant, where the game began, the moves with their clocks, the players,
the time control, the date, the site and the result. Every format reads into and writes from a
``GameRecord``; a record checks itself on construction (``RecordError`` names the part and the
move number), so a record that exists is a legal game.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any

from ai_worker.engine.board import Board
from ai_worker.engine.squares import COLOR_NAMES, IllegalMoveError, Move
from ai_worker.engine.variant import Variant

RESULT_REASONS = ("end", "resign", "timeout", "agreement")


class RecordError(ValueError):
    """A record that cannot be read, written or built.

    ``field`` names the part (``"moves"``, ``"BO"``, ``"moves[3].elapsed"``...), ``message``
    says why, ``code`` is a short word (``invalid``, ``unsupported``, or the engine's
    ``IllegalMoveError.code`` for an illegal move) and ``move_number`` (from 1) the move at
    fault, if any.
    """

    def __init__(
        self, field: str, message: str, *, code: str = "invalid", move_number: int | None = None
    ) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        self.code = code
        self.move_number = move_number


@dataclass(frozen=True)
class Player:
    """A seat of the game: the player's name and rating (if known)."""

    name: str
    rating: float | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise RecordError("players", "a name must be a string")
        object.__setattr__(self, "rating", optional_number("players", self.rating))


@dataclass(frozen=True)
class TimeControl:
    """Seconds on each clock at the start, added after each move, and of extra time once a
    clock runs out (0: running out loses)."""

    initial: float
    increment: float = 0.0
    extension: float = 0.0

    def __post_init__(self) -> None:
        for part in fields(self):
            value = _number("time_control", getattr(self, part.name))
            if value < 0:
                raise RecordError("time_control", f"{part.name} must be 0 or more")
            object.__setattr__(self, part.name, value)


@dataclass(frozen=True)
class RecordedMove:
    """A move with its optional annotations: seconds spent (``elapsed``), seconds left on the
    mover's clock after it (``remaining``) and an engine's score for the mover (``evaluation``)."""

    move: Move
    elapsed: float | None = None
    remaining: float | None = None
    evaluation: float | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.move, Move):
            raise RecordError("moves", f"{self.move!r} is not a Move")
        for name in ("elapsed", "remaining"):
            value = optional_number("moves", getattr(self, name))
            if value is not None and value < 0:
                raise RecordError("moves", f"{name} must be 0 or more")
            object.__setattr__(self, name, value)
        object.__setattr__(self, "evaluation", optional_number("moves", self.evaluation))


@dataclass(frozen=True)
class Result:
    """How the game ended. ``reason``: ``end`` (nobody can move), ``resign`` or ``timeout``
    (``loser`` resigned or ran out of time) or ``agreement``; ``winner`` is a colour, ``None``
    for a draw; ``score`` (2 players only) is black's margin as ``black_margin`` counts it,
    positive when black won."""

    reason: str
    winner: int | None
    loser: int | None = None
    score: float | None = None

    def __post_init__(self) -> None:
        if self.reason not in RESULT_REASONS:
            raise RecordError("result", f"reason must be one of {', '.join(RESULT_REASONS)}")
        for name in ("winner", "loser"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise RecordError("result", f"{name} must be a colour number")
        if (self.loser is None) != (self.reason in ("end", "agreement")):
            raise RecordError("result", "a loser goes with resign and timeout, and only there")
        if self.loser is not None and self.loser == self.winner:
            raise RecordError("result", "the loser cannot be the winner")
        object.__setattr__(self, "score", optional_number("result", self.score))

    @classmethod
    def at_end(cls, board: Board) -> Result:
        """The result of a finished board (reason ``end``, with black's margin for 2 players)."""
        outcome = board.outcome()
        if outcome is None:
            raise RecordError("result", "the game is not over")
        return cls("end", outcome.winner, score=black_margin(board))


def black_margin(board: Board) -> float | None:
    """Black's margin in discs on ``board`` with 2 players (positive: black is ahead): the
    tournament count difference once the game is over, the disc difference before; white's
    discs minus black's in anti-reversi. ``None`` with 3-4 players."""
    if board.variant.players != 2:
        return None
    outcome = board.outcome()
    black, white = outcome.tournament if outcome is not None else board.counts()
    return float(white - black if board.variant.anti else black - white)


@dataclass(frozen=True)
class GameRecord:
    """A legal game of any variant with its metadata; ``players`` is empty or one per colour.

    ``start`` is ``None`` when the game began at the variant's start, else the starting
    position in the engine's text form (``Board.to_text``) of the same variant.
    """

    variant: Variant = field(default_factory=Variant)
    moves: tuple[RecordedMove, ...] = ()
    start: str | None = None
    players: tuple[Player, ...] = ()
    time_control: TimeControl | None = None
    date: datetime | None = None
    site: str | None = None
    result: Result | None = None
    _final: Board = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.variant, Variant):
            raise RecordError("variant", "must be a Variant")
        object.__setattr__(self, "moves", tuple(self.moves))
        object.__setattr__(self, "players", tuple(self.players))
        if self.players and len(self.players) != self.variant.players:
            raise RecordError("players", f"give none or {self.variant.players} players")
        if any(not isinstance(player, Player) for player in self.players):
            raise RecordError("players", "each player must be a Player")
        if self.date is not None and (
            not isinstance(self.date, datetime) or self.date.utcoffset() is None
        ):
            raise RecordError("date", "must be a date and time with a time zone")
        if self.site is not None and not isinstance(self.site, str):
            raise RecordError("site", "must be a string")
        board = self.start_board()
        play_moves(board, (recorded.move for recorded in self.moves))
        object.__setattr__(self, "_final", board)
        if self.result is not None:
            self._check_result(board, self.result)

    def start_board(self) -> Board:
        """The position the game began at (a fresh board)."""
        if self.start is None:
            return Board(self.variant)
        try:
            board = Board.from_text(self.start)
        except ValueError as error:
            raise RecordError("start", str(error)) from None
        if board.variant != self.variant:
            raise RecordError("start", "the start position is of another variant")
        return board

    def board(self) -> Board:
        """The final position, with the game's moves on its move stack (a fresh copy)."""
        return self._final.copy()

    @classmethod
    def from_board(cls, board: Board, **metadata: Any) -> GameRecord:
        """The record of ``board``'s game: its move stack from the position before the first
        move; ``metadata`` are the other fields (``players``, ``result``, ...)."""
        start = board.copy()
        while start.move_stack:
            start.pop()
        text = start.to_text()
        own_start = None if text == Board(board.variant).to_text() else text
        moves = tuple(RecordedMove(move) for move in board.move_stack)
        return cls(board.variant, moves, own_start, **metadata)

    def _check_result(self, board: Board, result: Result) -> None:
        players = self.variant.players
        for colour in (result.winner, result.loser):
            if colour is not None and not 0 <= colour < players:
                raise RecordError("result", f"{colour} is not a colour of this game")
        outcome = board.outcome()
        if result.reason == "end":
            if outcome is None:
                raise RecordError("result", "the result says the game ended, but it goes on")
            winner = outcome.winner
            if result.winner != winner:
                won = "a draw" if winner is None else f"won by {COLOR_NAMES[winner]}"
                raise RecordError("result", f"the final position is {won}")
        elif outcome is not None:
            raise RecordError("result", f"a finished game has no {result.reason}")
        if players == 2 and result.loser is not None and result.winner != 1 - result.loser:
            raise RecordError("result", "with 2 players the other player wins")
        if result.score is not None:
            if players != 2:
                raise RecordError("result", "a score goes with 2-player games only")
            sign = (result.score > 0) - (result.score < 0)
            if sign != {None: 0, 0: 1, 1: -1}[result.winner]:
                raise RecordError("result", "the score's sign disagrees with the winner")


def play_moves(board: Board, moves: Iterable[Move], part: str = "moves") -> None:
    """Push ``moves`` on ``board``, numbered from 1, with ``play_move``."""
    for number, move in enumerate(moves, start=1):
        play_move(board, move, number, part)


def play_move(board: Board, move: Move, number: int, part: str = "moves") -> None:
    """Push move ``number`` of a record; an illegal one raises ``RecordError`` of ``part``
    with its number and the engine's reason and code."""
    try:
        board.push(move)
    except IllegalMoveError as error:
        raise RecordError(
            part, f"move {number} ({move}): {error.message}", code=error.code, move_number=number
        ) from None


def parse_move(text: str, number: int, part: str = "moves") -> Move:
    """Move ``number`` of a record written like ``f5``, ``F5`` or ``pass``; junk raises
    ``RecordError`` of ``part``."""
    try:
        return Move.from_notation(text)
    except IllegalMoveError as error:
        raise RecordError(
            part, f"move {number}: {error.message}", code=error.code, move_number=number
        ) from None


def board_from_rows(variant: Variant, rows: list[str], turn: int, part: str) -> Board:
    """``Board.from_rows`` at ply 0, its ``ValueError`` turned into a ``RecordError`` of
    ``part``."""
    try:
        return Board.from_rows(variant, rows, turn=turn)
    except ValueError as error:
        raise RecordError(part, str(error)) from None


def _number(part: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise RecordError(part, f"{value!r} is not a finite number")
    return float(value)


def optional_number(part: str, value: object) -> float | None:
    """``value`` as a float, or ``None``; anything but a finite number raises ``RecordError``."""
    return None if value is None else _number(part, value)
