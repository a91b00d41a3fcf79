"""Per-board tables of the generic kernels, built once per board layout.

A layout is the board's rows as ``Board.rows()`` draws them: ``' '`` off-board, ``'#'`` wall,
anything else a playable cell. The generic kernels lay a board of width ``w`` out in bits
``row * (w + 1) + col`` of two uint64 words (see ``generic``).
"""

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ai_worker.fast.evaluation import W_C, W_CORNER, W_X

DIRECTIONS = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
CELL_CODES = {"X": 0, "O": 1, "R": 2, "G": 3, "N": 4, "-": -1, "#": -2, " ": -2}
W_EDGE = 30
COLOURS = 5  # four players' colours and the neutral discs (4)
# Rows of ``Geometry.masks``: the cells, the corners, the other edge cells, then per corner
# (``CORNER_ROWS`` rows each) the corner, its X squares and its C squares.
CELLS, CORNERS, EDGES, FIRST_CORNER = 0, 1, 2, 3
CORNER_ROWS = 3


@dataclass(frozen=True)
class Geometry:
    """Bit masks, shifts and move-ordering weights of one board layout."""

    width: int
    height: int
    masks: np.ndarray  # uint64 (rows, 2): see CELLS .. FIRST_CORNER
    shifts: np.ndarray  # uint64 (4,): the bit distance of a step E, SW, S, SE
    weights: np.ndarray  # int64 per bit: corners, X/C squares, edges (move ordering)

    @property
    def stride(self) -> int:
        return self.width + 1

    def bit_of(self, square: int) -> int:
        """The bit of a square ``row * width + col``."""
        return square // self.width * self.stride + square % self.width

    def square_of(self, bit: int) -> int:
        """The square ``row * width + col`` of a bit."""
        return bit // self.stride * self.width + bit % self.stride


def cells_of(rows: list[str]) -> np.ndarray:
    """The int8 cell array of a drawn position: a colour 0-4, -1 empty, -2 blocked."""
    return np.array([CELL_CODES[c] for row in rows for c in row], dtype=np.int8)


def discs_of(rows: list[str]) -> np.ndarray:
    """The discs of a drawn position for the generic kernels: uint64 words ``2c, 2c + 1``
    (low, high) hold colour ``c``'s discs (``COLOURS`` colours, the neutral one last)."""
    stride = len(rows[0]) + 1
    bits = [0] * COLOURS
    for r, row in enumerate(rows):
        for c, char in enumerate(row):
            code = CELL_CODES[char]
            if code >= 0:
                bits[code] |= 1 << (r * stride + c)
    return _words(bits)


def geometry_of(rows: list[str]) -> Geometry:
    """The tables of the layout of ``rows`` (discs are ignored; cached per layout)."""
    return _build("".join("#" if c in "# " else "." for row in rows for c in row), len(rows[0]))


def _words(values: list[int]) -> np.ndarray:
    mask = (1 << 64) - 1
    return np.array([w for v in values for w in (v & mask, v >> 64)], dtype=np.uint64)


@lru_cache(maxsize=64)
def _build(layout: str, width: int) -> Geometry:
    height = len(layout) // width
    stride = width + 1

    def playable(col: int, row: int) -> bool:
        return 0 <= col < width and 0 <= row < height and layout[row * width + col] == "."

    def bit(col: int, row: int) -> int:
        return row * stride + col

    cells = [(col, row) for row in range(height) for col in range(width) if playable(col, row)]
    lines = ((0, 7), (1, 6), (2, 5), (3, 4))  # opposite pairs of DIRECTIONS

    def closed(col: int, row: int, d: int) -> bool:
        dc, dr = DIRECTIONS[d]
        return not playable(col + dc, row + dr)

    # Corners can never flip (each of their 4 lines is closed on one side); X and C squares
    # are their diagonal and straight neighbours (each kept by the first corner found); the
    # other cells on a closed line are edges.
    def on_closed_line(col: int, row: int) -> list[bool]:
        return [closed(col, row, a) or closed(col, row, b) for a, b in lines]

    corners = [(col, row) for col, row in cells if all(on_closed_line(col, row))]
    weights = np.zeros(128, dtype=np.int64)
    guarded: set[tuple[int, int]] = set()
    per_corner = []
    for col, row in corners:
        weights[bit(col, row)] = W_CORNER
        x_bits = c_bits = 0
        for dc, dr in DIRECTIONS:
            n = (col + dc, row + dr)
            if not playable(*n) or n in corners or n in guarded:
                continue
            guarded.add(n)
            if dc and dr:
                x_bits |= 1 << bit(*n)
            else:
                c_bits |= 1 << bit(*n)
        per_corner += [1 << bit(col, row), x_bits, c_bits]
    edges = [
        (col, row)
        for col, row in cells
        if (col, row) not in corners and (col, row) not in guarded and any(on_closed_line(col, row))
    ]
    for col, row in edges:
        weights[bit(col, row)] = W_EDGE
    for k in range(0, len(per_corner), CORNER_ROWS):
        for b in range(128):
            if per_corner[k + 1] >> b & 1:
                weights[b] = W_X
            elif per_corner[k + 2] >> b & 1:
                weights[b] = W_C
    rows = [
        sum(1 << bit(*cell) for cell in cells),
        sum(1 << bit(*cell) for cell in corners),
        sum(1 << bit(*cell) for cell in edges),
        *per_corner,
    ]
    masks = _words(rows).reshape(len(rows), 2)
    shifts = np.array([1, stride - 1, stride, stride + 1], dtype=np.uint64)
    return Geometry(width, height, masks, shifts, weights)


def bitboards_of(rows: list[str], player: int) -> tuple[np.uint64, np.uint64, np.uint64]:
    """The (player, opponent, walls) bitboards of a drawn 8x8 two-player position."""
    cells = cells_of(rows)
    return _bits(cells == player), _bits(cells == 1 - player), _bits(cells < -1)


def _bits(mask: np.ndarray) -> np.uint64:
    return np.uint64(sum(1 << int(i) for i in np.flatnonzero(mask)))
