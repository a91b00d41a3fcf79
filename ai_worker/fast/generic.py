"""Kernels for every variant over a flat int8 cell array and per-board ray tables.

Cells hold ``EMPTY`` (-1), ``BLOCKED`` (-2: a wall or an off-board cell of the octagon), a
colour 0..3 or ``NEUTRAL`` (4). ``rays[square, direction, k]`` lists the playable squares
walking from ``square`` in one of the 8 directions, stopping at the edge or at a blocked cell
(``ray_lengths[square, direction]`` of them); ``adjacent[square]`` lists the playable
neighbours, padded with -1. A move flips every line of other discs (rivals or neutral) closed
by a disc of the mover. With 2 players a side without a flipping move passes; with 3-4 players
it places a disc on an empty cell next to any disc instead (R8), and the game ends when no
such cell is left.

The search is *paranoid*: every rival minimises the value of the side that searches. Scores
are in hundredths of a disc from that side's view (see ``evaluate``). It keeps its bounds and
best moves in a transposition table of ``searchstate`` (kept between searches like the 8x8
ones), keyed by two Zobrist hashes of the cells, the side to move, the searching side, the
number of players, anti-reversi and the board size.
"""

import numpy as np
from numba import njit

from ai_worker.fast.evaluation import HEURISTIC_LIMIT, INF, WIN_SCORE
from ai_worker.fast.searchstate import (
    ABORTED,
    AGE,
    EXACT,
    entry_depth,
    entry_lower,
    entry_square,
    entry_upper,
    probe,
    store,
    tick,
)

EMPTY = -1
BLOCKED = -2
NEUTRAL = 4
W_MOBILITY = 60
_GEOMETRY_SIG = "int8[::1], int64[:, :, ::1], int64[:, ::1], int64[:, ::1]"
NO_MOVE = 255  # the best square of a table entry that has none
TABLE_MIN_DEPTH = 2  # nodes nearer the leaves cost more to hash than the table saves
MAX_CELLS = 255
_CELL_STATES = 7  # BLOCKED .. NEUTRAL
_FIRST = -(1 << 40)


def _zobrist_keys() -> tuple[np.ndarray, np.ndarray]:
    """Two independent sets of random keys: per (cell, state), and per side to move,
    searching side, number of players, anti and board size."""
    rng = np.random.default_rng(20261201)
    top = np.iinfo(np.uint64).max
    cells = rng.integers(0, top, size=(2, MAX_CELLS, _CELL_STATES), dtype=np.uint64)
    context = rng.integers(0, top, size=(2, 5, MAX_CELLS + 1), dtype=np.uint64)
    return cells, context


_CELL_KEYS, _CONTEXT_KEYS = _zobrist_keys()
_NO_KEYS = np.zeros(2, dtype=np.uint64)


@njit(cache=True)
def flips_along(cells, rays, ray_lengths, square, direction, player):
    """How many discs ``player`` flips in one direction by playing on ``square``."""
    length = ray_lengths[square, direction]
    k = 0
    while k < length:
        c = cells[rays[square, direction, k]]
        if c == player:
            return k
        if c < 0:
            return 0
        k += 1
    return 0


@njit(cache=True)
def is_flipping_move(cells, rays, ray_lengths, square, player):
    """Whether ``player`` flips at least one disc by playing on the empty ``square``."""
    for direction in range(8):
        if flips_along(cells, rays, ray_lengths, square, direction, player) > 0:
            return True
    return False


@njit(cache=True)
def _touches_disc(cells, adjacent, square):
    for k in range(adjacent.shape[1]):
        n = adjacent[square, k]
        if n < 0:
            return False
        if cells[n] >= 0:
            return True
    return False


@njit(cache=True)
def generate_moves(cells, rays, ray_lengths, adjacent, player, n_players, out):
    """Fill ``out`` with the squares ``player`` may play and return how many: the flipping
    moves, or (3-4 players, none flipping) the placements next to a disc."""
    count = 0
    for square in range(cells.shape[0]):
        if cells[square] == EMPTY and is_flipping_move(cells, rays, ray_lengths, square, player):
            out[count] = square
            count += 1
    if count == 0 and n_players > 2:
        for square in range(cells.shape[0]):
            if cells[square] == EMPTY and _touches_disc(cells, adjacent, square):
                out[count] = square
                count += 1
    return count


@njit(cache=True)
def play(cells, rays, ray_lengths, square, player):
    """Put ``player``'s disc on ``square`` and flip every bracketed line (in place);
    return the number of discs flipped."""
    flipped = 0
    for direction in range(8):
        n = flips_along(cells, rays, ray_lengths, square, direction, player)
        for k in range(n):
            cells[rays[square, direction, k]] = player
        flipped += n
    cells[square] = player
    return flipped


@njit(cache=True)
def _has_move(cells, rays, ray_lengths, player):
    for square in range(cells.shape[0]):
        if cells[square] == EMPTY and is_flipping_move(cells, rays, ray_lengths, square, player):
            return True
    return False


@njit(
    "int64(int8[:, ::1], int64[:, ::1], int64, int64[:, :, ::1], int64[:, ::1], int64[:, ::1],"
    " int64, int64, int64)",
    cache=True,
)
def _perft_at(boards, moves, level, rays, ray_lengths, adjacent, player, n_players, depth):
    """``perft`` of ``boards[level]``, the deeper rows of ``boards`` and ``moves`` serving as
    scratch space (no allocation per node)."""
    cells = boards[level]
    count = generate_moves(cells, rays, ray_lengths, adjacent, player, n_players, moves[level])
    following = (player + 1) % n_players
    if count == 0:
        if n_players > 2 or not _has_move(cells, rays, ray_lengths, following):
            return 1
        if depth == 1:
            return 1
        boards[level + 1] = cells
        return _perft_at(
            boards, moves, level + 1, rays, ray_lengths, adjacent, following, n_players, depth - 1
        )
    if depth == 1:
        return count
    total = 0
    child = boards[level + 1]
    for i in range(count):
        child[:] = cells
        play(child, rays, ray_lengths, moves[level, i], player)
        total += _perft_at(
            boards, moves, level + 1, rays, ray_lengths, adjacent, following, n_players, depth - 1
        )
    return total


@njit("int64(" + _GEOMETRY_SIG + ", int64, int64, int64)", cache=True)
def perft(cells, rays, ray_lengths, adjacent, player, n_players, depth):
    """Leaf count ``depth`` (>= 1) plies deep, with the conventions of ``bitboard.perft``."""
    boards = np.empty((depth + 1, cells.shape[0]), dtype=np.int8)
    moves = np.empty((depth + 1, cells.shape[0]), dtype=np.int64)
    boards[0] = cells
    return _perft_at(boards, moves, 0, rays, ray_lengths, adjacent, player, n_players, depth)


@njit(cache=True)
def _positional(cells, weights, corner_of, player):
    total = 0
    for square in range(cells.shape[0]):
        if cells[square] == player:
            guard = corner_of[square]
            if guard < 0 or cells[guard] == EMPTY:
                total += weights[square]
    return total


@njit(cache=True)
def _discs(cells, player):
    n = 0
    for square in range(cells.shape[0]):
        if cells[square] == player:
            n += 1
    return n


@njit(cache=True)
def _margin(values, player, n_players, anti):
    """``player``'s value against the best rival (against the lowest rival in anti)."""
    rival = -INF * 100 if not anti else INF * 100
    for q in range(n_players):
        if q != player:
            rival = max(rival, values[q]) if not anti else min(rival, values[q])
    return values[player] - rival if not anti else rival - values[player]


@njit(cache=True)
def terminal_score(cells, root, n_players, anti):
    """Value of a finished game for ``root``: a win or loss beyond any heuristic value, plus
    the disc margin (2 players: empties go to the winner, except in anti-reversi)."""
    discs = np.zeros(n_players, dtype=np.int64)
    empties = 0
    for square in range(cells.shape[0]):
        c = cells[square]
        if 0 <= c < n_players:
            discs[c] += 1
        elif c == EMPTY:
            empties += 1
    margin = _margin(discs, root, n_players, anti)
    if n_players == 2 and not anti and margin != 0:
        margin += empties if margin > 0 else -empties
    if margin > 0:
        return WIN_SCORE + 100 * margin
    if margin < 0:
        return -WIN_SCORE + 100 * margin
    return 0


@njit(cache=True)
def evaluate(cells, rays, ray_lengths, weights, corner_of, root, n_players, anti):
    """Heuristic value for ``root``: positional weights (corners, X/C squares next to an
    empty corner, edges) and discs against the best rival, and in 2-player games mobility."""
    values = np.zeros(n_players, dtype=np.int64)
    for q in range(n_players):
        values[q] = _positional(cells, weights, corner_of, q) + 10 * _discs(cells, q)
        if anti:
            values[q] = -values[q]
    score = _margin(values, root, n_players, False)
    if n_players == 2:
        mine = 0
        theirs = 0
        for square in range(cells.shape[0]):
            if cells[square] == EMPTY:
                mine += is_flipping_move(cells, rays, ray_lengths, square, root)
                theirs += is_flipping_move(cells, rays, ray_lengths, square, 1 - root)
        score += W_MOBILITY * (mine - theirs) * 8 // (mine + theirs + 4) * 2
    return max(-HEURISTIC_LIMIT, min(HEURISTIC_LIMIT, score))


@njit(cache=True)
def position_keys(cells, player, root, n_players, anti):
    """The two table keys of a position searched for ``root`` with ``player`` to move."""
    keys = np.empty(2, dtype=np.uint64)
    for k in range(2):
        context = _CONTEXT_KEYS[k]
        h = context[0, player] ^ context[1, root] ^ context[2, n_players]
        h ^= context[3, anti] ^ context[4, cells.shape[0]]
        for square in range(cells.shape[0]):
            h ^= _CELL_KEYS[k, square, cells[square] - BLOCKED]
        keys[k] = h
    return keys


@njit(
    "int64("
    + _GEOMETRY_SIG
    + ", int64[::1], int64[::1], int64, int64, int64, int64, int64, int64, int64, int64[::1],"
    " uint64[:, ::1])",
    cache=True,
)
def search(
    cells, rays, ray_lengths, adjacent, weights, corner_of,
    player, root, n_players, anti, depth, alpha, beta, stats, table,
):  # fmt: skip
    """Paranoid alpha-beta ``depth`` plies deep (a pass is not a ply): ``root`` maximises,
    every rival minimises. Returns the value for ``root`` (fail-soft); ``table`` holds bounds
    and best moves of earlier visits (``searchstate``; depth in plies)."""
    tick(stats)
    if stats[ABORTED]:
        return 0
    moves = np.empty(cells.shape[0], dtype=np.int64)
    count = generate_moves(cells, rays, ray_lengths, adjacent, player, n_players, moves)
    following = (player + 1) % n_players
    if count == 0:
        if n_players > 2 or not _has_move(cells, rays, ray_lengths, following):
            return terminal_score(cells, root, n_players, anti)
        return search(
            cells, rays, ray_lengths, adjacent, weights, corner_of,
            following, root, n_players, anti, depth, alpha, beta, stats, table,
        )  # fmt: skip
    if depth == 0:
        return evaluate(cells, rays, ray_lengths, weights, corner_of, root, n_players, anti)
    tabled = depth >= TABLE_MIN_DEPTH
    key = position_keys(cells, player, root, n_players, anti) if tabled else _NO_KEYS
    row = probe(key[0], key[1], table) if tabled else -1
    first = NO_MOVE
    if row >= 0:
        first = entry_square(table, row)
        if entry_depth(table, row) >= depth:
            lower = entry_lower(table, row)
            upper = entry_upper(table, row)
            if lower >= beta or lower == upper:
                return lower
            if upper <= alpha:
                return upper
            alpha = max(alpha, lower)
            beta = min(beta, upper)
    keys = np.empty(count, dtype=np.int64)
    for i in range(count):
        keys[i] = -weights[moves[i]] if not anti else weights[moves[i]]
        if moves[i] == first:
            keys[i] = _FIRST
    order = np.argsort(keys)
    maximising = player == root
    window_alpha = alpha
    window_beta = beta
    best = -INF if maximising else INF
    best_move = NO_MOVE
    for i in order:
        child = cells.copy()
        play(child, rays, ray_lengths, moves[i], player)
        value = search(
            child, rays, ray_lengths, adjacent, weights, corner_of,
            following, root, n_players, anti, depth - 1, alpha, beta, stats, table,
        )  # fmt: skip
        if stats[ABORTED]:
            return 0
        if (value > best) if maximising else (value < best):
            best = value
            best_move = moves[i]
        if maximising:
            alpha = max(alpha, value)
        else:
            beta = min(beta, value)
        if alpha >= beta:
            break
    if tabled:
        lower = best if best > window_alpha else -INF
        upper = best if best < window_beta else INF
        store(key[0], key[1], table, lower, upper, best_move, depth, stats[AGE], EXACT)
    return best
