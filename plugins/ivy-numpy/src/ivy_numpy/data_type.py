"""Data type functions."""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

import numpy as np

from ivy.plugin_kit import result_type_name

from ._dtypes import CAN_CAST, KINDS, native

__all__ = ["astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"]

_DEFAULTS = {"integral": "int64", "real floating": "float64", "complex floating": "complex128"}


def result_type(*arrays_and_dtypes: Any) -> np.dtype:
    # core's promotion: NumPy's agrees where the standard defines it (NEP 50: Python scalars are
    # weak), not for an integer with a floating-point dtype (NumPy: int64 + float32 is float64)
    names, scalars = [], []
    for a in arrays_and_dtypes:
        if isinstance(a, (bool, int, float, complex)):
            scalars.append(a)
        else:
            names.append((a.dtype if isinstance(a, (np.ndarray, np.generic)) else native(a)).name)
    if not names:
        return np.result_type(*arrays_and_dtypes)
    return np.dtype(result_type_name(*names, scalars=tuple(scalars), defaults=_DEFAULTS))


def astype(x: np.ndarray, dtype: Any, /, *, copy: bool = True, device: Any = None) -> np.ndarray:
    if x.dtype.kind == "c" and native(dtype).kind != "c":
        # NumPy drops the imaginary part with a warning; the standard rejects the cast.
        raise TypeError(f"astype: cannot cast {x.dtype} to {dtype}; take real() or imag() first")
    if device is None:
        return x.astype(dtype, copy=copy)  # np.astype's own call, without its checks
    return np.astype(x, dtype, copy=copy, device=device)


def can_cast(from_: Any, to: Any, /) -> bool:
    # np.can_cast allows cross-kind casts (bool -> int8, int64 -> float64); the standard does not.
    f = from_.dtype if isinstance(from_, (np.ndarray, np.generic)) else native(from_)
    t = native(to)
    got = CAN_CAST.get((f, t))
    return np.can_cast(f, t) if got is None else got  # dtypes outside the standard: NumPy's rule


class finfo_object(NamedTuple):
    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: np.dtype


class iinfo_object(NamedTuple):
    bits: int
    max: int
    min: int
    dtype: np.dtype


@cache
def _finfo(dt: np.dtype) -> finfo_object:
    fi = np.finfo(dt)
    # The standard wants Python floats; NumPy gives NumPy scalars.
    return finfo_object(fi.bits, float(fi.eps), float(fi.max), float(fi.min), float(fi.smallest_normal), fi.dtype)


@cache
def _iinfo(dt: np.dtype) -> iinfo_object:
    ii = np.iinfo(dt)
    return iinfo_object(ii.bits, int(ii.max), int(ii.min), ii.dtype)


def finfo(type: Any, /) -> finfo_object:
    # np.finfo does not accept arrays.
    return _finfo(type.dtype if isinstance(type, (np.ndarray, np.generic)) else native(type))


def iinfo(type: Any, /) -> iinfo_object:
    return _iinfo(type.dtype if isinstance(type, (np.ndarray, np.generic)) else native(type))


def isdtype(dtype: Any, kind: Any) -> bool:
    # np.isdtype accepts only np.dtype objects (a dtype name gives a wrong False).
    if type(dtype) is not np.dtype:
        dtype = native(dtype)
    if isinstance(kind, tuple):
        return any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, str):
        got = KINDS.get(kind)
        if got is not None:
            return dtype in got
    return dtype == native(kind)
