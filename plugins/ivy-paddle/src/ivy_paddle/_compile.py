"""``ivy.compile`` for the paddle backend: ``paddle.jit.to_static`` with the caller's options.

Kept framework-free at import: paddle is imported only when a function is compiled.
"""

from __future__ import annotations

import functools
import inspect
import itertools
from collections.abc import Callable, Mapping
from typing import Any

from ivy.plugin import hookimpl

__all__ = ["ivy_compile"]


def _var_positional(fn: Callable[..., Any]) -> bool:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):  # no signature to read: to_static cannot read one either
        return True
    return any(p.kind is p.VAR_POSITIONAL for p in params)


_made = itertools.count()


def _named(fn: Callable[..., Any], n: int) -> Callable[..., Any]:
    """``fn`` behind a function with ``n`` named positional parameters (and ``**kwargs``).

    Each wrapper gets a code object of its own (a numbered name): paddle's SOT caches its
    translation by code object equality and stores names it needs in the globals of the first
    function it translated, which another wrapper's globals would lack.
    """
    names = ", ".join(f"a{i}" for i in range(n))
    name = f"call_{next(_made)}"
    ns: dict[str, Any] = {"fn": fn}
    exec(f"def {name}({names}{', ' if n else ''}**kwargs):\n    return fn({names}{', ' if n else ''}**kwargs)\n", ns)  # noqa: S102 - a fixed template
    return functools.wraps(fn)(ns[name])


class _PerArity:
    """``paddle.jit.to_static`` matches the call's arguments against the parameter names of the
    function it converts, so it rejects every call of a function taking ``*args`` (what
    ``ivy.value_and_grad`` and most decorators return). Such a function is converted once per
    number of positional arguments it is called with, behind a function naming them."""

    def __init__(self, fn: Callable[..., Any], options: dict[str, Any]):
        functools.update_wrapper(self, fn)
        self._fn = fn
        self._options = options
        self._static: dict[int, Callable[..., Any]] = {}

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        f = self._static.get(len(args))
        if f is None:
            from ._framework import paddle

            f = self._static[len(args)] = paddle.jit.to_static(_named(self._fn, len(args)), **self._options)
        return f(*args, **kwargs)


@hookimpl
def ivy_compile(backend: str, fn: Callable[..., Any], options: Mapping[str, Any]) -> Callable[..., Any] | None:
    if backend != "paddle":
        return None
    from ._framework import paddle

    if _var_positional(fn):
        return _PerArity(fn, dict(options))
    return paddle.jit.to_static(fn, **dict(options))
