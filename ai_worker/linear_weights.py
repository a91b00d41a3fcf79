"""The file of the trained linear evaluation of the generic search (``ai_worker/data/
linear-weights.json``, made by ``python -m ai_worker train-linear``).

A JSON object: the format version, the feature names and the phase count the weights were
made for (``generic.FEATURE_NAMES``, ``generic.PHASES``), how they were trained, and per set
(``"<board>/<players>"``, e.g. ``"10x10/2"``) a ``PHASES`` x ``N_FEATURES`` list of weights
in hundredths of a disc per unit of each feature. A file of another version or for other
features is refused with ``LinearWeightsError`` (retrain).
"""

import json
from pathlib import Path
from typing import Any

import numpy as np

from ai_worker.engine import Variant
from ai_worker.fast.generic import FEATURE_NAMES, N_FEATURES, PHASES

FORMAT_VERSION = 1
LINEAR_WEIGHTS = Path(__file__).resolve().parent / "data" / "linear-weights.json"


class LinearWeightsError(ValueError):
    """A linear weights file that this engine cannot use."""


def set_name(board: str, players: int) -> str:
    """The name of the weights set of a board shape and player count."""
    return f"{board}/{players}"


def save_linear_weights(
    sets: dict[str, np.ndarray], training: dict[str, Any], path: Path = LINEAR_WEIGHTS
) -> None:
    """Write ``sets`` (name to ``PHASES`` x ``N_FEATURES`` weights) and how they were made."""
    document = {
        "format": FORMAT_VERSION,
        "features": list(FEATURE_NAMES),
        "phases": PHASES,
        "training": training,
        "sets": {name: np.round(w, 2).tolist() for name, w in sorted(sets.items())},
    }
    path.write_text(json.dumps(document, indent=1) + "\n")


def load_linear_weights(path: Path = LINEAR_WEIGHTS) -> dict[str, np.ndarray]:
    """The weights sets of ``path`` by name (see ``set_name``)."""
    try:
        document = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise LinearWeightsError(f"{path}: cannot be read ({error})") from error
    if document.get("format") != FORMAT_VERSION:
        raise LinearWeightsError(
            f"{path}: format {document.get('format')!r}, this engine reads {FORMAT_VERSION}"
            " (retrain with python -m ai_worker train-linear)"
        )
    if document.get("features") != list(FEATURE_NAMES) or document.get("phases") != PHASES:
        raise LinearWeightsError(
            f"{path}: made for other features or phases (retrain with python -m ai_worker"
            " train-linear)"
        )
    sets = {}
    for name, rows in document["sets"].items():
        weights = np.ascontiguousarray(rows, dtype=np.float64)
        if weights.shape != (PHASES, N_FEATURES):
            raise LinearWeightsError(f"{path}: set {name} is not {PHASES} x {N_FEATURES}")
        sets[name] = weights
    return sets


def weights_for(variant: Variant, sets: dict[str, np.ndarray]) -> np.ndarray | None:
    """The trained set of ``variant``'s board and player count, None for anti-reversi (the
    sets are trained for the most discs) or when there is none."""
    if variant.anti:
        return None
    return sets.get(set_name(variant.board, variant.players))
