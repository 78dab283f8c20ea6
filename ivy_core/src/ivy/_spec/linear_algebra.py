"""Linear algebra functions of the main namespace (Array API 2024.12, "Linear Algebra Functions").

These four also appear in the ``linalg`` extension (see ``linalg.py``) with the same behaviour. All
inputs follow the type-promotion rules; batch dimensions broadcast.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._base import Array, spec


@spec
def matmul(x1: Array, x2: Array, /) -> Array:
    """Matrix product of ``x1`` and ``x2`` (the ``@`` operator).

    A 1-D first argument is treated as a row vector and a 1-D second argument as a column vector;
    the added dimension is removed from the result. Leading (batch) dimensions broadcast.

    Args:
        x1: first input array, numeric, at least one-dimensional.
        x2: second input array, numeric, at least one-dimensional.

    Returns:
        The product: a 0-D array for two 1-D inputs, a matrix or stack of matrices otherwise. The
        dtype follows type promotion.

    Raises:
        ValueError: if either input is zero-dimensional, or if the contracted dimensions (last of
            ``x1``, second-to-last of ``x2``) differ in size, or if batch dimensions do not
            broadcast.
    """


@spec
def matrix_transpose(x: Array, /) -> Array:
    """Swap the last two dimensions of ``x`` (transpose each matrix of a stack).

    Args:
        x: input array of shape ``(..., M, N)``.

    Returns:
        An array of shape ``(..., N, M)`` with the dtype of ``x``.
    """


@spec
def tensordot(
    x1: Array,
    x2: Array,
    /,
    *,
    axes: int | tuple[Sequence[int], Sequence[int]] = 2,
) -> Array:
    """Tensor contraction of ``x1`` and ``x2`` over the given axes.

    Contracted axes must have equal sizes; they are not broadcast.

    Args:
        x1: first input array, numeric.
        x2: second input array, numeric.
        axes: an integer ``N`` contracts the last ``N`` axes of ``x1`` with the first ``N`` axes of
            ``x2`` (in order); a pair of sequences lists the axes of ``x1`` and of ``x2`` to
            contract, pairwise. ``0`` gives the outer (tensor) product.

    Returns:
        An array whose shape is the non-contracted axes of ``x1`` followed by those of ``x2``; the
        dtype follows type promotion.
    """


@spec
def vecdot(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    """Vector dot product along ``axis``, conjugating the first argument for complex input.

    Computes ``sum(conj(x1) * x2)`` along ``axis``; the other dimensions broadcast.

    Args:
        x1: first input array, numeric.
        x2: second input array, numeric; broadcast against ``x1``.
        axis: axis along which to take the product; must be negative, in ``[-N, -1]`` with ``N``
            the smaller rank of the two inputs (counted from the last dimension). Its size must
            match in both inputs (no broadcasting along it).

    Returns:
        An array with the broadcast shape minus ``axis``; the dtype follows type promotion.

    Raises:
        ValueError: if the sizes along ``axis`` differ.
    """
