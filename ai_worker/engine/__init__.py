"""The pure rules engine of every reversi variant (no Django, Celery or games imports)."""

from ai_worker.engine.board import Board, Outcome
from ai_worker.engine.registry import BOARD_SHAPES, OPENINGS, BoardShape, Opening
from ai_worker.engine.squares import (
    BLACK,
    COLOR_NAMES,
    EMPTY,
    GREEN,
    NEUTRAL,
    OFF_BOARD,
    PASS,
    RED,
    WALL,
    WHITE,
    IllegalMoveError,
    Move,
)
from ai_worker.engine.variant import Variant, VariantError

__all__ = [
    "BLACK",
    "BOARD_SHAPES",
    "COLOR_NAMES",
    "EMPTY",
    "GREEN",
    "NEUTRAL",
    "OFF_BOARD",
    "OPENINGS",
    "PASS",
    "RED",
    "WALL",
    "WHITE",
    "Board",
    "BoardShape",
    "IllegalMoveError",
    "Move",
    "Opening",
    "Outcome",
    "Variant",
    "VariantError",
]
