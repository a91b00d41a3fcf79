"""``python -m ai_worker train``: reproducible from a seed, resumable, and it learns."""

from pathlib import Path

import numpy as np
import pytest

from ai_worker.cli import main
from ai_worker.fast.api import Position
from ai_worker.fast.evaluation import pattern_weights
from ai_worker.fast.patterns import PARITY_OFFSET, PHASES, TABLE_SIZE, feature_matrix
from ai_worker.training.fit import fit_phase
from ai_worker.training.pipeline import START, Settings, label_weights, play_games, run
from ai_worker.weights import load_weights

TINY = {"games": 12, "positions_per_phase": 25, "exact_empties": 8, "iterations": 5}


def tiny(folder: Path, **changes: object) -> Settings:
    return Settings(folder=folder, out=folder / "w.bin", **{**TINY, **changes})  # type: ignore[arg-type]


def test_two_runs_with_the_same_seed_give_the_same_weights(tmp_path: Path) -> None:
    first = run(tiny(tmp_path / "a"), log=lambda line: None)
    second = run(tiny(tmp_path / "b"), log=lambda line: None)
    other_seed = run(tiny(tmp_path / "c", seed=2), log=lambda line: None)
    assert np.array_equal(first, second)
    assert not np.array_equal(first, other_seed)
    loaded, header = load_weights(tmp_path / "a" / "w.bin")
    assert np.array_equal(loaded, first)
    assert header["training"]["seed"] == 1
    assert len(header["phases_fitted"]) == PHASES


def test_a_stopped_run_resumes_from_its_saved_stages(tmp_path: Path) -> None:
    settings = tiny(tmp_path / "run")
    whole = run(settings, log=lambda line: None)
    for late in range(5, PHASES):
        (settings.folder / f"phase-{late:02d}.npz").unlink()
        if late > 8:
            (settings.folder / f"labels-{late:02d}.npz").unlink()
    lines: list[str] = []
    resumed = run(settings, log=lines.append)
    assert np.array_equal(resumed, whole)
    assert not any(line.startswith(("positions", "phase 4 ")) for line in lines)
    assert any(line.startswith("phase 5 ") for line in lines)


def test_a_folder_of_a_run_with_other_settings_is_refused(tmp_path: Path) -> None:
    run(tiny(tmp_path / "run"), log=lambda line: None)
    with pytest.raises(ValueError, match="other settings"):
        run(tiny(tmp_path / "run", seed=5), log=lambda line: None)


def test_the_command_trains_into_the_given_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "w.bin"
    argv = [
        "train",
        "--folder",
        str(tmp_path / "run"),
        "--out",
        str(out),
        "--games",
        "8",
        "--positions",
        "10",
        "--exact-empties",
        "4",
        "--iterations",
        "5",
    ]
    assert main(argv) == 0
    assert "weights written" in capsys.readouterr().out
    assert load_weights(out)[0].shape[0] == PHASES
    assert main([*argv, "--folder", str(tmp_path / "shallow"), "--depth", "2"]) == 2
    assert "search depth must be 4 or more" in capsys.readouterr().err


def test_least_squares_recover_weights_that_explain_the_labels(tmp_path: Path) -> None:
    players, opponents = play_games(tiny(tmp_path, games=200))
    empties = np.array(
        [64 - int(p | o).bit_count() for p, o in zip(players, opponents, strict=True)]
    )
    chosen = np.flatnonzero((empties >= 29) & (empties <= 32))
    features = feature_matrix(players[chosen], opponents[chosen])
    rng = np.random.default_rng(1)
    from ai_worker.fast.patterns import shared_indices

    truth = rng.normal(0, 1, TABLE_SIZE)[shared_indices()]
    labels = truth[features].sum(axis=1)
    fit = fit_phase(
        features, labels, np.zeros(TABLE_SIZE), ridge=1e-6, iterations=300, test_share=0.0
    )
    assert fit.train_rmse < 0.05 * labels.std()
    # and the fitted weights, as int16 tables, value the positions as the labels say
    tables = np.zeros((PHASES, TABLE_SIZE), dtype=np.int16)
    tables[7] = np.rint(fit.weights * 100).astype(np.int16)
    i = chosen[0]
    value = Position(players[i], opponents[i], np.uint64(0), False).evaluate(
        pattern_weights(tables)
    )
    assert abs(value / 100 - labels[0]) < 0.5


@pytest.mark.parametrize("anti", [False, True])
def test_labelling_searches_value_their_variants_leaves_by_the_phases_trained(
    anti: bool,
) -> None:
    # anti-reversi's leaves were valued by the hand-written evaluation: the tables sat in the
    # reversi slot of the weights vector
    tables = np.zeros((PHASES, TABLE_SIZE), dtype=np.int16)
    tables[:, PARITY_OFFSET:] = 1234  # every position's value: its parity weight
    position = Position(START.player, START.opponent, START.walls, anti)
    assert position.evaluate(label_weights(tables, anti)) == 1234
