"""Kernels for every variant over bitboards of two uint64 words.

A board of width ``w`` is laid out in bits ``row * (w + 1) + col``: the spare bit after each
row is never a cell, so a step east or west never wraps onto the next row, and a 10x10 board
takes 110 bits of two words (low, high). A position is ``discs``, a uint64 array of
``2 * COLOURS`` words: colour ``c``'s discs are words ``2c`` (low) and ``2c + 1`` (high),
colours 0-3 and ``NEUTRAL`` (4). Walls and off-board cells are bits outside
``masks[CELLS]`` (see ``geometry``). A move flips every line of other discs (rivals or
neutral) closed by a disc of the mover. With 2 players a side without a flipping move passes;
with 3-4 players it places a disc on an empty cell next to any disc instead (R8), and the game
ends when no such cell is left.

The search is *paranoid*: every rival minimises the value of the side that searches. Scores
are in hundredths of a disc from that side's view (see ``evaluate``). It keeps its bounds and
best moves in a transposition table of ``searchstate`` (kept between searches like the 8x8
ones), keyed by two 64-bit hashes of the discs, the cells, the side to move, the searching
side, the number of players and anti-reversi.
"""

import numpy as np
from numba import njit

from ai_worker.fast.evaluation import HEURISTIC_LIMIT, INF, W_C, W_CORNER, W_X, WIN_SCORE
from ai_worker.fast.geometry import CELLS, CORNER_ROWS, CORNERS, EDGES, FIRST_CORNER, W_EDGE
from ai_worker.fast.intrinsics import lowest_bit_index, popcount
from ai_worker.fast.searchstate import (
    ABORTED,
    AGE,
    EXACT,
    entry_depth,
    entry_lower,
    entry_square,
    entry_upper,
    probe,
    sort_by_keys,
    store,
    tick,
)

NEUTRAL = 4
COLOURS = 5
WORDS = 2 * COLOURS
MAX_MOVES = 128
NO_MOVE = 255  # the best square of a table entry that has none
TABLE_MIN_DEPTH = 2  # nodes nearer the leaves cost more to hash than the table saves
# The features of ``features``, each the searching side's count less the rivals' mean.
DISCS, CORNER, X_SQUARE, C_SQUARE, EDGE, MOBILITY, FRONTIER, PARITY, TEMPO = range(9)
N_FEATURES = 9
FEATURE_NAMES = (
    "discs", "corners", "x-squares", "c-squares", "edges", "mobility", "frontier", "parity",
    "tempo",
)  # fmt: skip
PHASES = 4  # of the game, by the share of the cells that hold a disc
W_DISC = 10
W_MOBILITY = 50
ZERO = np.uint64(0)
ONE = np.uint64(1)
_S32 = np.uint64(32)
_S64 = np.uint64(64)
_S29 = np.uint64(29)
_HASH_SEEDS = np.array([0x243F6A8885A308D3, 0x13198A2E03707344], dtype=np.uint64)
_HASH_MULTIPLIERS = np.array([0x9E3779B97F4A7C15, 0xD6E8FEB86659FD93], dtype=np.uint64)
_FIRST = -(1 << 40)


def hand_weights(anti: bool) -> np.ndarray:
    """The hand-written evaluation as ``evaluate`` weights, the same in every phase: discs,
    corners, X and C squares, edges and mobility (in anti-reversi every count but mobility
    counts against its owner)."""
    sign = -1 if anti else 1
    row = [sign * W_DISC, sign * W_CORNER, sign * W_X, sign * W_C, sign * W_EDGE, W_MOBILITY]
    row += [0] * (N_FEATURES - len(row))
    return np.tile(np.array(row, dtype=np.float64), (PHASES, 1))


@njit(cache=True, inline="always")
def _shift(lo, hi, s, up):
    """The 128-bit (lo, hi) shifted ``s`` (1-63) bits up (towards the high word) or down."""
    if up:
        return lo << s, (hi << s) | (lo >> (_S64 - s))
    return (lo >> s) | (hi << (_S64 - s)), hi >> s


@njit(cache=True, inline="always")
def _sides(discs, player):
    """(player's low, high, the other discs' low, high)."""
    olo = ZERO
    ohi = ZERO
    for c in range(COLOURS):
        if c != player:
            olo |= discs[2 * c]
            ohi |= discs[2 * c + 1]
    return discs[2 * player], discs[2 * player + 1], olo, ohi


@njit(cache=True, inline="always")
def _empties(discs, masks):
    lo = masks[CELLS, 0]
    hi = masks[CELLS, 1]
    for c in range(COLOURS):
        lo &= ~discs[2 * c]
        hi &= ~discs[2 * c + 1]
    return lo, hi


@njit(cache=True)
def flipping_moves(plo, phi, olo, ohi, elo, ehi, shifts):
    """The empty cells (of ``elo``, ``ehi``) where the player flips at least one disc."""
    mlo = ZERO
    mhi = ZERO
    for k in range(4):
        s = shifts[k]
        for d in range(2):
            up = d == 0
            tlo, thi = _shift(plo, phi, s, up)
            tlo &= olo
            thi &= ohi
            while True:
                ulo, uhi = _shift(tlo, thi, s, up)
                nlo = tlo | (ulo & olo)
                nhi = thi | (uhi & ohi)
                if nlo == tlo and nhi == thi:
                    break
                tlo = nlo
                thi = nhi
            ulo, uhi = _shift(tlo, thi, s, up)
            mlo |= ulo & elo
            mhi |= uhi & ehi
    return mlo, mhi


@njit(cache=True)
def _around(lo, hi, shifts):
    """The cells next to any bit of (lo, hi), in the 8 directions (walls included)."""
    alo = ZERO
    ahi = ZERO
    for k in range(4):
        for d in range(2):
            ulo, uhi = _shift(lo, hi, shifts[k], d == 0)
            alo |= ulo
            ahi |= uhi
    return alo, ahi


@njit(cache=True)
def generate_moves(discs, masks, shifts, player, n_players):
    """The cells ``player`` may play (low, high): the flipping moves, or (3-4 players, none
    flipping) the empty cells next to a disc."""
    plo, phi, olo, ohi = _sides(discs, player)
    elo, ehi = _empties(discs, masks)
    mlo, mhi = flipping_moves(plo, phi, olo, ohi, elo, ehi, shifts)
    if mlo == ZERO and mhi == ZERO and n_players > 2:
        alo, ahi = _around(plo | olo, phi | ohi, shifts)
        mlo = alo & elo
        mhi = ahi & ehi
    return mlo, mhi


@njit(cache=True)
def flips(plo, phi, olo, ohi, bit, shifts):
    """The discs (low, high) the player flips by playing on cell ``bit``."""
    mlo = ONE << np.uint64(bit) if bit < 64 else ZERO
    mhi = ONE << np.uint64(bit - 64) if bit >= 64 else ZERO
    flo = ZERO
    fhi = ZERO
    for k in range(4):
        s = shifts[k]
        for d in range(2):
            up = d == 0
            clo, chi = _shift(mlo, mhi, s, up)
            rlo = ZERO
            rhi = ZERO
            while (clo & olo) | (chi & ohi):
                rlo |= clo
                rhi |= chi
                clo, chi = _shift(clo, chi, s, up)
            if (clo & plo) | (chi & phi):
                flo |= rlo
                fhi |= rhi
    return flo, fhi


@njit(cache=True)
def play(discs, shifts, bit, player):
    """Put ``player``'s disc on cell ``bit`` and flip every bracketed line (in place); return
    the number of discs flipped."""
    plo, phi, olo, ohi = _sides(discs, player)
    flo, fhi = flips(plo, phi, olo, ohi, bit, shifts)
    for c in range(COLOURS):
        discs[2 * c] &= ~flo
        discs[2 * c + 1] &= ~fhi
    if bit < 64:
        flo |= ONE << np.uint64(bit)
    else:
        fhi |= ONE << np.uint64(bit - 64)
    discs[2 * player] |= flo
    discs[2 * player + 1] |= fhi
    return popcount(flo) + popcount(fhi) - 1


@njit(cache=True, inline="always")
def _to_list(lo, hi, out):
    """The bit indexes of (lo, hi) into ``out``, lowest first; returns how many."""
    count = 0
    while lo:
        out[count] = lowest_bit_index(lo)
        count += 1
        lo &= lo - ONE
    while hi:
        out[count] = 64 + lowest_bit_index(hi)
        count += 1
        hi &= hi - ONE
    return count


def move_list(
    discs: np.ndarray, masks: np.ndarray, shifts: np.ndarray, player: int, n_players: int
) -> list[int]:
    """The cells (bits) of ``generate_moves``, lowest first."""
    lo, hi = generate_moves(discs, masks, shifts, player, n_players)
    bits = int(lo) | int(hi) << 64
    return [b for b in range(128) if bits >> b & 1]


@njit(cache=True, inline="always")
def _has_flipping_move(discs, masks, shifts, player):
    plo, phi, olo, ohi = _sides(discs, player)
    elo, ehi = _empties(discs, masks)
    mlo, mhi = flipping_moves(plo, phi, olo, ohi, elo, ehi, shifts)
    return (mlo | mhi) != ZERO


@njit(
    "int64(uint64[:, ::1], int64[:, ::1], int64, uint64[:, ::1], uint64[::1], int64, int64, int64)",
    cache=True,
)
def _perft_at(boards, moves, level, masks, shifts, player, n_players, depth):
    """``perft`` of ``boards[level]``, the deeper rows of ``boards`` and ``moves`` serving as
    scratch space (no allocation per node)."""
    discs = boards[level]
    mlo, mhi = generate_moves(discs, masks, shifts, player, n_players)
    following = (player + 1) % n_players
    if mlo == ZERO and mhi == ZERO:
        if n_players > 2 or not _has_flipping_move(discs, masks, shifts, following):
            return 1
        if depth == 1:
            return 1
        boards[level + 1] = discs
        return _perft_at(boards, moves, level + 1, masks, shifts, following, n_players, depth - 1)
    if depth == 1:
        return popcount(mlo) + popcount(mhi)
    count = _to_list(mlo, mhi, moves[level])
    total = 0
    child = boards[level + 1]
    for i in range(count):
        child[:] = discs
        play(child, shifts, moves[level, i], player)
        total += _perft_at(boards, moves, level + 1, masks, shifts, following, n_players, depth - 1)
    return total


@njit("int64(uint64[::1], uint64[:, ::1], uint64[::1], int64, int64, int64)", cache=True)
def perft(discs, masks, shifts, player, n_players, depth):
    """Leaf count ``depth`` (>= 1) plies deep, with the conventions of ``bitboard.perft``."""
    boards = np.empty((2 * depth + 2, WORDS), dtype=np.uint64)
    moves = np.empty((2 * depth + 2, MAX_MOVES), dtype=np.int64)
    boards[0] = discs
    return _perft_at(boards, moves, 0, masks, shifts, player, n_players, depth)


@njit(cache=True)
def _margin(values, player, n_players, anti):
    """``player``'s value against the best rival (against the lowest rival in anti)."""
    rival = -INF * 100 if not anti else INF * 100
    for q in range(n_players):
        if q != player:
            rival = max(rival, values[q]) if not anti else min(rival, values[q])
    return values[player] - rival if not anti else rival - values[player]


@njit(cache=True)
def terminal_score(discs, masks, root, n_players, anti):
    """Value of a finished game for ``root``: a win or loss beyond any heuristic value, plus
    the disc margin (2 players: empties go to the winner, except in anti-reversi)."""
    counts = np.zeros(n_players, dtype=np.int64)
    for q in range(n_players):
        counts[q] = popcount(discs[2 * q]) + popcount(discs[2 * q + 1])
    elo, ehi = _empties(discs, masks)
    empties = popcount(elo) + popcount(ehi)
    margin = _margin(counts, root, n_players, anti)
    if n_players == 2 and not anti and margin != 0:
        margin += empties if margin > 0 else -empties
    if margin > 0:
        return WIN_SCORE + 100 * margin
    if margin < 0:
        return -WIN_SCORE + 100 * margin
    return 0


@njit(cache=True)
def phase_of(discs, masks):
    """The game phase (0 .. ``PHASES`` - 1) by the share of the cells holding a disc."""
    elo, ehi = _empties(discs, masks)
    cells = popcount(masks[CELLS, 0]) + popcount(masks[CELLS, 1])
    filled = cells - popcount(elo) - popcount(ehi)
    return min(PHASES - 1, filled * PHASES // cells)


@njit(cache=True)
def features(discs, masks, shifts, root, player, n_players, out):
    """Fill ``out`` (``N_FEATURES`` floats) with the position's features for ``root`` with
    ``player`` to move: per colour its discs, corners, X and C squares while their corner is
    empty, other edge cells, flipping moves and frontier discs (next to an empty cell), each
    as ``root``'s count less the rivals' mean; then the parity (2 players: +-1 for the side to
    move when the empties are odd, for ``root``) and the tempo (+1 when ``root`` moves, else
    -1)."""
    elo, ehi = _empties(discs, masks)
    xlo = ZERO
    xhi = ZERO
    clo = ZERO
    chi = ZERO
    for row in range(FIRST_CORNER, masks.shape[0], CORNER_ROWS):
        if (masks[row, 0] & elo) | (masks[row, 1] & ehi):
            xlo |= masks[row + 1, 0]
            xhi |= masks[row + 1, 1]
            clo |= masks[row + 2, 0]
            chi |= masks[row + 2, 1]
    nlo, nhi = _around(elo, ehi, shifts)
    for j in range(N_FEATURES):
        out[j] = 0.0
    rivals = -1.0 / (n_players - 1)
    for q in range(n_players):
        plo, phi, olo, ohi = _sides(discs, q)
        weight = 1.0 if q == root else rivals
        mlo, mhi = flipping_moves(plo, phi, olo, ohi, elo, ehi, shifts)
        out[DISCS] += weight * (popcount(plo) + popcount(phi))
        out[CORNER] += weight * (
            popcount(plo & masks[CORNERS, 0]) + popcount(phi & masks[CORNERS, 1])
        )
        out[X_SQUARE] += weight * (popcount(plo & xlo) + popcount(phi & xhi))
        out[C_SQUARE] += weight * (popcount(plo & clo) + popcount(phi & chi))
        out[EDGE] += weight * (popcount(plo & masks[EDGES, 0]) + popcount(phi & masks[EDGES, 1]))
        out[MOBILITY] += weight * (popcount(mlo) + popcount(mhi))
        out[FRONTIER] += weight * (popcount(plo & nlo) + popcount(phi & nhi))
    side = 1.0 if player == root else -1.0
    if n_players == 2 and (popcount(elo) + popcount(ehi)) % 2 == 1:
        out[PARITY] = side
    out[TEMPO] = side


@njit(cache=True)
def evaluate(discs, masks, shifts, weights, root, player, n_players, scratch):
    """Heuristic value for ``root`` with ``player`` to move: the linear evaluation
    ``weights[phase] . features`` (hundredths of a disc; ``weights`` is ``PHASES`` x
    ``N_FEATURES``), ``scratch`` a float array of ``N_FEATURES``."""
    features(discs, masks, shifts, root, player, n_players, scratch)
    phase = phase_of(discs, masks)
    total = 0.0
    for j in range(N_FEATURES):
        total += weights[phase, j] * scratch[j]
    score = np.int64(round(total))
    return max(-HEURISTIC_LIMIT, min(HEURISTIC_LIMIT, score))


@njit(cache=True)
def position_keys(discs, masks, player, root, n_players, anti):
    """The two table keys of a position searched for ``root`` with ``player`` to move."""
    context = np.uint64(player | (root << 2) | (n_players << 4) | (anti << 7))
    k0 = ZERO
    k1 = ZERO
    for k in range(2):
        m = _HASH_MULTIPLIERS[k]
        h = _HASH_SEEDS[k] ^ context
        for i in range(WORDS):
            h = (h ^ discs[i]) * m
            h ^= h >> _S29
        h = (h ^ masks[CELLS, 0]) * m
        h ^= h >> _S29
        h = (h ^ masks[CELLS, 1]) * m
        h ^= h >> _S32
        if k == 0:
            k0 = h
        else:
            k1 = h
    return k0, k1


@njit(
    "int64(uint64[:, ::1], int64[:, ::1], int64[:, ::1], int64, uint64[:, ::1], uint64[::1],"
    " int64[::1], float64[:, ::1], int64, int64, int64, int64, int64, int64, int64, int64[::1],"
    " uint64[:, ::1], float64[::1])",
    cache=True,
)
def _search_at(
    boards, moves, keys, level, masks, shifts, order_weights, weights,
    player, root, n_players, anti, depth, alpha, beta, stats, table, scratch,
):  # fmt: skip
    """``search`` of ``boards[level]``; the deeper rows of ``boards``, ``moves`` and ``keys``
    are scratch space for the children."""
    tick(stats)
    if stats[ABORTED]:
        return 0
    discs = boards[level]
    mlo, mhi = generate_moves(discs, masks, shifts, player, n_players)
    following = (player + 1) % n_players
    if mlo == ZERO and mhi == ZERO:
        if n_players > 2 or not _has_flipping_move(discs, masks, shifts, following):
            return terminal_score(discs, masks, root, n_players, anti)
        boards[level + 1] = discs
        return _search_at(
            boards, moves, keys, level + 1, masks, shifts, order_weights, weights,
            following, root, n_players, anti, depth, alpha, beta, stats, table, scratch,
        )  # fmt: skip
    if depth == 0:
        return evaluate(discs, masks, shifts, weights, root, player, n_players, scratch)
    tabled = depth >= TABLE_MIN_DEPTH
    key0 = ZERO
    key1 = ZERO
    first = NO_MOVE
    if tabled:
        key0, key1 = position_keys(discs, masks, player, root, n_players, anti)
        row = probe(key0, key1, table)
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
    count = _to_list(mlo, mhi, moves[level])
    squares = moves[level, :count]
    order = keys[level, :count]
    for i in range(count):
        order[i] = -order_weights[squares[i]] if not anti else order_weights[squares[i]]
        if squares[i] == first:
            order[i] = _FIRST
    sort_by_keys(squares, order)
    maximising = player == root
    window_alpha = alpha
    window_beta = beta
    best = -INF if maximising else INF
    best_move = NO_MOVE
    child = boards[level + 1]
    for i in range(count):
        square = squares[i]
        child[:] = discs
        play(child, shifts, square, player)
        value = _search_at(
            boards, moves, keys, level + 1, masks, shifts, order_weights, weights,
            following, root, n_players, anti, depth - 1, alpha, beta, stats, table, scratch,
        )  # fmt: skip
        if stats[ABORTED]:
            return 0
        if (value > best) if maximising else (value < best):
            best = value
            best_move = square
        if maximising:
            alpha = max(alpha, value)
        else:
            beta = min(beta, value)
        if alpha >= beta:
            break
    if tabled:
        lower = best if best > window_alpha else -INF
        upper = best if best < window_beta else INF
        store(key0, key1, table, lower, upper, best_move, depth, stats[AGE], EXACT)
    return best


@njit(
    "int64(uint64[::1], uint64[:, ::1], uint64[::1], int64[::1], float64[:, ::1], int64, int64,"
    " int64, int64, int64, int64, int64, int64[::1], uint64[:, ::1])",
    cache=True,
)
def search(
    discs, masks, shifts, order_weights, weights,
    player, root, n_players, anti, depth, alpha, beta, stats, table,
):  # fmt: skip
    """Paranoid alpha-beta ``depth`` plies deep (a pass is not a ply): ``root`` maximises,
    every rival minimises. Returns the value for ``root`` (fail-soft); ``table`` holds bounds
    and best moves of earlier visits (``searchstate``; depth in plies). Moves are tried best
    first by ``order_weights`` (per cell; anti-reversi: worst first), the table's move before
    them; leaves are valued by ``evaluate`` with ``weights``."""
    levels = 2 * depth + 2
    boards = np.empty((levels, WORDS), dtype=np.uint64)
    moves = np.empty((levels, MAX_MOVES), dtype=np.int64)
    keys = np.empty((levels, MAX_MOVES), dtype=np.int64)
    scratch = np.empty(N_FEATURES, dtype=np.float64)
    boards[0] = discs
    return _search_at(
        boards, moves, keys, 0, masks, shifts, order_weights, weights,
        player, root, n_players, anti, depth, alpha, beta, stats, table, scratch,
    )  # fmt: skip
