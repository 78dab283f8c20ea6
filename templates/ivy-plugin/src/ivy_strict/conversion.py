"""Leaving the backend: NumPy arrays and Python values."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["to_numpy", "to_scalar", "to_list"]


def to_numpy(x: Any, /) -> np.ndarray:
    return np.from_dlpack(x).copy()  # a copy: the result must not share the array's memory


def to_scalar(x: Any, /) -> Any:
    if x.size != 1:
        raise ValueError(f"to_scalar needs an array with exactly one element, got shape {x.shape}")
    return to_numpy(x).reshape(()).item()


def to_list(x: Any, /) -> Any:
    return to_numpy(x).tolist()
