"""Element-wise functions: jax.numpy implements the standard's names; aliases except where noted."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

__all__ = [
    "abs",
    "acos",
    "acosh",
    "add",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "bitwise_and",
    "bitwise_invert",
    "bitwise_left_shift",
    "bitwise_or",
    "bitwise_right_shift",
    "bitwise_xor",
    "ceil",
    "clip",
    "conj",
    "copysign",
    "cos",
    "cosh",
    "divide",
    "equal",
    "exp",
    "expm1",
    "floor",
    "floor_divide",
    "greater",
    "greater_equal",
    "hypot",
    "imag",
    "isfinite",
    "isinf",
    "isnan",
    "less",
    "less_equal",
    "log",
    "log10",
    "log1p",
    "log2",
    "logaddexp",
    "logical_and",
    "logical_not",
    "logical_or",
    "logical_xor",
    "maximum",
    "minimum",
    "multiply",
    "negative",
    "nextafter",
    "not_equal",
    "positive",
    "pow",
    "real",
    "reciprocal",
    "remainder",
    "round",
    "sign",
    "signbit",
    "sin",
    "sinh",
    "sqrt",
    "square",
    "subtract",
    "tan",
    "tanh",
    "trunc",
]

abs = jnp.abs
acos = jnp.acos
acosh = jnp.acosh
add = jnp.add
asin = jnp.asin
asinh = jnp.asinh
atan = jnp.atan
atan2 = jnp.atan2
atanh = jnp.atanh
bitwise_and = jnp.bitwise_and
bitwise_invert = jnp.bitwise_invert
bitwise_left_shift = jnp.bitwise_left_shift
bitwise_or = jnp.bitwise_or
bitwise_right_shift = jnp.bitwise_right_shift
bitwise_xor = jnp.bitwise_xor
ceil = jnp.ceil
conj = jnp.conj
copysign = jnp.copysign
cos = jnp.cos
cosh = jnp.cosh
divide = jnp.divide
equal = jnp.equal
exp = jnp.exp
expm1 = jnp.expm1
floor = jnp.floor
floor_divide = jnp.floor_divide
greater = jnp.greater
greater_equal = jnp.greater_equal
hypot = jnp.hypot
imag = jnp.imag
isfinite = jnp.isfinite
isinf = jnp.isinf
isnan = jnp.isnan
less = jnp.less
less_equal = jnp.less_equal
log = jnp.log
log10 = jnp.log10
log1p = jnp.log1p
log2 = jnp.log2
logaddexp = jnp.logaddexp
logical_and = jnp.logical_and
logical_not = jnp.logical_not
logical_or = jnp.logical_or
logical_xor = jnp.logical_xor
maximum = jnp.maximum
minimum = jnp.minimum
multiply = jnp.multiply
negative = jnp.negative
nextafter = jnp.nextafter
not_equal = jnp.not_equal
positive = jnp.positive
real = jnp.real
reciprocal = jnp.reciprocal
remainder = jnp.remainder
round = jnp.round
sign = jnp.sign
signbit = jnp.signbit
sin = jnp.sin
sinh = jnp.sinh
sqrt = jnp.sqrt
square = jnp.square
subtract = jnp.subtract
tan = jnp.tan
tanh = jnp.tanh
trunc = jnp.trunc


_clip = jnp.clip
_IINFO: dict[Any, tuple[int, int]] = {}


def clip(x: jax.Array, /, min: Any = None, max: Any = None) -> jax.Array:
    dt = x.dtype
    if dt.kind in "iu" and (type(min) is int or type(max) is int):
        # JAX wraps out-of-range Python ints (clip(int8, max=300) gave 44): clamp them first.
        lo, hi = _IINFO.get(dt) or _IINFO.setdefault(dt, (int(np.iinfo(dt).min), int(np.iinfo(dt).max)))
        if type(min) is int:
            min = lo if min < lo else hi if min > hi else min
        if type(max) is int:
            max = lo if max < lo else hi if max > hi else max
    out = _clip(x, min, max)
    return out if out.dtype == dt else out.astype(dt)  # the standard keeps the dtype of x


_pow = jnp.pow
_result_type = jnp.result_type
_Array = jax.Array


def pow(x1: Any, x2: Any, /) -> jax.Array:
    # jnp.pow treats a concrete 0-D exponent like a Python scalar and keeps the base's dtype
    # (pow(int8, int16 0-D) gave int8, pow(0, int8 0-D) gave int64): promote explicitly instead.
    if isinstance(x2, _Array):
        if isinstance(x1, _Array):
            if x1.dtype == x2.dtype:
                return _pow(x1, x2)
            dt = _result_type(x1, x2)
            return _pow(x1.astype(dt), x2.astype(dt))
        dt = _result_type(x1, x2)
        return _pow(jnp.asarray(x1, dtype=dt), x2 if x2.dtype == dt else x2.astype(dt))
    return _pow(x1, x2)  # Python scalar exponent: x1's dtype, as the standard wants
