"""``ivy.compile`` / ``ivy.compile_fn`` on every backend: compiled results equal eager ones, the
options reach the framework's compiler, the decorator form, and one compilation per backend.

Cheap compilers are used (torch's ``aot_eager``/``eager``, passed as
``options={"backend": ...}`` since ivy.compile's own ``backend=`` names the Ivy backend;
``jax.jit``, ``tf.function`` and ``paddle.jit.to_static`` are quick for a tiny function). The real
default torch compile (inductor, 15 to 90 s here) runs only with ``IVY_TEST_SLOW=1``.
"""

from __future__ import annotations

import os
import re
import sys

import numpy as np
import pytest

import ivy
from ivy.testing.convert import native_to_numpy, to_native

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
    assert seen == ([] if backend == "numpy" else [backend])  # NumPy has no compiler
    # NumPy arrays in the same process: a second backend, which has no compiler (runs f as it is).
    if backend != "numpy":
        for _ in range(2):
            np.testing.assert_allclose(c(X, Y), np_f(X, Y), rtol=1e-12, atol=1e-12)
        c(x, y)
        assert seen == [backend]
    # Another compiled object has its own cache.
    _compiled(backend, f)(x, y)
    if backend != "numpy":
        assert seen == [backend, backend]
    else:
        assert seen == []


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
    with pytest.raises(TypeError):  # a tracer cannot drive range(): the option is what makes it work
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
    x, w, b = (
        to_native(backend, a)
        for a in (rng.standard_normal((4, 8)), rng.standard_normal((6, 8)), rng.standard_normal(6))
    )

    def f(x, w, b):
        return ivy.softmax(ivy.gelu(ivy.linear(x, w, b)))

    eager = native_to_numpy(backend, f(x, w, b))
    got = native_to_numpy(backend, _compiled(backend, f)(x, w, b))
    np.testing.assert_allclose(got, eager, rtol=1e-6, atol=1e-7)


# ------------------------------------------------- the compiled program is the native compiled program


def _native_compiler(backend):
    """The framework's own compiler, called the way a native user calls it (cheap torch backend)."""
    if backend == "jax":
        import jax

        return jax.jit
    if backend == "tensorflow":
        import tensorflow as tf

        return tf.function
    if backend == "torch":
        import torch

        return lambda fn: torch.compile(fn, backend="eager")
    if backend == "paddle":
        import paddle

        return paddle.jit.to_static
    return lambda fn: fn


def test_compile_with_backend_is_the_native_compiled_callable(backend):
    # With the backend named, ivy.compile hands back the framework's compiled callable itself: no
    # Ivy wrapper runs per call, so calling it costs what calling the native compiled function costs.
    c = ivy.compile(f, backend=backend, **({"options": {"backend": "eager"}} if backend == "torch" else {}))
    native = _native_compiler(backend)(f)
    if backend == "numpy":
        assert c is f  # no compiler: the function itself
    elif backend == "jax":
        # JAX's random key is state a program may need threaded (found on the first call): a
        # small object picks the program, as without backend=
        assert isinstance(c, compile_mod.Compiled)
    else:
        assert not isinstance(c, compile_mod.Compiled)
        assert type(c) is type(native)
    if backend == "torch":
        assert c._torchdynamo_orig_callable is f  # what torch.compile wraps: f, not a wrapper of it
    x, y = _args(backend, X, Y)
    want = _np(backend, f(x, y))  # the uncompiled function
    np.testing.assert_allclose(want, np_f(X, Y), rtol=1e-12, atol=1e-12)
    for _ in range(2):
        np.testing.assert_allclose(_np(backend, c(x, y)), want, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(_np(backend, native(x, y)), want, rtol=1e-12, atol=1e-12)


def test_compile_rejects_a_non_callable():
    with pytest.raises(TypeError, match="needs a callable"):
        ivy.compile(3)
    with pytest.raises(TypeError, match="needs a callable"):
        ivy.compile(backend="numpy")("not a function")


def _mlp_ivy(x, w1, b1, w2, b2):
    return ivy.softmax(ivy.linear(ivy.gelu(ivy.linear(x, w1, b1)), w2, b2))


def _mlp_args(backend, dtype="float32"):
    rng = np.random.default_rng(11)
    shapes = [(8, 16), (32, 16), (32,), (10, 32), (10,)]
    return [to_native(backend, rng.standard_normal(s).astype(dtype)) for s in shapes]


def _np_mlp(x, w1, b1, w2, b2):
    from math import erf

    h = x @ w1.T + b1
    h = 0.5 * h * (1.0 + np.vectorize(erf)(h / np.sqrt(2.0)))
    z = h @ w2.T + b2
    e = np.exp(z - z.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def test_torch_ivy_graph_is_the_native_graph(backend):
    if backend != "torch":
        pytest.skip("dynamo graphs")
    import torch
    import torch.nn.functional as F

    def native_mlp(x, w1, b1, w2, b2):
        return torch.softmax(F.linear(F.gelu(F.linear(x, w1, b1)), w2, b2), -1)

    graphs: dict[str, list] = {"ivy": [], "native": []}

    def recorder(key):
        def backend_fn(gm, example_inputs):
            graphs[key].append([n.target for n in gm.graph.nodes if n.op in ("call_function", "call_method")])
            return gm.forward

        return backend_fn

    args = _mlp_args(backend)
    # fullgraph=True: a graph break (Ivy dispatch dynamo cannot trace) raises instead of splitting
    ivy_c = ivy.compile(_mlp_ivy, options={"backend": recorder("ivy")}, fullgraph=True)
    nat_c = torch.compile(native_mlp, backend=recorder("native"), fullgraph=True)
    got, want = _np(backend, ivy_c(*args)), _np(backend, nat_c(*args))
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(got, _np_mlp(*(a.numpy().astype(np.float64) for a in args)), rtol=1e-5, atol=1e-6)
    assert len(graphs["ivy"]) == len(graphs["native"]) == 1
    assert graphs["ivy"] == graphs["native"], "the Ivy function traced to other torch ops than the native one"


def _primitives(closed_jaxpr):
    """The jaxpr's primitives in order, nested jits (Ivy's jitted kernels) flattened into it."""
    out = []
    for eqn in closed_jaxpr.jaxpr.eqns:
        inner = eqn.params.get("jaxpr")
        if eqn.primitive.name in ("pjit", "jit") and inner is not None:
            out.extend(_primitives(inner))
        else:
            out.append(eqn.primitive.name)
    return out


def test_jax_ivy_program_is_the_native_program(backend):
    if backend != "jax":
        pytest.skip("jaxprs")
    import jax

    def native_mlp(x, w1, b1, w2, b2):
        return jax.nn.softmax(jax.nn.gelu(x @ w1.T + b1, approximate=False) @ w2.T + b2)

    args = _mlp_args(backend)
    ivy_prims = _primitives(jax.make_jaxpr(_mlp_ivy)(*args))
    assert ivy_prims == _primitives(jax.make_jaxpr(native_mlp)(*args))
    c = ivy.compile(_mlp_ivy, backend="jax")
    np.testing.assert_allclose(_np(backend, c(*args)), _np(backend, jax.jit(native_mlp)(*args)), rtol=1e-6, atol=1e-7)


def test_tensorflow_ivy_graph_has_only_native_ops(backend):
    if backend != "tensorflow":
        pytest.skip("tf.function graphs")
    import tensorflow as tf

    args = _mlp_args(backend)
    c = ivy.compile(_mlp_ivy, backend="tensorflow")
    graph = c.get_concrete_function(*args).graph
    types = [op.type for op in graph.get_operations()]
    # Ivy's ops are TF ops in the graph, not Python callbacks (which would run Python per call).
    assert not {"PyFunc", "EagerPyFunc", "PyFuncStateless"} & set(types)
    assert types.count("MatMul") == 2 and types.count("Softmax") == 1
    # In the graph, Grappler fuses MatMul + BiasAdd + GELU into one float32 kernel (in Ivy's program
    # as in the native one written with bias_add): float32 rounding, not bit equality.
    native = tf.function(
        lambda x, w1, b1, w2, b2: tf.nn.softmax(
            tf.nn.bias_add(
                tf.matmul(tf.nn.gelu(tf.nn.bias_add(tf.matmul(x, w1, transpose_b=True), b1)), w2, transpose_b=True), b2
            )
        )
    )
    got = _np(backend, c(*args))
    np.testing.assert_allclose(got, native(*args).numpy(), rtol=2e-5, atol=2e-6)
    np.testing.assert_allclose(got, _np_mlp(*(a.numpy().astype(np.float64) for a in args)), rtol=2e-5, atol=2e-6)


def test_tensorflow_gelu_traces_to_tf_nn_gelu_graph(backend):
    if backend != "tensorflow":
        pytest.skip("tf.function graphs")
    import tensorflow as tf

    # The same ops as tf.nn.gelu, with constants of the graph itself (not captured eager tensors):
    # Grappler's remapper fuses exactly that pattern after MatMul + BiasAdd, and nothing else.
    for dtype in ("float32", "float64"):
        x = to_native(backend, np.linspace(-4, 4, 33).astype(dtype))
        ivy.gelu(x)  # the backend loaded before tracing
        graphs = [tf.function(g).get_concrete_function(x).graph for g in (ivy.gelu, tf.nn.gelu)]
        ops = [
            [(op.type, [i.op.type for i in op.inputs]) for op in g.get_operations() if op.type != "Identity"]
            for g in graphs
        ]
        if dtype == "float32":  # tf.nn.gelu rounds its constants through float32: the pattern only
            assert ops[0] == ops[1]
        # no eager tensor captured: a captured constant is fed at every call and opaque to Grappler
        assert not list(graphs[0].captures)
        from math import erf

        want = np.array([0.5 * v * (1 + erf(v / np.sqrt(2))) for v in np.linspace(-4, 4, 33)])
        tol = 1e-6 if dtype == "float32" else 1e-14
        np.testing.assert_allclose(_np(backend, tf.function(ivy.gelu)(x)), want, rtol=tol, atol=tol)
        np.testing.assert_allclose(_np(backend, ivy.gelu(x)), want, rtol=tol, atol=tol)


SCALE = 2.0  # a user global read by a compiled function: torch must keep guarding it


def _scaled_mlp(x, w1, b1, w2, b2):
    return ivy.multiply(_mlp_ivy(x, w1, b1, w2, b2), SCALE)


def test_torch_guards_on_ivy_internals_dropped_user_guards_kept(backend, monkeypatch):
    if backend != "torch":
        pytest.skip("dynamo guards")
    import torch
    import torch.nn.functional as F

    entries, kept_by_ivy = [], []

    def spy(es):  # a user's guard_filter_fn: composed with Ivy's, sees every guard
        entries.extend(es)
        return [True] * len(es)

    from ivy_torch._compile import drop_ivy_guards

    def recording_spy(es):
        kept_by_ivy.extend(e.name for e, k in zip(es, drop_ivy_guards(es)) if k)
        return spy(es)

    c = ivy.compile(_scaled_mlp, options={"backend": "eager", "options": {"guard_filter_fn": recording_spy}})
    args = _mlp_args(backend)

    def native(x, w1, b1, w2, b2):
        return torch.softmax(F.linear(F.gelu(F.linear(x, w1, b1)), w2, b2), -1) * SCALE

    np.testing.assert_allclose(_np(backend, c(*args)), _np(backend, native(*args)), rtol=1e-6, atol=1e-7)
    names = [e.name for e in entries]
    assert any("SCALE" in n for n in names) and any("SCALE" in n for n in kept_by_ivy)
    for arg in ("x", "w1", "b1", "w2", "b2"):  # the inputs' tensor guards stay
        assert arg in kept_by_ivy
    assert len(kept_by_ivy) < len(names)
    ivy_source = re.compile(r"__import_ivy|__ivy_python__|___unnamed_scope|(^|[^\w])ivy\b")  # not G['_mlp_ivy']
    assert not [n for n in kept_by_ivy if ivy_source.search(n)], "a guard on Ivy's internals was kept"
    assert [n for n in names if ivy_source.search(n)], "no guard on Ivy's internals to drop: test broken"

    # Kept guards still work: a new user constant and new shapes recompile, with right results.
    monkeypatch.setattr(sys.modules[__name__], "SCALE", 3.0)
    np.testing.assert_allclose(_np(backend, c(*args)), _np(backend, native(*args)), rtol=1e-6, atol=1e-7)
    bigger = [to_native(backend, np.random.default_rng(1).standard_normal((5, 16)).astype("float32"))] + args[1:]
    np.testing.assert_allclose(_np(backend, c(*bigger)), _np(backend, native(*bigger)), rtol=1e-6, atol=1e-7)


def test_torch_guards_on_state_in_the_kits_modules_are_kept(backend):
    """The kit's test modules are under ``ivy.testing`` but hold state like a user's module (an
    optimizer in a class attribute whose step counter a compiled step changes): their guards
    stay, those on Ivy's own modules go."""
    if backend != "torch":
        pytest.skip("dynamo guards")
    from types import SimpleNamespace

    import ivy.testing.suite.test_fn_compile_state as kit_module
    from ivy_torch._compile import drop_ivy_guards

    def entry(name, value):
        return SimpleNamespace(name=name, has_value=True, value=value, orig_guard=SimpleNamespace(create_fn=None))

    kit = "G['__import_ivy_dot_testing_dot_suite_dot_test_fn_compile_state']"
    entries = [
        entry(kit, kit_module),
        entry(f"{kit}._Registry.opt._step_count", 1),
        entry("G['__import_ivy_dot_testing']", sys.modules["ivy.testing"]),
        entry("G['__import_ivy_dot__dispatch']", sys.modules["ivy._dispatch"]),
        entry("G['__import_ivy_dot__dispatch'].__dict__['_TABLES']", {}),
        entry("G['__import_ivy_torch']", sys.modules["ivy_torch"]),
        entry("G['__import_ivy']", ivy),
    ]
    assert drop_ivy_guards(entries) == [True, True, True, False, False, False, False]


def test_torch_mode_option_still_reaches_torch_compile(backend):
    if backend != "torch":
        pytest.skip("torch.compile option")
    # torch.compile refuses `mode` together with `options`: Ivy then leaves the guards alone
    c = ivy.compile(f, options={"backend": "eager", "mode": "reduce-overhead"})
    x, y = _args(backend, X, Y)
    np.testing.assert_allclose(_np(backend, c(x, y)), np_f(X, Y), rtol=1e-12, atol=1e-12)


def test_compiled_value_and_grad(backend):
    # ivy.value_and_grad returns a function of *args: paddle.jit.to_static cannot convert those
    # directly (it matches arguments to parameter names); every backend must compile it anyway
    if backend == "numpy":
        pytest.skip("NumPy has no automatic differentiation")
    rng = np.random.default_rng(4)
    xn, wn, bn = rng.standard_normal((6, 5)), rng.standard_normal((3, 5)), rng.standard_normal(3)

    def loss(x, w, b):
        return ivy.mean(ivy.square(ivy.tanh(ivy.linear(x, w, b))))

    vg = ivy.value_and_grad(loss, argnums=(1, 2))
    c = _compiled(backend, vg)
    # NumPy reference: d/dz mean(tanh(z)^2) = 2 tanh(z) (1 - tanh(z)^2) / z.size
    for scale in (1.0, 0.5):  # the second call reuses the compiled function, with new values
        args = _args(backend, xn * scale, wn, bn)
        t = np.tanh((xn * scale) @ wn.T + bn)
        dz = 2 * t * (1 - t * t) / t.size
        value, (gw, gb) = c(*args)
        np.testing.assert_allclose(float(_np(backend, value)), np.mean(t * t), rtol=1e-10)
        np.testing.assert_allclose(_np(backend, gw), dz.T @ (xn * scale), rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(_np(backend, gb), dz.sum(0), rtol=1e-9, atol=1e-12)


def test_tensorflow_layer_norm_graph_captures_nothing(backend):
    if backend != "tensorflow":
        pytest.skip("tf.function graphs")
    import tensorflow as tf

    rng = np.random.default_rng(8)
    xn, sn, on = rng.standard_normal((3, 4, 6)), rng.standard_normal(6), rng.standard_normal(6)
    for dtype, tol in (("float32", 2e-5), ("float64", 1e-12)):
        x, s, o = (to_native(backend, a.astype(dtype)) for a in (xn, sn, on))
        ivy.layer_norm(x, -1, scale=s, offset=o)  # the backend loaded before tracing
        fn = tf.function(lambda x, s, o: ivy.layer_norm(x, -1, scale=s, offset=o, eps=1e-3))
        # eps and the axes are constants of the graph: a captured eager tensor is fed at every
        # call and kept Grappler from optimising around it (the program ran ~5% slower)
        assert not list(fn.get_concrete_function(x, s, o).graph.captures)
        m = xn.mean(-1, keepdims=True)
        want = (xn - m) / np.sqrt(((xn - m) ** 2).mean(-1, keepdims=True) + 1e-3) * sn + on
        np.testing.assert_allclose(_np(backend, fn(x, s, o)), want, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_attention_compiled_and_eager_match_numpy(backend, dtype):
    # the backends' own attention kernels (paddle's included), eager and compiled, against NumPy;
    # a boolean mask goes through the composition
    rng = np.random.default_rng(9)
    qn, kn, vn = (rng.standard_normal((2, 5, 8)).astype(dtype) for _ in range(3))
    maskn = rng.random((5, 5)) > 0.3
    np.fill_diagonal(maskn, True)  # every query attends to some key

    def reference(scale, mask=None):
        s = qn.astype(np.float64) @ np.swapaxes(kn, -1, -2).astype(np.float64) * scale
        if mask is not None:
            s = np.where(mask, s, -np.inf)
        w = np.exp(s - s.max(-1, keepdims=True))
        return (w / w.sum(-1, keepdims=True)) @ vn.astype(np.float64)

    q, k, v, mask = _args(backend, qn, kn, vn, maskn)
    tol = 2e-5 if dtype == "float32" else 1e-12
    c = _compiled(backend, lambda q, k, v: ivy.scaled_dot_product_attention(q, k, v))
    cs = _compiled(backend, lambda q, k, v: ivy.scaled_dot_product_attention(q, k, v, scale=0.3))
    cm = _compiled(backend, lambda q, k, v, m: ivy.scaled_dot_product_attention(q, k, v, mask=m))
    for _ in range(2):
        np.testing.assert_allclose(_np(backend, c(q, k, v)), reference(8**-0.5), rtol=tol, atol=tol)
        np.testing.assert_allclose(_np(backend, cs(q, k, v)), reference(0.3), rtol=tol, atol=tol)
        np.testing.assert_allclose(_np(backend, cm(q, k, v, mask)), reference(8**-0.5, maskn), rtol=tol, atol=tol)
    eager = _np(backend, ivy.scaled_dot_product_attention(q, k, v))
    assert eager.dtype == np.dtype(dtype)
    np.testing.assert_allclose(eager, reference(8**-0.5), rtol=tol, atol=tol)


def test_tensorflow_autograph_converts_user_code_not_ivy(backend):
    if backend != "tensorflow":
        pytest.skip("AutoGraph")
    import logging

    def g(x, w, b):
        y = ivy.gelu(ivy.linear(x, w, b))
        if ivy.sum(y) > 0:  # a tensor condition: works only if AutoGraph converted g
            return ivy.multiply(y, 2.0)
        return ivy.negative(y)

    messages: list[str] = []

    class Collect(logging.Handler):  # AutoGraph warns through TensorFlow's logger
        def emit(self, record: logging.LogRecord) -> None:
            messages.append(record.getMessage())

    handler, logger = Collect(logging.WARNING), logging.getLogger("tensorflow")
    logger.addHandler(handler)
    try:
        args = _mlp_args(backend)[:3]
        got = _np(backend, ivy.compile(g)(*args))
        got_neg = _np(backend, ivy.compile(g)(args[0], ivy.negative(args[1]) * 0.0, args[2] * 0.0 - 1.0))
    finally:
        logger.removeHandler(handler)
    # Ivy's ops have no source: AutoGraph used to try, fail and warn once per op
    assert not [m for m in messages if "could not transform" in m]
    y = native_to_numpy(backend, ivy.gelu(ivy.linear(*args)))
    want = y * 2.0 if y.sum() > 0 else -y
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-6)
    np.testing.assert_allclose(
        got_neg, -_np(backend, ivy.gelu(args[2] * 0.0 - 1.0)) * np.ones((8, 1)), rtol=2e-5, atol=2e-6
    )
