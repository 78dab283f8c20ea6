"""The globally chosen backend: a stack per thread and per asyncio task (contextvars)."""

from __future__ import annotations

import contextlib
import types
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from . import _registry
from ._stack import STACK as _STACK
from .errors import IvyError

if TYPE_CHECKING:
    from ._namespace import BackendNamespace
    from ._registry import Backend

__all__ = [
    "set_backend",
    "unset_backend",
    "use_backend",
    "current_backend",
    "resolve",
    "backend_namespace",
    "BackendLike",
]

BackendLike = Any  # "torch" | ivy.torch | the torch module | a Backend


def resolve(backend: BackendLike) -> Backend:
    """A Backend from a name, a backend namespace, a framework module or a Backend."""
    if isinstance(backend, str):
        return _registry.get_backend(backend)
    b = getattr(backend, "_ivy_backend", None)  # BackendNamespace
    if b is not None:
        return b
    if isinstance(backend, _registry.Backend):
        return backend
    if isinstance(backend, types.ModuleType):  # the paper's ivy.set_framework(torch)
        owner = _registry._module_owner(backend.__name__.partition(".")[0])
        if owner is not None:
            return _registry.get_backend(owner)
    raise IvyError(
        f"cannot use {backend!r} as a backend: pass a backend name such as 'torch' "
        f"(installed: {', '.join(_registry.backends()) or 'none'}), a namespace such as ivy.torch, "
        "or a framework module"
    )


def set_backend(backend: BackendLike) -> BackendNamespace:
    """Make ``backend`` the current backend of this thread / task (pushed on a stack).

    Arrays passed to an op still decide its backend; the current backend decides only calls
    without array arguments (``ivy.zeros(3)``). Returns the backend's namespace.
    """
    b = resolve(backend)
    _STACK.set(_STACK.get() + (b,))
    return b.namespace


def unset_backend() -> BackendNamespace | None:
    """Pop the backend set last by :func:`set_backend`, restoring the one before it.

    Returns the namespace now current, or None when no backend is set any more. Popping an empty
    stack does nothing.
    """
    stack = _STACK.get()
    if stack:
        stack = stack[:-1]
        _STACK.set(stack)
    return stack[-1].namespace if stack else None


@contextlib.contextmanager
def use_backend(backend: BackendLike) -> Iterator[BackendNamespace]:
    """``with ivy.use_backend("jax") as xp:``: the current backend inside the block."""
    b = resolve(backend)
    token = _STACK.set(_STACK.get() + (b,))
    try:
        yield b.namespace
    finally:
        _STACK.reset(token)


def current_backend_object() -> Backend:
    stack = _STACK.get()
    return stack[-1] if stack else _registry.default_backend()


def current_backend() -> BackendNamespace:
    """The namespace of the backend that calls without array arguments use right now."""
    return current_backend_object().namespace


def backend_namespace(name: BackendLike) -> BackendNamespace:
    """The namespace of backend ``name`` (``ivy.backend_namespace("torch")`` is ``ivy.torch``)."""
    return resolve(name).namespace


def is_set() -> bool:
    """Whether a backend has been set explicitly in this thread / task."""
    return bool(_STACK.get())
