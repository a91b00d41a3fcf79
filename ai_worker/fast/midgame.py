"""Evaluation and depth-limited principal-variation search for 8x8 two-player positions.

Scores as in ``evaluation``. The transposition table (see ``searchstate``) packs lower and
upper bounds (16 bits each), the best square and the draft.
"""

import numpy as np
from numba import njit

from ai_worker.fast.bitboard import ONE, ZERO, flips, legal_moves
from ai_worker.fast.evaluation import evaluate, terminal_score
from ai_worker.fast.intrinsics import lowest_bit_index, popcount
from ai_worker.fast.searchstate import ABORTED, BEST, NO_SQUARE, sort_by_keys, table_slot, tick

INF = 32000
REPLACE_MARGIN = 2
_OFFSET = 32768
_CORNERS = np.uint64(0x8100000000000081)


@njit(cache=True)
def _sorted_moves(player, opponent, walls, anti, moves, first, by_eval):
    """Moves best-first: ``first`` (a remembered best square), then by the child's static
    value (``by_eval``) or fewest opponent replies."""
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
            key = evaluate(opponent ^ f, player | f | bit, walls, anti)
        else:
            key = popcount(legal_moves(opponent ^ f, player | f | bit, walls)) * 100
            if bit & _CORNERS:
                key -= 500 if not anti else -500
        if square == first:
            key = -10 * INF
        squares[n] = square
        keys[n] = key
        n += 1
    return sort_by_keys(squares, keys)


@njit(
    "int64(uint64, uint64, uint64, int64, int64, int64, int64, int64, int64[::1], uint64[:, ::1])",
    cache=True,
)
def pvs(player, opponent, walls, anti, depth, alpha, beta, passed, stats, table):
    """Principal-variation search ``depth`` plies deep (a pass is not a ply)."""
    tick(stats)
    if stats[ABORTED]:
        return 0
    moves = legal_moves(player, opponent, walls)
    if moves == ZERO:
        if passed:
            return terminal_score(player, opponent, walls, anti)
        return -pvs(opponent, player, walls, anti, depth, -beta, -alpha, np.int64(1), stats, table)
    if depth == 0:
        return evaluate(player, opponent, walls, anti)
    slot = table_slot(player, opponent, table)
    first = NO_SQUARE
    if table[slot, 0] == player and table[slot, 1] == opponent:
        entry = table[slot, 2]
        first = np.int64((entry >> np.uint64(32)) & np.uint64(0xFF))
        if np.int64(entry >> np.uint64(40)) >= depth:
            lower = np.int64(entry & np.uint64(0xFFFF)) - _OFFSET
            upper = np.int64((entry >> np.uint64(16)) & np.uint64(0xFFFF)) - _OFFSET
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            if lower == upper:
                return lower
            alpha = max(alpha, lower)
            beta = min(beta, upper)
    original_alpha = alpha
    best = -INF
    best_square = NO_SQUARE
    for square in _sorted_moves(player, opponent, walls, anti, moves, first, depth >= 3):
        f = flips(player, opponent, square)
        child_p = opponent ^ f
        child_o = player | f | (ONE << np.uint64(square))
        d = depth - 1
        if best == -INF:
            value = -pvs(child_p, child_o, walls, anti, d, -beta, -alpha, np.int64(0), stats, table)
        else:
            value = -pvs(
                child_p, child_o, walls, anti, d, -alpha - 1, -alpha, np.int64(0), stats, table
            )
            if alpha < value < beta:
                value = -pvs(
                    child_p, child_o, walls, anti, d, -beta, -value, np.int64(0), stats, table
                )
        if stats[ABORTED]:
            return 0
        if value > best:
            best = value
            best_square = square
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    lower = -INF
    upper = INF
    if best >= beta:
        lower = best
    elif best > original_alpha:
        lower = best
        upper = best
    else:
        upper = best
    same = table[slot, 0] == player and table[slot, 1] == opponent
    if not same and np.int64(table[slot, 2] >> np.uint64(40)) > depth + REPLACE_MARGIN:
        return best  # keep the deeper entry of another position
    table[slot, 0] = player
    table[slot, 1] = opponent
    table[slot, 2] = (
        np.uint64(lower + _OFFSET)
        | (np.uint64(upper + _OFFSET) << np.uint64(16))
        | (np.uint64(best_square) << np.uint64(32))
        | (np.uint64(depth) << np.uint64(40))
    )
    return best


@njit(
    "int64(uint64, uint64, uint64, int64, int64, int64, int64, int64[::1], uint64[:, ::1])",
    cache=True,
)
def pvs_root(player, opponent, walls, anti, depth, alpha, beta, stats, table):
    """Like ``pvs``, and the best square goes to ``stats[BEST]``. The position must have a
    legal move."""
    value = pvs(player, opponent, walls, anti, depth, alpha, beta, np.int64(0), stats, table)
    slot = table_slot(player, opponent, table)
    stats[BEST] = np.int64((table[slot, 2] >> np.uint64(32)) & np.uint64(0xFF))
    return value


@njit(cache=True)
def root_order(player, opponent, walls, anti, first):
    """The root moves sorted best-first (``first`` leading, NO_SQUARE for none)."""
    moves = legal_moves(player, opponent, walls)
    return _sorted_moves(player, opponent, walls, anti, moves, first, True)
