"""Creation functions on ``mxnet.numpy``.

MXNet creates float32 arrays from any Python data (``mxnet.numpy.array([1, 2])`` is float32), so
dtypes are inferred here by the standard's rules (bool, the default integer dtype int64, the
default floating dtype float32) and given to MXNet explicitly. Values go through NumPy on the
host (exact for every int64), then to the requested device.
"""

from __future__ import annotations

import operator
from typing import Any, Literal

from ivy.plugin_kit import composed

from ._dtypes import DEFAULT_FLOAT, DEFAULT_INT, INTS, NAME, bool_, native, scalar_default, unsupported
from ._framework import Array, LegacyArray, mnp, onp
from ._helpers import from_host, host, np_array, to_ctx, where

__all__ = [
    "arange",
    "asarray",
    "empty",
    "empty_like",
    "eye",
    "from_dlpack",
    "full",
    "full_like",
    "linspace",
    "meshgrid",
    "ones",
    "ones_like",
    "tril",
    "triu",
    "zeros",
    "zeros_like",
]

_linspace_arrays = composed("linspace", "mxnet")


def _shape(shape: Any, op: str) -> tuple[int, ...]:
    if isinstance(shape, (list, tuple)):
        out = tuple(operator.index(s) for s in shape)
    else:
        try:
            out = (operator.index(shape),)
        except TypeError:
            raise TypeError(f"ivy.{op}: shape must be an int or a tuple of ints, got {shape!r}") from None
    if any(s < 0 for s in out):
        raise ValueError(f"ivy.{op}: negative dimension in shape {out}")
    return out


def _leaf_kinds(obj: Any, kinds: set[type]) -> bool:
    """Collects the Python scalar types in nested sequence ``obj``; False where a leaf is anything
    else (an array, a NumPy scalar), whose dtype NumPy's inference then decides."""
    if isinstance(obj, (list, tuple)):
        return all(_leaf_kinds(o, kinds) for o in obj)
    for t in (bool, int, float, complex):
        if isinstance(obj, t):
            kinds.add(t)
            return True
    return False


def _python_dtype(obj: Any) -> Any:
    kinds: set[type] = set()
    if not _leaf_kinds(obj, kinds):
        return None
    if complex in kinds:
        raise unsupported("complex64", "asarray")
    if float in kinds:
        return DEFAULT_FLOAT
    if int in kinds:
        return DEFAULT_INT
    return bool_ if kinds else DEFAULT_FLOAT  # an empty sequence: the default floating dtype


def _host_dtype(a: Any, op: str) -> Any:
    """MXNet's dtype for NumPy array ``a`` (refusing the dtypes MXNet lacks)."""
    if a.dtype in NAME or a.dtype == onp.float16:
        return a.dtype
    raise unsupported(a.dtype.name, op)


def asarray(
    obj: Array | bool | int | float | complex | Any,
    /,
    *,
    dtype: Any = None,
    device: Any = None,
    copy: bool | None = None,
) -> Array:
    dt = native(dtype, "asarray")
    obj = np_array(obj)
    if isinstance(obj, Array):
        ctx = to_ctx(device) if device is not None else obj.ctx
        same_dtype = dt is None or obj.dtype == dt
        if ctx == obj.ctx and same_dtype:
            return obj.copy() if copy else obj
        if copy is False:
            raise ValueError("ivy.asarray: copy=False, but a change of dtype or device needs a copy")
        out = obj if same_dtype else obj.astype(dt)
        return out.as_in_context(ctx) if ctx != obj.ctx else out
    if copy is False:
        raise ValueError(f"ivy.asarray: copy=False, but a {type(obj).__name__} becomes an mxnet array only by a copy")
    ctx = to_ctx(device)
    if dt is None:
        dt = _python_dtype(obj)
    if dt is not None:
        a = onp.asarray(obj, dtype=dt)
    else:
        a = onp.asarray(obj)
        if a.dtype == object:
            raise TypeError(f"ivy.asarray: cannot make an array of {type(obj).__name__} {obj!r}")
        dt = _host_dtype(a, "asarray")
    return mnp.array(a, dtype=dt, ctx=ctx)


def from_dlpack(x: Array, /, *, device: Any = None, copy: bool | None = None) -> Array:
    x = np_array(x)
    if isinstance(x, Array):
        return asarray(x, device=device, copy=copy)
    if copy is False:
        raise BufferError(
            f"ivy.from_dlpack: the 'mxnet' backend imports a {type(x).__name__} only by a copy (MXNet's zero-copy "
            "import, mx.nd.from_dlpack, frees memory it does not own while its engine still reads it)"
        )
    # through NumPy's DLPack import (a view), then copied into MXNet's memory
    a = onp.from_dlpack(x) if hasattr(x, "__dlpack__") and not isinstance(x, onp.ndarray) else onp.asarray(x)
    return mnp.array(a, dtype=_host_dtype(a, "from_dlpack"), ctx=to_ctx(device))


def _fill_dtype(fill_value: Any, dtype: Any, op: str) -> Any:
    dt = native(dtype, op)
    return dt if dt is not None else scalar_default(fill_value)


def full(
    shape: int | tuple[int, ...], fill_value: bool | int | float | complex, *, dtype: Any = None, device: Any = None
) -> Array:
    shp = _shape(shape, "full")
    dt = _fill_dtype(fill_value, dtype, "full")
    if isinstance(fill_value, complex):
        raise unsupported("complex64", "full")
    if dt in INTS and not isinstance(fill_value, float) and abs(int(fill_value)) > 2**53:
        return host(onp.full(shp, fill_value, dtype=dt), dt, to_ctx(device))  # MXNet fills from a double
    return mnp.full(shp, fill_value, dtype=dt, ctx=to_ctx(device))


def zeros(shape: int | tuple[int, ...], *, dtype: Any = None, device: Any = None) -> Array:
    return mnp.zeros(_shape(shape, "zeros"), dtype=native(dtype, "zeros") or DEFAULT_FLOAT, ctx=to_ctx(device))


def ones(shape: int | tuple[int, ...], *, dtype: Any = None, device: Any = None) -> Array:
    return mnp.ones(_shape(shape, "ones"), dtype=native(dtype, "ones") or DEFAULT_FLOAT, ctx=to_ctx(device))


def empty(shape: int | tuple[int, ...], *, dtype: Any = None, device: Any = None) -> Array:
    return mnp.empty(_shape(shape, "empty"), dtype=native(dtype, "empty") or DEFAULT_FLOAT, ctx=to_ctx(device))


def _like(x: Any, dtype: Any, device: Any, op: str) -> tuple[Any, Any]:
    return native(dtype, op) or x.dtype, to_ctx(device) if device is not None else x.ctx


def zeros_like(x: Array, /, *, dtype: Any = None, device: Any = None) -> Array:
    dt, ctx = _like(x, dtype, device, "zeros_like")
    return mnp.zeros(x.shape, dtype=dt, ctx=ctx)


def ones_like(x: Array, /, *, dtype: Any = None, device: Any = None) -> Array:
    dt, ctx = _like(x, dtype, device, "ones_like")
    return mnp.ones(x.shape, dtype=dt, ctx=ctx)


def empty_like(x: Array, /, *, dtype: Any = None, device: Any = None) -> Array:
    dt, ctx = _like(x, dtype, device, "empty_like")
    return mnp.empty(x.shape, dtype=dt, ctx=ctx)


def full_like(x: Array, /, fill_value: bool | int | float | complex, *, dtype: Any = None, device: Any = None) -> Array:
    dt, ctx = _like(x, dtype, device, "full_like")
    return full(x.shape, fill_value, dtype=dt, device=ctx)


def eye(n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None, device: Any = None) -> Array:
    n = operator.index(n_rows)
    m = n if n_cols is None else operator.index(n_cols)
    dt = native(dtype, "eye") or DEFAULT_FLOAT
    k = operator.index(k)
    if not -n < k < m:  # a diagonal outside the matrix (MXNet refuses a k beyond int64)
        k = 0 if n == 0 or m == 0 else m
    if dt == bool_:  # (MXNet's eye takes numbers)
        return mnp.eye(n, m, k=k, dtype="uint8", ctx=to_ctx(device)).astype(bool_)
    return mnp.eye(n, m, k=k, dtype=dt, ctx=to_ctx(device))


def arange(
    start: int | float,
    /,
    stop: int | float | None = None,
    step: int | float = 1,
    *,
    dtype: Any = None,
    device: Any = None,
) -> Array:
    if stop is None:
        start, stop = 0, start
    if step == 0:
        raise ValueError("ivy.arange: step must not be zero")
    dt = native(dtype, "arange")
    if dt is None:
        ints = all(isinstance(v, int) for v in (start, stop, step))
        dt = DEFAULT_INT if ints else DEFAULT_FLOAT
    ctx = to_ctx(device)
    if dt in INTS and any(abs(v) > 2**53 for v in (start, stop, step)):
        return from_host(onp.arange(start, stop, step, dtype=dt), ctx, dt)
    return mnp.arange(start, stop, step, dtype=dt, ctx=ctx)


def linspace(
    start: Array | int | float | complex,
    stop: Array | int | float | complex,
    /,
    num: int,
    *,
    dtype: Any = None,
    device: Any = None,
    endpoint: bool = True,
    axis: int = 0,
) -> Array:
    if isinstance(start, (Array, LegacyArray)) or isinstance(stop, (Array, LegacyArray)):
        return _linspace_arrays(start, stop, num, dtype=dtype, device=device, endpoint=endpoint, axis=axis)
    if isinstance(start, complex) or isinstance(stop, complex):
        raise unsupported("complex64", "linspace")
    if operator.index(axis) not in (0, -1):
        raise ValueError(f"ivy.linspace: axis {axis} is out of bounds for the 1-D result of scalar endpoints")
    dt = native(dtype, "linspace") or DEFAULT_FLOAT
    n = operator.index(num)
    if n < 0:
        raise ValueError(f"ivy.linspace: num must be non-negative, got {n}")
    # computed by NumPy in float64 (MXNet parses its endpoints as float32 parameters: a float64
    # endpoint is rounded, or refused)
    return from_host(onp.linspace(start, stop, n, endpoint=endpoint), to_ctx(device), dt)


def meshgrid(*arrays: Array, indexing: Literal["xy", "ij"] = "xy") -> list[Array]:
    if indexing not in ("xy", "ij"):
        raise ValueError(f"ivy.meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
    if not arrays:
        return []
    vecs = [a.reshape(-1) for a in arrays]
    shape = [v.shape[0] for v in vecs]
    if indexing == "xy" and len(vecs) >= 2:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, v in enumerate(vecs):
        view = [1] * len(vecs)
        pos = i
        if indexing == "xy" and len(vecs) >= 2 and i < 2:
            pos = 1 - i
        view[pos] = v.shape[0]
        out.append(mnp.broadcast_to(v.reshape(tuple(view)), tuple(shape)))
    return out


def _tri_mask(x: Any, k: int, upper: bool) -> Any:
    n, m = x.shape[-2], x.shape[-1]
    rows = mnp.arange(n, dtype=DEFAULT_INT, ctx=x.ctx).reshape(n, 1)
    cols = mnp.arange(m, dtype=DEFAULT_INT, ctx=x.ctx).reshape(1, m)
    return (cols - rows >= k) if upper else (cols - rows <= k)


def tril(x: Array, /, *, k: int = 0) -> Array:
    if x.ndim < 2:
        raise ValueError(f"ivy.tril: needs an array of at least 2 dimensions, got shape {x.shape}")
    return where(_tri_mask(x, operator.index(k), False), x, mnp.zeros((), dtype=x.dtype, ctx=x.ctx))


def triu(x: Array, /, *, k: int = 0) -> Array:
    if x.ndim < 2:
        raise ValueError(f"ivy.triu: needs an array of at least 2 dimensions, got shape {x.shape}")
    return where(_tri_mask(x, operator.index(k), True), x, mnp.zeros((), dtype=x.dtype, ctx=x.ctx))
