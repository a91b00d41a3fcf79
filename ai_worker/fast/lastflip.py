"""Count-only flips of the last empty square of an 8x8 board without walls (see ``bitboard``).

When ``square`` is the only empty cell, every other cell holds a disc of one side, so the discs
``player`` flips there follow from ``player``'s discs alone, line by line. Each of the four
lines through a square is gathered into one byte by a mask and a multiplication (a row by a
shift); ``LAST_FLIPS[square, line, byte]`` holds the discs flipped along that line. Cells of a
short diagonal's byte that lie off the board read as opponent discs, which never closes a line,
so they change nothing.
"""

import numpy as np
from numba import njit

from ai_worker.fast.bitboard import ONE, ZERO, flips
from ai_worker.fast.intrinsics import popcount

_FILE_A = np.uint64(0x0101010101010101)
_COLUMN_GATHER = np.uint64(0x0102040810204080)  # column bits (row r at 8r) -> byte bits
_DIAGONAL_GATHER = np.uint64(0x0101010101010101)  # one bit per column -> byte bits
_ROW_SHIFT_MASK = np.uint64(56)
_COLUMN_MASK = np.uint64(7)
_S56 = np.uint64(56)
_BYTE = np.uint64(0xFF)
LINES = 4  # row, column, diagonal (a1-h8 direction), anti-diagonal (h1-a8 direction)


def _diagonal_masks() -> tuple[np.ndarray, np.ndarray]:
    """Per square, the full diagonal and anti-diagonal through it (the square included)."""
    diagonal = np.zeros(64, dtype=np.uint64)
    anti = np.zeros(64, dtype=np.uint64)
    for square in range(64):
        row, col = divmod(square, 8)
        for other in range(64):
            r, c = divmod(other, 8)
            if r - c == row - col:
                diagonal[square] |= np.uint64(1 << other)
            if r + c == row + col:
                anti[square] |= np.uint64(1 << other)
    return diagonal, anti


DIAGONALS, ANTI_DIAGONALS = _diagonal_masks()


@njit(cache=True, inline="always")
def line_byte(discs, square, line):
    """The discs of ``discs`` on one of the four lines through ``square``, as a byte."""
    s = np.uint64(square)
    if line == 0:
        return np.int64((discs >> (s & _ROW_SHIFT_MASK)) & _BYTE)
    if line == 1:
        return np.int64((((discs >> (s & _COLUMN_MASK)) & _FILE_A) * _COLUMN_GATHER) >> _S56)
    if line == 2:
        return np.int64(((discs & DIAGONALS[square]) * _DIAGONAL_GATHER) >> _S56)
    return np.int64(((discs & ANTI_DIAGONALS[square]) * _DIAGONAL_GATHER) >> _S56)


@njit(cache=True)
def _line_mask(square, line):
    """The squares of a line through ``square``, ``square`` left out."""
    bit = ONE << np.uint64(square)
    if line == 0:
        mask = np.uint64(0xFF) << (np.uint64(square) & _ROW_SHIFT_MASK)
    elif line == 1:
        mask = _FILE_A << (np.uint64(square) & _COLUMN_MASK)
    elif line == 2:
        mask = DIAGONALS[square]
    else:
        mask = ANTI_DIAGONALS[square]
    return mask & ~bit


@njit(cache=True)
def build_last_flips():
    """``LAST_FLIPS``: for every square, line and arrangement of the line's other cells (each
    a disc of the player or of the opponent), the number of discs flipped on that line."""
    table = np.zeros((64, LINES, 256), dtype=np.uint8)
    for square in range(64):
        for line in range(LINES):
            mask = _line_mask(square, line)
            subset = ZERO
            while True:  # every subset of ``mask``: the player's discs on the line
                n = popcount(flips(subset, mask & ~subset, square))
                table[square, line, line_byte(subset, square, line)] = n
                subset = (subset - mask) & mask
                if subset == ZERO:
                    break
    return table


LAST_FLIPS = build_last_flips()


@njit(cache=True, inline="always")
def count_last_flips(player, square):
    """Discs ``player`` flips by playing ``square``, the only empty cell of a wall-less board."""
    return (
        np.int64(LAST_FLIPS[square, 0, line_byte(player, square, 0)])
        + np.int64(LAST_FLIPS[square, 1, line_byte(player, square, 1)])
        + np.int64(LAST_FLIPS[square, 2, line_byte(player, square, 2)])
        + np.int64(LAST_FLIPS[square, 3, line_byte(player, square, 3)])
    )
