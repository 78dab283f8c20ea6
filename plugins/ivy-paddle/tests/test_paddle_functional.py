"""The paddle backend's issue-3 functional API: gradients, random, devices, nn, general, compile.

Every number is checked against an independent reference (finite differences, torch.autograd,
torch.nn.functional, NumPy / SciPy implementations written here, np.einsum, np.add.at...), never
against the backend's own output. tensorflow is never imported here (paddle segfaults after it).

    PYTHONPATH=ivy_core/src python -m pytest plugins/ivy-paddle/tests/test_paddle_functional.py -q
"""

from __future__ import annotations

import math

import numpy as np
import ivy.plugin_kit._devices as _kit_devices
import pytest

ivy = pytest.importorskip("ivy")
if "gradients" not in getattr(__import__("ivy._spec", fromlist=["CATEGORIES"]), "CATEGORIES", ()):
    pytest.skip("this ivy-core predates the functional API (issue 3)", allow_module_level=True)
if "tensorflow" in __import__("sys").modules:  # pragma: no cover - paddle would crash
    pytest.skip("tensorflow is imported in this process: paddle cannot load after it", allow_module_level=True)

xp = ivy.backend_namespace("paddle")  # imports paddle quietly
import paddle  # noqa: E402
from scipy import signal, special, stats  # noqa: E402

torch = pytest.importorskip("torch")  # an independent autodiff and conv reference
import torch.nn.functional as TF  # noqa: E402
from ivy.testing._helpers.nn_reference import (  # noqa: E402
    CONV,
    FMT,
    _norm,
    same_pads,
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

B = ivy._registry.get_backend("paddle")


def _ngpu():
    try:
        return paddle.device.cuda.device_count() if paddle.is_compiled_with_cuda() else 0
    except Exception:
        return 0


NGPU = _ngpu()
no_gpu = pytest.mark.skipif(NGPU == 0, reason="no GPU visible to paddle (CPU build or no device)")


def t(a, dtype="float64"):
    return paddle.to_tensor(np.asarray(a), dtype=dtype)


def npa(x):
    return x.detach().cpu().numpy() if isinstance(x, torch.Tensor) else x.numpy()


def close(got, want, tol=1e-10):
    np.testing.assert_allclose(npa(got) if isinstance(got, (paddle.Tensor, torch.Tensor)) else got, want, rtol=tol, atol=tol)


def rng(seed=0):
    return np.random.default_rng(seed)


# ================================================================================== gradients


def _loss_p(ls):
    a, b = ls
    return paddle.sum(paddle.sin(a) * b**2) + paddle.sum(a**3)


def test_paddle_value_and_grad_flat_vs_finite_differences_and_torch():
    r = rng(1)
    a, b = r.normal(size=(3, 2)), r.normal(size=(3, 2))
    value, grads, aux = ivy.value_and_grad_flat(_loss_p, [t(a), t(b)])
    assert aux is None
    close(value, _loss_np([a, b]))
    for g, want in zip(grads, fd_grad(_loss_np, [a, b])):
        assert list(g.shape) == [3, 2] and g.dtype == paddle.float64
        close(g, want, 1e-6)
    assert value.stop_gradient and all(g.stop_gradient for g in grads)
    ta = torch.tensor(a, requires_grad=True)
    tb = torch.tensor(b, requires_grad=True)
    (torch.sum(torch.sin(ta) * tb**2) + torch.sum(ta**3)).backward()
    close(grads[0], npa(ta.grad), 1e-12)
    close(grads[1], npa(tb.grad), 1e-12)


def test_paddle_value_and_grad_flat_aux_unused_and_errors():
    x, unused = t([1.0, 2.0]), t([[5.0]])
    value, grads, aux = ivy.value_and_grad_flat(lambda ls: ((ls[0] ** 2).sum(), {"n": ls[0].shape[0]}), [x, unused], has_aux=True)
    close(value, 5.0)
    close(grads[0], [2.0, 4.0])
    close(grads[1], [[0.0]])  # no dependence: zeros of that shape
    assert aux == {"n": 2}
    with pytest.raises(ValueError):
        ivy.value_and_grad_flat(lambda ls: ls[0] * 2, [x])
    # a function of none of its inputs: zero gradients
    _, g, _ = ivy.value_and_grad_flat(lambda ls: paddle.to_tensor(3.0, dtype="float64"), [x])
    close(g[0], [0.0, 0.0])
    assert x.stop_gradient  # the input itself is left alone


def test_paddle_value_and_grad_flat_on_variables_detaches():
    v = ivy.variable(t([1.0, 2.0, 3.0]))
    value, grads, aux = ivy.value_and_grad_flat(lambda ls: ((ls[0] ** 2).sum(), ls[0] * 3), [v], has_aux=True)
    close(value, 14.0)
    close(grads[0], [2.0, 4.0, 6.0])
    assert value.stop_gradient and grads[0].stop_gradient and aux.stop_gradient
    close(aux, [3.0, 6.0, 9.0])
    assert v.grad is None  # paddle.grad does not accumulate into .grad


def test_paddle_execute_with_gradients_nest():
    r = rng(2)
    w, b = r.normal(size=(4, 3)), r.normal(size=(3,))
    xs = r.normal(size=(5, 4))

    def loss_np(ls):
        return float(np.mean(np.tanh(xs @ ls[0] + ls[1]) ** 2))

    params = {"w": ivy.variable(t(w)), "b": ivy.variable(t(b))}
    X = t(xs)

    def loss(p):
        y = paddle.tanh(X @ p["w"] + p["b"])
        return paddle.mean(y**2), y.shape[0]

    value, grads, extra = ivy.execute_with_gradients(loss, params)
    close(value, loss_np([w, b]))
    gw, gb = fd_grad(loss_np, [w, b])
    close(grads["w"], gw, 1e-6)
    close(grads["b"], gb, 1e-6)
    assert extra == 5
    _, _, y_out = ivy.execute_with_gradients(lambda p: (paddle.sum(p["w"]), p["w"] * 2), params)
    assert y_out.stop_gradient  # extra outputs: history stopped
    close(y_out, 2 * w)


def test_paddle_grad_value_and_grad_and_second_order():
    def f(x):
        return paddle.sum(x**3 * paddle.exp(-x))

    x0 = np.array([0.3, -1.2, 2.0])
    g = ivy.grad(f)(t(x0))
    close(g, 3 * x0**2 * np.exp(-x0) - x0**3 * np.exp(-x0), 1e-10)
    (v, aux), g2 = ivy.value_and_grad(lambda x, y: (paddle.sum(x * y), "aux"), argnums=(0, 1), has_aux=True)(t(x0), t(2 * x0))
    assert aux == "aux"
    close(v, np.sum(2 * x0 * x0))
    close(g2[0], 2 * x0)
    close(g2[1], x0)
    # grad of grad: the second derivative, elementwise (f is separable)
    h = ivy.grad(lambda x: paddle.sum(ivy.grad(f)(x)))(t(x0))
    close(h, (6 * x0 - 6 * x0**2 + x0**3) * np.exp(-x0), 1e-10)
    assert h.stop_gradient


def test_paddle_transforms_compose_hessian_vector_product():
    def f(x):
        return paddle.sum(paddle.tanh(x) * x**2)

    x0, v0 = np.array([0.5, -1.0, 2.0]), np.array([1.0, 0.5, -2.0])
    tx = torch.tensor(x0)
    hdiag = npa(torch.autograd.functional.hessian(lambda z: torch.sum(torch.tanh(z) * z**2), tx)).diagonal()
    _, vjp_fn = ivy.vjp(ivy.grad(f), t(x0))  # reverse over reverse
    close(vjp_fn(t(v0))[0], hdiag * v0, 1e-10)
    close(ivy.jacobian(ivy.grad(f), t(x0)), np.diag(hdiag), 1e-10)
    _, hvp = ivy.jvp(ivy.grad(f), [t(x0)], [t(v0)])  # forward over reverse
    close(hvp, hdiag * v0, 1e-10)


def test_paddle_native_ops_present():
    want = {
        "variable", "is_variable", "stop_gradient", "value_and_grad_flat", "vjp", "jvp", "jacobian",
        "seed", "random_uniform", "random_normal", "randint", "multinomial", "shuffle", "bernoulli",
        "dev", "to_device", "default_device", "devices", "num_gpus", "gpu_is_available",
        "conv1d", "conv2d", "conv3d", "conv1d_transpose", "conv2d_transpose", "conv3d_transpose",
        "depthwise_conv2d", "max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d",
        "avg_pool3d", "erf", "scatter_nd", "scatter_flat", "set_item", "inplace_update", "einsum",
        # overrides of compositions
        "relu", "gelu", "softmax", "log_softmax", "layer_norm", "linear", "pad", "gather", "gather_nd",
        "top_k", "cumsum", "one_hot", "embedding", "dropout", "split", "flatten", "transpose", "cast",
        "get_item", "adaptive_avg_pool2d", "group_norm", "huber_loss", "batch_norm", "selu",
    }
    assert want <= set(B.native_ops), sorted(want - set(B.native_ops))
    from ivy._registry import signature_mismatch

    assert {n: m for n in B.native_ops if (m := signature_mismatch(n, B.ops[n]))} == {}


def test_paddle_vjp_jvp_jacobian_vs_finite_differences_and_torch():
    r = rng(3)
    A = r.normal(size=(2, 3))
    x0 = r.normal(size=(3,))

    def f_np(x):
        return np.tanh(A @ x) * x[:2]

    def f(x):
        return paddle.tanh(t(A) @ x) * x[:2]

    J = fd_jac(f_np, x0)
    Jt = npa(torch.autograd.functional.jacobian(lambda z: torch.tanh(torch.tensor(A) @ z) * z[:2], torch.tensor(x0)))
    close(Jt, J, 1e-6)
    out, vjp_fn = ivy.vjp(f, t(x0))
    close(out, f_np(x0))
    ct = r.normal(size=(2,))
    (g,) = vjp_fn(t(ct))
    close(g, ct @ Jt, 1e-12)
    (g_again,) = vjp_fn(t(ct))  # the graph is kept for further calls
    close(g_again, ct @ Jt, 1e-12)
    tan = r.normal(size=(3,))
    out2, tout = ivy.jvp(f, [t(x0)], [t(tan)])
    close(out2, f_np(x0))
    close(tout, Jt @ tan, 1e-12)
    jac = ivy.jacobian(f, t(x0))
    assert list(jac.shape) == [2, 3]
    close(jac, Jt, 1e-12)
    close(ivy.jac(f)(t(x0)), J, 1e-6)


def test_paddle_vjp_jvp_tuple_outputs_and_multiple_primals():
    a, b = t([1.0, 2.0]), t([3.0, 4.0])
    out, fn = ivy.vjp(lambda x, y: (x * y, x + y), a, b)
    assert isinstance(out, tuple) and len(out) == 2
    ga, gb = fn((t([1.0, 1.0]), t([2.0, 0.0])))
    close(ga, [3.0 + 2.0, 4.0])
    close(gb, [1.0 + 2.0, 2.0])
    outs, touts = ivy.jvp(lambda x, y: (x * y, x + y), [a, b], [t([1.0, 0.0]), t([0.0, 1.0])])
    close(outs[0], [3.0, 8.0])
    close(touts[0], [3.0, 2.0])  # y dx + x dy
    close(touts[1], [1.0, 1.0])
    # a linear function (its vjp does not depend on the primal) and a constant output
    _, tl = ivy.jvp(lambda x: 3.0 * x, [a], [t([1.0, 2.0])])
    close(tl, [3.0, 6.0])
    _, tc = ivy.jvp(lambda x: paddle.ones([2], dtype="float64"), [a], [t([1.0, 2.0])])
    close(tc, [0.0, 0.0])


def test_paddle_jacobian_argnums_and_errors():
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
        ivy.jvp(lambda a: a, [x], [y])
    with pytest.raises(ValueError):
        ivy.jvp(lambda a: a, [x], [x, x])
    # a matrix-valued function: shape output + input
    m = ivy.jacobian(lambda z: paddle.outer(z, z), t([1.0, 2.0]))
    assert list(m.shape) == [2, 2, 2]
    close(m[0, 1], [2.0, 1.0])


def test_paddle_variable_is_variable_stop_gradient():
    x = t([1.0, 2.0])
    assert not ivy.is_variable(x)
    v = ivy.variable(x)
    assert not v.stop_gradient and v.is_leaf and x.stop_gradient
    assert ivy.is_variable(v) and ivy.is_variable(v, exclusive=True)
    assert ivy.variable(v) is v
    y = v * 2
    assert ivy.is_variable(y) and not ivy.is_variable(y, exclusive=True)
    w = ivy.variable(y)  # has history: a fresh leaf
    assert w.is_leaf and not w.stop_gradient
    close(w, [2.0, 4.0])
    assert not ivy.is_variable(3.0, backend="paddle")
    _, grads, _ = ivy.value_and_grad_flat(lambda ls: paddle.sum(ls[0] * ivy.stop_gradient(ls[0])), [t([3.0])])
    close(grads[0], [3.0])  # the stopped factor is a constant
    assert ivy.stop_gradient(v).stop_gradient


def test_paddle_optimizer_updates_vs_numpy():
    r = rng(4)
    w, g = r.normal(size=(3,)), r.normal(size=(3,))
    m, v = np.zeros(3), np.zeros(3)
    nw, nm, nv = ivy.adam_update({"w": t(w)}, {"w": t(g)}, 0.1, {"w": t(m)}, {"w": t(v)}, 1)
    m1 = 0.1 * g
    v1 = 0.001 * g * g
    close(nw["w"], w - 0.1 * (m1 / 0.1) / (np.sqrt(v1 / 0.001) + 1e-7))
    close(nm["w"], m1)
    close(nv["w"], v1)
    close(ivy.gradient_descent_update([t(w)], [t(g)], 0.5)[0], w - 0.5 * g)


def test_paddle_training_loop_with_gradients_and_adam():
    """A small least-squares fit: ivy.execute_with_gradients + ivy.adam_update converge."""
    r = rng(5)
    X = r.normal(size=(32, 3))
    w_true = np.array([1.5, -2.0, 0.5])
    y = X @ w_true
    params = {"w": ivy.variable(t(np.zeros(3)))}
    mw, vw = {"w": t(np.zeros(3))}, {"w": t(np.zeros(3))}
    tx, ty = t(X), t(y)
    for step in range(1, 301):
        _, grads = ivy.execute_with_gradients(lambda p: paddle.mean((tx @ p["w"] - ty) ** 2), params)
        params, mw, vw = ivy.adam_update(params, grads, 0.05, mw, vw, step)
    close(params["w"], w_true, 1e-3)


def test_paddle_plugin_import_is_framework_free():
    import os
    import subprocess
    import sys

    code = "import sys, ivy_paddle; assert 'paddle' not in sys.modules, 'paddle imported'; print(ivy_paddle.ivy_compile)"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr


# ===================================================================================== random


def test_paddle_seed_reproducible_and_per_call_seed_keeps_global_state():
    ivy.seed(7, backend="paddle")
    a = npa(ivy.random_uniform(shape=(5,), backend="paddle"))
    b = npa(ivy.random_normal(shape=(5,), backend="paddle"))
    ivy.seed(7, backend="paddle")
    close(ivy.random_uniform(shape=(5,), backend="paddle"), a, 0)
    close(ivy.random_normal(shape=(5,), backend="paddle"), b, 0)
    # a per-call seed is reproducible and leaves the global state alone
    ivy.seed(3, backend="paddle")
    ref = npa(paddle.rand([4]))
    ivy.seed(3, backend="paddle")
    s1 = npa(ivy.random_uniform(shape=(4,), seed=11, backend="paddle"))
    close(paddle.rand([4]), ref, 0)
    close(ivy.random_uniform(shape=(4,), seed=11, backend="paddle"), s1, 0)
    assert not np.array_equal(s1, npa(ivy.random_uniform(shape=(4,), seed=12, backend="paddle")))
    for fn in (
        lambda s: ivy.random_normal(shape=(3,), seed=s, backend="paddle"),
        lambda s: ivy.randint(0, 100, (3,), seed=s, backend="paddle"),
        lambda s: ivy.multinomial(10, 4, replace=False, seed=s, backend="paddle"),
        lambda s: ivy.shuffle(paddle.arange(10), seed=s),
        lambda s: ivy.bernoulli(0.5, shape=(8,), seed=s, backend="paddle"),
        lambda s: ivy.dropout(paddle.ones([8]), 0.5, seed=s),
    ):
        close(fn(5), npa(fn(5)), 0)


def test_paddle_random_uniform_distribution():
    x = ivy.random_uniform(low=-2.0, high=3.0, shape=(20000,), seed=0, backend="paddle")
    assert x.dtype == paddle.float32 and list(x.shape) == [20000]
    a = npa(x).astype(np.float64)
    assert a.min() >= -2.0 and a.max() < 3.0
    assert stats.kstest(a, stats.uniform(loc=-2.0, scale=5.0).cdf).pvalue > 1e-3
    assert abs(a.mean() - 0.5) < 0.05 and abs(a.var() - 25 / 12) < 0.08
    # array bounds broadcast; dtype and shape from them
    lo, hi = t([0.0, 10.0]), t([[1.0, 20.0]] * 3)
    y = ivy.random_uniform(low=lo, high=hi, dtype="float64", seed=1)
    assert list(y.shape) == [3, 2] and y.dtype == paddle.float64
    assert bool(((y >= lo) & (y < hi)).all())
    assert list(ivy.random_uniform(backend="paddle").shape) == []


def test_paddle_random_normal_distribution():
    x = npa(ivy.random_normal(mean=1.5, std=2.0, shape=(20000,), dtype="float64", seed=1, backend="paddle"))
    assert abs(x.mean() - 1.5) < 0.06 and abs(x.std() - 2.0) < 0.06
    assert stats.kstest(x, stats.norm(loc=1.5, scale=2.0).cdf).pvalue > 1e-3
    y = ivy.random_normal(mean=t([0.0, 100.0]), std=1.0, seed=2)
    assert list(y.shape) == [2] and abs(float(y[1]) - 100.0) < 6


def test_paddle_randint():
    x = ivy.randint(-3, 4, (5000,), seed=0, backend="paddle")
    assert x.dtype == paddle.int64
    assert set(npa(x).tolist()) == set(range(-3, 4))
    assert stats.chisquare(np.bincount(npa(x) + 3)).pvalue > 1e-3
    y = ivy.randint(t([0, 100], "int64"), t([2, 105], "int64"), (1000, 2), dtype="int32", seed=1)
    assert y.dtype == paddle.int32
    a = npa(y)
    assert set(a[:, 0].tolist()) == {0, 1} and set(a[:, 1].tolist()) == set(range(100, 105))
    assert abs(a[:, 1].mean() - 102) < 0.2
    assert ivy.randint(0, 5, (4,), dtype="int8", seed=0, backend="paddle").dtype == paddle.int8
    with pytest.raises(ValueError):
        ivy.randint(3, 3, (2,), backend="paddle")


def test_paddle_multinomial():
    x = npa(ivy.multinomial(5, 6, batch_size=3, seed=0, backend="paddle"))
    assert x.shape == (3, 6) and x.min() >= 0 and x.max() < 5
    probs = t([[0.0, 1.0, 3.0]] * 2, "float32")
    y = npa(ivy.multinomial(3, 4000, probs=probs, seed=1))
    assert y.shape == (2, 4000) and (y != 0).all()
    assert abs((y == 2).mean() - 0.75) < 0.03
    z = npa(ivy.multinomial(10, 10, batch_size=4, replace=False, seed=2, backend="paddle"))
    assert all(sorted(row) == list(range(10)) for row in z.tolist())


def test_paddle_shuffle_and_bernoulli():
    x = paddle.arange(12).reshape([3, 4])
    s = npa(ivy.shuffle(x, 1, seed=3))
    assert sorted(s[0].tolist()) == [0, 1, 2, 3]
    np.testing.assert_array_equal(s - s[:, :1], np.broadcast_to(s[0] - s[0, 0], (3, 4)))  # whole columns move
    sb = npa(ivy.shuffle(t([True, False, False], "bool"), seed=1))
    assert sb.dtype == np.bool_ and sorted(sb.tolist()) == [False, False, True]
    b = ivy.bernoulli(0.3, shape=(20000,), seed=0, backend="paddle")
    assert b.dtype == paddle.float32 and set(npa(b).tolist()) <= {0.0, 1.0}
    assert abs(npa(b).mean() - 0.3) < 0.015
    p = t([[0.0, 1.0, 0.5]] * 4000, "float32")
    c = npa(ivy.bernoulli(p, dtype="bool", seed=1))
    assert c.dtype == np.bool_ and not c[:, 0].any() and c[:, 1].all() and abs(c[:, 2].mean() - 0.5) < 0.03
    d = ivy.bernoulli(t([0.2, 0.9]), shape=(3, 2), dtype="int32", seed=2)
    assert list(d.shape) == [3, 2] and d.dtype == paddle.int32


def test_paddle_dropout():
    x = paddle.ones([20000], dtype="float64")
    y = npa(ivy.dropout(x, 0.25, seed=0))
    assert set(np.unique(y).tolist()) <= {0.0, 1.0 / 0.75}
    assert abs((y == 0).mean() - 0.25) < 0.015
    z = npa(ivy.dropout(x, 0.25, scale=False, seed=0))
    assert set(np.unique(z).tolist()) <= {0.0, 1.0}
    assert ivy.dropout(x, 0.5, training=False) is x
    ivy.seed(1, backend="paddle")
    g = npa(ivy.dropout(x, 0.3))  # the global generator: the scale is exactly 1 / 0.7 in float64
    assert set(np.unique(g).tolist()) <= {0.0, 1.0 / 0.7} and abs((g == 0).mean() - 0.3) < 0.02
    ivy.seed(1, backend="paddle")
    w = npa(ivy.dropout(x, 0.5))
    assert abs((w == 0).mean() - 0.5) < 0.02 and set(np.unique(w).tolist()) <= {0.0, 2.0}


# ===================================================================================== device


def test_paddle_device_cpu_round_trip():
    x = paddle.ones([3])
    assert ivy.dev(x) == "cpu"
    assert ivy.dev(x, as_native=True).is_cpu_place()
    for d in ("cpu", paddle.CPUPlace(), "CPU", x.place):
        y = ivy.to_device(x, d)
        assert ivy.dev(y) == "cpu" and y is x  # already there: no copy
    assert ivy.default_device(backend="paddle") == paddle.device.get_device()  # "cpu" / "gpu:0" both ways
    assert str(ivy.default_device(as_native=True, backend="paddle")) in ("Place(cpu)", "CPUPlace")
    devs = ivy.devices(backend="paddle")
    assert devs[0] == "cpu"
    assert ivy.num_gpus(backend="paddle") == NGPU
    assert ivy.gpu_is_available(backend="paddle") is (NGPU > 0)
    assert [d for d in devs if d.startswith("gpu:")] == [f"gpu:{i}" for i in range(NGPU)]


def test_paddle_to_device_errors():
    x = paddle.ones([2])
    with pytest.raises(ValueError):
        ivy.to_device(x, "nonsense:0")
    with pytest.raises(ValueError):
        ivy.to_device(x, f"gpu:{NGPU}")  # one past the last GPU (gpu:0 on a CPU-only machine)
    with pytest.raises(ValueError):
        ivy.to_device(x, f"cuda:{NGPU}")


@no_gpu
def test_paddle_device_gpu_round_trip():
    x = paddle.arange(4, dtype="float32").cpu()
    for d in ("gpu:0", "cuda:0", paddle.CUDAPlace(0)):
        y = ivy.to_device(x, d)
        assert ivy.dev(y) == "gpu:0" and y.place.is_gpu_place()
        assert ivy.dev(y, as_native=True).is_gpu_place()
        z = ivy.to_device(y, "cpu")
        assert ivy.dev(z) == "cpu"
        close(z, [0.0, 1.0, 2.0, 3.0], 0)
    u = ivy.random_uniform(shape=(3,), device="gpu:0", seed=1, backend="paddle")
    assert ivy.dev(u) == "gpu:0"
    g = ivy.to_device(paddle.ones([1, 5, 5, 2]), "gpu:0")
    c = ivy.conv2d(g, ivy.to_device(paddle.ones([3, 3, 2, 4]), "gpu:0"), 2, "SAME")
    assert ivy.dev(c) == "gpu:0" and list(c.shape) == [1, 3, 3, 4]
    assert ivy.dev(ivy.pad(ivy.to_device(paddle.ones([2]), "gpu:0"), 1)) == "gpu:0"


# =============================================================================== nn references


def cf(a, n=None):
    """channel-last -> channel-first (numpy)."""
    return np.moveaxis(a, -1, 1)


TCONV = {1: TF.conv1d, 2: TF.conv2d, 3: TF.conv3d}

CONV_CASES = [
    # n, spatial, kernel, strides, padding, dilations
    (1, (9,), (3,), 1, "VALID", 1),
    (1, (9,), (4,), 2, "SAME", 1),
    (1, (10,), (3,), 3, [(2, 0)], 2),
    (2, (7, 8), (3, 2), (2, 1), "SAME", 1),
    (2, (7, 8), (3, 3), 1, 1, (2, 1)),
    (2, (6, 6), (2, 3), (1, 2), [(0, 1), (2, 1)], 1),
    (2, (8, 7), (3, 3), 2, "VALID", 2),
    (3, (5, 6, 4), (2, 3, 2), (1, 2, 1), "SAME", 1),
    (3, (5, 5, 5), (3, 2, 2), 2, [(1, 1), (0, 2), (1, 0)], (1, 1, 2)),
]


def _torch_conv(x_cl, w, s, pads, d, groups=1):
    """torch.nn.functional reference on the same weights: NC* input, [out, in, *k] weights."""
    n = x_cl.ndim - 2
    xt = torch.tensor(cf(x_cl))
    flat = []
    for lo, hi in reversed(pads):
        flat += [lo, hi]
    xt = TF.pad(xt, flat)
    wt = torch.tensor(np.moveaxis(np.moveaxis(w, -1, 0), -1, 1))  # [*k, in, out] -> [out, in, *k]
    y = TCONV[n](xt, wt, None, s, 0, d, groups)
    return np.moveaxis(npa(y), 1, -1)


@pytest.mark.parametrize("case", CONV_CASES, ids=lambda c: f"{c[0]}d-{c[4]}-s{c[3]}-d{c[5]}")
@pytest.mark.parametrize("channel_first", [False, True])
def test_paddle_conv_vs_numpy_and_torch(case, channel_first):
    n, sp, K, strides, padding, dil = case
    r = rng(10)
    x = r.normal(size=(2, *sp, 3))
    w = r.normal(size=(*K, 3, 4))
    s, d = _norm(strides, n), _norm(dil, n)
    pads = _pads_of(padding, n, sp, [d[i] * (K[i] - 1) + 1 for i in range(n)], s)
    want = np_conv(x, w, s, pads, d)
    close(_torch_conv(x, w, s, pads, d), want, 1e-9)
    fmt = FMT[n][int(channel_first)]
    xin = cf(x) if channel_first else x
    got = getattr(ivy, CONV[n])(t(xin), t(w), strides, padding, data_format=fmt, dilations=dil)
    close(got, cf(want) if channel_first else want, 1e-9)


def test_paddle_conv2d_vs_scipy_and_float32():
    r = rng(11)
    img, ker = r.normal(size=(6, 7)), r.normal(size=(3, 2))
    got = ivy.conv2d(t(img[None, :, :, None]), t(ker[:, :, None, None]), 1, "VALID")
    close(got[0, :, :, 0], signal.correlate2d(img, ker, mode="valid"), 1e-10)
    x, w = r.normal(size=(2, 3, 8, 8)), r.normal(size=(3, 3, 3, 5))
    want = TF.conv2d(torch.tensor(x), torch.tensor(w).permute(3, 2, 0, 1), stride=2, padding=1)
    got32 = ivy.conv2d(t(x, "float32"), t(w, "float32"), 2, 1, data_format="NCHW")
    assert got32.dtype == paddle.float32
    close(got32, npa(want), 1e-4)


def test_paddle_conv_gradient_vs_finite_differences():
    r = rng(19)
    x, w = r.normal(size=(1, 5, 6, 2)), r.normal(size=(2, 3, 2, 2))

    def loss_np(ls):
        pads = same_pads((5, 6), (2, 3), (2, 2))
        return float(np.sum(np_conv(ls[0], ls[1], (2, 2), pads, (1, 1)) ** 2))

    _, g, _ = ivy.value_and_grad_flat(lambda ls: paddle.sum(ivy.conv2d(ls[0], ls[1], 2, "SAME") ** 2), [t(x), t(w)])
    gx, gw = fd_grad(loss_np, [x, w])
    close(g[0], gx, 1e-6)
    close(g[1], gw, 1e-6)


def test_paddle_conv_same_output_size_and_dtype():
    for size in range(5, 11):
        for s in (1, 2, 3):
            y = ivy.conv1d(paddle.ones([1, size, 2]), paddle.ones([4, 2, 3]), s, "SAME")
            assert list(y.shape) == [1, -(-size // s), 3] and y.dtype == paddle.float32


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
]


@pytest.mark.parametrize("case", TCASES, ids=lambda c: f"{c[0]}d-{c[4]}-s{c[3]}-o{c[6]}")
@pytest.mark.parametrize("channel_first", [False, True])
def test_paddle_conv_transpose_vs_numpy_and_adjoint(case, channel_first):
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


def test_paddle_conv_transpose_vs_torch_functional():
    r = rng(18)
    x, w = r.normal(size=(2, 3, 5, 4)), r.normal(size=(3, 3, 6, 3))  # NCHW, [kh, kw, d_out, d_in]
    want = TF.conv_transpose2d(torch.tensor(x), torch.tensor(w).permute(3, 2, 0, 1), stride=2, padding=1, output_padding=1)
    got = ivy.conv2d_transpose(t(x), t(w), 2, 1, output_shape=(10, 8), data_format="NCHW")
    close(got, npa(want), 1e-10)


def test_paddle_depthwise_conv2d_vs_numpy_and_torch():
    r = rng(13)
    x, w = r.normal(size=(2, 7, 6, 3)), r.normal(size=(3, 2, 3))
    for strides, padding, dil in ((1, "SAME", 1), (2, "VALID", 1), ((1, 2), [(1, 0), (2, 1)], (2, 1))):
        s, d = _norm(strides, 2), _norm(dil, 2)
        pads = _pads_of(padding, 2, (7, 6), [d[0] * 2 + 1, d[1] * 1 + 1], s)
        want = np.concatenate([np_conv(x[..., c : c + 1], w[..., c : c + 1, None], s, pads, d) for c in range(3)], -1)
        close(_torch_conv(x, w[:, :, None, :], s, pads, d, groups=3), want, 1e-10)
        close(ivy.depthwise_conv2d(t(x), t(w), strides, padding, dilations=dil), want, 1e-10)
        got = ivy.depthwise_conv2d(t(cf(x)), t(w), strides, padding, dilations=dil, data_format="NCHW")
        close(got, cf(want), 1e-10)


POOL_CASES = [
    (1, (9,), 3, 2, "SAME"),
    (1, (8,), 2, 2, "VALID"),
    (1, (8,), 3, 1, [(2, 0)]),
    (2, (7, 6), (3, 2), (2, 1), "SAME"),
    (2, (7, 6), 3, 2, 1),
    (2, (6, 6), (2, 3), (2, 2), [(1, 0), (0, 2)]),
    (3, (5, 4, 6), (2, 2, 3), (1, 2, 2), "SAME"),
    (3, (4, 4, 4), 2, 2, "VALID"),
]


@pytest.mark.parametrize("case", POOL_CASES, ids=lambda c: f"{c[0]}d-{c[4]}-k{c[2]}-s{c[3]}")
@pytest.mark.parametrize("channel_first", [False, True])
def test_paddle_pools_vs_numpy(case, channel_first):
    n, sp, k, strides, padding = case
    r = rng(14)
    x = r.normal(size=(2, *sp, 3))
    kk, s = _norm(k, n), _norm(strides, n)
    pads = _pads_of(padding, n, sp, kk, s)
    fmt = FMT[n][int(channel_first)]
    xin = t(cf(x) if channel_first else x)
    for kind in ("max", "avg"):
        for cip in (False, True) if kind == "avg" else (False,):
            want = np_pool(x, kk, s, pads, kind, cip)
            extra = {"count_include_pad": cip} if kind == "avg" else {}
            got = getattr(ivy, f"{kind}_pool{n}d")(xin, k, strides, padding, data_format=fmt, **extra)
            close(got, cf(want) if channel_first else want, 1e-10)


def test_paddle_max_pool_integer_and_bool_input():
    x = rng(15).integers(-50, 50, size=(2, 7, 6, 3))
    want = np_pool(x.astype(np.float64), (3, 2), (2, 2), same_pads((7, 6), (3, 2), (2, 2)), "max")
    for dt in ("int64", "int32", "int16", "int8"):
        got = ivy.max_pool2d(t(x, dt), (3, 2), 2, "SAME")
        assert got.dtype == getattr(paddle, dt)
        close(got.astype("int64"), want, 0)
    u = ivy.max_pool2d(t(x + 50, "uint8"), (3, 2), 2, "SAME")
    assert u.dtype == paddle.uint8
    close(u.astype("int64"), want + 50, 0)
    b = ivy.max_pool1d(t([[[0], [1], [0], [0], [0], [0]]], "bool"), 2, 2, "VALID")
    assert b.dtype == paddle.bool
    close(b, [[[True], [False], [False]]], 0)
    big = t([[[2**62 + 1], [2**62 + 3], [2**62]]], "int64")  # exact beyond float64's integers
    assert npa(ivy.max_pool1d(big, 2, 1, "SAME"))[0, :, 0].tolist() == [2**62 + 3, 2**62 + 3, 2**62]


def test_paddle_pools_vs_torch_functional():
    x = rng(16).normal(size=(2, 3, 9, 9))
    tx = torch.tensor(x)
    close(ivy.max_pool2d(t(x), 3, 2, 1, data_format="NCHW"), npa(TF.max_pool2d(tx, 3, 2, 1)), 0)
    for cip in (False, True):
        close(
            ivy.avg_pool2d(t(x), 3, 2, 1, data_format="NCHW", count_include_pad=cip),
            npa(TF.avg_pool2d(tx, 3, 2, 1, count_include_pad=cip)),
            1e-12,
        )
    x3 = rng(17).normal(size=(1, 2, 5, 6, 7))
    close(ivy.max_pool3d(t(x3), 2, (1, 2, 3), "VALID", data_format="NCDHW"), npa(TF.max_pool3d(torch.tensor(x3), 2, (1, 2, 3))), 0)
    x1 = rng(18).normal(size=(2, 4, 11))
    close(ivy.avg_pool1d(t(x1), 3, 2, 1, data_format="NCW"), npa(TF.avg_pool1d(torch.tensor(x1), 3, 2, 1, count_include_pad=False)), 1e-12)


def test_paddle_adaptive_avg_pool2d_vs_torch():
    x = rng(17).normal(size=(2, 7, 5, 3))
    want = np.moveaxis(npa(TF.adaptive_avg_pool2d(torch.tensor(cf(x)), (3, 4))), 1, -1)
    close(ivy.adaptive_avg_pool2d(t(x), (3, 4)), want)
    close(ivy.adaptive_avg_pool2d(t(cf(x)), 2, data_format="NCHW"), npa(TF.adaptive_avg_pool2d(torch.tensor(cf(x)), 2)))


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
    "softplus": lambda a: np.log1p(np.exp(a)),
    "leaky_relu": lambda a: np.where(a >= 0, a, 0.2 * a),
}


@pytest.mark.parametrize("name", sorted(ACTS))
def test_paddle_activations_vs_numpy(name):
    a = np.concatenate([np.linspace(-6, 6, 41), [-30.0, 30.0, 0.0]])
    got = getattr(ivy, name)(t(a))
    assert got.dtype == paddle.float64
    close(got, ACTS[name](a), 1e-12)
    g32 = getattr(ivy, name)(t(a, "float32"))
    assert g32.dtype == paddle.float32
    close(g32, ACTS[name](a.astype(np.float32).astype(np.float64)), 2e-6)


def test_paddle_activation_options_vs_numpy():
    a = np.linspace(-5, 5, 31)
    close(ivy.gelu(t(a), approximate=True), 0.5 * a * (1 + np.tanh(np.sqrt(2 / np.pi) * (a + 0.044715 * a**3))), 1e-12)
    close(ivy.leaky_relu(t(a), alpha=0.01), np.where(a >= 0, a, 0.01 * a))
    close(ivy.elu(t(a), alpha=2.0), np.where(a > 0, a, 2.0 * np.expm1(a)))
    close(ivy.elu(t(a), alpha=0.1), np.where(a > 0, a, 0.1 * np.expm1(a)), 1e-14)  # not a float32 value
    close(ivy.leaky_relu(t(a * 1e3), alpha=0.1), np.where(a >= 0, a * 1e3, 0.1 * a * 1e3), 1e-14)
    b = 3.0
    close(ivy.softplus(t(a), beta=b, threshold=5.0), np.where(b * a > 5.0, a, np.log1p(np.exp(b * a)) / b))
    x = rng(18).normal(size=(3, 4, 5))
    for axis in (-1, 0, 1):
        close(ivy.softmax(t(x), axis=axis), special.softmax(x, axis=axis))
        close(ivy.log_softmax(t(x), axis=axis), special.log_softmax(x, axis=axis))
    close(ivy.erf(t([-40.0, 40.0])), [-1.0, 1.0], 0)


def test_paddle_activation_gradients_vs_torch():
    a = np.linspace(-3, 3, 13)
    for name, tfn in (("gelu", TF.gelu), ("silu", TF.silu), ("mish", TF.mish), ("softplus", TF.softplus), ("erf", torch.erf)):
        ta = torch.tensor(a, requires_grad=True)
        tfn(ta).sum().backward()
        _, g, _ = ivy.value_and_grad_flat(lambda ls: paddle.sum(getattr(ivy, name)(ls[0])), [t(a)])
        close(g[0], npa(ta.grad), 1e-10)


def test_paddle_linear_embedding_one_hot():
    r = rng(19)
    x, w, b = r.normal(size=(2, 3, 4)), r.normal(size=(5, 4)), r.normal(size=(5,))
    close(ivy.linear(t(x), t(w), t(b)), x @ w.T + b)
    close(ivy.linear(t(x), t(w)), x @ w.T)
    close(ivy.linear(t(x, "float32"), t(w)), x.astype(np.float32) @ w.T, 1e-6)  # mixed dtypes: composed
    table = r.normal(size=(6, 3))
    idx = np.array([[0, 5], [2, 2]])
    close(ivy.embedding(t(table), t(idx, "int64")), table[idx])
    close(ivy.embedding(t(table), t(idx, "int32")), table[idx])
    close(ivy.embedding(t(table), t(idx, "uint8")), table[idx])
    tt = t(table)
    got = ivy.embedding(tt, t(idx, "int64"), max_norm=0.5)
    rows = table[idx]
    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    close(got, np.where(norms > 0.5, rows * 0.5 / norms, rows))
    close(tt, table, 0)  # weights not modified
    oh = ivy.one_hot(t([0, 2, -1, 7], "int64"), 4)
    assert oh.dtype == paddle.float32
    close(oh, [[1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0]], 0)
    oh8 = ivy.one_hot(t([3, 200], "uint8"), 300, dtype="bool")
    assert list(oh8.shape) == [2, 300] and bool(oh8[0, 3]) and bool(oh8[1, 200]) and int(oh8.astype("int64").sum()) == 2
    oh2 = ivy.one_hot(t([[1, 0]], "int32"), 3, dtype="int64", axis=0)
    assert list(oh2.shape) == [3, 1, 2] and oh2.dtype == paddle.int64
    close(oh2, np.moveaxis(np.eye(3, dtype=np.int64)[[[1, 0]]], -1, 0), 0)


def test_paddle_layer_norm_vs_numpy():
    r = rng(20)
    x = r.normal(size=(2, 3, 4))
    s, o = r.normal(size=(4,)), r.normal(size=(4,))
    close(ivy.layer_norm(t(x), -1, scale=t(s), offset=t(o)), _np_layer_norm(x, (-1,), s, o))
    close(ivy.layer_norm(t(x), (1, 2)), _np_layer_norm(x, (1, 2)))
    s1 = r.normal(size=(3, 1))
    close(ivy.layer_norm(t(x), 1, scale=t(s1), eps=1e-3), _np_layer_norm(x, (1,), s1, eps=1e-3))
    close(ivy.layer_norm(t(x), (0, 2), offset=t(o)), _np_layer_norm(x, (0, 2), None, o))
    xs = x * 0.1  # a small variance: eps matters
    for eps in (0.1, 1e-3, 1e-5, 2.0**-17):
        close(ivy.layer_norm(t(xs), -1, eps=eps), _np_layer_norm(xs, (-1,), eps=eps), 1e-13)
    close(ivy.layer_norm(t(xs, "float32"), -1, scale=t(s, "float32")), _np_layer_norm(xs, (-1,), s), 1e-5)
    s2 = r.normal(size=(3, 4))
    close(ivy.layer_norm(t(x), (-2, -1), scale=t(s2)), _np_layer_norm(x, (1, 2), s2))


def test_paddle_batch_norm_vs_numpy():
    r = rng(21)
    x = r.normal(size=(4, 3, 3, 2))  # NHWC, c = 2
    mean, var = r.normal(size=(2,)), r.uniform(0.5, 2, size=(2,))
    sc, of = r.normal(size=(2,)), r.normal(size=(2,))
    tm, tv = t(mean), t(var)
    y, m, v = ivy.batch_norm(t(x), tm, tv, offset=t(of), scale=t(sc))
    close(y, (x - mean) / np.sqrt(var + 1e-5) * sc + of)
    close(m, mean, 0)
    close(v, var, 0)
    close(tm, mean, 0)  # the running statistics are not updated in place
    yc, _, _ = ivy.batch_norm(t(cf(x)), tm, tv, data_format="NCHW", eps=1e-3)
    close(yc, cf((x - mean) / np.sqrt(var + 1e-3)))
    y3, _, _ = ivy.batch_norm(t(x[:, 0]), tm, tv)  # NLC: 3-D input
    close(y3, (x[:, 0] - mean) / np.sqrt(var + 1e-5))
    y, m, v = ivy.batch_norm(t(x), tm, tv, offset=t(of), scale=t(sc), training=True, momentum=0.2)
    bm, bv = x.mean(axis=(0, 1, 2)), x.var(axis=(0, 1, 2))
    close(y, (x - bm) / np.sqrt(bv + 1e-5) * sc + of)
    close(m, 0.8 * mean + 0.2 * bm)
    close(v, 0.8 * var + 0.2 * x.var(axis=(0, 1, 2), ddof=1))
    close(tm, mean, 0)


def test_paddle_group_norm_vs_numpy():
    r = rng(22)
    x = r.normal(size=(2, 3, 4, 6))  # NHWC, c = 6
    s, o = r.normal(size=(6,)), r.normal(size=(6,))
    g = x.reshape(2, 3, 4, 3, 2)
    m = g.mean(axis=(1, 2, 4), keepdims=True)
    v = g.var(axis=(1, 2, 4), keepdims=True)
    want = ((g - m) / np.sqrt(v + 1e-5)).reshape(x.shape) * s + o
    close(ivy.group_norm(t(x), 3, scale=t(s), offset=t(o)), want)
    close(ivy.group_norm(t(cf(x)), 3, scale=t(s), offset=t(o), data_format="NCHW"), cf(want))
    with pytest.raises(ValueError):
        ivy.group_norm(t(x), 4)
    x3 = r.normal(size=(2, 5, 4))  # NWC, 3-D
    g3 = x3.reshape(2, 5, 2, 2)
    want3 = ((g3 - g3.mean(axis=(1, 3), keepdims=True)) / np.sqrt(g3.var(axis=(1, 3), keepdims=True) + 1e-3)).reshape(x3.shape)
    close(ivy.group_norm(t(x3), 2, eps=1e-3), want3)
    close(ivy.group_norm(t(x, "float32"), 2, scale=t(s)), npa(TF.group_norm(torch.tensor(cf(x)), 2, torch.tensor(s))).transpose(0, 2, 3, 1), 1e-5)


def test_paddle_lstm_update_and_lstm_vs_numpy():
    r = rng(23)
    B_, T, I, H = 2, 5, 3, 4
    x = r.normal(size=(B_, T, I))
    h0, c0 = r.normal(size=(B_, H)), r.normal(size=(B_, H))
    k, rk = r.normal(size=(I, 4 * H)) * 0.5, r.normal(size=(H, 4 * H)) * 0.5
    b, rb = r.normal(size=(4 * H,)), r.normal(size=(4 * H,))
    hs, (h, c) = ivy.lstm_update(t(x), t(h0), t(c0), t(k), t(rk), bias=t(b), recurrent_bias=t(rb))
    whs, wh, wc = _np_lstm(x, h0, c0, k, rk, b, rb)
    close(hs, whs)
    close(h, wh)
    close(c, wc)
    k2, rk2 = r.normal(size=(H, 4 * H)) * 0.5, r.normal(size=(H, 4 * H)) * 0.5
    H0, C0 = r.normal(size=(2, B_, H)), r.normal(size=(2, B_, H))
    hs, (hn, cn) = ivy.lstm(t(x), t(H0), t(C0), [t(k), t(k2)], [t(rk), t(rk2)], biases=[t(b), t(rb)])
    l1, h1, c1 = _np_lstm(x, H0[0], C0[0], k, rk, b, 0 * b)
    l2, h2, c2 = _np_lstm(l1, H0[1], C0[1], k2, rk2, rb, 0 * b)
    close(hs, l2)
    close(hn, np.stack([h1, h2]))
    close(cn, np.stack([c1, c2]))


def test_paddle_scaled_dot_product_attention_vs_numpy():
    r = rng(24)
    q, k, v = r.normal(size=(2, 3, 4, 8)), r.normal(size=(2, 3, 6, 8)), r.normal(size=(2, 3, 6, 5))
    close(ivy.scaled_dot_product_attention(t(q), t(k), t(v)), _np_attention(q, k, v))
    m = r.random((4, 6)) > 0.3
    m[:, 0] = True
    close(ivy.scaled_dot_product_attention(t(q), t(k), t(v), mask=t(m, "bool")), _np_attention(q, k, v, m))
    close(ivy.scaled_dot_product_attention(t(q), t(k), t(v), is_causal=True, scale=0.3), _np_attention(q, k, v, causal=True, scale=0.3))
    ivy.seed(0, backend="paddle")
    dropped = ivy.scaled_dot_product_attention(t(q), t(k), t(v), dropout_p=0.5)
    assert list(dropped.shape) == [2, 3, 4, 5] and bool(paddle.isfinite(dropped).all())


def test_paddle_losses_vs_numpy():
    r = rng(26)
    yt, yp = r.normal(size=(4, 3)), r.normal(size=(4, 3))
    for red, fn in (("mean", np.mean), ("sum", np.sum), ("none", lambda a: a)):
        close(ivy.mse_loss(t(yt), t(yp), reduction=red), fn((yp - yt) ** 2))
        close(ivy.l1_loss(t(yt), t(yp), reduction=red), fn(np.abs(yp - yt)))
        d = np.abs(yp - yt)
        close(ivy.huber_loss(t(yt), t(yp), delta=0.7, reduction=red), fn(np.where(d <= 0.7, 0.5 * d**2, 0.7 * (d - 0.35))))
        lab = (r.random((4, 3)) > 0.5).astype(np.float64)
        close(
            ivy.binary_cross_entropy(t(lab), t(yp), from_logits=True, reduction=red),
            fn(np.maximum(yp, 0) - yp * lab + np.log1p(np.exp(-np.abs(yp)))),
        )
        pr = special.expit(yp)
        close(ivy.binary_cross_entropy(t(lab), t(pr), reduction=red), fn(-(lab * np.log(pr) + (1 - lab) * np.log(1 - pr))), 1e-9)
    d = np.abs(yp - yt)
    close(ivy.huber_loss(t(yt), t(yp), delta=0.5), np.mean(np.where(d <= 0.5, 0.5 * d**2, 0.5 * (d - 0.25))))
    h32 = ivy.huber_loss(t(yt, "float32"), t(yp, "float32"), delta=0.7, reduction="none")
    assert h32.dtype == paddle.float32
    close(h32, np.where(d <= 0.7, 0.5 * d**2, 0.7 * (d - 0.35)), 1e-5)
    close(ivy.mse_loss(t(yt[0]), t(yp)), np.mean((yp - yt[0]) ** 2))  # broadcast: the composition
    assert ivy.mse_loss(t(yt), t(yp)).ndim == 0
    p = special.softmax(yp, -1)
    onehot = np.eye(3)[[0, 2, 1, 1]]
    close(ivy.cross_entropy(t(onehot), t(p)), np.mean(-np.sum(onehot * np.log(p), -1)))
    close(ivy.sparse_cross_entropy(t([0, 2, 1, 1], "int64"), t(p)), np.mean(-np.log(p[np.arange(4), [0, 2, 1, 1]])))
    with pytest.raises(ValueError):
        ivy.mse_loss(t(yt[0]), t(yp), reduction="avg")


# ==================================================================================== general


def test_paddle_einsum_vs_numpy():
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
        close(ivy.einsum(eq, *[t(o) for o in ops]), np.einsum(eq, *ops))
    got = ivy.einsum("ij,jk->ik", t(a, "float32"), t(b))
    assert got.dtype == paddle.float64
    close(got, a.astype(np.float32).astype(np.float64) @ b, 1e-12)
    ia, ib = r.integers(-5, 5, (2, 3)), r.integers(-5, 5, (3, 2))
    got_i = ivy.einsum("ij,jk->ik", t(ia, "int64"), t(ib, "int32"))
    assert got_i.dtype == paddle.int64
    close(got_i, ia @ ib, 0)
    big = np.array([2**40 + 1, 3], dtype=np.int64)
    close(ivy.einsum("i,i->", t(big, "int64"), t([2**12, 1], "int64")), int(big @ np.array([2**12, 1])), 0)
    close(ivy.einsum("ij->j", t(ia > 0, "bool")), np.einsum("ij->j", ia > 0), 0)


@pytest.mark.parametrize("reduction", ["sum", "replace", "min", "max"])
def test_paddle_scatter_nd_vs_numpy(reduction):
    r = rng(31)
    idx = np.array([[0, 1], [2, 3], [0, 1], [1, 0], [2, 3]])
    upd = r.normal(size=(5,))
    want = np.zeros((3, 4))
    ufunc = {"sum": np.add, "min": np.minimum, "max": np.maximum}.get(reduction)
    touched = np.zeros((3, 4), dtype=bool)
    touched[tuple(idx.T)] = True
    if ufunc is None:
        want[tuple(idx.T)] = upd  # np: the last write wins; check the unique positions exactly
    else:
        init = {"sum": 0.0, "min": np.inf, "max": -np.inf}[reduction]
        want[:] = init
        ufunc.at(want, tuple(idx.T), upd)
        want[~touched] = 0.0
    got = npa(ivy.scatter_nd(t(idx, "int64"), t(upd), (3, 4), reduction=reduction))
    if reduction == "replace":
        dup = {(0, 1): {upd[0], upd[2]}, (2, 3): {upd[1], upd[4]}}
        for pos, vals in dup.items():
            assert got[pos] in vals
            got[pos] = want[pos] = 0
    close(got, want, 1e-12)


def test_paddle_scatter_nd_slices_and_shape_inference():
    r = rng(32)
    idx = np.array([[1], [3], [1]])
    upd = r.normal(size=(3, 2))
    want = np.zeros((5, 2))
    np.add.at(want, idx[:, 0], upd)
    close(ivy.scatter_nd(t(idx, "int32"), t(upd), (5, 2)), want)
    got = ivy.scatter_nd(t(idx, "int64"), t(upd))  # shape inferred: (max + 1, trailing)
    assert list(got.shape) == [4, 2]
    close(got, want[:4])
    s = ivy.scatter_nd(t([[0, 0], [1, 1]], "int64"), 2.5, (2, 2))
    assert s.dtype == paddle.float32
    close(s, [[2.5, 0], [0, 2.5]], 0)
    mx = ivy.scatter_nd(t(idx, "int64"), t(upd), (5, 2), reduction="max")
    w = np.zeros((5, 2))
    w[1] = np.maximum(upd[0], upd[2])
    w[3] = upd[1]
    close(mx, w)


@pytest.mark.parametrize("reduction", ["sum", "min", "max"])
@pytest.mark.parametrize("dtype", ["int64", "int32", "int16", "float32"])
def test_paddle_scatter_flat_vs_numpy(reduction, dtype):
    r = rng(33)
    idx = r.integers(0, 6, size=12)
    upd = r.integers(-20, 20, size=12)
    ufunc = {"sum": np.add, "min": np.minimum, "max": np.maximum}[reduction]
    init = {"sum": 0, "min": 10**6, "max": -(10**6)}[reduction]
    want = np.full(8, init)
    ufunc.at(want, idx, upd)
    want[np.isin(np.arange(8), idx, invert=True)] = 0
    got = ivy.scatter_flat(t(idx, "int64"), t(upd, dtype), 8, reduction=reduction)
    assert got.dtype == getattr(paddle, dtype)
    close(got.astype("float64"), want, 0)
    got2 = ivy.scatter_flat(t(idx, "int64"), t(upd, dtype), reduction=reduction)
    assert list(got2.shape) == [idx.max() + 1]
    with pytest.raises(ValueError):
        ivy.scatter_flat(t(idx, "int64"), t(upd, dtype), 8, reduction="mean")


def test_paddle_scatter_sum_gradient_vs_torch():
    idx = np.array([2, 0, 2])
    u = np.array([1.0, 2.0, 3.0])
    w = np.array([1.0, -1.0, 0.5, 2.0])
    tu = torch.tensor(u, requires_grad=True)
    (torch.zeros(4, dtype=torch.float64).index_add(0, torch.tensor(idx), tu) ** 2 * torch.tensor(w)).sum().backward()
    _, g, _ = ivy.value_and_grad_flat(lambda ls: paddle.sum(ivy.scatter_flat(t(idx, "int64"), ls[0], 4) ** 2 * t(w)), [t(u)])
    close(g[0], npa(tu.grad), 1e-12)


def test_paddle_gather_and_gather_nd_vs_numpy():
    r = rng(34)
    p = r.normal(size=(3, 4, 5))
    idx = r.integers(0, 4, size=(2, 3))
    for axis in (0, 1, -1):
        i = idx % p.shape[axis]
        close(ivy.gather(t(p), t(i, "int64"), axis=axis), np.take(p, i, axis=axis), 0)
    close(ivy.gather(t(p), t(idx, "int32"), axis=1), np.take(p, idx, axis=1), 0)
    pb = t(np.arange(12).reshape(3, 4) % 3 == 0, "bool")
    got = ivy.gather(pb, t([3, 0], "int64"), axis=1)
    assert got.dtype == paddle.bool
    close(got, (np.arange(12).reshape(3, 4) % 3 == 0)[:, [3, 0]], 0)
    close(ivy.gather_nd(t(np.arange(12).reshape(3, 4), "uint8"), t([[2, 1]], "int64")).astype("int64"), [9], 0)
    bi = r.integers(0, 5, size=(3, 2))
    want = np.stack([p[b][:, bi[b]] for b in range(3)])  # batch_dims=1, axis=2
    close(ivy.gather(t(p), t(bi, "int64"), axis=2, batch_dims=1), want, 0)
    nd = np.array([[0, 1], [2, 3], [1, 0]])
    close(ivy.gather_nd(t(p), t(nd, "int64")), p[nd[:, 0], nd[:, 1]], 0)
    nd3 = np.array([[[0, 1, 2]], [[2, 3, 4]]])
    close(ivy.gather_nd(t(p), t(nd3, "int32")), p[nd3[..., 0], nd3[..., 1], nd3[..., 2]], 0)
    bnd = r.integers(0, 4, size=(3, 2, 1))  # batch_dims=1: per batch row, index axis 1
    want = np.stack([p[b][bnd[b, :, 0]] for b in range(3)])
    close(ivy.gather_nd(t(p), t(bnd, "int64"), batch_dims=1), want, 0)


def test_paddle_get_item_set_item_inplace_update_vs_numpy():
    a = np.arange(24.0).reshape(2, 3, 4)
    x = t(a)
    for q in ((slice(None, None, -1),), (1, slice(None, None, -2)), (Ellipsis, slice(3, 0, -2)), (None, 0, slice(None), slice(1, 3))):
        close(ivy.get_item(x, q), a[q], 0)
    close(ivy.get_item(x, t(a[..., 0] > 5, "bool")), a[a[..., 0] > 5], 0)
    for q, val in (((0, slice(1, 3)), 7.0), ((Ellipsis, slice(None, None, -2)), np.array([-1.0, -2.0])), ((1, slice(2, None, -1), 0), np.array([5.0, 6.0, 7.0]))):
        want = a.copy()
        want[q] = val
        got = ivy.set_item(x, q, t(val) if isinstance(val, np.ndarray) else val)
        close(got, want, 0)
        close(x, a, 0)  # not modified
    close(ivy.set_item(x, t(a > 20, "bool"), 0.0), np.where(a > 20, 0.0, a), 0)
    xi = t(np.arange(4), "int32")
    si = ivy.set_item(xi, slice(1, 3), t([9.7, 8.2]))  # val cast to the dtype of x
    assert si.dtype == paddle.int32
    close(si, [0, 9, 8, 3], 0)
    y = t(np.zeros((2, 2)))
    out = ivy.inplace_update(y, t([1.0, 2.0]))
    assert out is y
    close(y, [[1.0, 2.0], [1.0, 2.0]], 0)
    v = ivy.variable(t([1.0, 2.0]))
    assert ivy.inplace_update(v, 5.0) is v
    close(v, [5.0, 5.0], 0)
    assert not v.stop_gradient and v.is_leaf
    assert ivy.inplace_update(v, t([1, 2], "int64")) is v and v.dtype == paddle.float64
    close(v, [1.0, 2.0], 0)
    # set_item is differentiable
    _, g, _ = ivy.value_and_grad_flat(lambda ls: paddle.sum(ivy.set_item(ls[0], slice(0, 1), 0.0) ** 2), [t([1.0, 2.0, 3.0])])
    close(g[0], [0.0, 4.0, 6.0])


def test_paddle_cumsum_cumprod_vs_numpy():
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
    assert ivy.cumsum(t([1, 2, 3], "int8")).dtype == paddle.int64
    assert ivy.cumsum(t([True, True], "bool")).dtype == paddle.int64
    close(ivy.cumsum(t([1, 2, 3], "int32"), dtype="float64"), [1.0, 3.0, 6.0], 0)
    assert ivy.cumsum(t([1.0, 2.0], "float32")).dtype == paddle.float32


def test_paddle_pad_vs_numpy():
    a = np.arange(12.0).reshape(3, 4)
    for pw in (1, (1, 2), ((0, 1), (2, 0))):
        np_pw = pw if not isinstance(pw, tuple) or isinstance(pw[0], tuple) else [pw] * 2
        for mode in ("constant", "reflect", "symmetric", "edge", "wrap"):
            kw = {"constant_values": 7.0} if mode == "constant" else {}
            got = ivy.pad(t(a), pw, mode=mode, **({"value": 7.0} if mode == "constant" else {}))
            close(got, np.pad(a, np_pw, mode=mode, **kw), 0)
    a3 = np.arange(24.0).reshape(2, 3, 4)
    close(ivy.pad(t(a3, "float32"), ((1, 0), (0, 2), (3, 1))), np.pad(a3, ((1, 0), (0, 2), (3, 1))), 0)
    b = ivy.pad(t([[True]], "bool"), 1)
    assert b.dtype == paddle.bool and list(b.shape) == [3, 3] and int(b.astype("int64").sum()) == 1
    ints = ivy.pad(t([1, 2], "int32"), (2, 1), value=-1)
    assert ints.dtype == paddle.int32
    close(ints, [-1, -1, 1, 2, -1], 0)
    close(ivy.pad(t([1, 2], "uint8"), 1, value=9).astype("int64"), [9, 1, 2, 9], 0)
    with pytest.raises(ValueError):
        ivy.pad(t(a), ((1, 1),))


def test_paddle_top_k_split_flatten_transpose_cast():
    r = rng(36)
    a = r.permutation(20).reshape(4, 5).astype(np.float64)
    v, i = ivy.top_k(t(a), 3)
    close(v, -np.sort(-a, axis=-1)[:, :3], 0)
    close(np.take_along_axis(a, npa(i), -1), npa(v), 0)
    assert i.dtype == paddle.int64
    v, i = ivy.top_k(t(a), 2, axis=0, largest=False)
    close(v, np.sort(a, axis=0)[:2], 0)
    v8, i8 = ivy.top_k(t(a, "int8"), 2)
    assert v8.dtype == paddle.int8 and i8.dtype == paddle.int64
    close(v8, -np.sort(-a, axis=-1)[:, :2], 0)
    assert list(ivy.top_k(t(a), 0)[0].shape) == [4, 0]
    parts = ivy.split(t(np.arange(7.0)), 3, with_remainder=True)
    assert [p.shape[0] for p in parts] == [2, 2, 2, 1]
    assert [p.shape[1] for p in ivy.split(t(a), [1, 4], axis=1)] == [1, 4]
    assert [p.shape[1] for p in ivy.split(t(a), [0, 5], axis=1)] == [0, 5]
    assert len(ivy.split(t(a))) == 4
    with pytest.raises(ValueError):
        ivy.split(t(np.arange(7.0)), 3)
    x = t(np.arange(24.0).reshape(2, 3, 4))
    assert list(ivy.flatten(x).shape) == [24]
    assert list(ivy.flatten(x, start_dim=1).shape) == [2, 12]
    assert list(ivy.flatten(t(3.0)).shape) == [1]
    with pytest.raises(ValueError):
        ivy.flatten(x, start_dim=2, end_dim=0)
    close(ivy.transpose(x), np.arange(24.0).reshape(2, 3, 4).T, 0)
    close(ivy.transpose(x, (1, 0, 2)), np.arange(24.0).reshape(2, 3, 4).transpose(1, 0, 2), 0)
    c = ivy.cast(x, "int32")
    assert c.dtype == paddle.int32
    assert ivy.cast(x, "float64") is x
    with pytest.raises(TypeError):
        ivy.cast(t([1j], "complex64"), "float32")


def test_paddle_clip_norms_and_kl_div_composed():
    a = np.array([[3.0, 4.0], [0.0, 1.0]])
    close(ivy.clip_vector_norm(t(a), 2.0), a * 2.0 / np.linalg.norm(a))
    close(ivy.clip_matrix_norm(t(a), 1.0, p="fro"), a / np.linalg.norm(a))
    p, q = np.array([[0.5, 0.5, 0.0]]), np.array([[0.25, 0.25, 0.5]])
    close(ivy.kl_div(t(p), t(q)), np.log(2.0))


# ============================================ core's compositions on this backend's namespace


def _composed(name):
    from ivy._compose import load_defaults

    return lambda *a, **k: load_defaults()[name](xp, *a, **k)


def test_paddle_core_compositions_run_on_this_backend():
    """The defaults this plugin overrides still work on its namespace (they are what another
    caller, or a fallback, gets): proves the ops they need from the plugin (erf, dev, dropout,
    bernoulli...) behave."""
    r = rng(50)
    a = np.linspace(-4, 4, 17)
    close(_composed("gelu")(t(a)), ACTS["gelu"](a), 1e-12)
    close(_composed("erf")(t(a)), special.erf(a), 1e-12)
    close(_composed("mish")(t(a)), ACTS["mish"](a), 1e-12)
    close(_composed("softplus")(t(a)), ACTS["softplus"](a), 1e-12)
    x = r.normal(size=(2, 3, 4))
    close(_composed("softmax")(t(x), axis=1), special.softmax(x, axis=1), 1e-12)
    close(_composed("layer_norm")(t(x), -1), _np_layer_norm(x, (-1,)), 1e-12)
    mean, var = r.normal(size=(4,)), r.uniform(0.5, 2, size=(4,))
    y, m, v = _composed("batch_norm")(t(x), t(mean), t(var), training=True)
    bm, bv = x.mean(axis=(0, 1)), x.var(axis=(0, 1))
    close(y, (x - bm) / np.sqrt(bv + 1e-5), 1e-12)
    close(v, 0.9 * var + 0.1 * x.var(axis=(0, 1), ddof=1), 1e-12)
    B_, T, I, H = 2, 4, 3, 2
    xs, h0, c0 = r.normal(size=(B_, T, I)), r.normal(size=(B_, H)), r.normal(size=(B_, H))
    k, rk, b = r.normal(size=(I, 4 * H)), r.normal(size=(H, 4 * H)), r.normal(size=(4 * H,))
    hs, (h, c) = _composed("lstm_update")(t(xs), t(h0), t(c0), t(k), t(rk), bias=t(b))
    whs, wh, wc = _np_lstm(xs, h0, c0, k, rk, b, 0 * b)
    close(hs, whs, 1e-12)
    close(c, wc, 1e-12)
    m2 = np.arange(12.0).reshape(3, 4)
    for mode in ("constant", "reflect", "edge", "wrap"):
        close(_composed("pad")(t(m2), ((1, 2), (2, 1)), mode=mode), np.pad(m2, ((1, 2), (2, 1)), mode=mode), 0)
    close(_composed("one_hot")(t([2, 0, 5], "int64"), 3), [[0, 0, 1], [1, 0, 0], [0, 0, 0]], 0)
    q, kk, vv = r.normal(size=(2, 4, 8)), r.normal(size=(2, 4, 8)), r.normal(size=(2, 4, 3))
    close(_composed("scaled_dot_product_attention")(t(q), t(kk), t(vv), is_causal=True), _np_attention(q, kk, vv, causal=True), 1e-12)
    close(_composed("dropout")(paddle.ones([6], dtype="float64"), 0.5, seed=1), npa(ivy.dropout(paddle.ones([6], dtype="float64"), 0.5, seed=1)), 0)
    close(_composed("cumsum")(t(m2), 1, exclusive=True, reverse=True), np.flip(np.cumsum(np.flip(m2, 1), 1), 1) - m2, 1e-12)
    v_, i_ = _composed("top_k")(t(m2), 2)
    close(v_, m2[:, ::-1][:, :2], 0)
    p = r.normal(size=(3, 4, 5))
    close(_composed("gather")(t(p), t([[1, 3]], "int64"), axis=1), np.take(p, [[1, 3]], axis=1), 0)
    close(_composed("gather_nd")(t(p), t([[0, 1], [2, 2]], "int64")), p[[0, 2], [1, 2]], 0)
    img = r.normal(size=(1, 5, 6, 2))
    close(_composed("adaptive_avg_pool2d")(t(img), 1), img.mean(axis=(1, 2), keepdims=True), 1e-12)
    close(_composed("group_norm")(t(img), 1), _np_layer_norm(img, (1, 2, 3)), 1e-12)
    close(_composed("embedding")(t(p[0]), t([3, 0], "int64")), p[0][[3, 0]], 0)
    assert [s_.shape[0] for s_ in _composed("split")(t(np.arange(5.0)), 2, with_remainder=True)] == [2, 2, 1]
    close(_composed("linear")(t(x), t(p[0].T)), x @ p[0], 1e-12)
    close(_composed("transpose")(t(x)), x.T, 0)
    assert list(_composed("flatten")(t(x), start_dim=1).shape) == [2, 12]


# =================================================================================== compile


def _f(x, y):
    return paddle.sin(x) * y + paddle.nn.functional.softmax(x, axis=-1)


def test_paddle_compile_matches_eager():
    r = rng(40)
    x, y = t(r.normal(size=(3, 4))), t(r.normal(size=(3, 4)))
    want = np.sin(npa(x)) * npa(y) + special.softmax(npa(x), axis=-1)
    compiled = ivy.compile(_f)
    close(compiled(x, y), want, 1e-12)
    close(compiled(x * 2, y), np.sin(2 * npa(x)) * npa(y) + special.softmax(2 * npa(x), axis=-1), 1e-12)
    g = ivy.compile(lambda a: ivy.relu(a) * 3 + 1, backend="paddle")
    close(g(t(np.linspace(-2, 2, 5))), np.maximum(np.linspace(-2, 2, 5), 0) * 3 + 1, 1e-12)


def test_paddle_compile_hook_only_for_paddle_and_options_pass_through():
    from ivy_paddle._compile import ivy_compile

    assert ivy_compile(backend="numpy", fn=_f, options={}) is None
    spec = [paddle.static.InputSpec(shape=[None], dtype="float64")]

    def twice_cos(a):
        return paddle.cos(a) * 2

    fn = ivy_compile(backend="paddle", fn=twice_cos, options={"input_spec": spec, "full_graph": True})
    assert isinstance(fn, paddle.jit.api.StaticFunction)
    for n in (3, 5):  # the declared dynamic shape
        z = np.linspace(0, 1, n)
        close(fn(t(z)), 2 * np.cos(z), 1e-12)
    assert ivy._registry.plugin_manager().hook.ivy_compile(backend="paddle", fn=_f, options={}) is not None


def test_paddle_registered_device_kind(monkeypatch):
    """A third-party device kind registered for paddle (ivy_register_devices) is listed, accepted by
    to_device and creation and mapped to its native device; unregistered kinds still raise."""
    from ivy.plugin import DeviceKind

    cpu = paddle.CPUPlace()
    dk = DeviceKind(backend="paddle", kind="vdev", list_devices=lambda: ["vdev:0"], to_native=lambda s: cpu,
                    from_native=lambda n: None)
    monkeypatch.setattr(_kit_devices, "_device_kinds", {"paddle": {"vdev": dk}})  # restored afterwards
    assert "vdev:0" in xp.devices() and "vdev:0" in ivy.devices(backend="paddle")
    assert xp.devices()[0] == "cpu"
    x = paddle.ones([3])
    y = ivy.to_device(x, "vdev:0")
    assert ivy.dev(y) == "cpu"
    assert y.place.is_cpu_place()
    assert xp.asarray([1.0, 2.0], device="vdev:0").place.is_cpu_place()
    with pytest.raises(ValueError):
        ivy.to_device(x, "foo:0")
