"""Searching functions: jax.numpy, with the standard's defaults and index dtype."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from ._dtypes import DEFAULT_INT
from .elementwise import scalar_fits

__all__ = ["argmax", "argmin", "count_nonzero", "nonzero", "searchsorted", "where"]

count_nonzero = jnp.count_nonzero
nonzero = jnp.nonzero
_where = jnp.where


def where(condition: jax.Array, x1: Any, x2: Any, /) -> jax.Array:
    scalar_fits(x1, x2, "where")  # jnp.where wraps an int outside the array's dtype
    return _where(condition, x1, x2)


_argmax = jnp.argmax
_argmin = jnp.argmin
_searchsorted = jnp.searchsorted


def argmax(x: jax.Array, /, *, axis: int | None = None, keepdims: bool = False) -> jax.Array:
    return _argmax(x, axis, keepdims=keepdims)  # jnp's keepdims defaults to None


def argmin(x: jax.Array, /, *, axis: int | None = None, keepdims: bool = False) -> jax.Array:
    return _argmin(x, axis, keepdims=keepdims)  # jnp's keepdims defaults to None


def searchsorted(x1: jax.Array, x2: jax.Array, /, *, side: str = "left", sorter: Any = None) -> jax.Array:
    out = _searchsorted(x1, x2, side=side, sorter=sorter)
    # jnp returns int32 whatever the config; the standard wants the default index dtype.
    return out if out.dtype == DEFAULT_INT else out.astype(DEFAULT_INT)
