"""Conversion functions (Ivy's own)."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["to_list", "to_numpy", "to_scalar"]

to_numpy = np.array  # copies by default; a NumPy scalar becomes a 0-d array


def to_scalar(x: np.ndarray, /) -> Any:
    return x.item()  # ValueError unless x has exactly one element


def to_list(x: np.ndarray, /) -> Any:
    return x.tolist()
