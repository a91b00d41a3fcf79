"""Depth-limited principal-variation search for 8x8 two-player positions.

Scores as in ``evaluation`` (hundredths of a disc for the side to move, wins offset by
``WIN_SCORE``); every leaf is valued by ``evaluation.evaluate`` with the caller's weights. The
transposition table is that of ``searchstate`` (depth in plies). Moves are ordered by the
table's best square, then by the static value of the child (deep nodes) or fewest opponent
replies (shallow ones), with a history of the squares that cut off earlier. From
``ETC_DEPTH`` plies, a node whose child the table already proves bad enough for the side to
move is cut before any child is searched (enhanced transposition cutoff).
"""

import numpy as np
from numba import njit

from ai_worker.fast.bitboard import CORNERS, ONE, ZERO, flips, legal_moves
from ai_worker.fast.evaluation import HEURISTIC_LIMIT, INF, evaluate, terminal_score
from ai_worker.fast.intrinsics import lowest_bit_index, popcount
from ai_worker.fast.searchstate import (
    ABORTED,
    AGE,
    BEST,
    EXACT,
    NO_SQUARE,
    entry_depth,
    entry_lower,
    entry_square,
    entry_upper,
    probe,
    sort_by_keys,
    store_result,
    tick,
)

EVAL_ORDER_DEPTH = 3  # from this depth on, children are ordered by their static value
ETC_DEPTH = 4  # from this depth on, children's table entries may cut a node (ETC)
CUT_SIGMAS = 1.5  # how sure a Multi-ProbCut cut must be
HISTORY_CAP = 300  # at most this much (three replies' worth) of ordering by history
_FIRST = -1 << 40


@njit(cache=True)
def _sorted_moves(player, opponent, walls, anti, weights, moves, first, by_eval, history):
    """Moves best-first: ``first`` (a remembered best square), then by the child's static
    value (``by_eval``) or by fewest opponent replies and the square's cut-off history."""
    count = popcount(moves)
    squares = np.empty(count, dtype=np.int64)
    keys = np.empty(count, dtype=np.int64)
    n = 0
    while moves:
        square = lowest_bit_index(moves)
        moves &= moves - ONE
        bit = ONE << np.uint64(square)
        f = flips(player, opponent, square)
        if by_eval:
            key = evaluate(opponent ^ f, player | f | bit, walls, anti, weights)
        else:
            key = popcount(legal_moves(opponent ^ f, player | f | bit, walls)) * 100
            if bit & CORNERS:
                key -= 500 if not anti else -500
            key -= min(history[square], HISTORY_CAP)
        if square == first:
            key = _FIRST
        squares[n] = square
        keys[n] = key
        n += 1
    return sort_by_keys(squares, keys)


@njit(cache=True)
def etc_cut(player, opponent, walls, moves, table, depth, beta):
    """Enhanced transposition cutoff: a value >= ``beta`` that a child's stored upper bound (of
    a ``depth - 1``-ply search or deeper) proves for this node, else ``-INF``."""
    while moves:
        square = lowest_bit_index(moves)
        moves &= moves - ONE
        f = flips(player, opponent, square)
        row = probe(opponent ^ f, player | f | (ONE << np.uint64(square)), table)
        if row >= 0 and entry_depth(table, row) >= depth - 1:
            value = -entry_upper(table, row)
            if value >= beta:
                return value
    return -INF


@njit(cache=True, inline="always")
def shallow_depth(depth):
    """Depth of the shallow search that predicts a ``depth``-ply one in Multi-ProbCut."""
    return (depth // 4) * 2 + (depth & 1)


@njit(
    "int64(uint64, uint64, uint64, int64, int64[::1], float64[:, ::1], int64, int64, int64,"
    " int64, int64[::1], uint64[:, ::1], int64[::1])",
    cache=True,
)
def pvs(
    player, opponent, walls, anti, weights, cuts, depth, alpha, beta, passed, stats, table,
    history,
):  # fmt: skip
    """Principal-variation search ``depth`` plies deep (a pass is not a ply).

    ``cuts`` holds Multi-ProbCut's fit per depth, ``(a, b, sigma)``: a ``depth``-ply value is
    about ``a * v + b`` for the value ``v`` of a ``shallow_depth(depth)``-ply search, with
    error ``sigma``; a null-window node whose shallow value lies ``CUT_SIGMAS`` errors beyond
    its window is cut. No row for a depth (or ``a == 0``) means no cut there."""
    tick(stats)
    if stats[ABORTED]:
        return 0
    moves = legal_moves(player, opponent, walls)
    if moves == ZERO:
        if passed:
            return terminal_score(player, opponent, walls, anti)
        return -pvs(
            opponent, player, walls, anti, weights, cuts, depth, -beta, -alpha, np.int64(1), stats,
            table, history,
        )  # fmt: skip
    if depth == 0:
        return evaluate(player, opponent, walls, anti, weights)
    row = probe(player, opponent, table)
    first = NO_SQUARE
    if row >= 0:
        first = entry_square(table, row)
        if entry_depth(table, row) >= depth:
            lower = entry_lower(table, row)
            upper = entry_upper(table, row)
            if lower >= beta:
                return lower
            if upper <= alpha or lower == upper:
                return upper
            alpha = max(alpha, lower)
            beta = min(beta, upper)
    if depth >= ETC_DEPTH:
        value = etc_cut(player, opponent, walls, moves, table, depth, beta)
        if value >= beta:
            return value
    if beta - alpha == 1 and depth < cuts.shape[0] and cuts[depth, 0] > 0:
        a, b, sigma = cuts[depth, 0], cuts[depth, 1], cuts[depth, 2]
        d = shallow_depth(depth)
        high = np.int64(np.ceil((beta + CUT_SIGMAS * sigma - b) / a))
        if high < HEURISTIC_LIMIT:
            value = pvs(
                player, opponent, walls, anti, weights, cuts, d, high - 1, high, passed, stats,
                table, history,
            )  # fmt: skip
            if value >= high:
                return beta
        low = np.int64(np.floor((alpha - CUT_SIGMAS * sigma - b) / a))
        if low > -HEURISTIC_LIMIT:
            value = pvs(
                player, opponent, walls, anti, weights, cuts, d, low, low + 1, passed, stats,
                table, history,
            )  # fmt: skip
            if value <= low:
                return alpha
    original_alpha = alpha
    best = -INF
    best_square = NO_SQUARE
    order = _sorted_moves(
        player, opponent, walls, anti, weights, moves, first, depth >= EVAL_ORDER_DEPTH, history
    )
    for square in order:
        f = flips(player, opponent, square)
        child_p = opponent ^ f
        child_o = player | f | (ONE << np.uint64(square))
        d = depth - 1
        if best == -INF:
            value = -pvs(
                child_p, child_o, walls, anti, weights, cuts, d, -beta, -alpha, np.int64(0), stats,
                table, history,
            )  # fmt: skip
        else:
            value = -pvs(
                child_p, child_o, walls, anti, weights, cuts, d, -alpha - 1, -alpha, np.int64(0),
                stats, table, history,
            )  # fmt: skip
            if alpha < value < beta:
                value = -pvs(
                    child_p, child_o, walls, anti, weights, cuts, d, -beta, -value, np.int64(0),
                    stats, table, history,
                )  # fmt: skip
        if stats[ABORTED]:
            return 0
        if value > best:
            best = value
            best_square = square
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    history[square] += depth * depth
                    break
    store_result(
        player, opponent, table, best, original_alpha, beta, INF, best_square, depth,
        stats[AGE], EXACT,
    )  # fmt: skip
    return best


@njit(
    "int64(uint64, uint64, uint64, int64, int64[::1], float64[:, ::1], int64, int64, int64,"
    " int64[::1], uint64[:, ::1], int64[::1])",
    cache=True,
)
def pvs_root(
    player, opponent, walls, anti, weights, cuts, depth, alpha, beta, stats, table, history
):  # fmt: skip
    """Like ``pvs``, and the best square goes to ``stats[BEST]``. The position must have a
    legal move."""
    value = pvs(
        player, opponent, walls, anti, weights, cuts, depth, alpha, beta, np.int64(0), stats,
        table, history,
    )  # fmt: skip
    row = probe(player, opponent, table)
    stats[BEST] = entry_square(table, row) if row >= 0 else NO_SQUARE
    return value


@njit(cache=True)
def root_order(player, opponent, walls, anti, weights):
    """The root moves sorted best-first by the static value of each child."""
    moves = legal_moves(player, opponent, walls)
    history = np.zeros(64, dtype=np.int64)
    return _sorted_moves(player, opponent, walls, anti, weights, moves, NO_SQUARE, True, history)
