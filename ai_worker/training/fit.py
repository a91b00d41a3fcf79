"""Least squares over sparse pattern features, by conjugate gradients on numpy arrays.

A position's features are ``N_FEATURES`` indices into a phase's weights (``patterns``); its
value is the sum of those weights. Indices that share a weight (``shared_indices``) are one
unknown. ``fit_phase`` solves ``min |A w - y|^2 + ridge |w - prior|^2`` for the 0/1 matrix
``A`` without building it.
"""

from dataclasses import dataclass

import numpy as np

from ai_worker.fast.patterns import TABLE_SIZE, shared_indices


@dataclass(frozen=True)
class Fit:
    """Fitted weights (discs, one per index of a phase) and their root-mean-square errors
    on the positions fitted and on the held-out ones."""

    weights: np.ndarray
    train_rmse: float
    test_rmse: float


def fit_phase(
    features: np.ndarray,
    labels: np.ndarray,
    prior: np.ndarray,
    *,
    ridge: float,
    iterations: int,
    test_share: float = 0.1,
) -> Fit:
    """Weights for positions with ``features`` (rows of indices) and ``labels`` (discs),
    pulled towards ``prior`` where the positions say little. The last ``test_share`` of the
    rows is held out to measure the error."""
    shared = shared_indices()
    columns = shared[features]
    n_test = int(len(labels) * test_share)
    train, test = slice(0, len(labels) - n_test), slice(len(labels) - n_test, len(labels))
    prior = prior.astype(np.float64)
    delta = _conjugate_gradients(
        columns[train], labels[train] - _values(columns[train], prior), ridge, iterations
    )
    weights = (prior + delta)[shared]
    return Fit(
        weights,
        _rmse(columns[train], labels[train], weights),
        _rmse(columns[test], labels[test], weights),
    )


def _values(columns: np.ndarray, weights: np.ndarray) -> np.ndarray:
    values: np.ndarray = weights[columns].sum(axis=1)
    return values


def _transposed(columns: np.ndarray, residuals: np.ndarray) -> np.ndarray:
    spread = np.repeat(residuals, columns.shape[1])
    transposed: np.ndarray = np.bincount(columns.ravel(), weights=spread, minlength=TABLE_SIZE)
    return transposed


def _conjugate_gradients(
    columns: np.ndarray, targets: np.ndarray, ridge: float, iterations: int
) -> np.ndarray:
    """``w`` minimising ``|A w - targets|^2 + ridge |w|^2`` (normal equations, CG)."""
    w = np.zeros(TABLE_SIZE)
    if len(targets) == 0:
        return w
    r = _transposed(columns, targets)
    p = r.copy()
    rr = r @ r
    for _ in range(iterations):
        if rr < 1e-12:
            break
        q = _transposed(columns, _values(columns, p)) + ridge * p
        step = rr / (p @ q)
        w += step * p
        r -= step * q
        new_rr = r @ r
        p = r + (new_rr / rr) * p
        rr = new_rr
    return w


def _rmse(columns: np.ndarray, labels: np.ndarray, weights: np.ndarray) -> float:
    if len(labels) == 0:
        return 0.0
    return float(np.sqrt(np.mean((_values(columns, weights) - labels) ** 2)))
