"""A search's deadline runs on a chosen clock: wall time for players, the searching thread's CPU
time where a budget must mean the same work on a loaded machine (tests, benchmarks)."""

import time

import pytest
from numba import njit

from ai_worker.engine import Board
from ai_worker.fast.api import Searcher, SearchTables
from ai_worker.fast.intrinsics import clock_ns
from ai_worker.fast.searchstate import WALL_CLOCK
from ai_worker.search import CPU_CLOCK, choose_move


@njit(cache=True)
def _kernel_clock(clock: int) -> int:
    return clock_ns(clock)


@pytest.mark.parametrize("clock", [WALL_CLOCK, CPU_CLOCK])
def test_the_kernels_read_the_clock_python_reads(clock: int) -> None:
    _kernel_clock(clock)  # compile first
    before = time.clock_gettime_ns(clock)
    inside = _kernel_clock(clock)
    after = time.clock_gettime_ns(clock)
    assert before <= inside <= after


def test_time_the_thread_does_not_run_is_not_spent_on_a_cpu_clock() -> None:
    tables = SearchTables(10, 10, 10)
    on_the_wall = Searcher(time.clock_gettime_ns(WALL_CLOCK) + 50_000_000, tables)
    on_the_cpu = Searcher(time.clock_gettime_ns(CPU_CLOCK) + 50_000_000, tables, CPU_CLOCK)
    time.sleep(0.2)
    assert (on_the_wall.out_of_time(), on_the_cpu.out_of_time()) == (True, False)


def test_a_cpu_clock_search_stops_at_its_budget_of_cpu_time() -> None:
    board = Board()
    choose_move(board, "strong", time_limit=0.01, clock=CPU_CLOCK)  # compile or load first
    started = time.thread_time()
    result = choose_move(board, "strong", time_limit=0.3, clock=CPU_CLOCK)
    spent = time.thread_time() - started
    assert result.depth >= 1
    assert 0.25 <= spent <= 0.6
