"""A reversi position of any variant: legal moves, play and take back, game end, result.

Position text form (``Board.to_text`` / ``Board.from_text``), one item per line::

    variant: {"anti":false,"blocked":[],"board":"8x8","handicap":0,...}
    turn: black
    ply: 0
    phase: play
    --------
    --------
    --------
    ---OX---
    ---XO---
    --------
    --------
    --------

``variant`` is ``Variant.to_json()`` as compact JSON with sorted keys; ``turn`` the colour to
move; ``ply`` the number of moves (passes included) played since the start; ``phase`` is
``placement`` while the free opening's centre discs are being placed, else ``play`` (it is
implied by the cells and checked when read). Then one line per row, top row (row 1) first,
a character per column: ``X`` black, ``O`` white, ``R`` red, ``G`` green, ``N`` neutral,
``-`` empty, ``#`` wall and a space for the octagon's cut corners (a row may lose its
trailing spaces).

Scoring (R7): ``Outcome.discs`` are the discs on the board. The tournament count adds the
empty cells to the winner; in a draw (two-player or a table draw) the tied leaders share the
empties evenly (8x8 draw: 32-32), an odd one left over is given to nobody. In anti-reversi
no empties are added. Neutral discs count for nobody.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from ai_worker.engine.geometry import DIRECTIONS
from ai_worker.engine.squares import (
    BLACK,
    COLOR_NAMES,
    EMPTY,
    NEUTRAL,
    OFF_BOARD,
    PASS,
    WALL,
    IllegalMoveError,
    Move,
)
from ai_worker.engine.variant import Variant, VariantError

DISC_CHARS = "XORGN"  # black, white, red, green, neutral
EMPTY_CHAR = "-"
WALL_CHAR = "#"
OFF_BOARD_CHAR = " "

# What the side to move may do: flip discs, place without flipping (free opening or the
# multi-player adjacency rule), pass (2 players), or nothing because the game is over.
_FLIP, _PLACE, _PASS, _OVER = range(4)

Discs = tuple[int, int, int, int, int]


@dataclass(frozen=True)
class Outcome:
    """Result of a finished game (R7): discs per player, empties, tournament count, winner."""

    discs: tuple[int, ...]
    empties: int
    tournament: tuple[int, ...]
    winner: int | None
    draw: bool


class Board:
    """A position plus the moves that led to it; ``Board()`` is standard 8x8 reversi."""

    def __init__(self, variant: Variant | None = None) -> None:
        self.variant = variant if variant is not None else Variant()
        self._geometry = self.variant.geometry
        self._discs: Discs = self.variant.start_discs()
        self.turn = BLACK
        self.move_stack: list[Move] = []
        self._history: list[tuple[Discs, int]] = []
        self._first_ply = 0

    # -- reading the position -------------------------------------------------------------

    @property
    def width(self) -> int:
        """Columns of the board."""
        return self.variant.width

    @property
    def height(self) -> int:
        """Rows of the board."""
        return self.variant.height

    @property
    def ply(self) -> int:
        """Moves (passes included) played since the start."""
        return self._first_ply + len(self.move_stack)

    @property
    def in_placement_phase(self) -> bool:
        """True while the free opening's four centre discs are being placed."""
        return self._placing(self._occupied())

    @property
    def disc_masks(self) -> Discs:
        """Disc bitboards of black, white, red, green and neutral (bit = square index)."""
        return self._discs

    def piece_at(self, col: int, row: int) -> int:
        """Colour of the disc on a square, or ``EMPTY``, ``WALL`` or ``OFF_BOARD``."""
        if not (0 <= col < self.width and 0 <= row < self.height):
            raise IndexError(f"({col}, {row}) is outside the {self.variant.board} board")
        bit = 1 << (row * self.width + col)
        if not self._geometry.playable & bit:
            return OFF_BOARD
        if self._geometry.walls & bit:
            return WALL
        for colour, mask in enumerate(self._discs):
            if mask & bit:
                return colour
        return EMPTY

    def counts(self) -> tuple[int, ...]:
        """Discs of each player in turn order (neutral discs count for nobody)."""
        return tuple(self._discs[colour].bit_count() for colour in range(self.variant.players))

    def empties(self) -> int:
        """Empty cells (walls and cut corners are not cells)."""
        return (self._geometry.cells & ~self._occupied()).bit_count()

    def rows(self) -> list[str]:
        """One string per row, top first: X O R G N discs, - empty, # wall, space off-board."""
        chars = {EMPTY: EMPTY_CHAR, WALL: WALL_CHAR, OFF_BOARD: OFF_BOARD_CHAR}
        chars.update(enumerate(DISC_CHARS))
        return [
            "".join(chars[self.piece_at(col, row)] for col in range(self.width))
            for row in range(self.height)
        ]

    # -- legal moves -----------------------------------------------------------------------

    @property
    def legal_moves(self) -> list[Move]:
        """Legal moves in square order; ``[PASS]`` for a forced pass, ``[]`` once over."""
        moves, kind = self._options()
        if kind == _PASS:
            return [PASS]
        return [self._move_of(index) for index in _indexes(moves)]

    def is_legal(self, move: Move) -> bool:
        """True if ``move`` may be played now."""
        try:
            self._validate(move)
        except IllegalMoveError:
            return False
        return True

    def check_move(self, move: Move) -> None:
        """Raise ``IllegalMoveError`` (with ``code`` and ``message``) unless ``move`` is legal."""
        self._validate(move)

    def flips_for(self, move: Move) -> list[Move]:
        """Discs a legal move flips, nearest first (``[]`` for a pass or a placement).

        The order is by distance from the placed disc (steps along its line); discs at the
        same distance follow ``DIRECTIONS`` (reading order: up-left, up, up-right, left, right,
        down-left, down, down-right). Raises ``IllegalMoveError`` like ``check_move``.
        """
        index, kind = self._validate(move)
        return self._flips_nearest_first(index) if kind == _FLIP else []

    def legal_moves_with_flips(self) -> dict[Move, list[Move]]:
        """Every legal move, in ``legal_moves`` order, with the discs it flips as ``flips_for``
        lists them: ``{PASS: []}`` for a forced pass, ``{}`` once the game is over."""
        moves, kind = self._options()
        if kind == _PASS:
            return {PASS: []}
        return {
            self._move_of(index): self._flips_nearest_first(index) if kind == _FLIP else []
            for index in _indexes(moves)
        }

    def is_game_over(self) -> bool:
        """True when nobody can move (2 players) or no empty cell touches a disc (3-4)."""
        return self._options()[1] == _OVER

    def outcome(self) -> Outcome | None:
        """The result once the game is over, else ``None``."""
        if not self.is_game_over():
            return None
        discs = self.counts()
        empties = self.empties()
        leaders = self.variant.leaders(dict(enumerate(discs)))
        tournament = list(discs)
        if not self.variant.anti:
            for colour in leaders:
                tournament[colour] += empties // len(leaders)
        winner = leaders[0] if len(leaders) == 1 else None
        return Outcome(discs, empties, tuple(tournament), winner, winner is None)

    # -- playing ---------------------------------------------------------------------------

    def push(self, move: Move) -> None:
        """Play a legal move (raises ``IllegalMoveError`` like ``check_move``)."""
        index, kind = self._validate(move)
        self._play(index, kind)
        self.move_stack.append(move)

    def push_notation(self, text: str) -> Move:
        """Play a move written like ``"f5"`` or ``"pass"``; returns the move."""
        move = Move.from_notation(text)
        self.push(move)
        return move

    def pop(self) -> Move:
        """Take back the last move, restoring the position exactly."""
        if not self.move_stack:
            raise IndexError("no move to take back")
        self._discs, self.turn = self._history.pop()
        return self.move_stack.pop()

    def copy(self) -> Board:
        """An independent copy, move stack included."""
        twin = Board.__new__(Board)
        twin.__dict__.update(self.__dict__)
        twin.move_stack = list(self.move_stack)
        twin._history = list(self._history)
        return twin

    @classmethod
    def from_moves(cls, variant: Variant | None, moves: Iterable[str | Move]) -> Board:
        """The position after playing ``moves`` (notation or ``Move``) from the start."""
        board = cls(variant)
        for move in moves:
            board.push(move if isinstance(move, Move) else Move.from_notation(move))
        return board

    def perft(self, depth: int) -> int:
        """Leaf count of the move tree ``depth`` plies deep.

        A forced pass is one ply; a game that ends before the depth counts as one leaf.
        """
        if depth < 0:
            raise ValueError("depth must be 0 or more")
        if depth == 0:
            return 1
        return self.copy()._count_leaves(depth)

    # -- text form -------------------------------------------------------------------------

    def to_text(self) -> str:
        """The position text form described in the module docstring."""
        header = [
            "variant: " + json.dumps(self.variant.to_json(), sort_keys=True, separators=(",", ":")),
            f"turn: {COLOR_NAMES[self.turn]}",
            f"ply: {self.ply}",
            f"phase: {'placement' if self.in_placement_phase else 'play'}",
        ]
        return "\n".join(header + self.rows()) + "\n"

    @classmethod
    def from_text(cls, text: str) -> Board:
        """Read the text form (the move stack starts empty); bad text raises ``ValueError``."""
        lines = text.rstrip("\n").split("\n")
        if len(lines) < 4:
            raise ValueError("a position needs variant, turn, ply and phase lines, then rows")
        values = [_header_value(line, name) for line, name in zip(lines, _HEADERS, strict=False)]
        try:
            variant = Variant.from_json(json.loads(values[0]))
        except json.JSONDecodeError as error:
            raise ValueError(f"variant: not JSON ({error.msg})") from None
        except VariantError as error:
            raise ValueError(f"variant: {error}") from None
        names = COLOR_NAMES[: variant.players]
        if values[1] not in names:
            raise ValueError(f"turn: must be one of {', '.join(names)}")
        if not values[2].isdigit():
            raise ValueError("ply: must be a whole number")
        board = cls.from_rows(variant, lines[4:], turn=names.index(values[1]), ply=int(values[2]))
        phase = "placement" if board.in_placement_phase else "play"
        if values[3] != phase:
            raise ValueError(f"phase: the cells say {phase}")
        return board

    @classmethod
    def from_rows(cls, variant: Variant, rows: list[str], *, turn: int, ply: int = 0) -> Board:
        """A position of ``variant`` from its rows (the characters of ``rows()``), the colour to
        move and the ply number; the move stack starts empty. Bad rows raise ``ValueError``."""
        if not 0 <= turn < variant.players:
            raise ValueError(f"turn: {turn} is not a colour of a {variant.players}-player game")
        if ply < 0:
            raise ValueError("ply: must be 0 or more")
        board = cls(variant)
        board.turn = turn
        board._first_ply = ply
        board._discs = board._read_rows(rows)
        return board

    # -- internals -------------------------------------------------------------------------

    def _occupied(self) -> int:
        black, white, red, green, neutral = self._discs
        return black | white | red | green | neutral

    def _placing(self, occupied: int) -> bool:
        centre = self._geometry.centre
        return self.variant.opening_rules.placement and occupied & centre != centre

    def _others(self) -> int:
        return self._occupied() & ~self._discs[self.turn]

    def _flips_nearest_first(self, index: int) -> list[Move]:
        """The discs a flipping move on square ``index`` flips, in ``flips_for`` order."""
        flips = self._geometry.flips(index, self._discs[self.turn], self._others())
        col, row = index % self.width, index // self.width
        found: list[Move] = []
        distance = 0
        while len(found) < flips.bit_count():
            distance += 1
            for dc, dr in DIRECTIONS:
                x, y = col + dc * distance, row + dr * distance
                inside = 0 <= x < self.width and 0 <= y < self.height
                if inside and flips >> (y * self.width + x) & 1:
                    found.append(Move(x, y))
        return found

    def _move_of(self, index: int) -> Move:
        return Move(index % self.width, index // self.width)

    def _next_turn(self) -> int:
        return (self.turn + 1) % self.variant.players

    def _options(self) -> tuple[int, int]:
        """Squares the side to move may play and how (flip, place, pass or game over)."""
        geometry = self._geometry
        occupied = self._occupied()
        empty = geometry.cells & ~occupied
        if self._placing(occupied):
            return geometry.centre & empty, _PLACE
        own = self._discs[self.turn]
        moves = geometry.moves(own, occupied & ~own, empty)
        if moves:
            return moves, _FLIP
        if self.variant.players == 2:
            rival = self._discs[1 - self.turn]
            if geometry.moves(rival, occupied & ~rival, empty):
                return 0, _PASS
            return 0, _OVER
        touching = geometry.neighbours(occupied) & empty
        return touching, _PLACE if touching else _OVER

    def _validate(self, move: Move) -> tuple[int, int]:
        """The square index of a legal move (-1 for a pass) and its kind; raises if illegal."""
        moves, kind = self._options()
        player = COLOR_NAMES[self.turn].capitalize()
        if kind == _OVER:
            raise IllegalMoveError("game_over", "the game is over")
        if move.is_pass:
            if kind == _PASS:
                return -1, kind
            if self.variant.players > 2:
                raise IllegalMoveError("cannot_pass", "there are no passes with 3 or 4 players")
            raise IllegalMoveError("cannot_pass", f"{player} has a legal move and cannot pass")
        if move.col >= self.width or move.row >= self.height:
            raise IllegalMoveError("bad_square", f"{move} is not on the {self.variant.board} board")
        index = move.row * self.width + move.col
        bit = 1 << index
        if not self._geometry.playable & bit:
            raise IllegalMoveError("bad_square", f"{move} is a cut corner of the octagon")
        if self._geometry.walls & bit:
            raise IllegalMoveError("wall", f"{move} is a blocked cell")
        if self._occupied() & bit:
            raise IllegalMoveError("occupied", f"{move} is already taken")
        if kind == _PASS:
            raise IllegalMoveError("must_pass", f"{player} has no legal move and must pass")
        if not moves & bit:
            raise self._not_a_move_error(move, kind)
        return index, kind

    def _not_a_move_error(self, move: Move, kind: int) -> IllegalMoveError:
        """Why ``move``, on a free square, is not one of this turn's moves."""
        if self.in_placement_phase:
            return IllegalMoveError(
                "not_adjacent", "the free opening places its first four discs in the centre"
            )
        if kind == _PLACE:
            return IllegalMoveError(
                "not_adjacent", f"{move} touches no disc (no move flips, so place next to one)"
            )
        if self.variant.players > 2:
            return IllegalMoveError(
                "no_flips", f"{move} flips no disc, and a move that flips is compulsory"
            )
        return IllegalMoveError("no_flips", f"{move} flips no disc")

    def _play(self, index: int, kind: int) -> None:
        """Play square ``index`` (-1: pass) of the given kind without checking it."""
        discs = self._discs
        self._history.append((discs, self.turn))
        if index >= 0:
            bit = 1 << index
            own = discs[self.turn]
            flips = 0
            if kind == _FLIP:
                flips = self._geometry.flips(index, own, self._occupied() & ~own)
            updated = [mask & ~flips for mask in discs]
            updated[self.turn] = own | flips | bit
            self._discs = (updated[0], updated[1], updated[2], updated[3], updated[4])
        self.turn = self._next_turn()

    def _count_leaves(self, depth: int) -> int:
        moves, kind = self._options()
        if depth == 1 or kind == _OVER:
            return max(moves.bit_count(), 1)
        children = (-1,) if kind == _PASS else _indexes(moves)
        total = 0
        for index in children:
            self._play(index, kind)
            total += self._count_leaves(depth - 1)
            self._discs, self.turn = self._history.pop()
        return total

    def _read_rows(self, rows: list[str]) -> Discs:
        if len(rows) != self.height:
            raise ValueError(f"expected {self.height} rows, found {len(rows)}")
        discs = [0, 0, 0, 0, 0]
        for row, line in enumerate(rows):
            if len(line) > self.width:
                raise ValueError(f"row {row + 1} has {len(line)} cells, not {self.width}")
            for col, char in enumerate(line.ljust(self.width)):
                bit = 1 << (row * self.width + col)
                if col >= len(line) and self._geometry.cells & bit:
                    raise ValueError(f"row {row + 1} is too short: {Move(col, row)} is missing")
                if not self._geometry.cells & bit:
                    wanted = WALL_CHAR if self._geometry.walls & bit else OFF_BOARD_CHAR
                    if char != wanted:
                        raise ValueError(f"{Move(col, row)} must read {wanted!r} in this variant")
                elif char != EMPTY_CHAR:
                    colour = DISC_CHARS.find(char)
                    if colour < 0 or not self._colour_exists(colour):
                        raise ValueError(f"{Move(col, row)}: {char!r} is not a disc of this game")
                    discs[colour] |= bit
        return (discs[0], discs[1], discs[2], discs[3], discs[4])

    def _colour_exists(self, colour: int) -> bool:
        if colour == NEUTRAL:
            return self.variant.players == 3
        return colour < self.variant.players


_HEADERS = ("variant", "turn", "ply", "phase")


def _header_value(line: str, name: str) -> str:
    prefix = f"{name}:"
    if not line.startswith(prefix):
        raise ValueError(f"line {_HEADERS.index(name) + 1} must start with {prefix!r}")
    return line[len(prefix) :].strip()


def _indexes(squares: int) -> Iterable[int]:
    """Square indexes of a mask, lowest first."""
    while squares:
        lowest = squares & -squares
        yield lowest.bit_length() - 1
        squares ^= lowest
