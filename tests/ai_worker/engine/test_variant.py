"""Variant validation, JSON round trip, random walls and board shapes."""

from typing import Any

import pytest

from ai_worker.engine import OFF_BOARD, Board, IllegalMoveError, Move, Variant, VariantError


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({"players": 3, "board": "6x6"}, "board"),
        ({"players": 5}, "players"),
        ({"players": "2"}, "players"),
        ({"players": True}, "players"),
        ({"board": "9x9"}, "board"),
        ({"board": 8}, "board"),
        ({"opening": "diagonal"}, "opening"),
        ({"players": 3, "opening": "free"}, "opening"),
        ({"players": 4, "opening": "parallel"}, "opening"),
        ({"anti": "yes"}, "anti"),
        ({"anti": 1}, "anti"),
        ({"handicap": 5}, "handicap"),
        ({"handicap": -1}, "handicap"),
        ({"handicap": 1.0}, "handicap"),
        ({"handicap": 1, "board": "octagon"}, "handicap"),
        ({"handicap": 1, "players": 3}, "handicap"),
        ({"handicap_color": "red"}, "handicap_color"),
        ({"blocked": ["d4"]}, "blocked"),
        ({"blocked": ["e5"]}, "blocked"),
        ({"blocked": ["f6"], "board": "10x10"}, "blocked"),
        ({"blocked": ["i1"]}, "blocked"),
        ({"blocked": ["a1"], "board": "octagon"}, "blocked"),
        ({"blocked": ["k3"]}, "blocked"),
        ({"blocked": ["c3", "C3"]}, "blocked"),
        ({"blocked": "c3"}, "blocked"),
        ({"blocked": [3]}, "blocked"),
        ({"blocked": ["pass"]}, "blocked"),
        ({"blocked": ["a1"], "handicap": 1}, "blocked"),
        ({"blocked": ["d3", "c4", "f5", "e6"]}, "blocked"),
        ({"blocked": ["c3", "d3", "e3", "f3"], "opening": "free"}, "blocked"),
        ({"colour": "black"}, "colour"),
    ],
)
def test_invalid_settings_name_the_field(settings: dict[str, Any], field: str) -> None:
    with pytest.raises(VariantError) as caught:
        Variant.from_json(settings)
    assert caught.value.field == field
    assert caught.value.message
    assert str(caught.value).startswith(f"{field}: ")


def test_walls_that_break_only_another_opening_are_allowed() -> None:
    assert Variant(blocked=("c3", "d3", "e3", "f3")).blocked == ("c3", "d3", "e3", "f3")


def test_a_variant_must_be_a_json_object() -> None:
    with pytest.raises(VariantError) as caught:
        Variant.from_json(["players", 2])
    assert caught.value.field == "variant"


def test_direct_construction_validates_too() -> None:
    with pytest.raises(VariantError):
        Variant(players=3, board="6x6")


def test_json_round_trip() -> None:
    variant = Variant(players=3, board="octagon", anti=True, blocked=("h8", "c3", "J5"))
    data = variant.to_json()
    assert data == {
        "players": 3,
        "board": "octagon",
        "opening": "cross",
        "anti": True,
        "blocked": ["c3", "j5", "h8"],
        "handicap": 0,
        "handicap_color": "black",
    }
    assert Variant.from_json(data) == variant
    assert Variant.from_json({}) == Variant()
    assert Variant.from_json(Variant(handicap=2, handicap_color="white").to_json()).handicap == 2


def test_blocked_squares_are_canonical_so_equal_variants_compare_equal() -> None:
    assert Variant(blocked=("f6", "c3")) == Variant(blocked=("C3", "f6"))
    assert Variant(blocked=("f6", "c3")).blocked == ("c3", "f6")


def test_random_blocked_cells_are_reproducible_and_keep_the_start_playable() -> None:
    first = Variant.with_random_blocked(6, seed=7, board="10x10")
    assert first == Variant.with_random_blocked(6, seed=7, board="10x10")
    assert len(first.blocked) == 6
    assert first.board == "10x10"
    for seed in range(40):
        variant = Variant.with_random_blocked(8, seed=seed, handicap=4)
        board = Board(variant)
        assert not {"d4", "e4", "d5", "e5", "a1", "h1", "a8", "h8"} & set(variant.blocked)
        assert board.legal_moves
        assert not board.legal_moves[0].is_pass
        assert board.rows()[0][0] == "X"


@pytest.mark.parametrize("settings", [{"board": "octagon", "players": 3}, {"players": 4}])
def test_random_blocked_cells_in_multi_player_boards(settings: dict[str, Any]) -> None:
    variant = Variant.with_random_blocked(10, seed=3, **settings)
    assert len(variant.blocked) == 10
    assert Variant.from_json(variant.to_json()) == variant
    assert Variant.with_random_blocked(0, seed=3, **settings) == Variant(**settings)


def test_random_blocked_needs_a_sensible_count() -> None:
    with pytest.raises(VariantError) as caught:
        Variant.with_random_blocked(40, seed=1, board="6x6")
    assert caught.value.field == "blocked"
    with pytest.raises(VariantError) as caught:
        Variant.with_random_blocked(2, seed=1, board="6x6", players=3)
    assert caught.value.field == "board"
    for count, extra in [(-1, {}), (2, {"blocked": ("c3",)})]:
        with pytest.raises(VariantError) as caught:
            Variant.with_random_blocked(count, seed=1, **extra)
        assert caught.value.field == "blocked"


def test_the_octagon_has_88_cells_and_no_corners() -> None:
    board = Board(Variant(board="octagon"))
    assert board.empties() + sum(board.counts()) == 88
    assert board.rows()[0] == "  ------  "
    assert board.rows()[1] == " -------- "
    assert board.rows()[2] == "-" * 10
    assert board.rows()[9] == "  ------  "
    assert board.piece_at(0, 0) == OFF_BOARD
    assert board.piece_at(1, 0) == OFF_BOARD
    assert board.piece_at(1, 1) == -1
    with pytest.raises(IllegalMoveError) as caught:
        board.check_move(Move.from_notation("a2"))
    assert caught.value.code == "bad_square"


@pytest.mark.parametrize(
    ("board_name", "cells"), [("6x6", 36), ("8x8", 64), ("10x10", 100), ("octagon", 88)]
)
def test_board_sizes(board_name: str, cells: int) -> None:
    board = Board(Variant(board=board_name))
    assert board.empties() + 4 == cells
    assert len(board.rows()) == board.height == board.width


def test_a_square_off_a_small_board_is_a_bad_square() -> None:
    board = Board(Variant(board="6x6"))
    with pytest.raises(IllegalMoveError) as caught:
        board.push(Move.from_notation("g7"))
    assert caught.value.code == "bad_square"
    with pytest.raises(IndexError):
        board.piece_at(6, 0)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"players": "2"}, "must be a whole number, not a string"),
        ({"handicap": 1.5}, "must be a whole number, not a number with a fraction"),
        ({"board": None}, "must be a string, not null"),
        ({"anti": 1}, "must be true or false, not a whole number"),
        ({"players": True}, "must be a whole number, not true or false"),
        ({"opening": ["cross"]}, "must be a string, not a list"),
        ({"handicap_color": {"a": 1}}, "must be a string, not an object"),
    ],
)
def test_type_errors_are_worded_in_json_terms(settings: dict[str, Any], message: str) -> None:
    # The message reaches API clients: JSON words, never Python's "a int" or "NoneType".
    with pytest.raises(VariantError) as caught:
        Variant.from_json(settings)
    assert caught.value.message == message


def test_random_walls_reject_an_unknown_setting_as_a_variant_error() -> None:
    with pytest.raises(VariantError) as caught:
        Variant.with_random_blocked(3, 1, colour="black")
    assert caught.value.field == "colour"


def test_leaders_have_the_most_discs_or_the_fewest_in_anti_reversi() -> None:
    assert Variant().leaders({0: 30, 1: 34}) == [1]
    assert Variant(anti=True).leaders({0: 30, 1: 34}) == [0]
    assert Variant(players=3).leaders({2: 5, 0: 5}) == [0, 2]
