"""An independent, deliberately plain rules implementation: the slow reference.

It keeps the board as a dict of (col, row) -> cell and walks the eight directions square by
square. It reads only the variant's settings and re-derives everything else (shape, start,
handicap corners, walls) from the spec, so it shares no logic with the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ai_worker.engine import Variant

EMPTY_CELL = "empty"
NEUTRAL_DISC = 4
STEPS = [(dc, dr) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dc, dr) != (0, 0)]
SIDES = {"6x6": 6, "8x8": 8, "10x10": 10, "octagon": 10}


@dataclass
class NaiveGame:
    """A position: cells (walls and cut corners absent), side to move, players, free opening."""

    cells: dict[tuple[int, int], object]
    turn: int
    players: int
    centre: list[tuple[int, int]]
    free_opening: bool
    history: list[str] = field(default_factory=list)

    @classmethod
    def start(cls, variant: Variant) -> NaiveGame:
        side = SIDES[variant.board]
        cut = set()
        if variant.board == "octagon":
            for corner_col in (0, side - 1):
                for corner_row in (0, side - 1):
                    inward_col = 1 if corner_col == 0 else -1
                    inward_row = 1 if corner_row == 0 else -1
                    cut |= {
                        (corner_col, corner_row),
                        (corner_col + inward_col, corner_row),
                        (corner_col, corner_row + inward_row),
                    }
        walls = {("abcdefghij".index(name[0]), int(name[1:]) - 1) for name in variant.blocked}
        cells: dict[tuple[int, int], object] = {
            (col, row): EMPTY_CELL
            for col in range(side)
            for row in range(side)
            if (col, row) not in cut and (col, row) not in walls
        }
        low, high = side // 2 - 1, side // 2
        top_left, top_right, bottom_right, bottom_left = (
            (low, low),
            (high, low),
            (high, high),
            (low, high),
        )
        if variant.players == 4:
            start = {top_left: 0, top_right: 1, bottom_right: 2, bottom_left: 3}
        elif variant.players == 3:
            start = {top_left: 0, top_right: 1, bottom_right: 2, bottom_left: NEUTRAL_DISC}
        elif variant.opening == "cross":
            start = {top_left: 1, bottom_right: 1, top_right: 0, bottom_left: 0}
        elif variant.opening == "parallel":
            start = {top_left: 1, top_right: 1, bottom_left: 0, bottom_right: 0}
        else:
            start = {}
        cells.update(start)
        corners = [(0, 0), (side - 1, side - 1), (side - 1, 0), (0, side - 1)]
        for corner in corners[: variant.handicap]:
            cells[corner] = 0 if variant.handicap_color == "black" else 1
        return cls(
            cells,
            0,
            variant.players,
            [top_left, top_right, bottom_right, bottom_left],
            variant.opening == "free",
        )

    def flips(self, square: tuple[int, int], player: int) -> list[tuple[int, int]]:
        """Discs flipped by ``player`` on the empty ``square``: nearest first, then in STEPS
        order."""
        found: list[tuple[int, int, tuple[int, int]]] = []
        for step, (dc, dr) in enumerate(STEPS):
            line = []
            col, row = square[0] + dc, square[1] + dr
            while self.cells.get((col, row), None) not in (None, EMPTY_CELL, player):
                line.append((len(line) + 1, step, (col, row)))
                col, row = col + dc, row + dr
            if line and self.cells.get((col, row)) == player:
                found.extend(line)
        return [disc for _, _, disc in sorted(found)]

    def placing(self) -> bool:
        return self.free_opening and any(self.cells[c] == EMPTY_CELL for c in self.centre)

    def flipping_moves(self, player: int) -> list[tuple[int, int]]:
        return [
            square
            for square, cell in self.cells.items()
            if cell == EMPTY_CELL and self.flips(square, player)
        ]

    def moves(self) -> list[str]:
        """Legal moves as notation, ``["pass"]`` for a forced pass, ``[]`` when over."""
        if self.placing():
            squares = [c for c in self.centre if self.cells[c] == EMPTY_CELL]
        else:
            squares = self.flipping_moves(self.turn)
            if not squares and self.players == 2:
                return ["pass"] if self.flipping_moves(1 - self.turn) else []
            if not squares:
                squares = [
                    (col, row)
                    for (col, row), cell in self.cells.items()
                    if cell == EMPTY_CELL
                    and any(
                        self.cells.get((col + dc, row + dr), EMPTY_CELL) != EMPTY_CELL
                        for dc, dr in STEPS
                    )
                ]
        return sorted(
            ("abcdefghij"[col] + str(row + 1) for col, row in squares),
            key=lambda name: (int(name[1:]), name[0]),
        )

    def play(self, move: str) -> NaiveGame:
        """The position after ``move`` (assumed legal)."""
        cells = dict(self.cells)
        if move != "pass":
            square = ("abcdefghij".index(move[0]), int(move[1:]) - 1)
            flipped = [] if self.placing() else self.flips(square, self.turn)
            for flipped_square in [square, *flipped]:
                cells[flipped_square] = self.turn
        return NaiveGame(
            cells,
            (self.turn + 1) % self.players,
            self.players,
            self.centre,
            self.free_opening,
            [*self.history, move],
        )

    def perft(self, depth: int) -> int:
        if depth == 0:
            return 1
        moves = self.moves()
        if not moves:
            return 1
        return sum(self.play(move).perft(depth - 1) for move in moves)

    def counts(self) -> list[int]:
        return [
            sum(1 for cell in self.cells.values() if cell == player)
            for player in range(self.players)
        ]
