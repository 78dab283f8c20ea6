"""The tensorflow backend's issue-3 functional API: gradients, random, devices, nn, general, compile.

Every number is checked against an independent reference (finite differences, torch.autograd,
torch.nn.functional, NumPy / SciPy implementations written here, np.einsum, np.add.at...), never
against the backend's own output.

    PYTHONPATH=ivy_core/src python -m pytest plugins/ivy-tensorflow/tests/test_tensorflow_functional.py -q
"""

from __future__ import annotations

import os

import numpy as np
import ivy.plugin_kit._devices as _kit_devices
import pytest

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
tf = pytest.importorskip("tensorflow")
ivy = pytest.importorskip("ivy")
if "gradients" not in getattr(__import__("ivy._spec", fromlist=["CATEGORIES"]), "CATEGORIES", ()):
    pytest.skip("this ivy-core predates the functional API (issue 3)", allow_module_level=True)

from scipy import signal, special, stats  # noqa: E402
from ivy.testing._helpers.nn_reference import (  # noqa: E402
    same_pads,
    CONV,
    FMT,
    _norm,
    _pads_of,
    np_conv,
    np_conv_t,
    np_pool,
    _np_layer_norm,
    _np_attention,
    _np_lstm,
    fd_grad,
    fd_jac,
    _loss_np,
)

xp = ivy.backend_namespace("tensorflow")
B = ivy._registry.get_backend("tensorflow")

no_gpu = pytest.mark.skipif(not tf.config.list_logical_devices("GPU"), reason="no GPU visible to TensorFlow")


def _torch():
    return pytest.importorskip("torch")


def t(a, dtype=tf.float64):
    return tf.constant(np.asarray(a), dtype=dtype)


def npa(x):
    return x.numpy() if hasattr(x, "numpy") else np.asarray(x)


def close(got, want, tol=1e-10):
    np.testing.assert_allclose(npa(got), want, rtol=tol, atol=tol)


def rng(seed=0):
    return np.random.default_rng(seed)


def tt(a):
    """numpy -> torch (float64 stays float64)."""
    return _torch().from_numpy(np.ascontiguousarray(a))


def tn(x):
    return x.detach().cpu().numpy()


# ================================================================================== gradients


def _loss_tf(ls):
    a, b = ls
    return tf.reduce_sum(tf.sin(a) * b**2) + tf.reduce_sum(a**3)


def test_tensorflow_native_ops_present_and_signatures():
    want = {
        "variable", "is_variable", "stop_gradient", "value_and_grad_flat", "vjp", "jvp", "jacobian",
        "seed", "random_uniform", "random_normal", "randint", "multinomial", "shuffle", "bernoulli",
        "dev", "to_device", "default_device", "devices", "num_gpus", "gpu_is_available",
        "conv1d", "conv2d", "conv3d", "conv1d_transpose", "conv2d_transpose", "conv3d_transpose",
        "depthwise_conv2d", "max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d",
        "avg_pool3d", "erf", "scatter_nd", "scatter_flat", "set_item", "inplace_update", "einsum",
        # overrides of compositions
        "relu", "gelu", "softmax", "log_softmax", "sigmoid", "silu", "elu", "selu", "softplus",
        "hardswish", "mish", "leaky_relu", "linear", "layer_norm", "embedding", "one_hot",
        "scaled_dot_product_attention", "gather", "gather_nd", "top_k", "cumsum", "cumprod", "pad",
        "split", "flatten", "transpose", "cast", "get_item", "dropout",
    }
    assert want <= set(B.native_ops), sorted(want - set(B.native_ops))
    from ivy._registry import signature_mismatch

    assert {n: m for n in B.native_ops if (m := signature_mismatch(n, B.ops[n]))} == {}


def test_tensorflow_plugin_import_is_framework_free():
    import subprocess
    import sys

    code = (
        "import sys, ivy_tensorflow; assert 'tensorflow' not in sys.modules, 'tensorflow imported'; "
        "print(ivy_tensorflow.ivy_compile)"
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr


def test_tensorflow_value_and_grad_flat_vs_finite_differences_and_torch():
    r = rng(1)
    a, b = r.normal(size=(3, 2)), r.normal(size=(3, 2))
    value, grads, aux = ivy.value_and_grad_flat(_loss_tf, [t(a), t(b)])
    assert aux is None
    close(value, _loss_np([a, b]))
    for g, want in zip(grads, fd_grad(_loss_np, [a, b])):
        assert tuple(g.shape) == (3, 2) and g.dtype == tf.float64
        close(g, want, 1e-6)
    torch = _torch()
    ta, tb = tt(a).requires_grad_(True), tt(b).requires_grad_(True)
    (torch.sum(torch.sin(ta) * tb**2) + torch.sum(ta**3)).backward()
    close(grads[0], tn(ta.grad), 1e-12)
    close(grads[1], tn(tb.grad), 1e-12)


def test_tensorflow_value_and_grad_flat_aux_unused_gather_and_errors():
    x, unused = t([1.0, 2.0]), t([[5.0]])
    value, grads, aux = ivy.value_and_grad_flat(
        lambda ls: (tf.reduce_sum(ls[0] ** 2), {"n": int(ls[0].shape[0])}), [x, unused], has_aux=True
    )
    close(value, 5.0)
    close(grads[0], [2.0, 4.0])
    close(grads[1], [[0.0]])  # no dependence: zeros of that shape
    assert aux == {"n": 2}
    # the gradient of a gather is dense (not tf.IndexedSlices), of the input's shape
    v = ivy.variable(t([1.0, 2.0, 3.0]))
    _, g, _ = ivy.value_and_grad_flat(lambda ls: tf.reduce_sum(tf.gather(ls[0], [0, 0, 2])), [v])
    assert isinstance(g[0], tf.Tensor)
    close(g[0], [2.0, 0.0, 1.0])
    with pytest.raises(ValueError):
        ivy.value_and_grad_flat(lambda ls: ls[0] * 2, [x])


def test_tensorflow_execute_with_gradients_nest_of_variables():
    r = rng(2)
    w, b = r.normal(size=(4, 3)), r.normal(size=(3,))
    xs = r.normal(size=(5, 4))

    def loss_np(ls):
        return float(np.mean(np.tanh(xs @ ls[0] + ls[1]) ** 2))

    params = {"w": ivy.variable(t(w)), "b": ivy.variable(t(b))}
    X = t(xs)

    def loss(p):
        y = tf.tanh(X @ p["w"] + p["b"])
        return tf.reduce_mean(y**2), int(y.shape[0])

    value, grads, extra = ivy.execute_with_gradients(loss, params)
    close(value, loss_np([w, b]))
    gw, gb = fd_grad(loss_np, [w, b])
    close(grads["w"], gw, 1e-6)
    close(grads["b"], gb, 1e-6)
    assert extra == 5


def test_tensorflow_grad_value_and_grad_and_second_order():
    def f(x):
        return tf.reduce_sum(x**3 * tf.exp(-x))

    x0 = np.array([0.3, -1.2, 2.0])
    g = ivy.grad(f)(t(x0))
    close(g, 3 * x0**2 * np.exp(-x0) - x0**3 * np.exp(-x0), 1e-10)
    (v, aux), g2 = ivy.value_and_grad(lambda x, y: (tf.reduce_sum(x * y), "aux"), argnums=(0, 1), has_aux=True)(
        t(x0), t(2 * x0)
    )
    assert aux == "aux"
    close(v, np.sum(2 * x0 * x0))
    close(g2[0], 2 * x0)
    close(g2[1], x0)
    # grad of grad (nested tapes): the second derivative
    h = ivy.grad(lambda x: tf.reduce_sum(ivy.grad(f)(x)))(t(x0))
    close(h, (6 * x0 - 6 * x0**2 + x0**3) * np.exp(-x0), 1e-10)


def test_tensorflow_transforms_compose_hessian_vector_product():
    def f(x):
        return tf.reduce_sum(tf.sin(x) * x**2)

    x0, v0 = np.array([0.5, -1.0, 2.0]), np.array([1.0, 0.5, -2.0])
    hdiag = 2 * np.sin(x0) + 4 * x0 * np.cos(x0) - x0**2 * np.sin(x0)  # f is separable
    _, hvp = ivy.jvp(ivy.grad(f), [t(x0)], [t(v0)])  # forward over reverse
    close(hvp, hdiag * v0, 1e-10)
    _, vjp_fn = ivy.vjp(ivy.grad(f), t(x0))  # reverse over reverse
    close(vjp_fn(t(v0))[0], hdiag * v0, 1e-10)
    close(ivy.jacobian(ivy.grad(f), t(x0)), np.diag(hdiag), 1e-10)


def test_tensorflow_vjp_jvp_jacobian_vs_finite_differences_and_torch():
    r = rng(3)
    A = r.normal(size=(2, 3))
    x0 = r.normal(size=(3,))

    def f_np(x):
        return np.tanh(A @ x) * x[:2]

    def f(x):
        return tf.linalg.matvec(t(A), tf.tanh(x) * 0 + x) * 0 + tf.tanh(tf.linalg.matvec(t(A), x)) * x[:2]

    J = fd_jac(f_np, x0)
    out, vjp_fn = ivy.vjp(f, t(x0))
    close(out, f_np(x0))
    ct = r.normal(size=(2,))
    (g,) = vjp_fn(t(ct))
    close(g, ct @ J, 1e-6)
    (g2,) = vjp_fn(t(ct))  # the vjp function may be called again
    close(g2, ct @ J, 1e-6)
    tan = r.normal(size=(3,))
    out2, tout = ivy.jvp(f, [t(x0)], [t(tan)])
    close(out2, f_np(x0))
    close(tout, J @ tan, 1e-6)
    jac = ivy.jacobian(f, t(x0))
    assert tuple(jac.shape) == (2, 3)
    close(jac, J, 1e-6)
    close(ivy.jac(f)(t(x0)), J, 1e-6)
    torch = _torch()
    TA = tt(A)
    tj = torch.autograd.functional.jacobian(lambda x: torch.tanh(TA @ x) * x[:2], tt(x0))
    close(jac, tn(tj), 1e-12)


def test_tensorflow_vjp_tuple_outputs_multiple_primals_and_argnums():
    a, b = t([1.0, 2.0]), t([3.0, 4.0])
    out, fn = ivy.vjp(lambda x, y: (x * y, x + y), a, b)
    ga, gb = fn((t([1.0, 1.0]), t([2.0, 0.0])))
    close(ga, [3.0 + 2.0, 4.0])
    close(gb, [1.0 + 2.0, 2.0])
    _, (ta, tb) = ivy.jvp(lambda x, y: (x * y, x + y), [a, b], [t([1.0, 0.0]), t([0.0, 1.0])])
    close(ta, [3.0, 2.0])
    close(tb, [1.0, 1.0])
    x, y = t([1.0, 2.0]), t([3.0])

    def f(x, y):
        return x * y**2

    jx, jy = ivy.jacobian(f, x, y, argnums=(0, 1))
    close(jx, [[9.0, 0.0], [0.0, 9.0]])
    close(jy, [[6.0], [12.0]])
    close(ivy.jacobian(f, x, y, argnums=-1), [[6.0], [12.0]])
    with pytest.raises(IndexError):
        ivy.jacobian(f, x, y, argnums=2)
    with pytest.raises(ValueError):
        ivy.jvp(lambda z: z, [x], [y])
    with pytest.raises(ValueError):
        ivy.jvp(lambda z: z, [x], [x, x])


def test_tensorflow_variable_is_variable_stop_gradient():
    x = t([1.0, 2.0])
    assert not ivy.is_variable(x) and not ivy.is_variable(x, exclusive=True)  # TF has a distinct kind
    assert not ivy.is_variable(t([1, 2], tf.int64))
    v = ivy.variable(x)
    assert isinstance(v, tf.Variable) and v.dtype == tf.float64
    close(v, [1.0, 2.0], 0)
    assert ivy.is_variable(v) and ivy.is_variable(v, exclusive=True)
    assert ivy.variable(v) is v
    assert not ivy.is_variable(3.0, backend="tensorflow")
    _, grads, _ = ivy.value_and_grad_flat(lambda ls: tf.reduce_sum(ls[0] * ivy.stop_gradient(ls[0])), [t([3.0])])
    close(grads[0], [3.0])  # the stopped factor is a constant
    s = ivy.stop_gradient(v)
    assert not isinstance(s, tf.Variable)
    close(s, [1.0, 2.0], 0)


def test_tensorflow_optimizer_updates_vs_numpy():
    r = rng(4)
    w, g = r.normal(size=(3,)), r.normal(size=(3,))
    m, v = np.zeros(3), np.zeros(3)
    nw, nm, nv = ivy.adam_update({"w": t(w)}, {"w": t(g)}, 0.1, {"w": t(m)}, {"w": t(v)}, 1)
    m1 = 0.1 * g
    v1 = 0.001 * g * g
    close(nw["w"], w - 0.1 * (m1 / 0.1) / (np.sqrt(v1 / 0.001) + 1e-7))
    close(nm["w"], m1)
    close(nv["w"], v1)
    close(ivy.gradient_descent_update([ivy.variable(t(w))], [t(g)], 0.5)[0], w - 0.5 * g)


def test_tensorflow_training_loop_with_variables_converges():
    r = rng(5)
    X = r.normal(size=(32, 3))
    w_true = np.array([1.5, -2.0, 0.5])
    Y = X @ w_true
    w = ivy.variable(t(np.zeros(3)))
    for _ in range(60):
        _, g = ivy.execute_with_gradients(lambda p: tf.reduce_mean((tf.linalg.matvec(t(X), p) - t(Y)) ** 2), w)
        ivy.inplace_update(w, w - 0.2 * g)
    assert isinstance(w, tf.Variable)
    close(w, w_true, 1e-3)


# ===================================================================================== random


def test_tensorflow_seed_reproducible_and_per_call_seed():
    ivy.seed(7, backend="tensorflow")
    a = npa(ivy.random_uniform(shape=(5,), backend="tensorflow"))
    b = npa(ivy.random_normal(shape=(5,), backend="tensorflow"))
    ivy.seed(7, backend="tensorflow")
    close(ivy.random_uniform(shape=(5,), backend="tensorflow"), a, 0)
    close(ivy.random_normal(shape=(5,), backend="tensorflow"), b, 0)
    assert not np.array_equal(npa(ivy.random_uniform(shape=(5,), backend="tensorflow")), a)  # the state moved
    # a per-call seed is reproducible and leaves the global state alone
    ivy.seed(3, backend="tensorflow")
    ref = npa(ivy.random_uniform(shape=(4,), backend="tensorflow"))
    ivy.seed(3, backend="tensorflow")
    s1 = npa(ivy.random_uniform(shape=(4,), seed=11, backend="tensorflow"))
    close(ivy.random_uniform(shape=(4,), backend="tensorflow"), ref, 0)
    close(ivy.random_uniform(shape=(4,), seed=11, backend="tensorflow"), s1, 0)
    for fn in (
        lambda s: ivy.random_normal(shape=(3,), seed=s, backend="tensorflow"),
        lambda s: ivy.randint(0, 100, (3,), seed=s, backend="tensorflow"),
        lambda s: ivy.multinomial(10, 4, replace=False, seed=s, backend="tensorflow"),
        lambda s: ivy.multinomial(3, 6, probs=t([[0.2, 0.3, 0.5]]), seed=s),
        lambda s: ivy.shuffle(tf.range(10), seed=s),
        lambda s: ivy.bernoulli(0.5, shape=(8,), seed=s, backend="tensorflow"),
        lambda s: ivy.dropout(tf.ones(8), 0.5, seed=s),
    ):
        close(fn(5), npa(fn(5)), 0)


def test_tensorflow_random_uniform_distribution():
    x = ivy.random_uniform(low=-2.0, high=3.0, shape=(20000,), seed=0, backend="tensorflow")
    assert x.dtype == tf.float32 and tuple(x.shape) == (20000,)
    a = npa(x).astype(np.float64)
    assert a.min() >= -2.0 and a.max() < 3.0
    assert stats.kstest(a, stats.uniform(loc=-2.0, scale=5.0).cdf).pvalue > 1e-3
    ivy.seed(0, backend="tensorflow")
    g = npa(ivy.random_uniform(shape=(20000,), dtype="float64", backend="tensorflow"))
    assert stats.kstest(g, stats.uniform().cdf).pvalue > 1e-3
    lo, hi = t([0.0, 10.0]), t([[1.0, 20.0]] * 3)
    y = ivy.random_uniform(low=lo, high=hi, dtype="float64", seed=1)
    assert tuple(y.shape) == (3, 2) and y.dtype == tf.float64
    assert bool(tf.reduce_all((y >= lo) & (y < hi)))


def test_tensorflow_random_normal_distribution():
    x = npa(ivy.random_normal(mean=1.5, std=2.0, shape=(20000,), dtype="float64", seed=1, backend="tensorflow"))
    assert abs(x.mean() - 1.5) < 0.06 and abs(x.std() - 2.0) < 0.06
    assert stats.kstest(x, stats.norm(loc=1.5, scale=2.0).cdf).pvalue > 1e-3
    ivy.seed(1, backend="tensorflow")
    g = npa(ivy.random_normal(shape=(20000,), backend="tensorflow")).astype(np.float64)
    assert stats.kstest(g, stats.norm().cdf).pvalue > 1e-3
    y = ivy.random_normal(mean=t([0.0, 100.0]), std=1.0, seed=2)
    assert tuple(y.shape) == (2,) and abs(float(y[1]) - 100.0) < 6


def test_tensorflow_randint():
    x = ivy.randint(-3, 4, (5000,), seed=0, backend="tensorflow")
    assert x.dtype == tf.int64
    assert set(npa(x).tolist()) == set(range(-3, 4))
    y = ivy.randint(t([0, 100], tf.int64), t([2, 105], tf.int64), (1000, 2), dtype="int32", seed=1)
    assert y.dtype == tf.int32
    a = npa(y)
    assert set(a[:, 0].tolist()) == {0, 1} and set(a[:, 1].tolist()) == set(range(100, 105))
    assert abs(a[:, 1].mean() - 102) < 0.2
    assert ivy.randint(0, 5, (3,), dtype="uint8", seed=2, backend="tensorflow").dtype == tf.uint8
    with pytest.raises(ValueError):
        ivy.randint(3, 3, (2,), backend="tensorflow")


def test_tensorflow_multinomial():
    x = npa(ivy.multinomial(5, 6, batch_size=3, seed=0, backend="tensorflow"))
    assert x.shape == (3, 6) and x.min() >= 0 and x.max() < 5
    probs = t([[0.0, 1.0, 3.0]] * 2, tf.float32)
    y = npa(ivy.multinomial(3, 4000, probs=probs, seed=1))
    assert y.shape == (2, 4000) and y.dtype == np.int64 and (y != 0).all()
    assert abs((y == 2).mean() - 0.75) < 0.03
    z = npa(ivy.multinomial(10, 10, batch_size=4, replace=False, seed=2, backend="tensorflow"))
    assert all(sorted(row) == list(range(10)) for row in z.tolist())
    # without replacement, weighted: the first draw follows the weights; zero weights never drawn
    w = t([[0.0, 1.0, 1.0, 2.0]] * 4000)
    d = npa(ivy.multinomial(4, 3, probs=w, replace=False, seed=3))
    assert (d != 0).all() and all(len(set(row)) == 3 for row in d.tolist())
    assert abs((d[:, 0] == 3).mean() - 0.5) < 0.03


def test_tensorflow_shuffle_bernoulli_dropout():
    x = tf.reshape(tf.range(12), (3, 4))
    s = npa(ivy.shuffle(x, 1, seed=3))
    assert sorted(s[0].tolist()) == [0, 1, 2, 3]
    np.testing.assert_array_equal(s - s[:, :1], np.broadcast_to(s[0] - s[0, 0], (3, 4)))
    b = ivy.bernoulli(0.3, shape=(20000,), seed=0, backend="tensorflow")
    assert b.dtype == tf.float32 and set(npa(b).tolist()) <= {0.0, 1.0}
    assert abs(npa(b).mean() - 0.3) < 0.015
    p = t([[0.0, 1.0, 0.5]] * 4000, tf.float32)
    c = npa(ivy.bernoulli(p, dtype="bool", seed=1))
    assert c.dtype == np.bool_ and not c[:, 0].any() and c[:, 1].all() and abs(c[:, 2].mean() - 0.5) < 0.03
    d = ivy.bernoulli(t([0.2, 0.9]), shape=(3, 2), dtype="int32", seed=2)
    assert tuple(d.shape) == (3, 2) and d.dtype == tf.int32
    ones = tf.ones(20000, dtype=tf.float64)
    y = npa(ivy.dropout(ones, 0.25, seed=0))
    assert set(np.unique(y).tolist()) <= {0.0, 1.0 / 0.75}
    assert abs((y == 0).mean() - 0.25) < 0.015
    z = npa(ivy.dropout(ones, 0.25, scale=False, seed=0))
    assert set(np.unique(z).tolist()) <= {0.0, 1.0}
    assert ivy.dropout(ones, 0.5, training=False) is ones


# ===================================================================================== device


def test_tensorflow_device_cpu_round_trip():
    x = tf.constant([1.0, 2.0])
    assert ivy.dev(x) == "cpu"
    assert ivy.dev(x, as_native=True) == "/device:CPU:0"
    for d in ("cpu", "CPU", "/device:CPU:0", "cpu:0", tf.config.list_logical_devices("CPU")[0]):
        y = ivy.to_device(x, d)
        assert ivy.dev(y) == "cpu"
        close(y, [1.0, 2.0], 0)
    n = len(tf.config.list_logical_devices("GPU"))
    assert ivy.default_device(backend="tensorflow") == ("gpu:0" if n else "cpu")
    assert ivy.default_device(as_native=True, backend="tensorflow") == ("/device:GPU:0" if n else "/device:CPU:0")
    assert ivy.devices(backend="tensorflow") == ["cpu"] + [f"gpu:{i}" for i in range(n)]
    assert ivy.num_gpus(backend="tensorflow") == n
    assert ivy.gpu_is_available(backend="tensorflow") is (n > 0)
    v = ivy.variable(x)
    assert ivy.dev(v) == "cpu"


def test_tensorflow_to_device_errors_and_dev_inside_tf_function():
    x = tf.ones(2)
    with pytest.raises(ValueError):
        ivy.to_device(x, "nonsense:0")
    n = len(tf.config.list_logical_devices("GPU"))
    with pytest.raises(ValueError):
        ivy.to_device(x, f"gpu:{n}")  # one past the last GPU (gpu:0 on a CPU-only machine)
    with pytest.raises(ValueError):
        ivy.to_device(x, f"cuda:{n}")

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
    c2 = ivy.conv2d(ivy.to_device(tf.ones((1, 2, 5, 5)), "gpu:0"), tf.ones((3, 3, 2, 4)), 1, "VALID", data_format="NCHW")
    close(c2, np.full((1, 4, 3, 3), 18.0), 0)
    p = ivy.max_pool2d(g, 2, 2, "SAME")
    assert ivy.dev(p) == "gpu:0"


# =============================================================================== nn references


def cf(a):
    """channel-last -> channel-first (numpy)."""
    return np.moveaxis(a, -1, 1)


CONV_CASES = [
    # n, spatial, kernel, strides, padding, dilations
    (1, (9,), (3,), 1, "VALID", 1),
    (1, (9,), (4,), 2, "SAME", 1),
    (1, (10,), (3,), 3, [(2, 0)], 2),
    (2, (7, 8), (3, 2), (2, 1), "SAME", 1),
    (2, (7, 8), (3, 3), 1, 1, (2, 1)),
    (2, (6, 6), (2, 3), (1, 2), [(0, 1), (2, 1)], 1),
    (2, (8, 7), (3, 3), 2, "VALID", 2),
    (2, (9, 9), (3, 2), 2, "SAME", (2, 3)),
    (3, (5, 6, 4), (2, 3, 2), (1, 2, 1), "SAME", 1),
    (3, (5, 5, 5), (3, 2, 2), 2, [(1, 1), (0, 2), (1, 0)], (1, 1, 2)),
]


@pytest.mark.parametrize("case", CONV_CASES, ids=lambda c: f"{c[0]}d-{c[4]}-s{c[3]}-d{c[5]}")
@pytest.mark.parametrize("channel_first", [False, True])
def test_tensorflow_conv_vs_numpy_and_torch(case, channel_first):
    n, sp, K, strides, padding, dil = case
    r = rng(10)
    x = r.normal(size=(2, *sp, 3))
    w = r.normal(size=(*K, 3, 4))
    s, d = _norm(strides, n), _norm(dil, n)
    pads = _pads_of(padding, n, sp, [d[i] * (K[i] - 1) + 1 for i in range(n)], s)
    want = np_conv(x, w, s, pads, d)
    fmt = FMT[n][int(channel_first)]
    xin = cf(x) if channel_first else x
    got = getattr(ivy, CONV[n])(t(xin), t(w), strides, padding, data_format=fmt, dilations=dil)
    close(got, cf(want) if channel_first else want, 1e-9)
    if not channel_first:  # torch.nn.functional with the same weights, permuted to [out, in, *k]
        torch = _torch()
        F = torch.nn.functional
        flat = [v for lo_hi in reversed(pads) for v in lo_hi]
        tx = F.pad(tt(cf(x)), flat)
        tw = tt(np.ascontiguousarray(np.moveaxis(np.moveaxis(w, -1, 0), -1, 1)))
        ref = getattr(F, CONV[n])(tx, tw, stride=s, dilation=d)
        close(got, np.moveaxis(tn(ref), 1, -1), 1e-9)


def test_tensorflow_conv2d_vs_scipy_float32_and_gradient():
    r = rng(11)
    img, ker = r.normal(size=(6, 7)), r.normal(size=(3, 2))
    got = ivy.conv2d(t(img[None, :, :, None]), t(ker[:, :, None, None]), 1, "VALID")
    close(got[0, :, :, 0], signal.correlate2d(img, ker, mode="valid"), 1e-10)
    g32 = ivy.conv2d(t(img[None, :, :, None], tf.float32), t(ker[:, :, None, None]), 1, "VALID")
    assert g32.dtype == tf.float32  # the filters follow x's dtype
    close(g32[0, :, :, 0], signal.correlate2d(img, ker, mode="valid"), 1e-5)
    for size in range(5, 9):
        for s in (1, 2, 3):
            y = ivy.conv1d(tf.ones((1, size, 2)), tf.ones((4, 2, 3)), s, "SAME")
            assert tuple(y.shape) == (1, -(-size // s), 3) and y.dtype == tf.float32
    x, w = r.normal(size=(1, 5, 6, 2)), r.normal(size=(2, 3, 2, 2))

    def loss_np(ls):
        return float(np.sum(np_conv(ls[0], ls[1], (2, 2), same_pads((5, 6), (2, 3), (2, 2)), (1, 1)) ** 2))

    _, g, _ = ivy.value_and_grad_flat(lambda ls: tf.reduce_sum(ivy.conv2d(ls[0], ls[1], 2, "SAME") ** 2), [t(x), t(w)])
    gx, gw = fd_grad(loss_np, [x, w])
    close(g[0], gx, 1e-6)
    close(g[1], gw, 1e-6)


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
    (3, (2, 3, 2), (2, 2, 3), (2, 1, 2), "SAME", 1, None),
    (3, (2, 2, 3), (3, 2, 2), 2, [(1, 1), (0, 0), (2, 1)], 1, (4, 4, 4)),
    (3, (2, 3, 2), (2, 2, 2), 1, "VALID", (2, 1, 2), None),
]


@pytest.mark.parametrize("case", TCASES, ids=lambda c: f"{c[0]}d-{c[4]}-s{c[3]}-o{c[6]}")
@pytest.mark.parametrize("channel_first", [False, True])
def test_tensorflow_conv_transpose_vs_numpy_and_adjoint(case, channel_first):
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
    want = np_conv_t(x, w, s, pads, d, outs)
    fmt = FMT[n][int(channel_first)]
    xin = cf(x) if channel_first else x
    fn = getattr(ivy, CONV[n] + "_transpose")
    got = fn(t(xin), t(w), strides, padding, output_shape=oshape, data_format=fmt, dilations=dil)
    got_cl = np.moveaxis(npa(got), 1, -1) if channel_first else npa(got)
    assert got_cl.shape == (2, *outs, 4)
    close(got_cl, want, 1e-9)
    # the defining property: the adjoint of the forward conv (same filters, strides, padding)
    a = r.normal(size=(2, *outs, 4))
    fwd = npa(getattr(ivy, CONV[n])(t(a), t(w), strides, padding, dilations=dil))
    assert fwd.shape == x.shape
    np.testing.assert_allclose(np.sum(fwd * x), np.sum(a * got_cl), rtol=1e-9)


def test_tensorflow_conv_transpose_vs_torch_autograd():
    torch = _torch()
    r = rng(13)
    x, w = r.normal(size=(2, 4, 5, 3)), r.normal(size=(3, 3, 2, 3))  # d_out = 2, d_in = 3
    got = ivy.conv2d_transpose(t(x), t(w), 2, 1, output_shape=(8, 10))
    y = tt(np.zeros((2, 2, 8, 10))).requires_grad_(True)
    fw = tt(np.ascontiguousarray(np.transpose(w, (3, 2, 0, 1))))  # forward conv 2 -> 3 channels, [out, in, kh, kw]
    out = torch.nn.functional.conv2d(y, fw, stride=2, padding=1)
    (g,) = torch.autograd.grad(out, y, tt(np.ascontiguousarray(cf(x))))
    close(got, np.moveaxis(tn(g), 1, -1), 1e-10)


def test_tensorflow_depthwise_conv2d_vs_numpy_and_torch_groups():
    torch = _torch()
    r = rng(14)
    x, w = r.normal(size=(2, 7, 6, 3)), r.normal(size=(3, 2, 3))
    for strides, padding, dil in ((1, "SAME", 1), (2, "VALID", 1), ((1, 2), [(1, 0), (2, 1)], (2, 1)), (2, "SAME", 2)):
        s, d = _norm(strides, 2), _norm(dil, 2)
        pads = _pads_of(padding, 2, (7, 6), [d[0] * 2 + 1, d[1] * 1 + 1], s)
        want = np.concatenate([np_conv(x[..., c : c + 1], w[..., c : c + 1, None], s, pads, d) for c in range(3)], -1)
        got = ivy.depthwise_conv2d(t(x), t(w), strides, padding, dilations=dil)
        close(got, want, 1e-10)
        got_cf = ivy.depthwise_conv2d(t(cf(x)), t(w), strides, padding, dilations=dil, data_format="NCHW")
        close(got_cf, cf(want), 1e-10)
        flat = [v for lo_hi in reversed(pads) for v in lo_hi]
        tw = tt(np.ascontiguousarray(np.transpose(w, (2, 0, 1))[:, None]))
        ref = torch.nn.functional.conv2d(torch.nn.functional.pad(tt(cf(x)), flat), tw, stride=s, dilation=d, groups=3)
        close(got_cf, tn(ref), 1e-10)


POOL_CASES = [
    (1, (9,), 3, 2, "SAME"),
    (1, (8,), 2, 2, "VALID"),
    (1, (8,), 3, 1, [(2, 0)]),
    (2, (7, 6), (3, 2), (2, 1), "SAME"),
    (2, (7, 6), 3, 2, 1),
    (2, (6, 6), (2, 3), (2, 2), [(1, 0), (0, 2)]),
    (3, (5, 4, 6), (2, 2, 3), (1, 2, 2), "SAME"),
    (3, (4, 4, 4), 2, 2, "VALID"),
    (3, (4, 5, 4), 3, 2, [(1, 1), (0, 2), (2, 0)]),
]


@pytest.mark.parametrize("case", POOL_CASES, ids=lambda c: f"{c[0]}d-{c[4]}-k{c[2]}-s{c[3]}")
@pytest.mark.parametrize("channel_first", [False, True])
def test_tensorflow_pools_vs_numpy(case, channel_first):
    n, sp, k, strides, padding = case
    r = rng(15)
    x = r.normal(size=(2, *sp, 3))
    kk, s = _norm(k, n), _norm(strides, n)
    pads = _pads_of(padding, n, sp, kk, s)
    fmt = FMT[n][int(channel_first)]
    for dtype, tol in ((tf.float64, 1e-10), (tf.float32, 1e-5)):  # 3-D float64: TF has no kernel
        xin = t(cf(x) if channel_first else x, dtype)
        for kind in ("max", "avg"):
            for cip in (False, True) if kind == "avg" else (False,):
                want = np_pool(npa(t(x, dtype)).astype(np.float64), kk, s, pads, kind, cip)
                extra = {"count_include_pad": cip} if kind == "avg" else {}
                got = getattr(ivy, f"{kind}_pool{n}d")(xin, k, strides, padding, data_format=fmt, **extra)
                assert got.dtype == dtype
                close(got, cf(want) if channel_first else want, tol)


def test_tensorflow_pools_vs_torch_functional():
    torch = _torch()
    F = torch.nn.functional
    x = rng(16).normal(size=(2, 3, 9, 9))
    close(ivy.max_pool2d(t(x), 3, 2, 1, data_format="NCHW"), tn(F.max_pool2d(tt(x), 3, 2, 1)), 0)
    close(
        ivy.avg_pool2d(t(x), 3, 2, 1, data_format="NCHW", count_include_pad=True),
        tn(F.avg_pool2d(tt(x), 3, 2, 1, count_include_pad=True)),
        1e-12,
    )
    close(
        ivy.avg_pool2d(t(x), 3, 2, 1, data_format="NCHW"),
        tn(F.avg_pool2d(tt(x), 3, 2, 1, count_include_pad=False)),
        1e-12,
    )
    x3 = rng(17).normal(size=(1, 2, 5, 6, 7))
    close(ivy.max_pool3d(t(x3), (2, 3, 2), (1, 2, 2), 1, data_format="NCDHW"), tn(F.max_pool3d(tt(x3), (2, 3, 2), (1, 2, 2), 1)), 0)
    close(
        ivy.avg_pool3d(t(x3), 3, 2, 1, data_format="NCDHW"),
        tn(F.avg_pool3d(tt(x3), 3, 2, 1, count_include_pad=False)),
        1e-12,
    )


def test_tensorflow_max_pool_integer_and_bool_input():
    x = rng(18).integers(-50, 50, size=(2, 7, 6, 3))
    want = np_pool(x.astype(np.float64), (3, 2), (2, 2), same_pads((7, 6), (3, 2), (2, 2)), "max")
    got = ivy.max_pool2d(t(x, tf.int64), (3, 2), 2, "SAME")
    assert got.dtype == tf.int64
    close(got, want, 0)
    u = x + 50
    for dt in (tf.uint8, tf.uint16, tf.uint32, tf.uint64, tf.int8, tf.int32):
        got = ivy.max_pool2d(t(u, dt), (3, 2), 2, "SAME")
        assert got.dtype == dt
        close(got, want + 50, 0)
    big = t(np.array([[[2**63 + 5], [3], [2**64 - 1], [0]]], dtype=np.uint64), tf.uint64)  # beyond int64: the order survives
    assert ivy.max_pool1d(big, 2, 2, "VALID").numpy().tolist() == [[[2**63 + 5], [2**64 - 1]]]
    x3 = rng(19).integers(-9, 9, size=(1, 4, 4, 4, 2))
    got3 = ivy.max_pool3d(t(x3, tf.int32), 2, 2, [(1, 0), (0, 1), (1, 1)])
    close(got3, np_pool(x3.astype(np.float64), (2, 2, 2), (2, 2, 2), [(1, 0), (0, 1), (1, 1)], "max"), 0)
    b = ivy.max_pool1d(t([[[0], [1], [0], [0], [0], [0]]], tf.bool), 2, 2, "VALID")
    assert b.dtype == tf.bool
    close(b, [[[True], [False], [False]]], 0)


# ============================================================================ activations etc.

ACTS = {
    "relu": lambda a: np.maximum(a, 0),
    "sigmoid": lambda a: 1 / (1 + np.exp(-a)),
    "silu": lambda a: a / (1 + np.exp(-a)),
    "gelu": lambda a: 0.5 * a * (1 + special.erf(a / np.sqrt(2))),
    "selu": lambda a: 1.0507009873554805 * np.where(a > 0, a, 1.6732632423543772 * np.expm1(a)),
    "hardswish": lambda a: a * np.clip(a + 3, 0, 6) / 6,
    "mish": lambda a: a * np.tanh(np.log1p(np.exp(a))),
    "erf": special.erf,
    "elu": lambda a: np.where(a > 0, a, np.expm1(a)),
    "softplus": lambda a: np.where(a > 20, a, np.log1p(np.exp(a))),
    "leaky_relu": lambda a: np.where(a >= 0, a, 0.2 * a),
}


def test_tensorflow_activations_vs_numpy():
    a = np.concatenate([np.linspace(-6, 6, 41), [-30.0, 30.0, 0.0, 25.0]])
    for name, ref in ACTS.items():
        got = getattr(ivy, name)(t(a))
        assert got.dtype == tf.float64, name
        close(got, ref(a), 1e-12)
        g32 = getattr(ivy, name)(t(a, tf.float32))
        assert g32.dtype == tf.float32, name
        close(g32, ref(a.astype(np.float32).astype(np.float64)), 2e-6)


def test_tensorflow_activation_options_vs_numpy_and_torch():
    a = np.linspace(-5, 5, 31)
    close(ivy.gelu(t(a), approximate=True), 0.5 * a * (1 + np.tanh(np.sqrt(2 / np.pi) * (a + 0.044715 * a**3))), 1e-12)
    close(ivy.leaky_relu(t(a), alpha=0.01), np.where(a >= 0, a, 0.01 * a))
    close(ivy.elu(t(a), alpha=2.0), np.where(a > 0, a, 2.0 * np.expm1(a)))
    b = 3.0
    close(ivy.softplus(t(a), beta=b, threshold=5.0), np.where(b * a > 5.0, a, np.log1p(np.exp(b * a)) / b))
    x = rng(20).normal(size=(3, 4, 5))
    for axis in (-1, 0, 1):
        close(ivy.softmax(t(x), axis=axis), special.softmax(x, axis=axis))
        close(ivy.log_softmax(t(x), axis=axis), special.log_softmax(x, axis=axis))
    close(ivy.erf(t([-40.0, 40.0])), [-1.0, 1.0], 0)
    ints = ivy.leaky_relu(t([-2, 3], tf.int64), alpha=0.5)  # the composition for integers
    close(ints, [-1.0, 3.0], 0)
    torch = _torch()
    F = torch.nn.functional
    for name, ref in (("mish", F.mish), ("hardswish", F.hardswish), ("selu", F.selu), ("silu", F.silu)):
        close(getattr(ivy, name)(t(a)), tn(ref(tt(a))), 1e-12)


def test_tensorflow_linear_embedding_one_hot():
    r = rng(21)
    x, w, b = r.normal(size=(2, 3, 4)), r.normal(size=(5, 4)), r.normal(size=(5,))
    close(ivy.linear(t(x), t(w), t(b)), x @ w.T + b)
    close(ivy.linear(t(x), t(w)), x @ w.T)
    close(ivy.linear(t(x[0, 0]), t(w), t(b)), x[0, 0] @ w.T + b)  # 1-D input: the composition
    table = r.normal(size=(6, 3))
    idx = np.array([[0, 5], [2, 2]])
    close(ivy.embedding(t(table), t(idx, tf.int64)), table[idx])
    close(ivy.embedding(t(table), t(idx, tf.uint8)), table[idx])
    got = ivy.embedding(t(table), t(idx, tf.int64), max_norm=0.5)
    rows = table[idx]
    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    close(got, np.where(norms > 0.5, rows * 0.5 / norms, rows))
    oh = ivy.one_hot(t([0, 2, -1, 7], tf.int64), 4)
    assert oh.dtype == tf.float32
    close(oh, [[1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0]], 0)
    oh8 = ivy.one_hot(t([3, 200], tf.uint16), 300, dtype="bool")
    assert tuple(oh8.shape) == (2, 300) and oh8.dtype == tf.bool
    assert bool(oh8[0, 3]) and bool(oh8[1, 200]) and int(tf.reduce_sum(tf.cast(oh8, tf.int32))) == 2
    oh2 = ivy.one_hot(t([[1, 0]], tf.int32), 3, dtype="int64", axis=0)
    assert tuple(oh2.shape) == (3, 1, 2) and oh2.dtype == tf.int64
    close(oh2, np.moveaxis(np.eye(3, dtype=np.int64)[[[1, 0]]], -1, 0), 0)
    close(ivy.one_hot(t([1], tf.int64), 2, axis=-2), [[0], [1]], 0)


def test_tensorflow_layer_norm_vs_numpy_and_torch():
    r = rng(22)
    x = r.normal(size=(2, 3, 4))
    s, o = r.normal(size=(4,)), r.normal(size=(4,))
    got = ivy.layer_norm(t(x), -1, scale=t(s), offset=t(o))
    close(got, _np_layer_norm(x, (-1,), s, o))
    torch = _torch()
    close(got, tn(torch.nn.functional.layer_norm(tt(x), (4,), tt(s), tt(o))), 1e-12)
    close(ivy.layer_norm(t(x), (1, 2)), _np_layer_norm(x, (1, 2)))
    s1 = r.normal(size=(3, 1))
    close(ivy.layer_norm(t(x), 1, scale=t(s1), eps=1e-3), _np_layer_norm(x, (1,), s1, eps=1e-3))
    close(ivy.layer_norm(t(x), (0, 2), offset=t(o)), _np_layer_norm(x, (0, 2), None, o))


def test_tensorflow_scaled_dot_product_attention_vs_numpy_and_torch():
    r = rng(23)
    q, k, v = r.normal(size=(2, 3, 4, 8)), r.normal(size=(2, 3, 6, 8)), r.normal(size=(2, 3, 6, 5))
    got = ivy.scaled_dot_product_attention(t(q), t(k), t(v))
    close(got, _np_attention(q, k, v))
    torch = _torch()
    close(got, tn(torch.nn.functional.scaled_dot_product_attention(tt(q), tt(k), tt(v))), 1e-12)
    close(ivy.scaled_dot_product_attention(t(q), t(k), t(v), scale=0.3), _np_attention(q, k, v, scale=0.3))
    m = r.random((4, 6)) > 0.3
    m[:, 0] = True
    close(ivy.scaled_dot_product_attention(t(q), t(k), t(v), mask=t(m, tf.bool)), _np_attention(q, k, v, m))
    fm = r.normal(size=(3, 4, 6))
    close(ivy.scaled_dot_product_attention(t(q), t(k), t(v), mask=t(fm)), _np_attention(q, k, v, fm))
    qs = r.normal(size=(2, 3, 6, 8))
    close(ivy.scaled_dot_product_attention(t(qs), t(k), t(v), is_causal=True), _np_attention(qs, k, v, causal=True))
    close(ivy.scaled_dot_product_attention(t(q), t(k), t(v), is_causal=True), _np_attention(q, k, v, causal=True))
    m2 = np.ones((4, 6), dtype=bool)
    m2[2] = False
    out = npa(ivy.scaled_dot_product_attention(t(q), t(k), t(v), mask=t(m2, tf.bool)))
    assert np.isnan(out[:, :, 2]).all() and not np.isnan(out[:, :, [0, 1, 3]]).any()
    ivy.seed(0, backend="tensorflow")
    dropped = ivy.scaled_dot_product_attention(t(q), t(k), t(v), dropout_p=0.5)
    assert tuple(dropped.shape) == (2, 3, 4, 5) and bool(tf.reduce_all(tf.math.is_finite(dropped)))


# ==================================================================================== general


def test_tensorflow_einsum_vs_numpy():
    r = rng(30)
    a, b, c = r.normal(size=(2, 3)), r.normal(size=(3, 4)), r.normal(size=(5, 2, 3))
    for eq, ops in (
        ("ij,jk->ik", (a, b)),
        ("ij,jk", (a, b)),
        ("ii", (r.normal(size=(3, 3)),)),
        ("ii->i", (r.normal(size=(3, 3)),)),
        ("bij,jk->bik", (c, b)),
        ("...j,jk->...k", (c, b)),
        ("ij->", (a,)),
        ("ba", (a,)),
        ("i,j->ij", (a[0], b[0])),
    ):
        close(ivy.einsum(eq, *[t(o) for o in ops]), np.einsum(eq, *ops))
    got = ivy.einsum("ij,jk->ik", t(a, tf.float32), t(b))
    assert got.dtype == tf.float64  # promoted
    close(got, a.astype(np.float32).astype(np.float64) @ b, 1e-12)
    ia, ib = r.integers(-5, 5, (2, 3)), r.integers(-5, 5, (3, 2))
    got = ivy.einsum("ij,jk->ik", t(ia, tf.int64), t(ib, tf.int32))
    assert got.dtype == tf.int64
    close(got, ia @ ib, 0)
    for dt, npdt in ((tf.int8, np.int8), (tf.uint8, np.uint8), (tf.int16, np.int16), (tf.uint64, np.uint64)):
        ua, ub = (r.integers(0, 100, (2, 3)).astype(npdt), r.integers(0, 100, (3, 2)).astype(npdt))
        got = ivy.einsum("ij,jk->ik", t(ua, dt), t(ub, dt))
        assert got.dtype == dt
        np.testing.assert_array_equal(npa(got), np.einsum("ij,jk->ik", ua, ub))  # wrapping as NumPy's
    ba = r.random((2, 3)) > 0.5
    np.testing.assert_array_equal(npa(ivy.einsum("ij,jk->ik", t(ba, tf.bool), t(ba.T, tf.bool))), np.einsum("ij,jk->ik", ba, ba.T))


@pytest.mark.parametrize("reduction", ["sum", "replace", "min", "max"])
def test_tensorflow_scatter_nd_vs_ufunc_at(reduction):
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
        want[:] = {"sum": 0.0, "min": np.inf, "max": -np.inf}[reduction]
        ufunc.at(want, tuple(idx.T), upd)
        want[~touched] = 0.0
    got = npa(ivy.scatter_nd(t(idx, tf.int64), t(upd), (3, 4), reduction=reduction))
    if reduction == "replace":  # which of the repeated writes wins is unspecified
        for pos, vals in {(0, 1): {upd[0], upd[2]}, (2, 3): {upd[1], upd[4]}}.items():
            assert got[pos] in vals
            got[pos] = want[pos] = 0
    close(got, want, 1e-12)
    iu = r.integers(-20, 20, size=5)
    if ufunc is not None:
        wi = np.full((3, 4), {"sum": 0, "min": 10**6, "max": -(10**6)}[reduction])
        ufunc.at(wi, tuple(idx.T), iu)
        wi[~touched] = 0
        gi = ivy.scatter_nd(t(idx, tf.int32), t(iu, tf.int64), (3, 4), reduction=reduction)
        assert gi.dtype == tf.int64
        close(gi, wi, 0)


def test_tensorflow_scatter_nd_slices_and_shape_inference():
    r = rng(32)
    idx = np.array([[1], [3], [1]])
    upd = r.normal(size=(3, 2))
    want = np.zeros((5, 2))
    np.add.at(want, idx[:, 0], upd)
    close(ivy.scatter_nd(t(idx, tf.int32), t(upd), (5, 2)), want)
    got = ivy.scatter_nd(t(idx, tf.int64), t(upd))  # shape inferred: (max + 1, trailing)
    assert tuple(got.shape) == (4, 2)
    close(got, want[:4])
    s = ivy.scatter_nd(t([[0, 0], [1, 1]], tf.int64), 2.5, (2, 2))
    assert s.dtype == tf.float32
    close(s, [[2.5, 0], [0, 2.5]], 0)
    mx = ivy.scatter_nd(t(idx, tf.int64), t(upd), (5, 2), reduction="max")
    w = np.zeros((5, 2))
    w[1] = np.maximum(upd[0], upd[2])
    w[3] = upd[1]
    close(mx, w)
    bo = ivy.scatter_nd(t([[0], [0], [2]], tf.int64), t([True, False, False], tf.bool), (3,))
    assert bo.dtype == tf.bool
    close(bo, [True, False, False], 0)


@pytest.mark.parametrize("reduction", ["sum", "min", "max"])
def test_tensorflow_scatter_flat_vs_ufunc_at(reduction):
    r = rng(33)
    idx = r.integers(0, 6, size=12)
    upd = r.integers(-20, 20, size=12)
    ufunc = {"sum": np.add, "min": np.minimum, "max": np.maximum}[reduction]
    want = np.full(8, {"sum": 0, "min": 10**6, "max": -(10**6)}[reduction])
    ufunc.at(want, idx, upd)
    want[np.isin(np.arange(8), idx, invert=True)] = 0
    got = ivy.scatter_flat(t(idx, tf.int64), t(upd, tf.int64), 8, reduction=reduction)
    assert got.dtype == tf.int64
    close(got, want, 0)
    got2 = ivy.scatter_flat(t(idx, tf.int64), t(upd, tf.int64), reduction=reduction)
    assert tuple(got2.shape) == (idx.max() + 1,)
    close(ivy.scatter_flat(t(idx, tf.int64), 1.0, 8, reduction="sum") if reduction == "sum" else got, np.bincount(idx, minlength=8) if reduction == "sum" else want, 0)
    with pytest.raises(ValueError):
        ivy.scatter_flat(t(idx, tf.int64), t(upd, tf.int64), 8, reduction="mean")


def test_tensorflow_gather_and_gather_nd_vs_numpy():
    r = rng(34)
    p = r.normal(size=(3, 4, 5))
    idx = r.integers(0, 4, size=(2, 3))
    for axis in (0, 1, -1):
        i = idx % p.shape[axis]
        close(ivy.gather(t(p), t(i, tf.int64), axis=axis), np.take(p, i, axis=axis), 0)
    close(ivy.gather(t(p), t(idx, tf.uint8), axis=1), np.take(p, idx, axis=1), 0)
    bi = r.integers(0, 5, size=(3, 2))
    close(ivy.gather(t(p), t(bi, tf.int64), axis=2, batch_dims=1), np.stack([p[b][:, bi[b]] for b in range(3)]), 0)
    nd = np.array([[0, 1], [2, 3], [1, 0]])
    close(ivy.gather_nd(t(p), t(nd, tf.int64)), p[nd[:, 0], nd[:, 1]], 0)
    nd3 = np.array([[[0, 1, 2]], [[2, 3, 4]]])
    close(ivy.gather_nd(t(p), t(nd3, tf.int32)), p[nd3[..., 0], nd3[..., 1], nd3[..., 2]], 0)
    bnd = r.integers(0, 4, size=(3, 2, 1))
    close(ivy.gather_nd(t(p), t(bnd, tf.int64), batch_dims=1), np.stack([p[b][bnd[b, :, 0]] for b in range(3)]), 0)


QUERIES = [
    (slice(None, None, -1),),
    (1, slice(None, None, -2)),
    (Ellipsis, slice(3, 0, -2)),
    (None, 0, slice(None), slice(None, None, -1)),
    (0, [1, 2]),
    ([0, 1], [1, 2]),
    (slice(None), [0, 2], [1, 3]),
    ([1], Ellipsis, [0, 3]),
    ([[0], [1]], slice(None), [0, 1]),
    (0, slice(None), np.array([True, False, True, False])),
    (np.arange(24.0).reshape(2, 3, 4)[..., 0] > 5,),
    (np.arange(24.0).reshape(2, 3, 4)[..., 0] > 5, slice(None, None, -1)),
    (None, [1, -1]),
    (True,),
]


def test_tensorflow_get_item_set_item_vs_numpy():
    a = np.arange(24.0).reshape(2, 3, 4)
    x = t(a)
    for q in QUERIES:
        tq = tuple(t(e, tf.bool) if isinstance(e, np.ndarray) and e.dtype == bool else e for e in q)
        got = ivy.get_item(x, tq)
        assert tuple(got.shape) == a[q].shape, q
        close(got, a[q], 0)
        want = a.copy()
        want[q] = -1.0
        close(ivy.set_item(x, tq, -1.0), want, 0)
        close(x, a, 0)  # not modified
    for q, val in (((0, slice(1, 3)), 7.0), ((Ellipsis, slice(None, None, -2)), np.array([-1.0, -2.0])), ((1, slice(2, None, -1), 0), np.array([5.0, 6.0, 7.0]))):
        want = a.copy()
        want[q] = val
        close(ivy.set_item(x, q, t(val) if isinstance(val, np.ndarray) else val), want, 0)
    close(ivy.set_item(x, t(a > 20, tf.bool), 0.0), np.where(a > 20, 0.0, a), 0)
    ints = ivy.set_item(t([1, 2, 3], tf.int32), slice(0, 2), t([7.9, 8.2]))
    assert ints.dtype == tf.int32
    close(ints, [7, 8, 3], 0)
    # set_item is differentiable in x and in val
    _, g, _ = ivy.value_and_grad_flat(
        lambda ls: tf.reduce_sum(ivy.set_item(ls[0], (slice(0, 1),), ls[1] * 3.0) ** 2), [t([1.0, 2.0, 3.0]), t(2.0)]
    )
    close(g[0], [0.0, 4.0, 6.0])
    close(g[1], 36.0)


def test_tensorflow_inplace_update():
    v = ivy.variable(t(np.zeros((2, 2))))
    out = ivy.inplace_update(v, t([1.0, 2.0]))
    assert out is v
    close(v, [[1.0, 2.0], [1.0, 2.0]], 0)
    assert ivy.inplace_update(v, 5) is v
    close(v, np.full((2, 2), 5.0), 0)
    with pytest.raises(TypeError, match="immutable"):
        ivy.inplace_update(t([1.0]), 2.0)


def test_tensorflow_cumsum_cumprod_vs_numpy():
    r = rng(35)
    a = r.normal(size=(3, 4))
    for axis in (0, 1, -1):
        for excl in (False, True):
            for rev in (False, True):
                for fn, npfn, one in ((ivy.cumsum, np.cumsum, 0.0), (ivy.cumprod, np.cumprod, 1.0)):
                    b = np.flip(a, axis) if rev else a
                    want = npfn(b, axis=axis)
                    if excl:
                        first = np.full_like(np.take(want, [0], axis=axis), one)
                        want = np.concatenate([first, np.delete(want, -1, axis=axis)], axis=axis)
                    if rev:
                        want = np.flip(want, axis)
                    close(fn(t(a), axis, exclusive=excl, reverse=rev), want, 1e-12)
    assert ivy.cumsum(t([1, 2, 3], tf.int8)).dtype == tf.int64
    assert ivy.cumsum(t([True, True], tf.bool)).dtype == tf.int64
    close(ivy.cumsum(t([1, 2, 3], tf.int32), dtype="float64"), [1.0, 3.0, 6.0], 0)
    u = ivy.cumsum(t([1, 2], tf.uint8))
    assert u.dtype == tf.uint64
    close(u, [1, 3], 0)
    close(ivy.cumprod(t([1j, 2.0], tf.complex128)), [1j, 2j], 0)


def test_tensorflow_pad_vs_numpy():
    a = np.arange(12.0).reshape(3, 4)
    for pw in (1, (1, 2), ((0, 1), (2, 0)), ((3, 1), (5, 4))):
        np_pw = pw if not isinstance(pw, tuple) or isinstance(pw[0], tuple) else [pw] * 2
        for mode in ("constant", "reflect", "symmetric", "edge", "wrap"):
            kw = {"constant_values": 7.0} if mode == "constant" else {}
            got = ivy.pad(t(a), pw, mode=mode, **({"value": 7.0} if mode == "constant" else {}))
            close(got, np.pad(a, np_pw, mode=mode, **kw), 0)
    b = ivy.pad(t([[True]], tf.bool), 1)
    assert b.dtype == tf.bool and tuple(b.shape) == (3, 3) and int(tf.reduce_sum(tf.cast(b, tf.int32))) == 1
    ints = ivy.pad(t([1, 2], tf.int32), (2, 1), value=-1)
    assert ints.dtype == tf.int32
    close(ints, [-1, -1, 1, 2, -1], 0)
    with pytest.raises(ValueError):
        ivy.pad(t(a), ((1, 1),))


def test_tensorflow_top_k_split_flatten_transpose_cast():
    r = rng(36)
    a = r.permutation(20).reshape(4, 5).astype(np.float64)
    v, i = ivy.top_k(t(a), 3)
    close(v, -np.sort(-a, axis=-1)[:, :3], 0)
    close(np.take_along_axis(a, npa(i), -1), npa(v), 0)
    assert i.dtype == tf.int64
    v, i = ivy.top_k(t(a), 2, axis=0, largest=False)
    close(v, np.sort(a, axis=0)[:2], 0)
    close(np.take_along_axis(a, npa(i), 0), npa(v), 0)
    for dt in (tf.int8, tf.uint8, tf.int64, tf.uint64):
        iv, _ = ivy.top_k(t(np.array([[0, 127, 5, 3]]), dt), 2, largest=False)
        close(iv, [[0, 3]], 0)
    iv, _ = ivy.top_k(t(np.array([[-128, 127, 5]]), tf.int8), 1, largest=False)  # no overflow
    close(iv, [[-128]], 0)
    parts = ivy.split(t(np.arange(7.0)), 3, with_remainder=True)
    assert [int(p.shape[0]) for p in parts] == [2, 2, 2, 1]
    assert [int(p.shape[1]) for p in ivy.split(t(a), [1, 4], axis=1)] == [1, 4]
    assert len(ivy.split(t(a))) == 4
    with pytest.raises(ValueError):
        ivy.split(t(np.arange(7.0)), 3)
    b = np.arange(24.0).reshape(2, 3, 4)
    x = t(b)
    assert tuple(ivy.flatten(x).shape) == (24,)
    assert tuple(ivy.flatten(x, start_dim=1).shape) == (2, 12)
    close(ivy.flatten(x, start_dim=0, end_dim=1), b.reshape(6, 4), 0)
    assert tuple(ivy.flatten(t(3.0)).shape) == (1,)
    with pytest.raises(ValueError):
        ivy.flatten(x, start_dim=2, end_dim=0)
    close(ivy.transpose(x), b.T, 0)
    close(ivy.transpose(x, (1, 0, 2)), b.transpose(1, 0, 2), 0)
    c = ivy.cast(x, "int32")
    assert c.dtype == tf.int32
    with pytest.raises(TypeError):
        ivy.cast(t([1j], tf.complex64), "float32")


# ============================================ core's compositions on this backend's namespace


def _composed(name):
    from ivy._compose import load_defaults

    return lambda *a, **k: load_defaults()[name](xp, *a, **k)


def test_tensorflow_composed_layers_and_losses_on_this_backend():
    """The ops this plugin leaves to core (batch/group norm, lstm, mha, losses...) run on it."""
    r = rng(40)
    x = r.normal(size=(4, 3, 3, 2))  # NHWC, c = 2
    mean, var = r.normal(size=(2,)), r.uniform(0.5, 2, size=(2,))
    sc, of = r.normal(size=(2,)), r.normal(size=(2,))
    y, m, v = ivy.batch_norm(t(x), t(mean), t(var), offset=t(of), scale=t(sc), training=True, momentum=0.2)
    bm, bv = x.mean(axis=(0, 1, 2)), x.var(axis=(0, 1, 2))
    close(y, (x - bm) / np.sqrt(bv + 1e-5) * sc + of)
    close(m, 0.8 * mean + 0.2 * bm)
    close(v, 0.8 * var + 0.2 * x.var(axis=(0, 1, 2), ddof=1))
    g = r.normal(size=(2, 3, 4, 6))
    gg = g.reshape(2, 3, 4, 3, 2)
    want = ((gg - gg.mean(axis=(1, 2, 4), keepdims=True)) / np.sqrt(gg.var(axis=(1, 2, 4), keepdims=True) + 1e-5)).reshape(g.shape)
    close(ivy.group_norm(t(g), 3), want)
    B_, T, I, H = 2, 5, 3, 4
    xs, h0, c0 = r.normal(size=(B_, T, I)), r.normal(size=(B_, H)), r.normal(size=(B_, H))
    k, rk, b, rb = r.normal(size=(I, 4 * H)) * 0.5, r.normal(size=(H, 4 * H)) * 0.5, r.normal(size=(4 * H,)), r.normal(size=(4 * H,))
    hs, (h, c) = ivy.lstm_update(t(xs), t(h0), t(c0), t(k), t(rk), bias=t(b), recurrent_bias=t(rb))
    whs, wh, wc = _np_lstm(xs, h0, c0, k, rk, b, rb)
    close(hs, whs)
    close(h, wh)
    close(c, wc)
    img = r.normal(size=(1, 5, 6, 2))
    close(ivy.adaptive_avg_pool2d(t(img), 1), img.mean(axis=(1, 2), keepdims=True), 1e-12)
    q = r.normal(size=(2, 5, 6))
    wq, wk, wv, wo = (r.normal(size=(6, 6)) for _ in range(4))
    got = ivy.multi_head_attention(t(q), num_heads=2, q_weight=t(wq), k_weight=t(wk), v_weight=t(wv), out_weight=t(wo))

    def heads(a):
        return a.reshape(2, 5, 2, 3).transpose(0, 2, 1, 3)

    o = _np_attention(heads(q @ wq), heads(q @ wk), heads(q @ wv))
    close(got, o.transpose(0, 2, 1, 3).reshape(2, 5, 6) @ wo)
    yt, yp = r.normal(size=(4, 3)), r.normal(size=(4, 3))
    close(ivy.mse_loss(t(yt), t(yp)), np.mean((yp - yt) ** 2))
    d = np.abs(yp - yt)
    close(ivy.huber_loss(t(yt), t(yp), delta=0.7, reduction="sum"), np.sum(np.where(d <= 0.7, 0.5 * d**2, 0.7 * (d - 0.35))))
    p = special.softmax(yp, -1)
    close(ivy.sparse_cross_entropy(t([0, 2, 1, 1], tf.int64), t(p)), np.mean(-np.log(p[np.arange(4), [0, 2, 1, 1]])))
    a = np.array([[3.0, 4.0], [0.0, 1.0]])
    close(ivy.clip_vector_norm(t(a), 2.0), a * 2.0 / np.linalg.norm(a))


def test_tensorflow_core_compositions_run_on_this_backend():
    """The defaults this plugin overrides still work on its namespace (they are what a fallback
    gets): proves the ops they need from the plugin (erf, dev, dropout, bernoulli...) behave."""
    r = rng(50)
    a = np.linspace(-4, 4, 17)
    close(_composed("gelu")(t(a)), ACTS["gelu"](a), 1e-12)
    close(_composed("erf")(t(a)), special.erf(a), 1e-12)
    close(_composed("mish")(t(a)), ACTS["mish"](a), 1e-12)
    close(_composed("softplus")(t(a)), ACTS["softplus"](a), 1e-12)
    x = r.normal(size=(2, 3, 4))
    close(_composed("softmax")(t(x), axis=1), special.softmax(x, axis=1), 1e-12)
    close(_composed("layer_norm")(t(x), -1), _np_layer_norm(x, (-1,)), 1e-12)
    m2 = np.arange(12.0).reshape(3, 4)
    for mode in ("constant", "reflect", "edge", "wrap"):
        close(_composed("pad")(t(m2), ((1, 2), (2, 1)), mode=mode), np.pad(m2, ((1, 2), (2, 1)), mode=mode), 0)
    close(_composed("one_hot")(t([2, 0, 5], tf.int64), 3), [[0, 0, 1], [1, 0, 0], [0, 0, 0]], 0)
    q, kk, vv = r.normal(size=(2, 4, 8)), r.normal(size=(2, 4, 8)), r.normal(size=(2, 4, 3))
    close(_composed("scaled_dot_product_attention")(t(q), t(kk), t(vv), is_causal=True), _np_attention(q, kk, vv, causal=True), 1e-12)
    ivy.seed(0, backend="tensorflow")
    dropped = _composed("scaled_dot_product_attention")(t(q), t(kk), t(vv), dropout_p=0.5)
    assert tuple(dropped.shape) == (2, 4, 3) and bool(tf.reduce_all(tf.math.is_finite(dropped)))
    dc = npa(_composed("dropout")(tf.ones(4000, dtype=tf.float64), 0.5, seed=1))
    assert set(np.unique(dc).tolist()) <= {0.0, 2.0} and abs((dc == 0).mean() - 0.5) < 0.05
    close(_composed("cumsum")(t(m2), 1, exclusive=True, reverse=True), np.flip(np.cumsum(np.flip(m2, 1), 1), 1) - m2, 1e-12)
    v_, _ = _composed("top_k")(t(m2), 2)
    close(v_, m2[:, ::-1][:, :2], 0)
    p = r.normal(size=(3, 4, 5))
    close(_composed("gather")(t(p), t([[1, 3]], tf.int64), axis=1), np.take(p, [[1, 3]], axis=1), 0)
    close(_composed("gather_nd")(t(p), t([[0, 1], [2, 2]], tf.int64)), p[[0, 2], [1, 2]], 0)
    close(_composed("embedding")(t(p[0]), t([3, 0], tf.int64)), p[0][[3, 0]], 0)
    assert [int(s_.shape[0]) for s_ in _composed("split")(t(np.arange(5.0)), 2, with_remainder=True)] == [2, 2, 1]
    close(_composed("flatten")(t(p), start_dim=1), p.reshape(3, 20), 0)


# =================================================================================== compile


def _f(x, y):
    return tf.sin(x) * y + ivy.softmax(x, axis=-1) + ivy.conv1d(x[None, :, :, None] * 0 + x[None, :, :, None], tf.ones((1, 1, 1), x.dtype), 1, "VALID")[0, :, :, 0] * 0


def test_tensorflow_compile_matches_eager():
    r = rng(60)
    x, y = t(r.normal(size=(3, 4))), t(r.normal(size=(3, 4)))
    want = np.sin(npa(x)) * npa(y) + special.softmax(npa(x), axis=-1)
    eager = npa(_f(x, y))
    compiled = ivy.compile(_f)
    close(compiled(x, y), eager, 1e-12)
    close(compiled(x, y), want, 1e-12)
    close(compiled(x * 2, y), np.sin(2 * npa(x)) * npa(y) + special.softmax(2 * npa(x), axis=-1), 1e-12)
    hook = ivy._registry.plugin_manager().hook.ivy_compile
    fn = hook(backend="tensorflow", fn=_f, options={"jit_compile": False})
    assert isinstance(fn, tf.types.experimental.PolymorphicFunction)
    close(fn(x, y), eager, 1e-12)


def test_tensorflow_compile_hook_only_for_tensorflow_and_options_pass_through():
    from ivy_tensorflow._compile import ivy_compile

    assert ivy_compile(backend="numpy", fn=_f, options={}) is None
    sig = [tf.TensorSpec([None], tf.float64)]
    fn = ivy_compile(backend="tensorflow", fn=lambda a: tf.cos(a) * 2, options={"input_signature": sig, "reduce_retracing": True})
    x = t(np.linspace(0, 1, 5))
    close(fn(x), 2 * np.cos(np.linspace(0, 1, 5)), 1e-12)
    with pytest.raises((TypeError, ValueError)):
        fn(t([1, 2], tf.int32))  # the input signature was passed through


def test_tensorflow_compile_gradients_random_and_nn_inside_tf_function():
    r = rng(61)
    w0, xs = r.normal(size=(3, 2)), r.normal(size=(4, 3))

    def step(w, x):
        loss, g = ivy.execute_with_gradients(lambda p: tf.reduce_sum(ivy.gelu(x @ p) ** 2), w)
        return loss, g, ivy.max_pool1d(x[None, :, :], 2, 1, "SAME"), ivy.random_uniform(shape=(2,), seed=3, backend="tensorflow")

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


def test_tensorflow_registered_device_kind(monkeypatch):
    """A third-party device kind registered for tensorflow (ivy_register_devices) is listed, accepted by
    to_device and creation and mapped to its native device; unregistered kinds still raise."""
    from ivy.plugin import DeviceKind

    cpu = "/device:CPU:0"
    dk = DeviceKind(backend="tensorflow", kind="vdev", list_devices=lambda: ["vdev:0"], to_native=lambda s: cpu,
                    from_native=lambda n: None)
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
