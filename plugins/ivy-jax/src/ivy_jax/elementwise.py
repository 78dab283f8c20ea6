"""Element-wise functions: jax.numpy implements the standard's names; aliases except where noted."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ._bounds import int_fits
from ._special import complex_corrected

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
acos = complex_corrected(jnp.acos, "acos")
acosh = complex_corrected(jnp.acosh, "acosh")
asin = complex_corrected(jnp.asin, "asin")
asinh = complex_corrected(jnp.asinh, "asinh")
atan = complex_corrected(jnp.atan, "atan")
atan2 = jnp.atan2
atanh = complex_corrected(jnp.atanh, "atanh")
bitwise_invert = jnp.bitwise_invert
ceil = jnp.ceil
conj = jnp.conj
copysign = jnp.copysign
cos = complex_corrected(jnp.cos, "cos")
cosh = complex_corrected(jnp.cosh, "cosh")
exp = complex_corrected(jnp.exp, "exp")
expm1 = complex_corrected(jnp.expm1, "expm1")
floor = jnp.floor
hypot = jnp.hypot
imag = jnp.imag
isfinite = jnp.isfinite
isinf = jnp.isinf
isnan = jnp.isnan
log = complex_corrected(jnp.log, "log")
log10 = complex_corrected(jnp.log10, "log10")
log1p = complex_corrected(jnp.log1p, "log1p")
log2 = complex_corrected(jnp.log2, "log2")
logaddexp = jnp.logaddexp
logical_and = jnp.logical_and
logical_not = jnp.logical_not
logical_or = jnp.logical_or
logical_xor = jnp.logical_xor
negative = jnp.negative
positive = jnp.positive
real = jnp.real
reciprocal = jnp.reciprocal
round = jnp.round
signbit = jnp.signbit
sin = complex_corrected(jnp.sin, "sin")
sinh = complex_corrected(jnp.sinh, "sinh")
sqrt = complex_corrected(jnp.sqrt, "sqrt")
square = jnp.square
tan = complex_corrected(jnp.tan, "tan")
tanh = complex_corrected(jnp.tanh, "tanh")
trunc = jnp.trunc


_Array = jax.Array


def _wide_ints(x1: Any, x2: Any) -> tuple[Any, Any]:
    """Give a Python int in [2**63, 2**64) the dtype of the (uint64) array it meets."""
    if type(x1) is int and isinstance(x2, _Array):
        return jnp.asarray(x1, dtype=x2.dtype), x2  # OverflowError again if it does not fit
    if type(x2) is int and isinstance(x1, _Array):
        return x1, jnp.asarray(x2, dtype=x1.dtype)
    raise OverflowError("Python int out of range")


def scalar_fits(x1: Any, x2: Any, name: str) -> None:
    """A Python int next to an integer array must fit its dtype (JAX wraps it around)."""
    if type(x2) is int:
        if not 0 <= x2 <= 127 and isinstance(x1, _Array) and x1.dtype.kind in "iu":  # ([0, 127] fits all)
            int_fits(x2, x1.dtype, name)
    elif type(x1) is int and not 0 <= x1 <= 127 and isinstance(x2, _Array) and x2.dtype.kind in "iu":
        int_fits(x1, x2.dtype, name)


def _int_safe(f: Any, name: str) -> Any:
    # JAX parses every Python int as int64 and overflows on uint64 & 2**63: retry with the
    # array's dtype. The try costs nothing on the normal path.
    def op(x1: Any, x2: Any, /) -> jax.Array:
        scalar_fits(x1, x2, name)
        try:
            return f(x1, x2)
        except OverflowError:
            return f(*_wide_ints(x1, x2))

    op.__name__ = op.__qualname__ = name
    return op


add = _int_safe(jnp.add, "add")
subtract = _int_safe(jnp.subtract, "subtract")
multiply = _int_safe(jnp.multiply, "multiply")
divide = _int_safe(jnp.divide, "divide")


@jax.jit  # one dispatch, as jnp.sign alone (itself a jitted function)
def sign(x: Any, /) -> jax.Array:
    # sign(-0) is 0 (the standard, and NumPy and torch), sign(-0 - 0j) is 0 + 0j: XLA keeps the
    # zero's sign (and folds away an added +0, so select it)
    return jnp.where(x == 0, 0, jnp.sign(x))


@jax.jit  # one dispatch, as jnp.floor_divide alone (itself a jitted function)
def _floor_divide(x1: Any, x2: Any) -> jax.Array:
    out = jnp.floor_divide(x1, x2)
    if jnp.issubdtype(out.dtype, jnp.floating):  # (decided while tracing: integers have no -0)
        # XLA gives a zero quotient the wrong sign (-0 // 1 is +0, -1 // -inf is -0): the
        # standard's is negative exactly where the operands' signs differ
        neg = jnp.signbit(x1) != jnp.signbit(x2)
        out = jnp.where(out == 0, jnp.where(neg, -0.0, 0.0), out)
    return out


@jax.jit
def _remainder(x1: Any, x2: Any) -> jax.Array:
    out = jnp.remainder(x1, x2)
    if jnp.issubdtype(out.dtype, jnp.floating):
        # a zero remainder takes the sign of x2 (the standard); XLA keeps the sign of x1
        out = jnp.where(out == 0, jnp.where(jnp.signbit(x2), -0.0, 0.0), out)
    return out


floor_divide = _int_safe(_floor_divide, "floor_divide")
remainder = _int_safe(_remainder, "remainder")
bitwise_and = _int_safe(jnp.bitwise_and, "bitwise_and")
bitwise_or = _int_safe(jnp.bitwise_or, "bitwise_or")
bitwise_xor = _int_safe(jnp.bitwise_xor, "bitwise_xor")
bitwise_left_shift = _int_safe(jnp.bitwise_left_shift, "bitwise_left_shift")
bitwise_right_shift = _int_safe(jnp.bitwise_right_shift, "bitwise_right_shift")
equal = _int_safe(jnp.equal, "equal")
not_equal = _int_safe(jnp.not_equal, "not_equal")
greater = _int_safe(jnp.greater, "greater")
greater_equal = _int_safe(jnp.greater_equal, "greater_equal")
less = _int_safe(jnp.less, "less")
less_equal = _int_safe(jnp.less_equal, "less_equal")
maximum = _int_safe(jnp.maximum, "maximum")
minimum = _int_safe(jnp.minimum, "minimum")

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


def pow(x1: Any, x2: Any, /) -> jax.Array:
    scalar_fits(x1, x2, "pow")
    try:
        return _pow_promoted(x1, x2)
    except OverflowError:
        return _pow_promoted(*_wide_ints(x1, x2))


def _pow_promoted(x1: Any, x2: Any) -> jax.Array:
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


def nextafter(x1: Any, x2: Any, /) -> Any:
    # On CPU, XLA flushes subnormals to zero in float arithmetic and comparisons, so
    # jnp.nextafter(0, 1e-40) returns 1e-40 instead of the smallest subnormal. The step is taken
    # on the bit patterns instead (integer ops and selects, which never flush).
    dt = jnp.result_type(x1, x2)  # the standard's promotion, Python scalars weak
    if not jnp.issubdtype(dt, jnp.floating):
        return jnp.nextafter(x1, x2)  # jnp's error for integer input
    a, b = jnp.asarray(x1, dt), jnp.asarray(x2, dt)
    it = {2: jnp.int16, 4: jnp.int32, 8: jnp.int64}[jnp.dtype(dt).itemsize]
    info = np.iinfo(it)
    sign = info.min  # the sign bit
    ia, ib = jax.lax.bitcast_convert_type(a, it), jax.lax.bitcast_convert_type(b, it)
    mag_a, mag_b = ia & info.max, ib & info.max
    inf = np.asarray(jnp.finfo(dt).max, dt).view(it) + 1  # bits of +inf
    nan = (mag_a > inf) | (mag_b > inf)
    # an ordered key: -magnitude for negative numbers; +0 and -0 both map to 0
    ka = jnp.where(ia < 0, -mag_a, mag_a)
    kb = jnp.where(ib < 0, -mag_b, mag_b)
    k = ka + jnp.where(kb > ka, 1, -1).astype(it)
    # back to bits; a step onto zero keeps x1's sign (nextafter(-tiny, 1) is -0.0)
    neg = (k < 0) | ((k == 0) & (ia < 0))
    bits = jnp.where(neg, jnp.abs(k) | sign, jnp.abs(k)).astype(it)
    out = jax.lax.bitcast_convert_type(bits, dt)
    out = jnp.where(ka == kb, b, out)  # equal (±0 included): x2, as IEEE says
    return jnp.where(nan, jnp.asarray(np.nan, dt), out)
