"""The JSON form of a record: the documented shape, round trips, and errors naming the part."""

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from ai_worker.engine import Move, Variant
from ai_worker.engine.records import (
    GameRecord,
    Player,
    RecordedMove,
    RecordError,
    Result,
    TimeControl,
    read_transcript,
    record_from_json,
    record_to_json,
)
from tests.ai_worker.engine.records.strategies import records
from tests.ai_worker.engine.variants import ALL_VARIANTS


def sample() -> GameRecord:
    played = read_transcript("f5d6c3")
    return GameRecord(
        moves=(
            RecordedMove(Move.from_notation("f5"), 1.5, 298.5),
            *played.moves[1:2],
            RecordedMove(Move.from_notation("c3"), evaluation=-2.0),
        ),
        players=(Player("ann", 1500.0), Player("bob")),
        time_control=TimeControl(300, 2),
        date=datetime(2026, 11, 29, 14, 26, tzinfo=UTC),
        site="reversi.example",
        result=Result("resign", 0, 1, 3.0),
    )


def test_the_documented_shape() -> None:
    assert record_to_json(sample()) == {
        "version": 1,
        "variant": Variant().to_json(),
        "start": None,
        "players": [
            {"color": "black", "name": "ann", "rating": 1500.0},
            {"color": "white", "name": "bob", "rating": None},
        ],
        "time_control": {"initial": 300.0, "increment": 2.0, "extension": 0.0},
        "date": "2026-11-29T14:26:00+00:00",
        "site": "reversi.example",
        "moves": [
            {
                "ply": 0,
                "color": "black",
                "move": "f5",
                "flips": ["e5"],
                "elapsed": 1.5,
                "remaining": 298.5,
                "evaluation": None,
            },
            {
                "ply": 1,
                "color": "white",
                "move": "d6",
                "flips": ["d5"],
                "elapsed": None,
                "remaining": None,
                "evaluation": None,
            },
            {
                "ply": 2,
                "color": "black",
                "move": "c3",
                "flips": ["d4"],
                "elapsed": None,
                "remaining": None,
                "evaluation": -2.0,
            },
        ],
        "result": {
            "reason": "resign",
            "winner": "black",
            "loser": "white",
            "score": 3.0,
            "discs": {"black": 5, "white": 2},
        },
        "transcript": "f5d6c3",
    }


def test_derived_parts_may_be_left_out() -> None:
    data = record_to_json(sample())
    del data["transcript"], data["result"]["discs"]
    for move in data["moves"]:
        del move["ply"], move["color"], move["flips"]
    assert record_from_json(data) == sample()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(record=records(ALL_VARIANTS))
def test_every_variant_round_trips_through_json_text(record: GameRecord) -> None:
    assert record_from_json(json.loads(json.dumps(record_to_json(record)))) == record


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(record=records(ALL_VARIANTS, start_plies=6))
def test_a_start_position_round_trips(record: GameRecord) -> None:
    data = json.loads(json.dumps(record_to_json(record)))
    assert record_from_json(data) == record


def broken(path: tuple[str | int, ...], value: object) -> dict[str, Any]:
    """The sample's JSON form with the part at ``path`` set to ``value``."""
    data = record_to_json(sample())
    container: Any = data
    for key in path[:-1]:
        container = container[key]
    container[path[-1]] = value
    return data


ANN = {"color": "black", "name": "ann", "rating": 1500.0}


@pytest.mark.parametrize(
    ("path", "value", "field", "message"),
    [
        (("moves", 2, "move"), "d6", "moves[2].move", "move 3 (d6): d6 is already taken"),
        (("moves", 0, "flips"), ["e4"], "moves[0].flips", "should be ['e5']"),
        (("moves", 1, "color"), "black", "moves[1].color", "should be 'white'"),
        (("moves", 0, "elapsed"), -1, "moves[0]", "elapsed must be 0 or more"),
        (
            ("moves", 0, "evaluation"),
            "good",
            "moves[0].evaluation",
            "'good' is not a finite number",
        ),
        (("moves", 0, "tags"), [], "moves[0].tags", "is not a part of a game record"),
        (
            ("variant", "board"),
            "9x9",
            "variant.board",
            "'9x9' is not one of 6x6, 8x8, 10x10, octagon",
        ),
        (("players",), [ANN], "players", "give none or 2 players"),
        (("players", 0, "color"), "white", "players[0].color", "players are listed in turn order"),
        (("players", 1, "name"), 7, "players[1].name", "must be a string"),
        (("time_control",), {"increment": 2}, "time_control.initial", "is missing"),
        (
            ("date",),
            "2026-11-29T14:26:00",
            "date",
            "must be an ISO 8601 date and time with a zone, or null",
        ),
        (("result", "winner"), "red", "result.winner", "must be one of black, white"),
        (
            ("result", "reason"),
            "end",
            "result",
            "a loser goes with resign and timeout, and only there",
        ),
        (("result", "score"), -3, "result", "the score's sign disagrees with the winner"),
        (
            ("result", "discs"),
            {"black": 4, "white": 3},
            "result.discs",
            "disagrees with the final position",
        ),
        (("transcript",), "f5", "transcript", "disagrees with the moves"),
        (("start",), {"turn": "black", "rows": ["--"]}, "start.rows", "expected 8 rows, found 1"),
        (("version",), 2, "version", "only version 1 is known"),
        (("extra",), 1, "extra", "is not a part of a game record"),
    ],
)
def test_bad_parts_are_named(
    path: tuple[str | int, ...], value: object, field: str, message: str
) -> None:
    with pytest.raises(RecordError) as caught:
        record_from_json(broken(path, value))
    assert (caught.value.field, caught.value.message) == (field, message)


def test_an_illegal_move_carries_its_number_and_the_engine_code() -> None:
    with pytest.raises(RecordError) as caught:
        record_from_json(broken(("moves", 2, "move"), "a1"))
    assert (caught.value.move_number, caught.value.code) == (3, "no_flips")


def test_not_an_object() -> None:
    with pytest.raises(RecordError) as caught:
        record_from_json([])
    assert (caught.value.field, caught.value.message) == ("record", "must be a JSON object")
