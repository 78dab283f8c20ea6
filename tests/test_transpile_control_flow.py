"""Structured control flow: ``ivy.while_loop`` and ``ivy.cond`` are one graph node each, holding
their functions as subgraphs, and every backend runs them as its own loop and conditional
(``lax.while_loop``/``lax.cond``, ``tf.while_loop``/``tf.cond``, Python on eager backends);
torch.export's ``while_loop`` and ``cond`` transpile to them; and the paper's kornia example
(README.md, examples/transpile_kornia_paper.py) runs as printed.

The references are plain Python loops over NumPy, and torch itself (kornia on torch for the
paper's example). A loop whose number of steps differs between two inputs of one program shows
that the step count is decided at run time, not unrolled from the traced example.

    python -m pytest tests/test_transpile_control_flow.py --backend tensorflow -q
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _helpers.transpiling import LOOP_INPUTS as INPUTS
from _helpers.transpiling import doubling_reference as _doubling_ref

import ivy
from ivy.errors import TranspileError, UnsupportedOpsError

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
EXAMPLE = REPO / "examples" / "transpile_kornia_paper.py"
_PAPER = re.compile(r"<!-- paper example: *([a-z]+) *-->\s*\n```python\n(.*?)\n```", re.S)


def _doubling(x: Any, k: Any) -> Any:
    """Multiply ``x`` by ``k`` until its sum reaches 100, then add or subtract 1 by the count."""
    n = ivy.zeros((), dtype="int32")
    i, v = ivy.while_loop(
        lambda i, v: ivy.less(ivy.sum(v), 100.0),
        lambda i, v: (ivy.add(i, 1), ivy.multiply(v, k)),
        [n, x],
    )
    y = ivy.cond(ivy.greater(i, 3), lambda a: ivy.add(a, 1.0), lambda a: ivy.subtract(a, 1.0), [v])
    return i, y


def _native(to_native: Any, a: Any) -> Any:
    return to_native(np.asarray(a, np.float32))


@pytest.fixture(scope="module")
def loop_graph(backend: str) -> Any:
    with ivy.use_backend(backend):
        x, k = ivy.asarray(INPUTS[0]), ivy.asarray(np.float32(2.0))
        return ivy.trace_graph(_doubling, args=(x, k))


def test_loop_and_branch_are_one_node_each_with_subgraphs(loop_graph: Any) -> None:
    ops = loop_graph.ops()
    assert ops["while_loop"] == 1 and ops["cond"] == 1
    assert ops["multiply"] == 1  # the body once, not unrolled over the example's 6 steps
    top = [n.op for n in loop_graph.nodes]
    assert "multiply" not in top and "while_loop" in top
    assert "def body_fn(" in loop_graph.code and "ivy.while_loop(cond_fn, body_fn, [" in loop_graph.code


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compiled"])
def test_loop_runs_its_own_number_of_steps_on_each_input(
    loop_graph: Any, backend: str, to_native: Any, to_numpy: Any, compiled: bool
) -> None:
    prog = loop_graph.to(backend, compile=compiled)
    k = to_native(np.float32(2.0))
    for x in INPUTS:
        i, y = prog(to_native(x), k)
        want_i, want_y = _doubling_ref(x, 2.0)
        assert int(to_numpy(i)) == want_i
        np.testing.assert_allclose(to_numpy(y), want_y, rtol=1e-6)


def test_gradients_flow_through_the_loop_and_the_branch(
    loop_graph: Any, backend: str, to_native: Any, to_numpy: Any
) -> None:
    if backend == "numpy":
        pytest.skip("NumPy has no automatic differentiation")
    if backend == "jax":
        pytest.skip("JAX differentiates lax.while_loop in forward mode only")
    prog = loop_graph.to(backend, compile=False)
    k = to_native(np.float32(2.0))
    for x in INPUTS:
        grad = ivy.grad(lambda x: ivy.sum(prog(x, k)[1]))(to_native(x))
        steps, _ = _doubling_ref(x, 2.0)
        np.testing.assert_allclose(to_numpy(grad), np.full(2, 2.0**steps, np.float32))  # d(x * k**n)/dx


def test_saved_graph_with_loops_loads_and_runs(
    loop_graph: Any, backend: str, to_native: Any, to_numpy: Any, tmp_path: Path
) -> None:
    path = tmp_path / "loop.json"
    loop_graph.save(path)
    loaded = ivy.Graph.load(path)
    assert loaded.code == loop_graph.code
    k = to_native(np.float32(2.0))
    for x in INPUTS:
        i, y = loaded.to(backend, compile=False)(to_native(x), k)
        want_i, want_y = _doubling_ref(x, 2.0)
        assert int(to_numpy(i)) == want_i
        np.testing.assert_allclose(to_numpy(y), want_y, rtol=1e-6)


def test_a_stored_subgraph_reading_an_undefined_value_is_refused(loop_graph: Any, tmp_path: Path) -> None:
    import json

    path = tmp_path / "loop.json"
    loop_graph.save(path)
    doc = json.loads(path.read_text())
    text = json.dumps(doc)
    # a subgraph that reads a value its graph does not define: the schema rejects it on load
    bad = text.replace('"captures": [', '"captures": [999999, ', 1)
    assert bad != text
    path.write_text(bad)
    with pytest.raises(ivy.graph.GraphFormatError):
        ivy.Graph.load(path)


def test_body_changing_a_loop_variable_shape_is_refused(backend: str) -> None:
    with ivy.use_backend(backend):
        x = ivy.asarray(np.float32([1.0, 2.0]))
        with pytest.raises(ValueError, match="body_fn"):
            ivy.trace_graph(
                lambda x: ivy.while_loop(lambda v: ivy.less(ivy.sum(v), 10.0), lambda v: ivy.concat([v, v]), [x]),
                args=(x,),
            )


# ------------------------------------------------------------------------------ from torch


def _torch_fn(x: Any) -> Any:
    import torch

    def c(i: Any, v: Any) -> Any:
        return v.sum() < 100.0

    def b(i: Any, v: Any) -> Any:
        return i + 1, v * 2.0

    i, v = torch.while_loop(c, b, (torch.zeros((), dtype=torch.int32), x))
    return i, torch.cond(i > 3, lambda v: v + 1.0, lambda v: v - 1.0, (v,))


def test_torch_while_loop_and_cond_transpile(
    backend: str, to_native: Any, to_numpy: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("torch")
    if backend == "torch":
        pytest.skip("torch to torch is not a transpilation")
    monkeypatch.setenv("IVY_CACHE_DIR", str(tmp_path / "cache"))
    fn = ivy.transpile(_torch_fn, source="torch", to=backend)
    for x in INPUTS:
        i, y = fn(to_native(x))
        want_i, want_y = _doubling_ref(x, 2.0)
        assert int(to_numpy(i)) == want_i
        np.testing.assert_allclose(to_numpy(y), want_y, rtol=1e-6)


def _jax_fn(x: Any) -> Any:
    import jax.numpy as jnp
    from jax import lax

    i, v = lax.while_loop(lambda c: jnp.sum(c[1]) < 100.0, lambda c: (c[0] + 1, c[1] * 2.0), (jnp.int32(0), x))
    return i, lax.cond(i > 3, lambda a: a + 1.0, lambda a: a - 1.0, v)


def test_jaxpr_loops_and_branches_transpile(
    backend: str, to_native: Any, to_numpy: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (TensorFlow's While/If: tests/test_transpile_from_tensorflow.py, whose runs never import paddle after it)
    if backend == "jax":
        pytest.skip("jax to jax is not a transpilation")
    pytest.importorskip("jax")
    monkeypatch.setenv("IVY_CACHE_DIR", str(tmp_path / "cache"))
    prog = ivy.transpile(_jax_fn, source="jax", to=backend)
    graph = ivy.transpile(_jax_fn, source="jax", to="ivy", args=(INPUTS[0],))
    assert graph.ops()["while_loop"] == 1 and graph.ops()["cond"] == 1
    for x in INPUTS:
        i, y = prog(to_native(x))
        want_i, want_y = _doubling_ref(x, 2.0)
        assert int(to_numpy(i)) == want_i
        np.testing.assert_allclose(to_numpy(y), want_y, rtol=1e-6)


def test_a_failed_read_is_remembered(backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    torch = pytest.importorskip("torch")
    if backend == "torch":
        pytest.skip("torch to torch is not a transpilation")
    from ivy.transpile import _source

    monkeypatch.setenv("IVY_CACHE_DIR", str(tmp_path / "cache"))
    reads = []
    real = _source.Source.read
    monkeypatch.setattr(_source.Source, "read", lambda self, *a: (reads.append(1), real(self, *a))[1])

    def branchy(x: Any) -> Any:
        if x.sum() > 0:  # a Python branch on a tensor's value: torch.export refuses it
            return x * 2
        return x

    x = np.ones(3, np.float32)
    errors = []
    for _ in range(2):  # the same call, and a new transpile of the same function
        with pytest.raises(TranspileError) as e:
            ivy.transpile(branchy, source="torch", to=backend)(x)
        errors.append(str(e.value))
    assert len(reads) == 1
    assert errors[0] == errors[1] and "test_transpile_control_flow.py" in errors[0]
    del torch


def test_an_unread_control_flow_op_is_named_before_decomposition(backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("torch")
    if backend == "torch":
        pytest.skip("torch to torch is not a transpilation")
    from torch._higher_order_ops.map import map as torch_map

    from ivy_torch.frontend import _interpret

    monkeypatch.setattr(_interpret, "decompose", lambda *a, **k: pytest.fail("decomposed before reporting"))
    # the op left unread (associative_scan) is exported only for CUDA tensors: map stands for it
    monkeypatch.setattr(_interpret, "_UNREAD_CONTROL", _interpret._UNREAD_CONTROL | {"map_impl"})

    def rowwise(x: Any) -> Any:
        return torch_map(lambda xi: xi * 2, x)

    with pytest.raises(UnsupportedOpsError, match=r"torch\.ops\.higher_order\.map_impl"):
        ivy.transpile(rowwise, source="torch", to=backend, cache=False)(np.ones((4, 3), np.float32))


# ------------------------------------------------------------------------------ the paper's example


def paper_example(library: str) -> str:
    """The block of README.md marked ``<!-- paper example: LIBRARY -->``."""
    found = {m.group(1): m.group(2) for m in _PAPER.finditer(README.read_text(encoding="utf-8"))}
    assert library in found, f"README.md has no paper example marked {library!r}"
    return found[library]


def test_the_papers_kornia_example_runs_as_printed(
    backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if backend != "tensorflow":
        pytest.skip("the paper's example transpiles kornia to TensorFlow")
    torch = pytest.importorskip("torch")
    kornia = pytest.importorskip("kornia")
    code = paper_example("kornia")
    assert code in EXAMPLE.read_text(encoding="utf-8"), "examples/transpile_kornia_paper.py runs the README's lines"
    monkeypatch.setenv("IVY_CACHE_DIR", str(tmp_path / "cache"))
    ns: dict[str, Any] = {}
    exec(compile(code, "<README.md: the paper's example>", "exec"), ns)
    x = torch.from_numpy(ns["img"].numpy())
    want_edges = kornia.filters.canny(x)[1]
    want = kornia.morphology.dilation(want_edges, torch.ones(7, 7))
    edges, dilated = ns["edges"].numpy(), ns["dilated"].numpy()
    assert 0 < edges.sum() < edges.size and dilated.sum() > edges.sum()  # edges, thickened
    np.testing.assert_allclose(edges, want_edges.numpy(), atol=1e-6)
    np.testing.assert_allclose(dilated, want.numpy(), atol=1e-6)
