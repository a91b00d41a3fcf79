"""GameRecord checks itself: legal moves, a result the board agrees with, sane metadata."""

from datetime import UTC, datetime

import pytest

from ai_worker.engine import PASS, Board, Move, Variant
from ai_worker.engine.records import (
    GameRecord,
    Player,
    RecordedMove,
    RecordError,
    Result,
    TimeControl,
    black_margin,
    read_transcript,
)
from tests.ai_worker.engine.records.test_transcript import WITH_PASS


def finished() -> Board:
    return read_transcript(WITH_PASS + "b1a1").board()


def test_from_board_keeps_the_moves_and_a_foreign_start() -> None:
    board = Board.from_moves(None, ["f5", "d6"])
    record = GameRecord.from_board(board)
    assert record.start is None
    assert [str(m.move) for m in record.moves] == ["f5", "d6"]
    assert record.board().to_text() == board.to_text()
    start = Board.from_rows(Variant(), board.rows(), turn=0, ply=2)
    start.push_notation("c3")
    record = GameRecord.from_board(start)
    assert record.start is not None
    assert record.start_board().ply == 2
    assert record.board().move_stack == [Move.from_notation("c3")]


def test_an_illegal_move_is_refused_with_its_number() -> None:
    with pytest.raises(RecordError) as caught:
        GameRecord(moves=(RecordedMove(Move.from_notation("f5")), RecordedMove(PASS)))
    error = caught.value
    assert (error.field, error.move_number, error.code) == ("moves", 2, "cannot_pass")


def test_the_result_at_the_end() -> None:
    board = finished()
    assert Result.at_end(board) == Result("end", 0, score=6.0)
    assert black_margin(board) == 6.0
    with pytest.raises(RecordError):
        Result.at_end(Board())


def test_black_margin_counts_empties_for_the_winner_and_reverses_in_anti() -> None:
    wipeout = read_transcript("e6f4e3f6g5d6e7f5c5").board()  # 13-0 with 51 empties
    assert wipeout.is_game_over()
    assert black_margin(wipeout) == 64.0
    assert black_margin(Board.from_moves(None, ["f5"])) == 3.0
    assert black_margin(Board.from_moves(Variant(anti=True), ["f5"])) == -3.0
    assert black_margin(Board(Variant(players=3))) is None


@pytest.mark.parametrize(
    ("result", "message"),
    [
        (Result("end", 1, score=-6.0), "the final position is won by black"),
        (Result("resign", 0, 1), "a finished game has no resign"),
    ],
)
def test_a_result_the_final_board_contradicts_is_refused(result: Result, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        GameRecord.from_board(finished(), result=result)
    assert caught.value.message == message


@pytest.mark.parametrize(
    ("result", "message"),
    [
        (Result("end", None), "the result says the game ended, but it goes on"),
        (Result("resign", None, 1), "with 2 players the other player wins"),
        (Result("agreement", 0, score=-1.0), "the score's sign disagrees with the winner"),
        (Result("resign", 3, 1), "3 is not a colour of this game"),
    ],
)
def test_results_that_do_not_fit_are_refused(result: Result, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        GameRecord.from_board(Board.from_moves(None, ["f5"]), result=result)
    assert caught.value.message == message


def test_result_values_are_checked() -> None:
    with pytest.raises(RecordError, match="reason must be one of end, resign, timeout, agreement"):
        Result("draw", None)
    with pytest.raises(RecordError, match="a loser goes with resign and timeout"):
        Result("resign", 0)
    with pytest.raises(RecordError, match="the loser cannot be the winner"):
        Result("timeout", 1, 1)
    with pytest.raises(RecordError, match="a score goes with 2-player games only"):
        GameRecord(Variant(players=3), result=Result("agreement", None, score=0.0))


def test_three_player_resignations_rank_the_others_freely() -> None:
    record = GameRecord(Variant(players=3), result=Result("resign", None, 2))
    assert record.result == Result("resign", None, 2)


@pytest.mark.parametrize(
    ("metadata", "field"),
    [
        ({"players": (Player("a"),)}, "players"),
        ({"date": datetime(2026, 1, 1)}, "date"),
        ({"site": 7}, "site"),
        ({"start": Board(Variant(board="6x6")).to_text()}, "start"),
    ],
)
def test_bad_metadata_is_refused(metadata: dict[str, object], field: str) -> None:
    with pytest.raises(RecordError) as caught:
        GameRecord(**metadata)  # type: ignore[arg-type]
    assert caught.value.field == field


@pytest.mark.parametrize(
    "make",
    [
        lambda: TimeControl(-1),
        lambda: TimeControl(float("inf")),
        lambda: RecordedMove(PASS, elapsed=float("nan")),
        lambda: Player("a", rating=True),
    ],
)
def test_numbers_must_be_finite_and_sensible(make: object) -> None:
    with pytest.raises(RecordError):
        make()  # type: ignore[operator]


def test_records_are_values() -> None:
    made = GameRecord(date=datetime(2026, 1, 1, tzinfo=UTC), players=(Player("a"), Player("b")))
    again = GameRecord(date=datetime(2026, 1, 1, tzinfo=UTC), players=(Player("a"), Player("b")))
    assert made == again
    assert made.board() is not made.board()
