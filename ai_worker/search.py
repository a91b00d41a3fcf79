"""The CPU player: ``choose_move(board, level)`` for every variant (spec M1, G2).

Levels:

- *easy*: no look-ahead; usually a move flipping the most discs, sometimes a random legal move;
  corners mean nothing to it.
- *normal*: a 4-ply search with a positional evaluation (corners, X and C squares); with 10 or
  fewer empties an exact solve (best final disc difference). Now and then (``NORMAL_SLIP``) it
  plays a slightly worse move within ``NORMAL_SLIP_MARGIN`` of the best.
- *strong*: iterative deepening until the time limit (1.5 s by default) with mobility,
  potential mobility, corners, X/C squares, stability and parity in the evaluation; with 20 or
  fewer empties it also tries an exact solve in the remaining time. The hint is its move.

Standard-size (8x8) two-player games use the uint64 bitboard kernels; every other variant
(6x6, 10x10, octagon, 3-4 players) the generic cell-array kernels. Anti-reversi reverses the
goal in both. With 3-4 players the search is *paranoid* (every rival minimises the searcher's
value) rather than max-n: paranoid keeps alpha-beta pruning, so it looks about twice as deep in
the same time, and its worst-case view suits a table where rivals gang up on the leader. The
free opening's placements (no choice that flips anything) are picked at random by every level.

The search stops at its deadline and answers with the best move of the last finished
iteration, so a legal move comes back even from a tiny time limit. Randomness comes only from
``seed``: the same position, level and seed give the same move whenever the search reaches the
same depth (always for easy and normal).
"""

import random
import time
from dataclasses import dataclass

import numpy as np

from ai_worker.engine import PASS, Board, Move, Variant
from ai_worker.engine.records import read_obf
from ai_worker.fast import bitboard, endgame, generic, midgame
from ai_worker.fast.evaluation import WIN_SCORE
from ai_worker.fast.geometry import Geometry, bitboards_of, cells_of, geometry_of
from ai_worker.fast.searchstate import (
    ABORTED,
    BEST,
    DEADLINE,
    NO_SQUARE,
    NODES,
    new_stats,
    new_table,
    table_slot,
)
from ai_worker.levels import EASY, LEVELS, NORMAL, STRONG

DEFAULT_TIME_LIMIT = {EASY: 0.5, NORMAL: 2.0, STRONG: 1.5}
EASY_RANDOM = 0.25
NORMAL_DEPTH = 4
NORMAL_EXACT_EMPTIES = 10
NORMAL_SLIP = 0.15
NORMAL_SLIP_MARGIN = 400
STRONG_EXACT_EMPTIES = 20
STRONG_MIDGAME_SHARE = 0.2
MAX_DEPTH = 60
_TABLE_BITS = 18
_SHALLOW_TABLE_BITS = 16
_NEAR_END = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"  # FFO #40


@dataclass(frozen=True)
class SearchResult:
    """A chosen move and the figures of the search behind it.

    ``score`` is for the side to move: the final disc difference when ``exact``, otherwise the
    evaluation in discs. ``depth`` is the last finished search depth in plies.
    """

    move: Move
    score: float
    pv: list[Move]
    depth: int
    nodes: int
    exact: bool
    elapsed: float


def choose_move(
    board: Board, level: str, *, time_limit: float | None = None, seed: int | None = None
) -> SearchResult:
    """The move ``level`` plays in ``board``'s position, within ``time_limit`` seconds."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}")
    started = time.monotonic()
    limit = DEFAULT_TIME_LIMIT[level] if time_limit is None else time_limit
    deadline_ns = time.monotonic_ns() + int(max(limit, 0.0) * 1e9)
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
    if board.variant.players == 2 and board.variant.board == "8x8":
        searcher = _BitboardSearch(board, deadline_ns)
    else:
        searcher = _GenericSearch(board, deadline_ns)
    found = searcher.normal(rng) if level == NORMAL else searcher.strong(rng)
    square, value, depth, exact, pv = found
    move = _move_of(square, board.width)
    score = float(value) if exact else _discs(value)
    nodes = int(searcher.stats[NODES])
    return SearchResult(move, score, pv, depth, nodes, exact, time.monotonic() - started)


def solve_endgame(board: Board, *, time_limit: float) -> SearchResult | None:
    """The exact solution of an 8x8 two-player position (best move, final disc difference for
    the side to move), or None when ``time_limit`` seconds are not enough. A forced pass is
    solved too (the move is PASS)."""
    if board.variant.players != 2 or board.variant.board != "8x8":
        raise ValueError("the exact solver handles 8x8 two-player positions")
    if board.is_game_over():
        raise ValueError("the game is over: there is no move to choose")
    started = time.monotonic()
    searcher = _BitboardSearch(board, time.monotonic_ns() + int(time_limit * 1e9))
    solved = searcher.solve()
    if solved is None:
        return None
    square, value = solved
    move = PASS if square == NO_SQUARE else _move_of(square, 8)
    nodes = int(searcher.stats[NODES])
    elapsed = time.monotonic() - started
    return SearchResult(move, float(value), [move], board.empties(), nodes, True, elapsed)


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
    if value >= WIN_SCORE - 1000 + 1:
        value -= WIN_SCORE
    elif value <= -WIN_SCORE + 1000 - 1:
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
    """Searches of an 8x8 two-player position with the bitboard kernels."""

    def __init__(self, board: Board, deadline_ns: int) -> None:
        self.player, self.opponent, self.walls = bitboards_of(board.rows(), board.turn)
        self.anti = int(board.variant.anti)
        self.empties = board.empties()
        self.stats = new_stats(deadline_ns)
        self.table = new_table(_TABLE_BITS)

    def _run(self, kernel, *args) -> int | None:
        """Run one kernel call; None when it hit the deadline."""
        if time.monotonic_ns() >= self.stats[DEADLINE]:
            return None
        value = kernel(*args)
        return None if self.stats[ABORTED] else int(value)

    def _root_order(self):
        """The legal squares, best-first by the static evaluation."""
        return midgame.root_order(self.player, self.opponent, self.walls, self.anti, NO_SQUARE)

    def _children(self):
        for square in self._root_order():
            f = bitboard.flips(self.player, self.opponent, square)
            bit = np.uint64(1) << np.uint64(square)
            yield int(square), self.opponent ^ f, self.player | f | bit

    def _exact_values(self) -> list[tuple[int, int]] | None:
        exact_table = new_table(_TABLE_BITS)
        shallow = new_table(_SHALLOW_TABLE_BITS)
        values = []
        for square, p, o in self._children():
            value = self._run(
                endgame.solve, p, o, self.walls, self.anti, -64, 64, np.int64(0),
                self.stats, exact_table, shallow,
            )  # fmt: skip
            if value is None:
                return None
            values.append((square, -value))
        return values

    def _midgame_values(self, depth: int) -> list[tuple[int, int]] | None:
        values = []
        for square, p, o in self._children():
            value = self._run(
                midgame.pvs, p, o, self.walls, self.anti, depth - 1, -midgame.INF, midgame.INF,
                np.int64(0), self.stats, self.table,
            )  # fmt: skip
            if value is None:
                return None
            values.append((square, -value))
        return values

    def normal(self, rng: random.Random):
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

    def strong(self, rng: random.Random):
        started = time.monotonic_ns()
        deadline = int(self.stats[DEADLINE])
        if self.empties <= STRONG_EXACT_EMPTIES:
            self.stats[DEADLINE] = started + int((deadline - started) * STRONG_MIDGAME_SHARE)
        found = None
        for depth in range(1, min(MAX_DEPTH, self.empties) + 1):
            value = self._run(
                midgame.pvs_root, self.player, self.opponent, self.walls, self.anti, depth,
                -midgame.INF, midgame.INF, self.stats, self.table,
            )  # fmt: skip
            if value is None:
                break
            found = int(self.stats[BEST]), value, depth, False
        self.stats[DEADLINE] = deadline
        if self.empties <= STRONG_EXACT_EMPTIES:
            solved = self.solve()
            if solved is not None:
                found = *solved, self.empties, True
        if found is None:
            return self._fallback()
        square, value, depth, exact = found
        return square, value, depth, exact, self._principal_variation(square, depth)

    def solve(self) -> tuple[int, int] | None:
        """(best square, exact final disc difference), or None at the deadline."""
        value = self._run(
            endgame.solve_root, self.player, self.opponent, self.walls, self.anti, -64, 64,
            self.stats, new_table(), new_table(_SHALLOW_TABLE_BITS),
        )  # fmt: skip
        return None if value is None else (int(self.stats[BEST]), value)

    def _fallback(self):
        square = int(self._root_order()[0])
        return square, 0, 0, False, [_move_of(square, 8)]

    def _principal_variation(self, square: int, depth: int) -> list[Move]:
        """The root move, then the best moves the midgame table remembers."""
        pv = [_move_of(square, 8)]
        f = bitboard.flips(self.player, self.opponent, square)
        bit = np.uint64(1) << np.uint64(square)
        p, o = self.opponent ^ f, self.player | f | bit
        while len(pv) < depth:
            if bitboard.legal_moves(p, o, self.walls) == 0:
                if bitboard.legal_moves(o, p, self.walls) == 0:
                    break
                pv.append(PASS)
                p, o = o, p
                continue
            slot = table_slot(p, o, self.table)
            row = self.table[slot]
            if row[0] != p or row[1] != o:
                break
            square = int((row[2] >> np.uint64(32)) & np.uint64(0xFF))
            bit = np.uint64(1) << np.uint64(square)
            if square >= 64 or not bitboard.legal_moves(p, o, self.walls) & bit:
                break
            pv.append(_move_of(square, 8))
            f = bitboard.flips(p, o, square)
            p, o = o ^ f, p | f | bit
        return pv


class _GenericSearch:
    """Searches of any variant with the cell-array kernels (paranoid with 3-4 players)."""

    def __init__(self, board: Board, deadline_ns: int) -> None:
        rows = board.rows()
        self.cells = cells_of(rows)
        self.geometry: Geometry = geometry_of(rows)
        self.player = board.turn
        self.players = board.variant.players
        self.anti = int(board.variant.anti)
        self.empties = board.empties()
        self.stats = new_stats(deadline_ns)
        moves = np.empty(self.cells.shape[0], dtype=np.int64)
        g = self.geometry
        count = generic.generate_moves(
            self.cells, g.rays, g.ray_lengths, g.adjacent, self.player, self.players, moves
        )
        self.moves = [int(m) for m in moves[:count]]
        sign = -1 if self.anti else 1
        self.moves.sort(key=lambda square: -sign * int(g.weights[square]))

    def _values(self, depth: int, order: list[int], full_window: bool):
        """(square, value) of the root moves searched ``depth`` plies; None at the deadline."""
        g = self.geometry
        following = (self.player + 1) % self.players
        values = []
        alpha = -generic.INF
        for square in order:
            child = self.cells.copy()
            generic.play(child, g.rays, g.ray_lengths, square, self.player)
            if time.monotonic_ns() >= self.stats[DEADLINE]:
                return None
            value = generic.search(
                child, g.rays, g.ray_lengths, g.adjacent, g.weights, g.corner_of,
                following, self.player, self.players, self.anti, depth - 1,
                -generic.INF if full_window else alpha, generic.INF, self.stats,
            )  # fmt: skip
            if self.stats[ABORTED]:
                return None
            values.append((square, int(value)))
            alpha = max(alpha, int(value))
        return values

    def _deepening(self, max_depth: int, full_window: bool):
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

    def _answer(self, found, rng: random.Random, slip: bool, full_window: bool = True):
        if found is None:
            return self.moves[0], 0, 0, False, [_move_of(self.moves[0], self.geometry.width)]
        values, depth = found
        if full_window:
            square, value = _pick(values, rng, slip)
        else:  # only the best value is exact; the first maximum is the previous best first
            square, value = max(values, key=lambda sv: sv[1])
        exact = depth >= self.empties and self.players == 2
        if exact:
            value = int(round(_discs(value)))
        return square, value, depth, exact, [_move_of(square, self.geometry.width)]

    def normal(self, rng: random.Random):
        if self.empties <= NORMAL_EXACT_EMPTIES:
            return self._answer(self._deepening(self.empties, True), rng, False)
        found = self._deepening(NORMAL_DEPTH, True)
        return self._answer(found, rng, rng.random() < NORMAL_SLIP)

    def strong(self, rng: random.Random):
        return self._answer(self._deepening(MAX_DEPTH, False), rng, False, full_window=False)
