"""Statistical reductions on ``mxnet.numpy`` with the standard's dtype rules: ``sum``/``prod`` of
small integers accumulate in the default integer dtype (uint8 in uint64, which MXNet lacks:
``UnsupportedDTypeError`` unless ``dtype=`` is given); ``var``/``std`` with any ``correction``
(MXNet's ``ddof`` takes ints only)."""

from __future__ import annotations

from typing import Any

from ._dtypes import DEFAULT_FLOAT, DEFAULT_INT, FLOATS, INTS, bool_, int8, native, uint8, unsupported
from ._framework import Array, autograd, mnp, onp
from ._helpers import cast, from_host, norm_axes, norm_axis, on_host, to_host

__all__ = ["cumulative_prod", "cumulative_sum", "max", "mean", "min", "prod", "std", "sum", "var"]


def _acc_dtype(x: Any, dtype: Any, op: str) -> Any:
    """The dtype a sum or product of ``x`` accumulates in."""
    if dtype is not None:
        return native(dtype, op)
    if x.dtype == bool_ or (x.dtype in INTS and x.dtype != uint8):
        return DEFAULT_INT
    if x.dtype == uint8:
        raise unsupported("uint64", op)  # the standard's accumulator of unsigned integers
    return x.dtype


def sum(x: Array, /, *, axis: int | tuple[int, ...] | None = None, dtype: Any = None, keepdims: bool = False) -> Array:
    dt = _acc_dtype(x, dtype, "sum")
    axes = norm_axes(axis, x.ndim, "sum")
    if not axes:
        return cast(x, dt) if x.dtype != dt else x.copy()
    if x.size == 0:  # (MXNet's reductions fail on zero-size arrays)
        return on_host(lambda a: onp.sum(a, axis=axes, keepdims=keepdims, dtype=dt), x, ctx=x.ctx, dtype=dt)
    return mnp.sum(cast(x, dt), axis=axes, keepdims=keepdims)


def prod(x: Array, /, *, axis: int | tuple[int, ...] | None = None, dtype: Any = None, keepdims: bool = False) -> Array:
    dt = _acc_dtype(x, dtype, "prod")
    axes = norm_axes(axis, x.ndim, "prod")
    if not axes:
        return cast(x, dt) if x.dtype != dt else x.copy()
    if x.size == 0:
        return on_host(lambda a: onp.prod(a, axis=axes, keepdims=keepdims, dtype=dt), x, ctx=x.ctx, dtype=dt)
    return mnp.prod(cast(x, dt), axis=axes, keepdims=keepdims)


def _extremum(fn: Any, x: Any, axis: Any, keepdims: bool, op: str) -> Any:
    axes = norm_axes(axis, x.ndim, op)
    if not axes:
        return x.copy()
    for a in axes:
        if x.shape[a] == 0:
            raise ValueError(f"ivy.{op}: zero-size reduction (axis {a} of shape {x.shape}) has no identity")
    if x.size == 0:
        return on_host(lambda a: getattr(onp, op)(a, axis=axes, keepdims=keepdims), x, ctx=x.ctx, dtype=x.dtype)
    k = cast(x, int8) if x.dtype == bool_ else x  # MXNet reduces bools to float32
    return cast(fn(k, axis=axes, keepdims=keepdims), x.dtype)


def max(x: Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Array:
    return _extremum(mnp.max, x, axis, keepdims, "max")


def min(x: Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Array:
    return _extremum(mnp.min, x, axis, keepdims, "min")


def _float(x: Any) -> Any:
    return x if x.dtype in FLOATS else cast(x, DEFAULT_FLOAT)


def _nan_reduction(x: Any, axes: tuple[int, ...], keepdims: bool) -> Any:
    """NaNs in the shape of the reduction of ``x`` over ``axes`` (zero-size ``x``)."""
    shape = tuple(1 if i in axes else n for i, n in enumerate(x.shape) if keepdims or i not in axes)
    return mnp.full(shape, float("nan"), dtype=x.dtype, ctx=x.ctx)


def mean(x: Array, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Array:
    axes = norm_axes(axis, x.ndim, "mean")
    x = _float(x)
    if not axes:
        return x.copy()
    if x.size == 0:  # an empty mean is NaN (MXNet gives 0, or fails)
        return _nan_reduction(x, axes, keepdims)
    return mnp.mean(x, axis=axes, keepdims=keepdims)


def var(
    x: Array, /, *, axis: int | tuple[int, ...] | None = None, correction: int | float = 0.0, keepdims: bool = False
) -> Array:
    x = _float(x)
    axes = norm_axes(axis, x.ndim, "var")
    n = 1
    for a in axes:
        n *= x.shape[a]
    if not axes:
        return mnp.zeros_like(x) / (n - correction) if n - correction > 0 else mnp.zeros_like(x) * float("nan")
    if x.size == 0:  # the result is empty, or a variance of no elements: NaN
        return _nan_reduction(x, axes, keepdims)
    m = mnp.mean(x, axis=axes, keepdims=True)
    d = x - m
    ss = mnp.sum(d * d, axis=axes, keepdims=keepdims)
    dof = n - correction
    return ss / dof if dof > 0 else ss * float("nan")


def std(
    x: Array, /, *, axis: int | tuple[int, ...] | None = None, correction: int | float = 0.0, keepdims: bool = False
) -> Array:
    return mnp.sqrt(var(x, axis=axis, correction=correction, keepdims=keepdims))


def _cumulative(x: Any, axis: Any, include_initial: bool, op: str) -> tuple[Any, int]:
    if axis is None:
        if x.ndim > 1:
            raise ValueError(f"ivy.{op}: axis is required for an array of {x.ndim} dimensions")
        if x.ndim == 0:
            raise ValueError(f"ivy.{op}: not defined for 0-d arrays")
        axis = 0
    return x, norm_axis(axis, x.ndim, op)


def _with_initial(out: Any, ax: int, value: float) -> Any:
    shape = list(out.shape)
    shape[ax] = 1
    first = mnp.full(tuple(shape), value, dtype=out.dtype, ctx=out.ctx)
    if out.size == 0:
        return (
            first
            if out.shape[ax] == 0
            else on_host(lambda a, b: onp.concatenate([a, b], axis=ax), first, out, ctx=out.ctx, dtype=out.dtype)
        )
    return mnp.concatenate([first, out], axis=ax)


def cumulative_sum(x: Array, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False) -> Array:
    x, ax = _cumulative(x, axis, include_initial, "cumulative_sum")
    dt = _acc_dtype(x, dtype, "cumulative_sum")
    out = mnp.cumsum(cast(x, dt), axis=ax) if x.size else cast(x, dt)
    return _with_initial(out, ax, 0) if include_initial else out


def cumulative_prod(x: Array, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False) -> Array:
    x, ax = _cumulative(x, axis, include_initial, "cumulative_prod")
    dt = _acc_dtype(x, dtype, "cumulative_prod")
    x = cast(x, dt)
    n = x.shape[ax]
    if x.size == 0:
        out = x
    elif not autograd.is_recording():
        out = from_host(to_host(x).cumprod(axis=ax), x.ctx, dt)  # MXNet has no cumprod
    else:
        # while recording gradients: the running product step by step, which autograd follows
        parts = [mnp.take(x, mnp.array([0], dtype="int64", ctx=x.ctx), axis=ax)]
        for i in range(1, n):
            parts.append(parts[-1] * mnp.take(x, mnp.array([i], dtype="int64", ctx=x.ctx), axis=ax))
        out = mnp.concatenate(parts, axis=ax)
    return _with_initial(out, ax, 1) if include_initial else out
