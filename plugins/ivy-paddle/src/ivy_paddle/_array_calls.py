"""Elementwise ops and slicing specialised to a graph's static shapes and dtypes (see
``ivy.plugin_kit.specializer``): arithmetic and comparisons with a Python number as paddle's
Tensor operators, two tensors of one dtype laid out for paddle's fast broadcasting, constant
slices as paddle's C slice. Each is worked out once when a graph is emitted."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ivy.plugin_kit import specializer

from . import elementwise, general
from ._framework import Tensor, paddle
from ._helpers import _C_ops
from ._nn_calls import _FLOATS
from .elementwise import _EXACT

__all__: list[str] = []

_NUMBERS = _FLOATS | {"int8", "int16", "int32", "int64", "uint8"}


# ------------------------------------------------------------------------ two tensors, broadcast


def _fast_layout(x1: Any, x2: Any) -> Callable[[Any, Any], tuple[Any, Any]] | None:
    """How to hand paddle two same-dtype tensors of different shapes so its CPU kernel takes its
    fast path, or None where it already does. paddle broadcasts an operand of the output's rank
    with leading ones (a ``[1, C, 1, 1]`` bias, a ``[1, 1, H, W]`` plane) 3-8x slower than the
    same operand without them, and an operand with a one between larger axes (``[N, 1, H, W]``)
    about 2x slower than the operand expanded first (measured on paddle 3.3's CPU kernels)."""
    s1, s2 = tuple(x1.shape), tuple(x2.shape)
    if s1 == s2 or x1.dtype != x2.dtype:
        return None
    nd = max(len(s1), len(s2))
    p1, p2 = (1,) * (nd - len(s1)) + s1, (1,) * (nd - len(s2)) + s2
    if any(a != b and 1 not in (a, b) for a, b in zip(p1, p2)):
        return None  # shapes that do not broadcast: the general call raises
    out = tuple(max(a, b) for a, b in zip(p1, p2))
    if s1 == out:
        small, first = s2, False
    elif s2 == out:
        small, first = s1, True
    else:
        return None  # both broadcast: the general call
    padded = (1,) * (nd - len(small)) + small
    lead = 0
    while lead < nd - 1 and padded[lead] == 1:
        lead += 1
    core = list(padded[lead:])
    gap = any(core[i] == 1 < out[lead + i] and any(c != 1 for c in core[i + 1 :]) for i in range(1, len(core)))
    if gap:
        shape = list(out)
        fix: Callable[[Any], Any] = lambda t: _C_ops.expand(t, shape)  # noqa: E731
    elif len(small) > len(core):
        fix = lambda t: _C_ops.reshape(t, core)  # noqa: E731
    else:
        return None
    if first:
        return lambda a, b: (fix(a), b)
    return lambda a, b: (a, fix(b))


def _two_tensors(op: Any, x1: Any, x2: Any) -> Callable[..., Any] | None:
    if not (hasattr(x1, "shape") and hasattr(x2, "shape")) or x1.dtype not in _NUMBERS:
        return None
    layout = _fast_layout(x1, x2)
    if layout is None:
        return None
    return lambda a, b: op(*layout(a, b))


# ---------------------------------------------------------------- a tensor and a Python number


def _arithmetic(op: Any, forward: Any = None, reflected: Any = None) -> None:
    """``op(x, c)`` / ``op(c, x)`` of a float tensor and a Python number as paddle's Tensor
    operator (a graph knows which argument is the number: the general function tries the
    two-tensor C call first and falls back to the operator when that fails); two tensors as
    :func:`_fast_layout` lays them out."""

    @specializer(op)
    def call(x1: Any, x2: Any) -> Callable[..., Any] | None:
        if forward is not None:
            for arr, num, fn in ((x1, x2, forward), (x2, x1, reflected)):
                if (
                    getattr(arr, "dtype", None) in _FLOATS
                    and type(num) in (int, float)
                    and (type(num) is float or -_EXACT <= num <= _EXACT)
                ):
                    return lambda x: fn(x, num)
        return _two_tensors(op, x1, x2)


for _op, _fwd, _ref in (
    (elementwise.add, Tensor.__add__, Tensor.__radd__),
    (elementwise.subtract, Tensor.__sub__, Tensor.__rsub__),
    (elementwise.multiply, Tensor.__mul__, Tensor.__rmul__),
    (elementwise.remainder, Tensor.__mod__, Tensor.__rmod__),
):
    _arithmetic(_op, _fwd, _ref)
# (not pow: paddle's broadcasting and same-shape pow kernels round differently, by an ulp; these
# give the same values whichever kernel runs them)
for _op in (
    elementwise.divide,
    elementwise.atan2,
    elementwise.maximum,
    elementwise.minimum,
    elementwise.greater,
    elementwise.greater_equal,
    elementwise.less,
    elementwise.less_equal,
):
    _arithmetic(_op)


#: |c| from which paddle's float equality, |a - c| < 1e-15, is exact for a Python number c (the
#: neighbours of c in the dtype are further apart)
_EXACT_FROM = {"float32": 1e-6, "float64": 100.0}
_INT_RANGE = {"int32": 2**31, "int64": 2**63}


def _equality(op: Any, name: str) -> None:
    """``equal`` / ``not_equal`` of a tensor and a Python number as one paddle comparison where
    that is exact (integers; floats away from zero, see :data:`_EXACT_FROM`); nearer zero, the
    general function's exact form, without its per-call promotion of the number."""
    operator = getattr(Tensor, f"__{name}__")

    @specializer(op)
    def call(x1: Any, x2: Any) -> Callable[..., Any] | None:
        for arr, num in ((x1, x2), (x2, x1)):
            dt, kind = getattr(arr, "dtype", None), type(num)
            if dt in _INT_RANGE and kind is int and -_INT_RANGE[dt] <= num < _INT_RANGE[dt]:
                return lambda x: operator(x, num)
            if dt in _EXACT_FROM and kind in (int, float) and math.isfinite(num):
                if abs(num) >= _EXACT_FROM[dt]:
                    return lambda x: operator(x, num)
                le, ge, both = Tensor.__le__, Tensor.__ge__, paddle.logical_and
                if name == "ne":  # (a <= c and a >= c: exact, and false for NaN)
                    return lambda x: paddle.logical_not(both(le(x, num), ge(x, num)))
                return lambda x: both(le(x, num), ge(x, num))
        return None


_equality(elementwise.equal, "eq")
_equality(elementwise.not_equal, "ne")


# ------------------------------------------------------------------------------------- slicing


@specializer(general.get_item)
def _slice_call(x: Any, query: Any) -> Callable[..., Any] | None:
    """``x[query]`` for a query of ints and unit-step slices only, as paddle's C slice with the
    bounds worked out once: ``Tensor.__getitem__`` parses the query and the general function
    checks it on every call (a ConvNeXt or a morphology window slices dozens of times)."""
    items = query if type(query) is tuple else (query,)
    if len(items) == 1 and getattr(items[0], "shape", None) == () and items[0].dtype in _INT_RANGE and x.shape:
        return _take_one(x.shape[0])
    if any(type(q) not in (int, slice) and q is not Ellipsis for q in items) or items.count(Ellipsis) > 1:
        return None  # arrays, masks, new axes: the general call
    nd = len(x.shape)
    if Ellipsis in items:
        at = items.index(Ellipsis)
        items = items[:at] + (slice(None),) * (nd - len(items) + 1) + items[at + 1 :]
    if len(items) > nd:
        return None  # too many indices: the general call raises
    axes, starts, ends, drop = [], [], [], []
    for axis, (q, n) in enumerate(zip(items, x.shape)):
        if type(q) is int:
            if not -n <= q < n:
                return None  # out of range: the general call raises
            drop.append(axis)
            q = slice(q % n, q % n + 1)
        start, stop, step = q.indices(n)
        if step != 1 or stop <= start:
            return None  # strides and empty results: the general call
        if (start, stop) != (0, n):
            axes.append(axis)
            starts.append(start)
            ends.append(stop)
    if not axes:
        return None  # nothing cut: the general call's copy
    c_slice, ones = _C_ops.slice, [1] * len(axes)  # (x, axes, starts, ends, infer_flags, decrease_axis)
    return lambda x: c_slice(x, axes, starts, ends, ones, drop)


def _take_one(n: int) -> Callable[..., Any]:
    """``x[i]`` for a 0-d integer tensor ``i``: its value read once and checked, then the C slice
    (the general function's check reads it too, with the whole query's machinery)."""
    c_slice, get_item = _C_ops.slice, general.get_item

    def take(x: Any, i: Any) -> Any:
        k = i.item()
        if -n <= k < n:
            k %= n
            return c_slice(x, [0], [k], [k + 1], [1], [0])
        return get_item(x, (i,))  # (its error: out of range)

    return take
