"""Searching functions."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["argmax", "argmin", "count_nonzero", "nonzero", "searchsorted", "where"]

argmax = np.argmax
argmin = np.argmin
nonzero = np.nonzero
searchsorted = np.searchsorted
where = np.where


def count_nonzero(x: np.ndarray, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    r = np.count_nonzero(x, axis=axis, keepdims=keepdims)
    return np.int64(r) if type(r) is int else r  # NumPy returns a Python int for a full count
