"""Special values the standard specifies, beyond the real grid of test_ref_elementwise.py.

* complex element-wise functions on a grid of real and imaginary parts drawn from NaN, the
  infinities, zeros and finite numbers, against array_api_strict;
* ``floor_divide`` and ``remainder`` with infinite, zero and NaN operands;
* ``linalg.pinv`` and ``linalg.matrix_rank`` with an array ``rtol`` (one per matrix of a stack);
* ``expm1`` and ``tanh`` of complex numbers with infinite or NaN parts, against the standard's
  tables, and the signs of zero results the standard gives (``floor_divide``, ``remainder``,
  ``acos``, ``sign``, ``expm1``, ``tanh``);
* ``eye`` with a diagonal offset outside the matrix, also beyond int64.

Compared like the reference suite: NaN-equal, signed zeros not compared (their sign is mostly left
open) except by the tests of the signs the standard gives. Where the standard leaves the sign of
a component open (``infinity + NaN j``, ``NaN ± πj/2``: a NaN component), only the magnitudes of
the components are compared.
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


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_ref_conformance_complex_nan_with_large_parts(dtype: str, backend: str, xp: Any) -> None:
    """A NaN part next to a large finite one (where kernels switch to large-argument formulas)."""
    if dtype not in backend_dtypes(backend, "complex"):
        pytest.skip(f"{backend} lacks {dtype}")
    big = [1e30, -3e35] if dtype == "complex64" else [1e154, -3e160, 1e300]
    x = np.empty(4 * len(big), dtype=dtype)
    x.real = [p for b in big for p in (b, math.nan, -b, math.nan)]
    x.imag = [p for b in big for p in (math.nan, b, math.nan, -b)]
    failures = [f for f in (_compare(n, backend, x) for n in COMPLEX_UNARY) if f]
    assert not failures, "NaN next to large parts:\n" + "\n".join(failures)


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


def _expm1_table(a: float, b: float) -> tuple[float, float] | None:
    """The standard's expm1(a + bj) where a part is infinite or NaN (None: finite parts)."""
    if math.isnan(a):
        return math.nan, (0.0 if b == 0 else math.nan)
    if a == -math.inf:
        return -1.0, 0.0  # +0 * cis(b) - 1 for finite b; -1 + 0j for infinite or NaN b
    if a == math.inf:
        if b == 0:
            return math.inf, b
        if math.isfinite(b):
            return math.inf * math.cos(b), math.inf * math.sin(b)  # +infinity * cis(b) - 1
        return math.inf, math.nan
    return None if math.isfinite(b) else (math.nan, math.nan)


def _tanh_table(a: float, b: float) -> tuple[float, float] | None:
    """The standard's tanh(a + bj) where a part is infinite or NaN (None: finite parts)."""
    if math.isinf(a):
        return math.copysign(1.0, a), math.copysign(0.0, b)
    if math.isnan(a):
        return math.nan, (b if b == 0 else math.nan)
    if not math.isfinite(b):
        return (a if a == 0 else math.nan), math.nan
    return None


@covers("expm1", "tanh")
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("name", ["expm1", "tanh"])
def test_ref_conformance_complex_expm1_tanh(name: str, dtype: str, backend: str, xp: Any) -> None:
    """expm1 and tanh of complex numbers with infinite or NaN parts against the standard's tables
    (NumPy, and so the reference, gives NaN parts for expm1 with an infinite real part, and C99's
    sign of zero for tanh(inf + yj)); finite parts against the reference. Signs of zeros the
    standard gives: expm1(+-0 + 0j) is +0 + 0j, and the zero imaginary part of tanh(+-inf + yj),
    finite y, has the sign of y."""
    if dtype not in backend_dtypes(backend, "complex"):
        pytest.skip(f"{backend} lacks {dtype}")
    x = _grid(dtype)
    table = _expm1_table if name == "expm1" else _tanh_table
    with np.errstate(all="ignore"):
        want = strict_to_numpy(strict_op(name)(xs.asarray(x))).copy()
    for i, z in enumerate(x):
        special = table(float(z.real), float(z.imag))
        if special is not None:
            want.real[i], want.imag[i] = special
    got = native_to_numpy(backend, getattr(ivy, name)(to_native(backend, x)))
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    bad = _mismatches(got, want, dtype)
    if name == "expm1":
        # expm1(+-0 + 0j) is +0 + 0j, and its conjugate for -0j
        zero = (x.real == 0) & (x.imag == 0)
        bad |= zero & (np.signbit(got.real) | (np.signbit(got.imag) != np.signbit(x.imag)))
    if name == "tanh":
        # tanh(+0 + inf j) and tanh(+0 + NaN j) may be NaN + NaN j (the standard's warning)
        bad &= ~((x.real == 0) & ~np.isfinite(x.imag) & np.isnan(got.real) & np.isnan(got.imag))
        bad |= np.isinf(x.real) & np.isfinite(x.imag) & (np.signbit(got.imag) != np.signbit(x.imag))
    cells = [f"{x[i]} -> {got[i]} (want {want[i]})" for i in np.flatnonzero(bad)[:4]]
    assert not cells, f"{name}: {int(bad.sum())} cells, e.g. " + "; ".join(cells)


def _signed_zero_cases(name: str, dtype: str, backend: str) -> list[tuple[np.ndarray, ...]]:
    """The inputs of ``test_ref_conformance_signed_zeros``: real grids, complex zeros (each part
    +-0) and acos's real axis, each where the backend has the dtype."""
    cdtype = {"float32": "complex64", "float64": "complex128"}[dtype]
    has_complex = cdtype in backend_dtypes(backend, "complex")
    v = np.array(PARTS + [3.0, -0.75, -0.0], dtype=dtype)
    if name in ("floor_divide", "remainder"):
        return [tuple(a.ravel() for a in np.meshgrid(v, v, indexing="ij"))]
    if name == "sign":
        zeros = np.zeros(4, dtype=cdtype)
        zeros.real, zeros.imag = [0.0, -0.0, 0.0, -0.0], [0.0, 0.0, -0.0, -0.0]
        return [(v,), (zeros,)] if has_complex else [(v,)]
    z = np.zeros(10, dtype=cdtype)  # acos
    z.real = [-1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 0.0, -0.0, 0.25, -1.0]
    z.imag = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.0, -0.0, -0.0, -0.0]
    return [(z,)] if has_complex else []


@covers("floor_divide", "remainder", "acos", "sign")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["floor_divide", "remainder", "acos", "sign"])
def test_ref_conformance_signed_zeros(name: str, dtype: str, backend: str, xp: Any) -> None:
    """The sign of zero results where the standard gives it, against the reference's: floor_divide
    (negative exactly where the operands' signs differ: -0 // 2 is -0, -1 // -inf is +0),
    remainder (the sign of x2), acos(a + 0j) = acos(a) - 0j for -1 <= a <= 1, and sign(-0) = 0,
    sign(-0 - 0j) = 0 + 0j."""
    if dtype not in backend_dtypes(backend, "float"):
        pytest.skip(f"{backend} lacks {dtype}")
    cases = _signed_zero_cases(name, dtype, backend)
    if not cases:
        pytest.skip(f"{backend} lacks complex dtypes")
    failures = []
    for args in cases:
        with np.errstate(all="ignore"):
            wn = strict_to_numpy(strict_op(name)(*[xs.asarray(a) for a in args]))
        if name == "sign" and np.iscomplexobj(wn):
            wn = np.zeros_like(wn)  # the standard's 0 + 0j (array_api_strict keeps the -0 parts)
        gn = native_to_numpy(backend, getattr(ivy, name)(*[to_native(backend, a) for a in args]))
        parts = [(gn.real, wn.real), (gn.imag, wn.imag)] if np.iscomplexobj(wn) else [(gn, wn)]
        bad = np.zeros(wn.shape, dtype=bool)
        for g, w in parts:
            bad |= (w == 0) & (g == 0) & (np.signbit(g) != np.signbit(w))
        failures += [f"{tuple(a[i] for a in args)} -> {gn[i]} (want {wn[i]})" for i in np.flatnonzero(bad)[:4]]
    assert not failures, f"{name}: " + "; ".join(failures)


@covers("eye")
def test_ref_conformance_eye_far_diagonals(backend: str, xp: Any) -> None:
    """eye with a diagonal outside the matrix (also with k beyond int64) is all zeros."""
    for shape, k in [((0,), 2**63), ((3,), 2**63), ((3, 4), -(2**63) - 5), ((3, 4), 4), ((3, 4), -3), ((2, 3), 2)]:
        want = strict_to_numpy(xs.eye(*shape, k=k, dtype=xs.float32))
        got = native_to_numpy(backend, ivy.eye(*shape, k=k, dtype=ivy.float32, backend=backend))
        assert dtype_name(got.dtype) == want.dtype.name, (shape, k, got.dtype)
        np.testing.assert_array_equal(got, want, err_msg=f"eye{shape}, k={k}")
