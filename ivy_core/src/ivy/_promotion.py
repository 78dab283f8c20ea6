"""Dtype promotion, by dtype names: the Array API 2024.12 lattice, and Ivy's rules where the
standard leaves a pair undefined, written once. Backends derive their tables from it
(``ivy.plugin_kit.promote_types``), so every backend promotes alike.

Outside the standard Ivy follows JAX's and torch's common ground, on every backend (NumPy's own
rules differ: it widens ``int64 + float32`` to ``float64``; the numpy backend follows these):

- ``bool`` with a number gives the number's dtype;
- an integer with a floating-point dtype gives the floating-point dtype (``int64 + float32`` is
  ``float32``, ``int32 + float16`` is ``float16``);
- a signed integer with ``uint64`` (no integer dtype holds both) gives ``float64``;
- the half-precision floats outside the standard, ``float16`` and ``bfloat16``, join the
  floating-point lattice below ``float32``: with a wider float or a complex dtype they give that
  dtype, and with each other ``float32`` (neither holds the other's values).

Python scalars are weak (:func:`result_type_name`), and a Python ``int`` next to an integer array
must lie within that dtype's range: :func:`check_int_scalar` raises ``OverflowError`` otherwise
(the standard leaves it unspecified; NumPy 2 raises too, where other frameworks wrap silently).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from ._dtypes import DTYPE_NAMES

__all__ = ["promote_types", "result_type_name", "check_int_scalar", "INT_RANGES"]

_BITS = {
    "int8": 8,
    "int16": 16,
    "int32": 32,
    "int64": 64,
    "uint8": 8,
    "uint16": 16,
    "uint32": 32,
    "uint64": 64,
    "float16": 16,
    "bfloat16": 16,
    "float32": 32,
    "float64": 64,
    "complex64": 32,
    "complex128": 64,
}
_SIGNED = {8: "int8", 16: "int16", 32: "int32", 64: "int64"}
_UNSIGNED = {8: "uint8", 16: "uint16", 32: "uint32", 64: "uint64"}
_HALF = ("float16", "bfloat16")

#: integer dtype name -> (smallest, largest) value it holds
INT_RANGES: dict[str, tuple[int, int]] = {
    **{n: (-(2 ** (b - 1)), 2 ** (b - 1) - 1) for b, n in _SIGNED.items()},
    **{n: (0, 2**b - 1) for b, n in _UNSIGNED.items()},
}


def _kind(name: str) -> str:
    if name == "bool":
        return "b"
    if name.startswith("uint"):
        return "u"
    if name.startswith("int"):
        return "i"
    return "c" if name.startswith("complex") else "f"


@cache
def promote_types(a: str, b: str, standard: bool = False) -> str:
    """The dtype name two dtype names promote to (see the module docstring for pairs outside the
    standard). With ``standard=True`` only the standard's own table applies (what ``can_cast``
    follows), and a pair it leaves undefined raises ``TypeError``.

    Raises:
        ValueError: a name is not a dtype name of the standard, ``float16`` or ``bfloat16``.
        TypeError: ``standard=True`` and the standard defines no promotion of the pair.
    """
    for n in (a, b):
        if n not in _BITS and n != "bool":
            raise ValueError(
                f"{n!r} is not a dtype name of the standard ({', '.join(DTYPE_NAMES)}), nor float16 or bfloat16"
            )
    if a == b:
        return a
    ka, kb = _kind(a), _kind(b)
    if standard and (
        a in _HALF
        or b in _HALF
        or ("b" in (ka, kb))
        or ((ka in "iu") != (kb in "iu"))
        or ({ka, kb} == {"i", "u"} and 64 in (_BITS[a], _BITS[b]) and _BITS[a if ka == "u" else b] == 64)
    ):
        raise TypeError(f"the Array API standard defines no promotion of {a} and {b}")
    if "b" in (ka, kb):
        return b if ka == "b" else a
    if ka in "iu" and kb in "iu":
        if ka == kb:
            return (_SIGNED if ka == "i" else _UNSIGNED)[max(_BITS[a], _BITS[b])]
        s, u = (a, b) if ka == "i" else (b, a)
        if _BITS[s] > _BITS[u]:
            return s
        return _SIGNED[2 * _BITS[u]] if _BITS[u] < 64 else "float64"
    if ka in "fc" and kb in "fc":
        bits = max(_BITS[a], _BITS[b])
        if bits == 16:  # float16 with bfloat16: neither holds the other's values
            return "float32"
        return ("complex" if "c" in (ka, kb) else "float") + str(bits * (2 if "c" in (ka, kb) else 1))
    return a if ka in "fc" else b  # an integer with a floating-point dtype


def result_type_name(*names: str, scalars: tuple[Any, ...] = (), defaults: Mapping[str, str] | None = None) -> str:
    """The dtype name of an operation on arrays of dtypes ``names`` and Python ``scalars``.

    Scalars are weak (the standard's rule): a ``bool`` keeps the arrays' dtype; an ``int`` keeps a
    numeric dtype (a ``bool`` array becomes the default integer dtype); a ``float`` keeps a
    floating-point dtype (otherwise the default real floating dtype); a ``complex`` keeps a
    complex dtype and turns a real floating one into the complex dtype of its precision
    (otherwise the default complex dtype). ``defaults`` maps ``"integral"``, ``"real floating"``
    and ``"complex floating"`` to the backend's default dtype names (``float32`` for torch...).

    Raises:
        ValueError: neither an array dtype nor a scalar was given.
    """
    d = {"integral": "int64", "real floating": "float64", "complex floating": "complex128", **(defaults or {})}
    if not names:
        if not scalars:
            raise ValueError("result_type_name needs at least one dtype name or scalar")
        kinds = {type(s) for s in scalars}
        if complex in kinds:
            return d["complex floating"]
        if float in kinds:
            return d["real floating"]
        return d["integral"] if int in kinds else "bool"
    out = names[0]
    for n in names[1:]:
        out = promote_types(out, n)
    for s in scalars:
        k = _kind(out)
        if isinstance(s, bool):
            continue
        if isinstance(s, int):
            out = d["integral"] if k == "b" else out
        elif isinstance(s, float):
            out = out if k in "fc" else d["real floating"]
        elif isinstance(s, complex):
            if k == "f":
                out = "complex128" if out == "float64" else "complex64"
            elif k != "c":
                out = d["complex floating"]
        else:
            raise TypeError(f"expected Python scalars, got {type(s).__name__}")
    return out


def check_int_scalar(value: int, dtype: str, op: str) -> None:
    """Raise ``OverflowError`` when the Python int ``value``, next to an array of integer dtype
    ``dtype`` in op ``op``, lies outside that dtype's range (it would wrap around silently).

    A ``bool`` and any dtype other than an integer one pass (a ``float`` array holds any int).
    """
    bounds = INT_RANGES.get(dtype)
    if bounds is not None and not bounds[0] <= value <= bounds[1] and type(value) is not bool:
        raise OverflowError(
            f"ivy.{op}: the Python int {value} does not fit the array's dtype {dtype} "
            f"(range [{bounds[0]}, {bounds[1]}]); cast the array to a wider dtype first, e.g. "
            f"ivy.astype(x, ivy.int64)"
        )
