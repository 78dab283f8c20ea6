"""The graph tracer on the backend under test: emitted programs (eager and compiled by the
framework's compiler) against the eager Ivy functions they were traced from; gradient ops inside
traced training steps; emitted programs differentiated natively (against central finite
differences in float64); traced ``ivy.Module`` s trained with the framework's own optimizer
(gradients against the eager module's); dynamic batch sizes and guards under the compiler.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ivy
from ivy.graph import GuardError, ShapeMismatchError

RNG = np.random.default_rng(7)


def _arr(to_native: Any, *shape: int, dtype: str = "float32", lo: float = -1.0, hi: float = 1.0) -> Any:
    return to_native(RNG.uniform(lo, hi, shape).astype(dtype))


def _close(got: Any, want: Any, to_numpy: Any, tol: float = 1e-5) -> None:
    got_l, want_l = ivy.nest.leaves(got), ivy.nest.leaves(want)
    assert len(got_l) == len(want_l)
    for g, w in zip(got_l, want_l):
        if ivy.is_native_array(w):
            assert tuple(g.shape) == tuple(w.shape) and ivy.dtype_name(g.dtype) == ivy.dtype_name(w.dtype)
            np.testing.assert_allclose(to_numpy(g), to_numpy(w), rtol=tol, atol=tol)
        else:
            assert g == w


# --------------------------------------------------------------------------- functions


def mlp(x, w1, b1, w2):
    return ivy.softmax(ivy.matmul(ivy.gelu(ivy.matmul(x, w1) + b1), w2), axis=-1)


def attention(q, k, v):
    s = ivy.matmul(q, ivy.matrix_transpose(k)) / float(np.sqrt(q.shape[-1]))
    return ivy.layer_norm(ivy.matmul(ivy.softmax(s, axis=-1), v) + q, -1)


def conv_block(x, f):
    h = ivy.relu(ivy.conv2d(x, f, 1, "SAME"))
    return ivy.mean(ivy.max_pool2d(h, 2, 2, "VALID"), axis=(1, 2))


def _cases(to_native: Any) -> list[tuple[Callable[..., Any], tuple[Any, ...]]]:
    return [
        (mlp, (_arr(to_native, 8, 5), _arr(to_native, 5, 16), _arr(to_native, 16), _arr(to_native, 16, 3))),
        (attention, tuple(_arr(to_native, 2, 6, 8) for _ in range(3))),
        (conv_block, (_arr(to_native, 2, 6, 6, 3), _arr(to_native, 3, 3, 3, 4))),
    ]


def test_emitted_programs_equal_eager(backend: str, to_native: Any, to_numpy: Any) -> None:
    for fn, args in _cases(to_native):
        g = ivy.trace_graph(fn, args=args)
        want = fn(*args)
        _close(g.to(backend, compile=False)(*args), want, to_numpy)
        _close(g(*args), want, to_numpy)
        ns: dict[str, Any] = {}
        exec(compile(g.source(backend), "<source>", "exec"), ns)
        _close(ns["forward"](*args), want, to_numpy)


def test_compiled_programs_equal_eager(backend: str, to_native: Any, to_numpy: Any) -> None:
    for fn, args in _cases(to_native)[:2]:
        prog = ivy.trace_graph(fn, args=args, to=backend)
        want = fn(*args)
        _close(prog(*args), want, to_numpy, tol=1e-4)
        _close(prog(*args), want, to_numpy, tol=1e-4)  # (the second call runs the compiled program)


# --------------------------------------------------------------------------- gradients


def train_step(params, x, y):
    def loss(p):
        return ivy.mse_loss(y, ivy.matmul(ivy.tanh(ivy.matmul(x, p["w1"])), p["w2"]))

    value, grads = ivy.execute_with_gradients(loss, params)
    return value, ivy.gradient_descent_update(params, grads, 0.1)


def _params(to_native: Any) -> dict[str, Any]:
    return {"w1": _arr(to_native, 4, 8), "w2": _arr(to_native, 8, 2)}


def test_a_training_step_with_gradients(autodiff: str, to_native: Any, to_numpy: Any) -> None:
    params, x, y = _params(to_native), _arr(to_native, 5, 4), _arr(to_native, 5, 2)
    g = ivy.trace_graph(train_step, args=(params, x, y))
    assert "value_and_grad_flat" in g.ops() and g.nodes[0].subgraphs()
    want = train_step(params, x, y)
    _close(g.to(autodiff, compile=False)(params, x, y), want, to_numpy)
    # five steps of the graph = five eager steps
    p_graph, p_eager = params, params
    prog = g.to(autodiff, compile=False)
    for _ in range(5):
        p_graph = prog(p_graph, x, y)[1]
        p_eager = train_step(p_eager, x, y)[1]
    _close(p_graph, p_eager, to_numpy)


def test_a_compiled_training_step(autodiff: str, to_native: Any, to_numpy: Any) -> None:
    params, x, y = _params(to_native), _arr(to_native, 5, 4), _arr(to_native, 5, 2)
    prog = ivy.trace_graph(train_step, args=(params, x, y), to=autodiff)
    _close(prog(params, x, y), train_step(params, x, y), to_numpy, tol=1e-4)


def transforms(x, w):
    def f(a):
        return ivy.tanh(ivy.matmul(w, a))

    out, pullback = ivy.vjp(f, x)
    (cot,) = pullback(ivy.ones_like(out))
    _, tangent = ivy.jvp(f, [x], [ivy.ones_like(x)])
    return cot, tangent, ivy.jac(f)(x), ivy.grad(lambda a: ivy.sum(f(a)))(x)


def test_vjp_jvp_and_jacobian_are_recorded_with_their_functions(autodiff: str, to_native: Any, to_numpy: Any) -> None:
    x, w = _arr(to_native, 3), _arr(to_native, 3, 3)
    g = ivy.trace_graph(transforms, args=(x, w))
    assert {"vjp", "jvp", "jacobian", "value_and_grad_flat", "@call"} <= set(g.ops())
    w_np, x_np = to_numpy(w).astype(np.float64), to_numpy(x).astype(np.float64)
    d = 1 - np.tanh(w_np @ x_np) ** 2
    jac = d[:, None] * w_np  # the Jacobian of tanh(w @ a), written out
    got = g.to(autodiff, compile=False)(x, w)
    for value, ref in zip(got, (jac.T @ np.ones(3), jac @ np.ones(3), jac, jac.T @ np.ones(3))):
        np.testing.assert_allclose(to_numpy(value), ref, rtol=1e-5, atol=1e-6)


def _native_grad(backend: str, f: Callable[[dict[str, Any]], Any], params: dict[str, Any]) -> dict[str, Any]:
    """The gradient of the scalar ``f(params)`` with the framework's own autodiff."""
    if backend == "torch":
        import torch

        leaves = {k: v.detach().clone().requires_grad_(True) for k, v in params.items()}
        grads = torch.autograd.grad(f(leaves), list(leaves.values()))
        return dict(zip(leaves, grads))
    if backend == "jax":
        import jax

        return dict(jax.grad(f)(params))
    if backend == "tensorflow":
        import tensorflow as tf

        variables = {k: tf.Variable(v) for k, v in params.items()}
        with tf.GradientTape() as tape:
            y = f(variables)
        return dict(zip(variables, tape.gradient(y, list(variables.values()))))
    import paddle

    leaves = {k: paddle.to_tensor(v, stop_gradient=False) for k, v in params.items()}
    grads = paddle.grad(f(leaves), list(leaves.values()))
    return dict(zip(leaves, grads))


def test_emitted_programs_differentiate_natively(autodiff: str, to_native: Any, to_numpy: Any) -> None:
    x = _arr(to_native, 3, 4, dtype="float64")
    params = {"w1": _arr(to_native, 4, 5, dtype="float64"), "w2": _arr(to_native, 5, dtype="float64")}

    def net(p, x):
        return ivy.sum(ivy.matmul(ivy.sigmoid(ivy.matmul(x, p["w1"])), p["w2"]) ** 2)

    prog = ivy.trace_graph(net, args=(params, x)).to(autodiff, compile=False)
    grads = _native_grad(autodiff, lambda p: prog(p, x), params)
    x_np = to_numpy(x)

    def value(p: dict[str, np.ndarray]) -> float:
        h = 1 / (1 + np.exp(-(x_np @ p["w1"])))
        return float(np.sum((h @ p["w2"]) ** 2))

    base = {k: to_numpy(v) for k, v in params.items()}
    eps = 1e-6
    for k, w in base.items():
        fd = np.zeros_like(w)
        for i in np.ndindex(w.shape):
            hi = {**base, k: w.copy()}
            lo = {**base, k: w.copy()}
            hi[k][i] += eps
            lo[k][i] -= eps
            fd[i] = (value(hi) - value(lo)) / (2 * eps)
        np.testing.assert_allclose(to_numpy(grads[k]), fd, rtol=1e-6, atol=1e-8)


# --------------------------------------------------------------------------- modules


class MLP(ivy.Module):
    def __init__(self) -> None:
        self.l0 = ivy.Linear(6, 16)
        self.l1 = ivy.Linear(16, 3)
        ivy.Module.__init__(self)

    def _forward(self, x):
        return self.l1(ivy.gelu(self.l0(x)))


class CNN(ivy.Module):
    def __init__(self) -> None:
        self.conv = ivy.Conv2D(2, 4, 3, padding="SAME")
        self.pool = ivy.MaxPool2D(2)
        self.head = ivy.Linear(4 * 3 * 3, 3)
        ivy.Module.__init__(self)

    def _forward(self, x):
        h = self.pool(ivy.relu(self.conv(x)))
        return self.head(ivy.reshape(h, (h.shape[0], -1)))


class Block(ivy.Module):
    """A transformer block: self-attention and an MLP, each with a residual and a layer norm."""

    def __init__(self) -> None:
        self.attn = ivy.MultiHeadAttention(8, 2)
        self.norm0 = ivy.LayerNorm(8)
        self.ff0 = ivy.Linear(8, 16)
        self.ff1 = ivy.Linear(16, 8)
        self.norm1 = ivy.LayerNorm(8)
        ivy.Module.__init__(self)

    def _forward(self, x):
        h = self.norm0(x + self.attn(x))
        return self.norm1(h + self.ff1(ivy.gelu(self.ff0(h))))


_MODELS = {"mlp": (MLP, (8, 6)), "cnn": (CNN, (4, 6, 6, 2)), "transformer": (Block, (2, 5, 8))}


def _native_sgd(
    backend: str, prog: Callable[..., Any], params: dict[str, Any], x: Any, y: Any, lr: float, steps: int
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """``steps`` steps of plain SGD on the mean squared error with the framework's own
    optimizer; the gradients of each step and the final parameters."""
    grads_seen: list[dict[str, Any]] = []
    if backend == "torch":
        import torch

        p = {k: v.detach().clone().requires_grad_(True) for k, v in params.items()}
        opt = torch.optim.SGD(list(p.values()), lr=lr)
        for _ in range(steps):
            opt.zero_grad()
            torch.mean((prog(p, x) - y) ** 2).backward()
            grads_seen.append({k: v.grad.clone() for k, v in p.items()})
            opt.step()
        return grads_seen, {k: v.detach() for k, v in p.items()}
    if backend == "jax":
        import jax
        import jax.numpy as jnp
        import optax

        opt = optax.sgd(lr)
        p = dict(params)
        state = opt.init(p)
        grad = jax.jit(jax.grad(lambda q: jnp.mean((prog(q, x) - y) ** 2)))  # (the program compiles as JAX code)
        for _ in range(steps):
            grads = grad(p)
            grads_seen.append(grads)
            updates, state = opt.update(grads, state, p)
            p = optax.apply_updates(p, updates)
        return grads_seen, p
    if backend == "tensorflow":
        import keras
        import tensorflow as tf

        p = {k: tf.Variable(v) for k, v in params.items()}
        opt = keras.optimizers.SGD(learning_rate=lr)
        for _ in range(steps):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((prog(p, x) - y) ** 2)
            grads = tape.gradient(loss, list(p.values()))
            grads_seen.append(dict(zip(p, grads)))
            opt.apply_gradients(zip(grads, list(p.values())))
        return grads_seen, {k: v.value() for k, v in p.items()}
    import paddle

    p = {
        k: paddle.create_parameter(v.shape, v.dtype, default_initializer=paddle.nn.initializer.Assign(v))
        for k, v in params.items()
    }
    opt = paddle.optimizer.SGD(learning_rate=lr, parameters=list(p.values()))
    for _ in range(steps):
        loss = paddle.mean((prog(p, x) - y) ** 2)
        loss.backward()
        grads_seen.append({k: v.grad.clone() for k, v in p.items()})
        opt.step()
        opt.clear_grad()
    return grads_seen, {k: v.detach() for k, v in p.items()}


@pytest.mark.parametrize("kind", sorted(_MODELS))
def test_traced_modules_train_natively(kind: str, autodiff: str, to_native: Any, to_numpy: Any) -> None:
    cls, shape = _MODELS[kind]
    with ivy.use_backend(autodiff):
        model = cls()
    x = _arr(to_native, *shape)
    y = _arr(to_native, *tuple(int(d) for d in model(x).shape))
    g = ivy.trace_graph(model, args=(x,))
    assert list(g.params) == list(model.v.to_flat_dict())
    prog = g.to(autodiff, compile=False)
    lr, steps = 0.05, 2
    grads_native, final = _native_sgd(autodiff, prog, g.param_arrays(autodiff), x, y, lr, steps)
    v = model.v
    for step in range(steps):  # the eager Ivy module, differentiated and updated by Ivy
        _, grads = ivy.execute_with_gradients(lambda w: ivy.mean((model(x, v=w) - y) ** 2), v)
        for k, gr in grads.to_flat_dict().items():
            np.testing.assert_allclose(to_numpy(grads_native[step][k]), to_numpy(gr), rtol=1e-4, atol=1e-6)
        v = ivy.gradient_descent_update(v, grads, lr)
    for k, w in v.to_flat_dict().items():
        np.testing.assert_allclose(to_numpy(final[k]), to_numpy(w), rtol=1e-4, atol=1e-6)


def test_the_module_form_trains_with_ivy(autodiff: str, to_native: Any, to_numpy: Any) -> None:
    with ivy.use_backend(autodiff):
        model = MLP()
    x, y = _arr(to_native, 8, 6), _arr(to_native, 8, 3)
    m = ivy.trace_graph(model, args=(x,)).module()
    for net in (model, m):
        for _ in range(3):
            _, grads = ivy.execute_with_gradients(lambda w, net=net: ivy.mse_loss(y, net(x, v=w)), net.v)
            net.v = ivy.gradient_descent_update(net.v, grads, 0.1)
    for k, w in model.v.to_flat_dict().items():
        np.testing.assert_allclose(to_numpy(m.v.to_flat_dict()[k]), to_numpy(w), rtol=1e-5, atol=1e-6)


def test_a_training_step_with_a_module_and_an_optimizer(autodiff: str, to_native: Any, to_numpy: Any) -> None:
    """The README's training loop: the module's variables and the optimizer's moments and step
    count are threaded through the graph; calling it updates them as the eager step does."""

    def make() -> tuple[MLP, Any, Callable[..., Any]]:
        with ivy.use_backend(autodiff):
            model, opt = MLP(), ivy.Adam(0.01)
            model.v  # noqa: B018 - builds

        def step(x, y):
            loss, grads = ivy.execute_with_gradients(lambda v: ivy.mse_loss(y, model(x, v=v)), model.v)
            model.v = opt.step(model.v, grads)
            return loss

        return model, opt, step

    (m1, o1, s1), (m2, o2, s2) = make(), make()
    m2.v = m1.v
    x, y = _arr(to_native, 8, 6), _arr(to_native, 8, 3)
    s1(x, y), s2(x, y)  # one eager step each: Adam makes its moments
    g = ivy.trace_graph(s1, args=(x, y))
    assert g.meta["state"] == ["MLP", "Linear", "Linear", "Adam"] and g.arg_names == ["state", "x", "y"]
    for _ in range(3):
        _close(g(x, y), s2(x, y), to_numpy, tol=1e-5)
    assert o1.step_count == o2.step_count == 4
    for k, w in m2.v.to_flat_dict().items():
        np.testing.assert_allclose(to_numpy(m1.v.to_flat_dict()[k]), to_numpy(w), rtol=1e-5, atol=1e-6)
    states = [m._ivy_get_state() for m in g.objects]  # the emitted program is pure: state in, state out
    states = [
        ivy.nest.map(lambda a: a if ivy.is_native_array(a) or a is None else ivy.asarray(a, backend=autodiff), st)
        for st in states
    ]  # (numbers such as the step count as 0-d arrays: inputs of the program)
    loss, new = g.to(autodiff, compile=False)(states, x, y)
    _close(loss, s2(x, y), to_numpy, tol=1e-5)
    assert o1.step_count == 4  # (not written back)


# --------------------------------------------------------------------------- shapes and guards


def test_dynamic_batch_size_under_the_compiler(backend: str, to_native: Any, to_numpy: Any) -> None:
    w = _arr(to_native, 4, 3)

    def f(x, w):
        h = ivy.reshape(ivy.matmul(x, w), (x.shape[0], -1))
        return ivy.sum(h, axis=1), ivy.ones((h.shape[0], 2))

    g = ivy.trace_graph(f, args=(_arr(to_native, 5, 2, 4), w), dynamic={"x": 0})
    prog = g.to(backend)
    for n in (5, 3, 9):
        x = _arr(to_native, n, 2, 4)
        with ivy.use_backend(backend):  # (ivy.ones has no array argument: the backend in use decides)
            want = f(x, w)
        _close(prog(x, w), want, to_numpy, tol=1e-5)
    with pytest.raises(ShapeMismatchError):
        g.to(backend, compile=False)(_arr(to_native, 5, 3, 4), w)


def test_guards_hold_under_the_compiler(backend: str, to_native: Any, to_numpy: Any) -> None:

    def f(x):
        return x * 2 if ivy.mean(x) > 0 else x - 1

    x = _arr(to_native, 6, lo=0.1, hi=1.0)
    prog = ivy.trace_graph(f, args=(x,), to=backend)
    _close(prog(x), x * 2, to_numpy)
    with pytest.raises(GuardError, match="test_fn_graph.py"):
        prog(-x)


def test_static_arguments_stay_python_values_under_the_compiler(backend: str, to_native: Any, to_numpy: Any) -> None:
    # a kernel size or a target shape is a Python value the graph holds: the compiled program
    # must not trace it (jax.jit would make its ints arrays), and another value is refused
    def f(x, shape, scale=1.0):
        return ivy.sum(ivy.reshape(x, shape), axis=0) * scale

    x = _arr(to_native, 6)
    prog = ivy.trace_graph(f, args=(x, (2, 3)), kwargs={"scale": 3.0}).to(backend)
    want = to_numpy(x).reshape(2, 3).sum(axis=0) * 3.0
    for shape in ((2, 3), [2, 3]):  # (the traced tuple's items are what is checked)
        np.testing.assert_allclose(to_numpy(prog(x, shape, scale=3.0)), want, rtol=1e-6)
    with pytest.raises(ShapeMismatchError, match=r"argument shape(\[0\] was 2| was \(2, 3\))"):
        prog(x, (3, 2), scale=3.0)
    with pytest.raises(ShapeMismatchError, match="argument scale was 3.0"):
        prog(x, (2, 3), scale=2.0)


@settings(max_examples=10)  # (each new shape costs JAX a compilation per op)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=3), st.integers(0, 2), st.booleans())
def test_broadcasting_functions_replay(
    backend: str, to_native: Any, to_numpy: Any, shape: list[int], drop: int, swap: bool
) -> None:
    other = shape[drop:] if drop < len(shape) else []
    a, b = _arr(to_native, *shape), _arr(to_native, *other)
    if swap:
        a, b = b, a

    def f(a, b):
        m = ivy.where(a > b, a * b, a - b)
        return ivy.exp(-ivy.abs(m)), ivy.sum(m), ivy.maximum(a, 0.5) / (1.5 + ivy.cos(b))

    g = ivy.trace_graph(f, args=(a, b))
    _close(g.to(backend, compile=False)(a, b), f(a, b), to_numpy, tol=1e-6)


_WINDOW_CASES = [  # (data_format, strides, padding, dilations)
    ("NHWC", 1, "SAME", 1),
    ("NCHW", 1, "SAME", 1),
    ("NCHW", 2, "SAME", 1),
    ("NHWC", 2, "VALID", 1),
    ("NCHW", 1, 1, 2),
    ("NHWC", 2, [(0, 1), (1, 0)], 1),
    ("NCHW", 1, [(2, 0), (0, 1)], 2),
]


@pytest.mark.parametrize(("fmt", "strides", "padding", "dilations"), _WINDOW_CASES)
def test_emitted_convolutions_and_pools_equal_eager(
    backend: str, to_native: Any, to_numpy: Any, fmt: str, strides: Any, padding: Any, dilations: int
) -> None:
    # (emission may bind these ops to calls specialised to the traced static arguments)
    x = _arr(to_native, 2, 9, 9, 4) if fmt == "NHWC" else _arr(to_native, 2, 4, 9, 9)
    w, wd = _arr(to_native, 3, 3, 4, 5), _arr(to_native, 3, 3, 4)
    pool_pad = padding if isinstance(padding, str) else 1

    def f(x, w, wd):
        return (
            ivy.conv2d(x, w, strides, padding, data_format=fmt, dilations=dilations),
            ivy.depthwise_conv2d(x, wd, strides, padding, data_format=fmt, dilations=dilations),
            ivy.max_pool2d(x, 3, strides, pool_pad, data_format=fmt),
            ivy.avg_pool2d(x, 3, strides, pool_pad, data_format=fmt),
            ivy.avg_pool2d(x, 2, strides, pool_pad, data_format=fmt, count_include_pad=True),
        )

    g = ivy.trace_graph(f, args=(x, w, wd))
    _close(g.to(backend, compile=False)(x, w, wd), f(x, w, wd), to_numpy)
