"""Move notation, the position text form and the Board API around them."""

import re

import pytest

from ai_worker.engine import PASS, Board, IllegalMoveError, Move, Variant


@pytest.mark.parametrize(
    ("text", "move"),
    [("f5", Move(5, 4)), ("A1", Move(0, 0)), (" j10 ", Move(9, 9)), ("h8", Move(7, 7))],
)
def test_notation_parses_and_prints(text: str, move: Move) -> None:
    assert Move.from_notation(text) == move
    assert str(move) == text.strip().lower()


def test_pass_notation() -> None:
    assert Move.from_notation("PASS") is PASS
    assert str(PASS) == "pass"
    assert PASS.is_pass
    assert not Move(0, 0).is_pass


@pytest.mark.parametrize("junk", ["", "k1", "a0", "a11", "f5x", "5f", "ff"])
def test_junk_notation_is_a_bad_square(junk: str) -> None:
    with pytest.raises(IllegalMoveError) as caught:
        Move.from_notation(junk)
    assert caught.value.code == "bad_square"


def test_moves_are_hashable_values() -> None:
    assert {Move(5, 4), Move.from_notation("f5")} == {Move(5, 4)}
    with pytest.raises(IllegalMoveError):
        Move(10, 0)


def test_the_start_text() -> None:
    text = Board().to_text()
    assert text.splitlines()[1:4] == ["turn: black", "ply: 0", "phase: play"]
    assert text.splitlines()[7:9] == ["---OX---", "---XO---"]


@pytest.mark.parametrize(
    ("variant", "plies"),
    [
        (Variant(), 5),
        (Variant(board="octagon", blocked=("c3",)), 2),
        (Variant(players=3, anti=True), 4),
        (Variant(players=4, board="octagon"), 3),
        (Variant(opening="free"), 2),
    ],
)
def test_text_round_trips(variant: Variant, plies: int) -> None:
    board = Board(variant)
    for _ in range(plies):
        board.push(board.legal_moves[-1])
    copy = Board.from_text(board.to_text())
    assert copy.to_text() == board.to_text()
    assert copy.variant == variant
    assert copy.turn == board.turn
    assert copy.ply == board.ply
    assert copy.in_placement_phase == board.in_placement_phase
    assert copy.legal_moves == board.legal_moves


def test_text_survives_stripped_trailing_spaces() -> None:
    board = Board(Variant(board="octagon"))
    stripped = "\n".join(line.rstrip() for line in board.to_text().splitlines())
    assert Board.from_text(stripped).to_text() == board.to_text()


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda t: t.replace("turn: black", "turn: red"), "turn"),
        (lambda t: t.replace("ply: 0", "ply: x"), "ply"),
        (lambda t: t.replace("phase: play", "phase: placement"), "phase"),
        (lambda t: t.replace('"players":2', '"players":7'), "variant"),
        (lambda t: t.replace("variant: {", "variant: ["), "variant"),
        (lambda t: t.replace("---OX---", "---OR---"), "e4"),
        (lambda t: t.replace("---OX---", "---OX--"), "row"),
        (lambda t: t.replace("---OX---", "---OX---\n--------"), "rows"),
        (lambda t: "turn: black\n" + t, "line 1"),
    ],
)
def test_bad_text_is_rejected_with_a_reason(change: object, reason: str) -> None:
    text = Board().to_text()
    assert callable(change)
    with pytest.raises(ValueError, match=reason):
        Board.from_text(change(text))


def test_walls_must_match_the_variant() -> None:
    text = Board(Variant(blocked=("c3",))).to_text()
    with pytest.raises(ValueError, match="c3"):
        Board.from_text(text.replace("--#-----", "--------"))


def test_push_pop_copy_and_from_moves() -> None:
    board = Board()
    assert board.push_notation("f5") == Move(5, 4)
    twin = board.copy()
    twin.push_notation("d6")
    assert board.ply == 1
    assert twin.ply == 2
    assert twin.pop() == Move.from_notation("d6")
    assert twin.to_text() == board.to_text()
    assert board.pop() == Move(5, 4)
    assert board.to_text() == Board().to_text()
    with pytest.raises(IndexError):
        board.pop()
    assert Board.from_moves(None, ["f5", Move(3, 5)]).move_stack == [Move(5, 4), Move(3, 5)]


def test_illegal_push_changes_nothing() -> None:
    board = Board()
    before = board.to_text()
    with pytest.raises(IllegalMoveError) as caught:
        board.push_notation("a1")
    assert caught.value.code == "no_flips"
    assert "a1" in caught.value.message
    assert board.to_text() == before
    assert board.move_stack == []
    assert not board.is_legal(Move(0, 0))
    assert board.is_legal(Move(5, 4))


def test_disc_masks_use_square_indexes() -> None:
    black, white, red, green, neutral = Board().disc_masks
    assert black == (1 << 28) | (1 << 35)  # e4, d5
    assert white == (1 << 27) | (1 << 36)  # d4, e5
    assert red == green == neutral == 0
    assert Board(Variant(players=3)).disc_masks[4] == 1 << 35


def test_from_rows_builds_a_position_without_the_header() -> None:
    board = Board.from_moves(Variant(board="octagon"), ["e4"])
    copy = Board.from_rows(board.variant, board.rows(), turn=board.turn, ply=7)
    assert copy.rows() == board.rows()
    assert copy.turn == board.turn
    assert copy.ply == 7
    assert copy.move_stack == []


@pytest.mark.parametrize(
    ("turn", "ply", "message"),
    [(2, 0, "turn: 2 is not a colour of a 2-player game"), (0, -1, "ply: must be 0 or more")],
)
def test_from_rows_refuses_a_bad_turn_or_ply(turn: int, ply: int, message: str) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        Board.from_rows(Variant(), Board().rows(), turn=turn, ply=ply)
