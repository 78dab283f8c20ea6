"""Creation functions (Array API 2024.12, section "Creation Functions").

Functions that build a new array from Python values, a shape, or another array. Where ``dtype``
is ``None`` the standard's defaults apply (the default real floating-point dtype for ``empty``,
``ones`` and the like, a dtype inferred from the values otherwise); where ``device`` is ``None`` the
array lands on the default device, or on the device of the input array for the ``*_like``
functions.
"""

from __future__ import annotations

from typing import Literal

from ._base import Array, Device, DType, NestedSequence, spec


@spec
def arange(
    start: int | float,
    /,
    stop: int | float | None = None,
    step: int | float = 1,
    *,
    dtype: DType | None = None,
    device: Device | None = None,
) -> Array:
    """Evenly spaced values in the half-open interval [start, stop), as a one-dimensional array.

    Args:
        start: start of the interval (inclusive) when ``stop`` is given; otherwise the end of the
            interval (exclusive) and the start is ``0``.
        stop: end of the interval (exclusive), or ``None``.
        step: spacing between neighbouring values; must not be zero and may be negative.
        dtype: output dtype. If ``None``: the default integer dtype when ``start``, ``stop`` and
            ``step`` are all ints, otherwise the default real floating-point dtype.
        device: device to place the result on.

    Returns:
        A 1-D array of length ``ceil((stop - start) / step)`` when ``stop - start`` and ``step``
        have the same sign, and of length 0 otherwise. With a non-integer ``step``, rounding may
        make the result include ``stop``.
    """


@spec(convert=True)
def asarray(
    obj: Array | bool | int | float | complex | NestedSequence,
    /,
    *,
    dtype: DType | None = None,
    device: Device | None = None,
    copy: bool | None = None,
) -> Array:
    """Convert ``obj`` (an array, a Python scalar, a nested sequence or a buffer) to an array.

    The result belongs to the selected backend when one is selected (``backend=``,
    ``with ivy.use_backend(...)`` or ``ivy.set_backend(...)``): ``ivy.asarray(np_array)`` under
    ``ivy.set_backend("torch")`` is a ``torch.Tensor``. Only when no backend is selected does the
    framework of an array ``obj`` decide (then the default backend, for Python data).

    Args:
        obj: the data: an array, a Python scalar, a (possibly nested) sequence of Python scalars, or
            an object supporting the buffer protocol.
        dtype: output dtype. If ``None`` it is inferred: ``bool`` if all values are bools, the
            default integer dtype for ints (and bools), the default complex dtype if any value is
            complex, else the default real floating-point dtype if any value is a float. For an
            array input its dtype is kept.
        device: device to place the result on; if ``None`` and ``obj`` is an array, its device.
        copy: ``True`` always copies; ``False`` never copies; ``None`` reuses memory when possible.

    Returns:
        An array holding the data of ``obj``.

    Raises:
        ValueError: if ``copy=False`` and a copy cannot be avoided.
    """


@spec
def empty(
    shape: int | tuple[int, ...],
    *,
    dtype: DType | None = None,
    device: Device | None = None,
) -> Array:
    """An array of the given shape whose contents are uninitialized.

    Args:
        shape: output shape.
        dtype: output dtype; ``None`` means the default real floating-point dtype.
        device: device to place the result on.

    Returns:
        An array of shape ``shape`` with arbitrary contents.
    """


@spec
def empty_like(x: Array, /, *, dtype: DType | None = None, device: Device | None = None) -> Array:
    """An uninitialized array with the shape of ``x``.

    Args:
        x: array whose shape is used.
        dtype: output dtype; ``None`` means the dtype of ``x``.
        device: device to place the result on; ``None`` means the device of ``x``.

    Returns:
        An array of the same shape as ``x`` with arbitrary contents.
    """


@spec
def eye(
    n_rows: int,
    n_cols: int | None = None,
    /,
    *,
    k: int = 0,
    dtype: DType | None = None,
    device: Device | None = None,
) -> Array:
    """A two-dimensional array with ones on the ``k``-th diagonal and zeros elsewhere.

    Args:
        n_rows: number of rows.
        n_cols: number of columns; ``None`` means ``n_rows``.
        k: diagonal index: 0 is the main diagonal, positive values are above it, negative below.
        dtype: output dtype; ``None`` means the default real floating-point dtype. Complex output
            holds ``1 + 0j`` on the diagonal.
        device: device to place the result on.

    Returns:
        An array of shape ``(n_rows, n_cols)``.
    """


@spec(infer=False)
def from_dlpack(x: Array, /, *, device: Device | None = None, copy: bool | None = None) -> Array:
    """Import an array from any object that implements the DLPack protocol.

    The backend is taken from context (never inferred from ``x``, which usually belongs to another
    library); ``x`` only needs ``__dlpack__`` and ``__dlpack_device__``.

    Args:
        x: the producer object (an array of any DLPack-capable library).
        device: device to place the result on; ``None`` keeps the device of ``x``. Placement on the
            CPU must at least be supported.
        copy: ``True`` always copies; ``False`` never copies; ``None`` shares memory when possible.

    Returns:
        An array of the current backend holding the data of ``x`` (a view or a copy).

    Raises:
        BufferError: if the data cannot be exported/imported through DLPack, or if ``copy=False``
            and a copy would be needed for the requested device.
        AttributeError: if ``x`` does not implement the DLPack methods.
        ValueError: if the exchange would need a copy but ``copy=False``.
    """


@spec
def full(
    shape: int | tuple[int, ...],
    fill_value: bool | int | float | complex,
    *,
    dtype: DType | None = None,
    device: Device | None = None,
) -> Array:
    """An array of the given shape with every element set to ``fill_value``.

    Args:
        shape: output shape.
        fill_value: the value to fill with.
        dtype: output dtype. If ``None`` it follows the Python type of ``fill_value``: ``bool``,
            the default integer dtype, the default real floating-point dtype, or the default complex
            dtype.
        device: device to place the result on.

    Returns:
        An array of shape ``shape`` filled with ``fill_value``. Values that do not fit the dtype
        give implementation-defined results.
    """


@spec
def full_like(
    x: Array,
    /,
    fill_value: bool | int | float | complex,
    *,
    dtype: DType | None = None,
    device: Device | None = None,
) -> Array:
    """An array with the shape of ``x`` with every element set to ``fill_value``.

    Args:
        x: array whose shape is used.
        fill_value: the value to fill with; should be of the same kind as the output dtype.
        dtype: output dtype; ``None`` means the dtype of ``x``.
        device: device to place the result on; ``None`` means the device of ``x``.

    Returns:
        An array of the same shape as ``x`` filled with ``fill_value``.
    """


@spec
def linspace(
    start: Array | int | float | complex,
    stop: Array | int | float | complex,
    /,
    num: int,
    *,
    dtype: DType | None = None,
    device: Device | None = None,
    endpoint: bool = True,
    axis: int = 0,
) -> Array:
    """``num`` evenly spaced numbers from ``start`` to ``stop``.

    ``start`` and ``stop`` may also be arrays (Ivy's extension of the standard, as NumPy's):
    they broadcast together, and each pair of elements gives one sequence, laid out along
    ``axis`` of the result (NumPy's convention; the 2021 Ivy API put it last, ``axis=-1``).

    Args:
        start: first value, or an array of first values.
        stop: last value if ``endpoint`` is ``True`` (otherwise the interval is split into
            ``num + 1`` points and the last one is dropped), or an array of them.
        num: number of values; must be non-negative.
        dtype: output dtype; ``None`` means the default complex dtype if ``start`` or ``stop`` is
            complex, else the default real floating-point dtype (for array endpoints: their
            floating-point dtype, if they have one). Integer dtypes give implementation-defined
            results.
        device: device to place the result on (default: that of array endpoints).
        endpoint: whether ``stop`` is included.
        axis: the axis of the result along which the samples lie, for array endpoints (with
            scalar endpoints the result is 1-D and ``axis`` must be ``0`` or ``-1``).

    Returns:
        For scalar endpoints, a 1-D array of length ``num``; for array endpoints of broadcast
        shape ``S``, an array of ``len(S) + 1`` dimensions with ``num`` at ``axis``. For complex
        bounds, real and imaginary parts are spaced independently.
    """


@spec
def meshgrid(*arrays: Array, indexing: Literal["xy", "ij"] = "xy") -> list[Array]:
    """Coordinate matrices built from one-dimensional coordinate vectors.

    Args:
        arrays: one-dimensional arrays, all of the same numeric dtype; zero-dimensional arrays are
            treated as 1-D arrays of length one.
        indexing: ``"xy"`` (Cartesian: the first two output dimensions are swapped) or ``"ij"``
            (matrix indexing).

    Returns:
        A list of N arrays, N being the number of inputs, all of the same shape and dtype as the
        inputs. With ``"ij"`` the shape is ``(len(a0), len(a1), ...)``; with ``"xy"`` it is
        ``(len(a1), len(a0), len(a2), ...)``. With no inputs the list is empty.
    """


@spec
def ones(
    shape: int | tuple[int, ...],
    *,
    dtype: DType | None = None,
    device: Device | None = None,
) -> Array:
    """An array of the given shape filled with ones.

    Args:
        shape: output shape.
        dtype: output dtype; ``None`` means the default real floating-point dtype. Complex output
            holds ``1 + 0j``.
        device: device to place the result on.

    Returns:
        An array of shape ``shape`` filled with ones.
    """


@spec
def ones_like(x: Array, /, *, dtype: DType | None = None, device: Device | None = None) -> Array:
    """An array with the shape of ``x`` filled with ones.

    Args:
        x: array whose shape is used.
        dtype: output dtype; ``None`` means the dtype of ``x``.
        device: device to place the result on; ``None`` means the device of ``x``.

    Returns:
        An array of the same shape as ``x`` filled with ones.
    """


@spec
def tril(x: Array, /, *, k: int = 0) -> Array:
    """Lower triangle of each matrix in ``x``; elements above the ``k``-th diagonal become zero.

    Args:
        x: input array of shape ``(..., M, N)``; the last two dimensions form the matrices.
        k: diagonal above which to zero: 0 is the main diagonal, positive values are above it,
            negative below.

    Returns:
        An array of the same shape and dtype as ``x``.
    """


@spec
def triu(x: Array, /, *, k: int = 0) -> Array:
    """Upper triangle of each matrix in ``x``; elements below the ``k``-th diagonal become zero.

    Args:
        x: input array of shape ``(..., M, N)``; the last two dimensions form the matrices.
        k: diagonal below which to zero: 0 is the main diagonal, positive values are above it,
            negative below.

    Returns:
        An array of the same shape and dtype as ``x``.
    """


@spec
def zeros(
    shape: int | tuple[int, ...],
    *,
    dtype: DType | None = None,
    device: Device | None = None,
) -> Array:
    """An array of the given shape filled with zeros.

    Args:
        shape: output shape.
        dtype: output dtype; ``None`` means the default real floating-point dtype.
        device: device to place the result on.

    Returns:
        An array of shape ``shape`` filled with zeros.
    """


@spec
def zeros_like(x: Array, /, *, dtype: DType | None = None, device: Device | None = None) -> Array:
    """An array with the shape of ``x`` filled with zeros.

    Args:
        x: array whose shape is used.
        dtype: output dtype; ``None`` means the dtype of ``x``.
        device: device to place the result on; ``None`` means the device of ``x``.

    Returns:
        An array of the same shape as ``x`` filled with zeros.
    """
