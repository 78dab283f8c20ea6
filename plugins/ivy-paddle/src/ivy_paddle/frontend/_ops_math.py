"""Elementwise ops, activations, casts and reductions of paddle's PIR op set."""

from __future__ import annotations

from typing import Any

import ivy

from ._table import Ctx, alias, rule

__all__: list[str] = []

# operands broadcast as in NumPy in every binary PIR op (the old ``axis`` attribute is gone)
for _name, _fn in {
    "add": ivy.add,
    "subtract": ivy.subtract,
    "multiply": ivy.multiply,
    "divide": ivy.divide,
    "maximum": ivy.maximum,
    "minimum": ivy.minimum,
    "elementwise_pow": ivy.pow,
    "floor_divide": ivy.floor_divide,
    "remainder": ivy.remainder,
    "equal": ivy.equal,
    "not_equal": ivy.not_equal,
    "less_than": ivy.less,
    "less_equal": ivy.less_equal,
    "greater_than": ivy.greater,
    "greater_equal": ivy.greater_equal,
    "logical_and": ivy.logical_and,
    "logical_or": ivy.logical_or,
    "logical_xor": ivy.logical_xor,
    "atan2": ivy.atan2,
}.items():
    alias(f"pd_op.{_name}", _fn)

for _name in (
    "abs", "exp", "log", "sqrt", "tanh", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh",
    "floor", "ceil", "round", "trunc", "erf", "square", "reciprocal", "sign", "log1p", "expm1", "log2",
    "log10", "logical_not", "isnan", "isinf", "isfinite", "relu", "sigmoid", "silu", "hardswish", "mish",
):  # fmt: skip
    alias(f"pd_op.{_name}", getattr(ivy, _name))


@rule("pd_op.rsqrt", doc="ivy.reciprocal(ivy.sqrt(x))")
def _rsqrt(ctx: Ctx, x: Any) -> Any:
    return ivy.reciprocal(ivy.sqrt(x))


@rule("pd_op.swish", doc="ivy.silu")
def _swish(ctx: Ctx, x: Any) -> Any:
    return ivy.silu(x)


@rule("pd_op.relu6", doc="ivy.clip(x, 0, 6)")
def _relu6(ctx: Ctx, x: Any) -> Any:
    return ivy.clip(x, 0.0, 6.0)


@rule("pd_op.leaky_relu", doc="ivy.leaky_relu(alpha=negative_slope)")
def _leaky_relu(ctx: Ctx, x: Any) -> Any:
    return ivy.leaky_relu(x, alpha=float(ctx.attr("negative_slope", 0.01)))


@rule("pd_op.elu", doc="ivy.elu")
def _elu(ctx: Ctx, x: Any) -> Any:
    return ivy.elu(x, alpha=float(ctx.attr("alpha", 1.0)))


@rule("pd_op.gelu", doc="ivy.gelu(approximate=...)")
def _gelu(ctx: Ctx, x: Any) -> Any:
    return ivy.gelu(x, approximate=bool(ctx.attr("approximate", False)))


@rule("pd_op.hardsigmoid", doc="ivy.clip(slope * x + offset, 0, 1)")
def _hardsigmoid(ctx: Ctx, x: Any) -> Any:
    return ivy.clip(x * float(ctx.attr("slope", 1 / 6)) + float(ctx.attr("offset", 0.5)), 0.0, 1.0)


@rule("pd_op.softplus", doc="ivy.softplus(beta, threshold)")
def _softplus(ctx: Ctx, x: Any) -> Any:
    return ivy.softplus(x, beta=float(ctx.attr("beta", 1.0)), threshold=float(ctx.attr("threshold", 20.0)))


@rule("pd_op.softmax", doc="ivy.softmax(axis)")
def _softmax(ctx: Ctx, x: Any) -> Any:
    return ivy.softmax(x, axis=int(ctx.attr("axis", -1)))


@rule("pd_op.log_softmax", doc="ivy.log_softmax(axis)")
def _log_softmax(ctx: Ctx, x: Any) -> Any:
    return ivy.log_softmax(x, axis=int(ctx.attr("axis", -1)))


@rule("pd_op.pow", doc="ivy.pow(x, y) with the exponent an attribute")
def _pow(ctx: Ctx, x: Any) -> Any:
    return ivy.pow(x, float(ctx.attr("y", 1.0)))


@rule("pd_op.scale", doc="x * scale + bias (or (x + bias) * scale)")
def _scale(ctx: Ctx, x: Any, scale: Any) -> Any:
    # the factor is a ``full`` constant unless the program computed it
    s = ctx.scalar(1) if ctx.consts[1] is not None else scale
    bias = float(ctx.attr("bias", 0.0))
    if ctx.attr("bias_after_scale", True):
        y = x * s
        return y + bias if bias else y
    return (x + bias) * s if bias else x * s


@rule("pd_op.clip", doc="ivy.clip(x, min, max)")
def _clip(ctx: Ctx, x: Any, lo: Any, hi: Any) -> Any:
    lo = ctx.scalar(1) if ctx.consts[1] is not None else lo
    hi = ctx.scalar(2) if ctx.consts[2] is not None else hi
    return ivy.clip(x, lo, hi)


@rule("pd_op.cast", doc="ivy.astype")
def _cast(ctx: Ctx, x: Any) -> Any:
    return ivy.astype(x, ctx.out_dtype())


@rule("pd_op.assign", "pd_op.assign_out_", "pd_op.share_data_", doc="the operand itself")
def _assign(ctx: Ctx, x: Any, *rest: Any) -> Any:
    return x


@rule("pd_op.where", doc="ivy.where")
def _where(ctx: Ctx, cond: Any, x: Any, y: Any) -> Any:
    return ivy.where(cond, x, y)


@rule("pd_op.full_like", doc="ivy.full(shape of x, value)", const_inputs=(1,))
def _full_like(ctx: Ctx, x: Any, value: Any) -> Any:
    return ivy.full(ctx.out_shape(), ctx.scalar(1), dtype=ctx.out_dtype())


def _axes(ctx: Ctx, i: int, rank: int) -> tuple[int, ...] | None:
    """A reduction's axes operand; paddle's ``[]`` (or ``reduce_all``) means every axis."""
    axes = ctx.ints(i)
    if not axes or ctx.attr("reduce_all", False):
        return None
    return tuple(a % rank if rank else a for a in axes)


def _reduction(name: str, fn: Any) -> None:
    @rule(f"pd_op.{name}", doc=f"ivy.{fn.__name__}(axis, keepdims)", const_inputs=(1,))
    def call(ctx: Ctx, x: Any, axis: Any) -> Any:
        keep = bool(ctx.attr("keepdim", False))
        out = fn(x, axis=_axes(ctx, 1, len(x.shape)), keepdims=keep)
        return out

    del call


for _name, _fn in {"sum": ivy.sum, "mean": ivy.mean, "max": ivy.max, "min": ivy.min, "prod": ivy.prod}.items():
    _reduction(_name, _fn)


@rule("pd_op.logsumexp", doc="max + log(sum(exp(x - max)))")
def _logsumexp(ctx: Ctx, x: Any) -> Any:
    axes = ctx.attr("axis", [])
    axis = None if not axes or ctx.attr("reduce_all", False) else tuple(int(a) % len(x.shape) for a in axes)
    keep = bool(ctx.attr("keepdim", False))
    m = ivy.stop_gradient(ivy.max(x, axis=axis, keepdims=True))
    out = ivy.log(ivy.sum(ivy.exp(x - m), axis=axis, keepdims=True)) + m
    return out if keep else ivy.squeeze(out, axis=axis if axis is not None else tuple(range(len(x.shape))))


def _arg(name: str, fn: Any) -> None:
    @rule(f"pd_op.{name}", doc=f"ivy.{fn.__name__}", const_inputs=(1,))
    def call(ctx: Ctx, x: Any, axis: Any) -> Any:
        if ctx.attr("flatten", False):
            x = ivy.reshape(x, (-1,))
            ax = 0
        else:
            ax = ctx.ints(1)[0]
        return fn(x, axis=ax, keepdims=bool(ctx.attr("keepdims", False)))

    del call


_arg("argmax", ivy.argmax)
_arg("argmin", ivy.argmin)


@rule("pd_op.cumsum", doc="ivy.cumsum", const_inputs=(1,))
def _cumsum(ctx: Ctx, x: Any, axis: Any) -> Any:
    if ctx.attr("flatten", False):
        x, ax = ivy.reshape(x, (-1,)), 0
    else:
        ax = ctx.ints(1)[0]
    return ivy.cumsum(x, ax, exclusive=bool(ctx.attr("exclusive", False)), reverse=bool(ctx.attr("reverse", False)))


def _attr_axes(ctx: Ctx, rank: int) -> tuple[int, ...] | None:
    axes = ctx.attr("axis", [])
    axes = [axes] if isinstance(axes, int) else list(axes)
    return None if not axes or ctx.attr("reduce_all", False) else tuple(int(a) % max(rank, 1) for a in axes)


@rule("pd_op.any", doc="ivy.any(axis, keepdims)")
def _any(ctx: Ctx, x: Any) -> Any:
    return ivy.any(x, axis=_attr_axes(ctx, len(x.shape)), keepdims=bool(ctx.attr("keepdim", False)))


@rule("pd_op.all", doc="ivy.all(axis, keepdims)")
def _all(ctx: Ctx, x: Any) -> Any:
    return ivy.all(x, axis=_attr_axes(ctx, len(x.shape)), keepdims=bool(ctx.attr("keepdim", False)))


@rule("pd_op.p_norm", doc="the p-norm along an axis from Ivy ops (2: sqrt of the sum of squares)")
def _p_norm(ctx: Ctx, x: Any) -> Any:
    p = float(ctx.attr("porder", 2.0))
    keep = bool(ctx.attr("keepdim", False))
    axis = None if ctx.attr("asvector", False) else int(ctx.attr("axis", -1))
    if p == float("inf"):
        return ivy.max(ivy.abs(x), axis=axis, keepdims=keep)
    if p == 2.0:
        return ivy.sqrt(ivy.sum(ivy.square(x), axis=axis, keepdims=keep))
    return ivy.pow(ivy.sum(ivy.pow(ivy.abs(x), p), axis=axis, keepdims=keep), 1.0 / p)


@rule("pd_op.masked_fill", doc="ivy.where(mask, value, x)")
def _masked_fill(ctx: Ctx, x: Any, mask: Any, value: Any) -> Any:
    v = ctx.scalar(2) if ctx.consts[2] is not None else ivy.astype(value, ctx.out_dtype())
    return ivy.where(mask, v, x)


@rule("pd_op.one_hot", doc="ivy.one_hot(depth)", const_inputs=(1,))
def _one_hot(ctx: Ctx, x: Any, depth: Any) -> Any:
    return ivy.one_hot(x, ctx.ints(1)[0], dtype=ctx.out_dtype())


@rule("pd_op.topk", doc="ivy.top_k(k, axis, largest)", const_inputs=(1,))
def _topk(ctx: Ctx, x: Any, k: Any) -> Any:
    values, indices = ivy.top_k(
        x,
        ctx.ints(1)[0],
        axis=int(ctx.attr("axis", -1)),
        largest=bool(ctx.attr("largest", True)),
        sorted=bool(ctx.attr("sorted", True)),
    )
    return values, indices


@rule("pd_op.argsort", doc="ivy.sort and ivy.argsort (values and indices)")
def _argsort(ctx: Ctx, x: Any) -> Any:
    axis, desc = int(ctx.attr("axis", -1)), bool(ctx.attr("descending", False))
    idx = ivy.argsort(x, axis=axis, descending=desc, stable=True)
    return ivy.take_along_axis(x, idx, axis=axis), idx
