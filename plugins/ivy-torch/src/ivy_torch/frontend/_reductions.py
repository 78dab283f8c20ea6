"""Reductions, scans and sorting: sums, means, extrema (with their indices), variance, any,
products, cumulative sums, top-k and sort.

ATen's ``dim`` is an int, a list, or ``None``/``[]`` for every axis; the result dtype (sums of
integers and booleans are int64) is torch's, taken from the exported node.
"""

from __future__ import annotations

from typing import Any

import torch

import ivy

from ._rules import Out, Rule, axes, cast, rule

__all__ = ["TABLE"]


@rule(out=True)
def sum_(out: Out, x: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Any:
    """ivy.sum in torch's accumulation dtype (int64 for integers and booleans)"""
    return ivy.sum(cast(x, out.dtype), axis=axes(dim, x.ndim), keepdims=keepdim)


@rule(out=True)
def mean(out: Out, x: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Any:
    """ivy.mean"""
    return ivy.mean(cast(x, out.dtype), axis=axes(dim, x.ndim), keepdims=keepdim)


@rule(out=True)
def prod(out: Out, x: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Any:
    """ivy.prod in torch's accumulation dtype"""
    return ivy.prod(cast(x, out.dtype), axis=axes(dim, x.ndim), keepdims=keepdim)


@rule()
def amax(x: Any, dim: Any = (), keepdim: bool = False) -> Any:
    """ivy.max"""
    return ivy.max(x, axis=axes(dim, x.ndim), keepdims=keepdim)


@rule()
def amin(x: Any, dim: Any = (), keepdim: bool = False) -> Any:
    """ivy.min"""
    return ivy.min(x, axis=axes(dim, x.ndim), keepdims=keepdim)


@rule(out=True)
def max_dim(out: Out, x: Any, dim: int, keepdim: bool = False) -> Any:
    """(ivy.max, ivy.argmax) along dim"""
    index = ivy.argmax(x, axis=dim, keepdims=keepdim) if 1 in out.used else None
    return ivy.max(x, axis=dim, keepdims=keepdim), index


@rule(out=True)
def min_dim(out: Out, x: Any, dim: int, keepdim: bool = False) -> Any:
    """(ivy.min, ivy.argmin) along dim"""
    index = ivy.argmin(x, axis=dim, keepdims=keepdim) if 1 in out.used else None
    return ivy.min(x, axis=dim, keepdims=keepdim), index


@rule()
def argmax(x: Any, dim: int | None = None, keepdim: bool = False) -> Any:
    """ivy.argmax (dim None: of the flattened tensor)"""
    return ivy.argmax(x, axis=dim, keepdims=keepdim)


@rule()
def argmin(x: Any, dim: int | None = None, keepdim: bool = False) -> Any:
    """ivy.argmin (dim None: of the flattened tensor)"""
    return ivy.argmin(x, axis=dim, keepdims=keepdim)


def _truth(x: Any) -> Any:
    return x if x.dtype == torch.bool else ivy.not_equal(x, 0)


@rule()
def any_(x: Any, dim: Any = None, keepdim: bool = False) -> Any:
    """ivy.any of the tensor as booleans"""
    return ivy.any(_truth(x), axis=axes(dim, x.ndim), keepdims=keepdim)


@rule(out=True)
def var_correction(out: Out, x: Any, dim: Any = None, *, correction: Any = None, keepdim: bool = False) -> Any:
    """ivy.var(correction=...) (torch's default correction is 1)"""
    c = 1 if correction is None else correction
    return ivy.var(cast(x, out.dtype), axis=axes(dim, x.ndim), correction=c, keepdims=keepdim)


@rule(out=True)
def var_dim(out: Out, x: Any, dim: Any = None, unbiased: bool = True, keepdim: bool = False) -> Any:
    """ivy.var(correction=1 if unbiased else 0)"""
    return ivy.var(cast(x, out.dtype), axis=axes(dim, x.ndim), correction=int(unbiased), keepdims=keepdim)


@rule(out=True)
def cumsum(out: Out, x: Any, dim: int, *, dtype: Any = None) -> Any:
    """ivy.cumulative_sum in torch's accumulation dtype"""
    return ivy.cumulative_sum(cast(x, out.dtype), axis=dim % max(x.ndim, 1))


@rule()
def topk(x: Any, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> Any:
    """ivy.top_k -> (values, indices)"""
    return ivy.top_k(x, k, axis=dim, largest=largest, sorted=sorted)


@rule(out=True)
def sort(out: Out, x: Any, dim: int = -1, descending: bool = False) -> Any:
    """(ivy.sort, ivy.argsort), stable"""
    index = ivy.argsort(x, axis=dim, descending=descending) if 1 in out.used else None
    return ivy.sort(x, axis=dim, descending=descending), index


@rule()
def max_all(x: Any) -> Any:
    """ivy.max of every element"""
    return ivy.max(x)


@rule()
def min_all(x: Any) -> Any:
    """ivy.min of every element"""
    return ivy.min(x)


@rule(out=True)
def cumprod(out: Out, x: Any, dim: int, *, dtype: Any = None) -> Any:
    """ivy.cumulative_prod in torch's accumulation dtype"""
    return ivy.cumulative_prod(cast(x, out.dtype), axis=dim % max(x.ndim, 1))


@rule(out=True)
def vector_norm(out: Out, x: Any, ord: Any = 2, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Any:
    """ivy.linalg.vector_norm over dim (every axis for None)"""
    return ivy.linalg.vector_norm(cast(x, out.dtype), axis=axes(dim, x.ndim), keepdims=keepdim, ord=ord)


@rule(out=True)
def median_dim(out: Out, x: Any, dim: int = -1, keepdim: bool = False) -> Any:
    """the lower median, as torch: element (n - 1) // 2 of ivy.sort along dim (its index from
    ivy.argsort)"""
    dim %= max(x.ndim, 1)
    k = (x.shape[dim] - 1) // 2
    pick = (slice(None),) * dim + (slice(k, k + 1),)
    values = ivy.get_item(ivy.sort(x, axis=dim), pick)
    index = ivy.get_item(ivy.argsort(x, axis=dim), pick) if 1 in out.used else None
    if not keepdim:
        values = ivy.squeeze(values, axis=dim)
        index = None if index is None else ivy.squeeze(index, axis=dim)
    return values, index


TABLE: dict[str, Rule] = {
    "sum.dim_IntList": sum_,
    "sum": sum_,
    "mean": mean,
    "mean.dim": mean,
    "prod": prod,
    "prod.dim_int": prod,
    "amax": amax,
    "amin": amin,
    "max": max_all,
    "min": min_all,
    "max.dim": max_dim,
    "min.dim": min_dim,
    "argmax": argmax,
    "argmin": argmin,
    "any": any_,
    "any.dim": any_,
    "any.dims": any_,
    "var.correction": var_correction,
    "var.dim": var_dim,
    "cumsum": cumsum,
    "cumprod": cumprod,
    "linalg_vector_norm": vector_norm,
    "median.dim": median_dim,
    "topk": topk,
    "sort": sort,
}
