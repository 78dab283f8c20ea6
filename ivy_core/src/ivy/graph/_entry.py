"""``ivy.trace_graph``: trace a function or a module on example inputs."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ._build import dynamic_spec, fn_name, trace_function
from ._graph import Graph
from ._lift import trace_lifted
from ._passes import DEFAULT, fold_constants

__all__ = ["trace_graph"]


def trace_graph(
    fn: Callable[..., Any],
    *,
    args: Sequence[Any] | Any = (),
    kwargs: Mapping[str, Any] | None = None,
    params: Mapping[str, Any] | None = None,
    buffers: Mapping[str, Any] | None = None,
    backend: Any = None,
    decompose: bool = False,
    dynamic: Mapping[str, int | Iterable[int]] | None = None,
    passes: Iterable[Callable[[Any], Any]] | None = None,
    to: Any = None,
    compile: bool = True,  # the option's natural name, as graph.to's
) -> Any:
    """Trace ``fn(*args, **kwargs)`` into an :class:`ivy.Graph` of spec ops.

    ``fn`` runs once on the example inputs with arrays that record every op called on them (a
    backend whose arrays are proxies over ``backend``'s: values exist, and Python control flow
    takes the example's path). Nothing is monkey-patched.

    The modules and optimizers a function reaches by name (its globals and closures) have their
    state threaded: it becomes the graph's first argument ``state`` and its new value a second
    output (``graph.meta["state"]`` names the objects); calling the graph through Ivy reads and
    updates the objects as the eager function does.

    Args:
        fn: an Ivy function, or an ``ivy.Module`` (its variables and buffers become named graph
            inputs, ``graph.params``; the graph is then called ``graph(params, *args)``, and
            ``graph.module()`` is a module keeping them).
        args, kwargs: the example inputs (nests of native arrays and Python values). Arrays
            become graph inputs; other values are fixed in the graph, and checked on each call.
        params, buffers: named arrays ``fn`` computes with, lifted as the graph's parameters:
            ``fn`` is then called ``fn(values, *args, **kwargs)``, ``values`` mapping each key
            chain (``"encoder/0/weight"``) of ``params`` (trained) and ``buffers`` (not
            trained: running statistics) to its array. With buffers, ``fn`` returns
            ``(outputs, {key chain: new value})`` (the buffers the call updates; ``{}`` for
            none). The graph is called ``graph(params, *args)`` as a module's is
            (``graph.params``: both kinds by key chain, ``graph.buffers``: the buffers' key
            chains, ``graph.state_updates``: their new values), and ``graph.module()`` is a
            module keeping them.
        backend: the backend the trace computes on; default: the inputs' framework, else the
            current backend.
        decompose: record composed ops (``gelu``, ``layer_norm``, ``cross_entropy``...) as the
            primitives core composes them from, instead of as themselves.
        dynamic: dimensions of any size at call time, by input path: ``{"x": 0}``,
            ``{"params/w": (0, 1)}``, ``{"args/1": 0}`` (a positional argument by index); a
            path is the argument's name, then keys and indices joined by ``/``. Each needs an
            example size of 2 or more. Traced code that reads such a size as a Python int raises
            :class:`GraphTraceError` (passing ``x.shape[0]`` to an op is recorded symbolically).
        passes: run on the traced graph (default: constant folding, common-subexpression
            elimination, dead-code elimination; ``()`` for none).
        to: a backend to emit for: return ``graph.to(to, compile=compile)`` instead of the graph.
        compile: with ``to``: compile with the target's compiler.

    Returns:
        The :class:`ivy.Graph` (or, with ``to``, the emitted program).

    Raises:
        GraphTraceError: ``fn`` does something a graph cannot hold (the line is named).
    """
    if not callable(fn):
        raise TypeError(f"trace_graph needs a function or an ivy.Module, got {type(fn).__name__}")
    args = tuple(args) if isinstance(args, (tuple, list)) else (args,)
    kwargs = dict(kwargs or {})
    stateful = sys.modules.get("ivy._stateful.module")  # (no module exists unless it is imported)
    module = fn if stateful is not None and isinstance(fn, stateful.Module) else None
    if params is not None or buffers is not None:
        if module is not None:
            raise TypeError(
                "trace_graph lifts an ivy.Module's variables and buffers itself: params= and buffers= are for "
                "functions of named arrays"
            )
        graph, known = trace_lifted(
            fn,
            params or {},
            buffers or {},
            args,
            kwargs,
            backend=backend,
            decompose=decompose,
            dynamic=dynamic_spec(dynamic),
            cls=Graph,
            name=fn_name(fn),
        )
    elif module is not None:
        from ._module import trace_module

        graph, known = trace_module(
            module, args, kwargs, backend=backend, decompose=decompose, dynamic=dynamic_spec(dynamic), cls=Graph
        )
    else:
        graph, known = trace_function(fn, args, kwargs, backend, decompose, dynamic_spec(dynamic), Graph)
    for p in DEFAULT if passes is None else tuple(passes):
        graph = fold_constants(graph, known=known) if p is fold_constants else p(graph)
    if to is not None:
        return graph.to(to, compile=compile)
    return graph
