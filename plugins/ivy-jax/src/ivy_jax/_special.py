"""Special values of complex element-wise functions that XLA's kernels get wrong (NaN where the
standard has an infinity, a zero or pi/2; the sign of a zero). Real inputs never come here: the
ops that use these corrections keep jax's own function for them (``fastpath`` dtype guard).

Each rule is ``(mask, real, imag)`` on the input's parts ``x``, ``y``; later rules win. They are
the standard's special-case tables (the trigonometric ones through ``cos(z) = cosh(iz)``,
``sin(z) = -i sinh(iz)``, ``tan(z) = -i tanh(iz)``, ``asin(z) = -i asinh(iz)``,
``atan(z) = -i atanh(iz)``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ivy.plugin_kit import fastpath

__all__ = ["complex_corrected"]

INF, NAN = math.inf, math.nan
_HALF_PI = math.pi / 2


def _nan(v: Any) -> Any:
    return v != v


def _inf(v: Any) -> Any:
    return abs(v) == INF


def _fin(v: Any) -> Any:
    return (v - v) == 0  # False for NaN and both infinities


def _log_rules(scale: float, shift: float) -> Callable[..., list[tuple[Any, Any, Any]]]:
    def rules(x: Any, y: Any) -> list[tuple[Any, Any, Any]]:
        return [(_inf(x) | _inf(y), INF, jnp.atan2(y, x + shift) / scale)]

    return rules


RULES: dict[str, Callable[..., list[tuple[Any, Any, Any]]]] = {
    "exp": lambda x, y: [((x == -INF) & ~_fin(y), 0.0, 0.0), ((x == INF) & ~_fin(y), INF, NAN)],
    "cosh": lambda x, y: [(_inf(x) & ~_fin(y), INF, NAN), ((x == 0) & ~_fin(y), NAN, 0.0)],
    "sinh": lambda x, y: [((_inf(x) | (x == 0)) & ~_fin(y), x, NAN)],
    "expm1": lambda x, y: [((x == -INF) & ~_fin(y), -1.0, 0.0), ((x == INF) & ~_fin(y), INF, NAN)],
    # tanh(+-inf + yj): +-1 + 0j with the sign of y on the zero (XLA: C99's sign of sin(2y))
    "tanh": lambda x, y: [((x == 0) & ~_fin(y), x, NAN), (_inf(x), jnp.copysign(1.0, x), jnp.copysign(0.0, y))],
    "cos": lambda x, y: [(_inf(y) & ~_fin(x), INF, NAN), ((y == 0) & ~_fin(x), NAN, 0.0)],
    "sin": lambda x, y: [((_inf(y) | (y == 0)) & ~_fin(x), NAN, y)],
    "tan": lambda x, y: [((y == 0) & ~_fin(x), NAN, y)],
    "log": _log_rules(1.0, 0.0),
    "log2": _log_rules(math.log(2.0), 0.0),
    "log10": _log_rules(math.log(10.0), 0.0),
    "log1p": _log_rules(1.0, 1.0),
    "sqrt": lambda x, y: [
        (_inf(x) & _nan(y) & (x > 0), INF, NAN),
        (_inf(x) & _nan(y) & (x < 0), NAN, INF),
        (_inf(y), INF, y),
    ],
    # (x, NaN) and (NaN, y) for a finite nonzero x or y are NaN + NaN j: XLA's large-argument
    # formulas give one finite part there (acos(1e300 + NaN j) = NaN - 691j)
    "acos": lambda x, y: [
        (_fin(x) & (x != 0) & _nan(y), NAN, NAN),
        ((x == 0) & _nan(y), _HALF_PI, NAN),
        ((y == 0) & (abs(x) <= 1), jnp.acos(x), -y),  # acos(a + 0j) = acos(a) - 0j (XLA: the sign of y)
    ],
    "acosh": lambda x, y: [(_fin(x) & (x != 0) & _nan(y), NAN, NAN), ((x == 0) & _nan(y), NAN, _HALF_PI)],
    "asin": lambda x, y: [(_fin(x) & (x != 0) & _nan(y), NAN, NAN), ((x == 0) & _nan(y), x, NAN)],
    "asinh": lambda x, y: [(_nan(x) & _fin(y) & (y != 0), NAN, NAN), (_nan(x) & (y == 0), NAN, y)],
    "atanh": lambda x, y: [
        (_nan(x) & ~_inf(y), NAN, NAN),
        (_nan(y) & _fin(x) & (x != 0), NAN, NAN),
        (_nan(y) & (x == 0), x, NAN),
        (_nan(y) & _inf(x), 0.0, NAN),
    ],
    "atan": lambda x, y: [
        (_nan(y) & ~_inf(x), NAN, NAN),
        (_nan(x) & _fin(y) & (y != 0), NAN, NAN),
        (_nan(x) & (y == 0), NAN, y),
        (_nan(x) & _inf(y), NAN, 0.0),
    ],
}

_COMPLEX = (np.dtype("complex64"), np.dtype("complex128"))
#: every dtype but the complex ones: jax's own function, called from C
_NOT_COMPLEX = frozenset(
    np.dtype(n)
    for n in (
        "bool",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "float16",
        "float32",
        "float64",
    )
) | {jnp.bfloat16.dtype if hasattr(jnp.bfloat16, "dtype") else np.dtype(jnp.bfloat16)}


def complex_corrected(native: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``native`` for real input; for complex input, its result with the standard's special values."""
    rules = RULES[name]

    @jax.jit  # one dispatch for the kernel and its corrections (eager calls would pay each op)
    def corrected(z: Any) -> Any:
        out = native(z)
        re, im = jnp.real(out), jnp.imag(out)
        for mask, r, i in rules(jnp.real(z), jnp.imag(z)):
            re, im = jnp.where(mask, r, re), jnp.where(mask, i, im)
        return jax.lax.complex(re, im)  # (re + 1j * im would turn an infinite im into a NaN real part)

    def op(x: Any, /) -> Any:
        dt = getattr(x, "dtype", None)
        if dt is None:
            dt = jnp.result_type(x)
        return corrected(x) if dt in _COMPLEX else native(x)

    op.__name__ = op.__qualname__ = name
    op.__module__ = "ivy_jax.elementwise"
    return fastpath(native, op, nargs=1, dtypes=_NOT_COMPLEX)
