"""The pure rules engine of every reversi variant (no Django, Celery or games imports)."""

from ai_worker.engine.board import Board, Outcome
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
    "COLOR_NAMES",
    "EMPTY",
    "GREEN",
    "NEUTRAL",
    "OFF_BOARD",
    "PASS",
    "RED",
    "WALL",
    "WHITE",
    "Board",
    "IllegalMoveError",
    "Move",
    "Outcome",
    "Variant",
    "VariantError",
]
