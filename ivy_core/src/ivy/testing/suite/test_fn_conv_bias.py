"""The ``bias=`` of the convolutions: added along the channel axis of either layout (plain,
transposed, depthwise), against the NumPy reference convolution plus the bias added in NumPy; its
gradient (the upstream gradient summed over the batch and spatial axes) and central finite
differences; the result's dtype; a bias of the wrong shape rejected; emitted graphs."""

from __future__ import annotations

import numpy as np
import pytest

import ivy
from ivy.testing._helpers.facts import expect, expect_dtype
from ivy.testing._helpers.nn_reference import (
    CONV,
    FMT,
    _norm,
    _pads_of,
    fd_grad,
    np_conv,
    np_conv_t,
    same_pads,
)
from ivy.testing._helpers.registry import covers


def _cf(a):
    """Channel-last NumPy array -> channel-first."""
    return np.moveaxis(a, -1, 1)


def _close(got, want, tol):
    np.testing.assert_allclose(np.asarray(got, dtype=np.float64), want, rtol=tol, atol=tol)


def _needs(backend, *ops):
    """Skip where the backend lacks an op (``test_op_present`` reports the missing op itself)."""
    missing = [n for n in ops if n not in ivy._registry.get_backend(backend).ops]
    if missing:
        pytest.skip(f"the {backend!r} backend lacks {missing}")


def _id(v):
    return str(v).replace(" ", "")


BIAS_CONV_CASES = [
    # n, spatial, kernel, strides, padding, dilations
    (1, (9,), (4,), 2, "SAME", 1),
    (1, (10,), (3,), 3, [(2, 0)], 2),
    (2, (7, 8), (3, 2), (2, 1), "SAME", 1),
    (2, (6, 6), (2, 3), (1, 2), [(0, 1), (2, 1)], 1),
    (2, (8, 7), (3, 3), 2, "VALID", 2),
    (3, (5, 6, 4), (2, 3, 2), (1, 2, 1), "SAME", 1),
    (3, (5, 5, 5), (3, 2, 2), 2, [(1, 1), (0, 2), (1, 0)], (1, 1, 2)),
]


@covers("conv1d", "conv2d", "conv3d")
@pytest.mark.parametrize("case", BIAS_CONV_CASES, ids=lambda c: f"{c[0]}d-{_id(c[4])}-s{_id(c[3])}-d{_id(c[5])}")
@pytest.mark.parametrize("channel_first", [False, True])
def test_fn_conv_bias_added_on_the_channel_axis(to_native, to_numpy, case, channel_first):
    n, sp, k, strides, padding, dil = case
    r = np.random.default_rng(40)
    x, w, b = r.normal(size=(2, *sp, 3)), r.normal(size=(*k, 3, 4)), r.normal(size=4)
    s, d = _norm(strides, n), _norm(dil, n)
    want = np_conv(x, w, s, _pads_of(padding, n, sp, [d[i] * (k[i] - 1) + 1 for i in range(n)], s), d) + b
    got = getattr(ivy, CONV[n])(
        to_native(_cf(x) if channel_first else x),
        to_native(w),
        strides,
        padding,
        data_format=FMT[n][int(channel_first)],
        dilations=dil,
        bias=to_native(b),
    )
    expect_dtype(got, "float64", f"ivy.{CONV[n]}")
    _close(to_numpy(got), _cf(want) if channel_first else want, 1e-9)


BIAS_TRANSPOSE_CASES = [
    # n, spatial in, kernel, strides, padding, dilations, output_shape
    (1, (5,), (4,), 2, "SAME", 1, (10,)),
    (1, (4,), (3,), 3, "VALID", 1, (14,)),  # two positions past the full result: the bias alone
    (1, (6,), (3,), 2, [(2, 0)], 2, None),
    (2, (3, 4), (3, 3), (2, 1), "SAME", 1, None),
    (2, (4, 4), (3, 3), 2, 1, 1, (8, 8)),
    (2, (3, 3), (3, 2), (1, 2), "VALID", (2, 1), None),
    (3, (2, 3, 2), (2, 2, 3), (2, 1, 2), "SAME", 1, None),
    (3, (2, 2, 3), (3, 2, 2), 2, [(1, 1), (0, 0), (2, 1)], 1, (4, 4, 4)),
]


@covers("conv1d_transpose", "conv2d_transpose", "conv3d_transpose")
@pytest.mark.parametrize("case", BIAS_TRANSPOSE_CASES, ids=lambda c: f"{c[0]}d-{_id(c[4])}-s{_id(c[3])}-o{_id(c[6])}")
@pytest.mark.parametrize("channel_first", [False, True])
def test_fn_conv_transpose_bias_added_on_the_channel_axis(backend, to_native, to_numpy, case, channel_first):
    n, sp, k, strides, padding, dil, oshape = case
    _needs(backend, CONV[n] + "_transpose")
    r = np.random.default_rng(41)
    x, w, b = r.normal(size=(2, *sp, 3)), r.normal(size=(*k, 4, 3)), r.normal(size=4)  # d_in 3, d_out 4
    s, d = _norm(strides, n), _norm(dil, n)
    eff = [d[i] * (k[i] - 1) + 1 for i in range(n)]
    if padding == "SAME":
        outs = oshape or tuple(sp[i] * s[i] for i in range(n))
        pads = same_pads(outs, eff, s)
    else:
        pads = _pads_of(padding, n, None, eff, s)
        outs = oshape or tuple((sp[i] - 1) * s[i] + eff[i] - pads[i][0] - pads[i][1] for i in range(n))
    want = np_conv_t(x, w, s, pads, d, outs) + b
    got = getattr(ivy, CONV[n] + "_transpose")(
        to_native(_cf(x) if channel_first else x),
        to_native(w),
        strides,
        padding,
        output_shape=oshape,
        data_format=FMT[n][int(channel_first)],
        dilations=dil,
        bias=to_native(b),
    )
    _close(to_numpy(got), _cf(want) if channel_first else want, 1e-9)


@covers("depthwise_conv2d")
@pytest.mark.parametrize("case", [(1, "SAME", 1), ((1, 2), [(1, 0), (2, 1)], (2, 1)), (2, "VALID", 2)], ids=_id)
@pytest.mark.parametrize("channel_first", [False, True])
def test_fn_depthwise_conv2d_bias_added_on_the_channel_axis(backend, to_native, to_numpy, case, channel_first):
    _needs(backend, "depthwise_conv2d")
    strides, padding, dil = case
    r = np.random.default_rng(42)
    x, w, b = r.normal(size=(2, 7, 6, 3)), r.normal(size=(3, 2, 3)), r.normal(size=3)
    s, d = _norm(strides, 2), _norm(dil, 2)
    pads = _pads_of(padding, 2, (7, 6), [d[0] * 2 + 1, d[1] + 1], s)
    want = np.concatenate([np_conv(x[..., c : c + 1], w[..., c : c + 1, None], s, pads, d) for c in range(3)], -1) + b
    got = ivy.depthwise_conv2d(
        to_native(_cf(x) if channel_first else x),
        to_native(w),
        strides,
        padding,
        data_format="NCHW" if channel_first else "NHWC",
        dilations=dil,
        bias=to_native(b),
    )
    _close(to_numpy(got), _cf(want) if channel_first else want, 1e-10)


def _calls():
    """(op, x shape channel-last, filters shape, output channels) of each convolution."""
    return [
        ("conv1d", (1, 6, 2), (3, 2, 4), 4),
        ("conv2d", (1, 5, 5, 2), (3, 3, 2, 4), 4),
        ("conv3d", (1, 4, 4, 4, 2), (2, 2, 2, 2, 4), 4),
        ("conv1d_transpose", (1, 4, 2), (3, 4, 2), 4),
        ("conv2d_transpose", (1, 3, 3, 2), (3, 3, 4, 2), 4),
        ("conv3d_transpose", (1, 2, 2, 2, 2), (2, 2, 2, 4, 2), 4),
        ("depthwise_conv2d", (1, 5, 5, 2), (3, 3, 2), 2),
    ]


@covers("conv1d", "conv2d", "conv3d", "conv1d_transpose", "conv2d_transpose", "conv3d_transpose", "depthwise_conv2d")
@pytest.mark.parametrize("call", _calls(), ids=lambda c: c[0])
def test_fn_conv_bias_of_the_wrong_shape_is_rejected(backend, to_native, call):
    op, xs, ws, out = call
    _needs(backend, op)
    x, w = to_native(np.ones(xs)), to_native(np.ones(ws))
    for bad in ((out + 1,), (1,), (out, 1)):
        with pytest.raises(ValueError, match=rf"\({out},\)"):
            getattr(ivy, op)(x, w, 1, "SAME", bias=to_native(np.ones(bad)))


@covers("conv2d", "conv2d_transpose", "depthwise_conv2d")
@pytest.mark.parametrize("op", ["conv2d", "conv2d_transpose", "depthwise_conv2d"])
def test_fn_conv_bias_keeps_the_dtype_of_x(backend, to_native, to_numpy, op):
    _needs(backend, op)
    _, xs, ws, out = next(c for c in _calls() if c[0] == op)
    r = np.random.default_rng(43)
    x, w, b = r.normal(size=xs).astype(np.float32), r.normal(size=ws).astype(np.float32), r.normal(size=out)
    fn = getattr(ivy, op)
    y0 = to_numpy(fn(to_native(x), to_native(w), 1, "SAME"))
    y = fn(to_native(x), to_native(w), 1, "SAME", bias=to_native(b))  # a float64 bias
    expect_dtype(y, "float32", f"ivy.{op}")
    _close(to_numpy(y), y0.astype(np.float64) + b, 1e-5)


# ---------------------------------------------------------------------------- gradients


@covers("conv1d", "conv2d", "conv3d", "conv1d_transpose", "conv2d_transpose", "conv3d_transpose", "depthwise_conv2d")
@pytest.mark.parametrize(
    "op", ["conv1d", "conv2d", "conv3d", "conv1d_transpose", "conv2d_transpose", "conv3d_transpose", "depthwise_conv2d"]
)
@pytest.mark.parametrize("channel_first", [False, True])
def test_fn_conv_bias_gradient_sums_the_upstream_gradient(autodiff, to_native, to_numpy, op, channel_first):
    """d/db sum(conv(x, w, bias=b) * g) = g summed over every axis but the channel axis."""
    _needs(autodiff, op)
    _, xs, ws, out = next(c for c in _calls() if c[0] == op)
    n = len(xs) - 2
    fmt = FMT[n][int(channel_first)]
    r = np.random.default_rng(44)
    x, w, b = r.normal(size=xs), r.normal(size=ws), r.normal(size=out)
    if channel_first:
        x = _cf(x)
    y_shape = tuple(int(v) for v in getattr(ivy, op)(to_native(x), to_native(w), 2, "SAME", data_format=fmt).shape)
    g = r.normal(size=y_shape)
    caxis = 1 if channel_first else len(y_shape) - 1

    def loss(ls):
        y = getattr(ivy, op)(ls[0], ls[1], 2, "SAME", data_format=fmt, bias=ls[2])
        return ivy.sum(ivy.multiply(y, to_native(g)))

    _, grads, _ = ivy.value_and_grad_flat(loss, [to_native(x), to_native(w), to_native(b)])
    want = g.sum(axis=tuple(a for a in range(len(y_shape)) if a != caxis))
    expect(
        tuple(int(v) for v in grads[2].shape),
        (out,),
        "ivy.value_and_grad_flat: tuple((int(v) for v in grads[2].shape))",
    )
    _close(to_numpy(grads[2]), want, 1e-9)


@covers("conv2d")
def test_fn_conv2d_bias_gradients_match_finite_differences(autodiff, to_native, to_numpy):
    r = np.random.default_rng(45)
    x, w, b = r.normal(size=(1, 2, 5, 6)), r.normal(size=(2, 3, 2, 3)), r.normal(size=3)
    pads = same_pads((5, 6), (2, 3), (2, 2))

    def loss_np(ls):
        y = np_conv(np.moveaxis(ls[0], 1, -1), ls[1], (2, 2), pads, (1, 1)) + ls[2]
        return float(np.sum(np.tanh(y)))

    def loss(ls):
        return ivy.sum(ivy.tanh(ivy.conv2d(ls[0], ls[1], 2, "SAME", data_format="NCHW", bias=ls[2])))

    _, grads, _ = ivy.value_and_grad_flat(loss, [to_native(x), to_native(w), to_native(b)])
    for got, want in zip(grads, fd_grad(loss_np, [x, w, b])):
        _close(to_numpy(got), want, 1e-6)


# ---------------------------------------------------------------------------- graphs


@covers("conv2d", "depthwise_conv2d")
@pytest.mark.parametrize(("fmt", "padding"), [("NHWC", "SAME"), ("NCHW", "SAME"), ("NCHW", [(0, 1), (1, 0)])])
def test_fn_emitted_conv_bias_graphs_equal_the_reference(backend, to_native, to_numpy, fmt, padding):
    """Traced convolutions with a bias, emitted for the backend (where a plugin may specialise the
    call to its framework's fused convolution) and written out as standalone source."""
    _needs(backend, "conv2d", "depthwise_conv2d")
    r = np.random.default_rng(46)
    x, w, wd = r.normal(size=(2, 7, 6, 3)), r.normal(size=(3, 3, 3, 4)), r.normal(size=(3, 3, 3))
    b, bd = r.normal(size=4), r.normal(size=3)
    pads = _pads_of(padding, 2, (7, 6), (3, 3), (1, 1))
    want = [
        np_conv(x, w, (1, 1), pads, (1, 1)) + b,
        np.concatenate(
            [np_conv(x[..., c : c + 1], wd[..., c : c + 1, None], (1, 1), pads, (1, 1)) for c in range(3)], -1
        )
        + bd,
    ]
    if fmt == "NCHW":
        x, want = _cf(x), [_cf(v) for v in want]

    def f(x, w, b, wd, bd):
        return (
            ivy.conv2d(x, w, 1, padding, data_format=fmt, bias=b),
            ivy.depthwise_conv2d(x, wd, 1, padding, data_format=fmt, bias=bd),
        )

    args = tuple(to_native(a) for a in (x, w, b, wd, bd))
    g = ivy.trace_graph(f, args=args)
    for got, ref in zip(g.to(backend, compile=False)(*args), want):
        _close(to_numpy(got), ref, 1e-9)
    ns: dict = {}
    exec(compile(g.source(backend), "<source of a biased convolution>", "exec"), ns)
    for got, ref in zip(ns["forward"](*args), want):
        _close(to_numpy(got), ref, 1e-9)
