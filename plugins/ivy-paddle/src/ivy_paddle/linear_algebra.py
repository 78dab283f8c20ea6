"""Linear algebra functions of the main namespace. Operands are promoted first; integer kernels
exist for int32/int64 only, so narrow ints compute in int32 and cast back (wrapping)."""

from __future__ import annotations

from typing import Any

from ivy.plugin_kit import fastpath

from ._dtypes import COMPLEX, INTS, T_COMPLEX, T_FLOATS, bool_, idset, int8, int16, int32, uint8
from ._framework import Tensor, paddle
from ._helpers import c_op, promote2
from .manipulation import broadcast_shapes

__all__ = ["matmul", "matrix_transpose", "tensordot", "vecdot"]

_NARROW = idset(bool_, int8, int16, uint8)
_pmatmul = c_op(paddle.matmul)
_INTS = INTS | _NARROW


# Floating operands of one dtype: paddle's C matmul itself. It raises ValueError for 0-d operands
# and mismatched shapes, which the Python function then reports itself.
@fastpath(_pmatmul, nargs=2, dtypes={*T_FLOATS, *T_COMPLEX}, same=(0, 1), retry=ValueError)
def matmul(x1: Any, x2: Any, /) -> Any:
    if type(x1) is not Tensor or type(x2) is not Tensor or x1.dtype is not x2.dtype:
        x1, x2 = promote2(x1, x2, "matmul")
    if not x1.shape or not x2.shape:  # (shape, not ndim: Tensor.ndim is a slow property)
        raise ValueError("ivy.matmul: zero-dimensional operands are not allowed")
    d = id(x1.dtype)
    if d in _INTS:
        s1, s2 = x1.shape, x2.shape
        if (len(s1) > 2 or len(s2) > 2) and len(s1) > 1 and len(s2) > 1 and s1[:-2] != s2[:-2]:
            # paddle's integer matmul corrupts the heap when both batch shapes must broadcast
            batch = broadcast_shapes(s1[:-2], s2[:-2])
            x1 = paddle.broadcast_to(x1, batch + list(s1[-2:]))
            x2 = paddle.broadcast_to(x2, batch + list(s2[-2:]))
        if d in _NARROW:
            dt = x1.dtype
            out = _pmatmul(paddle.cast(x1, int32), paddle.cast(x2, int32))
            return (out != 0) if dt is bool_ else paddle.cast(out, dt)
    return _pmatmul(x1, x2)


_transpose = paddle._C_ops.transpose


def matrix_transpose(x: Any, /) -> Any:
    if len(x.shape) < 2:
        raise ValueError("ivy.matrix_transpose: input must have at least two dimensions")
    n = len(x.shape)
    perm = [*range(n - 2), n - 1, n - 2]
    return _transpose(x, perm)  # what paddle.transpose calls in dynamic and PIR mode


def tensordot(x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
    if x1.dtype is not x2.dtype:
        x1, x2 = promote2(x1, x2, "tensordot")
    if not isinstance(axes, int):
        axes = [list(axes[0]), list(axes[1])]
    if id(x1.dtype) in _NARROW:
        dt = x1.dtype
        out = paddle.tensordot(paddle.cast(x1, int32), paddle.cast(x2, int32), axes)
        return (out != 0) if dt is bool_ else paddle.cast(out, dt)
    return paddle.tensordot(x1, x2, axes)


def vecdot(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    if x1.dtype is not x2.dtype:
        x1, x2 = promote2(x1, x2, "vecdot")
    n = min(len(x1.shape), len(x2.shape))
    if not -n <= axis < 0 and not 0 <= axis < n:
        raise ValueError(f"ivy.vecdot: axis {axis} is out of range")
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError("ivy.vecdot: the sizes along axis differ")
    if axis >= 0:  # the standard counts from the last dimension: resolve against the shorter rank
        axis -= n
    dt = x1.dtype
    if id(dt) in COMPLEX:
        x1 = paddle.conj(x1)
    if id(dt) in _NARROW:
        x1, x2 = paddle.cast(x1, int32), paddle.cast(x2, int32)
    # sum of an int32 product is int64 in paddle: cast back to the promoted dtype
    out = paddle.sum(x1 * x2, axis)
    return out if out.dtype is dt else paddle.cast(out, dt)
