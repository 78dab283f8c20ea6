"""Linear algebra functions of the main namespace (also used by ``linalg``)."""

from __future__ import annotations

from collections.abc import Sequence

import torch

from ivy.plugin_kit import fastpath

from ._dtypes import INEXACT, PARTIAL
from ._helpers import Tensor, prep2, uint_call

__all__ = ["matmul", "matrix_transpose", "tensordot", "vecdot"]


# torch's errors (shapes, 0-d inputs, dtypes without a kernel) send the call to the function, which
# raises the standard's ValueError or computes what torch cannot
@fastpath(torch.matmul, nargs=2, same=(0, 1), retry=(RuntimeError, NotImplementedError))
def matmul(x1: Tensor, x2: Tensor, /) -> Tensor:
    try:
        if x1.dtype is x2.dtype:
            return torch.matmul(x1, x2)
    except RuntimeError:  # an unsupported dtype, or shapes: sorted out below
        pass
    return _matmul_slow(x1, x2)


def _matmul_slow(x1: Tensor, x2: Tensor) -> Tensor:
    if x1.dtype is not x2.dtype:
        x1, x2 = prep2(x1, x2)  # torch.matmul refuses mixed dtypes
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError("matmul: zero-dimensional input")
    try:
        return torch.matmul(x1, x2)
    except NotImplementedError:
        if x1.dtype in PARTIAL:
            return uint_call(torch.matmul, "matmul", "wrap", x1, x2)
        if x1.dtype is torch.bool:  # no bool kernel: count and test
            return torch.matmul(x1.to(torch.uint8), x2.to(torch.uint8)) != 0
        raise
    except RuntimeError as e:
        raise ValueError(str(e)) from e  # shape mismatch: the standard's ValueError


def matrix_transpose(x: Tensor, /) -> Tensor:
    if x.ndim < 2:
        raise ValueError("matrix_transpose: input must be at least two-dimensional")
    return x.mT


def tensordot(
    x1: Tensor,
    x2: Tensor,
    /,
    *,
    axes: int | tuple[Sequence[int], Sequence[int]] = 2,
) -> Tensor:
    if x1.dtype is not x2.dtype:
        x1, x2 = prep2(x1, x2)  # torch.tensordot refuses mixed dtypes
    dims: int | list[list[int]] = axes if isinstance(axes, int) else [list(axes[0]), list(axes[1])]
    try:
        return torch.tensordot(x1, x2, dims=dims)
    except NotImplementedError:
        if x1.dtype in PARTIAL:
            return uint_call(lambda a, b: torch.tensordot(a, b, dims=dims), "tensordot", "wrap", x1, x2)
        raise


def vecdot(x1: Tensor, x2: Tensor, /, *, axis: int = -1) -> Tensor:
    if x1.dtype is not x2.dtype:
        x1, x2 = prep2(x1, x2)
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError(f"vecdot: sizes along axis {axis} differ: {x1.shape[axis]} and {x2.shape[axis]}")
    if x1.dtype in INEXACT:
        return torch.linalg.vecdot(x1, x2, dim=axis)
    # torch.linalg.vecdot has no integer kernels
    if x1.dtype is torch.bool:
        return torch.any(x1 & x2, dim=axis)
    try:
        return torch.sum(x1 * x2, dim=axis, dtype=x1.dtype)
    except NotImplementedError:
        return uint_call(lambda a, b: torch.sum(a * b, dim=axis, dtype=a.dtype), "vecdot", "wrap", x1, x2)
