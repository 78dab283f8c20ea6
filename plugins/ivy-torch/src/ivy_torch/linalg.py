"""The ``linalg`` extension."""

from __future__ import annotations

from typing import Any, NamedTuple

import torch

from ._dtypes import PARTIAL, SUM_DTYPE, i64, native, u64
from ._helpers import Tensor, prep2
from .linear_algebra import matmul, matrix_transpose, tensordot, vecdot

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

det = torch.linalg.det
eigvalsh = torch.linalg.eigvalsh
inv = torch.linalg.inv
svdvals = torch.linalg.svdvals


class EighResult(NamedTuple):
    eigenvalues: Tensor
    eigenvectors: Tensor


class QRResult(NamedTuple):
    Q: Tensor
    R: Tensor


class SlogdetResult(NamedTuple):
    sign: Tensor
    logabsdet: Tensor


class SVDResult(NamedTuple):
    U: Tensor
    S: Tensor
    Vh: Tensor


def cholesky(x: Tensor, /, *, upper: bool = False) -> Tensor:
    return torch.linalg.cholesky(x, upper=upper)


def cross(x1: Tensor, x2: Tensor, /, *, axis: int = -1) -> Tensor:
    if x1.dtype is not x2.dtype:
        x1, x2 = prep2(x1, x2)  # torch.linalg.cross refuses mixed dtypes
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(f"cross: both inputs need size 3 along axis {axis}")
    if x1.ndim != x2.ndim:
        if axis >= 0:
            raise ValueError("cross: axis must be negative when the inputs' ranks differ")
        x1, x2 = torch.broadcast_tensors(x1, x2)  # torch.linalg.cross wants equal ranks
    try:
        return torch.linalg.cross(x1, x2, dim=axis)
    except NotImplementedError:
        if x1.dtype not in PARTIAL:
            raise
        from ._helpers import uint_call

        return uint_call(lambda a, b: torch.linalg.cross(a, b, dim=axis), "linalg.cross", "wrap", x1, x2)


def diagonal(x: Tensor, /, *, offset: int = 0) -> Tensor:
    return torch.diagonal(x, offset, -2, -1)


def eigh(x: Tensor, /) -> EighResult:
    w, v = torch.linalg.eigh(x)
    return EighResult(w, v)


def matrix_norm(
    x: Tensor,
    /,
    *,
    keepdims: bool = False,
    ord: int | float | str | None = "fro",
) -> Tensor:
    return torch.linalg.matrix_norm(x, ord="fro" if ord is None else ord, dim=(-2, -1), keepdim=keepdims)


def matrix_power(x: Tensor, n: int, /) -> Tensor:
    return torch.linalg.matrix_power(x, n)


def matrix_rank(x: Tensor, /, *, rtol: float | Tensor | None = None) -> Tensor:
    if rtol is None:
        return torch.linalg.matrix_rank(x)  # default rtol: eps * max(M, N), as the standard says
    if isinstance(rtol, Tensor):
        # torch takes atol and rtol both as numbers or both as tensors of x's real dtype
        rtol = rtol.to(x.real.dtype)
        return torch.linalg.matrix_rank(x, atol=torch.zeros((), dtype=rtol.dtype, device=x.device), rtol=rtol)
    # torch ignores rtol when atol is None only if rtol is None: pass atol=0 explicitly
    return torch.linalg.matrix_rank(x, atol=0.0, rtol=rtol)


def outer(x1: Tensor, x2: Tensor, /) -> Tensor:
    if x1.dtype is not x2.dtype:
        x1, x2 = prep2(x1, x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError("outer: both inputs must be one-dimensional")
    try:
        return torch.outer(x1, x2)
    except NotImplementedError:
        return x1[:, None] * x2[None, :] if x1.dtype not in PARTIAL else _uint_outer(x1, x2)


def _uint_outer(x1: Tensor, x2: Tensor) -> Tensor:
    from ._helpers import uint_call

    return uint_call(lambda a, b: a[:, None] * b[None, :], "linalg.outer", "wrap", x1, x2)


def pinv(x: Tensor, /, *, rtol: float | Tensor | None = None) -> Tensor:
    if rtol is None:
        return torch.linalg.pinv(x)
    if isinstance(rtol, Tensor):
        # torch takes atol and rtol both as numbers or both as tensors of x's real dtype
        rtol = rtol.to(x.real.dtype)
        return torch.linalg.pinv(x, atol=torch.zeros((), dtype=rtol.dtype, device=x.device), rtol=rtol)
    return torch.linalg.pinv(x, atol=0.0, rtol=rtol)


def qr(x: Tensor, /, *, mode: str = "reduced") -> QRResult:
    q, r = torch.linalg.qr(x, mode=mode)
    return QRResult(q, r)


def slogdet(x: Tensor, /) -> SlogdetResult:
    s, la = torch.linalg.slogdet(x)
    return SlogdetResult(s, la)


def solve(x1: Tensor, x2: Tensor, /) -> Tensor:
    if x1.dtype is not x2.dtype:
        x1, x2 = prep2(x1, x2)
    if x2.ndim > 1 and x2.ndim == x1.ndim - 1:
        # torch would read x2 as a batch of vectors; the standard reads it as a matrix
        return torch.linalg.solve(x1, x2[None])
    return torch.linalg.solve(x1, x2)


def svd(x: Tensor, /, *, full_matrices: bool = True) -> SVDResult:
    u, s, vh = torch.linalg.svd(x, full_matrices=full_matrices)
    return SVDResult(u, s, vh)


def trace(x: Tensor, /, *, offset: int = 0, dtype: Any = None) -> Tensor:
    dt = SUM_DTYPE.get(x.dtype) if dtype is None else native(dtype)
    d = torch.diagonal(x, offset, -2, -1)
    if dt in PARTIAL or x.dtype in PARTIAL:
        out_dt = dt if dt is not None else x.dtype
        r = torch.sum(d.to(i64), dim=-1)  # same bits modulo 2**64
        return r.view(u64) if out_dt is u64 else r.to(out_dt)
    return torch.sum(d, dim=-1, dtype=dt)


def vector_norm(
    x: Tensor,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    keepdims: bool = False,
    ord: int | float = 2,
) -> Tensor:
    if axis == ():  # torch reads () as "all axes"
        return torch.linalg.vector_norm(x.unsqueeze(-1), ord=ord, dim=-1)
    if axis is None and keepdims:
        return torch.linalg.vector_norm(x, ord=ord).reshape((1,) * x.ndim)
    return torch.linalg.vector_norm(x, ord=ord, dim=axis, keepdim=keepdims)
