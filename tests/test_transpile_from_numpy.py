"""``ivy.transpile`` from NumPy to each TARGET (the ``--backend`` of the run): NumPy functions,
traced through ``__array_ufunc__`` / ``__array_function__``, become native functions of the
target, differentiable there.

The reference is NumPy itself: outputs on the same inputs (within 1e-4 relative, with NumPy's
result dtypes), and the target's gradients against central finite differences of the NumPy
function in float64.

    python -m pytest tests/test_transpile_from_numpy.py --backend torch -q

The numpy target is skipped (source and target would be the same framework).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from _helpers.transpiling import not_the_source, rand

import ivy

_target = not_the_source("numpy", "NumPy")


def mlp(x: np.ndarray, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray) -> np.ndarray:
    h = np.tanh(x @ w1 + b1)
    logits = h @ w2
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def pairwise_distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    d = a[:, None, :] - b[None, :, :]
    return np.sqrt(np.sum(d**2, axis=-1) + 1e-6)


def normalise_and_mix(x: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    mu = x.mean(axis=1, keepdims=True)
    z = (x - mu) / np.sqrt(x.var(axis=1, keepdims=True) + 1e-5)
    gated = np.where(z > 0, z, 0.1 * z)
    mixed = np.einsum("bi,ij->bj", np.clip(gated, -2.0, 2.0), w)
    return np.concatenate([mixed, np.linalg.norm(z, axis=1, keepdims=True)], axis=1), z[:, ::2].T


FUNCTIONS: dict[str, tuple[Callable[..., Any], Callable[[str], tuple[np.ndarray, ...]]]] = {
    "mlp": (
        mlp,
        lambda dt: (
            rand(4, 5, dtype=dt),
            rand(5, 8, seed=1, dtype=dt),
            rand(8, seed=2, dtype=dt),
            rand(8, 3, seed=3, dtype=dt),
        ),
    ),
    "pairwise_distances": (pairwise_distances, lambda dt: (rand(4, 3, dtype=dt), rand(5, 3, seed=1, dtype=dt))),
    "normalise_and_mix": (normalise_and_mix, lambda dt: (rand(3, 6, dtype=dt), rand(6, 2, seed=1, dtype=dt))),
}


def _leaves(out: Any) -> list[Any]:
    return list(out) if isinstance(out, (tuple, list)) else [out]


@pytest.mark.parametrize("which", list(FUNCTIONS))
def test_a_numpy_function_becomes_a_native_function(backend: str, which: str, to_native: Any, to_numpy: Any) -> None:
    fn, make = FUNCTIONS[which]
    args = make("float32")
    native = ivy.transpile(fn, to=backend, args=args)
    want = _leaves(fn(*args))
    got = _leaves(native(*[to_native(a) for a in args]))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        g = np.asarray(to_numpy(g))
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype, w.dtype)
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)
    others = make("float32")[:0] + tuple(rand(*a.shape, seed=40 + i) for i, a in enumerate(args))
    for g, w in zip(_leaves(native(*[to_native(a) for a in others])), _leaves(fn(*others))):
        np.testing.assert_allclose(np.asarray(to_numpy(g)), w, rtol=1e-4, atol=1e-5)


def _central_differences(
    fn: Callable[..., Any], args: list[np.ndarray], weights: list[np.ndarray], eps: float = 1e-6
) -> list[np.ndarray]:
    """Gradients of sum(outputs * weights) w.r.t. each input, by central differences (float64)."""

    def total(xs: list[np.ndarray]) -> float:
        return float(sum(np.sum(o * w) for o, w in zip(_leaves(fn(*xs)), weights)))

    grads = []
    for i, a in enumerate(args):
        g = np.zeros_like(a)
        for idx in np.ndindex(a.shape):
            up, down = [x.copy() for x in args], [x.copy() for x in args]
            up[i][idx] += eps
            down[i][idx] -= eps
            g[idx] = (total(up) - total(down)) / (2 * eps)
        grads.append(g)
    return grads


def _target_grads(backend: str, fn: Any, args: list[Any], weights: list[Any]) -> list[Any]:
    def total(outs: Any) -> Any:
        return sum(ivy.sum(ivy.multiply(o, w)) for o, w in zip(_leaves(outs), weights))

    if backend == "torch":
        for a in args:
            a.requires_grad_(True)
        total(fn(*args)).backward()
        return [a.grad for a in args]
    if backend == "jax":
        import jax

        return list(jax.grad(lambda *xs: total(fn(*xs)), argnums=tuple(range(len(args))))(*args))
    if backend == "tensorflow":
        import tensorflow as tf

        with tf.GradientTape() as tape:
            for a in args:
                tape.watch(a)
            t = total(fn(*args))
        return tape.gradient(t, args)
    import paddle

    for a in args:
        a.stop_gradient = False
    return paddle.grad(total(fn(*args)), args)


@pytest.mark.parametrize("which", list(FUNCTIONS))
def test_gradients_in_the_target_match_finite_differences(
    autodiff: str, which: str, to_native: Any, to_numpy: Any
) -> None:
    fn, make = FUNCTIONS[which]
    args = list(make("float64"))
    native = ivy.transpile(fn, to=autodiff, args=tuple(args))
    weights = [rand(*np.shape(w), seed=11 + i, dtype="float64") for i, w in enumerate(_leaves(fn(*args)))]
    got = _target_grads(autodiff, native, [to_native(a) for a in args], [to_native(w) for w in weights])
    want = _central_differences(fn, args, weights)
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(to_numpy(g)), w, rtol=1e-5, atol=1e-6)


def test_numpys_result_dtypes_hold_in_the_target(backend: str, to_native: Any, to_numpy: Any) -> None:
    def fn(x: np.ndarray, i: np.ndarray) -> tuple[np.ndarray, ...]:
        return x * 2.5, i / 2, np.mean(i), np.sum(x > 0)

    x, i = rand(5), np.arange(5, dtype=np.int32)
    native = ivy.transpile(fn, to=backend, args=(x, i))
    for g, w in zip(native(to_native(x), to_native(i)), fn(x, i)):
        g = np.asarray(to_numpy(g))
        assert g.dtype == np.asarray(w).dtype, (g.dtype, np.asarray(w).dtype)
        np.testing.assert_allclose(g, w, rtol=1e-6)


def test_unsupported_numpy_calls_are_all_named_with_their_lines(backend: str) -> None:
    def fn(x: np.ndarray) -> np.ndarray:
        return np.percentile(x, 50) * np.i0(x)

    with pytest.raises(ivy.errors.UnsupportedOpsError) as info:
        ivy.transpile(fn, to=backend, args=(rand(4),))
    assert set(info.value.ops) == {"percentile", "i0"}
    assert all("test_transpile_from_numpy.py" in w[0] for w in info.value.ops.values())
