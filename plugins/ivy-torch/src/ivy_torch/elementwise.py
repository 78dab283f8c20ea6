"""Element-wise functions.

Unary ops whose torch function already follows the standard are aliases. Binary ops go through
``binop``: torch's own call when both dtypes are equal (the fast path); otherwise the standard's
promotion (torch lets 0-d arrays promote like scalars, the standard does not).
"""

from __future__ import annotations

from typing import Any

import torch

from ivy.plugin_kit import fastpath

from ._dtypes import ALL, COMPLEX, FLOATS, INT_BOUNDS, PARTIAL, UNSIGNED, u64
from ._helpers import LOGIC, ORDER, VALUE, WRAP, Tensor, binop, prep2, scalar, u64_divmod, u64_shr, uint_call, unop

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

# ---------------------------------------------------------------- unary: aliases (floating input)
acosh = torch.acosh
asin = torch.asin
asinh = torch.asinh
atan = torch.atan
atanh = torch.atanh
cos = torch.cos
cosh = torch.cosh
exp = torch.exp
log = torch.log
log10 = torch.log10
log2 = torch.log2
reciprocal = torch.reciprocal
signbit = torch.signbit
sin = torch.sin
sinh = torch.sinh
sqrt = torch.sqrt
tan = torch.tan
isfinite = torch.isfinite
isinf = torch.isinf
isnan = torch.isnan
positive = torch.positive  # returns x itself: allowed, the standard does not ask for a copy
real = torch.real  # a view for complex input, x itself for real input
conj = torch.conj_physical  # torch.conj is a lazy view that NumPy cannot read
ceil = torch.ceil  # integer input comes back unchanged, as the standard wants
floor = torch.floor
trunc = torch.trunc

# ---------------------------------------------------------------- unary: integer input too
negative = unop(torch.negative, "negative", WRAP)
square = unop(torch.square, "square", WRAP)
bitwise_invert = unop(torch.bitwise_not, "bitwise_invert", WRAP)


@fastpath(torch.abs, nargs=1, retry=NotImplementedError)
def abs(x: Tensor, /) -> Tensor:
    try:
        return torch.abs(x)
    except NotImplementedError:  # uint16/32/64: |x| is x
        if x.dtype in UNSIGNED:
            return x.clone()
        raise


def sign(x: Tensor, /) -> Tensor:
    d = x.dtype
    if d in FLOATS:
        return torch.where(x != x, x, torch.sign(x))  # torch.sign(nan) is 0, the standard says nan
    if d in COMPLEX:
        return torch.sgn(x)  # x / |x|, and 0 for 0
    if d in PARTIAL:
        return (x != 0).to(d)  # unsigned: 0 or 1; torch lacks sign for these
    return torch.sign(x)


def round(x: Tensor, /) -> Tensor:
    if x.dtype in COMPLEX:  # torch.round has no complex kernel: round both parts
        return torch.complex(torch.round(x.real), torch.round(x.imag))
    return torch.round(x)  # half to even, like the standard


@fastpath(torch.log1p, nargs=1, dtypes=ALL - set(COMPLEX))
def log1p(x: Tensor, /) -> Tensor:
    out = torch.log1p(x)
    if x.dtype in COMPLEX:
        # torch gives NaN + NaN j where a part is infinite; the standard (like torch.log) +inf + ...j
        out = torch.where(x.real.isinf() | x.imag.isinf(), torch.log(x + 1), out)
    return out


_REAL_ALL = ALL - set(COMPLEX)


# The complex corrections below are branch-free (no host sync on an accelerator), and real input
# goes to torch's own function from C.
@fastpath(torch.acos, nargs=1, dtypes=_REAL_ALL)
def acos(x: Tensor, /) -> Tensor:
    out = torch.acos(x)
    if x.dtype in COMPLEX:
        # acos(a + 0j) is acos(a) - 0j for |a| <= 1 (the standard, C99); torch gives + 0j
        zero = (x.imag == 0) & (out.imag == 0)
        out = torch.where(zero, torch.complex(out.real, -x.imag), out)
    return out


@fastpath(torch.expm1, nargs=1, dtypes=_REAL_ALL)
def expm1(x: Tensor, /) -> Tensor:
    out = torch.expm1(x)
    if x.dtype in COMPLEX:
        # torch gives NaN parts wherever the real part is infinite or NaN; there the standard's
        # values are exp(z) - 1, and torch.exp follows the standard's table for them. And
        # expm1(-0 + 0j) is +0 + 0j (the standard), not -0 + 0j.
        re, im = x.real, x.imag
        e = torch.exp(x)
        out = torch.where(re.isfinite(), out, torch.complex(e.real - 1, e.imag))
        out = torch.where((re == 0) & (im == 0), torch.complex(torch.zeros_like(re), im), out)
    return out


@fastpath(torch.tanh, nargs=1, dtypes=_REAL_ALL)
def tanh(x: Tensor, /) -> Tensor:
    out = torch.tanh(x)
    if x.dtype in COMPLEX:
        # tanh(+-inf + yj) is +-1 + 0j with the sign of y on the zero (the standard); torch
        # follows C99's sign of sin(2y), which is -0 for tanh(inf + 2j)
        re, im = x.real, x.imag
        one = torch.complex(torch.copysign(torch.ones_like(re), re), torch.copysign(torch.zeros_like(im), im))
        out = torch.where(re.isinf(), one, out)
    return out


def logical_not(x: Tensor, /) -> Tensor:
    try:
        return torch.logical_not(x)
    except NotImplementedError:  # uint16/32/64 input
        return x == 0


def imag(x: Tensor, /) -> Tensor:
    if x.dtype in COMPLEX:
        return torch.imag(x)
    return torch.zeros_like(x)  # torch.imag rejects real input; its imaginary part is zero


# ---------------------------------------------------------------- binary
add = binop(torch.add, "add", WRAP, scal=True)
# torch.sub/mul/div: the same functions as torch.subtract/multiply/divide, without the alias's cost
subtract = binop(torch.sub, "subtract", WRAP, scal=True)
multiply = binop(torch.mul, "multiply", WRAP, scal=True)
divide = binop(torch.div, "divide", scal=True)
atan2 = binop(torch.atan2, "atan2")
copysign = binop(torch.copysign, "copysign")
hypot = binop(torch.hypot, "hypot")
logaddexp = binop(torch.logaddexp, "logaddexp")
nextafter = binop(torch.nextafter, "nextafter")
bitwise_and = binop(torch.bitwise_and, "bitwise_and", WRAP, scal=True)
bitwise_or = binop(torch.bitwise_or, "bitwise_or", WRAP, scal=True)
bitwise_xor = binop(torch.bitwise_xor, "bitwise_xor", WRAP, scal=True)
bitwise_left_shift = binop(torch.bitwise_left_shift, "bitwise_left_shift", WRAP, scal=True)


def _shr(x1: Tensor, x2: Tensor) -> Tensor:
    if x1.dtype is u64:  # torch has no uint64 shift; int64's is arithmetic
        return u64_shr(x1, x2)
    return torch.bitwise_right_shift(x1, x2)


bitwise_right_shift = binop(_shr, "bitwise_right_shift")
equal = binop(torch.eq, "equal", ORDER, scal=True)
not_equal = binop(torch.ne, "not_equal", ORDER, scal=True)
greater = binop(torch.gt, "greater", ORDER, scal=True)
greater_equal = binop(torch.ge, "greater_equal", ORDER, scal=True)
less = binop(torch.lt, "less", ORDER, scal=True)
less_equal = binop(torch.le, "less_equal", ORDER, scal=True)
logical_and = binop(torch.logical_and, "logical_and", LOGIC)
logical_or = binop(torch.logical_or, "logical_or", LOGIC)
logical_xor = binop(torch.logical_xor, "logical_xor", LOGIC)
maximum = binop(torch.maximum, "maximum", ORDER)
minimum = binop(torch.minimum, "minimum", ORDER)
pow = binop(torch.pow, "pow", WRAP, scal=True)


def _int_div(fn: Any, x1: Tensor, x2: Tensor) -> Tensor:
    """Integer division with zero divisors: torch raises, NumPy (the reference) gives 0."""
    zero = x2 == 0
    out = fn(x1, torch.where(zero, torch.ones_like(x2), x2))
    return out.masked_fill_(zero, 0) if out.shape == zero.shape else torch.where(zero, 0, out)


def _divlike(fn: Any, name: str) -> Any:
    def op(x1: Any, x2: Any, /) -> Any:
        try:
            if x1.dtype is x2.dtype:
                return fn(x1, x2)
        except (AttributeError, RuntimeError):  # scalar, unsigned dtype, integer division by 0
            pass
        x1, x2 = prep2(x1, x2)
        try:
            return fn(x1, x2)
        except NotImplementedError:
            if x1.dtype is u64:  # no uint64 division in torch: long division on the bits
                return u64_divmod(x1, x2)[0 if fn is torch.floor_divide else 1]
            if x1.dtype in PARTIAL:
                return uint_call(lambda a, b: _divlike_safe(fn, a, b), name, VALUE, x1, x2)
            raise
        except RuntimeError as e:
            if "ZeroDivision" in str(e):
                return _int_div(fn, x1, x2)
            raise

    op.__name__ = op.__qualname__ = name
    return op


def _divlike_safe(fn: Any, x1: Tensor, x2: Tensor) -> Tensor:
    try:
        return fn(x1, x2)
    except RuntimeError as e:
        if "ZeroDivision" in str(e):
            return _int_div(fn, x1, x2)
        raise


floor_divide = _divlike(torch.floor_divide, "floor_divide")


def _remainder(x1: Tensor, x2: Tensor) -> Tensor:
    r = torch.remainder(x1, x2)
    # a zero result takes the sign of x2 (the standard's special cases); torch keeps x1's
    return torch.copysign(r, x2) if r.dtype in FLOATS else r


remainder = _divlike(_remainder, "remainder")


_FLOAT_SET = frozenset(FLOATS) | {torch.float16, torch.bfloat16}


def clip(x: Tensor, /, min: Tensor | float | None = None, max: Tensor | float | None = None) -> Tensor:
    d = x.dtype
    if type(min) is float and type(max) is float and d in _FLOAT_SET:
        return torch.clamp(x, min, max)  # the common call: float bounds keep x's float dtype
    if min is None and max is None:
        return x.clone()  # torch.clamp needs at least one bound
    b = INT_BOUNDS.get(d)
    if b is not None:  # an int bound beyond the dtype clamps nothing there (torch would raise)
        if type(min) is int:
            min = b[0] if min < b[0] else b[1] if min > b[1] else min
        if type(max) is int:
            max = b[0] if max < b[0] else b[1] if max > b[1] else max
    try:
        if isinstance(min, Tensor) or isinstance(max, Tensor):
            # torch.clamp takes either tensors or numbers: make both bounds tensors of x's dtype
            lo = None if min is None else (min if isinstance(min, Tensor) else scalar(min, x)).to(d)
            hi = None if max is None else (max if isinstance(max, Tensor) else scalar(max, x)).to(d)
            out = torch.clamp(x, lo, hi)
        else:
            out = torch.clamp(x, min, max)
    except NotImplementedError:
        if d not in PARTIAL:
            raise
        out = _clip_uint(x, min, max)
    return out if out.dtype is d else out.to(d)  # a float bound on integer x: keep x's dtype


def _clip_uint(x: Tensor, lo: Any, hi: Any) -> Tensor:
    d = x.dtype
    lo = None if lo is None else (lo if isinstance(lo, Tensor) else scalar(lo, x)).to(d)
    hi = None if hi is None else (hi if isinstance(hi, Tensor) else scalar(hi, x)).to(d)
    bounds = [b for b in (lo, hi) if b is not None]

    def f(a: Tensor, *bs: Tensor) -> Tensor:
        it = iter(bs)
        return torch.clamp(a, next(it) if lo is not None else None, next(it) if hi is not None else None)

    return uint_call(f, "clip", ORDER, x, *bounds)
