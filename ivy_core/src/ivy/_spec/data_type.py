"""Data type functions (Array API 2024.12, section "Data Type Functions").

Casting and dtype introspection. Where a parameter accepts "an array or a dtype" it is annotated
``Array | DType``: an array argument takes part in backend inference, a dtype does not.
"""

from __future__ import annotations

from typing import Any

from ._base import Array, Device, DType, spec


@spec
def astype(x: Array, dtype: DType, /, *, copy: bool = True, device: Device | None = None) -> Array:
    """Cast ``x`` to ``dtype``, ignoring the type-promotion rules.

    Casting ``bool`` to a numeric dtype maps ``True``/``False`` to 1/0; casting a numeric value to
    ``bool`` maps zero to ``False`` and everything else to ``True``. Casting complex to a real dtype
    should be rejected (take ``real`` or ``imag`` first); casting NaN or infinity to an integer
    dtype is implementation-defined.

    Args:
        x: array to cast.
        dtype: target dtype.
        copy: if ``True`` a new array is always returned; if ``False`` and ``x`` already has
            ``dtype``, ``x`` itself is returned.
        device: device to place the result on; ``None`` means the device of ``x``.

    Returns:
        An array of the same shape as ``x`` with dtype ``dtype``.
    """


@spec
def can_cast(from_: Array | DType, to: DType, /) -> bool:
    """Whether the type-promotion rules allow casting ``from_`` to ``to``.

    Args:
        from_: a dtype, or an array whose dtype is used. For an array, the promotion rules of its
            device apply, so the answer may differ from that for ``from_.dtype``.
        to: target dtype.

    Returns:
        ``True`` if the cast is allowed by type promotion, ``False`` otherwise.
    """


@spec
def finfo(type: Array | DType, /) -> Any:
    """Machine limits of a floating-point dtype.

    For a complex dtype the limits are those of its real component dtype (e.g. ``float32`` for
    ``complex64``).

    Args:
        type: a floating-point dtype, or an array of one.

    Returns:
        An object with attributes ``bits`` (int), ``eps`` (float: gap between 1.0 and the next
        larger representable number), ``max`` and ``min`` (float: largest and smallest
        representable numbers), ``smallest_normal`` (float: smallest positive normal number) and
        ``dtype`` (the real floating-point dtype described).
    """


@spec
def iinfo(type: Array | DType, /) -> Any:
    """Machine limits of an integer dtype.

    Args:
        type: an integer dtype, or an array of one.

    Returns:
        An object with attributes ``bits`` (int), ``max`` and ``min`` (int: largest and smallest
        representable numbers) and ``dtype`` (the integer dtype described).
    """


@spec
def isdtype(dtype: DType, kind: DType | str | tuple[DType | str, ...]) -> bool:
    """Whether ``dtype`` is a given dtype or belongs to a given kind of dtypes.

    Args:
        dtype: the dtype to test.
        kind: a dtype (tested for equality), a kind name, or a tuple of dtypes and kind names
            (tested as a union). Kind names are ``"bool"``, ``"signed integer"``,
            ``"unsigned integer"``, ``"integral"`` (both integer kinds), ``"real floating"``,
            ``"complex floating"`` and ``"numeric"`` (integral, real and complex floating).
            Libraries may place extra dtypes (e.g. ``float16``) in the matching kinds.

    Returns:
        ``True`` if ``dtype`` matches ``kind``, ``False`` otherwise.
    """


@spec
def result_type(
    *arrays_and_dtypes: Array | DType | int | float | complex | bool,
) -> DType:
    """The dtype that results from applying type promotion to the arguments.

    At least one argument must be an array or a dtype; Python scalars promote as in mixed
    array/scalar operations. Mixing kinds (e.g. integer with floating-point) gives an
    implementation-defined result. With array arguments the promotion rules of their (shared)
    device apply; arrays on different devices give unspecified behaviour.

    Args:
        arrays_and_dtypes: any number of arrays, dtypes and Python scalars.

    Returns:
        The promoted dtype.
    """
