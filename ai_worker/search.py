"""Stand-in CPU until the numba search lands: a seeded random legal move, same interface."""

import random
import time
from dataclasses import dataclass, field

from ai_worker.engine import Board, Move

LEVELS = ("easy", "normal", "strong")


@dataclass(frozen=True)
class SearchResult:
    move: Move
    score: float
    pv: list[Move] = field(default_factory=list)
    depth: int = 0
    nodes: int = 0
    exact: bool = False
    elapsed: float = 0.0


def choose_move(
    board: Board, level: str, *, time_limit: float | None = None, seed: int | None = None
) -> SearchResult:
    """A legal move of ``board`` chosen at random (deterministic for a given ``seed``)."""
    started = time.perf_counter()
    move = random.Random(seed).choice(board.legal_moves)
    return SearchResult(move=move, score=0.0, elapsed=time.perf_counter() - started)
