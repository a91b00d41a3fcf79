"""The 8x8 midgame search against plain negamax, and its enhanced transposition cutoff."""

import numpy as np
import pytest

from ai_worker.engine import Variant
from ai_worker.fast.api import NO_CUTS, Position, Searcher, SearchTables
from ai_worker.fast.evaluation import INF, terminal_score
from ai_worker.fast.midgame import etc_cut
from ai_worker.fast.searchstate import EXACT, new_table, store
from ai_worker.search import STRONG_WEIGHTS
from tests.ai_worker.search.conftest import random_position


def negamax(position: Position, depth: int) -> int:
    """The ``depth``-ply value by plain negamax over every move (a pass is not a ply)."""
    squares = position.legal_squares()
    if not squares:
        if not position.passed().legal_squares():
            p = position
            return int(terminal_score(p.player, p.opponent, p.walls, int(p.anti)))
        return -negamax(position.passed(), depth)
    if depth == 0:
        return position.evaluate(STRONG_WEIGHTS)
    return max(-negamax(position.play(square), depth - 1) for square in squares)


@pytest.mark.parametrize("seed", range(2))
def test_iterative_deepening_finds_the_negamax_value(seed: int) -> None:
    """Every ply adds a disc, so within a search a position always has the same depth left:
    the table's cutoffs (the ETC's among them, from ``ETC_DEPTH``), the shallower entries of
    the iterations before and the move order change nothing to the value."""
    position = Position.of(random_position(Variant(), 24 + seed, seed=seed))
    searcher = Searcher(1 << 62, SearchTables(16, 16, 12, 16))
    for depth in range(1, 6):
        found = searcher.midgame(position, depth, weights=STRONG_WEIGHTS, cuts=NO_CUTS)
    assert found == negamax(position, 5)


def test_a_child_s_upper_bound_cuts_its_parent() -> None:
    position = Position.of(random_position(Variant(), 20, seed=7))
    square = position.legal_squares()[0]
    child = position.play(square)
    table = new_table(8)
    moves = np.uint64(sum(1 << s for s in position.legal_squares()))
    args = (position.player, position.opponent, position.walls, moves, table)
    assert etc_cut(*args, 5, 100) == -INF
    store(child.player, child.opponent, table, -INF, -150, 64, 3, 1, EXACT)
    assert etc_cut(*args, 5, 100) == -INF  # stored too shallow for a 4-ply child
    store(child.player, child.opponent, table, -INF, -150, 64, 4, 1, EXACT)
    assert etc_cut(*args, 5, 100) == 150
    assert etc_cut(*args, 5, 151) == -INF  # not enough for that window
