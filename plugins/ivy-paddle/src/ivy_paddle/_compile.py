"""``ivy.compile`` for the paddle backend: ``paddle.jit.to_static`` with the caller's options.

Kept framework-free at import: paddle is imported only when a function is compiled.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ivy.plugin import hookimpl

__all__ = ["ivy_compile"]


@hookimpl
def ivy_compile(backend: str, fn: Callable[..., Any], options: Mapping[str, Any]) -> Callable[..., Any] | None:
    if backend != "paddle":
        return None
    from ._framework import paddle

    return paddle.jit.to_static(fn, **dict(options))
