"""Creation functions: jax.numpy with dtype/device names normalised and strong (not weak) dtypes."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from . import _dtypes
from ._bounds import check_size, int_fits
from ._dtypes import _CACHE, DEFAULT_COMPLEX, DEFAULT_FLOAT, DEFAULT_INT, copy_of, from_host, native, put
from ._dtypes import device as _device
from ._dtypes import new_array_device as _new_device

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

_Array = jax.Array
_SCALARS = (bool, int, float, complex)
_jarange = jnp.arange
_jasarray = jnp.asarray


def arange(
    start: int | float,
    /,
    stop: int | float | None = None,
    step: int | float = 1,
    *,
    dtype: Any = None,
    device: Any = None,
) -> jax.Array:
    if dtype is not None:
        dtype = native(dtype, "arange")
    if device is not None:
        device = _new_device(device)
    lo, hi = (0, start) if stop is None else (start, stop)
    if isinstance(lo, (int, float)) and isinstance(hi, (int, float)) and step:
        check_size((max(int(np.ceil((hi - lo) / step)), 0),), dtype, device, "arange")
    if step == 1 and type(step) is int:  # jnp.arange takes its fast (iota) route without a step
        if stop is None:
            return _jarange(start, dtype=dtype, device=device)
        return _jarange(start, stop, dtype=dtype, device=device)
    return _jarange(start, stop, step, dtype=dtype, device=device)


def asarray(
    obj: Any,
    /,
    *,
    dtype: Any = None,
    device: Any = None,
    copy: bool | None = None,
) -> jax.Array:
    if dtype is not None:
        dtype = native(dtype, "asarray")
    if device is not None:
        device = _device(device)
    if isinstance(obj, _Array):
        if dtype is not None and dtype != obj.dtype:
            if copy is False:
                raise ValueError("asarray(copy=False) cannot change the dtype without a copy")
            obj = obj.astype(dtype)
            return put(obj, device)
        if copy:
            obj = copy_of(obj)  # JAX arrays are immutable: a copy only on request
        if device is not None:
            if copy is False and device not in obj.devices():
                raise ValueError("asarray(copy=False) cannot move an array to another device")
            obj = put(obj, device)
        return obj
    t = type(obj)
    if device is not None and (t in _SCALARS or isinstance(obj, (list, tuple, np.ndarray, np.generic))):
        device = _new_device(device)  # a new array: uncommitted where it is the default device
    if t in _SCALARS or isinstance(obj, (list, tuple)):
        if copy is False:
            raise ValueError("asarray(copy=False): Python scalars and sequences must be copied")
        if t in _SCALARS:
            # Explicit dtype: jnp.asarray(1) is weakly typed and promotes unlike an int64 array.
            return _jasarray(obj, dtype=dtype or _CACHE[t], device=device)
        return _from_nested(obj, dtype, device)
    if isinstance(obj, np.ndarray | np.generic):
        return from_host(obj, dtype, device, copy)
    if hasattr(obj, "__dlpack__") and not isinstance(obj, (bytes, bytearray, memoryview)):
        try:
            out = jnp.from_dlpack(obj, copy=copy)  # other frameworks' arrays (torch, tf, paddle...)
        except Exception:
            if copy is False:
                raise
            src = obj.detach() if hasattr(obj, "detach") else obj  # torch refuses tensors needing grad
            try:
                out = jnp.from_dlpack(src)
            except Exception:
                out = _jasarray(np.asarray(src))  # e.g. a dtype that DLPack cannot carry
        if dtype is not None and out.dtype != dtype:
            out = out.astype(dtype)
        return put(out, device)
    if hasattr(obj, "__array__"):
        return from_host(np.asarray(obj), dtype, device, None)
    if isinstance(obj, (bytes, bytearray, memoryview)):
        buf = np.frombuffer(obj, dtype=np.uint8 if dtype is None else dtype)  # the buffer protocol
        return _jasarray(buf, device=device)
    return _jasarray(obj, dtype=dtype, device=device)


def _from_nested(obj: Any, dtype: Any, device: Any) -> jax.Array:
    leaf = obj
    while isinstance(leaf, (list, tuple)) and leaf:
        leaf = leaf[0]
    if dtype is None and type(leaf) in _SCALARS:
        try:
            a = np.asarray(obj)  # infer like NumPy (bools, ints, floats, complex), then map kinds
        except (ValueError, TypeError):
            return _jasarray(obj, device=device)
        k = a.dtype.kind
        if k == "b":
            dtype = _dtypes.BOOL
        elif k in "iu":
            dtype = DEFAULT_INT
        elif k == "f":
            dtype = DEFAULT_FLOAT
        elif k == "c":
            dtype = DEFAULT_COMPLEX
        else:
            return _jasarray(obj, device=device)  # e.g. ragged: let JAX report it
        if a.dtype.kind in "iu" and a.size and not _fits_int(a, dtype):
            raise OverflowError(f"integer values of {obj!r} do not fit the default integer dtype {dtype}")
        return from_host(a, dtype, device, None)
    if dtype is not None and type(leaf) in _SCALARS:
        try:
            # what jnp.asarray does with a list of Python numbers, without its cast program
            # compiled for each new shape
            a = np.asarray(obj, dtype=jax.dtypes.canonicalize_dtype(dtype))
        except (ValueError, TypeError):  # ragged, or arrays among the numbers: JAX's own way
            return _jasarray(obj, dtype=dtype, device=device)
        return from_host(a, dtype, device, None)
    return _jasarray(obj, dtype=dtype, device=device)


def _fits_int(a: np.ndarray, dtype: np.dtype) -> bool:
    info = np.iinfo(dtype)
    return bool(a.min() >= info.min and a.max() <= info.max)


def empty(shape: int | tuple[int, ...], *, dtype: Any = None, device: Any = None) -> jax.Array:
    if dtype is not None:
        dtype = native(dtype, "empty")
    if device is not None:
        device = _new_device(device)
    check_size(shape, dtype, device, "empty")
    return jnp.empty(shape, dtype, device=device)


def empty_like(x: jax.Array, /, *, dtype: Any = None, device: Any = None) -> jax.Array:
    if dtype is not None:
        dtype = native(dtype, "empty_like")
    if device is not None:
        device = _device(device)
    return jnp.empty_like(x, dtype, device=device)


def eye(
    n_rows: int,
    n_cols: int | None = None,
    /,
    *,
    k: int = 0,
    dtype: Any = None,
    device: Any = None,
) -> jax.Array:
    if dtype is not None:
        dtype = native(dtype, "eye")
    if device is not None:
        device = _new_device(device)
    check_size((n_rows, n_rows if n_cols is None else n_cols), dtype, device, "eye")
    return jnp.eye(n_rows, n_cols, k, dtype, device=device)


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> jax.Array:
    if device is not None:
        device = _device(device)
    out = jnp.from_dlpack(x, device=device, copy=copy)
    return out


def full(
    shape: int | tuple[int, ...],
    fill_value: bool | int | float | complex,
    *,
    dtype: Any = None,
    device: Any = None,
) -> jax.Array:
    if dtype is None:
        dtype = _CACHE.get(type(fill_value))  # strong default dtype, not JAX's weak one
    else:
        dtype = native(dtype, "full")
    if device is not None:
        device = _new_device(device)
    if type(fill_value) is int and dtype is not None and np.dtype(dtype).kind in "iu":
        int_fits(fill_value, dtype, "full")  # jnp.full wraps it around
    check_size(shape, dtype, device, "full")
    return jnp.full(shape, fill_value, dtype, device=device)


def full_like(
    x: jax.Array,
    /,
    fill_value: bool | int | float | complex,
    *,
    dtype: Any = None,
    device: Any = None,
) -> jax.Array:
    if dtype is not None:
        dtype = native(dtype, "full_like")
    if device is not None:
        device = _device(device)
    if type(fill_value) is int and np.dtype(dtype or x.dtype).kind in "iu":
        int_fits(fill_value, dtype or x.dtype, "full_like")  # jnp.full_like wraps it around
    return jnp.full_like(x, fill_value, dtype, device=device)


def linspace(
    start: Any,
    stop: Any,
    /,
    num: int,
    *,
    dtype: Any = None,
    device: Any = None,
    endpoint: bool = True,
    axis: int = 0,
) -> jax.Array:
    scalars = isinstance(start, (int, float, complex)) and isinstance(stop, (int, float, complex))
    if dtype is not None:
        dtype = native(dtype, "linspace")
    elif scalars:  # array endpoints: jnp keeps their floating dtype, as the spec says
        dtype = DEFAULT_COMPLEX if isinstance(start, complex) or isinstance(stop, complex) else DEFAULT_FLOAT
    if scalars and axis not in (0, -1):
        raise ValueError(f"linspace: axis must be 0 or -1 for scalar endpoints, got {axis}")
    if device is not None:
        device = _new_device(device) if scalars else _device(device)
    if num < 0:
        raise ValueError(f"ivy.linspace: num must be non-negative, got {num}")
    check_size((num, *jnp.broadcast_shapes(jnp.shape(start), jnp.shape(stop))), dtype, device, "linspace")
    return jnp.linspace(start, stop, num, endpoint=endpoint, dtype=dtype, device=device, axis=axis)


def meshgrid(*arrays: jax.Array, indexing: str = "xy") -> list[jax.Array]:
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
    for a in arrays:
        if a.ndim == 0:  # the standard treats 0-D inputs as length-1 vectors; JAX refuses them
            arrays = tuple(jnp.reshape(b, (-1,)) if b.ndim == 0 else b for b in arrays)
            break
    return jnp.meshgrid(*arrays, indexing=indexing)


def ones(shape: int | tuple[int, ...], *, dtype: Any = None, device: Any = None) -> jax.Array:
    if dtype is not None:
        dtype = native(dtype, "ones")
    if device is not None:
        device = _new_device(device)
    check_size(shape, dtype, device, "ones")
    return jnp.ones(shape, dtype, device=device)


def ones_like(x: jax.Array, /, *, dtype: Any = None, device: Any = None) -> jax.Array:
    if dtype is not None:
        dtype = native(dtype, "ones_like")
    if device is not None:
        device = _device(device)
    return jnp.ones_like(x, dtype, device=device)


tril = jnp.tril
triu = jnp.triu


def zeros(shape: int | tuple[int, ...], *, dtype: Any = None, device: Any = None) -> jax.Array:
    if dtype is not None:
        dtype = native(dtype, "zeros")
    if device is not None:
        device = _new_device(device)
    check_size(shape, dtype, device, "zeros")
    return jnp.zeros(shape, dtype, device=device)


def zeros_like(x: jax.Array, /, *, dtype: Any = None, device: Any = None) -> jax.Array:
    if dtype is not None:
        dtype = native(dtype, "zeros_like")
    if device is not None:
        device = _device(device)
    return jnp.zeros_like(x, dtype, device=device)
