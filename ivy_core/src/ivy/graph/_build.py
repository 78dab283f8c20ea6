"""Tracing a function on example inputs into a graph (the machinery of ``ivy.trace_graph``)."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .. import _api, _context
from .._dtypes import DType
from ..errors import MixedBackendsError
from ._errors import GraphTraceError
from ._hops import call_hop
from ._ir import ConstArray, Dim, GraphIR, InputRef, map_tree
from ._proxy import DynDim, TracedArray, TracedFunction
from ._state import members_of, read_states, structure, write_states
from ._trace import Tracer

__all__ = [
    "trace_function",
    "make_inputs",
    "output_tree",
    "arg_names",
    "concrete_backend",
    "call_traced",
    "dynamic_spec",
    "positional_aliases",
    "fn_name",
]


def dynamic_spec(spec: Mapping[str, int | Iterable[int]] | None) -> dict[str, tuple[int, ...]]:
    out: dict[str, tuple[int, ...]] = {}
    for path, dims in (spec or {}).items():
        out[str(path).strip("/")] = (dims,) if isinstance(dims, int) else tuple(dims)
    return out


def concrete_backend(backend: Any, args: Any) -> Any:
    if backend is not None:
        return _context.resolve(backend)
    leaves = [x for x in _api.nest.leaves(args) if _api.is_native_array(x)]
    if any(isinstance(x, TracedArray) for x in leaves):
        raise GraphTraceError(
            "trace_graph got arrays of a trace in progress: call the graph of the inner "
            "function instead of tracing it again inside the trace"
        )
    if leaves:
        return _api.namespace(*leaves)._ivy_backend
    return _context.current_backend_object()


def arg_names(fn: Callable[..., Any], n: int, skip: int = 0) -> list[str]:
    """The names of ``fn``'s first ``n`` positional arguments after its first ``skip`` ones
    (``arg<i>`` where it has none: ``*args``)."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        params = []
    names: list[str] = []
    for p in params:
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            names.append(p.name)
        elif p.kind is p.VAR_POSITIONAL:
            break
    names = names[skip : skip + n]
    return names + [f"arg{i}" for i in range(len(names), n)]


def make_inputs(tracer: Tracer, tree: Any, names: list[str], dynamic: dict[str, tuple[int, ...]]) -> tuple[Any, Any]:
    """``(args, kwargs)`` with each array replaced by a new graph input's proxy, and the
    ``in_tree`` (arrays replaced by :class:`InputRef`, other leaves kept)."""
    concrete = tracer.concrete
    used: set[str] = set()

    def walk(x: Any, path: str) -> tuple[Any, Any]:
        t = type(x)
        if t is tuple or t is list:
            parts = [walk(e, f"{path}/{i}") for i, e in enumerate(x)]
            return t(p[0] for p in parts), t(p[1] for p in parts)
        if isinstance(x, dict):
            parts2 = {k: walk(e, f"{path}/{k}") for k, e in x.items()}
            return t((k, p[0]) for k, p in parts2.items()), t((k, p[1]) for k, p in parts2.items())
        if isinstance(x, tuple):  # named tuple: a plain tuple in the graph
            return walk(tuple(x), path)
        if isinstance(x, concrete.array_types):
            dims = dynamic.get(path, ())
            used.add(path)
            p = tracer.add_input(x, path.replace("/", "_"), dynamic=dims)
            return p, InputRef(len(tracer.root.inputs) - 1)
        if isinstance(x, TracedArray):
            raise GraphTraceError(f"argument {path} is an array of a trace in progress")
        if _api.is_native_array(x):
            raise GraphTraceError(
                f"argument {path} is an array of another framework ({type(x).__module__}.{type(x).__qualname__}) "
                f"than the traced backend ({concrete.name}); convert it first"
            )
        return x, x

    a_tree, kw_tree = tree
    pa = [walk(x, names[i]) for i, x in enumerate(a_tree)]
    pk = {k: walk(x, k) for k, x in kw_tree.items()}
    # ("args/1" names a positional argument by its index: its alias by name was used instead)
    unknown = sorted(p for p in set(dynamic) - used if not p.startswith("args/"))
    if unknown:
        raise GraphTraceError(
            f"dynamic= names {unknown}, which are not array inputs; the array inputs are {sorted(used)}"
        )
    proxied = (tuple(p[0] for p in pa), {k: p[0] for k, p in pk.items()})
    in_tree = (tuple(p[1] for p in pa), {k: p[1] for k, p in pk.items()})
    return proxied, in_tree


def positional_aliases(dynamic: dict[str, tuple[int, ...]], names: list[str]) -> dict[str, tuple[int, ...]]:
    out = dict(dynamic)
    for path, dims in dynamic.items():
        head, _, rest = path.partition("/")
        if head == "args" and rest:
            idx, _, tail = rest.partition("/")
            if idx.isdigit() and int(idx) < len(names):
                out["/".join(filter(None, (names[int(idx)], tail)))] = dims
    return out


def output_tree(tracer: Tracer, out: Any) -> Any:
    """The traced function's result as the graph's output tree."""
    root = tracer.root
    array_types = tracer.concrete.array_types

    def enc(x: Any) -> Any:
        if isinstance(x, TracedArray):
            return root.value_of(x)
        if isinstance(x, DynDim):
            return Dim(root.value_of(x.array), x.axis)
        if isinstance(x, TracedFunction):
            raise GraphTraceError(
                "the traced function returns a function (vjp's pullback), which a graph "
                "cannot output; call it inside the traced function"
            )
        if isinstance(x, array_types):
            return ConstArray.from_native(x, tracer.concrete.name)
        if type(x) not in (bool, int, float, complex, str, type(None)):
            name = tracer._native_dtype(x)  # a native dtype: the target's own, on emission
            if name is not None:
                return DType(name)
        return x

    return map_tree(enc, out)


def trace_function(
    fn: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    backend: Any,
    decompose: Any,
    dynamic: dict[str, tuple[int, ...]],
    cls: type = GraphIR,
) -> tuple[Any, Any]:
    """``(graph, known)``: the graph of ``fn`` (of class ``cls``) and the example values of its
    input-independent values (for constant folding)."""
    concrete = concrete_backend(backend, (args, kwargs))
    names = arg_names(fn, len(args))
    members = members_of(fn, args, kwargs)
    saved = [m._ivy_get_state() for m in members]
    if members:  # their state is the graph's first argument, its new value a second output
        args = (read_states(members, concrete.calls["asarray"]), *args)
        names = ["state", *names]
    tracer = Tracer(concrete, decompose=decompose, shadow=bool(dynamic), hop=call_hop)
    try:
        (pargs, pkwargs), in_tree = make_inputs(tracer, (args, kwargs), names, positional_aliases(dynamic, names))
        with _context.use_backend(tracer.backend):
            if members:
                write_states(members, pargs[0], concrete=False)
                pargs = pargs[1:]
            out = call_traced(fn, pargs, pkwargs)
            if members:
                new = [m._ivy_get_state() for m in members]
                if structure(new) != structure(list(args[0])):
                    raise GraphTraceError(
                        "the traced function changes the structure of a module's or optimizer's state (an "
                        "optimizer makes its moments on its first step, a module its variables on its first "
                        "call): run one step eagerly first, then trace the function"
                    )
                out = (out, new)
        outputs = output_tree(tracer, out)
        root = tracer.root
        meta = {"backend": concrete.name, "decompose": decompose if isinstance(decompose, bool) else sorted(decompose)}
        if members:
            meta["state"] = [type(m).__name__ for m in members]
        graph = cls(
            name=fn_name(fn),
            inputs=root.inputs,
            in_tree=in_tree,
            arg_names=names,
            nodes=root.nodes,
            outputs=outputs,
            guards=root.guards,
            meta=meta,
        )
        if members:
            graph.objects = members  # (not stored: what a call through Ivy reads and updates)
        return graph, tracer.known
    finally:
        write_states(members, saved, concrete=False)  # no traced value stays in the objects
        tracer.close()


def call_traced(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``fn(*args, **kwargs)`` on traced arrays; arrays it did not get as arguments (a closure's,
    a global's, a module's variables) meet traced ones in an op: say how to trace that."""
    try:
        return fn(*args, **kwargs)
    except MixedBackendsError as e:
        raise GraphTraceError(
            f"{str(e).rstrip('.')}. While tracing, this means that the function uses an array it did not receive as an "
            "argument (a closure's or a global's, or the variables of a module it calls): pass it as an "
            "argument of the traced function (trace_graph(fn, args=...)), trace the module itself "
            "(trace_graph(model, args=...)), or make it a constant with ivy.asarray(array) inside the function"
        ) from e


def fn_name(fn: Any) -> str:
    """A graph's name for the traced function ``fn`` (``"forward"`` where it has none)."""
    name = getattr(fn, "__name__", None) or type(fn).__name__
    return name if name.isidentifier() else "forward"
