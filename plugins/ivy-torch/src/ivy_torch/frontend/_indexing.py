"""Indexing: advanced indexing, gathers and scatters, embeddings.

torch's scatters write ``src`` at the positions ``index`` names along one axis; Ivy's
``scatter_nd`` takes full coordinates, so they are built from ``index`` and the positions of the
other axes (``index`` may be smaller than the tensor in every axis, as torch allows).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch

import ivy

from ._rules import Out, Rule, cast, dtype_name, rule

__all__ = ["TABLE"]


def _query(indices: Sequence[Any]) -> tuple[Any, ...]:
    return tuple(slice(None) if i is None else i for i in indices)


def _bool_indices(node: Any) -> str | None:
    for i in node.args[1]:
        if i is not None and i.meta["val"].dtype == torch.bool:
            return "indexing with a boolean mask (its result's size depends on the data)"
    return None


@rule(check=_bool_indices)
def index(x: Any, indices: Sequence[Any]) -> Any:
    """ivy.get_item with integer index arrays (None: the whole axis), NumPy's advanced indexing"""
    return ivy.get_item(x, _query(indices))


def _put_check(node: Any) -> str | None:
    reason = _bool_indices(node)
    accumulate = node.args[3] if len(node.args) > 3 else node.kwargs.get("accumulate", False)
    if reason is None and accumulate and any(i is None for i in node.args[1]):
        return "index_put with accumulate=True and a skipped (None) axis"
    return reason


@rule(out=True, check=_put_check)
def index_put(out: Out, x: Any, indices: Sequence[Any], values: Any, accumulate: bool = False) -> Any:
    """ivy.set_item, or x + ivy.scatter_nd(sum) of the values when accumulating"""
    values = cast(values, x.dtype)
    if not accumulate:
        return ivy.set_item(x, _query(indices), values)
    coords = ivy.stack(ivy.broadcast_arrays(*[cast(i, torch.int64) for i in indices]), axis=-1)
    rows = tuple(coords.shape[:-1]) + tuple(x.shape[len(indices) :])
    return ivy.add(x, ivy.scatter_nd(coords, ivy.broadcast_to(values, rows), tuple(x.shape)))


@rule()
def index_select(x: Any, dim: int, index: Any) -> Any:
    """ivy.take along dim"""
    return ivy.take(x, ivy.reshape(index, (-1,)), axis=dim % max(x.ndim, 1))


def _crop(x: Any, shape: Sequence[int], skip: int) -> Any:
    """x cut to ``shape`` on every axis but ``skip`` (torch's gathers and scatters allow an
    index smaller than the tensor)."""
    if all(a == b or i == skip for i, (a, b) in enumerate(zip(x.shape, shape))):
        return x
    return ivy.get_item(x, tuple(slice(None) if i == skip else slice(0, n) for i, n in enumerate(shape)))


@rule()
def gather(x: Any, dim: int, index: Any, *, sparse_grad: bool = False) -> Any:
    """ivy.take_along_axis (x cut to index's size on the other axes)"""
    dim %= max(x.ndim, 1)
    return ivy.take_along_axis(_crop(x, index.shape, dim), index, axis=dim)


def _coordinates(index: Any, dim: int) -> Any:
    """Full coordinates ``[..., ndim]`` for a scatter along ``dim``: ``index`` on that axis, each
    element's own position on the others."""
    shape = tuple(index.shape)
    grids = []
    for axis, n in enumerate(shape):
        if axis == dim:
            grids.append(cast(index, torch.int64))
        else:
            view = [1] * len(shape)
            view[axis] = n
            grids.append(ivy.broadcast_to(ivy.reshape(ivy.arange(n, dtype="int64"), tuple(view)), shape))
    return ivy.stack(grids, axis=-1)


def _scatter(x: Any, dim: int, index: Any, src: Any, reduction: str) -> Any:
    dim %= max(x.ndim, 1)
    coords = _coordinates(index, dim)
    shape = tuple(x.shape)
    if not isinstance(src, (int, float, bool)):
        src = _crop(cast(src, x.dtype), index.shape, -1)
    else:
        src = ivy.full(tuple(index.shape), src, dtype=dtype_name(x.dtype))
    if reduction == "sum":
        return ivy.add(x, ivy.scatter_nd(coords, src, shape))
    written = ivy.scatter_nd(coords, ivy.ones(tuple(index.shape), dtype=dtype_name(x.dtype)), shape, reduction="max")
    written = ivy.greater(written, 0)
    if reduction == "replace":
        return ivy.where(written, ivy.scatter_nd(coords, src, shape, reduction="replace"), x)
    combine = ivy.maximum if reduction == "max" else ivy.minimum
    return ivy.where(written, combine(x, ivy.scatter_nd(coords, src, shape, reduction=reduction)), x)


@rule()
def scatter(x: Any, dim: int, index: Any, src: Any) -> Any:
    """the positions index names along dim replaced by src (ivy.scatter_nd, ivy.where)"""
    return _scatter(x, dim, index, src, "replace")


@rule()
def scatter_add(x: Any, dim: int, index: Any, src: Any) -> Any:
    """x + ivy.scatter_nd(sum) of src along dim"""
    return _scatter(x, dim, index, src, "sum")


_REDUCE = {"sum": "sum", "amax": "max", "amin": "min"}


def _reduce_check(node: Any) -> str | None:
    reduce = node.args[4] if len(node.args) > 4 else node.kwargs.get("reduce")
    include_self = node.args[5] if len(node.args) > 5 else node.kwargs.get("include_self", True)
    if reduce not in _REDUCE:
        return f"scatter_reduce with reduce={reduce!r} (sum, amax and amin are translated)"
    if not include_self:
        return "scatter_reduce with include_self=False"
    return None


@rule(check=_reduce_check)
def scatter_reduce(x: Any, dim: int, index: Any, src: Any, reduce: str, *, include_self: bool = True) -> Any:
    """x combined with src at the positions index names: sum, amax, amin (ivy.scatter_nd)"""
    return _scatter(x, dim, index, src, _REDUCE[reduce])


@rule()
def masked_scatter(x: Any, mask: Any, source: Any) -> Any:
    """where mask holds, the next element of source (ivy.cumulative_sum of the mask as positions)"""
    mask = ivy.broadcast_to(mask, tuple(x.shape))
    flat = ivy.reshape(mask, (-1,))
    position = ivy.subtract(ivy.cumulative_sum(ivy.astype(flat, "int64")), 1)
    taken = ivy.take(ivy.reshape(cast(source, x.dtype), (-1,)), ivy.clip(position, 0, None))
    return ivy.where(mask, ivy.reshape(taken, tuple(x.shape)), x)


@rule()
def embedding(
    weight: Any, indices: Any, padding_idx: int = -1, scale_grad_by_freq: bool = False, sparse: bool = False
) -> Any:
    """ivy.embedding; the padding_idx row gets no gradient, as in torch (ivy.stop_gradient)"""
    if padding_idx is not None and padding_idx >= 0:
        rows = ivy.arange(weight.shape[0], dtype="int64")
        is_pad = ivy.expand_dims(ivy.equal(rows, padding_idx), axis=-1)
        weight = ivy.where(is_pad, ivy.stop_gradient(weight), weight)
    return ivy.embedding(weight, indices)


TABLE: dict[str, Rule] = {
    "index.Tensor": index,
    "index_put": index_put,
    "index_select": index_select,
    "gather": gather,
    "scatter.src": scatter,
    "scatter.value": scatter,
    "scatter_add": scatter_add,
    "scatter_reduce.two": scatter_reduce,
    "masked_scatter": masked_scatter,
    "embedding": embedding,
}
