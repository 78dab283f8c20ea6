"""Indexing functions: jax.numpy's take and take_along_axis follow the standard, except that an
index out of range gives NaN or a clamped element instead of an error: the indices of concrete
arrays are checked first (see ``_bounds``)."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from ivy.plugin_kit import axis_index

from ._bounds import check_indices

__all__ = ["take", "take_along_axis"]


def take(x: jax.Array, indices: jax.Array, /, *, axis: int | None = None) -> jax.Array:
    n = x.size if axis is None else x.shape[axis_index(axis, x.ndim, "take")]
    check_indices(indices, n, "take")
    return jnp.take(x, indices, axis=axis)


def take_along_axis(x: jax.Array, indices: Any, /, *, axis: int = -1) -> jax.Array:
    check_indices(indices, x.shape[axis_index(axis, x.ndim, "take_along_axis")], "take_along_axis")
    return jnp.take_along_axis(x, indices, axis=axis)
