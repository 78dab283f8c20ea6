"""Data type functions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import tensorflow as tf
from tensorflow.python.ops import gen_array_ops as ga
from tensorflow.python.ops import gen_math_ops as gm

from ivy.plugin_kit import promote_types

from . import _dtypes as D
from ._helpers import SCALARS, to_device, truth

__all__ = ["astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"]

_native = D.native


def astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
    dtype = _native(dtype)
    d = x.dtype
    if d is dtype or d == dtype:
        out = ga.identity(x) if copy else x
    elif dtype is D.BOOL:
        out = truth(x)  # on the bits for floats: TF's Cast flushes subnormals to zero
    elif d in D.COMPLEX and dtype not in D.COMPLEX:
        raise TypeError("astype: casting complex to a real dtype is not allowed; take real() or imag() first")
    else:
        out = gm.cast(x, dtype)
    return out if device is None else to_device(out, device)


def _dt(x: Any) -> tf.DType:
    if isinstance(x, (tf.Tensor, tf.Variable)):
        return x.dtype
    return _native(x)


def can_cast(from_: Any, to: Any, /) -> bool:
    a, b = _dt(from_), _native(to)
    if a == b:
        return True
    try:  # the standard's own promotion table, as core defines it
        return promote_types(a.name, b.name, standard=True) == b.name
    except (TypeError, ValueError):  # a pair the standard does not promote
        return False


@dataclass(frozen=True)
class finfo_object:
    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: Any


@dataclass(frozen=True)
class iinfo_object:
    bits: int
    max: int
    min: int
    dtype: Any


def finfo(type: Any, /) -> finfo_object:
    d = _dt(type)
    if d not in D.FLOATS:
        raise TypeError(f"finfo needs a floating-point dtype, got {d.name}")
    r = D.REAL_OF[d]
    f = np.finfo(r.as_numpy_dtype)
    return finfo_object(int(f.bits), float(f.eps), float(f.max), float(f.min), float(f.smallest_normal), r)


def iinfo(type: Any, /) -> iinfo_object:
    d = _dt(type)
    if d not in D.INTS:
        raise TypeError(f"iinfo needs an integer dtype, got {d.name}")
    i = np.iinfo(d.as_numpy_dtype)
    return iinfo_object(int(i.bits), int(i.max), int(i.min), d)


_KINDS = {
    "bool": frozenset({D.BOOL}),
    "signed integer": D.SIGNED,
    "unsigned integer": D.UNSIGNED,
    "integral": D.INTS,
    "real floating": D.REALF,
    "complex floating": D.COMPLEX,
    "numeric": D.NUMERIC,
}


def isdtype(dtype: Any, kind: Any) -> bool:
    d = _native(dtype)
    if isinstance(kind, tuple):
        return any(isdtype(d, k) for k in kind)
    if isinstance(kind, str) and kind in _KINDS:
        return d in _KINDS[kind]
    if isinstance(kind, str) and " " in kind:
        raise ValueError(f"isdtype: unknown kind {kind!r}")
    return d == _native(kind)


def result_type(*arrays_and_dtypes: Any) -> tf.DType:
    dtypes = []
    scalars = []
    for a in arrays_and_dtypes:
        if isinstance(a, SCALARS):
            scalars.append(a)
        else:
            dtypes.append(_dt(a))
    if not dtypes:
        raise ValueError("result_type needs at least one array or dtype")
    d = dtypes[0]
    for other in dtypes[1:]:
        d = D.promote(d, other)
    for s in scalars:
        d = D.scalar_dtype(d, s)
    return d
