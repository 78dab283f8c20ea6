"""No automatic differentiation (``BackendImpl.autodiff=False``): variables are plain arrays, and
core's gradient functions raise ``ivy.errors.NoAutodiffError`` naming the function called."""

from __future__ import annotations

from typing import Any

__all__ = ["variable", "is_variable", "stop_gradient"]


def variable(x: Any, /) -> Any:
    return x


def is_variable(x: Any, /, *, exclusive: bool = False) -> bool:
    return False


def stop_gradient(x: Any, /) -> Any:
    return x
