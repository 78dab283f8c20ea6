"""Element-wise functions.

paddle's binary kernels need two tensors of one dtype, so binary ops take the fast path (both
tensors, same dtype) first and promote otherwise. Several kernels lack int8/int16/uint8: those are
computed in int32 and cast back (exact, wrapping like the narrow type).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ivy.plugin_kit import fastpath

from ._dtypes import (
    COMPLEX,
    FLOATS,
    INTS,
    bool_,
    complex128,
    float32,
    float64,
    idset,
    int8,
    int16,
    int32,
    int64,
    uint8,
    unsupported,
)
from ._framework import Tensor, paddle
from ._helpers import RETRY, c_op, cast, fits, promote2, scalar, unary, where3

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

_SMALL = idset(int8, int16, uint8)  # int dtypes many paddle kernels lack
_C_ops = paddle._C_ops
_exp = c_op(paddle.exp)
_sqrt = c_op(paddle.sqrt)
_INEXACT = FLOATS | COMPLEX
_where = paddle.where
_INF = math.inf
_LN2 = math.log(2.0)
_EXACT = 2**53  # Python ints beyond this are not exact as the double paddle's scalar kernels use


_INT_OR_BOOL = INTS | idset(bool_)


def _integral(x: Any, op: str) -> None:
    # paddle has no float kernel of the bitwise ops: its error names a missing kernel (RuntimeError)
    if id(x.dtype) not in _INT_OR_BOOL:
        raise TypeError(f"ivy.{op} needs an integer or bool dtype, got {x.dtype}")


def _binary(
    fn: Callable[..., Any],
    name: str,
    small: bool = False,
    sop: Any = None,
    rsop: Any = None,
    native: Any = None,
    integral: bool = False,
) -> Callable[..., Any]:
    """A binary op: same-dtype tensors go straight to ``fn``; others are promoted first. With
    ``small``, int8/int16/uint8 (missing kernels) are computed in int32 and cast back. ``sop`` /
    ``rsop``: the Tensor operator used for a Python int/float operand (paddle's scalar kernels
    keep the tensor's dtype, and int tensor with float scalar gives float32: the rules here).
    ``native``: the C function that ``fn(x1, x2)`` is (default: found by ``c_op``)."""

    def op(x1: Any, x2: Any, /) -> Any:
        t1, t2 = type(x1), type(x2)
        if t1 is Tensor:
            if t2 is Tensor:
                if x1.dtype is not x2.dtype:
                    x1, x2 = promote2(x1, x2, name)
            elif sop is not None and (t2 is float or t2 is int and -_EXACT <= x2 <= _EXACT):
                if t2 is int and not 0 <= x2 <= 127:  # ([0, 127] fits every integer dtype)
                    fits(x2, x1.dtype, name)
                return sop(x1, x2)  # (paddle's scalar kernels carry the scalar as a double)
            else:
                x1, x2 = promote2(x1, x2, name)
        elif rsop is not None and t2 is Tensor and (t1 is float or t1 is int and -_EXACT <= x1 <= _EXACT):
            if t1 is int and not 0 <= x1 <= 127:
                fits(x1, x2.dtype, name)
            return rsop(x2, x1)
        else:
            x1, x2 = promote2(x1, x2, name)
        if small and id(x1.dtype) in _SMALL:
            dt = x1.dtype
            return paddle.cast(fn(paddle.cast(x1, int32), paddle.cast(x2, int32)), dt)
        if integral:
            _integral(x1, name)
        return fn(x1, x2)

    op.__name__ = op.__qualname__ = name
    op.__module__ = __name__
    # Two tensors of one dtype are fn(x1, x2) above, called from C. The narrow ints of ``small``
    # have no kernel (RuntimeError, or ValueError for pow): then the Python function runs.
    return fastpath(native or c_op(fn), op, nargs=2, same=(0, 1), retry=RETRY)


def _logical(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    def op(x1: Any, x2: Any, /) -> Any:
        if type(x1) is not Tensor or x1.dtype is not bool_:
            x1 = cast(x1, bool_) if isinstance(x1, Tensor) else scalar(bool(x1), bool_)
        if type(x2) is not Tensor or x2.dtype is not bool_:
            x2 = cast(x2, bool_) if isinstance(x2, Tensor) else scalar(bool(x2), bool_)
        return fn(x1, x2)

    op.__name__ = op.__qualname__ = name
    return op


# ------------------------------------------------------------------ unary, aliased (float math)

# paddle's own functions; those that only forward to a C function are called as that function
acos = unary(paddle.acos)
acosh = unary(paddle.acosh)
asin = unary(paddle.asin)
asinh = unary(paddle.asinh)
atan = unary(paddle.atan)
atanh = unary(paddle.atanh)
ceil = unary(paddle.ceil)
cos = unary(paddle.cos)
cosh = unary(paddle.cosh)
expm1 = unary(paddle.expm1)
floor = unary(paddle.floor)
log = unary(paddle.log)
log10 = unary(paddle.log10)
log1p = unary(paddle.log1p)
_log2 = unary(paddle.log2)
reciprocal = unary(paddle.reciprocal)
sin = unary(paddle.sin)
sinh = unary(paddle.sinh)
tan = unary(paddle.tan)
tanh = unary(paddle.tanh)


# ------------------------------------------------------------------ unary with dtype holes


# The narrow ints these functions treat apart have no paddle kernel (RuntimeError): retried.
@fastpath(c_op(paddle.abs), nargs=1, retry=RETRY)
def abs(x: Any, /) -> Any:
    if id(x.dtype) in _SMALL:  # no int8/int16/uint8 kernel
        return paddle.cast(paddle.abs(paddle.cast(x, int32)), x.dtype)
    return paddle.abs(x)


# (no fastpath: a dtype guard costs more than this function does; see _helpers)
def exp(x: Any, /) -> Any:
    if id(x.dtype) in COMPLEX:
        return _exp_complex(x)
    return _exp(x)


def _exp_complex(x: Any) -> Any:
    re, im = paddle.real(x), paddle.imag(x)
    if x.dtype is complex128:  # paddle's complex128 exp is only single-precision accurate
        m = paddle.exp(re)
        ore, oim = m * paddle.cos(im), m * paddle.sin(im)
    else:
        out = _exp(x)
        ore, oim = paddle.real(out), paddle.imag(out)
    # the standard's special cases, where paddle gives NaN + NaN j
    zero_im = im == 0
    ore = _where(zero_im, paddle.exp(re), ore)  # exp(x + 0j) = exp(x) + 0j, NaN and inf included
    oim = _where(zero_im, im, oim)
    bad_im = paddle.logical_not(paddle.isfinite(im))
    hi, lo = paddle.logical_and(re == _INF, bad_im), paddle.logical_and(re == -_INF, bad_im)
    ore = _where(hi, paddle.full_like(ore, _INF), _where(lo, paddle.zeros_like(ore), ore))
    oim = _where(hi, paddle.full_like(oim, math.nan), _where(lo, paddle.zeros_like(oim), oim))
    return paddle.complex(ore, oim)


def log2(x: Any, /) -> Any:
    if id(x.dtype) in COMPLEX:  # paddle's complex log2 gives a NaN angle for infinite real parts
        ln = paddle.log(x)  # (scaled by parts: paddle's complex / real scalar makes NaNs of infinities)
        return paddle.complex(paddle.real(ln) / _LN2, paddle.imag(ln) / _LN2)
    return _log2(x)


def sqrt(x: Any, /) -> Any:
    if x.dtype is float32:
        # paddle's vectorised float32 CPU kernel is an approximation: NaN for +inf, +0 for -0,
        # 0 for subnormals, and about a third of other results 1 ulp off. Its float64 kernel is
        # exact, and the float64 root rounded to float32 is the correctly rounded float32 root
        # (53 >= 2 * 24 + 2 bits: no double rounding), so three cheap kernels give the exact result.
        return _C_ops.cast(_sqrt(_C_ops.cast(x, float64)), float32)
    return _sqrt(x)


def conj(x: Any, /) -> Any:
    if id(x.dtype) in COMPLEX:
        return paddle.conj(x)
    return x.clone()  # real input is returned unchanged (paddle lacks several real kernels)


def imag(x: Any, /) -> Any:
    if id(x.dtype) in COMPLEX:
        return paddle.imag(x)
    return paddle.zeros_like(x)  # real input: zero imaginary part, same real dtype


def real(x: Any, /) -> Any:
    if id(x.dtype) in COMPLEX:
        return paddle.real(x)
    return x.clone()


@fastpath(c_op(paddle.isfinite), nargs=1, retry=RETRY)
def isfinite(x: Any, /) -> Any:
    if id(x.dtype) in _SMALL or x.dtype is bool_:  # integers are always finite; no kernel for these
        return paddle.ones(x.shape, dtype=bool_)
    return paddle.isfinite(x)


@fastpath(c_op(paddle.isinf), nargs=1, retry=RETRY)
def isinf(x: Any, /) -> Any:
    if x.dtype is bool_:
        return paddle.zeros(x.shape, dtype=bool_)
    return paddle.isinf(x)


@fastpath(c_op(paddle.isnan), nargs=1, retry=RETRY)
def isnan(x: Any, /) -> Any:
    if id(x.dtype) in _SMALL or x.dtype is bool_:
        return paddle.zeros(x.shape, dtype=bool_)
    return paddle.isnan(x)


def logical_not(x: Any, /) -> Any:
    if x.dtype is not bool_:
        x = paddle.cast(x, bool_)  # no uint8 kernel; non-bool input means "!= 0"
    return paddle.logical_not(x)


def negative(x: Any, /) -> Any:
    if x.dtype is bool_:  # (paddle would compute it: no fastpath without a dtype guard)
        raise TypeError("ivy.negative: bool input is not allowed (use logical_not)")
    return _C_ops.scale(x, -1.0, 0.0, True)  # what paddle.neg(x) calls, under three Python layers


def positive(x: Any, /) -> Any:
    return x.clone()  # the spec asks for a copy


@fastpath(c_op(paddle.round), nargs=1, retry=RETRY)
def round(x: Any, /) -> Any:
    if id(x.dtype) in _SMALL:  # integer input is already integral (no kernel for narrow ints)
        return x.clone()
    return paddle.round(x)  # halves to even, like the standard


@fastpath(c_op(paddle.sign), nargs=1, retry=RETRY)  # bool: no kernel
def sign(x: Any, /) -> Any:
    if x.dtype is bool_:
        return x.clone()
    return paddle.sign(x)


@fastpath(c_op(paddle.signbit), nargs=1, retry=RETRY)
def signbit(x: Any, /) -> Any:
    if x.dtype is bool_:
        return paddle.zeros(x.shape, dtype=bool_)
    return paddle.signbit(x)


@fastpath(c_op(paddle.square), nargs=1, retry=RETRY)
def square(x: Any, /) -> Any:
    if id(x.dtype) in _SMALL:
        return paddle.cast(paddle.square(paddle.cast(x, int32)), x.dtype)
    return paddle.square(x)


@fastpath(c_op(paddle.trunc), nargs=1, dtypes={float32, float64}, retry=RETRY)
def trunc(x: Any, /) -> Any:
    if id(x.dtype) in INTS:  # already integral; paddle's int64 trunc goes through float64 (2**53+1)
        return x.clone()
    return paddle.trunc(x)


def clip(x: Any, /, min: Any = None, max: Any = None) -> Any:
    dt = x.dtype
    if min is None and max is None:
        return x.clone()
    if id(dt) in FLOATS and not isinstance(min, Tensor) and not isinstance(max, Tensor):
        if (min is None or max is None or min <= max) and not (min != min or max != max):
            return paddle.clip(x, min, max)  # scalar bounds: paddle's kernel does it in one go
    # composed: array bounds, integer dtypes (no narrow-int kernel), or min > max (result is max)
    out = x
    if min is not None:
        m = cast(min, dt) if isinstance(min, Tensor) else scalar(min, dt, x)
        out = _max_keepnan(out, m)
    if max is not None:
        m = cast(max, dt) if isinstance(max, Tensor) else scalar(max, dt, x)
        out = _min_keepnan(out, m)
    if tuple(out.shape) != tuple(x.shape):
        out = paddle.broadcast_to(out, x.shape)
    return out


def _max_keepnan(a: Any, b: Any) -> Any:
    return where3(a < b, b, a)  # NaN in a stays (comparison is False); a NaN bound is ignored


def _min_keepnan(a: Any, b: Any) -> Any:
    return where3(a > b, b, a)


# ------------------------------------------------------------------ binary

_T = Tensor
# paddle.add(x1, x2) / paddle.subtract(x1, x2), called positionally in dynamic (or PIR) mode, are
# _C_ops.add(x1, x2) / _C_ops.subtract(x1, x2) behind two Python layers (alias and alpha handling)
add = _binary(paddle.add, "add", sop=_T.__add__, rsop=_T.__radd__, native=_C_ops.add)
subtract = _binary(paddle.subtract, "subtract", small=True, sop=_T.__sub__, rsop=_T.__rsub__, native=_C_ops.subtract)
multiply = _binary(paddle.multiply, "multiply", small=True, sop=_T.__mul__, rsop=_T.__rmul__)
maximum = _binary(paddle.maximum, "maximum", small=True)
minimum = _binary(paddle.minimum, "minimum", small=True)
pow = _binary(paddle.pow, "pow", small=True)
atan2 = _binary(paddle.atan2, "atan2")
bitwise_and = _binary(paddle.bitwise_and, "bitwise_and", integral=True)
bitwise_or = _binary(paddle.bitwise_or, "bitwise_or", integral=True)
bitwise_xor = _binary(paddle.bitwise_xor, "bitwise_xor", integral=True)
bitwise_left_shift = _binary(paddle.bitwise_left_shift, "bitwise_left_shift", integral=True)
bitwise_right_shift = _binary(paddle.bitwise_right_shift, "bitwise_right_shift", integral=True)


@fastpath(c_op(paddle.bitwise_not), nargs=1, retry=RETRY)
def bitwise_invert(x: Any, /) -> Any:
    _integral(x, "bitwise_invert")
    return paddle.bitwise_not(x)


def _compare(fn: Callable[..., Any], name: str, sop: Any, rsop: Any) -> Callable[..., Any]:
    """An ordering comparison; a Python scalar of the tensor's kind uses the Tensor operator
    (which compares in the tensor's dtype, as the standard does). Not for ==/!=: paddle's
    operators there are approximate."""

    def op(x1: Any, x2: Any, /) -> Any:
        t1, t2 = type(x1), type(x2)
        if t1 is Tensor:
            if t2 is Tensor:
                if x1.dtype is not x2.dtype:
                    x1, x2 = promote2(x1, x2, name)
                return fn(x1, x2)
            d = id(x1.dtype)
            if (t2 is float and d in _INEXACT) or (
                t2 is int and (d in _INEXACT or d in INTS) and -_EXACT <= x2 <= _EXACT
            ):
                if t2 is int and not 0 <= x2 <= 127:  # ([0, 127] fits every integer dtype)
                    fits(x2, x1.dtype, name)
                return sop(x1, x2)
        elif t2 is Tensor:
            d = id(x2.dtype)
            if (t1 is float and d in _INEXACT) or (
                t1 is int and (d in _INEXACT or d in INTS) and -_EXACT <= x1 <= _EXACT
            ):
                if t1 is int and not 0 <= x1 <= 127:
                    fits(x1, x2.dtype, name)
                return rsop(x2, x1)
        x1, x2 = promote2(x1, x2, name)
        return fn(x1, x2)

    op.__name__ = op.__qualname__ = name
    op.__module__ = __name__
    return fastpath(c_op(fn), op, nargs=2, same=(0, 1), retry=RETRY)


greater = _compare(paddle.greater_than, "greater", _T.__gt__, _T.__lt__)
greater_equal = _compare(paddle.greater_equal, "greater_equal", _T.__ge__, _T.__le__)
less = _compare(paddle.less_than, "less", _T.__lt__, _T.__gt__)
less_equal = _compare(paddle.less_equal, "less_equal", _T.__le__, _T.__ge__)
nextafter = _binary(paddle.nextafter, "nextafter")
logical_and = _logical(paddle.logical_and, "logical_and")
logical_or = _logical(paddle.logical_or, "logical_or")
logical_xor = _logical(paddle.logical_xor, "logical_xor")
_pdiv = paddle.divide
_pfloordiv = paddle.floor_divide
_prem = paddle.remainder


# paddle.divide(x1, x2) is _C_ops.divide(x1, x2) (rounding_mode=None) behind the same layers as add
@fastpath(_C_ops.divide, nargs=2, same=(0, 1), retry=RETRY)
def divide(x1: Any, x2: Any, /) -> Any:
    if type(x1) is not Tensor or type(x2) is not Tensor or x1.dtype is not x2.dtype:
        if type(x1) is Tensor and (type(x2) is float or type(x2) is int and -_EXACT <= x2 <= _EXACT):
            if type(x2) is int and not 0 <= x2 <= 127:
                fits(x2, x1.dtype, "divide")
            return x1 / x2  # scalar kernel: same dtype rules, no 0-d tensor to build
        x1, x2 = promote2(x1, x2, "divide")
    return _pdiv(x1, x2)


def _eq_inexact(x1: Any, x2: Any) -> Any:
    # paddle's float equal is |a - b| < 1e-15 (absolute); a <= b and a >= b is exact, NaN-safe
    if id(x1.dtype) in COMPLEX:
        return paddle.logical_and(
            _eq_inexact(paddle.real(x1), paddle.real(x2)), _eq_inexact(paddle.imag(x1), paddle.imag(x2))
        )
    return paddle.logical_and(paddle.less_equal(x1, x2), paddle.greater_equal(x1, x2))


def equal(x1: Any, x2: Any, /) -> Any:
    if type(x1) is not Tensor or type(x2) is not Tensor or x1.dtype is not x2.dtype:
        x1, x2 = promote2(x1, x2, "equal")
    if id(x1.dtype) in _INEXACT:
        return _eq_inexact(x1, x2)
    return paddle.equal(x1, x2)


def not_equal(x1: Any, x2: Any, /) -> Any:
    if type(x1) is not Tensor or type(x2) is not Tensor or x1.dtype is not x2.dtype:
        x1, x2 = promote2(x1, x2, "not_equal")
    if id(x1.dtype) in _INEXACT:
        return paddle.logical_not(_eq_inexact(x1, x2))  # exact, unlike paddle.not_equal
    return paddle.not_equal(x1, x2)


def _int_by_zero(fn: Callable[..., Any], x1: Any, x2: Any) -> Any:
    # paddle raises on integer division by zero; NumPy's convention is a 0 result
    zero = x2 == 0
    safe = _where(zero, paddle.ones_like(x2), x2)
    out = fn(x1, safe)
    return _where(zero, paddle.zeros_like(out), out)


_WIDE_SIGNED = idset(int32, int64)


def _wide_signed_div(fn: Callable[..., Any], x1: Any, x2: Any, quotient: bool) -> Any:
    """paddle's int32/int64 floor_divide or remainder without its crash: its kernel dies with
    SIGFPE (the CPU's overflow trap) on INT_MIN / -1, so -1 (and 0, which paddle rejects) never
    reach it: x // -1 is -x (wrapping, as NumPy's INT_MIN // -1 is INT_MIN), x % -1 is 0."""
    minus_one = x2 == -1
    bad = paddle.logical_or(minus_one, x2 == 0)
    out = fn(x1, _where(bad, paddle.ones_like(x2), x2))
    if quotient:
        out = _where(minus_one, paddle.zeros_like(x1) - x1, out)
    else:
        out = _where(minus_one, paddle.zeros_like(out), out)
    return _where(x2 == 0, paddle.zeros_like(out), out)


def floor_divide(x1: Any, x2: Any, /) -> Any:
    if type(x1) is not Tensor or type(x2) is not Tensor or x1.dtype is not x2.dtype:
        x1, x2 = promote2(x1, x2, "floor_divide")
    if id(x1.dtype) in _WIDE_SIGNED:
        return _wide_signed_div(_pfloordiv, x1, x2, quotient=True)
    try:
        return _pfloordiv(x1, x2)
    except Exception:
        if id(x1.dtype) in INTS:
            return _int_by_zero(_pfloordiv, x1, x2)
        raise


def remainder(x1: Any, x2: Any, /) -> Any:
    if type(x1) is not Tensor or type(x2) is not Tensor or x1.dtype is not x2.dtype:
        x1, x2 = promote2(x1, x2, "remainder")
    dt = x1.dtype
    if id(dt) in _SMALL:  # no narrow-int kernel
        return paddle.cast(remainder(paddle.cast(x1, int32), paddle.cast(x2, int32)), dt)
    if id(dt) in _WIDE_SIGNED:
        return _wide_signed_div(_prem, x1, x2, quotient=False)
    try:
        return _prem(x1, x2)
    except Exception:
        if id(dt) in INTS:
            return _int_by_zero(_prem, x1, x2)
        raise


def copysign(x1: Any, x2: Any, /) -> Any:
    if type(x1) is not Tensor or type(x2) is not Tensor or x1.dtype is not x2.dtype:
        x1, x2 = promote2(x1, x2, "copysign")
    if x1.shape == x2.shape:
        return paddle.copysign(x1, x2)
    # paddle.copysign warns when x1 must broadcast: compose from signbit instead
    a = paddle.abs(x1)
    return _where(paddle.signbit(x2), -a, a)


def hypot(x1: Any, x2: Any, /) -> Any:
    if type(x1) is not Tensor or type(x2) is not Tensor or x1.dtype is not x2.dtype:
        x1, x2 = promote2(x1, x2, "hypot")
    out = paddle.hypot(x1, x2)
    # the standard: an infinite operand gives +inf even with NaN in the other (paddle: NaN)
    return _where(paddle.isinf(x1) | paddle.isinf(x2), paddle.full_like(out, _INF), out)


_LOG2 = math.log(2.0)


def logaddexp(x1: Any, x2: Any, /) -> Any:
    if type(x1) is not Tensor or type(x2) is not Tensor or x1.dtype is not x2.dtype:
        x1, x2 = promote2(x1, x2, "logaddexp")
    if id(x1.dtype) not in FLOATS:
        if id(x1.dtype) in COMPLEX:
            raise unsupported(x1.dtype, "logaddexp")
        x1, x2 = paddle.cast(x1, float32), paddle.cast(x2, float32)
    # composed: paddle's kernel gives NaN for logaddexp(inf, inf) and (-inf, -inf)
    m = paddle.maximum(x1, x2)
    out = m + paddle.log1p(paddle.exp(-paddle.abs(x1 - x2)))
    return _where(_eq_inexact(x1, x2), x1 + _LOG2, out)
