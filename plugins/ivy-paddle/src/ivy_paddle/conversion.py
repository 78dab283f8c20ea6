"""Conversion functions: leaving paddle for NumPy and Python values."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._dtypes import COMPLEX, FLOATS, bool_
from ._helpers import prod

__all__ = ["to_numpy", "to_scalar", "to_list"]


def to_numpy(x: Any, /) -> np.ndarray:
    return x.numpy()  # Tensor.numpy() already returns a copy (it never shares memory)


def to_scalar(x: Any, /) -> bool | int | float | complex:
    if prod(x.shape) != 1:
        raise ValueError(f"ivy.to_scalar: expected exactly one element, got shape {tuple(x.shape)}")
    v = x.reshape([]).item()
    dt = x.dtype
    if dt is bool_:
        return bool(v)
    if id(dt) in FLOATS:
        return float(v)
    if id(dt) in COMPLEX:
        return complex(v)
    return int(v)


def to_list(x: Any, /) -> Any:
    return x.numpy().tolist()
