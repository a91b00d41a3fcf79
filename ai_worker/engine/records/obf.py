"""OBF, the one-line board form of Edax and the FFO endgame files (``ai_worker/ffo/``)::

    --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;

64 squares a1..h8 row by row (``X`` black, ``O`` white, ``-`` empty; ``x``, ``*`` and ``o``, and
``.`` for empty, are read too), a space, the colour to move (``X`` or ``O``), then optionally
``;`` and a comment, which is dropped. The position is of standard 8x8 two-player reversi, at
ply 0 (OBF has no ply). Writing gives the 64 squares, a space and the colour, no comment.
"""

from __future__ import annotations

from ai_worker.engine.board import Board
from ai_worker.engine.records.record import RecordError, board_from_rows
from ai_worker.engine.squares import BLACK, WHITE, Move
from ai_worker.engine.variant import Variant

_SQUARES = {"X": "X", "x": "X", "*": "X", "O": "O", "o": "O", "-": "-", ".": "-"}
_SIDES = {"X": BLACK, "x": BLACK, "*": BLACK, "O": WHITE, "o": WHITE}


def read_obf(text: str) -> Board:
    """The position of an OBF line; a malformed one raises ``RecordError`` (field ``obf``)."""
    position, _, _ = text.partition(";")
    parts = position.split()
    if len(parts) != 2:
        raise RecordError("obf", 'expected "<64 squares of X, O or -, a1..h8> <X|O to move>"')
    squares, side = parts
    if len(squares) != 64:
        raise RecordError("obf", f"expected 64 squares, found {len(squares)}")
    for index, char in enumerate(squares):
        if char not in _SQUARES:
            square = Move(index % 8, index // 8)
            raise RecordError("obf", f"square {square}: {char!r} is not X, O or -")
    if side not in _SIDES:
        raise RecordError("obf", f"the colour to move must be X or O, not {side!r}")
    cells = "".join(_SQUARES[char] for char in squares)
    rows = [cells[row * 8 : row * 8 + 8] for row in range(8)]
    return board_from_rows(Variant(), rows, _SIDES[side], "obf")


def write_obf(board: Board) -> str:
    """The OBF line of a standard-size 2-player position (walls cannot be written)."""
    variant = board.variant
    if variant.board != "8x8" or variant.players != 2 or variant.blocked:
        raise RecordError("obf", "OBF holds 8x8 two-player positions without blocked cells",
                          code="unsupported")  # fmt: skip
    return "".join(board.rows()) + " " + "XO"[board.turn]
