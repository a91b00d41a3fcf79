"""The exact solver gives the final disc difference of perfect play."""

import time

import numpy as np
import pytest

from ai_worker.engine import PASS, Board, Variant
from ai_worker.fast import endgame
from ai_worker.fast.geometry import bitboards_of
from ai_worker.fast.searchstate import BEST, new_stats, new_table
from benchmarks.ffo import read_ffo
from tests.ai_worker.search.conftest import random_endgame


def brute_force(board: Board) -> int:
    """Final disc difference for the side to move under perfect play, by plain minimax over
    the pure engine (the tournament count: empties to the winner, none in anti-reversi)."""
    outcome = board.outcome()
    if outcome is not None:
        me = board.turn
        if board.variant.anti:  # fewer discs is better
            return outcome.discs[1 - me] - outcome.discs[me]
        return outcome.tournament[me] - outcome.tournament[1 - me]
    best = -1000
    for move in board.legal_moves:
        board.push(move)
        value = -brute_force(board)
        board.pop()
        best = max(best, value)
    return best


def solve(board: Board, seconds: float = 60.0) -> tuple[int, int]:
    """(exact score, best square) from the numba solver."""
    p, o, w = bitboards_of(board.rows(), board.turn)
    stats = new_stats(time.monotonic_ns() + int(seconds * 1e9))
    score = endgame.solve_root(
        p, o, w, int(board.variant.anti), -64, 64, stats, new_table(16), new_table(12)
    )
    assert not stats[1], "the solver ran out of time"
    return int(score), int(stats[BEST])


@pytest.mark.parametrize("seed", range(8))
def test_solver_matches_brute_force_minimax(seed: int) -> None:
    variant = [Variant(), Variant(anti=True), Variant(blocked=("a1", "d7"))][seed % 3]
    board = random_endgame(variant, 7, seed)
    if board.legal_moves == [PASS]:
        board.push(PASS)
    assert solve(board)[0] == brute_force(board)


@pytest.mark.parametrize("number", [1, 2, 3, 20, 21, 40])
def test_ffo_positions_are_solved_exactly(number: int) -> None:
    position = read_ffo(number)
    board, expected = position.board, position.score
    score, square = solve(board)
    assert score == expected
    best = board.copy()
    best.push(best.legal_moves[[m.row * 8 + m.col for m in best.legal_moves].index(square)])
    assert solve(best)[0] == -expected


@pytest.mark.slow
@pytest.mark.parametrize("number", range(41, 45))
def test_hard_ffo_positions_are_solved_exactly(number: int) -> None:
    position = read_ffo(number)
    board, expected = position.board, position.score
    assert solve(board, 300)[0] == expected


def test_solver_stops_at_its_deadline() -> None:
    board = read_ffo(45).board
    p, o, w = bitboards_of(board.rows(), board.turn)
    stats = new_stats(time.monotonic_ns() + 50_000_000)
    started = time.monotonic()
    endgame.solve_root(p, o, w, 0, -64, 64, stats, new_table(16), new_table(12))
    assert stats[1] == 1
    assert time.monotonic() - started < 0.5
    assert np.int64(stats[0]) > 0
