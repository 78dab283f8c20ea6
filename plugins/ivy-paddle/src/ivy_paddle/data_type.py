"""Data type functions: casting and dtype introspection, on paddle dtypes."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ivy.plugin_kit import DTYPE_KINDS as KINDS
from ivy.plugin_kit import promote_types

from ._dtypes import COMPLEX, NAME, PDTYPE, PROMOTE, REAL_OF, native, scalar_dtype
from ._framework import Tensor, paddle
from ._helpers import to_device

__all__ = ["astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"]


def astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
    dt = dtype if type(dtype) is PDTYPE else native(dtype, "astype")
    if x.dtype is dt:
        out = x.clone() if copy else x
    else:
        if id(x.dtype) in COMPLEX and id(dt) not in COMPLEX:
            # paddle would silently drop the imaginary part; the standard rejects this cast
            raise TypeError("ivy.astype: cannot cast complex to a real dtype; take real() or imag() first")
        out = paddle.cast(x, dt)
    return out if device is None else to_device(out, device)


def _dt(v: Any) -> Any:
    return v.dtype if isinstance(v, Tensor) else native(v, "can_cast")


def can_cast(from_: Any, to: Any, /) -> bool:
    f, t = _dt(from_), native(to, "can_cast")
    if f == t:
        return True
    try:  # the standard's own promotion table, as core defines it
        return promote_types(NAME[f], NAME[t], standard=True) == NAME[t]
    except (KeyError, TypeError, ValueError):  # a pair the standard does not promote
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


def finfo(type: Any, /) -> finfo_object:
    dt = _dt(type)
    name = NAME.get(dt) or str(dt).rpartition(".")[2]
    if id(dt) in COMPLEX:
        dt = REAL_OF[dt]
        name = NAME[dt]
    if name == "bfloat16":
        f = paddle.finfo(dt)
        return finfo_object(f.bits, float(f.eps), float(f.max), float(f.min), float(f.smallest_normal), dt)
    try:
        f = np.finfo(np.dtype(name))
    except (TypeError, ValueError):
        raise TypeError(f"ivy.finfo: {type!r} is not a floating-point dtype") from None
    return finfo_object(int(f.bits), float(f.eps), float(f.max), float(f.min), float(f.smallest_normal), dt)


def iinfo(type: Any, /) -> iinfo_object:
    dt = _dt(type)
    name = NAME.get(dt)
    try:
        i = np.iinfo(np.dtype(name)) if name and name != "bool" else None
    except (TypeError, ValueError):
        i = None
    if i is None:
        raise TypeError(f"ivy.iinfo: {type!r} is not an integer dtype")
    return iinfo_object(int(i.bits), int(i.max), int(i.min), dt)


def _name(dtype: Any) -> str:
    if type(dtype) is PDTYPE:
        n = NAME.get(dtype)
        return n if n is not None else str(dtype).rpartition(".")[2]
    from ivy import dtype_name

    return dtype_name(dtype)


def isdtype(dtype: Any, kind: Any) -> bool:
    name = _name(dtype)
    if isinstance(kind, tuple):
        return any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, str) and type(kind) is not PDTYPE and kind in KINDS:
        if name in ("float16", "bfloat16"):
            return kind in ("real floating", "numeric")
        return name in KINDS[kind]
    if isinstance(kind, str) or type(kind) is PDTYPE or kind is not None:
        try:
            return name == _name(kind)
        except TypeError:
            raise ValueError(f"ivy.isdtype: unknown kind {kind!r}") from None
    raise ValueError(f"ivy.isdtype: unknown kind {kind!r}")


def result_type(*arrays_and_dtypes: Any) -> Any:
    dt = None
    scalars = []
    for a in arrays_and_dtypes:
        if isinstance(a, (bool, int, float, complex)) and not isinstance(a, PDTYPE):
            scalars.append(a)
            continue
        d = a.dtype if isinstance(a, Tensor) else native(a, "result_type")
        dt = d if dt is None else PROMOTE.get((dt, d)) or _fail(dt, d)
    if dt is None:
        raise TypeError("ivy.result_type: at least one array or dtype is required")
    for s in scalars:  # Python scalars take part last, as in mixed array/scalar operations
        dt = scalar_dtype(s, dt)
    return dt


def _fail(a: Any, b: Any) -> Any:
    raise TypeError(f"ivy.result_type: cannot promote {a} and {b}")
