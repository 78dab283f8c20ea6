"""Neural-network functions beyond ``test_fn_nn``: activations at extreme inputs and with their
options, the layouts, axes, eps and dtypes of the normalisations, index dtypes of embedding and
one_hot, attention with unequal lengths, masks and causal alignment, LSTM biases, loss broadcasting
and errors, bilinear sampling, and gradients against central finite differences; NumPy/SciPy
references."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import special

import ivy
from ivy.testing._helpers.facts import expect, expect_dtype, expect_shape
from ivy.testing._helpers.nn_reference import (
    _np_attention,
    _np_gru,
    _np_layer_norm,
    _np_lstm,
    fd_grad,
    np_bilinear_sample,
)
from ivy.testing._helpers.registry import covers
from ivy.testing.convert import dtype_name


def _close(got, want, tol=1e-10):
    np.testing.assert_allclose(np.asarray(got, dtype=np.float64), want, rtol=tol, atol=tol)


def _default_float(xp):
    return dtype_name(xp.__array_namespace_info__().default_dtypes()["real floating"])


# ---------------------------------------------------------------------------- activations

EXTREME_OPS = {
    "relu": lambda a: np.maximum(a, 0),
    "sigmoid": special.expit,
    "silu": lambda a: a * special.expit(a),
    "gelu": lambda a: 0.5 * a * special.erfc(-a / np.sqrt(2)),
    "selu": lambda a: 1.0507009873554805 * np.where(a > 0, a, 1.6732632423543772 * np.expm1(a)),
    "hardswish": lambda a: a * np.clip(a + 3, 0, 6) / 6,
    "mish": lambda a: a * np.tanh(np.logaddexp(0, a)),
    "erf": special.erf,
    "elu": lambda a: np.where(a > 0, a, np.expm1(a)),
    "softplus": lambda a: np.where(a > 20, a, np.logaddexp(0, a)),
    "leaky_relu": lambda a: np.where(a >= 0, a, 0.2 * a),
}

#: the linspace of test_fn_activation, and large inputs where naive formulas overflow
EXTREMES = np.concatenate([np.linspace(-6, 6, 41), [-30.0, 30.0, 0.0, 25.0, -700.0, 700.0]])


@covers(*EXTREME_OPS)
@pytest.mark.parametrize("name", sorted(EXTREME_OPS))
def test_fn_activation_extreme_inputs(to_native, to_numpy, name):
    """Large inputs neither overflow nor lose the value, in float64 and float32."""
    want = EXTREME_OPS[name](EXTREMES)
    got = getattr(ivy, name)(to_native(EXTREMES))
    expect_dtype(got, "float64", f"ivy.{name}")
    np.testing.assert_allclose(to_numpy(got), want, rtol=1e-12, atol=1e-13)
    f = getattr(ivy, name)(to_native(EXTREMES.astype(np.float32)))
    expect_dtype(f, "float32", f"ivy.{name}")
    with np.errstate(over="ignore"):
        np.testing.assert_allclose(to_numpy(f), want.astype(np.float32), rtol=2e-5, atol=2e-6)


@covers("leaky_relu", "elu", "softplus", "erf")
def test_fn_activation_options_and_saturation(to_native, to_numpy):
    a = np.linspace(-5, 5, 31)
    x = to_native(a)
    _close(to_numpy(ivy.leaky_relu(x, alpha=0.01)), np.where(a >= 0, a, 0.01 * a), 1e-14)
    _close(to_numpy(ivy.leaky_relu(to_native(a * 1e3), alpha=0.1)), np.where(a >= 0, a * 1e3, 0.1 * a * 1e3), 1e-14)
    _close(to_numpy(ivy.elu(x, alpha=2.0)), np.where(a > 0, a, 2.0 * np.expm1(a)))
    _close(to_numpy(ivy.elu(x, alpha=0.1)), np.where(a > 0, a, 0.1 * np.expm1(a)), 1e-14)  # not a float32 value
    b = 3.0
    _close(to_numpy(ivy.softplus(x, beta=b, threshold=5.0)), np.where(b * a > 5.0, a, np.log1p(np.exp(b * a)) / b))
    np.testing.assert_array_equal(to_numpy(ivy.softplus(to_native(np.array([1000.0, -1000.0])))), [1000.0, 0.0])
    np.testing.assert_array_equal(to_numpy(ivy.erf(to_native(np.array([-40.0, 40.0])))), [-1.0, 1.0])


@covers("softmax", "log_softmax")
def test_fn_softmax_of_widely_spread_logits(to_native, to_numpy):
    big = to_native(np.array([[1000.0, 0.0, -1000.0]]))  # exp(1000) overflows: no NaN, no clipping
    _close(to_numpy(ivy.softmax(big)), [[1.0, 0.0, 0.0]], 1e-15)
    np.testing.assert_allclose(to_numpy(ivy.log_softmax(big)), [[0.0, -1000.0, -2000.0]], rtol=1e-15, atol=1e-15)


ACTIVATION_GRAD_OPS = {
    "gelu": lambda a: 0.5 * a * special.erfc(-a / np.sqrt(2)),
    "silu": lambda a: a * special.expit(a),
    "mish": lambda a: a * np.tanh(np.logaddexp(0, a)),
    "elu": lambda a: np.where(a > 0, a, np.expm1(a)),
    "selu": lambda a: 1.0507009873554805 * np.where(a > 0, a, 1.6732632423543772 * np.expm1(a)),
    "softplus": lambda a: np.logaddexp(0, a),
    "sigmoid": special.expit,
    "hardswish": lambda a: a * np.clip(a + 3, 0, 6) / 6,
    "erf": special.erf,
}


@covers(*ACTIVATION_GRAD_OPS)
@pytest.mark.parametrize("name", sorted(ACTIVATION_GRAD_OPS))
def test_fn_activation_gradients_match_finite_differences(autodiff, to_native, to_numpy, name):
    a = np.linspace(-3.3, 3.3, 12)  # away from the kinks of elu, selu and hardswish (0, +-3)
    g = ivy.grad(lambda v: ivy.sum(getattr(ivy, name)(v)))(to_native(a))
    want = fd_grad(lambda ls: float(np.sum(ACTIVATION_GRAD_OPS[name](ls[0]))), [a])[0]
    _close(to_numpy(g), want, 1e-7)


# ---------------------------------------------------------------------------- linear, embedding, one_hot


@covers("linear")
def test_fn_linear_of_a_vector(to_native, to_numpy):
    r = np.random.default_rng(19)
    x, w, b = r.normal(size=(4,)), r.normal(size=(5, 4)), r.normal(size=(5,))
    got = ivy.linear(to_native(x), to_native(w), to_native(b))
    expect_shape(got, (5,), "ivy.linear")
    _close(to_numpy(got), x @ w.T + b)


@covers("linear")
def test_fn_linear_promotes_mixed_dtypes(to_native, to_numpy):
    r = np.random.default_rng(19)
    x, w, b = r.normal(size=(2, 3, 4)), r.normal(size=(5, 4)), r.normal(size=(5,))
    x32 = x.astype(np.float32)
    _close(to_numpy(ivy.linear(to_native(x32), to_native(w), to_native(b))), x32.astype(np.float64) @ w.T + b, 1e-6)


@covers("embedding")
@pytest.mark.parametrize(
    "index_dtype",
    [
        "int32",
        "int64",
        "uint8",
    ],
)
def test_fn_embedding_index_dtypes_and_max_norm(to_native, to_numpy, index_dtype):
    table = np.random.default_rng(20).normal(size=(6, 3))
    idx = np.array([[0, 5], [2, 2]], dtype=index_dtype)
    w = to_native(table)
    _close(to_numpy(ivy.embedding(w, to_native(idx))), table[idx], 0)
    rows = table[idx]
    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    _close(to_numpy(ivy.embedding(w, to_native(idx), max_norm=0.5)), np.where(norms > 0.5, rows * 0.5 / norms, rows))
    np.testing.assert_array_equal(to_numpy(w), table)  # the table itself is not rescaled
    zero = ivy.embedding(to_native(np.zeros((2, 3))), to_native(np.array([1], dtype=index_dtype)), max_norm=1.0)
    np.testing.assert_array_equal(to_numpy(zero), np.zeros((1, 3)))  # a zero row stays zero (no 0/0)


@covers("one_hot")
def test_fn_one_hot_dtypes_axes_and_indices_out_of_range(xp, to_native, to_numpy):
    oh = ivy.one_hot(to_native(np.array([0, 2, -1, 7])), 4)
    expect_dtype(oh, _default_float(xp), "ivy.one_hot")
    np.testing.assert_array_equal(to_numpy(oh), [[1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    wide = ivy.one_hot(to_native(np.array([3, 200], np.uint8)), 300, dtype="bool")
    expect_dtype(wide, "bool", "ivy.one_hot")
    expect_shape(wide, (2, 300), "ivy.one_hot")
    w = to_numpy(wide)
    assert w[0, 3], "ivy.one_hot: expected w[0, 3]"
    assert w[1, 200], "ivy.one_hot: expected w[1, 200]"
    expect(w.sum(), 2, "ivy.one_hot: w.sum()")
    first = ivy.one_hot(to_native(np.array([[1, 0]], np.int32)), 3, dtype="int64", axis=0)
    expect_shape(first, (3, 1, 2), "ivy.one_hot")
    expect_dtype(first, "int64", "ivy.one_hot")
    np.testing.assert_array_equal(to_numpy(first), np.moveaxis(np.eye(3, dtype=np.int64)[[[1, 0]]], -1, 0))
    np.testing.assert_array_equal(to_numpy(ivy.one_hot(to_native(np.array([1])), 2, axis=-2)), [[0], [1]])


# ---------------------------------------------------------------------------- normalisation


@covers("layer_norm")
def test_fn_layer_norm_axes_broadcasting_eps_and_dtype(to_native, to_numpy):
    r = np.random.default_rng(20)
    x = r.normal(size=(2, 3, 4))
    s, o, s1, s2 = r.normal(size=(4,)), r.normal(size=(4,)), r.normal(size=(3, 1)), r.normal(size=(3, 4))
    n = to_native
    _close(to_numpy(ivy.layer_norm(n(x), -1, scale=n(s), offset=n(o))), _np_layer_norm(x, (-1,), s, o))
    _close(to_numpy(ivy.layer_norm(n(x), 1, scale=n(s1), eps=1e-3)), _np_layer_norm(x, (1,), s1, eps=1e-3))
    _close(to_numpy(ivy.layer_norm(n(x), (0, 2), offset=n(o))), _np_layer_norm(x, (0, 2), None, o))
    _close(to_numpy(ivy.layer_norm(n(x), (-2, -1), scale=n(s2))), _np_layer_norm(x, (1, 2), s2))
    xs = x * 0.1  # a small variance: eps matters
    for eps in (0.1, 1e-3, 1e-5, 2.0**-17):
        _close(to_numpy(ivy.layer_norm(n(xs), -1, eps=eps)), _np_layer_norm(xs, (-1,), eps=eps), 1e-13)
    f = ivy.layer_norm(n(xs.astype(np.float32)), -1, scale=n(s.astype(np.float32)))
    expect_dtype(f, "float32", "ivy.layer_norm")
    _close(to_numpy(f), _np_layer_norm(xs, (-1,), s), 1e-5)


@covers("batch_norm")
def test_fn_batch_norm_layouts_eps_and_inputs_left_alone(to_native, to_numpy):
    r = np.random.default_rng(21)
    x = r.normal(size=(4, 3, 3, 2))  # NHWC, 2 channels
    mean, var = r.normal(size=(2,)), r.uniform(0.5, 2, size=(2,))
    sc, of = r.normal(size=(2,)), r.normal(size=(2,))
    tm, tv = to_native(mean), to_native(var)
    y, m, v = ivy.batch_norm(to_native(x), tm, tv, offset=to_native(of), scale=to_native(sc))
    _close(to_numpy(y), (x - mean) / np.sqrt(var + 1e-5) * sc + of)
    np.testing.assert_array_equal(to_numpy(m), mean)
    np.testing.assert_array_equal(to_numpy(v), var)
    yc, _, _ = ivy.batch_norm(to_native(np.moveaxis(x, -1, 1)), tm, tv, data_format="NCHW", eps=1e-3)
    _close(to_numpy(yc), np.moveaxis((x - mean) / np.sqrt(var + 1e-3), -1, 1))
    y3, _, _ = ivy.batch_norm(to_native(x[:, 0]), tm, tv)  # a 3-D (NWC) input
    _close(to_numpy(y3), (x[:, 0] - mean) / np.sqrt(var + 1e-5))
    bm, bv = x.mean(axis=(0, 1, 2)), x.var(axis=(0, 1, 2))
    y, m, v = ivy.batch_norm(to_native(np.moveaxis(x, -1, 1)), tm, tv, training=True, momentum=0.2, data_format="NCHW")
    _close(to_numpy(y), np.moveaxis((x - bm) / np.sqrt(bv + 1e-5), -1, 1))
    _close(to_numpy(m), 0.8 * mean + 0.2 * bm)
    _close(to_numpy(v), 0.8 * var + 0.2 * x.var(axis=(0, 1, 2), ddof=1))
    np.testing.assert_array_equal(to_numpy(tm), mean)  # the running statistics are not updated in place
    np.testing.assert_array_equal(to_numpy(tv), var)


@covers("group_norm")
def test_fn_group_norm_scale_offset_layouts_and_errors(to_native, to_numpy):
    r = np.random.default_rng(22)
    x = r.normal(size=(2, 3, 4, 6))  # NHWC, 6 channels in 3 groups
    s, o = r.normal(size=(6,)), r.normal(size=(6,))
    g = x.reshape(2, 3, 4, 3, 2)
    want = (g - g.mean(axis=(1, 2, 4), keepdims=True)) / np.sqrt(g.var(axis=(1, 2, 4), keepdims=True) + 1e-5)
    want = want.reshape(x.shape) * s + o
    _close(to_numpy(ivy.group_norm(to_native(x), 3, scale=to_native(s), offset=to_native(o))), want)
    got = ivy.group_norm(
        to_native(np.moveaxis(x, -1, 1)), 3, scale=to_native(s), offset=to_native(o), data_format="NCHW"
    )
    _close(to_numpy(got), np.moveaxis(want, -1, 1))
    x3 = r.normal(size=(2, 5, 4))  # NWC, 2 groups, another eps
    g3 = x3.reshape(2, 5, 2, 2)
    want3 = (g3 - g3.mean(axis=(1, 3), keepdims=True)) / np.sqrt(g3.var(axis=(1, 3), keepdims=True) + 1e-3)
    _close(to_numpy(ivy.group_norm(to_native(x3), 2, eps=1e-3)), want3.reshape(x3.shape))
    f = ivy.group_norm(to_native(x.astype(np.float32)), 3, scale=to_native(s.astype(np.float32)))
    expect_dtype(f, "float32", "ivy.group_norm")
    _close(to_numpy(f), (want - o), 1e-5)
    with pytest.raises(ValueError):
        ivy.group_norm(to_native(x), 4)  # 4 does not divide 6


# ---------------------------------------------------------------------------- recurrent, attention


@covers("lstm_update", "lstm")
def test_fn_lstm_biases_and_mismatched_layers(to_native, to_numpy):
    r = np.random.default_rng(23)
    b_, t_, i_, h_ = 2, 5, 3, 4
    x = r.normal(size=(b_, t_, i_))
    h0, c0 = r.normal(size=(b_, h_)), r.normal(size=(b_, h_))
    k, rk = r.normal(size=(i_, 4 * h_)) * 0.5, r.normal(size=(h_, 4 * h_)) * 0.5
    b, rb = r.normal(size=(4 * h_,)), r.normal(size=(4 * h_,))
    n = to_native
    hs, (h, c) = ivy.lstm_update(n(x), n(h0), n(c0), n(k), n(rk), bias=n(b), recurrent_bias=n(rb))
    whs, wh, wc = _np_lstm(x, h0, c0, k, rk, b, rb)
    _close(to_numpy(hs), whs)
    _close(to_numpy(h), wh)
    _close(to_numpy(c), wc)
    hs, _ = ivy.lstm_update(n(x), n(h0), n(c0), n(k), n(rk))
    _close(to_numpy(hs), _np_lstm(x, h0, c0, k, rk, 0 * b, 0 * b)[0])
    k2, rk2 = r.normal(size=(h_, 4 * h_)) * 0.5, r.normal(size=(h_, 4 * h_)) * 0.5
    hh, cc = r.normal(size=(2, b_, h_)), r.normal(size=(2, b_, h_))
    hs, (hn, cn) = ivy.lstm(n(x), n(hh), n(cc), [n(k), n(k2)], [n(rk), n(rk2)], biases=[n(b), n(rb)])
    l1, h1, c1 = _np_lstm(x, hh[0], cc[0], k, rk, b, 0 * b)
    l2, h2, c2 = _np_lstm(l1, hh[1], cc[1], k2, rk2, rb, 0 * b)
    _close(to_numpy(hs), l2)
    _close(to_numpy(hn), np.stack([h1, h2]))
    _close(to_numpy(cn), np.stack([c1, c2]))
    with pytest.raises(ValueError):
        ivy.lstm(n(x), n(hh), n(cc), [n(k)], [n(rk), n(rk2)])


@covers("lstm_update")
def test_fn_lstm_gradient_matches_finite_differences(autodiff, to_native, to_numpy):
    r = np.random.default_rng(24)
    x, h0, c0 = r.normal(size=(2, 4, 3)), r.normal(size=(2, 2)), r.normal(size=(2, 2))
    k, rk = r.normal(size=(3, 8)) * 0.5, r.normal(size=(2, 8)) * 0.5
    b, rb = r.normal(size=(8,)), r.normal(size=(8,))
    n = to_native

    def loss(ls):
        hs = ivy.lstm_update(n(x), n(h0), n(c0), ls[0], n(rk), bias=n(b), recurrent_bias=n(rb))[0]
        return ivy.sum(ivy.multiply(hs, hs))

    _, g, _ = ivy.value_and_grad_flat(loss, [n(k)])
    want = fd_grad(lambda ls: float(np.sum(_np_lstm(x, h0, c0, ls[0], rk, b, rb)[0] ** 2)), [k])[0]
    _close(to_numpy(g[0]), want, 1e-6)


@covers("gru_update", "gru")
def test_fn_gru_biases_and_mismatched_layers(to_native, to_numpy):
    r = np.random.default_rng(25)
    b_, t_, i_, h_ = 2, 5, 3, 4
    x, h0 = r.normal(size=(b_, t_, i_)), r.normal(size=(b_, h_))
    k, rk = r.normal(size=(i_, 3 * h_)) * 0.5, r.normal(size=(h_, 3 * h_)) * 0.5
    b, rb = r.normal(size=(3 * h_,)), r.normal(size=(3 * h_,))
    n = to_native
    hs, h = ivy.gru_update(n(x), n(h0), n(k), n(rk), bias=n(b), recurrent_bias=n(rb))
    whs, wh = _np_gru(x, h0, k, rk, b, rb)
    _close(to_numpy(hs), whs)
    _close(to_numpy(h), wh)
    # the recurrent bias alone: inside the reset gate's product, unlike the input bias
    _close(to_numpy(ivy.gru_update(n(x), n(h0), n(k), n(rk), recurrent_bias=n(rb))[0]), _np_gru(x, h0, k, rk, 0, rb)[0])
    _close(to_numpy(ivy.gru_update(n(x), n(h0), n(k), n(rk), bias=n(b))[0]), _np_gru(x, h0, k, rk, b, 0)[0])
    k2, rk2 = r.normal(size=(h_, 3 * h_)) * 0.5, r.normal(size=(h_, 3 * h_)) * 0.5
    hh = r.normal(size=(2, b_, h_))
    hs, hn = ivy.gru(n(x), n(hh), [n(k), n(k2)], [n(rk), n(rk2)], biases=[n(b), n(rb)], recurrent_biases=[n(rb), n(b)])
    l1, h1 = _np_gru(x, hh[0], k, rk, b, rb)
    l2, h2 = _np_gru(l1, hh[1], k2, rk2, rb, b)
    _close(to_numpy(hs), l2)
    _close(to_numpy(hn), np.stack([h1, h2]))
    with pytest.raises(ValueError, match="number of layers"):
        ivy.gru(n(x), n(hh), [n(k)], [n(rk), n(rk2)])
    with pytest.raises(ValueError, match="number of layers"):
        ivy.gru(n(x), n(hh[:1]), [n(k), n(k2)], [n(rk), n(rk2)])


@covers("gru_update")
def test_fn_gru_gradient_matches_finite_differences(autodiff, to_native, to_numpy):
    r = np.random.default_rng(26)
    x, h0 = r.normal(size=(2, 4, 3)), r.normal(size=(2, 2))
    k, rk = r.normal(size=(3, 6)) * 0.5, r.normal(size=(2, 6)) * 0.5
    b, rb = r.normal(size=(6,)), r.normal(size=(6,))
    n = to_native

    def loss(ls):
        hs, h = ivy.gru_update(n(x), ls[2], ls[0], ls[1], bias=n(b), recurrent_bias=ls[3])
        return ivy.add(ivy.sum(ivy.multiply(hs, hs)), ivy.sum(h))

    _, g, _ = ivy.value_and_grad_flat(loss, [n(k), n(rk), n(h0), n(rb)])

    def np_loss(ls):
        hs, h = _np_gru(x, ls[2], ls[0], ls[1], b, ls[3])
        return float(np.sum(hs**2) + np.sum(h))

    want = fd_grad(np_loss, [k, rk, h0, rb])
    for got, w in zip(g, want):
        _close(to_numpy(got), w, 1e-6)


@covers("scaled_dot_product_attention")
def test_fn_attention_lengths_scale_masks_and_causal_alignment(to_native, to_numpy):
    r = np.random.default_rng(24)
    q, k, v = r.normal(size=(2, 3, 4, 8)), r.normal(size=(2, 3, 6, 8)), r.normal(size=(2, 3, 6, 5))
    qs = r.normal(size=(2, 3, 6, 8))  # as many queries as keys
    m = r.random((4, 6)) > 0.3
    m[:, 0] = True
    fm, fm2 = r.normal(size=(3, 4, 6)), r.normal(size=(4, 6))
    n = to_native
    sdpa = ivy.scaled_dot_product_attention
    _close(to_numpy(sdpa(n(q), n(k), n(v))), _np_attention(q, k, v))
    _close(to_numpy(sdpa(n(q), n(k), n(v), scale=0.3)), _np_attention(q, k, v, scale=0.3))
    _close(to_numpy(sdpa(n(q), n(k), n(v), mask=n(m))), _np_attention(q, k, v, m))
    _close(to_numpy(sdpa(n(q), n(k), n(v), mask=n(fm))), _np_attention(q, k, v, fm))  # added to the scores
    _close(to_numpy(sdpa(n(qs), n(k), n(v), is_causal=True)), _np_attention(qs, k, v, causal=True))
    # fewer queries than keys: query i sees the keys j <= i
    _close(to_numpy(sdpa(n(q), n(k), n(v), is_causal=True)), _np_attention(q, k, v, causal=True))
    _close(to_numpy(sdpa(n(q), n(k), n(v), mask=n(fm2), is_causal=True)), _np_attention(q, k, v, fm2, causal=True))
    m6 = m[:1].repeat(6, 0)
    _close(to_numpy(sdpa(n(qs), n(k), n(v), mask=n(m6), is_causal=True)), _np_attention(qs, k, v, m6, causal=True))
    _close(to_numpy(sdpa(n(q), n(k), n(v), is_causal=True, scale=0.3)), _np_attention(q, k, v, causal=True, scale=0.3))
    none = np.ones((4, 6), dtype=bool)
    none[2] = False  # query 2 may attend to no key
    out = to_numpy(sdpa(n(q), n(k), n(v), mask=n(none)))
    assert np.isnan(out[:, :, 2]).all(), "ivy.scaled_dot_product_attention: expected np.isnan(out[:, :, 2]).all()"
    assert not np.isnan(out[:, :, [0, 1, 3]]).any(), (
        "ivy.scaled_dot_product_attention: expected not np.isnan(out[:, :, [0, 1, 3]]).any()"
    )
    _close(out[:, :, [0, 1, 3]], _np_attention(q, k, v)[:, :, [0, 1, 3]])
    f32 = sdpa(*(n(a.astype(np.float32)) for a in (q, k, v)), mask=n(fm.astype(np.float32)))
    expect_dtype(f32, "float32", "ivy.scaled_dot_product_attention")
    _close(to_numpy(f32), _np_attention(q, k, v, fm), 1e-5)


@covers("scaled_dot_product_attention")
def test_fn_attention_dropout_keeps_shape_and_finiteness(backend, to_native, to_numpy):
    r = np.random.default_rng(25)
    q, k, v = r.normal(size=(2, 3, 4, 8)), r.normal(size=(2, 3, 6, 8)), r.normal(size=(2, 3, 6, 5))
    ivy.seed(0, backend=backend)
    out = ivy.scaled_dot_product_attention(to_native(q), to_native(k), to_native(v), dropout_p=0.5)
    expect_shape(out, (2, 3, 4, 5), "ivy.scaled_dot_product_attention")
    assert np.isfinite(to_numpy(out)).all(), (
        "ivy.scaled_dot_product_attention: expected np.isfinite(to_numpy(out)).all()"
    )


@covers("adaptive_avg_pool2d")
def test_fn_adaptive_avg_pool2d_channels_first_and_one_size(to_native, to_numpy):
    x = np.random.default_rng(17).normal(size=(2, 7, 5, 3))

    def window(i, n, m):  # the spec's window: floor(i n / m) to ceil((i + 1) n / m)
        return slice((i * n) // m, -(-((i + 1) * n) // m))

    def ref(a, oh, ow):
        h, w = a.shape[1:3]
        out = np.zeros((a.shape[0], oh, ow, a.shape[-1]))
        for i in range(oh):
            for j in range(ow):
                out[:, i, j] = a[:, window(i, h, oh), window(j, w, ow)].mean(axis=(1, 2))
        return out

    _close(to_numpy(ivy.adaptive_avg_pool2d(to_native(x), (3, 4))), ref(x, 3, 4))
    got = ivy.adaptive_avg_pool2d(to_native(np.moveaxis(x, -1, 1)), 2, data_format="NCHW")
    _close(to_numpy(got), np.moveaxis(ref(x, 2, 2), -1, 1))
    _close(to_numpy(ivy.adaptive_avg_pool2d(to_native(x), 1)), x.mean(axis=(1, 2), keepdims=True))


# ---------------------------------------------------------------------------- losses


@covers("mse_loss", "huber_loss", "binary_cross_entropy", "kl_div")
def test_fn_losses_broadcast_dtype_and_bad_reduction(to_native, to_numpy):
    r = np.random.default_rng(26)
    yt, yp = r.normal(size=(4, 3)), r.normal(size=(4, 3))
    lab = (r.random((4, 3)) > 0.5).astype(np.float64)
    mse = ivy.mse_loss(to_native(yt[0]), to_native(yp))  # true broadcast against pred
    expect_shape(mse, (), "ivy.mse_loss")
    _close(to_numpy(mse), np.mean((yp - yt[0]) ** 2))
    d = np.abs(yp - yt)
    f32 = lambda a: to_native(a.astype(np.float32))  # noqa: E731
    h32 = ivy.huber_loss(f32(yt), f32(yp), delta=0.7, reduction="none")
    expect_dtype(h32, "float32", "ivy.huber_loss")
    _close(to_numpy(h32), np.where(d <= 0.7, 0.5 * d**2, 0.7 * (d - 0.35)), 1e-5)
    # from logits, stable for large logits: max(z, 0) - z t + log1p(exp(-|z|))
    z = yp * 30
    want = np.maximum(z, 0) - z * lab + np.log1p(np.exp(-np.abs(z)))
    _close(to_numpy(ivy.binary_cross_entropy(to_native(lab), to_native(z), from_logits=True, reduction="none")), want)
    p, q = np.array([[0.5, 0.5, 0.0]]), np.array([[0.25, 0.25, 0.5]])  # 0 log 0 counts as 0
    _close(to_numpy(ivy.kl_div(to_native(p), to_native(q))), np.log(2.0))
    with pytest.raises(ValueError):
        ivy.mse_loss(to_native(yt), to_native(yp), reduction="avg")


@covers("batch_norm")
def test_fn_batch_norm_batch_statistics_of_data_far_from_zero(to_native, to_numpy):
    """float32 channels of mean 1e3 and spread 1: the variance of the deviations from the mean (a
    variance from E[x^2] - E[x]^2, 1e6 - 1e6 in float32, is off by percents there)."""
    r = np.random.default_rng(22)
    x = (1e3 + r.normal(size=(8, 4, 4, 3))).astype(np.float32)
    zeros, ones = to_native(np.zeros(3, np.float32)), to_native(np.ones(3, np.float32))
    y, _, v = ivy.batch_norm(to_native(x), zeros, ones, training=True, momentum=1.0)
    x64 = x.astype(np.float64)
    bm, bv = x64.mean(axis=(0, 1, 2)), x64.var(axis=(0, 1, 2))
    _close(to_numpy(v), x64.var(axis=(0, 1, 2), ddof=1), 1e-3)
    _close(to_numpy(y), (x64 - bm) / np.sqrt(bv + 1e-5), 1e-3)


# ---------------------------------------------------------------------------- gradients of layers


@covers("batch_norm")
def test_fn_batch_norm_training_gradient_matches_finite_differences(autodiff, to_native, to_numpy):
    x = np.random.default_rng(27).normal(size=(3, 2))
    mean, var = to_native(np.zeros(2)), to_native(np.ones(2))

    def loss_np(ls):
        a = ls[0]
        return float(np.sum(((a - a.mean(0)) / np.sqrt(a.var(0) + 1e-5)) ** 3))

    def loss(ls):
        y = ivy.batch_norm(ls[0], mean, var, training=True)[0]
        return ivy.sum(ivy.multiply(ivy.multiply(y, y), y))

    _, g, _ = ivy.value_and_grad_flat(loss, [to_native(x)])
    _close(to_numpy(g[0]), fd_grad(loss_np, [x])[0], 1e-5)


# ---------------------------------------------------------------------------- sampling


#: pixel centres, the last row and column, points between them and outside on every side
_SAMPLE_POINTS = np.array(
    [[0, 0], [6, 4], [6, 0.5], [2.5, 4], [-3, 2.2], [9, -1], [3.3, 7], [-0.5, -0.5], [1.25, 2.75], [5.9, 3.1]]
)


@covers("bilinear_sample")
def test_fn_bilinear_sample_borders_outside_points_and_batch_axes(to_native, to_numpy):
    r = np.random.default_rng(31)
    img = r.normal(size=(2, 5, 7, 3))
    coords = np.concatenate([np.broadcast_to(_SAMPLE_POINTS, (2, 10, 2)), r.uniform(-1, 8, (2, 6, 2))], 1)
    want = np.stack([np_bilinear_sample(img[i], coords[i]) for i in range(2)])
    got = ivy.bilinear_sample(to_native(img), to_native(coords.reshape(2, 4, 4, 2)))  # sample axes S = (4, 4)
    expect_shape(got, (2, 4, 4, 3), "ivy.bilinear_sample")
    _close(to_numpy(got).reshape(2, 16, 3), want, 1e-12)
    # no batch axes, and no sample axes
    _close(to_numpy(ivy.bilinear_sample(to_native(img[1]), to_native(coords[1]))), want[1], 1e-12)
    _close(to_numpy(ivy.bilinear_sample(to_native(img), to_native(coords[:, 3]))), want[:, 3], 1e-12)
    # batch axes broadcast both ways: one image for two sets of points, two images for one set
    got = ivy.bilinear_sample(to_native(img[:1, None]), to_native(coords[None]))  # [1, 1] with [1, 2]
    _close(to_numpy(got)[0], np.stack([np_bilinear_sample(img[0], c) for c in coords]), 1e-12)
    got = ivy.bilinear_sample(to_native(img), to_native(coords[:1]))
    _close(to_numpy(got), np.stack([np_bilinear_sample(img[i], coords[0]) for i in range(2)]), 1e-12)
    # a single row, a single column, a single pixel
    for part in (img[0, 2:3], img[0, :, 4:5], img[0, 1:2, 1:2]):
        got = ivy.bilinear_sample(to_native(part), to_native(coords[0]))
        _close(to_numpy(got), np_bilinear_sample(part, coords[0]))


@covers("bilinear_sample")
def test_fn_bilinear_sample_dtypes_and_errors(to_native, to_numpy):
    r = np.random.default_rng(32)
    img, coords = r.normal(size=(4, 6, 2)), r.uniform(-1, 6, (5, 2))
    want = np_bilinear_sample(img, coords)
    got = ivy.bilinear_sample(to_native(img.astype(np.float32)), to_native(coords.astype(np.float32)))
    expect_dtype(got, "float32", "ivy.bilinear_sample of float32 arrays")
    _close(to_numpy(got), want, 1e-5)
    got = ivy.bilinear_sample(to_native(img.astype(np.float32)), to_native(coords))
    expect_dtype(got, "float64", "ivy.bilinear_sample of a float32 image at float64 coords")
    _close(to_numpy(got), np_bilinear_sample(img.astype(np.float32).astype(np.float64), coords), 1e-12)
    with pytest.raises(ValueError, match=r"bilinear_sample: expected an image of shape \[\.\.\., h, w, c\]"):
        ivy.bilinear_sample(to_native(img[..., 0]), to_native(coords))
    with pytest.raises(ValueError, match=r"bilinear_sample: the image of shape \[0, 6, 2\] has no pixels"):
        ivy.bilinear_sample(to_native(img[:0]), to_native(coords))
    with pytest.raises(ValueError, match=r"bilinear_sample: expected coords of shape \[B\.\.\., S\.\.\., 2\]"):
        ivy.bilinear_sample(to_native(img), to_native(np.ones((5, 3))))
    with pytest.raises(ValueError, match=r"bilinear_sample: expected coords .* B\.\.\. = \[2\] first"):
        ivy.bilinear_sample(to_native(np.ones((2, 4, 6, 2))), to_native(np.ones((2,))))
    with pytest.raises(ValueError, match=r"bilinear_sample: batch axis 0 of the image \(2\) and of coords \(3\)"):
        ivy.bilinear_sample(to_native(np.ones((2, 4, 6, 2))), to_native(np.ones((3, 5, 2))))
    with pytest.raises(TypeError, match=r"bilinear_sample: image must have a real floating dtype"):
        ivy.bilinear_sample(to_native(np.ones((4, 6, 2), np.int32)), to_native(coords))
    with pytest.raises(TypeError, match=r"bilinear_sample: coords must have a real floating dtype"):
        ivy.bilinear_sample(to_native(img), to_native(np.ones((5, 2), np.int32)))


@covers("bilinear_sample")
def test_fn_bilinear_sample_gradients_match_finite_differences(autodiff, to_native, to_numpy):
    """With respect to the image and the coordinates, inside and outside the image (where the
    clamped coordinate has no gradient), away from the kinks at pixel centres."""
    r = np.random.default_rng(33)
    img = r.normal(size=(1, 4, 5, 2))
    coords = np.array([[[1.3, 2.6], [0.4, 0.7], [3.8, 2.2], [-1.5, 1.4], [2.7, 4.5], [6.2, -2.1]]])
    weights = r.normal(size=(1, 6, 2))

    def loss(ls):
        return ivy.sum(ivy.multiply(ivy.bilinear_sample(ls[0], ls[1]), to_native(weights)))

    _, g, _ = ivy.value_and_grad_flat(loss, [to_native(img), to_native(coords)])
    want = fd_grad(lambda ls: float(np.sum(np_bilinear_sample(ls[0][0], ls[1][0]) * weights[0])), [img, coords])
    _close(to_numpy(g[0]), want[0], 1e-6)
    _close(to_numpy(g[1]), want[1], 1e-6)
