"""Manipulation functions."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = [
    "broadcast_arrays",
    "broadcast_to",
    "concat",
    "expand_dims",
    "flip",
    "moveaxis",
    "permute_dims",
    "repeat",
    "reshape",
    "roll",
    "squeeze",
    "stack",
    "tile",
    "unstack",
]

broadcast_to = np.broadcast_to
concat = np.concat
flip = np.flip
moveaxis = np.moveaxis
permute_dims = np.permute_dims
reshape = np.reshape
roll = np.roll
squeeze = np.squeeze
stack = np.stack
tile = np.tile


def unstack(x: np.ndarray, /, *, axis: int = 0) -> tuple[np.ndarray, ...]:
    # views by basic indexing: a third of np.unstack's time (a moveaxis and an iteration)
    nd = x.ndim
    if nd == 0:
        raise ValueError("unstack: input must be at least one-dimensional")
    if not -nd <= axis < nd:
        raise np.exceptions.AxisError(axis, nd)
    a = axis + nd if axis < 0 else axis
    pre = (slice(None),) * a
    return tuple([x[pre + (i,)] for i in range(x.shape[a])])


def broadcast_arrays(*arrays: np.ndarray) -> list[np.ndarray]:
    return list(np.broadcast_arrays(*arrays))  # NumPy 2 returns a tuple


def expand_dims(x: np.ndarray, /, axis: int = 0) -> np.ndarray:
    return np.expand_dims(x, axis)  # NumPy's axis has no default


def repeat(x: np.ndarray, repeats: Any, /, *, axis: int | None = None) -> np.ndarray:
    if type(repeats) is not int and repeats.dtype == np.uint64:
        repeats = repeats.astype(np.int64)  # NumPy refuses to cast uint64 repeats to intp
    return np.repeat(x, repeats, axis=axis)
