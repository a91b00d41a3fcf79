"""The variant of a game (spec R1-R8): players, board, opening, anti, walls, handicap.

``Variant`` validates itself on construction against the registry (``registry.py``): a bad
setting raises ``VariantError`` naming the setting (``.field``) and the reason (``.message``).
``to_json``/``from_json`` round-trip through plain JSON types, which is how the database
stores a variant; ``Variant.choices()`` describes every setting for forms and the API schema.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from functools import cached_property, reduce
from itertools import combinations
from operator import or_
from typing import Any

from ai_worker.engine.geometry import Geometry
from ai_worker.engine.registry import (
    ANTI,
    BLOCKED,
    BOARD_SHAPES,
    HANDICAP,
    HANDICAP_COLORS,
    MAX_HANDICAP,
    OPENINGS,
    PLAYER_COUNTS,
    BoardShape,
    Opening,
    Option,
)
from ai_worker.engine.squares import (
    BLACK,
    COLOR_NAMES,
    EMPTY,
    WHITE,
    IllegalMoveError,
    Move,
)

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


def _require_choice(field: str, value: object, choices: Iterable[Any]) -> None:
    allowed = tuple(choices)
    if value not in allowed:
        raise VariantError(field, f"{value!r} is not one of {', '.join(map(str, allowed))}")


def _either(names: Iterable[str]) -> str:
    """``["a", "b", "c"]`` as ``"a, b or c"``."""
    *rest, last = names
    return f"{', '.join(rest)} or {last}" if rest else last


def _counts(players: tuple[int, ...]) -> str:
    """Player counts in words: ``(2,)`` as ``"2"``, ``(2, 3, 4)`` as ``"2-4"``."""
    if len(players) > 1 and players == tuple(range(players[0], players[-1] + 1)):
        return f"{players[0]}-{players[-1]}"
    return _either(str(count) for count in players)


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
        _require_choice("players", self.players, PLAYER_COUNTS)
        _require_type("board", self.board, str)
        _require_choice("board", self.board, BOARD_SHAPES)
        _require_type("opening", self.opening, str)
        _require_choice("opening", self.opening, OPENINGS)
        _require_type("anti", self.anti, bool)
        _require_type("handicap", self.handicap, int)
        if not 0 <= self.handicap <= MAX_HANDICAP:
            raise VariantError("handicap", f"must be 0 to {MAX_HANDICAP} corners")
        _require_type("handicap_color", self.handicap_color, str)
        _require_choice("handicap_color", self.handicap_color, HANDICAP_COLORS)
        self._require_allowed("board", self.board_shape.players, BOARD_SHAPES)
        self._require_allowed("opening", self.opening_rules.players, OPENINGS)
        self._require_option(ANTI, self.anti)
        self._require_option(HANDICAP, self.handicap != 0)
        corners = len(self.board_shape.corners)
        if self.handicap > corners:
            have = f"only {corners} corners" if corners else "no corners"
            raise VariantError("handicap", f"the {self.board} board has {have}")
        object.__setattr__(self, "blocked", self._canonical_blocked())
        self._require_option(BLOCKED, bool(self.blocked))
        self._require_playable_start()

    def _require_allowed(
        self, field: str, players: tuple[int, ...], entries: Mapping[str, BoardShape | Opening]
    ) -> None:
        """The chosen board or opening must allow this many players."""
        if self.players in players:
            return
        others = _either(name for name, entry in entries.items() if self.players in entry.players)
        raise VariantError(
            field,
            f"{getattr(self, field)} is for {_counts(players)} players; "
            f"{self.players} players can use {others}",
        )

    def _require_option(self, option: Option, used: bool) -> None:
        if used and self.players not in option.players:
            raise VariantError(
                option.name, f"only with {_counts(option.players)} players, not {self.players}"
            )

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
            if move.is_pass or not self.board_shape.on_board(move.col, move.row):
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
            occupied = reduce(or_, discs)
            if not geometry.moves(black, occupied & ~black, geometry.cells & ~occupied):
                raise VariantError("blocked", "the blocked cells leave black without a first move")

    def _possible_starts(self) -> list[tuple[int, int, int, int, int]]:
        """Positions where play (flipping) begins: the start, or every free-opening result."""
        start = self.start_discs()
        layout = self.opening_rules.centre[self.players]
        centre = zip(self.centre_squares, layout, strict=True)
        placed = [index for index, colour in centre if colour == EMPTY]
        if not placed:
            return [start]
        # Two players take turns, black first: black places the larger half.
        starts = []
        all_placed = sum(1 << index for index in placed)
        for chosen in combinations(placed, (len(placed) + 1) // 2):
            black = sum(1 << index for index in chosen)
            starts.append((start[BLACK] | black, start[WHITE] | all_placed & ~black, 0, 0, 0))
        return starts

    @property
    def board_shape(self) -> BoardShape:
        """The registry entry of the board."""
        return BOARD_SHAPES[self.board]

    @property
    def opening_rules(self) -> Opening:
        """The registry entry of the opening."""
        return OPENINGS[self.opening]

    @property
    def width(self) -> int:
        """Columns of the board."""
        return self.board_shape.width

    @property
    def height(self) -> int:
        """Rows of the board."""
        return self.board_shape.height

    @property
    def centre_squares(self) -> tuple[int, int, int, int]:
        """Centre four square indexes clockwise from the top-left one."""
        return self.board_shape.centre

    @property
    def handicap_squares(self) -> tuple[int, ...]:
        """Corners pre-filled by the handicap, in ``registry.CORNER_ORDER``."""
        return self.board_shape.corners[: self.handicap]

    @cached_property
    def geometry(self) -> Geometry:
        """Bitboard masks and move generation of this board."""
        playable = walls = centre = 0
        for row in range(self.height):
            for col in range(self.width):
                if self.board_shape.on_board(col, row):
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
        layout = self.opening_rules.centre[self.players]
        for index, colour in zip(self.centre_squares, layout, strict=True):
            if colour != EMPTY:
                discs[colour] |= 1 << index
        handicap_colour = COLOR_NAMES.index(self.handicap_color)
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
            if base.board_shape.on_board(col, row) and row * base.width + col not in reserved
        ]
        most = base.board_shape.max_random_walls(base.handicap)
        if not 0 <= count <= most:
            raise VariantError("blocked", f"the count must be 0 to {most}")
        generator = random.Random(seed)
        for _ in range(_RANDOM_BLOCKED_ATTEMPTS):
            try:
                return cls(**settings, blocked=tuple(generator.sample(candidates, count)))
            except VariantError:
                continue
        raise VariantError(
            "blocked", f"could not place {count} blocked cells with a playable start"
        )

    @classmethod
    def choices(cls) -> dict[str, Any]:
        """Every setting's options and the combinations the rules allow, as JSON types.

        One entry per setting of ``to_json()``, in that order, each with an untranslated
        ``label`` key and its ``default``; ``choices`` lists the values of a setting that has
        a fixed set (each ``value`` with a ``label`` key, except player counts). A setting or
        choice that has ``players`` is allowed only with one of those player counts (a
        setting otherwise keeps its default). Further limits:

        - ``players.choices[].colors``: the seat colours of that player count, in turn order;
        - ``board.choices[]``: ``width``, ``height``, ``cells``, ``corner_cut`` (cells cut
          along each edge at every corner); ``corners`` in handicap order, so a handicap
          may be at most their number on that board; ``max_blocked[h]``: the most random
          walls (``"blocked": n``) with ``h`` handicap corners;
        - ``handicap``: ``min`` and ``max`` over every board;
        - ``handicap_color``: matters only when the setting named by ``requires`` is not at
          its default.

        A form built from this alone can disable every combination ``Variant`` refuses;
        walls given as a list of squares are checked by ``Variant`` only.
        """
        defaults = cls().to_json()

        def setting(name: str, **facts: Any) -> dict[str, Any]:
            return {"label": f"variant.{name}", "default": defaults[name], **facts}

        def allowed_with(option: Option, **facts: Any) -> dict[str, Any]:
            return setting(option.name, players=list(option.players), **facts)

        boards = [
            {
                "value": shape.name,
                "label": shape.label,
                "players": list(shape.players),
                "width": shape.width,
                "height": shape.height,
                "corner_cut": shape.corner_cut,
                "cells": shape.cells,
                "corners": [str(Move(i % shape.width, i // shape.width)) for i in shape.corners],
                "max_blocked": [
                    shape.max_random_walls(handicap) for handicap in range(len(shape.corners) + 1)
                ],
            }
            for shape in BOARD_SHAPES.values()
        ]
        openings = [
            {"value": opening.name, "label": opening.label, "players": list(opening.players)}
            for opening in OPENINGS.values()
        ]
        return {
            "players": setting(
                "players",
                choices=[{"value": n, "colors": list(COLOR_NAMES[:n])} for n in PLAYER_COUNTS],
            ),
            "board": setting("board", choices=boards),
            "opening": setting("opening", choices=openings),
            "anti": allowed_with(ANTI),
            "blocked": allowed_with(BLOCKED),
            "handicap": allowed_with(HANDICAP, min=0, max=MAX_HANDICAP),
            "handicap_color": setting(
                "handicap_color",
                requires=HANDICAP.name,
                choices=[{"value": name, "label": f"color.{name}"} for name in HANDICAP_COLORS],
            ),
        }
