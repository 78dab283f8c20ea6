"""What the jax plugin's functional API does of its own: its native ops, transforms mixed with
JAX's own and under ``jax.jit``, pytrees, explicit PRNG keys and the global key, JAX's devices,
JAX's 32-bit mode, the copies it avoids, and its compile hook.

The behaviour every backend shares is tested once, for every backend, by the conformance suite
(``python -m pytest --backend jax --pyargs ivy.testing.suite``). JAX_ENABLE_X64=1 (set by the test
plugin) for the float64 references; one test checks the float32 paths without it, in a subprocess.
"""

from __future__ import annotations

import os
import subprocess
import sys
from functools import partial

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import jax.numpy as jnp

import ivy
import ivy.plugin_kit._devices as _kit_devices
from ivy.plugin_kit import composed

if not jax.config.jax_enable_x64:
    pytest.skip("float64 references need JAX_ENABLE_X64=1 (set by the test plugin)", allow_module_level=True)

xp = ivy.backend_namespace("jax")
B = ivy._registry.get_backend("jax")


def _gpus():
    try:
        return jax.devices("gpu")
    except RuntimeError:
        return []


no_gpu = pytest.mark.skipif(not _gpus(), reason="no GPU visible to JAX on this machine")


def t(a, dtype=jnp.float64):
    return jnp.asarray(np.asarray(a), dtype=dtype)


def npa(x):
    return np.array(x)  # a writable copy


def close(got, want, tol=1e-10):
    np.testing.assert_allclose(npa(got) if isinstance(got, jax.Array) else got, want, rtol=tol, atol=tol)


def test_jax_native_ops_present():
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
        "gelu",
        "softmax",
        "log_softmax",
        "sigmoid",
        "silu",
        "elu",
        "selu",
        "softplus",
        "hardswish",
        "mish",
        "leaky_relu",
        "linear",
        "layer_norm",
        "embedding",
        "one_hot",
        "scaled_dot_product_attention",
        "lstm_update",
        "lstm",
        "gru_update",
        "gru",
        "dropout",
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
    }
    assert want <= set(B.native_ops), sorted(want - set(B.native_ops))
    from ivy._registry import signature_mismatch

    assert {n: m for n in B.native_ops if (m := signature_mismatch(n, B.ops[n]))} == {}


def test_jax_plugin_import_is_framework_free():
    code = "import sys, ivy_jax; assert 'jax' not in sys.modules, 'jax imported'; print(ivy_jax.ivy_compile)"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr


# ---------------------------------------------------------------------------- transforms


def test_jax_value_and_grad_flat_with_aux_under_jit():
    tags = []

    @jax.jit
    def jitted(v):
        value, grads, aux = ivy.value_and_grad_flat(
            lambda ls: (jnp.sum(ls[0] ** 2), (ls[0] + 1, "tag")), [v], has_aux=True
        )
        tags.append(aux[1])  # runs while tracing: the Python leaf passes through
        return value, grads, aux[0]

    value, grads, aux0 = jitted(t([1.0, 2.0]))
    close(value, 5.0)
    close(grads[0], [2.0, 4.0])
    close(aux0, [2.0, 3.0])
    assert tags == ["tag"]


def test_jax_ivy_transforms_mix_with_jaxs_own():
    def f(x):
        return jnp.sum(x**3 * jnp.exp(-x))

    x0 = np.array([0.3, -1.2, 2.0])
    want = (6 * x0 - 6 * x0**2 + x0**3) * np.exp(-x0)  # the second derivative (f is separable)
    close(jax.grad(lambda x: jnp.sum(ivy.grad(f)(x)))(t(x0)), want)
    close(ivy.grad(lambda x: jnp.sum(jax.grad(f)(x)))(t(x0)), want)


def test_jax_gradients_under_jit():
    def f(x):
        return jnp.sum(jnp.sin(x) * x**2)

    x0 = np.array([0.5, -1.0, 2.0])

    @jax.jit
    def step(x):
        value, grads, _ = ivy.value_and_grad_flat(lambda ls: f(ls[0]), [x])
        return value, grads[0], ivy.jacobian(ivy.grad(f), x)

    value, g, h = step(t(x0))
    close(value, np.sum(np.sin(x0) * x0**2))
    close(g, np.cos(x0) * x0**2 + 2 * x0 * np.sin(x0))
    close(h, np.diag(2 * np.sin(x0) + 4 * x0 * np.cos(x0) - x0**2 * np.sin(x0)))
    c = ivy.compile(lambda x: ivy.grad(f)(x))  # the same through ivy.compile
    close(c(t(x0)), np.cos(x0) * x0**2 + 2 * x0 * np.sin(x0))
    out = jax.jit(lambda x: ivy.jvp(f, [x], [jnp.ones_like(x)])[1])(t(x0))
    close(out, np.sum(np.cos(x0) * x0**2 + 2 * x0 * np.sin(x0)))


def test_jax_pytree_cotangents_and_tangent_dtypes():
    a, b = t([1.0, 2.0]), t([3.0, 4.0])
    _, fn = ivy.vjp(lambda x, y: (x * y, x + y), a, b)
    ga, gb = fn([t([1.0, 1.0]), t([2.0, 0.0])])  # a list of cotangents, as JAX takes any pytree
    close(ga, [5.0, 4.0])
    close(gb, [3.0, 2.0])
    _, tout = ivy.jvp(lambda v: v * 3, [a], [t([1.0, 1.0], jnp.float32)])  # cast to the primal's dtype
    assert tout.dtype == jnp.float64
    close(tout, [3.0, 3.0])


def test_jax_variables_are_the_arrays_themselves():
    x = t([1.0, 2.0])
    assert ivy.variable(x) is x  # JAX arrays are values: nothing to mark
    assert ivy.is_variable(t([1j], jnp.complex128))
    assert not ivy.is_variable(np.ones(2), backend="jax")  # a NumPy array is no JAX variable


def test_jax_container_is_a_pytree():
    container = pytest.importorskip("ivy.container")
    C = container.Container
    c = C({"a": t([1.0, 2.0]), "b": {"c": t([3.0])}})
    leaves, tree = jax.tree_util.tree_flatten(c)
    assert len(leaves) == 2
    back = jax.tree_util.tree_unflatten(tree, leaves)
    assert isinstance(back, C) and isinstance(back["b"], C)
    g = jax.grad(lambda p: jnp.sum(p["a"] ** 2) + jnp.sum(p["b"]["c"] ** 3))(c)
    assert isinstance(g, C)
    close(g["a"], [2.0, 4.0])
    close(g["b"]["c"], [27.0])
    doubled = jax.jit(lambda p: jax.tree_util.tree_map(lambda v: v * 2, p))(c)
    assert isinstance(doubled, C)
    close(doubled["b"]["c"], [6.0])


# ---------------------------------------------------------------------------- random


def test_jax_explicit_key_touches_no_global_state_and_works_under_jit():
    k = jax.random.key(42)
    ivy.seed(1, backend="jax")
    want = npa(ivy.random_uniform(shape=(6,), backend="jax"))
    ivy.seed(1, backend="jax")
    draws = {
        "random_uniform": lambda key: xp.random_uniform(shape=(6,), key=key),
        "random_normal": lambda key: xp.random_normal(shape=(6,), key=key),
        "randint": lambda key: xp.randint(0, 9, (6,), key=key),
        "multinomial": lambda key: xp.multinomial(5, 6, key=key),
        "shuffle": lambda key: xp.shuffle(jnp.arange(6.0), key=key),
        "bernoulli": lambda key: xp.bernoulli(0.5, shape=(6,), key=key),
        "dropout": lambda key: xp.dropout(jnp.ones(6), 0.5, key=key),
    }
    for name, draw in draws.items():
        a, b = npa(draw(k)), npa(draw(k))
        np.testing.assert_array_equal(a, b, err_msg=name)  # the same key: the same numbers
        assert a.shape[-1] == 6
    close(ivy.random_uniform(shape=(6,), backend="jax"), want, 0)  # the global key did not move
    close(xp.random_normal(shape=(6,), key=k), npa(jax.random.normal(k, (6,), jnp.float64)), 0)  # JAX's own numbers
    legacy = jax.random.PRNGKey(0)  # raw uint32[2] keys work too
    assert xp.random_uniform(shape=(2,), key=legacy).shape == (2,)
    with pytest.raises(ValueError):
        xp.random_uniform(shape=(2,), key=k, seed=1)

    @jax.jit
    def noisy(x, key):  # the key is an argument: every call draws fresh numbers
        k1, k2 = jax.random.split(key)
        return x + xp.random_normal(shape=x.shape, key=k1) + xp.dropout(x, 0.5, key=k2)

    x = jnp.zeros(1000)
    y1, y2 = npa(noisy(x, jax.random.key(0))), npa(noisy(x, jax.random.key(1)))
    assert not np.array_equal(y1, y2)
    close(noisy(x, jax.random.key(0)), y1, 0)
    assert abs(y1.mean()) < 0.15 and abs(y1.std() - 1.0) < 0.1


def test_jax_random_global_key_is_baked_in_under_a_bare_jit():
    # documented behaviour: without key=, a bare jax.jit reads the global key once, while tracing
    # (ivy.compile threads the key instead: see the suite's test_fn_compile_state.py)
    c = jax.jit(lambda x: x + ivy.random_uniform(shape=(3,), backend="jax"))
    z = jnp.zeros(3)
    close(c(z), npa(c(z)), 0)
    # and the global key did not leak a tracer: eager draws go on working and advancing
    a, b = npa(ivy.random_uniform(shape=(3,), backend="jax")), npa(ivy.random_uniform(shape=(3,), backend="jax"))
    assert not np.array_equal(a, b)
    assert jax.jit(lambda x: x + ivy.random_normal(shape=(2,), backend="jax"))(jnp.zeros(2)).shape == (2,)
    ivy.seed(0, backend="jax")
    _ = jax.jit(lambda x: x * ivy.bernoulli(0.5, shape=(2,), backend="jax"))(jnp.ones(2))
    assert ivy.random_uniform(shape=(2,), backend="jax").shape == (2,)


def test_jax_composed_dropout_draws_the_native_mask():
    ones = jnp.ones(64, dtype=jnp.float64)
    np.testing.assert_array_equal(
        npa(composed("dropout", "jax")(ones, 0.5, seed=1)) == 0, npa(ivy.dropout(ones, 0.5, seed=1)) == 0
    )


# ---------------------------------------------------------------------------- devices


def test_jax_devices_are_jax_devices():
    cpu = jax.devices("cpu")[0]
    x = jax.device_put(jnp.ones(3), cpu)
    assert ivy.dev(x, as_native=True) == cpu
    for d in ("cpu", cpu, "CPU", "cpu:0"):
        assert ivy.to_device(x, d) is x  # already there: no copy
    assert ivy.num_gpus(backend="jax") == len(_gpus())
    assert ivy.default_device(as_native=True, backend="jax") == jax.devices()[0]


def test_jax_dev_of_a_tracer_is_the_default_device():
    # tracers have no concrete device: dev reports the default one, so compositions still work
    default = ivy.default_device(backend="jax")
    out = jax.jit(lambda a: jnp.zeros(2) + (1.0 if ivy.dev(a) == default else 0.0))(jnp.ones(2))
    close(out, [1.0, 1.0], 0)
    close(jax.jit(lambda a: ivy.one_hot(a, 3))(t([2, 0], jnp.int64)), [[0, 0, 1], [1, 0, 0]], 0)


@no_gpu
def test_jax_device_gpu_round_trip():
    gpu = jax.devices("gpu")[0]
    x = jax.device_put(jnp.arange(4.0), jax.devices("cpu")[0])
    for d in ("gpu:0", "cuda:0", gpu):
        y = ivy.to_device(x, d)
        assert ivy.dev(y) == "gpu:0" and y.devices() == {gpu}
        assert ivy.dev(y, as_native=True) == gpu
        z = ivy.to_device(y, "cpu")
        assert ivy.dev(z) == "cpu"
        close(z, [0.0, 1.0, 2.0, 3.0], 0)
    u = ivy.random_uniform(shape=(3,), device="gpu:0", seed=1, backend="jax")
    assert ivy.dev(u) == "gpu:0"
    g = ivy.to_device(jnp.ones((1, 5, 5, 2)), "gpu:0")
    c = ivy.conv2d(g, ivy.to_device(jnp.ones((3, 3, 2, 4)), "gpu:0"), 2, "SAME")
    assert ivy.dev(c) == "gpu:0" and c.shape == (1, 3, 3, 4)
    assert ivy.dev(ivy.pad(g, 1)) == "gpu:0"


def test_jax_registered_device_kind(monkeypatch):
    """A third-party device kind registered for jax (ivy_register_devices) is listed, accepted by
    to_device and creation and mapped to its native device; unregistered kinds still raise."""
    from ivy.plugin import DeviceKind

    cpu = jax.devices("cpu")[0]
    dk = DeviceKind(
        backend="jax", kind="vdev", list_devices=lambda: ["vdev:0"], to_native=lambda s: cpu, from_native=lambda n: None
    )
    monkeypatch.setattr(_kit_devices, "_device_kinds", {"jax": {"vdev": dk}})  # restored afterwards
    assert "vdev:0" in xp.devices() and "vdev:0" in ivy.devices(backend="jax")
    assert xp.devices()[0] == "cpu"
    x = jnp.ones(3)
    y = ivy.to_device(x, "vdev:0")
    assert ivy.dev(y) == "cpu"
    assert y.devices() == {cpu}
    assert xp.asarray([1.0, 2.0], device="vdev:0").devices() == {cpu}
    with pytest.raises(ValueError):
        ivy.to_device(x, "foo:0")


# ---------------------------------------------------------------------------- under jax.jit, extensions


def test_jax_nn_and_general_ops_under_jit():
    f = jax.jit(lambda a, b: ivy.conv2d_transpose(a, b, 2, "SAME"))
    assert f(jnp.ones((1, 3, 4, 2)), jnp.ones((3, 3, 5, 2))).shape == (1, 6, 8, 5)
    idx, upd = t([[0, 1], [2, 3], [0, 1]], jnp.int64), t([1.0, -2.0, 3.0])
    got = jax.jit(lambda i, u: ivy.scatter_nd(i, u, (3, 4), reduction="max"))(idx, upd)  # a static shape
    want = np.zeros((3, 4))
    want[0, 1], want[2, 3] = 3.0, -2.0
    close(got, want, 0)
    close(jax.jit(lambda v: ivy.set_item(v, 1, -1.0))(t([1.0, 2.0])), [1.0, -1.0], 0)


@pytest.mark.parametrize("layout", ["NHWC", "NCHW"])
def test_jax_depthwise_conv2d_on_cpu_equals_lax_grouped_conv_with_its_gradients(layout):
    """On CPU the plugin writes a depthwise convolution as a sum of shifted products (XLA's
    grouped convolution is far slower there): values and gradients equal lax's grouped
    convolution, for strides, dilations and uneven padding, under jit, with no convolution left."""
    if jax.default_backend() != "cpu":
        pytest.skip("XLA's CPU backend")
    from jax import lax

    r = np.random.default_rng(5)
    x, w, b = t(r.normal(size=(2, 9, 10, 3))), t(r.normal(size=(5, 3, 3))), t(r.normal(size=(3,)))
    cl = layout == "NHWC"
    xin = x if cl else jnp.transpose(x, (0, 3, 1, 2))
    for strides, dil, pad in [(1, 1, "SAME"), ((2, 1), (1, 2), [(2, 1), (0, 3)]), (2, 1, "VALID")]:

        def ours(xin, w, b, strides=strides, dil=dil, pad=pad):
            return ivy.depthwise_conv2d(xin, w, strides, pad, data_format=layout, dilations=dil, bias=b)

        def want(xin, w, b, strides=strides, dil=dil, pad=pad):
            s, d = ivy.plugin_kit.ntuple(strides, 2, "s"), ivy.plugin_kit.ntuple(dil, 2, "d")
            dims = (layout, "HWIO", layout)
            y = lax.conv_general_dilated(
                xin, w[:, :, None, :], s, pad, rhs_dilation=d, dimension_numbers=dims, feature_group_count=3
            )
            return y + (b if cl else b[:, None, None])

        def with_grads(f, *a):
            y, pull = jax.vjp(f, *a)
            return y, pull(jnp.cos(jnp.arange(y.size, dtype=y.dtype).reshape(y.shape)))

        got, expected = jax.jit(partial(with_grads, ours))(xin, w, b), jax.jit(partial(with_grads, want))(xin, w, b)
        for g, h in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(expected)):
            close(g, h)
        assert "conv_general_dilated" not in str(jax.make_jaxpr(ours)(xin, w, b))


@pytest.mark.parametrize("layout", ["NHWC", "NCHW"])
def test_jax_depthwise_conv2d_under_jit_is_computed_once_for_all_its_users(layout):
    """A depthwise convolution followed by a layer norm over channels (ConvNeXt's block: the
    convolution channels-first, then a transpose) under jit: XLA's CPU backend would fuse the
    convolution's shifted products into each of the norm's three fusions, computing it three
    times; the compiled program takes each of the window's 49 slices at most once, and its values are
    lax's grouped convolution's, normalised."""
    if jax.default_backend() != "cpu":
        pytest.skip("XLA's CPU backend")
    from jax import lax

    r = np.random.default_rng(7)
    cl = layout == "NHWC"
    x = t(r.normal(size=(2, 16, 16, 8) if cl else (2, 8, 16, 16))).astype(jnp.float32)
    w = t(r.normal(size=(7, 7, 8))).astype(jnp.float32)

    def block(conv, x, w):
        y = conv(x, w)
        y = y if cl else jnp.transpose(y, (0, 2, 3, 1))
        return ivy.layer_norm(y, -1, eps=1e-6)

    def ours(x, w):
        return ivy.depthwise_conv2d(x, w, 1, "SAME", data_format=layout)

    def grouped(x, w):
        dims = (layout, "HWIO", layout)
        w4 = w[:, :, None, :]  # HWIO with I = 1
        return lax.conv_general_dilated(x, w4, (1, 1), "SAME", dimension_numbers=dims, feature_group_count=8)

    f = jax.jit(partial(block, ours))
    close(f(x, w), jax.jit(partial(block, grouped))(x, w), 1e-4)
    hlo = f.lower(x, w).compile().as_text()
    tap = f"f32[{','.join(map(str, x.shape))}]"  # a slice of the padded input for one window position
    slices = sum(1 for line in hlo.splitlines() if f"= {tap}" in line and " slice(" in line)
    # (XLA folds the first position's slice into its neighbour's: 48 here, never more than 49)
    assert 0 < slices <= 49, f"the window's 49 slices of the input appear {slices} times in the compiled program"


@pytest.mark.parametrize("layout", ["NHWC", "NCHW"])
@pytest.mark.parametrize("filters", ["HWIO", "OIHW"])
@pytest.mark.parametrize("channels", [1, 3])
def test_jax_conv2d_of_few_channels_under_jit_equals_lax_conv_with_its_gradients(layout, filters, channels):
    """On CPU, under jit, a convolution of one input channel (an image filter) is a sum of
    shifted products, and one of 2-4 channels with a small window (a first layer on RGB images)
    one matrix product of the window's positions (XLA's convolutions of so few channels are far
    slower there): values and gradients equal lax's convolution, for strides, dilations and
    uneven padding, with no convolution left."""
    if jax.default_backend() != "cpu":
        pytest.skip("XLA's CPU backend")
    from jax import lax

    r = np.random.default_rng(6)
    x, b = t(r.normal(size=(3, 9, 10, channels))), t(r.normal(size=(4,)))
    w = t(r.normal(size=(3, 2, channels, 4)))
    cl = layout == "NHWC"
    xin = x if cl else jnp.transpose(x, (0, 3, 1, 2))
    win = w if filters == "HWIO" else jnp.transpose(w, (3, 2, 0, 1))
    for strides, dil, pad in [(1, 1, "SAME"), ((2, 1), (1, 2), [(2, 1), (0, 3)]), (2, 1, "VALID")]:

        def ours(xin, win, b, strides=strides, dil=dil, pad=pad):
            kw = {"data_format": layout, "dilations": dil, "bias": b, "filter_format": filters}
            return ivy.conv2d(xin, win, strides, pad, **kw)

        def want(xin, win, b, strides=strides, dil=dil, pad=pad):
            s, d = ivy.plugin_kit.ntuple(strides, 2, "s"), ivy.plugin_kit.ntuple(dil, 2, "d")
            y = lax.conv_general_dilated(xin, win, s, pad, rhs_dilation=d, dimension_numbers=(layout, filters, layout))
            return y + (b if cl else b[:, None, None])

        def with_grads(f, *a):
            y, pull = jax.vjp(f, *a)
            return y, pull(jnp.cos(jnp.arange(y.size, dtype=y.dtype).reshape(y.shape)))

        got, expected = jax.jit(partial(with_grads, ours))(xin, win, b), jax.jit(partial(with_grads, want))(xin, win, b)
        for g, h in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(expected)):
            close(g, h)
        assert "conv_general_dilated" not in str(jax.make_jaxpr(ours)(xin, win, b))


def test_jax_extensions_beyond_the_spec():
    r = np.random.default_rng(23)
    x, h0, c0 = r.normal(size=(2, 5, 3)), r.normal(size=(2, 4)), r.normal(size=(2, 4))
    k, rk, b = r.normal(size=(3, 16)) * 0.5, r.normal(size=(4, 16)) * 0.5, r.normal(size=(16,))
    batched, _ = ivy.lstm_update(t(x), t(h0), t(c0), t(k), t(rk), bias=t(b))
    single, _ = ivy.lstm_update(t(x[0]), t(h0[0]), t(c0[0]), t(k), t(rk), bias=t(b))  # no batch axis
    close(single, npa(batched)[0])
    a = np.arange(24.0).reshape(2, 3, 4)
    close(ivy.get_item(t(a), [1, 0]), a[[1, 0]], 0)  # a list index
    close(ivy.cumsum(t(5.0)), 5.0, 0)  # a 0-d input
    x64 = t(a)
    assert ivy.cast(x64, "float64") is x64
    ones = jnp.ones(8)
    assert ivy.dropout(ones, 0.5, training=False) is ones


# ---------------------------------------------------------------------------- compile, 32-bit mode


def test_jax_compile_hook_only_for_jax_and_options_pass_through():
    from ivy_jax._compile import ivy_compile

    assert ivy_compile(backend="numpy", fn=lambda a: a, options={}) is None
    fn = ivy_compile(backend="jax", fn=lambda a, n: jnp.sum(a**n), options={"static_argnums": (1,)})
    close(fn(t([1.0, 2.0]), 3), 9.0, 0)  # n is static: usable as a Python int
    hook = ivy._registry.plugin_manager().hook.ivy_compile
    close(hook(backend="jax", fn=lambda a: jnp.sin(a) * 2, options={})(t([0.5])), 2 * np.sin([0.5]), 1e-12)


def test_jax_functional_float32_without_x64():
    code = r"""
import numpy as np, jax, jax.numpy as jnp, ivy
assert not jax.config.jax_enable_x64
from scipy import special
x = jnp.asarray(np.linspace(-3, 3, 7), jnp.float32)
assert ivy.random_uniform(shape=(3,), seed=0, backend="jax").dtype == jnp.float32
assert ivy.randint(0, 5, (3,), seed=0, backend="jax").dtype == jnp.int32
assert ivy.multinomial(4, 3, seed=0, backend="jax").dtype == jnp.int32
assert ivy.bernoulli(0.5, shape=(2,), seed=0, backend="jax").dtype == jnp.float32
assert ivy.one_hot(jnp.asarray([1, 0]), 3).dtype == jnp.float32
# core's compositions ask for the default integer dtype (int32 here), never for int64 by name
probs = np.array([[0.5, 0.2, 0.3], [0.1, 0.1, 0.8]], np.float32)
ce = ivy.sparse_cross_entropy(jnp.asarray([0, 2]), jnp.asarray(probs))
assert ce.dtype == jnp.float32
np.testing.assert_allclose(float(ce), -np.log(probs[[0, 1], [0, 2]]).mean(), rtol=1e-6)
assert ivy.top_k(x, 2)[1].dtype == jnp.int32
assert ivy.cumsum(jnp.asarray([1, 2], jnp.int8)).dtype == jnp.int32
a = np.linspace(-3, 3, 7)
np.testing.assert_allclose(np.asarray(ivy.gelu(x)), 0.5 * a * (1 + special.erf(a / np.sqrt(2))), rtol=1e-5, atol=1e-6)
g = ivy.grad(lambda v: jnp.sum(v ** 3))(x)
np.testing.assert_allclose(np.asarray(g), 3 * np.linspace(-3, 3, 7) ** 2, rtol=1e-5)
y = ivy.conv2d(jnp.ones((1, 5, 5, 2)), jnp.ones((3, 3, 2, 4)), 2, "SAME")
assert y.shape == (1, 3, 3, 4) and y.dtype == jnp.float32 and float(y[0, 1, 1, 0]) == 18.0
assert ivy.scatter_nd(jnp.asarray([[0], [2]]), 1.5, (3,)).dtype == jnp.float32
assert ivy.avg_pool1d(jnp.ones((1, 5, 1)), 2, 2, "SAME").shape == (1, 3, 1)
print("ok")
"""
    env = {k: v for k, v in os.environ.items() if k != "JAX_ENABLE_X64"}
    env["JAX_ENABLE_X64"] = "0"
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0 and "ok" in out.stdout, out.stderr[-3000:]


@pytest.mark.parametrize("op", ["gru", "lstm"])
def test_jax_scanned_recurrent_stacks_match_the_composition_with_gradients(op):
    # a lax.scan per layer against core's loop of Array API ops: the outputs, and jax.grad of
    # every weight, bias and initial state, eagerly and under jax.jit
    r = np.random.default_rng(33)
    g = 3 if op == "gru" else 4
    x = t(r.normal(size=(2, 5, 3)))
    ks = [t(r.normal(size=(3, g * 4)) * 0.5), t(r.normal(size=(4, g * 4)) * 0.5)]
    rks = [t(r.normal(size=(4, g * 4)) * 0.5) for _ in range(2)]
    bs, rbs = [t(r.normal(size=(g * 4,))) for _ in range(2)], [t(r.normal(size=(g * 4,))) for _ in range(2)]
    states = [t(r.normal(size=(2, 2, 4))) for _ in range(1 if op == "gru" else 2)]

    def loss(fn):
        def f(xs, st, w):
            hs, last = fn(xs, *st, w[0], w[1], biases=w[2], recurrent_biases=w[3])
            return jnp.sum(hs**2) + sum(jnp.sum(jnp.sin(s)) for s in jax.tree_util.tree_leaves(last))

        return f

    args = (x, states, [ks, rks, bs, rbs])
    want = jax.value_and_grad(loss(composed(op, "jax")), argnums=(0, 1, 2))(*args)
    for fn in (loss(getattr(ivy, op)), jax.jit(loss(getattr(ivy, op)))):
        got = jax.value_and_grad(fn, argnums=(0, 1, 2))(*args)
        for a, b in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)):
            close(a, npa(b), 1e-10)


def test_jax_gru_update_scans_and_matches_the_composition():
    r = np.random.default_rng(34)
    x, h0, k, rk = r.normal(size=(2, 4, 3)), r.normal(size=(2, 5)), r.normal(size=(3, 15)), r.normal(size=(5, 15))
    b = t(r.normal(size=(15,)))
    for kw in ({}, {"bias": b}, {"recurrent_bias": b}):
        got = ivy.gru_update(t(x), t(h0), t(k), t(rk), **kw)
        want = composed("gru_update", "jax")(t(x), t(h0), t(k), t(rk), **kw)
        for a, w in zip(got, want):
            close(a, npa(w), 1e-12)
    single, _ = ivy.gru_update(t(x[0]), t(h0[0]), t(k), t(rk), bias=b)  # no batch axis: the composition
    close(single, npa(ivy.gru_update(t(x), t(h0), t(k), t(rk), bias=b)[0])[0], 1e-12)
