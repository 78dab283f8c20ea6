"""``ivy.compile`` for the jax backend: ``jax.jit`` with the caller's options.

Kept framework-free at import: JAX is imported only when a function is compiled.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ivy.plugin import hookimpl

__all__ = ["ivy_compile"]


@hookimpl
def ivy_compile(backend: str, fn: Callable[..., Any], options: Mapping[str, Any]) -> Callable[..., Any] | None:
    if backend != "jax":
        return None
    import jax

    return jax.jit(fn, **dict(options))
