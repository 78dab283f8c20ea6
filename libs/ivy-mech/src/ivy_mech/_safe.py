"""Numerically safe building blocks: finite values and finite gradients at singular points."""

from __future__ import annotations

from typing import Any

import ivy


def safe_norm(x: Any, axis: int = -1, keepdims: bool = False) -> Any:
    """Euclidean norm along ``axis`` whose gradient at the zero vector is 0, not NaN.

    ``sqrt`` has an infinite derivative at 0, so the square root is taken of a substitute 1
    where the squared norm is 0 and the result is then replaced by 0 there.
    """
    sq = ivy.sum(x * x, axis=axis, keepdims=keepdims)
    nonzero = sq > 0
    return ivy.where(nonzero, ivy.sqrt(ivy.where(nonzero, sq, 1.0)), 0.0)


def safe_atan2(y: Any, x: Any) -> Any:
    """``atan2(y, x)`` that returns 0 with zero gradient at ``y = x = 0`` (where it is undefined)."""
    origin = ivy.logical_and(y == 0, x == 0)
    return ivy.where(origin, 0.0, ivy.atan2(ivy.where(origin, 0.0, y), ivy.where(origin, 1.0, x)))


def safe_divide(num: Any, den: Any, fallback: Any = 0.0) -> Any:
    """``num / den`` where ``den != 0``, else ``fallback``; gradients stay finite in both cases."""
    nonzero = den != 0
    return ivy.where(nonzero, num / ivy.where(nonzero, den, 1.0), fallback)


# Below this angle (radians) the Taylor series are used: their first omitted term is below 1e-16.
_SMALL = 1e-2


def sinc(x: Any) -> Any:
    """``sin(x) / x`` (1 at ``x = 0``), with finite values and gradients everywhere."""
    x_sq = x * x
    small = x_sq < _SMALL * _SMALL
    series = 1.0 - x_sq / 6.0 + x_sq * x_sq / 120.0
    return ivy.where(small, series, ivy.sin(x) / ivy.where(small, 1.0, x))


def atan2_over(n: Any, w: Any) -> Any:
    """``atan2(n, w) / n`` for ``n >= 0`` (``1 / w`` at ``n = 0``), finite values and gradients.

    This is the factor that turns a quaternion's vector part ``v`` (``n = |v|``, scalar part ``w``)
    into half its rotation vector; it is used with ``w >= 0``.
    """
    small = n < _SMALL * w
    w_safe = ivy.where(small, w, 1.0)
    ratio_sq = ivy.square(n / w_safe)
    series = (1.0 - ratio_sq / 3.0 + ratio_sq * ratio_sq / 5.0) / w_safe
    return ivy.where(small, series, safe_atan2(n, w) / ivy.where(small, 1.0, n))


def safe_normalize(x: Any, fallback: Any, axis: int = -1) -> Any:
    """``x / |x|`` along ``axis``; where ``x`` is the zero vector, ``fallback`` (broadcast)."""
    norm = safe_norm(x, axis=axis, keepdims=True)
    return ivy.where(norm > 0, x / ivy.where(norm > 0, norm, 1.0), fallback)
