"""Fit Multi-ProbCut for an evaluation: ``python -m benchmarks.fit_probcut``.

For positions of varied games (15 to 50 empties), each depth ``d`` of 3 to ``--max-depth``
is searched in full and to ``shallow_depth(d)``; a least-squares line ``deep = a * shallow +
b`` and the spread ``sigma`` of its errors are the cut of depth ``d`` (hundredths of a disc).
Deeper depths reuse the deepest fit. The evaluation is named by ``--weights``
(``module:attribute`` of its weights array), so the fit can be re-run for any evaluation;
the result is a JSON file the search loads (``ai_worker/data/probcut-<name>.json``).
"""

import argparse
import importlib
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

from ai_worker.engine import Board
from ai_worker.fast.api import Position, Searcher, SearchTables
from ai_worker.fast.evaluation import HEURISTIC_LIMIT
from ai_worker.fast.midgame import shallow_depth
from ai_worker.search import MAX_DEPTH

DATA = Path(__file__).resolve().parent.parent / "ai_worker" / "data"


def sample_positions(count: int, seed: int) -> list[Board]:
    """Positions of 15 to 50 empties from random games (not over, a move to play)."""
    rng = random.Random(seed)
    boards: list[Board] = []
    while len(boards) < count:
        board = Board()
        target = rng.randint(15, 50)
        while board.empties() > target and not board.is_game_over():
            board.push(rng.choice(board.legal_moves))
        if not board.is_game_over() and Position.of(board).legal_squares():
            boards.append(board)
    return boards


def _value(position: Position, depth: int, weights: np.ndarray) -> int | None:
    """A full-window ``depth``-ply value with fresh tables (no value seen at another depth)."""
    searcher = Searcher(time.monotonic_ns() + 3600 * 10**9, SearchTables(16, 4, 4))
    return searcher.midgame(position, depth, weights=weights)


def fit(boards: list[Board], max_depth: int, weights: np.ndarray) -> list[list[float]]:
    """The (a, b, sigma) rows of depths 0 to ``MAX_DEPTH`` (zeros below depth 3)."""
    rows = [[0.0, 0.0, 0.0] for _ in range(MAX_DEPTH + 1)]
    for depth in range(3, max_depth + 1):
        shallow_values, deep_values = [], []
        for board in boards:
            position = Position.of(board)
            deep = _value(position, depth, weights)
            shallow = _value(position, shallow_depth(depth), weights)
            assert deep is not None
            assert shallow is not None
            if abs(deep) < HEURISTIC_LIMIT and abs(shallow) < HEURISTIC_LIMIT:
                shallow_values.append(shallow)
                deep_values.append(deep)
        a, b = np.polyfit(shallow_values, deep_values, 1)
        sigma = float(np.std(np.array(deep_values) - (a * np.array(shallow_values) + b)))
        rows[depth] = [float(a), float(b), sigma]
        print(f"depth {depth} from {shallow_depth(depth)}: a {a:.3f} b {b:.1f} sigma {sigma:.1f}")
    for depth in range(max_depth + 1, MAX_DEPTH + 1):
        rows[depth] = list(rows[max_depth])
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.fit_probcut", description=__doc__)
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--max-depth", type=int, default=9)
    parser.add_argument("--weights", default="ai_worker.fast.evaluation:HAND_WEIGHTS")
    parser.add_argument("--name", default="hand", help="the evaluation's name in the file name")
    args = parser.parse_args(argv)
    module, _, attribute = args.weights.partition(":")
    weights = getattr(importlib.import_module(module), attribute)
    rows = fit(sample_positions(args.positions, args.seed), args.max_depth, weights)
    out = DATA / f"probcut-{args.name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    fitted = {
        "evaluation": args.weights,
        "positions": args.positions,
        "seed": args.seed,
        "max_depth": args.max_depth,
        "cuts": rows,
    }
    out.write_text(json.dumps(fitted, indent=1) + "\n")
    print(f"written {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
