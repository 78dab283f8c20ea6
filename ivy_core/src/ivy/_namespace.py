"""Backend namespaces (``ivy.torch``, ``ivy.jax``...): complete Array API namespaces whose
functions are the plugin's own functions, so calling through them costs nothing extra."""

from __future__ import annotations

import types
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from . import _stack
from ._constants import ARRAY_API_VERSION, CONSTANTS
from ._dtypes import DTYPE_NAMES, KINDS, DType, dtype_name
from ._spec import SPECS
from ._spec._base import EXTENSIONS
from .errors import MissingOpError

if TYPE_CHECKING:
    from ._registry import Backend

__all__ = ["BackendNamespace", "Info", "CONSTANTS", "ARRAY_API_VERSION"]


def _kind_names(kind: Any) -> tuple[str, ...]:
    if kind is None:
        return DTYPE_NAMES
    if isinstance(kind, tuple):
        return tuple(n for n in DTYPE_NAMES if n in set(chain_kinds(kind)))
    if isinstance(kind, str) and kind in KINDS:
        return KINDS[kind]
    if isinstance(kind, str) and kind in DTYPE_NAMES:
        return (kind,)
    raise ValueError(f"unknown dtype kind {kind!r}; use one of {', '.join(KINDS)} or a tuple of them")


def chain_kinds(kinds: tuple[Any, ...]) -> list[str]:
    out: list[str] = []
    for k in kinds:
        out.extend(_kind_names(k))
    return out


class Info:
    """What ``__array_namespace_info__()`` returns: devices, dtypes and capabilities of a backend.

    With ``native=True`` (backend namespaces) dtypes are the framework's dtype objects; from the
    ``ivy`` namespace itself they are ``ivy.DType`` names.
    """

    def __init__(self, backend: Backend, native: bool = True):
        self._b = backend
        self._native = native

    def _dt(self, name: str) -> Any:
        return self._b.impl.dtypes[name] if self._native else DType(name)

    def capabilities(self) -> dict[str, Any]:
        """``{"boolean indexing", "data-dependent shapes", "max dimensions"}`` of the backend."""
        return dict(self._b.impl.capabilities)

    def default_device(self) -> Any:
        """The device arrays are created on when no device is given."""
        return self._b.impl.default_device()

    def default_dtypes(self, *, device: Any = None) -> dict[str, Any]:
        """Default dtypes: keys ``real floating``, ``complex floating``, ``integral``, ``indexing``."""
        return {k: (v if self._native else DType(_name(v))) for k, v in self._b.impl.default_dtypes.items()}

    def devices(self) -> list[Any]:
        """Every device the backend can place arrays on."""
        return list(self._b.impl.devices())

    def dtypes(self, *, device: Any = None, kind: Any = None) -> dict[str, Any]:
        """Supported dtypes (optionally of one ``kind`` such as ``"real floating"``), by name."""
        have = self._b.impl.dtypes
        return {n: self._dt(n) for n in _kind_names(kind) if n in have}

    def __repr__(self) -> str:
        return f"<array namespace info of ivy backend {self._b.name!r}>"


def _name(dtype: Any) -> str:
    return dtype_name(dtype)


class _Use:
    """``with ivy.torch.use:`` makes the backend current for the block (re-entrant).

    Exiting restores exactly the stack that was current on entry, even if the block called
    ``ivy.set_backend`` itself; tokens are kept per thread / task.
    """

    def __init__(self, backend: Backend):
        self._b = backend
        self._tokens: ContextVar[tuple[Any, ...]] = ContextVar(f"ivy_use_{backend.name}", default=())

    def __enter__(self) -> BackendNamespace:
        token = _stack.STACK.set(_stack.stack_get() + (self._b,))
        self._tokens.set(self._tokens.get() + (token,))
        return self._b.namespace

    def __exit__(self, *exc: Any) -> None:
        tokens = self._tokens.get()
        if tokens:
            self._tokens.set(tokens[:-1])
            _stack.STACK.reset(tokens[-1])

    def __repr__(self) -> str:
        return f"<use the {self._b.name!r} backend>"


def _missing_attr(module: str, backend: str, prefix: str, dist: str | None = None) -> Any:
    """A module-level ``__getattr__`` (PEP 562) that names unimplemented ops clearly.

    It lives in the module's ``__dict__`` rather than on the class: a Python-level ``__getattr__``
    on a ModuleType subclass slows down every attribute lookup, i.e. every op call.
    """

    def __getattr__(name: str) -> Any:
        if prefix + name in SPECS:
            raise MissingOpError(backend, prefix + name, dist=dist)
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return __getattr__


class BackendNamespace(types.ModuleType):
    """The Array API namespace of one backend: ``ivy.torch``, ``ivy.backend_namespace("jax")``."""

    def __init__(self, backend: Backend):
        super().__init__(
            f"ivy.{backend.name}",
            f"Ivy's {backend.name!r} backend ({backend.dist}) as an Array API {ARRAY_API_VERSION} namespace.",
        )
        d = self.__dict__
        d["_ivy_backend"] = backend
        d["name"] = backend.name
        d["__array_api_version__"] = ARRAY_API_VERSION
        subs = {}
        for ext in EXTENSIONS:
            sub = types.ModuleType(f"ivy.{backend.name}.{ext}")
            sub.__dict__["__getattr__"] = _missing_attr(sub.__name__, backend.name, ext + ".", backend.dist)
            subs[ext] = sub
            d[ext] = sub
        for qual, fn in backend.ops.items():
            ns, _, short = qual.rpartition(".")
            (subs[ns].__dict__ if ns else d)[short] = fn
        for name, dt in backend.impl.dtypes.items():
            d[name] = dt
        d.update(CONSTANTS)
        d["use"] = _Use(backend)
        array_types = backend.array_types

        def is_native_array(x: Any, /) -> bool:
            return isinstance(x, array_types)

        def __array_namespace_info__() -> Info:
            return Info(backend, native=True)

        d["is_native_array"] = is_native_array
        d["__array_namespace_info__"] = __array_namespace_info__
        for k, v in backend.impl.extras.items():
            d.setdefault(k, v)
        d["__getattr__"] = _missing_attr(self.__name__, backend.name, "", backend.dist)

    def _ivy_add(self, qual: str, fn: Any) -> None:
        """Adds op ``qual`` (``"gelu"``, ``"linalg.inv"``) to the namespace (core's compositions)."""
        ns, _, short = qual.rpartition(".")
        (self.__dict__[ns].__dict__ if ns else self.__dict__)[short] = fn

    def __repr__(self) -> str:
        b = self.__dict__["_ivy_backend"]
        return f"<ivy backend namespace {b.name!r} from {b.dist}>"
