"""Perft of standard 8x8 reversi against the published counts."""

import random

import pytest

from ai_worker.engine import Board, Variant
from tests.ai_worker.engine.naive import NaiveGame
from tests.ai_worker.engine.variants import ALL_VARIANTS

STANDARD_PERFT = (1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284)


@pytest.mark.parametrize("depth", range(9))
def test_standard_perft(depth: int) -> None:
    assert Board().perft(depth) == STANDARD_PERFT[depth]


@pytest.mark.slow
@pytest.mark.parametrize("depth", [9, 10])
def test_standard_perft_deep(depth: int) -> None:
    assert Board().perft(depth) == STANDARD_PERFT[depth]


def test_perft_leaves_the_board_untouched() -> None:
    board = Board.from_moves(None, ["f5", "d6"])
    before = board.to_text()
    assert board.perft(4) == Board.from_moves(None, ["f5", "d6"]).perft(4)
    assert board.to_text() == before
    assert [str(move) for move in board.move_stack] == ["f5", "d6"]


VARIANT_DEPTHS = [
    (Variant(board="6x6"), 6),
    (Variant(board="10x10"), 6),
    (Variant(board="octagon"), 6),
    (Variant(opening="parallel"), 6),
    (Variant(opening="free"), 8),
    (Variant(board="6x6", opening="free", anti=True), 7),
    (Variant(blocked=("c4", "d3", "f6", "e7", "b2")), 6),
    (Variant(handicap=4), 5),
    (Variant(board="6x6", handicap=2, handicap_color="white"), 6),
    (Variant(players=3), 6),
    (Variant(players=4, anti=True), 5),
    (Variant(players=3, board="octagon", blocked=("c3", "h8", "e3")), 5),
    (Variant(players=4, board="10x10"), 5),
]


@pytest.mark.parametrize(("variant", "depth"), VARIANT_DEPTHS, ids=str)
def test_variant_perft_matches_the_naive_reference(variant: Variant, depth: int) -> None:
    assert Board(variant).perft(depth) == NaiveGame.start(variant).perft(depth)


@pytest.mark.parametrize("seed", range(24))
def test_late_positions_match_the_naive_reference(seed: int) -> None:
    """Near the end passes, adjacency placements and game ends show up in the tree."""
    variant = ALL_VARIANTS[seed % len(ALL_VARIANTS)]
    generator = random.Random(seed)
    board = Board(variant)
    while board.empties() > 7 and board.legal_moves:
        board.push(generator.choice(board.legal_moves))
    naive = NaiveGame.start(variant)
    for move in board.move_stack:
        naive = naive.play(str(move))
    assert board.perft(5) == naive.perft(5)
