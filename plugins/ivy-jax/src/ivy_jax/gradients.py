"""Gradient primitives on JAX's function transforms (``jax.value_and_grad``, ``jax.vjp``,
``jax.jvp``, ``jax.jacrev``): they work under ``jax.jit`` and compose (grad of grad, jvp of grad).

JAX differentiates functions with respect to their arguments; arrays are immutable values with
no gradient state of their own. So ``variable`` is the identity, and nothing needs detaching:
results of a transform never hold a link to the computation.

Importing this module (when the backend loads) also registers ``ivy.Container``, where core has
it, as a JAX pytree, so that Containers pass through ``jax.jit``, ``jax.grad`` and friends.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp

from ivy import nest as _nest

__all__ = ["variable", "is_variable", "stop_gradient", "value_and_grad_flat", "vjp", "jvp", "jacobian"]

_Array = jax.Array


def _register_container() -> None:
    try:
        from ivy import Container
        from ivy.plugin_kit import pytree_flatten, pytree_unflatten
    except ImportError:  # a core without ivy.Container
        return
    try:
        jax.tree_util.register_pytree_node(Container, pytree_flatten, pytree_unflatten)
    except ValueError:  # already registered (the module was reloaded)
        pass


_register_container()


def variable(x: _Array, /) -> _Array:
    # JAX arrays are values: the transforms differentiate with respect to function arguments, so
    # there is nothing to mark (and no mutable "variable" kind to create).
    return x


def is_variable(x: Any, /, *, exclusive: bool = False) -> bool:
    # JAX has no distinct variable kind: with `exclusive` nothing counts; without it, every
    # floating-point (real or complex) array does, as the spec says for such frameworks.
    if exclusive:
        return False
    return isinstance(x, _Array) and jnp.issubdtype(x.dtype, jnp.inexact)  # bfloat16 too


stop_gradient = jax.lax.stop_gradient


def value_and_grad_flat(
    func: Callable[..., Any], xs: Sequence[_Array], /, *, has_aux: bool = False
) -> tuple[_Array, list[_Array], Any]:
    # Only the arrays of `aux` go through JAX (as its aux output); the nest and the other leaves
    # wait in `kept`: JAX's pytrees would sort dict keys and refuse arbitrary objects.
    kept: dict[str, Any] = {}

    def f(ls: list[_Array]) -> tuple[_Array, list[_Array]]:
        out = func(list(ls))
        arrays: list[_Array] = []
        if has_aux:
            y, aux = out
            kept["leaves"], kept["structure"] = _nest.tree_flatten(aux)
            arrays = [v for v in kept["leaves"] if isinstance(v, _Array)]
        else:
            y = out
        if not isinstance(y, _Array) or y.ndim != 0:
            shape = tuple(y.shape) if hasattr(y, "shape") else type(y).__name__
            raise ValueError(f"value_and_grad_flat: func must return a scalar (0-d) array, got {shape}")
        return y, arrays

    # No stop_gradient on the results: inside an outer transform (grad of grad) they must stay
    # differentiable, and outside one a JAX array holds no graph anyway.
    (value, arrays), grads = jax.value_and_grad(f, has_aux=True)(list(xs))
    aux = None
    if has_aux:
        it = iter(arrays)
        aux = _nest.tree_unflatten(
            kept["structure"], [next(it) if isinstance(v, _Array) else v for v in kept["leaves"]]
        )
    return value, list(grads), aux


def vjp(func: Callable[..., Any], /, *primals: _Array) -> tuple[Any, Callable[..., Any]]:
    out, fn = jax.vjp(func, *primals)
    tuple_out = isinstance(out, tuple)

    def vjp_fn(cotangents: Any) -> tuple[_Array, ...]:
        if tuple_out and isinstance(cotangents, list):  # JAX wants the exact pytree kind
            cotangents = tuple(cotangents)
        return tuple(fn(cotangents))

    return out, vjp_fn


def jvp(func: Callable[..., Any], primals: Sequence[_Array], tangents: Sequence[_Array], /) -> tuple[Any, Any]:
    primals, tangents = tuple(primals), tuple(tangents)
    if len(primals) != len(tangents):
        raise ValueError(f"jvp: {len(primals)} primals but {len(tangents)} tangents")
    fixed = []
    for i, (p, t) in enumerate(zip(primals, tangents)):
        if jnp.shape(p) != jnp.shape(t):
            raise ValueError(f"jvp: primal {i} has shape {jnp.shape(p)} but its tangent {jnp.shape(t)}")
        if isinstance(t, _Array) and isinstance(p, _Array) and t.dtype != p.dtype:
            t = t.astype(p.dtype)  # JAX insists on equal dtypes; the spec asks for the primal's
        fixed.append(t)
    return jax.jvp(func, primals, tuple(fixed))


def jacobian(
    func: Callable[..., Any], /, *primals: _Array, argnums: int | Sequence[int] = 0
) -> _Array | tuple[_Array, ...]:
    n = len(primals)

    def norm(a: Any) -> int:
        a = operator.index(a)
        if not -n <= a < n:
            raise IndexError(f"jacobian: argnums {a} is out of range for {n} primals")
        return a % n

    nums: int | tuple[int, ...] = (
        norm(argnums) if not isinstance(argnums, Sequence) else tuple(norm(a) for a in argnums)
    )
    return jax.jacrev(func, argnums=nums)(*primals)
