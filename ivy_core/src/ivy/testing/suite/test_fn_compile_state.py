"""``ivy.compile`` of functions that update state: a training step with ``ivy.Module`` variables,
an optimizer's moments and step count, BatchNorm's running statistics, and random draws.

The compiled step must equal the eager step, call after call, with the objects holding concrete
native arrays afterwards (no compiler tracers), and an eager step must still work after compiled
ones. State that ``ivy.compile`` cannot thread raises ``StateNotThreadedError`` where the
framework's compiler would lose the update.
"""

from __future__ import annotations

import numpy as np
import pytest

import ivy
from ivy.testing._helpers.facts import expect, expect_cmp, expect_type
from ivy.testing.convert import native_to_numpy, to_native

# compiled training steps: slow where the framework compiles each program (the quick profile skips them)
pytestmark = pytest.mark.ivy_slow

RNG = np.random.default_rng(11)
X = RNG.standard_normal((16, 3)).astype(np.float32)
Y = RNG.standard_normal((16, 1)).astype(np.float32)


class MLP(ivy.Module):
    def __init__(self, norm: bool = False, **kwargs):
        # (normalising the input, not a hidden layer: a bias before BatchNorm gets gradients of
        # rounding noise only, which Adam scales up to full steps)
        self.norm = ivy.BatchNorm2D(3) if norm else None
        self.l0 = ivy.Linear(3, 8)
        self.l1 = ivy.Linear(8, 1)
        ivy.Module.__init__(self, **kwargs)

    def _forward(self, x):
        if self.norm is not None:
            x = self.norm(x)
        return self.l1(ivy.relu(self.l0(x)))


def _options(backend):
    # torch: a cheap compiler (the default, inductor, takes a minute here); the state handling is
    # dynamo's either way
    return {"options": {"backend": "aot_eager"}} if backend == "torch" else {}


def _np(backend, x):
    return native_to_numpy(backend, x)


def _setup(backend, norm=False, opt_cls=ivy.Adam):
    ivy.seed(3)
    model = MLP(norm=norm, backend=backend)
    x, y = to_native(backend, X), to_native(backend, Y)
    model.build(x)
    return model, opt_cls(1e-2), x, y


def _train(backend, compiled, steps=5, norm=False, opt_cls=ivy.Adam):
    model, opt, x, y = _setup(backend, norm, opt_cls)

    def step(x, y):
        loss, grads = ivy.execute_with_gradients(lambda v: ivy.mse_loss(y, model(x, v=v)), model.v)
        model.v = opt.step(model.v, grads)
        return loss

    f = ivy.compile(step, **_options(backend)) if compiled else step
    losses = [float(_np(backend, f(x, y))) for _ in range(steps)]
    return losses, model, opt


@pytest.mark.parametrize("opt_cls", [ivy.Adam, ivy.SGD, ivy.LAMB], ids=lambda c: c.__name__)
def test_compiled_training_step_equals_eager(autodiff, opt_cls):
    backend = autodiff
    eager, m_e, o_e = _train(backend, False, opt_cls=opt_cls)
    comp, m_c, o_c = _train(backend, True, opt_cls=opt_cls)
    np.testing.assert_allclose(comp, eager, rtol=1e-4, atol=1e-6)
    expect_cmp(eager[-1], "<", eager[0], "ivy.compile (a training step): eager[-1]")
    expect(o_e.step_count, 5, "the eager training step: step count")
    expect(o_c.step_count, 5, "ivy.compile (a training step): step count")
    expect_type(o_c.step_count, int, "ivy.compile (a training step): o_c.step_count")
    for (k, a), (_, b) in zip(m_c.v.to_flat_dict().items(), m_e.v.to_flat_dict().items()):
        np.testing.assert_allclose(_np(backend, a), _np(backend, b), rtol=1e-4, atol=1e-6, err_msg=k)
    for leaf in ivy.nest.leaves(o_c.state):  # concrete native arrays: no tracer leaked
        assert ivy.is_native_array(leaf), (
            f"ivy.compile (a training step): the optimizer's state holds a {type(leaf)!r}, not a native array"
        )
        _np(backend, leaf)
    # the objects keep working eagerly after compiled steps
    x, y = to_native(backend, X), to_native(backend, Y)
    loss, grads = ivy.execute_with_gradients(lambda v: ivy.mse_loss(y, m_c(x, v=v)), m_c.v)
    m_c.v = o_c.step(m_c.v, grads)
    expect(o_c.step_count, 6, "ivy.compile (a training step): o_c.step_count")


def test_compiled_step_updates_batchnorm_statistics(autodiff):
    backend = autodiff
    _, m_e, _ = _train(backend, False, steps=3, norm=True)
    _, m_c, _ = _train(backend, True, steps=3, norm=True)
    for (k, a), (_, b) in zip(m_c.state.to_flat_dict().items(), m_e.state.to_flat_dict().items()):
        np.testing.assert_allclose(_np(backend, a), _np(backend, b), rtol=1e-4, atol=1e-6, err_msg=k)
    # they did move
    assert not np.allclose(_np(backend, m_c.state.norm.running_mean), 0), (
        "ivy.compile (BatchNorm statistics): expected not np.allclose(_np(backend, m_c.state.norm.running_mean), 0)"
    )


def test_compiled_step_with_objects_as_arguments(autodiff):
    """flax nnx's form: the module and the optimizer passed to the compiled function."""
    backend = autodiff
    eager, _, _ = _train(backend, False)
    model, opt, x, y = _setup(backend)

    def step(model, opt, x, y):
        loss, grads = ivy.execute_with_gradients(lambda v: ivy.mse_loss(y, model(x, v=v)), model.v)
        model.v = opt.step(model.v, grads)
        return loss

    f = ivy.compile(step, **_options(backend))
    losses = [float(_np(backend, f(model, opt, x, y))) for _ in range(5)]
    np.testing.assert_allclose(losses, eager, rtol=1e-4, atol=1e-6)
    expect(opt.step_count, 5, "ivy.compile (objects as arguments): opt.step_count")

    def probe(x):
        return x

    if ivy.compile(probe, backend=backend) is not probe:  # a tracing compiler refuses a new object
        with pytest.raises(TypeError, match="same object"):
            f(model, ivy.Adam(1e-2), x, y)


def test_compiled_step_of_a_lazily_built_model(autodiff):
    """The first call builds the model (eagerly); the later ones run compiled."""
    backend = autodiff
    eager, _, _ = _train(backend, False)
    ivy.seed(3)
    model, opt = MLP(backend=backend), ivy.Adam(1e-2)
    x, y = to_native(backend, X), to_native(backend, Y)

    def step(x, y):
        loss, grads = ivy.execute_with_gradients(lambda v: ivy.mse_loss(y, model(x, v=v)), model.v)
        model.v = opt.step(model.v, grads)
        return loss

    model(x)  # built from an input, outside the step
    f = ivy.compile(step, **_options(backend))
    losses = [float(_np(backend, f(x, y))) for _ in range(5)]
    np.testing.assert_allclose(losses, eager, rtol=1e-4, atol=1e-6)


class _Registry:
    """Holds an optimizer where ivy.compile does not look (a class attribute)."""

    opt: ivy.Optimizer | None = None


def test_state_compile_cannot_thread_is_refused_or_kept(autodiff):
    backend = autodiff
    model, opt, x, y = _setup(backend)
    _Registry.opt = opt

    def step(x, y):
        loss, grads = ivy.execute_with_gradients(lambda v: ivy.mse_loss(y, model(x, v=v)), model.v)
        model.v = _Registry.opt.step(model.v, grads)
        return loss

    f = ivy.compile(step, **_options(backend))
    try:
        losses = [float(_np(backend, f(x, y))) for _ in range(3)]
    except ivy.errors.StateNotThreadedError as e:
        # a compiler that would lose the update (jax.jit, tf.function): refused, naming the
        # object, before any state changed
        assert "Adam" in str(e), str(e)
        expect(opt.step_count, 0, "ivy.compile (state it cannot thread): opt.step_count")
        assert not ivy.nest.leaves(opt.state), (
            "ivy.compile (state it cannot thread): expected not ivy.nest.leaves(opt.state)"
        )
        return
    # a compiler that keeps Python side effects (torch, paddle): the steps are right
    eager, _, _ = _train(backend, False, steps=3)
    np.testing.assert_allclose(losses, eager, rtol=1e-4, atol=1e-6)
    expect(opt.step_count, 3, "ivy.compile (state it cannot thread): opt.step_count")


def test_compiled_random_draws_differ_per_call(backend):
    """A compiled function drawing random numbers draws new ones on every call (JAX's global
    key is threaded through the program), reproducibly after ivy.seed."""
    x = to_native(backend, np.ones((4, 16), np.float32))
    f = ivy.compile(lambda x: ivy.dropout(x, 0.5), **_options(backend))
    ivy.seed(0)
    a, b = _np(backend, f(x)), _np(backend, f(x))
    assert not np.array_equal(a, b), "ivy.compile (dropout): expected not np.array_equal(a, b)"
    expect_cmp(set(np.unique(a)), "<=", {0.0, 2.0}, "ivy.compile (dropout): set(np.unique(a))")
    ivy.seed(0)
    np.testing.assert_array_equal(_np(backend, f(x)), a)


def test_compiled_creation_like_an_intermediate(backend):
    """``*_like`` of a value computed inside the compiled program (whose device a graph compiler
    may not have placed yet) is placed where the eager one is."""
    x = to_native(backend, np.arange(3, dtype=np.float32))
    f = ivy.compile(lambda x: ivy.full_like(x * 2.0, 2.0) + ivy.zeros_like(x, dtype="float32"), **_options(backend))
    np.testing.assert_array_equal(_np(backend, f(x)), np.full(3, 2.0, np.float32))
