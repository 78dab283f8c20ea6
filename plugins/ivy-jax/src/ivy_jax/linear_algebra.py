"""Linear algebra functions of the main namespace: aliases of jax.numpy except matmul."""

from __future__ import annotations

import jax
import jax.numpy as jnp

__all__ = ["matmul", "matrix_transpose", "tensordot", "vecdot"]

_matmul = jnp.matmul


def matmul(x1: jax.Array, x2: jax.Array, /) -> jax.Array:
    try:
        return _matmul(x1, x2)
    except TypeError as e:
        if "shape" in str(e):  # JAX reports mismatched contracted dimensions as a TypeError
            raise ValueError(str(e)) from None
        raise


matrix_transpose = jnp.matrix_transpose
tensordot = jnp.tensordot
vecdot = jnp.vecdot
