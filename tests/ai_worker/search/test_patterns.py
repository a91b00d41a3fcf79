"""The pattern evaluation: the kernel agrees with a square-by-square reference, and values a
position as it values its seven symmetric ones."""

import random

import numpy as np
import pytest

from ai_worker.engine import Board
from ai_worker.fast import bitboard, patterns
from ai_worker.fast.api import Position
from ai_worker.fast.evaluation import HAND_WEIGHTS, evaluate, hand_evaluate, pattern_weights
from ai_worker.search import STRONG_WEIGHTS
from tests.ai_worker.search.conftest import random_position

ZERO = np.uint64(0)


def random_discs(rng: random.Random) -> tuple[int, int]:
    """Two disjoint random bitboards (not necessarily a reachable position)."""
    player = opponent = 0
    for square in range(64):
        r = rng.random()
        if r < 0.35:
            player |= 1 << square
        elif r < 0.7:
            opponent |= 1 << square
    return player, opponent


def game_discs(seed: int) -> tuple[int, int]:
    board = random_position(Board().variant, random.Random(seed).randint(0, 58), seed)
    position = Position.of(board)
    return int(position.player), int(position.opponent)


def reference_indices(player: int, opponent: int) -> list[int]:
    """``feature_indices`` in plain Python, square by square."""
    out = []
    for p, t in patterns.INSTANCES:
        index = 0
        for k, square in enumerate(patterns.instance_squares(patterns.PATTERNS[p], t)):
            if player >> square & 1:
                index += 3**k
            elif opponent >> square & 1:
                index += 2 * 3**k
        out.append(int(patterns.PATTERN_OFFSETS[p]) + index)
    mine = min(
        int(bitboard.legal_moves(np.uint64(player), np.uint64(opponent), np.uint64(0))).bit_count(),
        patterns.MOBILITY_CAP,
    )
    theirs = min(
        int(bitboard.legal_moves(np.uint64(opponent), np.uint64(player), np.uint64(0))).bit_count(),
        patterns.MOBILITY_CAP,
    )
    out.append(patterns.MOBILITY_OFFSET + mine * (patterns.MOBILITY_CAP + 1) + theirs)
    out.append(patterns.PARITY_OFFSET + (64 - (player | opponent).bit_count()) % 2)
    return out


def symmetric(bits: int, transform: int) -> np.uint64:
    return np.uint64(patterns.transform_board(np.uint64(bits), transform))


def random_tables(seed: int) -> np.ndarray:
    """Tables where indices that share a weight have equal values, the rest at random."""
    rng = np.random.default_rng(seed)
    values = rng.integers(-400, 400, size=(patterns.PHASES, patterns.TABLE_SIZE))
    return values[:, patterns.shared_indices()].astype(np.int16)


@pytest.mark.parametrize("transform", patterns.TRANSFORMS)
def test_board_transforms_move_each_square_as_the_square_map_says(transform: int) -> None:
    rng = random.Random(transform)
    for _ in range(50):
        bits = rng.getrandbits(64)
        moved = sum(1 << patterns.square_map(transform, s) for s in range(64) if bits >> s & 1)
        assert int(patterns.transform_board(np.uint64(bits), transform)) == moved


def test_the_instances_cover_each_pattern_in_every_orientation() -> None:
    counts = [sum(p == k for p, _ in patterns.INSTANCES) for k in range(len(patterns.PATTERNS))]
    # edge+2X, 3x3 corner: 4; 2x5 corner: 8 (both orientations); rows 2-4: 4; diagonals
    # of 8: 2, of 7 to 4: 4 each.
    assert counts == [4, 4, 8, 4, 4, 4, 2, 4, 4, 4, 4]
    assert len(patterns.INSTANCES) + 2 == patterns.N_FEATURES


def test_the_kernel_indices_match_the_square_by_square_reference() -> None:
    rng = random.Random(7)
    boards = [random_discs(rng) for _ in range(150)] + [game_discs(seed) for seed in range(150)]
    out = np.empty(patterns.N_FEATURES, dtype=np.int64)
    for player, opponent in boards:
        patterns.feature_indices(np.uint64(player), np.uint64(opponent), out)
        assert out.tolist() == reference_indices(player, opponent)


def test_a_pattern_index_reads_the_squares_in_their_listed_order() -> None:
    # a1 own, b1 the other side, the rest of the edge+2X empty: digits 1, 2 -> 1 + 2 * 3
    out = np.empty(patterns.N_FEATURES, dtype=np.int64)
    patterns.feature_indices(np.uint64(1 << 0), np.uint64(1 << 1), out)
    edge = patterns.PATTERN_OFFSETS[patterns.EDGE_2X]
    assert edge + 1 + 2 * 3 in out.tolist()


def test_shared_indices_join_a_row_and_its_mirror_image() -> None:
    row = patterns.PATTERNS[patterns.ROW_2]
    shared = patterns.symmetric_indices(row)
    own_first = 1  # b1 own, rest empty; its mirror has the disc on the last digit
    assert shared[own_first] == shared[3**7] == 1
    corner = patterns.symmetric_indices(patterns.PATTERNS[patterns.CORNER_2X5])
    assert (corner == np.arange(3**10)).all()  # no symmetry maps the 2x5 block onto itself


@pytest.mark.parametrize("weights", ["random", "strong"])
def test_the_evaluation_is_the_same_for_the_eight_symmetric_positions(weights: str) -> None:
    vector = pattern_weights(random_tables(3)) if weights == "random" else STRONG_WEIGHTS
    rng = random.Random(11)
    boards = [random_discs(rng) for _ in range(60)] + [game_discs(seed) for seed in range(60)]
    for player, opponent in boards:
        values = {
            int(evaluate(symmetric(player, t), symmetric(opponent, t), ZERO, 0, vector))
            for t in patterns.TRANSFORMS
        }
        assert len(values) == 1, (player, opponent, values)


def test_the_value_is_the_sum_of_the_phase_weights_of_the_features() -> None:
    tables = random_tables(5)
    vector = pattern_weights(tables)
    for seed in range(40):
        player, opponent = game_discs(seed)
        phase = patterns.phase_of(64 - (player | opponent).bit_count())
        expected = sum(int(tables[phase, i]) for i in reference_indices(player, opponent))
        assert evaluate(np.uint64(player), np.uint64(opponent), ZERO, 0, vector) == expected


def test_walls_and_anti_reversi_without_tables_get_the_hand_written_evaluation() -> None:
    vector = pattern_weights(random_tables(1))
    player, opponent = game_discs(4)
    p, o, walls = np.uint64(player), np.uint64(opponent), np.uint64(1 << 63)
    assert evaluate(p, o, ZERO, 1, vector) == hand_evaluate(p, o, ZERO, 1, HAND_WEIGHTS)
    assert evaluate(p, o, walls, 0, vector) == hand_evaluate(p, o, walls, 0, HAND_WEIGHTS)
    with_anti = pattern_weights(random_tables(1), random_tables(2))
    assert evaluate(p, o, ZERO, 1, with_anti) != evaluate(p, o, ZERO, 0, with_anti)


def test_the_trained_evaluation_likes_corners() -> None:
    # after f5 d6 c3 d3 c4 f4 f6 f3 e6 e7, a corner for the side to move is worth discs
    board = Board.from_moves(None, ["f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3", "e6", "e7"])
    position = Position.of(board)
    with_corner = Position(position.player | np.uint64(1), position.opponent, ZERO, False)
    assert with_corner.evaluate(STRONG_WEIGHTS) > position.evaluate(STRONG_WEIGHTS) + 100
