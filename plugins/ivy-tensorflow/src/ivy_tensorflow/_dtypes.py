"""TensorFlow dtypes by standard name, the dtype normaliser, and the standard's type promotion."""

from __future__ import annotations

from typing import Any

import tensorflow as tf

from ivy import DType
from ivy.errors import UnsupportedDTypeError
from ivy.plugin_kit import by_dtype_constant, promote_types

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
DTYPES: dict[str, tf.DType] = {n: tf.as_dtype(n) for n in NAMES}

BOOL = tf.bool
I8, I16, I32, I64 = tf.int8, tf.int16, tf.int32, tf.int64
U8, U16, U32, U64 = tf.uint8, tf.uint16, tf.uint32, tf.uint64
F32, F64 = tf.float32, tf.float64
C64, C128 = tf.complex64, tf.complex128

SIGNED = frozenset({I8, I16, I32, I64})
UNSIGNED = frozenset({U8, U16, U32, U64})
INTS = SIGNED | UNSIGNED
REALF = frozenset({F32, F64})
COMPLEX = frozenset({C64, C128})
FLOATS = REALF | COMPLEX
NUMERIC = INTS | FLOATS
INT_OR_BOOL = INTS | {BOOL}
REAL_NUMERIC = INTS | REALF

#: The defaults of this backend (documented in the README): TF's own default for Python ints is
#: int32, but the standard's index dtype must hold any size, so integers default to int64.
DEFAULT_FLOAT = F32
DEFAULT_COMPLEX = C64
DEFAULT_INT = I64
DEFAULT_INDEX = I64

#: Real dtype of matching precision (complex -> its component dtype).
REAL_OF = {C64: F32, C128: F64, F32: F32, F64: F64}
COMPLEX_OF = {F32: C64, F64: C128, C64: C64, C128: C128}
#: Same-width signed integer, for bitcasts that move data without arithmetic.
SAME_WIDTH_INT = {F32: I32, F64: I64, U8: I8, U16: I16, U32: I32, U64: I64, I8: I8, I16: I16, I32: I32, I64: I64}
#: Accumulator dtype of sum / prod / cumulative ops when dtype is None.
SUM_DTYPE = {BOOL: I64, I8: I64, I16: I64, I32: I64, I64: I64, U8: U64, U16: U64, U32: U64, U64: U64}


#: ``ivy.float32`` -> the native dtype...: found by identity (in DTYPES, an ``ivy.DType`` key
#: compares through its Python ``__eq__``)
_BY_CONSTANT = by_dtype_constant(DTYPES)


def native(dtype: Any) -> tf.DType:
    """Names, ``ivy.DType`` and other frameworks' dtypes become ``tf.DType``."""
    # (the exact types first: isinstance against tf.DType costs ~0.3 us)
    t = type(dtype)
    d = _BY_CONSTANT.get(dtype) if t is DType else DTYPES.get(dtype) if t is str else None
    if d is not None:
        return d
    if isinstance(dtype, tf.DType):
        return dtype
    d = DTYPES.get(dtype) if isinstance(dtype, str) else None
    if d is not None:
        return d
    from ivy import dtype_name

    name = dtype_name(dtype)
    if name in DTYPES:
        return DTYPES[name]
    return tf.as_dtype(name)  # float16 / bfloat16: TF has them, the standard does not


def unsupported(dtype: Any, op: str) -> UnsupportedDTypeError:
    return UnsupportedDTypeError(
        f"the 'tensorflow' backend does not support {getattr(dtype, 'name', dtype)} in ivy.{op}"
    )


# --------------------------------------------------------------------------- promotion


#: the standard's dtypes and TF's half-precision floats, which core's promotion rules cover too
_PROMOTED = {**DTYPES, "float16": tf.float16, "bfloat16": tf.bfloat16}


def _derived() -> dict[tuple[tf.DType, tf.DType], tf.DType]:
    """Core's promotion rules (written once, in core) as a table of TensorFlow dtypes."""
    return {(a, b): _PROMOTED[promote_types(an, bn)] for an, a in _PROMOTED.items() for bn, b in _PROMOTED.items()}


PROMOTE: dict[tuple[tf.DType, tf.DType], tf.DType] = _derived()


def promote(a: tf.DType, b: tf.DType) -> tf.DType:
    try:
        return PROMOTE[a, b]
    except KeyError:
        raise TypeError(f"cannot promote {a!r} with {b!r} on the 'tensorflow' backend") from None


_HALF = frozenset({tf.float16, tf.bfloat16})


def scalar_dtype(d: tf.DType, s: Any) -> tf.DType:
    """Result dtype of array dtype ``d`` with Python scalar ``s`` (weak scalar rules)."""
    if isinstance(s, bool):
        return d
    if isinstance(s, int):
        return DEFAULT_INT if d == BOOL else d
    if isinstance(s, float):
        return d if d in FLOATS or d in _HALF else DEFAULT_FLOAT  # int array, float: not in the standard
    if isinstance(s, complex):
        return C64 if d in _HALF else COMPLEX_OF.get(d, DEFAULT_COMPLEX)
    raise TypeError(f"unsupported operand type {type(s).__name__!r}; expected an array or a Python scalar")
