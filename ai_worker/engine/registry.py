"""The variant registry: every board shape, opening and option a game may use (spec R1-R8).

In the style of python-chess's ``variant.py``, each choice is an entry that carries its own
facts: a board shape its size, cut corners, corner list and the player counts it allows; an
opening its centre layout per player count; an option (anti-reversi, walls, corner handicap)
the player counts it allows. ``Variant`` validates against these entries and nothing else, and
``Variant.choices()`` describes them for forms, the API schema and the setup page.

Adding a board shape or an opening means adding an entry to ``BOARD_SHAPES`` or ``OPENINGS``
(plus its label's translation and its tests); no other code names shapes or openings. Labels
are untranslated keys such as ``board.octagon``: the web app translates them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from ai_worker.engine.squares import (
    BLACK,
    COLOR_NAMES,
    EMPTY,
    GREEN,
    NEUTRAL,
    RED,
    WHITE,
)

PLAYER_COUNTS = tuple(range(2, len(COLOR_NAMES) + 1))
"""Every number of players a game may have: 2 up to one per colour."""

TWO_PLAYERS = (2,)

CORNER_ORDER = ("top-left", "bottom-right", "top-right", "bottom-left")
"""The order in which a corner handicap fills the corners (spec R6)."""

HANDICAP_COLORS = COLOR_NAMES[:2]
"""The colours a corner handicap may go to."""

CentreLayout = tuple[int, int, int, int]


@dataclass(frozen=True)
class BoardShape:
    """A board: a width x height rectangle, less ``corner_cut`` cells along each edge at every
    corner (the octagon's 2 cut each corner square and its two neighbours), for ``players``."""

    name: str
    width: int
    height: int
    players: tuple[int, ...]
    corner_cut: int = 0

    @property
    def label(self) -> str:
        """Untranslated label key."""
        return f"board.{self.name}"

    def on_board(self, col: int, row: int) -> bool:
        """True if (col, row) is a square of this shape."""
        if not (0 <= col < self.width and 0 <= row < self.height):
            return False
        near_col = min(col, self.width - 1 - col)
        near_row = min(row, self.height - 1 - row)
        return near_col + near_row >= self.corner_cut

    @cached_property
    def cells(self) -> int:
        """Number of squares (walls included)."""
        return sum(
            self.on_board(col, row) for row in range(self.height) for col in range(self.width)
        )

    @cached_property
    def corners(self) -> tuple[int, ...]:
        """Corner square indexes in ``CORNER_ORDER``; none when the corners are cut."""
        if self.corner_cut:
            return ()
        last_col, last_row = self.width - 1, self.height - 1
        return (0, last_row * self.width + last_col, last_col, last_row * self.width)

    @cached_property
    def centre(self) -> CentreLayout:
        """The centre four square indexes, clockwise from the top-left one."""
        col, row = self.width // 2 - 1, self.height // 2 - 1
        top_left = row * self.width + col
        return (top_left, top_left + 1, top_left + self.width + 1, top_left + self.width)

    def max_random_walls(self, handicap: int) -> int:
        """Most random walls with ``handicap`` corners: half the cells that are neither centre
        nor handicap corner (walls never go there)."""
        return (self.cells - len(self.centre) - handicap) // 2


@dataclass(frozen=True)
class Opening:
    """How the centre four squares start, per player count: ``centre[players]`` holds their
    colours clockwise from the top-left square; ``EMPTY`` squares the players fill themselves
    (one disc each turn, no flips) before play begins."""

    name: str
    centre: Mapping[int, CentreLayout]

    @property
    def label(self) -> str:
        """Untranslated label key."""
        return f"opening.{self.name}"

    @property
    def players(self) -> tuple[int, ...]:
        """The player counts this opening allows."""
        return tuple(sorted(self.centre))

    @property
    def placement(self) -> bool:
        """True if the players place (some of) the centre discs themselves."""
        return any(EMPTY in layout for layout in self.centre.values())


@dataclass(frozen=True)
class Option:
    """A rule option beyond board and opening, with the player counts that allow it."""

    name: str
    players: tuple[int, ...]


BOARD_SHAPES: Mapping[str, BoardShape] = {
    shape.name: shape
    for shape in (
        BoardShape("6x6", 6, 6, TWO_PLAYERS),
        BoardShape("8x8", 8, 8, PLAYER_COUNTS),
        BoardShape("10x10", 10, 10, PLAYER_COUNTS),
        BoardShape("octagon", 10, 10, PLAYER_COUNTS, corner_cut=2),
    )
}
"""Every board shape by name, in the order a form offers them."""

OPENINGS: Mapping[str, Opening] = {
    opening.name: opening
    for opening in (
        Opening(
            "cross",
            {
                2: (WHITE, BLACK, WHITE, BLACK),
                3: (BLACK, WHITE, RED, NEUTRAL),
                4: (BLACK, WHITE, RED, GREEN),
            },
        ),
        Opening("parallel", {2: (WHITE, WHITE, BLACK, BLACK)}),
        Opening("free", {2: (EMPTY, EMPTY, EMPTY, EMPTY)}),
    )
}
"""Every opening by name, in the order a form offers them."""

ANTI = Option("anti", PLAYER_COUNTS)
"""Anti-reversi: the fewest discs win (R4)."""
BLOCKED = Option("blocked", PLAYER_COUNTS)
"""Walls: blocked cells that hold no disc and break every line (R5)."""
HANDICAP = Option("handicap", TWO_PLAYERS)
"""Corner handicap: up to one disc per corner of the board, in ``CORNER_ORDER`` (R6)."""

MAX_HANDICAP = max(len(shape.corners) for shape in BOARD_SHAPES.values())
"""The most corners any board has, so the most a handicap may give."""
