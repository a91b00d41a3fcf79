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
from ai_worker.fast.patterns import PHASES, TABLE_SIZE, pattern_score

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
N_HAND = len(HAND_WEIGHTS)
SET_WORDS = -(-PHASES * TABLE_SIZE // 4)
"""int64 words holding one set of pattern tables (``PHASES * TABLE_SIZE`` int16 values)."""


def pattern_weights(reversi: np.ndarray, anti: np.ndarray | None = None) -> np.ndarray:
    """The weights vector of the pattern evaluation: ``HAND_WEIGHTS``, then the int16 tables
    (``PHASES`` x ``TABLE_SIZE``) of reversi and, when given, of anti-reversi, packed four to
    an int64. Positions with walls, and anti-reversi without tables, get the hand-written
    evaluation."""
    sets = [reversi] if anti is None else [reversi, anti]
    words = np.zeros(N_HAND + SET_WORDS * len(sets), dtype=np.int64)
    words[:N_HAND] = HAND_WEIGHTS
    packed = words[N_HAND:].view(np.int16)
    for k, tables in enumerate(sets):
        if tables.shape != (PHASES, TABLE_SIZE):
            raise ValueError(f"pattern tables must have shape {(PHASES, TABLE_SIZE)}")
        start = k * SET_WORDS * 4
        packed[start : start + PHASES * TABLE_SIZE] = tables.ravel()
    return words


@njit(cache=True)
def evaluate(player, opponent, walls, anti, weights):
    """Heuristic value of a position for the side to move. Every leaf of the 8x8 search is
    valued here, by the pattern tables of a ``pattern_weights`` vector when it has some for
    the position (``patterns``), else by ``hand_evaluate``."""
    if weights.shape[0] > N_HAND and walls == 0:
        sets = (weights.shape[0] - N_HAND) // SET_WORDS
        if anti < sets:
            start = (N_HAND + anti * SET_WORDS) * 4
            score = pattern_score(player, opponent, weights.view(np.int16), start)
            return max(-HEURISTIC_LIMIT, min(HEURISTIC_LIMIT, score))
    return hand_evaluate(player, opponent, walls, anti, weights)


@njit(cache=True)
def hand_evaluate(player, opponent, walls, anti, weights):
    """The hand-written evaluation with its ``HAND_WEIGHTS`` (the first ``N_HAND`` values
    of ``weights``): mobility, potential mobility (frontier), corners, X/C squares next to
    empty corners, stable discs, parity."""
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
