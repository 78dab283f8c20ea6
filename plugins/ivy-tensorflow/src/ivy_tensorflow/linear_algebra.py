"""Linear algebra functions of the main namespace."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import tensorflow as tf
from tensorflow.python.ops import gen_array_ops as ga
from tensorflow.python.ops import gen_math_ops as gm

from ivy.plugin_kit import axis_tuple

from . import _dtypes as D
from ._helpers import ints, pair

__all__ = ["matmul", "matrix_transpose", "tensordot", "vecdot"]

#: Dtypes without MatMul / einsum kernels on CPU: computed in int64 and cast back (exact modulo 2**n).
_WIDEN = {D.I8: D.I64, D.I16: D.I64, D.U8: D.I64, D.U16: D.I64, D.U32: D.I64, D.U64: D.I64, D.BOOL: D.I64}


def widened(fn: Callable[[Any, Any], Any], x1: Any, x2: Any) -> Any:
    d = x1.dtype
    w = _WIDEN.get(d)
    if w is None:
        return fn(x1, x2)
    out = fn(gm.cast(x1, w), gm.cast(x2, w))
    if d is D.BOOL:
        return gm.not_equal(out, tf.zeros((), w))  # bool matmul: OR of ANDs, like NumPy
    return gm.cast(out, d)


def _mm(x1: Any, x2: Any) -> Any:
    return gm.batch_mat_mul_v2(x1, x2)


def _matmul_slow(x1: Any, x2: Any) -> Any:
    x1, x2 = pair(x1, x2)
    r1, r2 = x1.shape.rank, x2.shape.rank
    if r1 == 0 or r2 == 0:
        raise ValueError("matmul: zero-dimensional inputs are not allowed")
    if x1.shape[-1] != x2.shape[-2 if r2 > 1 else 0]:
        raise ValueError(f"matmul: shapes {tuple(x1.shape)} and {tuple(x2.shape)} are not aligned")
    a = x1[None, :] if r1 == 1 else x1  # 1-D operands: row / column vectors, removed afterwards
    b = x2[:, None] if r2 == 1 else x2
    try:
        out = widened(_mm, a, b)
    except tf.errors.InvalidArgumentError as e:
        raise ValueError(f"matmul: {e.message}") from None
    if r1 == 1:
        out = tf.squeeze(out, -2)
    if r2 == 1:
        out = tf.squeeze(out, -1)
    return out


def matmul(x1: Any, x2: Any, /) -> Any:
    try:
        if x1.dtype is x2.dtype and x1.dtype in D.FLOATS and x1.shape.rank >= 2 and x2.shape.rank >= 2:
            return gm.batch_mat_mul_v2(x1, x2)
    except AttributeError:
        pass
    except tf.errors.InvalidArgumentError as e:
        raise ValueError(f"matmul: {e.message}") from None
    return _matmul_slow(x1, x2)


def matrix_transpose(x: Any, /) -> Any:
    n = x.shape.rank
    if n < 2:
        raise ValueError("matrix_transpose: x must have at least two dimensions")
    return ga.transpose(x, ints((*range(n - 2), n - 1, n - 2)))


def tensordot(x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
    x1, x2 = pair(x1, x2)
    if not isinstance(axes, int):
        a1, a2 = axes
        r1, r2 = x1.shape.rank, x2.shape.rank
        a1 = list(axis_tuple(a1, r1, "tensordot", "axes"))
        a2 = list(axis_tuple(a2, r2, "tensordot", "axes"))
        for i, j in zip(a1, a2):
            if x1.shape[i] != x2.shape[j]:
                raise ValueError("tensordot: contracted axes differ in size")
        axes = [a1, a2]
    elif axes < 0:
        raise ValueError("tensordot: axes must be non-negative")
    else:
        if axes > x1.shape.rank or axes > x2.shape.rank:
            raise ValueError("tensordot: axes exceeds the rank of an input")
        if tuple(x1.shape[x1.shape.rank - axes :]) != tuple(x2.shape[:axes]):
            raise ValueError("tensordot: contracted axes differ in size")
    return widened(lambda a, b: tf.tensordot(a, b, axes), x1, x2)


def vecdot(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    x1, x2 = pair(x1, x2)
    r1, r2 = x1.shape.rank, x2.shape.rank
    n = min(r1, r2)
    if not -n <= axis < n or n == 0:
        raise ValueError(f"vecdot: axis {axis} out of range")
    if axis >= 0:
        axis = axis - n  # the standard counts from the last dimension
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError("vecdot: the inputs differ in size along axis")
    if x1.dtype in D.COMPLEX:
        x1 = gm.conj(x1)
    if x1.dtype is D.BOOL:
        return tf.reduce_any(gm.logical_and(x1, x2), axis=axis)
    return tf.reduce_sum(gm.mul(x1, x2), axis=axis)
