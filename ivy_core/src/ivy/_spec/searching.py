"""Searching functions (Array API 2024.12, section "Searching Functions").

Index-returning searches return the default array index dtype. Ordering of complex numbers is
unspecified, so inputs to ordering-based searches should be real-valued.
"""

from __future__ import annotations

from typing import Literal

from ._base import Array, spec


@spec
def argmax(x: Array, /, *, axis: int | None = None, keepdims: bool = False) -> Array:
    """Indices of the maximum values along an axis; ties resolve to the first occurrence.

    Args:
        x: input array, real-valued.
        axis: axis to search along; ``None`` searches the flattened array.
        keepdims: keep the reduced axis as a dimension of size one.

    Returns:
        An array of indices in the default index dtype: 0-D when ``axis`` is ``None`` (and
        ``keepdims`` is ``False``), otherwise the shape of ``x`` without (or with a unit) ``axis``.
    """


@spec
def argmin(x: Array, /, *, axis: int | None = None, keepdims: bool = False) -> Array:
    """Indices of the minimum values along an axis; ties resolve to the first occurrence.

    Args:
        x: input array, real-valued.
        axis: axis to search along; ``None`` searches the flattened array.
        keepdims: keep the reduced axis as a dimension of size one.

    Returns:
        An array of indices in the default index dtype: 0-D when ``axis`` is ``None`` (and
        ``keepdims`` is ``False``), otherwise the shape of ``x`` without (or with a unit) ``axis``.
    """


@spec
def count_nonzero(
    x: Array,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    keepdims: bool = False,
) -> Array:
    """Number of non-zero elements, over the whole array or along the given axes.

    Complex elements count if either component is non-zero; booleans count if ``True``.

    Args:
        x: input array.
        axis: axis or axes to count along; ``None`` counts over all elements.
        keepdims: keep the reduced axes as dimensions of size one.

    Returns:
        An array of counts in the default index dtype; 0-D when counting over the whole array.
    """


@spec
def nonzero(x: Array, /) -> tuple[Array, ...]:
    """Indices of the non-zero elements of ``x``.

    Complex elements count if either component is non-zero; booleans count if ``True``. The output
    size depends on the data, so graph-based backends may not support this function.

    Args:
        x: input array of rank at least one.

    Returns:
        A tuple with one 1-D index array per dimension of ``x``, all of length equal to the number
        of non-zero elements, in row-major order; default index dtype.

    Raises:
        ValueError: if ``x`` is zero-dimensional.
    """


@spec
def searchsorted(
    x1: Array,
    x2: Array,
    /,
    *,
    side: Literal["left", "right"] = "left",
    sorter: Array | None = None,
) -> Array:
    """Insertion indices into sorted ``x1`` that keep it sorted when ``x2``'s values are inserted.

    With ``side="left"`` each index ``i`` satisfies ``x1[i-1] < v <= x1[i]``; with ``"right"``,
    ``x1[i-1] <= v < x1[i]``. Values below all of ``x1`` get 0, values above all get ``len(x1)``.
    The placement of NaNs and signed zeros is implementation-defined but consistent with ``sort``.

    Args:
        x1: one-dimensional, real-valued array, sorted ascending unless ``sorter`` is given.
        x2: values to insert, real-valued.
        side: which index to return for values equal to elements of ``x1``.
        sorter: integer array of the shape of ``x1`` holding indices that sort ``x1`` ascending.

    Returns:
        An array of indices of the shape of ``x2`` in the default index dtype.
    """


@spec
def where(
    condition: Array,
    x1: Array | bool | int | float | complex,
    x2: Array | bool | int | float | complex,
    /,
) -> Array:
    """Elements of ``x1`` where ``condition`` is true and of ``x2`` elsewhere.

    ``condition``, ``x1`` and ``x2`` broadcast together. At least one of ``x1`` and ``x2`` must be
    an array; a Python scalar takes part as in mixed array/scalar operations.

    Args:
        condition: selector array; should be boolean.
        x1: values taken where ``condition`` is ``True`` (array or Python scalar).
        x2: values taken where ``condition`` is ``False`` (array or Python scalar).

    Returns:
        An array of the broadcast shape whose dtype is the promotion of ``x1`` and ``x2``.
    """
