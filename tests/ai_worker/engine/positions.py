"""Build hand-made positions from rows of characters (X O R G N - #)."""

import json
from typing import Any

from ai_worker.engine import Board, Variant


def position(rows: list[str], turn: str = "black", **settings: Any) -> Board:
    """A board of the variant ``settings`` whose top rows are ``rows`` (the rest empty)."""
    variant = Variant(**settings)
    full = [row.ljust(variant.width, "-") for row in rows]
    full += ["-" * variant.width] * (variant.height - len(full))
    for name in variant.blocked:
        col, row = "abcdefghij".index(name[0]), int(name[1:]) - 1
        full[row] = full[row][:col] + "#" + full[row][col + 1 :]
    text = "\n".join(
        [
            "variant: " + json.dumps(variant.to_json()),
            f"turn: {turn}",
            "ply: 0",
            "phase: play",
            *full,
        ]
    )
    return Board.from_text(text)
