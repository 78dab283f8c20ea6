"""A loaded backend: its op table (with core's compositions for the ops its plugin leaves out),
its namespace, and what its plugin declared."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import _compose
from ._namespace import BackendNamespace
from ._spec import SPECS
from .errors import MissingOpError

if TYPE_CHECKING:
    from .plugin import BackendImpl, BackendSpec

__all__ = ["Backend"]


def _missing_op(backend: str, name: str, dist: str) -> Callable[..., Any]:
    """Stands in for an op a backend does not implement, so op tables stay plain dicts (the
    fastest lookup) and a call still says clearly what is missing."""

    def missing(*args: Any, **kwargs: Any) -> Any:
        raise MissingOpError(backend, name, dist=dist)

    missing.__name__ = name
    missing.__ivy_missing__ = True  # type: ignore[attr-defined]
    return missing


def _never() -> bool:
    return False


class Backend:
    """A loaded backend: its op table, its namespace and what its plugin declared."""

    def __init__(self, spec: BackendSpec, dist: str, impl: BackendImpl):
        self.name = spec.name
        self.dist = dist
        self.spec = spec
        self.impl = impl
        #: the ops the backend implements (what its namespace shows); core's compositions
        #: are added below for the composed ops the plugin does not implement natively
        self.ops: dict[str, Callable[..., Any]] = dict(impl.ops)
        #: ops the plugin implements itself
        self.native_ops = frozenset(impl.ops)
        self.array_types = tuple(impl.array_types)
        #: whether the framework's tracing compiler is recording (see BackendImpl.tracing)
        self.tracing: Callable[[], bool] = impl.tracing or _never
        self.namespace = BackendNamespace(self)
        # Composed ops the plugin does not provide natively run on its own namespace.
        for name, default in _compose.load_defaults().items():
            if name not in self.ops:
                fn = _compose.bind(name, default, self.namespace)
                self.ops[name] = fn
                self.namespace._ivy_add(name, fn)
        #: what dispatch calls: every spec op, with stubs raising NotImplementedError for the
        #: missing ones, so that lookups stay on a plain dict (the fastest)
        self.calls: dict[str, Callable[..., Any]] = {
            name: self.ops.get(name) or _missing_op(spec.name, name, dist) for name in SPECS
        }

    def __repr__(self) -> str:
        return f"<ivy backend {self.name!r} from {self.dist}>"
