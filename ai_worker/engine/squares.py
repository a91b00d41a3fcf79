"""Colours, cell states, squares and moves of every reversi variant.

Squares are written column letter ``a``..``j`` then row number ``1``..``10``; ``a1`` is the
top-left corner. A pass is written ``pass``. Inside the engine a square is the index
``row * width + col`` (0-based), so on 8x8 ``a1`` is 0, ``h1`` is 7 and ``h8`` is 63.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

BLACK = 0
WHITE = 1
RED = 2
GREEN = 3
NEUTRAL = 4
EMPTY = -1
WALL = -2
OFF_BOARD = -3
COLOR_NAMES = ("black", "white", "red", "green")
COLUMN_LETTERS = "abcdefghij"
MAX_SIDE = 10

_SQUARE_PATTERN = re.compile(r"([a-j])(10|[1-9])")


class IllegalMoveError(ValueError):
    """A move that the position does not allow; ``code`` says why, ``message`` in words."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Move:
    """A square (0-based column and row) or the pass move ``PASS``."""

    col: int
    row: int

    def __post_init__(self) -> None:
        if (self.col, self.row) != (-1, -1) and not (
            0 <= self.col < MAX_SIDE and 0 <= self.row < MAX_SIDE
        ):
            raise IllegalMoveError("bad_square", f"({self.col}, {self.row}) is not a square")

    @property
    def is_pass(self) -> bool:
        """True for the pass move."""
        return self.col < 0

    def __str__(self) -> str:
        if self.is_pass:
            return "pass"
        return f"{COLUMN_LETTERS[self.col]}{self.row + 1}"

    @classmethod
    def from_notation(cls, text: str) -> Move:
        """Parse ``"f5"`` or ``"pass"`` (any case); junk raises ``IllegalMoveError``."""
        cleaned = text.strip().lower()
        if cleaned == "pass":
            return PASS
        match = _SQUARE_PATTERN.fullmatch(cleaned)
        if match is None:
            raise IllegalMoveError(
                "bad_square", f"{text!r} is not a square: write a column a-j and a row 1-10"
            )
        return cls(COLUMN_LETTERS.index(match[1]), int(match[2]) - 1)


PASS = Move(-1, -1)
