"""The numpy backend's issue-3 functional API: gradients, random, devices, nn, general, compile.

Every number is checked against an independent reference (torch.nn.functional, SciPy, NumPy
reference implementations written here, np.add.at...), never against the backend's own output.

    PYTHONPATH=ivy_core/src python -m pytest plugins/ivy-numpy/tests/test_numpy_functional.py -q
"""

from __future__ import annotations

import math

import numpy as np
import ivy.plugin_kit._devices as _kit_devices
import pytest

ivy = pytest.importorskip("ivy")
if "gradients" not in getattr(__import__("ivy._spec", fromlist=["CATEGORIES"]), "CATEGORIES", ()):
    pytest.skip("this ivy-core predates the functional API (issue 3)", allow_module_level=True)

from ivy.errors import NoAutodiffError  # noqa: E402
from scipy import signal, special, stats  # noqa: E402
from ivy.testing._helpers.nn_reference import (  # noqa: E402
    CONV,
    FMT,
    _norm,
    same_pads,
    _pads_of,
    np_pool,
    _np_layer_norm,
    _np_attention,
)

xp = ivy.backend_namespace("numpy")
B = ivy._registry.get_backend("numpy")


def _torch():
    return pytest.importorskip("torch")


def a64(v):
    return np.asarray(v, dtype=np.float64)


def close(got, want, tol=1e-10):
    assert isinstance(got, (np.ndarray, np.generic)), type(got)
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


def rng(seed=0):
    return np.random.default_rng(seed)


def tt(a):
    """numpy -> torch (float64 stays float64)."""
    return _torch().from_numpy(np.ascontiguousarray(a))


def tn(t):
    return t.detach().cpu().numpy()


# ============================================================================= plugin contract


def test_numpy_native_ops_present_and_signatures():
    want = {
        "variable", "is_variable", "stop_gradient", "value_and_grad_flat", "vjp", "jvp", "jacobian",
        "seed", "random_uniform", "random_normal", "randint", "multinomial", "shuffle", "bernoulli",
        "dev", "to_device", "default_device", "devices", "num_gpus", "gpu_is_available",
        "conv1d", "conv2d", "conv3d", "conv1d_transpose", "conv2d_transpose", "conv3d_transpose",
        "depthwise_conv2d", "max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d",
        "avg_pool3d", "erf", "scatter_nd", "scatter_flat", "set_item", "inplace_update", "einsum",
        # overrides of compositions
        "relu", "leaky_relu", "gelu", "silu", "sigmoid", "softmax", "log_softmax", "softplus", "elu",
        "selu", "hardswish", "mish", "linear", "layer_norm", "embedding", "one_hot",
        "scaled_dot_product_attention", "gather", "gather_nd", "top_k", "cumsum", "cumprod", "pad",
        "split", "flatten", "transpose", "cast", "get_item", "dropout",
    }
    assert want <= set(B.native_ops), sorted(want - set(B.native_ops))
    assert set(ivy._spec.SPECS) <= set(B.ops)
    from ivy._registry import signature_mismatch

    assert {n: m for n in B.native_ops if (m := signature_mismatch(n, B.ops[n]))} == {}


def test_numpy_plugin_import_is_framework_free():
    import os
    import subprocess
    import sys

    code = "import sys, ivy_numpy; assert 'numpy' not in sys.modules, 'numpy imported'; print(ivy_numpy.ivy_compile)"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr


# ================================================================================== gradients


def test_numpy_transforms_raise_no_autodiff():
    x = a64([1.0, 2.0])
    calls = {
        "value_and_grad_flat": lambda: ivy.value_and_grad_flat(lambda ls: np.sum(ls[0] ** 2), [x]),
        "vjp": lambda: ivy.vjp(lambda a: a * 2, x),
        "jvp": lambda: ivy.jvp(lambda a: a * 2, [x], [x]),
        "jacobian": lambda: ivy.jacobian(lambda a: a * 2, x),
        # the core-level functions built on them
        "grad": lambda: ivy.grad(lambda a: np.sum(a))(x),
        "value_and_grad": lambda: ivy.value_and_grad(lambda a: np.sum(a))(x),
        "jac": lambda: ivy.jac(lambda a: a)(x),
        "execute_with_gradients": lambda: ivy.execute_with_gradients(lambda p: np.sum(p["w"]), {"w": x}),
    }
    for name, call in calls.items():
        with pytest.raises(NoAutodiffError, match="numpy") as info:
            call()
        assert "torch" in str(info.value) and "jax" in str(info.value), name  # suggests other backends
        assert isinstance(info.value, NotImplementedError)


def test_numpy_variable_is_variable_stop_gradient():
    x = a64([1.0, 2.0])
    assert ivy.variable(x) is x  # no autodiff: nothing to mark
    assert ivy.stop_gradient(x) is x
    assert ivy.is_variable(x) and ivy.is_variable(np.ones(2, np.float32)) and ivy.is_variable(np.ones(1, np.complex64))
    assert ivy.is_variable(np.float64(1.0), backend="numpy")  # NumPy scalars are 0-d arrays to Ivy
    assert not ivy.is_variable(x, exclusive=True)  # NumPy has no distinct variable kind
    assert not ivy.is_variable(np.arange(3))  # integers are not differentiable
    assert not ivy.is_variable(3.0, backend="numpy") and not ivy.is_variable([1.0], backend="numpy")
    assert type(ivy.is_variable(x)) is bool


def test_numpy_optimizer_updates_vs_torch_optim():
    torch = _torch()
    r = rng(4)
    w, g = r.normal(size=(3,)), r.normal(size=(3,))
    m, v = np.zeros(3), np.zeros(3)
    nw, nm, nv = ivy.adam_update({"w": w}, {"w": g}, 0.1, {"w": m}, {"w": v}, 1)
    p = torch.nn.Parameter(tt(w.copy()))
    opt = torch.optim.Adam([p], lr=0.1, betas=(0.9, 0.999), eps=1e-7)
    p.grad = tt(g.copy())
    opt.step()
    close(nw["w"], tn(p), 1e-12)
    close(nm["w"], 0.1 * g)
    close(nv["w"], 0.001 * g * g)
    close(ivy.gradient_descent_update([w], [g], 0.5)[0], w - 0.5 * g)
    p2 = torch.nn.Parameter(tt(w.copy()))
    sgd = torch.optim.SGD([p2], lr=0.5)
    p2.grad = tt(g.copy())
    sgd.step()
    close(ivy.gradient_descent_update({"w": w}, {"w": g}, 0.5)["w"], tn(p2), 1e-14)
    # LARS (You et al., 2017): local lr = lr * |w| / (|g| + l |w|); w - local_lr * (g + l w)
    local = 0.1 * np.linalg.norm(w) / (np.linalg.norm(g) + 0.01 * np.linalg.norm(w))
    close(ivy.lars_update([w], [g], 0.1, decay_lambda=0.01)[0], w - local * (g + 0.01 * w))


# ===================================================================================== random


def test_numpy_seed_reproducible_and_per_call_seed_leaves_global_state():
    ivy.seed(7, backend="numpy")
    a = ivy.random_uniform(shape=(5,), backend="numpy")
    b = ivy.random_normal(shape=(5,), backend="numpy")
    ivy.seed(7, backend="numpy")
    np.testing.assert_array_equal(ivy.random_uniform(shape=(5,), backend="numpy"), a)
    np.testing.assert_array_equal(ivy.random_normal(shape=(5,), backend="numpy"), b)
    # ivy.seed(n) is numpy's default_rng(n)
    np.testing.assert_array_equal(a, np.random.default_rng(7).random(5))
    ivy.seed(3, backend="numpy")
    ref = ivy.random_uniform(shape=(4,), backend="numpy")
    ivy.seed(3, backend="numpy")
    s1 = ivy.random_uniform(shape=(4,), seed=11, backend="numpy")
    np.testing.assert_array_equal(ivy.random_uniform(shape=(4,), backend="numpy"), ref)  # global untouched
    np.testing.assert_array_equal(ivy.random_uniform(shape=(4,), seed=11, backend="numpy"), s1)
    assert not np.array_equal(s1, ivy.random_uniform(shape=(4,), seed=12, backend="numpy"))
    for fn in (
        lambda s: ivy.random_normal(shape=(3,), seed=s, backend="numpy"),
        lambda s: ivy.randint(0, 100, (3,), seed=s, backend="numpy"),
        lambda s: ivy.multinomial(10, 4, replace=False, seed=s, backend="numpy"),
        lambda s: ivy.multinomial(3, 4, probs=a64([[0.2, 0.3, 0.5]]), seed=s),
        lambda s: ivy.shuffle(np.arange(10), seed=s),
        lambda s: ivy.bernoulli(0.5, shape=(8,), seed=s, backend="numpy"),
        lambda s: ivy.dropout(np.ones(8), 0.5, seed=s),
    ):
        np.testing.assert_array_equal(fn(5), fn(5))


def test_numpy_random_uniform_distribution():
    x = ivy.random_uniform(low=-2.0, high=3.0, shape=(20000,), seed=0, backend="numpy")
    assert x.dtype == np.float64 and x.shape == (20000,)
    assert x.min() >= -2.0 and x.max() < 3.0
    assert stats.kstest(x, stats.uniform(loc=-2.0, scale=5.0).cdf).pvalue > 1e-3
    assert abs(x.mean() - 0.5) < 0.05 and abs(x.var() - 25 / 12) < 0.08
    lo, hi = a64([0.0, 10.0]), a64([[1.0, 20.0]] * 3)
    y = ivy.random_uniform(low=lo, high=hi, dtype="float32", seed=1)
    assert y.shape == (3, 2) and y.dtype == np.float32
    assert ((y >= lo) & (y < hi)).all()
    z = ivy.random_uniform(low=np.float32(1.0), high=np.nextafter(np.float32(1.0), np.float32(2)), shape=(1000,), dtype="float32", seed=2)
    assert (z == np.float32(1.0)).all()  # half-open even where rounding would reach `high`
    assert ivy.random_uniform(backend="numpy").shape == ()
    with pytest.raises(ValueError, match="CPU-only"):
        ivy.random_uniform(shape=(2,), device="gpu:0", backend="numpy")


def test_numpy_random_normal_distribution():
    x = ivy.random_normal(mean=1.5, std=2.0, shape=(20000,), seed=1, backend="numpy")
    assert x.dtype == np.float64
    assert abs(x.mean() - 1.5) < 0.06 and abs(x.std() - 2.0) < 0.06
    assert stats.kstest(x, stats.norm(loc=1.5, scale=2.0).cdf).pvalue > 1e-3
    y = ivy.random_normal(mean=a64([0.0, 100.0]), std=1.0, seed=2)
    assert y.shape == (2,) and abs(float(y[1]) - 100.0) < 6
    f = ivy.random_normal(shape=(4000,), dtype="float32", seed=3, backend="numpy")
    assert f.dtype == np.float32 and stats.kstest(f.astype(np.float64), "norm").pvalue > 1e-3


def test_numpy_randint():
    x = ivy.randint(-3, 4, (5000,), seed=0, backend="numpy")
    assert x.dtype == np.int64
    assert set(x.tolist()) == set(range(-3, 4))
    assert stats.chisquare(np.bincount(x + 3)).pvalue > 1e-3
    y = ivy.randint(np.array([0, 100]), np.array([2, 105]), (1000, 2), dtype="int32", seed=1)
    assert y.dtype == np.int32
    assert set(y[:, 0].tolist()) == {0, 1} and set(y[:, 1].tolist()) == set(range(100, 105))
    assert abs(y[:, 1].mean() - 102) < 0.2
    assert ivy.randint(np.array([0, 5]), 10, seed=2).shape == (2,)
    with pytest.raises(ValueError):
        ivy.randint(5, 5, (3,), backend="numpy")


def test_numpy_multinomial():
    x = ivy.multinomial(5, 6, batch_size=3, seed=0, backend="numpy")
    assert x.shape == (3, 6) and x.dtype == np.int64 and x.min() >= 0 and x.max() < 5
    probs = np.array([[0.0, 1.0, 3.0]] * 2, dtype=np.float32)  # unnormalised
    y = ivy.multinomial(3, 4000, probs=probs, seed=1)
    assert y.shape == (2, 4000) and (y != 0).all()
    assert abs((y == 2).mean() - 0.75) < 0.03
    z = ivy.multinomial(10, 10, batch_size=4, replace=False, seed=2, backend="numpy")
    assert all(sorted(row) == list(range(10)) for row in z.tolist())
    w = ivy.multinomial(4, 2, probs=a64([[0.0, 1.0, 1.0, 0.0]] * 300), replace=False, seed=3)
    assert all(sorted(row) == [1, 2] for row in w.tolist())
    with pytest.raises(ValueError):  # more draws than non-zero categories, without replacement
        ivy.multinomial(4, 3, probs=a64([[0.0, 1.0, 1.0, 0.0]]), replace=False, seed=3)
    with pytest.raises(ValueError):
        ivy.multinomial(3, 4, batch_size=1, replace=False, backend="numpy")


def test_numpy_shuffle_and_bernoulli():
    x = np.arange(12).reshape(3, 4)
    s = ivy.shuffle(x, 1, seed=3)
    assert sorted(s[0].tolist()) == [0, 1, 2, 3]
    np.testing.assert_array_equal(s - s[:, :1], np.broadcast_to(s[0] - s[0, 0], (3, 4)))  # columns move whole
    np.testing.assert_array_equal(x, np.arange(12).reshape(3, 4))  # not modified
    with pytest.raises(ValueError):
        ivy.shuffle(np.asarray(1.0))
    b = ivy.bernoulli(0.3, shape=(20000,), seed=0, backend="numpy")
    assert b.dtype == np.float64 and set(b.tolist()) <= {0.0, 1.0}
    assert abs(b.mean() - 0.3) < 0.015
    p = np.array([[0.0, 1.0, 0.5]] * 4000, dtype=np.float32)
    c = ivy.bernoulli(p, dtype="bool", seed=1)
    assert c.dtype == np.bool_ and not c[:, 0].any() and c[:, 1].all() and abs(c[:, 2].mean() - 0.5) < 0.03
    d = ivy.bernoulli(a64([0.2, 0.9]), shape=(3, 2), dtype="int32", seed=2)
    assert d.shape == (3, 2) and d.dtype == np.int32


def test_numpy_dropout():
    x = np.ones(20000)
    y = ivy.dropout(x, 0.25, seed=0)
    assert set(np.unique(y).tolist()) <= {0.0, 1.0 / 0.75}
    assert abs((y == 0).mean() - 0.25) < 0.015
    z = ivy.dropout(x, 0.25, scale=False, seed=0)
    np.testing.assert_array_equal(z == 0, y == 0)  # same seed, same mask
    assert ivy.dropout(x, 0.5, training=False) is x and ivy.dropout(x, 0.0) is x
    f = ivy.dropout(np.ones(10, np.float32), 0.5, seed=1)
    assert f.dtype == np.float32
    ivy.seed(1, backend="numpy")
    w = ivy.dropout(x, 0.5)
    assert abs((w == 0).mean() - 0.5) < 0.02 and set(np.unique(w).tolist()) <= {0.0, 2.0}


# ===================================================================================== device


def test_numpy_device_cpu_round_trip():
    x = np.ones(3)
    assert ivy.dev(x) == "cpu" and ivy.dev(x, as_native=True) == "cpu" == x.device
    for d in ("cpu", "CPU", "cpu:0", x.device):
        assert ivy.to_device(x, d) is x  # already there: no copy
    assert ivy.default_device(backend="numpy") == "cpu"
    assert ivy.default_device(as_native=True, backend="numpy") == "cpu"
    assert ivy.devices(backend="numpy") == ["cpu"]
    assert ivy.num_gpus(backend="numpy") == 0
    assert ivy.gpu_is_available(backend="numpy") is False
    torch = pytest.importorskip("torch")
    assert ivy.to_device(x, torch.device("cpu")) is x  # a native CPU device of another framework


def test_numpy_to_device_errors():
    x = np.ones(2)
    for d in ("gpu:0", "cuda:0", "gpu:1", "nonsense:0", "tpu:0"):
        with pytest.raises(ValueError, match="CPU-only") as info:
            ivy.to_device(x, d)
        assert repr(d) in str(info.value)


# =============================================================================== nn references


def np_conv(x, w, strides, pads, dil):
    """Channel-last N-d cross-correlation by explicit loops over the taps: x [N, *S, Ci], w [*K, Ci, Co]."""
    n = x.ndim - 2
    xp_ = np.pad(x, [(0, 0), *pads, (0, 0)])
    K = w.shape[:n]
    outs = [(xp_.shape[1 + i] - dil[i] * (K[i] - 1) - 1) // strides[i] + 1 for i in range(n)]
    out = np.zeros((x.shape[0], *outs, w.shape[-1]))
    for k in np.ndindex(*K):
        sl = tuple(slice(k[i] * dil[i], k[i] * dil[i] + strides[i] * (outs[i] - 1) + 1, strides[i]) for i in range(n))
        out += xp_[(slice(None), *sl, slice(None))] @ w[k]
    return out


def cf(a):
    """channel-last -> channel-first."""
    return np.moveaxis(a, -1, 1)


def torch_conv(x_cl, w, strides, pads, dil):
    """The reference of torch.nn.functional: channel-last numpy in, channel-last numpy out."""
    torch = _torch()
    F = torch.nn.functional
    n = x_cl.ndim - 2
    flat = [p for lo_hi in reversed(pads) for p in lo_hi]
    xt = F.pad(tt(cf(x_cl)), flat)
    wt = tt(w).permute(n + 1, n, *range(n))  # [*K, Ci, Co] -> [Co, Ci, *K]
    y = getattr(F, f"conv{n}d")(xt, wt, None, _norm(strides, n), 0, _norm(dil, n))
    return np.moveaxis(tn(y), 1, -1)


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
    (3, (5, 6, 4), (2, 3, 2), (1, 2, 1), "SAME", 1),
    (3, (5, 5, 5), (3, 2, 2), 2, [(1, 1), (0, 2), (1, 0)], (1, 1, 2)),
]


@pytest.mark.parametrize("case", CONV_CASES, ids=lambda c: f"{c[0]}d-{c[4]}-s{c[3]}-d{c[5]}")
@pytest.mark.parametrize("channel_first", [False, True])
def test_numpy_conv_vs_torch_and_numpy_reference(case, channel_first):
    n, sp, K, strides, padding, dil = case
    r = rng(10)
    x = r.normal(size=(2, *sp, 3))
    w = r.normal(size=(*K, 3, 4))
    s, d = _norm(strides, n), _norm(dil, n)
    pads = _pads_of(padding, n, sp, [d[i] * (K[i] - 1) + 1 for i in range(n)], s)
    want = np_conv(x, w, s, pads, d)
    close(torch_conv(x, w, strides, pads, dil), want, 1e-9)  # the two references agree
    fmt = FMT[n][int(channel_first)]
    got = getattr(ivy, CONV[n])(cf(x) if channel_first else x, w, strides, padding, data_format=fmt, dilations=dil)
    assert got.dtype == np.float64
    close(got, cf(want) if channel_first else want, 1e-9)
    if channel_first:
        assert got.flags.c_contiguous


def test_numpy_conv2d_vs_scipy_and_dtype():
    r = rng(11)
    img, ker = r.normal(size=(6, 7)), r.normal(size=(3, 2))
    got = ivy.conv2d(img[None, :, :, None], ker[:, :, None, None], 1, "VALID")
    close(got[0, :, :, 0], signal.correlate2d(img, ker, mode="valid"), 1e-10)
    f32 = ivy.conv2d(img[None, :, :, None].astype(np.float32), ker[:, :, None, None], 1, "SAME")
    assert f32.dtype == np.float32  # the dtype of x, whatever the filters'
    for size in range(5, 11):
        for s in (1, 2, 3):
            y = ivy.conv1d(np.ones((1, size, 2), np.float32), np.ones((4, 2, 3), np.float32), s, "SAME")
            assert y.shape == (1, -(-size // s), 3) and y.dtype == np.float32
    with pytest.raises(ValueError):
        ivy.conv2d(np.ones((1, 4, 4, 1)), np.ones((2, 2, 1, 1)), 1, "FULL")
    with pytest.raises(ValueError):
        ivy.conv2d(np.ones((1, 4, 4, 1)), np.ones((2, 2, 1, 1)), 1, "SAME", data_format="NWC")


TCASES = [
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
]


@pytest.mark.parametrize("case", TCASES, ids=lambda c: f"{c[0]}d-{c[4]}-s{c[3]}-o{c[6]}")
@pytest.mark.parametrize("channel_first", [False, True])
def test_numpy_conv_transpose_vs_torch_autograd_and_adjoint(case, channel_first):
    """The transposed conv is the gradient of the forward conv with respect to its input: the
    reference is torch.autograd through torch.nn.functional's forward conv (with the same padding),
    and the adjoint identity <conv(a), x> = <a, conv_transpose(x)> with ivy's own forward conv."""
    torch = _torch()
    F = torch.nn.functional
    n, sp, K, strides, padding, dil, oshape = case
    r = rng(12)
    x = r.normal(size=(2, *sp, 3))  # d_in = 3
    w = r.normal(size=(*K, 4, 3))  # [*k, d_out=4, d_in=3]
    s, d = _norm(strides, n), _norm(dil, n)
    eff = [d[i] * (K[i] - 1) + 1 for i in range(n)]
    if padding == "SAME":
        outs = oshape or tuple(sp[i] * s[i] for i in range(n))
        pads = same_pads(outs, eff, s)
    else:
        pads = _pads_of(padding, n, None, eff, s)
        outs = oshape or tuple((sp[i] - 1) * s[i] + eff[i] - pads[i][0] - pads[i][1] for i in range(n))
    # reference: d/da <conv(a), x> for a of the output shape, by torch.autograd
    a = torch.zeros((2, 4, *outs), dtype=torch.float64, requires_grad=True)
    flat = [p for lo_hi in reversed(pads) for p in lo_hi]
    fwd = getattr(F, f"conv{n}d")(F.pad(a, flat), tt(w).permute(n + 1, n, *range(n)), None, s, 0, d)
    assert tuple(fwd.shape[2:]) == sp
    (fwd * tt(cf(x))).sum().backward()
    want = np.moveaxis(tn(a.grad), 1, -1)
    fmt = FMT[n][int(channel_first)]
    fn = getattr(ivy, CONV[n] + "_transpose")
    got = fn(cf(x) if channel_first else x, w, strides, padding, output_shape=oshape, data_format=fmt, dilations=dil)
    got_cl = np.moveaxis(got, 1, -1) if channel_first else got
    assert got_cl.shape == (2, *outs, 4)
    close(got_cl, want, 1e-9)
    b = r.normal(size=(2, *outs, 4))
    fwd_ivy = getattr(ivy, CONV[n])(b, w, strides, padding, dilations=dil)
    assert fwd_ivy.shape == x.shape
    np.testing.assert_allclose(np.sum(fwd_ivy * x), np.sum(b * got_cl), rtol=1e-9)


def test_numpy_conv_transpose_vs_torch_conv_transpose():
    torch = _torch()
    F = torch.nn.functional
    r = rng(18)
    x, w = r.normal(size=(2, 3, 5, 6)), r.normal(size=(3, 3, 4, 3))  # NCHW, [kh, kw, d_out, d_in]
    want = F.conv_transpose2d(tt(x), tt(w).permute(3, 2, 0, 1), stride=2, padding=1, output_padding=1)
    got = ivy.conv2d_transpose(x, w, 2, 1, output_shape=(10, 12), data_format="NCHW")
    close(got, tn(want), 1e-10)
    want1 = F.conv_transpose1d(tt(x[:, :, 0]), tt(w[0]).permute(2, 1, 0), stride=3, dilation=2)
    close(ivy.conv1d_transpose(x[:, :, 0], w[0], 3, "VALID", data_format="NCW", dilations=2), tn(want1), 1e-10)


def test_numpy_depthwise_conv2d_vs_torch_groups():
    torch = _torch()
    F = torch.nn.functional
    r = rng(13)
    x, w = r.normal(size=(2, 7, 6, 3)), r.normal(size=(3, 2, 3))
    for strides, padding, dil in ((1, "SAME", 1), (2, "VALID", 1), ((1, 2), [(1, 0), (2, 1)], (2, 1))):
        s, d = _norm(strides, 2), _norm(dil, 2)
        pads = _pads_of(padding, 2, (7, 6), [d[0] * 2 + 1, d[1] * 1 + 1], s)
        flat = [p for lo_hi in reversed(pads) for p in lo_hi]
        ref = F.conv2d(F.pad(tt(cf(x)), flat), tt(w).permute(2, 0, 1).unsqueeze(1), None, s, 0, d, 3)
        want = np.moveaxis(tn(ref), 1, -1)
        close(ivy.depthwise_conv2d(x, w, strides, padding, dilations=dil), want, 1e-10)
        close(ivy.depthwise_conv2d(cf(x), w, strides, padding, dilations=dil, data_format="NCHW"), cf(want), 1e-10)


POOL_CASES = [
    (1, (9,), 3, 2, "SAME"),
    (1, (8,), 2, 2, "VALID"),
    (1, (8,), 3, 1, [(2, 0)]),
    (2, (7, 6), (3, 2), (2, 1), "SAME"),
    (2, (7, 6), 3, 2, 1),
    (2, (6, 6), (2, 3), (2, 2), [(1, 0), (0, 2)]),
    (2, (12, 11), (6, 5), (3, 2), "SAME"),  # more taps than the tap loop takes: one reduction
    (3, (5, 4, 6), (2, 2, 3), (1, 2, 2), "SAME"),
    (3, (4, 4, 4), 2, 2, "VALID"),
]


@pytest.mark.parametrize("case", POOL_CASES, ids=lambda c: f"{c[0]}d-{c[4]}-k{c[2]}-s{c[3]}")
@pytest.mark.parametrize("channel_first", [False, True])
def test_numpy_pools_vs_numpy_reference(case, channel_first):
    n, sp, k, strides, padding = case
    r = rng(14)
    x = r.normal(size=(2, *sp, 3))
    kk, s = _norm(k, n), _norm(strides, n)
    pads = _pads_of(padding, n, sp, kk, s)
    fmt = FMT[n][int(channel_first)]
    xin = cf(x) if channel_first else x
    for kind in ("max", "avg"):
        for cip in (False, True) if kind == "avg" else (False,):
            want = np_pool(x, kk, s, pads, kind, cip)
            extra = {"count_include_pad": cip} if kind == "avg" else {}
            got = getattr(ivy, f"{kind}_pool{n}d")(xin, k, strides, padding, data_format=fmt, **extra)
            close(got, cf(want) if channel_first else want, 1e-10)


def test_numpy_pools_vs_torch_functional():
    torch = _torch()
    F = torch.nn.functional
    x = rng(16).normal(size=(2, 3, 9, 9))
    close(ivy.max_pool2d(x, 3, 2, 1, data_format="NCHW"), tn(F.max_pool2d(tt(x), 3, 2, 1)), 0)
    close(ivy.avg_pool2d(x, 3, 2, 1, data_format="NCHW", count_include_pad=True), tn(F.avg_pool2d(tt(x), 3, 2, 1, count_include_pad=True)), 1e-12)
    close(ivy.avg_pool2d(x, 3, 2, 1, data_format="NCHW"), tn(F.avg_pool2d(tt(x), 3, 2, 1, count_include_pad=False)), 1e-12)
    x1, x3 = x[:, :, 0], rng(17).normal(size=(1, 2, 5, 6, 7))
    close(ivy.max_pool1d(x1, 2, 2, "VALID", data_format="NCW"), tn(F.max_pool1d(tt(x1), 2, 2)), 0)
    close(ivy.avg_pool1d(x1, 4, 1, 2, data_format="NCW"), tn(F.avg_pool1d(tt(x1), 4, 1, 2, count_include_pad=False)), 1e-12)
    close(ivy.max_pool3d(x3, (3, 2, 3), (2, 1, 2), 1, data_format="NCDHW"), tn(F.max_pool3d(tt(x3), (3, 2, 3), (2, 1, 2), 1)), 0)
    close(ivy.avg_pool3d(x3, 2, 2, "VALID", data_format="NCDHW"), tn(F.avg_pool3d(tt(x3), 2, 2)), 1e-12)
    assert ivy.avg_pool2d(x.astype(np.float32), 2, 2, "SAME").dtype == np.float32


def test_numpy_max_pool_integer_and_bool_input():
    x = rng(15).integers(-50, 50, size=(2, 7, 6, 3))
    want = np_pool(x.astype(np.float64), (3, 2), (2, 2), same_pads((7, 6), (3, 2), (2, 2)), "max")
    for dt in (np.int64, np.int8, np.int32):
        got = ivy.max_pool2d(x.astype(dt), (3, 2), 2, "SAME")
        assert got.dtype == dt
        close(got, want, 0)
    got = ivy.max_pool2d((x + 50).astype(np.uint8), (3, 2), 2, "SAME")
    assert got.dtype == np.uint8
    close(got, want + 50, 0)
    b = ivy.max_pool1d(np.array([[[0], [1], [0], [0], [0], [0]]], dtype=bool), 2, 2, "VALID")
    np.testing.assert_array_equal(b, [[[True], [False], [False]]])


def _flat(pads):
    return [v for lo_hi in reversed(pads) for v in lo_hi]


@pytest.mark.parametrize("seed", range(4))
def test_numpy_conv_conv_transpose_pools_randomised_vs_torch(seed):
    """Random ranks, sizes, kernels, strides, dilations, padding forms and layouts: the forward conv
    against F.conv*d, the transposed conv against torch.autograd of that conv (with an output size
    that may exceed the smallest by less than the stride), the pools against F.*_pool*d on the
    explicitly padded input."""
    torch = _torch()
    F = torch.nn.functional
    r = rng(1000 + seed)
    done = 0
    while done < 20:
        n = int(r.integers(1, 4))
        sp = tuple(int(v) for v in r.integers(3, 8, n))
        K = tuple(int(v) for v in r.integers(1, 4, n))
        s = tuple(int(v) for v in r.integers(1, 4, n))
        d = tuple(int(v) for v in r.integers(1, 3, n))
        eff = [d[i] * (K[i] - 1) + 1 for i in range(n)]
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
        if any(sp[i] + pads[i][0] + pads[i][1] < eff[i] for i in range(n)):
            continue
        done += 1
        first = bool(r.integers(0, 2))
        fmt = FMT[n][int(first)]
        ci, co = int(r.integers(1, 4)), int(r.integers(1, 4))
        x = r.normal(size=(2, ci, *sp))  # channel-first, as torch
        w = r.normal(size=(*K, ci, co))
        wt = tt(w).permute(n + 1, n, *range(n))
        ref = tn(getattr(F, f"conv{n}d")(F.pad(tt(x), _flat(pads)), wt, None, s, 0, d))
        xin = x if first else np.moveaxis(x, 1, -1)
        got = getattr(ivy, CONV[n])(xin, w, s, padding, data_format=fmt, dilations=d)
        close(got if first else np.moveaxis(got, -1, 1), ref, 1e-10)
        # transposed: maps co channels back to ci = d_out, filters [*K, d_out, d_in] = w
        y = r.normal(size=ref.shape)
        a = torch.zeros(x.shape, dtype=torch.float64, requires_grad=True)
        (getattr(F, f"conv{n}d")(F.pad(a, _flat(pads)), wt, None, s, 0, d) * tt(y)).sum().backward()
        yin = y if first else np.moveaxis(y, 1, -1)
        gt = getattr(ivy, CONV[n] + "_transpose")(yin, w, s, padding, output_shape=sp, data_format=fmt, dilations=d)
        close(gt if first else np.moveaxis(gt, -1, 1), tn(a.grad), 1e-10)
        # pools with the same padding form, windows of their own size
        pk = tuple(int(v) for v in r.integers(1, 4, n))
        ppads = same_pads(sp, pk, s) if form == 0 else pads
        if any(sp[i] + ppads[i][0] + ppads[i][1] < pk[i] for i in range(n)):
            continue
        xt = tt(x)
        mref = tn(getattr(F, f"max_pool{n}d")(F.pad(xt, _flat(ppads), value=-math.inf), pk, s))
        sref = tn(getattr(F, f"avg_pool{n}d")(F.pad(xt, _flat(ppads)), pk, s))
        ones = torch.ones((1, 1, *sp), dtype=torch.float64)
        cnt = tn(getattr(F, f"avg_pool{n}d")(F.pad(ones, _flat(ppads)), pk, s)) * math.prod(pk)
        outs = []
        for kind, extra in (("max", {}), ("avg", {}), ("avg", {"count_include_pad": True})):
            o = getattr(ivy, f"{kind}_pool{n}d")(xin, pk, s, padding, data_format=fmt, **extra)
            outs.append(o if first else np.moveaxis(o, -1, 1))
        close(outs[0], mref, 0)
        with np.errstate(invalid="ignore"):
            np.testing.assert_allclose(outs[1], sref * math.prod(pk) / cnt, rtol=1e-10, atol=1e-10)  # NaN: no position inside
        close(outs[2], sref, 1e-10)


def test_numpy_pool_windows_wholly_in_the_padding():
    x = np.arange(1.0, 8.0).reshape(1, 1, 7)
    close(ivy.max_pool1d(x, 1, 3, 2, data_format="NCW"), [[[-np.inf, 2.0, 5.0, -np.inf]]], 0)
    avg = ivy.avg_pool1d(x, 1, 3, 2, data_format="NCW")
    np.testing.assert_array_equal(avg, [[[np.nan, 2.0, 5.0, np.nan]]])  # the mean of no position
    close(ivy.avg_pool1d(x, 1, 3, 2, data_format="NCW", count_include_pad=True), [[[0.0, 2.0, 5.0, 0.0]]], 0)


# ============================================================================ activations etc.

ACTS = {
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


@pytest.mark.parametrize("name", sorted(ACTS))
def test_numpy_activations_vs_scipy(name):
    a = np.concatenate([np.linspace(-6, 6, 41), [-30.0, 30.0, 0.0, -700.0, 700.0]])
    got = getattr(ivy, name)(a)
    assert got.dtype == np.float64
    want = ACTS[name](a)
    # relative accuracy, tails included (sigmoid(-700) ~ 1e-304, gelu(-30) ~ 1e-197, where the
    # rounding of x / sqrt(2) alone moves erfc by ~1e-13)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=0)
    f = getattr(ivy, name)(a.astype(np.float32))
    assert f.dtype == np.float32
    with np.errstate(over="ignore"):
        np.testing.assert_allclose(f, want.astype(np.float32), rtol=2e-6, atol=1e-30)


def test_numpy_erf_vs_math_erf_dense():
    x = np.concatenate([np.linspace(-7, 7, 20001), np.geomspace(1e-300, 30, 3000), [0.0, -0.0, np.inf, -np.inf, 40.0]])
    got = ivy.erf(x)
    want = np.array([math.erf(v) for v in x])
    ulps = np.abs(got - want) / np.spacing(np.abs(want))
    assert ulps.max() <= 2, ulps.max()  # fdlibm's: below one ulp, rounding aside
    assert np.isnan(ivy.erf(a64([np.nan]))).all()
    assert np.signbit(ivy.erf(a64([-0.0])))[0]
    close(ivy.erf(np.float32([0.5, -2.0])), special.erf([0.5, -2.0]), 1e-7)


def test_numpy_activation_options_vs_scipy():
    a = np.linspace(-5, 5, 31)
    close(ivy.gelu(a, approximate=True), 0.5 * a * (1 + np.tanh(np.sqrt(2 / np.pi) * (a + 0.044715 * a**3))), 1e-12)
    close(ivy.leaky_relu(a, alpha=0.01), np.where(a >= 0, a, 0.01 * a))
    close(ivy.elu(a, alpha=2.0), np.where(a > 0, a, 2.0 * np.expm1(a)))
    b = 3.0
    close(ivy.softplus(a, beta=b, threshold=5.0), np.where(b * a > 5.0, a, np.log1p(np.exp(b * a)) / b))
    x = rng(18).normal(size=(3, 4, 5))
    for axis in (-1, 0, 1):
        close(ivy.softmax(x, axis=axis), special.softmax(x, axis=axis))
        close(ivy.log_softmax(x, axis=axis), special.log_softmax(x, axis=axis))
    close(ivy.erf(a64([-40.0, 40.0])), [-1.0, 1.0], 0)
    big = a64([[1000.0, 0.0, -1000.0]])
    close(ivy.softmax(big), [[1.0, 0.0, 0.0]], 0)  # stable: no overflow
    close(ivy.log_softmax(big), [[0.0, -1000.0, -2000.0]], 0)


def test_numpy_activations_vs_torch():
    torch = _torch()
    F = torch.nn.functional
    a = np.linspace(-8, 8, 33)
    for name, ref in (("gelu", F.gelu), ("silu", F.silu), ("mish", F.mish), ("selu", F.selu), ("elu", F.elu), ("hardswish", F.hardswish)):
        close(getattr(ivy, name)(a), tn(ref(tt(a))), 1e-12)


def test_numpy_linear_embedding_one_hot():
    r = rng(19)
    x, w, b = r.normal(size=(2, 3, 4)), r.normal(size=(5, 4)), r.normal(size=(5,))
    close(ivy.linear(x, w, b), x @ w.T + b)
    close(ivy.linear(x, w), x @ w.T)
    table = r.normal(size=(6, 3))
    idx = np.array([[0, 5], [2, 2]])
    close(ivy.embedding(table, idx), table[idx])
    close(ivy.embedding(table, idx.astype(np.int32)), table[idx])
    before = table.copy()
    got = ivy.embedding(table, idx, max_norm=0.5)
    rows = table[idx]
    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    close(got, np.where(norms > 0.5, rows * 0.5 / norms, rows))
    close(table, before, 0)  # weights not modified
    close(ivy.embedding(np.zeros((2, 3)), np.array([1]), max_norm=1.0), np.zeros((1, 3)), 0)
    oh = ivy.one_hot(np.array([0, 2, -1, 7]), 4)
    assert oh.dtype == np.float64
    close(oh, [[1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0]], 0)
    oh8 = ivy.one_hot(np.array([3, 200], np.uint8), 300, dtype="bool")
    assert oh8.shape == (2, 300) and oh8[0, 3] and oh8[1, 200] and oh8.sum() == 2
    oh2 = ivy.one_hot(np.array([[1, 0]], np.int32), 3, dtype="int64", axis=0)
    assert oh2.shape == (3, 1, 2) and oh2.dtype == np.int64
    close(oh2, np.moveaxis(np.eye(3, dtype=np.int64)[[[1, 0]]], -1, 0), 0)


def test_numpy_layer_norm_vs_numpy_and_torch():
    torch = _torch()
    r = rng(20)
    x = r.normal(size=(2, 3, 4))
    s, o = r.normal(size=(4,)), r.normal(size=(4,))
    close(ivy.layer_norm(x, -1, scale=s, offset=o), _np_layer_norm(x, (-1,), s, o))
    close(ivy.layer_norm(x, -1, scale=s, offset=o), tn(torch.nn.functional.layer_norm(tt(x), (4,), tt(s), tt(o))), 1e-12)
    close(ivy.layer_norm(x, (1, 2)), _np_layer_norm(x, (1, 2)))
    s1 = r.normal(size=(3, 1))
    close(ivy.layer_norm(x, 1, scale=s1, eps=1e-3), _np_layer_norm(x, (1,), s1, eps=1e-3))
    close(ivy.layer_norm(x, (0, 2), offset=o), _np_layer_norm(x, (0, 2), None, o))
    assert ivy.layer_norm(x.astype(np.float32), -1).dtype == np.float32


def test_numpy_scaled_dot_product_attention_vs_numpy_and_torch():
    torch = _torch()
    r = rng(24)
    q, k, v = r.normal(size=(2, 3, 4, 8)), r.normal(size=(2, 3, 6, 8)), r.normal(size=(2, 3, 6, 5))
    close(ivy.scaled_dot_product_attention(q, k, v), _np_attention(q, k, v))
    close(ivy.scaled_dot_product_attention(q, k, v), tn(torch.nn.functional.scaled_dot_product_attention(tt(q), tt(k), tt(v))), 1e-12)
    close(ivy.scaled_dot_product_attention(q, k, v, scale=0.3), _np_attention(q, k, v, scale=0.3))
    m = r.random((4, 6)) > 0.3
    m[:, 0] = True
    close(ivy.scaled_dot_product_attention(q, k, v, mask=m), _np_attention(q, k, v, m))
    fm = r.normal(size=(3, 4, 6))
    close(ivy.scaled_dot_product_attention(q, k, v, mask=fm), _np_attention(q, k, v, fm))
    qs = r.normal(size=(2, 3, 6, 8))
    close(ivy.scaled_dot_product_attention(qs, k, v, is_causal=True), _np_attention(qs, k, v, causal=True))
    close(ivy.scaled_dot_product_attention(q, k, v, is_causal=True), _np_attention(q, k, v, causal=True))
    close(ivy.scaled_dot_product_attention(q, k, v, mask=fm[0], is_causal=True), _np_attention(q, k, v, fm[0], causal=True))
    m2 = np.ones((4, 6), dtype=bool)
    m2[2] = False
    out = ivy.scaled_dot_product_attention(q, k, v, mask=m2)
    assert np.isnan(out[:, :, 2]).all() and not np.isnan(out[:, :, [0, 1, 3]]).any()
    f32 = ivy.scaled_dot_product_attention(q.astype(np.float32), k.astype(np.float32), v.astype(np.float32), mask=fm)
    assert f32.dtype == np.float32
    ivy.seed(0, backend="numpy")
    dropped = ivy.scaled_dot_product_attention(q, k, v, dropout_p=0.5)
    assert dropped.shape == (2, 3, 4, 5) and np.isfinite(dropped).all()


# ==================================================================================== general


def test_numpy_einsum_vs_numpy():
    r = rng(30)
    a, b, c = r.normal(size=(2, 3)), r.normal(size=(3, 4)), r.normal(size=(5, 2, 3))
    for eq, ops in (
        ("ij,jk->ik", (a, b)),
        ("ij,jk", (a, b)),
        ("ii", (r.normal(size=(3, 3)),)),
        ("bij,jk->bik", (c, b)),
        ("...j,jk->...k", (c, b)),
        ("ij->", (a,)),
        ("i,j->ij", (a[0], b[0])),
    ):
        close(ivy.einsum(eq, *ops), np.einsum(eq, *ops))
    close(ivy.einsum("bij,jk->bik", c, b), np.matmul(c, b))  # and an independent contraction
    assert ivy.einsum("ij,jk->ik", a.astype(np.float32), b).dtype == np.float64
    ia, ib = r.integers(-5, 5, (2, 3)), r.integers(-5, 5, (3, 2)).astype(np.int32)
    got = ivy.einsum("ij,jk->ik", ia, ib)
    assert got.dtype == np.int64
    close(got, ia @ ib, 0)


@pytest.mark.parametrize("reduction", ["sum", "replace", "min", "max"])
def test_numpy_scatter_nd_vs_ufunc_at(reduction):
    r = rng(31)
    idx = np.array([[0, 1], [2, 3], [0, 1], [1, 0], [2, 3]])
    upd = r.normal(size=(5,))
    want = np.zeros((3, 4))
    ufunc = {"sum": np.add, "min": np.minimum, "max": np.maximum}.get(reduction)
    touched = np.zeros((3, 4), dtype=bool)
    touched[tuple(idx.T)] = True
    if ufunc is None:
        want[tuple(idx.T)] = upd
    else:
        init = {"sum": 0.0, "min": np.inf, "max": -np.inf}[reduction]
        want[:] = init
        ufunc.at(want, tuple(idx.T), upd)
        want[~touched] = 0.0
    got = ivy.scatter_nd(idx, upd, (3, 4), reduction=reduction)
    if reduction == "replace":
        dup = {(0, 1): {upd[0], upd[2]}, (2, 3): {upd[1], upd[4]}}
        for pos, vals in dup.items():
            assert got[pos] in vals
            got[pos] = want[pos] = 0
    close(got, want, 1e-12)


def test_numpy_scatter_nd_slices_and_shape_inference():
    r = rng(32)
    idx = np.array([[1], [3], [1]])
    upd = r.normal(size=(3, 2))
    want = np.zeros((5, 2))
    np.add.at(want, idx[:, 0], upd)
    close(ivy.scatter_nd(idx.astype(np.int32), upd, (5, 2)), want)
    got = ivy.scatter_nd(idx, upd)  # shape inferred: (max + 1, trailing)
    assert got.shape == (4, 2)
    close(got, want[:4])
    s = ivy.scatter_nd(np.array([[0, 0], [1, 1]]), 2.5, (2, 2))
    assert s.dtype == np.float64
    close(s, [[2.5, 0], [0, 2.5]], 0)
    mx = ivy.scatter_nd(idx, upd, (5, 2), reduction="max")
    w = np.zeros((5, 2))
    w[1] = np.maximum(upd[0], upd[2])
    w[3] = upd[1]
    close(mx, w)
    neg = ivy.scatter_nd(idx, -np.abs(upd), (5, 2), reduction="max")  # untouched rows stay 0
    close(neg[[0, 2, 4]], np.zeros((3, 2)), 0)
    assert (neg[[1, 3]] < 0).all()


@pytest.mark.parametrize("reduction", ["sum", "min", "max"])
def test_numpy_scatter_flat_vs_ufunc_at(reduction):
    r = rng(33)
    idx = r.integers(0, 6, size=12)
    upd = r.integers(-20, 20, size=12)
    ufunc = {"sum": np.add, "min": np.minimum, "max": np.maximum}[reduction]
    init = {"sum": 0, "min": 10**6, "max": -(10**6)}[reduction]
    want = np.full(8, init)
    ufunc.at(want, idx, upd)
    want[np.isin(np.arange(8), idx, invert=True)] = 0
    got = ivy.scatter_flat(idx, upd, 8, reduction=reduction)
    assert got.dtype == np.int64
    close(got, want, 0)
    got2 = ivy.scatter_flat(idx, upd, reduction=reduction)
    assert got2.shape == (idx.max() + 1,)
    with pytest.raises(ValueError):
        ivy.scatter_flat(idx, upd, 8, reduction="mean")
    f = ivy.scatter_flat(idx, upd.astype(np.float32), 8, reduction=reduction)
    assert f.dtype == np.float32


def test_numpy_gather_and_gather_nd_vs_numpy():
    r = rng(34)
    p = r.normal(size=(3, 4, 5))
    idx = r.integers(0, 4, size=(2, 3))
    for axis in (0, 1, -1):
        i = idx % p.shape[axis]
        close(ivy.gather(p, i, axis=axis), np.stack([np.take(p, row, axis=axis) for row in i], axis=axis % 3), 0)
    pu = np.arange(12, dtype=np.uint32).reshape(3, 4)
    got = ivy.gather(pu, np.array([3, 0]), axis=1)
    assert got.dtype == np.uint32
    close(got, [[3, 0], [7, 4], [11, 8]], 0)
    bi = r.integers(0, 5, size=(3, 2))
    want = np.stack([p[b][:, bi[b]] for b in range(3)])  # batch_dims=1, axis=2
    close(ivy.gather(p, bi, axis=2, batch_dims=1), want, 0)
    nd = np.array([[0, 1], [2, 3], [1, 0]])
    close(ivy.gather_nd(p, nd), np.stack([p[i, j] for i, j in nd]), 0)
    nd3 = np.array([[[0, 1, 2]], [[2, 3, 4]]])
    close(ivy.gather_nd(p, nd3), [[p[0, 1, 2]], [p[2, 3, 4]]], 0)
    bnd = r.integers(0, 4, size=(3, 2, 1))  # batch_dims=1: per batch row, index axis 1
    want = np.stack([p[b][bnd[b, :, 0]] for b in range(3)])
    close(ivy.gather_nd(p, bnd, batch_dims=1), want, 0)


def test_numpy_get_item_set_item_inplace_update():
    a = np.arange(24.0).reshape(2, 3, 4)
    for q in ((slice(None, None, -1),), (1, slice(None, None, -2)), (Ellipsis, slice(3, 0, -2)), (None, 0, slice(None), slice(None, None, -1))):
        close(ivy.get_item(a, q), a[q], 0)
    close(ivy.get_item(a, a[..., 0] > 5), a[a[..., 0] > 5], 0)
    for q, val in (((0, slice(1, 3)), 7.0), ((Ellipsis, slice(None, None, -2)), np.array([-1.0, -2.0])), ((1, slice(2, None, -1), 0), np.array([5.0, 6.0, 7.0]))):
        want = a.copy()
        want[q] = val
        before = a.copy()
        got = ivy.set_item(a, q, val)
        close(got, want, 0)
        close(a, before, 0)  # not modified
        assert got is not a
    close(ivy.set_item(a, a > 20, 0.0), np.where(a > 20, 0.0, a), 0)
    s = ivy.set_item(np.float64(3.0), (), 5.0)  # a NumPy scalar: a new 0-d array
    close(s, 5.0, 0)
    ints = ivy.set_item(np.arange(3), 1, 2.7)
    assert ints.dtype == np.int64 and ints[1] == 2  # cast to the dtype of x
    y = np.zeros((2, 2))
    out = ivy.inplace_update(y, np.array([1.0, 2.0]))
    assert out is y
    close(y, [[1.0, 2.0], [1.0, 2.0]], 0)
    assert ivy.inplace_update(y, 5) is y and (y == 5).all()
    ro = np.zeros(2)
    ro.flags.writeable = False
    with pytest.raises(TypeError):
        ivy.inplace_update(ro, 1.0)
    with pytest.raises(TypeError):
        ivy.inplace_update(np.float64(1.0), 2.0)


def test_numpy_cumsum_cumprod_vs_loops():
    r = rng(35)
    a = r.normal(size=(3, 4))
    for axis in (0, 1, -1):
        n = a.shape[axis]
        for excl in (False, True):
            for rev in (False, True):
                for fn, op, one in ((ivy.cumsum, np.add, 0.0), (ivy.cumprod, np.multiply, 1.0)):
                    want = np.empty_like(a)
                    for i in range(n):  # the definition, element by element
                        span = (range(i + 1, n) if excl else range(i, n)) if rev else (range(i) if excl else range(i + 1))
                        acc = np.full(np.take(a, 0, axis=axis).shape, one)
                        for j in span:
                            acc = op(acc, np.take(a, j, axis=axis))
                        idx = [slice(None)] * 2
                        idx[axis] = i
                        want[tuple(idx)] = acc
                    close(fn(a, axis, exclusive=excl, reverse=rev), want, 1e-12)
    assert ivy.cumsum(np.array([1, 2, 3], np.int8)).dtype == np.int64
    assert ivy.cumsum(np.array([True, True])).dtype == np.int64
    close(ivy.cumsum(np.array([1, 2, 3], np.int32), dtype="float64"), [1.0, 3.0, 6.0], 0)
    u = ivy.cumsum(np.array([1, 2], np.uint8))
    assert u.dtype == np.uint64
    close(u, [1, 3], 0)
    assert ivy.cumprod(np.ones(3, np.float32), exclusive=True).dtype == np.float32


def test_numpy_pad_vs_numpy_pad_and_definition():
    a = np.arange(12.0).reshape(3, 4)
    for pw in (1, (1, 2), ((0, 1), (2, 0)), ((5, 4), (6, 7))):
        np_pw = pw if not isinstance(pw, tuple) or isinstance(pw[0], tuple) else [pw] * 2
        for mode in ("constant", "reflect", "symmetric", "edge", "wrap"):
            kw = {"constant_values": 7.0} if mode == "constant" else {}
            got = ivy.pad(a, pw, mode=mode, **({"value": 7.0} if mode == "constant" else {}))
            close(got, np.pad(a, np_pw, mode=mode, **kw), 0)
    # the spec's own examples
    close(ivy.pad(a64([1, 2, 3]), 2, mode="reflect"), [3, 2, 1, 2, 3, 2, 1], 0)
    close(ivy.pad(a64([1, 2, 3]), 2, mode="symmetric"), [2, 1, 1, 2, 3, 3, 2], 0)
    b = ivy.pad(np.array([[True]]), 1)
    assert b.dtype == np.bool_ and b.shape == (3, 3) and b.sum() == 1
    ints = ivy.pad(np.array([1, 2], np.int32), (2, 1), value=-1)
    assert ints.dtype == np.int32
    close(ints, [-1, -1, 1, 2, -1], 0)
    with pytest.raises(ValueError):
        ivy.pad(a, ((1, 1),))  # np.pad would broadcast it; the spec wants one pair per axis
    with pytest.raises(ValueError):
        ivy.pad(a, 1, mode="linear_ramp")
    with pytest.raises(ValueError):
        ivy.pad(a, ((1, -1), (0, 0)))


def test_numpy_top_k_split_flatten_transpose_cast():
    r = rng(36)
    for shape, k in (((4, 5), 3), ((3, 50), 7), ((2, 40), 40), ((2, 40), 0), ((60,), 1)):
        a = r.permutation(math.prod(shape)).reshape(shape).astype(np.float64)
        for largest in (True, False):
            v, i = ivy.top_k(a, k, largest=largest)
            srt = np.sort(a, axis=-1)
            want = srt[..., ::-1][..., :k] if largest else srt[..., :k]
            close(v, want, 0)
            assert i.dtype == np.int64
            close(np.take_along_axis(a, i, -1), v, 0)
            vu, iu = ivy.top_k(a, k, largest=largest, sorted=False)
            close(np.sort(vu, -1), np.sort(want, -1), 0)
            close(np.take_along_axis(a, iu, -1), vu, 0)
    a = r.permutation(20).reshape(4, 5).astype(np.float64)
    v, i = ivy.top_k(a, 2, axis=0, largest=False)
    close(v, np.sort(a, axis=0)[:2], 0)
    vi, _ = ivy.top_k(np.array([3, 1, 2], np.uint8), 2)
    assert vi.dtype == np.uint8 and vi.tolist() == [3, 2]
    parts = ivy.split(np.arange(7.0), 3, with_remainder=True)
    assert [p.shape[0] for p in parts] == [2, 2, 2, 1]
    assert [p.shape[1] for p in ivy.split(a, [1, 4], axis=1)] == [1, 4]
    assert len(ivy.split(a)) == 4 and all(p.shape == (1, 5) for p in ivy.split(a))
    close(np.concatenate(ivy.split(a, 5, axis=1), axis=1), a, 0)
    with pytest.raises(ValueError):
        ivy.split(np.arange(7.0), 3)
    with pytest.raises(ValueError):
        ivy.split(np.arange(7.0), [3, 3])
    x = np.arange(24.0).reshape(2, 3, 4)
    assert ivy.flatten(x).shape == (24,)
    assert ivy.flatten(x, start_dim=1).shape == (2, 12)
    assert ivy.flatten(x, start_dim=0, end_dim=1).shape == (6, 4)
    assert ivy.flatten(np.asarray(3.0)).shape == (1,)
    with pytest.raises(ValueError):
        ivy.flatten(x, start_dim=2, end_dim=0)
    close(ivy.transpose(x), x.transpose(2, 1, 0), 0)
    close(ivy.transpose(x, (1, 0, 2)), np.swapaxes(x, 0, 1), 0)
    c = ivy.cast(x, "int32")
    assert c.dtype == np.int32
    assert ivy.cast(x, "float64") is x  # already of that dtype
    with pytest.raises(TypeError):
        ivy.cast(np.array([1j], np.complex64), "float32")


def test_numpy_clip_norms_and_kl_div_composed():
    a = np.array([[3.0, 4.0], [0.0, 1.0]])
    close(ivy.clip_vector_norm(a, 2.0), a * 2.0 / np.linalg.norm(a))
    close(ivy.clip_matrix_norm(a, 1.0, p="fro"), a / np.linalg.norm(a))
    p, q = np.array([[0.5, 0.5, 0.0]]), np.array([[0.25, 0.25, 0.5]])
    close(ivy.kl_div(p, q), np.log(2.0))


# ============================================ core's compositions on this backend's namespace


def _composed(name):
    from ivy._compose import load_defaults

    return lambda *a, **k: load_defaults()[name](xp, *a, **k)


def _np_lstm(x, h, c, k, rk, b, rb):
    sig = special.expit
    hs = []
    H = h.shape[-1]
    for step in range(x.shape[1]):
        z = x[:, step] @ k + b + h @ rk + rb
        i, f, g, o = z[:, :H], z[:, H : 2 * H], z[:, 2 * H : 3 * H], z[:, 3 * H :]
        c = sig(f) * c + sig(i) * np.tanh(g)
        h = sig(o) * np.tanh(c)
        hs.append(h)
    return np.stack(hs, 1), h, c


def test_numpy_composed_layers_on_this_backend():
    """Ops this plugin leaves to core (batch/group norm, lstm, adaptive pooling, losses...): they
    run on the plugin's primitives and agree with the references."""
    torch = _torch()
    F = torch.nn.functional
    r = rng(21)
    x = r.normal(size=(4, 3, 3, 2))  # NHWC, c = 2
    mean, var = r.normal(size=(2,)), r.uniform(0.5, 2, size=(2,))
    sc, of = r.normal(size=(2,)), r.normal(size=(2,))
    y, m, v = ivy.batch_norm(x, mean, var, offset=of, scale=sc)
    close(y, (x - mean) / np.sqrt(var + 1e-5) * sc + of)
    y, m, v = ivy.batch_norm(x, mean, var, offset=of, scale=sc, training=True, momentum=0.2)
    rm, rv = tt(mean.copy()), tt(var.copy())
    want = F.batch_norm(tt(cf(x)), rm, rv, tt(sc), tt(of), training=True, momentum=0.2)
    close(y, np.moveaxis(tn(want), 1, -1), 1e-12)
    close(m, tn(rm), 1e-12)
    close(v, tn(rv), 1e-12)
    g = r.normal(size=(2, 3, 4, 6))
    close(ivy.group_norm(cf(g), 3, data_format="NCHW"), tn(F.group_norm(tt(cf(g)), 3)), 1e-12)
    B_, T, I, H = 2, 5, 3, 4
    xs = r.normal(size=(B_, T, I))
    h0, c0 = r.normal(size=(B_, H)), r.normal(size=(B_, H))
    k, rk = r.normal(size=(I, 4 * H)) * 0.5, r.normal(size=(H, 4 * H)) * 0.5
    b, rb = r.normal(size=(4 * H,)), r.normal(size=(4 * H,))
    hs, (h, c) = ivy.lstm_update(xs, h0, c0, k, rk, bias=b, recurrent_bias=rb)
    whs, wh, wc = _np_lstm(xs, h0, c0, k, rk, b, rb)
    close(hs, whs)
    close(h, wh)
    close(c, wc)
    img = r.normal(size=(2, 7, 5, 3))
    close(ivy.adaptive_avg_pool2d(cf(img), (3, 2), data_format="NCHW"), tn(F.adaptive_avg_pool2d(tt(cf(img)), (3, 2))), 1e-12)
    yt, yp = r.normal(size=(4, 3)), r.normal(size=(4, 3))
    close(ivy.mse_loss(yt, yp), tn(F.mse_loss(tt(yp), tt(yt))), 1e-12)
    close(ivy.huber_loss(yt, yp, delta=0.7), tn(F.huber_loss(tt(yp), tt(yt), delta=0.7)), 1e-12)
    lab = (r.random((4, 3)) > 0.5).astype(np.float64)
    close(ivy.binary_cross_entropy(lab, yp, from_logits=True), tn(F.binary_cross_entropy_with_logits(tt(yp), tt(lab))), 1e-12)
    pr = special.softmax(yp, -1)
    close(ivy.sparse_cross_entropy(np.array([0, 2, 1, 1]), pr), tn(F.nll_loss(tt(np.log(pr)), tt(np.array([0, 2, 1, 1])))), 1e-12)


def test_numpy_core_compositions_run_on_this_backend():
    """The defaults this plugin overrides still work on its namespace (they are what a fallback
    gets): proves the ops they need from the plugin (erf, dev, dropout, bernoulli...) behave."""
    r = rng(50)
    a = np.linspace(-4, 4, 17)
    close(_composed("gelu")(a), ACTS["gelu"](a), 1e-12)
    close(_composed("erf")(a), special.erf(a), 1e-12)
    close(_composed("mish")(a), ACTS["mish"](a), 1e-12)
    close(_composed("softplus")(a), ACTS["softplus"](a), 1e-12)
    close(_composed("sigmoid")(a), special.expit(a), 1e-12)
    x = r.normal(size=(2, 3, 4))
    close(_composed("softmax")(x, axis=1), special.softmax(x, axis=1), 1e-12)
    close(_composed("layer_norm")(x, -1), _np_layer_norm(x, (-1,)), 1e-12)
    mean, var = r.normal(size=(4,)), r.uniform(0.5, 2, size=(4,))
    y, m, v = _composed("batch_norm")(x, mean, var, training=True)
    bm, bv = x.mean(axis=(0, 1)), x.var(axis=(0, 1))
    close(y, (x - bm) / np.sqrt(bv + 1e-5), 1e-12)
    close(v, 0.9 * var + 0.1 * x.var(axis=(0, 1), ddof=1), 1e-12)
    B_, T, I, H = 2, 4, 3, 2
    xs, h0, c0 = r.normal(size=(B_, T, I)), r.normal(size=(B_, H)), r.normal(size=(B_, H))
    k, rk, b = r.normal(size=(I, 4 * H)), r.normal(size=(H, 4 * H)), r.normal(size=(4 * H,))
    hs, (h, c) = _composed("lstm_update")(xs, h0, c0, k, rk, bias=b)
    whs, wh, wc = _np_lstm(xs, h0, c0, k, rk, b, 0 * b)
    close(hs, whs, 1e-12)
    close(c, wc, 1e-12)
    m2 = np.arange(12.0).reshape(3, 4)
    for mode in ("constant", "reflect", "symmetric", "edge", "wrap"):
        close(_composed("pad")(m2, ((1, 2), (2, 1)), mode=mode), np.pad(m2, ((1, 2), (2, 1)), mode=mode), 0)
    close(_composed("one_hot")(np.array([2, 0, 5]), 3), [[0, 0, 1], [1, 0, 0], [0, 0, 0]], 0)
    q, kk, vv = r.normal(size=(2, 4, 8)), r.normal(size=(2, 4, 8)), r.normal(size=(2, 4, 3))
    close(_composed("scaled_dot_product_attention")(q, kk, vv), _np_attention(q, kk, vv), 1e-12)
    close(_composed("scaled_dot_product_attention")(q, kk, vv, is_causal=True), _np_attention(q, kk, vv, causal=True), 1e-12)
    ivy.seed(0, backend="numpy")
    dropped = _composed("scaled_dot_product_attention")(q, kk, vv, dropout_p=0.5)
    assert dropped.shape == (2, 4, 3) and np.isfinite(dropped).all()
    # core's dropout draws through bernoulli: the same seed gives the native dropout's mask
    close(_composed("dropout")(np.ones(50), 0.5, seed=1), ivy.dropout(np.ones(50), 0.5, seed=1), 0)
    close(_composed("cumsum")(m2, 1, exclusive=True, reverse=True), np.flip(np.cumsum(np.flip(m2, 1), 1), 1) - m2, 1e-12)
    close(_composed("cumprod")(m2 + 1, 0), np.cumprod(m2 + 1, 0), 1e-12)
    v_, i_ = _composed("top_k")(m2, 2)
    close(v_, m2[:, ::-1][:, :2], 0)
    p = r.normal(size=(3, 4, 5))
    close(_composed("gather")(p, np.array([[1, 3]]), axis=1), np.take(p, [[1, 3]], axis=1), 0)
    close(_composed("gather_nd")(p, np.array([[0, 1], [2, 2]])), p[[0, 2], [1, 2]], 0)
    img = r.normal(size=(1, 5, 6, 2))
    close(_composed("adaptive_avg_pool2d")(img, 1), img.mean(axis=(1, 2), keepdims=True), 1e-12)
    close(_composed("group_norm")(img, 1), _np_layer_norm(img, (1, 2, 3)), 1e-12)
    close(_composed("embedding")(p[0], np.array([3, 0])), p[0][[3, 0]], 0)
    assert [s_.shape[0] for s_ in _composed("split")(np.arange(5.0), 2, with_remainder=True)] == [2, 2, 1]
    close(_composed("flatten")(p, start_dim=1), p.reshape(3, 20), 0)
    close(_composed("linear")(p, p[0]), p @ p[0].T, 1e-12)


# =================================================================================== compile


def _f(x, y):
    return np.sin(x) * y + ivy.softmax(x, axis=-1)


def test_numpy_compile_matches_eager():
    x, y = rng(40).normal(size=(3, 4)), rng(41).normal(size=(3, 4))
    want = np.sin(x) * y + special.softmax(x, axis=-1)
    compiled = ivy.compile(_f)
    close(compiled(x, y), want, 1e-12)
    close(compiled(2 * x, y), np.sin(2 * x) * y + special.softmax(2 * x, axis=-1), 1e-12)
    deco = ivy.compile(backend="numpy", some_option=True)(_f)  # options accepted and ignored
    close(deco(x, y), want, 1e-12)
    assert ivy.compile_fn(_f, options={"jit_compile": True})(x, y).shape == (3, 4)


def test_numpy_compile_hook_only_for_numpy_and_identity():
    from ivy_numpy._compile import ivy_compile

    assert ivy_compile(backend="torch", fn=_f, options={}) is None
    assert ivy_compile(backend="numpy", fn=_f, options={"mode": "max-autotune"}) is _f
    hook = ivy._registry.plugin_manager().hook.ivy_compile
    assert hook(backend="numpy", fn=_f, options={}) is _f


def test_numpy_registered_device_kind(monkeypatch):
    """A third-party device kind registered for numpy (ivy_register_devices) is listed, accepted by
    to_device and mapped to its native device; unregistered kinds still raise."""
    from ivy.plugin import DeviceKind

    cpu = "cpu"
    dk = DeviceKind(backend="numpy", kind="vdev", list_devices=lambda: ["vdev:0"], to_native=lambda s: cpu,
                    from_native=lambda n: None)
    monkeypatch.setattr(_kit_devices, "_device_kinds", {"numpy": {"vdev": dk}})  # restored afterwards
    assert "vdev:0" in xp.devices() and "vdev:0" in ivy.devices(backend="numpy")
    assert xp.devices()[0] == "cpu"
    x = np.ones(3)
    y = ivy.to_device(x, "vdev:0")
    assert ivy.dev(y) == "cpu"
    assert y is x
    with pytest.raises(ValueError):
        ivy.to_device(x, "foo:0")
