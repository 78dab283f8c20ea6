"""Creation functions."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import tensorflow as tf
from tensorflow.python.ops import gen_array_ops as ga
from tensorflow.python.ops import gen_math_ops as gm

from ivy.plugin_kit import check_int_scalar, composed

from . import _dtypes as D
from ._helpers import SCALARS, cast, device_name, ints, on, scalar, shape_tuple, to_device

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

_native = D.native
_TENSORS = (tf.Tensor, tf.Variable)


def _default_for(kind: str) -> tf.DType:
    return {"b": D.BOOL, "i": D.DEFAULT_INT, "u": D.DEFAULT_INT, "f": D.DEFAULT_FLOAT, "c": D.DEFAULT_COMPLEX}[kind]


def _from_host(a: np.ndarray, dtype: Any, python: bool = False) -> Any:
    """A NumPy array as a tensor; dtype None keeps array dtypes (with Python data inferred before).
    ``python``: ``a`` holds Python ints, which must fit an integer ``dtype`` (arrays are cast)."""
    if dtype is not None:
        if python and dtype.is_integer and a.dtype.kind in "iu" and a.size:  # the cast would wrap them
            for v in (int(a.min()), int(a.max())):
                check_int_scalar(v, dtype.name, "asarray")
        a = a.astype(dtype.as_numpy_dtype, copy=False)
    return tf.constant(a)


def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None, copy: bool | None = None) -> Any:
    if isinstance(obj, _TENSORS):
        if isinstance(obj, tf.Variable):
            obj = obj.value()  # a snapshot of the variable's current value
        if dtype is not None:
            dtype = _native(dtype)
            if obj.dtype != dtype:
                if copy is False:
                    raise ValueError("asarray: copy=False but a dtype change needs a copy")
                obj = cast(obj, dtype)
                copy = None  # the cast made a new tensor already
        if device is not None:
            dev = device_name(device)
            if not obj.device.endswith(dev.lstrip("/").replace("device:", "")):
                if copy is False:
                    raise ValueError("asarray: copy=False but moving to another device needs a copy")
                return to_device(obj, dev)
        if copy:
            return ga.identity(obj)  # TF tensors are immutable; identity still gives a new buffer
        return obj
    if dtype is not None:
        dtype = _native(dtype)
    with on(device):
        if isinstance(obj, SCALARS) or isinstance(obj, (list, tuple)):
            if copy is False:
                raise ValueError("asarray: copy=False is impossible for Python scalars and sequences")
            a = np.asarray(obj)
            if dtype is None:
                if a.dtype == object:
                    raise TypeError("asarray: Python data of mixed or unsupported types")
                dtype = _default_for(a.dtype.kind)  # Python data: the backend's default dtypes
            return _from_host(a, dtype, python=True)
        if hasattr(obj, "__dlpack__") and not isinstance(obj, np.ndarray) or copy is False:
            try:
                t = tf.experimental.dlpack.from_dlpack(obj.__dlpack__())  # zero-copy exchange
            except Exception:
                if copy is False:
                    raise ValueError("asarray: copy=False but the data cannot be shared with TensorFlow") from None
                t = tf.constant(np.asarray(obj))
            else:
                if copy:
                    t = ga.identity(t)
            if dtype is not None and t.dtype != dtype:
                if copy is False:
                    raise ValueError("asarray: copy=False but a dtype change needs a copy")
                t = cast(t, dtype)
            return t
        a = np.asarray(obj)  # NumPy arrays, buffers, objects with __array__
        return _from_host(a, dtype)


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
    if copy:
        t = tf.constant(np.from_dlpack(x))  # NumPy reads any CPU producer; tf.constant copies
    else:
        try:
            t = tf.experimental.dlpack.from_dlpack(x.__dlpack__())
        except AttributeError:
            raise
        except Exception as e:
            if copy is False:
                raise BufferError(f"from_dlpack: TensorFlow cannot share this buffer: {e}") from e
            t = tf.constant(np.from_dlpack(x))
    if device is not None:
        if copy is False and not t.device.endswith(device_name(device).lstrip("/").replace("device:", "")):
            raise ValueError("from_dlpack: copy=False but the data lives on another device")
        t = to_device(t, device)
    return t


#: dtypes NumPy builds exactly as TF would (eye, arange)
_HOST = frozenset((D.F32, D.F64))


def arange(
    start: int | float,
    /,
    stop: int | float | None = None,
    step: int | float = 1,
    *,
    dtype: Any = None,
    device: Any = None,
) -> Any:
    if stop is None:
        start, stop = 0, start
    ints = all(isinstance(v, int) for v in (start, stop, step))
    dtype = (D.DEFAULT_INT if ints else D.DEFAULT_FLOAT) if dtype is None else _native(dtype)
    if step == 0:
        raise ValueError("arange: step must not be zero")
    n = max(math.ceil((stop - start) / step), 0)
    with on(device):
        if ints and dtype in D.INTS:
            r = tf.range(start, start + n * step, step, dtype=D.I64)
            return r if dtype is D.I64 else cast(r, dtype)
        # floating: start + i * step like NumPy, with the length computed above
        if dtype in _HOST:  # the same float64 arithmetic on the host, sent as one constant
            a = np.arange(n, dtype=np.float64) * np.float64(step) + np.float64(start)
            return tf.constant(a.astype(dtype.as_numpy_dtype))
        r = gm.add_v2(gm.mul(tf.range(n, dtype=D.F64), tf.constant(step, D.F64)), tf.constant(start, D.F64))
        return cast(r, dtype)


def _shape(shape: Any) -> tuple[int, ...]:
    return shape_tuple(shape)


def _filled(shape: Any, dtype: Any, value: Any, device: Any) -> Any:
    dims = ints(_shape(shape), D.I64)
    if device is None:
        return ga.fill(dims, scalar(value, dtype))  # cached shape and value: no list conversion
    with on(device):
        return ga.fill(dims, scalar(value, dtype))


def zeros(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    return _filled(shape, D.DEFAULT_FLOAT if dtype is None else _native(dtype), 0, device)


def ones(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    return _filled(shape, D.DEFAULT_FLOAT if dtype is None else _native(dtype), 1, device)


def empty(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    return zeros(shape, dtype=dtype, device=device)  # TF has no uninitialised tensors


def _py_default(v: Any) -> tf.DType:
    if isinstance(v, bool):
        return D.BOOL
    if isinstance(v, int):
        return D.DEFAULT_INT
    if isinstance(v, float):
        return D.DEFAULT_FLOAT
    if isinstance(v, complex):
        return D.DEFAULT_COMPLEX
    return _native(getattr(v, "dtype", None) or D.DEFAULT_FLOAT)


def _fill_value(v: Any, dtype: tf.DType, op: str = "full") -> Any:
    if isinstance(v, _TENSORS):
        return cast(v, dtype) if v.dtype != dtype else v
    if type(v) is int and dtype.is_integer:
        check_int_scalar(v, dtype.name, op)  # (NumPy's cast below would wrap it around)
    # via NumPy: TF's scalar cache confuses 0.0 with -0.0
    return tf.constant(np.asarray(v).astype(dtype.as_numpy_dtype))


def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    dtype = _py_default(fill_value) if dtype is None else _native(dtype)
    with on(device):
        return ga.fill(ints(_shape(shape), D.I64), _fill_value(fill_value, dtype))


def _like(x: Any, dtype: Any, device: Any, value: Any) -> Any:
    dtype = x.dtype if dtype is None else _native(dtype)
    with on(device if device is not None else x.device):
        return ga.fill(tf.shape(x), _fill_value(value, dtype, "full_like"))


def zeros_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    if dtype is None and device is None:
        return ga.zeros_like(x)
    return _like(x, dtype, device, 0)


def ones_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    if dtype is None and device is None:
        return ga.ones_like(x)
    return _like(x, dtype, device, 1)


def empty_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    return zeros_like(x, dtype=dtype, device=device)  # TF has no uninitialised tensors


def full_like(x: Any, /, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    return _like(x, dtype, device, fill_value)


def eye(n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None, device: Any = None) -> Any:
    dtype = D.DEFAULT_FLOAT if dtype is None else _native(dtype)
    n_cols = n_rows if n_cols is None else n_cols
    if dtype in _HOST:  # built by NumPy and sent as one constant: five times faster than tf.eye
        with on(device):
            return tf.constant(np.eye(n_rows, n_cols, k, dtype=dtype.as_numpy_dtype))
    with on(device):
        rows = tf.range(n_rows, dtype=D.I64)[:, None]
        cols = tf.range(n_cols, dtype=D.I64)[None, :]
        return cast(gm.equal(gm.sub(cols, rows), tf.constant(k, D.I64)), dtype)  # tf.eye has no k


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
) -> Any:
    if not isinstance(start, (int, float, complex)) or not isinstance(stop, (int, float, complex)):
        return _linspace_arrays(start, stop, num, dtype=dtype, device=device, endpoint=endpoint, axis=axis)
    if axis not in (0, -1):
        raise ValueError(f"linspace: axis must be 0 or -1 for scalar endpoints, got {axis}")
    if dtype is None:
        dtype = D.DEFAULT_COMPLEX if isinstance(start, complex) or isinstance(stop, complex) else D.DEFAULT_FLOAT
    else:
        dtype = _native(dtype)
    # computed on the host like NumPy (exact endpoints, NumPy's rounding), then placed
    a = np.linspace(start, stop, num, endpoint=endpoint, dtype=np.complex128 if dtype in D.COMPLEX else np.float64)
    with on(device):
        return tf.constant(a.astype(dtype.as_numpy_dtype))


_linspace_arrays = composed("linspace", "tensorflow")


def meshgrid(*arrays: Any, indexing: str = "xy") -> list[Any]:
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
    n = len(arrays)
    if n == 0:
        return []
    flat = [tf.reshape(a, [-1]) for a in arrays]
    sizes = [int(f.shape[0]) for f in flat]
    if indexing == "xy" and n > 1:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    out = []
    for i, f in enumerate(flat):
        pos = i
        if indexing == "xy" and n > 1 and i < 2:
            pos = 1 - i
        shape = [1] * n
        shape[pos] = -1
        out.append(tf.broadcast_to(tf.reshape(f, shape), sizes))  # tf.meshgrid multiplies: no bool
    return out


def _tri_mask(x: Any, k: int, lower: bool) -> Any:
    m, n = int(x.shape[-2]), int(x.shape[-1])
    rows = tf.range(m, dtype=D.I64)[:, None]
    cols = tf.range(n, dtype=D.I64)[None, :]
    diff = gm.sub(cols, rows)
    kk = tf.constant(k, D.I64)
    return gm.less_equal(diff, kk) if lower else gm.greater_equal(diff, kk)


def tril(x: Any, /, *, k: int = 0) -> Any:
    return gm.select_v2(_tri_mask(x, k, True), x, ga.zeros_like(x))


def triu(x: Any, /, *, k: int = 0) -> Any:
    return gm.select_v2(_tri_mask(x, k, False), x, ga.zeros_like(x))
