"""The FFO endgame positions #1-#59 (see README.md here) and their exact move values."""

from dataclasses import dataclass
from pathlib import Path

from ai_worker.engine import Board, Move
from ai_worker.engine.records import read_obf

FOLDER = Path(__file__).resolve().parent
FILES = {1: "fforum-1-19.obf", 20: "fforum-20-39.obf", 40: "fforum-40-59.obf"}
LAST = 59


@dataclass(frozen=True)
class FfoPosition:
    """One FFO position: the board, the exact score of perfect play for the side to move, and
    the exact value of the moves the file lists (best first; other moves score lower)."""

    number: int
    board: Board
    score: int
    move_values: dict[Move, int]

    def is_optimal(self, move: Move) -> bool:
        """Whether ``move`` keeps the exact score (ties included)."""
        return self.move_values.get(move) == self.score


def read_ffo(number: int) -> FfoPosition:
    """FFO position ``number`` (1-59)."""
    if not 1 <= number <= LAST:
        raise ValueError(f"FFO positions are numbered 1 to {LAST}")
    start = max(first for first in FILES if first <= number)
    line = (FOLDER / FILES[start]).read_text().splitlines()[number - start]
    board = read_obf(line[:66])
    values = {}
    for pair in line[66:].split(";"):
        move, _, value = pair.strip().partition(":")
        if move:
            values[Move.from_notation(move.lower())] = int(value)
    return FfoPosition(number, board, next(iter(values.values())), values)
