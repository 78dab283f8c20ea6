"""The target side: which names ``to=`` takes, and what a graph becomes on each target."""

from __future__ import annotations

import contextlib
import difflib
import inspect
from collections.abc import Callable, Iterator
from typing import Any

from .. import _registry, _tracking
from ..errors import TranspileError
from ..graph._eager import outside_traces
from ._dtypes import narrow_for

__all__ = [
    "EAGER",
    "check_target",
    "check_module_target",
    "function_program",
    "module_object",
    "outside_compiler_traces",
]

#: targets whose native idiom is eager execution: their programs run without a compiler, as
#: hand-written code there does (wrap them in torch.compile / paddle.jit.to_static: they are pure
#: framework calls, which those compile). The others (jax.jit, tf.function) compile them.
EAGER = frozenset({"torch", "paddle"})

#: what people call the targets otherwise
_ALIASES = {"pytorch": "torch", "tf": "tensorflow", "keras": "tensorflow", "np": "numpy", "flax": "jax"}


def check_target(to: Any) -> str:
    """``to`` as a target name: an installed backend, or ``"ivy"``."""
    if not isinstance(to, str):
        raise TypeError(
            f"to= names the target: an installed backend ({', '.join(_registry.backends())}) or 'ivy'; "
            f"got a {type(to).__name__}"
        )
    if to != "ivy" and to not in _registry.backends():
        names = [*_registry.backends(), "ivy"]
        guess = _ALIASES.get(to.lower()) or next(iter(difflib.get_close_matches(to.lower(), names, n=1)), None)
        hint = f" (did you mean {guess!r}?)" if guess in names else ""
        raise TranspileError(
            f"cannot transpile to {to!r}{hint}: no such backend is installed. Installed backends: "
            f"{', '.join(_registry.backends()) or 'none'}; or to='ivy' for an Ivy graph or module"
        )
    return to


def check_module_target(to: str) -> None:
    """Modules are transpiled to be trained: a target without autodiff takes functions only."""
    if to == "ivy":
        return
    b = _registry.get_backend(to)
    if not b.impl.autodiff:
        raise TranspileError(
            f"cannot transpile a module to {to!r}: {to} has no automatic differentiation, so the module could "
            f"not be trained there. Transpile functions to {to!r}, or the module to a backend with autodiff "
            f"({', '.join(n for n in _registry.backends() if n != to)}) or to 'ivy'"
        )


def function_program(graph: Any, to: str) -> Any:
    """A function's graph on the target: the ``ivy.Graph`` itself for ``"ivy"``, else the emitted
    program (compiled by jax.jit / tf.function, eager on torch and paddle: see :data:`EAGER`)."""
    if to == "ivy":
        return graph
    return narrow_for(graph, to).to(to, compile=to not in EAGER)


def _takes_retrace(fn: Any) -> bool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return "retrace" in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())


def module_object(graph: Any, to: str, retrace: Any = None) -> Any:
    """A module's graph on the target: the backend's native module (``BackendImpl.native_module``),
    or an ``ivy.Module`` running the graph where the target has none (and for ``"ivy"``)."""
    if to == "ivy":
        return graph.module()
    # (the contract's native_module takes the graph; the plugins' also take retrace=, checked here)
    make: Callable[..., Any] | None = _registry.get_backend(to).impl.native_module
    if make is None:
        return graph.module(backend=to)
    return make(graph, retrace=retrace) if _takes_retrace(make) else make(graph)


@contextlib.contextmanager
def outside_compiler_traces(*frameworks: str) -> Iterator[None]:
    """Run a transpile that happens on a first call (a lazily transpiled function, a transpiled
    module's new signature) outside the compiler trace that call may be in (``jax.jit``,
    ``tf.function``, a Keras model's ``fit``): the source is read on concrete arrays, and nothing
    made for the program is a value of that trace (see :mod:`ivy.graph._eager`).
    ``frameworks``: the source's and target's names.

    An ``ivy.compile``'d step being traced (``fit``'s) is left too: reading the source is no part
    of the step, so the objects it makes or uses have no state for the step to thread."""
    saved, _tracking._session = _tracking._session, None
    try:
        with outside_traces(*frameworks):
            yield
    finally:
        _tracking._session = saved
