"""Typed entry points of the 8x8 numba kernels (the kernels themselves are internal).

A ``Position`` is the compact form of an 8x8 two-player board; a ``Searcher`` runs the kernels
under one deadline over a ``SearchTables`` (transposition tables that a worker process keeps
from one search to the next). Values are those of the kernels: hundredths of a disc for the
midgame search (see ``evaluation``), exact final disc differences for the solver.
"""

import time
from dataclasses import dataclass

import numpy as np

from ai_worker.engine import Board
from ai_worker.fast import bitboard, endgame, generic, midgame
from ai_worker.fast.evaluation import HAND_WEIGHTS, INF, evaluate
from ai_worker.fast.geometry import bitboards_of, discs_of, geometry_of
from ai_worker.fast.searchstate import (
    ABORTED,
    BEST,
    CLOCK,
    DEADLINE,
    EXACT,
    NO_SQUARE,
    NODES,
    SELECTIVITY,
    WALL_CLOCK,
    entry_square,
    new_stats,
    new_table,
    probe,
)

Weights = np.ndarray  # an evaluation's weights, e.g. ``evaluation.HAND_WEIGHTS``
Cuts = np.ndarray  # Multi-ProbCut's fit per depth (``midgame.pvs``) or empties (``endgame``)
NO_CUTS = np.zeros((0, 3))
MIDGAME_TABLE_BITS = 20  # 2**20 rows of 24 bytes: 24 MiB
ENDGAME_TABLE_BITS = 20
SHALLOW_TABLE_BITS = 16
GENERIC_TABLE_BITS = 18  # the other variants' search (``generic``): 6 MiB
_MAX_AGE = 255


@dataclass(frozen=True, slots=True)
class Position:
    """An 8x8 two-player position: bitboards (bit ``row * 8 + col``) of the side to move, the
    other side and the blocked cells, and whether it is anti-reversi."""

    player: np.uint64
    opponent: np.uint64
    walls: np.uint64
    anti: bool

    @classmethod
    def of(cls, board: Board) -> "Position":
        """The position of an 8x8 two-player ``board``."""
        if board.variant.players != 2 or board.variant.board != "8x8":
            raise ValueError("bitboards hold 8x8 two-player positions")
        player, opponent, walls = bitboards_of(board.rows(), board.turn)
        return cls(player, opponent, walls, board.variant.anti)

    def legal_squares(self) -> list[int]:
        """The squares where the side to move may play, in increasing order."""
        bits = int(bitboard.legal_moves(self.player, self.opponent, self.walls))
        return [square for square in range(64) if bits >> square & 1]

    def play(self, square: int) -> "Position":
        """The position after the side to move plays ``square`` (which must be legal)."""
        f = bitboard.flips(self.player, self.opponent, square)
        bit = np.uint64(1 << square)
        return Position(self.opponent ^ f, self.player | f | bit, self.walls, self.anti)

    def passed(self) -> "Position":
        """The same discs with the other side to move."""
        return Position(self.opponent, self.player, self.walls, self.anti)

    def empties(self) -> int:
        """Number of empty (playable) cells."""
        return 64 - int(self.player | self.opponent | self.walls).bit_count()

    def is_over(self) -> bool:
        """Whether neither side can move."""
        return not self.legal_squares() and not self.passed().legal_squares()

    def evaluate(self, weights: Weights = HAND_WEIGHTS) -> int:
        """The static value for the side to move (hundredths of a disc)."""
        return int(evaluate(self.player, self.opponent, self.walls, int(self.anti), weights))


def perft(board: Board, depth: int) -> int:
    """Leaves of ``board``'s move tree ``depth`` plies deep, counted as ``Board.perft`` does
    (a forced pass is a ply, a finished game one leaf), by the numba kernels: bitboards for 8x8
    two-player games, cell arrays for the rest. The free opening's placement phase has no
    kernel and is counted by ``Board.perft``."""
    if depth < 0:
        raise ValueError("depth must be 0 or more")
    if depth == 0:
        return 1
    if board.in_placement_phase:
        return board.perft(depth)
    if board.variant.players == 2 and board.variant.board == "8x8":
        position = Position.of(board)
        return int(bitboard.perft(position.player, position.opponent, position.walls, depth))
    rows = board.rows()
    g = geometry_of(rows)
    return int(
        generic.perft(discs_of(rows), g.masks, g.shifts, board.turn, board.variant.players, depth)
    )


def root_order(position: Position, weights: Weights = HAND_WEIGHTS) -> list[int]:
    """The legal squares, best-first by the static value of the position each one leads to."""
    order = midgame.root_order(
        position.player, position.opponent, position.walls, int(position.anti), weights
    )
    return [int(square) for square in order]


class SearchTables:
    """Transposition tables kept from one search to the next (bounded: fixed sizes; aged: each
    search stores with a new age, and entries of older searches are replaced first): the 8x8
    midgame, endgame and shallow ordering searches', and the other variants' (``generic``)."""

    def __init__(
        self,
        midgame_bits: int = MIDGAME_TABLE_BITS,
        endgame_bits: int = ENDGAME_TABLE_BITS,
        shallow_bits: int = SHALLOW_TABLE_BITS,
        generic_bits: int = GENERIC_TABLE_BITS,
    ) -> None:
        self.midgame = new_table(midgame_bits)
        self.endgame = new_table(endgame_bits)
        self.shallow = new_table(shallow_bits)
        self.generic = new_table(generic_bits)
        self.history = np.zeros(64, dtype=np.int64)
        self.age = 0

    def next_age(self) -> int:
        """The age of a new search (1 to 255, then round again); the history starts afresh."""
        self.age = self.age % _MAX_AGE + 1
        self.history[:] = 0
        return self.age

    def best_square(self, position: Position, exact: bool) -> int | None:
        """The best square the midgame (or, with ``exact``, the endgame) table remembers for
        ``position``, if any."""
        table = self.endgame if exact else self.midgame
        row = probe(position.player, position.opponent, table)
        if row < 0:
            return None
        square = int(entry_square(table, row))
        return square if square in position.legal_squares() else None


class Searcher:
    """Kernel calls under one deadline (nanoseconds on ``clock``, ``WALL_CLOCK`` or
    ``CPU_CLOCK``) over ``tables``. A call that reaches the deadline returns None; ``nodes``
    counts every call's nodes."""

    def __init__(self, deadline_ns: int, tables: SearchTables, clock: int = WALL_CLOCK) -> None:
        self.tables = tables
        self.stats = new_stats(deadline_ns, tables.next_age(), clock)

    def now_ns(self) -> int:
        """The time on this search's clock, in nanoseconds."""
        return time.clock_gettime_ns(int(self.stats[CLOCK]))

    @property
    def nodes(self) -> int:
        return int(self.stats[NODES])

    @property
    def deadline_ns(self) -> int:
        return int(self.stats[DEADLINE])

    @deadline_ns.setter
    def deadline_ns(self, value: int) -> None:
        self.stats[DEADLINE] = value

    def out_of_time(self) -> bool:
        return self.now_ns() >= int(self.stats[DEADLINE])

    def _start(self) -> bool:
        """Whether a call may start; a call aborted before leaves no abort behind."""
        if self.out_of_time():
            return False
        self.stats[ABORTED] = 0
        return True

    def midgame(
        self, position: Position, depth: int, alpha: int = -INF, beta: int = INF, *,
        weights: Weights = HAND_WEIGHTS, cuts: Cuts = NO_CUTS,
    ) -> int | None:  # fmt: skip
        """The ``depth``-ply search value of ``position`` (fail-soft within alpha, beta),
        with Multi-ProbCut where ``cuts`` has a fit for the depth."""
        if not self._start():
            return None
        t = self.tables
        value = midgame.pvs(
            position.player, position.opponent, position.walls, int(position.anti), weights,
            cuts, depth, alpha, beta, 0, self.stats, t.midgame, t.history,
        )  # fmt: skip
        return None if self.stats[ABORTED] else int(value)

    def midgame_root(
        self, position: Position, depth: int, alpha: int = -INF, beta: int = INF, *,
        weights: Weights = HAND_WEIGHTS, cuts: Cuts = NO_CUTS,
    ) -> tuple[int, int] | None:  # fmt: skip
        """(value, best square) of a ``depth``-ply search of ``position``, which has a move."""
        if not self._start():
            return None
        t = self.tables
        value = midgame.pvs_root(
            position.player, position.opponent, position.walls, int(position.anti), weights,
            cuts, depth, alpha, beta, self.stats, t.midgame, t.history,
        )  # fmt: skip
        return None if self.stats[ABORTED] else (int(value), int(self.stats[BEST]))

    def root_best(self, position: Position) -> int | None:
        """The best move of ``position`` the last root call (``exact_root`` or
        ``midgame_root``) found, also when it stopped at the deadline (an exact solve: the
        best root move it proved, else the first of its move order), if any."""
        square = int(self.stats[BEST])
        return square if square in position.legal_squares() else None

    def _start_solve(self, selectivity: int) -> bool:
        if not 0 <= selectivity < len(endgame.SELECTIVE_SIGMAS) and selectivity != EXACT:
            raise ValueError("selectivity must be a level of SELECTIVE_SIGMAS or EXACT")
        self.stats[SELECTIVITY] = selectivity
        return self._start()

    def exact(
        self, position: Position, alpha: int = -64, beta: int = 64, *,
        weights: Weights = HAND_WEIGHTS, cuts: Cuts = NO_CUTS, selectivity: int = EXACT,
    ) -> int | None:  # fmt: skip
        """The exact final disc difference for the side to move (fail-soft within alpha,
        beta); ``weights`` order the moves. A ``selectivity`` level of
        ``endgame.SELECTIVE_SIGMAS`` makes it a selective search, cut by ``cuts``."""
        if not self._start_solve(selectivity):
            return None
        t = self.tables
        value = endgame.solve(
            position.player, position.opponent, position.walls, int(position.anti), weights,
            cuts, alpha, beta, 0, self.stats, t.endgame, t.shallow,
        )  # fmt: skip
        return None if self.stats[ABORTED] else int(value)

    def exact_root(
        self, position: Position, alpha: int = -64, beta: int = 64, *,
        weights: Weights = HAND_WEIGHTS, cuts: Cuts = NO_CUTS, selectivity: int = EXACT,
    ) -> tuple[int, int | None] | None:  # fmt: skip
        """(score, best square) of ``position`` as ``exact`` finds it; the square is None for
        a forced pass."""
        if not self._start_solve(selectivity):
            return None
        t = self.tables
        value = endgame.solve_root(
            position.player, position.opponent, position.walls, int(position.anti), weights,
            cuts, alpha, beta, self.stats, t.endgame, t.shallow,
        )  # fmt: skip
        if self.stats[ABORTED]:
            return None
        square = int(self.stats[BEST])
        return int(value), None if square == NO_SQUARE else square
