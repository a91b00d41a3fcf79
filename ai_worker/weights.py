"""The file of a trained pattern evaluation (``ai_worker/data/patterns-*.bin``).

Layout: the magic ``RVPW``, the format version (uint16), the length of a JSON header
(uint32), the header (the patterns with their squares, the phase count and the sizes the
tables were made for, the variant, how they were trained), then the tables as little-endian
int16 (hundredths of a disc), compressed with LZMA (``lzma``, standard library). Only one
index of each group that must share a weight is stored (``patterns.shared_indices``: the
configurations a symmetry of their pattern maps onto each other), ``PHASES`` rows of
``STORED`` values; loading copies each weight back to the indices sharing it, so the tables
read are exactly the tables saved (version 1 stored all ``TABLE_SIZE`` indices with zlib,
1.9 MB for what now takes 0.44 MB). A file of another format version, or made for other
patterns, is refused with ``WeightsFileError`` (retrain with ``python -m ai_worker train``).
"""

import json
import lzma
import struct
from pathlib import Path
from typing import Any

import numpy as np

from ai_worker.fast.evaluation import pattern_weights
from ai_worker.fast.patterns import (
    EMPTIES_PER_PHASE,
    MOBILITY_CAP,
    PATTERNS,
    PHASES,
    TABLE_SIZE,
    shared_indices,
)

MAGIC = b"RVPW"
FORMAT_VERSION = 2
DATA = Path(__file__).resolve().parent / "data"
_PREFIX = struct.Struct("<4sHI")
_SHARED = shared_indices()
_STORED_INDICES = np.flatnonzero(np.arange(TABLE_SIZE) == _SHARED)
STORED = len(_STORED_INDICES)
"""Values stored per phase: one per group of indices sharing a weight."""
_COLUMN_OF = np.searchsorted(_STORED_INDICES, _SHARED)
"""For each index of a phase's weights, the stored value it takes."""


class WeightsFileError(ValueError):
    """A weights file that this engine cannot use."""


def layout() -> dict[str, Any]:
    """What the tables' shape depends on: the header must match it to be loaded."""
    return {
        "patterns": [[p.name, list(p.squares)] for p in PATTERNS],
        "phases": PHASES,
        "empties_per_phase": EMPTIES_PER_PHASE,
        "mobility_cap": MOBILITY_CAP,
        "table_size": TABLE_SIZE,
    }


def save_weights(path: Path, tables: np.ndarray, info: dict[str, Any]) -> None:
    """Write int16 ``tables`` (``PHASES`` x ``TABLE_SIZE``, indices that share a weight
    equal, as the training makes them) with ``info`` (variant, training settings) in the
    header."""
    if tables.shape != (PHASES, TABLE_SIZE) or tables.dtype != np.int16:
        raise WeightsFileError(f"tables must be int16 of shape {(PHASES, TABLE_SIZE)}")
    if not np.array_equal(tables, tables[:, _SHARED]):
        raise WeightsFileError(
            "tables must give the indices that share a weight (patterns.shared_indices) equal"
        )
    header = json.dumps({**layout(), **info}, sort_keys=True).encode()
    stored = np.ascontiguousarray(tables[:, _STORED_INDICES], dtype="<i2")
    payload = lzma.compress(stored.tobytes(), preset=9 | lzma.PRESET_EXTREME)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(_PREFIX.pack(MAGIC, FORMAT_VERSION, len(header)) + header + payload)


def load_weights(path: Path) -> tuple[np.ndarray, dict[str, Any]]:
    """The tables and the header of a weights file."""
    data = path.read_bytes()
    if len(data) < _PREFIX.size or data[:4] != MAGIC:
        raise WeightsFileError(f"{path} is not a pattern weights file")
    _, version, length = _PREFIX.unpack_from(data)
    if version != FORMAT_VERSION:
        raise WeightsFileError(
            f"{path} has weights format version {version}; this engine reads version"
            f" {FORMAT_VERSION}: retrain with `python -m ai_worker train`"
        )
    header = json.loads(data[_PREFIX.size : _PREFIX.size + length])
    expected = layout()
    wrong = [key for key, value in expected.items() if header.get(key) != value]
    if wrong:
        raise WeightsFileError(
            f"{path} was made for other patterns ({', '.join(wrong)} differ):"
            " retrain with `python -m ai_worker train`"
        )
    try:
        raw = lzma.decompress(data[_PREFIX.size + length :])
    except lzma.LZMAError as error:
        raise WeightsFileError(f"{path} is damaged: {error}") from error
    if len(raw) != PHASES * STORED * 2:
        raise WeightsFileError(
            f"{path} is damaged: {len(raw)} bytes of tables, {PHASES * STORED * 2} expected"
        )
    stored = np.frombuffer(raw, dtype="<i2").astype(np.int16).reshape(PHASES, STORED)
    return stored[:, _COLUMN_OF], header


def strong_weights() -> np.ndarray:
    """The weights vector of strong's evaluation (``evaluation.pattern_weights``) from the
    committed reversi tables, with the anti-reversi ones when that file exists."""
    reversi, _ = load_weights(DATA / "patterns-reversi.bin")
    anti_file = DATA / "patterns-anti.bin"
    anti = load_weights(anti_file)[0] if anti_file.exists() else None
    return pattern_weights(reversi, anti)
