"""The variant registry: every board shape, opening and limit, and ``Variant.choices()``."""

import itertools
import json
from typing import Any

import pytest

from ai_worker.engine import (
    BLACK,
    BOARD_SHAPES,
    COLOR_NAMES,
    OPENINGS,
    WHITE,
    Board,
    BoardShape,
    Move,
    Opening,
    Variant,
    VariantError,
    registry,
)


def names(shape: BoardShape, indexes: tuple[int, ...]) -> list[str]:
    return [str(Move(index % shape.width, index // shape.width)) for index in indexes]


@pytest.mark.parametrize(
    ("name", "size", "cells", "players", "corners"),
    [
        ("6x6", (6, 6), 36, (2,), ["a1", "f6", "f1", "a6"]),
        ("8x8", (8, 8), 64, (2, 3, 4), ["a1", "h8", "h1", "a8"]),
        ("10x10", (10, 10), 100, (2, 3, 4), ["a1", "j10", "j1", "a10"]),
        ("octagon", (10, 10), 88, (2, 3, 4), []),
    ],
)
def test_every_board_shape(
    name: str, size: tuple[int, int], cells: int, players: tuple[int, ...], corners: list[str]
) -> None:
    shape = BOARD_SHAPES[name]
    assert (shape.name, (shape.width, shape.height), shape.cells) == (name, size, cells)
    assert shape.players == players
    assert names(shape, shape.corners) == corners  # handicap order: TL, BR, TR, BL
    assert shape.label == f"board.{name}"
    board = Board(Variant(board=name))
    assert board.empties() + sum(board.counts()) == cells


def test_the_octagon_cuts_each_corner_and_its_two_neighbours() -> None:
    octagon = BOARD_SHAPES["octagon"]
    cut = {(col, row) for row in range(10) for col in range(10) if not octagon.on_board(col, row)}
    top_left = {(0, 0), (1, 0), (0, 1)}
    mirrors = itertools.product((False, True), repeat=2)
    corners = {(9 - c if x else c, 9 - r if y else r) for x, y in mirrors for c, r in top_left}
    assert cut == corners
    assert octagon.corner_cut == 2
    assert BOARD_SHAPES["8x8"].corner_cut == 0


@pytest.mark.parametrize(
    ("name", "players", "placement"),
    [("cross", (2, 3, 4), False), ("parallel", (2,), False), ("free", (2,), True)],
)
def test_every_opening(name: str, players: tuple[int, ...], placement: bool) -> None:
    opening = OPENINGS[name]
    assert (opening.players, opening.placement, opening.label) == (
        players,
        placement,
        f"opening.{name}",
    )
    for count in players:
        assert Board(Variant(players=count, opening=name)).in_placement_phase is placement


@pytest.mark.parametrize(
    ("settings", "rows"),
    [
        ({}, ["OX", "XO"]),
        ({"opening": "parallel"}, ["OO", "XX"]),
        ({"opening": "free"}, ["--", "--"]),
        ({"players": 3}, ["XO", "NR"]),
        ({"players": 4}, ["XO", "GR"]),
    ],
)
def test_openings_lay_out_the_centre_clockwise_from_the_top_left(
    settings: dict[str, Any], rows: list[str]
) -> None:
    board = Board(Variant(**settings))
    assert [row[3:5] for row in board.rows()[3:5]] == rows


def test_limits_are_data_of_the_registry() -> None:
    assert registry.PLAYER_COUNTS == (2, 3, 4)
    assert registry.HANDICAP_COLORS == COLOR_NAMES[:2] == ("black", "white")
    assert registry.MAX_HANDICAP == len(registry.CORNER_ORDER) == 4
    assert registry.ANTI.players == registry.BLOCKED.players == (2, 3, 4)
    assert registry.HANDICAP.players == (2,)


@pytest.mark.parametrize(
    ("settings", "field", "message"),
    [
        (
            {"players": 3, "board": "6x6"},
            "board",
            "6x6 is for 2 players; 3 players can use 8x8, 10x10 or octagon",
        ),
        (
            {"players": 4, "opening": "free"},
            "opening",
            "free is for 2 players; 4 players can use cross",
        ),
        ({"players": 3, "handicap": 1}, "handicap", "only with 2 players, not 3"),
        ({"board": "octagon", "handicap": 1}, "handicap", "the octagon board has no corners"),
        ({"handicap": 5}, "handicap", "must be 0 to 4 corners"),
        ({"players": 5}, "players", "5 is not one of 2, 3, 4"),
        ({"board": "9x9"}, "board", "'9x9' is not one of 6x6, 8x8, 10x10, octagon"),
    ],
)
def test_refusals_are_worded_from_the_registry(
    settings: dict[str, Any], field: str, message: str
) -> None:
    with pytest.raises(VariantError) as caught:
        Variant.from_json(settings)
    assert (caught.value.field, caught.value.message) == (field, message)


def allowed_by_choices(choices: dict[str, Any], settings: dict[str, Any]) -> bool:
    """What a form built from ``choices()`` alone allows: the rules a browser would apply."""
    players = settings["players"]

    def entry(field: str) -> dict[str, Any]:
        return next(c for c in choices[field]["choices"] if c["value"] == settings[field])

    board = entry("board")
    for field in ("board", "opening"):
        if players not in entry(field)["players"]:
            return False
    for field in ("anti", "handicap"):
        used = settings[field] != choices[field]["default"]
        if used and players not in choices[field]["players"]:
            return False
    return settings["handicap"] <= len(board["corners"])


def test_choices_predict_exactly_which_combinations_variant_accepts() -> None:
    choices = Variant.choices()
    values = {
        field: [choice["value"] for choice in choices[field]["choices"]]
        for field in ("players", "board", "opening", "handicap_color")
    }
    handicaps = range(choices["handicap"]["min"], choices["handicap"]["max"] + 1)
    accepted = refused = 0
    for players, board, opening, anti, handicap, colour in itertools.product(
        values["players"], values["board"], values["opening"], (False, True), handicaps,
        values["handicap_color"],
    ):  # fmt: skip
        settings = {
            "players": players,
            "board": board,
            "opening": opening,
            "anti": anti,
            "handicap": handicap,
            "handicap_color": colour,
        }
        try:
            Variant.from_json(settings)
        except VariantError:
            refused += 1
            assert not allowed_by_choices(choices, settings), settings
        else:
            accepted += 1
            assert allowed_by_choices(choices, settings), settings
    assert accepted
    assert refused


def test_blocked_counts_up_to_max_blocked_and_no_further() -> None:
    choices = Variant.choices()
    assert choices["blocked"]["players"] == [2, 3, 4]
    for board in choices["board"]["choices"]:
        for handicap, most in enumerate(board["max_blocked"]):
            shape = BOARD_SHAPES[board["value"]]
            assert most == (shape.cells - 4 - handicap) // 2
            with pytest.raises(VariantError) as caught:
                Variant.with_random_blocked(most + 1, 1, board=board["value"], handicap=handicap)
            assert caught.value.message == f"the count must be 0 to {most}"
            walls = Variant.with_random_blocked(2, 1, board=board["value"], handicap=handicap)
            assert len(walls.blocked) == 2


def test_choices_describe_every_setting_in_json_types() -> None:
    choices = Variant.choices()
    assert json.loads(json.dumps(choices)) == choices
    assert list(choices) == list(Variant().to_json())
    assert {field: entry["default"] for field, entry in choices.items()} == Variant().to_json()
    assert {field: entry["label"] for field, entry in choices.items()} == {
        field: f"variant.{field}" for field in choices
    }
    assert choices["players"]["choices"] == [
        {"value": 2, "colors": ["black", "white"]},
        {"value": 3, "colors": ["black", "white", "red"]},
        {"value": 4, "colors": ["black", "white", "red", "green"]},
    ]
    assert [board["value"] for board in choices["board"]["choices"]] == list(BOARD_SHAPES)
    assert choices["board"]["choices"][-1] == {
        "value": "octagon",
        "label": "board.octagon",
        "players": [2, 3, 4],
        "width": 10,
        "height": 10,
        "corner_cut": 2,
        "cells": 88,
        "corners": [],
        "max_blocked": [42],
    }
    assert choices["opening"]["choices"] == [
        {"value": "cross", "label": "opening.cross", "players": [2, 3, 4]},
        {"value": "parallel", "label": "opening.parallel", "players": [2]},
        {"value": "free", "label": "opening.free", "players": [2]},
    ]
    assert choices["anti"] == {"label": "variant.anti", "default": False, "players": [2, 3, 4]}
    assert choices["handicap"] == {
        "label": "variant.handicap",
        "default": 0,
        "players": [2],
        "min": 0,
        "max": 4,
    }
    assert choices["handicap_color"] == {
        "label": "variant.handicap_color",
        "default": "black",
        "requires": "handicap",
        "choices": [
            {"value": "black", "label": "color.black"},
            {"value": "white", "label": "color.white"},
        ],
    }


def test_a_new_board_shape_or_opening_needs_only_a_registry_entry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(BOARD_SHAPES, "8x6", BoardShape("8x6", 8, 6, (2,)))
    monkeypatch.setitem(OPENINGS, "columns", Opening("columns", {2: (WHITE, BLACK, BLACK, WHITE)}))
    variant = Variant(board="8x6", opening="columns", handicap=4)
    board = Board(variant)
    assert board.rows() == ["X------X", "--------", "---OX---", "---OX---", "--------", "X------X"]
    assert board.perft(3) > 0
    assert Variant.from_json(variant.to_json()) == variant
    with pytest.raises(VariantError) as caught:
        Variant(players=3, board="8x6")
    assert caught.value.field == "board"
    choices = Variant.choices()
    assert choices["board"]["choices"][-1]["value"] == "8x6"
    assert choices["opening"]["choices"][-1] == {
        "value": "columns",
        "label": "opening.columns",
        "players": [2],
    }
