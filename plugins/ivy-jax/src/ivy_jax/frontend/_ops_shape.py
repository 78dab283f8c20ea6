"""Shape and layout primitives: broadcasting, reshaping, slicing, padding, concatenation."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import ivy

from ._table import Ctx, as_array, rule

__all__ = ["interior_pad", "place"]


@rule("tile", doc="ivy.tile")
def _tile(x: Any, *, reps: Sequence[int]) -> Any:
    return ivy.tile(x, tuple(int(r) for r in reps))


@rule("broadcast_in_dim", doc="ivy.reshape to the output's rank, then ivy.broadcast_to (ivy.full for a scalar)")
def _broadcast_in_dim(x: Any, *, shape: Sequence[int], broadcast_dimensions: Sequence[int], ctx: Ctx) -> Any:
    shape = tuple(shape)
    if isinstance(x, (bool, int, float, complex)):
        return ivy.full(shape, x, dtype=ctx.out_dtype())
    if tuple(x.shape) == shape:
        return x
    placed = place(x, broadcast_dimensions, len(shape))
    return placed if tuple(placed.shape) == shape else ivy.broadcast_to(placed, shape)


def place(x: Any, axes: Sequence[int], rank: int) -> Any:
    """``x`` reshaped to ``rank`` dimensions, its own at positions ``axes``, ones elsewhere."""
    shape = [1] * rank
    for a, n in zip(axes, x.shape):
        shape[a] = n
    return x if tuple(shape) == tuple(x.shape) else ivy.reshape(x, tuple(shape))


@rule("reshape", doc="ivy.reshape (after ivy.permute_dims when dimensions is given)")
def _reshape(x: Any, *, new_sizes: Sequence[int], dimensions: Sequence[int] | None) -> Any:
    if dimensions is not None and tuple(dimensions) != tuple(range(len(x.shape))):
        x = ivy.permute_dims(x, tuple(dimensions))
    return ivy.reshape(x, tuple(new_sizes))


@rule("transpose", doc="ivy.permute_dims")
def _transpose(x: Any, *, permutation: Sequence[int]) -> Any:
    return ivy.permute_dims(x, tuple(permutation))


@rule("squeeze", doc="ivy.squeeze")
def _squeeze(x: Any, *, dimensions: Sequence[int]) -> Any:
    return ivy.squeeze(x, axis=tuple(dimensions)) if dimensions else x


@rule("rev", doc="ivy.flip")
def _rev(x: Any, *, dimensions: Sequence[int]) -> Any:
    return ivy.flip(x, axis=tuple(dimensions)) if dimensions else x


@rule("concatenate", doc="ivy.concat")
def _concatenate(*xs: Any, dimension: int) -> Any:
    return ivy.concat(list(xs), axis=dimension)


@rule("stack", doc="ivy.stack")
def _stack(*xs: Any, axis: int) -> Any:
    return ivy.stack(list(xs), axis=axis)


@rule("unstack", doc="ivy.unstack")
def _unstack(x: Any, *, axis: int) -> Any:
    return list(ivy.unstack(x, axis=axis))


@rule("split", doc="ivy.split into the given sizes")
def _split(x: Any, *, sizes: Sequence[int], axis: int) -> Any:
    return list(ivy.split(x, [int(s) for s in sizes], axis=axis))


@rule("iota", doc="ivy.arange, reshaped and broadcast along one dimension")
def _iota(*, dtype: Any, shape: Sequence[int], dimension: int, ctx: Ctx) -> Any:
    shape = tuple(shape)
    placed = place(ivy.arange(shape[dimension], dtype=ctx.out_dtype()), [dimension], len(shape))
    return placed if tuple(placed.shape) == shape else ivy.broadcast_to(placed, shape)


@rule("slice", doc="ivy.get_item with static slices")
def _slice(x: Any, *, start_indices: Sequence[int], limit_indices: Sequence[int], strides: Sequence[int] | None) -> Any:
    steps = strides or [1] * len(start_indices)
    query = tuple(slice(int(a), int(b), int(s)) for a, b, s in zip(start_indices, limit_indices, steps))
    return ivy.get_item(x, query)


def _pad_value(value: Any, ctx: Ctx, i: int) -> Any:
    """The padding value as a Python scalar when known at transpile time, else the 0-d array."""
    if isinstance(value, (bool, int, float, complex)):
        return value
    known = ctx.concrete(i)
    return value if known is None else known.item()


def interior_pad(x: Any, axis: int, k: int, value: Any) -> Any:
    """``k`` copies of ``value`` between neighbouring elements of ``x`` along ``axis``: the
    elements and the fill are interleaved on a new axis and the two axes merged."""
    n = x.shape[axis]
    if k == 0 or n <= 1:
        return x
    fill_shape = (*x.shape[: axis + 1], k, *x.shape[axis + 1 :])
    if isinstance(value, (bool, int, float, complex)):
        fill = ivy.full(fill_shape, value, dtype=x.dtype)
    else:
        fill = ivy.broadcast_to(ivy.astype(value, x.dtype), fill_shape)
    both = ivy.concat([ivy.expand_dims(x, axis=axis + 1), fill], axis=axis + 1)
    merged = ivy.reshape(both, (*x.shape[:axis], n * (k + 1), *x.shape[axis + 1 :]))
    return ivy.get_item(merged, (slice(None),) * axis + (slice(0, n * (k + 1) - k),))


def crop(x: Any, pads: Sequence[tuple[int, int]]) -> tuple[Any, list[tuple[int, int]]]:
    """Negative padding removes elements: ``x`` cropped, and the padding left to add."""
    if all(lo >= 0 and hi >= 0 for lo, hi in pads):
        return x, list(pads)
    query = tuple(slice(max(-lo, 0), n - max(-hi, 0)) for (lo, hi), n in zip(pads, x.shape))
    return ivy.get_item(x, query), [(max(lo, 0), max(hi, 0)) for lo, hi in pads]


@rule("pad", doc="ivy.pad (constant); negative padding crops with ivy.get_item; interior padding interleaves")
def _pad(x: Any, padding_value: Any, *, padding_config: Sequence[tuple[int, int, int]], ctx: Ctx) -> Any:
    value = _pad_value(padding_value, ctx, 1)
    for axis, (_, _, interior) in enumerate(padding_config):
        x = interior_pad(x, axis, int(interior), value)
    x, pads = crop(x, [(int(lo), int(hi)) for lo, hi, _ in padding_config])
    if not any(lo or hi for lo, hi in pads):
        return x
    if not isinstance(value, (bool, int, float, complex)):
        # a padding value computed from the inputs: pad with zeros, then fill where nothing was
        inside = ivy.pad(ivy.ones(tuple(x.shape), dtype="bool"), pads, value=False)
        return ivy.where(inside, ivy.pad(x, pads), ivy.astype(value, x.dtype))
    return ivy.pad(x, pads, value=value)


def _clamped_start(start: Any, known: Any, n: int, size: int) -> Any:
    """XLA clamps a dynamic start so that the whole window fits: ``clip(start, 0, n - size)``."""
    if known is not None:
        return min(max(int(known), 0), n - size)
    return ivy.clip(start, 0, n - size)


@rule("dynamic_slice", doc="ivy.get_item with starts known at transpile time, else ivy.take of start + arange")
def _dynamic_slice(x: Any, *starts: Any, slice_sizes: Sequence[int], ctx: Ctx) -> Any:
    query: list[slice] = []
    dynamic = []
    for axis, (start, size) in enumerate(zip(starts, slice_sizes)):
        n, size = x.shape[axis], int(size)
        s = _clamped_start(start, ctx.concrete(1 + axis), n, size)
        if size == n:
            query.append(slice(None))
        elif isinstance(s, int):
            query.append(slice(s, s + size))
        else:
            query.append(slice(None))
            dynamic.append((axis, s, size))
    if any(q != slice(None) for q in query):
        x = ivy.get_item(x, tuple(query))
    for axis, s, size in dynamic:
        x = ivy.take(x, ivy.add(ivy.arange(size, dtype=ctx.in_dtype(1 + axis)), s), axis=axis)
    return x


@rule(
    "dynamic_update_slice",
    doc=(
        "ivy.set_item with starts known at transpile time, else ivy.where over a window mask of the update "
        "taken to place"
    ),
)
def _dynamic_update_slice(x: Any, update: Any, *starts: Any, ctx: Ctx) -> Any:
    update = as_array(update, ctx.in_dtype(1))
    known = [ctx.concrete(2 + a) for a in range(len(starts))]
    clamped = [_clamped_start(s, k, x.shape[a], update.shape[a]) for a, (s, k) in enumerate(zip(starts, known))]
    if all(isinstance(s, int) for s in clamped):
        query = tuple(slice(s, s + u) for s, u in zip(clamped, update.shape))
        return ivy.set_item(x, query, update)
    # the update spread over x's shape: on each axis, position i reads update[i - start]
    rank = len(x.shape)
    inside = None
    spread = update
    for axis, s in enumerate(clamped):
        n, u = x.shape[axis], update.shape[axis]
        pos = ivy.arange(n, dtype=ctx.in_dtype(2 + axis))
        rel = ivy.subtract(pos, s)
        spread = ivy.take(spread, ivy.clip(rel, 0, u - 1), axis=axis)
        hit = place(ivy.logical_and(ivy.greater_equal(rel, 0), ivy.less(rel, u)), [axis], rank)
        inside = hit if inside is None else ivy.logical_and(inside, hit)
    return ivy.where(inside, spread, x)


def size_of(shape: Sequence[int]) -> int:
    return math.prod(int(n) for n in shape)
