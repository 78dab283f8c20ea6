"""Gradient primitives on ``tf.GradientTape`` and ``tf.autodiff.ForwardAccumulator``.

Tapes nest: a transform called inside another one (grad of grad, jvp of grad, the jacobian of a
grad) is recorded by the outer tape, so the transforms compose. Nothing is detached: in eager TF a
tensor carries no link to a computation unless an outer tape is recording, and then the outer
transform needs the link.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import tensorflow as tf

from ivy import nest as _nest

from ._helpers import tensor

__all__ = ["variable", "is_variable", "stop_gradient", "value_and_grad_flat", "vjp", "jvp", "jacobian"]

_ZERO = tf.UnconnectedGradients.ZERO
_TENSORS = (tf.Tensor, tf.Variable)


def variable(x: Any, /) -> tf.Variable:
    if isinstance(x, tf.Variable) and x.trainable:
        return x
    return tf.Variable(tensor(x))


def is_variable(x: Any, /, *, exclusive: bool = False) -> bool:
    # TF has a distinct variable kind: only a (trainable) tf.Variable counts, exclusive or not
    # (the spec counts every floating array only on frameworks without such a kind)
    return isinstance(x, tf.Variable) and bool(x.trainable)


def stop_gradient(x: Any, /) -> tf.Tensor:
    return tf.stop_gradient(x)


def _dense(g: Any, like: Any) -> Any:
    if g is None:
        return tf.zeros_like(like)
    if isinstance(g, tf.IndexedSlices):  # the gradient of a gather: densify to the input's shape
        return tf.convert_to_tensor(g)
    return g


def _scalar(y: Any) -> Any:
    if not isinstance(y, _TENSORS) or y.shape.rank != 0:
        shape = tuple(y.shape) if isinstance(y, _TENSORS) else type(y).__name__
        raise ValueError(f"value_and_grad_flat: func must return a scalar (0-d) array, got {shape}")
    return y


def value_and_grad_flat(
    func: Callable[..., Any], xs: Sequence[Any], /, *, has_aux: bool = False
) -> tuple[Any, list[Any], Any]:
    xs = [x if isinstance(x, _TENSORS) else tensor(x) for x in xs]
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        for x in xs:
            tape.watch(x)
        out = func(list(xs))
        y, aux = out if has_aux else (out, None)
        y = _scalar(y)
    grads = tape.gradient(y, xs, unconnected_gradients=_ZERO)
    value = y.read_value() if isinstance(y, tf.Variable) else y
    return value, [_dense(g, x) for g, x in zip(grads, xs)], aux


def _flat(out: Any) -> list[Any]:
    return list(out) if isinstance(out, (tuple, list)) else [out]


def vjp(func: Callable[..., Any], /, *primals: Any) -> tuple[Any, Callable[..., Any]]:
    primals = tuple(p if isinstance(p, _TENSORS) else tensor(p) for p in primals)
    with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        for p in primals:
            tape.watch(p)
        out = func(*primals)

    def vjp_fn(cotangents: Any) -> tuple[Any, ...]:
        targets = _flat(out)
        cts = _flat(cotangents)
        if len(cts) != len(targets):
            raise ValueError(f"vjp: {len(targets)} outputs but {len(cts)} cotangents")
        cts = [
            tf.cast(c, t.dtype) if isinstance(c, _TENSORS) and c.dtype != t.dtype else c for c, t in zip(cts, targets)
        ]
        grads = tape.gradient(targets, list(primals), output_gradients=cts, unconnected_gradients=_ZERO)
        return tuple(_dense(g, p) for g, p in zip(grads, primals))

    return out, vjp_fn


def jvp(func: Callable[..., Any], primals: Sequence[Any], tangents: Sequence[Any], /) -> tuple[Any, Any]:
    primals = tuple(p if isinstance(p, _TENSORS) else tensor(p) for p in primals)
    tangents = tuple(t if isinstance(t, _TENSORS) else tensor(t) for t in tangents)
    if len(primals) != len(tangents):
        raise ValueError(f"jvp: {len(primals)} primals but {len(tangents)} tangents")
    for i, (p, t) in enumerate(zip(primals, tangents)):
        if tuple(p.shape) != tuple(t.shape):
            raise ValueError(f"jvp: primal {i} has shape {tuple(p.shape)} but its tangent {tuple(t.shape)}")
    tangents = tuple(t if t.dtype == p.dtype else tf.cast(t, p.dtype) for p, t in zip(primals, tangents))
    with tf.autodiff.ForwardAccumulator(primals, tangents) as acc:
        out = func(*primals)
    tout = _nest.map(lambda o: acc.jvp(o, unconnected_gradients=_ZERO), out)
    return out, tout


def jacobian(func: Callable[..., Any], /, *primals: Any, argnums: int | Sequence[int] = 0) -> Any:
    n = len(primals)

    def norm(a: Any) -> int:
        a = operator.index(a)
        if not -n <= a < n:
            raise IndexError(f"jacobian: argnums {a} is out of range for {n} primals")
        return a % n

    single = not isinstance(argnums, Sequence)
    nums = [norm(argnums)] if single else [norm(a) for a in argnums]  # type: ignore[union-attr]
    primals = tuple(p if isinstance(p, _TENSORS) else tensor(p) for p in primals)
    with tf.GradientTape(persistent=len(nums) > 1, watch_accessed_variables=False) as tape:
        for i in nums:
            tape.watch(primals[i])
        out = func(*primals)
    jacs = []
    for i in nums:
        j = tape.jacobian(out, primals[i], unconnected_gradients=_ZERO)
        jacs.append(_dense(j, primals[i]) if j is not None else j)
    return jacs[0] if single else tuple(jacs)
