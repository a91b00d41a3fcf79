"""Pattern evaluation of 8x8 two-player positions, in the style of Logistello, Edax and
Egaroucid: a sum of learned weights, one per configuration of each n-tuple of squares.

Each pattern is a list of squares in a *base orientation* (near a1). Its instances are its
images under the board's eight symmetries (``TRANSFORMS``), all sharing one weight table, so
the evaluation of a position equals that of its seven symmetric ones. The index of an
instance is base-3 with one digit per square (0 empty, 1 the side to move, 2 the other side),
found for all its squares at once: the board is transformed so the instance lies in the base
orientation, the squares' bits are gathered into a byte or two by masks and shifts, and the
table ``TERNARY`` turns those bits into base 3. Two more features: a mobility table (legal
moves of either side) and parity (odd or even empties, also the phase's bias).

The weights depend on the game phase (``PHASES``, by empties) and come from
``python -m ai_worker train`` (``ai_worker.training``), stored by ``ai_worker.weights``. In
the kernels they are int16 values (hundredths of a disc) packed in the int64 weights vector
the search passes around (``evaluation.evaluate``); ``table_offset`` says where.
"""

from dataclasses import dataclass

import numpy as np
from numba import njit

from ai_worker.fast.bitboard import legal_moves
from ai_worker.fast.intrinsics import popcount

PHASES = 15
EMPTIES_PER_PHASE = 4  # phase p holds positions of 4p+1 to 4p+4 empties
MOBILITY_CAP = 24  # more moves than this count as this many


@dataclass(frozen=True)
class Pattern:
    """An n-tuple of squares (bit ``row * 8 + col``) in its base orientation."""

    name: str
    squares: tuple[int, ...]


def _diagonal(length: int) -> tuple[int, ...]:
    shift = 8 - length
    return tuple(9 * i + shift for i in range(length))


PATTERNS = (
    Pattern("edge+2x", (0, 1, 2, 3, 4, 5, 6, 7, 9, 14)),
    Pattern("corner-3x3", (0, 1, 2, 8, 9, 10, 16, 17, 18)),
    Pattern("corner-2x5", (0, 1, 2, 3, 4, 8, 9, 10, 11, 12)),
    Pattern("row-2", tuple(range(8, 16))),
    Pattern("row-3", tuple(range(16, 24))),
    Pattern("row-4", tuple(range(24, 32))),
    Pattern("diagonal-8", _diagonal(8)),
    Pattern("diagonal-7", _diagonal(7)),
    Pattern("diagonal-6", _diagonal(6)),
    Pattern("diagonal-5", _diagonal(5)),
    Pattern("diagonal-4", _diagonal(4)),
)
"""The patterns; ``_gather`` extracts each one's bits in the same order (kept together)."""
EDGE_2X, CORNER_3X3, CORNER_2X5, ROW_2, ROW_3, ROW_4 = range(6)
DIAGONAL_8 = 6


def square_map(transform: int, square: int) -> int:
    """Where ``transform`` (0-7) moves ``square``: transpose if bit 2, then mirror the rows
    (row -> 7 - row) if bit 1, then the columns if bit 0. ``transform_board`` does the same
    to bitboards."""
    row, col = divmod(square, 8)
    if transform & 4:
        row, col = col, row
    if transform & 2:
        row = 7 - row
    if transform & 1:
        col = 7 - col
    return row * 8 + col


TRANSFORMS = range(8)


def _instances() -> list[tuple[int, int]]:
    """(pattern, transform) of each distinct instance (the first transform of each image), in
    the order ``feature_indices`` visits them: by transform, then by pattern."""
    instances = []
    for p, pattern in enumerate(PATTERNS):
        seen: set[frozenset[int]] = set()
        for t in TRANSFORMS:
            image = frozenset(instance_squares(pattern, t))
            if image not in seen:
                seen.add(image)
                instances.append((p, t))
    return sorted(instances, key=lambda pattern_transform: pattern_transform[::-1])


def instance_squares(pattern: Pattern, transform: int) -> list[int]:
    """The squares of ``pattern``'s instance seen through ``transform``, digit by digit: the
    squares the transform moves onto the base squares."""
    inverse = {square_map(transform, s): s for s in range(64)}
    return [inverse[s] for s in pattern.squares]


INSTANCES = _instances()
SIZES = np.array([3 ** len(p.squares) for p in PATTERNS], dtype=np.int64)
PATTERN_OFFSETS = np.concatenate(([0], np.cumsum(SIZES)))[:-1].astype(np.int64)
MOBILITY_OFFSET = int(SIZES.sum())
PARITY_OFFSET = MOBILITY_OFFSET + (MOBILITY_CAP + 1) ** 2
TABLE_SIZE = PARITY_OFFSET + 2
"""Weights of one phase: every pattern's table, then mobility, then parity."""
N_FEATURES = len(INSTANCES) + 2
"""Weights summed per evaluation: one per pattern instance, mobility, parity."""
USES = np.zeros((len(TRANSFORMS), len(PATTERNS)), dtype=np.bool_)
for _p, _t in INSTANCES:
    USES[_t, _p] = True
TERNARY = np.array(
    [sum(3**k for k in range(10) if bits >> k & 1) for bits in range(1 << 10)], dtype=np.int64
)

_K1 = np.uint64(0x5555555555555555)
_K2 = np.uint64(0x3333333333333333)
_K4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_R1 = np.uint64(0x00FF00FF00FF00FF)
_R2 = np.uint64(0x0000FFFF0000FFFF)
_T1 = np.uint64(0x0F0F0F0F00000000)
_T2 = np.uint64(0x3333000033330000)
_T3 = np.uint64(0x5500550055005500)
_MAIN_DIAGONAL = np.array(
    [sum(1 << (9 * i) for i in range(length)) for length in range(9)], dtype=np.uint64
)
_COLLECT = np.uint64(0x0101010101010101)


@njit(cache=True, inline="always")
def _u(n):
    return np.uint64(n)


@njit(cache=True)
def transform_board(b, transform):
    """The bitboard ``b`` moved as ``square_map(transform, .)`` moves each square."""
    if transform & 4:
        t = _T1 & (b ^ (b << _u(28)))
        b ^= t ^ (t >> _u(28))
        t = _T2 & (b ^ (b << _u(14)))
        b ^= t ^ (t >> _u(14))
        t = _T3 & (b ^ (b << _u(7)))
        b ^= t ^ (t >> _u(7))
    if transform & 2:
        b = ((b >> _u(8)) & _R1) | ((b & _R1) << _u(8))
        b = ((b >> _u(16)) & _R2) | ((b & _R2) << _u(16))
        b = (b >> _u(32)) | (b << _u(32))
    if transform & 1:
        b = ((b >> _u(1)) & _K1) | ((b & _K1) << _u(1))
        b = ((b >> _u(2)) & _K2) | ((b & _K2) << _u(2))
        b = ((b >> _u(4)) & _K4) | ((b & _K4) << _u(4))
    return b


@njit(cache=True, inline="always")
def _gather(pattern, b):
    """The bits of ``b`` on ``PATTERNS[pattern]``'s base squares, square k at bit k."""
    if pattern == EDGE_2X:
        return (b & _u(0xFF)) | ((b >> _u(1)) & _u(0x100)) | ((b >> _u(5)) & _u(0x200))
    if pattern == CORNER_3X3:
        return (b & _u(7)) | ((b >> _u(5)) & _u(0x38)) | ((b >> _u(10)) & _u(0x1C0))
    if pattern == CORNER_2X5:
        return (b & _u(0x1F)) | ((b >> _u(3)) & _u(0x3E0))
    if pattern <= ROW_4:
        return (b >> _u(8 * (pattern - ROW_2 + 1))) & _u(0xFF)
    length = 8 - (pattern - DIAGONAL_8)
    diagonal = (b >> _u(8 - length)) & _MAIN_DIAGONAL[length]
    return (diagonal * _COLLECT) >> _u(56)


@njit(cache=True)
def feature_indices(player, opponent, out):
    """Write the ``N_FEATURES`` indices into a phase's weights (``TABLE_SIZE``) of the
    position of ``player`` to move into ``out``."""
    n = 0
    for t in range(8):
        p = transform_board(player, t)
        o = transform_board(opponent, t)
        for pattern in range(len(PATTERN_OFFSETS)):
            if USES[t, pattern]:
                index = TERNARY[_gather(pattern, p)] + 2 * TERNARY[_gather(pattern, o)]
                out[n] = PATTERN_OFFSETS[pattern] + index
                n += 1
    mine = min(popcount(legal_moves(player, opponent, np.uint64(0))), MOBILITY_CAP)
    theirs = min(popcount(legal_moves(opponent, player, np.uint64(0))), MOBILITY_CAP)
    out[n] = MOBILITY_OFFSET + mine * (MOBILITY_CAP + 1) + theirs
    empties = 64 - popcount(player | opponent)
    out[n + 1] = PARITY_OFFSET + (empties & 1)


@njit(cache=True, inline="always")
def phase_of(empties):
    """The phase (0 to ``PHASES - 1``) of a position with ``empties`` empty squares."""
    return min(max(empties - 1, 0) // EMPTIES_PER_PHASE, PHASES - 1)


@njit(cache=True)
def pattern_score(player, opponent, tables, start):
    """Sum of the weights of the position's features, from the int16 ``tables`` (``PHASES``
    blocks of ``TABLE_SIZE``) starting at ``start``."""
    indices = np.empty(N_FEATURES, dtype=np.int64)
    feature_indices(player, opponent, indices)
    base = start + phase_of(64 - popcount(player | opponent)) * TABLE_SIZE
    score = 0
    for k in range(N_FEATURES):
        score += tables[base + indices[k]]
    return score


def symmetric_indices(pattern: Pattern) -> np.ndarray:
    """For each index of ``pattern``, the smallest index of the same squares' contents seen
    through a symmetry that maps the pattern onto itself: indices that must share a weight."""
    n = len(pattern.squares)
    indices = np.arange(3**n)
    digits = (indices[:, None] // 3 ** np.arange(n)) % 3
    position = {s: k for k, s in enumerate(pattern.squares)}
    canonical = indices.copy()
    for t in TRANSFORMS:
        moved = [square_map(t, s) for s in pattern.squares]
        if set(moved) != set(pattern.squares):
            continue
        # digit k (square s_k) lands on square moved[k], i.e. on digit position[moved[k]]
        order = np.array([position[s] for s in moved])
        permuted = (digits * 3**order).sum(axis=1)
        canonical = np.minimum(canonical, permuted)
    return canonical


@njit(cache=True)
def feature_matrix(players, opponents):
    """``feature_indices`` of many positions, one row each (the training's design matrix)."""
    out = np.empty((players.shape[0], N_FEATURES), dtype=np.int64)
    for i in range(players.shape[0]):
        feature_indices(players[i], opponents[i], out[i])
    return out


def shared_indices() -> np.ndarray:
    """For each index of a phase's weights, the index whose weight it shares (equal under a
    symmetry of its pattern, see ``symmetric_indices``); mobility and parity share none."""
    shared = np.arange(TABLE_SIZE, dtype=np.int64)
    for pattern, offset in zip(PATTERNS, PATTERN_OFFSETS, strict=True):
        canonical = symmetric_indices(pattern)
        shared[offset : offset + canonical.shape[0]] = offset + canonical
    return shared
