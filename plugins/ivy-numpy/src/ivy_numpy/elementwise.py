"""Element-wise functions: NumPy 2 implements the standard's names as ufuncs with the standard's
type promotion (NEP 50: Python scalars are weak), so the unary ones are aliases. Binary ones call
the ufunc directly (from C) when both arrays share a dtype; otherwise :func:`_binop` applies core's
promotion rules where NumPy's differ (an integer with a floating-point dtype gives the
floating-point dtype; NumPy widens ``int64 + float32`` to ``float64``) and refuses a Python int
outside an integer array's dtype (NumPy compares such an int by value)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ivy.plugin_kit import check_int_scalar, fastpath, promote_types

from ._dtypes import DTYPES

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
asin = np.asin
asinh = np.asinh
atan = np.atan
atanh = np.atanh
bitwise_invert = np.bitwise_invert
ceil = np.ceil
conj = np.conj
cos = np.cos
cosh = np.cosh
exp = np.exp
floor = np.floor
imag = np.imag
isfinite = np.isfinite
isinf = np.isinf
isnan = np.isnan
log = np.log
log10 = np.log10
log1p = np.log1p
log2 = np.log2
logical_not = np.logical_not
negative = np.negative
positive = np.positive
real = np.real
reciprocal = np.reciprocal
round = np.round
sign = np.sign
signbit = np.signbit
sin = np.sin
sinh = np.sinh
sqrt = np.sqrt
square = np.square
tan = np.tan
trunc = np.trunc

#: every dtype but the complex ones: the ufunc itself, called from C
_NOT_COMPLEX = frozenset(d for d in DTYPES.values() if d.kind != "c") | {np.dtype("float16")}


def _with_parts(out: Any, where: Any, re: Any, im: Any) -> Any:
    """``out`` with the parts ``re`` and ``im`` where ``where`` holds (set part by part:
    ``re + 1j * im`` would turn an infinite ``im`` into a NaN real part)."""
    fixed = np.array(out)  # (a copy: 0-d input gives a NumPy scalar)
    fixed.real = np.where(where, re, fixed.real)
    fixed.imag = np.where(where, im, fixed.imag)
    return fixed[()] if isinstance(out, np.generic) else fixed


# complex input alone pays for the corrections: the other dtypes go to the ufunc, called from C
@fastpath(np.expm1, nargs=1, dtypes=_NOT_COMPLEX)
def expm1(x: Any, /) -> Any:
    out = np.expm1(x)
    if getattr(out, "dtype", None) is None or out.dtype.kind != "c":
        return out
    # NumPy's complex expm1 has NaN parts wherever the real part is infinite or NaN; there the
    # standard's values are exp(z) - 1, and np.exp follows the standard's table for them. And
    # expm1(-0 + 0j) is +0 + 0j (the standard), not -0 + 0j.
    z = np.asarray(x)
    bad = ~np.isfinite(z.real)
    zero = (z.real == 0) & (z.imag == 0)
    if not (bad.any() or zero.any()):
        return out
    with np.errstate(all="ignore"):
        e = np.exp(np.where(bad, z, 0))
    return _with_parts(out, bad | zero, np.where(zero, 0.0, e.real - 1), np.where(zero, z.imag, e.imag))


@fastpath(np.tanh, nargs=1, dtypes=_NOT_COMPLEX)
def tanh(x: Any, /) -> Any:
    out = np.tanh(x)
    if getattr(out, "dtype", None) is None or out.dtype.kind != "c":
        return out
    # tanh(+-inf + yj) is +-1 + 0j with the sign of y on the zero (the standard); NumPy follows
    # C99's sign of sin(2y), which is -0 for tanh(inf + 2j)
    z = np.asarray(x)
    inf = np.isinf(z.real)
    if not inf.any():
        return out
    return _with_parts(out, inf, np.copysign(1, z.real), np.copysign(0, z.imag))


_ARRAYS = (np.ndarray, np.generic)
#: dtype -> name (NumPy's ``dtype.name`` builds the string in Python: microseconds)
_NAMES = {d: n for n, d in DTYPES.items()} | {np.dtype("float16"): "float16"}
#: integer dtype -> (smallest, largest, name)
_RANGES = {d: (int(np.iinfo(d).min), int(np.iinfo(d).max), n) for n, d in DTYPES.items() if d.kind in "iu"}


def promote2(x1: Any, x2: Any, name: str) -> tuple[Any, Any]:
    """Both operands as core's promotion has them: arrays of an integer and a floating-point
    dtype cast to the floating-point one; a Python int next to an integer array checked to fit."""
    if isinstance(x1, _ARRAYS):
        if isinstance(x2, _ARRAYS):
            d1, d2 = x1.dtype, x2.dtype
            if d1 is not d2 and (d1.kind in "iu") != (d2.kind in "iu") and "b" not in (d1.kind, d2.kind):
                n = promote_types(_NAMES.get(d1) or d1.name, _NAMES.get(d2) or d2.name)
                want = DTYPES.get(n) or np.dtype(n)  # (float16: outside the standard, NumPy has it)
                return x1.astype(want, copy=False), x2.astype(want, copy=False)
        elif type(x2) is int:
            check_int_scalar(x2, _NAMES.get(x1.dtype, ""), name)
    elif type(x1) is int and isinstance(x2, _ARRAYS):
        check_int_scalar(x1, _NAMES.get(x2.dtype, ""), name)
    return x1, x2


def _binop(f: Any, name: str) -> Any:
    def op(x1: Any, x2: Any, /) -> Any:
        t2 = type(x2)
        if t2 is float:  # (the common calls first, in this frame: a weak float needs no check)
            return f(x1, x2)
        if t2 is int and type(x1) is np.ndarray:
            if not 0 <= x2 <= 127:  # (what every integer dtype holds: no lookup)
                r = _RANGES.get(x1.dtype)
                if r is not None and not r[0] <= x2 <= r[1]:
                    check_int_scalar(x2, r[2], name)
            return f(x1, x2)
        x1, x2 = promote2(x1, x2, name)
        return f(x1, x2)

    op.__name__ = op.__qualname__ = name
    op.__module__ = __name__
    # two arrays of one dtype: NumPy's ufunc itself, called from C
    return fastpath(f, op, nargs=2, same=(0, 1))


add = _binop(np.add, "add")
atan2 = _binop(np.atan2, "atan2")
bitwise_and = _binop(np.bitwise_and, "bitwise_and")
bitwise_left_shift = _binop(np.bitwise_left_shift, "bitwise_left_shift")
bitwise_or = _binop(np.bitwise_or, "bitwise_or")
bitwise_right_shift = _binop(np.bitwise_right_shift, "bitwise_right_shift")
bitwise_xor = _binop(np.bitwise_xor, "bitwise_xor")
copysign = _binop(np.copysign, "copysign")
divide = _binop(np.divide, "divide")
equal = _binop(np.equal, "equal")
floor_divide = _binop(np.floor_divide, "floor_divide")
greater = _binop(np.greater, "greater")
greater_equal = _binop(np.greater_equal, "greater_equal")
hypot = _binop(np.hypot, "hypot")
less = _binop(np.less, "less")
less_equal = _binop(np.less_equal, "less_equal")
logaddexp = _binop(np.logaddexp, "logaddexp")
logical_and = _binop(np.logical_and, "logical_and")
logical_or = _binop(np.logical_or, "logical_or")
logical_xor = _binop(np.logical_xor, "logical_xor")
maximum = _binop(np.maximum, "maximum")
minimum = _binop(np.minimum, "minimum")
multiply = _binop(np.multiply, "multiply")
nextafter = _binop(np.nextafter, "nextafter")
not_equal = _binop(np.not_equal, "not_equal")
pow = _binop(np.pow, "pow")
remainder = _binop(np.remainder, "remainder")
subtract = _binop(np.subtract, "subtract")


def clip(x: np.ndarray, /, min: Any = None, max: Any = None) -> np.ndarray:
    out = np.clip(x, min, max)
    if out.dtype != x.dtype:
        out = out.astype(x.dtype)  # np.clip promotes with array bounds; the standard keeps x's dtype
    return out
