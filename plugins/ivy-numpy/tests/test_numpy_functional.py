"""What the numpy plugin's functional API does of its own: its native ops, its NoAutodiffError,
NumPy's generator behind ``ivy.seed``, NumPy's devices and scalars, its own erf and activations
(relative accuracy to the last bits), the copies it avoids, and its compile hook.

The behaviour every backend shares is tested once, for every backend, by the conformance suite
(``python -m pytest --backend numpy --pyargs ivy.testing.suite``).
"""

from __future__ import annotations

import math
import os
import subprocess
import sys

import numpy as np
import pytest
from scipy import special

import ivy
import ivy.plugin_kit._devices as _kit_devices
from ivy.errors import NoAutodiffError
from ivy.plugin_kit import composed

xp = ivy.backend_namespace("numpy")
B = ivy._registry.get_backend("numpy")


def test_numpy_native_ops_present_and_signatures():
    want = {
        "variable",
        "is_variable",
        "stop_gradient",
        "value_and_grad_flat",
        "vjp",
        "jvp",
        "jacobian",
        "seed",
        "random_uniform",
        "random_normal",
        "randint",
        "multinomial",
        "shuffle",
        "bernoulli",
        "dev",
        "to_device",
        "default_device",
        "devices",
        "num_gpus",
        "gpu_is_available",
        "conv1d",
        "conv2d",
        "conv3d",
        "conv1d_transpose",
        "conv2d_transpose",
        "conv3d_transpose",
        "depthwise_conv2d",
        "max_pool1d",
        "max_pool2d",
        "max_pool3d",
        "avg_pool1d",
        "avg_pool2d",
        "avg_pool3d",
        "erf",
        "scatter_nd",
        "scatter_flat",
        "set_item",
        "inplace_update",
        "einsum",
        # overrides of compositions
        "relu",
        "leaky_relu",
        "gelu",
        "silu",
        "sigmoid",
        "softmax",
        "log_softmax",
        "softplus",
        "elu",
        "selu",
        "hardswish",
        "mish",
        "linear",
        "layer_norm",
        "embedding",
        "one_hot",
        "scaled_dot_product_attention",
        "gather",
        "gather_nd",
        "top_k",
        "cumsum",
        "cumprod",
        "pad",
        "split",
        "flatten",
        "transpose",
        "cast",
        "get_item",
        "dropout",
    }
    assert want <= set(B.native_ops), sorted(want - set(B.native_ops))
    from ivy._registry import signature_mismatch

    assert {n: m for n in B.native_ops if (m := signature_mismatch(n, B.ops[n]))} == {}


def test_numpy_plugin_import_is_framework_free():
    code = "import sys, ivy_numpy; assert 'numpy' not in sys.modules, 'numpy imported'; print(ivy_numpy.ivy_compile)"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr


# ---------------------------------------------------------------------------- gradients


def test_numpy_refuses_differentiation_and_names_the_alternatives():
    x = np.array([1.0, 2.0])
    for name, call in {
        "value_and_grad_flat": lambda: ivy.value_and_grad_flat(lambda ls: np.sum(ls[0] ** 2), [x]),
        "vjp": lambda: ivy.vjp(lambda a: a * 2, x),
        "jvp": lambda: ivy.jvp(lambda a: a * 2, [x], [x]),
        "jacobian": lambda: ivy.jacobian(lambda a: a * 2, x),
        # the core-level functions built on them
        "grad": lambda: ivy.grad(lambda a: np.sum(a))(x),
        "execute_with_gradients": lambda: ivy.execute_with_gradients(lambda p: np.sum(p["w"]), {"w": x}),
    }.items():
        with pytest.raises(NoAutodiffError, match="numpy") as info:
            call()
        assert "torch" in str(info.value) and "jax" in str(info.value), name  # where to go instead


def test_numpy_variables_are_the_arrays_themselves():
    x = np.array([1.0, 2.0])
    assert ivy.variable(x) is x  # no autodiff: nothing to mark
    assert ivy.stop_gradient(x) is x
    assert ivy.is_variable(np.float64(1.0), backend="numpy")  # NumPy scalars are 0-d arrays to Ivy
    assert ivy.is_variable(np.ones(1, np.complex64))


# ---------------------------------------------------------------------------- random


def test_numpy_seed_is_numpys_default_rng():
    ivy.seed(7, backend="numpy")
    np.testing.assert_array_equal(ivy.random_uniform(shape=(5,), backend="numpy"), np.random.default_rng(7).random(5))


def test_numpy_composed_dropout_draws_the_native_mask():
    # core's dropout draws through bernoulli: with the same seed it drops what the native one drops
    np.testing.assert_array_equal(
        composed("dropout", "numpy")(np.ones(50), 0.5, seed=1), ivy.dropout(np.ones(50), 0.5, seed=1)
    )


# ---------------------------------------------------------------------------- devices


def test_numpy_devices_are_numpys_cpu():
    x = np.ones(3)
    assert ivy.dev(x, as_native=True) == "cpu" == x.device  # NumPy 2's device attribute
    for d in ("cpu", "CPU", "cpu:0", x.device):
        assert ivy.to_device(x, d) is x  # already there: no copy
    torch = pytest.importorskip("torch")
    assert ivy.to_device(x, torch.device("cpu")) is x  # another framework's native CPU device
    for d in ("gpu:0", "cuda:0"):
        with pytest.raises(ValueError, match="CPU-only"):
            ivy.to_device(x, d)
    with pytest.raises(ValueError, match="CPU-only"):
        ivy.random_uniform(shape=(2,), device="gpu:0", backend="numpy")


def test_numpy_registered_device_kind(monkeypatch):
    """A third-party device kind registered for numpy (ivy_register_devices) is listed, accepted by
    to_device and mapped to its native device; unregistered kinds still raise."""
    from ivy.plugin import DeviceKind

    dk = DeviceKind(
        backend="numpy",
        kind="vdev",
        list_devices=lambda: ["vdev:0"],
        to_native=lambda s: "cpu",
        from_native=lambda n: None,
    )
    monkeypatch.setattr(_kit_devices, "_device_kinds", {"numpy": {"vdev": dk}})  # restored afterwards
    assert "vdev:0" in xp.devices() and "vdev:0" in ivy.devices(backend="numpy")
    assert xp.devices()[0] == "cpu"
    x = np.ones(3)
    y = ivy.to_device(x, "vdev:0")
    assert ivy.dev(y) == "cpu"
    assert y is x
    with pytest.raises(ValueError):
        ivy.to_device(x, "foo:0")


# ---------------------------------------------------------------------------- nn: NumPy's own kernels


def test_numpy_channel_first_conv_is_contiguous():
    r = np.random.default_rng(10)
    got = ivy.conv2d(r.normal(size=(2, 3, 7, 8)), r.normal(size=(3, 2, 3, 4)), (2, 1), "SAME", data_format="NCHW")
    assert got.flags.c_contiguous


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
def test_numpy_activations_keep_relative_accuracy_in_the_tails(name):
    a = np.concatenate([np.linspace(-6, 6, 41), [-30.0, 30.0, 0.0, -700.0, 700.0]])
    # relative accuracy, tails included (sigmoid(-700) ~ 1e-304, gelu(-30) ~ 1e-197, where the
    # rounding of x / sqrt(2) alone moves erfc by ~1e-13)
    np.testing.assert_allclose(getattr(ivy, name)(a), ACTS[name](a), rtol=1e-12, atol=0)
    with np.errstate(over="ignore"):
        np.testing.assert_allclose(
            getattr(ivy, name)(a.astype(np.float32)), ACTS[name](a).astype(np.float32), rtol=2e-6, atol=1e-30
        )


def test_numpy_erf_vs_math_erf_dense():
    x = np.concatenate([np.linspace(-7, 7, 20001), np.geomspace(1e-300, 30, 3000), [0.0, -0.0, np.inf, -np.inf, 40.0]])
    got = ivy.erf(x)
    want = np.array([math.erf(v) for v in x])
    ulps = np.abs(got - want) / np.spacing(np.abs(want))
    assert ulps.max() <= 2, ulps.max()  # fdlibm's: below one ulp, rounding aside
    assert np.isnan(ivy.erf(np.array([np.nan]))).all()
    assert np.signbit(ivy.erf(np.array([-0.0])))[0]
    np.testing.assert_allclose(ivy.erf(np.float32([0.5, -2.0])), special.erf([0.5, -2.0]), rtol=1e-7)


# ---------------------------------------------------------------------------- NumPy's scalars, copies


def test_numpy_scalars_and_read_only_arrays():
    s = ivy.set_item(np.float64(3.0), (), 5.0)  # a NumPy scalar: a new 0-d array
    np.testing.assert_array_equal(s, 5.0)
    ro = np.zeros(2)
    ro.flags.writeable = False
    with pytest.raises(TypeError):
        ivy.inplace_update(ro, 1.0)
    with pytest.raises(TypeError):
        ivy.inplace_update(np.float64(1.0), 2.0)


def test_numpy_identities_return_the_input():
    x = np.ones(8)
    assert ivy.dropout(x, 0.5, training=False) is x and ivy.dropout(x, 0.0) is x
    assert ivy.cast(x, "float64") is x


# ---------------------------------------------------------------------------- compile


def _f(x, y):
    return np.sin(x) * y + ivy.softmax(x, axis=-1)


def test_numpy_compile_hook_only_for_numpy_and_identity():
    from ivy_numpy._compile import ivy_compile

    assert ivy_compile(backend="torch", fn=_f, options={}) is None
    assert ivy_compile(backend="numpy", fn=_f, options={"mode": "max-autotune"}) is _f
    hook = ivy._registry.plugin_manager().hook.ivy_compile
    assert hook(backend="numpy", fn=_f, options={}) is _f
    x, y = np.random.default_rng(40).normal(size=(2, 3, 4))
    want = np.sin(x) * y + special.softmax(x, axis=-1)
    np.testing.assert_allclose(ivy.compile(backend="numpy", some_option=True)(_f)(x, y), want, rtol=1e-12)  # ignored
    np.testing.assert_allclose(ivy.compile_fn(_f, options={"jit_compile": True})(x, y), want, rtol=1e-12)
