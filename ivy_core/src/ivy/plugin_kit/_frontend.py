"""What transpiler frontends build graphs with: a frontend interprets its framework's program
(a torch.export graph, a jaxpr, a TF graph) op by op with Ivy spec ops, and the graph tracer
records those calls into an :class:`ivy.Graph` with real shapes and dtypes."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .. import graph as _graph
from ..errors import TranspileError
from ..graph._record import strip_records

__all__ = ["trace_program"]


class _Records:
    """``run`` with the :class:`ivy.transpile.Record`\\ s of its outputs made plain dicts (a graph
    holds those), remembering where they were for ``graph.meta["records"]``."""

    def __init__(self, run: Callable[..., Any], with_updates: bool):
        self.run = run
        self.with_updates = with_updates
        self.found: list[dict[str, Any]] = []

    def __call__(self, values: Any, *args: Any, **kwargs: Any) -> Any:
        res = self.run(values, *args, **kwargs)
        if self.with_updates:
            out, updates = res
            out, self.found = strip_records(out)
            return out, updates
        out, self.found = strip_records(res)
        return out


def trace_program(
    run: Callable[..., Any],
    *,
    params: Mapping[str, Any] | None = None,
    buffers: Mapping[str, Any] | None = None,
    args: tuple[Any, ...] = (),
    kwargs: Mapping[str, Any] | None = None,
    name: str = "program",
    training: bool = False,
    backend: Any = None,
    frozen: Iterable[str] = (),
    ties: Mapping[str, str] | None = None,
) -> Any:
    """Trace a frontend's interpreter of a source program into an :class:`ivy.Graph`.

    Args:
        run: ``run(values, *args, **kwargs)``, written with Ivy ops: ``values`` maps each
            parameter's and buffer's key chain (``"encoder/layer/0/weight"``, ``/``-separated) to
            its array. With buffers, it returns ``(outputs, {key chain: new value})`` (the
            buffers a training-mode pass updates; ``{}`` for none), else the outputs.
        params: key chain -> native array of each trainable parameter (lifted as
            ``graph.params``, values kept in ``graph.param_values``).
        buffers: key chain -> native array of each non-trainable buffer (``graph.buffers``).
        args, kwargs: the example inputs, native arrays of the backend the trace computes on.
        name: the graph's name (the source function's or module's).
        training: recorded in ``graph.meta["training"]``.
        backend: the backend the trace computes on (default: the inputs' framework).
        frozen: key chains of ``buffers`` that are parameters the source does not train
            (torch's ``requires_grad=False``, paddle's ``stop_gradient=True``, the kernel of a
            Keras layer set ``trainable=False``): not trained in any target, and made the
            target's own kind of frozen parameter where it has one (torch, paddle) rather than
            a buffer. Listed in ``graph.meta["frozen"]``.
        ties: alias key chain -> the key chain of the parameter (or buffer) it is the same
            object as in the source (GPT-2's ``lm_head/weight`` -> ``transformer/wte/weight``).
            ``run`` reads the one value for both; the graph has one parameter, whose gradient is
            the sum over its uses, and ``graph.meta["ties"]`` keeps the aliases so that targets
            that name parameters by path (torch, paddle) hold the one parameter under both.

    Outputs ``run`` returns as :class:`ivy.transpile.Record` (a Hugging Face ``ModelOutput``)
    are plain dicts in the graph, and ``graph.meta["records"]`` says where they were, so that a
    transpiled module returns them as records again.

    Returns:
        The graph; without params and buffers it is called ``graph(*args)``, with them
        ``graph(params, *args)``.
    """
    kwargs = dict(kwargs or {})
    params, buffers = dict(params or {}), dict(buffers or {})
    frozen = sorted(frozen)
    ties = dict(ties or {})
    _check_lifted(params, buffers, frozen, ties)
    recorded = _Records(run, with_updates=bool(buffers))
    if not params and not buffers:

        def fn(*a: Any, **k: Any) -> Any:
            return recorded({}, *a, **k)

        fn.__name__ = fn.__qualname__ = name
        graph = _graph.trace_graph(fn, args=args, kwargs=kwargs, backend=backend)
    else:
        graph = _graph.trace_graph(recorded, args=args, kwargs=kwargs, params=params, buffers=buffers, backend=backend)
        graph = graph.replace(name=name, meta={**graph.meta, "training": bool(training)})
    meta = dict(graph.meta)
    if frozen:
        meta["frozen"] = frozen
    if ties:
        meta["ties"] = ties
    if recorded.found:
        meta["records"] = recorded.found
    return graph.replace(meta=meta)


def _check_lifted(params: dict[str, Any], buffers: dict[str, Any], frozen: list[str], ties: dict[str, str]) -> None:
    """A frontend's defects in what it lifts, named (not a graph that trains the wrong thing)."""
    both = sorted(set(params) & set(buffers))
    if both:
        raise TranspileError(f"the frontend lifted {both} both as parameters and as buffers")
    stray = [k for k in frozen if k not in buffers]
    if stray:
        raise TranspileError(f"the frontend marked {stray} frozen, which are not among the buffers it lifted")
    bad = {a: c for a, c in ties.items() if a in params or a in buffers or (c not in params and c not in buffers)}
    if bad:
        raise TranspileError(
            f"the frontend tied {bad}: an alias must not be lifted itself, and must name a lifted parameter or buffer"
        )
