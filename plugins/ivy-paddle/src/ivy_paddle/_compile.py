"""``ivy.compile`` for the paddle backend: ``paddle.jit.to_static`` with the caller's options.

Kept framework-free at import: paddle is imported only when a function is compiled.
"""

from __future__ import annotations

import functools
import inspect
import itertools
import types
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


def _own_code(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` as a function with a code object that no other function has.

    paddle's SOT caches its translation of a function per code object, found by equality (equal
    bytecode, names and constants), and the translated code reads names that SOT stored in the
    globals of the first function it translated (``paddle_set_eval_frame_fn``...). A function
    with equal code but other globals (the same source executed twice: a graph emitted to paddle
    twice, a notebook cell run again) would run that translation with its own globals and fail
    with a ``NameError``. A numbered, unused constant makes each compiled function's code its own.
    """
    if not isinstance(fn, types.FunctionType):
        return fn  # a method or callable object: SOT translates the function it ends up calling
    code = fn.__code__.replace(co_consts=(*fn.__code__.co_consts, f"ivy compile #{next(_made)}"))
    own = types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    own.__kwdefaults__ = fn.__kwdefaults__
    own.__qualname__, own.__doc__, own.__module__ = fn.__qualname__, fn.__doc__, fn.__module__
    own.__dict__.update(fn.__dict__)
    return own


def _named(fn: Callable[..., Any], n: int) -> Callable[..., Any]:
    """``fn`` behind a function with ``n`` named positional parameters (and ``**kwargs``).

    Each wrapper gets a code object of its own (a numbered name), for the reason of
    :func:`_own_code`.
    """
    names = ", ".join(f"a{i}" for i in range(n))
    name = f"call_{next(_made)}"
    ns: dict[str, Any] = {"fn": fn}
    # a fixed template
    exec(f"def {name}({names}{', ' if n else ''}**kwargs):\n    return fn({names}{', ' if n else ''}**kwargs)\n", ns)
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
    return paddle.jit.to_static(_own_code(fn), **dict(options))
