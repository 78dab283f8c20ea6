"""Shape and indexing ops of paddle's PIR op set. Target shapes, axes and slice bounds are
constants of the static program (``full_int_array``); result shapes are the static ones paddle
inferred."""

from __future__ import annotations

from typing import Any

import ivy

from ._table import Ctx, rule

__all__: list[str] = []


def _to_out_shape(ctx: Ctx, x: Any) -> Any:
    shape = ctx.out_shape()
    if any(d < 0 for d in shape):
        raise ivy.errors.TranspileError(
            f"{ctx.op.name()} with a dynamic result shape {shape} (transpile with static shapes)"
        )
    return ivy.reshape(x, shape)


@rule("pd_op.reshape", "pd_op.reshape_", doc="ivy.reshape to the static result shape")
def _reshape(ctx: Ctx, x: Any, *shape: Any) -> Any:
    return _to_out_shape(ctx, x)


@rule("pd_op.flatten", "pd_op.flatten_", doc="ivy.reshape to the static result shape")
def _flatten(ctx: Ctx, x: Any) -> Any:
    return _to_out_shape(ctx, x)


@rule(
    "pd_op.squeeze",
    "pd_op.squeeze_",
    "pd_op.unsqueeze",
    "pd_op.unsqueeze_",
    doc="ivy.reshape to the static result shape",
)
def _squeeze(ctx: Ctx, x: Any, axes: Any) -> Any:
    return _to_out_shape(ctx, x)


@rule("pd_op.transpose", "pd_op.transpose_", doc="ivy.permute_dims(perm)")
def _transpose(ctx: Ctx, x: Any) -> Any:
    return ivy.permute_dims(x, tuple(int(p) for p in ctx.attr("perm")))


@rule("pd_op.concat", doc="ivy.concat(axis)", const_inputs=(1,))
def _concat(ctx: Ctx, xs: Any, axis: Any) -> Any:
    return ivy.concat(list(xs), axis=ctx.ints(1)[0])


@rule("pd_op.stack", doc="ivy.stack(axis)")
def _stack(ctx: Ctx, xs: Any) -> Any:
    return ivy.stack(list(xs), axis=int(ctx.attr("axis", 0)))


@rule("pd_op.split_with_num", doc="ivy.split into equal parts", const_inputs=(1,))
def _split_num(ctx: Ctx, x: Any, axis: Any) -> Any:
    return [ivy.split(x, int(ctx.attr("num")), axis=ctx.ints(1)[0])]


@rule("pd_op.split", doc="ivy.split into sections", const_inputs=(1, 2))
def _split(ctx: Ctx, x: Any, sections: Any, axis: Any) -> Any:
    ax = ctx.ints(2)[0] % len(x.shape)
    sizes = ctx.ints(1)
    if -1 in sizes:
        sizes[sizes.index(-1)] = x.shape[ax] - (sum(sizes) + 1)
    return [ivy.split(x, sizes, axis=ax)]


@rule("pd_op.slice", doc="ivy.get_item with slices (then the decreased axes dropped)", const_inputs=(1, 2))
def _slice(ctx: Ctx, x: Any, starts: Any, ends: Any) -> Any:
    query: list[Any] = [slice(None)] * len(x.shape)
    for ax, s, e in zip(ctx.attr("axes"), ctx.ints(1), ctx.ints(2)):
        query[int(ax)] = slice(s, e)
    y = ivy.get_item(x, tuple(query))
    return _to_out_shape(ctx, y) if ctx.attr("decrease_axis") else y


@rule("pd_op.strided_slice", doc="ivy.get_item with strided slices", const_inputs=(1, 2, 3))
def _strided_slice(ctx: Ctx, x: Any, starts: Any, ends: Any, strides: Any) -> Any:
    query: list[Any] = [slice(None)] * len(x.shape)
    for ax, s, e, st in zip(ctx.attr("axes"), ctx.ints(1), ctx.ints(2), ctx.ints(3)):
        query[int(ax)] = slice(s, e, st)
    return ivy.get_item(x, tuple(query))


@rule("pd_op.expand", doc="ivy.broadcast_to the static result shape")
def _expand(ctx: Ctx, x: Any, shape: Any) -> Any:
    return ivy.broadcast_to(x, ctx.out_shape())


@rule("pd_op.tile", doc="ivy.tile", const_inputs=(1,))
def _tile(ctx: Ctx, x: Any, reps: Any) -> Any:
    return ivy.tile(x, tuple(ctx.ints(1)))


@rule("pd_op.gather", doc="ivy.take(axis)", const_inputs=(2,))
def _gather(ctx: Ctx, x: Any, index: Any, axis: Any) -> Any:
    return ivy.take(x, index, axis=ctx.ints(2)[0])


@rule("pd_op.index_select", doc="ivy.take(axis)")
def _index_select(ctx: Ctx, x: Any, index: Any) -> Any:
    return ivy.take(x, index, axis=int(ctx.attr("axis", 0)))


@rule("pd_op.take_along_axis", doc="ivy.take_along_axis(axis)")
def _take_along_axis(ctx: Ctx, x: Any, index: Any) -> Any:
    return ivy.take_along_axis(x, index, axis=int(ctx.attr("axis", 0)))


@rule("pd_op.tril", doc="ivy.tril(k=diagonal)")
def _tril(ctx: Ctx, x: Any) -> Any:
    return ivy.tril(x, k=int(ctx.attr("diagonal", 0)))


@rule("pd_op.triu", doc="ivy.triu(k=diagonal)")
def _triu(ctx: Ctx, x: Any) -> Any:
    return ivy.triu(x, k=int(ctx.attr("diagonal", 0)))


@rule("pd_op.flip", doc="ivy.flip(axis)")
def _flip(ctx: Ctx, x: Any) -> Any:
    return ivy.flip(x, axis=tuple(int(a) for a in ctx.attr("axis")))


_PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}


@rule("pd_op.pad3d", doc="ivy.pad (constant, reflect, edge, wrap)", const_inputs=(1,))
def _pad3d(ctx: Ctx, x: Any, paddings: Any) -> Any:
    p = ctx.ints(1)  # [left, right, top, bottom, front, back]: W, then H, then D
    fmt = ctx.attr("data_format", "NCDHW")
    spatial = [(p[4], p[5]), (p[2], p[3]), (p[0], p[1])]
    widths = [(0, 0), (0, 0), *spatial] if fmt == "NCDHW" else [(0, 0), *spatial, (0, 0)]
    mode = _PAD_MODES[ctx.attr("mode", "constant")]
    if mode == "constant":
        return ivy.pad(x, widths, mode="constant", value=float(ctx.attr("pad_value", 0.0)))
    return ivy.pad(x, widths, mode=mode)


@rule("pd_op.pad", doc="ivy.pad (constant)", const_inputs=(1,))
def _pad(ctx: Ctx, x: Any, value: Any) -> Any:
    p = [int(v) for v in ctx.attr("paddings")]
    return ivy.pad(x, [(p[2 * i], p[2 * i + 1]) for i in range(len(x.shape))], value=ctx.scalar(1))
