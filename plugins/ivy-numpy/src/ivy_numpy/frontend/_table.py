"""The tables of the NumPy frontend: NumPy ufuncs and functions -> their translations into Ivy ops.

A ufunc maps to an Ivy element-wise op taking the same operands. A function's translation is a
Python function with NumPy's parameters (names and defaults), called with Ivy arrays where NumPy
got arrays; it raises :class:`Unsupported` for a use it does not cover (``out=``, an ``order``,
a mode), which the frontend reports with every other problem of the program at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ivy

__all__ = ["UFUNCS", "UFUNC_DOCS", "FUNCTIONS", "DOCS", "Unsupported", "function", "no", "ufunc_doc"]


class Unsupported(Exception):
    """A use of a mapped NumPy function the translation does not cover (the message says what)."""


#: ufunc name -> Ivy op, operand for operand
UFUNCS: dict[str, Callable[..., Any]] = {
    "add": ivy.add,
    "subtract": ivy.subtract,
    "multiply": ivy.multiply,
    "divide": ivy.divide,
    "true_divide": ivy.divide,
    "floor_divide": ivy.floor_divide,
    "remainder": ivy.remainder,
    "power": ivy.pow,
    "negative": ivy.negative,
    "positive": ivy.positive,
    "absolute": ivy.abs,
    "fabs": ivy.abs,
    "exp": ivy.exp,
    "expm1": ivy.expm1,
    "log": ivy.log,
    "log2": ivy.log2,
    "log10": ivy.log10,
    "log1p": ivy.log1p,
    "sqrt": ivy.sqrt,
    "square": ivy.square,
    "reciprocal": ivy.reciprocal,
    "sin": ivy.sin,
    "cos": ivy.cos,
    "tan": ivy.tan,
    "arcsin": ivy.asin,
    "arccos": ivy.acos,
    "arctan": ivy.atan,
    "arctan2": ivy.atan2,
    "sinh": ivy.sinh,
    "cosh": ivy.cosh,
    "tanh": ivy.tanh,
    "arcsinh": ivy.asinh,
    "arccosh": ivy.acosh,
    "arctanh": ivy.atanh,
    "floor": ivy.floor,
    "ceil": ivy.ceil,
    "trunc": ivy.trunc,
    "rint": ivy.round,
    "sign": ivy.sign,
    "maximum": ivy.maximum,
    "minimum": ivy.minimum,
    "equal": ivy.equal,
    "not_equal": ivy.not_equal,
    "less": ivy.less,
    "less_equal": ivy.less_equal,
    "greater": ivy.greater,
    "greater_equal": ivy.greater_equal,
    "logical_and": ivy.logical_and,
    "logical_or": ivy.logical_or,
    "logical_not": ivy.logical_not,
    "logical_xor": ivy.logical_xor,
    "isnan": ivy.isnan,
    "isinf": ivy.isinf,
    "isfinite": ivy.isfinite,
    "matmul": ivy.matmul,
    "hypot": ivy.hypot,
    "logaddexp": ivy.logaddexp,
    "copysign": ivy.copysign,
    "signbit": ivy.signbit,
    "bitwise_and": ivy.bitwise_and,
    "bitwise_or": ivy.bitwise_or,
    "bitwise_xor": ivy.bitwise_xor,
    "invert": ivy.bitwise_invert,
    "left_shift": ivy.bitwise_left_shift,
    "right_shift": ivy.bitwise_right_shift,
    "conjugate": ivy.conj,
    "nextafter": ivy.nextafter,
}

#: NumPy function name (``"sum"``, ``"linalg.norm"``) -> translation
FUNCTIONS: dict[str, Callable[..., Any]] = {}
#: NumPy function name -> one line for the coverage table
DOCS: dict[str, str] = {}


#: ufunc name -> its translation's description, where it is a composition of Ivy ops
UFUNC_DOCS: dict[str, str] = {}


def ufunc_doc(name: str) -> str:
    """What the ufunc ``name`` becomes, for the coverage table."""
    return UFUNC_DOCS.get(name) or f"ivy.{UFUNCS[name].__name__}"


def function(*names: str, doc: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function as the translation of the NumPy functions ``names``."""

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        for name in names:
            if name in FUNCTIONS:
                raise RuntimeError(f"the NumPy function {name!r} is translated twice")
            FUNCTIONS[name], DOCS[name] = fn, doc
        return fn

    return deco


def no(**given: Any) -> None:
    """Raise :class:`Unsupported` for any of ``given`` (name -> value) that is not None."""
    for name, value in given.items():
        if value is not None:
            raise Unsupported(f"{name}= is not translated")
