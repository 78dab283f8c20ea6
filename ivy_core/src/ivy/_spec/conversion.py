"""Conversion functions (Ivy's own, not part of the Array API standard).

Ways out of a backend: to NumPy, to Python scalars and to nested Python lists. Each copies the data
to the host if it lives on an accelerator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._base import Array, spec

if TYPE_CHECKING:
    import numpy


@spec
def to_numpy(x: Array, /) -> numpy.ndarray:
    """Copy ``x`` into a NumPy array on the host.

    Args:
        x: input array of any backend and device.

    Returns:
        A ``numpy.ndarray`` with the shape, values and (equivalent) dtype of ``x``; a copy, so
        writing to it does not change ``x``.
    """


@spec
def to_scalar(x: Array, /) -> bool | int | float | complex:
    """Convert a one-element array to a Python scalar.

    Args:
        x: array with exactly one element (of any rank, e.g. shape ``()`` or ``(1, 1)``).

    Returns:
        A ``bool``, ``int``, ``float`` or ``complex``, according to the dtype kind of ``x``.

    Raises:
        ValueError: if ``x`` does not have exactly one element.
    """


@spec
def to_list(x: Array, /) -> list:
    """Convert ``x`` to nested Python lists of Python scalars, like ``numpy.ndarray.tolist``.

    Args:
        x: input array.

    Returns:
        Nested lists with one nesting level per dimension of ``x``, holding ``bool``, ``int``,
        ``float`` or ``complex`` values. A zero-dimensional array gives a bare Python scalar.
    """
