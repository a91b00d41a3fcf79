"""The file of a trained pattern evaluation (``ai_worker/data/patterns-*.bin``).

Layout: the magic ``RVPW``, the format version (uint16), the length of a JSON header
(uint32), the header (the patterns with their squares, the phase count and the sizes the
tables were made for, the variant, how they were trained), then the tables as little-endian
int16 (hundredths of a disc), ``PHASES`` x ``TABLE_SIZE``, compressed with zlib. A file of
another format version, or made for other patterns, is refused with ``WeightsFileError``
(retrain with ``python -m ai_worker train``).
"""

import json
import struct
import zlib
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
)

MAGIC = b"RVPW"
FORMAT_VERSION = 1
DATA = Path(__file__).resolve().parent / "data"
_PREFIX = struct.Struct("<4sHI")


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
    """Write int16 ``tables`` (``PHASES`` x ``TABLE_SIZE``) with ``info`` (variant, training
    settings) in the header."""
    if tables.shape != (PHASES, TABLE_SIZE) or tables.dtype != np.int16:
        raise WeightsFileError(f"tables must be int16 of shape {(PHASES, TABLE_SIZE)}")
    header = json.dumps({**layout(), **info}, sort_keys=True).encode()
    payload = zlib.compress(tables.astype("<i2").tobytes(), 9)
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
    raw = zlib.decompress(data[_PREFIX.size + length :])
    tables = np.frombuffer(raw, dtype="<i2").astype(np.int16).reshape(PHASES, TABLE_SIZE)
    return tables, header


def strong_weights() -> np.ndarray:
    """The weights vector of strong's evaluation (``evaluation.pattern_weights``) from the
    committed reversi tables, with the anti-reversi ones when that file exists."""
    reversi, _ = load_weights(DATA / "patterns-reversi.bin")
    anti_file = DATA / "patterns-anti.bin"
    anti = load_weights(anti_file)[0] if anti_file.exists() else None
    return pattern_weights(reversi, anti)
