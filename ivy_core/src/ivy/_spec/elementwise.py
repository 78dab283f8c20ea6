"""Element-wise functions (Array API 2024.12, section "Element-wise Functions").

Unary functions take one array and return an array of the same shape. Binary functions broadcast
their inputs against each other and apply the type-promotion rules of the standard; either input may
be a Python scalar (``bool``, ``int``, ``float`` or ``complex``) as long as the other is an array.
"""

from __future__ import annotations

from ._base import Array, spec


@spec
def abs(x: Array, /) -> Array:
    """Absolute value |x|, element-wise. For complex input, the magnitude; the result is real.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def acos(x: Array, /) -> Array:
    """Principal inverse cosine, element-wise.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def acosh(x: Array, /) -> Array:
    """Inverse hyperbolic cosine, element-wise.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def add(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Sum x1 + x2, element-wise, with broadcasting and type promotion.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def asin(x: Array, /) -> Array:
    """Principal inverse sine, element-wise.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def asinh(x: Array, /) -> Array:
    """Inverse hyperbolic sine, element-wise.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def atan(x: Array, /) -> Array:
    """Principal inverse tangent, element-wise.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def atan2(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Inverse tangent of x1 / x2 using the signs of both to choose the quadrant, element-wise.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def atanh(x: Array, /) -> Array:
    """Inverse hyperbolic tangent, element-wise.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def bitwise_and(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Bitwise (logical for bool) AND, element-wise.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def bitwise_invert(x: Array, /) -> Array:
    """Bitwise NOT (logical NOT for bool), element-wise. Integer or bool input.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def bitwise_left_shift(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Shift the bits of x1 left by x2, element-wise. x2 must be non-negative.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def bitwise_or(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Bitwise (logical for bool) OR, element-wise.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def bitwise_right_shift(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Arithmetic shift of the bits of x1 right by x2, element-wise. x2 must be non-negative.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def bitwise_xor(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Bitwise (logical for bool) XOR, element-wise.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def ceil(x: Array, /) -> Array:
    """Smallest integer-valued number not less than x, element-wise; integer input is returned unchanged.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def clip(x: Array, /, min: Array | float | None = None, max: Array | float | None = None) -> Array:
    """Clamp every element of ``x`` into the range [``min``, ``max``].

    Args:
        x: input array (real-valued).
        min: lower bound (array broadcastable to ``x`` or scalar); ``None`` means no lower bound.
        max: upper bound; ``None`` means no upper bound.

    Returns:
        An array of the same shape and dtype as ``x``. Where ``min > max`` the result is ``max``.
    """


@spec
def conj(x: Array, /) -> Array:
    """Complex conjugate, element-wise; real input is returned unchanged.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def copysign(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Magnitude of x1 with the sign of x2, element-wise.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def cos(x: Array, /) -> Array:
    """Cosine (x in radians), element-wise.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def cosh(x: Array, /) -> Array:
    """Hyperbolic cosine, element-wise.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def divide(x1: Array | complex, x2: Array | complex, /) -> Array:
    """True division x1 / x2, element-wise; the result is floating.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def equal(x1: Array | complex, x2: Array | complex, /) -> Array:
    """x1 == x2, element-wise; returns bool.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def exp(x: Array, /) -> Array:
    """Exponential e**x, element-wise.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def expm1(x: Array, /) -> Array:
    """exp(x) - 1, element-wise, accurate for small x.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def floor(x: Array, /) -> Array:
    """Largest integer-valued number not greater than x, element-wise; integer input is returned unchanged.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def floor_divide(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Floor division x1 // x2, element-wise (rounds towards negative infinity).

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def greater(x1: Array | complex, x2: Array | complex, /) -> Array:
    """x1 > x2, element-wise; returns bool.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def greater_equal(x1: Array | complex, x2: Array | complex, /) -> Array:
    """x1 >= x2, element-wise; returns bool.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def hypot(x1: Array | complex, x2: Array | complex, /) -> Array:
    """sqrt(x1**2 + x2**2) without undue overflow or underflow, element-wise.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def imag(x: Array, /) -> Array:
    """Imaginary part of complex input, element-wise; the result has the matching real floating dtype.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def isfinite(x: Array, /) -> Array:
    """True where x is finite (not infinite and not NaN), element-wise.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def isinf(x: Array, /) -> Array:
    """True where x is positive or negative infinity, element-wise.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def isnan(x: Array, /) -> Array:
    """True where x is NaN, element-wise.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def less(x1: Array | complex, x2: Array | complex, /) -> Array:
    """x1 < x2, element-wise; returns bool.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def less_equal(x1: Array | complex, x2: Array | complex, /) -> Array:
    """x1 <= x2, element-wise; returns bool.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def log(x: Array, /) -> Array:
    """Natural logarithm, element-wise.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def log10(x: Array, /) -> Array:
    """Base-10 logarithm, element-wise.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def log1p(x: Array, /) -> Array:
    """log(1 + x), element-wise, accurate for small x.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def log2(x: Array, /) -> Array:
    """Base-2 logarithm, element-wise.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def logaddexp(x1: Array | complex, x2: Array | complex, /) -> Array:
    """log(exp(x1) + exp(x2)), element-wise, computed stably.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def logical_and(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Logical AND, element-wise; returns bool.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def logical_not(x: Array, /) -> Array:
    """Logical NOT, element-wise; returns bool.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def logical_or(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Logical OR, element-wise; returns bool.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def logical_xor(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Logical XOR, element-wise; returns bool.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def maximum(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Larger of x1 and x2, element-wise; NaN if either is NaN.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def minimum(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Smaller of x1 and x2, element-wise; NaN if either is NaN.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def multiply(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Product x1 * x2, element-wise.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def negative(x: Array, /) -> Array:
    """Numerical negative -x, element-wise.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def nextafter(x1: Array | complex, x2: Array | complex, /) -> Array:
    """The next representable floating value after x1 in the direction of x2, element-wise.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def not_equal(x1: Array | complex, x2: Array | complex, /) -> Array:
    """x1 != x2, element-wise; returns bool.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def positive(x: Array, /) -> Array:
    """Numerical positive +x, element-wise (a copy with the same dtype).

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def pow(x1: Array | complex, x2: Array | complex, /) -> Array:
    """x1 raised to the power x2, element-wise.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def real(x: Array, /) -> Array:
    """Real part, element-wise; complex input gives the matching real floating dtype.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def reciprocal(x: Array, /) -> Array:
    """1 / x, element-wise.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def remainder(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Remainder of floor division, with the sign of x2 (Python's %), element-wise.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def round(x: Array, /) -> Array:
    """Round to the nearest integer-valued number, halves to even, element-wise.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def sign(x: Array, /) -> Array:
    """Sign of x (-1, 0 or 1; x/|x| for complex), element-wise.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def signbit(x: Array, /) -> Array:
    """True where the sign bit of x is set (including -0.0 and negative NaN), element-wise.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def sin(x: Array, /) -> Array:
    """Sine (x in radians), element-wise.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def sinh(x: Array, /) -> Array:
    """Hyperbolic sine, element-wise.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def sqrt(x: Array, /) -> Array:
    """Principal square root, element-wise.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def square(x: Array, /) -> Array:
    """x * x, element-wise.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def subtract(x1: Array | complex, x2: Array | complex, /) -> Array:
    """Difference x1 - x2, element-wise.

    Args:
        x1: first input array (or Python scalar).
        x2: second input array (or Python scalar); broadcast against ``x1``.

    Returns:
        An array with the broadcast shape of ``x1`` and ``x2``.
    """


@spec
def tan(x: Array, /) -> Array:
    """Tangent (x in radians), element-wise.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def tanh(x: Array, /) -> Array:
    """Hyperbolic tangent, element-wise.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def trunc(x: Array, /) -> Array:
    """Round towards zero to an integer-valued number, element-wise; integer input is returned unchanged.

    Args:
        x: input array.

    Returns:
        An array of the same shape as ``x``.
    """
