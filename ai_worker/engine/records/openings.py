"""Names of the well-known 8x8 openings, from the table ``ai_worker/engine/data/openings.tsv``.

Each row of the table gives an opening's moves from the standard start, written with 1.f5, and
its name in English, Japanese and Russian where one is known (an empty field: no name in that
language); the sources are listed at the top of the file. A game follows an opening when the
position after the opening's moves is, up to one of the board's 8 symmetries, the position
after as many of the game's moves: so 1.d3, 1.c4 and 1.e6 games are named like 1.f5 ones, and
a different move order reaching the same position (a transposition) gets the same name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources

from ai_worker.engine.board import Board
from ai_worker.engine.records.record import parse_move, play_move
from ai_worker.engine.records.transcript import read_transcript
from ai_worker.engine.squares import Move

LANGUAGES = ("english", "japanese", "russian")
_COLUMNS = ("moves", *LANGUAGES)
_SIDE = 8


@dataclass(frozen=True)
class NamedOpening:
    """A named opening: its moves from the standard start (with 1.f5) and its names."""

    moves: tuple[Move, ...]
    english: str | None
    japanese: str | None
    russian: str | None

    def name(self, language: str = "english") -> str | None:
        """The opening's name in ``language`` (one of ``LANGUAGES``), if it has one."""
        if language not in LANGUAGES:
            raise ValueError(f"language must be one of {', '.join(LANGUAGES)}")
        name: str | None = getattr(self, language)
        return name


def named_openings() -> tuple[NamedOpening, ...]:
    """Every opening of the table, in its order."""
    return tuple(opening for opening, _ in _table())


def opening_name(moves: Iterable[Move | str], language: str = "english") -> NamedOpening | None:
    """The longest opening with a name in ``language`` that the game of ``moves`` (from the
    standard 8x8 start; ``Move`` or notation like ``"f5"``) follows, or ``None``.

    Illegal moves raise ``RecordError`` like every record reader."""
    named = _named(language)
    longest = max((len(opening.moves) for opening in named.values()), default=0)
    board = Board()
    found = None
    for number, move in enumerate(moves, start=1):
        if number > longest:
            break
        play_move(board, move if isinstance(move, Move) else parse_move(move, number), number)
        found = named.get(_canonical(board), found)
    return found


@cache
def _named(language: str) -> dict[tuple[int, int, int], NamedOpening]:
    """The openings with a name in ``language`` by the canonical key of their position."""
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}")
    return {key: opening for opening, key in _table() if opening.name(language) is not None}


@cache
def _table() -> tuple[tuple[NamedOpening, tuple[int, int, int]], ...]:
    """The openings and the canonical key of the position each reaches, checked once."""
    text = resources.files("ai_worker.engine").joinpath("data", "openings.tsv").read_text("utf-8")
    rows = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    if not rows or tuple(rows[0].split("\t")) != _COLUMNS:
        raise ValueError(f"openings.tsv must start with the columns {', '.join(_COLUMNS)}")
    table = []
    seen: dict[tuple[int, int, int], int] = {}
    for line_number, row in enumerate(rows[1:], start=2):
        fields = row.split("\t")
        if len(fields) != len(_COLUMNS):
            raise ValueError(f"openings.tsv row {line_number}: expected {len(_COLUMNS)} fields")
        names = [name.strip() or None for name in fields[1:]]
        if not any(names):
            raise ValueError(f"openings.tsv row {line_number}: the opening has no name")
        record = read_transcript(fields[0])
        key = _canonical(record.board())
        if key in seen:
            raise ValueError(f"openings.tsv row {line_number}: same position as row {seen[key]}")
        seen[key] = line_number
        moves = tuple(recorded.move for recorded in record.moves)
        table.append((NamedOpening(moves, *names), key))
    return tuple(table)


def _symmetries() -> list[list[int]]:
    """The 8 symmetries of the 8x8 board, each as the new index of every square index."""
    last = _SIDE - 1
    maps = []
    for transpose in (False, True):
        for flip_cols in (False, True):
            for flip_rows in (False, True):
                permutation = []
                for index in range(_SIDE * _SIDE):
                    row, col = divmod(index, _SIDE)
                    if transpose:
                        row, col = col, row
                    col = last - col if flip_cols else col
                    row = last - row if flip_rows else row
                    permutation.append(row * _SIDE + col)
                maps.append(permutation)
    return maps


_SYMMETRIES = _symmetries()


def _canonical(board: Board) -> tuple[int, int, int]:
    """The smallest (black, white) disc masks over the 8 symmetries, and the colour to move."""
    black, white = board.disc_masks[:2]
    images = [(_image(black, symmetry), _image(white, symmetry)) for symmetry in _SYMMETRIES]
    best = min(images)
    return best[0], best[1], board.turn


def _image(mask: int, symmetry: list[int]) -> int:
    image = 0
    while mask:
        lowest = mask & -mask
        image |= 1 << symmetry[lowest.bit_length() - 1]
        mask ^= lowest
    return image
