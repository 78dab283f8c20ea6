"""Special values the standard specifies, beyond the real grid of test_ref_elementwise.py.

* complex element-wise functions on a grid of real and imaginary parts drawn from NaN, the
  infinities, zeros and finite numbers, against array_api_strict;
* ``floor_divide`` and ``remainder`` with infinite, zero and NaN operands;
* ``linalg.pinv`` and ``linalg.matrix_rank`` with an array ``rtol`` (one per matrix of a stack).

Compared like the reference suite: NaN-equal, signed zeros not compared (their sign is mostly left
open). Where the standard leaves the sign of a component open (``infinity + NaN j``,
``NaN ± πj/2``: a NaN component), only the magnitudes of the components are compared.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import ivy
from ivy.testing._helpers.compare import strict_to_numpy
from ivy.testing._helpers.ref import strict_op, xs
from ivy.testing._helpers.registry import covers
from ivy.testing._helpers.strategies import backend_dtypes
from ivy.testing.convert import dtype_name, native_to_numpy, to_native

PARTS = [math.nan, math.inf, -math.inf, 0.0, 1.0, -1.0, 0.5, -2.5]
#: complex element-wise functions checked on the grid. expm1 and tanh are left out: NumPy (so the
#: reference) gives NaN where the standard gives -1 + 0j / 1 + 0j for infinite real parts.
COMPLEX_UNARY = [
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atanh",
    "cos",
    "cosh",
    "exp",
    "log",
    "log10",
    "log1p",
    "log2",
    "sin",
    "sinh",
    "sqrt",
    "square",
    "tan",
]
TOL = {"complex64": (2e-4, 1e-5), "complex128": (1e-9, 1e-11), "float32": (2e-4, 1e-5), "float64": (1e-9, 1e-11)}


def _grid(dtype: str) -> np.ndarray:
    re, im = np.meshgrid(PARTS, PARTS, indexing="ij")
    z = np.empty(re.size, dtype=dtype)
    z.real, z.imag = re.ravel(), im.ravel()  # (re + 1j * im would turn inf parts into NaN)
    return z


def _close(a: np.ndarray, b: np.ndarray, rtol: float, atol: float) -> np.ndarray:
    with np.errstate(all="ignore"):
        same = (a == b) | (np.isnan(a) & np.isnan(b))
        return same | (np.isfinite(a) & np.isfinite(b) & (np.abs(a - b) <= atol + rtol * np.abs(b)))


def _mismatches(got: np.ndarray, want: np.ndarray, dtype: str) -> np.ndarray:
    rtol, atol = TOL[dtype]
    if not np.iscomplexobj(want):
        return ~_close(got.astype(np.float64), want.astype(np.float64), rtol, atol)
    gr, gi, wr, wi = got.real, got.imag, want.real, want.imag
    open_sign = np.isnan(wr) | np.isnan(wi)  # the standard leaves the other component's sign open
    gr, wr = np.where(open_sign, np.abs(gr), gr), np.where(open_sign, np.abs(wr), wr)
    gi, wi = np.where(open_sign, np.abs(gi), gi), np.where(open_sign, np.abs(wi), wi)
    return ~(
        _close(gr.astype(np.float64), wr.astype(np.float64), rtol, atol)
        & _close(gi.astype(np.float64), wi.astype(np.float64), rtol, atol)
    )


def _compare(name: str, backend: str, *args: np.ndarray, also: np.ndarray | None = None) -> str | None:
    """Mismatches of ``ivy.<name>`` with the reference (or, where given, with ``also``)."""
    with np.errstate(all="ignore"):
        want = strict_op(name)(*[xs.asarray(a) for a in args])
    got = getattr(ivy, name)(*[to_native(backend, a) for a in args])
    wn, gn = strict_to_numpy(want), native_to_numpy(backend, got)
    if dtype_name(got.dtype) != wn.dtype.name:
        return f"{name}: dtype {dtype_name(got.dtype)} != {wn.dtype.name}"
    bad = _mismatches(gn, wn, wn.dtype.name)
    if also is not None:
        bad &= _mismatches(gn, also.astype(wn.dtype), wn.dtype.name)
    if not bad.any():
        return None
    cells = [f"{tuple(a[i] for a in args)} -> {gn[i]} (want {wn[i]})" for i in np.flatnonzero(bad)[:4]]
    return f"{name}: {int(bad.sum())} cells, e.g. " + "; ".join(cells)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_ref_conformance_complex_special_values(dtype: str, backend: str, xp: Any) -> None:
    if dtype not in backend_dtypes(backend, "complex"):
        pytest.skip(f"{backend} lacks {dtype}")
    x = _grid(dtype)
    failures = [f for f in (_compare(n, backend, x) for n in COMPLEX_UNARY) if f]
    # sign(z) is z / |z|: the standard leaves complex division with infinite parts to the library
    finite_or_nan = x[~np.isinf(x.real) & ~np.isinf(x.imag)]
    failures += [f for f in [_compare("sign", backend, finite_or_nan)] if f]
    assert not failures, "complex special values:\n" + "\n".join(failures)


@covers("floor_divide", "remainder")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_ref_conformance_division_special_values(dtype: str, backend: str, xp: Any) -> None:
    """floor_divide and remainder with infinities, zeros and NaN, against the reference (the
    standard's notes allow NumPy's Python-like answers for an infinite operand, which it gives)."""
    if dtype not in backend_dtypes(backend, "float"):
        pytest.skip(f"{backend} lacks {dtype}")
    v = np.array(PARTS + [3.0, -0.75], dtype=dtype)
    x1, x2 = (a.ravel() for a in np.meshgrid(v, v, indexing="ij"))
    # Where the standard's notes allow both, its preferred floor(x1 / x2) (inf // 2 is inf,
    # -1 // inf is -0) is accepted next to NumPy's Python-like answer (NaN, -1).
    with np.errstate(all="ignore"):
        preferred = np.floor(x1 / x2)
    failures = [_compare("floor_divide", backend, x1, x2, also=preferred), _compare("remainder", backend, x1, x2)]
    failures = [f for f in failures if f]
    assert not failures, "division special values:\n" + "\n".join(failures)


@covers("linalg.pinv", "linalg.matrix_rank")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_ref_conformance_array_rtol(dtype: str, backend: str, xp: Any) -> None:
    """An array ``rtol`` (one per matrix of the stack, and 0-d) in pinv and matrix_rank."""
    if dtype not in backend_dtypes(backend, "float"):
        pytest.skip(f"{backend} lacks {dtype}")
    rng = np.random.default_rng(0)
    u = rng.standard_normal((2, 3, 4, 4))
    s = np.array([1.0, 0.5, 0.2, 0.05])
    a = (u * s[None, None, None, :]) @ np.linalg.qr(rng.standard_normal((4, 4)))[0]
    a = a.astype(dtype)
    for rtol in (np.array([[0.01, 0.3, 0.6], [0.1, 0.9, 0.001]], dtype=dtype), np.array(0.25, dtype=dtype)):
        for name in ("linalg.pinv", "linalg.matrix_rank"):
            fn = ivy.linalg.pinv if name == "linalg.pinv" else ivy.linalg.matrix_rank
            ref = xs.linalg.pinv if name == "linalg.pinv" else xs.linalg.matrix_rank
            want = ref(xs.asarray(a), rtol=xs.asarray(rtol))
            got = fn(to_native(backend, a), rtol=to_native(backend, rtol))
            wn, gn = strict_to_numpy(want), native_to_numpy(backend, got)
            assert dtype_name(got.dtype) == wn.dtype.name, (name, got.dtype)
            assert gn.shape == wn.shape, (name, gn.shape, wn.shape)
            if name == "linalg.pinv":
                np.testing.assert_allclose(gn, wn, rtol=1e-3 if dtype == "float32" else 1e-8, atol=1e-4, err_msg=name)
            else:
                np.testing.assert_array_equal(gn, wn, err_msg=name)
