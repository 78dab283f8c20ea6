"""The jax backend's issue-3 functional API: gradients, random, devices, nn, general, compile.

Every number is checked against an independent reference (finite differences, torch.autograd,
torch.nn.functional, NumPy / SciPy implementations written here, np.einsum, np.add.at...), never
against the backend's own output. The references are float64: the module runs with JAX's 64-bit
mode (the test runner sets JAX_ENABLE_X64=1); one test checks the float32 paths without it, in a
subprocess.

    JAX_ENABLE_X64=1 PYTHONPATH=ivy_core/src python -m pytest plugins/ivy-jax/tests/test_jax_functional.py -q
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import ivy.plugin_kit._devices as _kit_devices
import pytest

jax = pytest.importorskip("jax")
ivy = pytest.importorskip("ivy")
if "gradients" not in getattr(__import__("ivy._spec", fromlist=["CATEGORIES"]), "CATEGORIES", ()):
    pytest.skip("this ivy-core predates the functional API (issue 3)", allow_module_level=True)
if not jax.config.jax_enable_x64:
    pytest.skip("float64 references need JAX_ENABLE_X64=1 (set by scripts/test)", allow_module_level=True)

import jax.numpy as jnp  # noqa: E402
from scipy import signal, special, stats  # noqa: E402
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


def rng(seed=0):
    return np.random.default_rng(seed)


def _torch():
    return pytest.importorskip("torch")


# ================================================================================== gradients


def _loss_j(ls):
    a, b = ls
    return jnp.sum(jnp.sin(a) * b**2) + jnp.sum(a**3)


def test_jax_value_and_grad_flat_vs_finite_differences_and_torch():
    r = rng(1)
    a, b = r.normal(size=(3, 2)), r.normal(size=(3, 2))
    value, grads, aux = ivy.value_and_grad_flat(_loss_j, [t(a), t(b)])
    assert aux is None
    close(value, _loss_np([a, b]))
    for g, want in zip(grads, fd_grad(_loss_np, [a, b])):
        assert g.shape == (3, 2) and g.dtype == jnp.float64
        close(g, want, 1e-6)
    torch = _torch()
    ta, tb = torch.tensor(a, requires_grad=True), torch.tensor(b, requires_grad=True)
    (torch.sum(torch.sin(ta) * tb**2) + torch.sum(ta**3)).backward()
    close(grads[0], ta.grad.numpy(), 1e-12)
    close(grads[1], tb.grad.numpy(), 1e-12)


def test_jax_value_and_grad_flat_aux_unused_and_errors():
    x, unused = t([1.0, 2.0]), t([[5.0]])
    value, grads, aux = ivy.value_and_grad_flat(lambda ls: ((ls[0] ** 2).sum(), {"n": ls[0].shape[0], "s": "ok"}), [x, unused], has_aux=True)
    close(value, 5.0)
    close(grads[0], [2.0, 4.0])
    close(grads[1], [[0.0]])  # no dependence: zeros of that shape
    assert aux == {"n": 2, "s": "ok"}  # non-array aux leaves pass through
    _, _, aux = ivy.value_and_grad_flat(lambda ls: (jnp.sum(ls[0]), {"z": ls[0] * 2, "a": None, "m": [1, ls[0]]}), [x], has_aux=True)
    assert list(aux) == ["z", "a", "m"] and aux["a"] is None and aux["m"][0] == 1  # order kept
    close(aux["z"], [2.0, 4.0])
    close(aux["m"][1], [1.0, 2.0])
    tags = []

    @jax.jit
    def jitted(v):
        value, grads, aux = ivy.value_and_grad_flat(lambda ls: (jnp.sum(ls[0] ** 2), (ls[0] + 1, "tag")), [v], has_aux=True)
        tags.append(aux[1])
        return value, grads, aux[0]

    value, grads, aux0 = jitted(x)
    close(value, 5.0)
    close(grads[0], [2.0, 4.0])
    close(aux0, [2.0, 3.0])
    assert tags == ["tag"]
    with pytest.raises(ValueError):
        ivy.value_and_grad_flat(lambda ls: ls[0] * 2, [x])
    g32 = ivy.value_and_grad_flat(lambda ls: jnp.sum(ls[0] ** 2), [t([1.0], jnp.float32)])[1][0]
    assert g32.dtype == jnp.float32


def test_jax_execute_with_gradients_nest():
    r = rng(2)
    w, b = r.normal(size=(4, 3)), r.normal(size=(3,))
    xs = r.normal(size=(5, 4))

    def loss_np(ls):
        return float(np.mean(np.tanh(xs @ ls[0] + ls[1]) ** 2))

    params = {"w": ivy.variable(t(w)), "b": ivy.variable(t(b))}
    X = t(xs)

    def loss(p):
        y = jnp.tanh(X @ p["w"] + p["b"])
        return jnp.mean(y**2), y.shape[0]

    value, grads, extra = ivy.execute_with_gradients(loss, params)
    close(value, loss_np([w, b]))
    gw, gb = fd_grad(loss_np, [w, b])
    close(grads["w"], gw, 1e-6)
    close(grads["b"], gb, 1e-6)
    assert extra == 5
    _, _, y_out = ivy.execute_with_gradients(lambda p: (jnp.sum(p["w"]), p["w"] * 2), params)
    close(y_out, 2 * w)


def test_jax_grad_value_and_grad_and_second_order():
    def f(x):
        return jnp.sum(x**3 * jnp.exp(-x))

    x0 = np.array([0.3, -1.2, 2.0])
    g = ivy.grad(f)(t(x0))
    close(g, 3 * x0**2 * np.exp(-x0) - x0**3 * np.exp(-x0), 1e-10)
    (v, aux), g2 = ivy.value_and_grad(lambda x, y: (jnp.sum(x * y), "aux"), argnums=(0, 1), has_aux=True)(t(x0), t(2 * x0))
    assert aux == "aux"
    close(v, np.sum(2 * x0 * x0))
    close(g2[0], 2 * x0)
    close(g2[1], x0)
    # grad of grad: the second derivative, elementwise (f is separable)
    want = (6 * x0 - 6 * x0**2 + x0**3) * np.exp(-x0)
    close(ivy.grad(lambda x: jnp.sum(ivy.grad(f)(x)))(t(x0)), want, 1e-10)
    # and mixed with JAX's own transforms both ways
    close(jax.grad(lambda x: jnp.sum(ivy.grad(f)(x)))(t(x0)), want, 1e-10)
    close(ivy.grad(lambda x: jnp.sum(jax.grad(f)(x)))(t(x0)), want, 1e-10)


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
    # the same through ivy.compile
    c = ivy.compile(lambda x: ivy.grad(f)(x))
    close(c(t(x0)), np.cos(x0) * x0**2 + 2 * x0 * np.sin(x0))
    # stop_gradient and vjp/jvp inside jit
    out = jax.jit(lambda x: ivy.jvp(f, [x], [jnp.ones_like(x)])[1])(t(x0))
    close(out, np.sum(np.cos(x0) * x0**2 + 2 * x0 * np.sin(x0)))


def test_jax_transforms_compose_hessian_vector_product():
    def f(x):
        return jnp.sum(jnp.sin(x) * x**2)

    x0, v0 = np.array([0.5, -1.0, 2.0]), np.array([1.0, 0.5, -2.0])
    hdiag = 2 * np.sin(x0) + 4 * x0 * np.cos(x0) - x0**2 * np.sin(x0)
    _, hvp = ivy.jvp(ivy.grad(f), [t(x0)], [t(v0)])  # forward over reverse
    close(hvp, hdiag * v0, 1e-10)
    _, vjp_fn = ivy.vjp(ivy.grad(f), t(x0))  # reverse over reverse
    close(vjp_fn(t(v0))[0], hdiag * v0, 1e-10)
    close(ivy.jacobian(ivy.grad(f), t(x0)), np.diag(hdiag), 1e-10)


def test_jax_native_ops_present():
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
        "scaled_dot_product_attention", "lstm_update", "dropout", "gather", "gather_nd", "top_k",
        "cumsum", "cumprod", "pad", "split", "flatten", "transpose", "cast", "get_item",
    }
    assert want <= set(B.native_ops), sorted(want - set(B.native_ops))
    from ivy._registry import signature_mismatch

    assert {n: m for n in B.native_ops if (m := signature_mismatch(n, B.ops[n]))} == {}


def test_jax_vjp_jvp_jacobian_vs_finite_differences():
    r = rng(3)
    A = r.normal(size=(2, 3))
    x0 = r.normal(size=(3,))

    def f_np(x):
        return np.tanh(A @ x) * x[:2]

    def f(x):
        return jnp.tanh(t(A) @ x) * x[:2]

    J = fd_jac(f_np, x0)
    out, vjp_fn = ivy.vjp(f, t(x0))
    close(out, f_np(x0))
    ct = r.normal(size=(2,))
    (g,) = vjp_fn(t(ct))
    close(g, ct @ J, 1e-6)
    tan = r.normal(size=(3,))
    out2, tout = ivy.jvp(f, [t(x0)], [t(tan)])
    close(out2, f_np(x0))
    close(tout, J @ tan, 1e-6)
    jac = ivy.jacobian(f, t(x0))
    assert jac.shape == (2, 3)
    close(jac, J, 1e-6)
    close(ivy.jac(f)(t(x0)), J, 1e-6)
    # against torch.autograd.functional.jacobian
    torch = _torch()
    tj = torch.autograd.functional.jacobian(lambda x: torch.tanh(torch.tensor(A) @ x) * x[:2], torch.tensor(x0))
    close(jac, tj.numpy(), 1e-12)


def test_jax_vjp_tuple_outputs_and_multiple_primals():
    a, b = t([1.0, 2.0]), t([3.0, 4.0])
    out, fn = ivy.vjp(lambda x, y: (x * y, x + y), a, b)
    for ct in ((t([1.0, 1.0]), t([2.0, 0.0])), [t([1.0, 1.0]), t([2.0, 0.0])]):
        ga, gb = fn(ct)
        close(ga, [3.0 + 2.0, 4.0])
        close(gb, [1.0 + 2.0, 2.0])


def test_jax_jacobian_argnums_and_errors():
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
    # a tangent of another float dtype is cast to the primal's
    _, tout = ivy.jvp(lambda a: a * 3, [x], [t([1.0, 1.0], jnp.float32)])
    assert tout.dtype == jnp.float64
    close(tout, [3.0, 3.0])


def test_jax_variable_is_variable_stop_gradient():
    x = t([1.0, 2.0])
    assert ivy.variable(x) is x  # JAX arrays are values: nothing to mark
    assert ivy.is_variable(x) and not ivy.is_variable(x, exclusive=True)
    assert ivy.is_variable(t([1j], jnp.complex128))
    assert not ivy.is_variable(t([1, 2], jnp.int64))
    assert not ivy.is_variable(3.0, backend="jax")
    assert not ivy.is_variable(np.ones(2), backend="jax")
    _, grads, _ = ivy.value_and_grad_flat(lambda ls: jnp.sum(ls[0] * ivy.stop_gradient(ls[0])), [t([3.0])])
    close(grads[0], [3.0])  # the stopped factor is a constant
    close(ivy.stop_gradient(x), [1.0, 2.0], 0)


def test_jax_optimizer_updates_vs_numpy():
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


def test_jax_plugin_import_is_framework_free():
    code = "import sys, ivy_jax; assert 'jax' not in sys.modules, 'jax imported'; print(ivy_jax.ivy_compile)"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr


# ===================================================================================== random


def test_jax_seed_reproducible_and_global_key_advances():
    ivy.seed(7, backend="jax")
    a = ivy.random_uniform(shape=(5,), backend="jax")
    b = ivy.random_normal(shape=(5,), backend="jax")
    assert not np.array_equal(npa(a), npa(ivy.random_uniform(shape=(5,), backend="jax")))
    ivy.seed(7, backend="jax")
    close(ivy.random_uniform(shape=(5,), backend="jax"), npa(a), 0)
    close(ivy.random_normal(shape=(5,), backend="jax"), npa(b), 0)
    # a per-call seed is reproducible and leaves the global key alone
    ivy.seed(3, backend="jax")
    ref = npa(ivy.random_uniform(shape=(4,), backend="jax"))
    ivy.seed(3, backend="jax")
    s1 = ivy.random_uniform(shape=(4,), seed=11, backend="jax")
    close(ivy.random_uniform(shape=(4,), backend="jax"), ref, 0)
    close(ivy.random_uniform(shape=(4,), seed=11, backend="jax"), npa(s1), 0)
    for fn in (
        lambda s: ivy.random_normal(shape=(3,), seed=s, backend="jax"),
        lambda s: ivy.randint(0, 100, (3,), seed=s, backend="jax"),
        lambda s: ivy.multinomial(10, 4, replace=False, seed=s, backend="jax"),
        lambda s: ivy.shuffle(jnp.arange(10), seed=s),
        lambda s: ivy.bernoulli(0.5, shape=(8,), seed=s, backend="jax"),
        lambda s: ivy.dropout(jnp.ones(8), 0.5, seed=s),
    ):
        close(fn(5), npa(fn(5)), 0)


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
    # the numbers are JAX's own for that key
    close(xp.random_normal(shape=(6,), key=k), npa(jax.random.normal(k, (6,), jnp.float64)), 0)
    legacy = jax.random.PRNGKey(0)  # raw uint32[2] keys work too
    assert xp.random_uniform(shape=(2,), key=legacy).shape == (2,)
    with pytest.raises(ValueError):
        xp.random_uniform(shape=(2,), key=k, seed=1)

    # under jit: the key is an argument, so every call draws fresh numbers
    @jax.jit
    def noisy(x, key):
        k1, k2 = jax.random.split(key)
        return x + xp.random_normal(shape=x.shape, key=k1) + xp.dropout(x, 0.5, key=k2)

    x = jnp.zeros(1000)
    y1, y2 = npa(noisy(x, jax.random.key(0))), npa(noisy(x, jax.random.key(1)))
    assert not np.array_equal(y1, y2)
    close(noisy(x, jax.random.key(0)), y1, 0)
    assert abs(y1.mean()) < 0.15 and abs(y1.std() - 1.0) < 0.1


def test_jax_random_uniform_distribution():
    x = ivy.random_uniform(low=-2.0, high=3.0, shape=(20000,), seed=0, backend="jax")
    assert x.dtype == jnp.float64 and x.shape == (20000,)  # the default float under x64
    a = npa(x)
    assert a.min() >= -2.0 and a.max() < 3.0
    assert stats.kstest(a, stats.uniform(loc=-2.0, scale=5.0).cdf).pvalue > 1e-3
    lo, hi = t([0.0, 10.0]), t([[1.0, 20.0]] * 3)
    y = ivy.random_uniform(low=lo, high=hi, dtype="float32", seed=1)
    assert y.shape == (3, 2) and y.dtype == jnp.float32
    assert bool(((y >= lo) & (y < hi)).all())
    assert ivy.random_uniform(seed=2, backend="jax").shape == ()


def test_jax_random_normal_distribution():
    x = npa(ivy.random_normal(mean=1.5, std=2.0, shape=(20000,), dtype="float64", seed=1, backend="jax"))
    assert abs(x.mean() - 1.5) < 0.06 and abs(x.std() - 2.0) < 0.06
    assert stats.kstest(x, stats.norm(loc=1.5, scale=2.0).cdf).pvalue > 1e-3
    y = ivy.random_normal(mean=t([0.0, 100.0]), std=1.0, seed=2)
    assert y.shape == (2,) and abs(float(y[1]) - 100.0) < 6
    z = npa(ivy.random_normal(mean=t([-3.0, 5.0]), std=t([0.1, 3.0]), shape=(5000, 2), seed=3))
    for j, (m, s) in enumerate(((-3.0, 0.1), (5.0, 3.0))):
        assert stats.kstest(z[:, j], stats.norm(loc=m, scale=s).cdf).pvalue > 1e-3


def test_jax_randint():
    x = ivy.randint(-3, 4, (5000,), seed=0, backend="jax")
    assert x.dtype == jnp.int64
    assert set(npa(x).tolist()) == set(range(-3, 4))
    assert stats.chisquare(np.bincount(npa(x) + 3)).pvalue > 1e-3
    y = ivy.randint(t([0, 100], jnp.int64), t([2, 105], jnp.int64), (1000, 2), dtype="int32", seed=1)
    assert y.dtype == jnp.int32
    a = npa(y)
    assert set(a[:, 0].tolist()) == {0, 1} and set(a[:, 1].tolist()) == set(range(100, 105))
    with pytest.raises(ValueError):
        ivy.randint(3, 3, (2,), backend="jax")


def test_jax_multinomial():
    x = npa(ivy.multinomial(5, 6, batch_size=3, seed=0, backend="jax"))
    assert x.shape == (3, 6) and x.min() >= 0 and x.max() < 5 and x.dtype == np.int64
    probs = t([[0.0, 1.0, 3.0]] * 2, jnp.float32)
    y = npa(ivy.multinomial(3, 4000, probs=probs, seed=1))
    assert y.shape == (2, 4000) and (y != 0).all()
    assert abs((y == 2).mean() - 0.75) < 0.03
    z = npa(ivy.multinomial(10, 10, batch_size=4, replace=False, seed=2, backend="jax"))
    assert all(sorted(row) == list(range(10)) for row in z.tolist())
    w = npa(ivy.multinomial(4, 3, probs=t([[0.5, 0.0, 0.25, 0.25]]), replace=False, seed=3))
    assert sorted(w[0].tolist()) == [0, 2, 3]
    # without replacement, the first draw follows probs
    firsts = np.array([npa(ivy.multinomial(3, 2, probs=t([0.6, 0.3, 0.1]), replace=False, seed=s))[0, 0] for s in range(300)])
    assert abs((firsts == 0).mean() - 0.6) < 0.1


def test_jax_shuffle_and_bernoulli():
    x = jnp.arange(12).reshape(3, 4)
    s = npa(ivy.shuffle(x, 1, seed=3))
    assert sorted(s[0].tolist()) == [0, 1, 2, 3]
    np.testing.assert_array_equal(s - s[:, :1], np.broadcast_to(s[0] - s[0, 0], (3, 4)))  # whole columns move
    with pytest.raises(ValueError):
        ivy.shuffle(t(1.0))
    b = ivy.bernoulli(0.3, shape=(20000,), seed=0, backend="jax")
    assert b.dtype == jnp.float64 and set(npa(b).tolist()) <= {0.0, 1.0}
    assert abs(npa(b).mean() - 0.3) < 0.015
    p = t([[0.0, 1.0, 0.5]] * 4000, jnp.float32)
    c = npa(ivy.bernoulli(p, dtype="bool", seed=1))
    assert c.dtype == np.bool_ and not c[:, 0].any() and c[:, 1].all() and abs(c[:, 2].mean() - 0.5) < 0.03
    d = ivy.bernoulli(t([0.2, 0.9]), shape=(3, 2), dtype="int32", seed=2)
    assert d.shape == (3, 2) and d.dtype == jnp.int32


def test_jax_dropout():
    x = jnp.ones(20000, dtype=jnp.float64)
    y = npa(ivy.dropout(x, 0.25, seed=0))
    assert set(np.unique(y).tolist()) <= {0.0, 1.0 / 0.75}
    assert abs((y == 0).mean() - 0.25) < 0.015
    z = npa(ivy.dropout(x, 0.25, scale=False, seed=0))
    np.testing.assert_array_equal(z == 0, y == 0)  # the same seed drops the same elements
    assert set(np.unique(z).tolist()) <= {0.0, 1.0}
    assert ivy.dropout(x, 0.5, training=False) is x
    assert ivy.dropout(x.astype(jnp.float32), 0.5, seed=1).dtype == jnp.float32


# ===================================================================================== device


def test_jax_device_cpu_round_trip():
    cpu = jax.devices("cpu")[0]
    x = jax.device_put(jnp.ones(3), cpu)
    assert ivy.dev(x) == "cpu"
    assert ivy.dev(x, as_native=True) == cpu
    for d in ("cpu", cpu, "CPU", "cpu:0"):
        y = ivy.to_device(x, d)
        assert ivy.dev(y) == "cpu" and y is x  # already there: no copy
    devs = ivy.devices(backend="jax")
    assert devs[0] == "cpu"
    assert ivy.num_gpus(backend="jax") == len(_gpus())
    assert ivy.gpu_is_available(backend="jax") is bool(_gpus())
    assert [d for d in devs if d.startswith("gpu:")] == [f"gpu:{i}" for i in range(len(_gpus()))]
    d = ivy.default_device(backend="jax")
    assert d in devs and ivy.dev(jnp.ones(2)) == d
    assert ivy.default_device(as_native=True, backend="jax") == jax.devices()[0]
    if not _gpus():
        assert d == "cpu"


def test_jax_device_inside_jit_and_errors():
    # tracers have no concrete device: dev reports the default one, so compositions still work
    out = jax.jit(lambda a: jnp.zeros(2) + (1.0 if ivy.dev(a) == ivy.default_device(backend="jax") else 0.0))(jnp.ones(2))
    close(out, [1.0, 1.0], 0)
    close(jax.jit(lambda a: ivy.one_hot(a, 3))(t([2, 0], jnp.int64)), [[0, 0, 1], [1, 0, 0]], 0)
    x = jnp.ones(2)
    with pytest.raises(ValueError):
        ivy.to_device(x, "nonsense:0")
    with pytest.raises(ValueError):
        ivy.to_device(x, f"gpu:{len(_gpus())}")  # one past the last GPU (gpu:0 on a CPU-only machine)
    with pytest.raises(ValueError):
        ivy.to_device(x, 3.5)


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


# =============================================================================== nn references


def cf(a, n):
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
    (3, (5, 6, 4), (2, 3, 2), (1, 2, 1), "SAME", 1),
    (3, (5, 5, 5), (3, 2, 2), 2, [(1, 1), (0, 2), (1, 0)], (1, 1, 2)),
]


@pytest.mark.parametrize("case", CONV_CASES, ids=lambda c: f"{c[0]}d-{c[4]}-s{c[3]}-d{c[5]}")
@pytest.mark.parametrize("channel_first", [False, True])
def test_jax_conv_vs_numpy(case, channel_first):
    n, sp, K, strides, padding, dil = case
    r = rng(10)
    x = r.normal(size=(2, *sp, 3))
    w = r.normal(size=(*K, 3, 4))
    s, d = _norm(strides, n), _norm(dil, n)
    pads = _pads_of(padding, n, sp, [d[i] * (K[i] - 1) + 1 for i in range(n)], s)
    want = np_conv(x, w, s, pads, d)
    fmt = FMT[n][int(channel_first)]
    xin = cf(x, n) if channel_first else x
    got = getattr(ivy, CONV[n])(t(xin), t(w), strides, padding, data_format=fmt, dilations=dil)
    close(got, cf(want, n) if channel_first else want, 1e-9)


def test_jax_conv_vs_scipy_and_torch_functional():
    torch = _torch()
    F = torch.nn.functional
    r = rng(11)
    img, ker = r.normal(size=(6, 7)), r.normal(size=(3, 2))
    got = ivy.conv2d(t(img[None, :, :, None]), t(ker[:, :, None, None]), 1, "VALID")
    close(got[0, :, :, 0], signal.correlate2d(img, ker, mode="valid"), 1e-10)
    # against torch.nn.functional with the same weights permuted to torch's [out, in, *k]
    x, w = r.normal(size=(2, 3, 8, 8)), r.normal(size=(3, 3, 3, 5))
    want = F.conv2d(torch.tensor(x), torch.tensor(w).permute(3, 2, 0, 1), stride=2, padding=1, dilation=1)
    close(ivy.conv2d(t(x), t(w), 2, 1, data_format="NCHW"), want.numpy(), 1e-10)
    x1, w1 = r.normal(size=(2, 4, 11)), r.normal(size=(3, 4, 2))
    want = F.conv1d(torch.tensor(x1), torch.tensor(w1).permute(2, 1, 0), stride=2, padding=2, dilation=2)
    close(ivy.conv1d(t(x1), t(w1), 2, 2, data_format="NCW", dilations=2), want.numpy(), 1e-10)
    x3, w3 = r.normal(size=(1, 2, 5, 6, 4)), r.normal(size=(2, 3, 2, 2, 3))
    want = F.conv3d(torch.tensor(x3), torch.tensor(w3).permute(4, 3, 0, 1, 2), stride=(1, 2, 1), padding=1)
    close(ivy.conv3d(t(x3), t(w3), (1, 2, 1), 1, data_format="NCDHW"), want.numpy(), 1e-10)
    # transposed: torch's weights are [in, out, *k]; Ivy's [*k, out, in]
    xt, wt = r.normal(size=(2, 3, 4, 5)), r.normal(size=(3, 3, 4, 3))
    want = F.conv_transpose2d(torch.tensor(xt), torch.tensor(wt).permute(3, 2, 0, 1), stride=2, padding=1, output_padding=1)
    got = ivy.conv2d_transpose(t(xt), t(wt), 2, 1, output_shape=want.shape[2:], data_format="NCHW")
    close(got, want.numpy(), 1e-10)
    # depthwise: groups = channels, torch weights [c, 1, kh, kw]
    xd, wd = r.normal(size=(2, 3, 7, 6)), r.normal(size=(3, 2, 3))
    want = F.conv2d(torch.tensor(xd), torch.tensor(wd).permute(2, 0, 1)[:, None], padding=(1, 0), groups=3)
    close(ivy.depthwise_conv2d(t(xd), t(wd), 1, [(1, 1), (0, 0)], data_format="NCHW"), want.numpy(), 1e-10)


def test_jax_conv_gradient_vs_finite_differences():
    r = rng(19)
    x, w = r.normal(size=(1, 5, 6, 2)), r.normal(size=(2, 3, 2, 2))

    def loss_np(ls):
        pads = same_pads((5, 6), (2, 3), (2, 2))
        return float(np.sum(np_conv(ls[0], ls[1], (2, 2), pads, (1, 1)) ** 2))

    _, g, _ = ivy.value_and_grad_flat(lambda ls: jnp.sum(ivy.conv2d(ls[0], ls[1], 2, "SAME") ** 2), [t(x), t(w)])
    gx, gw = fd_grad(loss_np, [x, w])
    close(g[0], gx, 1e-6)
    close(g[1], gw, 1e-6)


def test_jax_conv_same_output_size_dtype_and_jit():
    for size in range(5, 11):
        for s in (1, 2, 3):
            y = ivy.conv1d(jnp.ones((1, size, 2), jnp.float32), jnp.ones((4, 2, 3)), s, "SAME")
            assert y.shape == (1, -(-size // s), 3) and y.dtype == jnp.float32
    f = jax.jit(lambda a, b: ivy.conv2d_transpose(a, b, 2, "SAME"))
    assert f(jnp.ones((1, 3, 4, 2)), jnp.ones((3, 3, 5, 2))).shape == (1, 6, 8, 5)


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
def test_jax_conv_transpose_vs_numpy_and_adjoint(case, channel_first):
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
    xin = cf(x, n) if channel_first else x
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


def test_jax_depthwise_conv2d_vs_numpy():
    r = rng(13)
    x, w = r.normal(size=(2, 7, 6, 3)), r.normal(size=(3, 2, 3))
    for strides, padding, dil in ((1, "SAME", 1), (2, "VALID", 1), ((1, 2), [(1, 0), (2, 1)], (2, 1))):
        s, d = _norm(strides, 2), _norm(dil, 2)
        pads = _pads_of(padding, 2, (7, 6), [d[0] * 2 + 1, d[1] * 1 + 1], s)
        want = np.concatenate([np_conv(x[..., c : c + 1], w[..., c : c + 1, None], s, pads, d) for c in range(3)], -1)
        close(ivy.depthwise_conv2d(t(x), t(w), strides, padding, dilations=dil), want, 1e-10)
        got = ivy.depthwise_conv2d(t(cf(x, 2)), t(w), strides, padding, dilations=dil, data_format="NCHW")
        close(got, cf(want, 2), 1e-10)


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
def test_jax_pools_vs_numpy(case, channel_first):
    n, sp, k, strides, padding = case
    r = rng(14)
    x = r.normal(size=(2, *sp, 3))
    kk, s = _norm(k, n), _norm(strides, n)
    pads = _pads_of(padding, n, sp, kk, s)
    fmt = FMT[n][int(channel_first)]
    xin = t(cf(x, n) if channel_first else x)
    for kind in ("max", "avg"):
        for cip in (False, True) if kind == "avg" else (False,):
            want = np_pool(x, kk, s, pads, kind, cip)
            extra = {"count_include_pad": cip} if kind == "avg" else {}
            got = getattr(ivy, f"{kind}_pool{n}d")(xin, k, strides, padding, data_format=fmt, **extra)
            close(got, cf(want, n) if channel_first else want, 1e-10)


def test_jax_pools_vs_torch_functional_and_gradients():
    torch = _torch()
    F = torch.nn.functional
    a = rng(16).normal(size=(2, 3, 9, 9))
    x, tx = t(a), torch.tensor(a, requires_grad=True)
    close(ivy.max_pool2d(x, 3, 2, 1, data_format="NCHW"), F.max_pool2d(tx, 3, 2, 1).detach().numpy(), 0)
    close(
        ivy.avg_pool2d(x, 3, 2, 1, data_format="NCHW", count_include_pad=True),
        F.avg_pool2d(tx, 3, 2, 1, count_include_pad=True).detach().numpy(),
        1e-12,
    )
    close(
        ivy.avg_pool3d(t(a[:, :, None]), (1, 3, 2), (1, 2, 2), [(0, 0), (1, 1), (1, 1)], data_format="NCDHW", count_include_pad=False),
        F.avg_pool3d(torch.tensor(a[:, :, None]), (1, 3, 2), (1, 2, 2), (0, 1, 1), count_include_pad=False).numpy(),
        1e-12,
    )
    # gradients through the pools, against torch.autograd
    (F.max_pool2d(tx, 3, 2, 1) ** 2).sum().backward()
    g = ivy.grad(lambda v: jnp.sum(ivy.max_pool2d(v, 3, 2, 1, data_format="NCHW") ** 2))(x)
    close(g, tx.grad.numpy(), 1e-12)
    tx.grad = None
    (F.avg_pool2d(tx, 2, 2, 1, count_include_pad=False) ** 2).sum().backward()
    g = ivy.grad(lambda v: jnp.sum(ivy.avg_pool2d(v, 2, 2, 1, data_format="NCHW") ** 2))(x)
    close(g, tx.grad.numpy(), 1e-12)


def test_jax_max_pool_integer_and_bool_input():
    x = rng(15).integers(-50, 50, size=(2, 7, 6, 3))
    want = np_pool(x.astype(np.float64), (3, 2), (2, 2), same_pads((7, 6), (3, 2), (2, 2)), "max")
    for dt in (jnp.int64, jnp.int8, jnp.int32):
        got = ivy.max_pool2d(t(x, dt), (3, 2), 2, "SAME")
        assert got.dtype == dt
        close(got, want, 0)
    got = ivy.max_pool2d(t(x + 50, jnp.uint8), (3, 2), 2, "SAME")
    assert got.dtype == jnp.uint8
    close(got, want + 50, 0)
    b = ivy.max_pool1d(t([[[0], [1], [0], [0], [0], [0]]], jnp.bool_), 2, 2, "VALID")
    assert b.dtype == jnp.bool_
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
    "softplus": lambda a: np.log1p(np.exp(a)),
    "leaky_relu": lambda a: np.where(a >= 0, a, 0.2 * a),
}


@pytest.mark.parametrize("name", sorted(ACTS))
def test_jax_activations_vs_numpy(name):
    a = np.concatenate([np.linspace(-6, 6, 41), [-30.0, 30.0, 0.0]])
    got = getattr(ivy, name)(t(a))
    assert got.dtype == jnp.float64
    close(got, ACTS[name](a), 1e-12)
    assert getattr(ivy, name)(t(a, jnp.float32)).dtype == jnp.float32


def test_jax_activation_options_vs_numpy():
    a = np.linspace(-5, 5, 31)
    close(ivy.gelu(t(a), approximate=True), 0.5 * a * (1 + np.tanh(np.sqrt(2 / np.pi) * (a + 0.044715 * a**3))), 1e-12)
    close(ivy.leaky_relu(t(a), alpha=0.01), np.where(a >= 0, a, 0.01 * a))
    close(ivy.elu(t(a), alpha=2.0), np.where(a > 0, a, 2.0 * np.expm1(a)))
    b = 3.0
    close(ivy.softplus(t(a), beta=b, threshold=5.0), np.where(b * a > 5.0, a, np.log1p(np.exp(b * a)) / b))
    close(ivy.softplus(t([1000.0, -1000.0])), [1000.0, 0.0], 0)
    x = rng(18).normal(size=(3, 4, 5))
    for axis in (-1, 0, 1):
        close(ivy.softmax(t(x), axis=axis), special.softmax(x, axis=axis))
        close(ivy.log_softmax(t(x), axis=axis), special.log_softmax(x, axis=axis))
    close(ivy.erf(t([-40.0, 40.0])), [-1.0, 1.0], 0)


def test_jax_activation_gradients_vs_torch():
    torch = _torch()
    F = torch.nn.functional
    a = np.linspace(-3, 3, 13)
    pairs = {
        "gelu": lambda v: F.gelu(v), "silu": F.silu, "mish": F.mish, "elu": F.elu, "selu": F.selu,
        "softplus": F.softplus, "sigmoid": torch.sigmoid, "hardswish": F.hardswish, "erf": torch.erf,
    }
    for name, tf in pairs.items():
        tv = torch.tensor(a, requires_grad=True)
        tf(tv).sum().backward()
        g = ivy.grad(lambda v: jnp.sum(getattr(ivy, name)(v)))(t(a))
        close(g, tv.grad.numpy(), 1e-10)


def test_jax_linear_embedding_one_hot():
    r = rng(19)
    x, w, b = r.normal(size=(2, 3, 4)), r.normal(size=(5, 4)), r.normal(size=(5,))
    close(ivy.linear(t(x), t(w), t(b)), x @ w.T + b)
    close(ivy.linear(t(x), t(w)), x @ w.T)
    close(ivy.linear(t(x, jnp.float32), t(w), t(b)), x.astype(np.float32).astype(np.float64) @ w.T + b, 1e-6)
    table = r.normal(size=(6, 3))
    idx = np.array([[0, 5], [2, 2]])
    close(ivy.embedding(t(table), t(idx, jnp.int64)), table[idx])
    close(ivy.embedding(t(table), t(idx, jnp.int32)), table[idx])
    got = ivy.embedding(t(table), t(idx, jnp.int64), max_norm=0.5)
    rows = table[idx]
    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    close(got, np.where(norms > 0.5, rows * 0.5 / norms, rows))
    oh = ivy.one_hot(t([0, 2, -1, 7], jnp.int64), 4)
    assert oh.dtype == jnp.float64
    close(oh, [[1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0]], 0)
    oh8 = ivy.one_hot(t([3, 200], jnp.uint8), 300, dtype="bool")
    assert oh8.shape == (2, 300) and bool(oh8[0, 3]) and bool(oh8[1, 200]) and int(oh8.sum()) == 2
    oh2 = ivy.one_hot(t([[1, 0]], jnp.int32), 3, dtype="int64", axis=0)
    assert oh2.shape == (3, 1, 2) and oh2.dtype == jnp.int64
    close(oh2, np.moveaxis(np.eye(3, dtype=np.int64)[[[1, 0]]], -1, 0), 0)


def test_jax_layer_norm_vs_numpy_and_torch():
    r = rng(20)
    x = r.normal(size=(2, 3, 4))
    s, o = r.normal(size=(4,)), r.normal(size=(4,))
    close(ivy.layer_norm(t(x), -1, scale=t(s), offset=t(o)), _np_layer_norm(x, (-1,), s, o))
    close(ivy.layer_norm(t(x), (1, 2)), _np_layer_norm(x, (1, 2)))
    s1 = r.normal(size=(3, 1))
    close(ivy.layer_norm(t(x), 1, scale=t(s1), eps=1e-3), _np_layer_norm(x, (1,), s1, eps=1e-3))
    close(ivy.layer_norm(t(x), (0, 2), offset=t(o)), _np_layer_norm(x, (0, 2), None, o))
    torch = _torch()
    close(ivy.layer_norm(t(x), (-2, -1)), torch.nn.functional.layer_norm(torch.tensor(x), (3, 4)).numpy(), 1e-12)


def test_jax_batch_and_group_norm_composed_vs_numpy():
    r = rng(21)
    x = r.normal(size=(4, 3, 3, 2))  # NHWC, c = 2
    mean, var = r.normal(size=(2,)), r.uniform(0.5, 2, size=(2,))
    sc, of = r.normal(size=(2,)), r.normal(size=(2,))
    y, m, v = ivy.batch_norm(t(x), t(mean), t(var), offset=t(of), scale=t(sc))
    close(y, (x - mean) / np.sqrt(var + 1e-5) * sc + of)
    y, m, v = ivy.batch_norm(t(x), t(mean), t(var), offset=t(of), scale=t(sc), training=True, momentum=0.2)
    bm, bv = x.mean(axis=(0, 1, 2)), x.var(axis=(0, 1, 2))
    close(y, (x - bm) / np.sqrt(bv + 1e-5) * sc + of)
    close(m, 0.8 * mean + 0.2 * bm)
    close(v, 0.8 * var + 0.2 * x.var(axis=(0, 1, 2), ddof=1))
    g = x.reshape(4, 3, 3, 1, 2)
    gm, gv = g.mean(axis=(1, 2, 4), keepdims=True), g.var(axis=(1, 2, 4), keepdims=True)
    close(ivy.group_norm(t(x), 1), ((g - gm) / np.sqrt(gv + 1e-5)).reshape(x.shape))


def test_jax_lstm_update_and_lstm_vs_numpy():
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
    hs, _ = ivy.lstm_update(t(x), t(h0), t(c0), t(k), t(rk))
    close(hs, _np_lstm(x, h0, c0, k, rk, 0 * b, 0 * b)[0])
    # unbatched input goes through the composition
    hs1, (h1, _) = ivy.lstm_update(t(x[0]), t(h0[0]), t(c0[0]), t(k), t(rk), bias=t(b))
    close(hs1, _np_lstm(x[:1], h0[:1], c0[:1], k, rk, b, 0 * b)[0][0])
    # differentiable through the scan, against finite differences
    def loss_np(ls):
        return float(np.sum(_np_lstm(x, h0, c0, ls[0], rk, b, rb)[0] ** 2))

    _, g, _ = ivy.value_and_grad_flat(lambda ls: jnp.sum(ivy.lstm_update(t(x), t(h0), t(c0), ls[0], t(rk), bias=t(b), recurrent_bias=t(rb))[0] ** 2), [t(k)])
    close(g[0], fd_grad(loss_np, [k])[0], 1e-6)
    k2, rk2 = r.normal(size=(H, 4 * H)) * 0.5, r.normal(size=(H, 4 * H)) * 0.5
    H0, C0 = r.normal(size=(2, B_, H)), r.normal(size=(2, B_, H))
    hs, (hn, cn) = ivy.lstm(t(x), t(H0), t(C0), [t(k), t(k2)], [t(rk), t(rk2)], biases=[t(b), t(rb)])
    l1, h1, c1 = _np_lstm(x, H0[0], C0[0], k, rk, b, 0 * b)
    l2, h2, c2 = _np_lstm(l1, H0[1], C0[1], k2, rk2, rb, 0 * b)
    close(hs, l2)
    close(hn, np.stack([h1, h2]))
    close(cn, np.stack([c1, c2]))


def test_jax_scaled_dot_product_attention_vs_numpy():
    r = rng(24)
    q, k, v = r.normal(size=(2, 3, 4, 8)), r.normal(size=(2, 3, 6, 8)), r.normal(size=(2, 3, 6, 5))
    close(ivy.scaled_dot_product_attention(t(q), t(k), t(v)), _np_attention(q, k, v))
    close(ivy.scaled_dot_product_attention(t(q), t(k), t(v), scale=0.3), _np_attention(q, k, v, scale=0.3))
    m = r.random((4, 6)) > 0.3
    m[:, 0] = True
    close(ivy.scaled_dot_product_attention(t(q), t(k), t(v), mask=t(m, jnp.bool_)), _np_attention(q, k, v, m))
    fm = r.normal(size=(3, 4, 6))
    close(ivy.scaled_dot_product_attention(t(q), t(k), t(v), mask=t(fm)), _np_attention(q, k, v, fm))
    qs = r.normal(size=(2, 3, 6, 8))
    close(ivy.scaled_dot_product_attention(t(qs), t(k), t(v), is_causal=True), _np_attention(qs, k, v, causal=True))
    close(ivy.scaled_dot_product_attention(t(q), t(k), t(v), is_causal=True), _np_attention(q, k, v, causal=True))
    m2 = np.ones((4, 6), dtype=bool)
    m2[2] = False
    out = npa(ivy.scaled_dot_product_attention(t(q), t(k), t(v), mask=t(m2, jnp.bool_)))
    assert np.isnan(out[:, :, 2]).all() and not np.isnan(out[:, :, [0, 1, 3]]).any()
    ivy.seed(0, backend="jax")
    dropped = ivy.scaled_dot_product_attention(t(q), t(k), t(v), dropout_p=0.5)
    assert dropped.shape == (2, 3, 4, 5) and bool(jnp.isfinite(dropped).all())
    torch = _torch()
    want = torch.nn.functional.scaled_dot_product_attention(torch.tensor(qs), torch.tensor(k), torch.tensor(v), is_causal=True)
    close(ivy.scaled_dot_product_attention(t(qs), t(k), t(v), is_causal=True), want.numpy(), 1e-12)


def test_jax_losses_composed_vs_numpy():
    r = rng(26)
    yt, yp = r.normal(size=(4, 3)), r.normal(size=(4, 3))
    for red, fn in (("mean", np.mean), ("sum", np.sum), ("none", lambda a: a)):
        close(ivy.mse_loss(t(yt), t(yp), reduction=red), fn((yp - yt) ** 2))
        d = np.abs(yp - yt)
        close(ivy.huber_loss(t(yt), t(yp), delta=0.7, reduction=red), fn(np.where(d <= 0.7, 0.5 * d**2, 0.7 * (d - 0.35))))
    p = special.softmax(yp, -1)
    close(ivy.sparse_cross_entropy(t([0, 2, 1, 1], jnp.int64), t(p)), np.mean(-np.log(p[np.arange(4), [0, 2, 1, 1]])))


# ==================================================================================== general


def test_jax_einsum_vs_numpy():
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
    got = ivy.einsum("ij,jk->ik", t(a, jnp.float32), t(b))
    assert got.dtype == jnp.float64
    close(got, a.astype(np.float32).astype(np.float64) @ b, 1e-12)
    ia, ib = r.integers(-5, 5, (2, 3)), r.integers(-5, 5, (3, 2))
    got = ivy.einsum("ij,jk->ik", t(ia, jnp.int64), t(ib, jnp.int32))
    assert got.dtype == jnp.int64
    close(got, ia @ ib, 0)


@pytest.mark.parametrize("reduction", ["sum", "replace", "min", "max"])
def test_jax_scatter_nd_vs_numpy(reduction):
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
    got = npa(ivy.scatter_nd(t(idx, jnp.int64), t(upd), (3, 4), reduction=reduction))
    if reduction == "replace":  # which duplicate wins is unspecified
        dup = {(0, 1): {upd[0], upd[2]}, (2, 3): {upd[1], upd[4]}}
        for pos, vals in dup.items():
            assert got[pos] in vals
            got[pos] = want[pos] = 0
    close(got, want, 1e-12)
    # under jit with a static shape
    f = jax.jit(lambda i, u: ivy.scatter_nd(i, u, (3, 4), reduction=reduction))
    got2 = npa(f(t(idx, jnp.int64), t(upd)))
    if reduction != "replace":
        close(got2, want, 1e-12)


def test_jax_scatter_nd_slices_and_shape_inference():
    r = rng(32)
    idx = np.array([[1], [3], [1]])
    upd = r.normal(size=(3, 2))
    want = np.zeros((5, 2))
    np.add.at(want, idx[:, 0], upd)
    close(ivy.scatter_nd(t(idx, jnp.int32), t(upd), (5, 2)), want)
    got = ivy.scatter_nd(t(idx, jnp.int64), t(upd))  # shape inferred: (max + 1, trailing)
    assert got.shape == (4, 2)
    close(got, want[:4])
    s = ivy.scatter_nd(t([[0, 0], [1, 1]], jnp.int64), 2.5, (2, 2))
    assert s.dtype == jnp.float64
    close(s, [[2.5, 0], [0, 2.5]], 0)
    mx = ivy.scatter_nd(t(idx, jnp.int64), t(upd), (5, 2), reduction="max")
    w = np.zeros((5, 2))
    w[1] = np.maximum(upd[0], upd[2])
    w[3] = upd[1]
    close(mx, w)


@pytest.mark.parametrize("reduction", ["sum", "min", "max"])
def test_jax_scatter_flat_vs_numpy(reduction):
    r = rng(33)
    idx = r.integers(0, 6, size=12)
    upd = r.integers(-20, 20, size=12)
    ufunc = {"sum": np.add, "min": np.minimum, "max": np.maximum}[reduction]
    want = np.full(8, {"sum": 0, "min": 10**6, "max": -(10**6)}[reduction])
    ufunc.at(want, idx, upd)
    want[np.isin(np.arange(8), idx, invert=True)] = 0
    got = ivy.scatter_flat(t(idx, jnp.int64), t(upd, jnp.int64), 8, reduction=reduction)
    assert got.dtype == jnp.int64
    close(got, want, 0)
    got2 = ivy.scatter_flat(t(idx, jnp.int64), t(upd, jnp.int64), reduction=reduction)
    assert got2.shape == (idx.max() + 1,)
    with pytest.raises(ValueError):
        ivy.scatter_flat(t(idx, jnp.int64), t(upd, jnp.int64), 8, reduction="mean")


def test_jax_scatter_gradient_vs_torch():
    torch = _torch()
    idx = np.array([0, 2, 0, 3])
    u = np.array([1.0, -2.0, 3.0, 0.5])
    tu = torch.tensor(u, requires_grad=True)
    (torch.zeros(5, dtype=torch.float64).index_add(0, torch.tensor(idx), tu) ** 2).sum().backward()
    g = ivy.grad(lambda v: jnp.sum(ivy.scatter_flat(t(idx, jnp.int64), v, 5) ** 2))(t(u))
    close(g, tu.grad.numpy(), 1e-12)


def test_jax_gather_and_gather_nd_vs_numpy():
    r = rng(34)
    p = r.normal(size=(3, 4, 5))
    idx = r.integers(0, 4, size=(2, 3))
    for axis in (0, 1, -1):
        i = idx % p.shape[axis]
        close(ivy.gather(t(p), t(i, jnp.int64), axis=axis), np.take(p, i, axis=axis), 0)
    close(ivy.gather(t(p), t(idx, jnp.int32), axis=1), np.take(p, idx, axis=1), 0)
    bi = r.integers(0, 5, size=(3, 2))
    want = np.stack([p[b][:, bi[b]] for b in range(3)])  # batch_dims=1, axis=2
    close(ivy.gather(t(p), t(bi, jnp.int64), axis=2, batch_dims=1), want, 0)
    nd = np.array([[0, 1], [2, 3], [1, 0]])
    close(ivy.gather_nd(t(p), t(nd, jnp.int64)), p[nd[:, 0], nd[:, 1]], 0)
    nd3 = np.array([[[0, 1, 2]], [[2, 3, 4]]])
    close(ivy.gather_nd(t(p), t(nd3, jnp.int64)), p[nd3[..., 0], nd3[..., 1], nd3[..., 2]], 0)
    bnd = r.integers(0, 4, size=(3, 2, 1))
    want = np.stack([p[b][bnd[b, :, 0]] for b in range(3)])
    close(ivy.gather_nd(t(p), t(bnd, jnp.int64), batch_dims=1), want, 0)


def test_jax_get_item_set_item_inplace_update_vs_numpy():
    a = np.arange(24.0).reshape(2, 3, 4)
    x = t(a)
    for q in ((slice(None, None, -1),), (1, slice(None, None, -2)), (Ellipsis, slice(3, 0, -2)), (None, 0, slice(None), slice(None, None, -1)), [1, 0]):
        close(ivy.get_item(x, q), a[q], 0)
    close(ivy.get_item(x, (t(a[..., 0] > 5, jnp.bool_), slice(None, None, -1))), a[a[..., 0] > 5][:, ::-1], 0)
    for q, val in (((0, slice(1, 3)), 7.0), ((Ellipsis, slice(None, None, -2)), np.array([-1.0, -2.0])), ((1, slice(2, None, -1), 0), np.array([5.0, 6.0, 7.0]))):
        want = a.copy()
        want[q] = val
        got = ivy.set_item(x, q, t(val) if isinstance(val, np.ndarray) else val)
        close(got, want, 0)
        close(x, a, 0)  # not modified
    close(ivy.set_item(x, t(a > 20, jnp.bool_), 0.0), np.where(a > 20, 0.0, a), 0)
    xi = t(np.arange(4), jnp.int32)
    yi = ivy.set_item(xi, 1, 2.7)  # cast to the dtype of x
    assert yi.dtype == jnp.int32
    close(yi, [0, 2, 2, 3], 0)
    close(ivy.set_item(x, (0, 0, 0), t(9.0, jnp.float32)), np.where(np.arange(24).reshape(2, 3, 4) == 0, 9.0, a), 0)
    with pytest.raises(TypeError, match="immutable"):
        ivy.inplace_update(x, t(np.zeros_like(a)))
    # set_item is differentiable and works under jit
    _, g, _ = ivy.value_and_grad_flat(lambda ls: jnp.sum(ivy.set_item(ls[0], (slice(0, 1),), 0.0) ** 2), [t([1.0, 2.0, 3.0])])
    close(g[0], [0.0, 4.0, 6.0])
    close(jax.jit(lambda v: ivy.set_item(v, 1, -1.0))(t([1.0, 2.0])), [1.0, -1.0], 0)


def test_jax_cumsum_cumprod_vs_numpy():
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
    assert ivy.cumsum(t([1, 2, 3], jnp.int8)).dtype == jnp.int64
    assert ivy.cumsum(t([True, True], jnp.bool_)).dtype == jnp.int64
    assert ivy.cumprod(t([1, 2], jnp.uint8)).dtype == jnp.uint64
    close(ivy.cumsum(t([1, 2, 3], jnp.int32), dtype="float64"), [1.0, 3.0, 6.0], 0)
    close(ivy.cumsum(t(5.0)), 5.0, 0)
    close(ivy.cumsum(t([1.0, 2.0]), exclusive=True), [0.0, 1.0], 0)
    close(ivy.cumsum(t(np.zeros((0, 2))), exclusive=True), np.zeros((0, 2)), 0)


def test_jax_pad_vs_numpy():
    a = np.arange(12.0).reshape(3, 4)
    for pw in (1, (1, 2), ((0, 1), (2, 0)), ((5, 7), (9, 4))):
        np_pw = pw if not isinstance(pw, tuple) or isinstance(pw[0], tuple) else [pw] * 2
        for mode in ("constant", "reflect", "symmetric", "edge", "wrap"):
            kw = {"constant_values": 7.0} if mode == "constant" else {}
            got = ivy.pad(t(a), pw, mode=mode, **({"value": 7.0} if mode == "constant" else {}))
            close(got, np.pad(a, np_pw, mode=mode, **kw), 0)
    b = ivy.pad(t([[True]], jnp.bool_), 1)
    assert b.dtype == jnp.bool_ and b.shape == (3, 3) and int(b.sum()) == 1
    ints = ivy.pad(t([1, 2], jnp.int32), (2, 1), value=-1)
    assert ints.dtype == jnp.int32
    close(ints, [-1, -1, 1, 2, -1], 0)
    with pytest.raises(ValueError):
        ivy.pad(t(a), ((1, 1),))
    with pytest.raises(ValueError):
        ivy.pad(t(np.zeros((0, 2))), 1, mode="reflect")


def test_jax_top_k_split_flatten_transpose_cast():
    r = rng(36)
    a = r.permutation(20).reshape(4, 5).astype(np.float64)
    v, i = ivy.top_k(t(a), 3)
    close(v, -np.sort(-a, axis=-1)[:, :3], 0)
    close(np.take_along_axis(a, npa(i), -1), npa(v), 0)
    assert i.dtype == jnp.int64
    v, i = ivy.top_k(t(a), 2, axis=0, largest=False)
    close(v, np.sort(a, axis=0)[:2], 0)
    close(np.take_along_axis(a, npa(i), 0), npa(v), 0)
    vi, ii = ivy.top_k(t(a, jnp.int64), 2, axis=0, largest=False)  # integers: the composition
    close(vi, np.sort(a, axis=0)[:2], 0)
    vu, _ = ivy.top_k(t(a, jnp.uint8), 2)
    close(vu, -np.sort(-a, axis=-1)[:, :2], 0)
    parts = ivy.split(t(np.arange(7.0)), 3, with_remainder=True)
    assert [p.shape[0] for p in parts] == [2, 2, 2, 1]
    assert [p.shape[1] for p in ivy.split(t(a), [1, 4], axis=1)] == [1, 4]
    assert len(ivy.split(t(a))) == 4
    with pytest.raises(ValueError):
        ivy.split(t(np.arange(7.0)), 3)
    x = t(np.arange(24.0).reshape(2, 3, 4))
    assert ivy.flatten(x).shape == (24,)
    assert ivy.flatten(x, start_dim=1).shape == (2, 12)
    assert ivy.flatten(t(3.0)).shape == (1,)
    with pytest.raises(ValueError):
        ivy.flatten(x, start_dim=2, end_dim=0)
    close(ivy.transpose(x), np.arange(24.0).reshape(2, 3, 4).T, 0)
    close(ivy.transpose(x, (1, 0, 2)), np.arange(24.0).reshape(2, 3, 4).transpose(1, 0, 2), 0)
    c = ivy.cast(x, "int32")
    assert c.dtype == jnp.int32
    assert ivy.cast(x, "float64") is x
    with pytest.raises(TypeError):
        ivy.cast(t([1j], jnp.complex64), "float32")


# ============================================ core's compositions on this backend's namespace


def _composed(name):
    from ivy._compose import load_defaults

    return lambda *a, **k: load_defaults()[name](xp, *a, **k)


def test_jax_core_compositions_run_on_this_backend():
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
    close(_composed("one_hot")(t([2, 0, 5], jnp.int64), 3), [[0, 0, 1], [1, 0, 0], [0, 0, 0]], 0)
    q, kk, vv = r.normal(size=(2, 4, 8)), r.normal(size=(2, 4, 8)), r.normal(size=(2, 4, 3))
    close(_composed("scaled_dot_product_attention")(t(q), t(kk), t(vv)), _np_attention(q, kk, vv), 1e-12)
    close(_composed("scaled_dot_product_attention")(t(q), t(kk), t(vv), is_causal=True), _np_attention(q, kk, vv, causal=True), 1e-12)
    ivy.seed(0, backend="jax")
    dropped = _composed("scaled_dot_product_attention")(t(q), t(kk), t(vv), dropout_p=0.5)
    assert dropped.shape == (2, 4, 3) and bool(jnp.isfinite(dropped).all())
    ones = jnp.ones(64, dtype=jnp.float64)
    np.testing.assert_array_equal(npa(_composed("dropout")(ones, 0.5, seed=1)) == 0, npa(ivy.dropout(ones, 0.5, seed=1)) == 0)
    close(_composed("cumsum")(t(m2), 1, exclusive=True, reverse=True), np.flip(np.cumsum(np.flip(m2, 1), 1), 1) - m2, 1e-12)
    v_, _ = _composed("top_k")(t(m2), 2)
    close(v_, m2[:, ::-1][:, :2], 0)
    p = r.normal(size=(3, 4, 5))
    close(_composed("gather")(t(p), t([[1, 3]], jnp.int64), axis=1), np.take(p, [[1, 3]], axis=1), 0)
    close(_composed("gather_nd")(t(p), t([[0, 1], [2, 2]], jnp.int64)), p[[0, 2], [1, 2]], 0)
    img = r.normal(size=(1, 5, 6, 2))
    close(_composed("adaptive_avg_pool2d")(t(img), 1), img.mean(axis=(1, 2), keepdims=True), 1e-12)
    close(_composed("group_norm")(t(img), 1), _np_layer_norm(img, (1, 2, 3)), 1e-12)
    close(_composed("embedding")(t(p[0]), t([3, 0], jnp.int64)), p[0][[3, 0]], 0)
    close(_composed("linear")(t(p[0]), t(p[1])), p[0] @ p[1].T, 1e-12)
    assert [s_.shape[0] for s_ in _composed("split")(t(np.arange(5.0)), 2, with_remainder=True)] == [2, 2, 1]
    close(_composed("flatten")(t(p), start_dim=1), p.reshape(3, 20), 0)
    close(_composed("transpose")(t(p)), p.T, 0)
    assert _composed("cast")(t(p), "float32").dtype == jnp.float32


# =================================================================================== compile


def _f(x, y):
    return jnp.sin(x) * y + ivy.softmax(x, axis=-1)


def test_jax_compile_matches_eager_and_traces_once():
    x, y = t(rng(40).normal(size=(3, 4))), t(rng(41).normal(size=(3, 4)))
    want = np.sin(npa(x)) * npa(y) + special.softmax(npa(x), axis=-1)
    traces = []

    def g(a, b):
        traces.append(1)
        return _f(a, b)

    compiled = ivy.compile(g)
    close(compiled(x, y), want, 1e-12)
    close(compiled(x * 2, y), np.sin(2 * npa(x)) * npa(y) + special.softmax(2 * npa(x), axis=-1), 1e-12)
    assert len(traces) == 1
    hook = ivy._registry.plugin_manager().hook.ivy_compile
    close(hook(backend="jax", fn=_f, options={})(x, y), want, 1e-12)


def test_jax_compile_hook_only_for_jax_and_options_pass_through():
    from ivy_jax._compile import ivy_compile

    assert ivy_compile(backend="numpy", fn=_f, options={}) is None
    fn = ivy_compile(backend="jax", fn=lambda a, n: jnp.sum(a**n), options={"static_argnums": (1,)})
    close(fn(t([1.0, 2.0]), 3), 9.0, 0)  # n is static: usable as a Python int
    c = ivy.compile(lambda a, n: ivy.sum(a ** n), static_argnums=(1,))
    close(c(t([1.0, 2.0]), 2), 5.0, 0)


def test_jax_random_global_key_is_baked_in_under_a_bare_jit():
    # documented behaviour: without key=, a bare jax.jit reads the global key once, while tracing
    # (ivy.compile threads the key instead: see tests/test_fn_compile_state.py)
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


# ====================================================================== without JAX_ENABLE_X64


def test_jax_functional_float32_without_x64():
    code = r'''
import numpy as np, jax, jax.numpy as jnp, ivy
assert not jax.config.jax_enable_x64
from scipy import special
x = jnp.asarray(np.linspace(-3, 3, 7), jnp.float32)
assert ivy.random_uniform(shape=(3,), seed=0, backend="jax").dtype == jnp.float32
assert ivy.randint(0, 5, (3,), seed=0, backend="jax").dtype == jnp.int32
assert ivy.multinomial(4, 3, seed=0, backend="jax").dtype == jnp.int32
assert ivy.bernoulli(0.5, shape=(2,), seed=0, backend="jax").dtype == jnp.float32
assert ivy.one_hot(jnp.asarray([1, 0]), 3).dtype == jnp.float32
assert ivy.top_k(x, 2)[1].dtype == jnp.int32
assert ivy.cumsum(jnp.asarray([1, 2], jnp.int8)).dtype == jnp.int32
np.testing.assert_allclose(np.asarray(ivy.gelu(x)), 0.5 * np.linspace(-3, 3, 7) * (1 + special.erf(np.linspace(-3, 3, 7) / np.sqrt(2))), rtol=1e-5, atol=1e-6)
g = ivy.grad(lambda v: jnp.sum(v ** 3))(x)
np.testing.assert_allclose(np.asarray(g), 3 * np.linspace(-3, 3, 7) ** 2, rtol=1e-5)
y = ivy.conv2d(jnp.ones((1, 5, 5, 2)), jnp.ones((3, 3, 2, 4)), 2, "SAME")
assert y.shape == (1, 3, 3, 4) and y.dtype == jnp.float32 and float(y[0, 1, 1, 0]) == 18.0
assert ivy.scatter_nd(jnp.asarray([[0], [2]]), 1.5, (3,)).dtype == jnp.float32
assert ivy.avg_pool1d(jnp.ones((1, 5, 1)), 2, 2, "SAME").shape == (1, 3, 1)
print("ok")
'''
    env = {k: v for k, v in os.environ.items() if k != "JAX_ENABLE_X64"}
    env["JAX_ENABLE_X64"] = "0"
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and "ok" in out.stdout, out.stderr[-3000:]


def test_jax_registered_device_kind(monkeypatch):
    """A third-party device kind registered for jax (ivy_register_devices) is listed, accepted by
    to_device and creation and mapped to its native device; unregistered kinds still raise."""
    from ivy.plugin import DeviceKind

    cpu = jax.devices("cpu")[0]
    dk = DeviceKind(backend="jax", kind="vdev", list_devices=lambda: ["vdev:0"], to_native=lambda s: cpu,
                    from_native=lambda n: None)
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
