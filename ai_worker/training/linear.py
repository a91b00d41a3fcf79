"""Training of the linear evaluation of the generic search (``python -m ai_worker
train-linear``), numpy only.

For each board and player count of ``SETS``: ``games`` games of self-play by the generic
kernels (a ``search_depth``-ply paranoid search with the hand-written evaluation, a random
move at ``random_share`` of the turns); every position is kept once for each player, with
that player's features (``generic.features``) and the game's final margin for that player
(hundredths of a disc: its discs less the best rival's, with 2 players the empties to the
winner, as ``generic.terminal_score`` counts). Then per phase (``generic.phase_of``) least
squares with an intercept (dropped), ridge-regularised towards the hand-written weights
(``generic.hand_weights``) so a feature the games say little about keeps its hand value. The
sets go to ``ai_worker/data/linear-weights.json`` (``ai_worker.linear_weights``). The same
settings and seed give the same weights.
"""

import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from ai_worker.engine import Board, Variant
from ai_worker.fast import generic
from ai_worker.fast.evaluation import INF
from ai_worker.fast.geometry import Geometry, discs_of, geometry_of
from ai_worker.fast.searchstate import new_stats, new_table
from ai_worker.linear_weights import LINEAR_WEIGHTS, save_linear_weights, set_name

SETS = (
    ("6x6", 2), ("10x10", 2), ("octagon", 2),
    ("8x8", 3), ("10x10", 3), ("octagon", 3),
    ("8x8", 4), ("10x10", 4), ("octagon", 4),
)  # fmt: skip
"""The (board, players) of every trained set: every generic variant but anti-reversi."""
_FOREVER_NS = 10**18
_TABLE_BITS = 16
Log = Callable[[str], None]


@dataclass(frozen=True)
class LinearSettings:
    """What a run does; the same settings give the same weights."""

    out: Path = LINEAR_WEIGHTS
    seed: int = 1
    games: int = 1000
    search_depth: int = 2
    random_share: float = 0.2
    ridge: float = 200.0

    def recipe(self) -> dict[str, object]:
        """The settings that decide the weights (not where they go)."""
        recipe = asdict(self)
        del recipe["out"]
        return recipe


def run_linear(settings: LinearSettings, log: Log = print) -> dict[str, np.ndarray]:
    """Every set of ``SETS``, written to ``settings.out``; returns them by name."""
    sets = {}
    for index, (board, players) in enumerate(SETS):
        started = time.process_time()
        variant = Variant(board=board, players=players)
        rows, labels, phases = self_play(variant, settings, settings.seed * 1000 + index)
        name = set_name(board, players)
        sets[name] = fit(rows, labels, phases, settings.ridge)
        log(
            f"{name}: {settings.games} games, {len(labels)} positions x players,"
            f" {time.process_time() - started:.1f} CPU-s"
        )
    save_linear_weights(sets, settings.recipe(), settings.out)
    return sets


def self_play(
    variant: Variant, settings: LinearSettings, seed: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(features, final margin, phase) of every position of ``settings.games`` games, once
    per player."""
    rng = random.Random(seed)
    rows = Board(variant).rows()
    g = geometry_of(rows)
    start = discs_of(rows)
    n = variant.players
    table = new_table(_TABLE_BITS)
    hand = generic.hand_weights(False)
    scratch = np.empty(generic.N_FEATURES, dtype=np.float64)
    features: list[np.ndarray] = []
    labels: list[float] = []
    phases: list[int] = []
    for _ in range(settings.games):
        discs = start.copy()
        player = 0
        seen: list[tuple[np.ndarray, int, int]] = []  # features, phase, player of the row
        while True:
            moves = generic.move_list(discs, g.masks, g.shifts, player, n)
            following = (player + 1) % n
            if not moves:
                if n > 2 or not generic.move_list(discs, g.masks, g.shifts, following, n):
                    break
                player = following
                continue
            phase = int(generic.phase_of(discs, g.masks))
            for root in range(n):
                generic.features(discs, g.masks, g.shifts, root, player, n, scratch)
                seen.append((scratch.copy(), phase, root))
            if rng.random() < settings.random_share:
                move = rng.choice(moves)
            else:
                move = _best_move(discs, g, moves, player, n, hand, settings.search_depth, table)
            generic.play(discs, g.shifts, move, player)
            player = following
        margins = _final_margins(discs, g, n)
        for row, phase, root in seen:
            features.append(row)
            phases.append(phase)
            labels.append(margins[root])
    return np.array(features), np.array(labels), np.array(phases)


def _best_move(
    discs: np.ndarray,
    g: Geometry,
    moves: list[int],
    player: int,
    n: int,
    weights: np.ndarray,
    depth: int,
    table: np.ndarray,
) -> int:
    """The first best of ``moves`` by a ``depth``-ply search for ``player``."""
    stats = new_stats(_FOREVER_NS)
    best, best_value = moves[0], -INF
    for move in moves:
        child = discs.copy()
        generic.play(child, g.shifts, move, player)
        value = generic.search(
            child, g.masks, g.shifts, g.weights, weights,
            (player + 1) % n, player, n, 0, depth - 1, -INF, INF, stats, table,
        )  # fmt: skip
        if value > best_value:
            best, best_value = move, value
    return best


def _final_margins(discs: np.ndarray, g: Geometry, n: int) -> list[float]:
    """Each player's final margin in hundredths of a disc (``generic.terminal_score`` without
    the win offset)."""
    counts = [int(discs[2 * q]).bit_count() + int(discs[2 * q + 1]).bit_count() for q in range(n)]
    cells = int(g.masks[0, 0]).bit_count() + int(g.masks[0, 1]).bit_count()
    empties = cells - sum(
        int(discs[2 * c]).bit_count() + int(discs[2 * c + 1]).bit_count()
        for c in range(generic.COLOURS)
    )
    margins = []
    for q in range(n):
        margin = counts[q] - max(counts[r] for r in range(n) if r != q)
        if n == 2 and margin:
            margin += empties if margin > 0 else -empties
        margins.append(100.0 * margin)
    return margins


def fit(rows: np.ndarray, labels: np.ndarray, phases: np.ndarray, ridge: float) -> np.ndarray:
    """Per phase, the weights ``w`` minimising ``|rows w + b - labels|^2 + ridge |w - hand|^2``
    (``hand``: the hand-written weights) over ``w`` and an intercept ``b``, which is dropped: a
    constant per phase changes no choice of the search, and without it the tempo feature (whose
    mean is not 0 with 3-4 players) would stand in for it. A phase without positions keeps the
    hand weights."""
    hand = generic.hand_weights(False)
    weights = hand.copy()
    n = generic.N_FEATURES
    penalty = np.diag([ridge] * n + [0.0])
    for phase in range(generic.PHASES):
        chosen = phases == phase
        if not chosen.any():
            continue
        a = np.hstack([rows[chosen], np.ones((int(chosen.sum()), 1))])
        y = labels[chosen]
        prior = np.append(ridge * hand[phase], 0.0)
        weights[phase] = np.linalg.solve(a.T @ a + penalty, a.T @ y + prior)[:n]
    return weights
