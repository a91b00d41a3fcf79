"""Exact endgame solver for 8x8 two-player positions (bitboards, see ``bitboard``).

Negamax alpha-beta returning the exact final disc difference for the side to move (empties go
to the winner, R7; in anti-reversi the score is reversed and no empties are added). Tiers by
the number of empties:

- 1 to 4: unrolled solvers over the empty squares in parity order (odd quadrants first), with
  no move generation; the last square only counts the discs it flips.
- up to ``SMALL_EMPTIES``: a loop over the empty squares, no move generation; odd quadrants
  first, and in each corners first, X and C squares last.
- up to ``HASH_EMPTIES - 1``: generated moves in that order.
- above: principal-variation null windows, the transposition table of ``searchstate`` (depth =
  empties) with enhanced transposition cut-offs, a stability cut-off, and move ordering by a
  shallow midgame search (many empties, and at least ``ROOT_ORDER_DEPTH`` plies at the root)
  or fastest-first (fewest opponent replies).

A *selective* solve (``stats[SELECTIVITY]`` a level of ``SELECTIVE_SIGMAS`` rather than
``EXACT``) also cuts like ProbCut: at a null-window node of ``cuts`` (rows ``(a, b, sigma)``
per number of empties, fitted by ``python -m benchmarks.fit_probcut --endgame``), a
``endcut_depth``-ply midgame search of value ``v`` (hundredths of a disc) predicts the exact
value as ``a * v / 100 + b`` discs with error ``sigma``; a prediction beyond the window by the
level's number of sigmas is taken for the result. Its table entries carry the level, and a
search trusts only bounds of its own level or a more exact one (Edax's selectivity levels:
the strong level runs them from the lowest up, then the exact solve).

The clock and node count are those of ``searchstate``; the shallow searches use their own
table and the caller's evaluation weights.
"""

import numpy as np
from numba import njit

from ai_worker.fast.bitboard import (
    CORNERS,
    ONE,
    QUADRANTS,
    ZERO,
    final_score,
    flips,
    legal_moves,
    neighbours,
    score_of_counts,
    stable_discs,
)
from ai_worker.fast.evaluation import HEURISTIC_LIMIT, INF
from ai_worker.fast.intrinsics import lowest_bit_index, popcount
from ai_worker.fast.lastflip import count_last_flips
from ai_worker.fast.midgame import pvs
from ai_worker.fast.searchstate import (
    ABORTED,
    AGE,
    BEST,
    EXACT,
    NO_SQUARE,
    NODES,
    SELECTIVITY,
    entry_lower,
    entry_selectivity,
    entry_square,
    entry_upper,
    probe,
    sort_by_keys,
    store_result,
    tick,
)

SCORE_INF = 127
ROOT = -1  # ``passed`` of a root call: always stores its best move in the table
SMALL_EMPTIES = 6
HASH_EMPTIES = 8
ETC_EMPTIES = 12
SEARCH_ORDER_EMPTIES = 16
SEARCH_ORDER_STEP = 3
ROOT_ORDER_DEPTH = 6  # the root's moves are ordered by a search at least this deep
STABILITY_ALPHA = 10
W_POTENTIAL = 2
W_ODD = 4
_FIRST = -1 << 40
GROUPS = 6
SELECTIVE_SIGMAS = np.array([1.1, 1.5, 2.0, 2.6])  # a cut's sigmas per level: 73 % to 99 % sure
NO_CUT = SCORE_INF
_X_AND_C = np.uint64(0x42C300000000C342)
_SMALL_SIG = "int64(uint64, uint64, uint64, int64, int64, int64, int64, int64[::1])"


@njit(cache=True, inline="always")
def _bit(square):
    return ONE << np.uint64(square)


@njit(cache=True, inline="always")
def _odd_quadrants(empties):
    """The quadrants holding an odd number of empties (playing there first keeps the last
    move of each region)."""
    odd = ZERO
    for q in range(4):
        if popcount(empties & QUADRANTS[q]) & 1:
            odd |= QUADRANTS[q]
    return odd


@njit(cache=True, inline="always")
def _group(k, odd):
    """Squares of the ``k``-th of ``GROUPS`` groups, in which small solves try moves: odd
    quadrants first, within each corners, then other squares, then X and C squares."""
    kind = k % 3
    quadrants = odd if k < 3 else ~odd
    if kind == 0:
        return quadrants & CORNERS
    if kind == 1:
        return quadrants & ~CORNERS & ~_X_AND_C
    return quadrants & _X_AND_C


@njit(cache=True, inline="always")
def _pop(first, second):
    """The lowest square of ``first`` (else of ``second``) and both sets without it."""
    if first:
        return lowest_bit_index(first), first & (first - ONE), second
    return lowest_bit_index(second), first, second & (second - ONE)


def _square_neighbours() -> np.ndarray:
    """Per square, the squares next to it (a move there flips only if one holds a rival)."""
    return np.array([neighbours(_BIT_OF[square]) for square in range(64)], dtype=np.uint64)


_BIT_OF = np.array([1 << square for square in range(64)], dtype=np.uint64)
SQUARE_NEIGHBOURS = _square_neighbours()


@njit(cache=True, inline="always")
def _flips_if_legal(player, opponent, square):
    """``flips``, skipped (0) for a square with no opponent disc beside it."""
    if SQUARE_NEIGHBOURS[square] & opponent == ZERO:
        return ZERO
    return flips(player, opponent, square)


@njit(cache=True)
def _solve_1(player, opponent, walls, anti, square):
    """Final score when ``square`` is the only empty: whoever can flip there plays it (on a
    board without walls, the flips are counted from tables, see ``lastflip``)."""
    p = popcount(player)
    o = popcount(opponent)
    if walls == ZERO:
        n = count_last_flips(player, square)
        if n:
            return score_of_counts(p + n + 1, o - n, 0, anti)
        n = count_last_flips(opponent, square)
        if n:
            return score_of_counts(p - n, o + n + 1, 0, anti)
        return score_of_counts(p, o, 1, anti)
    n = popcount(flips(player, opponent, square))
    if n:
        return score_of_counts(p + n + 1, o - n, 0, anti)
    n = popcount(flips(opponent, player, square))
    if n:
        return score_of_counts(p - n, o + n + 1, 0, anti)
    return score_of_counts(p, o, 1, anti)


# The unrolled solvers count no nodes: ``_solve_small`` counts one per call of theirs.
@njit("int64(uint64, uint64, uint64, int64, int64, int64, int64, int64, int64)", cache=True)
def _solve_2(player, opponent, walls, anti, alpha, beta, x1, x2, passed):
    """Two empties ``x1``, ``x2`` (tried in that order)."""
    best = -SCORE_INF
    f = _flips_if_legal(player, opponent, x1)
    if f:
        best = -_solve_1(opponent ^ f, player | f | _bit(x1), walls, anti, x2)
        if best >= beta:
            return best
    f = _flips_if_legal(player, opponent, x2)
    if f:
        best = max(best, -_solve_1(opponent ^ f, player | f | _bit(x2), walls, anti, x1))
    if best > -SCORE_INF:
        return best
    if passed:
        return final_score(player, opponent, walls, anti)
    return -_solve_2(opponent, player, walls, anti, -beta, -alpha, x1, x2, np.int64(1))


@njit("int64(uint64, uint64, uint64, int64, int64, int64, int64, int64, int64, int64)", cache=True)
def _solve_3(player, opponent, walls, anti, alpha, beta, x1, x2, x3, passed):
    """Three empties, tried in the given order."""
    best = -SCORE_INF
    for k in range(3):
        if k == 0:
            square, a, b = x1, x2, x3
        elif k == 1:
            square, a, b = x2, x1, x3
        else:
            square, a, b = x3, x1, x2
        f = _flips_if_legal(player, opponent, square)
        if f == ZERO:
            continue
        value = -_solve_2(
            opponent ^ f, player | f | _bit(square), walls, anti, -beta, -alpha, a, b,
            np.int64(0),
        )  # fmt: skip
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    return best
    if best > -SCORE_INF:
        return best
    if passed:
        return final_score(player, opponent, walls, anti)
    return -_solve_3(opponent, player, walls, anti, -beta, -alpha, x1, x2, x3, np.int64(1))


@njit(
    "int64(uint64, uint64, uint64, int64, int64, int64, int64, int64, int64, int64, int64)",
    cache=True,
)
def _solve_4(player, opponent, walls, anti, alpha, beta, x1, x2, x3, x4, passed):
    """Four empties, tried in the given order."""
    best = -SCORE_INF
    for k in range(4):
        if k == 0:
            square, a, b, c = x1, x2, x3, x4
        elif k == 1:
            square, a, b, c = x2, x1, x3, x4
        elif k == 2:
            square, a, b, c = x3, x1, x2, x4
        else:
            square, a, b, c = x4, x1, x2, x3
        f = _flips_if_legal(player, opponent, square)
        if f == ZERO:
            continue
        value = -_solve_3(
            opponent ^ f, player | f | _bit(square), walls, anti, -beta, -alpha, a, b, c,
            np.int64(0),
        )  # fmt: skip
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    return best
    if best > -SCORE_INF:
        return best
    if passed:
        return final_score(player, opponent, walls, anti)
    return -_solve_4(opponent, player, walls, anti, -beta, -alpha, x1, x2, x3, x4, np.int64(1))


@njit(_SMALL_SIG, cache=True)
def _solve_small(player, opponent, walls, anti, alpha, beta, passed, stats):
    """At most ``SMALL_EMPTIES`` empties: every empty square in parity order, no move
    generation; 4 or fewer go to the unrolled solvers."""
    empties = ~(player | opponent | walls)
    n = popcount(empties)
    if n == 0:
        return final_score(player, opponent, walls, anti)
    if n == 1:
        return _solve_1(player, opponent, walls, anti, lowest_bit_index(empties))
    odd = _odd_quadrants(empties)
    a = empties & odd
    b = empties & ~odd
    stats[NODES] += 1
    if n <= 4:
        x1, a, b = _pop(a, b)
        x2, a, b = _pop(a, b)
        if n == 2:
            return _solve_2(player, opponent, walls, anti, alpha, beta, x1, x2, passed)
        x3, a, b = _pop(a, b)
        if n == 3:
            return _solve_3(player, opponent, walls, anti, alpha, beta, x1, x2, x3, passed)
        x4, a, b = _pop(a, b)
        return _solve_4(player, opponent, walls, anti, alpha, beta, x1, x2, x3, x4, passed)
    best = -SCORE_INF
    for k in range(GROUPS):
        candidates = empties & _group(k, odd)
        while candidates:
            square = lowest_bit_index(candidates)
            candidates &= candidates - ONE
            f = _flips_if_legal(player, opponent, square)
            if f == ZERO:
                continue
            value = -_solve_small(
                opponent ^ f, player | f | _bit(square), walls, anti, -beta, -alpha, np.int64(0),
                stats,
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


@njit(_SMALL_SIG, cache=True)
def _solve_ordered(player, opponent, walls, anti, alpha, beta, passed, stats):
    """Middle tier: generated moves in the order of ``_group``."""
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
    for k in range(GROUPS):
        candidates = moves & _group(k, odd)
        while candidates:
            square = lowest_bit_index(candidates)
            candidates &= candidates - ONE
            f = flips(player, opponent, square)
            value = -_solve_ordered(
                opponent ^ f, player | f | _bit(square), walls, anti, -beta, -alpha,
                np.int64(0), stats,
            )  # fmt: skip
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        return best
    return best


@njit(cache=True)
def _ordered_moves(player, opponent, walls, anti, weights, moves, first, stats, shallow,
                   least_depth):  # fmt: skip
    """The moves best-first: ``first`` (a remembered best square, or NO_SQUARE), then with
    many empties (or a ``least_depth`` of 0 or more) by a shallow search of each child at
    least ``least_depth`` plies deep, else fastest-first (fewest opponent replies, corners
    early, odd quadrants early)."""
    empties = ~(player | opponent | walls)
    n_empties = popcount(empties)
    shallow_depth = least_depth
    if n_empties >= SEARCH_ORDER_EMPTIES:
        shallow_depth = max(shallow_depth, (n_empties - SEARCH_ORDER_EMPTIES) // SEARCH_ORDER_STEP)
    odd = _odd_quadrants(empties)
    count = popcount(moves)
    squares = np.empty(count, dtype=np.int64)
    keys = np.empty(count, dtype=np.int64)
    searched = shallow_depth >= 0  # the shallow searches' history and (no) cuts
    history = np.zeros(64 if searched else 0, dtype=np.int64)
    no_cuts = np.zeros((0, 3))
    n = 0
    while moves:
        square = lowest_bit_index(moves)
        moves &= moves - ONE
        bit = _bit(square)
        f = flips(player, opponent, square)
        child_o = player | f | bit
        if shallow_depth >= 0:
            key = pvs(
                opponent ^ f, child_o, walls, anti, weights, no_cuts, shallow_depth, -INF, INF,
                np.int64(0), stats, shallow, history,
            )  # fmt: skip
        else:
            replies = legal_moves(opponent ^ f, child_o, walls)
            key = popcount(replies) * 16 + popcount(replies & CORNERS) * 8
            key += popcount(neighbours(child_o) & ~(child_o | opponent | walls)) * W_POTENTIAL
            if bit & CORNERS:
                key -= 12
            if bit & odd:
                key -= W_ODD
        if square == first:
            key = _FIRST
        squares[n] = square
        keys[n] = key
        n += 1
    return sort_by_keys(squares, keys)


@njit(cache=True)
def _transposition_cutoff(player, opponent, moves, beta, selectivity, table):
    """Enhanced transposition cut-off: a move whose stored child value (of ``selectivity`` or
    more exact) already reaches ``beta`` proves a fail-high without a search; returns that
    bound, else -SCORE_INF."""
    while moves:
        square = lowest_bit_index(moves)
        moves &= moves - ONE
        f = flips(player, opponent, square)
        row = probe(opponent ^ f, player | f | _bit(square), table)
        if (
            row >= 0
            and entry_selectivity(table, row) >= selectivity
            and -entry_upper(table, row) >= beta
        ):
            return -entry_upper(table, row)
    return -SCORE_INF


@njit(cache=True, inline="always")
def endcut_depth(n_empties):
    """Depth of the midgame search that predicts the exact value of ``n_empties`` empties."""
    return n_empties // 2 - 4


@njit(cache=True)
def _probcut(player, opponent, walls, anti, weights, cuts, n_empties, beta, sigmas, stats,
             shallow):  # fmt: skip
    """A selective cut-off of the null window (beta - 1, beta): ``beta`` when the shallow
    search predicts a value ``sigmas`` errors above it, ``beta - 1`` when below; else
    ``NO_CUT``."""
    a, b, sigma = cuts[n_empties, 0], cuts[n_empties, 1], cuts[n_empties, 2]
    depth = endcut_depth(n_empties)
    history = np.zeros(64, dtype=np.int64)
    no_cuts = np.zeros((0, 3))
    high = np.int64(np.ceil(100 * (beta + sigmas * sigma - b) / a))
    if high < HEURISTIC_LIMIT:
        value = pvs(
            player, opponent, walls, anti, weights, no_cuts, depth, high - 1, high, np.int64(0),
            stats, shallow, history,
        )  # fmt: skip
        if value >= high:
            return beta
    low = np.int64(np.floor(100 * (beta - 1 - sigmas * sigma - b) / a))
    if low > -HEURISTIC_LIMIT:
        value = pvs(
            player, opponent, walls, anti, weights, no_cuts, depth, low, low + 1, np.int64(0),
            stats, shallow, history,
        )  # fmt: skip
        if value <= low:
            return beta - 1
    return NO_CUT


@njit(
    "int64(uint64, uint64, uint64, int64, int64[::1], float64[:, ::1], int64, int64, int64,"
    " int64[::1], uint64[:, ::1], uint64[:, ::1])",
    cache=True,
)
def solve(
    player, opponent, walls, anti, weights, cuts, alpha, beta, passed, stats, table, shallow
):  # fmt: skip
    """Exact final disc difference for ``player`` within the window (alpha, beta) (or the
    selective search's guess, see above); ``passed`` is 1 right after a pass, else 0 (or
    ``ROOT``)."""
    tick(stats)
    if stats[ABORTED]:
        return 0
    empties = ~(player | opponent | walls)
    n_empties = popcount(empties)
    root = passed == ROOT
    if root:
        passed = 0
    elif n_empties < HASH_EMPTIES:
        return _solve_ordered(player, opponent, walls, anti, alpha, beta, passed, stats)
    elif not anti and alpha >= STABILITY_ALPHA:
        bound = 64 - popcount(walls) - 2 * popcount(stable_discs(opponent, player, walls))
        if bound <= alpha:
            return bound
    selectivity = stats[SELECTIVITY]
    row = probe(player, opponent, table)
    first = NO_SQUARE
    if row >= 0:
        first = entry_square(table, row)
    if row >= 0 and entry_selectivity(table, row) >= selectivity:
        lower = entry_lower(table, row)
        upper = entry_upper(table, row)
        if lower >= beta:
            return lower
        if upper <= alpha or lower == upper:
            return upper
        alpha = max(alpha, lower)
        beta = min(beta, upper)
    moves = legal_moves(player, opponent, walls)
    if moves == ZERO:
        if passed:
            return final_score(player, opponent, walls, anti)
        return -solve(
            opponent, player, walls, anti, weights, cuts, -beta, -alpha, np.int64(1), stats,
            table, shallow,
        )  # fmt: skip
    if n_empties >= ETC_EMPTIES:
        cut = _transposition_cutoff(player, opponent, moves, beta, selectivity, table)
        if cut > -SCORE_INF:
            return cut
    if (
        selectivity != EXACT
        and beta - alpha == 1
        and n_empties < cuts.shape[0]
        and cuts[n_empties, 0] > 0
    ):
        cut = _probcut(
            player, opponent, walls, anti, weights, cuts, n_empties, beta,
            SELECTIVE_SIGMAS[selectivity], stats, shallow,
        )  # fmt: skip
        if cut != NO_CUT:
            return cut
    original_alpha = alpha
    best = -SCORE_INF
    best_square = NO_SQUARE
    least_depth = ROOT_ORDER_DEPTH if root else -1  # the root's order decides the most
    order = _ordered_moves(
        player, opponent, walls, anti, weights, moves, first, stats, shallow, least_depth
    )  # fmt: skip
    if root:  # the answer of a solve stopped by its deadline: the first in order until beaten
        stats[BEST] = order[0]
    for square in order:
        f = flips(player, opponent, square)
        child_p = opponent ^ f
        child_o = player | f | _bit(square)
        if best == -SCORE_INF:
            value = -solve(
                child_p, child_o, walls, anti, weights, cuts, -beta, -alpha, np.int64(0), stats,
                table, shallow,
            )  # fmt: skip
        else:
            value = -solve(
                child_p, child_o, walls, anti, weights, cuts, -alpha - 1, -alpha, np.int64(0),
                stats, table, shallow,
            )  # fmt: skip
            if alpha < value < beta:
                value = -solve(
                    child_p, child_o, walls, anti, weights, cuts, -beta, -value, np.int64(0), stats,
                    table, shallow,
                )  # fmt: skip
        if stats[ABORTED]:
            return 0
        if value > best:
            best = value
            best_square = square
            if root:
                stats[BEST] = best_square
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    store_result(
        player, opponent, table, best, original_alpha, beta, SCORE_INF, best_square, n_empties,
        stats[AGE], selectivity,
    )  # fmt: skip
    return best


@njit(
    "int64(uint64, uint64, uint64, int64, int64[::1], float64[:, ::1], int64, int64, int64[::1],"
    " uint64[:, ::1], uint64[:, ::1])",
    cache=True,
)
def solve_root(
    player, opponent, walls, anti, weights, cuts, alpha, beta, stats, table, shallow
):  # fmt: skip
    """Like ``solve``, and the best square goes to ``stats[BEST]`` (NO_SQUARE when the side to
    move must pass; after a solve stopped by its deadline, the best root move it proved, else
    the first in its order)."""
    stats[BEST] = -1
    value = solve(
        player, opponent, walls, anti, weights, cuts, alpha, beta, ROOT, stats, table, shallow
    )  # fmt: skip
    if stats[BEST] < 0:  # answered by the table: its best square
        row = probe(player, opponent, table)
        stats[BEST] = entry_square(table, row) if row >= 0 else NO_SQUARE
    return value
