"""The exact solver gives the final disc difference of perfect play."""

import random
import time

import pytest

from ai_worker.engine import PASS, Board, Move, Variant
from ai_worker.engine.records import read_obf
from ai_worker.fast.api import Position, Searcher, SearchTables
from ai_worker.fast.endgame import SELECTIVE_SIGMAS
from ai_worker.fast.lastflip import count_last_flips
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


def solve(board: Board, seconds: float = 60.0) -> tuple[int, int | None]:
    """(exact score, best square) from the numba solver, with fresh tables."""
    searcher = Searcher(time.monotonic_ns() + int(seconds * 1e9), SearchTables(16, 16, 12))
    solved = searcher.exact_root(Position.of(board))
    assert solved is not None, "the solver ran out of time"
    return solved


@pytest.mark.parametrize("seed", range(8))
def test_solver_matches_brute_force_minimax(seed: int) -> None:
    variant = [Variant(), Variant(anti=True), Variant(blocked=("a1", "d7"))][seed % 3]
    board = random_endgame(variant, 7, seed)
    if board.legal_moves == [PASS]:
        board.push(PASS)
    assert solve(board)[0] == brute_force(board)


def test_last_square_flip_counts_match_the_rules_engine() -> None:
    """The table count of the last empty square's flips, on random full boards, is the
    number of discs the pure-Python engine flips there (for either side)."""
    rng = random.Random(12)
    checked = 0
    for _ in range(400):
        square = rng.randrange(64)
        cells = [rng.choice("XO") for _ in range(64)]
        cells[square] = "-"
        for mover in "XO":
            board = read_obf("".join(cells) + " " + mover)
            move = Move(square % 8, square // 8)
            legal = move in board.legal_moves
            expected = len(board.flips_for(move)) if legal else 0
            assert count_last_flips(Position.of(board).player, square) == expected
            checked += legal
    assert checked > 100  # most squares flip something


@pytest.mark.parametrize("empties", [1, 2, 3, 4, 5])
def test_small_solvers_match_brute_force_minimax(empties: int) -> None:
    """The unrolled 1-4-empty solvers and the 5-6-empty loop, on boards with and without
    walls, in reversi and anti-reversi."""
    for seed in range(12):
        variant = [Variant(), Variant(anti=True), Variant(blocked=("b2", "g6"))][seed % 3]
        board = random_endgame(variant, empties, 100 * empties + seed)
        if board.legal_moves == [PASS]:
            board.push(PASS)
        assert solve(board)[0] == brute_force(board), (variant, seed)


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
    """FFO #45 takes minutes to solve; under a 50 ms deadline the solver gives up within a
    fraction of a second of work (its thread's CPU time: a loaded machine stretches the wall
    time the thread waits for a core, not the work)."""
    warm = Searcher(time.monotonic_ns() + 60 * 10**9, SearchTables(16, 16, 12))
    assert warm.exact_root(Position.of(read_ffo(20).board)) is not None  # kernels loaded
    searcher = Searcher(time.monotonic_ns() + 50_000_000, SearchTables(16, 16, 12))
    started = time.thread_time()
    assert searcher.exact_root(Position.of(read_ffo(45).board)) is None
    assert time.thread_time() - started < 0.5
    assert searcher.nodes > 0


def test_a_solve_stopped_by_its_deadline_still_names_a_root_move() -> None:
    """strong solves 20 empties exactly with nothing searched before; when the solve does not
    finish, its move is the one the solve rated best so far (the first of its move order
    until a root move is proved better), not a static guess."""
    position = Position.of(read_ffo(26).board)
    searcher = Searcher(time.monotonic_ns() + 50_000_000, SearchTables(16, 16, 12))
    assert searcher.exact_root(position) is None
    assert searcher.root_best(position) in position.legal_squares()


def test_a_call_after_an_aborted_one_searches_afresh() -> None:
    """An aborted call (strong's first parts stop at their share of the time) leaves no
    abort behind: the next call under a later deadline solves (issue 12's bug)."""
    searcher = Searcher(time.monotonic_ns() + 20_000_000, SearchTables(16, 16, 12))
    assert searcher.exact_root(Position.of(read_ffo(45).board)) is None
    searcher.deadline_ns = time.monotonic_ns() + 60 * 10**9
    position = read_ffo(20)
    solved = searcher.exact_root(Position.of(position.board))
    assert solved is not None
    assert solved[0] == position.score


def test_selective_solves_cut_and_the_exact_solve_after_them_trusts_none_of_their_bounds() -> None:
    """Each selective level searches fewer nodes than the exact solve and lands near its
    value; the exact solve that follows on the same tables is exact all the same (it takes
    only the selective entries' best squares, issue 12's selective endgame)."""
    from ai_worker.search import STRONG_ENDCUTS, STRONG_WEIGHTS

    for number in (13, 22, 23):
        position = read_ffo(number)
        start = Position.of(position.board)
        fresh = Searcher(time.monotonic_ns() + 600 * 10**9, SearchTables(16, 20, 16))
        assert fresh.exact(start, weights=STRONG_WEIGHTS) == position.score
        exact_nodes = fresh.nodes
        searcher = Searcher(time.monotonic_ns() + 600 * 10**9, SearchTables(16, 20, 16))
        for level in range(len(SELECTIVE_SIGMAS)):
            before = searcher.nodes
            value = searcher.exact(
                start, weights=STRONG_WEIGHTS, cuts=STRONG_ENDCUTS, selectivity=level
            )
            assert value is not None
            assert abs(value - position.score) <= 16, (number, level)
            assert searcher.nodes - before < exact_nodes, (number, level)
        assert searcher.exact(start, weights=STRONG_WEIGHTS) == position.score


def test_a_selectivity_must_be_a_level_or_exact() -> None:
    searcher = Searcher(time.monotonic_ns() + 10**9, SearchTables(16, 16, 12))
    with pytest.raises(ValueError, match="selectivity"):
        searcher.exact(Position.of(read_ffo(1).board), selectivity=len(SELECTIVE_SIGMAS))
