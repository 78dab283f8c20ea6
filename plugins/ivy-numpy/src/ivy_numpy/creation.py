"""Creation functions. NumPy 2 takes ``device=`` ("cpu" only: NumPy has no other device, and it
raises ValueError for any other) and dtype names, so most are aliases."""

from __future__ import annotations

from typing import Any, Literal, NoReturn

import numpy as np

from ._dtypes import DTYPES, SUPPORTED, native

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

arange = np.arange
empty = np.empty
empty_like = np.empty_like
from_dlpack = np.from_dlpack
full_like = np.full_like
linspace = np.linspace
ones = np.ones
ones_like = np.ones_like
tril = np.tril
triu = np.triu
zeros = np.zeros
zeros_like = np.zeros_like

_PYTHON = frozenset({bool, int, float, complex, list, tuple})
_NUMPY = (np.ndarray, np.generic)


def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None, copy: bool | None = None) -> np.ndarray:
    t = type(obj)
    if t is np.ndarray:
        if dtype is None and copy is None and device is None:
            return obj  # what np.asarray returns, without its keyword parsing
        return np.asarray(obj, dtype=dtype, device=device, copy=copy)
    if t in _PYTHON:
        # (positional: NumPy parses keywords slowly)
        if device is None and copy is None:
            res = np.asarray(obj, dtype)
        else:
            res = np.asarray(obj, dtype, copy=copy, device=device)
    elif not isinstance(obj, _NUMPY) and (hasattr(obj, "__dlpack__") or hasattr(obj, "__array__")):
        return _foreign(obj, dtype, device, copy)  # another framework's array
    else:
        res = np.asarray(obj, dtype=dtype, device=device, copy=copy)
    if res.dtype.kind == "O":  # NumPy keeps ints beyond uint64 (or odd objects) as object arrays
        err = OverflowError if t in _PYTHON else TypeError
        raise err(f"asarray: {obj!r} does not fit any dtype of the standard")
    return res


def _foreign(obj: Any, dtype: Any, device: Any, copy: bool | None) -> np.ndarray:
    if device is not None:
        np.empty(0, device=device)  # NumPy's own check: "cpu" is the only NumPy device
    src = _dtype_name(obj)
    if src is not None and src not in DTYPES and src != "float16":
        _unsupported(src, obj)  # e.g. bfloat16, which some exporters hand over as uint16 bits
    res = None
    if hasattr(obj, "__dlpack__"):
        for dev in (None, "cpu"):  # "cpu" asks an accelerator producer to move the data to the host
            try:
                res = np.from_dlpack(obj, device=dev, copy=False if copy is False else None)
                break
            except (BufferError, RuntimeError, TypeError, ValueError, AttributeError):
                pass
    if res is None:
        if copy is False:
            raise ValueError(f"asarray: cannot import a {type(obj).__name__} without a copy")
        try:
            # Through __array__; torch tensors that require grad refuse both protocols until detached.
            res = np.asarray(obj.detach() if hasattr(obj, "detach") else obj)
        except TypeError as e:
            _unsupported(src or "?", obj, e)
    if res.dtype not in SUPPORTED and res.dtype != np.float16 or (src is not None and res.dtype.name != src):
        _unsupported(src or res.dtype.name, obj)
    if dtype is not None and res.dtype != (dtype := native(dtype)):
        if copy is False:
            raise ValueError(f"asarray: casting {res.dtype} to {dtype} needs a copy, but copy=False")
        return res.astype(dtype)
    return res.copy() if copy else res  # a fresh, writeable array (JAX exports read-only buffers)


def _dtype_name(obj: Any) -> str | None:
    from ivy import dtype_name

    try:
        return dtype_name(obj.dtype)
    except (AttributeError, TypeError):
        return None


def _unsupported(name: str, obj: Any, cause: BaseException | None = None) -> NoReturn:
    from ivy.errors import UnsupportedDTypeError

    raise UnsupportedDTypeError(
        f"asarray: the NumPy backend has no dtype {name} (converting a {type(obj).__name__})"
    ) from cause


def eye(n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None, device: Any = None) -> np.ndarray:
    return np.eye(n_rows, n_cols, k, dtype, device=device)  # np.eye's dtype default is `float`, not None


def full(shape: int | tuple[int, ...], fill_value: Any, *, dtype: Any = None, device: Any = None) -> np.ndarray:
    if dtype is None and type(fill_value) is int and not -(2**63) <= fill_value < 2**64:
        # NumPy would make an object array of such an int.
        raise OverflowError(f"full: {fill_value} does not fit any integer dtype")
    return np.full(shape, fill_value, dtype=dtype, device=device)


def meshgrid(*arrays: np.ndarray, indexing: Literal["xy", "ij"] = "xy") -> list[np.ndarray]:
    return list(np.meshgrid(*arrays, indexing=indexing))  # NumPy 2 returns a tuple
