"""Tracing ``ivy.Module`` instances (variables and buffers lifted as named graph inputs), and
:class:`GraphModule`, the module form of a traced graph that keeps its variables."""

from __future__ import annotations

from typing import Any

from .. import _context
from .._stateful.module import Module
from ..container import Container
from ._build import arg_names
from ._errors import GraphTraceError
from ._lift import trace_lifted
from ._record import restore_records

__all__ = ["trace_module", "GraphModule"]


def _ensure_built(model: Module, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Build a module whose sizes come from its input with one eager call, leaving the buffers
    (running statistics) as they were: the trace must see the module as the user left it."""
    mods = [m for _, m in model.modules()]
    if all(m.built for m in mods):
        return
    before = {id(m): m._own_state for m in mods if m.built}
    model(*args, **kwargs)
    for m in (m for _, m in model.modules()):
        if id(m) in before:
            m._own_state = before[id(m)]
        elif m.built:
            dtype = m._dtype or "float32"
            made = m._create_state(backend=m._backend_name or "", device=m._device, dtype=dtype)
            m._own_state = Container(made)


def trace_module(
    model: Module,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    *,
    backend: Any,
    decompose: Any,
    dynamic: dict[str, tuple[int, ...]],
    cls: type,
) -> tuple[Any, Any]:
    _ensure_built(model, args, kwargs)
    if backend is None and model.backend is not None:
        backend = model.backend
    variables = model.v.to_flat_dict()
    modules = [(chain, m) for chain, m in model.modules()]
    #: key chain -> (the module holding the buffer, its key there)
    places: dict[str, tuple[Module, str]] = {}
    buffers: dict[str, Any] = {}
    for chain, m in modules:
        for k, x in (m._own_state or Container()).to_flat_dict().items():
            places[f"{chain}/{k}" if chain else k] = (m, k)
            buffers[f"{chain}/{k}" if chain else k] = x
    clash = sorted(set(variables) & set(buffers))
    if clash:
        raise GraphTraceError(f"{clash} name both a variable and a buffer of the module")

    def run(values: dict[str, Any], *a: Any, **k: Any) -> Any:
        per_module: dict[int, tuple[Module, dict[str, Any]]] = {}
        for chain, (m, key) in places.items():
            per_module.setdefault(id(m), (m, {}))[1][key] = values[chain]
        for m, d in per_module.values():
            m._own_state = Container.from_flat_dict(d)
        out = model(*a, **k, v=Container.from_flat_dict({c: values[c] for c in variables}))
        if not places:
            return out
        return out, {c: (m._own_state or Container()).to_flat_dict().get(key) for c, (m, key) in places.items()}

    saved = [(m, m._own_state) for _, m in modules]
    try:
        return trace_lifted(
            run,
            variables,
            buffers,
            args,
            kwargs,
            backend=backend,
            decompose=decompose,
            dynamic=dynamic,
            cls=cls,
            name=type(model).__name__,
            names=arg_names(model._forward, len(args)),
            meta={"training": bool(model.training)},
        )
    finally:
        for m, st in saved:
            m._own_state = st


class GraphModule(Module):
    """An ``ivy.Module`` running a traced module's graph: its variables (``v``) and buffers
    (``state``) start as the traced values, and it trains like any Ivy module. Parameters the
    source does not train (``graph.meta["frozen"]``) are buffers; outputs the source returned as
    record classes (``graph.meta["records"]``) come back as :class:`ivy.transpile.Record`."""

    def __init__(self, graph: Any, *, backend: Any = None, device: Any = None):
        if not graph.params:
            raise ValueError("graph.module() needs the graph of a module (one with parameters)")
        self._graph = graph
        Module.__init__(self, backend=backend or graph.meta.get("backend"), device=device)

    @property
    def graph(self) -> Any:
        return self._graph

    def _arrays(self, backend: str, keys: list[str]) -> dict[str, Any]:
        b = _context.resolve(backend)
        nested = Container.from_flat_dict({k: self._graph.param_values[k].to_native(b) for k in keys})
        return nested.to_dict()

    def _create_variables(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        return self._arrays(backend, [k for k in self._graph.params if k not in self._graph.buffers])

    def _create_state(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        return self._arrays(backend, list(self._graph.buffers))

    def _forward(self, *args: Any, **kwargs: Any) -> Any:
        params = {**self.v.to_flat_dict(), **self.state.to_flat_dict()}
        out = self._graph(params, *args, **kwargs)
        if self._graph.state_updates:
            out, new_state = out
            self._update_state(**new_state)  # (key chains: the Container sets them in place)
        return restore_records(out, self._graph.meta.get("records"))
