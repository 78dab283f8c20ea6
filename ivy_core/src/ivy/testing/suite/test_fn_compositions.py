"""Core's composed defaults on the backend's namespace, whether or not the backend overrides the op
(``ivy.plugin_kit.composed``): they are what a plugin falls back on for the inputs its framework
cannot handle, so they must hold on every backend's primitives; NumPy/SciPy references."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import special

import ivy
from ivy.plugin_kit import composed
from ivy.testing._helpers.facts import expect, expect_cmp, expect_dtype, expect_shape
from ivy.testing._helpers.nn_reference import _np_attention, _np_gru, _np_layer_norm, _np_lstm, np_bilinear_sample
from ivy.testing.convert import shape_of

R = np.random.default_rng(50)
A = np.linspace(-4, 4, 17)
X = R.normal(size=(2, 3, 4))
M = np.arange(12.0).reshape(3, 4)
P = R.normal(size=(3, 4, 5))
IMG = R.normal(size=(1, 5, 6, 2))
PTS = np.array([[[0, 0], [5, 4], [2.5, 1.25], [-2, 7], [9, -1], [4.75, 3.5]]])  # centres, border, outside
Q, K, V = R.normal(size=(2, 4, 8)), R.normal(size=(2, 4, 8)), R.normal(size=(2, 4, 3))
MEAN, VAR = R.normal(size=(4,)), R.uniform(0.5, 2, size=(4,))
SEQ, H0, C0 = R.normal(size=(2, 4, 3)), R.normal(size=(2, 2)), R.normal(size=(2, 2))
KER, RKER, BIAS = R.normal(size=(3, 8)), R.normal(size=(2, 8)), R.normal(size=(8,))


def _batch_norm(c, n):
    y, _, v = c(n(X), n(MEAN), n(VAR), training=True)
    bm, bv = X.mean(axis=(0, 1)), X.var(axis=(0, 1))
    return [(y, (X - bm) / np.sqrt(bv + 1e-5)), (v, 0.9 * VAR + 0.1 * X.var(axis=(0, 1), ddof=1))]


def _lstm_update(c, n):
    hs, (h, cell) = c(n(SEQ), n(H0), n(C0), n(KER), n(RKER), bias=n(BIAS))
    whs, wh, wc = _np_lstm(SEQ, H0, C0, KER, RKER, BIAS, 0 * BIAS)
    return [(hs, whs), (h, wh), (cell, wc)]


def _gru_update(c, n):
    k, rk, b = KER[:, :6], RKER[:, :6], BIAS[:6]
    hs, h = c(n(SEQ), n(H0), n(k), n(rk), bias=n(b), recurrent_bias=n(-b))
    whs, wh = _np_gru(SEQ, H0, k, rk, b, -b)
    return [(hs, whs), (h, wh)]


#: composed op -> a function of (the composition, to_native) giving (result, NumPy reference) pairs
COMPOSITIONS = {
    "gelu": lambda c, n: [(c(n(A)), 0.5 * A * special.erfc(-A / np.sqrt(2)))],
    "erf": lambda c, n: [(c(n(A)), special.erf(A))],
    "mish": lambda c, n: [(c(n(A)), A * np.tanh(np.logaddexp(0, A)))],
    "softplus": lambda c, n: [(c(n(A)), np.logaddexp(0, A))],
    "sigmoid": lambda c, n: [(c(n(A)), special.expit(A))],
    "softmax": lambda c, n: [(c(n(X), axis=1), special.softmax(X, axis=1))],
    "layer_norm": lambda c, n: [(c(n(X), -1), _np_layer_norm(X, (-1,)))],
    "batch_norm": _batch_norm,
    "lstm_update": _lstm_update,
    "gru_update": _gru_update,
    "pad": lambda c, n: [
        (c(n(M), ((1, 2), (2, 1)), mode=mode), np.pad(M, ((1, 2), (2, 1)), mode=mode))
        for mode in ("constant", "reflect", "symmetric", "edge", "wrap")
    ],
    "one_hot": lambda c, n: [(c(n(np.array([2, 0, 5])), 3), [[0, 0, 1], [1, 0, 0], [0, 0, 0]])],
    "scaled_dot_product_attention": lambda c, n: [
        (c(n(Q), n(K), n(V)), _np_attention(Q, K, V)),
        (c(n(Q), n(K), n(V), is_causal=True), _np_attention(Q, K, V, causal=True)),
    ],
    "cumsum": lambda c, n: [(c(n(M), 1, exclusive=True, reverse=True), np.flip(np.cumsum(np.flip(M, 1), 1), 1) - M)],
    "cumprod": lambda c, n: [(c(n(M + 1), 0), np.cumprod(M + 1, 0))],
    "top_k": lambda c, n: [(c(n(M), 2)[0], M[:, ::-1][:, :2])],
    "gather": lambda c, n: [(c(n(P), n(np.array([[1, 3]])), axis=1), np.take(P, [[1, 3]], axis=1))],
    "gather_nd": lambda c, n: [(c(n(P), n(np.array([[0, 1], [2, 2]]))), P[[0, 2], [1, 2]])],
    "adaptive_avg_pool2d": lambda c, n: [(c(n(IMG), 1), IMG.mean(axis=(1, 2), keepdims=True))],
    "bilinear_sample": lambda c, n: [(c(n(IMG), n(PTS)), np_bilinear_sample(IMG[0], PTS[0])[None])],
    "group_norm": lambda c, n: [(c(n(IMG), 1), _np_layer_norm(IMG, (1, 2, 3)))],
    "embedding": lambda c, n: [(c(n(P[0]), n(np.array([3, 0]))), P[0][[3, 0]])],
    "flatten": lambda c, n: [(c(n(P), start_dim=1), P.reshape(3, 20))],
    "linear": lambda c, n: [(c(n(P), n(P[0])), P @ P[0].T)],
    "transpose": lambda c, n: [(c(n(P)), P.T)],
}


@pytest.mark.parametrize("name", sorted(COMPOSITIONS))
def test_fn_composition_on_the_backend_namespace(backend, to_native, to_numpy, name):
    for got, want in COMPOSITIONS[name](composed(name, backend), to_native):
        np.testing.assert_allclose(
            to_numpy(got), np.asarray(want, dtype=np.float64), rtol=1e-12, atol=1e-12, err_msg=name
        )


def test_fn_composed_split_and_cast(backend, to_native):
    pieces = composed("split", backend)(to_native(np.arange(5.0)), 2, with_remainder=True)
    expect([shape_of(p)[0] for p in pieces], [2, 2, 1], "composed split: [shape_of(p)[0] for p in pieces]")
    expect_dtype(composed("cast", backend)(to_native(P), "float32"), "float32", "composed cast")


def test_fn_composed_random_ops(backend, to_native, to_numpy):
    """Core's dropout and attention dropout draw through the backend's bernoulli."""
    ivy.seed(0, backend=backend)
    dropped = composed("scaled_dot_product_attention", backend)(to_native(Q), to_native(K), to_native(V), dropout_p=0.5)
    expect_shape(dropped, (2, 4, 3), "composed scaled_dot_product_attention")
    assert np.isfinite(to_numpy(dropped)).all(), (
        "composed scaled_dot_product_attention: expected np.isfinite(to_numpy(dropped)).all()"
    )
    drop = composed("dropout", backend)
    d = to_numpy(drop(to_native(np.ones(4000)), 0.5, seed=1))
    expect_cmp(set(np.unique(d).tolist()), "<=", {0.0, 2.0}, "composed dropout: set(np.unique(d).tolist())")
    expect_cmp(abs((d == 0).mean() - 0.5), "<", 0.05, "composed dropout: abs((d == 0).mean() - 0.5)")
    np.testing.assert_array_equal(to_numpy(drop(to_native(np.ones(4000)), 0.5, seed=1)), d)
