"""XLA's gather and scatter, as jnp indexing and ``.at[...]`` updates produce them.

Both are written out the same way: for every element of the result (gather) or of the updates
(scatter), the full coordinate into the operand, built from the start indices, the window
offsets and the batching dimensions; then one ``ivy.gather_nd`` / ``ivy.scatter_nd``. The
common gather of whole slices along one axis (``x[idx]``, ``x[:, idx]``) is one ``ivy.gather``.

Out-of-bounds semantics follow the ``mode`` parameter: ``CLIP`` and ``PROMISE_IN_BOUNDS``
clamp the start indices (XLA's own behaviour for gather); ``FILL_OR_DROP`` (``jnp``'s default
for ``.at[]`` updates and some gathers) fills out-of-bounds gathered slices with ``fill_value``
and drops out-of-bounds update windows, which are sent to a spare row past the end of a
one-larger scatter result and cut off.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

import ivy

from ._ops_shape import place
from ._table import Ctx, as_array, rule

__all__: list[str] = []


def _mode(mode: Any) -> str:
    return str(getattr(mode, "name", mode)).upper().rsplit(".", 1)[-1]


def _modes_supported(eqn: Any) -> str | None:
    mode = _mode(eqn.params.get("mode"))
    return None if mode in ("CLIP", "FILL_OR_DROP", "PROMISE_IN_BOUNDS") else f"mode {mode}"


def _fill(fill_value: Any, dtype: str) -> Any:
    """JAX's default fill for out-of-bounds gathers: NaN, the most negative (signed) or largest
    (unsigned) integer, True."""
    if fill_value is not None:
        return fill_value
    if dtype == "bool":
        return True
    if dtype.startswith(("int", "uint")):
        info = np.iinfo(dtype)
        return int(info.min if dtype.startswith("int") else info.max)
    return float("nan")


def _component(indices: Any, k: int) -> Any:
    """The ``k``-th coordinate of every index vector (the last axis of ``indices``)."""
    return ivy.get_item(indices, (..., k))


def _in_range(start: Any, hi: int) -> Any:
    return ivy.logical_and(ivy.greater_equal(start, 0), ivy.less_equal(start, hi))


def _all(masks: list[Any]) -> Any:
    out = masks[0]
    for m in masks[1:]:
        out = ivy.logical_and(out, m)
    return out


def _known_in_bounds(known: Any, index_map: Sequence[int], bound: Sequence[int]) -> bool:
    """Whether index vectors known at transpile time all keep their windows in bounds."""
    if known is None:
        return False
    known = np.asarray(known)
    return (
        all(bool(np.all((known[..., k] >= 0) & (known[..., k] <= bound[d]))) for k, d in enumerate(index_map))
        if known.size
        else True
    )


# ---------------------------------------------------------------------------------- gather


def _gather_along_axis(operand: Any, idx: Any, axis: int, offset_dims: Sequence[int]) -> Any:
    """``ivy.gather`` of whole slices at ``idx`` along ``axis``; its result's axes (operand axes
    before ``axis``, then idx's, then operand axes after) moved to where XLA puts them."""
    out = ivy.gather(operand, idx, axis=axis)
    rank = len(out.shape)
    nb = len(idx.shape)
    ivy_offset = [a for a in range(rank) if not axis <= a < axis + nb]  # operand's remaining axes
    ivy_batch = list(range(axis, axis + nb))
    perm = [0] * rank
    batch_pos = [a for a in range(rank) if a not in offset_dims]
    for src, dst in zip(ivy_offset, offset_dims):
        perm[dst] = src
    for src, dst in zip(ivy_batch, batch_pos):
        perm[dst] = src
    return out if perm == list(range(rank)) else ivy.permute_dims(out, tuple(perm))


@rule(
    "gather",
    doc="ivy.gather for whole slices along one axis, else ivy.gather_nd of full coordinates",
    supports=_modes_supported,
)
def _gather(
    operand: Any,
    indices: Any,
    *,
    dimension_numbers: Any,
    slice_sizes: Sequence[int],
    mode: Any,
    fill_value: Any,
    ctx: Ctx,
) -> Any:
    dn = dimension_numbers
    shape = tuple(operand.shape)
    out_shape = ctx.out_shape()
    mode = _mode(mode)
    index_map = tuple(dn.start_index_map)
    bound = [shape[d] - int(slice_sizes[d]) for d in range(len(shape))]
    fill = mode == "FILL_OR_DROP" and not _known_in_bounds(ctx.concrete(1), index_map, bound)
    batch_rank = len(indices.shape) - 1
    batch_axes = [a for a in range(len(out_shape)) if a not in dn.offset_dims]

    starts, masks = {}, []
    for k, d in enumerate(index_map):
        s = _component(indices, k)
        if fill:
            masks.append(_in_range(s, bound[d]))
        starts[d] = ivy.clip(s, 0, bound[d])

    whole = all(int(slice_sizes[d]) == shape[d] for d in range(len(shape)) if d not in index_map)
    if len(index_map) == 1 and tuple(dn.collapsed_slice_dims) == index_map and not dn.operand_batching_dims and whole:
        out = _gather_along_axis(operand, starts[index_map[0]], index_map[0], dn.offset_dims)
    else:
        offset_operand_dims = [
            d for d in range(len(shape)) if d not in dn.collapsed_slice_dims and d not in dn.operand_batching_dims
        ]
        rank = len(out_shape)
        coords = []
        for d in range(len(shape)):
            if d in dn.operand_batching_dims:
                b = dn.start_indices_batching_dims[list(dn.operand_batching_dims).index(d)]
                c = place(ivy.arange(shape[d], dtype=ctx.in_dtype(1)), [batch_axes[b]], rank)
            else:
                c = place(starts[d], batch_axes[:batch_rank], rank) if d in starts else None
                if d in offset_operand_dims:
                    axis = dn.offset_dims[offset_operand_dims.index(d)]
                    step = place(ivy.arange(int(slice_sizes[d]), dtype=ctx.in_dtype(1)), [axis], rank)
                    c = step if c is None else ivy.add(c, step)
                elif c is None:
                    c = ivy.zeros((1,) * rank, dtype=ctx.in_dtype(1))
            coords.append(ivy.broadcast_to(c, out_shape))
        out = ivy.gather_nd(operand, ivy.stack(coords, axis=-1))
    if masks:
        ok = place(_all(masks), batch_axes[:batch_rank], len(out_shape))
        out = ivy.where(ok, out, _fill(fill_value, ctx.out_dtype()))
    return out


# ---------------------------------------------------------------------------------- scatter


def _scatter_coords(
    operand_shape: tuple[int, ...],
    indices: Any,
    updates_shape: tuple[int, ...],
    dn: Any,
    mode: str,
    known: Any,
    idx_dtype: str,
) -> tuple[Any, bool]:
    """Full operand coordinates of every update element (shape ``updates.shape + (rank,)``), and
    whether out-of-bounds windows were sent to the spare row past the end (``FILL_OR_DROP``)."""
    rank_u = len(updates_shape)
    window_operand_dims = [
        d for d in range(len(operand_shape)) if d not in dn.inserted_window_dims and d not in dn.operand_batching_dims
    ]
    scatter_axes = [a for a in range(rank_u) if a not in dn.update_window_dims]
    window = {d: updates_shape[a] for d, a in zip(window_operand_dims, dn.update_window_dims)}
    bound = [operand_shape[d] - window.get(d, 1) for d in range(len(operand_shape))]
    index_map = tuple(dn.scatter_dims_to_operand_dims)
    drop = mode == "FILL_OR_DROP" and not _known_in_bounds(known, index_map, bound)
    starts, masks = {}, []
    for k, d in enumerate(index_map):
        s = _component(indices, k)
        if drop:
            masks.append(_in_range(s, bound[d]))
        starts[d] = ivy.clip(s, 0, bound[d]) if mode == "CLIP" else s
    coords = []
    for d in range(len(operand_shape)):
        if d in dn.operand_batching_dims:
            b = dn.scatter_indices_batching_dims[list(dn.operand_batching_dims).index(d)]
            c = place(ivy.arange(operand_shape[d], dtype=idx_dtype), [scatter_axes[b]], rank_u)
        else:
            c = place(starts[d], scatter_axes, rank_u) if d in starts else None
            if d in window:
                axis = dn.update_window_dims[window_operand_dims.index(d)]
                step = place(ivy.arange(window[d], dtype=idx_dtype), [axis], rank_u)
                c = step if c is None else ivy.add(c, step)
            elif c is None:
                c = ivy.zeros((1,) * rank_u, dtype=idx_dtype)
        coords.append(ivy.broadcast_to(c, updates_shape))
    if masks:
        ok = ivy.broadcast_to(place(_all(masks), scatter_axes, rank_u), updates_shape)
        coords = [ivy.where(ok, c, n) for c, n in zip(coords, operand_shape)]  # the spare row
    return ivy.stack(coords, axis=-1), bool(masks)


def _scatter_into(
    operand: Any, indices: Any, updates: Any, *, dimension_numbers: Any, mode: Any, ctx: Ctx, reduction: str
) -> tuple[Any, Any]:
    """``(scattered, written)``: the updates scattered into a zero array of the operand's shape
    with ``reduction``, and a boolean mask of the positions some update reached."""
    shape = tuple(operand.shape)
    updates = as_array(updates, ctx.in_dtype(2))
    u_shape = ctx.in_shape(2)
    if tuple(updates.shape) != u_shape:
        updates = ivy.broadcast_to(updates, u_shape)
    coords, spare = _scatter_coords(
        shape, indices, u_shape, dimension_numbers, _mode(mode), ctx.concrete(1), ctx.in_dtype(1)
    )
    big = tuple(n + 1 for n in shape) if spare else shape
    cut = tuple(slice(0, n) for n in shape)

    def scatter(values: Any, how: str) -> Any:
        out = ivy.scatter_nd(coords, values, big, reduction=how)
        return ivy.get_item(out, cut) if spare else out

    written = None
    if reduction != "sum":
        written = ivy.greater(scatter(ivy.ones(u_shape, dtype="float32"), "sum"), 0)
    return scatter(updates, reduction), written


_SCATTER_DOC = "ivy.scatter_nd of full coordinates"


@rule("scatter", doc=f"{_SCATTER_DOC} ('replace'), ivy.where over the written positions", supports=_modes_supported)
def _scatter(operand: Any, indices: Any, updates: Any, *, dimension_numbers: Any, mode: Any, ctx: Ctx) -> Any:
    new, written = _scatter_into(
        operand, indices, updates, dimension_numbers=dimension_numbers, mode=mode, ctx=ctx, reduction="replace"
    )
    return ivy.where(written, new, operand)


@rule("scatter-add", doc=f"operand + {_SCATTER_DOC} ('sum')", supports=_modes_supported)
def _scatter_add(operand: Any, indices: Any, updates: Any, *, dimension_numbers: Any, mode: Any, ctx: Ctx) -> Any:
    new, _ = _scatter_into(
        operand, indices, updates, dimension_numbers=dimension_numbers, mode=mode, ctx=ctx, reduction="sum"
    )
    return ivy.add(operand, new)


@rule("scatter-sub", doc=f"operand - {_SCATTER_DOC} ('sum')", supports=_modes_supported)
def _scatter_sub(operand: Any, indices: Any, updates: Any, *, dimension_numbers: Any, mode: Any, ctx: Ctx) -> Any:
    new, _ = _scatter_into(
        operand, indices, updates, dimension_numbers=dimension_numbers, mode=mode, ctx=ctx, reduction="sum"
    )
    return ivy.subtract(operand, new)


def _extreme(name: str, reduction: str, combine: Any) -> None:
    @rule(
        name,
        doc=f"ivy.{combine.__name__}(operand, {_SCATTER_DOC} ('{reduction}')) where written",
        supports=_modes_supported,
    )
    def translate(operand: Any, indices: Any, updates: Any, *, dimension_numbers: Any, mode: Any, ctx: Ctx) -> Any:
        new, written = _scatter_into(
            operand, indices, updates, dimension_numbers=dimension_numbers, mode=mode, ctx=ctx, reduction=reduction
        )
        return ivy.where(written, combine(operand, new), operand)


_extreme("scatter-max", "max", ivy.maximum)
_extreme("scatter-min", "min", ivy.minimum)


def _unique_only(eqn: Any) -> str | None:
    if not eqn.params.get("unique_indices"):
        return "a multiplicative scatter with possibly repeated indices (Ivy's scatter_nd has no product)"
    return _modes_supported(eqn)


@rule(
    "scatter-mul",
    doc=f"operand * {_SCATTER_DOC} ('replace') where written (unique indices only)",
    supports=_unique_only,
)
def _scatter_mul(operand: Any, indices: Any, updates: Any, *, dimension_numbers: Any, mode: Any, ctx: Ctx) -> Any:
    new, written = _scatter_into(
        operand, indices, updates, dimension_numbers=dimension_numbers, mode=mode, ctx=ctx, reduction="replace"
    )
    return ivy.where(written, ivy.multiply(operand, new), operand)
