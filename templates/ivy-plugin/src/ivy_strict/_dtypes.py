"""The library's dtypes by standard name."""

from __future__ import annotations

from typing import Any

import array_api_strict as xp

from ivy import dtype_name

DTYPES = {
    name: getattr(xp, name)
    for name in (
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


def name_of(dtype: Any) -> str:
    """The standard name of the library's dtype (or of any dtype form Ivy passes)."""
    for name, d in DTYPES.items():
        if d == dtype:
            return name
    return dtype_name(dtype)
