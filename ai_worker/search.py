"""The CPU player: ``choose_move(board, level)`` for every variant (spec M1, G2).

Levels:

- *easy*: no look-ahead; usually a move flipping the most discs, sometimes a random legal move;
  corners mean nothing to it.
- *normal*: a 4-ply search with a positional evaluation (corners, X and C squares); with 10 or
  fewer empties an exact solve (best final disc difference). Now and then (``NORMAL_SLIP``) it
  plays a slightly worse move within ``NORMAL_SLIP_MARGIN`` of the best.
- *strong*: iterative deepening until the time limit (1.5 s by default) with the trained
  pattern evaluation (in the other variants, the trained linear one of ``generic``); with
  ``STRONG_ENDGAME_EMPTIES`` (24) or fewer empties (8x8) the endgame search instead: selective
  solves (ProbCut from 73 % to 99 % sure, see ``fast.endgame``), then the exact one, each
  started from what the table kept of the one before; the move of the last one finished is
  played; at ``STRONG_EXACT_EMPTIES`` (20) or fewer, the exact solve alone. The hint is its
  move.

Standard-size (8x8) two-player games use the uint64 bitboard kernels; every other variant (6x6,
10x10, octagon, 3-4 players) the generic kernels (bitboards of two words). Anti-reversi
reverses the goal in both. With 3-4 players the search is *paranoid* (every rival minimises the
searcher's value) rather than max-n: paranoid keeps alpha-beta pruning, so it looks about twice
as deep in the same time, and its worst-case view suits a table where rivals gang up on the
leader. The free opening's placements (no choice that flips anything) are picked at random by
every level.

The search stops at its deadline and answers with the best move of the last finished
iteration, so a legal move comes back even from a tiny time limit. Randomness comes only from
``seed``: the same position, level and seed give the same move whenever the search reaches the
same depth (always for easy and normal).
"""

import json
import random
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np

from ai_worker.engine import PASS, Board, Move, Variant
from ai_worker.engine.records import read_obf
from ai_worker.fast import generic
from ai_worker.fast.api import Position, Searcher, SearchTables, root_order
from ai_worker.fast.endgame import SELECTIVE_SIGMAS
from ai_worker.fast.evaluation import HEURISTIC_LIMIT, INF, WIN_SCORE
from ai_worker.fast.geometry import Geometry, discs_of, geometry_of
from ai_worker.fast.searchstate import (
    ABORTED,
    CLOCK,
    DEADLINE,
    EXACT,
    NODES,
    WALL_CLOCK,
    new_stats,
)
from ai_worker.fast.searchstate import (
    CPU_CLOCK as CPU_CLOCK,  # re-exported: callers choose the clock of a search
)
from ai_worker.levels import EASY, LEVELS, NORMAL, STRONG
from ai_worker.linear_weights import load_linear_weights, set_name, weights_for
from ai_worker.weights import strong_weights

DEFAULT_TIME_LIMIT = {EASY: 0.5, NORMAL: 2.0, STRONG: 1.5}
EASY_RANDOM = 0.25
NORMAL_DEPTH = 4
NORMAL_EXACT_EMPTIES = 10
NORMAL_SLIP = 0.15
NORMAL_SLIP_MARGIN = 400
STRONG_EXACT_EMPTIES = 20  # strong and analyse solve exactly first at this many empties or fewer
STRONG_ENDGAME_EMPTIES = 24  # above STRONG_EXACT_EMPTIES, selective solves before the exact one
STRONG_MIDGAME_SHARE = 0.1  # of the time, for the midgame search before the endgame one
ANALYSIS_TIME_LIMIT = 5.0
ANALYSIS_EXACT_SHARE = 0.6
ASPIRATION_WINDOW = 150  # hundredths of a disc either side of the previous iteration's value
ENDGAME_ASPIRATION = 3  # discs either side of the previous endgame solve's value
MAX_DEPTH = 60
_NORMAL_TABLE_BITS = 16
_DATA = Path(__file__).resolve().parent / "data"


def _load_cuts(name: str) -> np.ndarray:
    """A ProbCut fit (``python -m benchmarks.fit_probcut``): ``probcut-<evaluation>`` or, for
    the selective endgame, ``endcut-<evaluation>``."""
    fitted = json.loads((_DATA / f"{name}.json").read_text())
    return np.ascontiguousarray(fitted["cuts"], dtype=np.float64)


# strong's searches: the trained pattern evaluations (``python -m ai_worker train``, reversi and
# anti-reversi; the hand-written one for walls), loaded once per process, and the reversi
# patterns' own Multi-ProbCut and selective-endgame fits (used in every 8x8 variant). The
# midgame fit's errors are 1.3-2.6 times those of the hand evaluation's fit, which strong used
# before, so those cuts were too eager; measured in reversi only: strong with this fit beat
# strong with that one 15-1-4 in 20 games at 0.2 s of CPU a move (README, Engine).
STRONG_WEIGHTS = strong_weights()
STRONG_CUTS = _load_cuts("probcut-patterns")
STRONG_ENDCUTS = _load_cuts("endcut-patterns")
# strong's and analyse's evaluation in the other variants: the trained linear weights per
# board and player count (``python -m ai_worker train-linear``), loaded once per process.
GENERIC_WEIGHTS = load_linear_weights()
# Trained sets that lost to the hand-written weights (``python -m benchmarks.engine
# --generic-match octagon``: 2 wins in 16 games, 2026-12-01): strong keeps the hand weights
# there until a training run does better.
HAND_ONLY_SETS = frozenset({"octagon/2"})
_NEAR_END = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"  # FFO #40

# (square, value, depth, exact, principal variation) as the searches below find them.
_Found = tuple[int, int, int, bool, list[Move]]


@dataclass(frozen=True)
class SearchResult:
    """A chosen move and the figures of the search behind it.

    ``score`` is for the side to move: the final disc difference when ``exact``, otherwise the
    evaluation in discs. ``depth`` is the last finished search depth in plies (the number of
    empties for an exact solve); ``pv`` starts with ``move``.
    """

    move: Move
    score: float
    pv: list[Move]
    depth: int
    nodes: int
    exact: bool
    elapsed: float


@dataclass(frozen=True)
class MoveScore:
    """One legal move and its value for the side to move: the final disc difference of perfect
    play after it when ``exact``, otherwise the search's evaluation in discs."""

    move: Move
    score: float
    exact: bool


@dataclass(frozen=True)
class Analysis:
    """The value of every legal move of a position, best first. ``depth`` is the depth in
    plies every move was searched to (the number of empties when ``exact``)."""

    moves: list[MoveScore]
    depth: int
    exact: bool
    nodes: int
    elapsed: float


_worker_tables: SearchTables | None = None


def worker_tables() -> SearchTables:
    """The transposition tables of this process, kept from one strong search (or analysis) to
    the next, for every variant (fixed size, about 56 MiB; older searches' entries are
    replaced first)."""
    global _worker_tables
    if _worker_tables is None:
        _worker_tables = SearchTables()
    return _worker_tables


def choose_move(
    board: Board,
    level: str,
    *,
    time_limit: float | None = None,
    seed: int | None = None,
    clock: int = WALL_CLOCK,
    max_depth: int = MAX_DEPTH,
    hand_evaluation: bool = False,
) -> SearchResult:
    """The move ``level`` plays in ``board``'s position, within ``time_limit`` seconds on
    ``clock`` (``WALL_CLOCK``, or ``CPU_CLOCK`` for the searching thread's CPU time); strong's
    iterative deepening stops after ``max_depth`` plies (a fixed-depth search for benchmarks
    of move ordering, with a long time limit). ``hand_evaluation``: strong in the variants of
    the generic search values its leaves by the hand-written evaluation instead of the trained
    one (to measure one against the other)."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}")
    if max_depth < 1:
        raise ValueError("max_depth must be 1 or more")
    started = time.monotonic()
    limit = DEFAULT_TIME_LIMIT[level] if time_limit is None else time_limit
    deadline_ns = _deadline_ns(limit, clock)
    legal = board.legal_moves
    if not legal:
        raise ValueError("the game is over: there is no move to choose")
    rng = random.Random(seed)
    if len(legal) == 1 or board.in_placement_phase:
        move = legal[0] if len(legal) == 1 else rng.choice(legal)
        return SearchResult(move, 0.0, [move], 0, 0, False, time.monotonic() - started)
    if level == EASY:
        move = _easy_move(board, legal, rng)
        return SearchResult(move, 0.0, [move], 0, 0, False, time.monotonic() - started)
    searcher: _BitboardSearch | _GenericSearch
    tables = worker_tables() if level == STRONG else _fresh_tables()
    if _is_bitboard(board):
        searcher = _BitboardSearch(board, deadline_ns, tables, clock)
    else:
        weights = _generic_weights(board.variant, level == STRONG and not hand_evaluation)
        searcher = _GenericSearch(board, deadline_ns, tables, clock, weights)
    found = searcher.normal(rng) if level == NORMAL else searcher.strong(rng, max_depth)
    square, value, depth, exact, pv = found
    move = _move_of(square, board.width)
    score = float(value) if exact else _discs(value)
    nodes = int(searcher.stats[NODES])
    return SearchResult(move, score, pv, depth, nodes, exact, time.monotonic() - started)


def analyse(
    board: Board,
    *,
    time_limit: float = ANALYSIS_TIME_LIMIT,
    max_depth: int | None = None,
    exact: bool = True,
    clock: int = WALL_CLOCK,
) -> Analysis:
    """Score every legal move of ``board`` for the side to move (strong's evaluation).

    Every move is searched to the same depth, deeper and deeper until ``max_depth`` plies (no
    limit by default) or ``time_limit`` seconds; then, with ``exact`` and time left, every move
    is solved to the end (8x8 two-player positions, or any 2-player board once the depth
    reaches the end); an 8x8 position of ``STRONG_EXACT_EMPTIES`` or fewer empties is solved
    first, in a share (``ANALYSIS_EXACT_SHARE``) of the time. The answer holds the last depth
    finished for all moves; before the first one finishes, every move scores 0 at depth 0. A
    forced pass is scored by analysing the position after it; the free opening's placements all
    score 0.
    """
    legal = board.legal_moves
    if not legal:
        raise ValueError("the game is over: there is no move to analyse")
    if max_depth is not None and max_depth < 1:
        raise ValueError("max_depth must be 1 or more")
    started = time.monotonic()
    deadline_ns = _deadline_ns(time_limit, clock)
    if legal == [PASS]:
        after = board.copy()
        after.push(PASS)
        reply = analyse(after, time_limit=time_limit, max_depth=max_depth, exact=exact, clock=clock)
        best = reply.moves[0]
        moves = [MoveScore(PASS, -best.score, best.exact)]
        return Analysis(moves, reply.depth, reply.exact, reply.nodes, time.monotonic() - started)
    if board.in_placement_phase:
        moves = [MoveScore(move, 0.0, False) for move in legal]
        return Analysis(moves, 0, False, 0, time.monotonic() - started)
    searcher: _BitboardSearch | _GenericSearch
    if _is_bitboard(board):
        searcher = _BitboardSearch(board, deadline_ns, worker_tables(), clock)
    else:
        weights = _generic_weights(board.variant, True)
        searcher = _GenericSearch(board, deadline_ns, worker_tables(), clock, weights)
    limit = board.empties() if max_depth is None else min(max_depth, board.empties())
    budget_ns = int(max(time_limit, 0.0) * 1e9 * ANALYSIS_EXACT_SHARE)
    values, depth, solved = _all_move_values(searcher, limit, exact, budget_ns)
    width = board.width
    moves = [
        MoveScore(_move_of(square, width), searcher.to_discs(value, solved), solved)
        for square, value in sorted(values, key=lambda sv: -sv[1])
    ]
    nodes = int(searcher.stats[NODES])
    return Analysis(moves, depth, solved, nodes, time.monotonic() - started)


def _all_move_values(
    searcher: "_BitboardSearch | _GenericSearch", limit: int, exact: bool, exact_budget_ns: int
) -> tuple[list[tuple[int, int]], int, bool]:
    """``analyse``'s (square, value) of every root move, the depth and whether it is exact."""
    found: tuple[list[tuple[int, int]], int, bool] | None = None
    solver = searcher if exact and isinstance(searcher, _BitboardSearch) else None
    if solver is not None and solver.empties <= STRONG_EXACT_EMPTIES:
        found = solver.exact_values_first(exact_budget_ns)
    if found is None:
        for depth in range(1, limit + 1):
            values = searcher.move_values(depth)
            if values is None:
                break
            found = values, depth, searcher.is_exact(depth)
    if solver is not None and not (found and found[2]):
        values = solver.exact_move_values()
        if values is not None:
            found = values, solver.empties, True
    if found is None:
        found = [(square, 0) for square in searcher.root_squares()], 0, False
    return found


def solve_endgame(
    board: Board,
    *,
    time_limit: float,
    tables: SearchTables | None = None,
    clock: int = WALL_CLOCK,
) -> SearchResult | None:
    """The exact solution of an 8x8 two-player position (best move, final disc difference for
    the side to move), or None when ``time_limit`` seconds are not enough. A forced pass is
    solved too (the move is PASS). ``tables`` (default: this process's) may hold what earlier
    searches found."""
    if not _is_bitboard(board):
        raise ValueError("the exact solver handles 8x8 two-player positions")
    if board.is_game_over():
        raise ValueError("the game is over: there is no move to choose")
    started = time.monotonic()
    deadline_ns = _deadline_ns(time_limit, clock)
    searcher = _BitboardSearch(
        board, deadline_ns, worker_tables() if tables is None else tables, clock
    )
    solved = searcher.solve()
    if solved is None:
        return None
    value, square = solved
    move = PASS if square is None else _move_of(square, 8)
    pv = [move] if square is None else searcher._principal_variation(square, board.empties(), True)
    elapsed = time.monotonic() - started
    return SearchResult(
        move, float(value), pv, board.empties(), searcher.searcher.nodes, True, elapsed
    )


def warmup() -> float:
    """Compile or load every kernel (worker start, ``make run``); returns the seconds taken."""
    started = time.monotonic()
    boards = [
        Board(),
        Board.from_moves(None, ["f5", "f6", "e6", "f4", "e3", "c5", "c4", "d3", "c3", "b4"]),
        Board(Variant(board="6x6")),
        Board(Variant(players=3)),
    ]
    for board in boards:
        for level in LEVELS:
            choose_move(board, level, time_limit=0.01, seed=0)
    endgame_board = Board(Variant(board="6x6"))
    while endgame_board.empties() > 18:
        endgame_board.push(endgame_board.legal_moves[0])
    for level in (NORMAL, STRONG):
        choose_move(endgame_board, level, time_limit=0.01, seed=0)
    near_end = read_obf(_NEAR_END)
    choose_move(near_end, STRONG, time_limit=0.05, seed=0)
    choose_move(near_end, NORMAL, time_limit=0.05, seed=0)
    return time.monotonic() - started


def _deadline_ns(time_limit: float, clock: int) -> int:
    """The time on ``clock`` (nanoseconds) ``time_limit`` seconds from now (none if negative)."""
    return time.clock_gettime_ns(clock) + int(max(time_limit, 0.0) * 1e9)


def _is_bitboard(board: Board) -> bool:
    return board.variant.players == 2 and board.variant.board == "8x8"


def _generic_weights(variant: Variant, trained: bool) -> np.ndarray:
    """The evaluation weights of the generic search in ``variant``: the trained set of its
    board and player count, else (or not ``trained``, or a set of ``HAND_ONLY_SETS``) the
    hand-written ones."""
    found = None
    if trained and set_name(variant.board, variant.players) not in HAND_ONLY_SETS:
        found = weights_for(variant, GENERIC_WEIGHTS)
    return generic.hand_weights(variant.anti) if found is None else found


def _fresh_tables() -> SearchTables:
    bits = _NORMAL_TABLE_BITS
    return SearchTables(bits, bits, bits - 4, bits)


def _easy_move(board: Board, legal: list[Move], rng: random.Random) -> Move:
    if rng.random() < EASY_RANDOM:
        return rng.choice(legal)
    flipped = [len(board.flips_for(move)) for move in legal]
    most = max(flipped)
    return rng.choice([move for move, n in zip(legal, flipped, strict=True) if n == most])


def _move_of(square: int, width: int) -> Move:
    return Move(square % width, square // width)


def _discs(value: int) -> float:
    """Search value (hundredths of a disc, wins offset by ``WIN_SCORE``) in discs."""
    if value > HEURISTIC_LIMIT:
        value -= WIN_SCORE
    elif value < -HEURISTIC_LIMIT:
        value += WIN_SCORE
    return value / 100


def _pick(values: list[tuple[int, int]], rng: random.Random, slip: bool) -> tuple[int, int]:
    """The best (square, value), ties broken at random; with ``slip`` a random one of the
    others within ``NORMAL_SLIP_MARGIN`` of the best, when there is one."""
    best = max(value for _, value in values)
    if slip:
        near = [(s, v) for s, v in values if best - NORMAL_SLIP_MARGIN <= v < best]
        if near:
            return rng.choice(near)
    return rng.choice([(s, v) for s, v in values if v == best])


class _BitboardSearch:
    """Searches of an 8x8 two-player position with the bitboard kernels (``fast.api``)."""

    def __init__(self, board: Board, deadline_ns: int, tables: SearchTables, clock: int) -> None:
        self.position = Position.of(board)
        self.empties = board.empties()
        self.tables = tables
        self.searcher = Searcher(deadline_ns, tables, clock)
        self.stats = self.searcher.stats

    def _children(self) -> list[tuple[int, Position]]:
        return [(square, self.position.play(square)) for square in root_order(self.position)]

    def root_squares(self) -> list[int]:
        return root_order(self.position)

    def is_exact(self, depth: int) -> bool:
        """Whether a ``depth``-ply midgame value is exact: never (evaluation scale)."""
        return False

    def to_discs(self, value: int, exact: bool) -> float:
        """A value of ``move_values`` (or, ``exact``, of ``exact_move_values``) in discs."""
        return float(value) if exact else _discs(value)

    def move_values(self, depth: int) -> list[tuple[int, int]] | None:
        """(square, value) of every root move searched ``depth`` plies; None at the deadline."""
        return self._midgame_values(depth)

    def exact_move_values(self) -> list[tuple[int, int]] | None:
        """(square, exact final disc difference) of every root move; None at the deadline."""
        return self._exact_values()

    def exact_values_first(self, budget_ns: int) -> tuple[list[tuple[int, int]], int, bool] | None:
        """(exact ``exact_move_values``, empties, True) within ``budget_ns`` of the deadline's
        time, else None (the deadline is then restored for the searches that follow)."""
        deadline = self.searcher.deadline_ns
        self.searcher.deadline_ns = min(deadline, self.searcher.now_ns() + budget_ns)
        values = self._exact_values()
        self.searcher.deadline_ns = deadline
        return None if values is None else (values, self.empties, True)

    def _exact_values(self) -> list[tuple[int, int]] | None:
        values = []
        for square, child in self._children():
            value = self.searcher.exact(child)
            if value is None:
                return None
            values.append((square, -value))
        return values

    def _midgame_values(self, depth: int) -> list[tuple[int, int]] | None:
        values = []
        for square, child in self._children():
            value = self.searcher.midgame(child, depth - 1)
            if value is None:
                return None
            values.append((square, -value))
        return values

    def normal(self, rng: random.Random) -> _Found:
        if self.empties <= NORMAL_EXACT_EMPTIES:
            values = self._exact_values()
            if values is not None:
                square, value = _pick(values, rng, False)
                return square, value, self.empties, True, [_move_of(square, 8)]
        found = None
        for depth in range(1, NORMAL_DEPTH + 1):
            values = self._midgame_values(depth)
            if values is None:
                break
            found = values, depth
        if found is None:
            return self._fallback()
        values, depth = found
        square, value = _pick(values, rng, rng.random() < NORMAL_SLIP)
        return square, value, depth, False, [_move_of(square, 8)]

    def strong(self, rng: random.Random, max_depth: int) -> _Found:
        """Iterative deepening to ``max_depth``; with ``STRONG_ENDGAME_EMPTIES`` or fewer
        empties, only for ``STRONG_MIDGAME_SHARE`` of the time (a move in hand), then the
        endgame search; at ``STRONG_EXACT_EMPTIES`` or fewer the exact solve alone (the
        selective solves and the midgame search before it cost more than the order they give
        it), the midgame search only if it does not finish."""
        searcher = self.searcher
        deadline = searcher.deadline_ns
        endgame = self.empties <= STRONG_ENDGAME_EMPTIES
        if endgame and self.empties <= STRONG_EXACT_EMPTIES:
            solved = self._endgame()
            if solved is not None:
                return solved
            endgame = False
        if endgame:
            started = searcher.now_ns()
            searcher.deadline_ns = started + int((deadline - started) * STRONG_MIDGAME_SHARE)
        found = None
        for depth in range(1, min(max_depth, self.empties) + 1):
            searched = self._aspiration(depth, None if found is None else found[1])
            if searched is None:
                break
            found = searched[1], searched[0], depth
        searcher.deadline_ns = deadline
        solved = self._endgame() if endgame else None
        if solved is not None:
            return solved
        if found is None:
            return self._fallback()
        square, value, depth = found
        return square, value, depth, False, self._principal_variation(square, depth, False)

    def _endgame(self) -> _Found | None:
        """Solves of rising selectivity (above ``STRONG_EXACT_EMPTIES`` empties), then the
        exact one: the answer of the last one finished, exact or not (a value in discs times
        100, as the midgame's), or None if none did."""
        selective = self.empties > STRONG_EXACT_EMPTIES
        levels = [*range(len(SELECTIVE_SIGMAS)), EXACT] if selective else [EXACT]
        found = None
        for level in levels:
            solved = self._endgame_solve(level, None if found is None else found[0])
            if solved is None:
                break
            found = solved[0], solved[1], level
        if found is None:
            return None
        value, square, level = found
        pv = self._principal_variation(square, self.empties, True)
        if level == EXACT:
            return square, value, self.empties, True, pv
        return square, value * 100, self.empties, False, pv

    def _endgame_solve(self, selectivity: int, guess: int | None) -> tuple[int, int] | None:
        """(value, best square) of a solve of ``selectivity``, first in a window of
        ``ENDGAME_ASPIRATION`` discs around the previous solve's value, again in the full
        window when it falls outside; None at the deadline."""
        search = partial(
            self.searcher.exact_root,
            self.position,
            weights=STRONG_WEIGHTS,
            cuts=STRONG_ENDCUTS,
            selectivity=selectivity,
        )
        if guess is None:
            solved = search()
        else:
            alpha, beta = guess - ENDGAME_ASPIRATION, guess + ENDGAME_ASPIRATION
            solved = search(alpha, beta)
            if solved is not None and not alpha < solved[0] < beta:
                solved = search()
        if solved is None or solved[1] is None:
            return None
        return solved[0], solved[1]

    def _aspiration(self, depth: int, guess: int | None) -> tuple[int, int] | None:
        """(value, best square) of a ``depth``-ply search, first in a window around the
        previous iteration's value, again in the full window when it falls outside."""
        search = self.searcher.midgame_root
        position, weights, cuts = self.position, STRONG_WEIGHTS, STRONG_CUTS
        if guess is not None:
            alpha, beta = guess - ASPIRATION_WINDOW, guess + ASPIRATION_WINDOW
            searched = search(position, depth, alpha, beta, weights=weights, cuts=cuts)
            if searched is None or alpha < searched[0] < beta:
                return searched
        return search(position, depth, weights=weights, cuts=cuts)

    def solve(self) -> tuple[int, int | None] | None:
        """(exact final disc difference, best square or None for a pass), or None at the
        deadline."""
        return self.searcher.exact_root(self.position)

    def _fallback(self) -> _Found:
        """The best move of an unfinished root search, else the first of the static order."""
        square = self.searcher.root_best(self.position)
        if square is None:
            square = root_order(self.position)[0]
        return square, 0, 0, False, [_move_of(square, 8)]

    def _principal_variation(self, square: int, depth: int, exact: bool) -> list[Move]:
        """The root move, then the best moves the table remembers."""
        pv = [_move_of(square, 8)]
        position = self.position.play(square)
        while len(pv) < depth:
            if not position.legal_squares():
                if position.is_over():
                    break
                pv.append(PASS)
                position = position.passed()
                continue
            best = self.tables.best_square(position, exact)
            if best is None:
                break
            pv.append(_move_of(best, 8))
            position = position.play(best)
        return pv


class _GenericSearch:
    """Searches of any variant with the generic bitboard kernels (paranoid with 3-4 players),
    over the ``generic`` table of ``tables``; ``weights`` are the evaluation's (``generic``)."""

    def __init__(
        self,
        board: Board,
        deadline_ns: int,
        tables: SearchTables,
        clock: int,
        weights: np.ndarray,
    ) -> None:
        rows = board.rows()
        self.discs = discs_of(rows)
        self.geometry: Geometry = geometry_of(rows)
        self.weights = weights
        self.player = board.turn
        self.players = board.variant.players
        self.anti = int(board.variant.anti)
        self.empties = board.empties()
        self.table = tables.generic
        self.stats = new_stats(deadline_ns, tables.next_age(), clock)
        g = self.geometry
        self.moves = [
            g.square_of(bit)
            for bit in generic.move_list(self.discs, g.masks, g.shifts, self.player, self.players)
        ]
        sign = -1 if self.anti else 1
        self.moves.sort(key=lambda square: -sign * int(g.weights[g.bit_of(square)]))

    def root_squares(self) -> list[int]:
        return list(self.moves)

    def is_exact(self, depth: int) -> bool:
        """Whether ``depth`` plies reach the end of every line (two players only)."""
        return depth >= self.empties and self.players == 2

    def move_values(self, depth: int) -> list[tuple[int, int]] | None:
        """(square, value) of every root move searched ``depth`` plies; None at the deadline."""
        return self._values(depth, self.moves, True)

    def to_discs(self, value: int, exact: bool) -> float:
        """A value of ``move_values`` in discs (exact ones are whole disc differences)."""
        return _discs(value)

    def _values(
        self, depth: int, order: list[int], full_window: bool
    ) -> list[tuple[int, int]] | None:
        """(square, value) of the root moves searched ``depth`` plies; None at the deadline."""
        g = self.geometry
        following = (self.player + 1) % self.players
        values = []
        alpha = -INF
        for square in order:
            child = self.discs.copy()
            generic.play(child, g.shifts, g.bit_of(square), self.player)
            if time.clock_gettime_ns(int(self.stats[CLOCK])) >= self.stats[DEADLINE]:
                return None
            value = generic.search(
                child, g.masks, g.shifts, g.weights, self.weights,
                following, self.player, self.players, self.anti, depth - 1,
                -INF if full_window else alpha, INF, self.stats, self.table,
            )  # fmt: skip
            if self.stats[ABORTED]:
                return None
            values.append((square, int(value)))
            alpha = max(alpha, int(value))
        return values

    def _deepening(
        self, max_depth: int, full_window: bool
    ) -> tuple[list[tuple[int, int]], int] | None:
        """Iterative deepening to ``max_depth``: the last finished (values, depth)."""
        order = list(self.moves)
        found = None
        for depth in range(1, max_depth + 1):
            values = self._values(depth, order, full_window)
            if values is None:
                break
            found = values, depth
            best = max(values, key=lambda sv: sv[1])[0]
            order = [best] + [s for s in order if s != best]
            if depth >= self.empties:
                break
        return found

    def _answer(
        self,
        found: tuple[list[tuple[int, int]], int] | None,
        rng: random.Random,
        slip: bool,
        full_window: bool = True,
    ) -> _Found:
        if found is None:
            return self.moves[0], 0, 0, False, [_move_of(self.moves[0], self.geometry.width)]
        values, depth = found
        if full_window:
            square, value = _pick(values, rng, slip)
        else:  # only the best value is exact; the first maximum is the previous best first
            square, value = max(values, key=lambda sv: sv[1])
        exact = depth >= self.empties and self.players == 2
        if exact:
            value = round(_discs(value))
        return square, value, depth, exact, [_move_of(square, self.geometry.width)]

    def normal(self, rng: random.Random) -> _Found:
        if self.empties <= NORMAL_EXACT_EMPTIES:
            return self._answer(self._deepening(self.empties, True), rng, False)
        found = self._deepening(NORMAL_DEPTH, True)
        return self._answer(found, rng, rng.random() < NORMAL_SLIP)

    def strong(self, rng: random.Random, max_depth: int) -> _Found:
        return self._answer(self._deepening(max_depth, False), rng, False, full_window=False)
