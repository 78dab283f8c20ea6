"""The stack of globally selected backends: a context variable per thread and asyncio task.

A new thread starts with an empty stack (Python does not copy contexts into threads), so each
thread chooses its own backend; asyncio tasks copy it. It lives below every other module that
reads it (context, namespaces, dispatch).
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

__all__ = ["STACK", "stack_get"]

#: the backends set with ``ivy.set_backend`` / ``ivy.use_backend`` (``Backend`` objects)
STACK: ContextVar[tuple[Any, ...]] = ContextVar("ivy_backend_stack", default=())
stack_get = STACK.get
