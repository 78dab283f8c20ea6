"""Code generation spells only checked values (defense in depth behind the schema of stored
graphs): graphs built in memory with strings that would be code in every field the generators
read are emitted (``graph.to``), written as source (``graph.source``) and viewed
(``graph.code``) on core's test backend; each either refuses with a ``GraphEmitError`` or
generates code whose syntax tree calls nothing the graph did not (the payload stays a string, a
comment or a sanitized name), and the marker file a payload would create never appears."""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ivy
from ivy.graph import Dim, Graph, GraphEmitError, Node
from ivy.graph._serialize import Opaque

X = np.random.default_rng(2).standard_normal((4, 3)).astype("float32")


def _base() -> Graph:
    def f(x: Any, k: int = 2) -> Any:
        y = ivy.reshape(x, (x.shape[0], -1))
        if bool(ivy.sum(y) > -100.0):
            y = y * 2.0
        return ivy.sum(y, axis=-1, keepdims=True), k

    with ivy.use_backend("numpy"):
        return ivy.trace_graph(f, args=(X,), kwargs={"k": 3}, dynamic={"x": 0})


def _payload(marker: Path) -> list[str]:
    cmd = f"__import__('os').system('touch {marker}')"
    return [cmd, f"x) or {cmd} or (x", f"a\n{cmd}\n", f'"""\n{cmd}\n"""', f'""" + {cmd} + """', f"' + {cmd} + '"]


def _first(g: Graph, op: str) -> Node:
    return next(n for n in g.nodes if n.op == op)


# each edit puts a payload where one generator or another reads a string, bypassing the schema
_EDITS: dict[str, Callable[[Graph, str], Any]] = {
    "keyword name": lambda g, p: setattr(_first(g, "sum"), "kwargs", {p: -1}),
    "dimension axis": lambda g, p: setattr(_first(g, "reshape"), "args", (g.inputs[0], (Dim(g.inputs[0], p), -1))),
    "input shape entry": lambda g, p: setattr(g.inputs[0], "shape", (None, p)),
    "op name": lambda g, p: setattr(_first(g, "sum"), "op", p),
    "guard kind": lambda g, p: setattr(g.guards[0], "kind", p),
    "guard expected": lambda g, p: setattr(g.guards[0], "expected", ivy.DType("float32") if p else p),
    "guard source": lambda g, p: setattr(g.guards[0], "source", p),
    "value dtype": lambda g, p: setattr(_first(g, "sum").outputs, "dtype", p),
    "value hint": lambda g, p: setattr(_first(g, "sum").outputs, "hint", p),
    "node source": lambda g, p: setattr(_first(g, "sum"), "source", p),
    "graph name": lambda g, p: setattr(g, "name", p),
    "argument name": lambda g, p: setattr(g, "arg_names", [p]),
    "keyword argument of the graph": lambda g, p: setattr(g, "in_tree", (g.in_tree[0], {p: 3})),
    "static argument": lambda g, p: setattr(g, "in_tree", (g.in_tree[0], {"k": p})),
    "opaque static argument": lambda g, p: setattr(g, "in_tree", (g.in_tree[0], {"k": Opaque(p)})),
    "dict key of the output": lambda g, p: setattr(g, "outputs", {p: g.outputs[0]}),
    "object as a key": lambda g, p: setattr(g, "outputs", {Opaque(p): g.outputs[0]}),
    "object as an argument": lambda g, p: setattr(_first(g, "sum"), "kwargs", {"axis": Opaque(p)}),
}


def _sources(g: Graph) -> list[str]:
    """Every piece of Python that Ivy generates for the graph (the view, the emitted program, the
    standalone module), running those Ivy runs."""
    out = [g.code]
    prog = g.to("numpy", compile=False)
    out.append(prog.__ivy_source__)
    src = g.source("numpy")
    out.append(src)
    ns: dict[str, Any] = {}
    exec(compile(src, "<graph source>", "exec"), ns)  # what a user does with it
    for fn in (prog, ns["forward"]):
        try:
            fn(X, k=3)
        except Exception:  # a graph made wrong may fail when run; it must not run the payload
            pass
    return out


def _calls_only_the_graph(src: str) -> None:
    """No name in the source is ``__import__`` and no attribute is ``system``: a payload is
    only ever a string constant or a comment (or was made a plain name)."""
    for node in ast.walk(ast.parse(src)):
        assert not (isinstance(node, ast.Name) and node.id == "__import__"), src
        assert not (isinstance(node, ast.Attribute) and node.attr == "system"), src


@pytest.mark.parametrize("field", list(_EDITS))
def test_generated_code_never_holds_a_string_from_the_graph(field: str, tmp_path: Path) -> None:
    marker = tmp_path / "MARKER"
    outcomes = []
    for p in _payload(marker):
        g = _base()
        _EDITS[field](g, p)
        try:
            sources = _sources(g)
        except (GraphEmitError, KeyError, ivy.errors.UnsupportedDTypeError) as e:
            outcomes.append(type(e).__name__)
        else:
            for src in sources:
                _calls_only_the_graph(src)
            outcomes.append("spelt safely")
        assert not marker.exists(), f"{field} := {p!r} ran code"
    assert outcomes  # (each payload was tried)


def test_names_from_a_graph_become_plain_ascii_identifiers() -> None:
    g = _base()
    g.name = "ﬁ(x)"  # (Python folds 'ﬁ' to 'fi': two hints must not become one variable)
    _first(g, "sum").outputs.hint = "ﬁ"
    _first(g, "reshape").outputs.hint = "fi"
    code = g.code
    ast.parse(code)
    assert code.isascii()
    np.testing.assert_allclose(g.to("numpy", compile=False)(X, k=3)[0], (X * 2.0).sum(-1, keepdims=True), rtol=1e-6)


def test_keyword_arguments_never_shadow_what_the_program_calls() -> None:
    """A traced keyword argument named like a builtin the generated code calls (``bool``, for a
    guard) or like the emitted program's bound functions (``_f_multiply``) is passed by name, and
    the program still calls what it should."""

    def f(x: Any, *, bool: float = 2.0, _f_multiply: float = 3.0) -> Any:
        if builtins.bool(ivy.sum(x) > -100.0):  # (a guard: the program calls bool())
            x = ivy.multiply(x, 2.0)
        return ivy.add(ivy.multiply(x, bool), _f_multiply)

    kw = {"bool": 2.0, "_f_multiply": 3.0}
    with ivy.use_backend("numpy"):
        g = ivy.trace_graph(f, args=(X,), kwargs=kw)
    for prog in (g.to("numpy", compile=False), g.to("numpy")):
        np.testing.assert_allclose(prog(X, **kw), X * 4.0 + 3.0, rtol=1e-6)
