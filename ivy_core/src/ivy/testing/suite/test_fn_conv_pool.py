"""Convolutions and pooling on every backend against NumPy references written here, and the
transposed convolutions by the adjoint identity <conv(x, w), y> = <x, conv_transpose(y, w)>."""

from __future__ import annotations

import math

import numpy as np
import pytest

import ivy
from ivy.testing._helpers.facts import expect
from ivy.testing._helpers.registry import covers
from ivy.testing.convert import native_to_numpy, to_native

RNG = np.random.default_rng(5)


def _tuple(v, nd):
    return (v,) * nd if isinstance(v, int) else tuple(v)


def _pads(spatial, eff, strides, padding):
    if padding == "VALID":
        return [(0, 0)] * len(spatial)
    if padding == "SAME":
        out = []
        for n, e, s in zip(spatial, eff, strides):
            total = max((math.ceil(n / s) - 1) * s + e - n, 0)
            out.append((total // 2, total - total // 2))  # the odd extra on the high side
        return out
    if isinstance(padding, int):
        return [(padding, padding)] * len(spatial)
    return [tuple(p) for p in padding]


def np_conv(x, w, strides, padding, dilations=1):
    """Channels-last N-d convolution (cross-correlation): x [n, *sp, cin], w [*k, cin, cout]."""
    nd = x.ndim - 2
    s, d, k = _tuple(strides, nd), _tuple(dilations, nd), w.shape[:nd]
    eff = [(ki - 1) * di + 1 for ki, di in zip(k, d)]
    pads = _pads(x.shape[1:-1], eff, s, padding)
    xp = np.pad(x, [(0, 0), *pads, (0, 0)])
    out_sp = [(xp.shape[1 + i] - eff[i]) // s[i] + 1 for i in range(nd)]
    out = np.zeros((x.shape[0], *out_sp, w.shape[-1]))
    for idx in np.ndindex(*k):
        sl = tuple(slice(idx[i] * d[i], idx[i] * d[i] + (out_sp[i] - 1) * s[i] + 1, s[i]) for i in range(nd))
        out += xp[(slice(None), *sl, slice(None))] @ w[idx]
    return out


def np_pool(x, kernel, strides, padding, mode, count_include_pad=False):
    nd = x.ndim - 2
    k, s = _tuple(kernel, nd), _tuple(strides, nd)
    pads = _pads(x.shape[1:-1], k, s, padding)
    fill = -np.inf if mode == "max" else 0.0
    xp = np.pad(x, [(0, 0), *pads, (0, 0)], constant_values=fill)
    inside = np.pad(np.ones(x.shape[1:-1]), pads)
    out_sp = [(xp.shape[1 + i] - k[i]) // s[i] + 1 for i in range(nd)]
    out = np.empty((x.shape[0], *out_sp, x.shape[-1]))
    for o in np.ndindex(*out_sp):
        win = tuple(slice(o[i] * s[i], o[i] * s[i] + k[i]) for i in range(nd))
        patch = xp[(slice(None), *win, slice(None))].reshape(x.shape[0], -1, x.shape[-1])
        if mode == "max":
            out[(slice(None), *o, slice(None))] = patch.max(axis=1)
        else:
            count = math.prod(k) if count_include_pad else inside[win].sum()
            out[(slice(None), *o, slice(None))] = patch.sum(axis=1) / count
    return out


CASES = [  # strides, padding, dilations
    (1, "VALID", 1),
    (2, "SAME", 1),
    (1, "SAME", 2),
    (2, 1, 1),
    ((1, 2), [(1, 0), (2, 1)], (2, 1)),
]


def _case(nd, case):
    s, p, d = case
    if nd != 2:  # the per-axis forms of CASES are 2-D
        s = s if isinstance(s, int) else s[0]
        d = d if isinstance(d, int) else d[0]
        p = p if isinstance(p, (str, int)) else [p[0]] * nd
    return s, p, d


def _close(a, b):
    np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-10)


@covers("conv1d", "conv2d", "conv3d")
@pytest.mark.parametrize("nd", [1, 2, 3])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_fn_conv(backend, nd, case):
    s, p, d = _case(nd, CASES[case])
    x = RNG.standard_normal((2, *[7, 6, 5][:nd], 3))
    w = RNG.standard_normal((*[3, 2, 2][:nd], 3, 4))
    fn = getattr(ivy, f"conv{nd}d")
    got = native_to_numpy(backend, fn(to_native(backend, x), to_native(backend, w), s, p, dilations=d))
    _close(got, np_conv(x, w, s, p, d))


@covers("conv2d")
def test_fn_conv2d_channels_first(backend):
    x = RNG.standard_normal((2, 6, 5, 3))
    w = RNG.standard_normal((3, 3, 3, 2))
    got = ivy.conv2d(to_native(backend, np.moveaxis(x, -1, 1)), to_native(backend, w), 1, "SAME", data_format="NCHW")
    _close(np.moveaxis(native_to_numpy(backend, got), 1, -1), np_conv(x, w, 1, "SAME"))


@covers("conv1d_transpose", "conv2d_transpose", "conv3d_transpose")
@pytest.mark.parametrize("nd", [1, 2, 3])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_fn_conv_transpose_is_the_adjoint(backend, nd, case):
    s, p, d = _case(nd, CASES[case])
    x = RNG.standard_normal((2, *[7, 6, 5][:nd], 3))
    w = RNG.standard_normal((*[3, 2, 2][:nd], 3, 4))  # conv: 3 -> 4 channels; transpose: 4 -> 3
    y_shape = np_conv(x, w, s, p, d).shape
    y = RNG.standard_normal(y_shape)
    fn = getattr(ivy, f"conv{nd}d_transpose")
    xt = native_to_numpy(
        backend, fn(to_native(backend, y), to_native(backend, w), s, p, output_shape=x.shape[1:-1], dilations=d)
    )
    expect(xt.shape, x.shape, "the transposed convolution: xt.shape")
    lhs = float(np.sum(np_conv(x, w, s, p, d) * y))
    np.testing.assert_allclose(float(np.sum(x * xt)), lhs, rtol=1e-9)


@covers("depthwise_conv2d")
@pytest.mark.parametrize("case", range(len(CASES)))
def test_fn_depthwise_conv2d(backend, case):
    s, p, d = CASES[case]
    x = RNG.standard_normal((2, 7, 6, 3))
    w = RNG.standard_normal((3, 2, 3))
    got = native_to_numpy(
        backend, ivy.depthwise_conv2d(to_native(backend, x), to_native(backend, w), s, p, dilations=d)
    )
    ref = np.concatenate([np_conv(x[..., c : c + 1], w[..., c : c + 1, None], s, p, d) for c in range(3)], axis=-1)
    _close(got, ref)


POOL_CASES = [(2, 2, "VALID"), (3, 2, "SAME"), (3, 1, 1), ((2, 3), (1, 2), [(1, 0), (0, 2)])]


@covers("max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d")
@pytest.mark.parametrize("nd", [1, 2, 3])
@pytest.mark.parametrize("case", range(len(POOL_CASES)))
@pytest.mark.parametrize("count_include_pad", [False, True])
def test_fn_pools(backend, nd, case, count_include_pad):
    k, s, p = POOL_CASES[case]
    if nd != 2:
        k = k if isinstance(k, int) else k[0]
        s = s if isinstance(s, int) else s[0]
        p = p if isinstance(p, (str, int)) else [p[0]] * nd
    x = RNG.standard_normal((2, *[7, 6, 5][:nd], 3))
    n = to_native(backend, x)
    got = native_to_numpy(backend, getattr(ivy, f"avg_pool{nd}d")(n, k, s, p, count_include_pad=count_include_pad))
    _close(got, np_pool(x, k, s, p, "avg", count_include_pad))
    if not count_include_pad:
        got = native_to_numpy(backend, getattr(ivy, f"max_pool{nd}d")(n, k, s, p))
        _close(got, np_pool(x, k, s, p, "max"))
