"""Gradient primitives on torch.func, so that they compose (grad of grad, jvp of vjp...)."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import torch
import torch.func as _tf
from ivy import nest as _nest

try:
    from torch._C._functorch import maybe_current_level as _level
except ImportError:  # pragma: no cover - older/newer torch: treat every call as top level

    def _level() -> Any:
        return None

from ._helpers import Tensor

__all__ = ["variable", "is_variable", "stop_gradient", "value_and_grad_flat", "vjp", "jvp", "jacobian"]


def variable(x: Tensor, /) -> Tensor:
    if x.requires_grad and x.is_leaf:
        return x
    if x.grad_fn is not None:  # it has history: a fresh leaf that cannot disturb that graph
        return x.detach().clone().requires_grad_(True)
    return x.detach().requires_grad_(True)  # a new leaf sharing the storage; x keeps its flag


def is_variable(x: Any, /, *, exclusive: bool = False) -> bool:
    if not isinstance(x, Tensor) or not x.requires_grad:
        return False
    return x.is_leaf if exclusive else True


_functorch = torch._C._functorch


def stop_gradient(x: torch.Tensor, /) -> torch.Tensor:
    # A stopped value is a constant at every torch.func level; unwrapping the grad levels also
    # lets it outlive the transform (module state updated inside execute_with_gradients).
    y = x.detach()
    while _functorch.is_gradtrackingtensor(y):  # grad levels only: a vmap batch stays
        y = _functorch.get_unwrapped(y)
    return y.detach() if y.requires_grad else y


def _scalar(y: Any) -> Tensor:
    if not isinstance(y, Tensor) or y.ndim != 0:
        shape = tuple(y.shape) if isinstance(y, Tensor) else type(y).__name__
        raise ValueError(f"value_and_grad_flat: func must return a scalar (0-d) array, got {shape}")
    return y


def value_and_grad_flat(
    func: Callable[..., Any], xs: Sequence[Tensor], /, *, has_aux: bool = False
) -> tuple[Tensor, list[Tensor], Any]:
    # torch.func passes only tensors through `aux`: the other leaves of aux wait in `kept`
    kept: dict[str, Any] = {}

    def f(ls: tuple[Tensor, ...]) -> tuple[Tensor, tuple[Tensor, tuple[Tensor, ...]]]:
        out = func(list(ls))
        if has_aux:
            y, aux = out
            leaves, kept["structure"] = _nest.flatten(aux)
            kept["leaves"] = leaves
            tensors = tuple(v for v in leaves if isinstance(v, Tensor))
        else:
            y, tensors = out, ()
        y = _scalar(y)
        return y, (y, tensors)

    grads, (value, tensors) = _tf.grad(f, has_aux=True)(tuple(xs))
    grads = list(grads)
    if _level() is None:
        # Outside every torch.func transform: cut the link to ordinary autograd (inputs that
        # require grad). Inside one, the outer transform must still see the values, so that
        # grad-of-grad works; torch.func has already removed the inner level.
        value = value.detach()
        grads = [g.detach() for g in grads]
        tensors = tuple(v.detach() for v in tensors)
    aux = None
    if has_aux:
        it = iter(tensors)
        leaves = [next(it) if isinstance(v, Tensor) else v for v in kept["leaves"]]
        aux = _nest.unflatten(kept["structure"], leaves)
    return value, grads, aux


def vjp(func: Callable[..., Any], /, *primals: Tensor) -> tuple[Any, Callable[..., Any]]:
    out, fn = _tf.vjp(func, *primals)

    def vjp_fn(cotangents: Any) -> tuple[Tensor, ...]:
        return tuple(fn(cotangents))

    return out, vjp_fn


def jvp(func: Callable[..., Any], primals: Sequence[Tensor], tangents: Sequence[Tensor], /) -> tuple[Any, Any]:
    primals, tangents = tuple(primals), tuple(tangents)
    if len(primals) != len(tangents):
        raise ValueError(f"jvp: {len(primals)} primals but {len(tangents)} tangents")
    for i, (p, t) in enumerate(zip(primals, tangents)):
        if tuple(p.shape) != tuple(t.shape):
            raise ValueError(f"jvp: primal {i} has shape {tuple(p.shape)} but its tangent {tuple(t.shape)}")
    return _tf.jvp(func, primals, tangents)


def jacobian(func: Callable[..., Any], /, *primals: Tensor, argnums: int | Sequence[int] = 0) -> Tensor | tuple[Tensor, ...]:
    n = len(primals)

    def norm(a: Any) -> int:
        a = operator.index(a)
        if not -n <= a < n:
            raise IndexError(f"jacobian: argnums {a} is out of range for {n} primals")
        return a % n

    nums: int | tuple[int, ...] = norm(argnums) if not isinstance(argnums, Sequence) else tuple(norm(a) for a in argnums)
    return _tf.jacrev(func, argnums=nums)(*primals)
