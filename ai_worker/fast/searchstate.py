"""Shared search state of the 8x8 kernels: the stats array, the clock check, the hash table.

``stats`` (int64 array): [nodes, aborted, deadline_ns, best_square]. A search aborts
(``stats[ABORTED] = 1``, result meaningless) once the monotonic clock passes the deadline.
A transposition table is a uint64 array of rows (player, opponent, packed entry).
"""

import numpy as np
from numba import njit

from ai_worker.fast.intrinsics import monotonic_ns

NODES, ABORTED, DEADLINE, BEST = 0, 1, 2, 3
NO_SQUARE = 64
TT_BITS = 20
_CLOCK_MASK = 0x3FF
_HASH_P = np.uint64(0x9E3779B97F4A7C15)
_HASH_O = np.uint64(0xC2B2AE3D27D4EB4F)


def new_stats(deadline_ns: int) -> np.ndarray:
    """A fresh stats array for one search with the given monotonic deadline."""
    return np.array([0, 0, deadline_ns, NO_SQUARE], dtype=np.int64)


def new_table(bits: int = TT_BITS) -> np.ndarray:
    """An empty transposition table of ``2**bits`` rows."""
    return np.zeros((1 << bits, 3), dtype=np.uint64)


@njit(cache=True, inline="always")
def tick(stats):
    """Count a node; every thousand nodes or so, abort if the deadline has passed."""
    stats[NODES] += 1
    if (stats[NODES] & _CLOCK_MASK) == 0 and monotonic_ns() > stats[DEADLINE]:
        stats[ABORTED] = 1


@njit(cache=True, inline="always")
def table_slot(player, opponent, table):
    """Row of ``table`` (a power-of-two size) where a position is stored."""
    bits = 0
    while (1 << bits) < table.shape[0]:
        bits += 1
    h = player * _HASH_P ^ opponent * _HASH_O
    return np.int64(h >> np.uint64(64 - bits))


@njit(cache=True)
def sort_by_keys(squares, keys):
    """Sort ``squares`` in place by ascending ``keys`` (insertion sort: short lists)."""
    for i in range(1, squares.shape[0]):
        k = keys[i]
        s = squares[i]
        j = i - 1
        while j >= 0 and keys[j] > k:
            keys[j + 1] = keys[j]
            squares[j + 1] = squares[j]
            j -= 1
        keys[j + 1] = k
        squares[j + 1] = s
    return squares
