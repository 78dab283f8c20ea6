"""``@covers("op", ...)``: names the spec ops a reference test checks.

tests/test_coverage.py reads these (and the module-level ``*_OPS`` tables) statically, from the
source, so that a new spec op cannot go untested.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def covers(*names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def mark(fn: Callable[..., Any]) -> Callable[..., Any]:
        fn.__ivy_covers__ = names  # type: ignore[attr-defined]
        return fn

    return mark
