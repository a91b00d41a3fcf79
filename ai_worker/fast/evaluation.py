"""Static evaluation of 8x8 two-player positions, in hundredths of a disc for the side to move.

A finished game scores ``WIN_SCORE * sign + 100 * final disc difference`` so that any real win
beats any heuristic value.
"""

import numpy as np
from numba import njit

from ai_worker.fast.bitboard import (
    C_SQUARES,
    CORNER_SQUARES,
    CORNERS,
    ONE,
    X_SQUARES,
    ZERO,
    final_score,
    legal_moves,
    neighbours,
    stable_discs,
)
from ai_worker.fast.intrinsics import popcount

WIN_SCORE = 20000
HEURISTIC_LIMIT = WIN_SCORE - 1000  # every heuristic value lies within +-HEURISTIC_LIMIT
INF = 32000  # beyond every value
# Positional weights (hundredths of a disc), shared with the generic kernels' ``geometry``:
# X and C squares count against their owner while their corner is empty.
W_CORNER = 700
W_X = -250
W_C = -80
# Where each weight sits in a weights array of ``evaluate``.
CORNER, X_SQUARE, C_SQUARE, MOBILITY, FRONTIER, STABLE, DISC, PARITY = range(8)
HAND_WEIGHTS = np.array([W_CORNER, W_X, W_C, 70, 25, 90, 10, 120], dtype=np.int64)


@njit(cache=True)
def evaluate(player, opponent, walls, anti, weights):
    """Heuristic value of a position for the side to move with a weights array such as
    ``HAND_WEIGHTS``: mobility, potential mobility (frontier), corners, X/C squares next to
    empty corners, stable discs, parity. Every leaf of the 8x8 search is valued here."""
    empties = ~(player | opponent | walls)
    n_empty = popcount(empties)
    positional = weights[CORNER] * (popcount(player & CORNERS) - popcount(opponent & CORNERS))
    for k in range(4):
        if empties & (ONE << np.uint64(CORNER_SQUARES[k])):
            x = ONE << np.uint64(X_SQUARES[k])
            c = C_SQUARES[k]
            positional += weights[X_SQUARE] * (((player & x) != ZERO) - ((opponent & x) != ZERO))
            positional += weights[C_SQUARE] * (popcount(player & c) - popcount(opponent & c))
    if (player | opponent) & CORNERS or walls:  # otherwise next to nothing is stable yet
        positional += weights[STABLE] * (
            popcount(stable_discs(player, opponent, walls))
            - popcount(stable_discs(opponent, player, walls))
        )
    if n_empty < 20:
        positional += weights[DISC] * (popcount(player) - popcount(opponent)) * (20 - n_empty) // 4
    my_moves = popcount(legal_moves(player, opponent, walls))
    their_moves = popcount(legal_moves(opponent, player, walls))
    mobility = weights[MOBILITY] * (my_moves - their_moves) * 8 // (my_moves + their_moves + 4) * 2
    frontier = weights[FRONTIER] * (
        popcount(neighbours(opponent) & empties) - popcount(neighbours(player) & empties)
    )
    parity = weights[PARITY] if n_empty & 1 else 0
    if anti:
        positional = -positional
    score = positional + mobility + frontier + parity
    return max(-HEURISTIC_LIMIT, min(HEURISTIC_LIMIT, score))


@njit(cache=True)
def terminal_score(player, opponent, walls, anti):
    """Score of a finished game, beyond every heuristic value."""
    diff = final_score(player, opponent, walls, anti)
    if diff > 0:
        return WIN_SCORE + 100 * diff
    if diff < 0:
        return -WIN_SCORE + 100 * diff
    return 0
