"""The linalg extension."""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
import tensorflow as tf
from tensorflow.python.ops import gen_array_ops as ga
from tensorflow.python.ops import gen_math_ops as gm

from . import _dtypes as D
from ._helpers import f32_to_f64, ints, pair
from .linear_algebra import matmul, matrix_transpose, tensordot, vecdot
from .manipulation import broadcast_shapes

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


_LAST2 = ints((-2, -1))


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


def _float(x: Any) -> Any:
    return x if x.dtype in D.FLOATS else gm.cast(x, D.F64)  # integer input: float64 (outside the standard)


def _ht(x: Any) -> Any:
    """Conjugate transpose of each matrix."""
    t = matrix_transpose(x)
    return gm.conj(t) if x.dtype in D.COMPLEX else t


def _square(x: Any, name: str) -> None:
    if x.shape.rank < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"linalg.{name} needs square matrices, got shape {tuple(x.shape)}")


def cholesky(x: Any, /, *, upper: bool = False) -> Any:
    x = _float(x)
    _square(x, "cholesky")
    lo = tf.linalg.cholesky(x)
    return _ht(lo) if upper else lo


def cross(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    x1, x2 = pair(x1, x2)
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError("linalg.cross needs size 3 along axis in both inputs")
    if axis >= 0:  # the standard counts axis from the end of the broadcast shape
        axis -= min(x1.shape.rank, x2.shape.rank)
    a = tf.unstack(x1, axis=axis)
    b = tf.unstack(x2, axis=axis)
    if x1.dtype is D.BOOL:
        raise TypeError("linalg.cross needs numeric input")
    c = [
        gm.sub(gm.mul(a[1], b[2]), gm.mul(a[2], b[1])),
        gm.sub(gm.mul(a[2], b[0]), gm.mul(a[0], b[2])),
        gm.sub(gm.mul(a[0], b[1]), gm.mul(a[1], b[0])),
    ]  # any numeric dtype, unlike tf.linalg.cross
    return tf.stack(c, axis=axis)


def det(x: Any, /) -> Any:
    x = _float(x)
    _square(x, "det")
    return tf.linalg.det(x)


def diagonal(x: Any, /, *, offset: int = 0) -> Any:
    m, n = int(x.shape[-2]), int(x.shape[-1])
    if offset >= n or -offset >= m or m == 0 or n == 0:
        return tf.zeros([*x.shape[:-2], 0], x.dtype)  # TF refuses diagonals outside the matrix
    return tf.linalg.diag_part(x, k=offset)


def eigh(x: Any, /) -> EighResult:
    x = _float(x)
    _square(x, "eigh")
    w, v = tf.linalg.eigh(x)  # reads the lower triangle
    if x.dtype in D.COMPLEX:
        w = gm.real(w, Tout=D.REAL_OF[x.dtype])  # TF types Hermitian eigenvalues complex
    return EighResult(w, v)


def eigvalsh(x: Any, /) -> Any:
    x = _float(x)
    _square(x, "eigvalsh")
    w = tf.linalg.eigvalsh(x)
    return gm.real(w, Tout=D.REAL_OF[x.dtype]) if x.dtype in D.COMPLEX else w  # real, as the standard says


def inv(x: Any, /) -> Any:
    x = _float(x)
    _square(x, "inv")
    return tf.linalg.inv(x)


def svdvals(x: Any, /) -> Any:
    return tf.linalg.svd(_float(x), compute_uv=False)


def svd(x: Any, /, *, full_matrices: bool = True) -> SVDResult:
    s, u, v = tf.linalg.svd(_float(x), full_matrices=full_matrices, compute_uv=True)
    return SVDResult(u, s, _ht(v))  # TF returns V, the standard wants V^H


def qr(x: Any, /, *, mode: str = "reduced") -> QRResult:
    if mode not in ("reduced", "complete"):
        raise ValueError(f"linalg.qr: mode must be 'reduced' or 'complete', got {mode!r}")
    q, r = tf.linalg.qr(_float(x), full_matrices=mode == "complete")
    return QRResult(q, r)


def slogdet(x: Any, /) -> SlogdetResult:
    x = _float(x)
    _square(x, "slogdet")
    sign, logabs = tf.linalg.slogdet(x)
    if x.dtype in D.COMPLEX:
        logabs = gm.real(logabs, Tout=D.REAL_OF[x.dtype])  # TF returns it complex-typed
    return SlogdetResult(sign, logabs)


def solve(x1: Any, x2: Any, /) -> Any:
    x1, x2 = pair(x1, x2)
    x1, x2 = _float(x1), _float(x2)
    _square(x1, "solve")
    vec = x2.shape.rank == 1
    if vec:
        x2 = ga.expand_dims(x2, ints((-1,)))  # (not x2[:, None]: TF's slicing is slow)
    a, b = x1, x2
    if a.shape[:-2] != b.shape[:-2] or not a.shape[:-2].is_fully_defined():
        batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])  # TF's MatrixSolve does not broadcast
        a = tf.broadcast_to(a, [*batch, *a.shape[-2:]])
        b = tf.broadcast_to(b, [*batch, *b.shape[-2:]])
    out = tf.linalg.solve(a, b)
    return ga.squeeze(out, [-1]) if vec else out


def outer(x1: Any, x2: Any, /) -> Any:
    from .elementwise import multiply

    if x1.shape.rank != 1 or x2.shape.rank != 1:
        raise ValueError("linalg.outer needs one-dimensional inputs")
    return multiply(x1[:, None], x2[None, :])


def trace(x: Any, /, *, offset: int = 0, dtype: Any = None) -> Any:
    from .statistical import sum

    return sum(diagonal(x, offset=offset), axis=-1, dtype=dtype)


def _abs(x: Any) -> Any:
    if x.dtype in D.COMPLEX:
        return gm.complex_abs(x, Tout=D.REAL_OF[x.dtype])
    return gm._abs(x)


def vector_norm(x: Any, /, *, axis: Any = None, keepdims: bool = False, ord: int | float = 2) -> Any:
    from ._helpers import norm_axes

    x = _float(x)
    axes = ints(tuple(norm_axes(axis, x.shape.rank)))  # a cached tensor: lists convert slowly
    a = _abs(x)
    if ord == 2:
        return gm.sqrt(gm._sum(gm.square(a), axes, keep_dims=keepdims))
    if ord == 1:
        return gm._sum(a, axes, keep_dims=keepdims)
    if ord == math.inf:
        return gm._max(a, axes, keep_dims=keepdims)
    if ord == -math.inf:
        return gm._min(a, axes, keep_dims=keepdims)
    if ord == 0:
        return gm._sum(gm.cast(gm.not_equal(a, tf.zeros((), a.dtype)), a.dtype), axes, keep_dims=keepdims)
    p = tf.constant(ord, a.dtype)
    return gm._pow(gm._sum(gm._pow(a, p), axes, keep_dims=keepdims), gm.reciprocal(p))


def matrix_norm(x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Any:
    x = _float(x)
    if x.shape.rank < 2:
        raise ValueError("linalg.matrix_norm needs at least two dimensions")
    a = _abs(x)
    if ord == "fro":
        out = gm.sqrt(gm._sum(gm.square(a), _LAST2, keep_dims=False))
    elif ord == "nuc":
        out = gm._sum(svdvals(x), -1, keep_dims=False)
    elif ord in (1, -1):
        cols = gm._sum(a, -2, keep_dims=False)
        out = (gm._max if ord == 1 else gm._min)(cols, -1, keep_dims=False)
    elif ord in (math.inf, -math.inf):
        rows = gm._sum(a, -1, keep_dims=False)
        out = (gm._max if ord > 0 else gm._min)(rows, -1, keep_dims=False)
    elif ord in (2, -2):
        s = svdvals(x)
        out = (gm._max if ord == 2 else gm._min)(s, -1, keep_dims=False)
    else:
        raise ValueError(f"linalg.matrix_norm: unsupported ord {ord!r}")
    return out[..., None, None] if keepdims else out


def matrix_power(x: Any, n: int, /) -> Any:
    _square(x, "matrix_power")
    if n == 0:
        eye = tf.eye(int(x.shape[-1]), dtype=x.dtype if x.dtype is not D.BOOL else D.U8)
        return tf.broadcast_to(gm.cast(eye, x.dtype), tf.shape(x))
    if n < 0:
        x = inv(x)
        n = -n
    result = None
    base = x
    while n:  # exponentiation by squaring
        if n & 1:
            result = base if result is None else matmul(result, base)
        n >>= 1
        if n:
            base = matmul(base, base)
    return result


def _rtol_cutoff(x: Any, s: Any, rtol: Any) -> Any:
    r = D.REAL_OF.get(x.dtype, x.dtype)
    if rtol is None:
        rtol = tf.constant(max(int(x.shape[-1]), int(x.shape[-2])) * float(np.finfo(r.as_numpy_dtype).eps), r)
    elif isinstance(rtol, (int, float)):
        rtol = tf.constant(rtol, r)
    else:
        rtol = gm.cast(rtol, r)
    smax = gm._max(s, -1, keep_dims=False) if int(s.shape[-1]) else tf.zeros(tf.shape(s)[:-1], r)
    return gm.mul(rtol, smax)[..., None]


def matrix_rank(x: Any, /, *, rtol: Any = None) -> Any:
    x = _float(x)
    d = x.dtype
    if int(tf.size(x)):
        # float32 in float64 rebuilt from the bits (TF flushes subnormals), then normalised (rank
        # is scale-invariant) so that tiny matrices keep their rank
        w = f32_to_f64(x) if d is D.F32 else gm.cast(x, D.C128) if d is D.C64 else x
        m = gm._max(_abs(w), _LAST2, keep_dims=True)
        w = gm.real_div(
            w, gm.cast(gm.select_v2(gm.greater(m, tf.zeros((), m.dtype)), m, tf.ones((), m.dtype)), w.dtype)
        )
    else:
        w = x
    s = svdvals(w)
    cut = _rtol_cutoff(x, gm.cast(s, D.REAL_OF[d]) if s.dtype != D.REAL_OF[d] else s, rtol)
    return gm._sum(gm.cast(gm.greater(s, gm.cast(cut, s.dtype)), D.I64), -1, keep_dims=False)


def pinv(x: Any, /, *, rtol: Any = None) -> Any:
    x = _float(x)
    s, u, v = tf.linalg.svd(x, full_matrices=False, compute_uv=True)
    cut = _rtol_cutoff(x, s, rtol)
    keep = gm.greater(s, cut)
    safe = gm.select_v2(keep, s, tf.ones((), s.dtype))
    sinv = gm.select_v2(keep, gm.reciprocal(safe), tf.zeros((), s.dtype))
    sinv = gm.cast(sinv, x.dtype) if x.dtype in D.COMPLEX else sinv
    return gm.batch_mat_mul_v2(gm.mul(v, sinv[..., None, :]), _ht(u))  # V diag(1/s) U^H
