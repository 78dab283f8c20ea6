"""Element-wise functions on ``mxnet.numpy``.

MXNet computes these in the dtype it is given, so the standard's promotion is applied first
(``promote2``, from core's rules); the functions the standard defines for floating point only
compute integer inputs in the default floating dtype (MXNet would return integer garbage). Where
MXNet's kernels miss the standard's special values (NaN through ``maximum``, ``sign(nan)``) the
result is corrected with ``where``, which ``mxnet.autograd`` differentiates. MXNet has no
complex dtypes: ``conj`` and ``real`` return real input, ``imag`` its zeros.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ivy.errors import UnsupportedDTypeError
from ivy.plugin_kit import fastpath

from ._dtypes import DEFAULT_FLOAT, FLOATS, INTS, NUMERIC, bool_, int8, int32
from ._framework import Array, mnp, onp
from ._helpers import b_and, b_or, cast, from_host, host, promote2, promote2_arrays, to_host, where

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


def _named(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    fn.__name__ = fn.__qualname__ = name
    return fn


def _inexact(x: Any) -> Any:
    if x.dtype in FLOATS:
        return x
    if x.dtype == bool_ or x.dtype in INTS:
        return cast(x, DEFAULT_FLOAT)
    raise TypeError(f"expected an mxnet.numpy array, got {type(x).__name__}")


def _float_unary(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    def op(x: Array, /) -> Array:
        return fn(_inexact(x))

    # a floating-point array is MXNet's function's own case: called straight from C
    return fastpath(fn, _named(op, name), nargs=1, dtypes=FLOATS)


acos = _float_unary(mnp.arccos, "acos")
acosh = _float_unary(mnp.arccosh, "acosh")
asin = _float_unary(mnp.arcsin, "asin")
asinh = _float_unary(mnp.arcsinh, "asinh")
atan = _float_unary(mnp.arctan, "atan")
atanh = _float_unary(mnp.arctanh, "atanh")
cos = _float_unary(mnp.cos, "cos")
cosh = _float_unary(mnp.cosh, "cosh")
exp = _float_unary(mnp.exp, "exp")
expm1 = _float_unary(mnp.expm1, "expm1")
log = _float_unary(mnp.log, "log")
log10 = _float_unary(mnp.log10, "log10")
log1p = _float_unary(mnp.log1p, "log1p")
log2 = _float_unary(mnp.log2, "log2")
sin = _float_unary(mnp.sin, "sin")
sinh = _float_unary(mnp.sinh, "sinh")
sqrt = _float_unary(mnp.sqrt, "sqrt")
tan = _float_unary(mnp.tan, "tan")
tanh = _float_unary(mnp.tanh, "tanh")
reciprocal = _float_unary(mnp.reciprocal, "reciprocal")


def abs(x: Array, /) -> Array:  # the spec's name
    if x.dtype == bool_:
        return x.copy()
    if x.dtype in INTS:  # (MXNet's abs of integers goes through doubles: wrong past 2**53)
        return where(x < 0, -x, x)
    return mnp.abs(x)


def _integral_identity(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    def op(x: Array, /) -> Array:
        if x.dtype not in FLOATS:
            return x.copy()  # integers are already integral (MXNet's kernels agree, but cost a pass)
        return fn(x)

    return _named(op, name)


ceil = _integral_identity(mnp.ceil, "ceil")
floor = _integral_identity(mnp.floor, "floor")
trunc = _integral_identity(mnp.trunc, "trunc")
round = _integral_identity(mnp.round, "round")  # MXNet rounds half to even, as the standard


def conj(x: Array, /) -> Array:
    return x.copy()  # no complex dtypes: every array is real


def real(x: Array, /) -> Array:
    return x.copy()


def imag(x: Array, /) -> Array:
    return mnp.zeros_like(x)


def negative(x: Array, /) -> Array:
    if x.dtype == bool_:
        raise TypeError("ivy.negative: not defined for bool arrays (use ivy.logical_not)")
    return mnp.negative(x)


def positive(x: Array, /) -> Array:
    if x.dtype == bool_:
        raise TypeError("ivy.positive: not defined for bool arrays")
    return x.copy()  # (MXNet's positive refuses int8)


def square(x: Array, /) -> Array:
    # (MXNet's square of integers goes through doubles: wrong past 2**53)
    return x * x if x.dtype in INTS else mnp.square(x)


def sign(x: Array, /) -> Array:
    s = mnp.sign(x)
    if x.dtype in FLOATS:
        s = where(mnp.isnan(x), x, s)  # MXNet's sign(nan) is 0
    return s


def signbit(x: Array, /) -> Array:
    # (MXNet's signbit is NumPy's, run on the host, and returns NumPy scalars for 0-d arrays)
    x = _inexact(x)
    return mnp.copysign(mnp.ones_like(x), x) < 0


def isnan(x: Array, /) -> Array:
    return mnp.isnan(x) if x.dtype in FLOATS else mnp.zeros(x.shape, dtype=bool_, ctx=x.ctx)


def isinf(x: Array, /) -> Array:
    return mnp.isinf(x) if x.dtype in FLOATS else mnp.zeros(x.shape, dtype=bool_, ctx=x.ctx)


def isfinite(x: Array, /) -> Array:
    return mnp.isfinite(x) if x.dtype in FLOATS else mnp.ones(x.shape, dtype=bool_, ctx=x.ctx)


def logical_not(x: Array, /) -> Array:
    return mnp.logical_not(cast(x, bool_))


def bitwise_invert(x: Array, /) -> Array:
    if x.dtype == bool_:
        return mnp.logical_not(x)
    if x.dtype not in INTS:
        raise TypeError(f"ivy.bitwise_invert: needs an integer or bool array, got {x.dtype}")
    return mnp.invert(x)


# ------------------------------------------------------------------------------------ binary


def _binary(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    def op(x1: Array | complex, x2: Array | complex, /) -> Array:
        a, b = promote2(x1, x2, name)
        return fn(a, b)

    # two arrays of one numeric dtype need no promotion: MXNet's function, called straight from C
    return fastpath(fn, _named(op, name), nargs=2, dtypes=NUMERIC, same=(0, 1))


add = _binary(mnp.add, "add")
subtract = _binary(mnp.subtract, "subtract")
multiply = _binary(mnp.multiply, "multiply")


def _comparison(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    def op(x1: Array | complex, x2: Array | complex, /) -> Array:
        try:
            a, b = promote2(x1, x2, name)
        except UnsupportedDTypeError:
            # int8 with uint8 promotes to int16, which MXNet lacks; a bool result needs no int16:
            # both compare exactly as int32
            a, b = promote2(_as(x1, int32), _as(x2, int32), name)
        return fn(a, b)

    return fastpath(fn, _named(op, name), nargs=2, dtypes=NUMERIC, same=(0, 1))  # (as _binary)


def _as(x: Any, dt: Any) -> Any:
    return cast(x, dt) if isinstance(x, Array) else x


equal = _comparison(mnp.equal, "equal")
not_equal = _comparison(mnp.not_equal, "not_equal")
less = _comparison(mnp.less, "less")
less_equal = _comparison(mnp.less_equal, "less_equal")
greater = _comparison(mnp.greater, "greater")
greater_equal = _comparison(mnp.greater_equal, "greater_equal")


def remainder(x1: Array | complex, x2: Array | complex, /) -> Array:
    a, b = promote2_arrays(x1, x2, "remainder")
    if a.dtype not in FLOATS:
        # integers: exact in NumPy (MXNet's integer modulo goes through doubles, wrong past 2**53)
        with onp.errstate(all="ignore"):
            return from_host(onp.remainder(to_host(a), to_host(b)), a.ctx, a.dtype)
    out = mnp.mod(a, b)
    # the standard's (NumPy's) special cases, which MXNet's kernel misses: NaN for a NaN operand,
    # an infinite dividend or a zero divisor; an infinite divisor keeps a dividend of its sign
    # (or zero) and gives the divisor for the other sign
    nan = b_or(mnp.isnan(a), mnp.isnan(b), mnp.isinf(a), b == 0)
    keep = b_or(a == 0, (a > 0) == (b > 0))
    out = where(mnp.isinf(b), where(keep, a, b), out)
    return where(nan, mnp.array(float("nan"), dtype=out.dtype, ctx=out.ctx), out)


def _float_binary(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    def op(x1: Array | complex, x2: Array | complex, /) -> Array:
        a, b = promote2_arrays(x1, x2, name)
        if a.dtype not in FLOATS:
            a, b = cast(a, DEFAULT_FLOAT), cast(b, DEFAULT_FLOAT)
        return fn(a, b)

    # two arrays of one floating-point dtype: MXNet's function, straight from C
    return fastpath(fn, _named(op, name), nargs=2, dtypes=FLOATS, same=(0, 1))


atan2 = _float_binary(mnp.arctan2, "atan2")
hypot = _float_binary(mnp.hypot, "hypot")
copysign = _float_binary(mnp.copysign, "copysign")


@fastpath(mnp.true_divide, nargs=2, dtypes=FLOATS, same=(0, 1))  # (nothing to promote)
def divide(x1: Array | complex, x2: Array | complex, /) -> Array:
    a, b = promote2(x1, x2, "divide")
    return mnp.true_divide(a, b)


@fastpath(mnp.power, nargs=2, dtypes=FLOATS, same=(0, 1))
def pow(x1: Array | complex, x2: Array | complex, /) -> Array:  # the spec's name
    a, b = promote2(x1, x2, "pow")
    return mnp.power(a, b)


def _nan_aware(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    def op(x1: Array | complex, x2: Array | complex, /) -> Array:
        a, b = promote2_arrays(x1, x2, name)
        out = fn(a, b)
        if out.dtype in FLOATS:  # MXNet's kernels compare, and so drop a NaN in one operand
            out = where(mnp.isnan(a), a + b, where(mnp.isnan(b), a + b, out))
        return out

    return _named(op, name)


maximum = _nan_aware(mnp.maximum, "maximum")
minimum = _nan_aware(mnp.minimum, "minimum")


def logaddexp(x1: Array | complex, x2: Array | complex, /) -> Array:
    a, b = promote2_arrays(x1, x2, "logaddexp")
    a, b = _inexact(a), _inexact(b)
    m = mnp.maximum(a, b)
    # log(e^a + e^b) = max + log1p(e^-|a-b|); equal infinities (where a - b is NaN) give max itself
    d = a - b
    safe = where(mnp.isnan(d), mnp.zeros_like(d), d)
    out = m + mnp.log1p(mnp.exp(-mnp.abs(safe)))
    out = where(b_and(mnp.isinf(m), m > 0), m, out)
    return where(mnp.isnan(a), a, where(mnp.isnan(b), b, out))


def floor_divide(x1: Array | complex, x2: Array | complex, /) -> Array:
    a, b = promote2_arrays(x1, x2, "floor_divide")
    if a.dtype in FLOATS:
        return _float_floor_divide(a, b)
    # integers: exact in NumPy (MXNet has no integer division; through floats int64 loses digits)
    with onp.errstate(all="ignore"):
        return from_host(onp.floor_divide(to_host(a), to_host(b)), a.ctx, a.dtype)


def _float_floor_divide(a: Any, b: Any) -> Any:
    # NumPy's (and the reference's) floor_divide: (a - fmod(a, b)) / b, rounded, corrected down
    # where the remainder's sign differs from b's; MXNet's mod follows b's sign, so
    # a - mod(a, b) is an exact multiple of b
    r = mnp.mod(a, b)
    q = mnp.round((a - r) / b)
    q = where(b == 0, a / b, q)
    plain = mnp.floor(a / b)
    return where(mnp.isfinite(q), q, plain)


def _bool_bits(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    def op(x1: Array | complex, x2: Array | complex, /) -> Array:
        a, b = promote2_arrays(x1, x2, name)
        if a.dtype == bool_:  # MXNet's bitwise kernels take integers only
            return cast(fn(cast(a, int8), cast(b, int8)), bool_)
        if a.dtype not in INTS:
            raise TypeError(f"ivy.{name}: needs integer or bool arrays, got {a.dtype}")
        return fn(a, b)

    return _named(op, name)


bitwise_and = _bool_bits(mnp.bitwise_and, "bitwise_and")
bitwise_or = _bool_bits(mnp.bitwise_or, "bitwise_or")
bitwise_xor = _bool_bits(mnp.bitwise_xor, "bitwise_xor")


def _logical(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    def op(x1: Array | complex, x2: Array | complex, /) -> Array:
        a, b = promote2_arrays(x1, x2, name)
        return cast(fn(cast(a, int8), cast(b, int8)), bool_)

    return _named(op, name)


logical_and = _logical(mnp.bitwise_and, "logical_and")
logical_or = _logical(mnp.bitwise_or, "logical_or")
logical_xor = _logical(mnp.bitwise_xor, "logical_xor")


def _host_binary(fn: Callable[..., Any], name: str, kinds: frozenset[Any]) -> Callable[..., Any]:
    """An op MXNet lacks, computed exactly by NumPy on the host (integer or ulp-level ops that
    have no gradient to keep)."""

    def op(x1: Array | complex, x2: Array | complex, /) -> Array:
        a, b = promote2_arrays(x1, x2, name)
        if a.dtype not in kinds:
            raise TypeError(f"ivy.{name}: not defined for {a.dtype} arrays")
        with onp.errstate(all="ignore"):
            return from_host(fn(to_host(a), to_host(b)), a.ctx, a.dtype)

    return _named(op, name)


nextafter = _host_binary(onp.nextafter, "nextafter", FLOATS)
bitwise_left_shift = _host_binary(onp.left_shift, "bitwise_left_shift", INTS)
bitwise_right_shift = _host_binary(onp.right_shift, "bitwise_right_shift", INTS)


def clip(x: Array, /, min: Array | float | None = None, max: Array | float | None = None) -> Array:
    if x.dtype == bool_:
        raise TypeError("ivy.clip: not defined for bool arrays")
    out = x
    if min is None and max is None:
        return x.copy()
    if min is not None:
        lo = cast(min, x.dtype) if isinstance(min, Array) else host(min, x.dtype, x.ctx)
        out = where(out < lo, lo, out)
    if max is not None:
        hi = cast(max, x.dtype) if isinstance(max, Array) else host(max, x.dtype, x.ctx)
        out = where(out > hi, hi, out)
    return out
