"""paddle dtypes by standard name, promotion, and the normaliser used wherever an op takes a dtype."""

from __future__ import annotations

from typing import Any

from ivy import dtype_name
from ivy.errors import UnsupportedDTypeError

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


def native(dtype: Any, op: str = "this op") -> Any:
    """``None`` stays None; names, ``ivy.DType`` and foreign dtypes become paddle dtypes."""
    if dtype is None or type(dtype) is PDTYPE:
        return dtype  # native dtypes pass through (float16/bfloat16 included: the user asked for it)
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

_KIND_RANK = {bool_: 0}
for _d in T_INTS:
    _KIND_RANK[_d] = 1
for _d in T_FLOATS:
    _KIND_RANK[_d] = 2
for _d in T_COMPLEX:
    _KIND_RANK[_d] = 3
_BITS = {bool_: 8, int8: 8, int16: 16, int32: 32, int64: 64, uint8: 8, float32: 32, float64: 64,
         complex64: 64, complex128: 128}
_SIGNED_BY_BITS = {8: int8, 16: int16, 32: int32, 64: int64}


def _promote_pair(a: Any, b: Any) -> Any:
    if a == b:
        return a
    ka, kb = _KIND_RANK.get(a), _KIND_RANK.get(b)
    if ka is None or kb is None:
        raise TypeError(f"cannot promote paddle dtypes {a} and {b}")
    if ka != kb:  # mixed kinds (implementation-defined): the higher kind wins, like torch
        if ka < kb:
            a, b, ka, kb = b, a, kb, ka
        if ka == 3 and kb == 2:  # real float with complex: the wider precision
            return COMPLEX_OF[float64] if (a == complex128 or b == float64) else complex64
        return a
    if ka == 1:
        ua, ub = a == uint8, b == uint8
        if ua != ub:  # uint8 with a signed integer: the smallest signed type holding both
            s = b if ua else a
            return s if _BITS[s] > 8 else int16
        return a if _BITS[a] >= _BITS[b] else b
    return a if _BITS[a] >= _BITS[b] else b


PROMOTE: dict[tuple[Any, Any], Any] = {}
for _a in DTYPES.values():
    for _b in DTYPES.values():
        PROMOTE[(_a, _b)] = _promote_pair(_a, _b)


def scalar_dtype(value: Any, dt: Any) -> Any:
    """The dtype a Python scalar takes when combined with an array of dtype ``dt``."""
    t = type(value)
    if t is bool:
        return dt
    if t is int:
        return DEFAULT_INT if dt == bool_ else dt
    if t is float:
        return dt if id(dt) in INEXACT else DEFAULT_FLOAT
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
