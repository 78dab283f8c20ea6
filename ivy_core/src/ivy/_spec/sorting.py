"""Sorting functions (Array API 2024.12, section "Sorting Functions").

Ordering of complex numbers is unspecified, so inputs should be real-valued. The placement of NaNs
and signed zeros is implementation-defined (sorting NaNs last is the common convention).
"""

from __future__ import annotations

from ._base import Array, spec


@spec
def argsort(x: Array, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Array:
    """Indices that sort ``x`` along an axis.

    Args:
        x: input array, real-valued.
        axis: axis to sort along.
        descending: sort in descending instead of ascending order.
        stable: require a stable sort (equal elements keep their relative order). With ``False`` a
            backend may use an unstable sort, but need not.

    Returns:
        An array of indices of the same shape as ``x`` in the default index dtype.
    """


@spec
def sort(x: Array, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Array:
    """Sorted copy of ``x`` along an axis.

    Args:
        x: input array, real-valued.
        axis: axis to sort along.
        descending: sort in descending instead of ascending order.
        stable: require a stable sort (equal elements keep their relative order). With ``False`` a
            backend may use an unstable sort, but need not.

    Returns:
        An array of the same shape and dtype as ``x``.
    """
