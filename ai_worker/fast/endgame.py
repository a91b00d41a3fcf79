"""Exact endgame solver for 8x8 two-player positions (bitboards, see ``bitboard``).

Negamax alpha-beta returning the exact final disc difference for the side to move (empties go
to the winner, R7; in anti-reversi the score is reversed and no empties are added).
Three tiers by the number of empties: a move-generation-free loop over the empties in parity
order (few empties; the last square is played out directly), move generation with parity
ordering, and above that principal-variation null windows, a transposition table (kept for the
bigger subtrees, with enhanced transposition cut-offs), a stability cut-off and move ordering
by fastest-first or, with many empties, by a shallow midgame search.
The clock, node count and table are those of ``searchstate``.
"""

import numpy as np
from numba import njit

from ai_worker.fast.bitboard import (
    ONE,
    ZERO,
    final_score,
    flips,
    legal_moves,
    neighbours,
    stable_discs,
)
from ai_worker.fast.intrinsics import lowest_bit_index, popcount
from ai_worker.fast.midgame import pvs
from ai_worker.fast.searchstate import (
    ABORTED,
    BEST,
    NO_SQUARE,
    NODES,
    sort_by_keys,
    table_slot,
    tick,
)

SCORE_INF = 127
ROOT = -1  # ``passed`` of a root call: always stores its best move in the table
SMALL_EMPTIES = 6
ORDERED_EMPTIES = 7
SEARCH_ORDER_EMPTIES = 16
SEARCH_ORDER_STEP = 3
SHALLOW_INF = 32000
STABILITY_ALPHA = 10
REPLACE_MARGIN = 1
ETC_EMPTIES = 12
W_POTENTIAL = 2
_QUADRANTS = np.array(
    [0x0F0F0F0F, 0xF0F0F0F0, 0x0F0F0F0F00000000, 0xF0F0F0F000000000], dtype=np.uint64
)
_CORNERS = np.uint64(0x8100000000000081)


@njit(cache=True, inline="always")
def _odd_quadrants(empties):
    odd = ZERO
    for q in range(4):
        if popcount(empties & _QUADRANTS[q]) & 1:
            odd |= _QUADRANTS[q]
    return odd


@njit(cache=True)
def _last_square(player, opponent, walls, anti, square):
    """Final score when one empty square is left: whoever can flip there plays it."""
    bit = ONE << np.uint64(square)
    f = flips(player, opponent, square)
    if f != ZERO:
        return final_score(player | f | bit, opponent ^ f, walls, anti)
    f = flips(opponent, player, square)
    if f != ZERO:
        return final_score(player ^ f, opponent | f | bit, walls, anti)
    return final_score(player, opponent, walls, anti)


@njit("int64(uint64, uint64, uint64, int64, int64, int64, int64, int64[::1])", cache=True)
def _solve_small(player, opponent, walls, anti, alpha, beta, passed, stats):
    """Few empties: try every empty square (odd quadrants first), no move generation."""
    stats[NODES] += 1
    empties = ~(player | opponent | walls)
    if empties == ZERO:
        return final_score(player, opponent, walls, anti)
    if empties & (empties - ONE) == ZERO:
        return _last_square(player, opponent, walls, anti, lowest_bit_index(empties))
    odd = _odd_quadrants(empties)
    best = -SCORE_INF
    for group in range(2):
        candidates = empties & odd if group == 0 else empties & ~odd
        while candidates:
            square = lowest_bit_index(candidates)
            candidates &= candidates - ONE
            f = flips(player, opponent, square)
            if f == ZERO:
                continue
            value = -_solve_small(
                opponent ^ f, player | f | (ONE << np.uint64(square)), walls, anti,
                -beta, -alpha, np.int64(0), stats,
            )  # fmt: skip
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        return best
    if best == -SCORE_INF:
        if passed:
            return final_score(player, opponent, walls, anti)
        return -_solve_small(opponent, player, walls, anti, -beta, -alpha, np.int64(1), stats)
    return best


@njit("int64(uint64, uint64, uint64, int64, int64, int64, int64, int64[::1])", cache=True)
def _solve_ordered(player, opponent, walls, anti, alpha, beta, passed, stats):
    """Middle tier: generated moves, odd quadrants first."""
    tick(stats)
    if stats[ABORTED]:
        return 0
    empties = ~(player | opponent | walls)
    if popcount(empties) <= SMALL_EMPTIES:
        return _solve_small(player, opponent, walls, anti, alpha, beta, passed, stats)
    moves = legal_moves(player, opponent, walls)
    if moves == ZERO:
        if passed:
            return final_score(player, opponent, walls, anti)
        return -_solve_ordered(opponent, player, walls, anti, -beta, -alpha, np.int64(1), stats)
    odd = _odd_quadrants(empties)
    best = -SCORE_INF
    for group in range(2):
        candidates = moves & odd if group == 0 else moves & ~odd
        while candidates:
            square = lowest_bit_index(candidates)
            candidates &= candidates - ONE
            f = flips(player, opponent, square)
            value = -_solve_ordered(
                opponent ^ f, player | f | (ONE << np.uint64(square)), walls, anti,
                -beta, -alpha, np.int64(0), stats,
            )  # fmt: skip
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        return best
    return best


@njit(cache=True)
def _ordered_moves(player, opponent, walls, anti, moves, first, stats, shallow_table):
    """The moves best-first: ``first`` (a remembered best square, or NO_SQUARE), then with
    many empties by a shallow search of each child, else fastest-first (fewest opponent
    replies, corners early)."""
    n_empties = popcount(~(player | opponent | walls))
    shallow_depth = -1
    if n_empties >= SEARCH_ORDER_EMPTIES:
        shallow_depth = (n_empties - SEARCH_ORDER_EMPTIES) // SEARCH_ORDER_STEP
    count = popcount(moves)
    squares = np.empty(count, dtype=np.int64)
    keys = np.empty(count, dtype=np.int64)
    n = 0
    while moves:
        square = lowest_bit_index(moves)
        moves &= moves - ONE
        bit = ONE << np.uint64(square)
        f = flips(player, opponent, square)
        child_o = player | f | bit
        if shallow_depth >= 0:
            key = pvs(
                opponent ^ f, child_o, walls, anti, shallow_depth, -SHALLOW_INF, SHALLOW_INF,
                np.int64(0), stats, shallow_table,
            )  # fmt: skip
        else:
            replies = legal_moves(opponent ^ f, child_o, walls)
            key = popcount(replies) * 16 + popcount(replies & _CORNERS) * 8
            key += popcount(neighbours(child_o) & ~(child_o | opponent | walls)) * W_POTENTIAL
            if bit & _CORNERS:
                key -= 12
        if square == first:
            key = -1 << 40
        squares[n] = square
        keys[n] = key
        n += 1
    return sort_by_keys(squares, keys)


@njit(cache=True)
def _transposition_cutoff(player, opponent, moves, beta, table):
    """Enhanced transposition cut-off: a move whose stored child value already reaches
    ``beta`` proves a fail-high without a search; returns that bound, else -SCORE_INF."""
    while moves:
        square = lowest_bit_index(moves)
        moves &= moves - ONE
        f = flips(player, opponent, square)
        child_p = opponent ^ f
        child_o = player | f | (ONE << np.uint64(square))
        slot = table_slot(child_p, child_o, table)
        if table[slot, 0] == child_p and table[slot, 1] == child_o:
            child_upper = np.int64((table[slot, 2] >> np.uint64(8)) & np.uint64(0xFF)) - SCORE_INF
            if -child_upper >= beta:
                return -child_upper
    return -SCORE_INF


@njit(
    "int64(uint64, uint64, uint64, int64, int64, int64, int64, int64[::1], uint64[:, ::1],"
    " uint64[:, ::1])",
    cache=True,
)
def solve(player, opponent, walls, anti, alpha, beta, passed, stats, table, shallow_table):
    """Exact final disc difference for ``player`` within the window (alpha, beta);
    ``passed`` is 1 right after a pass, else 0 (or ``ROOT``)."""
    tick(stats)
    if stats[ABORTED]:
        return 0
    empties = ~(player | opponent | walls)
    if passed == ROOT:
        passed = 0
    elif popcount(empties) <= ORDERED_EMPTIES:
        return _solve_ordered(player, opponent, walls, anti, alpha, beta, passed, stats)
    elif not anti and alpha >= STABILITY_ALPHA:
        bound = 64 - popcount(walls) - 2 * popcount(stable_discs(opponent, player, walls))
        if bound <= alpha:
            return bound
    slot = table_slot(player, opponent, table)
    first = NO_SQUARE
    if table[slot, 0] == player and table[slot, 1] == opponent:
        entry = table[slot, 2]
        lower = np.int64(entry & np.uint64(0xFF)) - SCORE_INF
        upper = np.int64((entry >> np.uint64(8)) & np.uint64(0xFF)) - SCORE_INF
        first = np.int64((entry >> np.uint64(16)) & np.uint64(0xFF))
        if lower >= beta:
            return lower
        if upper <= alpha:
            return upper
        if lower == upper:
            return lower
        alpha = max(alpha, lower)
        beta = min(beta, upper)
    else:
        lower = -SCORE_INF
        upper = SCORE_INF
    moves = legal_moves(player, opponent, walls)
    if moves == ZERO:
        if passed:
            return final_score(player, opponent, walls, anti)
        return -solve(
            opponent, player, walls, anti, -beta, -alpha, np.int64(1), stats, table, shallow_table
        )
    if popcount(empties) >= ETC_EMPTIES:
        cut = _transposition_cutoff(player, opponent, moves, beta, table)
        if cut > -SCORE_INF:
            return cut
    original_alpha = alpha
    best = -SCORE_INF
    best_square = NO_SQUARE
    for square in _ordered_moves(player, opponent, walls, anti, moves, first, stats, shallow_table):
        f = flips(player, opponent, square)
        child_p = opponent ^ f
        child_o = player | f | (ONE << np.uint64(square))
        if best == -SCORE_INF:
            value = -solve(
                child_p,
                child_o,
                walls,
                anti,
                -beta,
                -alpha,
                np.int64(0),
                stats,
                table,
                shallow_table,
            )
        else:
            value = -solve(
                child_p,
                child_o,
                walls,
                anti,
                -alpha - 1,
                -alpha,
                np.int64(0),
                stats,
                table,
                shallow_table,
            )
            if alpha < value < beta:
                value = -solve(
                    child_p,
                    child_o,
                    walls,
                    anti,
                    -beta,
                    -value,
                    np.int64(0),
                    stats,
                    table,
                    shallow_table,
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
    if best >= beta:
        lower = best
    elif best > original_alpha:
        lower = best
        upper = best
    else:
        upper = best
    stored = table[slot, 0] | table[slot, 1]
    same = table[slot, 0] == player and table[slot, 1] == opponent
    if stored != ZERO and not same and popcount(~stored) > popcount(empties) + REPLACE_MARGIN:
        return best  # keep the entry of a bigger subtree
    table[slot, 0] = player
    table[slot, 1] = opponent
    table[slot, 2] = (
        np.uint64(lower + SCORE_INF)
        | (np.uint64(upper + SCORE_INF) << np.uint64(8))
        | (np.uint64(best_square) << np.uint64(16))
    )
    return best


@njit(
    "int64(uint64, uint64, uint64, int64, int64, int64, int64[::1], uint64[:, ::1],"
    " uint64[:, ::1])",
    cache=True,
)
def solve_root(player, opponent, walls, anti, alpha, beta, stats, table, shallow_table):
    """Like ``solve``, and the best square goes to ``stats[BEST]`` (NO_SQUARE when the side to
    move must pass)."""
    value = solve(player, opponent, walls, anti, alpha, beta, ROOT, stats, table, shallow_table)
    stats[BEST] = NO_SQUARE
    slot = table_slot(player, opponent, table)
    if table[slot, 0] == player and table[slot, 1] == opponent:
        stats[BEST] = np.int64((table[slot, 2] >> np.uint64(16)) & np.uint64(0xFF))
    return value
