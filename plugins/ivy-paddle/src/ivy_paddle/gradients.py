"""Gradient primitives on paddle's dynamic-graph autograd (``paddle.grad``).

Paddle has no functional transforms: every primitive here runs ``func`` on inputs with
``stop_gradient=False`` and differentiates with ``paddle.grad``. Nesting (grad of grad, jvp of
grad...) works through a depth counter: a transform that runs inside another one's ``func`` keeps
its graph (``create_graph=True``) and does not cut its results off, so that the outer transform
can differentiate through them; at the top level results are detached.

``jvp`` uses the double-vjp trick: ``g(u) = u^T J`` is linear in a dummy cotangent ``u``, and its
vjp with the tangent ``t`` is ``J t``.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Sequence
from typing import Any

from ivy import nest as _nest

from ._dtypes import FLOATS
from ._framework import Tensor, paddle

__all__ = ["variable", "is_variable", "stop_gradient", "value_and_grad_flat", "vjp", "jvp", "jacobian"]

#: How many transforms are running around the current call (their ``func`` is on the stack).
_DEPTH = 0

_run_partial_grad = getattr(getattr(paddle.base.core, "eager", None), "run_partial_grad", None)
_in_dygraph = paddle.base.framework.in_dygraph_mode
_in_to_static = paddle.base.dygraph.base.in_to_static_mode
_grad_enabled = paddle.is_grad_enabled


def _eager_mode() -> bool:
    # paddle.grad's own test: under paddle.jit.to_static it builds static gradients instead
    return _run_partial_grad is not None and _in_dygraph() and not _in_to_static()


def _differentiating(transform: Callable[..., Any]) -> Callable[..., Any]:
    """``transform``, differentiating under ``paddle.no_grad()`` too, as ``torch.func.grad`` does
    (paddle records no graph there: its gradients would be zeros, silently)."""

    @functools.wraps(transform)
    def run(*args: Any, **kwargs: Any) -> Any:
        if _grad_enabled():
            return transform(*args, **kwargs)
        with paddle.enable_grad():
            return transform(*args, **kwargs)

    return run


class _Nested:
    def __enter__(self) -> None:
        global _DEPTH
        _DEPTH += 1

    def __exit__(self, *exc: Any) -> None:
        global _DEPTH
        _DEPTH -= 1


def variable(x: Tensor, /) -> Tensor:
    if not x.stop_gradient and x.is_leaf:
        return x
    v = x.detach().clone()  # a fresh leaf: x keeps its own flag and history
    v.stop_gradient = False
    return v


def is_variable(x: Any, /, *, exclusive: bool = False) -> bool:
    if not isinstance(x, Tensor) or x.stop_gradient:
        return False
    return bool(x.is_leaf) if exclusive else True


def stop_gradient(x: Tensor, /) -> Tensor:
    return x.detach()


def _inputs(xs: Sequence[Any]) -> list[Tensor]:
    """Tensors to differentiate with respect to. Inside another transform a tracked input is used
    as it is (the outer transform must see through); otherwise a fresh leaf."""
    out = []
    for x in xs:
        if not isinstance(x, Tensor):
            x = paddle.to_tensor(x)
        if _DEPTH > 0 and not x.stop_gradient:
            out.append(x)
        else:
            v = x.detach()
            v.stop_gradient = False
            out.append(v)
    return out


def _grads(
    ys: list[Tensor], xs: list[Tensor], cts: list[Tensor] | None, keep: bool, retain: bool = False
) -> list[Tensor]:
    """d(ys . cts)/dxs, zeros for the inputs the outputs do not depend on."""
    pairs = [(y, c) for y, c in zip(ys, cts or [None] * len(ys)) if not y.stop_gradient]
    if not pairs:
        gs: list[Any] = [None] * len(xs)
    else:
        outs = [y for y, _ in pairs]
        gos = None if cts is None else [c if c is None or c.dtype == y.dtype else c.astype(y.dtype) for y, c in pairs]
        gs = paddle.grad(
            outs,
            xs,
            grad_outputs=gos,
            retain_graph=True if (keep or retain) else None,
            create_graph=keep,
            allow_unused=True,
        )
    res = []
    for g, x in zip(gs, xs):
        if g is None:
            g = paddle.zeros_like(x)
        elif not keep and not g.stop_gradient:  # (paddle.grad without create_graph gives detached ones)
            g = g.detach()
        res.append(g)
    return res


def _may_hold_tensors(tree: Any) -> bool:
    t = type(tree)
    if t is tuple or t is list or t is dict:
        for v in tree.values() if t is dict else tree:  # (a loop: any() of a generator costs more)
            if _may_hold_tensors(v):
                return True
        return False
    return not (tree is None or t is bool or t is int or t is float or t is str)  # others: maybe


def _detach_tree(tree: Any) -> Any:
    if not _may_hold_tensors(tree):  # (an emitted graph's auxiliary output is often (None, []))
        return tree
    leaves, s = _nest.tree_flatten(tree)
    return _nest.tree_unflatten(s, [v.detach() if isinstance(v, Tensor) else v for v in leaves])


@_differentiating
def value_and_grad_flat(
    func: Callable[..., Any], xs: Sequence[Tensor], /, *, has_aux: bool = False
) -> tuple[Tensor, list[Tensor], Any]:
    global _DEPTH
    keep = _DEPTH > 0
    inputs = _inputs(xs)
    _DEPTH += 1  # (as _Nested, without a context manager's two calls: this runs per training step)
    try:
        out = func(list(inputs))
    finally:
        _DEPTH -= 1
    y, aux = out if has_aux else (out, None)
    if not isinstance(y, Tensor) or y.ndim != 0:
        shape = tuple(y.shape) if isinstance(y, Tensor) else type(y).__name__
        raise ValueError(f"value_and_grad_flat: func must return a scalar (0-d) array, got {shape}")
    if keep:
        return y, _grads([y], inputs, None, keep), aux
    # the top-level call (a training step's): one paddle.grad, as a hand-written step makes it
    if y.stop_gradient:
        grads = [paddle.zeros_like(x) for x in inputs]
    else:
        grads = _top_grad(y, inputs)
        for g in grads:
            if g is None:  # (not `None in grads`: that compares tensors with ==)
                grads = [paddle.zeros_like(x) if g is None else g for g, x in zip(grads, inputs)]
                break
    return y.detach(), grads, _detach_tree(aux) if has_aux and aux is not None else aux


#: paddle.grad's own C call (``core.eager.run_partial_grad``) where this paddle has it as below:
#: None until tried, then True or False.
_PARTIAL_GRAD: list[bool | None] = [None]


def _top_grad(y: Tensor, inputs: list[Tensor]) -> list[Any]:
    """``paddle.grad(y, inputs, allow_unused=True)`` in dynamic mode: paddle.grad's own C call
    with the arguments it would pass, without its Python checks and decorators (several µs of a
    small training step; this is the gradient of every eager step and emitted loss program)."""
    if _PARTIAL_GRAD[0] is not False and _run_partial_grad is not None and _eager_mode():
        try:
            # (outputs, inputs, grad outputs, retain graph, create graph, only inputs, allow
            # unused, no-grad vars, dump path): paddle.grad's defaults, allow_unused=True
            gs = _run_partial_grad([y], inputs, [], False, False, True, True, [], None)
            _PARTIAL_GRAD[0] = True
            return gs
        except TypeError:  # another paddle's signature (checked before anything runs): never again
            if _PARTIAL_GRAD[0] is not None:
                raise
            _PARTIAL_GRAD[0] = False
    return paddle.grad(y, inputs, allow_unused=True)


def _as_list(out: Any) -> tuple[list[Tensor], bool]:
    if isinstance(out, (tuple, list)):
        return list(out), True
    return [out], False


@_differentiating
def vjp(func: Callable[..., Any], /, *primals: Tensor) -> tuple[Any, Callable[..., Any]]:
    keep_at_call = _DEPTH > 0
    inputs = _inputs(primals)
    with _Nested():
        out = func(*inputs)
    ys, multi = _as_list(out)

    def vjp_fn(cotangents: Any) -> tuple[Tensor, ...]:
        cts, _ = _as_list(cotangents) if multi else ([cotangents], False)
        if len(cts) != len(ys):
            raise ValueError(f"vjp: {len(ys)} outputs but {len(cts)} cotangents")
        cts = [c if isinstance(c, Tensor) else paddle.to_tensor(c, dtype=y.dtype) for c, y in zip(cts, ys)]
        return tuple(_grads(ys, inputs, cts, _DEPTH > 0, retain=True))

    if not keep_at_call:
        out = _detach_tree(out)
    return out, vjp_fn


@_differentiating
def jvp(func: Callable[..., Any], primals: Sequence[Tensor], tangents: Sequence[Tensor], /) -> tuple[Any, Any]:
    primals, tangents = list(primals), list(tangents)
    if len(primals) != len(tangents):
        raise ValueError(f"jvp: {len(primals)} primals but {len(tangents)} tangents")
    for i, (p, t) in enumerate(zip(primals, tangents)):
        if list(p.shape) != list(t.shape):
            raise ValueError(f"jvp: primal {i} has shape {list(p.shape)} but its tangent {list(t.shape)}")
    keep = _DEPTH > 0
    inputs = _inputs(primals)
    with _Nested():
        out = func(*inputs)
    ys, multi = _as_list(out)
    try:
        tg = _jvp_double_vjp(ys, inputs, tangents, keep)
    except RuntimeError:
        # the trick differentiates a backward pass once more; where paddle lacks that kernel
        # (e.g. the triple grad of tanh inside jvp(grad(f))), build J t row by row from vjps
        tg = _jvp_rows(ys, inputs, tangents, keep)
    touts = [paddle.zeros_like(y) if d is None else (d if keep else d.detach()) for d, y in zip(tg, ys)]
    if not keep:
        ys = [y.detach() for y in ys]
    if multi:
        return type(out)(ys) if isinstance(out, tuple) else ys, type(out)(touts) if isinstance(out, tuple) else touts
    return ys[0], touts[0]


def _jvp_double_vjp(ys: list[Tensor], inputs: list[Tensor], tangents: list[Tensor], keep: bool) -> list[Any]:
    # u -> u^T J (linear in a dummy cotangent u), then its vjp with the tangents: J t
    us = []
    for y in ys:
        u = paddle.zeros_like(y)
        u.stop_gradient = False
        us.append(u)
    live = [(y, u) for y, u in zip(ys, us) if not y.stop_gradient]
    if not live:
        return [None] * len(ys)
    g = paddle.grad(
        [y for y, _ in live],
        inputs,
        grad_outputs=[u for _, u in live],
        create_graph=True,
        retain_graph=True,
        allow_unused=True,
    )
    pairs = [(gi, t) for gi, t in zip(g, tangents) if gi is not None and not gi.stop_gradient]
    if not pairs:
        return [None] * len(ys)
    return list(
        paddle.grad(
            [gi for gi, _ in pairs],
            us,
            grad_outputs=[t if t.dtype == gi.dtype else t.astype(gi.dtype) for gi, t in pairs],
            create_graph=keep,
            retain_graph=True,
            allow_unused=True,
        )
    )


def _jvp_rows(ys: list[Tensor], inputs: list[Tensor], tangents: list[Tensor], keep: bool) -> list[Any]:
    out: list[Any] = []
    for y in ys:
        if y.stop_gradient:
            out.append(None)
            continue
        flat = y.reshape([-1])
        vals = []
        for i in range(flat.shape[0]):
            row = _grads([flat[i]], inputs, None, keep, retain=True)
            vals.append(sum((r * t.astype(r.dtype)).sum() for r, t in zip(row, tangents)))
        out.append(paddle.stack(vals).reshape(y.shape) if vals else paddle.zeros_like(y))
    return out


@_differentiating
def jacobian(
    func: Callable[..., Any], /, *primals: Tensor, argnums: int | Sequence[int] = 0
) -> Tensor | tuple[Tensor, ...]:
    n = len(primals)

    def norm(a: Any) -> int:
        a = operator.index(a)
        if not -n <= a < n:
            raise IndexError(f"jacobian: argnums {a} is out of range for {n} primals")
        return a % n

    single = not isinstance(argnums, Sequence)
    nums = [norm(argnums)] if single else [norm(a) for a in argnums]  # type: ignore[union-attr]
    keep = _DEPTH > 0
    inputs = _inputs(primals)
    with _Nested():
        y = func(*inputs)
    if not isinstance(y, Tensor):
        raise ValueError("jacobian: func must return one array")
    wrt = [inputs[i] for i in nums]
    flat = y.reshape([-1])
    m = flat.shape[0]
    rows: list[list[Tensor]] = [[] for _ in wrt]
    for i in range(m):
        gs = _grads([flat[i]], wrt, None, keep, retain=True)
        for r, g in zip(rows, gs):
            r.append(g)
    out = []
    for r, x in zip(rows, wrt):
        shape = list(y.shape) + list(x.shape)
        if m:
            j = paddle.stack(r, 0).reshape(shape)
        else:
            j = paddle.zeros(shape, dtype=x.dtype)
        out.append(j)
    return out[0] if single else tuple(out)


def _fusable(w: Any, g: Any, m: Any, v: Any) -> bool:
    if not all(isinstance(t, Tensor) for t in (w, g, m, v)):
        return False
    dt = w.dtype
    if id(dt) not in FLOATS or not (g.dtype is dt and m.dtype is dt and v.dtype is dt):
        return False  # (`is`: paddle dtypes are singletons, and `==` on them is slow)
    if not (w.shape == g.shape == m.shape == v.shape):
        return False
    # new moments that track gradients must keep their history: the unfused formula does that
    return g.stop_gradient and m.stop_gradient and v.stop_gradient


#: Whether paddle's own fused Adam kernel (``_C_ops.adam_``, what ``paddle.optimizer.Adam``
#: runs) takes the arguments below: None until tried, then True or False (another paddle version).
_C_ADAM: list[bool | None] = [None]


def _adam_c(
    w: Tensor,
    g: Tensor,
    m: Tensor,
    v: Tensor,
    scalars: Sequence[Tensor],
    beta1: float,
    beta2: float,
    epsilon: float,
    owned_moments: bool,
) -> tuple[Tensor, Tensor, Tensor]:
    # The kernel updates param and moments in place: it is handed a copy of w, and of the
    # moments unless the caller owns them. `scalars` (lr, β1^step, β2^step) are shared by every
    # leaf of one update: with the "global β pow" flag the kernel only reads them (else it would
    # advance them in place).
    w2 = w.clone()
    m2, v2 = (m, v) if owned_moments else (m.clone(), v.clone())
    lr, b1p, b2p = scalars
    paddle._C_ops.adam_(
        w2,
        g,
        lr,
        m2,
        v2,
        None,  # no moment2_max (no amsgrad)
        b1p,
        b2p,
        None,
        None,  # no master weight, skip flag
        beta1,
        beta2,
        epsilon,
        False,
        1000,
        False,
        True,
        False,  # lazy, min rows, multi-precision, global pow, amsgrad
    )
    return w2, m2, v2


def _adam_ops(
    w: Tensor, g: Tensor, m: Tensor, v: Tensor, lr: float, step: float, beta1: float, beta2: float, epsilon: float
) -> tuple[Tensor, Tensor, Tensor]:
    # With public ops: scalar factors through `scale` (a x + b in one pass), and the last steps
    # in place on the tensor that becomes the new w (paddle's `divide` is several times slower
    # than `reciprocal_` then `multiply_`).
    from .elementwise import sqrt  # paddle.sqrt gives NaN for +inf on CPU; this one does not

    m2 = paddle.scale(g, 1.0 - beta1)
    m2.add_(paddle.scale(m, beta1))  # β1 m + (1-β1) g
    v2 = paddle.square(g)
    v2.scale_(1.0 - beta2)
    v2.add_(paddle.scale(v, beta2))  # β2 v + (1-β2) g²
    w2 = sqrt(v2)
    w2.scale_((1.0 - beta2**step) ** -0.5, epsilon)  # the denominator sqrt(v / bc2) + ε ...
    w2.reciprocal_()
    w2.multiply_(m2)
    w2.scale_(-lr / (1.0 - beta1**step))
    w2.add_(w)  # ... and now w - lr m / (bc1 (sqrt(v / bc2) + ε))
    return w2, m2, v2


def _merged_adam(
    w: Sequence[Tensor],
    g: Sequence[Tensor],
    m: Sequence[Tensor],
    v: Sequence[Tensor],
    scalars: Sequence[Tensor],
    beta1: float,
    beta2: float,
    epsilon: float,
    owned_moments: bool,
) -> list[tuple[Tensor, Tensor, Tensor]]:
    # paddle's multi-tensor Adam (what paddle.optimizer.Adam runs with use_multi_tensor): one
    # call for every leaf of a dtype, where one call per leaf costs ~10 us each in dispatch
    # alone. In place, as _adam_c: it is handed copies of w (and of the moments unless owned).
    n = len(w)
    w2 = [t.clone() for t in w]
    m2, v2 = (list(m), list(v)) if owned_moments else ([t.clone() for t in m], [t.clone() for t in v])
    lr, b1p, b2p = scalars
    paddle._C_ops.merged_adam_(
        w2,
        list(g),
        [lr] * n,
        m2,
        v2,
        None,  # no moment2_max (no amsgrad)
        [b1p] * n,
        [b2p] * n,
        None,  # no master weights
        beta1,
        beta2,
        epsilon,
        False,
        True,
        False,  # multi-precision, global β pow (read only), amsgrad
    )
    return list(zip(w2, m2, v2))


def _scalars(values: Sequence[float], like: Tensor) -> list[Tensor]:
    """``values`` as [1] tensors of ``like``'s dtype and place: paddle.full's own C call where
    this paddle has it so (paddle.full's Python costs ~6 us a tensor, three per Adam step)."""
    if _C_FULL[0] is not False and _C_ops_full is not None and paddle.in_dynamic_mode():
        try:
            out = [_C_ops_full([1], c, like.dtype, like.place) for c in values]
            _C_FULL[0] = True
            return out
        except (AttributeError, TypeError, ValueError):
            if _C_FULL[0]:
                raise
            _C_FULL[0] = False  # another paddle's signature: never again
    return [paddle.full([1], c, like.dtype) for c in values]


_C_ops_full = getattr(paddle._C_ops, "full", None)
#: Whether ``_C_ops.full(shape, value, dtype, place)`` works here: None until tried.
_C_FULL: list[bool | None] = [None]


#: Whether paddle's multi-tensor Adam kernel (``_C_ops.merged_adam_``) takes the arguments of
#: :func:`_merged_adam`: None until tried, then True or False (another paddle version).
_C_MERGED: list[bool | None] = [None]


def adam_update_flat(
    ws: Sequence[Tensor],
    gs: Sequence[Tensor],
    ms: Sequence[Tensor],
    vs: Sequence[Tensor],
    lr: float,
    step: float,
    /,
    *,
    beta1: float,
    beta2: float,
    epsilon: float,
    owned_moments: bool = False,
) -> list[tuple[Tensor, Tensor, Tensor] | None]:
    """Core's fused Adam kernel (see ``ivy.adam_update``): per leaf ``(new_w, new_m, new_v)``
    with the new ``w`` cut from the graph, or ``None`` where the generic formula must run.

    paddle's own fused Adam kernels where this paddle has them as expected (the multi-tensor one
    for all the leaves of a dtype at once, else one call per leaf), else a short sequence of
    public ops. ``ws`` and ``gs`` are never written; the moments are updated in place only when
    the caller owns them (``owned_moments``) and one of paddle's kernels runs.
    """
    out: list[tuple[Tensor, Tensor, Tensor] | None] = [None] * len(ws)
    groups: dict[int, list[int]] = {}  # dtype -> the leaves to fuse
    for i, leaf in enumerate(zip(ws, gs, ms, vs)):
        if _fusable(*leaf):
            groups.setdefault(id(leaf[0].dtype), []).append(i)
    owned_moments = owned_moments and paddle.in_dynamic_mode()  # (a static program: new tensors)
    with paddle.no_grad():
        for idx in groups.values():
            w, g, m, v = ([seq[i] for i in idx] for seq in (ws, gs, ms, vs))
            done: list[tuple[Tensor, Tensor, Tensor]] | None = None
            sc: list[Tensor] = []  # lr, β1^step, β2^step as [1] tensors, for paddle's kernels
            if _C_MERGED[0] is not False or _C_ADAM[0] is not False:
                sc = _scalars((lr, beta1**step, beta2**step), w[0])
            if _C_MERGED[0] is not False:
                try:
                    done = _merged_adam(w, g, m, v, sc, beta1, beta2, epsilon, owned_moments)
                    _C_MERGED[0] = True
                except (AttributeError, TypeError, ValueError, RuntimeError):
                    if _C_MERGED[0] is None:  # the kernel's signature differs here: never again
                        _C_MERGED[0] = False
            if done is None:
                done = [
                    _adam_leaf(*leaf, sc, lr, step, beta1, beta2, epsilon, owned_moments) for leaf in zip(w, g, m, v)
                ]
            for i, res in zip(idx, done):
                out[i] = res
    return out


def _adam_leaf(
    w: Tensor,
    g: Tensor,
    m: Tensor,
    v: Tensor,
    sc: Sequence[Tensor],
    lr: float,
    step: float,
    beta1: float,
    beta2: float,
    epsilon: float,
    owned_moments: bool,
) -> tuple[Tensor, Tensor, Tensor]:
    if _C_ADAM[0] is not False:
        try:
            res = _adam_c(w, g, m, v, sc, beta1, beta2, epsilon, owned_moments)
            _C_ADAM[0] = True
            return res
        except (AttributeError, TypeError, ValueError, RuntimeError):
            if _C_ADAM[0] is None:  # the kernel's signature differs here: never again
                _C_ADAM[0] = False
            # (once it has worked, a failure is this call's: the public ops say why)
    return _adam_ops(w, g, m, v, lr, step, beta1, beta2, epsilon)
