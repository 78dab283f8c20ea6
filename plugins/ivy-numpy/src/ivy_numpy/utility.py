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
    # np.diff treats prepend=None as a value (an object array): pass only the given ones.
    if prepend is None:
        return np.diff(x, n, axis) if append is None else np.diff(x, n, axis, append=append)
    if append is None:
        return np.diff(x, n, axis, prepend=prepend)
    return np.diff(x, n, axis, prepend=prepend, append=append)
