"""Gradients over nests and function transforms, built on the backends' primitives
(``value_and_grad_flat``, ``vjp``, ``jvp``, ``jacobian``)."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .. import nest
from .._dispatch import _infer

__all__ = ["execute_with_gradients", "value_and_grad", "grad", "jac"]


def _backend(leaves: Sequence[Any], what: str) -> Any:
    return _infer(what, {}, tuple(leaves), ())


def execute_with_gradients(
    func: Callable[[Any], Any], xs: Any, /, *, retain_grads: bool = False
) -> tuple[Any, ...]:
    """Calls ``func(xs)`` and differentiates its first output with respect to the nest ``xs``.

    As in the paper: ``func`` returns a scalar ``y`` or a tuple ``(y, *extra)``; the result is
    ``(y, grads, *extra)``, with ``grads`` in the same nest structure as ``xs`` (a dict, list,
    tuple or registered container of variables). ``y`` and the extra outputs are returned with
    their gradient history stopped.

    Args:
        func: the function to differentiate; takes the nest ``xs``.
        xs: a nest of variables (see :func:`ivy.variable`).
        retain_grads: keep the graph for another backward pass (torch; others ignore it).

    Raises:
        ivy.errors.NoAutodiffError: the backend has no automatic differentiation (NumPy).
    """
    leaves, structure = nest.flatten(xs)
    b = _backend(leaves, "execute_with_gradients")

    def flat_fn(ls: list[Any]) -> Any:
        out = func(nest.unflatten(structure, ls))
        if isinstance(out, tuple):
            return out[0], out[1:]
        return out, ()

    y, grads, extra = b.calls["value_and_grad_flat"](flat_fn, leaves, has_aux=True)
    stop = b.calls["stop_gradient"]
    array_types = b.array_types

    def detach(a: Any) -> Any:  # the promise above, kept here rather than left to each plugin
        return stop(a) if isinstance(a, array_types) else a

    return (detach(y), nest.unflatten(structure, grads), *nest.map(detach, tuple(extra)))


def value_and_grad(
    func: Callable[..., Any], /, *, argnums: int | Sequence[int] = 0, has_aux: bool = False
) -> Callable[..., Any]:
    """``func`` -> a function returning ``(value, grads)`` (``((value, aux), grads)`` with
    ``has_aux``); ``grads`` matches the nest of argument ``argnums`` (a tuple for several)."""
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        picked = [args[i] for i in nums]
        leaves, structure = nest.flatten(picked)
        b = _backend(leaves, "value_and_grad")

        def flat_fn(ls: list[Any]) -> Any:
            new = list(args)
            for i, v in zip(nums, nest.unflatten(structure, ls)):
                new[i] = v
            return func(*new, **kwargs)

        value, grads, aux = b.calls["value_and_grad_flat"](flat_fn, leaves, has_aux=has_aux)
        g = nest.unflatten(structure, grads)
        g = g[0] if isinstance(argnums, int) else tuple(g)
        return ((value, aux), g) if has_aux else (value, g)

    wrapped.__name__ = f"value_and_grad({getattr(func, '__name__', 'fn')})"
    return wrapped


def grad(func: Callable[..., Any], /, *, argnums: int | Sequence[int] = 0) -> Callable[..., Any]:
    """``func`` (returning a scalar) -> its gradient function with respect to ``argnums``."""
    vg = value_and_grad(func, argnums=argnums)

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        return vg(*args, **kwargs)[1]

    wrapped.__name__ = f"grad({getattr(func, '__name__', 'fn')})"
    return wrapped


def jac(func: Callable[..., Any], /, *, argnums: int | Sequence[int] = 0) -> Callable[..., Any]:
    """``func`` -> a function returning the Jacobian of ``func`` at its arguments."""

    def wrapped(*args: Any) -> Any:
        b = _backend(args, "jac")
        return b.calls["jacobian"](func, *args, argnums=argnums)

    wrapped.__name__ = f"jac({getattr(func, '__name__', 'fn')})"
    return wrapped
