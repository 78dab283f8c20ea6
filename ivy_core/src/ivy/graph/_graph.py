"""``ivy.Graph``: a traced computation of spec ops, and what can be done with it."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from .. import _api, _context
from ._code import IvySpelling, comment, generate
from ._eager import outside_traces
from ._ir import ConstArray, GraphIR, tree_leaves

__all__ = ["Graph"]


class Graph(GraphIR):
    """A computational graph of spec ops, framework-agnostic (see :mod:`ivy.graph`).

    Made by :func:`ivy.trace_graph` (or read with :meth:`load`). ``print(graph)`` shows it as
    Python; calling it runs it on the backend of its inputs; :meth:`to` emits a program of pure
    target calls; :meth:`apply` runs passes; :meth:`save` / :meth:`load` store it;
    :meth:`to_dot` / :meth:`show` / :meth:`save_image` draw it.
    """

    _programs: dict[str, Callable[..., Any]]
    #: the modules and optimizers whose state a traced function threads (see ``meta["state"]``)
    objects: list[Any]

    def __init__(self, **fields: Any):
        super().__init__(**fields)
        self._programs = {}
        self.objects = []

    # ------------------------------------------------------------------ viewing

    @property
    def code(self) -> str:
        """The graph as readable Python (``ivy.<op>`` calls), in the style of torch.fx's
        ``GraphModule.code``: one line per node, each with its result's type and the source line
        of the traced call; constants appear as ``_c0``...; guards as asserts."""
        sp = IvySpelling()
        lines, _, namer = generate(self, sp, name=self.name)
        head = []
        if sp.consts:
            by_name = {name: c for c in self.constants() if (name := sp.consts.get(id(c)))}
            head = [f"# {name}: constant {c.type_str}" for name, c in by_name.items()]
        if self.params:
            head.append(comment(f"# params: {len(self.params)} arrays ({', '.join(self.params)})"))
        return "\n".join(head + lines) + "\n"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        ins = ", ".join(v.type_str for v in self.inputs)
        return f"<ivy.Graph {self.name!r}: {len(self)} nodes, inputs ({ins})>"

    def ops(self) -> dict[str, int]:
        """How many nodes call each op (subgraphs included)."""
        out: dict[str, int] = {}
        for n in self.walk():
            out[n.op] = out.get(n.op, 0) + 1
        return out

    # ------------------------------------------------------------------ running

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Run the graph on the backend of the array arguments (the current backend without
        any), through the program :meth:`to` emits for it without a compiler (made once per
        backend). A graph of a module takes the parameters first: ``graph(params, *args)``
        (a dict by key chain, or a Container)."""
        leaves = [x for x in tree_leaves((args, kwargs)) if _api.is_native_array(x)]
        b = _api.namespace(*leaves)._ivy_backend if leaves else _context.current_backend_object()
        prog = self._programs.get(b.name)
        if prog is None:
            prog = self.to(b, compile=False)
            if not b.name.startswith("graph-trace-"):  # a recording backend lives for one trace
                self._programs[b.name] = prog
        if self.params:
            if not args:
                raise TypeError(
                    f"the graph of a module takes its parameters first: graph(params, *args); "
                    f"params has the keys {list(self.params)}"
                )
            args = (_flat_params(args[0]), *args[1:])
        if self.meta.get("state"):
            return self._call_stateful(prog, b, args, kwargs)
        return prog(*args, **kwargs)

    def _call_stateful(self, prog: Callable[..., Any], b: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """Read the objects' state, run, write the new state back (as the eager function does)."""
        from ._state import read_states, structure, write_states

        if not self.objects:
            raise TypeError(
                f"this graph threads the state of {', '.join(self.meta['state'])} objects, which a stored graph "
                "does not hold: call graph.to(backend)(state, *args), which returns (outputs, new_state)"
            )
        states = read_states(self.objects, b.calls["asarray"])
        traced = self.in_tree[0][0]
        if structure(states) != structure(traced):
            raise TypeError("the state of the modules and optimizers changed structure since the trace: trace again")
        out, new = prog(states, *args, **kwargs)
        write_states(self.objects, new, concrete=True)
        return out

    def to(
        self,
        backend: Any,
        *,
        compile: bool = True,
        checks: bool = True,
        options: dict[str, Any] | None = None,
    ) -> Callable[..., Any]:
        """The program of this graph for ``backend``: pure target calls, each node bound once to
        the plugin's own function for its op, compiled by the target's compiler through
        ``ivy.compile`` unless ``compile=False``.

        It takes and returns native arrays, with the traced function's arguments (a module's
        graph: ``program(params, *args)`` with ``params`` a dict by key chain, see
        :meth:`param_arrays`), and is differentiable natively. ``checks`` checks the shapes and
        dtypes of the inputs and the traced static arguments on each call (free under a
        compiler, which runs them once when it traces). ``options`` go to the compiler.

        Raises:
            GraphEmitError: the target lacks an op the graph uses (the node and the traced
                source line are named).
        """
        from ._emit import emit

        # (emitted lazily on a first call that may be inside jax.jit: no value of that trace may
        # stay in the program's constants)
        with outside_traces(getattr(backend, "name", backend)):
            return emit(self, backend, compile=compile, checks=checks, options=options)

    def source(self, backend: Any) -> str:
        """A standalone Python module computing this graph with ``backend``'s framework: it
        imports the framework (and the plugin only for ops that are not a framework function),
        defines ``forward(...)`` with the traced function's arguments (a module's parameters as
        a dict ``params``), and needs no Ivy. Composed ops the target has no native function
        for are written out as their primitives."""
        from ._emitted import source

        return source(self, backend)

    def param_arrays(self, backend: Any = None) -> dict[str, Any]:
        """The traced values of a module's parameters (and buffers) as native arrays of
        ``backend`` (default: the traced one), by key chain: what ``graph.to(b)(params, x)``
        takes."""
        b = _context.resolve(backend or self.meta.get("backend") or _context.current_backend_object())
        return {k: c.to_native(b) for k, c in self.param_values.items()}

    def module(self, backend: Any = None) -> Any:
        """An ``ivy.Module`` running this graph, whose variables are the traced parameter values:
        trainable with Ivy's optimizers and gradients, savable like any module."""
        from ._module import GraphModule

        return GraphModule(self, backend=backend)

    # ------------------------------------------------------------------ passes

    def apply(self, *passes: Callable[[Any], Any]) -> Graph:
        """This graph after the given passes, in order (see :mod:`ivy.graph` for the built-in ones
        and for writing your own)."""
        g: Any = self
        for p in passes:
            g = p(g)
            if not isinstance(g, GraphIR):
                raise TypeError(f"the pass {getattr(p, '__name__', p)!r} returned {type(g).__name__}, not a graph")
        return g

    def replace(self, **changes: Any) -> Graph:
        g: Graph = super().replace(**changes)  # type: ignore[assignment]
        g.objects = self.objects
        return g

    # ------------------------------------------------------------------ storing

    def to_json(self) -> str:
        """The graph as a JSON document; constant arrays are referenced by name (see
        :meth:`save`, which writes their data to a safetensors file beside it)."""
        import json

        from ._serialize import to_document

        doc, _ = to_document(self)
        return json.dumps(doc, indent=1)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write ``<path>`` (JSON) and ``<path minus .json>.safetensors`` (the constant arrays and
        parameter values)."""
        from ._serialize import save

        save(self, path)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Graph:
        """Read a graph written by :meth:`save`."""
        from ._serialize import load

        return load(cls, path)

    # ------------------------------------------------------------------ drawing

    def to_dot(self) -> str:
        """The graph in Graphviz's dot language: ops as boxes coloured by op category, inputs,
        parameters and constants as ellipses, edges labelled with shapes."""
        from ._draw import to_dot

        return to_dot(self)

    def save_image(self, path: str | os.PathLike[str]) -> None:
        """Draw the graph to an image file (PNG, SVG or PDF by its suffix), with Graphviz's
        ``dot`` program if it is installed, else with matplotlib."""
        from ._draw import save_image

        save_image(self, path)

    def show(self) -> None:
        """Draw the graph on screen (a notebook shows it inline); see :meth:`save_image`."""
        from ._draw import show

        show(self)

    def constants(self) -> list[ConstArray]:
        return super().constants()


def _flat_params(p: Any) -> dict[str, Any]:
    from ..container import Container

    if isinstance(p, Container):
        return p.to_flat_dict()
    if isinstance(p, dict) and any(isinstance(x, dict) for x in p.values()):
        return Container(p).to_flat_dict()
    return p
