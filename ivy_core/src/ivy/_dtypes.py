"""Backend-independent dtype names: ``ivy.float32`` and friends, and the kinds of ``isdtype``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

__all__ = ["DType", "DTYPE_NAMES", "KINDS", "CONSTANTS", "dtype_name", "dtype_equal", "by_constant"]

T = TypeVar("T")

#: Every dtype of the Array API standard, in promotion-friendly order.
DTYPE_NAMES = (
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

_SIGNED = ("int8", "int16", "int32", "int64")
_UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
_REAL = ("float32", "float64")
_COMPLEX = ("complex64", "complex128")

#: ``isdtype`` kind name -> the dtype names it covers.
KINDS: dict[str, tuple[str, ...]] = {
    "bool": ("bool",),
    "signed integer": _SIGNED,
    "unsigned integer": _UNSIGNED,
    "integral": _SIGNED + _UNSIGNED,
    "real floating": _REAL,
    "complex floating": _COMPLEX,
    "numeric": _SIGNED + _UNSIGNED + _REAL + _COMPLEX,
}

_ALIASES = {"bool_": "bool", "boolean": "bool", "float": "float64", "int": "int64", "complex": "complex128"}


def dtype_name(dtype: Any) -> str:
    """The standard name (``"float32"``) of a native dtype, an ``ivy.DType`` or a dtype name.

    Works without importing any framework: it reads the names the frameworks give their dtypes
    (``torch.float32``, ``tf.float32``, ``np.dtype('float32')``, ``paddle.float32``).

    Raises:
        TypeError: ``dtype`` names no dtype of the standard.
    """
    if isinstance(dtype, str):
        name = dtype
    elif isinstance(dtype, type):  # Python and NumPy scalar types: bool, np.float32
        name = dtype.__name__
    else:
        # paddle's .name lies for bfloat16 storage (paddle.uint16.name == "UINT16"); its str() is right
        mod = getattr(type(dtype), "__module__", "") or ""
        got = None if mod.startswith("paddle") else getattr(dtype, "name", None)  # numpy, jax, tf
        # "torch.float32", "paddle.FLOAT32" (paddle's dtypes are named in upper case)
        name = (got if isinstance(got, str) else str(dtype)).rpartition(".")[2].lower()
    name = _ALIASES.get(name, name)
    if name == "bfloat16" or name == "float16":
        return name
    if name not in DTYPE_NAMES:
        raise TypeError(f"{dtype!r} is not a dtype of the Array API standard; use one of {', '.join(DTYPE_NAMES)}")
    return name


def dtype_equal(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` are the same dtype, each given in any form (a native dtype of any
    backend, an ``ivy.DType``, a name): right on every backend, in either order. False when
    either is not a dtype of the standard."""
    try:
        return dtype_name(a) == dtype_name(b)
    except TypeError:
        return False


class DType(str):
    """A backend-independent dtype: ``ivy.float32``.

    It is the string ``"float32"``, so every backend accepts it wherever a dtype is accepted, and it
    compares equal to the native dtype of that name on every backend: ``ivy.float32 ==
    torch.float32``. Put ``ivy.<dtype>`` first, or use :func:`dtype_equal`: with the native dtype
    first the framework decides, and paddle's dtypes answer ``False`` to foreign objects
    (``x.dtype == ivy.float32`` is False on paddle). Its hash is the string's, so a dict keyed by
    ``ivy.float32`` does not find ``torch.float32``: key tables by :func:`dtype_name`.
    """

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            return str.__eq__(self, _ALIASES.get(other, other))
        try:
            return str.__eq__(self, dtype_name(other))
        except TypeError:
            return NotImplemented

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = str.__hash__

    def __repr__(self) -> str:
        return f"ivy.{str.__str__(self)}"


#: ``ivy.float32`` and the other dtype constants: the very objects ``import ivy`` exports.
CONSTANTS: dict[str, DType] = {n: DType(n) for n in DTYPE_NAMES}


def by_constant(table: Mapping[str, T]) -> dict[DType, T]:
    """``table`` (keyed by dtype name) keyed by the dtype constants instead. A lookup with
    ``ivy.float32`` finds its key by identity, where in a name-keyed dict it compares through
    ``DType.__eq__``, in Python (~0.4 us: a plugin's dtype conversion on every ``dtype=``)."""
    return {CONSTANTS[n]: v for n, v in table.items() if n in CONSTANTS}
