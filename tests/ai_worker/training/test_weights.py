"""The weights file: saved tables load back unchanged and compact; other versions, layouts and
damaged files are refused."""

import struct
from pathlib import Path

import numpy as np
import pytest

from ai_worker.engine import Board
from ai_worker.fast.api import Position
from ai_worker.fast.bitboard import ZERO
from ai_worker.fast.evaluation import N_HAND, SET_WORDS
from ai_worker.fast.patterns import PHASES, TABLE_SIZE, shared_indices
from ai_worker.weights import (
    DATA,
    FORMAT_VERSION,
    STORED,
    WeightsFileError,
    load_weights,
    save_weights,
    strong_weights,
)


def some_tables() -> np.ndarray:
    """Random tables whose indices that share a weight are equal, as trained ones are."""
    rng = np.random.default_rng(0)
    tables = rng.integers(-32000, 32000, size=(PHASES, TABLE_SIZE)).astype(np.int16)
    return tables[:, shared_indices()]


def test_saved_tables_load_back_unchanged_with_their_header(tmp_path: Path) -> None:
    path = tmp_path / "w.bin"
    tables = some_tables()
    save_weights(path, tables, {"variant": "reversi", "training": {"seed": 4}})
    loaded, header = load_weights(path)
    assert loaded.dtype == np.int16
    assert np.array_equal(loaded, tables)
    assert header["training"] == {"seed": 4}
    assert header["phases"] == PHASES
    assert header["patterns"][0] == ["edge+2x", [0, 1, 2, 3, 4, 5, 6, 7, 9, 14]]


def test_only_one_value_per_shared_weight_is_stored(tmp_path: Path) -> None:
    assert STORED < TABLE_SIZE * 0.7  # the patterns' own symmetries fold about a third away
    path = tmp_path / "w.bin"
    save_weights(path, np.zeros((PHASES, TABLE_SIZE), dtype=np.int16), {})
    assert path.stat().st_size < 10_000


def test_tables_whose_shared_weights_differ_are_not_saved(tmp_path: Path) -> None:
    tables = some_tables()
    shared = shared_indices()
    index = int(np.flatnonzero(shared != np.arange(TABLE_SIZE))[0])
    tables[3, index] = tables[3, shared[index]] + 1
    with pytest.raises(WeightsFileError, match="share a weight"):
        save_weights(tmp_path / "w.bin", tables, {})


def test_a_damaged_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "w.bin"
    save_weights(path, some_tables(), {})
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(WeightsFileError, match="damaged"):
        load_weights(path)


def test_another_format_version_is_refused_with_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "w.bin"
    save_weights(path, some_tables(), {})
    data = bytearray(path.read_bytes())
    struct.pack_into("<H", data, 4, FORMAT_VERSION + 1)
    path.write_bytes(bytes(data))
    with pytest.raises(WeightsFileError, match=f"format version {FORMAT_VERSION + 1}.*retrain"):
        load_weights(path)


def test_a_file_made_for_other_patterns_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "w.bin"
    save_weights(path, some_tables(), {})
    data = path.read_bytes().replace(b'"phases": 15', b'"phases": 12')
    path.write_bytes(data)
    with pytest.raises(WeightsFileError, match="other patterns \\(phases differ\\)"):
        load_weights(path)


def test_what_is_not_a_weights_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "w.bin"
    path.write_bytes(b"PK\x03\x04 not weights")
    with pytest.raises(WeightsFileError, match="not a pattern weights file"):
        load_weights(path)


def test_tables_of_the_wrong_shape_are_not_saved(tmp_path: Path) -> None:
    with pytest.raises(WeightsFileError, match="int16 of shape"):
        save_weights(tmp_path / "w.bin", np.zeros((2, 3), dtype=np.int16), {})


@pytest.mark.parametrize("variant", ["reversi", "anti"])
def test_the_committed_weights_load_are_trained_and_compact(variant: str) -> None:
    path = DATA / f"patterns-{variant}.bin"
    tables, header = load_weights(path)
    assert header["variant"] == variant
    assert header["training"]["anti"] == (variant == "anti")
    assert (tables != 0).sum(axis=1).min() > 1000  # every phase learned something
    assert path.stat().st_size < 1 << 20


def test_strong_gets_both_sets_of_tables() -> None:
    weights = strong_weights()
    assert weights.dtype == np.int64
    assert weights.shape[0] == N_HAND + 2 * SET_WORDS


def test_the_anti_reversi_tables_dislike_the_corners_the_reversi_ones_like() -> None:
    # after f5 d6 c3 d3 c4 f4 f6 f3 e6 e7, a corner for the side to move is worth discs in
    # reversi and costs discs in anti-reversi: its tables learned that from anti-reversi games
    board = Board.from_moves(None, ["f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3", "e6", "e7"])
    weights = strong_weights()
    gain = {}
    for anti in (False, True):
        start = Position.of(board)
        plain = Position(start.player, start.opponent, ZERO, anti)
        cornered = Position(plain.player | np.uint64(1), plain.opponent, ZERO, anti)
        gain[anti] = cornered.evaluate(weights) - plain.evaluate(weights)
    assert gain[False] > 100
    assert gain[True] < -100
