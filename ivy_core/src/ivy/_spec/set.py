"""Set functions (Array API 2024.12, section "Set Functions").

All four find the unique elements of an array. Their output sizes depend on the data, so
graph-based backends may not support them. Every NaN is treated as distinct from every other NaN
(so each NaN is its own unique value), signed zeros count as one value, and complex values are
unique when their real or imaginary parts differ. The order of the unique values is unspecified
(often sorted); the multi-output functions return named tuples.
"""

from __future__ import annotations

from ._base import Array, spec


@spec
def unique_all(x: Array, /) -> tuple[Array, Array, Array, Array]:
    """Unique elements of ``x`` with first-occurrence indices, inverse indices and counts.

    Args:
        x: input array; multi-dimensional input is flattened.

    Returns:
        A named tuple ``(values, indices, inverse_indices, counts)``: ``values`` is a 1-D array of
        the unique elements (dtype of ``x``); ``indices`` gives, for each unique value, the index
        of its first occurrence in the flattened ``x``; ``inverse_indices`` has the shape of ``x``
        and maps each element to its position in ``values``; ``counts`` gives how often each
        unique value occurs. The three index/count arrays have the default index dtype.
    """


@spec
def unique_counts(x: Array, /) -> tuple[Array, Array]:
    """Unique elements of ``x`` and how often each occurs.

    Args:
        x: input array; multi-dimensional input is flattened.

    Returns:
        A named tuple ``(values, counts)``: ``values`` is a 1-D array of the unique elements (dtype
        of ``x``) and ``counts`` the number of occurrences of each, in the default index dtype.
    """


@spec
def unique_inverse(x: Array, /) -> tuple[Array, Array]:
    """Unique elements of ``x`` and the indices that rebuild ``x`` from them.

    Args:
        x: input array; multi-dimensional input is flattened.

    Returns:
        A named tuple ``(values, inverse_indices)``: ``values`` is a 1-D array of the unique
        elements (dtype of ``x``); ``inverse_indices`` has the shape of ``x``, the default index
        dtype, and satisfies ``take(values, inverse_indices) == x`` element-wise (NaNs aside).
    """


@spec
def unique_values(x: Array, /) -> Array:
    """Unique elements of ``x``.

    Args:
        x: input array; multi-dimensional input is flattened.

    Returns:
        A 1-D array of the unique elements with the dtype of ``x``.
    """
