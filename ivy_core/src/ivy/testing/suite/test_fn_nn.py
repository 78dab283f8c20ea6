"""Neural-network functions on every backend against NumPy/SciPy formulas written here."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import special

import ivy
from ivy.testing._helpers.facts import expect
from ivy.testing._helpers.registry import covers
from ivy.testing.convert import native_to_numpy, to_native

RNG = np.random.default_rng(7)
X = np.linspace(-6.0, 6.0, 41).reshape(41)
X2 = RNG.standard_normal((3, 4, 5))


def _np(backend, x):
    return native_to_numpy(backend, x)


def _close(actual, expected, *, rtol=2e-5, atol=2e-6):
    np.testing.assert_allclose(
        np.asarray(actual, dtype=np.float64), np.asarray(expected, dtype=np.float64), rtol=rtol, atol=atol
    )


def _softplus(x, beta=1.0, threshold=20.0):
    bx = beta * x
    return np.where(bx > threshold, x, np.log1p(np.exp(-np.abs(bx))) / beta + np.maximum(bx, 0) / beta)


def _elu(x, alpha=1.0):
    return np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0)))


ACTIVATION_OPS = {
    "relu": (lambda x: np.maximum(x, 0), {}),
    "leaky_relu": (lambda x: np.where(x > 0, x, 0.1 * x), {"alpha": 0.1}),
    "sigmoid": (lambda x: 1 / (1 + np.exp(-x)), {}),
    "silu": (lambda x: x / (1 + np.exp(-x)), {}),
    "gelu": (lambda x: 0.5 * x * (1 + special.erf(x / math.sqrt(2))), {}),
    "erf": (special.erf, {}),
    "softplus": (_softplus, {}),
    "elu": (_elu, {}),
    "selu": (lambda x: 1.0507009873554804934193349852946 * _elu(x, 1.6732632423543772848170429916717), {}),
    "hardswish": (lambda x: x * np.clip(x + 3, 0, 6) / 6, {}),
    "mish": (lambda x: x * np.tanh(_softplus(x)), {}),
}


@covers(*ACTIVATION_OPS)
@pytest.mark.parametrize("name", sorted(ACTIVATION_OPS))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_fn_activation(backend, name, dtype):
    ref, kw = ACTIVATION_OPS[name]
    x = X.astype(dtype)
    out = getattr(ivy, name)(to_native(backend, x), **kw)
    got = _np(backend, out)
    assert got.dtype == np.dtype(dtype), f"{name}: dtype {got.dtype}"
    tol = (2e-5, 2e-6) if dtype == "float32" else (1e-12, 1e-13)
    _close(got, ref(X), rtol=tol[0], atol=tol[1])


@covers("gelu")
def test_fn_gelu_tanh(backend):
    x = X.astype("float64")
    ref = 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))
    _close(_np(backend, ivy.gelu(to_native(backend, x), approximate=True)), ref, rtol=1e-12, atol=1e-13)


@covers("softmax", "log_softmax")
@pytest.mark.parametrize("axis", [-1, 0, 1])
def test_fn_softmax(backend, axis):
    e = np.exp(X2 - X2.max(axis=axis, keepdims=True))
    ref = e / e.sum(axis=axis, keepdims=True)
    x = to_native(backend, X2)
    _close(_np(backend, ivy.softmax(x, axis=axis)), ref, rtol=1e-12, atol=1e-13)
    _close(_np(backend, ivy.log_softmax(x, axis=axis)), np.log(ref), rtol=1e-12, atol=1e-12)


@covers("linear")
def test_fn_linear(backend):
    w = RNG.standard_normal((6, 5))
    b = RNG.standard_normal(6)
    x = to_native(backend, X2)
    _close(
        _np(backend, ivy.linear(x, to_native(backend, w), to_native(backend, b))), X2 @ w.T + b, rtol=1e-12, atol=1e-12
    )
    _close(_np(backend, ivy.linear(x, to_native(backend, w))), X2 @ w.T, rtol=1e-12, atol=1e-12)


@covers("layer_norm")
def test_fn_layer_norm(backend):
    scale, offset = RNG.standard_normal((4, 5)), RNG.standard_normal((4, 5))
    mean = X2.mean(axis=(1, 2), keepdims=True)
    var = X2.var(axis=(1, 2), keepdims=True)
    ref = (X2 - mean) / np.sqrt(var + 1e-5) * scale + offset
    got = ivy.layer_norm(
        to_native(backend, X2), (1, 2), scale=to_native(backend, scale), offset=to_native(backend, offset)
    )
    _close(_np(backend, got), ref, rtol=1e-10, atol=1e-10)


@covers("batch_norm")
@pytest.mark.parametrize("training", [False, True])
def test_fn_batch_norm(backend, training):
    x = RNG.standard_normal((4, 3, 3, 2))  # NHWC, 2 channels
    mean, var = np.array([0.1, -0.2]), np.array([1.5, 0.5])
    scale, offset = np.array([2.0, 0.5]), np.array([0.0, 1.0])
    y, m, v = ivy.batch_norm(
        to_native(backend, x),
        to_native(backend, mean),
        to_native(backend, var),
        offset=to_native(backend, offset),
        scale=to_native(backend, scale),
        training=training,
        momentum=0.1,
    )
    if training:
        bm, bv = x.mean(axis=(0, 1, 2)), x.var(axis=(0, 1, 2))
        ref_y = (x - bm) / np.sqrt(bv + 1e-5) * scale + offset
        n = x.size // 2
        _close(_np(backend, m), 0.9 * mean + 0.1 * bm, rtol=1e-10, atol=1e-12)
        _close(_np(backend, v), 0.9 * var + 0.1 * bv * n / (n - 1), rtol=1e-10, atol=1e-12)
    else:
        ref_y = (x - mean) / np.sqrt(var + 1e-5) * scale + offset
        _close(_np(backend, m), mean)
    _close(_np(backend, y), ref_y, rtol=1e-10, atol=1e-10)


@covers("group_norm")
def test_fn_group_norm(backend):
    x = RNG.standard_normal((2, 4, 3))  # NCW with channels first
    g = x.reshape(2, 2, -1)
    ref = ((g - g.mean(-1, keepdims=True)) / np.sqrt(g.var(-1, keepdims=True) + 1e-5)).reshape(x.shape)
    _close(_np(backend, ivy.group_norm(to_native(backend, x), 2, data_format="NCW")), ref, rtol=1e-10, atol=1e-10)
    xl = np.moveaxis(x, 1, -1)  # channels last
    _close(
        _np(backend, ivy.group_norm(to_native(backend, xl), 2, data_format="NWC")),
        np.moveaxis(ref, 1, -1),
        rtol=1e-10,
        atol=1e-10,
    )


@covers("embedding", "one_hot")
def test_fn_embedding_one_hot(backend):
    w = RNG.standard_normal((10, 3))
    idx = np.array([[1, 4], [9, 0]], dtype=np.int64)
    _close(_np(backend, ivy.embedding(to_native(backend, w), to_native(backend, idx))), w[idx])
    got = _np(backend, ivy.one_hot(to_native(backend, idx), 10, dtype="float32"))
    expect(got.dtype, np.float32, "ivy.one_hot: got.dtype")
    np.testing.assert_array_equal(got, np.eye(10, dtype=np.float32)[idx])
    capped = _np(backend, ivy.embedding(to_native(backend, w), to_native(backend, idx), max_norm=0.5))
    norms = np.linalg.norm(w[idx], axis=-1, keepdims=True)
    _close(capped, np.where(norms > 0.5, w[idx] * 0.5 / norms, w[idx]), rtol=1e-6, atol=1e-7)


def _sigmoid(z):
    return 1 / (1 + np.exp(-z))


def _lstm_ref(x, h, c, k, rk, b):
    hs = []
    for t in range(x.shape[1]):
        z = x[:, t] @ k + h @ rk + b
        i, f, g, o = np.split(z, 4, axis=-1)
        c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
        h = _sigmoid(o) * np.tanh(c)
        hs.append(h)
    return np.stack(hs, 1), h, c


@covers("lstm_update", "lstm")
def test_fn_lstm(backend):
    b_, t_, i_, h_ = 2, 4, 3, 5
    x = RNG.standard_normal((b_, t_, i_))
    h0, c0 = RNG.standard_normal((b_, h_)), RNG.standard_normal((b_, h_))
    k, rk, bias = RNG.standard_normal((i_, 4 * h_)), RNG.standard_normal((h_, 4 * h_)), RNG.standard_normal(4 * h_)
    n = lambda a: to_native(backend, a)  # noqa: E731
    hs, (h, c) = ivy.lstm_update(n(x), n(h0), n(c0), n(k), n(rk), bias=n(bias))
    rhs, rh, rc = _lstm_ref(x, h0, c0, k, rk, bias)
    _close(_np(backend, hs), rhs, rtol=1e-10, atol=1e-10)
    _close(_np(backend, h), rh, rtol=1e-10, atol=1e-10)
    _close(_np(backend, c), rc, rtol=1e-10, atol=1e-10)
    # two stacked layers
    k2, rk2 = RNG.standard_normal((h_, 4 * h_)), RNG.standard_normal((h_, 4 * h_))
    H0, C0 = RNG.standard_normal((2, b_, h_)), RNG.standard_normal((2, b_, h_))
    hs2, (H, C) = ivy.lstm(n(x), n(H0), n(C0), [n(k), n(k2)], [n(rk), n(rk2)])
    l1, h1, c1 = _lstm_ref(x, H0[0], C0[0], k, rk, 0.0)
    l2, h2, c2 = _lstm_ref(l1, H0[1], C0[1], k2, rk2, 0.0)
    _close(_np(backend, hs2), l2, rtol=1e-10, atol=1e-10)
    _close(_np(backend, H), np.stack([h1, h2]), rtol=1e-10, atol=1e-10)
    _close(_np(backend, C), np.stack([c1, c2]), rtol=1e-10, atol=1e-10)


def _gru_ref(x, h, k, rk, b, rb):
    hs = []
    for t in range(x.shape[1]):
        gx, gh = x[:, t] @ k + b, h @ rk + rb
        hid = h.shape[-1]
        r = _sigmoid(gx[:, :hid] + gh[:, :hid])
        z = _sigmoid(gx[:, hid : 2 * hid] + gh[:, hid : 2 * hid])
        n = np.tanh(gx[:, 2 * hid :] + r * gh[:, 2 * hid :])
        h = (1 - z) * n + z * h
        hs.append(h)
    return np.stack(hs, 1), h


@covers("gru_update", "gru")
def test_fn_gru(backend):
    b_, t_, i_, h_ = 2, 4, 3, 5
    x, h0 = RNG.standard_normal((b_, t_, i_)), RNG.standard_normal((b_, h_))
    k, rk = RNG.standard_normal((i_, 3 * h_)), RNG.standard_normal((h_, 3 * h_))
    bias, rbias = RNG.standard_normal(3 * h_), RNG.standard_normal(3 * h_)
    n = lambda a: to_native(backend, a)  # noqa: E731
    hs, h = ivy.gru_update(n(x), n(h0), n(k), n(rk), bias=n(bias), recurrent_bias=n(rbias))
    rhs, rh = _gru_ref(x, h0, k, rk, bias, rbias)
    _close(_np(backend, hs), rhs, rtol=1e-10, atol=1e-10)
    _close(_np(backend, h), rh, rtol=1e-10, atol=1e-10)
    # two stacked layers, the second without biases
    k2, rk2 = RNG.standard_normal((h_, 3 * h_)), RNG.standard_normal((h_, 3 * h_))
    H0 = RNG.standard_normal((2, b_, h_))
    hs2, H = ivy.gru(n(x), n(H0), [n(k), n(k2)], [n(rk), n(rk2)])
    l1, h1 = _gru_ref(x, H0[0], k, rk, 0.0, 0.0)
    l2, h2 = _gru_ref(l1, H0[1], k2, rk2, 0.0, 0.0)
    _close(_np(backend, hs2), l2, rtol=1e-10, atol=1e-10)
    _close(_np(backend, H), np.stack([h1, h2]), rtol=1e-10, atol=1e-10)


def _sdpa_ref(q, k, v, mask=None, causal=False):
    s = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    if causal:
        s = np.where(np.tril(np.ones(s.shape[-2:], bool)), s, -np.inf)
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)) @ v


@covers("scaled_dot_product_attention")
@pytest.mark.parametrize("causal", [False, True])
def test_fn_attention(backend, causal):
    q, k, v = (RNG.standard_normal((2, 3, 4, 8)) for _ in range(3))
    n = lambda a: to_native(backend, a)  # noqa: E731
    got = ivy.scaled_dot_product_attention(n(q), n(k), n(v), is_causal=causal)
    _close(_np(backend, got), _sdpa_ref(q, k, v, causal=causal), rtol=1e-10, atol=1e-10)
    mask = RNG.random((4, 4)) > 0.3
    mask[:, 0] = True
    got = ivy.scaled_dot_product_attention(n(q), n(k), n(v), mask=n(mask))
    _close(_np(backend, got), _sdpa_ref(q, k, v, mask=mask), rtol=1e-10, atol=1e-10)


@covers("multi_head_attention")
def test_fn_multi_head_attention(backend):
    e, heads = 8, 2
    x = RNG.standard_normal((2, 5, e))
    ws = [RNG.standard_normal((e, e)) * 0.3 for _ in range(4)]
    bs = [RNG.standard_normal(e) * 0.1 for _ in range(4)]
    n = lambda a: to_native(backend, a)  # noqa: E731
    got = ivy.multi_head_attention(
        n(x),
        num_heads=heads,
        q_weight=n(ws[0]),
        k_weight=n(ws[1]),
        v_weight=n(ws[2]),
        out_weight=n(ws[3]),
        q_bias=n(bs[0]),
        k_bias=n(bs[1]),
        v_bias=n(bs[2]),
        out_bias=n(bs[3]),
    )
    q, k, v = (x @ w + b for w, b in zip(ws[:3], bs[:3]))
    split = lambda a: a.reshape(2, 5, heads, e // heads).transpose(0, 2, 1, 3)  # noqa: E731
    o = _sdpa_ref(split(q), split(k), split(v)).transpose(0, 2, 1, 3).reshape(2, 5, e)
    _close(_np(backend, got), o @ ws[3] + bs[3], rtol=1e-10, atol=1e-10)


@covers("adaptive_avg_pool2d")
def test_fn_adaptive_avg_pool2d(backend):
    x = RNG.standard_normal((2, 7, 5, 3))  # NHWC
    got = _np(backend, ivy.adaptive_avg_pool2d(to_native(backend, x), (3, 2)))
    ref = np.zeros((2, 3, 2, 3))
    for i in range(3):
        for j in range(2):
            r0, r1 = (i * 7) // 3, -((-(i + 1) * 7) // 3)
            c0, c1 = (j * 5) // 2, -((-(j + 1) * 5) // 2)
            ref[:, i, j] = x[:, r0:r1, c0:c1].mean(axis=(1, 2))
    _close(got, ref, rtol=1e-10, atol=1e-12)


P = RNG.dirichlet(np.ones(5), size=4)
Q = RNG.dirichlet(np.ones(5), size=4)
T = np.eye(5)[[0, 3, 1, 4]]


@covers("cross_entropy", "sparse_cross_entropy", "binary_cross_entropy", "mse_loss", "l1_loss", "huber_loss", "kl_div")
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_fn_losses(backend, reduction):
    red = {"mean": np.mean, "sum": np.sum, "none": lambda a: a}[reduction]
    n = lambda a: to_native(backend, a)  # noqa: E731
    ce = -np.sum(T * np.log(np.clip(Q, 1e-7, 1 - 1e-7)), axis=-1)
    _close(_np(backend, ivy.cross_entropy(n(T), n(Q), reduction=reduction)), red(ce), rtol=1e-10)
    labels = np.array([0, 3, 1, 4], dtype=np.int64)
    _close(_np(backend, ivy.sparse_cross_entropy(n(labels), n(Q), reduction=reduction)), red(ce), rtol=1e-10)
    t01 = (P > 0.2).astype(np.float64)
    bce = -(t01 * np.log(P) + (1 - t01) * np.log(1 - P))
    _close(_np(backend, ivy.binary_cross_entropy(n(t01), n(P), reduction=reduction)), red(bce), rtol=1e-6)
    logits = RNG.standard_normal(P.shape) * 3
    s = 1 / (1 + np.exp(-logits))
    bce_l = -(t01 * np.log(s) + (1 - t01) * np.log(1 - s))
    _close(
        _np(backend, ivy.binary_cross_entropy(n(t01), n(logits), from_logits=True, reduction=reduction)),
        red(bce_l),
        rtol=1e-9,
    )
    _close(_np(backend, ivy.mse_loss(n(P), n(Q), reduction=reduction)), red((P - Q) ** 2), rtol=1e-10)
    _close(_np(backend, ivy.l1_loss(n(P), n(Q), reduction=reduction)), red(np.abs(P - Q)), rtol=1e-10)
    a = np.abs(3 * P - Q)
    hub = np.where(a <= 0.5, 0.5 * a**2, 0.5 * (a - 0.25))
    _close(_np(backend, ivy.huber_loss(n(Q), n(3 * P), delta=0.5, reduction=reduction)), red(hub), rtol=1e-10)
    kl = np.sum(P * np.log(P / Q), axis=-1)
    _close(_np(backend, ivy.kl_div(n(P), n(Q), reduction=reduction)), red(kl), rtol=1e-10)


@covers("multi_head_attention")
def test_fn_multi_head_attention_required_arguments_only(backend):
    # the dispatcher leaves out keywords at their defaults: required keyword-only ones must stay
    e, heads = 4, 2
    x = RNG.standard_normal((1, 3, e))
    ws = [RNG.standard_normal((e, e)) * 0.3 for _ in range(4)]
    n = lambda a: to_native(backend, a)  # noqa: E731
    got = ivy.multi_head_attention(
        n(x), num_heads=heads, q_weight=n(ws[0]), k_weight=n(ws[1]), v_weight=n(ws[2]), out_weight=n(ws[3])
    )
    q, k, v = (x @ w for w in ws[:3])
    split = lambda a: a.reshape(1, 3, heads, e // heads).transpose(0, 2, 1, 3)  # noqa: E731
    o = _sdpa_ref(split(q), split(k), split(v)).transpose(0, 2, 1, 3).reshape(1, 3, e)
    _close(_np(backend, got), o @ ws[3], rtol=1e-10, atol=1e-10)
