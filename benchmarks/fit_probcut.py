"""Fit Multi-ProbCut for an evaluation: ``python -m benchmarks.fit_probcut``.

For positions of varied games (15 to 50 empties), each depth ``d`` of 3 to ``--max-depth``
is searched in full and to ``shallow_depth(d)``; a least-squares line ``deep = a * shallow +
b`` and the spread ``sigma`` of its errors are the cut of depth ``d`` (hundredths of a disc).
Deeper depths reuse the deepest fit. The evaluation is named by ``--weights``
(``module:attribute`` of its weights array), so the fit can be re-run for any evaluation;
the result is a JSON file the search loads (``ai_worker/data/probcut-<name>.json``). A
``--weights`` attribute that is a function is called for the array (``strong_weights``).

With ``--endgame``, the selective endgame's cut instead (``ai_worker/data/endcut-<name>.json``,
see ``fast.endgame``): for positions of ``ENDGAME_FIT_EMPTIES`` empties from varied games (those
of the endgame test set, another seed), the exact value (discs) against the
``endcut_depth``-ply value (hundredths of a disc); a, b and sigma per number of empties, each
smoothed by a least-squares line over the empties and extended to ``ENDGAME_CUT_MAX`` empties.
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
from ai_worker.fast.endgame import endcut_depth
from ai_worker.fast.evaluation import HEURISTIC_LIMIT
from ai_worker.fast.midgame import shallow_depth

DATA = Path(__file__).resolve().parent.parent / "ai_worker" / "data"
ENDGAME_FIT_EMPTIES = range(10, 21)
ENDGAME_CUT_MAX = 30


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
    from ai_worker.search import MAX_DEPTH  # the search loads the fits: not at import time

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


def fit_endgame(per_empties: int, seed: int, weights: np.ndarray) -> list[list[float]]:
    """The (a, b, sigma) rows of 0 to ``ENDGAME_CUT_MAX`` empties (zeros below the fit)."""
    from benchmarks.endgame_set import random_game_position

    rng = random.Random(seed)
    fitted = []
    for empties in ENDGAME_FIT_EMPTIES:
        shallow_values: list[float] = []
        exact_values: list[int] = []
        while len(exact_values) < per_empties:
            board = random_game_position(rng, empties)
            if board is None:
                continue
            position = Position.of(board)
            searcher = Searcher(time.monotonic_ns() + 3600 * 10**9, SearchTables(16, 20, 16))
            exact = searcher.exact(position, weights=weights)
            shallow = searcher.midgame(position, endcut_depth(empties), weights=weights)
            assert exact is not None
            assert shallow is not None
            if abs(shallow) < HEURISTIC_LIMIT:
                shallow_values.append(shallow / 100)
                exact_values.append(exact)
        a, b = np.polyfit(shallow_values, exact_values, 1)
        sigma = float(np.std(np.array(exact_values) - (a * np.array(shallow_values) + b)))
        fitted.append((empties, float(a), float(b), sigma))
        print(f"{empties} empties, depth {endcut_depth(empties)}: a {a:.3f} b {b:.2f}"
              f" sigma {sigma:.2f} discs", flush=True)  # fmt: skip
    empties_fitted = np.array([row[0] for row in fitted])
    lines = [np.polyfit(empties_fitted, [row[k] for row in fitted], 1) for k in (1, 2, 3)]
    rows = [[0.0, 0.0, 0.0] for _ in range(ENDGAME_CUT_MAX + 1)]
    for empties in range(ENDGAME_FIT_EMPTIES.start, ENDGAME_CUT_MAX + 1):
        rows[empties] = [float(np.polyval(line, empties)) for line in lines]
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.fit_probcut", description=__doc__)
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--max-depth", type=int, default=9)
    parser.add_argument("--weights", default="ai_worker.fast.evaluation:HAND_WEIGHTS")
    parser.add_argument("--name", default="hand", help="the evaluation's name in the file name")
    parser.add_argument("--endgame", action="store_true", help="fit the selective endgame")
    args = parser.parse_args(argv)
    module, _, attribute = args.weights.partition(":")
    weights = getattr(importlib.import_module(module), attribute)
    if callable(weights):
        weights = weights()
    if args.endgame:
        rows = fit_endgame(args.positions, args.seed, weights)
        out = DATA / f"endcut-{args.name}.json"
    else:
        rows = fit(sample_positions(args.positions, args.seed), args.max_depth, weights)
        out = DATA / f"probcut-{args.name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    fitted = {
        "evaluation": args.weights,
        "positions": args.positions,
        "seed": args.seed,
        **(
            {"fit_empties": [ENDGAME_FIT_EMPTIES.start, ENDGAME_FIT_EMPTIES.stop - 1]}
            if args.endgame
            else {"max_depth": args.max_depth}
        ),
        "cuts": rows,
    }
    out.write_text(json.dumps(fitted, indent=1) + "\n")
    print(f"written {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
