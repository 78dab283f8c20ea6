"""Statistical functions (Array API 2024.12, section "Statistical Functions").

Reductions take ``axis`` (an int, a tuple of ints, or ``None`` for all axes) and ``keepdims``
(keep reduced axes as dimensions of size one). When the ``dtype`` parameter of ``sum``, ``prod``
and the cumulative functions is ``None``, the result dtype is: the default integer dtype for
``bool`` and signed integer input, the unsigned integer dtype as wide as the default integer dtype
for unsigned input, and the input dtype for floating-point (real or complex) input.
"""

from __future__ import annotations

from ._base import Array, DType, spec


@spec
def cumulative_prod(
    x: Array,
    /,
    *,
    axis: int | None = None,
    dtype: DType | None = None,
    include_initial: bool = False,
) -> Array:
    """Cumulative product of the elements of ``x`` along an axis.

    Args:
        x: input array, numeric (or boolean).
        axis: axis along which to accumulate; may be ``None`` only for one-dimensional input.
        dtype: dtype of the result and of the accumulation (see the module notes for the default).
        include_initial: if ``True``, the result starts with the empty product (one), making it one
            element longer along ``axis``.

    Returns:
        An array of the shape of ``x`` (plus one along ``axis`` with ``include_initial``).
    """


@spec
def cumulative_sum(
    x: Array,
    /,
    *,
    axis: int | None = None,
    dtype: DType | None = None,
    include_initial: bool = False,
) -> Array:
    """Cumulative sum of the elements of ``x`` along an axis.

    Args:
        x: input array, numeric (or boolean).
        axis: axis along which to accumulate; may be ``None`` only for one-dimensional input.
        dtype: dtype of the result and of the accumulation (see the module notes for the default).
        include_initial: if ``True``, the result starts with the empty sum (zero), making it one
            element longer along ``axis``.

    Returns:
        An array of the shape of ``x`` (plus one along ``axis`` with ``include_initial``).
    """


@spec
def max(
    x: Array,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    keepdims: bool = False,
) -> Array:
    """Maximum of ``x`` over the given axes.

    NaNs propagate: a slice containing NaN gives NaN. Reducing an empty slice is
    implementation-defined (usually an error). Complex ordering is unspecified.

    Args:
        x: input array, real-valued.
        axis: axis or axes to reduce; ``None`` reduces over all elements.
        keepdims: keep the reduced axes as dimensions of size one.

    Returns:
        The maxima, with the dtype of ``x``; 0-D when reducing over all axes.
    """


@spec
def mean(
    x: Array,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    keepdims: bool = False,
) -> Array:
    """Arithmetic mean of ``x`` over the given axes.

    The mean of an empty slice is NaN; NaNs propagate.

    Args:
        x: input array, real or complex floating-point.
        axis: axis or axes to reduce; ``None`` reduces over all elements.
        keepdims: keep the reduced axes as dimensions of size one.

    Returns:
        The means, with the dtype of ``x``; 0-D when reducing over all axes.
    """


@spec
def min(
    x: Array,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    keepdims: bool = False,
) -> Array:
    """Minimum of ``x`` over the given axes.

    NaNs propagate: a slice containing NaN gives NaN. Reducing an empty slice is
    implementation-defined (usually an error). Complex ordering is unspecified.

    Args:
        x: input array, real-valued.
        axis: axis or axes to reduce; ``None`` reduces over all elements.
        keepdims: keep the reduced axes as dimensions of size one.

    Returns:
        The minima, with the dtype of ``x``; 0-D when reducing over all axes.
    """


@spec
def prod(
    x: Array,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    dtype: DType | None = None,
    keepdims: bool = False,
) -> Array:
    """Product of the elements of ``x`` over the given axes.

    The product of an empty slice is one; NaNs propagate.

    Args:
        x: input array, numeric (or boolean).
        axis: axis or axes to reduce; ``None`` reduces over all elements.
        dtype: dtype of the result and of the accumulation (see the module notes for the default).
        keepdims: keep the reduced axes as dimensions of size one.

    Returns:
        The products; 0-D when reducing over all axes.
    """


@spec
def std(
    x: Array,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    correction: int | float = 0.0,
    keepdims: bool = False,
) -> Array:
    """Standard deviation of ``x`` over the given axes.

    Computed as the square root of ``sum(|x - mean|**2) / (N - correction)`` with ``N`` the number
    of reduced elements. If ``N - correction <= 0`` the result is NaN; NaNs propagate.

    Args:
        x: input array, real floating-point.
        axis: axis or axes to reduce; ``None`` reduces over all elements.
        correction: degrees-of-freedom adjustment: ``0`` for the population statistic, ``1`` for
            the unbiased sample estimate (Bessel's correction). Must be non-negative.
        keepdims: keep the reduced axes as dimensions of size one.

    Returns:
        The standard deviations, with the dtype of ``x``; 0-D when reducing over all axes.
    """


@spec
def sum(
    x: Array,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    dtype: DType | None = None,
    keepdims: bool = False,
) -> Array:
    """Sum of the elements of ``x`` over the given axes.

    The sum of an empty slice is zero; NaNs propagate.

    Args:
        x: input array, numeric (or boolean).
        axis: axis or axes to reduce; ``None`` reduces over all elements.
        dtype: dtype of the result and of the accumulation (see the module notes for the default).
        keepdims: keep the reduced axes as dimensions of size one.

    Returns:
        The sums; 0-D when reducing over all axes.
    """


@spec
def var(
    x: Array,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    correction: int | float = 0.0,
    keepdims: bool = False,
) -> Array:
    """Variance of ``x`` over the given axes.

    Computed as ``sum(|x - mean|**2) / (N - correction)`` with ``N`` the number of reduced
    elements. If ``N - correction <= 0`` the result is NaN; NaNs propagate.

    Args:
        x: input array, real floating-point.
        axis: axis or axes to reduce; ``None`` reduces over all elements.
        correction: degrees-of-freedom adjustment: ``0`` for the population statistic, ``1`` for
            the unbiased sample estimate (Bessel's correction). Must be non-negative.
        keepdims: keep the reduced axes as dimensions of size one.

    Returns:
        The variances, with the dtype of ``x``; 0-D when reducing over all axes.
    """
