"""The linalg extension. Decompositions alias paddle.linalg where it matches the standard;
multi-output functions return named tuples with the standard's field names."""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from ._dtypes import COMPLEX, INEXACT, bool_, float32, idset, int8, int16, int32, int64, uint8
from ._framework import Tensor, paddle
from ._helpers import norm_axes, promote2
from .data_type import finfo
from .elementwise import multiply
from .linear_algebra import matmul, matrix_transpose, tensordot, vecdot
from .manipulation import broadcast_arrays
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


_NARROW = idset(bool_, int8, int16, uint8)


class EighResult(NamedTuple):
    eigenvalues: Any
    eigenvectors: Any


class QRResult(NamedTuple):
    Q: Any
    R: Any


class SlogdetResult(NamedTuple):
    sign: Any
    logabsdet: Any


class SVDResult(NamedTuple):
    U: Any
    S: Any
    Vh: Any


det = paddle.linalg.det
inv = paddle.linalg.inv
eigvalsh = paddle.linalg.eigvalsh


def cholesky(x: Any, /, *, upper: bool = False) -> Any:
    if id(x.dtype) in COMPLEX:  # paddle has no complex Cholesky kernel: column by column
        lo = _cholesky_columns(x)
        return paddle.conj(matrix_transpose(lo)) if upper else lo
    return paddle.linalg.cholesky(x, upper)


def _cholesky_columns(a: Any) -> Any:
    """Lower Cholesky factor (Cholesky-Banachiewicz by columns), batched, any dtype."""
    m = a.shape[-1]
    rows = paddle.arange(m, dtype=int64)
    cols: list[Any] = []
    for j in range(m):
        v = a[..., :, j]
        if cols:
            prev = paddle.stack(cols, -1)  # (..., M, j)
            v = v - paddle.matmul(prev, paddle.conj(prev[..., j, :]).unsqueeze(-1)).squeeze(-1)
        d = paddle.sqrt(paddle.real(v[..., j]))
        col = v / paddle.cast(d, v.dtype).unsqueeze(-1)
        cols.append(paddle.where(rows >= j, col, paddle.zeros_like(col)))
    if not cols:
        return a.clone()
    return paddle.stack(cols, -1)


def cross(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    if x1.dtype is not x2.dtype:
        x1, x2 = promote2(x1, x2, "linalg.cross")
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError("ivy.linalg.cross: the size along axis must be 3 in both inputs")
    if list(x1.shape) != list(x2.shape):  # paddle.cross does not broadcast
        x1, x2 = broadcast_arrays(x1, x2)
    axis = axis if axis >= 0 else axis + len(x1.shape)
    dt = x1.dtype
    if id(dt) in _NARROW:  # no narrow-int kernel: exact via int32, wrapping back
        return paddle.cast(paddle.cross(paddle.cast(x1, int32), paddle.cast(x2, int32), axis=axis), dt)
    return paddle.cross(x1, x2, axis=axis)


def diagonal(x: Any, /, *, offset: int = 0) -> Any:
    return paddle.diagonal(x, offset, -2, -1)


def eigh(x: Any, /) -> EighResult:
    w, v = paddle.linalg.eigh(x)
    return EighResult(w, v)


def matrix_power(x: Any, n: int, /) -> Any:
    return paddle.linalg.matrix_power(x, n)


def qr(x: Any, /, *, mode: str = "reduced") -> QRResult:
    q, r = paddle.linalg.qr(x, mode)
    return QRResult(q, r)


def slogdet(x: Any, /) -> SlogdetResult:
    out = paddle.linalg.slogdet(x)  # sign and log|det| stacked along a new first axis
    sign, logabs = out[0], out[1]
    if id(x.dtype) in COMPLEX:
        logabs = paddle.real(logabs)  # paddle returns it as complex
    return SlogdetResult(sign, logabs)


def solve(x1: Any, x2: Any, /) -> Any:
    if x1.dtype is not x2.dtype:
        x1, x2 = promote2(x1, x2, "linalg.solve")
    solve_ = _solve_complex if id(x1.dtype) in COMPLEX else paddle.linalg.solve
    if len(x2.shape) == 1:  # a vector: one right-hand side
        return solve_(x1, x2.unsqueeze(-1)).squeeze(-1)
    return solve_(x1, x2)


def _solve_complex(a: Any, b: Any) -> Any:
    return paddle.matmul(paddle.linalg.inv(a), b)  # no complex solve kernel; inv has one


def svd(x: Any, /, *, full_matrices: bool = True) -> SVDResult:
    u, s, vh = paddle.linalg.svd(x, full_matrices)
    return SVDResult(u, s, vh)


def svdvals(x: Any, /) -> Any:
    if id(x.dtype) in COMPLEX:  # no complex svdvals kernel; the complex svd exists
        return paddle.linalg.svd(x, False)[1]
    s = paddle.linalg.svdvals(x)
    if len(x.shape) > 3:  # paddle flattens two or more batch dimensions into one
        s = s.reshape(list(x.shape[:-2]) + [s.shape[-1]])
    return s


def outer(x1: Any, x2: Any, /) -> Any:
    if len(x1.shape) != 1 or len(x2.shape) != 1:
        raise ValueError("ivy.linalg.outer: both inputs must be one-dimensional")
    return multiply(x1.unsqueeze(1), x2.unsqueeze(0))  # multiply handles promotion and narrow ints


def trace(x: Any, /, *, offset: int = 0, dtype: Any = None) -> Any:
    return _sum(paddle.diagonal(x, offset, -2, -1), axis=-1, dtype=dtype)


def _rtol(x: Any, rtol: Any) -> Any:
    if rtol is None:
        return max(x.shape[-2], x.shape[-1]) * finfo(x.dtype).eps
    return rtol


def matrix_rank(x: Any, /, *, rtol: Any = None) -> Any:
    s = svdvals(x)
    if s.shape[-1] == 0:
        return paddle.zeros(s.shape[:-1], int64)
    tol = paddle.max(s, -1, keepdim=True)
    r = _rtol(x, rtol)
    if isinstance(r, Tensor):
        tol = tol * paddle.cast(r, s.dtype).unsqueeze(-1)
    else:
        tol = tol * r
    return paddle.sum(paddle.cast(s > tol, int64), -1)


def pinv(x: Any, /, *, rtol: Any = None) -> Any:
    u, s, vh = paddle.linalg.svd(x, False)
    r = _rtol(x, rtol)
    if s.shape[-1] == 0:
        return paddle.zeros(list(x.shape[:-2]) + [x.shape[-1], x.shape[-2]], x.dtype)
    cutoff = paddle.max(s, -1, keepdim=True)
    cutoff = cutoff * (paddle.cast(r, s.dtype).unsqueeze(-1) if isinstance(r, Tensor) else r)
    sinv = paddle.where(s > cutoff, 1.0 / s, paddle.zeros_like(s))
    if id(x.dtype) in COMPLEX:
        sinv = paddle.cast(sinv, x.dtype)
        vh, u = paddle.conj(vh), paddle.conj(u)
    return paddle.matmul(matrix_transpose(vh) * sinv.unsqueeze(-2), matrix_transpose(u))


def matrix_norm(x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Any:
    a = paddle.abs(x)
    if ord == "fro":
        out = paddle.sqrt(paddle.sum(a * a, [-2, -1]))
    elif ord == "nuc":
        out = paddle.sum(svdvals(x), -1)
    elif ord in (1, -1):
        col = paddle.sum(a, -2)
        out = paddle.max(col, -1) if ord == 1 else paddle.min(col, -1)
    elif ord in (math.inf, -math.inf):
        row = paddle.sum(a, -1)
        out = paddle.max(row, -1) if ord > 0 else paddle.min(row, -1)
    elif ord in (2, -2):
        s = svdvals(x)
        out = paddle.max(s, -1) if ord == 2 else paddle.min(s, -1)
    else:
        raise ValueError(f"ivy.linalg.matrix_norm: unsupported ord {ord!r}")
    if keepdims:
        out = out.unsqueeze(-1).unsqueeze(-1)
    return out


def vector_norm(x: Any, /, *, axis: Any = None, keepdims: bool = False, ord: Any = 2) -> Any:
    if id(x.dtype) not in INEXACT:
        x = paddle.cast(x, float32)  # integer input: the default real floating dtype
    a = paddle.abs(x)  # real for complex input
    axes: list[int] | None
    if axis == ():
        axes = []
    else:
        axes = None if axis is None else norm_axes(axis, len(x.shape))
    if axes == []:
        return a if ord != 0 else paddle.cast(paddle.cast(a, bool_), a.dtype)  # no reduction: |x| per element
    if ord == math.inf:  # through the plugin's max/min: paddle's own gradients over several axes are wrong
        out = _max(a, axis=tuple(axes) if axes is not None else None, keepdims=keepdims)
    elif ord == -math.inf:
        out = _min(a, axis=tuple(axes) if axes is not None else None, keepdims=keepdims)
    elif ord == 0:
        out = paddle.sum(paddle.cast(paddle.cast(a, bool_), a.dtype), axes, keepdim=keepdims)
    elif ord == 2:
        out = paddle.sqrt(paddle.sum(a * a, axes, keepdim=keepdims))
    elif ord == 1:
        out = paddle.sum(a, axes, keepdim=keepdims)
    else:
        # exponents as tensors: paddle.pow rounds a Python float exponent to float32
        p = paddle.full([], float(ord), a.dtype)
        s = paddle.sum(paddle.pow(a, p), axes, keepdim=keepdims)
        out = paddle.pow(s, paddle.full([], 1.0 / ord, a.dtype))
    if keepdims and axis is None:
        out = out.reshape([1] * len(x.shape))
    return out
