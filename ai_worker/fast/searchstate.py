"""Shared search state of the 8x8 kernels: the stats array, the clock check, the hash table.

``stats`` (int64 array, see ``new_stats``): [nodes, aborted, deadline_ns, best_square, age,
clock, selectivity] (the endgame solver's level, see ``endgame``; ``EXACT`` for none). A
search aborts (``stats[ABORTED] = 1``, result meaningless) once its clock passes the
deadline: ``WALL_CLOCK`` (monotonic time, what players wait) or ``CPU_CLOCK`` (the searching
thread's CPU time, steady on a loaded machine: tests and benchmarks of strength at a budget).

A transposition table is a uint64 array of rows ``(player, opponent, entry)`` grouped in
buckets of two rows; ``entry`` packs a lower and an upper bound (16 bits each, offset by
``_OFFSET``), the best square, the depth (plies, or empties for the exact solver), the age
of the search that stored it and its selectivity (``EXACT``, or the level of a selective
endgame search whose bounds only searches of that level or a lower one may trust). A table
can outlive a search: a new search gets a new age, and entries of older searches are the
first to be replaced.
"""

import time

import numpy as np
from numba import njit

from ai_worker.fast.intrinsics import clock_ns

NODES, ABORTED, DEADLINE, BEST, AGE, CLOCK, SELECTIVITY = 0, 1, 2, 3, 4, 5, 6
EXACT = 255  # the selectivity of an exact search (no cut-off on a guess)
WALL_CLOCK = time.CLOCK_MONOTONIC
CPU_CLOCK = time.CLOCK_THREAD_CPUTIME_ID
NO_SQUARE = 64
TT_BITS = 20
_CLOCK_MASK = 0x3FF
_HASH_P = np.uint64(0x9E3779B97F4A7C15)
_HASH_O = np.uint64(0xC2B2AE3D27D4EB4F)
_OFFSET = 32768
_BYTE = np.uint64(0xFF)
_WORD = np.uint64(0xFFFF)
_S16 = np.uint64(16)
_S32 = np.uint64(32)
_S40 = np.uint64(40)
_S48 = np.uint64(48)
_S56 = np.uint64(56)


def new_stats(deadline_ns: int, age: int = 1, clock: int = WALL_CLOCK) -> np.ndarray:
    """A fresh stats array for one search with the given deadline on ``clock`` and table age
    (1-255; a table reused by the next search gets the next age); exact."""
    return np.array([0, 0, deadline_ns, NO_SQUARE, age, clock, EXACT], dtype=np.int64)


def new_table(bits: int = TT_BITS) -> np.ndarray:
    """An empty transposition table of ``2**bits`` rows (``bits`` >= 1)."""
    return np.zeros((1 << bits, 3), dtype=np.uint64)


@njit(cache=True, inline="always")
def tick(stats):
    """Count a node; every thousand nodes or so, abort if the deadline has passed."""
    stats[NODES] += 1
    if (stats[NODES] & _CLOCK_MASK) == 0 and clock_ns(stats[CLOCK]) > stats[DEADLINE]:
        stats[ABORTED] = 1


@njit(cache=True, inline="always")
def _bucket(player, opponent, table):
    """First row of the bucket of a position (tables have a power-of-two size)."""
    h = player * _HASH_P ^ opponent * _HASH_O
    h ^= h >> _S32
    return np.int64(h & np.uint64(table.shape[0] - 2))


@njit(cache=True, inline="always")
def probe(player, opponent, table):
    """The row holding a position, or -1."""
    row = _bucket(player, opponent, table)
    if table[row, 0] == player and table[row, 1] == opponent:
        return row
    if table[row + 1, 0] == player and table[row + 1, 1] == opponent:
        return row + 1
    return -1


@njit(cache=True, inline="always")
def entry_lower(table, row):
    return np.int64(table[row, 2] & _WORD) - _OFFSET


@njit(cache=True, inline="always")
def entry_upper(table, row):
    return np.int64((table[row, 2] >> _S16) & _WORD) - _OFFSET


@njit(cache=True, inline="always")
def entry_square(table, row):
    return np.int64((table[row, 2] >> _S32) & _BYTE)


@njit(cache=True, inline="always")
def entry_depth(table, row):
    return np.int64((table[row, 2] >> _S40) & _BYTE)


@njit(cache=True, inline="always")
def _entry_age(table, row):
    return np.int64((table[row, 2] >> _S48) & _BYTE)


@njit(cache=True, inline="always")
def entry_selectivity(table, row):
    return np.int64(table[row, 2] >> _S56)


@njit(cache=True, inline="always")
def store(player, opponent, table, lower, upper, square, depth, age, selectivity):
    """Store a position's bounds, best square, depth and selectivity: over its own row (unless
    that one is of a higher selectivity), else over the row of its bucket that an older search
    wrote, else over the shallower one (ties: the second)."""
    row = probe(player, opponent, table)
    if row >= 0:
        if entry_selectivity(table, row) > selectivity:
            return
    else:
        row = _bucket(player, opponent, table)
        first_old = _entry_age(table, row) != age
        second_old = _entry_age(table, row + 1) != age
        if first_old == second_old:
            if entry_depth(table, row + 1) <= entry_depth(table, row):
                row += 1
        elif second_old:
            row += 1
    table[row, 0] = player
    table[row, 1] = opponent
    table[row, 2] = (
        np.uint64(lower + _OFFSET)
        | (np.uint64(upper + _OFFSET) << _S16)
        | (np.uint64(square) << _S32)
        | (np.uint64(depth) << _S40)
        | (np.uint64(age) << _S48)
        | (np.uint64(selectivity) << _S56)
    )


@njit(cache=True, inline="always")
def store_result(
    player, opponent, table, best, alpha, beta, infinity, square, depth, age, selectivity
):
    """Store what a search of the window (``alpha``, ``beta``) found, ``best``: a lower bound
    when it failed high, an exact value inside the window, an upper bound when it failed low
    (``infinity`` stands for the missing side)."""
    lower = -infinity
    upper = infinity
    if best >= beta:
        lower = best
    elif best > alpha:
        lower = best
        upper = best
    else:
        upper = best
    store(player, opponent, table, lower, upper, square, depth, age, selectivity)


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
