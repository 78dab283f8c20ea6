"""Gradients through ``mxnet.autograd``.

The transforms differentiate fresh copies of their inputs, each marked with ``attach_grad``, run
the function under ``autograd.record()`` and propagate back with ``autograd.backward``: the
caller's arrays keep their own gradient state. MXNet has reverse mode only, so ``jvp`` and
``jacobian`` take one backward pass per element of the output (exact, and cheap for the small
outputs they are used on). MXNet's higher-order gradients cover few operators: the transforms
do not nest (a transform inside another one's function raises a clear error).

Variables are not a distinct kind here (as in JAX): ``variable`` returns its input, every
floating-point array counts as one, and the transforms attach the gradient buffers they need.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

from ivy import nest as _nest

from ._dtypes import FLOATS
from ._framework import Array, autograd, mnp, mx
from ._helpers import np_array

__all__ = ["variable", "is_variable", "stop_gradient", "value_and_grad_flat", "vjp", "jvp", "jacobian"]


def variable(x: Array, /) -> Array:
    return x


def is_variable(x: Any, /, *, exclusive: bool = False) -> bool:
    if exclusive or not isinstance(x, Array):
        return False
    return x.dtype in FLOATS


def stop_gradient(x: Array, /) -> Array:
    return x.detach()


def _not_nested(name: str) -> None:
    if autograd.is_recording():
        raise NotImplementedError(
            f"ivy.{name} on the 'mxnet' backend cannot run inside another gradient transform: MXNet 1.9 "
            "differentiates a gradient computation (higher-order gradients) for few operators"
        )


def _leaves(xs: Sequence[Any], name: str) -> list[Any]:
    out = []
    for i, x in enumerate(xs):
        x = np_array(x)
        if not isinstance(x, Array):
            raise TypeError(f"ivy.{name}: input {i} is a {type(x).__name__}, not an mxnet.numpy array")
        leaf = x.copy()  # a fresh leaf: the caller's array keeps its own gradient state
        leaf.attach_grad()
        out.append(leaf)
    return out


def _zero(leaves: Sequence[Any]) -> None:
    for leaf in leaves:
        g = leaf.grad
        if g.size:
            g[() if g.ndim == 0 else ...] = 0  # (MXNet indexes 0-d arrays with () only)


def _backward(outs: Sequence[Any], cots: Sequence[Any], leaves: Sequence[Any]) -> list[Any]:
    """The sum over outputs ``outs`` of their cotangents ``cots`` times their Jacobians: one
    gradient per leaf. One backward pass per output, its gradients written (MXNet's "add" request
    is refused by some operators' backward, moveaxis's); an output that depends on no leaf (not
    in the recorded graph) contributes nothing."""
    total: list[Any] = [None] * len(leaves)
    for o, c in zip(outs, cots):
        _zero(leaves)
        try:
            autograd.backward([o], [c], retain_graph=True)
        except mx.base.MXNetError as e:
            if "not in a computational graph" not in str(e):
                raise
            continue
        for i, leaf in enumerate(leaves):
            total[i] = leaf.grad.copy() if total[i] is None else total[i] + leaf.grad
    return [mnp.zeros_like(leaf) if t is None else t for t, leaf in zip(total, leaves)]


def _detach_tree(tree: Any) -> Any:
    leaves, structure = _nest.tree_flatten(tree)
    return _nest.tree_unflatten(structure, [v.detach() if isinstance(v, Array) else v for v in leaves])


def value_and_grad_flat(
    func: Callable[..., Any], xs: Sequence[Array], /, *, has_aux: bool = False
) -> tuple[Array, list[Array], Any]:
    _not_nested("value_and_grad_flat")
    leaves = _leaves(xs, "value_and_grad_flat")
    with autograd.record():
        out = func(leaves)
    y, aux = out if has_aux else (out, None)
    y = np_array(y)
    if not isinstance(y, Array) or y.ndim != 0:
        shape = y.shape if isinstance(y, Array) else type(y).__name__
        raise ValueError(f"ivy.value_and_grad_flat: func must return a scalar (0-d) array, got {shape}")
    grads = _backward([y], [mnp.ones((), dtype=y.dtype, ctx=y.ctx)], leaves)
    return y.detach(), grads, (_detach_tree(aux) if has_aux else None)


def _flat_outputs(out: Any, name: str) -> tuple[list[Any], bool]:
    """The outputs of a function as a list, and whether it returned a tuple."""
    if isinstance(out, (tuple, list)):
        outs = [np_array(o) for o in out]
        single = False
    else:
        outs, single = [np_array(out)], True
    for o in outs:
        if not isinstance(o, Array):
            raise TypeError(f"ivy.{name}: func must return mxnet.numpy arrays, got a {type(o).__name__}")
    return outs, single


def vjp(func: Callable[..., Any], /, *primals: Array) -> tuple[Any, Callable[..., Any]]:
    _not_nested("vjp")
    leaves = _leaves(primals, "vjp")
    with autograd.record():
        out = func(*leaves)
    outs, single = _flat_outputs(out, "vjp")

    def vjp_fn(cotangents: Any) -> tuple[Array, ...]:
        cots = [cotangents] if single else list(cotangents)
        if len(cots) != len(outs):
            raise ValueError(f"vjp_fn: {len(cots)} cotangents for {len(outs)} outputs")
        cots = [np_array(c) for c in cots]
        for o, c in zip(outs, cots):
            if tuple(c.shape) != tuple(o.shape):
                raise ValueError(f"vjp_fn: a cotangent of shape {tuple(c.shape)} for an output of shape {o.shape}")
        return tuple(_backward(outs, [c.astype(o.dtype) for o, c in zip(outs, cots)], leaves))

    detached = [o.detach() for o in outs]
    return (detached[0] if single else tuple(detached)), vjp_fn


def _rows(outs: Sequence[Any], leaves: Sequence[Any]) -> list[list[Any]]:
    """For every element of every output, the gradients of that element with respect to each
    leaf (one backward pass each): ``rows[k][i]`` for flat output element ``k`` and leaf ``i``."""
    rows = []
    for o in outs:
        for j in range(o.size):
            e = mnp.zeros((o.size,), dtype=o.dtype, ctx=o.ctx)
            e[j] = 1
            rows.append(_backward([o], [e.reshape(o.shape)], leaves))
    return rows


def jvp(func: Callable[..., Any], primals: Sequence[Array], tangents: Sequence[Array], /) -> tuple[Any, Any]:
    _not_nested("jvp")
    primals, tangents = list(primals), list(tangents)
    if len(primals) != len(tangents):
        raise ValueError(f"ivy.jvp: {len(primals)} primals but {len(tangents)} tangents")
    for i, (p, t) in enumerate(zip(primals, tangents)):
        if tuple(p.shape) != tuple(t.shape):
            raise ValueError(f"ivy.jvp: primal {i} has shape {tuple(p.shape)} but its tangent {tuple(t.shape)}")
    leaves = _leaves(primals, "jvp")
    with autograd.record():
        out = func(*leaves)
    outs, single = _flat_outputs(out, "jvp")
    rows = _rows(outs, leaves)
    touts, k = [], 0
    for o in outs:
        vals = []
        for _ in range(o.size):
            # (J t)_k = sum over inputs of <d out_k / d input, tangent>
            vals.append(sum(mnp.sum(g * np_array(t).astype(g.dtype)) for g, t in zip(rows[k], tangents)))
            k += 1
        t_out = mnp.stack(vals).reshape(o.shape) if vals else mnp.zeros(o.shape, dtype=o.dtype, ctx=o.ctx)
        touts.append(t_out.astype(o.dtype))
    detached = [o.detach() for o in outs]
    if single:
        return detached[0], touts[0]
    return tuple(detached), tuple(touts)


def jacobian(
    func: Callable[..., Any], /, *primals: Array, argnums: int | Sequence[int] = 0
) -> Array | tuple[Array, ...]:
    _not_nested("jacobian")
    n = len(primals)

    def norm(a: Any) -> int:
        a = operator.index(a)
        if not -n <= a < n:
            raise IndexError(f"ivy.jacobian: argnums {a} is out of range for {n} primals")
        return a % n

    many = not isinstance(argnums, int)
    nums = [norm(a) for a in argnums] if many else [norm(argnums)]  # type: ignore[union-attr]
    leaves = _leaves(primals, "jacobian")
    with autograd.record():
        out = func(*leaves)
    outs, single = _flat_outputs(out, "jacobian")
    if not single:
        raise TypeError("ivy.jacobian: func must return one array")
    (o,) = outs
    rows = _rows(outs, leaves)
    jacs = []
    for i in nums:
        shape = tuple(o.shape) + tuple(leaves[i].shape)
        if rows:
            jacs.append(mnp.stack([r[i] for r in rows]).reshape(shape))
        else:
            jacs.append(mnp.zeros(shape, dtype=leaves[i].dtype, ctx=leaves[i].ctx))
    return tuple(jacs) if many else jacs[0]
