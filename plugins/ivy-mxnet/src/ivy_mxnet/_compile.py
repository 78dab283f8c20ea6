"""``ivy.compile`` for the mxnet backend: the function itself, run eagerly.

MXNet compiles Gluon blocks (``HybridBlock.hybridize``), not Python functions: a function of Ivy
ops has no block to hybridize, so ``ivy.compile`` returns it unchanged (as for NumPy).
Kept framework-free: nothing is imported here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ivy.plugin import hookimpl

__all__ = ["ivy_compile"]


@hookimpl
def ivy_compile(backend: str, fn: Callable[..., Any], options: Mapping[str, Any]) -> Callable[..., Any] | None:
    if backend != "mxnet":
        return None
    return fn
