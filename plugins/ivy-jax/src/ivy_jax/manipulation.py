"""Manipulation functions: aliases of jax.numpy except where noted."""

from __future__ import annotations

import jax
import jax.numpy as jnp

__all__ = [
    "broadcast_arrays",
    "broadcast_to",
    "concat",
    "expand_dims",
    "flip",
    "moveaxis",
    "permute_dims",
    "repeat",
    "reshape",
    "roll",
    "squeeze",
    "stack",
    "tile",
    "unstack",
]

broadcast_arrays = jnp.broadcast_arrays
broadcast_to = jnp.broadcast_to
concat = jnp.concat
flip = jnp.flip
moveaxis = jnp.moveaxis
permute_dims = jnp.permute_dims
repeat = jnp.repeat
reshape = jnp.reshape
roll = jnp.roll
squeeze = jnp.squeeze
stack = jnp.stack
tile = jnp.tile
unstack = jnp.unstack

_expand_dims = jnp.expand_dims


def expand_dims(x: jax.Array, /, axis: int = 0) -> jax.Array:
    n = x.ndim
    if not -n - 1 <= axis <= n:  # the standard wants IndexError; JAX raises ValueError
        raise IndexError(f"expand_dims: axis {axis} is out of range for an array of rank {n}")
    return _expand_dims(x, axis)  # jnp.expand_dims has no default axis
