"""Private helpers: standard type promotion for binary ops, and the fallbacks for the unsigned
dtypes (uint16/32/64) that torch supports only partially."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from ivy.plugin_kit import check_int_scalar, check_integer_indices, fastpath

from ._dtypes import (
    INEXACT,
    INT_BOUNDS,
    INTS,
    NAME,
    PARTIAL,
    SIGNED_VIEW,
    WIDE,
    i64,
    promote,
    scalar_dtype,
    u64,
    unsupported,
)

Tensor = torch.Tensor
_tensor = torch.tensor
_MIN64 = -(2**63)

# Modes of the unsigned fallback:
#   "wrap"  : modular arithmetic (add, multiply, ...): uint64 runs on its int64 bit pattern
#   "order" : comparisons, maximum/minimum: uint64 runs on an order-preserving int64 map
#   "value" : anything else: uint16/32 are widened exactly, uint64 is unsupported
#   "logic" : logical ops: compare with zero first
WRAP, ORDER, VALUE, LOGIC = "wrap", "order", "value", "logic"


def scalar(v: Any, like: Tensor, op: str = "this op") -> Tensor:
    """A Python scalar as a 0-d tensor of the dtype the standard gives it next to ``like``."""
    if type(v) is int and like.dtype in INT_BOUNDS:
        int_fits(v, like.dtype, op)
    return _tensor(v, dtype=scalar_dtype(v, like.dtype), device=like.device)


def int_fits(v: int, dtype: torch.dtype, op: str) -> None:
    """A Python int next to an integer tensor must fit its dtype (torch would wrap it around)."""
    lo, hi = INT_BOUNDS[dtype]
    if not lo <= v <= hi:
        check_int_scalar(v, NAME[dtype], op)


_INT_SET = frozenset(INTS)


def int_indices(indices: Tensor, op: str, what: str = "indices") -> Tensor:
    """``indices`` as int64, refusing a floating-point or bool dtype (``.long()`` would truncate
    floats silently, and a bool tensor would be read as a mask)."""
    if indices.dtype not in _INT_SET:
        check_integer_indices(False, indices.dtype, op, what)
    return indices if indices.dtype is i64 else indices.long()


def prep2(x1: Any, x2: Any, op: str = "this op") -> tuple[Tensor, Tensor]:
    """Both operands as tensors of the standard's promoted dtype (torch treats 0-d tensors as weak)."""
    if not isinstance(x1, Tensor):
        if not isinstance(x2, Tensor):
            x2 = torch.asarray(x2)
        x1 = scalar(x1, x2, op) if isinstance(x1, (bool, int, float, complex)) else torch.asarray(x1, device=x2.device)
    elif not isinstance(x2, Tensor):
        x2 = scalar(x2, x1, op) if isinstance(x2, (bool, int, float, complex)) else torch.asarray(x2, device=x1.device)
    d1, d2 = x1.dtype, x2.dtype
    if d1 is not d2:
        rt = promote(d1, d2)
        if d1 is not rt:
            x1 = x1.to(rt)
        if d2 is not rt:
            x2 = x2.to(rt)
    return x1, x2


def to_u64_order(x: Tensor) -> Tensor:
    """uint64 -> int64 keeping the order (flip the top bit)."""
    return torch.bitwise_xor(x.view(i64), _MIN64)


def from_u64_order(x: Tensor) -> Tensor:
    return torch.bitwise_xor(x, _MIN64).view(u64)


def uint_call(fn: Callable[..., Any], name: str, mode: str, *xs: Tensor) -> Any:
    """Run ``fn`` on arrays of a partial unsigned dtype by widening them (or viewing uint64)."""
    d = xs[0].dtype
    if mode == LOGIC:  # logical ops read any non-zero value as True
        return fn(*[x != 0 for x in xs])
    w = WIDE.get(d)
    if w is not None:
        r = fn(*[x.to(w) for x in xs])
        return r.to(d) if isinstance(r, Tensor) and r.dtype is w else r
    if d is u64 and mode == WRAP:
        r = fn(*[x.view(i64) for x in xs])
        return r.view(u64) if isinstance(r, Tensor) and r.dtype is i64 else r
    if d is u64 and mode == ORDER:
        r = fn(*[to_u64_order(x) for x in xs])
        return from_u64_order(r) if isinstance(r, Tensor) and r.dtype is i64 else r
    raise unsupported(d, name)


_PY = (int, float, bool, complex)
#: tensor dtypes a Python float / int operand keeps (torch has kernels for them all)
FLOAT_KINDS = frozenset((torch.float16, torch.bfloat16, *INEXACT))
NUMBER_KINDS = FLOAT_KINDS | {torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8}


def slow2(fn: Callable[..., Any], name: str, mode: str, x1: Any, x2: Any, scal: bool = False) -> Any:
    if scal and type(x2) in _PY and isinstance(x1, Tensor):
        d = x1.dtype
        if d not in PARTIAL and scalar_dtype(x2, d) is d:
            if type(x2) is int and d in INT_BOUNDS:
                int_fits(x2, d, name)
            return fn(x1, x2)  # torch treats a Python scalar as weak, like the standard
    x1, x2 = prep2(x1, x2, name)
    if x1.dtype in PARTIAL:
        try:
            return fn(x1, x2)
        except NotImplementedError:
            return uint_call(fn, name, mode, x1, x2)
    return fn(x1, x2)


def binop(fn: Callable[..., Any], name: str, mode: str = VALUE, scal: bool = False) -> Callable[..., Any]:
    """A binary element-wise op: torch's own call when the dtypes match (the fast path), the
    standard's promotion of scalars and 0-d arrays otherwise. ``scal``: ``fn`` takes a Python
    number as its second argument."""

    def op(x1: Any, x2: Any, /) -> Any:
        t2 = type(x2)
        if scal and (t2 is float or t2 is int) and type(x1) is Tensor:
            # torch reads a Python number as weak, as the standard does, where its kind is not
            # above the tensor's (tested here without raising: an exception costs a microsecond)
            d = x1.dtype
            if t2 is float:
                if d in FLOAT_KINDS:
                    return fn(x1, x2)
            elif d in NUMBER_KINDS:
                # an int outside an integer dtype would wrap around ([0, 127] fits every one)
                if 0 <= x2 <= 127 or (b := INT_BOUNDS.get(d)) is None or b[0] <= x2 <= b[1]:
                    return fn(x1, x2)
            return slow2(fn, name, mode, x1, x2, scal)
        try:
            if x1.dtype is x2.dtype:
                return fn(x1, x2)
        except (AttributeError, NotImplementedError):  # a Python scalar; a partial unsigned dtype
            pass
        return slow2(fn, name, mode, x1, x2, scal)

    op.__name__ = op.__qualname__ = name
    op.__module__ = "ivy_torch.elementwise"
    # Plain calls (two tensors of one dtype) skip the frame above: torch's own call, from C.
    return fastpath(fn, op, nargs=2, same=(0, 1), retry=NotImplementedError)


def unop(fn: Callable[..., Any], name: str, mode: str = VALUE) -> Callable[..., Any]:
    """A unary op that torch lacks for some unsigned dtypes: try it, widen on failure."""

    def op(x: Any, /) -> Any:
        try:
            return fn(x)
        except NotImplementedError:
            return uint_call(fn, name, mode, x)

    op.__name__ = op.__qualname__ = name
    op.__module__ = "ivy_torch.elementwise"
    return fastpath(fn, op, nargs=1, retry=NotImplementedError)


def viewcall(fn: Callable[..., Any], x: Tensor, *args: Any, **kw: Any) -> Tensor:
    """Data-movement op on a partial unsigned dtype through its same-width signed view (bit-exact)."""
    d = x.dtype
    s = SIGNED_VIEW.get(d)
    if s is None:
        raise unsupported(d, getattr(fn, "__name__", "this op"))
    return fn(x.view(s), *args, **kw).view(d)


def norm_axis(axis: int, ndim: int) -> int:
    a = axis + ndim if axis < 0 else axis
    if not 0 <= a < max(ndim, 1):
        raise IndexError(f"axis {axis} is out of bounds for an array of dimension {ndim}")
    return a


def axes_tuple(axis: Any, ndim: int) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, int):
        return (axis,)
    return tuple(axis)


_MAX63 = 2**63 - 1


def u64_shr(x: Tensor, s: Tensor) -> Tensor:
    """Logical right shift of uint64 (torch's int64 shift is arithmetic)."""
    xv, sv = x.view(i64), s.view(i64)
    one = torch.bitwise_and(torch.bitwise_right_shift(xv, 1), _MAX63)  # top bit cleared
    r = torch.bitwise_right_shift(one, torch.clamp(sv - 1, min=0))
    return torch.where(sv == 0, xv, r).view(u64)


def u64_divmod(x: Tensor, y: Tensor) -> tuple[Tensor, Tensor]:
    """Unsigned 64-bit floor division and remainder on int64 bit patterns (0 for a zero divisor)."""
    x, y = torch.broadcast_tensors(x.view(i64), y.view(i64))
    zero = y == 0
    ys = torch.where(zero, 1, y)
    big = ys < 0  # divisor >= 2**63: the quotient is 0 or 1
    xo, yo = torch.bitwise_xor(x, _MIN64), torch.bitwise_xor(ys, _MIN64)
    q_big = (xo >= yo).to(i64)
    ysm = torch.where(big, 1, ys)
    half = torch.bitwise_and(torch.bitwise_right_shift(x, 1), _MAX63)  # x // 2, as non-negative int64
    q = torch.bitwise_left_shift(torch.floor_divide(half, ysm), 1)
    r = x - q * ysm
    fix = (torch.bitwise_xor(r, _MIN64) >= torch.bitwise_xor(ysm, _MIN64)).to(i64)
    q = q + fix
    r = r - fix * ysm
    q = torch.where(big, q_big, q)
    r = torch.where(big, x - q_big * ys, r)
    q = torch.where(zero, 0, q)
    r = torch.where(zero, 0, r)
    return q.view(u64), r.view(u64)
