"""analyse: the value of every legal move, exact near the end, honest about its depth."""

import time

import pytest

from ai_worker.engine import PASS, Board, Variant
from ai_worker.search import CPU_CLOCK, analyse, choose_move
from benchmarks.ffo import read_ffo
from tests.ai_worker.search.conftest import random_endgame, random_position
from tests.ai_worker.search.test_endgame import brute_force


@pytest.mark.parametrize("number", [1, 5, 20])
def test_every_move_of_an_ffo_position_gets_its_exact_value(number: int) -> None:
    position = read_ffo(number)
    analysis = analyse(position.board, time_limit=30)
    assert analysis.exact
    assert analysis.depth == position.board.empties()
    assert {m.move: m.score for m in analysis.moves} == position.move_values
    assert [m.score for m in analysis.moves] == sorted(position.move_values.values(), reverse=True)


@pytest.mark.parametrize("variant", [Variant(board="6x6"), Variant(anti=True)])
def test_exact_values_match_minimax(variant: Variant) -> None:
    board = random_endgame(variant, 7, seed=3)
    if board.legal_moves == [PASS]:
        board.push(PASS)
    analysis = analyse(board, time_limit=30)
    assert analysis.exact
    for scored in analysis.moves:
        after = board.copy()
        after.push(scored.move)
        assert scored.score == -brute_force(after)


def test_a_depth_limit_gives_evaluations_to_that_depth() -> None:
    board = Board.from_moves(None, ["f5", "d6", "c3", "d3", "c4"])
    analysis = analyse(board, time_limit=30, max_depth=3)
    assert (analysis.depth, analysis.exact) == (3, False)
    assert [m.move for m in analysis.moves] != []
    assert len(analysis.moves) == len(board.legal_moves)
    assert {m.move for m in analysis.moves} == set(board.legal_moves)
    assert all(not m.exact for m in analysis.moves)
    strong = choose_move(board, "strong", time_limit=0.5)
    assert abs(strong.score - analysis.moves[0].score) < 20


def test_the_deadline_is_honoured_and_the_depth_reported() -> None:
    board = random_position(Variant(), 20, seed=4)
    analyse(board, time_limit=0.05)  # compile or load the kernels first
    started = time.thread_time()  # the search's own clock, steady on a loaded machine
    analysis = analyse(board, time_limit=0.3, clock=CPU_CLOCK)
    assert time.thread_time() - started < 0.45
    assert not analysis.exact
    assert analysis.depth >= 1
    assert len(analysis.moves) == len(board.legal_moves)


@pytest.mark.parametrize(
    "variant", [Variant(board="10x10"), Variant(players=3), Variant(board="octagon")]
)
def test_every_variant_is_analysed(variant: Variant) -> None:
    board = random_position(variant, 10, seed=2)
    analysis = analyse(board, time_limit=0.3)
    assert [m.move for m in analysis.moves] != []
    assert len(analysis.moves) == len(board.legal_moves)
    assert {m.move for m in analysis.moves} == set(board.legal_moves)
    assert analysis.depth >= 1


def test_a_forced_pass_is_scored_by_the_reply() -> None:
    text = Board().to_text().splitlines()[:4]
    rows = ["XXXXXXXX"] * 3 + ["XXXXXXX-", "XXXXXX--", "XXXXXXXO"] + ["XXXXXXXX"] * 2
    text[1] = "turn: white"
    board = Board.from_text("\n".join(text + rows))
    analysis = analyse(board)
    assert [m.move for m in analysis.moves] == [PASS]
    after = board.copy()
    after.push(PASS)
    assert analysis.moves[0].score == -brute_force(after) == brute_force(board)


def test_a_finished_game_cannot_be_analysed() -> None:
    board = random_position(Variant(board="6x6"), 200, seed=1)
    with pytest.raises(ValueError, match="over"):
        analyse(board)
