"""Hypothesis strategies for the reference tests: small arrays of the backend's dtypes."""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from ivy.testing.convert import DTYPES

SIGNED = ("int8", "int16", "int32", "int64")
UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
INTS = SIGNED + UNSIGNED
FLOATS = ("float32", "float64")
COMPLEX = ("complex64", "complex128")
KIND_DTYPES = {
    "bool": ("bool",),
    "int": INTS,
    "signed": SIGNED,
    "unsigned": UNSIGNED,
    "float": FLOATS,
    "complex": COMPLEX,
    "real": INTS + FLOATS,
    "numeric": INTS + FLOATS + COMPLEX,
    "all": DTYPES,
}

#: Float element domains (low, high), generated in float64 and cast to the target dtype.
FLOAT_DOMAINS = {
    "any": (-10.0, 10.0),
    "small": (-4.0, 4.0),
    "unit": (-0.99, 0.99),
    "ge1": (1.0, 10.0),
    "pos": (0.05, 10.0),
    "gtm1": (-0.9, 10.0),
    "tan": (-1.4, 1.4),
    "nonneg": (0.0, 10.0),
    "tiny": (-3.0, 3.0),
    "wide": (-1e30, 1e30),
}
#: Integer element domains; clipped to the dtype's range (so unsigned start at 0).
INT_DOMAINS = {
    "any": (-10, 10),
    "small": (-4, 4),
    "tiny": (-3, 3),
    "pos": (1, 10),
    "nonneg": (0, 10),
    "shift": (0, 3),
    "pow_exp": (0, 3),
    "wide": (-(2**63), 2**64 - 1),  # the dtype's whole range
}


def kind_of(dtype: str) -> str:
    if dtype == "bool":
        return "bool"
    if dtype in INTS:
        return "int"
    if dtype in FLOATS:
        return "float"
    return "complex"


def dtypes_of(*kinds: str) -> tuple[str, ...]:
    want: set[str] = set()
    for k in kinds:
        want.update(KIND_DTYPES[k])
    return tuple(d for d in DTYPES if d in want)


@cache
def supported_dtypes(backend: str) -> tuple[str, ...]:
    """The dtype names the backend declares (``xp.__array_namespace_info__().dtypes()``)."""
    import ivy

    names = set(ivy.backend_namespace(backend).__array_namespace_info__().dtypes())
    return tuple(d for d in DTYPES if d in names)


def backend_dtypes(backend: str, *kinds: str) -> list[str]:
    sup = supported_dtypes(backend)
    return [d for d in dtypes_of(*kinds) if d in sup]


def _normalise(a: np.ndarray) -> np.ndarray:
    # No signed zeros: their handling is mostly unspecified by the standard.
    if a.dtype.kind in "fc":
        a = np.asarray(a + np.zeros((), a.dtype))
    return np.asarray(a)


def elements(dtype: str, domain: str = "any", specials: bool = False) -> st.SearchStrategy[Any]:
    """Python values for one element of ``dtype`` in ``domain``.

    Extra domains: ``nonzero`` (no zeros), ``quarter`` (multiples of 0.25, exact in binary),
    ``quarter_nz`` (the same without zero).
    """
    if dtype == "bool":
        return st.booleans()
    if dtype in INTS:
        info = np.iinfo(dtype)
        if domain == "nonzero":
            lo, hi = INT_DOMAINS["any"]
        elif domain in ("quarter", "quarter_nz"):
            lo, hi = INT_DOMAINS["any"]
        else:
            lo, hi = INT_DOMAINS.get(domain, INT_DOMAINS["any"])
        lo, hi = max(lo, int(info.min)), min(hi, int(info.max))
        s = st.integers(lo, hi)
        if domain in ("nonzero", "quarter_nz"):
            s = s.filter(lambda v: v != 0)
        return s
    if domain == "quarter":
        base: st.SearchStrategy[float] = st.integers(-32, 32).map(lambda k: k / 4)
    elif domain == "quarter_nz":
        base = st.integers(-32, 32).filter(lambda k: k != 0).map(lambda k: k / 4)
    elif domain == "nonzero":
        mag = st.floats(0.25, 10.0)
        base = st.tuples(st.booleans(), mag).map(lambda t: -t[1] if t[0] else t[1])
    else:
        lo, hi = FLOAT_DOMAINS[domain]
        # float32 values drawn at 32 bits: a tiny float64 cast to float32 would be subnormal, and
        # CPU kernels of XLA and TF flush subnormals to zero (behaviour the standard leaves open)
        width = 32 if dtype in ("float32", "complex64") else 64
        base = st.floats(
            *_bounds(lo, hi, width), width=width, allow_nan=False, allow_infinity=False, allow_subnormal=False
        )
    if dtype in COMPLEX:
        if domain in ("nonzero", "quarter_nz"):
            return st.complex_numbers(
                min_magnitude=0.25, max_magnitude=5.0, allow_nan=False, allow_infinity=False, allow_subnormal=False
            )
        lo, hi = FLOAT_DOMAINS.get(domain, (-5.0, 5.0))
        width = 32 if dtype == "complex64" else 64
        part = st.floats(
            *_bounds(lo, hi, width), width=width, allow_nan=False, allow_infinity=False, allow_subnormal=False
        )
        base = st.builds(complex, part, part)
    if specials:
        base = st.one_of(base, base, base, st.sampled_from([math.nan, math.inf, -math.inf]))
    return base


def _bounds(lo: float, hi: float, width: int) -> tuple[float, float]:
    """``lo``, ``hi`` rounded inward to floats of ``width`` bits (hypothesis needs exact bounds)."""
    if width == 64:
        return lo, hi
    l32, h32 = np.float32(lo), np.float32(hi)
    if float(l32) < lo:
        l32 = np.nextafter(l32, np.float32(np.inf))
    if float(h32) > hi:
        h32 = np.nextafter(h32, np.float32(-np.inf))
    return float(l32), float(h32)


def shapes(
    min_dims: int = 0, max_dims: int = 3, min_side: int = 0, max_side: int = 4
) -> st.SearchStrategy[tuple[int, ...]]:
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side)


def arrays(
    dtype: str, shape: Any = None, domain: str = "any", specials: bool = False, unique: bool = False
) -> st.SearchStrategy[np.ndarray]:
    """NumPy arrays of ``dtype`` (generated at 64 bits, then cast) with small shapes."""
    if shape is None:
        shape = shapes()
    gen = {"bool": "bool", "float32": "float64", "complex64": "complex128"}.get(dtype, dtype)
    if dtype in INTS:
        gen = "int64" if dtype != "uint64" else "uint64"
    return hnp.arrays(np.dtype(gen), shape, elements=elements(dtype, domain, specials), unique=unique).map(
        lambda a: _normalise(a.astype(dtype))
    )


def scalar_for(dtype: str, domain: str = "any") -> st.SearchStrategy[Any]:
    """A Python scalar of the kind of ``dtype`` (bool, int, float or complex)."""
    k = kind_of(dtype)
    if k == "bool":
        return st.booleans()
    if k == "int":
        return elements(dtype, domain)
    if k == "float":
        return elements("float64", domain).map(float)
    return elements("complex128", domain).map(complex)


def axis_arg(ndim: int, *, none: bool = True, tuples: bool = True, negative: bool = True) -> st.SearchStrategy[Any]:
    """``None``, an int (possibly negative) or a tuple of distinct axes of an ``ndim``-D array."""
    opts: list[st.SearchStrategy[Any]] = []
    if none:
        opts.append(st.none())
    if ndim > 0:
        lo = -ndim if negative else 0
        opts.append(st.integers(lo, ndim - 1))
        if tuples:
            opts.append(
                st.lists(st.integers(0, ndim - 1), unique=True, min_size=0 if ndim else 0, max_size=ndim).flatmap(
                    lambda ax: st.tuples(*[st.sampled_from([a, a - ndim]) if negative else st.just(a) for a in ax])
                )
            )
    if not opts:
        opts.append(st.none())
    return st.one_of(*opts)


def norm_axes(axis: Any, ndim: int) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, int):
        axis = (axis,)
    return tuple(a % ndim for a in axis) if ndim else ()
