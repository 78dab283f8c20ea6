"""Searching functions."""

from __future__ import annotations

from typing import Any

import numpy as np

from ivy.plugin_kit import fastpath

from .elementwise import promote2

__all__ = ["argmax", "argmin", "count_nonzero", "nonzero", "searchsorted", "where"]

argmax = np.argmax
argmin = np.argmin
nonzero = np.nonzero
searchsorted = np.searchsorted


def _where(condition: np.ndarray, x1: Any, x2: Any, /) -> np.ndarray:
    x1, x2 = promote2(x1, x2, "where")
    return np.where(condition, x1, x2)


# two arrays of one dtype: np.where itself, called from C
where = fastpath(np.where, _where, nargs=3, same=(1, 2))


def count_nonzero(x: np.ndarray, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    r = np.count_nonzero(x, axis=axis, keepdims=keepdims)
    return np.int64(r) if type(r) is int else r  # NumPy returns a Python int for a full count
