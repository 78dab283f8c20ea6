"""Element-wise functions: NumPy 2 implements the standard's names as ufuncs with the standard's
type promotion (NEP 50: Python scalars are weak), so all but ``clip`` are aliases."""

from __future__ import annotations

from typing import Any

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

abs = np.abs
acos = np.acos
acosh = np.acosh
add = np.add
asin = np.asin
asinh = np.asinh
atan = np.atan
atan2 = np.atan2
atanh = np.atanh
bitwise_and = np.bitwise_and
bitwise_invert = np.bitwise_invert
bitwise_left_shift = np.bitwise_left_shift
bitwise_or = np.bitwise_or
bitwise_right_shift = np.bitwise_right_shift
bitwise_xor = np.bitwise_xor
ceil = np.ceil
conj = np.conj
copysign = np.copysign
cos = np.cos
cosh = np.cosh
divide = np.divide
equal = np.equal
exp = np.exp
expm1 = np.expm1
floor = np.floor
floor_divide = np.floor_divide
greater = np.greater
greater_equal = np.greater_equal
hypot = np.hypot
imag = np.imag
isfinite = np.isfinite
isinf = np.isinf
isnan = np.isnan
less = np.less
less_equal = np.less_equal
log = np.log
log10 = np.log10
log1p = np.log1p
log2 = np.log2
logaddexp = np.logaddexp
logical_and = np.logical_and
logical_not = np.logical_not
logical_or = np.logical_or
logical_xor = np.logical_xor
maximum = np.maximum
minimum = np.minimum
multiply = np.multiply
negative = np.negative
nextafter = np.nextafter
not_equal = np.not_equal
positive = np.positive
pow = np.pow
real = np.real
reciprocal = np.reciprocal
remainder = np.remainder
round = np.round
sign = np.sign
signbit = np.signbit
sin = np.sin
sinh = np.sinh
sqrt = np.sqrt
square = np.square
subtract = np.subtract
tan = np.tan
tanh = np.tanh
trunc = np.trunc


def clip(x: np.ndarray, /, min: Any = None, max: Any = None) -> np.ndarray:
    out = np.clip(x, min, max)
    if out.dtype != x.dtype:
        out = out.astype(x.dtype)  # np.clip promotes with array bounds; the standard keeps x's dtype
    return out
