"""8x8 two-player kernels over uint64 bitboards (bit ``row * 8 + col``, a1 = bit 0).

A position is ``(player, opponent, walls)``: the discs of the side to move, of the other side,
and blocked cells (walls break lines and are never playable; 0 on a standard board).
"""

import numpy as np
from numba import njit, uint64

from ai_worker.fast.intrinsics import highest_bit_index, lowest_bit_index, popcount

NOT_EDGE_FILES = np.uint64(0x7E7E7E7E7E7E7E7E)
ZERO = np.uint64(0)
ONE = np.uint64(1)
CORNERS = np.uint64(0x8100000000000081)
# Per corner (a1, h1, a8, h8): the corner, its X square (diagonal) and its C squares (beside it).
CORNER_SQUARES = np.array([0, 7, 56, 63], dtype=np.int64)
X_SQUARES = np.array([9, 14, 49, 54], dtype=np.int64)
C_SQUARES = np.array(
    [(1 << 1) | (1 << 8), (1 << 6) | (1 << 15), (1 << 48) | (1 << 57), (1 << 55) | (1 << 62)],
    dtype=np.uint64,
)
# The four 4x4 quadrants, for parity ordering.
QUADRANTS = np.array(
    [0x0F0F0F0F, 0xF0F0F0F0, 0x0F0F0F0F00000000, 0xF0F0F0F000000000], dtype=np.uint64
)
_S1 = np.uint64(1)
_S2 = np.uint64(2)
_S7 = np.uint64(7)
_S8 = np.uint64(8)
_S9 = np.uint64(9)
_S14 = np.uint64(14)
_S16 = np.uint64(16)
_S18 = np.uint64(18)


@njit(cache=True, inline="always")
def _moves_up(player, mask, s, s2):
    """Empties-agnostic moves along one direction (shift left by ``s``)."""
    t = mask & (player << s)
    t |= mask & (t << s)
    pre = mask & (mask << s)
    t |= pre & (t << s2)
    t |= pre & (t << s2)
    return t << s


@njit(cache=True, inline="always")
def _moves_down(player, mask, s, s2):
    t = mask & (player >> s)
    t |= mask & (t >> s)
    pre = mask & (mask >> s)
    t |= pre & (t >> s2)
    t |= pre & (t >> s2)
    return t >> s


@njit(cache=True)
def legal_moves(player, opponent, walls):
    """Bitboard of the squares where ``player`` may play (flips at least one disc)."""
    inner = opponent & NOT_EDGE_FILES
    m = _moves_up(player, inner, _S1, _S2) | _moves_down(player, inner, _S1, _S2)
    m |= _moves_up(player, opponent, _S8, _S16) | _moves_down(player, opponent, _S8, _S16)
    m |= _moves_up(player, inner, _S7, _S14) | _moves_down(player, inner, _S7, _S14)
    m |= _moves_up(player, inner, _S9, _S18) | _moves_down(player, inner, _S9, _S18)
    return m & ~(player | opponent | walls)


def _ray_masks() -> np.ndarray:
    """``RAYS[square, d]``: the squares walking from ``square`` (excluded) to the board's edge in
    direction ``d``; directions 0-3 go to higher bit indices, 4-7 to lower ones."""
    steps = ((1, 0), (-1, 1), (0, 1), (1, 1), (-1, 0), (1, -1), (0, -1), (-1, -1))
    rays = np.zeros((64, 8), dtype=np.uint64)
    for square in range(64):
        for d, (dc, dr) in enumerate(steps):
            c, r = square % 8 + dc, square // 8 + dr
            while 0 <= c < 8 and 0 <= r < 8:
                rays[square, d] |= np.uint64(1 << (r * 8 + c))
                c, r = c + dc, r + dr
    return rays


RAYS = _ray_masks()


@njit(cache=True)
def flips(player, opponent, square):
    """Bitboard of the opponent discs flipped by ``player`` playing on ``square``. Along each
    ray the first square that is not an opponent disc is found with one bit scan; the ray is
    flipped up to it when it holds a disc of ``player``."""
    not_opponent = ~opponent
    f = ZERO
    for d in range(4):
        ray = RAYS[square, d]
        t = ray & not_opponent
        first = t & (ZERO - t) & player
        f |= (first - np.uint64(first != ZERO)) & ray
    for d in range(4, 8):
        ray = RAYS[square, d]
        t = (ray & not_opponent) | ONE
        first = (ONE << np.uint64(highest_bit_index(t))) & player & ray
        f |= ray & (ZERO - (first << ONE))
    return f


@njit("int64(uint64, uint64, uint64, int64)", cache=True)
def perft(player, opponent, walls, depth):
    """Leaf count of the move tree ``depth`` (>= 1) plies deep, as ``Board.perft`` counts it:
    a forced pass is a ply, a game over before ``depth`` is one leaf. Bulk-counts the last
    ply, from the last-but-one without a call per node."""
    moves = legal_moves(player, opponent, walls)
    if moves == ZERO:
        if legal_moves(opponent, player, walls) == ZERO:
            return 1
        if depth == 1:
            return 1
        return perft(opponent, player, walls, depth - 1)
    if depth == 1:
        return popcount(moves)
    total = 0
    while moves:
        square = lowest_bit_index(moves)
        moves &= moves - ONE
        f = flips(player, opponent, square)
        child_p = opponent ^ f
        child_o = player ^ f ^ (ONE << uint64(square))
        if depth == 2:  # the child's leaves counted here: its moves, or 1 for a pass or an end
            replies = popcount(legal_moves(child_p, child_o, walls))
            total += replies if replies else 1
        else:
            total += perft(child_p, child_o, walls, depth - 1)
    return total


def _line_masks() -> np.ndarray:
    lines = []
    for r in range(8):
        lines.append(sum(1 << (r * 8 + c) for c in range(8)))
    for c in range(8):
        lines.append(sum(1 << (r * 8 + c) for r in range(8)))
    for k in range(-7, 8):
        lines.append(sum(1 << (r * 8 + r + k) for r in range(8) if 0 <= r + k < 8))
        lines.append(sum(1 << (r * 8 + 7 - r - k) for r in range(8) if 0 <= 7 - r - k < 8))
    return np.array(lines, dtype=np.uint64)


_LINES = _line_masks()
_EDGE = np.uint64(0xFF818181818181FF)
_FILE_AH = np.uint64(0x8181818181818181)
_RANK_18 = np.uint64(0xFF000000000000FF)
_NOT_FILE_A = np.uint64(0xFEFEFEFEFEFEFEFE)
_NOT_FILE_H = np.uint64(0x7F7F7F7F7F7F7F7F)


@njit(cache=True)
def stable_discs(player, opponent, walls):
    """Discs of ``player`` that can never flip: along each of the four lines through it, the
    line is full or a neighbour on it is the edge, a wall or a stable own disc."""
    occupied = player | opponent | walls
    full_h = ZERO
    full_v = ZERO
    full_d7 = ZERO
    full_d9 = ZERO
    for i in range(8):
        if occupied & _LINES[i] == _LINES[i]:
            full_h |= _LINES[i]
        if occupied & _LINES[8 + i] == _LINES[8 + i]:
            full_v |= _LINES[8 + i]
    for i in range(15):
        d9 = _LINES[16 + 2 * i]
        d7 = _LINES[17 + 2 * i]
        if occupied & d9 == d9:
            full_d9 |= d9
        if occupied & d7 == d7:
            full_d7 |= d7
    stable = ZERO
    while True:
        anchors = stable | walls
        h = full_h | _FILE_AH | ((anchors << _S1) & _NOT_FILE_A) | ((anchors >> _S1) & _NOT_FILE_H)
        v = full_v | _RANK_18 | (anchors << _S8) | (anchors >> _S8)
        d9 = full_d9 | _EDGE | ((anchors << _S9) & _NOT_FILE_A) | ((anchors >> _S9) & _NOT_FILE_H)
        d7 = full_d7 | _EDGE | ((anchors << _S7) & _NOT_FILE_H) | ((anchors >> _S7) & _NOT_FILE_A)
        grown = player & h & v & d9 & d7
        if grown == stable:
            return stable
        stable = grown


@njit(cache=True)
def neighbours(bits):
    """Squares adjacent (8 directions) to any set square."""
    left = (bits >> _S1) & _NOT_FILE_H
    right = (bits << _S1) & _NOT_FILE_A
    row = bits | left | right
    return (row | (row << _S8) | (row >> _S8)) & ~bits


@njit(cache=True, inline="always")
def score_of_counts(discs, rival_discs, empties, anti):
    """Final disc difference for the side with ``discs`` of a finished game: empties go to the
    winner (R7); in anti-reversi fewer discs is better and no empties are added."""
    if anti:
        return rival_discs - discs
    if discs > rival_discs:
        return discs - rival_discs + empties
    if discs < rival_discs:
        return discs - rival_discs - empties
    return 0


@njit(cache=True)
def final_score(player, opponent, walls, anti):
    """``score_of_counts`` of a finished position."""
    p = popcount(player)
    o = popcount(opponent)
    return score_of_counts(p, o, 64 - p - o - popcount(walls), anti)
