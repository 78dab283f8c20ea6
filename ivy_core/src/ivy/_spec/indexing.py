"""Indexing functions (Array API 2024.12, section "Indexing Functions").

Gathering elements with integer index arrays. Indices must have an integer dtype; negative indices
count from the end, and out-of-bounds indices give unspecified results.
"""

from __future__ import annotations

from ._base import Array, spec


@spec
def take(x: Array, indices: Array, /, *, axis: int | None = None) -> Array:
    """Elements of ``x`` at ``indices`` along one axis.

    Args:
        x: input array; may be zero-dimensional only if ``axis`` is ``None``.
        indices: one-dimensional array of integer indices, each in ``[-n, n)`` for an axis of size
            ``n`` (negative ones count from the end); any other is an ``IndexError``.
        axis: axis to select along (negative counts from the end). May be ``None`` only when ``x``
            is one-dimensional (it is then treated as axis 0).

    Returns:
        An array with the dtype of ``x`` and the shape of ``x`` except along ``axis``, whose size
        becomes ``len(indices)``.
    """


@spec
def take_along_axis(x: Array, indices: Array, /, *, axis: int = -1) -> Array:
    """Elements of ``x`` picked by matching one-dimensional slices of ``indices`` along ``axis``.

    Useful with the output of ``argsort`` or ``argmax(..., keepdims=True)``.

    Args:
        x: input array.
        indices: integer array with the same number of dimensions as ``x``, each in ``[-n, n)``
            for ``n = x.shape[axis]`` (else ``IndexError``); it must broadcast against ``x`` in
            every dimension but ``axis``.
        axis: axis to select along (negative counts from the end).

    Returns:
        An array with the dtype of ``x`` and the broadcast shape of ``x`` and ``indices`` in every
        dimension but ``axis``, where its size is ``indices.shape[axis]``.
    """
