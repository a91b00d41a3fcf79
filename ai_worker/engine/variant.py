"""The variant of a game (spec R1-R8): players, board, opening, anti, walls, handicap.

``Variant`` validates itself on construction: a bad setting raises ``VariantError`` naming
the setting (``.field``) and the reason (``.message``). ``to_json``/``from_json`` round-trip
through plain JSON types, which is how the database stores a variant.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cached_property
from itertools import combinations
from typing import Any

from ai_worker.engine.geometry import Geometry
from ai_worker.engine.squares import (
    BLACK,
    GREEN,
    NEUTRAL,
    RED,
    WHITE,
    IllegalMoveError,
    Move,
)

BOARD_SIZES = {"6x6": (6, 6), "8x8": (8, 8), "10x10": (10, 10), "octagon": (10, 10)}
MULTI_PLAYER_BOARDS = ("8x8", "10x10", "octagon")
OPENINGS = ("cross", "parallel", "free")
HANDICAP_COLORS = ("black", "white")
MAX_HANDICAP = 4
_RANDOM_BLOCKED_ATTEMPTS = 200


class VariantError(ValueError):
    """An invalid variant setting: ``field`` names the setting, ``message`` says why."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def _json_kind(value: object) -> str:
    """What a JSON value is, in words an API client understands."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number with a fraction"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


_EXPECTED_KIND = {int: "a whole number", str: "a string", bool: "true or false"}


def _require_type(field: str, value: object, kind: type) -> None:
    if isinstance(value, bool) is not (kind is bool) or not isinstance(value, kind):
        raise VariantError(field, f"must be {_EXPECTED_KIND[kind]}, not {_json_kind(value)}")


def _require_choice(field: str, value: object, choices: tuple[Any, ...]) -> None:
    if value not in choices:
        allowed = ", ".join(str(choice) for choice in choices)
        raise VariantError(field, f"{value!r} is not one of {allowed}")


@dataclass(frozen=True)
class Variant:
    """Rules of one game; the default is standard 2-player reversi on 8x8."""

    players: int = 2
    board: str = "8x8"
    opening: str = "cross"
    anti: bool = False
    blocked: tuple[str, ...] = ()
    handicap: int = 0
    handicap_color: str = "black"

    def __post_init__(self) -> None:
        _require_type("players", self.players, int)
        _require_choice("players", self.players, (2, 3, 4))
        _require_type("board", self.board, str)
        _require_choice("board", self.board, tuple(BOARD_SIZES))
        _require_type("opening", self.opening, str)
        _require_choice("opening", self.opening, OPENINGS)
        _require_type("anti", self.anti, bool)
        _require_type("handicap", self.handicap, int)
        if not 0 <= self.handicap <= MAX_HANDICAP:
            raise VariantError("handicap", f"must be 0 to {MAX_HANDICAP} corners")
        _require_type("handicap_color", self.handicap_color, str)
        _require_choice("handicap_color", self.handicap_color, HANDICAP_COLORS)
        if self.players > 2:
            if self.board not in MULTI_PLAYER_BOARDS:
                raise VariantError(
                    "board",
                    f"{self.board} is for 2 players; 3-4 play 8x8, 10x10 or octagon",
                )
            if self.opening != "cross":
                raise VariantError("opening", "3-4 player games start from the cross only")
            if self.handicap:
                raise VariantError("handicap", "no corner handicap with 3-4 players")
        if self.handicap and self.board == "octagon":
            raise VariantError("handicap", "the octagon has no corners")
        object.__setattr__(self, "blocked", self._canonical_blocked())
        self._require_playable_start()

    def _canonical_blocked(self) -> tuple[str, ...]:
        if isinstance(self.blocked, str) or not isinstance(self.blocked, tuple | list):
            raise VariantError("blocked", "must be a list of squares like ['c3', 'f6']")
        indexes: set[int] = set()
        for name in self.blocked:
            if not isinstance(name, str):
                raise VariantError("blocked", f"{name!r} is not a square name")
            try:
                move = Move.from_notation(name)
            except IllegalMoveError as error:
                raise VariantError("blocked", error.message) from None
            if move.is_pass or not self._on_board(move.col, move.row):
                raise VariantError("blocked", f"{name} is not on the {self.board} board")
            index = move.row * self.width + move.col
            if index in self.centre_squares:
                raise VariantError("blocked", f"{move} is a centre square")
            if index in self.handicap_squares:
                raise VariantError("blocked", f"{move} holds a handicap disc")
            if index in indexes:
                raise VariantError("blocked", f"{move} is listed twice")
            indexes.add(index)
        return tuple(str(Move(i % self.width, i // self.width)) for i in sorted(indexes))

    def _require_playable_start(self) -> None:
        """With walls, black must still have a first move that flips (after any free opening)."""
        if not self.blocked:
            return
        geometry = self.geometry
        for discs in self._possible_starts():
            black = discs[BLACK]
            occupied = black | discs[WHITE] | discs[RED] | discs[GREEN] | discs[NEUTRAL]
            if not geometry.moves(black, occupied & ~black, geometry.cells & ~occupied):
                raise VariantError("blocked", "the blocked cells leave black without a first move")

    def _possible_starts(self) -> list[tuple[int, int, int, int, int]]:
        """Positions where play (flipping) begins: the start, or every free-opening result."""
        start = self.start_discs()
        if self.opening != "free":
            return [start]
        centre = sum(1 << index for index in self.centre_squares)
        starts = []
        for pair in combinations(self.centre_squares, 2):
            black = sum(1 << index for index in pair)
            starts.append((start[BLACK] | black, start[WHITE] | centre & ~black, 0, 0, 0))
        return starts

    def _on_board(self, col: int, row: int) -> bool:
        if not (0 <= col < self.width and 0 <= row < self.height):
            return False
        if self.board != "octagon":
            return True
        near_col = min(col, self.width - 1 - col)
        near_row = min(row, self.height - 1 - row)
        return near_col + near_row > 1  # each corner loses itself and its two neighbours

    @property
    def width(self) -> int:
        """Columns of the board."""
        return BOARD_SIZES[self.board][0]

    @property
    def height(self) -> int:
        """Rows of the board."""
        return BOARD_SIZES[self.board][1]

    @property
    def centre_squares(self) -> tuple[int, int, int, int]:
        """Centre four square indexes clockwise from the top-left one."""
        col, row = self.width // 2 - 1, self.height // 2 - 1
        top_left = row * self.width + col
        return (top_left, top_left + 1, top_left + self.width + 1, top_left + self.width)

    @property
    def handicap_squares(self) -> tuple[int, ...]:
        """Corners pre-filled by the handicap: top-left, bottom-right, top-right, bottom-left."""
        last_col, last_row = self.width - 1, self.height - 1
        corners = (0, last_row * self.width + last_col, last_col, last_row * self.width)
        return corners[: self.handicap]

    @cached_property
    def geometry(self) -> Geometry:
        """Bitboard masks and move generation of this board."""
        playable = walls = centre = 0
        for row in range(self.height):
            for col in range(self.width):
                if self._on_board(col, row):
                    playable |= 1 << (row * self.width + col)
        for name in self.blocked:
            move = Move.from_notation(name)
            walls |= 1 << (move.row * self.width + move.col)
        for index in self.centre_squares:
            centre |= 1 << index
        return Geometry(self.width, self.height, playable, walls, centre)

    def start_discs(self) -> tuple[int, int, int, int, int]:
        """Disc masks of black, white, red, green and neutral in the start position."""
        discs = [0, 0, 0, 0, 0]
        top_left, top_right, bottom_right, bottom_left = self.centre_squares
        if self.players > 2:
            fourth = GREEN if self.players == 4 else NEUTRAL
            layout = ((top_left, BLACK), (top_right, WHITE), (bottom_right, RED))
            for index, colour in (*layout, (bottom_left, fourth)):
                discs[colour] |= 1 << index
        elif self.opening == "cross":
            discs[WHITE] |= (1 << top_left) | (1 << bottom_right)
            discs[BLACK] |= (1 << top_right) | (1 << bottom_left)
        elif self.opening == "parallel":
            discs[WHITE] |= (1 << top_left) | (1 << top_right)
            discs[BLACK] |= (1 << bottom_left) | (1 << bottom_right)
        handicap_colour = HANDICAP_COLORS.index(self.handicap_color)
        for index in self.handicap_squares:
            discs[handicap_colour] |= 1 << index
        return (discs[0], discs[1], discs[2], discs[3], discs[4])

    def leaders(self, discs: Mapping[int, int]) -> list[int]:
        """The colours ahead in ``discs`` (colour -> disc count), in turn order: those with the
        most discs, or the fewest in anti-reversi (R4). One leader wins; several draw."""
        best = min(discs.values()) if self.anti else max(discs.values())
        return sorted(colour for colour, count in discs.items() if count == best)

    def to_json(self) -> dict[str, Any]:
        """Every setting as plain JSON types (``blocked`` as a list)."""
        data: dict[str, Any] = {field.name: getattr(self, field.name) for field in fields(self)}
        data["blocked"] = list(self.blocked)
        return data

    @classmethod
    def from_json(cls, data: object) -> Variant:
        """Validate a JSON object (missing keys take the defaults) into a ``Variant``."""
        if not isinstance(data, dict):
            raise VariantError("variant", "must be a JSON object")
        known = {field.name for field in fields(cls)}
        for key in data:
            if key not in known:
                raise VariantError(str(key), "is not a variant setting")
        settings = dict(data)
        if "blocked" in settings:
            if not isinstance(settings["blocked"], list | tuple):
                raise VariantError("blocked", "must be a list of squares like ['c3', 'f6']")
            settings["blocked"] = tuple(settings["blocked"])
        return cls(**settings)

    @classmethod
    def with_random_blocked(cls, count: int, seed: int | None = None, **settings: Any) -> Variant:
        """The variant of ``settings`` with ``count`` walls at random squares.

        Walls never go on the centre four or a handicap corner, and never leave black
        without a first move. The same seed gives the same walls.
        """
        _require_type("blocked", count, int)
        if "blocked" in settings:
            raise VariantError("blocked", "give either a count or a list of blocked cells")
        base = cls.from_json(settings)
        reserved = set(base.centre_squares) | set(base.handicap_squares)
        candidates = [
            str(Move(col, row))
            for row in range(base.height)
            for col in range(base.width)
            if base._on_board(col, row) and row * base.width + col not in reserved
        ]
        if not 0 <= count <= len(candidates) // 2:
            raise VariantError("blocked", f"the count must be 0 to {len(candidates) // 2}")
        generator = random.Random(seed)
        for _ in range(_RANDOM_BLOCKED_ATTEMPTS):
            try:
                return cls(**settings, blocked=tuple(generator.sample(candidates, count)))
            except VariantError:
                continue
        raise VariantError(
            "blocked", f"could not place {count} blocked cells with a playable start"
        )
