"""Leaving the backend: NumPy arrays (``asnumpy``, a copy that waits for MXNet's asynchronous
engine) and Python values."""

from __future__ import annotations

from typing import Any

from ._framework import Array, onp
from ._helpers import np_array

__all__ = ["to_numpy", "to_scalar", "to_list"]


def to_numpy(x: Array, /) -> Any:
    x = np_array(x)
    if isinstance(x, Array):
        return x.asnumpy()
    return onp.array(x, copy=True)


def to_scalar(x: Array, /) -> bool | int | float | complex:
    if x.size != 1:
        raise ValueError(f"ivy.to_scalar: needs an array with exactly one element, got shape {x.shape}")
    return to_numpy(x).reshape(()).item()


def to_list(x: Array, /) -> Any:
    return to_numpy(x).tolist()
