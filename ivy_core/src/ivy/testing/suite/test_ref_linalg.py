"""The linalg extension against array_api_strict, on well-conditioned inputs.

Decompositions whose factors are not unique (eigenvectors, QR, SVD) are compared through their
reconstructions and properties (orthonormality, triangularity); everything unique is compared
directly.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ivy
from ivy.testing._helpers.compare import assert_matches, assert_values
from ivy.testing._helpers.facts import expect_dtype, expect_shape
from ivy.testing._helpers.ref import check, sdtype, snp, strict_dtype, xs
from ivy.testing._helpers.strategies import arrays, axis_arg, backend_dtypes
from ivy.testing.convert import dtype_name, native_to_numpy, shape_of, to_native

LINALG_OPS = {
    "linalg.cholesky": "",
    "linalg.cross": "",
    "linalg.det": "",
    "linalg.diagonal": "",
    "linalg.eigh": "",
    "linalg.eigvalsh": "",
    "linalg.inv": "",
    "linalg.matrix_norm": "",
    "linalg.matrix_power": "",
    "linalg.matrix_rank": "",
    "linalg.outer": "",
    "linalg.pinv": "",
    "linalg.qr": "",
    "linalg.slogdet": "",
    "linalg.solve": "",
    "linalg.svd": "",
    "linalg.svdvals": "",
    "linalg.trace": "",
    "linalg.vector_norm": "",
}
# linalg.matmul, matrix_transpose, tensordot, vecdot: tests/test_ref_linear_algebra.py

LOOSE = {"float32": (2e-3, 2e-4), "float64": (1e-8, 1e-10)}


def tol(dtype: str) -> dict[str, float]:
    r, a = LOOSE["float32" if dtype in ("float32", "complex64") else "float64"]
    return {"rtol": r, "atol": a}


def _float(data: st.DataObject, backend: str) -> str:
    """A floating-point dtype: real or complex (the linalg functions take both)."""
    return data.draw(st.sampled_from(backend_dtypes(backend, "float", "complex")), label="dtype")


def _wide(dtype: str) -> str:
    """The 64-bit generation dtype of the same kind."""
    return "complex128" if dtype.startswith("complex") else "float64"


def _ct(a: np.ndarray) -> np.ndarray:
    """Conjugate transpose of the last two axes."""
    return np.conj(np.swapaxes(a, -1, -2))


def _batch(data: st.DataObject) -> tuple[int, ...]:
    return data.draw(hnp.array_shapes(min_dims=0, max_dims=1, min_side=1, max_side=2), label="batch")


def _matrix(data: st.DataObject, dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    return data.draw(arrays(dtype, shape, "tiny"), label="a")


def spd(data: st.DataObject, dtype: str, n: int | None = None, batch: tuple[int, ...] | None = None) -> np.ndarray:
    """A symmetric positive-definite matrix A @ A.T + n I (well conditioned)."""
    n = data.draw(st.integers(1, 4), label="n") if n is None else n
    batch = _batch(data) if batch is None else batch
    a = _matrix(data, _wide(dtype), batch + (n, n))
    m = a @ _ct(a) + n * np.eye(n) * 4
    return m.astype(dtype)


def well_conditioned(
    data: st.DataObject, dtype: str, n: int | None = None, batch: tuple[int, ...] | None = None
) -> np.ndarray:
    """A square, diagonally dominant (hence invertible, well-conditioned) matrix."""
    n = data.draw(st.integers(1, 4), label="n") if n is None else n
    batch = _batch(data) if batch is None else batch
    a = _matrix(data, _wide(dtype), batch + (n, n))
    return (a + np.eye(n) * (np.abs(a).sum(axis=-1, keepdims=True) + 1.0)).astype(dtype)


def full_rank(data: st.DataObject, dtype: str) -> np.ndarray:
    """An (M, N) matrix of full rank min(M, N) with singular values well apart from zero."""
    m, n = data.draw(st.integers(1, 4), label="m"), data.draw(st.integers(1, 4), label="n")
    k = min(m, n)
    sq = well_conditioned(data, _wide(dtype), n=max(m, n), batch=())
    return sq[:m, :n].astype(dtype) if k else sq.astype(dtype)


def eye_like(k: int) -> np.ndarray:
    return np.eye(k)


def _np(backend: str, x: Any) -> np.ndarray:
    a = native_to_numpy(backend, x)
    return a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)


@given(data=st.data())
def test_ref_linalg_cholesky(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = _float(data, backend)
    check("linalg.cholesky", backend, xp, spd(data, dtype), upper=data.draw(st.booleans(), label="upper"), **tol(dtype))


@given(data=st.data())
def test_ref_linalg_cross(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(backend_dtypes(backend, "signed", "float")), label="dtype")
    b = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=2, min_side=1, max_side=3))
    axis = -1
    s1, s2 = b.input_shapes[0] + (3,), b.input_shapes[1] + (3,)
    if data.draw(st.booleans(), label="axis-2") and len(s1) >= 2 and len(s2) >= 2:
        s1, s2, axis = s1[:-2] + (3, s1[-2]), s2[:-2] + (3, s2[-2]), -2
    x1 = data.draw(arrays(dtype, s1, "tiny"), label="x1")
    x2 = data.draw(arrays(dtype, s2, "tiny"), label="x2")
    check("linalg.cross", backend, xp, x1, x2, axis=axis, **tol(dtype))


@given(data=st.data())
def test_ref_linalg_det(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = _float(data, backend)
    check("linalg.det", backend, xp, well_conditioned(data, dtype), **tol(dtype))


@given(data=st.data())
def test_ref_linalg_diagonal(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(backend_dtypes(backend, "bool", "int", "float", "complex")), label="dtype")
    x = data.draw(arrays(dtype, hnp.array_shapes(min_dims=2, max_dims=3, min_side=0, max_side=4)), label="x")
    check("linalg.diagonal", backend, xp, x, offset=data.draw(st.integers(-4, 4), label="offset"))


@given(data=st.data())
def test_ref_linalg_eigh(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = _float(data, backend)
    x = spd(data, dtype)
    got = ivy.linalg.eigh(to_native(backend, x))
    want = xs.linalg.eigh(xs.asarray(x))
    assert hasattr(got, "eigenvalues"), "eigh returns a named tuple"
    assert hasattr(got, "eigenvectors"), "eigh returns a named tuple"
    w, v = got.eigenvalues, got.eigenvectors
    expect_dtype(w, sdtype(want.eigenvalues), "ivy.linalg.eigh")
    expect_dtype(v, dtype, "ivy.linalg.eigh")
    cd = _wide(dtype)
    expect_shape(w, want.eigenvalues.shape, "ivy.linalg.eigh")
    expect_shape(v, x.shape, "ivy.linalg.eigh")
    wn, vn = _np(backend, w), _np(backend, v)
    assert_values(np.sort(wn, axis=-1), np.sort(snp(want.eigenvalues), axis=-1), "float64", **tol(dtype))
    n = x.shape[-1]
    scale = max(1.0, float(np.abs(x).max()))
    rec = vn @ (wn[..., :, None] * _ct(vn))
    assert_values(rec / scale, x.astype(cd) / scale, cd, rtol=0, atol=tol(dtype)["rtol"] * 10)
    assert_values(
        _ct(vn) @ vn, np.broadcast_to(np.eye(n), x.shape).astype(cd), cd, rtol=0, atol=tol(dtype)["rtol"] * 10
    )


@given(data=st.data())
def test_ref_linalg_eigvalsh(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = _float(data, backend)
    x = spd(data, dtype)
    got = ivy.linalg.eigvalsh(to_native(backend, x))
    want = xs.linalg.eigvalsh(xs.asarray(x))
    expect_dtype(got, sdtype(want), "ivy.linalg.eigvalsh")
    expect_shape(got, want.shape, "ivy.linalg.eigvalsh")
    assert_values(np.sort(_np(backend, got), axis=-1), np.sort(snp(want), axis=-1), "float64", **tol(dtype))


@given(data=st.data())
def test_ref_linalg_inv(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = _float(data, backend)
    check("linalg.inv", backend, xp, well_conditioned(data, dtype), **tol(dtype))


@given(data=st.data())
def test_ref_linalg_matrix_norm(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = _float(data, backend)
    x = data.draw(arrays(dtype, hnp.array_shapes(min_dims=2, max_dims=3, min_side=1, max_side=4)), label="x")
    ord_ = data.draw(st.sampled_from(["fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf]), label="ord")
    ord_ = float(ord_) if isinstance(ord_, float) else ord_
    check(
        "linalg.matrix_norm",
        backend,
        xp,
        x,
        ord=ord_,
        keepdims=data.draw(st.booleans(), label="keepdims"),
        **tol(dtype),
    )


@given(data=st.data())
def test_ref_linalg_matrix_power(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = _float(data, backend)
    n = data.draw(st.integers(-2, 3), label="power")
    x = well_conditioned(data, dtype) / 4
    x = x.astype(dtype)
    check("linalg.matrix_power", backend, xp, x, n, **tol(dtype))


@given(data=st.data())
def test_ref_linalg_matrix_rank(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = _float(data, backend)
    m, n, r = (data.draw(st.integers(1, 4), label=k) for k in "mnr")
    batch = _batch(data)
    a = data.draw(arrays(_wide(dtype), batch + (m, r), "tiny"), label="a")
    b = data.draw(arrays(_wide(dtype), batch + (r, n), "tiny"), label="b")
    x = (a @ b).astype(dtype)
    # Only inputs whose rank is clear-cut: singular values either ~0 or well above the cutoff.
    s = np.linalg.svd(x.astype(_wide(dtype)), compute_uv=False)
    cut = max(m, n) * np.finfo(dtype).eps * s.max(axis=-1, keepdims=True)
    assume(np.all((s < cut * 1e-3) | (s > cut * 1e3)))
    # No subnormal entries: XLA on CPU flushes them to zero (documented in ivy-jax's README), and
    # a rank decided by numbers below the smallest normal float is no clear-cut rank either.
    assume(not np.any((x != 0) & (np.abs(x) < np.finfo(dtype).tiny)))
    check("linalg.matrix_rank", backend, xp, x)


@given(data=st.data())
def test_ref_linalg_outer(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(backend_dtypes(backend, "int", "float", "complex")), label="dtype")
    x1 = data.draw(arrays(dtype, hnp.array_shapes(min_dims=1, max_dims=1, min_side=0), "tiny"), label="x1")
    x2 = data.draw(arrays(dtype, hnp.array_shapes(min_dims=1, max_dims=1, min_side=0), "tiny"), label="x2")
    check("linalg.outer", backend, xp, x1, x2)


@given(data=st.data())
def test_ref_linalg_pinv(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = _float(data, backend)
    check("linalg.pinv", backend, xp, full_rank(data, dtype), **tol(dtype))


@given(data=st.data())
def test_ref_linalg_qr(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = _float(data, backend)
    x = full_rank(data, dtype)
    mode = data.draw(st.sampled_from(["reduced", "complete"]), label="mode")
    got = ivy.linalg.qr(to_native(backend, x), mode=mode)
    want = xs.linalg.qr(xs.asarray(x), mode=mode)
    assert hasattr(got, "Q"), "qr returns a named tuple (Q, R)"
    assert hasattr(got, "R"), "qr returns a named tuple (Q, R)"
    for g, w in ((got.Q, want.Q), (got.R, want.R)):
        assert dtype_name(g.dtype) == sdtype(w), (shape_of(g), w.shape)
        assert shape_of(g) == w.shape, (shape_of(g), w.shape)
    q, r = _np(backend, got.Q), _np(backend, got.R)
    t = tol(dtype)["rtol"] * 10
    cd = _wide(dtype)
    assert_values(q @ r, x.astype(cd), cd, rtol=t, atol=t)
    assert_values(_ct(q) @ q, np.eye(q.shape[-1]).astype(cd), cd, rtol=0, atol=t)
    assert_values(np.triu(r), r, cd, rtol=0, atol=0)


@given(data=st.data())
def test_ref_linalg_slogdet(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = _float(data, backend)
    x = well_conditioned(data, dtype)
    if data.draw(st.booleans(), label="negate_row"):
        x = x.copy()
        x[..., 0, :] *= -1
    got = ivy.linalg.slogdet(to_native(backend, x))
    assert hasattr(got, "sign"), "slogdet returns a named tuple"
    assert hasattr(got, "logabsdet"), "slogdet returns a named tuple"
    want = xs.linalg.slogdet(xs.asarray(x))
    assert_matches(tuple(got), tuple(want), backend, xp, msg="ivy.linalg.slogdet: ", **tol(dtype))


@given(data=st.data())
def test_ref_linalg_solve(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = _float(data, backend)
    a = well_conditioned(data, dtype)
    n = a.shape[-1]
    if a.ndim == 2 and data.draw(st.booleans(), label="vector"):
        b = data.draw(arrays(dtype, (n,)), label="b")
    else:
        b = data.draw(arrays(dtype, a.shape[:-2] + (n, data.draw(st.integers(1, 3)))), label="b")
    check("linalg.solve", backend, xp, a, b, **tol(dtype))


@given(data=st.data())
def test_ref_linalg_svd(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = _float(data, backend)
    x = full_rank(data, dtype)
    full = data.draw(st.booleans(), label="full_matrices")
    got = ivy.linalg.svd(to_native(backend, x), full_matrices=full)
    want = xs.linalg.svd(xs.asarray(x), full_matrices=full)
    assert all(hasattr(got, f) for f in ("U", "S", "Vh")), "svd returns a named tuple (U, S, Vh)"
    for g, w in zip(got, want):
        assert dtype_name(g.dtype) == sdtype(w), (shape_of(g), w.shape)
        assert shape_of(g) == w.shape, (shape_of(g), w.shape)
    u, s, vh = (_np(backend, a) for a in got)
    assert_values(s, snp(want.S).astype(np.float64), "float64", **tol(dtype))
    k = s.shape[-1]
    t = tol(dtype)["rtol"] * 10
    cd = _wide(dtype)
    assert_values((u[:, :k] * s) @ vh[:k], x.astype(cd), cd, rtol=t, atol=t)
    assert_values(_ct(u) @ u, np.eye(u.shape[-1]).astype(cd), cd, rtol=0, atol=t)
    assert_values(vh @ _ct(vh), np.eye(vh.shape[-2]).astype(cd), cd, rtol=0, atol=t)


@given(data=st.data())
def test_ref_linalg_svdvals(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = _float(data, backend)
    x = data.draw(arrays(dtype, hnp.array_shapes(min_dims=2, max_dims=3, min_side=1, max_side=4)), label="x")
    check("linalg.svdvals", backend, xp, x, **tol(dtype))


@given(data=st.data())
def test_ref_linalg_trace(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(backend_dtypes(backend, "int", "float", "complex")), label="dtype")
    x = data.draw(
        arrays(
            dtype,
            hnp.array_shapes(min_dims=2, max_dims=3, min_side=0, max_side=4),
            "nonneg" if dtype.startswith("uint") else "tiny",
        ),
        label="x",
    )
    offset = data.draw(st.integers(-3, 3), label="offset")
    wide = [d for d in backend_dtypes(backend, "float") if dtype.startswith("float") and d >= dtype]
    dt = data.draw(st.sampled_from([None, *wide]), label="dtype_arg")
    if dt is None:
        check("linalg.trace", backend, xp, x, offset=offset, **tol(dtype))
    else:
        expected = xs.linalg.trace(xs.asarray(x), offset=offset, dtype=strict_dtype(dt))
        actual = ivy.linalg.trace(to_native(backend, x), offset=offset, dtype=dt)
        assert_matches(actual, expected, backend, xp, msg="trace(dtype): ", **tol(dtype))


@given(data=st.data())
def test_ref_linalg_vector_norm(backend: str, xp: Any, data: st.DataObject) -> None:
    dtype = _float(data, backend)
    x = data.draw(arrays(dtype, hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=4)), label="x")
    axis = data.draw(axis_arg(x.ndim), label="axis")
    ord_ = data.draw(st.sampled_from([1, 2, 3, np.inf, -np.inf, 0]), label="ord")
    ord_ = float(ord_) if isinstance(ord_, float) else ord_
    check(
        "linalg.vector_norm",
        backend,
        xp,
        x,
        axis=axis,
        ord=ord_,
        keepdims=data.draw(st.booleans(), label="keepdims"),
        **tol(dtype),
    )
