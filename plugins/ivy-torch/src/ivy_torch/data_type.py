"""Data type functions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch

from ivy.plugin_kit import DTYPE_KINDS as KINDS

from ._dtypes import COMPLEX, INTS, NAME, PARTIAL, STD_PROMOTE, c64, c128, f32, f64, native, promote, scalar_dtype
from ._dtypes import device as _dev
from ._helpers import Tensor

__all__ = ["astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"]


def astype(x: Tensor, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Tensor:
    dtype = native(dtype)
    if device is not None:
        device = _dev(device)
    if x.dtype in COMPLEX and dtype not in COMPLEX and dtype is not torch.bool:
        # torch silently drops the imaginary part; the standard rejects the cast
        raise TypeError(f"astype: cannot cast {NAME[x.dtype]} to {NAME[dtype]}; take real() or imag() first")
    if x.dtype in PARTIAL or dtype in PARTIAL:
        out = x.to(device=device) if device is not None else x
        return out.to(dtype, copy=copy and out is x)
    return x.to(device=device, dtype=dtype, copy=copy)


def _dt(v: Any) -> torch.dtype:
    return v.dtype if isinstance(v, Tensor) else native(v)


def can_cast(from_: Tensor | Any, to: Any, /) -> bool:
    f, t = _dt(from_), native(to)
    return f is t or STD_PROMOTE.get((f, t)) is t


@dataclass(frozen=True)
class finfo_object:
    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: torch.dtype


@dataclass(frozen=True)
class iinfo_object:
    bits: int
    max: int
    min: int
    dtype: torch.dtype


_FINFO: dict[torch.dtype, finfo_object] = {}
_IINFO: dict[torch.dtype, iinfo_object] = {}


def finfo(type: Tensor | Any, /) -> finfo_object:
    d = _dt(type)
    got = _FINFO.get(d)
    if got is None:
        real = {c64: f32, c128: f64}.get(d, d)
        if real not in (f32, f64):
            raise TypeError(f"finfo: {NAME.get(d, d)} is not a floating-point dtype")
        fi = torch.finfo(real)
        got = _FINFO[d] = finfo_object(
            fi.bits, float(fi.eps), float(fi.max), float(fi.min), float(fi.smallest_normal), real
        )
    return got


def iinfo(type: Tensor | Any, /) -> iinfo_object:
    d = _dt(type)
    got = _IINFO.get(d)
    if got is None:
        if d not in INTS:
            raise TypeError(f"iinfo: {NAME.get(d, d)} is not an integer dtype")
        ii = torch.iinfo(d)
        got = _IINFO[d] = iinfo_object(ii.bits, int(ii.max), int(ii.min), d)
    return got


def _matches(name: str, kind: Any) -> bool:
    if isinstance(kind, str):
        kinds = KINDS.get(kind)
        if kinds is not None:
            return name in kinds
        if kind in NAME.values():
            return name == kind
        raise ValueError(f"isdtype: unknown kind {kind!r}")
    if isinstance(kind, torch.dtype):
        return NAME.get(kind) == name
    if isinstance(kind, tuple):
        return any(_matches(name, k) for k in kind)
    return NAME.get(native(kind)) == name


def isdtype(dtype: Any, kind: Any) -> bool:
    d = native(dtype)
    name = NAME.get(d)
    if name is None:
        return False
    return _matches(name, kind)


def result_type(*arrays_and_dtypes: Any) -> torch.dtype:
    dt: torch.dtype | None = None
    scalars = []
    for a in arrays_and_dtypes:
        if isinstance(a, (bool, int, float, complex)):
            scalars.append(a)
            continue
        d = _dt(a)
        dt = d if dt is None else promote(dt, d)
    if dt is None:
        raise ValueError("result_type: at least one array or dtype is required")
    for s in scalars:
        dt = promote(dt, scalar_dtype(s, dt))
    return dt
