"""Gradients over nests and function transforms, built on the backends' primitives
(``value_and_grad_flat``, ``vjp``, ``jvp``, ``jacobian``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .. import _tracking, nest
from .._dispatch import _infer
from ..errors import NoAutodiffError

__all__ = ["execute_with_gradients", "value_and_grad", "grad", "jac"]


def _backend(leaves: Sequence[Any], what: str) -> Any:
    b = _infer(what, {}, tuple(leaves), ())
    if not b.impl.autodiff:
        raise NoAutodiffError(
            f"ivy.{what} needs automatic differentiation, which the {b.name!r} backend does not have "
            "(the backends with it declare so: torch, jax, tensorflow and paddle do)"
        )
    return b


def execute_with_gradients(func: Callable[[Any], Any], xs: Any, /, *, retain_grads: bool = False) -> tuple[Any, ...]:
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
    leaves, structure = nest.tree_flatten(xs)
    b = _backend(leaves, "execute_with_gradients")
    updated: list[tuple[Any, str]] = []

    def flat_fn(ls: list[Any]) -> Any:
        prev = _tracking.capture_buffers(updated)
        try:
            out = func(nest.tree_unflatten(structure, ls))
        finally:
            _tracking.capture_buffers(prev)
        # buffers that layers updated leave the transform as outputs, not as values of its own
        buffers = [m._own_state[k] for m, k in updated]
        if isinstance(out, tuple):
            return out[0], (out[1:], buffers)
        return out, ((), buffers)

    y, grads, (extra, buffers) = b.calls["value_and_grad_flat"](flat_fn, leaves, has_aux=True)
    stop = b.calls["stop_gradient"]
    array_types = b.array_types

    def detach(a: Any) -> Any:  # the promise above, kept here rather than left to each plugin
        return stop(a) if isinstance(a, array_types) else a

    for (m, k), x in zip(updated, buffers):
        m._own_state[k] = detach(x)
    return (detach(y), nest.tree_unflatten(structure, grads), *nest.map(detach, tuple(extra)))


def value_and_grad(
    func: Callable[..., Any], /, *, argnums: int | Sequence[int] = 0, has_aux: bool = False
) -> Callable[..., Any]:
    """``func`` -> a function returning ``(value, grads)`` (``((value, aux), grads)`` with
    ``has_aux``); ``grads`` matches the nest of argument ``argnums`` (a tuple for several)."""
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        picked = [args[i] for i in nums]
        leaves, structure = nest.tree_flatten(picked)
        b = _backend(leaves, "value_and_grad")
        updated: list[tuple[Any, str]] = []

        def flat_fn(ls: list[Any]) -> Any:
            new = list(args)
            for i, v in zip(nums, nest.tree_unflatten(structure, ls)):
                new[i] = v
            prev = _tracking.capture_buffers(updated)
            try:
                out = func(*new, **kwargs)
            finally:
                _tracking.capture_buffers(prev)
            y, aux = out if has_aux else (out, None)
            return y, (aux, [m._own_state[k] for m, k in updated])  # buffers: see execute_with_gradients

        value, grads, (aux, buffers) = b.calls["value_and_grad_flat"](flat_fn, leaves, has_aux=True)
        stop = b.calls["stop_gradient"]
        for (m, k), x in zip(updated, buffers):
            m._own_state[k] = stop(x)
        g = nest.tree_unflatten(structure, grads)
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
