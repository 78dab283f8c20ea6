"""Gradient primitives and transforms on every backend, against analytic gradients of known
functions and central finite differences computed here in NumPy (float64).

The functions differentiated are written with ivy ops, so that the ops must work on whatever the
framework's autodiff hands them (functorch wrappers, JAX tracers, tf.Variables, paddle tensors).
On NumPy, which has no autodiff, the transforms must raise ``ivy.errors.NoAutodiffError`` while
``variable``/``is_variable``/``stop_gradient`` still work.
"""

from __future__ import annotations

import numpy as np
import pytest

import ivy
import ivy.testing
from ivy.testing._helpers.facts import expect, expect_dtype, expect_is, expect_shape, expect_type
from ivy.testing._helpers.registry import covers
from ivy.testing.convert import native_to_numpy, shape_of, to_native

#: Frameworks whose variables are a distinct kind (``is_variable(..., exclusive=True)`` can be True).
DISTINCT_VARIABLES = ("torch", "tensorflow", "paddle")

RNG = np.random.default_rng(1234)
X0 = RNG.uniform(-1.5, 1.5, size=(3, 4))
A = RNG.standard_normal((5, 4))  # inputs of the small "layer" below: 5 samples, 4 features
W0 = RNG.standard_normal((4, 2)) * 0.5
B0 = RNG.standard_normal(2) * 0.5


def _np(backend, x):
    return native_to_numpy(backend, x)


def _close(actual, expected, *, rtol=1e-10, atol=1e-12, msg=""):
    np.testing.assert_allclose(
        np.asarray(actual, dtype=np.float64), np.asarray(expected, dtype=np.float64), rtol=rtol, atol=atol, err_msg=msg
    )


def _fd_grad(f, x, h=1e-6):
    """Central finite differences of scalar ``f`` (NumPy, float64) at ``x``."""
    x = np.asarray(x, dtype=np.float64)
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = h
        g[i] = (f(x + e) - f(x - e)) / (2 * h)
    return g


def _fd_jac(f, x, h=1e-6):
    """Central-difference Jacobian, shape ``f(x).shape + x.shape``."""
    x = np.asarray(x, dtype=np.float64)
    out_shape = np.shape(f(x))
    j = np.zeros(out_shape + x.shape)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = h
        j[(Ellipsis,) + i] = (f(x + e) - f(x - e)) / (2 * h)
    return j


def _tracks_grad(backend, x):
    """Whether native ``x`` carries gradient tracking, by the framework's own flags (not ivy's):
    ``requires_grad`` in torch, ``stop_gradient=False`` in paddle, a ``tf.Variable`` in TF; JAX and
    NumPy arrays carry no such state."""
    if backend == "torch":
        return bool(x.requires_grad)
    if backend == "paddle":
        return not x.stop_gradient
    if backend == "tensorflow":
        import tensorflow as tf

        return isinstance(x, tf.Variable)
    return False


# ---------------------------------------------------------------------------- functions (ivy / NumPy)


def f_sin_sq(x):
    """sum(sin(x) * x**2); gradient cos(x) x**2 + 2 x sin(x)."""
    return ivy.sum(ivy.multiply(ivy.sin(x), ivy.multiply(x, x)))


def np_sin_sq(x):
    return np.sum(np.sin(x) * x * x)


def grad_sin_sq(x):
    return np.cos(x) * x * x + 2 * x * np.sin(x)


def layer_loss(params, a):
    """mean(tanh(a @ w + b) ** 2) over a dict {"w", "b"} of parameters."""
    h = ivy.tanh(ivy.add(ivy.matmul(a, params["w"]), params["b"]))
    return ivy.mean(ivy.multiply(h, h))


def np_layer_loss(w, b):
    h = np.tanh(A @ w + b)
    return np.mean(h * h)


def np_layer_grads(w, b):
    """Analytic gradients of ``np_layer_loss``."""
    h = np.tanh(A @ w + b)
    d = 2 * h * (1 - h * h) / h.size  # dL/dz
    return A.T @ d, d.sum(axis=0)


# ---------------------------------------------------------------------------- variable / stop_gradient


@covers("variable", "is_variable")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_variable(backend, dtype):
    x_np = X0.astype(dtype)
    x = to_native(backend, x_np)
    v = ivy.variable(x)
    expect_shape(v, x_np.shape, "ivy.variable")
    expect_dtype(v, dtype, "ivy.variable")
    np.testing.assert_array_equal(_np(backend, v), x_np)
    expect(ivy.dev(v), ivy.dev(x), "ivy.dev: ivy.dev(v)")
    expect_is(_tracks_grad(backend, v), backend in DISTINCT_VARIABLES, "ivy.variable: _tracks_grad(backend, v)")
    expect_is(ivy.is_variable(v), True, "ivy.is_variable: ivy.is_variable(v)")
    expect_is(
        ivy.is_variable(v, exclusive=True),
        backend in DISTINCT_VARIABLES,
        "ivy.is_variable: ivy.is_variable(v, exclusive=True)",
    )
    # A plain (constant) array of the framework is not of its variable kind.
    expect_is(ivy.is_variable(x, exclusive=True), False, "ivy.is_variable: ivy.is_variable(x, exclusive=True)")
    if backend not in DISTINCT_VARIABLES:
        # Without a distinct kind, every floating-point array counts (not exclusive).
        expect_is(ivy.is_variable(x), True, "ivy.is_variable: ivy.is_variable(x)")


@covers("is_variable")
def test_is_variable_non_arrays_and_integers(backend):
    for obj in (3.0, "x", None, [1.0, 2.0]):
        assert ivy.is_variable(obj, backend=backend) is False, repr(obj)
        assert ivy.is_variable(obj, exclusive=True, backend=backend) is False, repr(obj)
    # "every floating-point array counts": an integer array is no variable anywhere.
    expect_is(
        ivy.is_variable(to_native(backend, np.arange(4, dtype=np.int64))),
        False,
        "ivy.is_variable: ivy.is_variable(to_native(backend, np.arange(4, dtype=np.int64)))",
    )


@covers("stop_gradient")
def test_stop_gradient_values(backend):
    x = ivy.variable(to_native(backend, X0))
    s = ivy.stop_gradient(x)
    expect_shape(s, X0.shape, "ivy.stop_gradient")
    expect_dtype(s, "float64", "ivy.stop_gradient")
    np.testing.assert_array_equal(_np(backend, s), X0)
    expect_is(_tracks_grad(backend, s), False, "ivy.stop_gradient: _tracks_grad(backend, s)")
    expect_is(ivy.is_variable(s, exclusive=True), False, "ivy.is_variable: ivy.is_variable(s, exclusive=True)")


@covers("stop_gradient", "value_and_grad_flat")
def test_stop_gradient_blocks_gradients(autodiff):
    backend = autodiff
    x = ivy.variable(to_native(backend, X0))

    def f(ls):
        (a,) = ls
        # d/da sum(a * sg(a)) = sg(a) = a, not 2a; d/da sum(sg(a)**2) = 0
        return ivy.add(
            ivy.sum(ivy.multiply(a, ivy.stop_gradient(a))),
            ivy.sum(ivy.multiply(ivy.stop_gradient(a), ivy.stop_gradient(a))),
        )

    value, grads, aux = ivy.value_and_grad_flat(f, [x])
    _close(_np(backend, value), 2 * np.sum(X0 * X0))
    _close(_np(backend, grads[0]), X0)
    expect_is(aux, None, "ivy.value_and_grad_flat: aux")


# ---------------------------------------------------------------------------- value_and_grad_flat


@covers("value_and_grad_flat")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_value_and_grad_flat(autodiff, dtype):
    backend = autodiff
    x_np = X0.astype(dtype)
    w_np, b_np = W0.astype(dtype), B0.astype(dtype)
    a = to_native(backend, A.astype(dtype))
    xs = [ivy.variable(to_native(backend, v)) for v in (x_np, w_np, b_np)]

    def f(ls):
        x, w, b = ls
        return ivy.add(f_sin_sq(x), layer_loss({"w": w, "b": b}, a))

    value, grads, aux = ivy.value_and_grad_flat(f, xs)
    expect_is(aux, None, "ivy.value_and_grad_flat: aux")
    expect_type(grads, list, "ivy.value_and_grad_flat: grads")
    expect(len(grads), 3, "ivy.value_and_grad_flat: len(grads)")
    gw, gb = np_layer_grads(W0, B0)
    want_value = np_sin_sq(X0) + np_layer_loss(W0, B0)
    tol = dict(rtol=2e-5, atol=2e-6) if dtype == "float32" else dict(rtol=1e-10, atol=1e-12)
    expect_shape(value, (), "ivy.value_and_grad_flat")
    expect_dtype(value, dtype, "ivy.value_and_grad_flat")
    _close(_np(backend, value), want_value, **tol)
    for g, want, ref in zip(grads, (grad_sin_sq(X0), gw, gb), (x_np, w_np, b_np)):
        assert shape_of(g) == ref.shape, f"gradient shape {shape_of(g)} != {ref.shape}"
        expect_dtype(g, dtype, "ivy.value_and_grad_flat")
        _close(_np(backend, g), want, **tol)
    # The analytic formulas themselves agree with finite differences.
    _close(grad_sin_sq(X0), _fd_grad(np_sin_sq, X0), rtol=1e-6, atol=1e-8)
    _close(gw, _fd_grad(lambda w: np_layer_loss(w, B0), W0), rtol=1e-6, atol=1e-8)


@covers("value_and_grad_flat")
def test_value_and_grad_flat_against_finite_differences(autodiff):
    backend = autodiff

    def np_f(x, y):
        return np.sum(np.exp(-x * x) * np.cos(y)) + np.sum(np.log1p(y * y))

    def f(ls):
        x, y = ls
        return ivy.add(
            ivy.sum(ivy.multiply(ivy.exp(ivy.negative(ivy.multiply(x, x))), ivy.cos(y))),
            ivy.sum(ivy.log1p(ivy.multiply(y, y))),
        )

    x_np, y_np = RNG.standard_normal(6), RNG.standard_normal(6)
    value, (gx, gy), _ = ivy.value_and_grad_flat(f, [ivy.variable(to_native(backend, v)) for v in (x_np, y_np)])
    _close(_np(backend, value), np_f(x_np, y_np))
    _close(_np(backend, gx), _fd_grad(lambda x: np_f(x, y_np), x_np), rtol=1e-6, atol=1e-8)
    _close(_np(backend, gy), _fd_grad(lambda y: np_f(x_np, y), y_np), rtol=1e-6, atol=1e-8)


@covers("value_and_grad_flat")
def test_value_and_grad_flat_aux_and_unused_input(autodiff):
    backend = autodiff
    x_np, unused_np = X0, RNG.standard_normal((2, 5))
    xs = [ivy.variable(to_native(backend, v)) for v in (x_np, unused_np)]

    def f(ls):
        x, _ = ls
        s = ivy.sin(x)
        return ivy.sum(ivy.multiply(s, x)), ivy.multiply(s, 2.0)

    value, grads, aux = ivy.value_and_grad_flat(f, xs, has_aux=True)
    _close(_np(backend, value), np.sum(np.sin(X0) * X0))
    _close(_np(backend, grads[0]), np.cos(X0) * X0 + np.sin(X0))
    # The output does not depend on the second input: zeros of its shape and dtype.
    expect_shape(grads[1], unused_np.shape, "ivy.value_and_grad_flat")
    expect_dtype(grads[1], "float64", "ivy.value_and_grad_flat")
    np.testing.assert_array_equal(_np(backend, grads[1]), np.zeros_like(unused_np))
    _close(_np(backend, aux), 2 * np.sin(X0))


@covers("value_and_grad_flat")
def test_value_and_grad_flat_aux_any_object(autodiff):
    # "aux is any auxiliary output": Python objects and nests pass through untouched.
    backend = autodiff
    x = ivy.variable(to_native(backend, X0))

    def f(ls):
        return ivy.sum(ls[0]), {"name": "loss", "n": 3, "arr": ivy.multiply(ls[0], 2.0), "none": None}

    value, grads, aux = ivy.value_and_grad_flat(f, [x], has_aux=True)
    _close(_np(backend, value), X0.sum())
    _close(_np(backend, grads[0]), np.ones_like(X0))
    expect_type(aux, dict, "ivy.value_and_grad_flat: aux")
    expect(list(aux), ["name", "n", "arr", "none"], "ivy.value_and_grad_flat: list(aux)")
    expect(aux["name"], "loss", "ivy.value_and_grad_flat: aux['name']")
    expect(aux["n"], 3, "ivy.value_and_grad_flat: aux['n']")
    expect_is(aux["none"], None, "ivy.value_and_grad_flat: aux['none']")
    _close(_np(backend, aux["arr"]), 2 * X0)
    expect_is(_tracks_grad(backend, aux["arr"]), False, "ivy.value_and_grad_flat: _tracks_grad(backend, aux['arr'])")


@covers("value_and_grad_flat")
def test_value_and_grad_flat_needs_a_scalar(autodiff):
    backend = autodiff
    x = ivy.variable(to_native(backend, X0))
    with pytest.raises(ValueError):
        ivy.value_and_grad_flat(lambda ls: ivy.sin(ls[0]), [x])


@covers("value_and_grad_flat")
def test_value_and_grad_flat_results_are_detached(autodiff):
    backend = autodiff
    x = ivy.variable(to_native(backend, X0))
    value, grads, _ = ivy.value_and_grad_flat(lambda ls: f_sin_sq(ls[0]), [x])
    for r in (value, grads[0]):  # no link to the computation
        expect_is(ivy.is_variable(r, exclusive=True), False, "ivy.is_variable: ivy.is_variable(r, exclusive=True)")
        expect_is(_tracks_grad(backend, r), False, "ivy.value_and_grad_flat: _tracks_grad(backend, r)")


# ---------------------------------------------------------------------------- vjp / jvp / jacobian


def f_two(x, y):
    """An elementwise map of two arrays: (sin(x) * y, x * y**2)."""
    return ivy.multiply(ivy.sin(x), y), ivy.multiply(x, ivy.multiply(y, y))


@covers("vjp")
def test_vjp_single_output(autodiff):
    backend = autodiff
    x_np, c_np = RNG.standard_normal(5), RNG.standard_normal(5)
    out, vjp_fn = ivy.vjp(lambda x: ivy.multiply(ivy.sin(x), x), to_native(backend, x_np))
    _close(_np(backend, out), np.sin(x_np) * x_np)
    res = vjp_fn(to_native(backend, c_np))
    expect_type(res, tuple, "ivy.vjp: res")
    expect(len(res), 1, "ivy.vjp: len(res)")
    expect_shape(res[0], (5,), "ivy.vjp")
    _close(_np(backend, res[0]), c_np * (np.cos(x_np) * x_np + np.sin(x_np)))


@covers("vjp")
def test_vjp_two_primals_tuple_output(autodiff):
    backend = autodiff
    x_np, y_np = RNG.standard_normal((2, 3)), RNG.standard_normal((2, 3))
    c1, c2 = RNG.standard_normal((2, 3)), RNG.standard_normal((2, 3))
    out, vjp_fn = ivy.vjp(f_two, to_native(backend, x_np), to_native(backend, y_np))
    expect_type(out, tuple, "ivy.vjp: out")
    expect(len(out), 2, "ivy.vjp: len(out)")
    _close(_np(backend, out[0]), np.sin(x_np) * y_np)
    _close(_np(backend, out[1]), x_np * y_np**2)
    gx, gy = vjp_fn((to_native(backend, c1), to_native(backend, c2)))
    _close(_np(backend, gx), c1 * np.cos(x_np) * y_np + c2 * y_np**2)
    _close(_np(backend, gy), c1 * np.sin(x_np) + c2 * 2 * x_np * y_np)


@covers("vjp")
def test_vjp_matrix_function_against_finite_differences(autodiff):
    backend = autodiff
    w_np, c_np = W0, RNG.standard_normal((5, 2))
    a = to_native(backend, A)
    out, vjp_fn = ivy.vjp(lambda w: ivy.tanh(ivy.matmul(a, w)), to_native(backend, w_np))
    _close(_np(backend, out), np.tanh(A @ w_np))
    (gw,) = vjp_fn(to_native(backend, c_np))
    want = _fd_grad(lambda w: np.sum(c_np * np.tanh(A @ w)), w_np)
    _close(_np(backend, gw), want, rtol=1e-6, atol=1e-8)


@covers("jvp")
def test_jvp(autodiff):
    backend = autodiff
    x_np, y_np = RNG.standard_normal((2, 3)), RNG.standard_normal((2, 3))
    tx, ty = RNG.standard_normal((2, 3)), RNG.standard_normal((2, 3))
    out, tout = ivy.jvp(
        f_two, [to_native(backend, x_np), to_native(backend, y_np)], [to_native(backend, tx), to_native(backend, ty)]
    )
    expect_type(out, tuple, "ivy.jvp: out")
    expect_type(tout, tuple, "ivy.jvp: tout")
    expect(len(out), 2, "ivy.jvp: number of outputs")
    expect(len(tout), 2, "ivy.jvp: number of tangents")
    _close(_np(backend, out[0]), np.sin(x_np) * y_np)
    _close(_np(backend, out[1]), x_np * y_np**2)
    _close(_np(backend, tout[0]), np.cos(x_np) * y_np * tx + np.sin(x_np) * ty)
    _close(_np(backend, tout[1]), y_np**2 * tx + 2 * x_np * y_np * ty)
    for t in tout:
        expect_shape(t, (2, 3), "ivy.jvp")
        expect_dtype(t, "float64", "ivy.jvp")


@covers("jvp")
def test_jvp_single_output_against_finite_differences(autodiff):
    backend = autodiff
    w_np, t_np = W0, RNG.standard_normal(W0.shape)
    a = to_native(backend, A)
    out, tout = ivy.jvp(lambda w: ivy.tanh(ivy.matmul(a, w)), [to_native(backend, w_np)], [to_native(backend, t_np)])
    _close(_np(backend, out), np.tanh(A @ w_np))
    h = 1e-6
    want = (np.tanh(A @ (w_np + h * t_np)) - np.tanh(A @ (w_np - h * t_np))) / (2 * h)
    _close(_np(backend, tout), want, rtol=1e-6, atol=1e-8)


@covers("jvp")
def test_jvp_mismatch_raises(autodiff):
    backend = autodiff
    x, y = to_native(backend, np.ones(3)), to_native(backend, np.ones(4))
    with pytest.raises(ValueError):
        ivy.jvp(lambda a: ivy.sin(a), [x], [x, x])  # lengths differ
    with pytest.raises(ValueError):
        ivy.jvp(lambda a: ivy.sin(a), [x], [y])  # shapes differ


@covers("jacobian")
def test_jacobian_vector(autodiff):
    backend = autodiff
    m = RNG.standard_normal((2, 3))
    x_np = RNG.standard_normal(3)
    mn = to_native(backend, m)
    j = ivy.jacobian(lambda x: ivy.matmul(mn, ivy.tanh(x)), to_native(backend, x_np))
    expect_shape(j, (2, 3), "ivy.jacobian")
    want = m * (1 - np.tanh(x_np) ** 2)[None, :]
    _close(_np(backend, j), want)
    _close(want, _fd_jac(lambda x: m @ np.tanh(x), x_np), rtol=1e-6, atol=1e-8)


@covers("jacobian")
def test_jacobian_shapes_and_argnums(autodiff):
    backend = autodiff
    x_np, y_np = RNG.standard_normal((2, 3)), RNG.standard_normal(3)

    def f(x, y):  # (2, 3), (3,) -> (2,)
        return ivy.sum(ivy.multiply(ivy.sin(x), y), axis=1)

    def np_f(x, y):
        return np.sum(np.sin(x) * y, axis=1)

    x, y = to_native(backend, x_np), to_native(backend, y_np)
    j0 = ivy.jacobian(f, x, y)  # argnums=0
    expect_shape(j0, (2, 2, 3), "ivy.jacobian")
    _close(_np(backend, j0), _fd_jac(lambda v: np_f(v, y_np), x_np), rtol=1e-6, atol=1e-8)
    j1 = ivy.jacobian(f, x, y, argnums=1)
    expect_shape(j1, (2, 3), "ivy.jacobian")
    _close(_np(backend, j1), np.sin(x_np))
    both = ivy.jacobian(f, x, y, argnums=(0, 1))
    expect_type(both, tuple, "ivy.jacobian: both")
    expect(len(both), 2, "ivy.jacobian: len(both)")
    _close(_np(backend, both[0]), _np(backend, j0))
    _close(_np(backend, both[1]), np.sin(x_np))
    with pytest.raises(IndexError):
        ivy.jacobian(f, x, y, argnums=2)


# ---------------------------------------------------------------------------- core transforms over nests


def _variables(backend, tree):
    return ivy.nest.map(lambda v: ivy.variable(to_native(backend, v)), tree)


def test_execute_with_gradients_dict(autodiff):
    backend = autodiff
    a = to_native(backend, A)
    xs = _variables(backend, {"w": W0, "b": B0})

    y, grads = ivy.execute_with_gradients(lambda p: layer_loss(p, a), xs)
    expect_type(grads, dict, "ivy.execute_with_gradients: grads")
    expect(list(grads), ["w", "b"], "ivy.execute_with_gradients: list(grads)")
    gw, gb = np_layer_grads(W0, B0)
    _close(_np(backend, y), np_layer_loss(W0, B0))
    _close(_np(backend, grads["w"]), gw)
    _close(_np(backend, grads["b"]), gb)
    _close(_np(backend, grads["w"]), _fd_grad(lambda w: np_layer_loss(w, B0), W0), rtol=1e-6, atol=1e-8)
    _close(_np(backend, grads["b"]), _fd_grad(lambda b: np_layer_loss(W0, b), B0), rtol=1e-6, atol=1e-8)


def test_execute_with_gradients_extra_outputs(autodiff):
    backend = autodiff
    a = to_native(backend, A)
    xs = _variables(backend, {"w": W0, "b": B0})

    def func(p):
        z = ivy.add(ivy.matmul(a, p["w"]), p["b"])
        return layer_loss(p, a), z, ivy.sum(z)

    out = ivy.execute_with_gradients(func, xs)
    assert isinstance(out, tuple), "expected (y, grads, *extra)"
    assert len(out) == 4, "expected (y, grads, *extra)"
    y, grads, z, zs = out
    z_np = A @ W0 + B0
    _close(_np(backend, y), np_layer_loss(W0, B0))
    _close(_np(backend, grads["w"]), np_layer_grads(W0, B0)[0])
    _close(_np(backend, z), z_np)
    _close(_np(backend, zs), z_np.sum())
    for r in (y, z, zs):  # returned with their gradient history stopped
        expect_is(ivy.is_variable(r, exclusive=True), False, "ivy.is_variable: ivy.is_variable(r, exclusive=True)")
        expect_is(_tracks_grad(backend, r), False, "ivy.execute_with_gradients: _tracks_grad(backend, r)")


def test_execute_with_gradients_nested_list(autodiff):
    backend = autodiff
    x2 = RNG.standard_normal(3)
    xs = _variables(backend, [X0, {"inner": (x2, W0)}])

    def func(p):
        x, rest = p
        u, w = rest["inner"]
        return ivy.add(ivy.add(f_sin_sq(x), ivy.sum(ivy.multiply(u, u))), ivy.sum(ivy.exp(w)))

    y, grads = ivy.execute_with_gradients(func, xs)
    expect_type(grads, list, "ivy.execute_with_gradients: grads")
    expect(len(grads), 2, "ivy.execute_with_gradients: len(grads)")
    expect_type(grads[1], dict, "ivy.execute_with_gradients: grads[1]")
    expect_type(grads[1]["inner"], tuple, "ivy.execute_with_gradients: grads[1]['inner']")
    _close(_np(backend, y), np_sin_sq(X0) + np.sum(x2 * x2) + np.sum(np.exp(W0)))
    _close(_np(backend, grads[0]), grad_sin_sq(X0))
    _close(_np(backend, grads[1]["inner"][0]), 2 * x2)
    _close(_np(backend, grads[1]["inner"][1]), np.exp(W0))


def test_value_and_grad_and_grad_argnums(autodiff):
    backend = autodiff
    x_np, y_np, z_np = RNG.standard_normal(4), RNG.standard_normal(4), RNG.standard_normal(4)

    def f(x, y, z, *, scale=1.0):
        return ivy.multiply(ivy.sum(ivy.multiply(ivy.sin(x), ivy.multiply(y, z))), scale)

    x, y, z = (to_native(backend, v) for v in (x_np, y_np, z_np))
    v, g = ivy.value_and_grad(f)(x, y, z, scale=2.0)
    _close(_np(backend, v), 2 * np.sum(np.sin(x_np) * y_np * z_np))
    _close(_np(backend, g), 2 * np.cos(x_np) * y_np * z_np)  # argnums=0: one array, not a tuple
    v, g = ivy.value_and_grad(f, argnums=(0, 2))(x, y, z)
    expect_type(g, tuple, "ivy.value_and_grad: g")
    expect(len(g), 2, "ivy.value_and_grad: len(g)")
    _close(_np(backend, g[0]), np.cos(x_np) * y_np * z_np)
    _close(_np(backend, g[1]), np.sin(x_np) * y_np)
    g1 = ivy.grad(f, argnums=1)(x, y, z)
    _close(_np(backend, g1), np.sin(x_np) * z_np)
    gs = ivy.grad(f, argnums=[1, 2])(x, y, z)
    expect_type(gs, tuple, "ivy.grad: gs")
    expect(len(gs), 2, "ivy.grad: len(gs)")
    _close(_np(backend, gs[0]), np.sin(x_np) * z_np)
    _close(_np(backend, gs[1]), np.sin(x_np) * y_np)


def test_grad_over_a_nest_argument(autodiff):
    backend = autodiff
    a = to_native(backend, A)
    params = {"w": to_native(backend, W0), "b": to_native(backend, B0)}
    g = ivy.grad(layer_loss)(params, a)
    expect_type(g, dict, "ivy.grad: g")
    expect(list(g), ["w", "b"], "ivy.grad: list(g)")
    gw, gb = np_layer_grads(W0, B0)
    _close(_np(backend, g["w"]), gw)
    _close(_np(backend, g["b"]), gb)


def test_value_and_grad_has_aux(autodiff):
    backend = autodiff
    x_np = RNG.standard_normal(5)

    def f(x):
        s = ivy.sin(x)
        return ivy.sum(ivy.multiply(s, s)), {"s": s}

    (value, aux), g = ivy.value_and_grad(f, has_aux=True)(to_native(backend, x_np))
    _close(_np(backend, value), np.sum(np.sin(x_np) ** 2))
    _close(_np(backend, g), 2 * np.sin(x_np) * np.cos(x_np))
    expect_type(aux, dict, "ivy.value_and_grad: aux")
    expect(list(aux), ["s"], "ivy.value_and_grad: list(aux)")
    _close(_np(backend, aux["s"]), np.sin(x_np))


def test_jac(autodiff):
    backend = autodiff
    m = RNG.standard_normal((2, 3))
    mn = to_native(backend, m)
    x_np, y_np = RNG.standard_normal(3), RNG.standard_normal(3)

    def f(x, y):
        return ivy.matmul(mn, ivy.multiply(ivy.tanh(x), y))

    x, y = to_native(backend, x_np), to_native(backend, y_np)
    j = ivy.jac(f)(x, y)
    expect_shape(j, (2, 3), "ivy.jac")
    _close(_np(backend, j), m * ((1 - np.tanh(x_np) ** 2) * y_np)[None, :])
    jx, jy = ivy.jac(f, argnums=(0, 1))(x, y)
    _close(_np(backend, jx), _np(backend, j))
    _close(_np(backend, jy), m * np.tanh(x_np)[None, :])
    _close(_np(backend, jy), _fd_jac(lambda v: m @ (np.tanh(x_np) * v), y_np), rtol=1e-6, atol=1e-8)


# ---------------------------------------------------------------------------- NumPy: no autodiff


@covers("value_and_grad_flat", "vjp", "jvp", "jacobian")
def test_fn_transforms_raise_no_autodiff_without_it(backend):
    if ivy.testing.has_autodiff(backend):
        pytest.skip(f"the {backend!r} backend has automatic differentiation")
    x = ivy.variable(to_native(backend, X0))
    err = ivy.errors.NoAutodiffError
    assert issubclass(err, NotImplementedError), "the gradient functions: expected issubclass(err, NotImplementedError)"
    # the primitives, where the backend has them at all, refuse too
    b = ivy._registry.get_backend(backend)
    for name, call in [
        ("value_and_grad_flat", lambda: ivy.value_and_grad_flat(lambda ls: f_sin_sq(ls[0]), [x])),
        ("vjp", lambda: ivy.vjp(lambda a: ivy.sin(a), x)),
        ("jvp", lambda: ivy.jvp(lambda a: ivy.sin(a), [x], [x])),
        ("jacobian", lambda: ivy.jacobian(lambda a: ivy.sin(a), x)),
    ]:
        with pytest.raises(err if name in b.ops else NotImplementedError):
            call()
    with pytest.raises(err):
        ivy.execute_with_gradients(lambda p: f_sin_sq(p["x"]), {"x": x})
    with pytest.raises(err):
        ivy.grad(f_sin_sq)(x)
    with pytest.raises(err):
        ivy.value_and_grad(f_sin_sq)(x)
    with pytest.raises(err):
        ivy.jac(lambda a: ivy.sin(a))(x)
