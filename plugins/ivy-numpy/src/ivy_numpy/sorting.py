"""Sorting functions: NumPy has ``stable`` but no ``descending``."""

from __future__ import annotations

import numpy as np

__all__ = ["argsort", "sort"]


def argsort(x: np.ndarray, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> np.ndarray:
    if not descending:
        return np.argsort(x, axis=axis, stable=stable)
    # Stable descending order: sort the reversed array ascending, then map the indices back.
    res = np.flip(np.argsort(np.flip(x, axis=axis), axis=axis, stable=stable), axis=axis)
    return (x.shape[axis] - 1) - res


def sort(x: np.ndarray, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> np.ndarray:
    if not descending:
        return np.sort(x, axis=axis, stable=stable)
    return np.flip(np.sort(x, axis=axis, stable=stable), axis=axis)  # equal values are interchangeable
