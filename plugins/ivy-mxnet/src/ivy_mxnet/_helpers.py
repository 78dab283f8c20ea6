"""Shared helpers: operands as arrays of the promoted dtype, casting, devices, host fallbacks."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

from ivy.plugin_kit import device_kinds

from ._dtypes import INTS, bool_, float32, native, promote, scalar_default, scalar_dtype
from ._framework import Array, LegacyArray, mnp, mx, onp

#: the largest integer a Python scalar may have to go to MXNet as a scalar operand: MXNet passes
#: scalars as doubles, so larger ones go as 0-d arrays of the integer dtype
_EXACT_INT = 2**53
_F32_TINY, _F32_MAX = 1.1754943508222875e-38, 3.4028234663852886e38


def is_array(x: Any) -> bool:
    return isinstance(x, Array)


def np_array(x: Any) -> Any:
    """An ``mxnet.numpy`` array from a legacy ``NDArray`` (what some MXNet functions return)."""
    return x.as_np_ndarray() if isinstance(x, LegacyArray) and not isinstance(x, Array) else x


def cast(x: Any, dt: Any) -> Any:
    return x if x.dtype == dt else x.astype(dt)


def ctx_of(*xs: Any) -> Any:
    for x in xs:
        if isinstance(x, Array):
            return x.ctx
    return mx.context.current_context()


def host(x: Any, dt: Any, ctx: Any) -> Any:
    """An array on ``ctx`` holding ``x`` (a NumPy array or Python data) exactly, as dtype ``dt``."""
    return mnp.array(onp.asarray(x, dtype=dt), dtype=dt, ctx=ctx)


def scalar_operand(v: Any, dt: Any, ctx: Any) -> Any:
    """Python scalar ``v`` as an operand of an array of dtype ``dt``: as it is where MXNet's scalar
    kernels are exact (float32, and integers up to 2**53), else a 0-d array (MXNet's comparison
    kernels round a scalar to float32, others to a double)."""
    if dt in INTS:
        if type(v) is not float and -_EXACT_INT <= v <= _EXACT_INT:
            return int(v)
    elif dt == float32 and (v == 0 or _F32_TINY <= abs(v) <= _F32_MAX):  # (MXNet refuses others)
        return v
    return host(v, dt, ctx)


def promote2(x1: Any, x2: Any, op: str) -> tuple[Any, Any]:
    """Both operands of a binary op at their promoted dtype (Python scalars are weak)."""
    a1, a2 = isinstance(x1, Array), isinstance(x2, Array)
    if a1 and a2:
        d1, d2 = x1.dtype, x2.dtype
        if d1 == d2:
            return x1, x2
        dt = promote(d1, d2, op)
        return cast(x1, dt), cast(x2, dt)
    if a1:
        dt = scalar_dtype(x2, x1.dtype)
        return cast(x1, dt), scalar_operand(x2, dt, x1.ctx)
    if a2:
        dt = scalar_dtype(x1, x2.dtype)
        return scalar_operand(x1, dt, x2.ctx), cast(x2, dt)
    x1, x2 = np_array(x1), np_array(x2)
    if isinstance(x1, Array) or isinstance(x2, Array):
        return promote2(x1, x2, op)
    dt = promote(scalar_default(x1), scalar_default(x2), op)
    ctx = mx.context.current_context()
    return host(x1, dt, ctx), host(x2, dt, ctx)


def promote2_arrays(x1: Any, x2: Any, op: str) -> tuple[Any, Any]:
    """``promote2``, with Python scalars made arrays too (for ops without scalar kernels)."""
    x1, x2 = promote2(x1, x2, op)
    if not isinstance(x1, Array):
        x1 = host(x1, x2.dtype, x2.ctx)
    if not isinstance(x2, Array):
        x2 = host(x2, x1.dtype, x1.ctx)
    return x1, x2


def promote_many(xs: Sequence[Any], op: str) -> list[Any]:
    dt = xs[0].dtype
    for x in xs[1:]:
        if x.dtype != dt:
            dt = promote(dt, x.dtype, op)
    return [cast(x, dt) for x in xs]


def to_host(x: Any) -> Any:
    """A NumPy array of ``x`` (waits for MXNet's asynchronous engine)."""
    return x.asnumpy() if isinstance(x, LegacyArray) else onp.asarray(x)


def from_host(a: Any, ctx: Any, dtype: Any = None) -> Any:
    """An array on ``ctx`` from NumPy array ``a`` (for the ops MXNet computes nowhere but NumPy)."""
    a = onp.asarray(a)
    dt = native(dtype) if dtype is not None else a.dtype
    return mnp.array(a.astype(dt, copy=False), dtype=dt, ctx=ctx)


def norm_axis(axis: Any, ndim: int, op: str) -> int:
    a = operator.index(axis)
    if not -ndim <= a < max(ndim, 1) and not (ndim == 0 and a in (0, -1)):
        raise IndexError(f"ivy.{op}: axis {a} is out of bounds for an array of {ndim} dimension(s)")
    return a % ndim if ndim else 0


def norm_axes(axis: Any, ndim: int, op: str) -> tuple[int, ...]:
    """``None``, an int or a sequence of ints as a tuple of distinct non-negative axes."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (list, tuple)):
        out = []
        for a in axis:
            a = operator.index(a)
            if not -ndim <= a < ndim:
                raise IndexError(f"ivy.{op}: axis {a} is out of bounds for an array of {ndim} dimension(s)")
            out.append(a % ndim)
        if len(set(out)) != len(out):
            raise ValueError(f"ivy.{op}: repeated axis in {tuple(axis)}")
        return tuple(out)
    a = operator.index(axis)
    if not -ndim <= a < ndim:
        raise IndexError(f"ivy.{op}: axis {a} is out of bounds for an array of {ndim} dimension(s)")
    return (a % ndim,)


# ------------------------------------------------------------------------------------ devices


def device_str(ctx: Any) -> str:
    """Ivy's device string of an MXNet Context: ``"cpu"``, ``"gpu:0"``."""
    kind = ctx.device_type
    if kind in ("cpu", "cpu_pinned", "cpu_shared"):
        return "cpu"
    if kind == "gpu":
        return f"gpu:{ctx.device_id}"
    for k in device_kinds("mxnet").values():
        got = k.from_native(ctx)
        if got is not None:
            return str(got)
    return f"{kind}:{ctx.device_id}"


def num_gpus() -> int:
    try:
        return int(mx.context.num_gpus())
    except mx.base.MXNetError:  # a CPU build of MXNet without the CUDA driver
        return 0


def to_ctx(device: Any) -> Any:
    """An MXNet Context from a device spec: a Context, ``"cpu"``, ``"gpu:N"`` (``"cuda:N"``)."""
    if device is None:
        return mx.context.current_context()
    if isinstance(device, mx.Context):
        return device
    s = device if isinstance(device, str) else str(device)
    kind, _, idx = s.strip().lower().partition(":")
    if kind == "cpu" and idx in ("", "0"):
        return mx.cpu(0)
    if kind in ("gpu", "cuda") and (idx == "" or idx.isdigit()):
        i = int(idx or 0)
        n = num_gpus()
        if i >= n:
            raise ValueError(
                f"the 'mxnet' backend has no device {s!r}: {n} GPU(s) available (devices: {', '.join(devices())})"
            )
        return mx.gpu(i)
    extra = device_kinds("mxnet").get(kind)
    if extra is not None:
        return extra.to_native(s)
    raise ValueError(f"the 'mxnet' backend has no device {s!r}: use 'cpu' or 'gpu:N' (devices: {', '.join(devices())})")


def devices() -> list[str]:
    out = ["cpu"] + [f"gpu:{i}" for i in range(num_gpus())]
    for k in device_kinds("mxnet").values():
        out += [d for d in k.list_devices() if d not in out]
    return out


def default_ctx() -> Any:
    return mx.context.current_context()


def like(x: Any, value: Any) -> Any:
    """``value`` (a Python scalar) as a 0-d array of ``x``'s dtype on ``x``'s device."""
    return host(value, x.dtype, x.ctx)


def bool_array(x: Any) -> Any:
    return cast(x, bool_)


def where(c: Any, a: Any, b: Any) -> Any:
    """``mnp.where``, except on zero-size results (MXNet's broadcasting ``where`` crashes there)."""
    shape = onp.broadcast_shapes(c.shape, getattr(a, "shape", ()), getattr(b, "shape", ()))
    if 0 in shape:
        dt = a.dtype if isinstance(a, Array) else b.dtype
        return mnp.zeros(shape, dtype=dt, ctx=c.ctx)
    return mnp.where(c, a, b)


def on_host(fn: Any, *arrays: Any, ctx: Any, dtype: Any = None) -> Any:
    """``fn`` of the NumPy copies of ``arrays``, back on ``ctx``: for zero-size arrays, where
    MXNet's kernels fail or crash (and there is no data to move)."""
    out = fn(*(to_host(a) if isinstance(a, Array) else a for a in arrays))
    if isinstance(out, tuple):
        return tuple(from_host(o, ctx, dtype) for o in out)
    return from_host(out, ctx, dtype)


def via_uint8(fn: Any, x: Any, *args: Any, **kwargs: Any) -> Any:
    """``fn(x, ...)`` for a bool ``x`` computed on uint8 (MXNet's layout kernels take no bool)."""
    from ._dtypes import uint8

    if x.dtype == bool_:
        return cast(fn(cast(x, uint8), *args, **kwargs), bool_)
    return fn(x, *args, **kwargs)


def b_or(*masks: Any) -> Any:
    """Element-wise OR of bool arrays (MXNet's ``|`` refuses bool arrays)."""
    from ._dtypes import uint8

    out = cast(masks[0], uint8)
    for m in masks[1:]:
        out = mnp.bitwise_or(out, cast(m, uint8))
    return cast(out, bool_)


def b_and(*masks: Any) -> Any:
    """Element-wise AND of bool arrays."""
    from ._dtypes import uint8

    out = cast(masks[0], uint8)
    for m in masks[1:]:
        out = mnp.bitwise_and(out, cast(m, uint8))
    return cast(out, bool_)
