"""Static evaluation of 8x8 two-player positions, in hundredths of a disc for the side to move.

A finished game scores ``WIN_SCORE * sign + 100 * final disc difference`` so that any real win
beats any heuristic value.
"""

import numpy as np
from numba import njit

from ai_worker.fast.bitboard import (
    ONE,
    ZERO,
    final_score,
    legal_moves,
    neighbours,
    popcount,
    stable_discs,
)

WIN_SCORE = 20000
_CORNERS = np.uint64(0x8100000000000081)
# X squares (diagonal to a corner) and C squares (edge-adjacent), grouped per corner.
_CORNER_SQUARES = np.array([0, 7, 56, 63], dtype=np.int64)
_X_SQUARES = np.array([9, 14, 49, 54], dtype=np.int64)
_C_SQUARES = np.array(
    [(1 << 1) | (1 << 8), (1 << 6) | (1 << 15), (1 << 48) | (1 << 57), (1 << 55) | (1 << 62)],
    dtype=np.uint64,
)
W_CORNER = 700
W_X = 250
W_C = 80
W_MOBILITY = 70
W_FRONTIER = 25
W_STABLE = 90
W_DISC = 10
W_PARITY = 120


@njit(cache=True)
def evaluate(player, opponent, walls, anti):
    """Heuristic value of a position for the side to move: mobility, potential mobility
    (frontier), corners, X/C squares next to empty corners, stable discs, parity."""
    empties = ~(player | opponent | walls)
    n_empty = popcount(empties)
    positional = W_CORNER * (popcount(player & _CORNERS) - popcount(opponent & _CORNERS))
    for k in range(4):
        if empties & (ONE << np.uint64(_CORNER_SQUARES[k])):
            x = ONE << np.uint64(_X_SQUARES[k])
            c = _C_SQUARES[k]
            positional -= W_X * ((player & x) != ZERO) - W_X * ((opponent & x) != ZERO)
            positional -= W_C * (popcount(player & c) - popcount(opponent & c))
    if (player | opponent) & _CORNERS or walls:  # otherwise next to nothing is stable yet
        positional += W_STABLE * (
            popcount(stable_discs(player, opponent, walls))
            - popcount(stable_discs(opponent, player, walls))
        )
    if n_empty < 20:
        positional += W_DISC * (popcount(player) - popcount(opponent)) * (20 - n_empty) // 4
    my_moves = popcount(legal_moves(player, opponent, walls))
    their_moves = popcount(legal_moves(opponent, player, walls))
    mobility = W_MOBILITY * (my_moves - their_moves) * 8 // (my_moves + their_moves + 4) * 2
    frontier = W_FRONTIER * (
        popcount(neighbours(opponent) & empties) - popcount(neighbours(player) & empties)
    )
    parity = W_PARITY if n_empty & 1 else 0
    if anti:
        positional = -positional
    score = positional + mobility + frontier + parity
    return max(-WIN_SCORE + 1000, min(WIN_SCORE - 1000, score))


@njit(cache=True)
def terminal_score(player, opponent, walls, anti):
    """Score of a finished game, beyond every heuristic value."""
    diff = final_score(player, opponent, walls, anti)
    if diff > 0:
        return WIN_SCORE + 100 * diff
    if diff < 0:
        return -WIN_SCORE + 100 * diff
    return 0
