"""Gradient transforms beyond ``test_fn_gradients``: second derivatives, transforms composed into
Hessian-vector products, pullbacks called again, linear and constant functions, negative
``argnums`` and non-array outputs passing through, max/min reduced over several axes of a rank-5
array; analytic derivatives written here in NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import ivy
import ivy.testing
from ivy.testing._helpers.facts import expect
from ivy.testing._helpers.registry import covers

X0 = np.array([0.3, -1.2, 2.0])
V0 = np.array([1.0, 0.5, -2.0])


def _close(got, want, tol=1e-10):
    np.testing.assert_allclose(np.asarray(got, dtype=np.float64), want, rtol=tol, atol=tol)


def _cube_decay(x):
    """sum(x**3 exp(-x)); separable, so its Hessian is diagonal."""
    return ivy.sum(ivy.multiply(ivy.multiply(ivy.multiply(x, x), x), ivy.exp(ivy.negative(x))))


def _sin_sq(x):
    """sum(sin(x) x**2)."""
    return ivy.sum(ivy.multiply(ivy.sin(x), ivy.multiply(x, x)))


def test_fn_second_order_gradients(autodiff, to_native, to_numpy):
    x = to_native(X0)
    e = np.exp(-X0)
    _close(to_numpy(ivy.grad(_cube_decay)(x)), (3 * X0**2 - X0**3) * e)
    h = ivy.grad(lambda v: ivy.sum(ivy.grad(_cube_decay)(v)))(x)  # grad of grad
    _close(to_numpy(h), (6 * X0 - 6 * X0**2 + X0**3) * e)
    (value, aux), g = ivy.value_and_grad(
        lambda a, b: (ivy.sum(ivy.multiply(a, b)), "aux"), argnums=(0, 1), has_aux=True
    )(x, to_native(2 * X0))
    expect(aux, "aux", "ivy.value_and_grad: aux")
    _close(to_numpy(value), np.sum(2 * X0 * X0))
    _close(to_numpy(g[0]), 2 * X0)
    _close(to_numpy(g[1]), X0)


@covers("jvp", "vjp", "jacobian")
def test_fn_transforms_compose_into_hessian_vector_products(autodiff, to_native, to_numpy):
    hdiag = 2 * np.sin(X0) + 4 * X0 * np.cos(X0) - X0**2 * np.sin(X0)
    x, v = to_native(X0), to_native(V0)
    _, hvp = ivy.jvp(ivy.grad(_sin_sq), [x], [v])  # forward over reverse
    _close(to_numpy(hvp), hdiag * V0)
    _, pullback = ivy.vjp(ivy.grad(_sin_sq), x)  # reverse over reverse
    _close(to_numpy(pullback(v)[0]), hdiag * V0)
    _close(to_numpy(ivy.jacobian(ivy.grad(_sin_sq), x)), np.diag(hdiag))


@covers("vjp")
def test_fn_vjp_pullback_can_be_called_again(autodiff, to_native, to_numpy):
    a = np.array([[1.0, -2.0, 0.5], [0.3, 0.2, -1.0]])
    an = to_native(a)
    out, pullback = ivy.vjp(lambda x: ivy.tanh(ivy.matmul(an, x)), to_native(X0))
    _close(to_numpy(out), np.tanh(a @ X0))
    ct = np.array([0.7, -1.1])
    want = (ct * (1 - np.tanh(a @ X0) ** 2)) @ a
    for _ in range(2):
        _close(to_numpy(pullback(to_native(ct))[0]), want)


@covers("jvp")
def test_fn_jvp_of_linear_and_constant_functions(autodiff, to_native, to_numpy):
    x, t = to_native(np.array([1.0, 2.0])), to_native(np.array([1.0, 2.0]))
    _, tl = ivy.jvp(lambda a: ivy.multiply(a, 3.0), [x], [t])
    _close(to_numpy(tl), [3.0, 6.0])
    const = to_native(np.ones(2))
    out, tc = ivy.jvp(lambda a: const, [x], [t])
    _close(to_numpy(out), [1.0, 1.0])
    _close(to_numpy(tc), [0.0, 0.0])


@covers("jacobian")
def test_fn_jacobian_negative_argnums(autodiff, to_native, to_numpy):
    def f(x, y):
        return ivy.multiply(x, ivy.multiply(y, y))

    x, y = to_native(np.array([1.0, 2.0])), to_native(np.array([3.0]))
    _close(to_numpy(ivy.jacobian(f, x, y, argnums=-1)), [[6.0], [12.0]])
    jx, jy = ivy.jacobian(f, x, y, argnums=(0, -1))
    _close(to_numpy(jx), [[9.0, 0.0], [0.0, 9.0]])
    _close(to_numpy(jy), [[6.0], [12.0]])


@covers("value_and_grad_flat")
def test_fn_value_and_grad_flat_of_a_constant_function(autodiff, to_native, to_numpy):
    x = to_native(np.array([1.0, 2.0]))
    const = to_native(np.array(3.0))
    value, grads, _ = ivy.value_and_grad_flat(lambda ls: const, [x])
    _close(to_numpy(value), 3.0)
    _close(to_numpy(grads[0]), [0.0, 0.0])  # depends on none of its inputs: zero gradients
    np.testing.assert_array_equal(to_numpy(x), [1.0, 2.0])


def test_fn_execute_with_gradients_passes_python_outputs_through(autodiff, to_native, to_numpy):
    r = np.random.default_rng(2)
    w, b, xs = r.normal(size=(4, 3)), r.normal(size=(3,)), r.normal(size=(5, 4))
    params = {"w": ivy.variable(to_native(w)), "b": ivy.variable(to_native(b))}
    xn = to_native(xs)

    def loss(p):
        y = ivy.tanh(ivy.add(ivy.matmul(xn, p["w"]), p["b"]))
        return ivy.mean(ivy.multiply(y, y)), int(xs.shape[0]), "tag"

    value, grads, n, tag = ivy.execute_with_gradients(loss, params)
    expect(n, 5, "ivy.execute_with_gradients: n")
    expect(tag, "tag", "ivy.execute_with_gradients: tag")
    h = np.tanh(xs @ w + b)
    _close(to_numpy(value), np.mean(h * h))
    d = 2 * h * (1 - h * h) / h.size
    _close(to_numpy(grads["w"]), xs.T @ d)
    _close(to_numpy(grads["b"]), d.sum(axis=0))


# Rank 5, several axes: adjacent or not, keepdims or not (paddle 3.3's own gradient is wrong there).
@covers("max", "min")
@pytest.mark.parametrize("keepdims", [False, True], ids=["flat", "keepdims"])
@pytest.mark.parametrize("axes", [(2, 3), (1, 3), (2, 3, 4), (0, 2, -1)], ids=str)
@pytest.mark.parametrize("op", ["max", "min"])
def test_fn_max_min_gradients_over_several_axes(autodiff, to_native, to_numpy, op, axes, keepdims):
    r = np.random.default_rng(5)
    x = r.permutation(2 * 3 * 4 * 3 * 2).reshape(2, 3, 4, 3, 2) / 7.0  # distinct values: no ties
    ref = {"max": np.max, "min": np.min}[op](x, axis=axes, keepdims=True)
    want = ref if keepdims else np.squeeze(ref, axis=axes)
    ct = r.standard_normal(want.shape)  # a cotangent per output: which input each one reaches shows
    ctn = to_native(ct)

    def f(a):
        return ivy.sum(ivy.multiply(getattr(ivy, op)(a, axis=axes, keepdims=keepdims), ctn))

    value, g = ivy.value_and_grad(f)(to_native(x))
    _close(to_numpy(value), np.sum(want * ct))
    # d/dx: the output's cotangent at the one extreme element of each reduced slice, 0 elsewhere
    _close(to_numpy(g), np.where(x == ref, ct if keepdims else np.expand_dims(ct, axes), 0.0))


@covers("linalg.vector_norm")
@pytest.mark.parametrize("ord", [np.inf, -np.inf], ids=["inf", "-inf"])
@pytest.mark.parametrize("axes", [(2, 3), (0, 2, -1)], ids=str)
def test_fn_inf_norm_gradients_over_several_axes(autodiff, to_native, to_numpy, ord, axes):
    r = np.random.default_rng(6)
    signs = r.choice([-1.0, 1.0], (2, 3, 4, 3, 2))
    x = signs * (r.permutation(2 * 3 * 4 * 3 * 2).reshape(2, 3, 4, 3, 2) + 1) / 7.0  # distinct |x|, both signs
    a = np.abs(x)
    ref = (np.max if ord > 0 else np.min)(a, axis=axes, keepdims=True)
    ct = r.standard_normal(np.squeeze(ref, axis=axes).shape)
    ctn = to_native(ct)

    def f(v):
        return ivy.sum(ivy.multiply(ivy.linalg.vector_norm(v, axis=axes, ord=ord), ctn))

    value, g = ivy.value_and_grad(f)(to_native(x))
    _close(to_numpy(value), np.sum(np.squeeze(ref, axis=axes) * ct))
    # d|x|/dx = sign(x) at the one extreme element of each reduced slice
    _close(to_numpy(g), np.where(a == ref, np.sign(x) * np.expand_dims(ct, axes), 0.0))


def test_fn_no_autodiff_errors_name_the_backend(backend, to_native):
    if ivy.testing.has_autodiff(backend):
        pytest.skip(f"the {backend!r} backend has automatic differentiation")
    x = to_native(X0)
    for call in (
        lambda: ivy.grad(_sin_sq)(x),
        lambda: ivy.value_and_grad(_sin_sq)(x),
        lambda: ivy.jac(ivy.sin)(x),
        lambda: ivy.execute_with_gradients(lambda p: _sin_sq(p["x"]), {"x": x}),
    ):
        with pytest.raises(ivy.errors.NoAutodiffError, match=backend):
            call()
