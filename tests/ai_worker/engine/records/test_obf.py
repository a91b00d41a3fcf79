"""OBF lines, as the FFO files and the solve command write them."""

import pytest

from ai_worker.engine import BLACK, WHITE, Board, Variant
from ai_worker.engine.records import RecordError, read_obf, write_obf
from benchmarks.ffo import FOLDER as FFO

FFO_20 = "XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X"


def test_the_start_position_reads_and_writes() -> None:
    text = "---------------------------OX------XO--------------------------- X"
    board = read_obf(text)
    assert board.to_text() == Board().to_text()
    assert write_obf(board) == text


def test_the_comment_is_dropped() -> None:
    board = read_obf(FFO_20 + "; H5:+6; G6:-2;")
    assert (board.turn, board.ply, board.empties()) == (BLACK, 0, 6)
    assert write_obf(board) == FFO_20


def test_every_ffo_position_reads() -> None:
    lines = [line for name in sorted(FFO.glob("*.obf")) for line in name.read_text().splitlines()]
    boards = [read_obf(line) for line in lines]
    assert len(boards) == 59
    assert [write_obf(board) for board in boards] == [line[:66] for line in lines]
    assert {board.turn for board in boards} == {BLACK, WHITE}


def test_other_spellings_of_the_squares() -> None:
    board = read_obf(FFO_20.replace("X", "*").replace("O", "o").replace("-", ".")[:-1] + "o")
    assert write_obf(board) == FFO_20[:-1] + "O"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("XO X", "expected 64 squares, found 2"),
        ("", 'expected "<64 squares of X, O or -, a1..h8> <X|O to move>"'),
        (FFO_20[:-2], 'expected "<64 squares of X, O or -, a1..h8> <X|O to move>"'),
        (FFO_20.replace("XXXO", "XXQO", 1), "square c1: 'Q' is not X, O or -"),
        (FFO_20[:-1] + "B", "the colour to move must be X or O, not 'B'"),
    ],
)
def test_malformed_lines_are_refused(text: str, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        read_obf(text)
    assert (caught.value.field, caught.value.message) == ("obf", message)


def test_only_standard_positions_are_written() -> None:
    with pytest.raises(RecordError) as caught:
        write_obf(Board(Variant(board="10x10")))
    assert caught.value.code == "unsupported"
