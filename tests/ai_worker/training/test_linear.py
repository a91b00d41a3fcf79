"""The linear evaluation's training (``python -m ai_worker train-linear``) and its file."""

import json
from pathlib import Path

import numpy as np
import pytest

from ai_worker.engine import Variant
from ai_worker.fast import generic
from ai_worker.linear_weights import LinearWeightsError, load_linear_weights, save_linear_weights
from ai_worker.training.linear import LinearSettings, fit, run_linear, self_play


def test_fit_recovers_the_weights_behind_noiseless_labels() -> None:
    rng = np.random.default_rng(3)
    truth = rng.normal(0, 100, size=(generic.PHASES, generic.N_FEATURES))
    rows = rng.normal(0, 5, size=(4000, generic.N_FEATURES))
    phases = rng.integers(0, generic.PHASES, size=4000)
    labels = np.einsum("ij,ij->i", rows, truth[phases]) - 700  # any constant: dropped
    assert fit(rows, labels, phases, ridge=1e-6) == pytest.approx(truth, abs=1e-3)


def test_a_phase_without_positions_keeps_the_hand_weights() -> None:
    rows = np.random.default_rng(1).normal(size=(10, generic.N_FEATURES))
    weights = fit(rows, rows.sum(axis=1), np.zeros(10, dtype=np.int64), ridge=1.0)
    assert np.array_equal(weights[1:], generic.hand_weights(False)[1:])
    assert not np.array_equal(weights[0], generic.hand_weights(False)[0])


def test_self_play_labels_each_position_for_every_player_with_its_final_margin() -> None:
    settings = LinearSettings(games=2)
    rows, labels, phases = self_play(Variant(players=3), settings, seed=5)
    assert rows.shape == (len(labels), generic.N_FEATURES)
    assert len(labels) % 3 == 0
    per_position = labels.reshape(-1, 3)
    # a position's three labels are its players' margins against their best rival: the
    # leader's is the only positive one, or all are 0 or below when the lead is shared
    assert ((per_position > 0).sum(axis=1) <= 1).all()
    assert set(np.unique(phases)) <= set(range(generic.PHASES))
    # the features of one position sum to zero over the players (each is own less mean)
    assert (
        np.abs(rows.reshape(-1, 3, generic.N_FEATURES)[:, :, : generic.PARITY].sum(axis=1)).max()
        < 1e-9
    )


def test_a_run_is_reproducible_and_writes_a_file_the_engine_loads(tmp_path: Path) -> None:
    first = run_linear(LinearSettings(out=tmp_path / "a.json", games=3), log=lambda _: None)
    again = run_linear(LinearSettings(out=tmp_path / "b.json", games=3), log=lambda _: None)
    assert (tmp_path / "a.json").read_text() == (tmp_path / "b.json").read_text()
    loaded = load_linear_weights(tmp_path / "a.json")
    assert sorted(loaded) == sorted(first) == sorted(again)
    for name, weights in first.items():
        assert loaded[name] == pytest.approx(weights, abs=0.01)
    document = json.loads((tmp_path / "a.json").read_text())
    assert document["training"]["games"] == 3


def test_a_file_for_other_features_or_another_format_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    save_linear_weights({"10x10/2": generic.hand_weights(False)}, {"seed": 1}, path)
    document = json.loads(path.read_text())
    document["features"] = document["features"][:-1]
    path.write_text(json.dumps(document))
    with pytest.raises(LinearWeightsError, match="other features"):
        load_linear_weights(path)
    document["format"] = 99
    path.write_text(json.dumps(document))
    with pytest.raises(LinearWeightsError, match="format 99"):
        load_linear_weights(path)
    with pytest.raises(LinearWeightsError, match="cannot be read"):
        load_linear_weights(tmp_path / "missing.json")
