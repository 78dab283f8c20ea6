"""The paddle backend's issue-3 functional API: gradients, random, devices, nn, general, compile.

Every number is checked against an independent reference (finite differences, torch.autograd,
torch.nn.functional, NumPy / SciPy implementations written here, np.einsum, np.add.at...), never
against the backend's own output. tensorflow is never imported here (paddle segfaults after it).

    PYTHONPATH=ivy_core/src python -m pytest plugins/ivy-paddle/tests/test_paddle_functional.py -q
"""

from __future__ import annotations

import math

import numpy as np
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


def fd_grad(f, xs, eps=1e-6):
    """Central finite differences of a scalar numpy function of a list of arrays."""
    out = []
    for i, x in enumerate(xs):
        g = np.zeros_like(x)
        for j in np.ndindex(x.shape):
            up = [a.copy() for a in xs]
            dn = [a.copy() for a in xs]
            up[i][j] += eps
            dn[i][j] -= eps
            g[j] = (f(up) - f(dn)) / (2 * eps)
        out.append(g)
    return out


def fd_jac(f, x, eps=1e-6):
    y0 = np.asarray(f(x))
    J = np.zeros(y0.shape + x.shape)
    for j in np.ndindex(x.shape):
        up, dn = x.copy(), x.copy()
        up[j] += eps
        dn[j] -= eps
        J[(...,) + j] = (np.asarray(f(up)) - np.asarray(f(dn))) / (2 * eps)
    return J


def _loss_np(ls):
    a, b = ls
    return float(np.sum(np.sin(a) * b**2) + np.sum(a**3))


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
        "get_item", "adaptive_avg_pool2d",
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


def same_pads(sizes, windows, strides):
    """TensorFlow's SAME padding: output ceil(in / stride), the odd element at the end."""
    out = []
    for i, k, s in zip(sizes, windows, strides):
        o = -(-i // s)
        total = max((o - 1) * s + k - i, 0)
        out.append((total // 2, total - total // 2))
    return out


def np_conv(x, w, strides, pads, dil):
    """Channel-last N-d cross-correlation: x [N, *S, Ci], w [*K, Ci, Co]."""
    n = x.ndim - 2
    xp_ = np.pad(x, [(0, 0), *pads, (0, 0)])
    K = w.shape[:n]
    outs = [(xp_.shape[1 + i] - dil[i] * (K[i] - 1) - 1) // strides[i] + 1 for i in range(n)]
    out = np.zeros((x.shape[0], *outs, w.shape[-1]))
    for k in np.ndindex(*K):
        sl = tuple(slice(k[i] * dil[i], k[i] * dil[i] + strides[i] * (outs[i] - 1) + 1, strides[i]) for i in range(n))
        out += xp_[(slice(None), *sl, slice(None))] @ w[k]
    return out


def np_conv_t(x, w, strides, pads, dil, outs):
    """Transposed conv as the adjoint of np_conv: x [N, *I, d_in], w [*K, d_out, d_in]."""
    n = x.ndim - 2
    I, K = x.shape[1:-1], w.shape[:n]
    full = [(I[i] - 1) * strides[i] + dil[i] * (K[i] - 1) + 1 for i in range(n)]
    acc = np.zeros((x.shape[0], *full, w.shape[-2]))
    for k in np.ndindex(*K):
        sl = tuple(slice(k[i] * dil[i], k[i] * dil[i] + strides[i] * (I[i] - 1) + 1, strides[i]) for i in range(n))
        acc[(slice(None), *sl, slice(None))] += x @ w[k].T
    big = [max(full[i], pads[i][0] + outs[i]) for i in range(n)]
    acc = np.pad(acc, [(0, 0), *[(0, big[i] - full[i]) for i in range(n)], (0, 0)])
    return acc[(slice(None), *[slice(pads[i][0], pads[i][0] + outs[i]) for i in range(n)], slice(None))]


def np_pool(x, k, s, pads, kind, count_include_pad=False):
    n = x.ndim - 2
    fill = -np.inf if kind == "max" else 0.0
    xp_ = np.pad(x, [(0, 0), *pads, (0, 0)], constant_values=fill)
    ones = np.pad(np.ones(x.shape[1:-1]), pads)
    outs = [(xp_.shape[1 + i] - k[i]) // s[i] + 1 for i in range(n)]
    acc = np.full((x.shape[0], *outs, x.shape[-1]), fill)
    cnt = np.zeros(outs)
    for kk in np.ndindex(*k):
        sl = tuple(slice(kk[i], kk[i] + s[i] * (outs[i] - 1) + 1, s[i]) for i in range(n))
        patch = xp_[(slice(None), *sl, slice(None))]
        acc = np.maximum(acc, patch) if kind == "max" else acc + patch
        cnt += ones[sl]
    if kind == "max":
        return acc
    return acc / (np.prod(k) if count_include_pad else cnt[None, ..., None])


def cf(a, n=None):
    """channel-last -> channel-first (numpy)."""
    return np.moveaxis(a, -1, 1)


CONV = {1: "conv1d", 2: "conv2d", 3: "conv3d"}
FMT = {1: ("NWC", "NCW"), 2: ("NHWC", "NCHW"), 3: ("NDHWC", "NCDHW")}
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


def _norm(v, n):
    return (v,) * n if isinstance(v, int) else tuple(v)


def _pads_of(padding, n, sizes, windows, strides):
    if padding == "VALID":
        return [(0, 0)] * n
    if padding == "SAME":
        return same_pads(sizes, windows, strides)
    if isinstance(padding, int):
        return [(padding, padding)] * n
    return [tuple(p) for p in padding]


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
