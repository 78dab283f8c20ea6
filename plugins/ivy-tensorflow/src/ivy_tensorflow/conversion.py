"""Conversion functions (Ivy's own): leaving TensorFlow for NumPy and Python."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["to_list", "to_numpy", "to_scalar"]


def to_numpy(x: Any, /) -> np.ndarray:
    return np.array(x.numpy(), copy=True)  # .numpy() may share the tensor's buffer


def to_scalar(x: Any, /) -> bool | int | float | complex:
    a = x.numpy()
    if a.size != 1:
        raise ValueError(f"to_scalar needs an array with exactly one element, got shape {a.shape}")
    return a.reshape(()).item()


def to_list(x: Any, /) -> Any:
    return x.numpy().tolist()
