"""The stages of a training run (see the package docstring), each saved in ``Settings.folder``."""

import json
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from ai_worker.fast.api import Position, Searcher, SearchTables, root_order
from ai_worker.fast.evaluation import HEURISTIC_LIMIT, WIN_SCORE, pattern_weights
from ai_worker.fast.patterns import EMPTIES_PER_PHASE, PHASES, TABLE_SIZE, feature_matrix
from ai_worker.weights import save_weights

START = Position(np.uint64(0x0000000810000000), np.uint64(0x0000001008000000), np.uint64(0), False)
_FOREVER_NS = 10**18
Log = Callable[[str], None]


@dataclass(frozen=True)
class Settings:
    """What a run does; the same settings give the same weights."""

    folder: Path
    out: Path
    seed: int = 1
    games: int = 6000
    positions_per_phase: int = 20000
    exact_empties: int = 16
    search_depth: int = 5
    random_share: float = 0.25
    self_play_noise: float = 0.12
    ridge: float = 10.0
    iterations: int = 150
    anti: bool = False

    def recipe(self) -> dict[str, object]:
        """The settings that decide the weights (not where files go)."""
        recipe = asdict(self)
        del recipe["folder"], recipe["out"]
        return recipe


def run(settings: Settings, log: Log = print) -> np.ndarray:
    """Every stage not saved yet, then the weights file; returns the int16 tables."""
    if settings.search_depth < EMPTIES_PER_PHASE:
        raise ValueError(f"the search depth must be {EMPTIES_PER_PHASE} or more (one phase)")
    folder = settings.folder
    folder.mkdir(parents=True, exist_ok=True)
    recipe_file = folder / "settings.json"
    if recipe_file.exists():
        if json.loads(recipe_file.read_text()) != settings.recipe():
            raise ValueError(f"{folder} holds a run with other settings: use another folder")
    else:
        recipe_file.write_text(json.dumps(settings.recipe(), indent=1, sort_keys=True))
    players, opponents = _stage_positions(settings, log)
    empties = 64 - np.array(
        [int(p | o).bit_count() for p, o in zip(players, opponents, strict=True)]
    )
    tables = np.zeros((PHASES, TABLE_SIZE), dtype=np.int16)
    prior = np.zeros(TABLE_SIZE)
    summary = []
    for phase in range(PHASES):
        saved = folder / f"phase-{phase:02d}.npz"
        if not saved.exists():
            _fit_stage(settings, phase, players, opponents, empties, tables, prior, saved, log)
        stage = np.load(saved)
        tables[phase] = stage["tables"]
        prior = stage["weights"]
        summary.append({k: float(stage[k]) for k in ("train_rmse", "test_rmse", "cpu_seconds")})
        summary[-1]["positions"] = int(stage["labels"].shape[0])
    info = {
        "variant": "anti" if settings.anti else "reversi",
        "training": settings.recipe(),
        "phases_fitted": summary,
    }
    save_weights(settings.out, tables, info)
    log(f"weights written to {settings.out}")
    return tables


def _stage_positions(settings: Settings, log: Log) -> tuple[np.ndarray, np.ndarray]:
    saved = settings.folder / "positions.npz"
    if not saved.exists():
        started = time.process_time()
        players, opponents = play_games(settings)
        _save(saved, players=players, opponents=opponents)
        log(
            f"positions: {len(players)} from {settings.games} games,"
            f" CPU {time.process_time() - started:.1f} s"
        )
    stage = np.load(saved)
    return stage["players"], stage["opponents"]


def play_games(settings: Settings) -> tuple[np.ndarray, np.ndarray]:
    """The distinct positions (with a move) of the run's games, in the order played: a share
    of random games, the others self-play by the one-ply hand evaluation with random moves
    mixed in."""
    rng = random.Random(settings.seed)
    seen: dict[tuple[int, int], None] = {}
    start = Position(START.player, START.opponent, START.walls, settings.anti)
    for _ in range(settings.games):
        noise = 1.0 if rng.random() < settings.random_share else settings.self_play_noise
        position = start
        while True:
            squares = position.legal_squares()
            if not squares:
                position = position.passed()
                if not position.legal_squares():
                    break
                continue
            seen.setdefault((int(position.player), int(position.opponent)))
            square = rng.choice(squares) if rng.random() < noise else root_order(position)[0]
            position = position.play(square)
    keys = list(seen)
    return (
        np.array([k[0] for k in keys], dtype=np.uint64),
        np.array([k[1] for k in keys], dtype=np.uint64),
    )


def _fit_stage(
    settings: Settings,
    phase: int,
    players: np.ndarray,
    opponents: np.ndarray,
    empties: np.ndarray,
    tables: np.ndarray,
    prior: np.ndarray,
    saved: Path,
    log: Log,
) -> None:
    """Label a sample of the phase's positions (saved apart: exact labels do not depend on
    the fit), fit its weights, save them."""
    from ai_worker.training.fit import fit_phase

    low, high = phase * EMPTIES_PER_PHASE + 1, (phase + 1) * EMPTIES_PER_PHASE
    members = np.flatnonzero((empties >= low) & (empties <= high))
    order = np.random.default_rng([settings.seed, phase]).permutation(members)
    chosen = order[: settings.positions_per_phase]
    exact = high <= settings.exact_empties
    labels_file = settings.folder / f"labels-{phase:02d}.npz"
    if not labels_file.exists():
        started = time.process_time()
        weights = label_weights(tables, settings.anti)
        labels = [
            _label(Position(players[i], opponents[i], np.uint64(0), settings.anti), exact,
                   weights, settings.search_depth)
            for i in chosen
        ]  # fmt: skip
        _save(labels_file, labels=np.array(labels, dtype=np.float64),
              cpu_seconds=time.process_time() - started)  # fmt: skip
    labelled = np.load(labels_file)
    labels, label_cpu = labelled["labels"], float(labelled["cpu_seconds"])
    started = time.process_time()
    features = feature_matrix(players[chosen], opponents[chosen])
    fit = fit_phase(features, labels, prior, ridge=settings.ridge, iterations=settings.iterations)
    fitted = np.clip(np.rint(fit.weights * 100), -32000, 32000).astype(np.int16)
    fit_cpu = time.process_time() - started
    _save(saved, labels=labels, weights=fit.weights, tables=fitted, train_rmse=fit.train_rmse,
          test_rmse=fit.test_rmse, cpu_seconds=label_cpu + fit_cpu)  # fmt: skip
    log(
        f"phase {phase} ({low}-{high} empties): {len(chosen)} positions labelled"
        f" {'exactly' if exact else f'by {settings.search_depth}-ply searches'} in CPU"
        f" {label_cpu:.1f} s, fit CPU {fit_cpu:.1f} s, error {fit.train_rmse:.2f} discs"
        f" (held out: {fit.test_rmse:.2f})"
    )


def label_weights(tables: np.ndarray, anti: bool) -> np.ndarray:
    """The weights vector of the labelling searches: ``tables`` (the phases trained so far)
    in the variant's slot, so anti-reversi leaves are valued by them too, not by the
    hand-written evaluation."""
    if anti:
        return pattern_weights(np.zeros_like(tables), tables)
    return pattern_weights(tables)


def _label(position: Position, exact: bool, weights: np.ndarray, depth: int) -> float:
    """The position's value in discs for the side to move: exact, or a ``depth``-ply search
    (at least one phase deep, so its leaves lie in the phases trained already)."""
    searcher = Searcher(_FOREVER_NS, _tables())
    value = (
        searcher.exact(position) if exact else searcher.midgame(position, depth, weights=weights)
    )
    if value is None:
        raise RuntimeError("a labelling search ran out of time, which it has no limit of")
    if exact:
        return float(value)
    if value > HEURISTIC_LIMIT:
        value -= WIN_SCORE
    elif value < -HEURISTIC_LIMIT:
        value += WIN_SCORE
    return value / 100


_label_tables: SearchTables | None = None


def _tables() -> SearchTables:
    """Small tables shared by the labelling searches; cleared so no label depends on the
    ones before it."""
    global _label_tables
    if _label_tables is None:
        _label_tables = SearchTables(14, 16, 12)
    for table in (_label_tables.midgame, _label_tables.endgame, _label_tables.shallow):
        table[:] = 0
    return _label_tables


def _save(path: Path, **arrays: object) -> None:
    """Write an npz stage file whole or not at all."""
    partial = path.with_suffix(".partial.npz")
    np.savez(partial, **arrays)  # type: ignore[arg-type]
    partial.replace(path)
