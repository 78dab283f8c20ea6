"""Matrix products, distances, decompositions and solves, and FFTs.

torch's linear-algebra ops also return what their backward pass or their error checks need (the
LU factors and pivots of a determinant, an ``info`` code per matrix): those are computed only
as the zeros torch reports for matrices that factor, and the ops whose other outputs the program
reads are listed as unsupported."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import torch

import ivy

from ._rules import Out, Rule, cast, const, rule, same

__all__ = ["TABLE"]


@rule()
def addmm(bias: Any, a: Any, b: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:
    """beta * bias + alpha * (a @ b)"""
    product = ivy.matmul(a, b)
    if alpha != 1:
        product = ivy.multiply(product, alpha)
    if beta == 0:
        return product
    return ivy.add(bias if beta == 1 else ivy.multiply(bias, beta), product)


@rule()
def linear(x: Any, weight: Any, bias: Any = None) -> Any:
    """ivy.linear (x @ weight.T + bias; kept whole, not decomposed)"""
    return ivy.linear(x, weight, bias)


def _distances(a: Any, b: Any, p: float) -> Any:
    diff = ivy.subtract(ivy.expand_dims(a, axis=-2), ivy.expand_dims(b, axis=-3))
    return ivy.linalg.vector_norm(diff, axis=-1, ord=p)


@rule()
def cdist(x1: Any, x2: Any, p: float, compute_mode: int | None = None) -> Any:
    """ivy.linalg.vector_norm of the pairwise differences, [..., n, m]"""
    return _distances(x1, x2, p)


@rule()
def pdist(x: Any, p: float = 2.0) -> Any:
    """the upper triangle (i < j, row by row) of the pairwise distances of x's rows"""
    n = x.shape[0]
    i, j = torch.triu_indices(n, n, offset=1)
    pairs = ivy.subtract(ivy.take(x, const(i), axis=0), ivy.take(x, const(j), axis=0))
    return ivy.linalg.vector_norm(pairs, axis=-1, ord=p)


_FORWARD_NORM = {0: "backward", 1: "ortho", 2: "forward"}
_INVERSE_NORM = {0: "forward", 1: "ortho", 2: "backward"}


@rule(out=True)
def fft_r2c(out: Out, x: Any, dim: Sequence[int], normalization: int, onesided: bool) -> Any:
    """ivy.fft.rfftn (onesided) or ivy.fft.fftn of the real input over dim"""
    dims = [d % x.ndim for d in dim]
    norm = _FORWARD_NORM[normalization]
    if onesided:
        return ivy.fft.rfftn(x, axes=dims, norm=norm)
    return ivy.fft.fftn(cast(x, out.dtype), axes=dims, norm=norm)


@rule()
def fft_c2r(x: Any, dim: Sequence[int], normalization: int, last_dim_size: int) -> Any:
    """ivy.fft.irfftn over dim, the last axis of length last_dim_size"""
    dims = [d % x.ndim for d in dim]
    sizes = [x.shape[d] for d in dims[:-1]] + [last_dim_size]
    return ivy.fft.irfftn(x, s=sizes, axes=dims, norm=_INVERSE_NORM[normalization])


def _only_outputs(*readable: int) -> Any:
    """A check: the program reads no output of the node but ``readable`` ones."""

    def check(node: Any) -> str | None:
        read = {u.args[1] for u in node.users if u.target is operator.getitem}
        extra = sorted(read - set(readable))
        return f"output {extra[0]} of {node.target} (only outputs {list(readable)} are translated)" if extra else None

    return check


def _info(x: Any, batch_dims: int = 2) -> Any:
    """torch's per-matrix error code: 0 (success) for each matrix of the batch."""
    return ivy.zeros(tuple(x.shape[: x.ndim - batch_dims]), dtype="int32")


@rule(check=_only_outputs(0, 1))
def inv_ex(a: Any, *, check_errors: bool = False) -> Any:
    """(ivy.linalg.inv, info = 0)"""
    return ivy.linalg.inv(a), _info(a)


@rule(check=_only_outputs(0))
def det(a: Any) -> Any:
    """ivy.linalg.det (the LU factors it also returns are not translated)"""
    return ivy.linalg.det(a), None, None


@rule(check=_only_outputs(0, 3))
def solve_ex(a: Any, b: Any, *, left: bool = True, check_errors: bool = False) -> Any:
    """ivy.linalg.solve (a @ x = b; left=False: x @ a = b through the transposes)"""
    if left:
        x = ivy.linalg.solve(a, b)
    else:
        x = ivy.matrix_transpose(ivy.linalg.solve(ivy.matrix_transpose(a), ivy.matrix_transpose(b)))
    return x, None, None, _info(a)


@rule(check=_only_outputs(0, 1))
def cholesky_ex(a: Any, *, upper: bool = False, check_errors: bool = False) -> Any:
    """(ivy.linalg.cholesky(upper=...), info = 0)"""
    return ivy.linalg.cholesky(a, upper=upper), _info(a)


@rule(out=True)
def svd(out: Out, a: Any, full_matrices: bool = True, compute_uv: bool = True, *, driver: str | None = None) -> Any:
    """ivy.linalg.svd (ivy.linalg.svdvals when the vectors are not read); singular vectors are
    defined up to sign, so they may differ from torch's by one"""
    if 0 not in out.used and 2 not in out.used:  # (the vectors torch computes but nothing reads)
        return None, ivy.linalg.svdvals(a), None
    u, s, vh = ivy.linalg.svd(a, full_matrices=full_matrices)
    return u, s, vh


@rule(out=True)
def eigh(out: Out, a: Any, uplo: str = "L", compute_v: bool = True) -> Any:
    """ivy.linalg.eigh of the lower (or, UPLO="U", the upper) triangle mirrored; eigenvectors
    are defined up to sign"""
    if uplo == "U":
        a = ivy.matrix_transpose(a)
    values, vectors = ivy.linalg.eigh(a)
    return values, vectors if 1 in out.used else None


TABLE: dict[str, Rule] = {
    "mm": same(ivy.matmul),
    "bmm": same(ivy.matmul),
    "addmm": addmm,
    "linear": linear,
    "_cdist_forward": cdist,
    "_pdist_forward": pdist,
    "linalg_inv_ex": inv_ex,
    "_linalg_det": det,
    "_linalg_solve_ex": solve_ex,
    "linalg_cholesky_ex": cholesky_ex,
    "_linalg_svd": svd,
    "_linalg_eigh": eigh,
    "_fft_r2c": fft_r2c,
    "_fft_c2r": fft_c2r,
}
