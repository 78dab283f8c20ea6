"""Every public op traced with ``ivy.trace_graph`` and replayed, on the backend under test: the
emitted program (pure calls of the plugin's functions) and the standalone source module must each
give what the eager ``ivy.<op>`` call gives (the op's own implementation is the reference; the
suite's ``test_fn_every_op`` checks that one against the backend's function). Each op is also
traced on NumPy, stored as JSON and safetensors, read back and replayed on the backend under test:
a graph holds nothing of the framework it was traced on.

The example calls are those of ``ivy.testing.suite.test_fn_every_op`` (``CALLS``, or synthesised from the spec).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import ivy
from ivy._spec import SPECS
from ivy.graph import Graph
from ivy.graph._serialize import from_document, to_document
from ivy.testing import has_autodiff
from ivy.testing.suite.test_fn_every_op import (
    GRADIENT_OPS,
    RANDOM,
    REFUSED,
    Raised,
    _arguments,
    _outcome,
    _public,
    _same,
)

#: ops whose result holds a function (vjp's pullback): traced with the pullback applied
_PULLBACK = {"vjp"}
#: ops whose result is a Python object without a literal (a graph outputs it as it is)
_OBJECTS = {"finfo", "iinfo", "to_numpy"}
#: ops whose Python result is a fact of the framework the graph was traced on (it holds them as
#: constants, as it holds shapes and dtypes: another framework's facts may differ)
_FACTS = {"finfo", "iinfo", "is_variable", "result_type", "can_cast"}
#: ops that read values out of arrays: the graph replays them behind a guard on the example
_READS = {"to_numpy", "to_scalar", "to_list"}


def _fn(name: str) -> Callable[..., Any]:
    op = _public(name)
    if name in _PULLBACK:

        def with_pullback(f: Any, *xs: Any) -> Any:
            out, pullback = op(f, *xs)
            return out, pullback(ivy.ones_like(out))

        return with_pullback
    return op


def _eager(name: str, backend: str, xp: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    fn = _fn(name)
    if RANDOM.__contains__(name):
        ivy.seed(0)
    if SPECS[name].infer and any(xp.is_native_array(a) for a in ivy.nest.leaves((args, kwargs))):
        return _outcome(fn, args, kwargs, backend)
    with ivy.use_backend(backend):
        return _outcome(fn, args, kwargs, backend)


def _refused(name: str, backend: str) -> bool:
    return (backend, name) in REFUSED or (name in GRADIENT_OPS and not has_autodiff(backend))


def _trace(name: str, backend: str) -> tuple[Graph, tuple[Any, ...], dict[str, Any]]:
    args, kwargs = _arguments(name, backend)
    if name in RANDOM:
        ivy.seed(0)
    return ivy.trace_graph(_fn(name), args=args, kwargs=kwargs, backend=backend), *_arguments(name, backend)


def _stored(g: Graph) -> Graph:
    """``g`` after a trip through its JSON document and constants."""
    doc, consts = to_document(g)
    return from_document(Graph, doc, dict(consts))  # type: ignore[no-any-return]


def _replay(run: Callable[..., Any], name: str, args: tuple[Any, ...], kwargs: dict[str, Any], backend: str) -> Any:
    if name in RANDOM:
        ivy.seed(0)
    try:
        with ivy.use_backend(backend):  # (a graph without array inputs runs on the current backend)
            return run(*args, **kwargs)
    except Exception as e:  # compared with the eager outcome
        return Raised(e)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_every_op_traced_and_replayed(name: str, backend: str, xp: Any) -> None:
    if _refused(name, backend):
        pytest.skip(f"{backend} refuses {name} by design (tests/test_fn_every_op.py checks the error)")
    want = _eager(name, backend, xp, *_arguments(name, backend))
    assert not isinstance(want, Raised), f"the example call of {name} fails eagerly: {want!r}"
    g, args, kwargs = _trace(name, backend)
    random = name in RANDOM or name in ("empty", "empty_like")
    if name not in _READS and name != "seed":
        assert any(n.op == name for n in g.walk()) or not g.nodes, f"{name} is not recorded: {g.ops()}"
    prog = g.to(backend, compile=False)
    _same(_replay(prog, name, args, kwargs, backend), want, backend, xp, random, f"graph of {name}, emitted")
    if name in GRADIENT_OPS:  # (the others go through JSON in the next test)
        _same(
            _replay(_stored(g), name, args, kwargs, backend), want, backend, xp, random, f"graph of {name}, from JSON"
        )
    if name not in _READS and name not in _OBJECTS:  # (the source module raises a plain error where a guard fails)
        ns: dict[str, Any] = {}
        exec(compile(g.source(backend), f"<source of {name}>", "exec"), ns)
        _same(_replay(ns["forward"], name, args, kwargs, backend), want, backend, xp, random, f"source of {name}")


@pytest.mark.parametrize("name", sorted(n for n in SPECS if n not in GRADIENT_OPS))
def test_every_op_traced_on_numpy_and_stored_runs_on_the_backend(name: str, backend: str, xp: Any) -> None:
    if (
        backend == "numpy"
        or _refused(name, backend)
        or name in _FACTS
        or name in ("inplace_update", "from_dlpack", "to_device")
    ):
        pytest.skip("the graph is traced on numpy itself, or the op acts on the traced framework's objects")
    g, _, _ = _trace(name, "numpy")
    if name not in _OBJECTS:  # (a JSON document holds no finfo object)
        g = _stored(g)
    args, kwargs = _arguments(name, backend)
    want = _eager(name, backend, xp, args, kwargs)
    got = _replay(g.to(backend, compile=False), name, *_arguments(name, backend), backend)
    if isinstance(want, Raised) or isinstance(got, Raised):
        assert isinstance(want, Raised) == isinstance(got, Raised), f"{name}: eager {want!r}, numpy graph {got!r}"
        return
    _same(got, want, backend, xp, name in RANDOM, f"numpy graph of {name} on {backend}")
