"""Convolutions and pooling beyond ``test_fn_conv_pool``: both layouts, per-axis strides, padding
and dilations, transposed convolutions against a direct NumPy reference (default and larger
output sizes), integer and boolean pooling, dtypes, SAME output sizes, errors, randomly drawn
configurations, and gradients against central finite differences."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import signal

import ivy
from ivy.testing._helpers.facts import expect, expect_dtype, expect_shape
from ivy.testing._helpers.nn_reference import (
    CONV,
    FMT,
    _norm,
    _pads_of,
    fd_grad,
    np_conv,
    np_conv_t,
    np_pool,
    same_pads,
)
from ivy.testing._helpers.registry import covers
from ivy.testing._helpers.strategies import supported_dtypes


def _cf(a):
    """Channel-last NumPy array -> channel-first."""
    return np.moveaxis(a, -1, 1)


def _cl(a):
    """Channel-first NumPy array -> channel-last."""
    return np.moveaxis(a, 1, -1)


def _close(got, want, tol):
    np.testing.assert_allclose(np.asarray(got, dtype=np.float64), want, rtol=tol, atol=tol)


def _needs(backend, *ops):
    """Skip where the backend lacks an op (``test_op_present`` reports the missing op itself)."""
    missing = [n for n in ops if n not in ivy._registry.get_backend(backend).ops]
    if missing:
        pytest.skip(f"the {backend!r} backend lacks {missing}")


CONV_CASES = [
    # n, spatial, kernel, strides, padding, dilations
    (1, (9,), (3,), 1, "VALID", 1),
    (1, (9,), (4,), 2, "SAME", 1),
    (1, (10,), (3,), 3, [(2, 0)], 2),
    (1, (7,), (2,), 1, 2, 3),
    (2, (7, 8), (3, 2), (2, 1), "SAME", 1),
    (2, (7, 8), (3, 3), 1, 1, (2, 1)),
    (2, (6, 6), (2, 3), (1, 2), [(0, 1), (2, 1)], 1),
    (2, (8, 7), (3, 3), 2, "VALID", 2),
    (2, (5, 5), (1, 1), 1, "SAME", 1),
    (2, (9, 6), (4, 3), 3, "SAME", (2, 1)),
    (2, (9, 9), (3, 2), 2, "SAME", (2, 3)),
    (3, (5, 6, 4), (2, 3, 2), (1, 2, 1), "SAME", 1),
    (3, (5, 5, 5), (3, 2, 2), 2, [(1, 1), (0, 2), (1, 0)], (1, 1, 2)),
    (3, (5, 3, 3), (3, 1, 1), (2, 1, 3), "SAME", (2, 1, 2)),  # a stride above the axis size
    # outputs of one or two positions per axis: the window covers about all of the input
    (1, (3,), (3,), 1, 1, 2),
    (2, (2, 2), (3, 3), 1, 1, 1),
    (2, (4, 3), (3, 3), 2, "SAME", 1),
    (2, (5, 5), (3, 3), 3, [(1, 0), (0, 2)], (1, 2)),
    (3, (2, 2, 1), (3, 3, 1), 1, "SAME", 1),
]


def _id(v):
    return str(v).replace(" ", "")


@covers("conv1d", "conv2d", "conv3d")
@pytest.mark.parametrize("case", CONV_CASES, ids=lambda c: f"{c[0]}d-{_id(c[4])}-s{_id(c[3])}-d{_id(c[5])}")
@pytest.mark.parametrize("channel_first", [False, True])
def test_fn_conv_layouts_and_per_axis_arguments(to_native, to_numpy, case, channel_first):
    n, sp, k, strides, padding, dil = case
    r = np.random.default_rng(10)
    x, w = r.normal(size=(2, *sp, 3)), r.normal(size=(*k, 3, 4))
    s, d = _norm(strides, n), _norm(dil, n)
    want = np_conv(x, w, s, _pads_of(padding, n, sp, [d[i] * (k[i] - 1) + 1 for i in range(n)], s), d)
    fn = getattr(ivy, CONV[n])
    got = fn(
        to_native(_cf(x) if channel_first else x),
        to_native(w),
        strides,
        padding,
        data_format=FMT[n][int(channel_first)],
        dilations=dil,
    )
    expect_dtype(got, "float64", f"ivy.{CONV[n]}")
    _close(to_numpy(got), _cf(want) if channel_first else want, 1e-9)


FILTERS_FIRST = {1: "OIW", 2: "OIHW", 3: "OIDHW"}


# every dimension, padding form and stride/dilation mix once, and the outputs of one or two
# positions (a path of their own on some backends)
FILTERS_FIRST_CASES = [CONV_CASES[i] for i in (0, 2, 3, 4, 6, 7, 12, 15, 16, 17, 18)]


@covers("conv1d", "conv2d", "conv3d")
@pytest.mark.parametrize("case", FILTERS_FIRST_CASES, ids=lambda c: f"{c[0]}d-{_id(c[4])}-s{_id(c[3])}-d{_id(c[5])}")
def test_fn_conv_filters_channels_first(to_native, to_numpy, case):
    """torch's layout throughout: NC* data, [out, in, *window] filters (``filter_format``), a bias."""
    n, sp, k, strides, padding, dil = case
    r = np.random.default_rng(11)
    x, w, b = r.normal(size=(2, *sp, 3)), r.normal(size=(*k, 3, 4)), r.normal(size=(4,))
    s, d = _norm(strides, n), _norm(dil, n)
    want = np_conv(x, w, s, _pads_of(padding, n, sp, [d[i] * (k[i] - 1) + 1 for i in range(n)], s), d) + b
    oi = np.ascontiguousarray(np.transpose(w, (n + 1, n, *range(n))))
    got = getattr(ivy, CONV[n])(
        to_native(_cf(x)),
        to_native(oi),
        strides,
        padding,
        data_format=FMT[n][1],
        dilations=dil,
        bias=to_native(b),
        filter_format=FILTERS_FIRST[n],
    )
    expect_dtype(got, "float64", f"ivy.{CONV[n]}")
    _close(to_numpy(got), _cf(want), 1e-9)


ONE_CHANNEL_CASES = [
    # n, spatial, kernel, out channels, strides, padding, dilations, channel first
    (2, (9, 8), (3, 3), 2, 1, "VALID", 1, True),  # a Sobel pair, as kornia computes it
    (2, (9, 8), (3, 2), 3, (2, 1), [(2, 0), (1, 1)], (1, 2), False),
    (1, (11,), (4,), 2, 3, "SAME", 2, True),
    (3, (4, 5, 3), (2, 3, 2), 2, 1, 1, 1, False),
]


@covers("conv1d", "conv2d", "conv3d")
@pytest.mark.parametrize("case", ONE_CHANNEL_CASES, ids=_id)
@pytest.mark.parametrize("filter_format", ["last", "first"])
def test_fn_conv_of_one_input_channel(to_native, to_numpy, case, filter_format):
    """Image filters: one input channel, a few outputs (a path of its own on some backends)."""
    n, sp, k, out, strides, padding, dil, channel_first = case
    r = np.random.default_rng(12)
    x, w, b = r.normal(size=(3, *sp, 1)), r.normal(size=(*k, 1, out)), r.normal(size=(out,))
    s, d = _norm(strides, n), _norm(dil, n)
    want = np_conv(x, w, s, _pads_of(padding, n, sp, [d[i] * (k[i] - 1) + 1 for i in range(n)], s), d) + b
    filters, kw = w, {}
    if filter_format == "first":
        filters = np.ascontiguousarray(np.transpose(w, (n + 1, n, *range(n))))
        kw["filter_format"] = FILTERS_FIRST[n]
    got = getattr(ivy, CONV[n])(
        to_native(_cf(x) if channel_first else x),
        to_native(filters),
        strides,
        padding,
        data_format=FMT[n][int(channel_first)],
        dilations=dil,
        bias=to_native(b),
        **kw,
    )
    _close(to_numpy(got), _cf(want) if channel_first else want, 1e-9)


@covers("conv2d")
def test_fn_conv_filter_format_errors(to_native):
    x, oi = to_native(np.ones((1, 1, 4, 4))), to_native(np.ones((2, 1, 3, 3)))
    with pytest.raises(ValueError, match="filter_format"):
        ivy.conv2d(x, oi, 1, "SAME", data_format="NCHW", filter_format="IOHW")
    with pytest.raises(ValueError, match="bias"):  # the bias is checked against O, the first axis
        ivy.conv2d(x, oi, 1, "SAME", data_format="NCHW", filter_format="OIHW", bias=to_native(np.ones(3)))


@covers("conv2d")
def test_fn_conv2d_matches_scipy_correlate2d(to_native, to_numpy):
    r = np.random.default_rng(11)
    img, ker = r.normal(size=(6, 7)), r.normal(size=(3, 2))
    got = ivy.conv2d(to_native(img[None, :, :, None]), to_native(ker[:, :, None, None]), 1, "VALID")
    _close(to_numpy(got)[0, :, :, 0], signal.correlate2d(img, ker, mode="valid"), 1e-10)


@covers("conv1d", "conv2d")
def test_fn_conv_result_has_the_dtype_and_same_size_of_x(to_native, to_numpy):
    r = np.random.default_rng(12)
    img, ker = r.normal(size=(1, 6, 7, 1)), r.normal(size=(3, 2, 1, 1))
    got = ivy.conv2d(to_native(img.astype(np.float32)), to_native(ker), 1, "SAME")  # float64 filters
    expect_dtype(got, "float32", "ivy.conv2d")
    _close(to_numpy(got), np_conv(img.astype(np.float32), ker, (1, 1), same_pads((6, 7), (3, 2), (1, 1)), (1, 1)), 1e-5)
    for size in range(5, 11):
        for s in (1, 2, 3):
            y = ivy.conv1d(
                to_native(np.ones((1, size, 2), np.float32)), to_native(np.ones((4, 2, 3), np.float32)), s, "SAME"
            )
            expect_shape(y, (1, -(-size // s), 3), "ivy.conv1d")
            expect_dtype(y, "float32", "ivy.conv1d")


@covers("conv2d")
def test_fn_conv_rejects_bad_padding_and_layout(to_native):
    x, w = to_native(np.ones((1, 4, 4, 1))), to_native(np.ones((2, 2, 1, 1)))
    with pytest.raises(ValueError):
        ivy.conv2d(x, w, 1, "FULL")
    with pytest.raises(ValueError):
        ivy.conv2d(x, w, 1, "SAME", data_format="NWC")


TRANSPOSE_CASES = [
    # n, spatial in, kernel, strides, padding, dilations, output_shape
    (1, (5,), (3,), 2, "SAME", 1, None),
    (1, (5,), (4,), 2, "SAME", 1, (9,)),
    (1, (4,), (3,), 1, "VALID", 1, None),
    (1, (4,), (3,), 3, "VALID", 1, (12,)),
    (1, (6,), (3,), 2, [(2, 0)], 2, None),
    (2, (3, 4), (3, 3), (2, 1), "SAME", 1, None),
    (2, (3, 4), (2, 3), 2, [(1, 0), (0, 2)], 1, None),
    (2, (4, 4), (3, 3), 2, 1, 1, (8, 8)),
    (2, (3, 3), (3, 2), (1, 2), "VALID", (2, 1), None),
    (2, (4, 3), (1, 1), 3, "SAME", 1, None),
    (3, (2, 3, 2), (2, 2, 3), (2, 1, 2), "SAME", 1, None),
    (3, (2, 2, 3), (3, 2, 2), 2, [(1, 1), (0, 0), (2, 1)], 1, (4, 4, 4)),
    (3, (2, 3, 2), (2, 2, 2), 1, "VALID", (2, 1, 2), None),
    # outputs past the full transposed convolution (by up to stride - 1: zeros there, then the bias)
    (2, (3, 3), (2, 2), 3, "VALID", 1, (9, 10)),
    (3, (2, 2, 2), (2, 2, 2), (2, 3, 2), "VALID", (2, 1, 1), (5, 6, 5)),
]


@covers("conv1d_transpose", "conv2d_transpose", "conv3d_transpose")
@pytest.mark.parametrize("case", TRANSPOSE_CASES, ids=lambda c: f"{c[0]}d-{_id(c[4])}-s{_id(c[3])}-o{_id(c[6])}")
@pytest.mark.parametrize("channel_first", [False, True])
def test_fn_conv_transpose_matches_the_reference(backend, to_native, to_numpy, case, channel_first):
    """Values against a direct NumPy transposed convolution (the default output size and larger
    ones), and the adjoint identity <conv(a), x> = <a, conv_transpose(x)> with ivy's own conv."""
    n, sp, k, strides, padding, dil, oshape = case
    _needs(backend, CONV[n] + "_transpose")
    r = np.random.default_rng(12)
    x, w = r.normal(size=(2, *sp, 3)), r.normal(size=(*k, 4, 3))  # d_in = 3, d_out = 4
    s, d = _norm(strides, n), _norm(dil, n)
    eff = [d[i] * (k[i] - 1) + 1 for i in range(n)]
    if padding == "SAME":
        outs = oshape or tuple(sp[i] * s[i] for i in range(n))
        pads = same_pads(outs, eff, s)
    else:
        pads = _pads_of(padding, n, None, eff, s)
        outs = oshape or tuple((sp[i] - 1) * s[i] + eff[i] - pads[i][0] - pads[i][1] for i in range(n))
    fn = getattr(ivy, CONV[n] + "_transpose")
    got = to_numpy(
        fn(
            to_native(_cf(x) if channel_first else x),
            to_native(w),
            strides,
            padding,
            output_shape=oshape,
            data_format=FMT[n][int(channel_first)],
            dilations=dil,
        )
    )
    got = _cl(got) if channel_first else got
    expect(got.shape, (2, *outs, 4), f"ivy.{CONV[n]}_transpose: shape")
    _close(got, np_conv_t(x, w, s, pads, d, outs), 1e-9)
    a = r.normal(size=(2, *outs, 4))
    fwd = to_numpy(getattr(ivy, CONV[n])(to_native(a), to_native(w), strides, padding, dilations=dil))
    expect(fwd.shape, x.shape, f"ivy.{CONV[n]}: shape")
    np.testing.assert_allclose(np.sum(fwd * x), np.sum(a * got), rtol=1e-9)


DEPTHWISE_CASES = [(1, "SAME", 1), (2, "VALID", 1), ((1, 2), [(1, 0), (2, 1)], (2, 1)), (2, "SAME", 2)]


@covers("depthwise_conv2d")
@pytest.mark.parametrize("case", DEPTHWISE_CASES, ids=_id)
def test_fn_depthwise_conv2d_both_layouts(backend, to_native, to_numpy, case):
    _needs(backend, "depthwise_conv2d")
    strides, padding, dil = case
    r = np.random.default_rng(13)
    x, w = r.normal(size=(2, 7, 6, 3)), r.normal(size=(3, 2, 3))
    s, d = _norm(strides, 2), _norm(dil, 2)
    pads = _pads_of(padding, 2, (7, 6), [d[0] * 2 + 1, d[1] + 1], s)
    want = np.concatenate([np_conv(x[..., c : c + 1], w[..., c : c + 1, None], s, pads, d) for c in range(3)], -1)
    _close(to_numpy(ivy.depthwise_conv2d(to_native(x), to_native(w), strides, padding, dilations=dil)), want, 1e-10)
    got = ivy.depthwise_conv2d(to_native(_cf(x)), to_native(w), strides, padding, dilations=dil, data_format="NCHW")
    _close(to_numpy(got), _cf(want), 1e-10)


POOL_CASES = [
    # n, spatial, kernel, strides, padding
    (1, (9,), 3, 2, "SAME"),
    (1, (8,), 2, 2, "VALID"),
    (1, (8,), 3, 1, [(2, 0)]),
    (2, (7, 6), (3, 2), (2, 1), "SAME"),
    (2, (7, 6), 3, 2, 1),
    (2, (6, 6), (2, 3), (2, 2), [(1, 0), (0, 2)]),
    (2, (12, 11), (6, 5), (3, 2), "SAME"),  # large windows
    (3, (5, 4, 6), (2, 2, 3), (1, 2, 2), "SAME"),
    (3, (4, 4, 4), 2, 2, "VALID"),
    (3, (4, 5, 4), 3, 2, [(1, 1), (0, 2), (2, 0)]),
]


@covers("max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d")
@pytest.mark.parametrize("case", POOL_CASES, ids=lambda c: f"{c[0]}d-{_id(c[4])}-k{_id(c[2])}-s{_id(c[3])}")
@pytest.mark.parametrize("channel_first", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_fn_pools_layouts_and_dtypes(to_native, to_numpy, case, channel_first, dtype):
    n, sp, k, strides, padding = case
    x = np.random.default_rng(14).normal(size=(2, *sp, 3)).astype(dtype)
    kk, s = _norm(k, n), _norm(strides, n)
    pads = _pads_of(padding, n, sp, kk, s)
    xin = to_native(_cf(x) if channel_first else x)
    tol = 1e-5 if dtype == "float32" else 1e-10
    fmt = FMT[n][int(channel_first)]
    for kind, extra in (("max", {}), ("avg", {}), ("avg", {"count_include_pad": True})):
        got = getattr(ivy, f"{kind}_pool{n}d")(xin, k, strides, padding, data_format=fmt, **extra)
        expect_dtype(got, dtype, f"ivy.{kind}_pool{n}d")
        want = np_pool(x.astype(np.float64), kk, s, pads, kind, extra.get("count_include_pad", False))
        _close(to_numpy(got), _cf(want) if channel_first else want, tol)


@covers("max_pool1d", "max_pool2d", "max_pool3d")
@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"])
def test_fn_max_pool_of_integers_is_exact(backend, to_native, to_numpy, dtype):
    if dtype not in supported_dtypes(backend):
        pytest.skip(f"the {backend!r} backend has no {dtype}")
    x = np.random.default_rng(15).integers(0, 100, size=(2, 7, 6, 3)).astype(dtype)
    got = ivy.max_pool2d(to_native(x), (3, 2), 2, "SAME")
    expect_dtype(got, dtype, "ivy.max_pool2d")
    want = np_pool(x.astype(np.float64), (3, 2), (2, 2), same_pads((7, 6), (3, 2), (2, 2)), "max")
    np.testing.assert_array_equal(to_numpy(got), want.astype(dtype))
    x3 = np.random.default_rng(19).integers(0, 18, size=(1, 4, 4, 4, 2)).astype(dtype)
    got3 = ivy.max_pool3d(to_native(x3), 2, 2, [(1, 0), (0, 1), (1, 1)])
    want3 = np_pool(x3.astype(np.float64), (2, 2, 2), (2, 2, 2), [(1, 0), (0, 1), (1, 1)], "max")
    np.testing.assert_array_equal(to_numpy(got3), want3.astype(dtype))
    if dtype in ("int64", "uint64"):  # beyond float64's integers: no round trip through floats
        big = np.array([[[2**62 + 1], [2**62 + 3], [2**62]]], dtype=dtype)
        got = to_numpy(ivy.max_pool1d(to_native(big), 2, 1, "SAME"))
        expect(got[0, :, 0].tolist(), [2**62 + 3, 2**62 + 3, 2**62], "ivy.max_pool1d: got[0, :, 0].tolist()")
    if dtype == "uint64":  # beyond int64: the order survives
        big = np.array([[[2**63 + 5], [3], [2**64 - 1], [0]]], dtype=np.uint64)
        expect(
            to_numpy(ivy.max_pool1d(to_native(big), 2, 2, "VALID")).tolist(),
            [[[2**63 + 5], [2**64 - 1]]],
            "ivy.max_pool1d: to_numpy(ivy.max_pool1d(to_native(big), 2, 2, 'VALID')).tolist()",
        )


@covers("max_pool1d")
def test_fn_max_pool_of_booleans(to_native, to_numpy):
    b = ivy.max_pool1d(to_native(np.array([[[0], [1], [0], [0], [0], [0]]], dtype=bool)), 2, 2, "VALID")
    expect_dtype(b, "bool", "ivy.max_pool1d")
    np.testing.assert_array_equal(to_numpy(b), [[[True], [False], [False]]])


@covers("max_pool1d")
def test_fn_max_pool_windows_wholly_in_the_padding(to_native, to_numpy):
    """Padded positions never win a maximum: a window of padding only gives -inf."""
    x = to_native(np.arange(1.0, 8.0).reshape(1, 1, 7))
    np.testing.assert_array_equal(
        to_numpy(ivy.max_pool1d(x, 1, 3, 2, data_format="NCW")), [[[-np.inf, 2.0, 5.0, -np.inf]]]
    )


@covers("avg_pool1d")
def test_fn_avg_pool_windows_wholly_in_the_padding(to_native, to_numpy):
    """An average over no input position is NaN (zero where the padding counts)."""
    x = to_native(np.arange(1.0, 8.0).reshape(1, 1, 7))
    np.testing.assert_array_equal(
        to_numpy(ivy.avg_pool1d(x, 1, 3, 2, data_format="NCW")), [[[np.nan, 2.0, 5.0, np.nan]]]
    )
    np.testing.assert_array_equal(
        to_numpy(ivy.avg_pool1d(x, 1, 3, 2, data_format="NCW", count_include_pad=True)), [[[0.0, 2.0, 5.0, 0.0]]]
    )


def _random_config(r):
    """A random rank, sizes, kernel, strides, dilations and padding form that leaves an output."""
    while True:
        n = int(r.integers(1, 4))
        sp = tuple(int(v) for v in r.integers(3, 8, n))
        k = tuple(int(v) for v in r.integers(1, 4, n))
        s = tuple(int(v) for v in r.integers(1, 4, n))
        d = tuple(int(v) for v in r.integers(1, 3, n))
        eff = [d[i] * (k[i] - 1) + 1 for i in range(n)]
        form = int(r.integers(0, 4))
        if form == 0:
            padding, pads = "SAME", same_pads(sp, eff, s)
        elif form == 1:
            padding, pads = "VALID", [(0, 0)] * n
        elif form == 2:
            p = int(r.integers(0, 3))
            padding, pads = p, [(p, p)] * n
        else:
            pads = [(int(a), int(b)) for a, b in r.integers(0, 3, (n, 2))]
            padding = pads
        if all(sp[i] + pads[i][0] + pads[i][1] >= eff[i] for i in range(n)):
            return n, sp, k, s, d, form, padding, pads


@covers(
    "conv1d",
    "conv2d",
    "conv3d",
    "conv1d_transpose",
    "conv2d_transpose",
    "conv3d_transpose",
    "max_pool1d",
    "max_pool2d",
    "max_pool3d",
    "avg_pool1d",
    "avg_pool2d",
    "avg_pool3d",
)
@pytest.mark.parametrize("seed", range(4))
def test_fn_conv_and_pools_in_random_configurations(backend, to_native, to_numpy, seed):
    """Random ranks, sizes, kernels, strides, dilations, padding forms and layouts: the conv, its
    transpose (to the input size of the forward conv) and the pools against the NumPy references."""
    has_transpose = all(f"conv{n}d_transpose" in ivy._registry.get_backend(backend).ops for n in (1, 2, 3))
    r = np.random.default_rng(1000 + seed)
    for _ in range(10):
        n, sp, k, s, d, form, padding, pads = _random_config(r)
        first = bool(r.integers(0, 2))
        fmt = FMT[n][int(first)]
        ci, co = int(r.integers(1, 4)), int(r.integers(1, 4))
        x, w = r.normal(size=(2, *sp, ci)), r.normal(size=(*k, ci, co))
        put = lambda a, first=first: to_native(_cf(a) if first else a)  # noqa: E731
        get = lambda a, first=first: _cl(to_numpy(a)) if first else to_numpy(a)  # noqa: E731
        ref = np_conv(x, w, s, pads, d)
        _close(get(getattr(ivy, CONV[n])(put(x), to_native(w), s, padding, data_format=fmt, dilations=d)), ref, 1e-10)
        if has_transpose:
            y = r.normal(size=ref.shape)
            got = get(
                getattr(ivy, CONV[n] + "_transpose")(
                    put(y), to_native(w), s, padding, output_shape=sp, data_format=fmt, dilations=d
                )
            )
            _close(got, np_conv_t(y, w, s, pads, d, sp), 1e-10)
        pk = tuple(int(v) for v in r.integers(1, 4, n))
        ppads = same_pads(sp, pk, s) if form == 0 else pads
        # every window reaches into the input (windows wholly in the padding: the test above)
        if any(sp[i] + ppads[i][0] + ppads[i][1] < pk[i] or max(ppads[i]) >= pk[i] for i in range(n)):
            continue
        for kind, cip in (("max", False), ("avg", False), ("avg", True)):
            extra = {"count_include_pad": True} if cip else {}
            got = get(getattr(ivy, f"{kind}_pool{n}d")(put(x), pk, s, padding, data_format=fmt, **extra))
            _close(got, np_pool(x, pk, s, ppads, kind, cip), 1e-10)


# ---------------------------------------------------------------------------- gradients


@covers("conv2d")
def test_fn_conv2d_gradients_match_finite_differences(autodiff, to_native, to_numpy):
    r = np.random.default_rng(19)
    x, w = r.normal(size=(1, 5, 6, 2)), r.normal(size=(2, 3, 2, 2))
    pads = same_pads((5, 6), (2, 3), (2, 2))

    def loss_np(ls):
        return float(np.sum(np_conv(ls[0], ls[1], (2, 2), pads, (1, 1)) ** 2))

    def loss(ls):
        y = ivy.conv2d(ls[0], ls[1], 2, "SAME")
        return ivy.sum(ivy.multiply(y, y))

    _, g, _ = ivy.value_and_grad_flat(loss, [to_native(x), to_native(w)])
    for got, want in zip(g, fd_grad(loss_np, [x, w])):
        _close(to_numpy(got), want, 1e-6)


@covers("max_pool2d", "avg_pool2d")
@pytest.mark.parametrize("kind", ["max", "avg"])
def test_fn_pool_gradients_match_finite_differences(autodiff, to_native, to_numpy, kind):
    x = np.random.default_rng(16).normal(size=(1, 2, 5, 5))  # distinct values: the max is unique
    k, s, p = (3, 2, 1) if kind == "max" else (2, 2, 1)
    pads = _pads_of(p, 2, (5, 5), (k, k), (s, s))

    def loss_np(ls):
        return float(np.sum(_cf(np_pool(_cl(ls[0]), (k, k), (s, s), pads, kind)) ** 2))

    def loss(ls):
        y = getattr(ivy, f"{kind}_pool2d")(ls[0], k, s, p, data_format="NCHW")
        return ivy.sum(ivy.multiply(y, y))

    _, g, _ = ivy.value_and_grad_flat(loss, [to_native(x)])
    _close(to_numpy(g[0]), fd_grad(loss_np, [x])[0], 1e-6)
