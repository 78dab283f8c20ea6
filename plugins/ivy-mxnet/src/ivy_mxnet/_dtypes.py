"""MXNet's dtypes by standard name, Ivy's promotion over them, and dtype normalisation.

``mxnet.numpy`` arrays carry NumPy dtype objects (``x.dtype == numpy.dtype("float32")``): those are
this backend's native dtypes. MXNet 1.9 has no int16, uint16, uint32, uint64 nor complex dtypes;
an op whose standard result has one of them raises ``ivy.errors.UnsupportedDTypeError``.
"""

from __future__ import annotations

from typing import Any

from ivy import dtype_name
from ivy.errors import UnsupportedDTypeError
from ivy.plugin_kit import promote_types

from ._framework import onp

NAMES = ("bool", "int8", "int32", "int64", "uint8", "float32", "float64")
DTYPES: dict[str, Any] = {n: onp.dtype(n) for n in NAMES}
NAME: dict[Any, str] = {v: k for k, v in DTYPES.items()}
LACKING = ("int16", "uint16", "uint32", "uint64", "complex64", "complex128")

bool_, int8, int32, int64, uint8, float32, float64 = (DTYPES[n] for n in NAMES)
INTS = frozenset((int8, int32, int64, uint8))
FLOATS = frozenset((float32, float64, onp.dtype("float16")))
NUMERIC = INTS | FLOATS

#: MXNet's defaults: float32 for floating point (as mxnet.numpy creates), int64 for integers
DEFAULT_FLOAT = float32
DEFAULT_INT = int64
INDEX = int64

#: core's promotion rules (written once, in core) as a table over the dtypes MXNet has; a pair
#: whose standard result MXNet lacks (int8 with uint8 -> int16) maps to that result's name
PROMOTE: dict[tuple[Any, Any], Any] = {}
for _a, _da in DTYPES.items():
    for _b, _db in DTYPES.items():
        _r = promote_types(_a, _b)
        PROMOTE[(_da, _db)] = DTYPES.get(_r, _r)


def unsupported(name: Any, op: str | None = None) -> UnsupportedDTypeError:
    where = f"ivy.{op}: " if op else ""
    return UnsupportedDTypeError(
        f"{where}the 'mxnet' backend has no {name} dtype (MXNet 1.9 has bool, int8, int32, int64, uint8, float32, "
        f"float64, and float16 outside the standard; no int16, no unsigned type wider than uint8, no complex type)"
    )


def native(dtype: Any, op: str | None = None) -> Any:
    """``None`` stays None; a name, an ``ivy.DType`` or a NumPy dtype becomes MXNet's dtype."""
    if dtype is None:
        return None
    if isinstance(dtype, onp.dtype):
        if dtype in NAME or dtype == onp.float16:
            return dtype
        raise unsupported(dtype.name, op)
    got = DTYPES.get(dtype) if isinstance(dtype, str) else None
    if got is not None:
        return got
    try:
        name = dtype_name(dtype)
    except (TypeError, ValueError):
        raise TypeError(f"{dtype!r} is not a dtype" + (f" (in ivy.{op})" if op else "")) from None
    got = DTYPES.get(name)
    if got is None:
        if name == "float16":
            return onp.dtype("float16")
        raise unsupported(name, op)
    return got


def promote(a: Any, b: Any, op: str) -> Any:
    """The dtype arrays of dtypes ``a`` and ``b`` promote to."""
    if a == b:
        return a
    try:
        r = PROMOTE[(a, b)]
    except KeyError:  # float16 (outside the standard): with a wider float or an int, as NumPy does
        r = onp.promote_types(a, b)
        if r not in NAME and r != onp.float16:
            raise unsupported(r.name, op) from None
        return r
    if isinstance(r, str):
        raise unsupported(r, op)
    return r


def scalar_dtype(value: Any, dt: Any) -> Any:
    """The dtype of an operation between an array of dtype ``dt`` and a Python scalar (weak)."""
    t = type(value)
    if t is bool:
        return dt
    if t is int:
        return DEFAULT_INT if dt == bool_ else dt
    if t is float:
        return dt if dt in FLOATS else DEFAULT_FLOAT
    if t is complex:
        raise unsupported("complex64")
    bases: tuple[type, ...] = (bool, int, float, complex)
    for base in bases:  # subclasses of Python scalars
        if isinstance(value, base):
            return scalar_dtype(base(value), dt)
    if isinstance(value, onp.generic):
        return promote(dt, onp.dtype(type(value)), "promotion")
    raise TypeError(f"expected an mxnet.numpy array or a Python scalar, got {t.__name__}")


def scalar_default(value: Any) -> Any:
    """The dtype a lone Python scalar gets."""
    if isinstance(value, bool):
        return bool_
    if isinstance(value, int):
        return DEFAULT_INT
    if isinstance(value, float):
        return DEFAULT_FLOAT
    if isinstance(value, complex):
        raise unsupported("complex64")
    if isinstance(value, onp.generic):
        return native(onp.dtype(type(value)))
    raise TypeError(f"expected an mxnet.numpy array or a Python scalar, got {type(value).__name__}")


def name_of(dtype: Any) -> str:
    return NAME.get(dtype) or dtype_name(dtype)
