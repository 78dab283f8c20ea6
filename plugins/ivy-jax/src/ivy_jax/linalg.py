"""The linalg extension: jax.numpy.linalg, reading only one triangle where the standard says so."""

from __future__ import annotations

import builtins
from typing import Any

import jax
import jax.numpy as jnp

from ._dtypes import DEFAULT_INT, native
from .linear_algebra import matmul

__all__ = [
    "cholesky",
    "cross",
    "det",
    "diagonal",
    "eigh",
    "eigvalsh",
    "inv",
    "matmul",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "matrix_transpose",
    "outer",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "tensordot",
    "trace",
    "vecdot",
    "vector_norm",
]

_la = jnp.linalg

cross = _la.cross
det = _la.det
diagonal = _la.diagonal
inv = _la.inv
matrix_norm = _la.matrix_norm
matrix_power = _la.matrix_power
matrix_transpose = _la.matrix_transpose
outer = _la.outer
pinv = _la.pinv
qr = _la.qr
slogdet = _la.slogdet
solve = _la.solve
svd = _la.svd
svdvals = _la.svdvals
tensordot = _la.tensordot
vecdot = _la.vecdot
vector_norm = _la.vector_norm

_cholesky = _la.cholesky
_eigh = _la.eigh
_eigvalsh = _la.eigvalsh
_trace = _la.trace


def cholesky(x: jax.Array, /, *, upper: bool = False) -> jax.Array:
    # symmetrize_input=False: the standard reads one triangle only; JAX averages both by default.
    return _cholesky(x, upper=upper, symmetrize_input=False)


def eigh(x: jax.Array, /) -> Any:
    return _eigh(x, "L", symmetrize_input=False)  # the standard reads the lower triangle only


def eigvalsh(x: jax.Array, /) -> jax.Array:
    return _eigvalsh(x, "L", symmetrize_input=False)  # the standard reads the lower triangle only


def matrix_rank(x: jax.Array, /, *, rtol: Any = None) -> jax.Array:
    # Composed: jnp.linalg.matrix_rank treats rtol as an absolute tolerance, not relative to max(S).
    if x.ndim < 2:
        raise ValueError(f"matrix_rank needs an array of at least 2 dimensions, got shape {x.shape}")
    s = svdvals(x)
    if s.shape[-1] == 0:
        return jnp.zeros(s.shape[:-1], DEFAULT_INT)
    smax = jnp.max(s, axis=-1, keepdims=True)
    if rtol is None:
        tol = smax * (builtins.max(x.shape[-2:]) * jnp.finfo(s.dtype).eps)
    else:
        tol = smax * jnp.expand_dims(jnp.asarray(rtol, dtype=s.dtype), -1)
    return jnp.sum(s > tol, axis=-1, dtype=DEFAULT_INT)


def trace(x: jax.Array, /, *, offset: int = 0, dtype: Any = None) -> jax.Array:
    if dtype is not None:
        dtype = native(dtype, "linalg.trace")
    return _trace(x, offset=offset, dtype=dtype)
