"""Creation functions. paddle's creation functions take ``device=``; a ``None`` device means
paddle's current default place (never changed here)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ivy import dtype_name
from ivy.plugin_kit import composed

from ._bounds import check_size
from ._dtypes import (
    COMPLEX,
    DEFAULT_COMPLEX,
    DEFAULT_FLOAT,
    DEFAULT_INT,
    DTYPES,
    INEXACT,
    NAME,
    bool_,
    complex64,
    complex128,
    float32,
    float64,
    idset,
    int32,
    int64,
    native,
    unsupported,
)
from ._framework import Tensor, paddle
from ._helpers import _C_ops, cast, fits, place, promote_many, to_device

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


#: dtypes without arange/eye/tril kernels
_NARROW = idset(DTYPES["int8"], DTYPES["int16"], DTYPES["uint8"], bool_)


def _scalar_default(v: Any) -> Any:
    if isinstance(v, bool):
        return bool_
    if isinstance(v, int):
        return DEFAULT_INT
    if isinstance(v, float):
        return DEFAULT_FLOAT
    if isinstance(v, complex):
        return DEFAULT_COMPLEX
    raise TypeError(f"expected a bool, int, float or complex, got {type(v).__name__}")


# ----------------------------------------------------------------------------------- from shape


def empty(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    dt = native(dtype, "empty") if dtype is not None else DEFAULT_FLOAT
    dev = None if device is None else place(device)
    check_size(shape, dt, dev, "empty")
    # an int shape must be a list: paddle.empty(n, dtype) reads dtype as a second dimension
    return paddle.empty([shape] if type(shape) is int else shape, dtype=dt, device=dev)


def zeros(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    dt = native(dtype, "zeros") if dtype is not None else DEFAULT_FLOAT
    dev = None if device is None else place(device)
    check_size(shape, dt, dev, "zeros")
    # an int shape must be a list: paddle.zeros(n, dtype) reads dtype as a second dimension
    return paddle.zeros([shape] if type(shape) is int else shape, dtype=dt, device=dev)


def ones(shape: Any, *, dtype: Any = None, device: Any = None) -> Any:
    dt = native(dtype, "ones") if dtype is not None else DEFAULT_FLOAT
    dev = None if device is None else place(device)
    check_size(shape, dt, dev, "ones")
    return paddle.ones([shape] if type(shape) is int else shape, dtype=dt, device=dev)


def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    dt = native(dtype, "full") if dtype is not None else _scalar_default(fill_value)
    if isinstance(fill_value, complex) and id(dt) not in COMPLEX:
        raise TypeError("ivy.full: a complex fill_value needs a complex dtype")
    if type(fill_value) is int:
        fits(fill_value, dt, "full")  # paddle.full wraps it around
    check_size(shape, dt, None if device is None else place(device), "full")
    return paddle.full(
        [shape] if type(shape) is int else shape, fill_value, dtype=dt, device=None if device is None else place(device)
    )


def empty_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    out = paddle.empty_like(x, native(dtype, "empty_like") if dtype is not None else None)
    return out if device is None else to_device(out, device)


def zeros_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    out = paddle.zeros_like(x, native(dtype, "zeros_like") if dtype is not None else None)
    return out if device is None else to_device(out, device)


def ones_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Any:
    out = paddle.ones_like(x, native(dtype, "ones_like") if dtype is not None else None)
    return out if device is None else to_device(out, device)


def full_like(x: Any, /, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Any:
    dt = native(dtype, "full_like") if dtype is not None else x.dtype
    if isinstance(fill_value, complex) and id(dt) not in COMPLEX:
        raise TypeError("ivy.full_like: a complex fill_value needs a complex dtype")
    if type(fill_value) is int:
        fits(fill_value, dt, "full_like")  # paddle.full wraps it around
    out = paddle.full(x.shape, fill_value, dt, device=x.place)
    return out if device is None else to_device(out, device)


# ----------------------------------------------------------------------------------- ranges


def arange(start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None, device: Any = None) -> Any:
    if stop is None:
        start, stop = 0, start
    if dtype is None:
        ints = all(isinstance(v, int) for v in (start, stop, step))
        dt = DEFAULT_INT if ints else DEFAULT_FLOAT
    else:
        dt = native(dtype, "arange")
    if step == 0:
        raise ValueError("ivy.arange: step must not be zero")
    n = math.ceil((stop - start) / step)
    dev = None if device is None else place(device)
    check_size((max(n, 0),), dt, dev, "arange")
    if n <= 0:
        return paddle.empty([0], dt, device=dev)
    if dt is int32 or dt is int64 or dt is float32 or dt is float64:
        out = paddle.arange(start, stop, step, dt, device=dev)
        if out.shape[0] == n:
            return out
    # narrow / bool / complex dtypes have no kernel, and paddle's own length may differ by one:
    # compute start + i * step in float64 (or int64) and cast
    wide = int64 if all(isinstance(v, int) for v in (start, stop, step)) else float64
    i = paddle.arange(0, n, 1, int64, device=dev)
    return cast(i.astype(wide) * step + start if wide is float64 else i * step + start, dt)


def linspace(
    start: Any, stop: Any, /, num: int, *, dtype: Any = None, device: Any = None, endpoint: bool = True, axis: int = 0
) -> Any:
    if isinstance(start, paddle.Tensor) or isinstance(stop, paddle.Tensor):  # paddle: scalars only
        return _linspace_arrays(start, stop, num, dtype=dtype, device=device, endpoint=endpoint, axis=axis)
    if axis not in (0, -1):
        raise ValueError(f"linspace: axis must be 0 or -1 for scalar endpoints, got {axis}")
    if dtype is None:
        dt = DEFAULT_COMPLEX if isinstance(start, complex) or isinstance(stop, complex) else DEFAULT_FLOAT
    else:
        dt = native(dtype, "linspace")
    dev = None if device is None else place(device)
    if num < 0:
        raise ValueError(f"ivy.linspace: num must be non-negative, got {num}")
    check_size((num,), dt, dev, "linspace")
    if num > _INT32_MAX:  # paddle holds num in an int32: it would wrap around
        raise ValueError(f"ivy.linspace: the paddle backend computes at most {_INT32_MAX} points, got num={num}")
    if id(dt) in COMPLEX:  # no complex kernel: space real and imaginary parts independently
        rt = float64 if dt == DTYPES["complex128"] else float32
        s, e = complex(start), complex(stop)
        re = linspace(s.real, e.real, num, dtype=rt, device=device, endpoint=endpoint)
        im = linspace(s.imag, e.imag, num, dtype=rt, device=device, endpoint=endpoint)
        return paddle.complex(re, im)
    if num == 0:
        return paddle.empty([0], dt, device=dev)
    if not endpoint:
        if num == 1:
            return paddle.full([1], start, float64, device=dev).astype(dt)
        return linspace(start, stop - (stop - start) / num, num, dtype=dt, device=device)
    if dt is float32 or dt is float64:
        # computed in float64 and cast: paddle's float32 kernel loses precision for long ranges
        out = paddle.linspace(float(start), float(stop), num, float64, device=dev)
        return out if dt == float64 else paddle.cast(out, dt)
    out = paddle.linspace(float(start), float(stop), num, float64, device=dev)
    return paddle.cast(out, dt)


_linspace_arrays = composed("linspace", "paddle")


def eye(n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None, device: Any = None) -> Any:
    dt = native(dtype, "eye") if dtype is not None else DEFAULT_FLOAT
    m = n_rows if n_cols is None else n_cols
    dev = None if device is None else place(device)
    check_size((n_rows, m), dt, dev, "eye")  # paddle segfaults on an impossible size
    if k == 0 and id(dt) not in _NARROW:
        return paddle.eye(n_rows, m, dt, device=dev)
    if not -n_rows < k < m:  # a diagonal outside the matrix (k may be beyond int64)
        return paddle.zeros((n_rows, m), dt, device=dev)
    # off-diagonal or a dtype without kernel: compare row and column indices
    r = paddle.arange(n_rows, dtype=int64, device=dev).unsqueeze(1)
    c = paddle.arange(m, dtype=int64, device=dev).unsqueeze(0)
    return paddle.cast((c - r) == k, dt)


def _tri(x: Any, k: int, lower: bool) -> Any:
    dt = x.dtype
    if id(dt) in _NARROW and dt is not bool_:  # no narrow-int kernel: exact via int32
        return paddle.cast(_tri(paddle.cast(x, int32), k, lower), dt)
    return paddle.tril(x, k) if lower else paddle.triu(x, k)


def tril(x: Any, /, *, k: int = 0) -> Any:
    return _tri(x, k, True)


def triu(x: Any, /, *, k: int = 0) -> Any:
    return _tri(x, k, False)


def meshgrid(*arrays: Any, indexing: str = "xy") -> list[Any]:
    if not arrays:
        return []
    if indexing not in ("xy", "ij"):
        raise ValueError(f"ivy.meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
    xs = promote_many([a if len(a.shape) == 1 else a.reshape([-1]) for a in arrays], "meshgrid")
    if indexing == "xy" and len(xs) >= 2:
        # Cartesian: build in matrix order with the first two swapped, then swap them back
        xs[0], xs[1] = xs[1], xs[0]
        out = _mesh_ij(xs)
        out[0], out[1] = out[1], out[0]
        return out
    return _mesh_ij(xs)


_MESH = idset(int32, int64, float32, float64, complex64, complex128)  # paddle's meshgrid kernels


def _mesh_ij(xs: list[Any]) -> list[Any]:
    if len(xs) > 1 and id(xs[0].dtype) in _MESH:
        return list(_C_ops.meshgrid(xs))  # paddle.meshgrid's own call: one kernel for all outputs
    shape = [x.shape[0] for x in xs]
    n = len(xs)
    out = []
    for i, x in enumerate(xs):
        s = [1] * n
        s[i] = shape[i]
        out.append(paddle.broadcast_to(x.reshape(s), shape))
    return out


# ----------------------------------------------------------------------------------- conversion

_NP_UNSUPPORTED = {"uint16", "uint32", "uint64"}
_INT32_MAX = 2**31 - 1


def _from_numpy(a: np.ndarray, dt: Any, dev: Any) -> Any:
    name = a.dtype.name
    if name in _NP_UNSUPPORTED and dt is None:
        raise unsupported(name, "asarray")  # paddle would silently read uint16 as bfloat16
    if name in _NP_UNSUPPORTED:
        a = a.astype(np.int64 if id(dt) not in INEXACT else np.float64)
    if not a.flags.c_contiguous or not a.flags.writeable:
        a = np.ascontiguousarray(a)
    out = paddle.to_tensor(a, place=dev)
    return out if dt is None else cast(out, dt)


def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None, copy: bool | None = None) -> Any:
    dt = native(dtype, "asarray") if dtype is not None else None
    if isinstance(obj, Tensor):
        if dt is not None and obj.dtype is not dt:
            if copy is False:
                raise ValueError("ivy.asarray: copy=False but a dtype change needs a copy")
            obj = paddle.cast(obj, dt)
            copy = None  # cast already copied
        if device is not None:
            p = place(device)
            if not (obj.place == p or str(obj.place) == str(p)):
                if copy is False:
                    raise ValueError("ivy.asarray: copy=False but a device change needs a copy")
                return obj._copy_to(p, False)
        return obj.clone() if copy else obj
    dev = None if device is None else place(device)
    t = type(obj)
    if (t is list or t is tuple) and copy is not False:  # the common call first
        return _from_sequence(obj, dt, dev)
    if t is bool or t is int or t is float or t is complex:
        if copy is False:
            raise ValueError("ivy.asarray: copy=False is impossible for a Python scalar")
        if t is int and dt is not None:
            fits(obj, dt, "asarray")  # paddle.full wraps it around
        return paddle.full([], obj, dt if dt is not None else _scalar_default(obj), device=dev)
    if isinstance(obj, np.ndarray) or isinstance(obj, np.generic):
        if copy is False:
            return _from_dlpack_nocopy(obj, dt, dev)
        return _from_numpy(np.asarray(obj), dt, dev)
    if hasattr(obj, "__dlpack__") and not isinstance(obj, (list, tuple)):
        _refuse_wide_unsigned(obj, "asarray")
        try:
            out = paddle.from_dlpack(obj)
        except Exception:
            out = None  # e.g. a dtype DLPack cannot carry: go through NumPy
        if out is not None:
            if out.dtype not in NAME:
                raise unsupported(str(out.dtype), "asarray")
            if dt is not None and out.dtype is not dt:
                if copy is False:
                    raise ValueError("ivy.asarray: copy=False but a dtype change needs a copy")
                return to_device(paddle.cast(out, dt), device)
            if dev is not None and str(out.place) != str(dev):
                if copy is False:
                    raise ValueError("ivy.asarray: copy=False but a device change needs a copy")
                return out._copy_to(dev, False)
            return out.clone() if copy else out
    if copy is False and not isinstance(obj, (list, tuple)):
        try:
            return _from_dlpack_nocopy(np.asarray(obj), dt, dev)
        except BufferError:
            raise ValueError("ivy.asarray: copy=False but the object cannot be shared") from None
    if copy is False:
        raise ValueError("ivy.asarray: copy=False is impossible for a Python sequence")
    if isinstance(obj, (list, tuple)):
        return _from_sequence(obj, dt, dev)
    return _from_numpy(np.asarray(obj), dt, dev)


_PY_SCALARS = frozenset((bool, int, float, complex))
_NAME_OF_ID = {id(getattr(paddle, n)): n for n in ("bool", "float32", "float64", "complex64", "complex128")}


def _from_sequence(obj: Any, dt: Any, dev: Any) -> Any:
    # (a flat list of Python numbers is found in C; anything else is walked)
    if not _PY_SCALARS.issuperset(map(type, obj)) and _has_tensor(obj):  # nested sequence of 0-d tensors / arrays
        obj = _to_py(obj)
    if dt is None:
        try:
            return paddle.to_tensor(obj, place=dev)  # infers bool / int64 / float32 / complex64
        except Exception:
            return _from_numpy(np.asarray(obj), None, dev)
    if id(dt) in INEXACT or dt is bool_:
        # by name: paddle.to_tensor converts a dtype object back to its name first, slowly
        return paddle.to_tensor(obj, dtype=_NAME_OF_ID[id(dt)], place=dev)
    a = np.asarray(obj)
    if a.dtype.kind in "iu" and a.size:  # Python ints cast to an integer dtype would wrap around
        fits(int(a.min()), dt, "asarray")
        fits(int(a.max()), dt, "asarray")
    return paddle.cast(paddle.to_tensor(a, place=dev), dt)


def _has_tensor(obj: Any) -> bool:
    for v in obj:
        if isinstance(v, (list, tuple)):
            if _has_tensor(v):
                return True
        elif not isinstance(v, (bool, int, float, complex)):
            return True
    return False


def _to_py(obj: Any) -> Any:
    if isinstance(obj, (list, tuple)):
        return [_to_py(v) for v in obj]
    if isinstance(obj, Tensor):
        return obj.numpy().tolist()
    return np.asarray(obj).tolist() if not isinstance(obj, (bool, int, float, complex)) else obj


def _from_dlpack_nocopy(a: Any, dt: Any, dev: Any) -> Any:
    if dt is not None and NAME.get(dt) != getattr(getattr(a, "dtype", None), "name", None):
        raise ValueError("ivy.asarray: copy=False but a dtype change needs a copy")
    if dev is not None and not dev.is_cpu_place() if hasattr(dev, "is_cpu_place") else False:
        raise ValueError("ivy.asarray: copy=False but a device change needs a copy")
    if getattr(a, "dtype", None) is not None and a.dtype.name in _NP_UNSUPPORTED:
        raise unsupported(a.dtype.name, "asarray")
    try:
        return paddle.from_dlpack(a)
    except Exception as e:
        raise ValueError(f"ivy.asarray: copy=False but the data cannot be shared ({e})") from e


def _refuse_wide_unsigned(obj: Any, op: str) -> None:
    # DLPack uint16 would arrive as paddle.uint16, i.e. bfloat16 storage
    try:
        name = dtype_name(obj.dtype)
    except Exception:
        return
    if name in _NP_UNSUPPORTED:
        raise unsupported(name, op)


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
    if not hasattr(x, "__dlpack__"):
        raise AttributeError(f"{type(x).__name__} does not implement __dlpack__")
    _refuse_wide_unsigned(x, "from_dlpack")
    out = paddle.from_dlpack(x)
    if out.dtype not in NAME:
        raise unsupported(str(out.dtype), "from_dlpack")
    if device is not None:
        p = place(device)
        if str(out.place) != str(p):
            if copy is False:
                raise BufferError("ivy.from_dlpack: copy=False but the device differs")
            return out._copy_to(p, False)
    return out.clone() if copy else out
