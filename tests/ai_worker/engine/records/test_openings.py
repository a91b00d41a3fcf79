"""NamedOpening names: the table's sequences, longest match, symmetries and transpositions."""

import pytest

from ai_worker.engine import Move
from ai_worker.engine.records import LANGUAGES, RecordError, named_openings, opening_name
from ai_worker.engine.records.openings import _SYMMETRIES


def name(moves: str, language: str = "english") -> str | None:
    squares = [moves[i : i + 2] for i in range(0, len(moves), 2)]
    opening = opening_name(squares, language)
    return None if opening is None else opening.name(language)


def mirrored(moves: str, symmetry: list[int]) -> str:
    squares = [Move.from_notation(moves[i : i + 2]) for i in range(0, len(moves), 2)]
    images = [symmetry[square.row * 8 + square.col] for square in squares]
    return "".join(str(Move(index % 8, index // 8)) for index in images)


@pytest.mark.parametrize(
    ("moves", "english"),
    [
        ("f5d6c3d3c4", "Tiger"),
        ("f5d6c3d3c4f4e6", "Leader's Tiger"),
        ("f5d6c3d3c4f4e3", "Brightwell"),
        ("f5d6c3d3c4f4f6", "Stephenson"),
        ("f5d6c3d3c4f4f6g5", "No-Kung"),
        ("f5d6c3d3c4f4f6f3", "Comp'Oth"),
        ("f5d6c3d3c4b3", "Aubrey"),
        ("f5d6c3d3c4f4c5b3c2e6", "Tamenori"),
        ("f5d6c3g5", "Ganglion"),
        ("f5d6c5f4e3c6d3f6e6d7", "Rose"),
        ("f5d6c5f4e3c6f3", "Shaman"),
        ("f5d6c5f4e3d3", "Mimura"),
        ("f5f6e6f4c3", "Buffalo"),
        ("f5f6e6f4e3", "Cow"),
        ("f5f6e6f4e3d6", "Chimney"),
        ("f5f6e6f4g5", "Heath"),
        ("f5f6e6f4g6", "Snake"),
        ("f5f6e6f4e3c5g5", "Bat"),
        ("f5f4", "Parallel"),
        ("f5d6", "Perpendicular"),
        ("f5f6", "Diagonal"),
    ],
)
def test_known_sequences(moves: str, english: str) -> None:
    assert name(moves) == english


def test_the_longest_named_prefix_wins() -> None:
    assert name("f5d6c3d3c4f4") == "Tiger"
    assert name("f5d6c3d3c4f4e6b3e2") == "Leader's Tiger"
    assert name("f5d6c5f4e3") == "Perpendicular"  # a rabbit line, not the cow (f5f6e6f4e3)
    assert name("") is None


@pytest.mark.parametrize("symmetry", range(8))
def test_every_orientation_of_the_first_move(symmetry: int) -> None:
    image = mirrored("f5d6c3d3c4f4e6", _SYMMETRIES[symmetry])
    if image[:2] in ("f5", "d3", "c4", "e6"):
        assert name(image) == "Leader's Tiger"


def test_the_four_first_moves() -> None:
    # Gatliff's catalogue lists the Tiger in each orientation.
    assert {name(line) for line in ("f5d6c3d3c4", "d3c5f6f5e6", "c4e3f6e6f5", "e6f4c3c4d3")} == {
        "Tiger"
    }


@pytest.mark.parametrize(
    ("moves", "english"),
    [
        ("f5f6e6d6c3", "Buffalo"),  # the catalogue's other move order of f5f6e6f4c3
        ("f5f6e6d6c5", "Cow"),
        ("f5f6e6d6e7", "Heath"),
        ("f5f6e6d6f7", "Snake"),
        ("f5f6e6d6c5e3e7", "Bat"),
        ("d3c3c4c5f6", "Buffalo"),
        ("e6f6f5d6e7", "Heath"),
    ],
)
def test_transpositions_get_the_same_name(moves: str, english: str) -> None:
    assert name(moves) == english


@pytest.mark.parametrize(
    ("moves", "japanese"),
    [
        ("f5d6c3", "虎"),
        ("f5d6c3d3c4", "虎"),
        ("f5d6c5", "兎"),
        ("f5d6c4d3", "猫"),
        ("f5f4e3", "鼠"),
        ("f5f6e6f4e3", "牛"),
        ("f5f6e6f4g6", "蛇"),
        ("f5f6e6f4e3c5g5", "こうもり"),
        ("f5d6c5f4e3c6d3f6e6d7", "ローズ"),
        ("f5f6e6f4g5", "飛び出し牛"),
    ],
)
def test_japanese_names(moves: str, japanese: str) -> None:
    assert name(moves, "japanese") == japanese


def test_the_table() -> None:
    table = named_openings()
    assert len(table) >= 60
    assert all(any(opening.name(language) for language in LANGUAGES) for opening in table)
    assert all(str(opening.moves[0]) == "f5" for opening in table)
    assert all(opening.russian is None for opening in table)


def test_an_illegal_game_and_an_unknown_language_are_refused() -> None:
    with pytest.raises(RecordError) as caught:
        opening_name(["f5", "a1"])
    assert caught.value.move_number == 2
    with pytest.raises(RecordError):
        opening_name(["zz"])
    with pytest.raises(ValueError, match="language must be one of english, japanese, russian"):
        opening_name(["f5"], "klingon")
