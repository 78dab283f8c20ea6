"""The programs behind a transpiled module, shared by the target plugins' native modules.

A graph is specialised to the shapes, dtypes and static arguments of its example inputs, and to
the mode (training or inference) it was read in. :class:`ModulePrograms` keeps one graph per call
signature and mode, all over the same parameters: a call that matches none of them is read again
from the source object (``retrace``, which ``ivy.transpile`` supplies), so a native module takes
new batch sizes and switches between ``train()`` and ``eval()`` like a hand-written one. Each
graph's program is emitted for the target on its first use.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from .. import _context
from ..errors import TranspileError
from ..graph._record import restore_records
from ._dtypes import narrow_for
from ._inputs import Shaped, is_array, signature
from ._targets import outside_compiler_traces

__all__ = ["ModulePrograms", "graph_signature", "mode_sensitive"]


def graph_signature(graph: Any) -> Any:
    """The call signature a graph was traced with (as :func:`ivy.transpile._inputs.signature`
    describes a call), from its input tree."""
    from ..graph import InputRef

    def conv(x: Any) -> Any:
        t = type(x)
        if isinstance(x, InputRef):
            v = graph.inputs[x.index]
            return Shaped(v.shape, v.dtype)
        if t is tuple or t is list:
            return t(conv(e) for e in x)
        if isinstance(x, dict):
            return {k: conv(e) for k, e in x.items()}
        return x

    args, kwargs = graph.in_tree
    return signature(conv(tuple(args)), conv(dict(kwargs)))


def _random_ops() -> frozenset[str]:
    from .._spec import SPECS

    return frozenset(n for n, s in SPECS.items() if s.category == "random" or "dropout" in n)


def mode_sensitive(graph: Any) -> bool:
    """Whether a graph may compute otherwise in the other mode: it updates buffers (BatchNorm's
    running statistics) or draws random numbers (dropout)."""
    if graph.state_updates:
        return True
    rnd = _random_ops()
    return any(n.op in rnd for n in graph.walk())


def _matches(call: Any, traced: Any) -> bool:
    """Whether a call signature fits a traced one, a dimension unknown on either side (``None``:
    a symbolic tensor's unknown batch size, or a dynamic dimension of the graph) fitting any."""
    if call == traced:
        return True
    if type(call) is not tuple or type(traced) is not tuple or len(call) != len(traced):
        return False
    if call and call[0] == "a" and traced and traced[0] == "a":
        (_, cs, cd), (_, ts, td) = call, traced
        return cd == td and len(cs) == len(ts) and all(a is None or b is None or a == b for a, b in zip(cs, ts))
    return all(_matches(a, b) for a, b in zip(call, traced))


class _Entry:
    __slots__ = ("graph", "signature", "program")

    def __init__(self, graph: Any, sig: Any):
        self.graph = graph
        self.signature = sig
        self.program: Callable[..., Any] | None = None


class ModulePrograms:
    """The graphs and emitted programs of one transpiled module on one target backend.

    Args:
        graph: the module's graph (``graph.params``: its parameters and buffers by key chain).
        backend: the target backend's name.
        retrace: ``(training, args, kwargs) -> graph`` reading the source object again for a call
            that fits no graph yet (None: such a call raises :class:`ivy.errors.TranspileError`).
        compile: emit with the target's compiler (``graph.to(backend, compile=...)``).

    Attributes:
        graph: the first graph (the parameters' names, shapes, dtypes and initial values).
        trainable: key chains of the trainable parameters, in the graph's order.
        buffers: key chains of the buffers (non-trainable state), the frozen parameters included.
        frozen: the buffers that are parameters the source does not train (``requires_grad=
            False``): a target with frozen parameters (torch, paddle) makes them such.
        ties: alias key chain -> the key chain of the parameter (or buffer) it is in the source
            (GPT-2's ``lm_head/weight`` -> ``transformer/wte/weight``): one parameter, which a
            target naming parameters by path holds under both names.
        training: the mode the first graph was read in (None where the source has no modes).

    The source is read again, and programs emitted, outside any compiler trace the call is in
    (see :mod:`ivy.graph._eager`): a module first called inside ``jax.jit`` or ``tf.function``
    keeps no value of that trace. Outputs the source returned as
    record classes (a Hugging Face ``ModelOutput``) come back as :class:`ivy.transpile.Record`.
    """

    def __init__(self, graph: Any, backend: str, *, retrace: Callable[..., Any] | None = None, compile: bool = True):
        if not graph.params:
            raise ValueError("a native module needs the graph of a module (one with parameters)")
        graph = narrow_for(graph, backend)
        self.graph = graph
        self.backend = backend
        self.buffers = list(graph.buffers)
        held = set(self.buffers)
        self.trainable = [k for k in graph.params if k not in held]
        self.frozen = [k for k in graph.meta.get("frozen") or () if k in held]
        self.ties: dict[str, str] = {
            a: c for a, c in (graph.meta.get("ties") or {}).items() if c in graph.params and a not in graph.params
        }
        self.training: bool | None = graph.meta.get("training")
        self._retrace = retrace
        self._compile = compile
        self._lock = threading.Lock()
        self._entries: dict[tuple[Any, Any], _Entry] = {}
        self._add(self.training, graph, graph_signature(graph))

    def _add(self, training: Any, graph: Any, sig: Any) -> _Entry:
        e = _Entry(graph, sig)
        self._entries[(training, sig)] = e
        return e

    def initial_value(self, chain: str) -> Any:
        """The value the parameter or buffer at key chain ``chain`` starts with (the source's,
        ``graph.param_values``), as an array of the target backend. It is the graph's own copy,
        kept for later calls: copy it before updating it in place."""
        return self.graph.param_values[chain].to_native(_context.resolve(self.backend))

    @property
    def graphs(self) -> list[Any]:
        """Every graph read so far (one per call signature and mode)."""
        return [e.graph for e in self._entries.values()]

    def ready(self, training: bool, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
        """Whether a call runs a program emitted already (no reading of the source, no emission):
        what a target's tracing compiler that cannot trace Ivy's emitter (paddle's SOT) asks."""
        e = self._entry(training, signature(args, kwargs))
        return e is not None and e.program is not None

    def _entry(self, training: bool, sig: Any) -> _Entry | None:
        """The graph read for this call signature in this mode (or for either mode)."""
        return self._entries.get((training, sig)) or self._entries.get((None, sig))

    def emit(self) -> None:
        """Emit the program of every graph read so far (on its first call otherwise)."""
        with self._lock:
            for e in self._entries.values():
                if e.program is None:
                    e.program = e.graph.to(self.backend, compile=self._compile)

    def run(
        self,
        params: dict[str, Any],
        training: bool,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        *,
        coerce: Callable[[Any, tuple[int, ...]], Any] | None = None,
    ) -> tuple[Any, dict[str, Any] | None]:
        """Run the program for this call: ``(outputs, buffer updates or None)``.

        ``params`` maps every key chain of the graph (parameters and buffers) to the target's
        arrays. ``coerce(x, shape)`` gives an input whose shape is partly unknown (a symbolic
        tensor) the traced shape it fits (TensorFlow: ``tf.ensure_shape``).
        """
        sig = signature(args, kwargs)
        e = self._entries.get((training, sig)) or self._entries.get((None, sig))  # (as _entry, inline)
        if e is None:
            with self._lock, outside_compiler_traces(self.backend):
                e = self._find(training, sig, args, kwargs)
            if coerce is not None and e.signature != sig:
                args, kwargs = _coerce(args, kwargs, e.signature, coerce)
        prog = e.program
        if prog is None:
            with self._lock:  # (emission builds outside any compiler trace: see Graph.to)
                prog = e.program
                if prog is None:
                    prog = e.program = e.graph.to(self.backend, compile=self._compile)
        res = prog(params, *args, **kwargs)
        records = e.graph.meta.get("records")
        if e.graph.state_updates:
            out, updates = res
            return restore_records(out, records), updates
        return restore_records(res, records), None

    def _find(self, training: bool, sig: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> _Entry:
        for (mode, _), e in list(self._entries.items()):
            if mode in (training, None) and _matches(sig, e.signature):
                return e
        if self._retrace is not None and _all_known(sig):
            g = narrow_for(self._retrace(training, args, kwargs), self.backend)
            self._check_params(g)
            return self._add(training, g, sig)
        other = [e for (mode, s), e in self._entries.items() if s == sig or _matches(sig, s)]
        if other and not any(mode_sensitive(e.graph) for e in other):
            return self._add(training, other[0].graph, sig)
        known = "; ".join(
            f"{'training' if m else 'inference' if m is False else 'any'} mode: {_show(s)}" for (m, s) in self._entries
        )
        if other:
            why = (
                f"this module was read from its source in {'training' if not training else 'inference'} mode only, "
                f"and its program depends on the mode (buffer updates or random ops), so it cannot run in "
                f"{'training' if training else 'inference'} mode"
            )
        else:
            why = f"this module's program is specialised to its example inputs ({known}); the call passes {_show(sig)}"
        raise TranspileError(
            f"{why}. The module was built without its source object, which could read the program again: "
            "transpile the source with example inputs of this signature, in this mode"
        )

    def _check_params(self, g: Any) -> None:
        mine = {k: (v.shape, v.dtype) for k, v in self.graph.params.items()}
        got = {k: (v.shape, v.dtype) for k, v in g.params.items()}
        if mine != got or set(g.buffers) != set(self.buffers):
            diff = sorted(set(mine) ^ set(got)) or sorted(k for k in mine if mine[k] != got.get(k))
            raise TranspileError(
                f"reading the source again for new inputs or another mode gave other parameters than the "
                f"first read (differing: {diff[:8]}); the module's parameters must not depend on its inputs"
            )


def _all_known(sig: Any) -> bool:
    if type(sig) is tuple:
        if sig and sig[0] == "a" and len(sig) == 3:
            return all(d is not None for d in sig[1])
        return all(_all_known(e) for e in sig)
    return True


def _show(sig: Any) -> str:
    """A call signature as ``(float32[2, 3], k=2)``."""
    _, args, kwargs = sig

    def one(s: Any) -> str:
        if s[0] == "a":
            return f"{s[2]}[{', '.join('?' if d is None else str(d) for d in s[1])}]"
        if s[0] in ("tuple", "list"):
            inner = ", ".join(one(e) for e in s[1])
            return f"({inner})" if s[0] == "tuple" else f"[{inner}]"
        if s[0] == "dict":
            return "{" + ", ".join(f"{k}: {one(e)}" for k, e in s[1]) + "}"
        if s[0] == "obj":
            return f"<{s[1]}>"
        return repr(s[-1])

    parts = [one(a) for a in args[1]] + [f"{k.strip(chr(39))}={one(e)}" for k, e in kwargs[1]]
    return "(" + ", ".join(parts) + ")"


def _coerce(args: tuple[Any, ...], kwargs: dict[str, Any], sig: Any, coerce: Callable[..., Any]) -> tuple[Any, Any]:
    """``args``/``kwargs`` with each array whose shape is partly unknown given the traced shape."""
    _, sargs, skwargs = sig

    def walk(x: Any, s: Any) -> Any:
        t = type(x)
        if s[0] == "a" and is_array(x):
            shape = tuple(x.shape)
            if any(d is None for d in shape):
                return coerce(x, tuple(int(d) for d in s[1]))
            return x
        if t in (tuple, list) and s[0] in ("tuple", "list"):
            return t(walk(e, se) for e, se in zip(x, s[1]))
        if isinstance(x, dict) and s[0] == "dict":
            by_key = dict(s[1])
            return {k: walk(e, by_key[repr(k)]) if repr(k) in by_key else e for k, e in x.items()}
        return x

    new_args = tuple(walk(a, s) for a, s in zip(args, sargs[1]))
    by_key = dict(skwargs[1])
    new_kwargs = {k: walk(v, by_key[repr(k)]) if repr(k) in by_key else v for k, v in kwargs.items()}
    return new_args, new_kwargs
