"""``ivy.compile`` / ``ivy.compile_fn`` on every backend: compiled results equal eager ones, the
options reach the framework's compiler, the decorator form, and one compilation per backend.

Cheap compilers are used (torch's ``aot_eager``/``eager``, passed as
``options={"backend": ...}`` since ivy.compile's own ``backend=`` names the Ivy backend;
``jax.jit``, ``tf.function`` and ``paddle.jit.to_static`` are quick for a tiny function). The real
default torch compile (inductor, 15 to 90 s here) runs only with ``IVY_TEST_SLOW=1``.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from _helpers.backends import native_to_numpy, to_native

import ivy

pytestmark = pytest.mark.skipif("variable" not in ivy._spec.SPECS, reason="needs the issue-3 specs")

if "variable" in ivy._spec.SPECS:
    from ivy._functional import compile as compile_mod

RNG = np.random.default_rng(5)
X = RNG.standard_normal((3, 4))
Y = RNG.standard_normal((4,))


def f(x, y):
    """A small function written with ivy ops."""
    z = ivy.add(ivy.multiply(ivy.sin(x), y), ivy.exp(ivy.negative(ivy.multiply(x, x))))
    return ivy.add(ivy.sum(z, axis=1), ivy.mean(ivy.tanh(ivy.matmul(x, y))))


def np_f(x, y):
    z = np.sin(x) * y + np.exp(-x * x)
    return z.sum(axis=1) + np.mean(np.tanh(x @ y))


def _compiled(backend, fn, **options):
    """``fn`` compiled for ``backend`` with a cheap compiler."""
    if backend == "torch":
        return ivy.compile(fn, options={"backend": "aot_eager", **options})
    return ivy.compile(fn, **options)


def _np(backend, x):
    return native_to_numpy(backend, x)


def _args(backend, *arrays):
    return [to_native(backend, a) for a in arrays]


@pytest.fixture(autouse=True)
def _reset_torch_dynamo(backend):
    if backend == "torch":
        import torch

        torch._dynamo.reset()
    yield


def test_compiled_equals_eager(backend):
    x, y = _args(backend, X, Y)
    eager = _np(backend, f(x, y))
    np.testing.assert_allclose(eager, np_f(X, Y), rtol=1e-12, atol=1e-12)
    c = _compiled(backend, f)
    for _ in range(2):  # the first call compiles, the second reuses
        np.testing.assert_allclose(_np(backend, c(x, y)), eager, rtol=1e-12, atol=1e-12)
    # New values of the same shape: the compiled function is not a constant.
    x2, y2 = X * 2.0 - 1.0, Y[::-1].copy()
    np.testing.assert_allclose(_np(backend, c(*_args(backend, x2, y2))), np_f(x2, y2), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_compiled_dtype(backend, dtype):
    x, y = _args(backend, X.astype(dtype), Y.astype(dtype))
    out = _compiled(backend, f)(x, y)
    got = _np(backend, out)
    assert got.dtype == np.dtype(dtype) and got.shape == (3,)
    tol = 2e-5 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(got, _np(backend, f(x, y)), rtol=tol, atol=tol)


def test_compile_fn_is_compile():
    assert ivy.compile_fn is ivy.compile


def test_public_compile_on_numpy_is_identity(backend):
    # NumPy has no compiler: the function runs as it is, on every call (its Python body too).
    calls = []

    def g(x):
        calls.append(1)
        return ivy.multiply(x, 3.0)

    c = ivy.compile(g)
    x = np.arange(4.0)
    for i in range(3):
        out = c(x)
        assert isinstance(out, np.ndarray)
        np.testing.assert_array_equal(out, np.arange(4.0) * 3.0)
        assert len(calls) == i + 1


def test_decorator_form(backend):
    x, y = _args(backend, X, Y)
    cheap = {"options": {"backend": "eager"}} if backend == "torch" else {}
    if backend == "torch":
        @ivy.compile(**cheap)
        def h(x, y):
            return f(x, y)
    else:
        @ivy.compile
        def h(x, y):
            return f(x, y)

    @ivy.compile(backend=backend, **cheap)
    def k(x, y):
        return f(x, y)

    assert h.__name__ == "h" and k.__name__ == "k"
    np.testing.assert_allclose(_np(backend, h(x, y)), np_f(X, Y), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(_np(backend, k(x, y)), np_f(X, Y), rtol=1e-12, atol=1e-12)


def test_compiles_once_per_backend(backend, monkeypatch):
    seen = []
    real = compile_mod._compiler

    def counting(b, fn, options):
        seen.append(b.name)
        return real(b, fn, options)

    monkeypatch.setattr(compile_mod, "_compiler", counting)
    c = _compiled(backend, f)
    x, y = _args(backend, X, Y)
    for _ in range(3):
        c(x, y)
    assert seen == [backend]
    # NumPy arrays in the same process: a second backend, compiled once too.
    if backend != "numpy":
        for _ in range(2):
            np.testing.assert_allclose(c(X, Y), np_f(X, Y), rtol=1e-12, atol=1e-12)
        assert seen == [backend, "numpy"]
        c(x, y)
        assert seen == [backend, "numpy"]
    # Another compiled object has its own cache.
    _compiled(backend, f)(x, y)
    assert seen[-1] == backend and seen.count(backend) == 2


def test_traced_once_for_the_same_shapes(backend):
    if backend not in ("jax", "tensorflow"):
        pytest.skip("counted through Python side effects at trace time (jax.jit, tf.function)")
    traces = []

    def g(x, y):
        traces.append(1)  # runs while tracing only
        return f(x, y)

    c = ivy.compile(g)
    x, y = _args(backend, X, Y)
    for _ in range(3):
        np.testing.assert_allclose(_np(backend, c(x, y)), np_f(X, Y), rtol=1e-12, atol=1e-12)
    assert len(traces) == 1


# ---------------------------------------------------------------------------- options pass through


def test_jax_static_argnums(backend):
    if backend != "jax":
        pytest.skip("jax.jit option")

    def power_sum(x, n):
        acc = x
        for _ in range(n - 1):  # Python control flow on n: needs n static
            acc = ivy.multiply(acc, x)
        return ivy.sum(acc)

    x = to_native(backend, np.array([1.0, 2.0, 3.0]))
    with pytest.raises(Exception):  # a tracer cannot drive range(): the option is what makes it work
        ivy.compile(power_sum)(x, 3)
    c = ivy.compile(power_sum, static_argnums=(1,))
    assert float(_np(backend, c(x, 3))) == 36.0
    assert float(_np(backend, c(x, 2))) == 14.0
    c = ivy.compile(power_sum, options={"static_argnums": (1,)})  # the same, as a mapping
    assert float(_np(backend, c(x, 3))) == 36.0


def test_tensorflow_input_signature(backend):
    if backend != "tensorflow":
        pytest.skip("tf.function option")
    import tensorflow as tf

    c = ivy.compile(f, input_signature=[tf.TensorSpec([3, 4], tf.float64), tf.TensorSpec([4], tf.float64)])
    x, y = _args(backend, X, Y)
    np.testing.assert_allclose(_np(backend, c(x, y)), np_f(X, Y), rtol=1e-12, atol=1e-12)
    with pytest.raises((TypeError, ValueError)):  # the signature reached tf.function
        c(*_args(backend, np.ones((2, 4)), Y))


def test_torch_options_reach_torch_compile(backend):
    if backend != "torch":
        pytest.skip("torch.compile option")
    import torch

    def breaks(x):
        y = ivy.sin(x)
        torch._dynamo.graph_break()
        return ivy.cos(y)

    x = to_native(backend, X)
    with pytest.raises(Exception, match="(?i)graph.?break"):  # fullgraph=True refuses graph breaks
        ivy.compile(breaks, options={"backend": "eager"}, fullgraph=True)(x)
    seen = []

    def my_backend(gm, example_inputs):
        seen.append(len(example_inputs))
        return gm.forward

    c = ivy.compile(f, options={"backend": my_backend})
    x, y = _args(backend, X, Y)
    np.testing.assert_allclose(_np(backend, c(x, y)), np_f(X, Y), rtol=1e-12, atol=1e-12)
    c(x, y)
    assert len(seen) == 1, "torch compiled the graph more than once"


@pytest.mark.parametrize("tbackend", ["eager", "aot_eager"])
def test_torch_cheap_backends(backend, tbackend):
    if backend != "torch":
        pytest.skip("torch.compile backends")
    c = ivy.compile(f, options={"backend": tbackend})
    x, y = _args(backend, X, Y)
    np.testing.assert_allclose(_np(backend, c(x, y)), np_f(X, Y), rtol=1e-12, atol=1e-12)
    # options= and keyword options merge: fullgraph=True also reaches torch.compile.
    c = ivy.compile(f, options={"backend": tbackend}, fullgraph=True)
    np.testing.assert_allclose(_np(backend, c(x, y)), np_f(X, Y), rtol=1e-12, atol=1e-12)


@pytest.mark.skipif(not os.environ.get("IVY_TEST_SLOW"), reason="inductor takes 15-90 s: set IVY_TEST_SLOW=1")
def test_torch_default_compile(backend):
    if backend != "torch":
        pytest.skip("torch.compile's default (inductor)")
    c = ivy.compile(f)
    x, y = _args(backend, X, Y)
    np.testing.assert_allclose(_np(backend, c(x, y)), np_f(X, Y), rtol=1e-10, atol=1e-10)


def test_fn_compile_nn_composition_matches_eager(backend):
    # nn ops inside a traced function: compilers may hand dispatch tracer types (paddle's SOT, jax
    # tracers), which must be recognised without the entry-point machinery
    rng = np.random.default_rng(3)
    x, w, b = (to_native(backend, a) for a in (rng.standard_normal((4, 8)), rng.standard_normal((6, 8)), rng.standard_normal(6)))

    def f(x, w, b):
        return ivy.softmax(ivy.gelu(ivy.linear(x, w, b)))

    eager = native_to_numpy(backend, f(x, w, b))
    got = native_to_numpy(backend, _compiled(backend, f)(x, w, b))
    np.testing.assert_allclose(got, eager, rtol=1e-6, atol=1e-7)
