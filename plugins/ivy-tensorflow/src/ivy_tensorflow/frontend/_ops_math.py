"""Element-wise math, comparisons, casts and reductions of TF graphs, as Ivy ops."""

from __future__ import annotations

from typing import Any

import ivy

from ._table import Ctx, alias, rule

__all__: list[str] = []

for _name, _fn in {
    "Add": ivy.add,
    "AddV2": ivy.add,
    "Sub": ivy.subtract,
    "Mul": ivy.multiply,
    "RealDiv": ivy.divide,
    "FloorDiv": ivy.floor_divide,
    "FloorMod": ivy.remainder,
    "Maximum": ivy.maximum,
    "Minimum": ivy.minimum,
    "Pow": ivy.pow,
    "Atan2": ivy.atan2,
    "Neg": ivy.negative,
    "Abs": ivy.abs,
    "Exp": ivy.exp,
    "Log": ivy.log,
    "Log1p": ivy.log1p,
    "Expm1": ivy.expm1,
    "Sqrt": ivy.sqrt,
    "Square": ivy.square,
    "Reciprocal": ivy.reciprocal,
    "Inv": ivy.reciprocal,
    "Sin": ivy.sin,
    "Cos": ivy.cos,
    "Tan": ivy.tan,
    "Asin": ivy.asin,
    "Acos": ivy.acos,
    "Atan": ivy.atan,
    "Sinh": ivy.sinh,
    "Cosh": ivy.cosh,
    "Tanh": ivy.tanh,
    "Asinh": ivy.asinh,
    "Acosh": ivy.acosh,
    "Atanh": ivy.atanh,
    "Floor": ivy.floor,
    "Ceil": ivy.ceil,
    "Round": ivy.round,
    "Rint": ivy.round,
    "Sign": ivy.sign,
    "IsNan": ivy.isnan,
    "IsInf": ivy.isinf,
    "IsFinite": ivy.isfinite,
    "Erf": ivy.erf,
    "Equal": ivy.equal,
    "NotEqual": ivy.not_equal,
    "Less": ivy.less,
    "LessEqual": ivy.less_equal,
    "Greater": ivy.greater,
    "GreaterEqual": ivy.greater_equal,
    "LogicalAnd": ivy.logical_and,
    "LogicalOr": ivy.logical_or,
    "LogicalNot": ivy.logical_not,
    "Sigmoid": ivy.sigmoid,
    "Relu": ivy.relu,
    "Softplus": ivy.softplus,
    "Elu": ivy.elu,
    "Selu": ivy.selu,
    "StopGradient": ivy.stop_gradient,
    "BitwiseAnd": ivy.bitwise_and,
    "BitwiseOr": ivy.bitwise_or,
    "BitwiseXor": ivy.bitwise_xor,
    "Invert": ivy.bitwise_invert,
    "Real": ivy.real,
    "Imag": ivy.imag,
    "Conj": ivy.conj,
}.items():
    alias(_name, _fn)


@rule("Identity", "Snapshot", "PreventGradient", "EnsureShape", "CheckNumerics", doc="the input itself")
def _identity(ctx: Ctx, x: Any, *_: Any) -> Any:
    return x


@rule("IdentityN", doc="the inputs themselves")
def _identity_n(ctx: Ctx, *xs: Any) -> Any:
    return list(xs)


@rule("Rsqrt", doc="ivy.reciprocal(ivy.sqrt(x))")
def _rsqrt(ctx: Ctx, x: Any) -> Any:
    return ivy.reciprocal(ivy.sqrt(x))


@rule("Erfc", doc="1 - ivy.erf(x)")
def _erfc(ctx: Ctx, x: Any) -> Any:
    return ivy.subtract(1.0, ivy.erf(x))


@rule("SquaredDifference", doc="ivy.square(ivy.subtract(x, y))")
def _squared_difference(ctx: Ctx, x: Any, y: Any) -> Any:
    return ivy.square(ivy.subtract(x, y))


@rule("DivNoNan", doc="ivy.where(y == 0, 0, x / y)")
def _div_no_nan(ctx: Ctx, x: Any, y: Any) -> Any:
    zero = ivy.equal(y, 0)
    return ivy.where(zero, ivy.zeros_like(x), ivy.divide(x, ivy.where(zero, ivy.ones_like(y), y)))


def _float_div(op: Any) -> str | None:
    return None if op.inputs[0].dtype.is_floating else "integer Div (C-style truncation) is not translated"


@rule("Div", doc="ivy.divide (floating point)", supports=_float_div)
def _div(ctx: Ctx, x: Any, y: Any) -> Any:
    return ivy.divide(x, y)


@rule("Relu6", doc="ivy.clip(x, 0, 6)")
def _relu6(ctx: Ctx, x: Any) -> Any:
    return ivy.clip(x, 0.0, 6.0)


@rule("LeakyRelu", doc="ivy.leaky_relu(x, alpha=alpha)")
def _leaky_relu(ctx: Ctx, x: Any) -> Any:
    return ivy.leaky_relu(x, alpha=float(ctx.attr("alpha", 0.2)))


@rule("Softsign", doc="x / (1 + |x|)")
def _softsign(ctx: Ctx, x: Any) -> Any:
    return ivy.divide(x, ivy.add(ivy.abs(x), 1.0))


@rule("Softmax", doc="ivy.softmax(x, axis=-1)")
def _softmax(ctx: Ctx, x: Any) -> Any:
    return ivy.softmax(x, axis=-1)


@rule("LogSoftmax", doc="ivy.log_softmax(x, axis=-1)")
def _log_softmax(ctx: Ctx, x: Any) -> Any:
    return ivy.log_softmax(x, axis=-1)


@rule("Cast", doc="ivy.astype(x, DstT)")
def _cast(ctx: Ctx, x: Any) -> Any:
    return ivy.astype(x, ctx.out_dtype())


@rule("Select", "SelectV2", doc="ivy.where")
def _select(ctx: Ctx, c: Any, x: Any, y: Any) -> Any:
    if ctx.op.type == "Select" and len(ctx.in_shape(0)) == 1 and len(ctx.in_shape(1)) > 1:
        # TF1 Select: a vector condition picks whole rows
        c = ivy.reshape(c, (-1,) + (1,) * (len(ctx.in_shape(1)) - 1))
    return ivy.where(c, x, y)


@rule("ClipByValue", doc="ivy.minimum(ivy.maximum(x, lo), hi)")
def _clip(ctx: Ctx, x: Any, lo: Any, hi: Any) -> Any:
    return ivy.minimum(ivy.maximum(x, lo), hi)


@rule("AddN", doc="a chain of ivy.add")
def _add_n(ctx: Ctx, *xs: Any) -> Any:
    out = xs[0]
    for x in xs[1:]:
        out = ivy.add(out, x)
    return out


@rule("ZerosLike", doc="ivy.zeros_like")
def _zeros_like(ctx: Ctx, x: Any) -> Any:
    return ivy.zeros_like(x)


@rule("OnesLike", doc="ivy.ones_like")
def _ones_like(ctx: Ctx, x: Any) -> Any:
    return ivy.ones_like(x)


# ------------------------------------------------------------------------------ reductions


def _axes(ctx: Ctx, i: int = 1) -> tuple[int, ...]:
    return tuple(ctx.ints(i))


def _reduction(name: str, fn: Any) -> None:
    def reduce(ctx: Ctx, x: Any, _axis: Any) -> Any:
        return fn(x, axis=_axes(ctx), keepdims=bool(ctx.attr("keep_dims", False)))

    rule(name, doc=f"ivy.{fn.__name__}(x, axis=..., keepdims=keep_dims)", const_inputs=(1,))(reduce)


for _name, _fn in {
    "Sum": ivy.sum,
    "Mean": ivy.mean,
    "Max": ivy.max,
    "Min": ivy.min,
    "Prod": ivy.prod,
    "All": ivy.all,
    "Any": ivy.any,
}.items():
    _reduction(_name, _fn)


@rule("ArgMax", "ArgMin", doc="ivy.argmax / ivy.argmin along the axis", const_inputs=(1,))
def _arg_extreme(ctx: Ctx, x: Any, _axis: Any) -> Any:
    fn = ivy.argmax if ctx.op.type == "ArgMax" else ivy.argmin
    return fn(x, axis=int(ctx.const(1)))


@rule("Cumsum", doc="ivy.cumsum(x, axis, exclusive=, reverse=)", const_inputs=(1,))
def _cumsum(ctx: Ctx, x: Any, _axis: Any) -> Any:
    return ivy.cumsum(x, int(ctx.const(1)), exclusive=bool(ctx.attr("exclusive")), reverse=bool(ctx.attr("reverse")))


@rule("Cumprod", doc="ivy.cumprod(x, axis, exclusive=, reverse=)", const_inputs=(1,))
def _cumprod(ctx: Ctx, x: Any, _axis: Any) -> Any:
    return ivy.cumprod(x, int(ctx.const(1)), exclusive=bool(ctx.attr("exclusive")), reverse=bool(ctx.attr("reverse")))
