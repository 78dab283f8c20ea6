"""Manipulation functions (Array API 2024.12, section "Manipulation Functions").

Functions that rearrange, join, split or replicate arrays without computing new values. Unless
stated otherwise the result has the dtype of the input; negative axes count from the end.
"""

from __future__ import annotations

from ._base import Array, spec


@spec
def broadcast_arrays(*arrays: Array) -> list[Array]:
    """Broadcast any number of arrays against each other.

    Args:
        arrays: the arrays to broadcast; their shapes must be broadcast-compatible.

    Returns:
        A list of arrays, all of the common broadcast shape, each with the dtype of its input.
    """


@spec
def broadcast_to(x: Array, /, shape: tuple[int, ...]) -> Array:
    """Broadcast ``x`` to ``shape``.

    Args:
        x: array to broadcast.
        shape: target shape; ``x`` must be broadcast-compatible with it.

    Returns:
        An array of shape ``shape`` with the dtype of ``x``.

    Raises:
        ValueError: if ``x`` cannot be broadcast to ``shape``.
    """


@spec
def concat(arrays: tuple[Array, ...] | list[Array], /, *, axis: int | None = 0) -> Array:
    """Join arrays along an existing axis.

    Args:
        arrays: arrays of the same shape except along ``axis``.
        axis: axis to join along; ``None`` flattens every input first.

    Returns:
        The joined array. Different input dtypes are promoted (promotion across kinds, e.g.
        integer with floating-point, is unspecified).
    """


@spec
def expand_dims(x: Array, /, axis: int = 0) -> Array:
    """Insert a new dimension of size one at position ``axis``.

    Args:
        x: input array of rank ``N``.
        axis: position of the new dimension, in ``[-N-1, N]``; a negative value is resolved as
            ``N + axis + 1`` (so ``-1`` appends a dimension).

    Returns:
        An array of rank ``N + 1`` with the data and dtype of ``x``.

    Raises:
        IndexError: if ``axis`` is out of range.
    """


@spec
def flip(x: Array, /, *, axis: int | tuple[int, ...] | None = None) -> Array:
    """Reverse the order of elements along the given axes; the shape is unchanged.

    Args:
        x: input array.
        axis: axis or axes to reverse; ``None`` reverses all of them.

    Returns:
        An array of the same shape and dtype as ``x``.
    """


@spec
def moveaxis(
    x: Array,
    source: int | tuple[int, ...],
    destination: int | tuple[int, ...],
    /,
) -> Array:
    """Move axes of ``x`` to new positions, keeping the other axes in their original order.

    Args:
        x: input array of rank ``N``.
        source: axes to move (unique, each in ``[-N, N)``).
        destination: new positions of the moved axes, one per entry of ``source`` (unique, each in
            ``[-N, N)``).

    Returns:
        An array with reordered axes and the dtype of ``x``.
    """


@spec
def permute_dims(x: Array, /, axes: tuple[int, ...]) -> Array:
    """Permute the axes of ``x``.

    Args:
        x: input array of rank ``N``.
        axes: a permutation of ``(0, 1, ..., N-1)``; output axis ``i`` is input axis ``axes[i]``.

    Returns:
        An array with permuted axes and the dtype of ``x``.
    """


@spec
def repeat(x: Array, repeats: int | Array, /, *, axis: int | None = None) -> Array:
    """Repeat each element of ``x`` a given number of times.

    When ``repeats`` is an array the output shape depends on its values, which some (graph-based)
    backends cannot support; an integer ``repeats`` must always work.

    Args:
        x: input array.
        repeats: repetitions per element: an int (used for every element) or a 1-D integer array
            broadcastable to the length of the repeated axis (``(1,)`` or ``(M,)``).
        axis: axis along which to repeat; ``None`` flattens ``x`` (row-major) first.

    Returns:
        An array with the dtype of ``x``: 1-D if ``axis`` is ``None``, otherwise the shape of ``x``
        except along ``axis``.
    """


@spec
def reshape(x: Array, /, shape: tuple[int, ...], *, copy: bool | None = None) -> Array:
    """Give ``x`` a new shape without changing its data.

    Args:
        x: input array.
        shape: the new shape, with the same number of elements; one entry may be ``-1``, to be
            inferred.
        copy: ``True`` always copies; ``False`` never copies; ``None`` avoids a copy when
            possible.

    Returns:
        An array of shape ``shape`` with the elements (row-major order) and dtype of ``x``.

    Raises:
        ValueError: if ``copy=False`` and a copy would be needed.
    """


@spec
def roll(
    x: Array,
    /,
    shift: int | tuple[int, ...],
    *,
    axis: int | tuple[int, ...] | None = None,
) -> Array:
    """Shift elements cyclically along the given axes, wrapping around at the ends.

    Args:
        x: input array.
        shift: number of places to shift (positive towards larger indices). A tuple needs a tuple
            ``axis`` of the same length; an int with a tuple ``axis`` shifts each listed axis by
            that amount.
        axis: axis or axes to shift along; ``None`` flattens, shifts and restores the shape.

    Returns:
        An array of the same shape and dtype as ``x``.
    """


@spec
def squeeze(x: Array, /, axis: int | tuple[int, ...]) -> Array:
    """Remove dimensions of size one.

    Args:
        x: input array.
        axis: axis or axes to remove; each must have size one.

    Returns:
        An array with the data and dtype of ``x`` and the given axes removed.

    Raises:
        ValueError: if a given axis does not have size one.
    """


@spec
def stack(arrays: tuple[Array, ...] | list[Array], /, *, axis: int = 0) -> Array:
    """Join arrays of the same shape along a new axis.

    Args:
        arrays: arrays of identical shape.
        axis: position of the new axis in the result, in ``[-N-1, N]`` for inputs of rank ``N``.

    Returns:
        An array of rank ``N + 1``. Different input dtypes are promoted (promotion across kinds is
        unspecified).
    """


@spec
def tile(x: Array, repetitions: tuple[int, ...], /) -> Array:
    """Build an array by repeating ``x`` along each dimension.

    If ``repetitions`` is shorter than the rank of ``x`` it is padded with leading ones; if longer,
    ``x`` is given leading dimensions of size one.

    Args:
        x: input array.
        repetitions: number of repetitions per dimension.

    Returns:
        An array of rank ``max(x.ndim, len(repetitions))`` whose size along each dimension is the
        (padded) size of ``x`` times the (padded) repetition count; dtype of ``x``.
    """


@spec
def unstack(x: Array, /, *, axis: int = 0) -> tuple[Array, ...]:
    """Split ``x`` into the slices along ``axis`` (the inverse of ``stack``).

    Args:
        x: input array of rank ``N``.
        axis: axis to split along, in ``[-N, N)``.

    Returns:
        A tuple of ``x.shape[axis]`` arrays, each of rank ``N - 1`` and the dtype of ``x``.
    """
