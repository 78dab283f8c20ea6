"""Creation functions."""

from __future__ import annotations

import math
from typing import Any

import torch

from ivy.plugin_kit import composed, fastpath

from ._dtypes import PARTIAL, c64, c128, f64, i64, native
from ._dtypes import device as _dev
from ._helpers import Tensor, viewcall

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


def arange(
    start: int | float,
    /,
    stop: int | float | None = None,
    step: int | float = 1,
    *,
    dtype: Any = None,
    device: Any = None,
) -> Tensor:
    if dtype is not None:
        dtype = native(dtype)
    if device is not None:
        device = _dev(device)
    if stop is None:
        start, stop = 0, start
    try:  # torch infers the standard's dtype (int64 for ints, else the default float)
        return torch.arange(start, stop, step, dtype=dtype, device=device)
    except (RuntimeError, NotImplementedError):  # an empty range, a zero step, uint16/32/64
        pass
    n = math.ceil((stop - start) / step) if step else 0
    if n <= 0:  # torch raises when the step points away from stop; the standard gives []
        if step == 0:
            raise ValueError("arange: step must not be zero")
        if dtype is None:
            dtype = i64 if all(isinstance(v, int) for v in (start, stop, step)) else torch.get_default_dtype()
        return torch.empty(0, dtype=dtype, device=device)
    if dtype in PARTIAL:  # torch has no arange kernel for uint16/32/64
        return torch.arange(start, stop, step, dtype=i64, device=device).to(dtype)
    return torch.arange(start, stop, step, dtype=dtype, device=device)


_PY_DATA = frozenset((list, tuple, float, int, bool, complex))


def _from_foreign(obj: Any) -> Tensor:
    """A tensor from another library's array: DLPack when possible, NumPy otherwise."""
    import numpy as np

    if isinstance(obj, (np.ndarray, np.generic)):
        a = np.asarray(obj)
        if not a.dtype.isnative:
            a = a.astype(a.dtype.newbyteorder("="))  # torch.from_numpy wants native byte order
        elif not a.flags.writeable:
            a = np.array(a)  # ... and writable memory
        return torch.from_numpy(a)
    if hasattr(obj, "__dlpack__"):
        try:
            return torch.from_dlpack(obj)
        except Exception:  # e.g. a bool array over an old DLPack: go through NumPy
            pass
    if hasattr(obj, "__array__") or hasattr(obj, "__array_interface__"):
        return torch.from_numpy(np.array(obj))
    try:
        mv = memoryview(obj)  # buffer protocol
    except TypeError:
        return None  # type: ignore[return-value]
    return torch.from_numpy(np.array(mv))


def asarray(
    obj: Any,
    /,
    *,
    dtype: Any = None,
    device: Any = None,
    copy: bool | None = None,
) -> Tensor:
    if dtype is not None and type(dtype) is not torch.dtype:
        dtype = native(dtype)
    if device is not None:
        device = _dev(device)
    elif copy is not False and type(obj) in _PY_DATA and dtype not in PARTIAL:
        try:  # the common call: Python numbers or nested lists on the default device
            return torch.tensor(obj) if dtype is None else torch.tensor(obj, dtype=dtype)
        except (TypeError, ValueError, RuntimeError):  # lists holding arrays, ...: below
            pass
    if isinstance(obj, Tensor):
        return _adapt(obj, dtype, device, copy)
    if isinstance(obj, (bool, int, float, complex, list, tuple)):
        if copy is False:
            raise ValueError("asarray: copy=False is impossible for Python scalars and sequences")
        return _from_python(obj, dtype, device)
    t = _from_foreign(obj)
    if t is None:
        if copy is False:
            raise ValueError("asarray: copy=False is impossible for this object")
        return _from_python(obj, dtype, device)
    return _adapt(t, dtype, device, copy)


def _adapt(t: Tensor, dtype: Any, device: Any, copy: bool | None) -> Tensor:
    """Apply dtype/device/copy to a tensor; copy=False raises when a copy is unavoidable."""
    need_dt = dtype is not None and dtype is not t.dtype
    need_dev = device is not None and device != t.device
    if need_dt or need_dev:
        if copy is False:
            raise ValueError("asarray: copy=False but the dtype or device requires a copy")
        return t.to(device=device, dtype=dtype)
    if copy:
        return t.clone()
    return t


def _from_python(obj: Any, dtype: Any, device: Any) -> Tensor:
    if dtype is None:
        try:
            return torch.tensor(obj, device=device)
        except (TypeError, ValueError, RuntimeError):
            pass
        # a sequence holding arrays (or scalars of other libraries): stack them
        return (
            torch.stack([asarray(o, device=device) for o in obj])
            if isinstance(obj, (list, tuple)) and obj
            else torch.as_tensor(obj, device=device)
        )
    if dtype in PARTIAL:
        try:
            return torch.tensor(obj, dtype=dtype, device=device)
        except (TypeError, RuntimeError):
            return torch.tensor(obj, device=device).to(dtype)
    try:
        return torch.tensor(obj, dtype=dtype, device=device)
    except (TypeError, ValueError, RuntimeError):
        if isinstance(obj, (list, tuple)) and obj:
            return torch.stack([asarray(o, dtype=dtype, device=device) for o in obj])
        raise


def empty(shape: int | tuple[int, ...], *, dtype: Any = None, device: Any = None) -> Tensor:
    if dtype is not None:
        dtype = native(dtype)
    if device is not None:
        device = _dev(device)
    return torch.empty(shape, dtype=dtype, device=device)


def empty_like(x: Tensor, /, *, dtype: Any = None, device: Any = None) -> Tensor:
    if dtype is not None:
        dtype = native(dtype)
    if device is not None:
        device = _dev(device)
    return torch.empty_like(x, dtype=dtype, device=device)


def eye(
    n_rows: int,
    n_cols: int | None = None,
    /,
    *,
    k: int = 0,
    dtype: Any = None,
    device: Any = None,
) -> Tensor:
    if dtype is not None and type(dtype) is not torch.dtype:
        dtype = native(dtype)
    if device is not None:
        device = _dev(device)
    if k == 0 and dtype not in PARTIAL:
        if n_cols is None:
            if device is None:
                return torch.eye(n_rows, dtype=dtype)
            return torch.eye(n_rows, dtype=dtype, device=device)
        return torch.eye(n_rows, n_cols, dtype=dtype, device=device)
    if n_cols is None:
        n_cols = n_rows
    out = torch.zeros((n_rows, n_cols), dtype=dtype, device=device)
    if -n_rows < k < n_cols:  # (a diagonal outside the matrix, even beyond int64, is empty)
        out.diagonal(k).fill_(1)  # torch.eye has no diagonal offset
    return out


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> Tensor:
    if device is not None:
        device = _dev(device)
    try:
        t = torch.from_dlpack(x)
    except (BufferError, AttributeError):
        raise
    except Exception as e:  # torch raises RuntimeError/TypeError for what the standard calls BufferError
        raise BufferError(f"from_dlpack: torch could not import {type(x).__name__}: {e}") from e
    if device is not None and device != t.device:
        if copy is False:
            raise ValueError("from_dlpack: copy=False but the device requires a copy")
        return t.to(device)
    if copy:
        return t.clone()
    return t


def full(
    shape: int | tuple[int, ...],
    fill_value: bool | int | float | complex,
    *,
    dtype: Any = None,
    device: Any = None,
) -> Tensor:
    if device is not None:
        device = _dev(device)
    if isinstance(shape, int):
        shape = (shape,)
    if dtype is not None:
        dtype = native(dtype)
        if dtype in PARTIAL and isinstance(fill_value, int) and fill_value < 0:
            return torch.full(shape, fill_value, dtype=i64, device=device).to(dtype)
    elif isinstance(fill_value, complex):  # torch.full would pick complex64 regardless
        dtype = c128 if torch.get_default_dtype() is f64 else c64
    return torch.full(shape, fill_value, dtype=dtype, device=device)


@fastpath(torch.full_like, nargs=2)
def full_like(
    x: Tensor,
    /,
    fill_value: bool | int | float | complex,
    *,
    dtype: Any = None,
    device: Any = None,
) -> Tensor:
    if dtype is not None:
        dtype = native(dtype)
    if device is not None:
        device = _dev(device)
    return torch.full_like(x, fill_value, dtype=dtype, device=device)


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
) -> Tensor:
    if isinstance(start, Tensor) or isinstance(stop, Tensor):  # torch takes 0-d endpoints only
        return _linspace_arrays(start, stop, num, dtype=dtype, device=device, endpoint=endpoint, axis=axis)
    if axis not in (0, -1):
        raise ValueError(f"linspace: axis must be 0 or -1 for scalar endpoints, got {axis}")
    if device is not None:
        device = _dev(device)
    if dtype is None:
        if isinstance(start, complex) or isinstance(stop, complex):
            dtype = c128 if torch.get_default_dtype() is f64 else c64
        else:
            dtype = torch.get_default_dtype()
    else:
        dtype = native(dtype)
    if endpoint:
        return torch.linspace(start, stop, num, dtype=dtype, device=device)
    if num == 0:
        return torch.empty(0, dtype=dtype, device=device)
    # no endpoint: split into num + 1 points and drop the last
    return torch.linspace(start, stop, num + 1, dtype=dtype, device=device)[:-1].clone()


_linspace_arrays = composed("linspace", "torch")


def meshgrid(*arrays: Tensor, indexing: str = "xy") -> list[Tensor]:
    if indexing != "ij" and indexing != "xy":
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
    if not arrays:
        return []
    return list(torch.meshgrid(*arrays, indexing=indexing))  # a 0-d input counts as one element


def ones(shape: int | tuple[int, ...], *, dtype: Any = None, device: Any = None) -> Tensor:
    if dtype is not None:
        dtype = native(dtype)
    if device is not None:
        device = _dev(device)
    return torch.ones(shape, dtype=dtype, device=device)


@fastpath(torch.ones_like, nargs=1)  # x's dtype and device, as the standard
def ones_like(x: Tensor, /, *, dtype: Any = None, device: Any = None) -> Tensor:
    if dtype is not None:
        dtype = native(dtype)
    if device is not None:
        device = _dev(device)
    return torch.ones_like(x, dtype=dtype, device=device)


def zeros(shape: int | tuple[int, ...], *, dtype: Any = None, device: Any = None) -> Tensor:
    if device is None and (dtype is None or type(dtype) is torch.dtype):  # no device= to parse
        return torch.zeros(shape, dtype=dtype)
    if dtype is not None:
        dtype = native(dtype)
    if device is not None:
        device = _dev(device)
    return torch.zeros(shape, dtype=dtype, device=device)


@fastpath(torch.zeros_like, nargs=1)  # x's dtype and device, as the standard
def zeros_like(x: Tensor, /, *, dtype: Any = None, device: Any = None) -> Tensor:
    if dtype is not None:
        dtype = native(dtype)
    if device is not None:
        device = _dev(device)
    return torch.zeros_like(x, dtype=dtype, device=device)


def tril(x: Tensor, /, *, k: int = 0) -> Tensor:
    try:
        return torch.tril(x, k)
    except NotImplementedError:  # uint16/32/64: through the same-width signed view
        return viewcall(torch.tril, x, k)


def triu(x: Tensor, /, *, k: int = 0) -> Tensor:
    try:
        return torch.triu(x, k)
    except NotImplementedError:
        return viewcall(torch.triu, x, k)
