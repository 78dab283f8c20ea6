"""The fft extension (all 14 functions) against array_api_strict.

Inputs of the complex-to-real transforms (irfft, irfftn, hfft) are made Hermitian-consistent by
building them with NumPy's forward transform: what a backend does with the imaginary parts that
must be zero is not the standard's business.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ivy
from ivy.testing._helpers.compare import assert_matches
from ivy.testing._helpers.ref import check, strict_dtype, xs
from ivy.testing._helpers.strategies import arrays, backend_dtypes

FFT_OPS = {
    "fft.fft": "",
    "fft.ifft": "",
    "fft.fftn": "",
    "fft.ifftn": "",
    "fft.rfft": "",
    "fft.irfft": "",
    "fft.rfftn": "",
    "fft.irfftn": "",
    "fft.hfft": "",
    "fft.ihfft": "",
    "fft.fftfreq": "",
    "fft.rfftfreq": "",
    "fft.fftshift": "",
    "fft.ifftshift": "",
}

NORMS = ["backward", "ortho", "forward"]


def tol(dtype: str) -> dict[str, float]:
    return {"rtol": 1e-3, "atol": 1e-3} if dtype in ("float32", "complex64") else {"rtol": 1e-8, "atol": 1e-9}


def _complex_of(real: str) -> str:
    return {"float32": "complex64", "float64": "complex128"}[real]


def _real_dtype(data: st.DataObject, backend: str, need_complex: bool = True) -> str:
    ds = [
        d
        for d in backend_dtypes(backend, "float")
        if not need_complex or _complex_of(d) in backend_dtypes(backend, "complex")
    ]
    if not ds:
        pytest.skip(f"{backend} has no floating dtype with its complex counterpart")
    return data.draw(st.sampled_from(ds), label="dtype")


def _shape(data: st.DataObject, min_dims: int = 1) -> tuple[int, ...]:
    return data.draw(hnp.array_shapes(min_dims=min_dims, max_dims=3, min_side=1, max_side=4), label="shape")


@pytest.mark.parametrize("name", ["fft.fft", "fft.ifft"])
@given(data=st.data())
def test_ref_fft_1d(name: str, backend: str, xp: Any, data: st.DataObject) -> None:
    real = _real_dtype(data, backend)
    x = data.draw(arrays(_complex_of(real), _shape(data)), label="x")
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    n = data.draw(st.one_of(st.none(), st.integers(1, 6)), label="n")
    check(name, backend, xp, x, n=n, axis=axis, norm=data.draw(st.sampled_from(NORMS), label="norm"), **tol(real))


def _axes_and_s(data: st.DataObject, ndim: int, real_last: bool = False) -> dict[str, Any]:
    form = data.draw(st.sampled_from(["none", "axes", "s_axes"]), label="form")
    if form == "none":
        return {}
    axes = data.draw(st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True), label="axes")
    kw: dict[str, Any] = {"axes": axes}
    if form == "s_axes":
        kw["s"] = [data.draw(st.integers(1 if not real_last else 2, 5)) for _ in axes]
    return kw


@pytest.mark.parametrize("name", ["fft.fftn", "fft.ifftn"])
@given(data=st.data())
def test_ref_fft_nd(name: str, backend: str, xp: Any, data: st.DataObject) -> None:
    real = _real_dtype(data, backend)
    x = data.draw(arrays(_complex_of(real), _shape(data)), label="x")
    kw = _axes_and_s(data, x.ndim)
    check(name, backend, xp, x, norm=data.draw(st.sampled_from(NORMS), label="norm"), **kw, **tol(real))


@given(data=st.data())
def test_ref_fft_rfft(backend: str, xp: Any, data: st.DataObject) -> None:
    real = _real_dtype(data, backend)
    x = data.draw(arrays(real, _shape(data)), label="x")
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    n = data.draw(st.one_of(st.none(), st.integers(1, 6)), label="n")
    check("fft.rfft", backend, xp, x, n=n, axis=axis, norm=data.draw(st.sampled_from(NORMS)), **tol(real))


@given(data=st.data())
def test_ref_fft_ihfft(backend: str, xp: Any, data: st.DataObject) -> None:
    real = _real_dtype(data, backend)
    x = data.draw(arrays(real, _shape(data)), label="x")
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    n = data.draw(st.one_of(st.none(), st.integers(1, 6)), label="n")
    check("fft.ihfft", backend, xp, x, n=n, axis=axis, norm=data.draw(st.sampled_from(NORMS)), **tol(real))


@given(data=st.data())
def test_ref_fft_rfftn(backend: str, xp: Any, data: st.DataObject) -> None:
    real = _real_dtype(data, backend)
    x = data.draw(arrays(real, _shape(data)), label="x")
    kw = _axes_and_s(data, x.ndim)
    check("fft.rfftn", backend, xp, x, norm=data.draw(st.sampled_from(NORMS)), **kw, **tol(real))


@pytest.mark.parametrize("name", ["fft.irfft", "fft.hfft"])
@given(data=st.data())
def test_ref_fft_c2r(name: str, backend: str, xp: Any, data: st.DataObject) -> None:
    real = _real_dtype(data, backend)
    shape = list(_shape(data))
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    n_out = data.draw(st.integers(2, 7), label="n_out")
    shape[axis] = n_out
    signal = data.draw(arrays("float64", tuple(shape)), label="signal")
    if name == "fft.irfft":
        x = np.fft.rfft(signal, axis=axis)
    else:
        x = np.fft.ihfft(signal, axis=axis)
    x = x.astype(_complex_of(real))
    pass_n = data.draw(st.booleans(), label="pass_n")
    n = n_out if pass_n else None
    if n is None and n_out % 2:
        n = n_out  # the default n is even: 2 * (m - 1)
    check(name, backend, xp, x, n=n, axis=axis, norm=data.draw(st.sampled_from(NORMS)), **tol(real))


@given(data=st.data())
def test_ref_fft_irfftn(backend: str, xp: Any, data: st.DataObject) -> None:
    real = _real_dtype(data, backend)
    shape = list(_shape(data))
    ndim = len(shape)
    axes = data.draw(st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True), label="axes")
    shape[axes[-1]] = data.draw(st.integers(2, 6))
    signal = data.draw(arrays("float64", tuple(shape)), label="signal")
    x = np.fft.rfftn(signal, axes=axes).astype(_complex_of(real))
    s = [shape[a] for a in axes]
    check("fft.irfftn", backend, xp, x, s=s, axes=axes, norm=data.draw(st.sampled_from(NORMS)), **tol(real))


@pytest.mark.parametrize("name", ["fft.fftfreq", "fft.rfftfreq"])
@given(data=st.data())
def test_ref_fft_freq(name: str, backend: str, xp: Any, data: st.DataObject) -> None:
    real = data.draw(st.sampled_from(backend_dtypes(backend, "float")), label="dtype")
    n = data.draw(st.integers(1, 9), label="n")
    d = data.draw(st.sampled_from([1.0, 0.5, 0.1, 2.0]), label="d")
    fn = ivy.fft.fftfreq if name == "fft.fftfreq" else ivy.fft.rfftfreq
    sfn = xs.fft.fftfreq if name == "fft.fftfreq" else xs.fft.rfftfreq
    expected = sfn(n, d=d, dtype=strict_dtype(real))
    assert_matches(fn(n, d=d, dtype=real, backend=backend), expected, backend, xp, msg=f"{name}: ", **tol(real))
    with ivy.use_backend(backend):
        assert_matches(fn(n, d=d, dtype=getattr(xp, real)), expected, backend, xp, msg=f"{name}: ", **tol(real))


@pytest.mark.parametrize("name", ["fft.fftshift", "fft.ifftshift"])
@given(data=st.data())
def test_ref_fft_shift(name: str, backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(backend_dtypes(backend, "float", "complex")), label="dtype")
    x = data.draw(arrays(dtype, _shape(data)), label="x")
    axes = data.draw(
        st.one_of(
            st.none(),
            st.integers(-x.ndim, x.ndim - 1),
            st.lists(st.integers(0, x.ndim - 1), min_size=1, max_size=x.ndim, unique=True),
        ),
        label="axes",
    )
    check(name, backend, xp, x, axes=axes)
