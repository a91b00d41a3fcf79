"""The review of one played move (post-game analysis): how it compares with the best move of
its position. Pure: a position, the move played and a time budget in, figures out."""

from dataclasses import asdict, dataclass
from typing import Any

from ai_worker.engine import COLOR_NAMES, Board, Move
from ai_worker.search import analyse


@dataclass(frozen=True)
class MoveReview:
    """``best_score`` and ``score`` (the played move's) are in discs for the mover, exact final
    disc differences when ``exact``; ``loss`` is what the played move gave away (0 or more)."""

    ply: int
    color: str
    move: str
    best: str
    best_score: float
    score: float
    loss: float
    exact: bool
    depth: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


# With few empties a shallow pass orders the moves, then the solver has the time to end.
SHALLOW_DEPTH_BEFORE_SOLVING = 4


def review_move(
    board: Board,
    move: Move,
    *,
    ply: int,
    time_limit: float,
    exact_empties: int,
    exact_time_limit: float,
) -> MoveReview:
    """Score every legal move of ``board`` within ``time_limit`` seconds, or solve them all to
    the end within ``exact_time_limit`` with ``exact_empties`` empties or fewer (the deepest
    search finished when the solver runs out of time), and compare ``move`` with the best."""
    if board.empties() <= exact_empties:
        found = analyse(
            board, time_limit=exact_time_limit, max_depth=SHALLOW_DEPTH_BEFORE_SOLVING, exact=True
        )
    else:
        found = analyse(board, time_limit=time_limit, exact=False)
    best = found.moves[0]
    played = next((scored for scored in found.moves if scored.move == move), best)
    return MoveReview(
        ply=ply,
        color=COLOR_NAMES[board.turn],
        move=str(move),
        best=str(best.move),
        best_score=best.score,
        score=played.score,
        loss=max(0.0, best.score - played.score),
        exact=found.exact,
        depth=found.depth,
    )
