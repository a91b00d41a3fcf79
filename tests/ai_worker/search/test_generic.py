"""The generic kernels' evaluation features and board tables against slow Python counts over
the drawn board, their table keys, and the choice of weights per variant."""

import numpy as np
import pytest

from ai_worker.engine import Variant
from ai_worker.fast import generic
from ai_worker.fast.geometry import (
    CELLS,
    CORNER_ROWS,
    CORNERS,
    DIRECTIONS,
    EDGES,
    FIRST_CORNER,
    Geometry,
    discs_of,
    geometry_of,
)
from ai_worker.linear_weights import load_linear_weights, set_name
from ai_worker.search import GENERIC_WEIGHTS, HAND_ONLY_SETS, _generic_weights
from ai_worker.training.linear import SETS
from tests.ai_worker.search.conftest import random_position

DISC_CHARS = "XORGN"


def cells_in(g: Geometry, row: int) -> set[tuple[int, int]]:
    """The (col, row) cells of a mask row of ``g``."""
    bits = int(g.masks[row, 0]) | int(g.masks[row, 1]) << 64
    return {(b % g.stride, b // g.stride) for b in range(128) if bits >> b & 1}


def reference_features(rows: list[str], g: Geometry, root: int, player: int, n: int) -> list:
    """``generic.features`` counted cell by cell over the drawn rows."""
    height, width = len(rows), len(rows[0])

    def at(col: int, row: int) -> str:
        return rows[row][col] if 0 <= col < width and 0 <= row < height else " "

    def flips_something(col: int, row: int, q: int) -> bool:
        for dc, dr in DIRECTIONS:
            c, r, between = col + dc, row + dr, 0
            while at(c, r) in DISC_CHARS and at(c, r) != DISC_CHARS[q]:
                c, r, between = c + dc, r + dr, between + 1
            if between and at(c, r) == DISC_CHARS[q]:
                return True
        return False

    empty = {(c, r) for r in range(height) for c in range(width) if at(c, r) == "-"}
    open_corners = [
        k for k in range(FIRST_CORNER, g.masks.shape[0], CORNER_ROWS) if cells_in(g, k) & empty
    ]
    x_squares = set().union(*(cells_in(g, k + 1) for k in open_corners))
    c_squares = set().union(*(cells_in(g, k + 2) for k in open_corners))
    per_colour = []
    for q in range(n):
        mine = {(c, r) for r in range(height) for c in range(width) if at(c, r) == DISC_CHARS[q]}
        frontier = {
            (c, r) for c, r in mine if any((c + dc, r + dr) in empty for dc, dr in DIRECTIONS)
        }
        per_colour.append([
            len(mine),
            len(mine & cells_in(g, CORNERS)),
            len(mine & x_squares),
            len(mine & c_squares),
            len(mine & cells_in(g, EDGES)),
            sum(flips_something(c, r, q) for c, r in empty),
            len(frontier),
        ])  # fmt: skip
    rivals = [q for q in range(n) if q != root]
    found = [
        per_colour[root][j] - sum(per_colour[q][j] for q in rivals) / len(rivals) for j in range(7)
    ]
    side = 1 if player == root else -1
    parity = side if n == 2 and len(empty) % 2 else 0
    return [*found, parity, side]


@pytest.mark.parametrize("seed", range(3))
def test_features_match_a_cell_by_cell_count(variant: Variant, seed: int) -> None:
    board = random_position(variant, 6 + 14 * seed, seed)
    rows = board.rows()
    g = geometry_of(rows)
    discs = discs_of(rows)
    out = np.empty(generic.N_FEATURES)
    n = variant.players
    for root in range(n):
        generic.features(discs, g.masks, g.shifts, root, board.turn, n, out)
        assert out.tolist() == pytest.approx(reference_features(rows, g, root, board.turn, n))


def test_board_tables_of_the_10x10_board_and_the_octagon() -> None:
    square = geometry_of(random_position(Variant(board="10x10"), 0, 0).rows())
    assert cells_in(square, CORNERS) == {(0, 0), (9, 0), (0, 9), (9, 9)}
    assert len(cells_in(square, CELLS)) == 100
    assert len(cells_in(square, EDGES)) == 36 - 4 - 8  # the edge less corners and C squares
    top_left = FIRST_CORNER  # the corners in cell order: (0, 0) first
    assert cells_in(square, top_left + 1) == {(1, 1)}
    assert cells_in(square, top_left + 2) == {(1, 0), (0, 1)}
    octagon = geometry_of(random_position(Variant(board="octagon"), 0, 0).rows())
    assert len(cells_in(octagon, CELLS)) == 100 - 4 * 3  # each cut: a corner and its sides
    # each cut corner leaves two corners at the ends of its diagonal edge
    assert {(2, 0), (0, 2), (7, 0), (9, 2)} <= cells_in(octagon, CORNERS)
    assert len(cells_in(octagon, CORNERS)) == 8


def test_table_keys_tell_positions_sides_and_layouts_apart() -> None:
    board = random_position(Variant(players=3), 10, seed=1)
    rows = board.rows()
    g = geometry_of(rows)
    discs = discs_of(rows)
    keys = generic.position_keys(discs, g.masks, 0, 0, 3, 0)
    assert generic.position_keys(discs.copy(), g.masks, 0, 0, 3, 0) == keys
    others = {
        generic.position_keys(discs, g.masks, 1, 0, 3, 0),  # another side to move
        generic.position_keys(discs, g.masks, 0, 1, 3, 0),  # another searching side
        generic.position_keys(discs, g.masks, 0, 0, 3, 1),  # anti-reversi
    }
    moved = discs.copy()
    generic.play(moved, g.shifts, generic.move_list(discs, g.masks, g.shifts, 0, 3)[0], 0)
    others.add(generic.position_keys(moved, g.masks, 0, 0, 3, 0))
    walled = geometry_of(random_position(Variant(players=3, blocked=("a1",)), 10, 1).rows())
    others.add(generic.position_keys(discs, walled.masks, 0, 0, 3, 0))
    assert len(others) == 5
    assert keys not in others


def test_hand_weights_value_corners_and_count_against_them_in_anti() -> None:
    hand = generic.hand_weights(False)
    anti = generic.hand_weights(True)
    assert hand.shape == (generic.PHASES, generic.N_FEATURES)
    assert hand[0, generic.CORNER] > 0 > anti[0, generic.CORNER]
    assert hand[0, generic.MOBILITY] == anti[0, generic.MOBILITY] > 0


def test_strong_uses_the_trained_set_of_its_board_and_player_count() -> None:
    assert sorted(GENERIC_WEIGHTS) == sorted(set_name(board, n) for board, n in SETS)
    trained = _generic_weights(Variant(board="10x10"), True)
    assert trained is GENERIC_WEIGHTS["10x10/2"]
    assert not np.array_equal(trained, generic.hand_weights(False))
    walled = Variant(players=3, board="octagon", blocked=("d4",))
    assert _generic_weights(walled, True) is GENERIC_WEIGHTS["octagon/3"]
    anti = Variant(board="10x10", anti=True)  # no trained set: the hand-written weights
    assert np.array_equal(_generic_weights(anti, True), generic.hand_weights(True))
    assert np.array_equal(
        _generic_weights(Variant(board="10x10"), False), generic.hand_weights(False)
    )
    assert set(load_linear_weights()) == set(GENERIC_WEIGHTS)
    for name in HAND_ONLY_SETS:  # trained sets that lost to the hand weights
        board, players = name.split("/")
        held_back = _generic_weights(Variant(board=board, players=int(players)), True)
        assert np.array_equal(held_back, generic.hand_weights(False))
