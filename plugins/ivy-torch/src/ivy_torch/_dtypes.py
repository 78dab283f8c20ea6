"""torch dtypes by standard name, the dtype/device normalisers, and the standard's promotion table."""

from __future__ import annotations

from typing import Any

import torch

from ivy import DType
from ivy.errors import UnsupportedDTypeError
from ivy.plugin_kit import by_dtype_constant, device_kinds, promote_types

Tensor = torch.Tensor

NAMES = (
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
DTYPES: dict[str, torch.dtype] = {n: getattr(torch, n) for n in NAMES}
#: native dtype -> standard name
NAME: dict[torch.dtype, str] = {v: k for k, v in DTYPES.items()}

b_, i8, i16, i32, i64 = torch.bool, torch.int8, torch.int16, torch.int32, torch.int64
u8, u16, u32, u64 = torch.uint8, torch.uint16, torch.uint32, torch.uint64
f32, f64, c64, c128 = torch.float32, torch.float64, torch.complex64, torch.complex128

SIGNED = (i8, i16, i32, i64)
UNSIGNED = frozenset((u8, u16, u32, u64))  # (sets: `x.dtype in ...` runs on every call)
INTS = SIGNED + (u8, u16, u32, u64)
FLOATS = (f32, f64)
COMPLEX = (c64, c128)
INEXACT = FLOATS + COMPLEX
#: every dtype torch kernels may meet (the standard's and torch's half-precision floats)
ALL = frozenset(DTYPES.values()) | {torch.float16, torch.bfloat16}
#: unsigned dtypes torch 2.x supports only for a few ops (creation, casting, bitwise, eq...)
PARTIAL = frozenset((u16, u32, u64))
#: same-width signed dtype: a bit-exact view for ops that only move data
SIGNED_VIEW = {u16: i16, u32: i32, u64: i64}
#: dtype a partial unsigned dtype is widened to, exactly, for value-dependent ops
WIDE = {u16: i32, u32: i64}
#: default accumulation dtype of sum/prod/cumulative_*/trace (None: keep the input dtype)
SUM_DTYPE: dict[torch.dtype, torch.dtype] = {b_: i64, **{d: i64 for d in SIGNED}, **{d: u64 for d in UNSIGNED}}


#: the standard's dtypes and torch's half-precision floats, which core's promotion rules cover too
_PROMOTED = {**DTYPES, "float16": torch.float16, "bfloat16": torch.bfloat16}


def _derived(standard: bool) -> dict[tuple[torch.dtype, torch.dtype], torch.dtype]:
    """Core's promotion rules as a table of torch dtypes (written once, in core); with
    ``standard`` only the standard's pairs (what ``can_cast`` follows)."""
    t = {}
    for an, a in _PROMOTED.items():
        for bn, b in _PROMOTED.items():
            try:
                t[a, b] = _PROMOTED[promote_types(an, bn, standard)]
            except TypeError:  # a pair the standard leaves undefined
                pass
    return t


STD_PROMOTE = _derived(standard=True)
PROMOTE = _derived(standard=False)


def promote(a: torch.dtype, b: torch.dtype) -> torch.dtype:
    """Promotion of two dtypes by core's rules (the standard's, and Ivy's outside it)."""
    try:
        return PROMOTE[a, b]
    except KeyError:  # a dtype outside the standard and torch's half floats (float8...)
        raise TypeError(f"{a} and {b} cannot be promoted together (not dtypes of the Array API)") from None


_KIND = {b_: 0, **{d: 1 for d in INTS}, f32: 2, f64: 2, torch.float16: 2, torch.bfloat16: 2, c64: 3, c128: 3}
#: integer dtype -> its (smallest, largest) value: a Python int outside must not wrap around
INT_BOUNDS: dict[torch.dtype, tuple[int, int]] = {d: (int(torch.iinfo(d).min), int(torch.iinfo(d).max)) for d in INTS}


def scalar_dtype(v: Any, like: torch.dtype) -> torch.dtype:
    """Dtype a Python scalar takes next to an array of dtype ``like`` (weak scalar rules)."""
    k = _KIND[like]
    if isinstance(v, bool):
        return like
    if isinstance(v, int):
        return like if k else i64
    if isinstance(v, float):
        return like if k >= 2 else torch.get_default_dtype()
    if isinstance(v, complex):
        if k == 3:
            return like
        if like is f64:
            return c128
        if k == 2:  # float32 and the half floats
            return c64
        return c128 if torch.get_default_dtype() is f64 else c64
    raise TypeError(f"expected an array or a Python scalar, got {type(v).__name__}")


#: ``ivy.float32`` -> ``torch.float32``...: found by identity (in DTYPES, an ``ivy.DType`` key
#: compares through its Python ``__eq__``)
_BY_CONSTANT = by_dtype_constant(DTYPES)


def native(dtype: Any) -> torch.dtype:
    """Names, ``ivy.DType`` and foreign dtypes become ``torch.dtype`` (call only when not None)."""
    if type(dtype) is torch.dtype:
        return dtype
    try:
        return (_BY_CONSTANT if type(dtype) is DType else DTYPES)[dtype]
    except (KeyError, TypeError):
        pass
    if isinstance(dtype, str) and dtype.startswith("torch."):
        dtype = dtype[6:]
    from ivy import dtype_name

    name = dtype_name(dtype)
    if name not in DTYPES:
        raise UnsupportedDTypeError(f"dtype {name} is not supported by the torch backend")
    return DTYPES[name]


_DEVICES: dict[Any, torch.device] = {}
CPU = torch.device("cpu")


def device(d: Any) -> torch.device:
    """ "cpu" -> cpu; "gpu:N" / "cuda:N" -> cuda N; torch devices pass (call only when not None)."""
    if type(d) is torch.device:
        return d
    try:
        return _DEVICES[d]
    except (KeyError, TypeError):
        pass
    if isinstance(d, str):
        kind, _, idx = d.strip().lower().partition(":")
        if kind == "gpu":
            kind = "cuda"
        try:
            out = torch.device(kind, int(idx)) if idx else torch.device(kind if kind != "cuda" else "cuda:0")
        except (RuntimeError, ValueError):  # not a torch kind: maybe a registered third-party one
            dk = device_kinds("torch").get(kind)
            if dk is None:
                raise
            return dk.to_native(d)  # not cached: the registered kinds may change
    elif isinstance(d, int):
        out = torch.device("cuda", d)
    else:
        out = torch.device(str(d))
    try:
        _DEVICES[d] = out
    except TypeError:
        pass
    return out


def unsupported(dtype: Any, op: str) -> UnsupportedDTypeError:
    name = NAME.get(dtype, str(dtype))
    return UnsupportedDTypeError(
        f"the torch backend does not support {name} in {op} (torch {torch.__version__} lacks it)"
    )
