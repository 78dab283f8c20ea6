"""Conversion functions: ways out of JAX to NumPy and Python objects."""

from __future__ import annotations

from typing import Any

import jax
import numpy as np

__all__ = ["to_list", "to_numpy", "to_scalar"]


def to_numpy(x: jax.Array, /) -> np.ndarray:
    return np.array(x, copy=True)  # np.asarray may give a read-only view of JAX's buffer


def to_scalar(x: jax.Array, /) -> Any:
    if x.size != 1:
        raise ValueError(f"to_scalar needs an array with exactly one element, got shape {x.shape}")
    return x.item()


def to_list(x: jax.Array, /) -> Any:
    return x.tolist()
