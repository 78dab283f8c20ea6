"""One assertion per fact, each failing with a message that names what was checked (the op and the
quantity), the expected and the actual value: ``conv2d: dtype: expected 'float32', got 'float64'``,
never ``assert ((2, 3) == (2, 3)`` of a clause joined to others by ``and``."""

from __future__ import annotations

import operator
from typing import Any

from ivy.testing.convert import dtype_name, shape_of

__all__ = ["expect", "expect_is", "expect_cmp", "expect_dtype", "expect_shape", "expect_native", "expect_type"]

_OPS = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "!=": operator.ne,
    "in": lambda a, b: a in b,
    "not in": lambda a, b: a not in b,
    "is not": operator.is_not,
}


def expect(actual: Any, expected: Any, what: str) -> None:
    """``actual == expected``; ``what`` names the op and the quantity (``"ivy.zeros: step count"``)."""
    assert actual == expected, f"{what}: expected {expected!r}, got {actual!r}"


def expect_is(actual: Any, expected: Any, what: str) -> None:
    """``actual is expected`` (True, False, None, or one object)."""
    assert actual is expected, f"{what}: expected {expected!r}, got {actual!r}"


def expect_cmp(actual: Any, op: str, bound: Any, what: str) -> None:
    """``actual <op> bound`` for ``op`` one of ``<``, ``<=``, ``>``, ``>=``, ``!=``, ``in``,
    ``not in``, ``is not`` (``expect_cmp(x.min(), ">=", -2.0, "ivy.random_uniform: minimum")``)."""
    assert _OPS[op](actual, bound), f"{what}: expected {op} {bound!r}, got {actual!r}"


def expect_dtype(x: Any, expected: str, op: str) -> None:
    """The native array ``x`` (a result of ``op``) has the dtype named ``expected``."""
    expect(dtype_name(x.dtype), expected, f"{op}: dtype")


def expect_shape(x: Any, expected: Any, op: str) -> None:
    """The native array ``x`` (a result of ``op``) has the shape ``expected``."""
    expect(shape_of(x), tuple(expected), f"{op}: shape")


def expect_native(x: Any, xp: Any, op: str) -> None:
    """``x`` (a result of ``op``) is a native array of the backend of namespace ``xp``."""
    assert xp.is_native_array(x), f"{op}: expected a native array of the {xp.name!r} backend, got a {type(x)!r}"


def expect_type(x: Any, expected: type | tuple[type, ...], what: str) -> None:
    """``isinstance(x, expected)``."""
    assert isinstance(x, expected), f"{what}: expected an instance of {expected!r}, got a {type(x)!r}: {x!r}"
