"""Shape manipulation, slicing and gathering ops of TF graphs, as Ivy ops. Shapes, axes, begins
and sizes are constants in a concrete function's graph and are read at transpile time."""

from __future__ import annotations

from typing import Any

import numpy as np

import ivy

from ._table import Ctx, rule

__all__: list[str] = []


@rule("ReadVariableOp", doc="the variable's parameter (lifted by key chain)")
def _read_variable(ctx: Ctx, v: Any) -> Any:
    return v


@rule("Reshape", doc="ivy.reshape", const_inputs=(1,))
def _reshape(ctx: Ctx, x: Any, _shape: Any) -> Any:
    return ivy.reshape(x, tuple(ctx.ints(1)))


@rule("Transpose", doc="ivy.permute_dims", const_inputs=(1,))
def _transpose(ctx: Ctx, x: Any, _perm: Any) -> Any:
    return ivy.permute_dims(x, tuple(ctx.ints(1)))


@rule("ConcatV2", doc="ivy.concat (axis last)")
def _concat_v2(ctx: Ctx, *xs: Any) -> Any:
    n = len(xs) - 1
    return ivy.concat(list(xs[:n]), axis=int(ctx.const(n)))


@rule("Concat", doc="ivy.concat (axis first)")
def _concat(ctx: Ctx, _axis: Any, *xs: Any) -> Any:
    return ivy.concat(list(xs), axis=int(ctx.const(0)))


@rule("Pack", doc="ivy.stack(values, axis=axis)")
def _pack(ctx: Ctx, *xs: Any) -> Any:
    return ivy.stack(list(xs), axis=int(ctx.attr("axis", 0)))


@rule("Unpack", doc="ivy.unstack(value, axis=axis)")
def _unpack(ctx: Ctx, x: Any) -> Any:
    return list(ivy.unstack(x, axis=int(ctx.attr("axis", 0))))


@rule("ExpandDims", doc="ivy.expand_dims", const_inputs=(1,))
def _expand_dims(ctx: Ctx, x: Any, _axis: Any) -> Any:
    return ivy.expand_dims(x, axis=int(ctx.const(1)))


@rule("Squeeze", doc="ivy.squeeze (all unit axes without squeeze_dims)")
def _squeeze(ctx: Ctx, x: Any) -> Any:
    dims = ctx.attr("squeeze_dims") or [i for i, d in enumerate(ctx.in_shape(0)) if d == 1]
    return ivy.squeeze(x, axis=tuple(dims)) if dims else x


@rule("Tile", doc="ivy.tile", const_inputs=(1,))
def _tile(ctx: Ctx, x: Any, _reps: Any) -> Any:
    return ivy.tile(x, tuple(ctx.ints(1)))


@rule("BroadcastTo", doc="ivy.broadcast_to", const_inputs=(1,))
def _broadcast_to(ctx: Ctx, x: Any, _shape: Any) -> Any:
    return ivy.broadcast_to(x, tuple(ctx.ints(1)))


@rule("Fill", doc="ivy.broadcast_to of the value", const_inputs=(0,))
def _fill(ctx: Ctx, _dims: Any, value: Any) -> Any:
    return ivy.broadcast_to(value, tuple(ctx.ints(0)))


@rule("GatherV2", doc="ivy.gather(params, indices, axis=, batch_dims=)", const_inputs=(2,))
def _gather_v2(ctx: Ctx, x: Any, idx: Any, _axis: Any) -> Any:
    return ivy.gather(x, idx, axis=int(ctx.const(2)), batch_dims=int(ctx.attr("batch_dims", 0)))


@rule("Gather", "ResourceGather", doc="ivy.gather(params, indices, axis=0)")
def _gather(ctx: Ctx, x: Any, idx: Any) -> Any:
    return ivy.gather(x, idx, axis=0, batch_dims=int(ctx.attr("batch_dims", 0)))


@rule("GatherNd", doc="ivy.gather_nd")
def _gather_nd(ctx: Ctx, x: Any, idx: Any) -> Any:
    return ivy.gather_nd(x, idx)


@rule("Slice", doc="ivy.get_item with slices", const_inputs=(1, 2))
def _slice(ctx: Ctx, x: Any, _begin: Any, _size: Any) -> Any:
    shape = ctx.in_shape(0)
    query = tuple(slice(b, d if s == -1 else b + s) for b, s, d in zip(ctx.ints(1), ctx.ints(2), shape))
    return ivy.get_item(x, query)


def strided_query(
    begin: list[int], end: list[int], strides: list[int], masks: dict[str, int], rank: int
) -> tuple[Any, ...]:
    """The Python index of a ``StridedSlice`` (its sparse spec and bit masks, as TF defines them)."""
    query: list[Any] = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if masks["ellipsis_mask"] & bit:
            query.append(Ellipsis)
        elif masks["new_axis_mask"] & bit:
            query.append(None)
        elif masks["shrink_axis_mask"] & bit:
            query.append(b)
        else:
            query.append(slice(None if masks["begin_mask"] & bit else b, None if masks["end_mask"] & bit else e, s))
    return tuple(query)


_MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")


@rule("StridedSlice", doc="ivy.get_item with the slices, new axes and ellipsis of the masks", const_inputs=(1, 2, 3))
def _strided_slice(ctx: Ctx, x: Any, *_: Any) -> Any:
    masks = {m: int(ctx.attr(m, 0)) for m in _MASKS}
    query = strided_query(ctx.ints(1), ctx.ints(2), ctx.ints(3), masks, len(ctx.in_shape(0)))
    return ivy.get_item(x, query)


@rule("Split", doc="ivy.split into equal parts", const_inputs=(0,))
def _split(ctx: Ctx, _axis: Any, x: Any) -> Any:
    return list(ivy.split(x, num_or_size_splits=int(ctx.attr("num_split")), axis=int(ctx.const(0))))


@rule("SplitV", doc="ivy.split by sizes", const_inputs=(1, 2))
def _split_v(ctx: Ctx, x: Any, _sizes: Any, _axis: Any) -> Any:
    axis = int(ctx.const(2))
    sizes = ctx.ints(1)
    if -1 in sizes:
        sizes[sizes.index(-1)] = ctx.in_shape(0)[axis] - (sum(sizes) + 1)
    return list(ivy.split(x, num_or_size_splits=sizes, axis=axis))


@rule("Pad", "PadV2", doc="ivy.pad (constant)", const_inputs=(1,))
def _pad(ctx: Ctx, x: Any, _pads: Any, value: Any = None) -> Any:
    pads = [tuple(int(v) for v in p) for p in ctx.const(1)]
    fill = 0 if value is None else ctx.const(2).item() if ctx.consts[2] is not None else None
    if fill is None:  # a fill value computed from the inputs: pad with 0 and add it where padded
        padded = ivy.pad(x, pads)
        inside = ivy.pad(ivy.ones_like(x, dtype="bool"), pads)
        return ivy.where(inside, padded, value)
    return ivy.pad(x, pads, value=fill)


@rule("MirrorPad", doc="ivy.pad (reflect / symmetric)", const_inputs=(1,))
def _mirror_pad(ctx: Ctx, x: Any, _pads: Any) -> Any:
    pads = [tuple(int(v) for v in p) for p in ctx.const(1)]
    return ivy.pad(x, pads, mode="reflect" if ctx.attr("mode") == "REFLECT" else "symmetric")


@rule("ReverseV2", doc="ivy.flip", const_inputs=(1,))
def _reverse(ctx: Ctx, x: Any, _axes: Any) -> Any:
    return ivy.flip(x, axis=tuple(ctx.ints(1)))


@rule("OneHot", doc="on * one_hot + off * (1 - one_hot)", const_inputs=(1,))
def _one_hot(ctx: Ctx, idx: Any, _depth: Any, on: Any, off: Any) -> Any:
    hot = ivy.one_hot(idx, int(ctx.const(1)), axis=int(ctx.attr("axis", -1)), dtype="bool")
    return ivy.where(hot, on, off)


@rule("TopKV2", doc="ivy.top_k along the last axis", const_inputs=(1,))
def _top_k(ctx: Ctx, x: Any, _k: Any) -> Any:
    values, indices = ivy.top_k(x, int(ctx.const(1)), axis=-1, sorted=True)
    return [values, indices]


@rule("Range", doc="ivy.arange of constant bounds", const_inputs=(0, 1, 2))
def _range(ctx: Ctx, *_: Any) -> Any:
    start, limit, delta = (ctx.const(i).item() for i in range(3))
    return ivy.asarray(np.arange(start, limit, delta, dtype=ctx.out_dtype()))
