"""The transposition tables a worker keeps between searches: reused, aged, bounded."""

import numpy as np

from ai_worker.engine import Variant
from ai_worker.fast.api import SearchTables
from ai_worker.fast.searchstate import (
    EXACT,
    entry_depth,
    entry_lower,
    entry_selectivity,
    entry_square,
    entry_upper,
    new_table,
    probe,
    store,
)
from ai_worker.search import analyse, choose_move, solve_endgame, worker_tables
from benchmarks.ffo import read_ffo
from tests.ai_worker.search.conftest import random_endgame, random_position


def test_a_kept_table_answers_two_plies_after_a_solve() -> None:
    board = read_ffo(40).board
    tables = SearchTables()
    first = solve_endgame(board, time_limit=120, tables=tables)
    assert first is not None
    assert len(first.pv) >= 2
    for move in first.pv[:2]:
        board.push(move)
    kept = solve_endgame(board, time_limit=120, tables=tables)
    fresh = solve_endgame(board, time_limit=120, tables=SearchTables())
    assert kept is not None
    assert fresh is not None
    assert kept.score == fresh.score == first.score
    assert kept.nodes * 1000 < fresh.nodes, (kept.nodes, fresh.nodes)


def test_strong_keeps_the_worker_tables_from_move_to_move() -> None:
    board = random_endgame(Variant(), 16, seed=41)  # no other test searches it
    first = choose_move(board, "strong", time_limit=30)
    assert first.exact
    for move in first.pv[:2]:
        board.push(move)
    tables = worker_tables()
    again = choose_move(board, "strong", time_limit=30)
    assert worker_tables() is tables
    assert again.exact
    assert again.score == first.score
    assert again.nodes * 20 < first.nodes, (again.nodes, first.nodes)


def test_the_generic_search_keeps_its_table_between_searches() -> None:
    """10x10 and 3 players (the cell-array kernels): a search repeated over the kept table
    gives the same values from a small fraction of the nodes."""
    for variant, plies in ((Variant(board="10x10"), 20), (Variant(players=3), 14)):
        board = random_position(variant, plies, seed=5)
        first = analyse(board, max_depth=4, exact=False, time_limit=300)
        again = analyse(board, max_depth=4, exact=False, time_limit=300)
        assert first.depth == again.depth == 4
        assert again.moves == first.moves
        assert again.nodes * 10 < first.nodes, (variant, again.nodes, first.nodes)


def test_entries_of_older_searches_are_replaced_first() -> None:
    table = new_table(4)
    p, o = np.uint64(0x0000000810000000), np.uint64(0x0000001008000000)
    row = probe(p, o, table)
    assert row == -1
    store(p, o, table, -5, 5, 19, 30, 1, EXACT)  # a deep entry of search 1
    bucket_mate = next(
        (np.uint64(q), o)
        for q in range(1, 1 << 20)
        if probe(np.uint64(q), o, table) == -1 and _same_bucket(table, p, np.uint64(q), o)
    )
    store(*bucket_mate, table, 0, 0, 20, 3, 2, EXACT)  # search 2, shallow: the bucket is full
    newcomer = next(
        np.uint64(q)
        for q in range(1 << 20, 1 << 22)
        if _same_bucket(table, p, np.uint64(q), o) and probe(np.uint64(q), o, table) == -1
    )
    store(newcomer, o, table, 1, 1, 21, 2, 2, EXACT)  # shallower still, also of search 2
    kept = probe(newcomer, o, table)
    assert kept >= 0
    assert entry_depth(table, kept) == 2
    assert probe(*bucket_mate, table) >= 0  # search 2's entry stays
    assert probe(p, o, table) == -1  # the deep entry of the older search went
    assert table.shape == (16, 3)  # the table never grows


def test_a_selective_entry_never_replaces_a_more_exact_one_of_its_position() -> None:
    """A selective solve's bounds go over its own earlier ones, not over an exact solve's
    (the exact search that follows would lose them)."""
    table = new_table(4)
    p, o = np.uint64(0x0000000810000000), np.uint64(0x0000001008000000)
    store(p, o, table, -4, 8, 19, 20, 1, 0)
    row = probe(p, o, table)
    assert (entry_selectivity(table, row), entry_lower(table, row)) == (0, -4)
    store(p, o, table, 2, 2, 19, 20, 1, EXACT)
    store(p, o, table, -10, 10, 26, 20, 2, 1)
    row = probe(p, o, table)
    assert entry_selectivity(table, row) == EXACT
    assert (entry_lower(table, row), entry_upper(table, row), entry_square(table, row)) == (
        2,
        2,
        19,
    )


def _same_bucket(table: np.ndarray, p: np.uint64, q: np.uint64, o: np.uint64) -> bool:
    """Whether two positions share a bucket (an empty table stores either in its first
    row)."""
    probe_table = np.zeros_like(table)
    store(p, o, probe_table, 0, 0, 0, 0, 1, EXACT)
    store(q, o, probe_table, 0, 0, 0, 0, 1, EXACT)
    row_p, row_q = probe(p, o, probe_table), probe(q, o, probe_table)
    return row_p >= 0 and row_q >= 0 and row_p // 2 == row_q // 2
