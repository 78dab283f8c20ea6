"""Fixtures of ivy-mech's tests: random reference rotations and a finite-difference gradient check."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

BATCH = (2, 3, 4)  # several leading dimensions


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(1234)


@pytest.fixture(scope="session")
def scipy_rotation() -> Any:
    from scipy.spatial.transform import Rotation

    return Rotation


@pytest.fixture
def random_rotations(scipy_rotation: Any) -> Any:
    """``make(shape, seed=0)``: SciPy ``Rotation`` objects, uniform, flattened over ``shape``."""

    def make(shape: tuple[int, ...] = BATCH, seed: int = 0) -> Any:
        return scipy_rotation.random(int(np.prod(shape)), random_state=seed)

    return make


@pytest.fixture
def gradient(autodiff: str) -> Callable[..., Any]:
    """``gradient(fn)``: the gradient function of ``sum(fn(x))`` by ``ivy.grad``."""
    import ivy

    def make(fn: Callable[[Any], Any]) -> Any:
        grad_fn = ivy.grad(lambda v: ivy.sum(fn(v)))
        # jax's eager mode compiles every op for every new shape; one jit is several times faster
        return ivy.compile(grad_fn) if autodiff == "jax" else grad_fn

    return make


@pytest.fixture
def check_gradient(autodiff: str, to_native: Callable[..., Any], to_numpy: Callable[[Any], Any]) -> Callable[..., None]:
    """``check(fn, x, h=1e-6, rtol=1e-5, atol=1e-6)``: the gradient by ``ivy.value_and_grad`` at
    ``x`` (float64) of ``sum_i sum(w_i * out_i)``, where ``fn`` returns one array or a tuple of
    arrays ``out_i`` and the weights ``w_i`` are random and fixed (so every output entry counts),
    against central finite differences in every input coordinate, on the same backend. The
    gradient must be finite.

    ``fn`` must act independently on each entry of its leading dimensions (all of ivy-mech does):
    the unperturbed and all perturbed inputs are stacked along a new leading axis and go through
    one call, which gives both the finite differences and (from entry 0) the gradient.
    """
    import ivy

    def as_tuple(out: Any) -> tuple[Any, ...]:
        return tuple(out) if isinstance(out, (tuple, list)) else (out,)

    def check(
        fn: Callable[[Any], Any], x: np.ndarray, *, h: float = 1e-6, rtol: float = 1e-5, atol: float = 1e-6
    ) -> None:
        x = np.asarray(x, dtype=np.float64)
        steps = (h * np.eye(x.size)).reshape((x.size,) + x.shape)
        inputs = np.concatenate([x[None], x + steps, x - steps])
        # output shapes from a NumPy run (cheap); weights for one output entry each
        shapes = [np.shape(o) for o in as_tuple(fn(x))]
        rng = np.random.default_rng(x.size)
        weights = [rng.uniform(0.5, 1.5, shape) * rng.choice([-1.0, 1.0], shape) for shape in shapes]
        native_weights = [to_native(w) for w in weights]

        def loss(v: Any) -> Any:
            outs = as_tuple(fn(v))
            return sum(ivy.sum(o * w) for o, w in zip(outs, native_weights)), outs

        step = ivy.value_and_grad(loss, has_aux=True)
        if autodiff == "jax":
            # jax's eager mode compiles every op for every new shape; one jit is several times
            # faster (and the same differentiation)
            step = ivy.compile(step)
        (_, outs), grads = step(to_native(inputs))
        outputs = [np.asarray(to_numpy(o)) for o in outs]
        losses = sum(np.sum((o * w).reshape(o.shape[0], -1), axis=-1) for o, w in zip(outputs, weights))
        fd = (losses[1 : x.size + 1] - losses[x.size + 1 :]) / (2 * h)
        grad = np.asarray(to_numpy(grads))[0]
        assert grad.shape == x.shape
        assert np.all(np.isfinite(grad)), "non-finite gradient"
        np.testing.assert_allclose(grad.reshape(-1), fd, rtol=rtol, atol=atol)

    return check


@pytest.fixture(scope="session")
def assert_angles_close() -> Callable[..., None]:
    """``check(actual, expected, atol)``: angles equal modulo 2 pi."""

    def check(actual: Any, expected: Any, atol: float = 1e-9) -> None:
        diff = np.angle(np.exp(1j * (np.asarray(actual) - np.asarray(expected))))
        np.testing.assert_allclose(diff, 0.0, atol=atol)

    return check
