"""NumPy dtypes by standard name, the normaliser used wherever an op takes a dtype, and the
standard's casting table (``can_cast``) and dtype kinds (``isdtype``)."""

from __future__ import annotations

from typing import Any, overload

import numpy as np

from ivy import DType
from ivy.plugin_kit import by_dtype_constant

DTYPES: dict[str, np.dtype] = {
    n: np.dtype(n)
    for n in (
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
}
SUPPORTED = frozenset(DTYPES.values())

_SIGNED = ("int8", "int16", "int32", "int64")
_UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
_REAL = ("float32", "float64")
_COMPLEX = ("complex64", "complex128")

#: ``isdtype`` kind name -> the set of NumPy dtypes it covers.
KINDS: dict[str, frozenset[np.dtype]] = {
    k: frozenset(DTYPES[n] for n in names)
    for k, names in {
        "bool": ("bool",),
        "signed integer": _SIGNED,
        "unsigned integer": _UNSIGNED,
        "integral": _SIGNED + _UNSIGNED,
        "real floating": _REAL,
        "complex floating": _COMPLEX,
        "numeric": _SIGNED + _UNSIGNED + _REAL + _COMPLEX,
    }.items()
}


#: ``ivy.float32`` -> the native dtype...: found by identity (in DTYPES, an ``ivy.DType`` key
#: compares through its Python ``__eq__``)
_BY_CONSTANT = by_dtype_constant(DTYPES)


@overload
def native(dtype: None) -> None: ...
@overload
def native(dtype: Any) -> np.dtype: ...


def native(dtype: Any) -> np.dtype | None:
    """``None`` stays None; names, ``ivy.DType``, scalar types and foreign dtypes become ``np.dtype``."""
    if type(dtype) is DType:  # (first: isinstance against np.dtype's metaclass costs ~0.15 us)
        got = _BY_CONSTANT.get(dtype)
        if got is not None:
            return got
    if dtype is None or isinstance(dtype, np.dtype):
        return dtype
    if isinstance(dtype, str):
        return DTYPES[dtype] if dtype in DTYPES else np.dtype(dtype)
    if isinstance(dtype, type) and issubclass(dtype, np.generic):
        return np.dtype(dtype)
    from ivy import dtype_name

    name = dtype_name(dtype)
    return DTYPES[name] if name in DTYPES else np.dtype(name)  # float16/bfloat16 stay NumPy's own


def _family(dt: np.dtype) -> str:
    # The standard only promotes within bool, within integers, and within floating (real+complex).
    return "b" if dt.kind == "b" else ("i" if dt.kind in "iu" else "f")


#: (from, to) -> whether the standard's promotion rules allow casting ``from`` to ``to``: same
#: family and ``result_type(from, to) == to`` (NumPy's own table agrees within a family, except
#: uint64 with a signed integer, which NumPy sends to float64, i.e. "not allowed" here as well).
CAN_CAST: dict[tuple[np.dtype, np.dtype], bool] = {
    (a, b): _family(a) == _family(b) and np.result_type(a, b) == b for a in SUPPORTED for b in SUPPORTED
}
