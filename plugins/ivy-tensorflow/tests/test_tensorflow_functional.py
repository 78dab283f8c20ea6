"""What the tensorflow plugin's functional API does of its own: its native ops, tf.Variables,
dense gradients of gathers, TensorFlow's device names, ``tf.function`` (dev of graph tensors,
gradients, random draws and shape inference while tracing), the indexing and dtypes TensorFlow
lacks natively, the copies it avoids, and its compile hook.

The behaviour every backend shares is tested once, for every backend, by the conformance suite
(``python -m pytest --backend tensorflow --pyargs ivy.testing.suite``).
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
tf = pytest.importorskip("tensorflow")

from scipy import special

import ivy
import ivy.plugin_kit._devices as _kit_devices

xp = ivy.backend_namespace("tensorflow")
B = ivy._registry.get_backend("tensorflow")

no_gpu = pytest.mark.skipif(not tf.config.list_logical_devices("GPU"), reason="no GPU visible to TensorFlow")


def t(a, dtype=tf.float64):
    return tf.constant(np.asarray(a), dtype=dtype)


def npa(x):
    return x.numpy() if hasattr(x, "numpy") else np.asarray(x)


def close(got, want, tol=1e-10):
    np.testing.assert_allclose(npa(got), want, rtol=tol, atol=tol)


def test_tensorflow_native_ops_present_and_signatures():
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


def test_tensorflow_plugin_import_is_framework_free():
    code = (
        "import sys, ivy_tensorflow; assert 'tensorflow' not in sys.modules, 'tensorflow imported'; "
        "print(ivy_tensorflow.ivy_compile)"
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr


# ---------------------------------------------------------------------------- tf.Variable, gradients


def test_tensorflow_variables_are_tf_variables():
    x = t([1.0, 2.0])
    assert not ivy.is_variable(x) and not ivy.is_variable(x, exclusive=True)  # TF has a distinct kind
    v = ivy.variable(x)
    assert isinstance(v, tf.Variable) and v.dtype == tf.float64
    assert ivy.variable(v) is v
    assert ivy.dev(v) == "cpu"
    s = ivy.stop_gradient(v)
    assert not isinstance(s, tf.Variable)
    close(s, [1.0, 2.0], 0)


def test_tensorflow_gradient_of_a_gather_is_dense():
    v = ivy.variable(t([1.0, 2.0, 3.0]))
    _, g, _ = ivy.value_and_grad_flat(lambda ls: tf.reduce_sum(tf.gather(ls[0], [0, 0, 2])), [v])
    assert isinstance(g[0], tf.Tensor)  # not tf.IndexedSlices
    close(g[0], [2.0, 0.0, 1.0])


def test_tensorflow_training_loop_updates_variables_in_place():
    r = np.random.default_rng(5)
    X = r.normal(size=(32, 3))
    w_true = np.array([1.5, -2.0, 0.5])
    Y = X @ w_true
    w = ivy.variable(t(np.zeros(3)))
    for _ in range(60):
        _, g = ivy.execute_with_gradients(lambda p: tf.reduce_mean((tf.linalg.matvec(t(X), p) - t(Y)) ** 2), w)
        ivy.inplace_update(w, w - 0.2 * g)
    assert isinstance(w, tf.Variable)
    close(w, w_true, 1e-3)


# ---------------------------------------------------------------------------- devices


def test_tensorflow_devices_are_tensorflow_device_names():
    x = tf.constant([1.0, 2.0])
    assert ivy.dev(x, as_native=True) == "/device:CPU:0"
    for d in ("CPU", "cpu:0", "/device:CPU:0", tf.config.list_logical_devices("CPU")[0]):
        y = ivy.to_device(x, d)
        assert ivy.dev(y) == "cpu"
        close(y, [1.0, 2.0], 0)
    n = len(tf.config.list_logical_devices("GPU"))
    assert ivy.default_device(as_native=True, backend="tensorflow") == ("/device:GPU:0" if n else "/device:CPU:0")
    assert ivy.devices(backend="tensorflow") == ["cpu"] + [f"gpu:{i}" for i in range(n)]


def test_tensorflow_dev_of_a_graph_tensor():
    @tf.function
    def f(a):
        return ivy.pad(a, 1, mode="edge"), ivy.dev(a)  # the composition calls dev on a graph tensor

    y, d = f(tf.constant([1.0, 2.0]))
    close(y, [1.0, 1.0, 2.0, 2.0], 0)
    assert d.numpy().decode() in ("cpu", "gpu:0")


@no_gpu
def test_tensorflow_device_gpu_round_trip():
    x = tf.range(4.0)
    for d in ("gpu:0", "cuda:0", "/device:GPU:0", "GPU:0"):
        y = ivy.to_device(x, d)
        assert ivy.dev(y) == "gpu:0" and "GPU:0" in y.device
        assert ivy.dev(y, as_native=True) == "/device:GPU:0"
        z = ivy.to_device(y, "cpu")
        assert ivy.dev(z) == "cpu"
        close(z, [0.0, 1.0, 2.0, 3.0], 0)
    u = ivy.random_uniform(shape=(3,), device="gpu:0", seed=1, backend="tensorflow")
    assert ivy.dev(u) == "gpu:0"
    g = ivy.to_device(tf.ones((1, 5, 5, 2)), "gpu:0")
    c = ivy.conv2d(g, ivy.to_device(tf.ones((3, 3, 2, 4)), "gpu:0"), 2, "SAME")
    assert ivy.dev(c) == "gpu:0" and tuple(c.shape) == (1, 3, 3, 4)
    close(c[0, 1, 1], [18.0] * 4, 0)
    g2 = ivy.to_device(tf.ones((1, 2, 5, 5)), "gpu:0")
    c2 = ivy.conv2d(g2, tf.ones((3, 3, 2, 4)), 1, "VALID", data_format="NCHW")
    close(c2, np.full((1, 4, 3, 3), 18.0), 0)
    assert ivy.dev(ivy.max_pool2d(g, 2, 2, "SAME")) == "gpu:0"


def test_tensorflow_registered_device_kind(monkeypatch):
    """A third-party device kind registered for tensorflow (ivy_register_devices) is listed, accepted by
    to_device and creation and mapped to its native device; unregistered kinds still raise."""
    from ivy.plugin import DeviceKind

    cpu = "/device:CPU:0"
    dk = DeviceKind(
        backend="tensorflow",
        kind="vdev",
        list_devices=lambda: ["vdev:0"],
        to_native=lambda s: cpu,
        from_native=lambda n: None,
    )
    monkeypatch.setattr(_kit_devices, "_device_kinds", {"tensorflow": {"vdev": dk}})  # restored afterwards
    assert "vdev:0" in xp.devices() and "vdev:0" in ivy.devices(backend="tensorflow")
    assert xp.devices()[0] == "cpu"
    x = tf.ones(3)
    y = ivy.to_device(x, "vdev:0")
    assert ivy.dev(y) == "cpu"
    assert "CPU" in y.device
    assert "CPU" in xp.asarray([1.0, 2.0], device="vdev:0").device
    with pytest.raises(ValueError):
        ivy.to_device(x, "foo:0")


# ---------------------------------------------------------------------------- what TensorFlow lacks natively

#: NumPy's advanced indexing, beyond the Array API's: integer arrays (or lists) mixed with
#: slices, ellipses and new axes, masks beside other indices, a scalar boolean
ADVANCED_QUERIES = [
    (0, [1, 2]),
    ([0, 1], [1, 2]),
    (slice(None), [0, 2], [1, 3]),
    ([1], Ellipsis, [0, 3]),
    ([[0], [1]], slice(None), [0, 1]),
    (0, slice(None), np.array([True, False, True, False])),
    (np.arange(24.0).reshape(2, 3, 4)[..., 0] > 5, slice(None, None, -1)),
    (None, [1, -1]),
    (True,),
]


@pytest.mark.parametrize("query", ADVANCED_QUERIES, ids=range(len(ADVANCED_QUERIES)))
def test_tensorflow_numpy_style_advanced_indexing(query):
    a = np.arange(24.0).reshape(2, 3, 4)
    x = t(a)
    tq = tuple(t(e, tf.bool) if isinstance(e, np.ndarray) and e.dtype == bool else e for e in query)
    got = ivy.get_item(x, tq)
    assert tuple(got.shape) == a[query].shape, query
    close(got, a[query], 0)
    want = a.copy()
    want[query] = -1.0
    close(ivy.set_item(x, tq, -1.0), want, 0)
    close(x, a, 0)  # not modified


def test_tensorflow_dtypes_without_native_kernels():
    r = np.random.default_rng(30)
    for dt, npdt in ((tf.int8, np.int8), (tf.uint8, np.uint8), (tf.int16, np.int16), (tf.uint64, np.uint64)):
        ua, ub = r.integers(0, 100, (2, 3)).astype(npdt), r.integers(0, 100, (3, 2)).astype(npdt)
        got = ivy.einsum("ij,jk->ik", t(ua, dt), t(ub, dt))
        assert got.dtype == dt
        np.testing.assert_array_equal(npa(got), np.einsum("ij,jk->ik", ua, ub))  # wrapping as NumPy's
    bo = ivy.scatter_nd(t([[0], [0], [2]], tf.int64), t([True, False, False], tf.bool), (3,))
    assert bo.dtype == tf.bool
    close(bo, [True, False, False], 0)
    close(ivy.leaky_relu(t([-2, 3], tf.int64), alpha=0.5), [-1.0, 3.0], 0)  # the composition for integers
    assert ivy.randint(0, 5, (3,), dtype="uint8", seed=2, backend="tensorflow").dtype == tf.uint8


def test_tensorflow_identities_return_the_input():
    ones = tf.ones(20, dtype=tf.float64)
    assert ivy.dropout(ones, 0.5, training=False) is ones


# ---------------------------------------------------------------------------- tf.function, compile


def _f(x, y):
    return tf.sin(x) * y + ivy.softmax(x, axis=-1)


def test_tensorflow_compile_hook_only_for_tensorflow_and_options_pass_through():
    from ivy_tensorflow._compile import ivy_compile

    assert ivy_compile(backend="numpy", fn=_f, options={}) is None
    hook = ivy._registry.plugin_manager().hook.ivy_compile
    fn = hook(backend="tensorflow", fn=_f, options={"jit_compile": False})
    assert isinstance(fn, tf.types.experimental.PolymorphicFunction)
    x, y = (t(a) for a in np.random.default_rng(60).normal(size=(2, 3, 4)))
    close(fn(x, y), np.sin(npa(x)) * npa(y) + special.softmax(npa(x), axis=-1), 1e-12)
    sig = [tf.TensorSpec([None], tf.float64)]
    fn = ivy_compile(
        backend="tensorflow", fn=lambda a: tf.cos(a) * 2, options={"input_signature": sig, "reduce_retracing": True}
    )
    close(fn(t(np.linspace(0, 1, 5))), 2 * np.cos(np.linspace(0, 1, 5)), 1e-12)
    with pytest.raises((TypeError, ValueError)):
        fn(t([1, 2], tf.int32))  # the input signature was passed through


def _elementwise(x):  # ten kinds of element-wise, indexing and reduction op: XLA fuses them
    y = ivy.where(x > 0, ivy.sqrt(ivy.abs(x)), ivy.exp(x) - 1.0)
    y = ivy.set_item(y, (0,), ivy.maximum(y[0], y[1]))
    return ivy.sum(y * ivy.tanh(x), axis=-1) / ivy.max(ivy.abs(x))


def _np_elementwise(x):
    y = np.where(x > 0, np.sqrt(np.abs(x)), np.exp(x) - 1.0)
    y[0] = np.maximum(y[0], y[1])
    return np.sum(y * np.tanh(x), axis=-1) / np.max(np.abs(x))


def test_tensorflow_emitted_programs_use_xla_where_it_pays():
    """A program emitted from an ivy.Graph runs under XLA (``jit_compile=True``) when it is made
    of element-wise, indexing and reduction ops; with a convolution it runs on TensorFlow's own
    kernels; where XLA cannot compile it it runs plainly, the same result; a caller's
    ``jit_compile`` is kept."""
    from ivy_tensorflow._compile import _XlaFirst

    x = np.random.default_rng(63).normal(size=(4, 5))
    prog = ivy.trace_graph(_elementwise, args=(t(x),)).to("tensorflow")
    assert isinstance(prog, _XlaFirst)
    close(prog(t(x)), _np_elementwise(x.copy()), 1e-9)
    assert prog._fn is prog._xla  # compiled by XLA on the first call
    x2 = np.random.default_rng(64).normal(size=(4, 5))
    close(prog(t(x2)), _np_elementwise(x2.copy()), 1e-9)

    def with_conv(a, w):
        return ivy.relu(ivy.conv2d(a, w, 1, "SAME")) * 2.0 + ivy.exp(-a) - ivy.sqrt(ivy.abs(a)) / 3.0

    a, w = (t(v) for v in (np.ones((1, 5, 5, 1)), np.ones((3, 3, 1, 1))))
    assert not isinstance(ivy.trace_graph(with_conv, args=(a, w)).to("tensorflow"), _XlaFirst)

    def host(v):  # tf.numpy_function: a host call XLA cannot compile
        return tf.numpy_function(np.sort, [v], tf.float64) * 2.0

    v = t(np.random.default_rng(65).normal(size=8))
    prog = _XlaFirst(tf.function(host, jit_compile=True), tf.function(host))
    close(prog(v), 2.0 * np.sort(npa(v)), 0)
    assert prog._fn is prog._plain  # XLA could not compile it: tf.function runs it, from then on
    close(prog(v), 2.0 * np.sort(npa(v)), 0)
    g = ivy.trace_graph(_elementwise, args=(t(x),))
    assert not isinstance(g.to("tensorflow", options={"jit_compile": False}), _XlaFirst)


def test_tensorflow_compile_of_a_threaded_step_calls_its_concrete_functions():
    """A program only Ivy calls (``__ivy_private_call__``: a training step's threaded state) runs
    its traced concrete functions directly: same results as tf.function's, a trace per new
    structure, dtype, shape or Python value, and every other call through the flat path."""
    from ivy_tensorflow._compile import ivy_compile

    traces = []

    def step(state, x, scale, *, shift=0.0):
        traces.append(1)
        w, b = state["w"], state["b"]
        return tf.matmul(x, w) * scale + b + shift, {"w": w * 0.5, "b": b - 1.0}

    step.__ivy_private_call__ = True
    fn = ivy_compile(backend="tensorflow", fn=step, options={})
    ref = tf.function(step)
    r = np.random.default_rng(62)
    state = {"b": t(r.normal(size=2)), "w": t(r.normal(size=(3, 2)))}  # (keys unsorted on purpose)

    def check(x, scale, **kw):
        got, want = fn(state, x, scale, **kw), ref(state, x, scale, **kw)
        close(got[0], npa(want[0]), 1e-12)
        close(got[1]["w"], npa(want[1]["w"]), 1e-12)
        close(got[1]["b"], npa(want[1]["b"]), 1e-12)

    x4, x5 = t(r.normal(size=(4, 3))), t(r.normal(size=(5, 3)))
    n = len(traces)
    for _ in range(3):
        check(x4, 2.0)
    assert len(traces) - n == 2  # one trace each for fn and ref; the later calls reuse them
    assert len(fn._calls) == 1 and None not in fn._calls.values()  # ... through the concrete function
    check(x5, 2.0)  # a new shape: traced again, learned again
    check(x4, 3.0)  # a new Python value: likewise
    check(x4, 3.0, shift=1.0)
    assert len(fn._calls) == 4 and None not in fn._calls.values()
    check(t(r.normal(size=(4, 3))), 2.0)  # other tensors, a known key: no new trace
    assert len(traces) - n == 8
    got = fn(state, x4, np.float64(2.0))  # a value it cannot key: through tf.function each time
    close(got[0], npa(ref(state, x4, 2.0)[0]), 1e-12)
    assert len(fn._calls) == 4
    assert fn.get_concrete_function(state, x4, 2.0) is not None  # tf.function's own API passes


def test_tensorflow_compile_gradients_random_and_nn_inside_tf_function():
    r = np.random.default_rng(61)
    w0, xs = r.normal(size=(3, 2)), r.normal(size=(4, 3))

    def step(w, x):
        loss, g = ivy.execute_with_gradients(lambda p: tf.reduce_sum(ivy.gelu(x @ p) ** 2), w)
        pooled = ivy.max_pool1d(x[None, :, :], 2, 1, "SAME")
        return loss, g, pooled, ivy.random_uniform(shape=(2,), seed=3, backend="tensorflow")

    eager = step(t(w0), t(xs))
    compiled = ivy.compile(step)
    got = compiled(t(w0), t(xs))
    for a_, b_ in zip(got, eager):
        close(a_, npa(b_), 1e-12)
    got2 = compiled(t(w0), t(xs))
    close(got2[3], npa(eager[3]), 0)  # a per-call seed stays reproducible when compiled
    scat = tf.function(lambda i, u: (ivy.scatter_nd(i, u, reduction="max"), ivy.scatter_flat(i[:, 0], u[:, 0])))
    idx, upd = np.array([[1], [3], [1]]), r.normal(size=(3, 2))
    got_nd, got_flat = scat(t(idx, tf.int64), t(upd))  # shape inferred while tracing
    want = np.zeros((4, 2))
    want[1], want[3] = np.maximum(upd[0], upd[2]), upd[1]
    close(got_nd, want, 0)
    close(got_flat, [0.0, upd[0, 0] + upd[2, 0], 0.0, upd[1, 0]], 1e-12)
    ivy.seed(4, backend="tensorflow")
    draw = tf.function(lambda: ivy.random_uniform(shape=(3,), backend="tensorflow"))
    first = npa(draw())
    ivy.seed(4, backend="tensorflow")  # re-seeding reaches the generator a traced function holds
    close(draw(), first, 0)


@pytest.mark.parametrize("layout", ["NHWC", "NCHW"])
def test_tensorflow_channels_first_filters_with_tiny_outputs_under_tf_function(layout):
    """Inside tf.function, [out, in, h, w] filters whose output has 1-2 positions per axis are one
    matrix product with the filters as they lie (no transpose of them): values and gradients equal
    TF's convolution of the filters transposed to [h, w, in, out]."""
    r = np.random.default_rng(7)
    w, b = t(r.normal(size=(6, 5, 3, 3))), t(r.normal(size=(6,)))
    cases = [((2, 2), 1, "SAME", 1), ((4, 3), 2, [(1, 0), (0, 2)], (1, 2)), ((4, 3), 3, "VALID", 1)]
    for sp, strides, pad, dil in cases:
        x = t(r.normal(size=(2, *sp, 5)))
        xin = x if layout == "NHWC" else tf.transpose(x, (0, 3, 1, 2))

        def both(xin, w, b, strides=strides, pad=pad, dil=dil):
            with tf.GradientTape(persistent=True) as tape:
                tape.watch([xin, w, b])
                kw = {"data_format": layout, "dilations": dil, "bias": b}
                ours = ivy.conv2d(xin, w, strides, pad, filter_format="OIHW", **kw)
                want = ivy.conv2d(xin, tf.transpose(w, (2, 3, 1, 0)), strides, pad, **kw)
                weights = tf.cos(tf.reshape(tf.range(tf.size(ours), dtype=ours.dtype), tf.shape(ours)))
                lo, lw = tf.reduce_sum(ours * weights), tf.reduce_sum(want * weights)
            return ours, want, tape.gradient(lo, [xin, w, b]), tape.gradient(lw, [xin, w, b])

        f = tf.function(both)
        ours, want, g_ours, g_want = f(xin, w, b)
        assert all(0 < v <= 2 for v in (ours.shape[1:3] if layout == "NHWC" else ours.shape[2:]))
        close(ours, npa(want))
        for g, h in zip(g_ours, g_want):
            close(g, npa(h))
        ops = {op.type for op in f.get_concrete_function(xin, w, b).graph.get_operations()}
        assert "BatchMatMulV2" in ops or "MatMul" in ops
