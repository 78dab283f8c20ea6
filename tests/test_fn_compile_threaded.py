"""``ivy.compile`` of a training step whose modules' and optimizer's state is changed between
compiled calls, from outside the step: new variable values, key order, a new learning rate, an
optimizer reset to no state, gradient accumulation. The compiled program takes the state as a
flat tuple of leaves laid out for one structure; every call must run on the objects' current
state (never a stale copy, never a program traced for another structure) and equal the same
steps run eagerly, with the step counts read back as ints and the learning rate left a float.
"""

from __future__ import annotations

import numpy as np
import pytest

import ivy
from ivy.testing.convert import native_to_numpy, to_native

RNG = np.random.default_rng(23)
X = RNG.standard_normal((8, 3)).astype(np.float32)
Y = RNG.standard_normal((8, 2)).astype(np.float32)


class Net(ivy.Module):
    def __init__(self, **kwargs):
        self.a = ivy.Linear(3, 4)
        self.b = ivy.Linear(4, 2)
        ivy.Module.__init__(self, **kwargs)

    def _forward(self, x):
        return self.b(ivy.tanh(self.a(x)))


def _run(backend, compiled, accumulate_steps):
    """Steps, with the state changed from outside between them; the losses and final objects."""
    ivy.seed(7)
    model = Net(backend=backend)
    x, y = to_native(backend, X), to_native(backend, Y)
    model.build(x)
    opt = ivy.Adam(1e-2, accumulate_steps=accumulate_steps)

    def step(x, y):
        loss, grads = ivy.execute_with_gradients(lambda v: ivy.mse_loss(y, model(x, v=v)), model.v)
        model.v = opt.step(model.v, grads)
        return loss

    options = {"options": {"backend": "aot_eager"}} if backend == "torch" else {}
    f = ivy.compile(step, **options) if compiled else step
    losses = []

    def steps(n):
        for _ in range(n):
            losses.append(float(native_to_numpy(backend, f(x, y))))

    steps(3)
    opt.lr = 5e-2  # a new rate: an input of the program, not a constant of it
    steps(2)
    opt.step_count = opt.step_count  # an int again, where the program had returned an array
    steps(1)
    model.v = ivy.nest.map(lambda w: w * 0.5, model.v)  # new values, same structure
    steps(2)
    v = model.v  # the same variables, each layer's keys in the other order: another layout
    model.v = ivy.Container({k: ivy.Container({n: v[k][n] for n in reversed(list(v[k]))}) for k in v})
    steps(2)
    opt.load_state_dict({"step_count": 0, "state": {}})  # back to an optimizer without moments
    steps(3)
    return losses, model, opt


@pytest.mark.parametrize("accumulate_steps", [1, 2])
def test_compiled_step_follows_state_changed_between_calls(autodiff, accumulate_steps):
    backend = autodiff
    eager, m_e, o_e = _run(backend, False, accumulate_steps)
    comp, m_c, o_c = _run(backend, True, accumulate_steps)
    assert len(comp) == len(eager) == 13
    # (float32: a compiled step computes Adam's bias corrections from the step count as an
    # array, in float32; eagerly they are Python floats)
    np.testing.assert_allclose(comp, eager, rtol=1e-4, atol=2e-5)
    assert len(set(np.round(eager, 6))) > 6  # the changes did change the losses
    for (k, a), (k2, b) in zip(m_c.v.to_flat_dict().items(), m_e.v.to_flat_dict().items()):
        assert k == k2
        np.testing.assert_allclose(native_to_numpy(backend, a), native_to_numpy(backend, b), rtol=1e-4, atol=2e-5)
    # counts read back as ints (kept as the program's arrays until read), the rate untouched
    assert type(o_c.step_count) is int and o_c.step_count == o_e.step_count == 3 // accumulate_steps
    assert type(o_c.micro_step) is int and o_c.micro_step == o_e.micro_step
    assert type(o_c.lr) is float and o_c.lr == 5e-2
    assert o_c.state.key_chains() == o_e.state.key_chains()
    for k, a in o_c.state.to_flat_dict().items():
        b = o_e.state.to_flat_dict()[k]
        np.testing.assert_allclose(native_to_numpy(backend, a), native_to_numpy(backend, b), rtol=1e-4, atol=2e-5)


def test_step_without_arguments_compiles_for_the_backend_it_holds(autodiff):
    """A training step taking no arguments (closing over its model, optimizer and data) is
    compiled by its arrays' backend, as one called with the arrays is, not run eagerly on the
    default backend (NumPy); so is a function holding arrays only in its closure."""
    backend = autodiff
    traces = []

    def run(compiled):
        ivy.seed(7)
        model = Net(backend=backend)
        x, y = to_native(backend, X), to_native(backend, Y)
        model.build(x)
        opt = ivy.Adam(1e-2)

        def step():
            traces.append(1)  # Python runs: once per trace where the compiler keeps no side effect
            loss, grads = ivy.execute_with_gradients(lambda v: ivy.mse_loss(y, model(x, v=v)), model.v)
            model.v = opt.step(model.v, grads)
            return loss

        options = {"options": {"backend": "aot_eager"}} if backend == "torch" else {}
        f = ivy.compile(step, **options) if compiled else step
        return f, [float(native_to_numpy(backend, f())) for _ in range(6)]

    _, eager = run(False)
    traces.clear()
    f, comp = run(True)
    np.testing.assert_allclose(comp, eager, rtol=1e-4, atol=2e-5)
    assert list(f._cache) == [backend] and f._programs() >= 1  # given to the backend's compiler
    if backend in ("jax", "tensorflow"):  # traced per state layout (before/after Adam's moments)
        assert len(traces) <= 2
    x = to_native(backend, X)
    if backend == "torch":  # (dynamo itself fails making a guard on a NumPy global it reads)
        g = ivy.compile(lambda: ivy.sum(x * 2.0))
    else:
        g = ivy.compile(lambda: ivy.sum(x * 2.0) if X.size else None)  # (X: NumPy data, named too)
    np.testing.assert_allclose(native_to_numpy(backend, g()), X.sum() * 2, rtol=1e-5)
    assert list(g._cache) == [backend] and g._programs() == 1


def test_function_holding_no_array_warns_it_runs_eagerly():
    """Nothing to take a backend from: the default one is used, and where it has no compiler the
    user is told so, once, with what to do."""
    import warnings

    from ivy import _registry
    from ivy._functional.compile import _has_compiler

    if _has_compiler(_registry.default_backend()):
        pytest.skip("the default backend has a compiler")
    f = ivy.compile(lambda: 3)
    with pytest.warns(UserWarning, match="no array arguments and holds no arrays.*backend="):
        assert f() == 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert f() == 3


def _tracing(backend, x):
    """Whether ``x`` is the compiler's symbolic value (the step is being traced), not an array."""
    if backend == "jax":
        import jax

        return isinstance(x, jax.core.Tracer)
    if backend == "tensorflow":
        import tensorflow as tf

        return not tf.executing_eagerly()
    return False


def test_compiled_step_with_adam_compiles_once(autodiff):
    """Adam makes its moments on its first step: the compiled step must still be compiled once,
    for the state Adam keeps (not once without moments and again with them), and equal the
    eager steps."""
    backend = autodiff
    x, y = to_native(backend, X), to_native(backend, Y)
    runs = []
    for compiled in (True, False):
        ivy.seed(7)
        model = Net(backend=backend)
        model.build(x)
        opt = ivy.Adam(1e-2)
        traces = []

        def step(x, y, model=model, opt=opt, traces=traces):
            if backend != "torch":  # (dynamo would guard on the list's length: count its graphs instead)
                traces.append(_tracing(backend, x))
            loss, grads = ivy.execute_with_gradients(lambda v: ivy.mse_loss(y, model(x, v=v)), model.v)
            model.v = opt.step(model.v, grads)
            return loss

        f = ivy.compile(step, options={"backend": "eager"}) if compiled and backend == "torch" else step
        f = ivy.compile(step) if compiled and backend != "torch" else f
        if backend == "torch":
            from torch._dynamo.utils import counters

            graphs = counters["stats"]["unique_graphs"]
        runs.append([float(native_to_numpy(backend, f(x, y))) for _ in range(3)])
        if compiled:
            assert f._programs() == 1
            if backend == "torch":
                assert counters["stats"]["unique_graphs"] - graphs == 1
            elif backend in ("jax", "tensorflow"):  # (paddle's bytecode tracer runs the Python eagerly)
                assert sum(traces) == 1, traces
    np.testing.assert_allclose(runs[0], runs[1], rtol=1e-4, atol=2e-5)
    assert runs[1][2] < runs[1][0]
