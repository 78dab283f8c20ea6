"""``ivy.compile`` for the numpy backend: NumPy has no compiler, so ``fn`` runs eagerly, unchanged.

Kept framework-free at import (it does not even need NumPy at call time).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ivy.plugin import hookimpl

__all__ = ["ivy_compile"]


@hookimpl
def ivy_compile(backend: str, fn: Callable[..., Any], options: Mapping[str, Any]) -> Callable[..., Any] | None:
    if backend != "numpy":
        return None
    # NumPy executes every op eagerly and has no tracer or JIT: compiling is the identity. The
    # options (meant for another framework's compiler) are accepted and ignored, so that code
    # written with ivy.compile(fn, **options) runs unchanged on the numpy backend.
    return fn
