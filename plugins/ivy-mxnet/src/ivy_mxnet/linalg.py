"""The linalg extension on ``mxnet.numpy.linalg`` (LAPACK, float32/float64, differentiable where
MXNet registers gradients), with the standard's forms: SVD of wide and tall matrices (MXNet's
kernel takes wide ones only), complete SVD and QR factors, broadcasting ``solve``, ``rtol``
arrays, every ``matrix_norm``/``vector_norm`` order."""

from __future__ import annotations

import math
import operator
from typing import Any, Literal, NamedTuple

from . import linear_algebra as _la
from ._dtypes import DEFAULT_FLOAT, FLOATS, INDEX, INTS, bool_
from ._framework import Array, mnp, onp
from ._helpers import b_and, cast, host, norm_axes, promote2_arrays, via_uint8, where
from .statistical import max as _max
from .statistical import min as _min
from .statistical import sum as _sum

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

matmul = _la.matmul
matrix_transpose = _la.matrix_transpose
tensordot = _la.tensordot
vecdot = _la.vecdot


class EighResult(NamedTuple):
    eigenvalues: Array
    eigenvectors: Array


class QRResult(NamedTuple):
    Q: Array
    R: Array


class SlogdetResult(NamedTuple):
    sign: Array
    logabsdet: Array


class SVDResult(NamedTuple):
    U: Array
    S: Array
    Vh: Array


def _float(x: Any, op: str) -> Any:
    if x.dtype in FLOATS:
        return x
    if x.dtype in INTS or x.dtype == bool_:
        return cast(x, DEFAULT_FLOAT)
    raise TypeError(f"ivy.linalg.{op}: expected an mxnet.numpy array, got {type(x).__name__}")


def _square(x: Any, op: str) -> Any:
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"ivy.linalg.{op}: needs a (stack of) square matrices, got shape {x.shape}")
    return _float(x, op)


def _t(x: Any) -> Any:
    return mnp.swapaxes(x, -1, -2)


def cholesky(x: Array, /, *, upper: bool = False) -> Array:
    lo = mnp.linalg.cholesky(_square(x, "cholesky"))
    return _t(lo) if upper else lo


def det(x: Array, /) -> Array:
    return mnp.linalg.det(_square(x, "det"))


def slogdet(x: Array, /) -> SlogdetResult:
    s, l = mnp.linalg.slogdet(_square(x, "slogdet"))
    return SlogdetResult(s, l)


def inv(x: Array, /) -> Array:
    return mnp.linalg.inv(_square(x, "inv"))


def eigh(x: Array, /) -> EighResult:
    w, v = mnp.linalg.eigh(_square(x, "eigh"))
    return EighResult(w, v)


def eigvalsh(x: Array, /) -> Array:
    return mnp.linalg.eigvalsh(_square(x, "eigvalsh"))


def diagonal(x: Array, /, *, offset: int = 0) -> Array:
    if x.ndim < 2:
        raise ValueError(f"ivy.linalg.diagonal: needs at least 2 dimensions, got shape {x.shape}")
    return via_uint8(mnp.diagonal, x, offset=operator.index(offset), axis1=-2, axis2=-1)


def trace(x: Array, /, *, offset: int = 0, dtype: Any = None) -> Array:
    d = diagonal(x, offset=offset)
    return _sum(d, axis=-1, dtype=dtype)


def outer(x1: Array, x2: Array, /) -> Array:
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"ivy.linalg.outer: needs two 1-D arrays, got shapes {x1.shape} and {x2.shape}")
    a, b = promote2_arrays(x1, x2, "linalg.outer")
    if a.dtype == bool_:
        return b_and(a.reshape(-1, 1), b.reshape(1, -1))
    return a.reshape(-1, 1) * b.reshape(1, -1)


def cross(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    a, b = promote2_arrays(x1, x2, "linalg.cross")
    if axis >= 0:
        raise ValueError("ivy.linalg.cross: axis must be negative (counted from the end of the broadcast shape)")
    if a.shape[axis] != 3 or b.shape[axis] != 3:
        raise ValueError(f"ivy.linalg.cross: axis {axis} must have size 3, got shapes {a.shape} and {b.shape}")
    a, b = mnp.moveaxis(a, axis, -1), mnp.moveaxis(b, axis, -1)

    def comp(v: Any, i: int) -> Any:
        return v[..., i]

    c = mnp.stack(
        [
            comp(a, 1) * comp(b, 2) - comp(a, 2) * comp(b, 1),
            comp(a, 2) * comp(b, 0) - comp(a, 0) * comp(b, 2),
            comp(a, 0) * comp(b, 1) - comp(a, 1) * comp(b, 0),
        ],
        axis=-1,
    )
    return mnp.moveaxis(c, -1, axis)


def _broadcast_batch(a: Any, b: Any, b_core: int) -> tuple[Any, Any]:
    """``a`` (a stack of matrices) and ``b`` (of ``b_core`` core dimensions) with their batch
    dimensions broadcast together."""
    batch = onp.broadcast_shapes(a.shape[:-2], b.shape[: b.ndim - b_core])
    sa, sb = batch + a.shape[-2:], batch + b.shape[b.ndim - b_core :]
    return (a if a.shape == sa else mnp.broadcast_to(a, sa)), (b if b.shape == sb else mnp.broadcast_to(b, sb))


def solve(x1: Array, x2: Array, /) -> Array:
    a, b = promote2_arrays(x1, x2, "linalg.solve")
    a, b = _square(a, "solve"), _float(b, "solve")
    if b.dtype != a.dtype:
        b = cast(b, a.dtype)
    if b.ndim == 1:
        if b.shape[0] != a.shape[-1]:
            raise ValueError(f"ivy.linalg.solve: shapes {a.shape} and {b.shape} do not match")
        a2, b2 = _broadcast_batch(a, b.reshape(-1, 1), 2)
        return mnp.linalg.solve(a2, b2)[..., 0]
    if b.shape[-2] != a.shape[-1]:
        raise ValueError(f"ivy.linalg.solve: shapes {a.shape} and {b.shape} do not match")
    a2, b2 = _broadcast_batch(a, b, 2)
    return mnp.linalg.solve(a2, b2)


def _svd_reduced(x: Any) -> tuple[Any, Any, Any]:
    """(U, S, Vh) of the reduced SVD; MXNet's kernel takes matrices no taller than wide."""
    m, n = x.shape[-2], x.shape[-1]
    if m <= n:
        u, s, vh = mnp.linalg.svd(x)
        return u, s, vh
    u2, s, vh2 = mnp.linalg.svd(_t(x))  # x^T = U2 S Vh2, so x = Vh2^T S U2^T
    return _t(vh2), s, _t(u2)


def _complete(q: Any) -> Any:
    """The orthonormal (..., m, m) completion of the orthonormal columns ``q`` (..., m, k)."""
    full, _ = mnp.linalg.qr(q, mode="complete")
    return mnp.concatenate([q, full[..., q.shape[-1] :]], axis=-1)


def svd(x: Array, /, *, full_matrices: bool = True) -> SVDResult:
    x = _float(x, "svd")
    if x.ndim < 2:
        raise ValueError(f"ivy.linalg.svd: needs at least 2 dimensions, got shape {x.shape}")
    m, n = x.shape[-2], x.shape[-1]
    if 0 in (m, n):
        return _svd_host(x, full_matrices)
    u, s, vh = _svd_reduced(x)
    if full_matrices and m != n:
        if m > n:
            u = _complete(u)
        else:
            vh = _t(_complete(_t(vh)))
    return SVDResult(u, s, vh)


def _svd_host(x: Any, full_matrices: bool) -> SVDResult:
    from ._helpers import from_host, to_host

    u, s, vh = onp.linalg.svd(to_host(x), full_matrices=full_matrices)
    return SVDResult(from_host(u, x.ctx, x.dtype), from_host(s, x.ctx, x.dtype), from_host(vh, x.ctx, x.dtype))


def svdvals(x: Array, /) -> Array:
    x = _float(x, "svdvals")
    if x.ndim < 2:
        raise ValueError(f"ivy.linalg.svdvals: needs at least 2 dimensions, got shape {x.shape}")
    if 0 in x.shape[-2:]:
        return mnp.zeros(x.shape[:-2] + (0,), dtype=x.dtype, ctx=x.ctx)
    return _svd_reduced(x)[1]


def qr(x: Array, /, *, mode: Literal["reduced", "complete"] = "reduced") -> QRResult:
    if mode not in ("reduced", "complete"):
        raise ValueError(f"ivy.linalg.qr: mode must be 'reduced' or 'complete', got {mode!r}")
    x = _float(x, "qr")
    if x.ndim < 2:
        raise ValueError(f"ivy.linalg.qr: needs at least 2 dimensions, got shape {x.shape}")
    q, r = mnp.linalg.qr(x, mode=mode)
    return QRResult(q, r)


def _rtol(x: Any, rtol: Any) -> Any:
    """The relative tolerance as an array broadcastable against the batch of ``x`` (plus a
    trailing axis for the singular values)."""
    if rtol is None:
        return host(max(x.shape[-2:]) * onp.finfo(x.dtype).eps, x.dtype, x.ctx).reshape(1)
    if isinstance(rtol, Array):
        return mnp.expand_dims(cast(rtol, x.dtype), -1)
    return host(float(rtol), x.dtype, x.ctx).reshape(1)


def matrix_rank(x: Array, /, *, rtol: float | Array | None = None) -> Array:
    x = _float(x, "matrix_rank")
    if x.ndim < 2:
        raise ValueError(f"ivy.linalg.matrix_rank: needs at least 2 dimensions, got shape {x.shape}")
    s = svdvals(x)
    if s.shape[-1] == 0:
        return mnp.zeros(x.shape[:-2], dtype=INDEX, ctx=x.ctx)
    tol = _rtol(x, rtol) * mnp.max(s, axis=-1, keepdims=True)
    return mnp.sum(cast(s > tol, INDEX), axis=-1)


def pinv(x: Array, /, *, rtol: float | Array | None = None) -> Array:
    x = _float(x, "pinv")
    if x.ndim < 2:
        raise ValueError(f"ivy.linalg.pinv: needs at least 2 dimensions, got shape {x.shape}")
    m, n = x.shape[-2], x.shape[-1]
    if 0 in (m, n):
        return mnp.zeros(x.shape[:-2] + (n, m), dtype=x.dtype, ctx=x.ctx)
    u, s, vh = _svd_reduced(x)
    cutoff = _rtol(x, rtol) * mnp.max(s, axis=-1, keepdims=True)
    big = s > cutoff
    s_inv = where(big, 1 / where(big, s, mnp.ones_like(s)), mnp.zeros_like(s))
    return mnp.matmul(_t(vh), mnp.expand_dims(s_inv, -1) * _t(u))


def matrix_power(x: Array, n: int, /) -> Array:
    n = operator.index(n)
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"ivy.linalg.matrix_power: needs a (stack of) square matrices, got shape {x.shape}")
    if n == 0:
        eye = mnp.eye(x.shape[-1], dtype=x.dtype, ctx=x.ctx)
        return mnp.broadcast_to(eye, x.shape)
    if n < 0:
        x, n = inv(x), -n
    result, base = None, x
    while n:  # exponentiation by squaring
        if n & 1:
            result = base if result is None else _la.matmul(result, base)
        n >>= 1
        if n:
            base = _la.matmul(base, base)
    return result.copy() if result is x else result  # (x itself for n = 1: a copy)


def vector_norm(
    x: Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False, ord: int | float = 2
) -> Array:
    x = _float(x, "vector_norm")
    axes = norm_axes(axis, x.ndim, "vector_norm")
    a = mnp.abs(x)
    if not axes:  # a 0-d array, or no axis: the norm of each element alone
        return cast(a != 0, x.dtype) if ord == 0 else a
    if ord == 2:
        return mnp.sqrt(_sum(a * a, axis=axes, keepdims=keepdims))
    if ord == 1:
        return _sum(a, axis=axes, keepdims=keepdims)
    if ord == math.inf:
        return _max(a, axis=axes, keepdims=keepdims)
    if ord == -math.inf:
        return _min(a, axis=axes, keepdims=keepdims)
    if ord == 0:
        return _sum(cast(a != 0, x.dtype), axis=axes, keepdims=keepdims)
    p = float(ord)
    return mnp.power(_sum(mnp.power(a, p), axis=axes, keepdims=keepdims), 1.0 / p)


def matrix_norm(
    x: Array, /, *, keepdims: bool = False, ord: int | float | Literal["fro", "nuc"] | None = "fro"
) -> Array:
    x = _float(x, "matrix_norm")
    if x.ndim < 2:
        raise ValueError(f"ivy.linalg.matrix_norm: needs at least 2 dimensions, got shape {x.shape}")
    if ord is None or ord == "fro":
        out = mnp.sqrt(_sum(x * x, axis=(-2, -1)))
    elif ord == "nuc":
        out = _sum(svdvals(x), axis=-1)
    elif ord in (2, -2):
        s = svdvals(x)
        out = _max(s, axis=-1) if ord == 2 else _min(s, axis=-1)
    elif ord in (1, -1):
        col = _sum(mnp.abs(x), axis=-2)
        out = _max(col, axis=-1) if ord == 1 else _min(col, axis=-1)
    elif ord in (math.inf, -math.inf):
        row = _sum(mnp.abs(x), axis=-1)
        out = _max(row, axis=-1) if ord > 0 else _min(row, axis=-1)
    else:
        raise ValueError(f"ivy.linalg.matrix_norm: ord must be 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, got {ord!r}")
    return out.reshape(out.shape + (1, 1)) if keepdims else out
