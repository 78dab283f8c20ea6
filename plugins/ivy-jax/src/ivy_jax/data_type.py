"""Data type functions, following the standard's promotion table rather than JAX's lattice."""

from __future__ import annotations

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from ivy.plugin_kit import DTYPE_KINDS as KINDS

from ._dtypes import _CACHE, copy_of, native, put, real_of
from ._dtypes import device as _device

__all__ = ["astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"]

_Array = jax.Array


def astype(x: jax.Array, dtype: Any, /, *, copy: bool = True, device: Any = None) -> jax.Array:
    dt = _CACHE.get(dtype) or native(dtype, "astype")
    xd = x.dtype
    if xd == dt:
        out = copy_of(x) if copy else x  # JAX arrays are immutable: copy only on request
    else:
        if xd.kind == "c" and dt.kind != "c":
            # The standard says complex -> real/bool should be rejected; JAX would drop the imaginary part.
            raise TypeError(f"astype: cannot cast {xd} to {dt}; take real(x) or imag(x) first")
        out = x.astype(dt)
    if device is not None:
        out = put(out, _device(device))
    return out


_ORDER = (
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float32",
    "float64",
    "complex64",
    "complex128",
)
#: from -> the dtypes it may be cast to under the standard's type-promotion rules.
_CAN_CAST: dict[str, frozenset[str]] = {
    "bool": frozenset({"bool"}),
    "int8": frozenset({"int8", "int16", "int32", "int64"}),
    "int16": frozenset({"int16", "int32", "int64"}),
    "int32": frozenset({"int32", "int64"}),
    "int64": frozenset({"int64"}),
    "uint8": frozenset({"uint8", "uint16", "uint32", "uint64", "int16", "int32", "int64"}),
    "uint16": frozenset({"uint16", "uint32", "uint64", "int32", "int64"}),
    "uint32": frozenset({"uint32", "uint64", "int64"}),
    "uint64": frozenset({"uint64"}),
    "float32": frozenset({"float32", "float64", "complex64", "complex128"}),
    "float64": frozenset({"float64", "complex128"}),
    "complex64": frozenset({"complex64", "complex128"}),
    "complex128": frozenset({"complex128"}),
}


def _name(dtype: Any) -> str:
    """Standard name of a dtype or an array's dtype, without refusing 64-bit ones."""
    d = _CACHE.get(dtype) if not isinstance(dtype, _Array) else dtype.dtype
    if d is not None:
        return d.name
    if isinstance(dtype, np.dtype):
        return dtype.name
    dt = getattr(dtype, "dtype", None)  # arrays of other libraries
    from ivy import dtype_name

    return dtype_name(dt if dt is not None and not isinstance(dtype, type) else dtype)


def can_cast(from_: Any, to: Any, /) -> bool:
    src = _name(from_)
    dst = _name(to)
    allowed = _CAN_CAST.get(src)
    if allowed is None:  # float16 / bfloat16: defer to JAX
        return bool(jnp.can_cast(native(src), native(dst)))
    return dst in allowed


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


_FINFO: dict[np.dtype, finfo_object] = {}
_IINFO: dict[np.dtype, iinfo_object] = {}


def finfo(type: Any, /) -> finfo_object:
    dt = type.dtype if isinstance(type, _Array) else np.dtype(_name(type))  # limits need no x64
    got = _FINFO.get(dt)
    if got is None:
        if dt.kind not in "fc":
            raise ValueError(f"finfo: {dt} is not a floating-point dtype")
        r = real_of(dt)
        fi = jnp.finfo(r)
        got = finfo_object(int(fi.bits), float(fi.eps), float(fi.max), float(fi.min), float(fi.smallest_normal), r)
        _FINFO[dt] = got
    return got


def iinfo(type: Any, /) -> iinfo_object:
    dt = type.dtype if isinstance(type, _Array) else np.dtype(_name(type))  # limits need no x64
    got = _IINFO.get(dt)
    if got is None:
        if dt.kind not in "iu":
            raise ValueError(f"iinfo: {dt} is not an integer dtype")
        ii = np.iinfo(dt)
        got = iinfo_object(int(ii.bits), int(ii.max), int(ii.min), dt)
        _IINFO[dt] = got
    return got


def _is(name: str, kind: Any) -> bool:
    if isinstance(kind, str):
        names = KINDS.get(kind)
        if names is not None:
            return name in names
    return name == _name(kind)


def isdtype(dtype: Any, kind: Any) -> bool:
    name = _name(dtype)
    if isinstance(kind, tuple):
        for k in kind:
            if _is(name, k):
                return True
        return False
    return _is(name, kind)


_PLAIN = (_Array, np.dtype, bool, int, float, complex)


def result_type(*arrays_and_dtypes: Any) -> Any:
    if not arrays_and_dtypes:
        raise ValueError("result_type needs at least one array or dtype")
    args = [a if isinstance(a, _PLAIN) else native(a, "result_type") for a in arrays_and_dtypes]
    for a in args:
        if isinstance(a, np.dtype):
            native(a, "result_type")  # refuse 64-bit dtypes while x64 is off
    return jnp.result_type(*args)
