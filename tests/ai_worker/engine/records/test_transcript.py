"""Plain transcripts: tolerant reading, compact writing, rule checks with move numbers."""

import pytest
from hypothesis import HealthCheck, given, settings

from ai_worker.engine import PASS, Board, Move, Variant
from ai_worker.engine.records import GameRecord, RecordError, read_transcript, write_transcript
from tests.ai_worker.engine.records.strategies import played_board
from tests.ai_worker.engine.variants import ALL_VARIANTS

# A random 8x8 game of 61 moves whose 59th move is black's forced pass.
WITH_PASS = (
    "d3c3b3e3f3c5f6g2b5c6f4a5h1f5d6e7d7e6d8c4c7b7a8b6a4f8g4b4e8a3a7g5g8c2h4g3a2h3c1d1d2e1f1f7"
    "a6h6e2b8g7c8h5g6h2h7h8g1b2f2"
)


def moves_of(record: GameRecord) -> list[str]:
    return [str(recorded.move) for recorded in record.moves]


@pytest.mark.parametrize(
    "text", ["f5d6c3d3c4", "F5 d6 C3 d3 c4", "f5, d6, c3, d3, c4", "  F5D6\nc3\td3 C4  "]
)
def test_reading_is_tolerant_of_case_and_separators(text: str) -> None:
    assert moves_of(read_transcript(text)) == ["f5", "d6", "c3", "d3", "c4"]


@pytest.mark.parametrize("written_pass", ["", "pass", "PA", "--", " pa "])
def test_a_forced_pass_may_be_written_or_left_out(written_pass: str) -> None:
    record = read_transcript(WITH_PASS + written_pass + "b1a1")
    assert len(record.moves) == 61
    assert record.moves[58].move is PASS
    assert record.board().is_game_over()
    assert write_transcript(record) == WITH_PASS + "b1a1"


def test_a_pass_that_ends_the_transcript_is_written() -> None:
    record = read_transcript(WITH_PASS + "pass")
    assert record.moves[-1].move is PASS
    assert write_transcript(record) == WITH_PASS + "pass"
    assert read_transcript(write_transcript(record)) == record


def test_ten_by_ten_squares_read_before_their_one_digit_prefix() -> None:
    board = Board(Variant(board="10x10"))
    for _ in range(12):
        board.push(board.legal_moves[-1])
    text = write_transcript(board.move_stack)
    assert "10" in text
    assert moves_of(read_transcript(text, variant=board.variant)) == [
        str(move) for move in board.move_stack
    ]


def test_an_illegal_move_names_its_number_and_the_reason() -> None:
    with pytest.raises(RecordError) as caught:
        read_transcript("f5 d6 c3 d6")
    error = caught.value
    assert (error.field, error.move_number, error.code) == ("transcript", 4, "occupied")
    assert error.message == "move 4 (d6): d6 is already taken"


def test_a_needless_pass_is_refused() -> None:
    with pytest.raises(RecordError) as caught:
        read_transcript("f5 pass")
    assert caught.value.code == "cannot_pass"
    assert caught.value.message == "move 2 (pass): White has a legal move and cannot pass"


def test_a_square_off_the_board_is_refused() -> None:
    with pytest.raises(RecordError) as caught:
        read_transcript("f5 j10")
    assert caught.value.message == "move 2 (j10): j10 is not on the 8x8 board"


@pytest.mark.parametrize(("text", "where"), [("f5 d6 zz", "'zz' (character 7)"), ("f5x", "'x'")])
def test_junk_is_not_a_move(text: str, where: str) -> None:
    with pytest.raises(RecordError) as caught:
        read_transcript(text)
    assert where in caught.value.message
    assert caught.value.message.endswith("is not a move")


def test_a_transcript_continues_a_start_position() -> None:
    start = Board.from_rows(Variant(), Board.from_moves(None, ["f5", "d6"]).rows(), turn=0)
    record = read_transcript("c3", start=start)
    assert record.start == start.to_text()
    assert moves_of(record) == ["c3"]
    with pytest.raises(RecordError):
        read_transcript("c3", start=start, variant=Variant(board="6x6"))


def test_three_player_games_have_no_passes() -> None:
    board = Board(Variant(players=3))
    move = board.legal_moves[0]
    assert moves_of(read_transcript(str(move), variant=board.variant)) == [str(move)]
    with pytest.raises(RecordError) as caught:
        read_transcript("pass", variant=board.variant)
    assert caught.value.code == "cannot_pass"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=played_board(Variant()) | played_board(Variant(board="10x10", anti=True)))
def test_writing_then_reading_gives_the_same_moves(data: Board) -> None:
    record = GameRecord.from_board(data)
    assert read_transcript(write_transcript(record), variant=data.variant) == record


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=str)
def test_every_variant_round_trips(variant: Variant) -> None:
    board = Board(variant)
    while not board.is_game_over():
        board.push(board.legal_moves[len(board.move_stack) % len(board.legal_moves)])
    text = write_transcript(board.move_stack)
    assert [recorded.move for recorded in read_transcript(text, variant=variant).moves] == list(
        board.move_stack
    )
    assert all(isinstance(move, Move) for move in board.move_stack)
