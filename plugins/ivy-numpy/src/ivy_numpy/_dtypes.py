"""NumPy dtypes by standard name, and the normaliser used wherever an op takes a dtype."""

from __future__ import annotations

from typing import Any

import numpy as np

DTYPES: dict[str, np.dtype] = {
    n: np.dtype(n)
    for n in (
        "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
        "float32", "float64", "complex64", "complex128",
    )
}


def native(dtype: Any) -> np.dtype | None:
    """``None`` stays None; names, ``ivy.DType`` and foreign dtypes become ``np.dtype``."""
    if dtype is None or isinstance(dtype, np.dtype):
        return dtype
    if isinstance(dtype, str):
        return DTYPES[dtype] if dtype in DTYPES else np.dtype(dtype)
    from ivy import dtype_name

    return DTYPES[dtype_name(dtype)]
