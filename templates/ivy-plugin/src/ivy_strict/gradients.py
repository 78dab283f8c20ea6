"""No automatic differentiation (``BackendImpl.autodiff=False``): variables are plain arrays, and
core's gradient functions raise ``ivy.errors.NoAutodiffError`` naming the function called."""

from __future__ import annotations

from typing import Any

import array_api_strict as xp

__all__ = ["variable", "is_variable", "stop_gradient"]


def variable(x: Any, /) -> Any:
    return x


def is_variable(x: Any, /, *, exclusive: bool = False) -> bool:
    # no distinct variable kind: with `exclusive` nothing counts; without it, every floating-point
    # array does (the spec's rule for such frameworks)
    if exclusive or not isinstance(x, type(xp.asarray(0))):
        return False
    return xp.isdtype(x.dtype, ("real floating", "complex floating"))


def stop_gradient(x: Any, /) -> Any:
    return x
