"""The toolkit of plugin authors: what a backend plugin may use from core besides the contract
(:mod:`ivy.plugin`).

* :func:`composed`: core's default implementation of an op (written once against the Array API),
  to fall back to for the cases a framework lacks.
* :func:`touch_random_state`: what random ops call before they read a global random state that
  the plugin hands core as ``BackendImpl.random_state``.
"""

from __future__ import annotations

from typing import Any, Callable

from ._tracking import touch_random_state

__all__ = ["composed", "touch_random_state"]


def composed(name: str, backend: str) -> Callable[..., Any]:
    """Core's composed default of op ``name`` (``"linspace"``, ``"linalg.pinv"``...), running on
    the namespace of ``backend``: a function taking the op's arguments.

    A plugin calls it for the inputs its framework cannot handle, e.g.
    ``_linspace_arrays = composed("linspace", "torch")`` at import time, then
    ``return _linspace_arrays(start, stop, num, ...)`` for array endpoints. The namespace is
    looked up on the first call (it does not exist yet while the plugin loads).

    Raises:
        KeyError: core has no composed default of ``name`` (the known ones are named).
    """
    from ._compose import load_defaults

    defaults = load_defaults()
    if name not in defaults:
        raise KeyError(f"core has no composed default of {name!r}; it has: {', '.join(sorted(defaults))}")
    default = defaults[name]
    xp: Any = None

    def call(*args: Any, **kwargs: Any) -> Any:
        nonlocal xp
        if xp is None:
            from ._context import backend_namespace

            xp = backend_namespace(backend)
        return default(xp, *args, **kwargs)

    call.__name__ = call.__qualname__ = name.rpartition(".")[2]
    call.__doc__ = f"Core's composed default of {name!r} on the {backend!r} backend."
    return call
