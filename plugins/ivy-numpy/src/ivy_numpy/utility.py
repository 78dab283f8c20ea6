"""Utility functions."""

from __future__ import annotations

import numpy as np

__all__ = ["all", "any", "diff"]

all = np.all
any = np.any


def diff(
    x: np.ndarray,
    /,
    *,
    axis: int = -1,
    n: int = 1,
    prepend: np.ndarray | None = None,
    append: np.ndarray | None = None,
) -> np.ndarray:
    if prepend is None and append is None:
        return np.diff(x, n, axis)
    # np.diff treats prepend=None as a value (an object array): pass only the given ones.
    if append is None:
        return np.diff(x, n, axis, prepend=prepend)
    if prepend is None:
        return np.diff(x, n, axis, append=append)
    return np.diff(x, n, axis, prepend=prepend, append=append)
