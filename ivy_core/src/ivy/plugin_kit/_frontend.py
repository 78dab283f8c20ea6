"""What transpiler frontends build graphs with: a frontend interprets its framework's program
(a torch.export graph, a jaxpr, a TF graph) op by op with Ivy spec ops, and the graph tracer
records those calls into an :class:`ivy.Graph` with real shapes and dtypes."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .. import graph as _graph
from .._stateful.module import Module
from ..container import Container

__all__ = ["trace_program"]


class _Program(Module):
    """A module whose variables are a source program's parameters and whose forward pass is
    the frontend's interpreter: tracing it lifts the parameters by key chain."""

    def __init__(
        self, run: Callable[..., Any], params: Mapping[str, Any], buffers: Mapping[str, Any], name: str, training: bool
    ):
        self._run = run
        self._params = dict(params)
        self._buffers = dict(buffers)
        self._name = name
        Module.__init__(self, training=training)

    def _create_variables(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        return Container.from_flat_dict(self._params).to_dict() if self._params else {}

    def _create_state(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        return Container.from_flat_dict(self._buffers).to_dict() if self._buffers else {}

    def _forward(self, *args: Any, **kwargs: Any) -> Any:
        flat = {**self.v.to_flat_dict(), **(self._own_state or Container()).to_flat_dict()}
        out = self._run(flat, *args, **kwargs)
        if self._buffers:
            out, updates = out
            if updates:
                state = (self._own_state or Container()).to_flat_dict()
                state.update(updates)
                self._own_state = Container.from_flat_dict(state)
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

    Returns:
        The graph; without params and buffers it is called ``graph(*args)``, with them
        ``graph(params, *args)``.
    """
    kwargs = dict(kwargs or {})
    if not params and not buffers:

        def fn(*a: Any, **k: Any) -> Any:
            return run({}, *a, **k)

        fn.__name__ = fn.__qualname__ = name
        return _graph.trace_graph(fn, args=args, kwargs=kwargs, backend=backend)
    program = _Program(run, params or {}, buffers or {}, name, training)
    graph = _graph.trace_graph(program, args=args, kwargs=kwargs, backend=backend)
    return graph.replace(name=name)
