"""The graph tracer on core's own test backend (numpy): tracing, the printed view, guards,
dynamic dimensions, errors, the recording backend's lifetime. Results are checked against NumPy
formulas written here; the other backends run ``tests/test_fn_graph*.py``."""

from __future__ import annotations

import numpy as np
import pytest

import ivy
from ivy import _registry
from ivy.graph import GraphEmitError, GraphTraceError, GuardError, ShapeMismatchError

RNG = np.random.default_rng(0)
X = RNG.standard_normal((4, 3)).astype(np.float32)
W = RNG.standard_normal((3, 2)).astype(np.float32)
B = RNG.standard_normal((2,)).astype(np.float32)


def dense(x, w, b):
    return ivy.tanh(ivy.matmul(x, w) + b)


def _dense_np(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.tanh(x @ w + b)


def test_trace_records_spec_ops_with_shapes_and_replays() -> None:
    g = ivy.trace_graph(dense, args=(X, W, B))
    assert [n.op for n in g.nodes] == ["matmul", "add", "tanh"]
    assert [v.type_str for v in g.inputs] == ["float32[4, 3]", "float32[3, 2]", "float32[2]"]
    assert g.nodes[-1].outputs.type_str == "float32[4, 2]"
    assert g.meta["backend"] == "numpy"
    got = g(X, W, B)
    assert got.shape == (4, 2) and got.dtype == np.float32
    np.testing.assert_allclose(got, _dense_np(X, W, B), rtol=1e-6)
    np.testing.assert_allclose(g.to("numpy")(X, W, B), _dense_np(X, W, B), rtol=1e-6)


def test_operators_and_attributes_are_recorded_as_spec_ops() -> None:
    def f(x, w):
        y = (x @ w).T
        z = -y[0] * 2.0 + abs(y[1]) ** 2 / 3.0 - (y[0] >= 0)
        return z, y.mT, x.shape, x.ndim, x.dtype == ivy.float32

    g = ivy.trace_graph(f, args=(X, W), passes=())  # as recorded (the default passes join y[0], y[1])
    ops = [n.op for n in g.nodes]
    for op in (
        "matmul",
        "permute_dims",
        "get_item",
        "negative",
        "multiply",
        "abs",
        "pow",
        "divide",
        "greater_equal",
        "subtract",
        "linalg.matrix_transpose",
    ):
        assert op in ops
    z, yt, shape, ndim, same = g(X, W)
    y = (X @ W).T
    np.testing.assert_allclose(z, -y[0] * 2.0 + np.abs(y[1]) ** 2 / 3.0 - (y[0] >= 0), rtol=1e-6)
    np.testing.assert_allclose(yt, y.T)
    assert shape == (4, 3) and ndim == 2 and same is True


def test_code_view_reads_as_python_and_names_lines() -> None:
    g = ivy.trace_graph(dense, args=(X, W, B))
    code = g.code
    assert code == str(g)
    assert "def dense(x, w, b):" in code
    assert "matmul = ivy.matmul(x, w)  # float32[4, 2]" in code
    assert "test_core_graph.py" in code and "return tanh" in code
    ns = {"ivy": ivy}
    exec(code, ns)  # the view is Python that runs with ivy
    np.testing.assert_allclose(ns["dense"](X, W, B), _dense_np(X, W, B), rtol=1e-6)


def test_arrays_made_inside_and_constants_fold() -> None:
    def f(x):
        scale = ivy.arange(3, dtype="float32") * 2.0 + 1.0  # depends on no input: folded
        return x * scale + ivy.ones((3,), dtype="float32")

    g = ivy.trace_graph(f, args=(X,))
    assert [n.op for n in g.nodes] == ["multiply", "ones", "add"]
    (c,) = g.constants()
    assert c.type_str == "float32[3]" and c.tolist() == [1.0, 3.0, 5.0]
    np.testing.assert_allclose(g(X), X * np.array([1, 3, 5], np.float32) + 1)
    raw = ivy.trace_graph(f, args=(X,), passes=())
    assert [n.op for n in raw.nodes] == ["arange", "multiply", "add", "multiply", "ones", "add"]


def test_dead_code_and_common_subexpressions() -> None:
    def f(x):
        unused = ivy.exp(x)  # noqa: F841 - nothing depends on it
        a, b = ivy.sin(x), ivy.sin(x)
        return a + b

    raw = ivy.trace_graph(f, args=(X,), passes=())
    assert [n.op for n in raw.nodes] == ["exp", "sin", "sin", "add"]
    dce = raw.apply(ivy.graph.eliminate_dead_code)
    assert [n.op for n in dce.nodes] == ["sin", "sin", "add"]
    cse = raw.apply(ivy.graph.eliminate_common_subexpressions)
    assert [n.op for n in cse.nodes] == ["sin", "add"]
    assert cse.nodes[1].args[0] is cse.nodes[1].args[1]
    np.testing.assert_allclose(cse(X), 2 * np.sin(X), rtol=1e-6)
    assert [n.op for n in raw.nodes] == ["exp", "sin", "sin", "add"]  # passes return new graphs


def test_a_squeezed_one_position_slice_is_one_integer_index() -> None:
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)

    def unbind(x):  # as torch.export writes x.unbind(1): slices of one position, then squeezes
        parts = [ivy.squeeze(ivy.get_item(x, (slice(None), slice(i, i + 1))), axis=1) for i in range(3)]
        return parts[0] * parts[1] - parts[2]

    g = ivy.trace_graph(unbind, args=(x,), passes=(ivy.graph.index_through_squeeze,))  # (no unstack_from_indexes)
    assert [n.op for n in g.nodes].count("get_item") == 3 and "squeeze" not in [n.op for n in g.nodes]
    assert [n.args[1] for n in g.nodes if n.op == "get_item"] == [(slice(None), i, slice(None)) for i in range(3)]
    np.testing.assert_allclose(g(x), x[:, 0] * x[:, 1] - x[:, 2], rtol=1e-6)

    def kept(x):  # left as two ops: the slice read twice, a step, an int before, a negative start
        s = ivy.get_item(x, (slice(None), slice(1, 2)))
        a = ivy.squeeze(s, axis=1) + ivy.sum(s)
        b = ivy.squeeze(ivy.get_item(x, (slice(None), slice(1, 2, 2))), axis=1)
        c = ivy.squeeze(ivy.get_item(x, (0, slice(None), slice(2, 3))), axis=1)
        d = ivy.squeeze(ivy.get_item(x, (slice(None), slice(-1, None))), axis=1)
        return a, b, c, d

    k = ivy.trace_graph(kept, args=(x,))
    assert [n.op for n in k.nodes].count("squeeze") == 4
    a, b, c, d = k(x)
    np.testing.assert_allclose(a, x[:, 1] + x[:, 1:2].sum(), rtol=1e-6)
    np.testing.assert_allclose(b, x[:, 1], rtol=1e-6)
    np.testing.assert_allclose(c, x[0, :, 2], rtol=1e-6)
    np.testing.assert_allclose(d, x[:, -1], rtol=1e-6)


def test_a_value_written_and_read_back_at_once_is_the_value_itself() -> None:
    x = RNG.standard_normal((6, 2, 5)).astype(np.float32)

    def running_max(x):  # torch.maximum(out[0], x[i], out=out[0]) as torch.export writes it
        out = ivy.get_item(x, (slice(0, 1),)) * 1.0
        for i in range(1, 6):
            step = ivy.maximum(ivy.get_item(out, (0,)), ivy.get_item(x, (i,)))
            out = ivy.set_item(out, (0,), step)
        return ivy.get_item(out, (0,))

    g = ivy.trace_graph(running_max, args=(x,))
    assert "set_item" not in [n.op for n in g.nodes]
    np.testing.assert_array_equal(g(x), x.max(axis=0))

    def kept(x):  # a read elsewhere, a broadcast value, a cast value, the buffer itself returned
        a = ivy.get_item(ivy.set_item(x, (0,), x[1] * 2.0), (1,))
        b = ivy.get_item(ivy.set_item(x, (0,), 3.0), (0,))
        c = ivy.get_item(ivy.set_item(x, (1, slice(None)), ivy.get_item(x, (2, 0))), (1, slice(None)))
        d = ivy.get_item(ivy.set_item(x, (2,), ivy.astype(x[3], "float64")), (2,))
        w = ivy.set_item(x, (4,), x[5])
        return a, b, c, d, w, ivy.get_item(w, (4,))

    k = ivy.trace_graph(kept, args=(x,))
    assert [n.op for n in k.nodes].count("set_item") == 5
    a, b, c, d, w, e = k(x)
    np.testing.assert_array_equal(a, x[1])
    np.testing.assert_array_equal(b, np.full((2, 5), 3.0, np.float32))
    np.testing.assert_array_equal(c, np.broadcast_to(x[2, 0], (2, 5)))
    assert d.dtype == np.float32 and e.dtype == np.float32
    np.testing.assert_array_equal(d, x[3])
    ref = x.copy()
    ref[4] = x[5]
    np.testing.assert_array_equal(w, ref)
    np.testing.assert_array_equal(e, x[5])


def test_chained_reshapes_and_indexes_are_one_op_each() -> None:
    x = RNG.standard_normal((4, 6, 5)).astype(np.float32)
    cases = [
        ((slice(1, None), slice(None, None, -2)), (slice(None, None, -1), 1)),
        ((2,), (slice(1, 5, 2), -1)),
        ((slice(None), slice(4, 0, -1), slice(-3, None)), (slice(1, 3), 0, slice(None, None, 2))),
        ((slice(-1, None, -1),), (0,)),
        ((slice(None), 3), (slice(None, None, -1),)),
    ]

    def chains(x):
        outs = [ivy.get_item(ivy.get_item(x, q1), q2) for q1, q2 in cases]
        return outs, ivy.reshape(ivy.reshape(x, (24, 5)), (-1, 2))

    g = ivy.trace_graph(chains, args=(x,))
    ops = [n.op for n in g.nodes]
    assert ops.count("get_item") == len(cases) and ops.count("reshape") == 1
    assert all(n.args[0] is g.inputs[0] for n in g.nodes)  # every op reads x itself
    outs, r = g(x)
    for got, (q1, q2) in zip(outs, cases):
        np.testing.assert_array_equal(got, x[q1][q2])
    np.testing.assert_array_equal(r, x.reshape(-1, 2))

    def shared(x):  # the inner reshape read twice stays; each index chain still merges
        h = ivy.reshape(x, (24, 5))
        s = ivy.get_item(x, (1,))
        return ivy.reshape(h, (5, 24)), h + 1.0, ivy.get_item(s, (2,)), ivy.get_item(s, (slice(3, None),))

    k = ivy.trace_graph(shared, args=(x,))
    assert [n.op for n in k.nodes].count("reshape") == 2 and [n.op for n in k.nodes].count("get_item") == 2
    a, b, c, d = k(x)
    np.testing.assert_array_equal(a, x.reshape(5, 24))
    np.testing.assert_array_equal(b, x.reshape(24, 5) + 1.0)
    np.testing.assert_array_equal(c, x[1, 2])
    np.testing.assert_array_equal(d, x[1, 3:])


def test_every_position_of_an_axis_is_one_unstack_and_a_split_concat_one_stack() -> None:
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)

    def hsv_like(x):  # torch.export's unbind (one index per position) and stack (concat, reshape)
        r, g, b = (ivy.get_item(x, (slice(None), i)) for i in (0, 1, -1))
        return ivy.reshape(ivy.concat([r - g, g * b, b + r], axis=1), (2, 3, 4))

    g = ivy.trace_graph(hsv_like, args=(x,))
    ops = [n.op for n in g.nodes]
    assert ops.count("unstack") == 1 and ops.count("stack") == 1 and not {"get_item", "concat", "reshape"} & set(ops)
    ref = np.stack([x[:, 0] - x[:, 1], x[:, 1] * x[:, 2], x[:, 2] + x[:, 0]], axis=1)
    np.testing.assert_array_equal(g(x), ref)

    def kept(x):  # two positions of three; a reshape that is no split; a concat read twice; two shapes
        a = ivy.get_item(x, (slice(None), 0)) + ivy.get_item(x, (slice(None), 1))
        c = ivy.concat([x, x], axis=2)
        parts = [ivy.get_item(x, (slice(None), 0)), ivy.get_item(x, (slice(None), slice(0, 2), 0))]
        mixed = ivy.reshape(ivy.concat(parts, axis=1), (2, 3, 2))
        return a, ivy.reshape(ivy.concat([x, x], axis=1), (2, 2, 12)), ivy.reshape(c, (2, 3, 2, 4)), c, mixed

    k = ivy.trace_graph(kept, args=(x,))
    ops = [n.op for n in k.nodes]
    assert "unstack" not in ops and "stack" not in ops and ops.count("concat") == 3
    a, b, c, c2, mixed = k(x)
    np.testing.assert_array_equal(a, x[:, 0] + x[:, 1])
    np.testing.assert_array_equal(b, np.concatenate([x, x], axis=1).reshape(2, 2, 12))
    np.testing.assert_array_equal(c, np.concatenate([x, x], axis=2).reshape(2, 3, 2, 4))
    np.testing.assert_array_equal(c2, np.concatenate([x, x], axis=2))
    np.testing.assert_array_equal(mixed, np.concatenate([x[:, 0], x[:, 0:2, 0]], axis=1).reshape(2, 3, 2))


def test_a_take_of_one_scalar_index_read_at_position_zero_is_one_index() -> None:
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    k = np.array([[1, 0], [-1, 2]], np.int64)

    def pick(x, k):  # torch.export's x.index_select(1, s.view(1))[:, 0] for 0-d s
        taken = [ivy.take(x, ivy.reshape(ivy.get_item(k, (i, j)), (-1,)), axis=1) for i, j in ((0, 0), (1, 0))]
        return [ivy.get_item(t, (slice(None), 0)) for t in taken]

    g = ivy.trace_graph(pick, args=(x, k))
    ops = [n.op for n in g.nodes]
    assert "take" not in ops and "reshape" not in ops and ops.count("get_item") == 4
    a, b = g(x, k)
    np.testing.assert_array_equal(a, x[:, 1])
    np.testing.assert_array_equal(b, x[:, -1])

    def kept(x, k):  # the take read twice; an index of shape (1,) given; position 0 of another axis
        t = ivy.take(x, ivy.reshape(ivy.get_item(k, (0, 1)), (-1,)), axis=1)
        u = ivy.take(x, ivy.get_item(k, (0, slice(0, 1))), axis=1)
        w = ivy.take(x, ivy.reshape(ivy.get_item(k, (1, 1)), (-1,)), axis=2)
        return ivy.get_item(t, (slice(None), 0)), t, ivy.get_item(u, (slice(None), 0)), ivy.get_item(w, (0,))

    kg = ivy.trace_graph(kept, args=(x, k))
    assert [n.op for n in kg.nodes].count("take") == 3
    a, t, c, d = kg(x, k)
    np.testing.assert_array_equal(a, x[:, 0])
    np.testing.assert_array_equal(t, x[:, [0]])
    np.testing.assert_array_equal(c, x[:, 1])
    np.testing.assert_array_equal(d, x[0, :, [2]].T)


def test_random_ops_are_never_merged_or_folded() -> None:
    def f(x):
        return x + ivy.random_uniform(shape=(3,)), x + ivy.random_uniform(shape=(3,))

    g = ivy.trace_graph(f, args=(X,))
    assert [n.op for n in g.nodes].count("random_uniform") == 2
    a, b = g(X)
    assert not np.allclose(a, b)


def test_a_user_pass() -> None:
    def double_to_add(graph):  # the documented interface: graph -> new graph
        nodes = []
        for n in graph.nodes:
            if n.op == "multiply" and n.args[1] == 2 and isinstance(n.args[0], ivy.graph.Value):
                n = ivy.graph.Node("add", (n.args[0], n.args[0]), {}, n.outputs, n.source)
            nodes.append(n)
        return graph.replace(nodes=nodes)

    g = ivy.trace_graph(lambda x: ivy.sin(x) * 2, args=(X,)).apply(double_to_add)
    assert [n.op for n in g.nodes] == ["sin", "add"]
    np.testing.assert_allclose(g(X), 2 * np.sin(X), rtol=1e-6)
    with pytest.raises(TypeError, match="returned NoneType"):
        g.apply(lambda graph: None)


def test_guards_refuse_inputs_that_take_another_path() -> None:
    def f(x):
        if ivy.sum(x) > 0:
            return x * 2
        return x - 1

    pos = np.abs(X)
    g = ivy.trace_graph(f, args=(pos,))
    assert [gd.kind for gd in g.guards] == ["bool"] and g.guards[0].expected is True
    assert "assert bool(greater) == True" in g.code
    np.testing.assert_allclose(g(pos * 3), pos * 6)
    for run in (g, g.to("numpy")):
        with pytest.raises(GuardError, match=r"test_core_graph.py:\d+ in f.*another path"):
            run(-pos)


def test_python_numbers_read_from_arrays_are_guarded() -> None:
    def f(x):
        n = int(ivy.argmax(x[0]))
        return x[:, n] * float(ivy.max(x)) + ivy.to_scalar(ivy.min(x))

    g = ivy.trace_graph(f, args=(X,))
    assert sorted(gd.kind for gd in g.guards) == ["float", "int", "scalar"]
    n = int(np.argmax(X[0]))
    np.testing.assert_allclose(g(X), X[:, n] * X.max() + X.min(), rtol=1e-6)
    with pytest.raises(GuardError):
        g(X + 1)


def test_shapes_and_static_arguments_are_checked_on_each_call() -> None:
    g = ivy.trace_graph(lambda x, k: x * k, args=(X, 3))
    np.testing.assert_allclose(g(X, 3), X * 3)
    with pytest.raises(ShapeMismatchError, match=r"float32\[4, 3\].*got float32\[5, 3\]"):
        g(np.zeros((5, 3), np.float32), 3)
    with pytest.raises(ShapeMismatchError, match="got float64"):
        g(X.astype(np.float64), 3)
    with pytest.raises(ShapeMismatchError, match="was 3 when the graph was traced"):
        g(X, 4)


def test_dynamic_dimensions() -> None:
    def f(x, w):
        h = ivy.matmul(x, w)
        return ivy.reshape(h, (h.shape[0], -1)), ivy.zeros((x.shape[0], 1))

    g = ivy.trace_graph(f, args=(X, W), dynamic={"x": 0})
    assert g.inputs[0].type_str == "float32[?, 3]" and g.nodes[0].outputs.type_str == "float32[?, 2]"
    assert "(matmul.shape[0], -1)" in g.code
    for n in (2, 7):
        x = RNG.standard_normal((n, 3)).astype(np.float32)
        h, z = g(x, W)
        np.testing.assert_allclose(h, x @ W, rtol=1e-6)
        assert z.shape == (n, 1)
    with pytest.raises(ShapeMismatchError, match=r"float32\[\?, 3\]"):
        g(np.zeros((4, 2), np.float32), W)


def test_a_dynamic_size_read_as_a_python_int_is_refused_at_trace_time() -> None:
    with pytest.raises(GraphTraceError, match=r"dimension 0 of x is dynamic.*test_core_graph.py:\d+"):
        ivy.trace_graph(lambda x: ivy.reshape(x, (x.shape[0] * 3,)), args=(X,), dynamic={"x": 0})
    with pytest.raises(GraphTraceError, match="fails when the dynamic dimensions have another size"):
        ivy.trace_graph(lambda x: ivy.reshape(x, (12,)), args=(X,), dynamic={"x": 0})
    with pytest.raises(GraphTraceError, match="not array inputs"):
        ivy.trace_graph(lambda x: x, args=(X,), dynamic={"y": 0})
    with pytest.raises(GraphTraceError, match="size 2 or more"):
        ivy.trace_graph(lambda x: x, args=(X[:1],), dynamic={"x": 0})


def test_nested_inputs_and_outputs_keep_their_structure() -> None:
    def f(p, x):
        return {"y": ivy.matmul(x, p["w"]) + p["b"], "parts": [p["w"][0], ivy.Container(a=x)]}

    p = {"w": W, "b": B}
    g = ivy.trace_graph(f, args=(p, X))
    out = g(p, X)
    np.testing.assert_allclose(out["y"], X @ W + B, rtol=1e-6)
    assert isinstance(out["parts"], list) and isinstance(out["parts"][1], ivy.Container)
    np.testing.assert_allclose(out["parts"][1].a, X)
    assert "p_w = p['w']" in g.code


def test_decompose_records_composed_ops_as_primitives() -> None:
    def f(x):
        return ivy.softmax(x, axis=-1), ivy.relu(x)

    whole = ivy.trace_graph(f, args=(X,))
    assert [n.op for n in whole.nodes] == ["softmax", "relu"]
    parts = ivy.trace_graph(f, args=(X,), decompose=True)
    assert "softmax" not in parts.ops() and {"exp", "sum", "max"} <= set(parts.ops())
    e = np.exp(X - X.max(-1, keepdims=True))
    for g in (parts, whole.apply(ivy.graph.decompose)):
        sm, r = g(X)
        np.testing.assert_allclose(sm, e / e.sum(-1, keepdims=True), rtol=1e-6)
        np.testing.assert_allclose(r, np.maximum(X, 0))
    only = ivy.trace_graph(f, args=(X,), decompose=["relu"])
    assert "softmax" in only.ops() and "relu" not in only.ops()


def test_the_recording_backend_lives_for_one_trace() -> None:
    before = set(_registry.loaded_backends())
    g = ivy.trace_graph(dense, args=(X, W, B))
    assert set(_registry.loaded_backends()) == before
    assert not any(n.startswith("graph-trace") for n in _registry.loaded_backends())
    np.testing.assert_allclose(g(X, W, B), _dense_np(X, W, B), rtol=1e-6)


def test_arrays_from_outside_the_function_get_a_clear_error() -> None:
    torch = pytest.importorskip("torch")
    outside = torch.ones(3)
    with pytest.raises(GraphTraceError, match="did not receive as an argument"):
        ivy.trace_graph(lambda x: ivy.add(x, outside), args=(torch.zeros(3),))
    g = ivy.trace_graph(lambda x: x + ivy.asarray(outside), args=(torch.zeros(3),))  # made a constant
    assert g.constants()[0].tolist() == [1.0, 1.0, 1.0]


def test_an_op_the_target_lacks_is_named_with_its_source_line(toy) -> None:
    g = ivy.trace_graph(lambda x: ivy.linalg.inv(x) + 1, args=(np.eye(3),))
    with pytest.raises(GraphEmitError, match=r"'toy' backend has no op 'linalg.inv'.*test_core_graph.py:\d+"):
        g.to("toy")
    ok = ivy.trace_graph(lambda x: ivy.add(x, x), args=(np.ones(3),))
    got = ok.to("toy")(ivy.asarray([1.0, 2.0, 3.0], backend="toy"))
    assert ivy.to_list(got) == [2.0, 4.0, 6.0]


def test_source_is_a_standalone_numpy_program() -> None:
    def f(x):
        return ivy.gelu(x) + ivy.asarray([1.0, 2.0, 3.0], dtype="float32") * ivy.sum(x)

    g = ivy.trace_graph(f, args=(X,))
    src = g.source("numpy")
    assert "import numpy" in src and "ivy.graph" in src  # (the docstring names the tracer)
    ns: dict = {}
    exec(compile(src, "<source>", "exec"), ns)
    np.testing.assert_allclose(ns["forward"](X), g(X), rtol=1e-6)


def test_trace_graph_to_emits_directly() -> None:
    prog = ivy.trace_graph(dense, args=(X, W, B), to="numpy", compile=False)
    np.testing.assert_allclose(prog(X, W, B), _dense_np(X, W, B), rtol=1e-6)
    assert "_f_matmul(x, w)" in prog.__ivy_source__
