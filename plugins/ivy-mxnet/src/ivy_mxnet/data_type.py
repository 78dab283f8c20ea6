"""Data type functions over MXNet's dtypes (NumPy dtype objects), by the standard's rules."""

from __future__ import annotations

from typing import Any, NamedTuple

from ivy.plugin_kit import DTYPE_KINDS, promote_types, result_type_name

from ._dtypes import DEFAULT_FLOAT, DEFAULT_INT, DTYPES, NAME, native
from ._framework import Array, onp
from ._helpers import to_ctx

__all__ = ["astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"]


def astype(x: Array, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Array:
    dt = native(dtype, "astype")
    out = x.astype(dt) if x.dtype != dt else (x.copy() if copy else x)
    if device is not None:
        ctx = to_ctx(device)
        if ctx != out.ctx:
            out = out.as_in_context(ctx)
    return out


def _dt(v: Any, op: str) -> Any:
    return v.dtype if isinstance(v, Array) else native(v, op)


def can_cast(from_: Array | Any, to: Any, /) -> bool:
    f, t = _dt(from_, "can_cast"), native(to, "can_cast")
    if f == t:
        return True
    try:  # the standard's own promotion table (core's): a cast is safe where promotion lands on `to`
        return promote_types(NAME[f], NAME[t], standard=True) == NAME[t]
    except (KeyError, TypeError, ValueError):
        return False


class finfo_object(NamedTuple):
    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: Any


class iinfo_object(NamedTuple):
    bits: int
    max: int
    min: int
    dtype: Any


def finfo(type: Array | Any, /) -> finfo_object:  # the spec's name
    dt = _dt(type, "finfo")
    if dt.kind != "f":
        raise TypeError(f"ivy.finfo: {dt} is not a floating-point dtype")
    f = onp.finfo(dt)
    return finfo_object(int(f.bits), float(f.eps), float(f.max), float(f.min), float(f.smallest_normal), dt)


def iinfo(type: Array | Any, /) -> iinfo_object:  # the spec's name
    dt = _dt(type, "iinfo")
    if dt.kind not in "iu":
        raise TypeError(f"ivy.iinfo: {dt} is not an integer dtype")
    i = onp.iinfo(dt)
    return iinfo_object(int(i.bits), int(i.max), int(i.min), dt)


def isdtype(dtype: Any, kind: Any) -> bool:
    dt = native(dtype, "isdtype")
    if isinstance(kind, tuple):
        return any(isdtype(dt, k) for k in kind)
    if isinstance(kind, str) and kind in DTYPE_KINDS:
        return NAME.get(dt) in DTYPE_KINDS[kind]
    return bool(dt == native(kind, "isdtype"))


_DEFAULTS = {"integral": NAME[DEFAULT_INT], "real floating": NAME[DEFAULT_FLOAT], "complex floating": "complex64"}


def result_type(*arrays_and_dtypes: Array | Any) -> Any:
    names, scalars = [], []
    for a in arrays_and_dtypes:
        if isinstance(a, (bool, int, float, complex)):
            scalars.append(a)
        else:
            names.append(NAME.get(_dt(a, "result_type")) or onp.dtype(_dt(a, "result_type")).name)
    name = result_type_name(*names, scalars=tuple(scalars), defaults=_DEFAULTS)
    got = DTYPES.get(name)
    if got is None:
        # a standard dtype MXNet lacks (int8 with uint8 gives int16): named by NumPy's dtype
        # object; making an array of it raises UnsupportedDTypeError
        return onp.dtype(name)
    return got
