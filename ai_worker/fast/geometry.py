"""Per-board tables of the generic kernels, built once per board layout.

A layout is the board's rows as ``Board.rows()`` draws them: ``' '`` off-board, ``'#'`` wall,
anything else a playable cell.
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ai_worker.fast.evaluation import W_C, W_CORNER, W_X

DIRECTIONS = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
CELL_CODES = {"X": 0, "O": 1, "R": 2, "G": 3, "N": 4, "-": -1, "#": -2, " ": -2}
W_EDGE = 30


@dataclass(frozen=True)
class Geometry:
    """Ray tables, neighbours and positional weights of one board layout."""

    width: int
    height: int
    rays: np.ndarray
    ray_lengths: np.ndarray
    adjacent: np.ndarray
    weights: np.ndarray
    corner_of: np.ndarray


def cells_of(rows: list[str]) -> np.ndarray:
    """The int8 cell array of a drawn position (see ``generic``)."""
    return np.array([CELL_CODES[c] for row in rows for c in row], dtype=np.int8)


def geometry_of(rows: list[str]) -> Geometry:
    """The tables of the layout of ``rows`` (discs are ignored; cached per layout)."""
    return _build("".join("#" if c in "# " else "." for row in rows for c in row), len(rows[0]))


@lru_cache(maxsize=64)
def _build(layout: str, width: int) -> Geometry:
    height = len(layout) // width
    n = width * height

    def playable(col: int, row: int) -> bool:
        return 0 <= col < width and 0 <= row < height and layout[row * width + col] == "."

    max_len = max(width, height)
    rays = np.zeros((n, 8, max_len), dtype=np.int64)
    ray_lengths = np.zeros((n, 8), dtype=np.int64)
    adjacent = np.full((n, 8), -1, dtype=np.int64)
    for square in range(n):
        col, row = square % width, square // width
        if not playable(col, row):
            continue
        k_adjacent = 0
        for d, (dc, dr) in enumerate(DIRECTIONS):
            c, r = col + dc, row + dr
            length = 0
            while playable(c, r):
                rays[square, d, length] = r * width + c
                length += 1
                c, r = c + dc, r + dr
            ray_lengths[square, d] = length
            if length:
                adjacent[square, k_adjacent] = rays[square, d, 0]
                k_adjacent += 1
    weights, corner_of = _weights(ray_lengths, rays, width, n, playable)
    return Geometry(width, height, rays, ray_lengths, adjacent, weights, corner_of)


def _weights(
    ray_lengths: np.ndarray,
    rays: np.ndarray,
    width: int,
    n: int,
    playable: Callable[[int, int], bool],
) -> tuple[np.ndarray, np.ndarray]:
    """Corners are cells that can never flip (each of their 4 lines is closed on one side);
    X and C squares are their diagonal and straight neighbours (penalised while the corner is
    empty); other cells on a closed line are edges."""
    weights = np.zeros(n, dtype=np.int64)
    corner_of = np.full(n, -1, dtype=np.int64)
    lines = ((0, 7), (1, 6), (2, 5), (3, 4))
    corners = set()
    for square in range(n):
        if not playable(square % width, square // width):
            continue
        closed = [ray_lengths[square, a] == 0 or ray_lengths[square, b] == 0 for a, b in lines]
        if all(closed):
            corners.add(square)
            weights[square] = W_CORNER
        elif any(closed):
            weights[square] = W_EDGE
    for corner in sorted(corners):
        for d, (dc, dr) in enumerate(DIRECTIONS):
            if ray_lengths[corner, d] == 0:
                continue
            neighbour = rays[corner, d, 0]
            if neighbour in corners or corner_of[neighbour] >= 0:
                continue
            weights[neighbour] = W_X if dc and dr else W_C
            corner_of[neighbour] = corner
    return weights, corner_of


def bitboards_of(rows: list[str], player: int) -> tuple[np.uint64, np.uint64, np.uint64]:
    """The (player, opponent, walls) bitboards of a drawn 8x8 two-player position."""
    cells = cells_of(rows)
    return _bits(cells == player), _bits(cells == 1 - player), _bits(cells < -1)


def _bits(mask: np.ndarray) -> np.uint64:
    return np.uint64(sum(1 << int(i) for i in np.flatnonzero(mask)))
