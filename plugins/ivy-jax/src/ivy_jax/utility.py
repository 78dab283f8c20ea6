"""Utility functions: aliases of jax.numpy except where noted."""

from __future__ import annotations

import jax
import jax.numpy as jnp

__all__ = ["all", "any", "diff"]

diff = jnp.diff

_all = jnp.all
_any = jnp.any


def all(x: jax.Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> jax.Array:
    if x.dtype.kind == "c":
        x = x != 0  # jnp.all(1j) is False: JAX casts complex to bool by the real part only
    return _all(x, axis=axis, keepdims=keepdims)


def any(x: jax.Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> jax.Array:
    if x.dtype.kind == "c":
        x = x != 0  # jnp.any(1j) is False: JAX casts complex to bool by the real part only
    return _any(x, axis=axis, keepdims=keepdims)
