"""Element-wise primitives, comparisons, selection and dtype conversion.

jaxpr operands of an element-wise primitive always share one dtype (JAX promotes before it
binds), so Ivy's promotion never comes into play; scalar literals arrive as Python scalars and
take the array operand's dtype, as in JAX.
"""

from __future__ import annotations

from typing import Any

import ivy

from ._table import Ctx, alias, rule

__all__: list[str] = []

for _name, _fn in {
    "abs": ivy.abs,
    "acos": ivy.acos,
    "acosh": ivy.acosh,
    "asin": ivy.asin,
    "asinh": ivy.asinh,
    "atan": ivy.atan,
    "atanh": ivy.atanh,
    "atan2": ivy.atan2,
    "add": ivy.add,
    "add_any": ivy.add,
    "sub": ivy.subtract,
    "mul": ivy.multiply,
    "neg": ivy.negative,
    "max": ivy.maximum,
    "min": ivy.minimum,
    "ceil": ivy.ceil,
    "floor": ivy.floor,
    "cos": ivy.cos,
    "cosh": ivy.cosh,
    "sin": ivy.sin,
    "sinh": ivy.sinh,
    "tan": ivy.tan,
    "tanh": ivy.tanh,
    "exp": ivy.exp,
    "expm1": ivy.expm1,
    "log": ivy.log,
    "log1p": ivy.log1p,
    "sqrt": ivy.sqrt,
    "square": ivy.square,
    "sign": ivy.sign,
    "is_finite": ivy.isfinite,
    "logistic": ivy.sigmoid,
    "erf": ivy.erf,
    "nextafter": ivy.nextafter,
    "real": ivy.real,
    "imag": ivy.imag,
    "conj": ivy.conj,
    "eq": ivy.equal,
    "ne": ivy.not_equal,
    "lt": ivy.less,
    "le": ivy.less_equal,
    "gt": ivy.greater,
    "ge": ivy.greater_equal,
    "shift_left": ivy.bitwise_left_shift,
    "stop_gradient": ivy.stop_gradient,
}.items():
    alias(_name, _fn)


def _integral(dtype: str) -> bool:
    return dtype.startswith(("int", "uint"))


@rule("div", doc="ivy.divide; integers: quotient truncated toward zero (C division, not floor)")
def _div(x: Any, y: Any, *, ctx: Ctx) -> Any:
    if not _integral(ctx.out_dtype()):
        return ivy.divide(x, y)
    q = ivy.floor_divide(x, y)
    inexact = ivy.not_equal(ivy.remainder(x, y), 0)
    signs_differ = ivy.not_equal(ivy.less(x, 0), ivy.less(y, 0))
    return ivy.where(ivy.logical_and(inexact, signs_differ), ivy.add(q, 1), q)


@rule("rem", doc="ivy.remainder corrected to the sign of the dividend (C fmod, not Python's %)")
def _rem(x: Any, y: Any) -> Any:
    r = ivy.remainder(x, y)
    wrong_sign = ivy.logical_and(ivy.not_equal(r, 0), ivy.not_equal(ivy.less(r, 0), ivy.less(x, 0)))
    return ivy.where(wrong_sign, ivy.subtract(r, y), r)


@rule("pow", doc="ivy.pow (an integer exponent of a float base is cast to the base's dtype first)")
def _pow(x: Any, y: Any, *, ctx: Ctx) -> Any:
    # lax.pow takes an integer exponent with a float base; Ivy would promote across kinds
    if not isinstance(y, (int, float, complex)) and ctx.in_dtype(1) != ctx.in_dtype(0):
        y = ivy.astype(y, ctx.in_dtype(0))
    return ivy.pow(x, y)


@rule("integer_pow", doc="ivy.square / ivy.pow with the static integer exponent y")
def _integer_pow(x: Any, *, y: int) -> Any:
    if y == 2:
        return ivy.square(x)
    if y == 1:
        return x
    return ivy.pow(x, y)


@rule("exp2", doc="ivy.pow(2, x)")
def _exp2(x: Any) -> Any:
    return ivy.pow(2.0, x)


@rule("rsqrt", doc="ivy.reciprocal(ivy.sqrt(x))")
def _rsqrt(x: Any) -> Any:
    return ivy.reciprocal(ivy.sqrt(x))


@rule("cbrt", doc="sign(x) * |x| ** (1/3): ivy.pow alone is NaN for negative bases")
def _cbrt(x: Any) -> Any:
    return ivy.multiply(ivy.sign(x), ivy.pow(ivy.abs(x), 1.0 / 3.0))


@rule("erfc", doc="1 - ivy.erf(x)")
def _erfc(x: Any) -> Any:
    return ivy.subtract(1.0, ivy.erf(x))


@rule("round", doc="ivy.round (halves to even); rounding_method 0: halves away from zero")
def _round(x: Any, *, rounding_method: Any) -> Any:
    if int(rounding_method) == 1:
        return ivy.round(x)
    return ivy.multiply(ivy.sign(x), ivy.floor(ivy.add(ivy.abs(x), 0.5)))


def _logical_or_bitwise(logical: Any, bitwise: Any) -> Any:
    def translate(*args: Any, ctx: Ctx) -> Any:
        return (logical if ctx.out_dtype() == "bool" else bitwise)(*args)

    return translate


rule("not", doc="ivy.logical_not on bool, ivy.bitwise_invert on integers")(
    _logical_or_bitwise(ivy.logical_not, ivy.bitwise_invert)
)
rule("and", doc="ivy.logical_and on bool, ivy.bitwise_and on integers")(
    _logical_or_bitwise(ivy.logical_and, ivy.bitwise_and)
)
rule("or", doc="ivy.logical_or on bool, ivy.bitwise_or on integers")(
    _logical_or_bitwise(ivy.logical_or, ivy.bitwise_or)
)
rule("xor", doc="ivy.logical_xor on bool, ivy.bitwise_xor on integers")(
    _logical_or_bitwise(ivy.logical_xor, ivy.bitwise_xor)
)


def _signed_shift(eqn: Any) -> str | None:
    dt = str(eqn.invars[0].aval.dtype)
    return (
        None
        if dt.startswith("uint")
        else f"a logical right shift of signed {dt} (Ivy shifts signed integers arithmetically)"
    )


@rule("shift_right_arithmetic", doc="ivy.bitwise_right_shift (signed integers)")
def _shift_right_arithmetic(x: Any, y: Any) -> Any:
    return ivy.bitwise_right_shift(x, y)


@rule("shift_right_logical", doc="ivy.bitwise_right_shift (unsigned integers only)", supports=_signed_shift)
def _shift_right_logical(x: Any, y: Any) -> Any:
    return ivy.bitwise_right_shift(x, y)


@rule("clamp", doc="ivy.clip(x, lo, hi) (lax.clamp takes lo, x, hi)")
def _clamp(lo: Any, x: Any, hi: Any) -> Any:
    return ivy.clip(x, lo, hi)


@rule("select_n", doc="ivy.where; an integer selector over n cases: nested ivy.where")
def _select_n(which: Any, *cases: Any, ctx: Ctx) -> Any:
    if len(cases) == 1:
        return cases[0]
    if ctx.in_dtype(0) == "bool":
        return ivy.where(which, cases[1], cases[0])
    out = cases[-1]
    for i in range(len(cases) - 2, -1, -1):  # case i where which == i, built from the last one down
        out = ivy.where(ivy.equal(which, i), cases[i], out)
    return out


@rule("convert_element_type", doc="ivy.astype (complex to real keeps the real part, as JAX does)")
def _convert_element_type(x: Any, *, ctx: Ctx) -> Any:
    src, dst = ctx.in_dtype(0), ctx.out_dtype()
    if src == dst:
        return x
    if src.startswith("complex") and not dst.startswith("complex"):
        x = ivy.real(x)
    return ivy.astype(x, dst)


@rule("complex", doc="x + 1j * y from two real arrays")
def _complex(x: Any, y: Any, *, ctx: Ctx) -> Any:
    dt = ctx.out_dtype()
    return ivy.add(ivy.astype(x, dt), ivy.multiply(ivy.astype(y, dt), 1j))


_BITS = {"bfloat16": (8, 7), "float16": (5, 10), "float32": (8, 23), "float64": (11, 52)}


def _same_precision(eqn: Any) -> str | None:
    bits = (eqn.params.get("exponent_bits"), eqn.params.get("mantissa_bits"))
    dt = str(eqn.invars[0].aval.dtype)
    return None if _BITS.get(dt) == bits else f"rounding {dt} to {bits[0]} exponent and {bits[1]} mantissa bits"


@rule("reduce_precision", doc="identity when the precision is the dtype's own", supports=_same_precision)
def _reduce_precision(x: Any) -> Any:
    return x


@rule("copy", "copy_p", "sharding_constraint", "name", doc="identity (no copy or placement in a pure program)")
def _identity(x: Any) -> Any:
    return x


@rule("device_put", "optimization_barrier", doc="identity for every operand")
def _identity_all(*xs: Any) -> Any:
    return list(xs)
