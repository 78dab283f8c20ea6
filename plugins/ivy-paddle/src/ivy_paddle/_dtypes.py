"""paddle dtypes by standard name, promotion, and the normaliser used wherever an op takes a dtype."""

from __future__ import annotations

from typing import Any

from ivy import DType, dtype_name
from ivy.errors import UnsupportedDTypeError
from ivy.plugin_kit import by_dtype_constant, promote_types

from ._framework import paddle

NAMES = ("bool", "int8", "int16", "int32", "int64", "uint8", "float32", "float64", "complex64", "complex128")
#: Only supported dtypes: paddle.uint16 is bfloat16 storage, uint32/uint64 do not exist.
DTYPES: dict[str, Any] = {n: getattr(paddle, n) for n in NAMES}
NAME: dict[Any, str] = {v: k for k, v in DTYPES.items()}
PDTYPE = type(paddle.float32)

bool_, int8, int16, int32, int64, uint8 = (DTYPES[n] for n in NAMES[:6])
float32, float64, complex64, complex128 = (DTYPES[n] for n in NAMES[6:])

T_INTS = (int8, int16, int32, int64, uint8)
T_FLOATS = (float32, float64)
T_COMPLEX = (complex64, complex128)


def idset(*dts: Any) -> frozenset[int]:
    """dtype membership sets hold ids: paddle dtypes are singletons, and ``==`` on them costs
    ~2us (it goes through pybind), while ``id(d) in S`` costs ~0.15us."""
    return frozenset(id(d) for d in dts)


INTS = idset(*T_INTS)
FLOATS = idset(*T_FLOATS)
COMPLEX = idset(*T_COMPLEX)
INEXACT = FLOATS | COMPLEX

DEFAULT_FLOAT = float32
DEFAULT_COMPLEX = complex64
DEFAULT_INT = int64
INDEX = int64

REAL_OF = {complex64: float32, complex128: float64, float32: float32, float64: float64}
COMPLEX_OF = {float32: complex64, float64: complex128, complex64: complex64, complex128: complex128}


def unsupported(dtype: Any, op: str) -> UnsupportedDTypeError:
    name = NAME.get(dtype) if isinstance(dtype, PDTYPE) else None
    return UnsupportedDTypeError(
        f"the 'paddle' backend does not support dtype {name or dtype} in {op}"
        + (" (paddle has no uint16/uint32/uint64)" if str(dtype).startswith("uint") else "")
    )


#: ``ivy.float32`` -> the native dtype...: found by identity (in DTYPES, an ``ivy.DType`` key
#: compares through its Python ``__eq__``)
_BY_CONSTANT = by_dtype_constant(DTYPES)


def native(dtype: Any, op: str = "this op") -> Any:
    """``None`` stays None; names, ``ivy.DType`` and foreign dtypes become paddle dtypes."""
    if dtype is None or type(dtype) is PDTYPE:
        return dtype  # native dtypes pass through (float16/bfloat16 included: the user asked for it)
    if type(dtype) is DType:
        got = _BY_CONSTANT.get(dtype)
        if got is not None:
            return got
    got = DTYPES.get(dtype) if isinstance(dtype, str) else None
    if got is not None:
        return got
    try:
        name = dtype_name(dtype)
    except TypeError:
        raise
    got = DTYPES.get(name)
    if got is None:
        if name in ("float16", "bfloat16"):
            return getattr(paddle, name)
        raise unsupported(name, op)
    return got


# ----------------------------------------------------------------------------------- promotion

#: the standard's dtypes paddle has, and its half-precision floats (core's rules cover them too)
_PROMOTED = {**DTYPES, "float16": paddle.float16, "bfloat16": paddle.bfloat16}
#: core's promotion rules (written once, in core) as a table of the dtypes paddle has
PROMOTE: dict[tuple[Any, Any], Any] = {
    (a, b): _PROMOTED[n]
    for an, a in _PROMOTED.items()
    for bn, b in _PROMOTED.items()
    if (n := promote_types(an, bn)) in _PROMOTED  # (an int with uint64: paddle has no uint64)
}
#: id(integer dtype) -> (smallest, largest, name): a Python int outside must not wrap around
INT_BOUNDS: dict[int, tuple[int, int, str]] = {
    id(DTYPES[n]): (-(2 ** (b - 1)), 2 ** (b - 1) - 1, n)
    for n, b in (("int8", 8), ("int16", 16), ("int32", 32), ("int64", 64))
} | {id(uint8): (0, 255, "uint8")}


_HALF = idset(paddle.float16, paddle.bfloat16)


def scalar_dtype(value: Any, dt: Any) -> Any:
    """The dtype a Python scalar takes when combined with an array of dtype ``dt``."""
    t = type(value)
    if t is bool:
        return dt
    if t is int:
        return DEFAULT_INT if dt == bool_ else dt
    if t is float:
        return dt if id(dt) in INEXACT or id(dt) in _HALF else DEFAULT_FLOAT
    if t is complex:
        return dt if id(dt) in COMPLEX else (complex128 if dt is float64 else complex64)
    if isinstance(value, (bool, int, float, complex)):  # subclasses (numpy scalars are not here)
        return scalar_dtype(t.__mro__[[c in (bool, int, float, complex) for c in t.__mro__].index(True)](value), dt)
    raise TypeError(f"expected a paddle Tensor or a Python scalar, got {t.__name__}")


def scalar_default(value: Any) -> Any:
    t = type(value)
    if t is bool:
        return bool_
    if t is int:
        return DEFAULT_INT
    if t is float:
        return DEFAULT_FLOAT
    if t is complex:
        return DEFAULT_COMPLEX
    raise TypeError(f"expected a paddle Tensor or a Python scalar, got {t.__name__}")
