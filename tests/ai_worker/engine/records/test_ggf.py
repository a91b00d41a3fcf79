"""GGF: reading real-world server games, writing, round trips and clear rejections."""

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from ai_worker.engine import PASS, Board, Move, Variant
from ai_worker.engine.records import (
    GameRecord,
    Player,
    RecordedMove,
    RecordError,
    Result,
    TimeControl,
    read_ggf,
    read_transcript,
    write_ggf,
)
from tests.ai_worker.engine.records.strategies import GGF_VARIANTS, records

ARCHIVE = (Path(__file__).parent / "data" / "ggs_archive.ggf").read_text()
START_8 = "8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *"


def one_game(text: str) -> GameRecord:
    games = read_ggf(text)
    assert len(games) == 1
    return games[0]


def game(properties: str, moves: str = "") -> str:
    return f"(;GM[Othello]PC[test]TY[8]BO[{START_8}]{properties}{moves};)"


@pytest.fixture(scope="module")
def archive() -> list[GameRecord]:
    return read_ggf(ARCHIVE)


def test_a_file_of_server_games_reads_every_game(archive: list[GameRecord]) -> None:
    boards = [(record.variant.board, record.variant.anti) for record in archive]
    assert boards == [
        ("8x8", False), ("10x10", False), ("8x8", True), ("8x8", False), ("8x8", False),
        ("octagon", False), ("8x8", False), ("8x8", False),
    ]  # fmt: skip


def test_a_standard_game_with_every_annotation(archive: list[GameRecord]) -> None:
    record = archive[0]
    assert record.players == (Player("Saio1200", 2197.01), Player("Saio3000", 2199.72))
    assert record.site == "GGS/os"
    assert record.date == datetime(2003, 12, 15, 20, 24, 3, tzinfo=UTC)
    assert record.time_control == TimeControl(300, 0, 120)
    assert record.start is None
    assert record.variant == Variant()
    assert len(record.moves) == 61
    assert record.moves[0] == RecordedMove(Move.from_notation("d3"), elapsed=0.5)
    assert record.moves[1] == RecordedMove(Move.from_notation("c3"), 1.25, evaluation=-0.5)
    assert record.moves[58] == RecordedMove(PASS, elapsed=2.5)
    assert record.result == Result("end", 0, score=6.0)
    assert record.board().is_game_over()


def test_an_early_ten_by_ten_game_resigned(archive: list[GameRecord]) -> None:
    record = archive[1]
    assert record.date == datetime.fromtimestamp(945277754, UTC)
    assert record.time_control == TimeControl(1800, 5, 120)
    assert str(record.moves[25].move) == "i7"
    assert record.result == Result("resign", 0, 1, 2.0)


def test_an_anti_game_is_won_with_fewer_discs(archive: list[GameRecord]) -> None:
    record = archive[2]
    assert record.variant == Variant(anti=True)
    assert record.date == datetime(2000, 4, 16, 11, 13, tzinfo=timezone(timedelta(hours=-5)))
    assert record.board().counts() == (48, 16)
    assert record.result == Result("end", 1, score=-32.0)


def test_a_synchro_random_match_is_two_games_from_one_start(archive: list[GameRecord]) -> None:
    first, second = archive[3], archive[4]
    assert first.start == second.start is not None
    start = first.start_board()
    assert start.ply == 0
    assert start.counts() == (11, 7)
    assert start.rows()[0] == "--XXO---"
    assert [player.name for player in second.players] == ["Roxane", "edax"]
    assert first.moves[1].evaluation == 2.0
    assert first.moves[0].evaluation == 0.0
    assert (first.result, second.result) == (
        Result("end", 1, score=-32.0),
        Result("end", 1, score=-8.0),
    )


def test_the_octagon_board_type(archive: list[GameRecord]) -> None:
    record = archive[5]
    assert record.variant == Variant(board="octagon")
    assert record.result is None
    assert str(record.moves[12].move) == "f9"


def test_a_komi_game_lost_on_time(archive: list[GameRecord]) -> None:
    record = archive[6]
    assert record.time_control == TimeControl(600, 0, 60)
    assert record.result == Result("timeout", 0, 1, 2.0)
    assert all(recorded.elapsed == 1.0 for recorded in record.moves)


def test_a_minimal_game_without_type_or_result(archive: list[GameRecord]) -> None:
    record = archive[7]
    assert record.players == ()
    assert record.date is None
    assert record.time_control is None
    assert [str(recorded.move) for recorded in record.moves] == ["f5", "d6"]


def test_every_archive_game_round_trips(archive: list[GameRecord]) -> None:
    for record in archive:
        assert one_game(write_ggf(record)) == record


def test_the_written_form() -> None:
    record = GameRecord(
        moves=(
            RecordedMove(Move.from_notation("f5"), 1.5, evaluation=0.25),
            RecordedMove(Move.from_notation("d6")),
        ),
        players=(Player("ann", 1500.5), Player("bob")),
        time_control=TimeControl(180, 2),
        date=datetime(2026, 11, 29, 14, 26, 7, 999, tzinfo=UTC),
        site="reversi",
        result=Result("resign", 1, 0),
    )
    assert write_ggf(record) == (
        "(;GM[Othello]PC[reversi]DT[2026.11.29_14:26:07.UTC]PB[ann]PW[bob]RB[1500.5]"
        f"TI[03:00/00:02/00:00]TY[8]RE[-2:r]BO[{START_8}]B[F5/0.25/1.5]W[D6];)"
    )


def test_a_long_clock_and_fractional_times_are_exact() -> None:
    record = GameRecord(time_control=TimeControl(3 * 86400, 0.25, 125.3))
    assert "TI[72:00:00//125.3]" not in write_ggf(record)
    assert "TI[72:00:00/0.25/125.3]" in write_ggf(record)
    assert one_game(write_ggf(record)).time_control == record.time_control


@pytest.mark.parametrize(
    ("variant", "bo_start"),
    [
        (
            Variant(opening="parallel"),
            "BO[8 -------- -------- -------- ---OO--- ---**--- -------- -------- -------- *]",
        ),
        (
            Variant(handicap=2, handicap_color="white"),
            "BO[8 O------- -------- -------- ---O*--- ---*O--- -------- -------- -------O *]",
        ),
        (Variant(board="6x6"), "BO[6 ------ ------ --O*-- --*O-- ------ ------ *]"),
    ],
    ids=["parallel", "handicap", "6x6"],
)
def test_starts_without_a_game_type_are_written_as_boards(variant: Variant, bo_start: str) -> None:
    text = write_ggf(GameRecord(variant))
    assert bo_start in text
    assert one_game(text).variant == variant


def test_a_free_opening_starts_after_its_placements() -> None:
    board = Board(Variant(opening="free"))
    for notation in ("d4", "e4", "d5", "e5", "f3"):
        board.push_notation(notation)
    text = write_ggf(GameRecord.from_board(board))
    assert "BO[8 -------- -------- -------- ---*O--- ---*O--- -------- -------- -------- *]" in text
    assert text.endswith("B[F3];)")
    read = one_game(text)
    assert read.start is not None
    assert read.variant == Variant()
    assert read.board().rows() == board.rows()
    unfinished = GameRecord.from_board(Board.from_moves(Variant(opening="free"), ["d4"]))
    with pytest.raises(RecordError) as caught:
        write_ggf(unfinished)
    assert caught.value.code == "unsupported"


@pytest.mark.parametrize(
    ("variant", "message"),
    [
        (Variant(players=3), "GGF holds 2-player games only"),
        (Variant(blocked=("c3",)), "GGF has no blocked cells"),
    ],
)
def test_variants_ggf_cannot_express_are_refused(variant: Variant, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        write_ggf(GameRecord(variant))
    assert (caught.value.field, caught.value.message, caught.value.code) == (
        "variant",
        message,
        "unsupported",
    )


def test_brackets_in_text_are_refused() -> None:
    with pytest.raises(RecordError) as caught:
        write_ggf(GameRecord(players=(Player("a]b"), Player("c"))))
    assert caught.value.field == "players"


def test_a_left_out_forced_pass_is_put_back() -> None:
    full = one_game(ARCHIVE.splitlines()[0])
    text = write_ggf(full).replace("B[PA//2.5]", "")
    short = one_game(text)
    assert short.moves[58] == RecordedMove(PASS)
    assert short.board().rows() == full.board().rows()


@pytest.mark.parametrize(
    ("text", "field", "message"),
    [
        (game("", "B[F5]W[D6]B[C3]W[D6]"), "W", "move 4 (d6): d6 is already taken"),
        (game("", "B[F5]B[D6]"), "B", "move 2 (D6) is B, but the other colour is to move"),
        (game("", "B[F5/x]"), "B", "'x' is not a number"),
        (game("RE[+2]", "B[F5]"), "result", "the result says the game ended, but it goes on"),
        (game("RE[0:r]"), "RE", "a resign needs a winner: the score cannot be 0"),
        (game("RE[won]"), "RE", "'won' is not a result like +12, -3.00:r or 0"),
        (
            game("TI[05:00,10//02:00]"),
            "TI",
            "clocks with move counts ('05:00,10') are not supported",
        ),
        (game("TB[05:00]TW[06:00]"), "TB", "black and white need the same clock"),
        (game("DT[2003.12.15_13:24:03.XYZ]"), "DT", "the time zone 'XYZ' is not known"),
        (game("DT[2006]"), "DT", "'2006' is not a date like 2003.12.15_13:24:03.MST"),
        (game("KM[1.5]"), "TY", "komi moves (KB, KW, KM) need a komi game type (k)"),
        (game("XX[1]"), "XX", "is not a GGF property of an Othello game"),
        (game("PB[a]PB[b]"), "PB", "is given twice"),
        ("(;GM[Chess];)", "GM", "'Chess' is not Othello"),
        ("(;GM[Othello]TY[12];)", "TY", "the 12x12 board is not played here"),
        ("(;GM[Othello]TY[8]BO[8 ---- *];)", "BO", "expected 64 squares, found 4"),
        (game("", "B[F5"), "ggf", "cannot read 'B[F5;)': expected a property or ;)"),
        ("no game here", "ggf", "no game found: a GGF game is (; ... ;)"),
    ],
)
def test_bad_games_are_refused_clearly(text: str, field: str, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        read_ggf(text)
    assert caught.value.field == field
    assert caught.value.message.removeprefix("game 1: ") == message


def test_the_failing_game_of_a_file_is_named() -> None:
    with pytest.raises(RecordError) as caught:
        read_ggf(game("") + "\n" + game("", "B[A1]"))
    assert caught.value.message.startswith("game 2: move 1 (a1): ")
    assert caught.value.move_number == 1


def test_a_value_may_hold_the_game_end_marker() -> None:
    record = one_game(game("CO[nice game ;)]", "B[F5]"))
    assert [str(recorded.move) for recorded in record.moves] == ["f5"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(record=records(GGF_VARIANTS, ggf=True))
def test_writing_then_reading_gives_the_same_game(record: GameRecord) -> None:
    assert one_game(write_ggf(record)) == record


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(record=records([Variant(), Variant(board="10x10")], start_plies=9, ggf=True))
def test_games_from_a_start_position_round_trip(record: GameRecord) -> None:
    assert one_game(write_ggf(record)) == record


def test_a_transcript_game_round_trips_through_ggf() -> None:
    record = read_transcript("f5d6c3d3c4f4c5b3c2e6c6b4b5d2e3a6c1b1")
    assert one_game(write_ggf(record)) == record
