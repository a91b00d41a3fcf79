"""choose_move: legal moves at every level in every variant, deadlines, seeds, exactness."""

import time

import pytest

from ai_worker.engine import PASS, Board, Variant
from ai_worker.levels import STRONG
from ai_worker.search import CPU_CLOCK, LEVELS, SearchResult, choose_move
from tests.ai_worker.search.conftest import random_endgame, random_position
from tests.ai_worker.search.test_endgame import brute_force


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legal_moves_in_every_variant(variant: Variant, level: str) -> None:
    for plies in (0, Board(variant).empties() // 2):
        board = random_position(variant, plies, seed=plies)
        result = choose_move(board, level, time_limit=0.1, seed=3)
        assert isinstance(result, SearchResult)
        assert board.is_legal(result.move)
        assert result.pv[0] == result.move


def test_a_forced_pass_comes_back_at_once() -> None:
    text = Board().to_text().splitlines()[:4]
    rows = ["XXXXXXXX"] * 3 + ["XXXXXXX-", "XXXXXX--", "XXXXXXXO"] + ["XXXXXXXX"] * 2
    text[1] = "turn: white"
    board = Board.from_text("\n".join(text + rows))
    assert board.legal_moves == [PASS]
    result = choose_move(board, "strong")
    assert result.move == PASS
    assert result.elapsed < 0.05


def test_a_finished_game_has_no_move() -> None:
    board = random_position(Variant(board="6x6"), 200, seed=1)
    assert board.is_game_over()
    with pytest.raises(ValueError, match="over"):
        choose_move(board, "normal")


@pytest.mark.parametrize(
    "variant", [Variant(), Variant(board="10x10"), Variant(players=4, board="octagon")]
)
def test_the_deadline_is_honoured(variant: Variant) -> None:
    board = random_position(variant, 20, seed=5)
    choose_move(board, "strong", time_limit=0.05)  # compile or load the kernels first
    for limit in (0.001, 0.3):
        # The search's CPU time (its own clock): a loaded machine's scheduling is not the
        # engine's to honour.
        started = time.thread_time()
        result = choose_move(board, "strong", time_limit=limit, clock=CPU_CLOCK)
        assert time.thread_time() - started < limit + 0.15
        assert board.is_legal(result.move)


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_a_seed_replays_the_same_game(level: str) -> None:
    def game(seed: int) -> list[str]:
        board = Board(Variant(board="6x6"))
        while not board.is_game_over():
            board.push(choose_move(board, level, seed=seed + board.ply).move)
        return [str(m) for m in board.move_stack]

    assert game(11) == game(11)
    assert len({tuple(game(s)) for s in (1, 2, 3, 4)}) > 1


@pytest.mark.parametrize("seed", range(4))
def test_normal_and_strong_play_perfectly_near_the_end(seed: int) -> None:
    board = random_endgame(Variant(anti=seed % 2 == 1), 8, seed)
    if board.legal_moves == [PASS]:
        board.push(PASS)
    best = brute_force(board)
    for level in ("normal", "strong"):
        result = choose_move(board, level, seed=seed)
        assert result.exact
        assert result.score == best
        after = board.copy()
        after.push(result.move)
        assert -brute_force(after) == best


def test_generic_exact_solve_on_a_small_board() -> None:
    board = random_endgame(Variant(board="6x6"), 8, seed=2)
    if board.legal_moves == [PASS]:
        board.push(PASS)
    result = choose_move(board, "normal", seed=0)
    assert result.exact
    assert result.score == brute_force(board)


@pytest.mark.parametrize("variant", [Variant(), Variant(board="10x10")], ids=["8x8", "10x10"])
def test_strong_stops_at_its_max_depth(variant: Variant) -> None:
    board = random_position(variant, 20, seed=5)
    result = choose_move(board, STRONG, time_limit=3600, seed=0, max_depth=3)
    assert result.depth == 3
    with pytest.raises(ValueError, match="max_depth"):
        choose_move(board, STRONG, max_depth=0)
