"""Stored graphs never run code (the backend under test emits them): an adversarial corpus
generated from real graph documents (``_helpers/corpus.py``: every field replaced by strings that
would be code, by bad numbers and references) is loaded with ``ivy.Graph.load`` and, where
accepted, emitted (``graph.to``), written as source (``graph.source``, then run), and viewed
(``graph.code``). The marker file a pasted payload would create never appears; a mutant is
refused with an error naming the file and the field, or gives the original's answer where the
field only names or annotates, or fails with an error when run.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _helpers.corpus import calls_nothing_foreign, fields_never_computed, mutants, payloads

import ivy
from ivy.graph import Graph, GraphFormatError
from ivy.graph._serialize import loads

RNG = np.random.default_rng(5)
X = RNG.standard_normal((4, 5)).astype("float32")
W = RNG.standard_normal((5, 3)).astype("float32")
_AUTODIFF = ("torch", "jax", "tensorflow", "paddle")


def _plain(x: Any, w: Any, *, k: int = 2, mode: str = "mean") -> Any:
    h = ivy.reshape(ivy.matmul(x, w), (x.shape[0], -1))  # a dynamic dimension (Dim)
    s = ivy.sum(h, axis=-1, keepdims=True)  # keyword arguments
    y = ivy.astype(h * 2.0, ivy.float64)  # a dtype argument
    z = (h + ivy.asarray(np.array([1.0, 2.0, 3.0], np.float32)))[:, 1:3]  # a constant, slices
    if bool(ivy.sum(x) > -1000.0):  # a guard
        z = z * 3.0
    return ivy.Container(y=y, s=s), (z, float("inf"), k), [1 + 2j]


def _grad(x: Any) -> Any:
    out, pull = ivy.vjp(lambda a: ivy.sin(a) * ivy.exp(-a), x)  # a subgraph, a function value
    (gx,) = pull(ivy.ones_like(out))  # a call of a function value
    v, g = ivy.value_and_grad(lambda a: ivy.sum(a * a * x))(x)  # a subgraph reading an outer value
    return gx, v, g


class _Case:
    def __init__(self, graph: Any, args: tuple[Any, ...], kwargs: dict[str, Any]):
        self.doc = json.loads(graph.to_json())
        self.args, self.kwargs = args, kwargs
        self.graph = graph


@pytest.fixture(scope="module")
def cases(backend: str, to_native: Any) -> dict[str, _Case]:
    x, w = to_native(X), to_native(W)
    out = {
        "function": _Case(
            ivy.trace_graph(_plain, args=(x, w), kwargs={"k": 3, "mode": "sum"}, dynamic={"x": 0}),
            (x, w),
            {"k": 3, "mode": "sum"},
        )
    }
    with ivy.use_backend(backend):
        layer = ivy.Sequential(ivy.Linear(5, 4), ivy.Linear(4, 2))
        layer(x)
    out["module"] = _Case(ivy.trace_graph(layer, args=(x,)), (x,), {})
    if backend in _AUTODIFF:
        out["gradients"] = _Case(ivy.trace_graph(_grad, args=(x,)), (x,), {})
    return out


def _flat(tree: Any) -> list[np.ndarray]:
    return [np.asarray(ivy.to_numpy(v)) if ivy.is_native_array(v) else np.asarray(v) for v in ivy.nest.leaves(tree)]


def _same(got: Any, want: Any) -> bool:
    a, b = _flat(got), _flat(want)
    return len(a) == len(b) and all(
        x.shape == y.shape and np.allclose(x, y, rtol=1e-5, atol=1e-6, equal_nan=True) for x, y in zip(a, b)
    )


def _run_all(g: Any, case: _Case, backend: str, run: bool = True) -> list[Any]:
    """The loaded graph's answers through every way Ivy turns it into code: the emitted
    program and the standalone source (each generated and checked to call nothing foreign, then
    run where ``run``), and the view (generated and checked)."""
    lead = (g.param_arrays(backend),) if g.params else ()  # (a module's graph takes its parameters first)
    prog = g.to(backend, compile=False)
    src = g.source(backend)
    for code in (g.code, prog.__ivy_source__, src):
        calls_nothing_foreign(code)
    ns: dict[str, Any] = {}
    exec(compile(src, "<graph source>", "exec"), ns)  # the test's point
    if not run:
        return []
    return [prog(*lead, *case.args, **case.kwargs), ns["forward"](*lead, *case.args, **case.kwargs)]


@pytest.mark.parametrize("which", ["function", "module", "gradients"])
def test_an_adversarial_corpus_of_graph_documents_never_runs_code(
    backend: str, which: str, cases: dict[str, _Case], tmp_path: Path
) -> None:
    if which not in cases:
        pytest.skip(f"the {backend} backend has no automatic differentiation")
    case = cases[which]
    marker = tmp_path / "MARKER"
    want = _run_all(case.graph, case, backend)[0]
    path = tmp_path / "g.json"
    case.graph.save(path)  # (the constants' file stays; each mutant replaces the document)
    data = (tmp_path / "g.safetensors").read_bytes()
    outcomes: Counter[str] = Counter()
    ran: Counter[tuple[Any, ...]] = Counter()
    for i, m in enumerate(mutants(case.doc, marker)):
        text = json.dumps(m.doc)
        try:
            if i % 50 == 0:  # through the file, as a user loads it
                path.write_text(text)
                g = Graph.load(path)
            else:  # (the same reader on the same bytes, without the disk)
                g = loads(Graph, text.encode(), data, json_origin=str(path), st_origin=str(path.with_suffix(".st")))
        except GraphFormatError as e:
            assert str(path) in str(e), f"{m}: the error does not name the file: {e}"
            outcomes["refused at load"] += 1
            continue
        # every accepted mutant is generated and checked; the programs of the first few at each
        # field also run (the others differ from them only in the text the field holds)
        ran[m.path] += 1
        try:
            results = _run_all(g, case, backend, run=ran[m.path] <= 3)
        except AssertionError:
            raise
        except Exception as e:  # a field that changes the program may make it fail
            assert not fields_never_computed(m.path), f"{m} only names or annotates, yet the graph failed: {e!r}"
            outcomes["accepted, fails when run"] += 1
        else:
            if not results:
                outcomes["accepted, its code generated and checked"] += 1
            elif fields_never_computed(m.path):
                assert all(_same(r, want) for r in results), f"{m} changed the answer"
                outcomes["accepted, the original's answer"] += 1
            else:
                outcomes["accepted, another program"] += 1
        assert not marker.exists(), f"{m} ran code"
    assert not marker.exists()
    # the corpus reaches every kind of outcome it is built for, and refuses most of it
    assert outcomes["refused at load"] > 100 and outcomes["accepted, the original's answer"] > 10, outcomes
    print(f"{which}: {sum(outcomes.values())} mutants: {dict(outcomes)}")


def test_the_error_names_the_file_and_the_field(backend: str, cases: dict[str, _Case], tmp_path: Path) -> None:
    """The error names the field by its JSON path (here a keyword argument's name)."""
    doc = json.loads(json.dumps(cases["function"].doc))
    node = next(i for i, n in enumerate(doc["graph"]["nodes"]) if n["kwargs"]["$dict"])
    doc["graph"]["nodes"][node]["kwargs"]["$dict"][0][0] = payloads(tmp_path / "MARKER")[0]
    cases["function"].graph.save(tmp_path / "g.json")
    (tmp_path / "g.json").write_text(json.dumps(doc))
    with pytest.raises(GraphFormatError, match=rf"g\.json: graph\.nodes\[{node}\]\.kwargs.*not a Python identifier"):
        Graph.load(tmp_path / "g.json")
