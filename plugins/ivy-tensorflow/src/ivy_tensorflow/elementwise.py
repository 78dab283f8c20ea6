"""Element-wise functions.

TF's generated op functions (``gen_math_ops``) are used directly: they skip the dispatch layers of
``tf.math.*`` (about half the per-call cost) and accept tf.Variable. TF never promotes, so binary
ops check dtype identity first (TF dtypes are interned) and promote only when they differ.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import tensorflow as tf
from tensorflow.python.ops import gen_array_ops as ga
from tensorflow.python.ops import gen_bitwise_ops as gb
from tensorflow.python.ops import gen_math_ops as gm

from . import _dtypes as D
from ._helpers import SCALARS, _eager, cast, f32_to_f64, ints, pair, scalar, tensor, truth

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

_where = gm.select_v2
_zeros_like = ga.zeros_like
_ones_like = ga.ones_like


_ERRORS = (tf.errors.OpError, TypeError, ValueError)


def _binary(name: str, fn: Callable[[Any, Any], Any], slow: Callable[[Any, Any], Any] | None = None) -> Any:
    """A binary op: ``fn`` on equal dtypes (fast path), promotion first otherwise.

    ``slow`` handles what the native kernel refuses (missing dtype kernels, integer division by
    zero...): it runs on the promoted operands, and when the fast path raised.
    """
    after = slow or fn

    def op(x1: Any, x2: Any, /) -> Any:
        try:
            if x1.dtype is x2.dtype:
                return fn(x1, x2)
        except AttributeError:  # a Python scalar operand
            pass
        except _ERRORS:
            if slow is None:
                raise
            return slow(x1, x2)
        x1, x2 = pair(x1, x2)
        return after(x1, x2)

    op.__name__ = op.__qualname__ = name
    return op


def _float_in(x: Any) -> Any:
    """Integer / bool input of a floating-point-only op: compute in float64 (outside the standard)."""
    return cast(x, D.F64) if x.dtype not in D.FLOATS else x


def _unary_float(name: str, fn: Callable[[Any], Any]) -> Any:
    def op(x: Any, /) -> Any:
        try:
            return fn(x)
        except _ERRORS:
            if x.dtype in D.FLOATS:
                raise
            return fn(_float_in(x))

    op.__name__ = op.__qualname__ = name
    return op


# --------------------------------------------------------------------------- unary, floating

acos = _unary_float("acos", gm.acos)
acosh = _unary_float("acosh", gm.acosh)
asin = _unary_float("asin", gm.asin)
asinh = _unary_float("asinh", gm.asinh)
atan = _unary_float("atan", gm.atan)
atanh = _unary_float("atanh", gm.atanh)
cos = _unary_float("cos", gm.cos)
cosh = _unary_float("cosh", gm.cosh)
exp = _unary_float("exp", gm.exp)
expm1 = _unary_float("expm1", gm.expm1)
log = _unary_float("log", gm.log)
_log1p = _unary_float("log1p", gm.log1p)
sin = _unary_float("sin", gm.sin)
sinh = _unary_float("sinh", gm.sinh)
_sqrt = _unary_float("sqrt", gm.sqrt)
tan = _unary_float("tan", gm.tan)
tanh = _unary_float("tanh", gm.tanh)
reciprocal = _unary_float("reciprocal", gm.reciprocal)

_LN2 = math.log(2.0)
_LN10 = math.log(10.0)


def log2(x: Any, /) -> Any:
    x = _float_in(x)
    return _scaled_log(gm.log(x), _LN2)  # TF has no log2 kernel


def log10(x: Any, /) -> Any:
    x = _float_in(x)
    return _scaled_log(gm.log(x), _LN10)  # TF has no log10 kernel


def _scaled_log(ln: Any, scale: float) -> Any:
    if ln.dtype in D.COMPLEX:  # by parts: a complex / real division makes NaNs of infinite parts
        re, im = tf.math.real(ln), tf.math.imag(ln)
        return tf.complex(gm.real_div(re, scalar(scale, re.dtype)), gm.real_div(im, scalar(scale, im.dtype)))
    return gm.real_div(ln, scalar(scale, ln.dtype))


def _full(like: Any, v: float) -> Any:
    return tf.fill(tf.shape(like), tf.constant(v, like.dtype))


def log1p(x: Any, /) -> Any:
    out = _log1p(x)
    if out.dtype in D.COMPLEX:
        # TF gives NaN + NaN j where a part is infinite, and -inf + NaN j at -1: TF's log is right
        x1 = x + tf.constant(1, x.dtype)
        re, im = tf.math.real(x1), tf.math.imag(x1)
        bad = gm.logical_or(
            gm.logical_or(gm.is_inf(re), gm.is_inf(im)),
            gm.logical_and(gm.equal(re, tf.zeros_like(re)), gm.equal(im, tf.zeros_like(im))),
        )
        out = tf.where(bad, gm.log(x1), out)
    return out


def sqrt(x: Any, /) -> Any:
    out = _sqrt(x)
    if out.dtype in D.COMPLEX:
        # sqrt(-inf + yj) for finite y is +0 + inf j with y's sign: TF loses the sign
        re, im = tf.math.real(x), tf.math.imag(x)
        neg_inf = gm.logical_and(gm.equal(re, _full(re, -math.inf)), gm.is_finite(im))
        fixed = tf.complex(tf.zeros_like(im), _copysign(_full(im, math.inf), im))
        out = tf.where(neg_inf, fixed, out)
    return out


def square(x: Any, /) -> Any:
    if x.dtype is D.BOOL:
        raise TypeError("square needs a numeric array, got bool")
    return gm.square(x)


def abs(x: Any, /) -> Any:
    d = x.dtype
    if d in D.COMPLEX:
        return gm.complex_abs(x, Tout=D.REAL_OF[d])
    if d in D.UNSIGNED:
        return ga.identity(x)  # no Abs kernel for unsigned; |x| is x
    if d is D.BOOL:
        raise TypeError("abs needs a numeric array, got bool")
    return gm._abs(x)


def negative(x: Any, /) -> Any:
    d = x.dtype
    if d in D.UNSIGNED:
        return gm.sub(_zeros_like(x), x)  # no Neg kernel for unsigned; 0 - x wraps like NumPy
    return gm.neg(x)


def positive(x: Any, /) -> Any:
    return ga.identity(x)


def _identity_if_int(name: str, fn: Callable[[Any], Any]) -> Any:
    def op(x: Any, /) -> Any:
        if x.dtype in D.REALF:
            return fn(x)
        if x.dtype in D.INTS:
            return ga.identity(x)  # integers are already integer-valued
        raise TypeError(f"{name} needs a real numeric array, got {x.dtype.name}")

    op.__name__ = op.__qualname__ = name
    return op


def _trunc(x: Any) -> Any:
    return _where(gm.less(x, _zeros_like(x)), gm.ceil(x), gm.floor(x))  # TF has no Trunc kernel


ceil = _identity_if_int("ceil", gm.ceil)
floor = _identity_if_int("floor", gm.floor)
trunc = _identity_if_int("trunc", _trunc)


def round(x: Any, /) -> Any:
    d = x.dtype
    if d in D.REALF:
        return gm.round(x)  # half to even, like the standard
    if d in D.COMPLEX:
        r = D.REAL_OF[d]
        return gm._complex(gm.round(gm.real(x, Tout=r)), gm.round(gm.imag(x, Tout=r)), Tout=d)
    if d in D.INTS:
        return ga.identity(x)
    raise TypeError("round needs a numeric array, got bool")


def conj(x: Any, /) -> Any:
    if x.dtype in D.COMPLEX:
        return gm.conj(x)
    return ga.identity(x)  # real input is its own conjugate


def real(x: Any, /) -> Any:
    d = x.dtype
    if d in D.COMPLEX:
        return gm.real(x, Tout=D.REAL_OF[d])
    return ga.identity(x)


def imag(x: Any, /) -> Any:
    d = x.dtype
    if d in D.COMPLEX:
        return gm.imag(x, Tout=D.REAL_OF[d])
    return _zeros_like(x)  # real input: zero imaginary part (the standard allows complex only)


def sign(x: Any, /) -> Any:
    d = x.dtype
    if d in D.UNSIGNED:
        return cast(gm.greater(x, _zeros_like(x)), d)  # no Sign kernel for unsigned
    if d is D.BOOL:
        raise TypeError("sign needs a numeric array, got bool")
    out = gm.sign(x)  # complex: x / |x| (0 at 0)
    if d in D.COMPLEX:  # a NaN part gives NaN + NaN j (TF keeps the other part's direction)
        re, im = tf.math.real(x), tf.math.imag(x)
        nan = gm.logical_or(gm.is_nan(re), gm.is_nan(im))
        out = tf.where(nan, tf.complex(_full(re, math.nan), _full(im, math.nan)), out)
    return out


def signbit(x: Any, /) -> Any:
    d = x.dtype
    if d in D.REALF:
        i = D.SAME_WIDTH_INT[d]
        return gm.less(ga.bitcast(x, i), scalar(0, i))  # the sign bit, also of -0.0 and -NaN
    if d in D.SIGNED:
        return gm.less(x, _zeros_like(x))
    if d in D.UNSIGNED:
        return tf.zeros(tf.shape(x), D.BOOL)
    raise TypeError(f"signbit needs a real array, got {d.name}")


def isnan(x: Any, /) -> Any:
    d = x.dtype
    if d in D.REALF:
        return gm.is_nan(x)
    if d in D.COMPLEX:
        r = D.REAL_OF[d]
        return gm.logical_or(gm.is_nan(gm.real(x, Tout=r)), gm.is_nan(gm.imag(x, Tout=r)))
    return tf.zeros(tf.shape(x), D.BOOL)  # integers and bools are never NaN


def isinf(x: Any, /) -> Any:
    d = x.dtype
    if d in D.REALF:
        return gm.is_inf(x)
    if d in D.COMPLEX:
        r = D.REAL_OF[d]
        return gm.logical_or(gm.is_inf(gm.real(x, Tout=r)), gm.is_inf(gm.imag(x, Tout=r)))
    return tf.zeros(tf.shape(x), D.BOOL)


def isfinite(x: Any, /) -> Any:
    d = x.dtype
    if d in D.REALF:
        return gm.is_finite(x)
    if d in D.COMPLEX:
        r = D.REAL_OF[d]
        return gm.logical_and(gm.is_finite(gm.real(x, Tout=r)), gm.is_finite(gm.imag(x, Tout=r)))
    return tf.ones(tf.shape(x), D.BOOL)


def logical_not(x: Any, /) -> Any:
    if x.dtype is not D.BOOL:
        x = truth(x)  # non-bool input: truthiness (outside the standard)
    return gm.logical_not(x)


def bitwise_invert(x: Any, /) -> Any:
    d = x.dtype
    if d is D.BOOL:
        return gm.logical_not(x)
    if d in D.INTS:
        return gb.invert(x)
    raise TypeError(f"bitwise_invert needs an integer or bool array, got {d.name}")


# --------------------------------------------------------------------------- binary


def _int_safe_divisor(x1: Any, x2: Any, fn: Callable[[Any, Any], Any]) -> Any:
    """Integer floor division / modulo: TF raises on division by zero, NumPy gives 0."""
    zero = gm.equal(x2, _zeros_like(x2))
    safe = _where(zero, _ones_like(x2), x2)
    out = fn(x1, safe)
    return _where(zero, _zeros_like(out), out)


def _floor_divide(x1: Any, x2: Any) -> Any:
    if x1.dtype in D.INTS:
        return _int_safe_divisor(x1, x2, gm.floor_div)
    if x1.dtype is D.BOOL or x1.dtype in D.COMPLEX:
        raise TypeError(f"floor_divide needs real numeric arrays, got {x1.dtype.name}")
    return gm.floor_div(x1, x2)


def _remainder(x1: Any, x2: Any) -> Any:
    if x1.dtype in D.INTS:
        return _int_safe_divisor(x1, x2, gm.floor_mod)
    if x1.dtype is D.BOOL or x1.dtype in D.COMPLEX:
        raise TypeError(f"remainder needs real numeric arrays, got {x1.dtype.name}")
    return gm.floor_mod(x1, x2)


def _divide(x1: Any, x2: Any) -> Any:
    if x1.dtype not in D.FLOATS:
        x1, x2 = cast(x1, D.F64), cast(x2, D.F64)  # integer true division: float64 (outside the standard)
    return gm.real_div(x1, x2)


def _floats(x1: Any, x2: Any) -> tuple[Any, Any]:
    if x1.dtype not in D.FLOATS:
        x1, x2 = cast(x1, D.F64), cast(x2, D.F64)  # integer input: float64 (outside the standard)
    return x1, x2


def _pow(x1: Any, x2: Any) -> Any:
    d = x1.dtype
    if d in D.UNSIGNED:  # no unsigned Pow kernel: int64 wraps the same way modulo 2**n
        return cast(gm._pow(cast(x1, D.I64), cast(x2, D.I64)), d)
    if d is D.BOOL:
        raise TypeError("pow needs numeric arrays, got bool")
    return gm._pow(x1, x2)


def _logical(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def slow(x1: Any, x2: Any) -> Any:
        if x1.dtype is not D.BOOL:  # non-bool input: truthiness (outside the standard)
            x1, x2 = truth(x1), truth(x2)
        return fn(x1, x2)

    return slow


def _bitwise(int_fn: Callable[[Any, Any], Any], bool_fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def slow(x1: Any, x2: Any) -> Any:
        if x1.dtype is D.BOOL:
            return bool_fn(x1, x2)
        return int_fn(x1, x2)

    return slow


def _shift_checked(x1: Any, x2: Any) -> None:
    if x1.dtype not in D.INTS:
        raise TypeError(f"bitwise shifts need integer arrays, got {x1.dtype.name}")


def _left_shift(x1: Any, x2: Any) -> Any:
    _shift_checked(x1, x2)
    bits = scalar(x1.dtype.size * 8, x2.dtype)
    out = gb.left_shift(x1, gm.minimum(x2, bits - 1))
    return _where(gm.less(x2, bits), out, _zeros_like(out))  # shifts past the width give 0 (NumPy)


def _right_shift(x1: Any, x2: Any) -> Any:
    _shift_checked(x1, x2)
    bits = scalar(x1.dtype.size * 8 - 1, x2.dtype)
    return gb.right_shift(x1, gm.minimum(x2, bits))  # shifts past the width saturate (NumPy)


def _copysign(x1: Any, x2: Any) -> Any:
    x1, x2 = _floats(x1, x2)
    a = gm._abs(x1)
    return _where(signbit(x2), gm.neg(a), a)  # TF has no copysign kernel


def _hypot(x1: Any, x2: Any) -> Any:
    x1, x2 = _floats(x1, x2)
    a, b = gm._abs(x1), gm._abs(x2)
    hi, lo = gm.maximum(a, b), gm.minimum(a, b)
    safe = _where(gm.equal(hi, _zeros_like(hi)), _ones_like(hi), hi)
    r = gm.mul(hi, gm.sqrt(gm.add_v2(_ones_like(hi), gm.square(gm.real_div(lo, safe)))))  # no overflow
    r = _where(gm.equal(hi, _zeros_like(hi)), _zeros_like(hi), r)
    inf = gm.logical_or(gm.is_inf(a), gm.is_inf(b))
    return _where(inf, tf.fill(tf.shape(r), tf.constant(math.inf, r.dtype)), r)  # inf wins over NaN


def _logaddexp(x1: Any, x2: Any) -> Any:
    x1, x2 = _floats(x1, x2)
    m = gm.maximum(x1, x2)
    r = gm.add_v2(m, gm.log1p(gm.exp(gm.neg(gm._abs(gm.sub(x1, x2))))))  # stable: no exp overflow
    same = gm.equal(x1, x2)  # equal infinities would give inf - inf = NaN
    return _where(same, gm.add_v2(x1, scalar(_LN2, x1.dtype)), r)


_SIGN = {D.I32: tf.constant(-0x80000000, D.I32), D.I64: tf.constant(-0x8000000000000000, D.I64)}
_MAG = {D.I32: tf.constant(0x7FFFFFFF, D.I32), D.I64: tf.constant(0x7FFFFFFFFFFFFFFF, D.I64)}


def _nextafter(x1: Any, x2: Any) -> Any:
    # In integer bit space: TF's CPU kernels flush subnormals to zero, and NextAfter with them.
    x1, x2 = _floats(x1, x2)
    shape = tf.broadcast_dynamic_shape(tf.shape(x1), tf.shape(x2))
    x1, x2 = ga.broadcast_to(x1, shape), ga.broadcast_to(x2, shape)  # no arithmetic: it would flush
    i = D.SAME_WIDTH_INT[x1.dtype]
    b1, b2 = ga.bitcast(x1, i), ga.bitcast(x2, i)
    zero, one = tf.zeros((), i), tf.ones((), i)
    mag1, mag2 = gb.bitwise_and(b1, _MAG[i]), gb.bitwise_and(b2, _MAG[i])
    k1 = gm.select_v2(gm.less(b1, zero), gm.neg(mag1), mag1)  # ordered keys; -0.0 and 0.0 are 0
    k2 = gm.select_v2(gm.less(b2, zero), gm.neg(mag2), mag2)
    k = gm.select_v2(gm.less(k1, k2), gm.add_v2(k1, one), gm.sub(k1, one))
    bits = gm.select_v2(gm.less(k, zero), gb.bitwise_or(gm.neg(k), _SIGN[i]), k)
    bits = gm.select_v2(gm.equal(k, zero), gb.bitwise_and(b1, _SIGN[i]), bits)  # toward 0: keep x1's sign
    out = ga.bitcast(bits, x1.dtype)
    out = gm.select_v2(gm.equal(k1, k2), x2, out)
    nan = gm.logical_or(gm.is_nan(x1), gm.is_nan(x2))
    return gm.select_v2(nan, gm.add_v2(x1, x2), out)


_F32_TINY = 1.1754944e-38  # the smallest normal float32


def _tiny(x1: Any, x2: Any) -> Any:
    """Where x1 or x2 is a zero or a subnormal (a NaN hides the other operand of its pair only,
    whose result is NaN anyway)."""
    return gm.less(gm.minimum(gm._abs(x1), gm._abs(x2)), scalar(_F32_TINY, D.F32))


def _np_tiny(a: Any) -> bool:
    if not a.size:
        return False
    m = np.abs(a).min()
    if m != m:  # a NaN: look at every element
        return bool(np.less(np.abs(a), _F32_TINY).any())
    return bool(m < _F32_TINY)


def _host_cpu(x: Any) -> bool:
    return "device:CPU" in x.device


def _atan2(x1: Any, x2: Any) -> Any:
    x1, x2 = _floats(x1, x2)
    if x1.dtype is D.F32:
        # TF's float32 kernel flushes subnormals: only inputs that may hold one take float64 from
        # the exact bits (a hundred times slower than the kernel). TF also compares a subnormal
        # as zero, so "a zero or a subnormal" is what the test finds: the exact path is right for both.
        if _eager():  # one Python test instead of tf.cond's machinery
            if _host_cpu(x1) and _host_cpu(x2):  # read in place by NumPy, which sees subnormals
                tiny = _np_tiny(x1.numpy()) or _np_tiny(x2.numpy())
            else:
                tiny = bool(gm._any(_tiny(x1, x2), ints(tuple(range(max(x1.shape.rank, x2.shape.rank)))), False))
            if tiny:
                return cast(gm.atan2(f32_to_f64(x1), f32_to_f64(x2)), D.F32)
            return gm.atan2(x1, x2)
        return tf.cond(
            tf.reduce_any(_tiny(x1, x2)),
            lambda: cast(gm.atan2(f32_to_f64(x1), f32_to_f64(x2)), D.F32),
            lambda: gm.atan2(x1, x2),
        )
    return gm.atan2(x1, x2)


def _ordered(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def slow(x1: Any, x2: Any) -> Any:
        if x1.dtype is D.BOOL:  # no bool kernels for ordering: compare as uint8
            x1, x2 = cast(x1, D.U8), cast(x2, D.U8)
        elif x1.dtype in D.COMPLEX:
            raise TypeError("ordering of complex numbers is not defined")
        return fn(x1, x2)

    return slow


def _arith(fn: Callable[[Any, Any], Any], name: str) -> Callable[[Any, Any], Any]:
    def slow(x1: Any, x2: Any) -> Any:
        if x1.dtype is D.BOOL:
            raise TypeError(f"{name} needs numeric arrays, got bool")
        return fn(x1, x2)

    return slow


def _minmax(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def slow(x1: Any, x2: Any) -> Any:
        if x1.dtype is D.BOOL:
            return cast(fn(cast(x1, D.U8), cast(x2, D.U8)), D.BOOL)
        if x1.dtype in D.COMPLEX:
            raise TypeError("ordering of complex numbers is not defined")
        return fn(x1, x2)

    return slow


add = _binary("add", gm.add_v2, _arith(gm.add_v2, "add"))
subtract = _binary("subtract", gm.sub, _arith(gm.sub, "subtract"))
multiply = _binary("multiply", gm.mul, _arith(gm.mul, "multiply"))
divide = _binary("divide", gm.real_div, _divide)
equal = _binary("equal", gm.equal)
not_equal = _binary("not_equal", gm.not_equal)
greater = _binary("greater", gm.greater, _ordered(gm.greater))
greater_equal = _binary("greater_equal", gm.greater_equal, _ordered(gm.greater_equal))
less = _binary("less", gm.less, _ordered(gm.less))
less_equal = _binary("less_equal", gm.less_equal, _ordered(gm.less_equal))
maximum = _binary("maximum", gm.maximum, _minmax(gm.maximum))
minimum = _binary("minimum", gm.minimum, _minmax(gm.minimum))


def _graph_safe(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def fast(x1: Any, x2: Any) -> Any:
        if x1.dtype in D.INTS and not tf.executing_eagerly():
            return _int_safe_divisor(x1, x2, fn)  # traced: a division by zero would fail at run time
        return fn(x1, x2)  # eager: TF raises on integer division by zero and the slow path retries

    return fast


floor_divide = _binary("floor_divide", _graph_safe(gm.floor_div), _floor_divide)
remainder = _binary("remainder", _graph_safe(gm.floor_mod), _remainder)
pow = _binary("pow", gm._pow, _pow)
atan2 = _binary("atan2", _atan2, _atan2)
copysign = _binary("copysign", _copysign, _copysign)
hypot = _binary("hypot", _hypot, _hypot)
logaddexp = _binary("logaddexp", _logaddexp, _logaddexp)
nextafter = _binary("nextafter", _nextafter, _nextafter)
logical_and = _binary("logical_and", gm.logical_and, _logical(gm.logical_and))
logical_or = _binary("logical_or", gm.logical_or, _logical(gm.logical_or))
logical_xor = _binary("logical_xor", gm.not_equal, _logical(gm.not_equal))  # xor of bools is !=
bitwise_and = _binary("bitwise_and", gb.bitwise_and, _bitwise(gb.bitwise_and, gm.logical_and))
bitwise_or = _binary("bitwise_or", gb.bitwise_or, _bitwise(gb.bitwise_or, gm.logical_or))
bitwise_xor = _binary("bitwise_xor", gb.bitwise_xor, _bitwise(gb.bitwise_xor, gm.not_equal))
bitwise_left_shift = _binary("bitwise_left_shift", _left_shift, _left_shift)
bitwise_right_shift = _binary("bitwise_right_shift", _right_shift, _right_shift)


def _bound(b: Any, d: Any) -> Any:
    if isinstance(b, SCALARS):
        if d in D.INTS and isinstance(b, float):
            b = math.floor(b) if b >= 0 else math.ceil(b)  # float bound of an integer array (outside the standard)
        if d in D.INTS:
            lo, hi = d.min, d.max
            b = lo if b < lo else hi if b > hi else b  # Python ints beyond the dtype saturate
        return scalar(b, d)
    b = tensor(b)
    return b if b.dtype is d else cast(b, d)  # the result keeps the dtype of x


def clip(x: Any, /, min: Any = None, max: Any = None) -> Any:
    d = x.dtype
    if d is D.BOOL or d in D.COMPLEX:
        raise TypeError(f"clip needs a real numeric array, got {d.name}")
    out = x
    if min is not None:
        out = gm.maximum(out, _bound(min, d))  # NaN in x or in the bound propagates, like the standard
    if max is not None:
        out = gm.minimum(out, _bound(max, d))  # applied last: where min > max the result is max
    return ga.identity(out) if out is x else out
