"""Linear algebra of the main namespace: ``matmul``, ``tensordot``, ``vecdot``,
``matrix_transpose``.

MXNet's ``matmul`` and ``tensordot`` compute floating point only: integer (and bool) products are
computed exactly here as a broadcast product summed over the contracted axis.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

from ._dtypes import FLOATS, bool_
from ._framework import Array, mnp, onp
from ._helpers import cast, norm_axis, on_host, promote2_arrays, via_uint8

__all__ = ["matmul", "matrix_transpose", "tensordot", "vecdot"]


def _int_matmul(a: Any, b: Any) -> Any:
    """``a @ b`` of integer (or bool) matrices, exact: ``sum(a[..., :, :, None] * b[..., None, :, :], -2)``."""
    dt = a.dtype
    if dt == bool_:
        a, b = cast(a, "int64"), cast(b, "int64")
    out = mnp.sum(mnp.expand_dims(a, -1) * mnp.expand_dims(b, -3), axis=-2)
    return cast(out, dt) if dt != bool_ else out != 0


def matmul(x1: Array, x2: Array, /) -> Array:
    a, b = promote2_arrays(x1, x2, "matmul")
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("ivy.matmul: operands must have at least one dimension (use ivy.multiply for scalars)")
    if a.shape[-1] != b.shape[0 if b.ndim == 1 else -2]:
        raise ValueError(f"ivy.matmul: shapes {a.shape} and {b.shape} do not match for a matrix product")
    if a.size == 0 or b.size == 0:
        return on_host(lambda p, q: p @ q, a, b, ctx=a.ctx)
    if a.dtype in FLOATS:
        return mnp.matmul(a, b)
    va, vb = a.ndim == 1, b.ndim == 1
    out = _int_matmul(a.reshape(1, -1) if va else a, b.reshape(-1, 1) if vb else b)
    if vb:
        out = out[..., 0]
    if va:
        out = out[..., 0, :] if not vb else out[..., 0]
    return out


def matrix_transpose(x: Array, /) -> Array:
    if x.ndim < 2:
        raise ValueError(f"ivy.matrix_transpose: needs at least 2 dimensions, got shape {x.shape}")
    return via_uint8(mnp.swapaxes, x, -1, -2)


def tensordot(x1: Array, x2: Array, /, *, axes: int | tuple[Sequence[int], Sequence[int]] = 2) -> Array:
    a, b = promote2_arrays(x1, x2, "tensordot")
    if isinstance(axes, (tuple, list)):
        ax1 = [norm_axis(i, a.ndim, "tensordot") for i in axes[0]]
        ax2 = [norm_axis(i, b.ndim, "tensordot") for i in axes[1]]
    else:
        n = operator.index(axes)
        if n < 0 or n > min(a.ndim, b.ndim):
            raise ValueError(f"ivy.tensordot: axes={n} is out of range for shapes {a.shape} and {b.shape}")
        ax1, ax2 = list(range(a.ndim - n, a.ndim)), list(range(n))
    if len(ax1) != len(ax2):
        raise ValueError("ivy.tensordot: both operands need the same number of contracted axes")
    for i, j in zip(ax1, ax2):
        if a.shape[i] != b.shape[j]:
            raise ValueError(f"ivy.tensordot: contracted axes have sizes {a.shape[i]} and {b.shape[j]}")
    if a.size == 0 or b.size == 0:
        return on_host(lambda p, q: onp.tensordot(p, q, axes=(ax1, ax2)), a, b, ctx=a.ctx, dtype=a.dtype)
    free1 = [i for i in range(a.ndim) if i not in ax1]
    free2 = [j for j in range(b.ndim) if j not in ax2]
    k = 1
    for i in ax1:
        k *= a.shape[i]
    # both as matrices: (free1, contracted) @ (contracted, free2)
    am = mnp.transpose(a, tuple(free1 + ax1)).reshape(-1, k) if a.ndim else a.reshape(1, 1)
    bm = mnp.transpose(b, tuple(ax2 + free2)).reshape(k, -1) if b.ndim else b.reshape(1, 1)
    out = mnp.matmul(am, bm) if a.dtype in FLOATS else _int_matmul(am, bm)
    return out.reshape(tuple(a.shape[i] for i in free1) + tuple(b.shape[j] for j in free2))


def vecdot(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    a, b = promote2_arrays(x1, x2, "vecdot")
    nd = max(a.ndim, b.ndim)
    ax = norm_axis(axis, nd, "vecdot")
    if axis >= 0:  # the standard counts a non-negative axis from the end of the broadcast shape
        ax = axis - nd
    else:
        ax = axis
    if a.shape[ax] != b.shape[ax] if min(a.ndim, b.ndim) >= -ax else False:
        raise ValueError(f"ivy.vecdot: the contracted axis has sizes {a.shape[ax]} and {b.shape[ax]}")
    if a.size == 0 or b.size == 0:
        return on_host(lambda p, q: onp.sum(p * q, axis=ax), a, b, ctx=a.ctx, dtype=a.dtype)
    return mnp.sum(a * b, axis=ax)
