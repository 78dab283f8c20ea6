"""Statistical functions: jax.numpy, with dtype names normalised and the standard's defaults."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from ._dtypes import DEFAULT_INT, DEFAULT_UINT, native

__all__ = [
    "cumulative_prod",
    "cumulative_sum",
    "max",
    "mean",
    "min",
    "prod",
    "std",
    "sum",
    "var",
]

max = jnp.max
min = jnp.min
mean = jnp.mean

_sum = jnp.sum
_prod = jnp.prod
_cumsum = jnp.cumulative_sum
_cumprod = jnp.cumulative_prod
_std = jnp.std
_var = jnp.var


def sum(
    x: jax.Array,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    dtype: Any = None,
    keepdims: bool = False,
) -> jax.Array:
    if dtype is not None:
        dtype = native(dtype, "sum")
    return _sum(x, axis=axis, dtype=dtype, keepdims=keepdims)


def prod(
    x: jax.Array,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    dtype: Any = None,
    keepdims: bool = False,
) -> jax.Array:
    if dtype is not None:
        dtype = native(dtype, "prod")
    return _prod(x, axis=axis, dtype=dtype, keepdims=keepdims)


def cumulative_sum(
    x: jax.Array,
    /,
    *,
    axis: int | None = None,
    dtype: Any = None,
    include_initial: bool = False,
) -> jax.Array:
    if dtype is not None:
        dtype = native(dtype, "cumulative_sum")
    return _cumsum(x, axis=axis, dtype=dtype, include_initial=include_initial)


def cumulative_prod(
    x: jax.Array,
    /,
    *,
    axis: int | None = None,
    dtype: Any = None,
    include_initial: bool = False,
) -> jax.Array:
    if dtype is not None:
        dtype = native(dtype, "cumulative_prod")
    elif x.dtype.kind in "biu" and x.dtype != DEFAULT_INT and x.dtype != DEFAULT_UINT:
        # jnp.cumulative_prod keeps small integer dtypes; the standard widens like sum/prod.
        dtype = DEFAULT_UINT if x.dtype.kind == "u" else DEFAULT_INT
    return _cumprod(x, axis=axis, dtype=dtype, include_initial=include_initial)


def std(
    x: jax.Array,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    correction: int | float = 0.0,
    keepdims: bool = False,
) -> jax.Array:
    # ddof: jnp's fast path (a float too, which jnp's annotation leaves out)
    return _std(x, axis=axis, ddof=correction, keepdims=keepdims)  # type: ignore[arg-type]


def var(
    x: jax.Array,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    correction: int | float = 0.0,
    keepdims: bool = False,
) -> jax.Array:
    # ddof: jnp's fast path (a float too, which jnp's annotation leaves out)
    return _var(x, axis=axis, ddof=correction, keepdims=keepdims)  # type: ignore[arg-type]
