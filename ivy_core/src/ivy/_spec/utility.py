"""Utility functions (Array API 2024.12, section "Utility Functions")."""

from __future__ import annotations

from ._base import Array, spec


@spec
def all(
    x: Array,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    keepdims: bool = False,
) -> Array:
    """Whether every element along the given axes is true (logical AND reduction).

    Non-zero numbers (including NaN) count as true. The reduction of an empty slice is ``True``.

    Args:
        x: input array.
        axis: axis or axes to reduce; ``None`` reduces over all elements.
        keepdims: keep the reduced axes as dimensions of size one.

    Returns:
        A boolean array; 0-D when reducing over all axes.
    """


@spec
def any(
    x: Array,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    keepdims: bool = False,
) -> Array:
    """Whether at least one element along the given axes is true (logical OR reduction).

    Non-zero numbers (including NaN) count as true. The reduction of an empty slice is ``False``.

    Args:
        x: input array.
        axis: axis or axes to reduce; ``None`` reduces over all elements.
        keepdims: keep the reduced axes as dimensions of size one.

    Returns:
        A boolean array; 0-D when reducing over all axes.
    """


@spec
def diff(
    x: Array,
    /,
    *,
    axis: int = -1,
    n: int = 1,
    prepend: Array | None = None,
    append: Array | None = None,
) -> Array:
    """``n``-th discrete difference along an axis: ``out[i] = x[i+1] - x[i]``, applied ``n`` times.

    Args:
        x: input array, numeric, at least one-dimensional.
        axis: axis along which to take differences.
        n: number of times the difference is applied (recursively); a positive integer.
        prepend: values joined before ``x`` along ``axis`` first; same shape as ``x`` except along
            ``axis``, same dtype kind.
        append: values joined after ``x`` along ``axis`` first; same constraints as ``prepend``.

    Returns:
        An array of the shape of the (extended) input except along ``axis``, where the size is
        reduced by ``n``; the dtype follows type promotion of the inputs, as for ``subtract``.
    """
