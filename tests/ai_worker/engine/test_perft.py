"""Perft of standard 8x8 reversi against the published counts."""

import pytest

from ai_worker.engine import Board

STANDARD_PERFT = (1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284)


@pytest.mark.parametrize("depth", range(8))
def test_standard_perft(depth: int) -> None:
    assert Board().perft(depth) == STANDARD_PERFT[depth]


@pytest.mark.slow
@pytest.mark.parametrize("depth", [8, 9])
def test_standard_perft_deep(depth: int) -> None:
    assert Board().perft(depth) == STANDARD_PERFT[depth]


def test_perft_leaves_the_board_untouched() -> None:
    board = Board.from_moves(None, ["f5", "d6"])
    before = board.to_text()
    assert board.perft(4) == Board.from_moves(None, ["f5", "d6"]).perft(4)
    assert board.to_text() == before
    assert [str(move) for move in board.move_stack] == ["f5", "d6"]
