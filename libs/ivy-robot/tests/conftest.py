"""Fixtures of ivy-robot's tests: a finite-difference gradient check and a compile check.

Every reference is computed independently of ``ivy_robot``: SciPy (``RBFInterpolator``,
``Rotation``), NumPy formulas written in the tests, or simulator constants.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

# torch: dynamo with fullgraph=True fails on any graph break; aot_eager skips inductor's C++ code
# generation, which takes tens of seconds per function on a small CPU.
COMPILE_OPTIONS = {"torch": {"backend": "aot_eager", "fullgraph": True}}


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(2024)


def _as_tuple(out: Any) -> tuple[Any, ...]:
    return tuple(out) if isinstance(out, (tuple, list)) else (out,)


@pytest.fixture
def check_gradient(autodiff: str, to_native: Callable[..., Any], to_numpy: Callable[[Any], Any]) -> Callable[..., None]:
    """``check(fn, x, h=1e-6, rtol=1e-5, atol=1e-7)``: autodiff against central differences.

    The gradient (by ``ivy.value_and_grad``, in float64) of ``sum_i sum(w_i * out_i)`` at ``x``,
    where ``fn`` returns one native array or a tuple ``out_i`` and the weights ``w_i`` are random
    and fixed, is compared with central differences in every coordinate of ``x``. The gradient
    must be finite. ``fn`` must act independently on each entry of a new leading axis: the
    unperturbed and all perturbed inputs go through one call, stacked on that axis.
    """
    import ivy

    def check(
        fn: Callable[[Any], Any], x: np.ndarray, *, h: float = 1e-6, rtol: float = 1e-5, atol: float = 1e-7
    ) -> None:
        x = np.asarray(x, dtype=np.float64)
        steps = (h * np.eye(x.size)).reshape((x.size,) + x.shape)
        inputs = np.concatenate([x[None], x + steps, x - steps])
        shapes = [tuple(o.shape)[1:] for o in _as_tuple(fn(to_native(x[None])))]
        weight_rng = np.random.default_rng(x.size)
        weights = [weight_rng.uniform(0.5, 1.5, s) * weight_rng.choice([-1.0, 1.0], s) for s in shapes]
        native_weights = [to_native(w) for w in weights]

        def loss(v: Any) -> Any:
            outs = _as_tuple(fn(v))
            return sum(ivy.sum(o * w) for o, w in zip(outs, native_weights)), outs

        step = ivy.value_and_grad(loss, has_aux=True)
        if autodiff == "jax":  # jax's eager mode compiles every op for every new shape: one jit is faster
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


@pytest.fixture
def check_compiled(backend: str, to_numpy: Callable[[Any], Any]) -> Callable[..., None]:
    """``check(fn, *native_args, rtol=1e-10, atol=1e-12)``: ``ivy.compile(fn)`` gives ``fn``'s results."""
    import ivy

    def check(fn: Callable[..., Any], *args: Any, rtol: float = 1e-10, atol: float = 1e-12) -> None:
        compiled = ivy.compile(fn, backend=backend, options=COMPILE_OPTIONS.get(backend, {}))
        eager, fast = _as_tuple(fn(*args)), _as_tuple(compiled(*args))
        assert len(eager) == len(fast)
        for e, f in zip(eager, fast):
            assert ivy.is_native_array(f)
            np.testing.assert_allclose(to_numpy(f), to_numpy(e), rtol=rtol, atol=atol)

    return check
