"""``ivy.compile`` for the torch backend: ``torch.compile`` with the caller's options.

Kept framework-free at import: torch is imported only when a function is compiled.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ivy.plugin import hookimpl

__all__ = ["ivy_compile"]


@hookimpl
def ivy_compile(backend: str, fn: Callable[..., Any], options: Mapping[str, Any]) -> Callable[..., Any] | None:
    if backend != "torch":
        return None
    import torch

    return torch.compile(fn, **dict(options))
