"""Tracing a function of named parameters and buffers: each becomes a named graph input
(``graph.params``, its value kept in ``graph.param_values``), and the buffers' new values the
graph's ``state_updates``. What ``ivy.trace_graph(fn, params=..., buffers=...)`` and the tracing of
an ``ivy.Module`` (its variables and buffers) build on."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .. import _context
from ._build import arg_names, call_traced, concrete_backend, make_inputs, output_tree, positional_aliases
from ._errors import GraphTraceError
from ._hops import call_hop
from ._ir import ConstArray
from ._proxy import TracedArray
from ._trace import Tracer

__all__ = ["trace_lifted"]


def trace_lifted(
    fn: Callable[..., Any],
    params: Mapping[str, Any],
    buffers: Mapping[str, Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    *,
    backend: Any,
    decompose: Any,
    dynamic: dict[str, tuple[int, ...]],
    cls: type,
    name: str,
    names: list[str] | None = None,
    meta: Mapping[str, Any] | None = None,
) -> tuple[Any, Any]:
    """``(graph, known)`` of ``fn(values, *args, **kwargs)``.

    ``values`` maps each key chain of ``params`` (trainable) and ``buffers`` (not trained) to its
    graph input. With buffers, ``fn`` returns ``(outputs, {key chain: new value})`` (the buffers
    a pass updates, ``{}`` for none), else the outputs. ``names``: the names of ``args`` (default:
    ``fn``'s parameters after ``values``); ``meta`` is added to the graph's.
    """
    params, buffers = dict(params), dict(buffers)
    clash = sorted(set(params) & set(buffers))
    if clash:
        raise GraphTraceError(f"{clash} name both a parameter and a buffer")
    concrete = concrete_backend(backend, (args, kwargs))
    for chain, x in {**params, **buffers}.items():
        if not isinstance(x, concrete.array_types):
            raise GraphTraceError(
                f"the parameter or buffer {chain!r} is a {type(x).__module__}.{type(x).__qualname__}, not an "
                f"array of the traced backend ({concrete.name})"
            )
    if names is None:
        names = arg_names(fn, len(args), skip=1)
    tracer = Tracer(concrete, decompose=decompose, shadow=bool(dynamic), hop=call_hop)
    try:
        lifted = {k: tracer.add_input(x, k, kind="param", dynamic=dynamic.get(k, ())) for k, x in params.items()}
        held = {k: tracer.add_input(x, k, kind="buffer") for k, x in buffers.items()}
        values = {**lifted, **held}
        (pargs, pkwargs), in_tree = make_inputs(tracer, (args, kwargs), names, positional_aliases(dynamic, names))
        with _context.use_backend(tracer.backend):
            out = call_traced(fn, (dict(values), *pargs), pkwargs)
        new: dict[str, Any] = {}
        if buffers:
            if not (isinstance(out, tuple) and len(out) == 2 and isinstance(out[1], Mapping)):
                raise GraphTraceError(
                    "a traced function with buffers returns (outputs, {buffer key chain: new value}), "
                    f"got a {type(out).__name__}"
                )
            out, new = out[0], dict(out[1])
        outputs = output_tree(tracer, out)
        root = tracer.root
        updates: dict[str, Any] = {}
        for chain, now in new.items():
            if chain not in held:
                raise GraphTraceError(f"the traced function updated {chain!r}, which is not one of its buffers")
            if now is held[chain]:
                continue
            if not isinstance(now, TracedArray):
                raise GraphTraceError(f"the buffer {chain!r} was replaced by a {type(now).__name__} during the trace")
            updates[chain] = root.value_of(now)
        graph = cls(
            name=name,
            inputs=root.inputs,
            in_tree=in_tree,
            arg_names=names,
            params={k: p._v for k, p in values.items()},
            param_values={k: ConstArray.from_native(p._n, concrete.name) for k, p in values.items()},
            buffers=list(held),
            state_updates=updates,
            nodes=root.nodes,
            outputs=outputs,
            guards=root.guards,
            meta={
                "backend": concrete.name,
                **(meta or {}),
                "decompose": decompose if isinstance(decompose, bool) else sorted(decompose),
            },
        )
        return graph, tracer.known
    finally:
        tracer.close()
