"""Gradient primitives on torch.func, so that they compose (grad of grad, jvp of vjp...).

``value_and_grad_flat`` called at the top level (outside every torch.func transform and outside
another call of itself) uses plain ``torch.autograd.grad`` on fresh leaf tensors instead: the
same gradients, without functorch's wrapping of every tensor and op (about a quarter of the
cost of a training step of a small MLP). A transform nested inside it still goes through
torch.func, which composes with the ordinary autograd around it.
"""

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

    def _level() -> int | None:
        return None


from ._helpers import Tensor

_compiling = torch.compiler.is_compiling  # True while torch.compile traces (dynamo folds it)

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
    if _compiling():  # dynamo traces torch.func itself, and cannot trace the unwrapping below
        return y
    while _functorch.is_gradtrackingtensor(y):  # grad levels only: a vmap batch stays
        y = _functorch.get_unwrapped(y)
    return y.detach() if y.requires_grad else y


def _scalar(y: Any) -> Tensor:
    if not isinstance(y, Tensor) or y.ndim != 0:
        shape = tuple(y.shape) if isinstance(y, Tensor) else type(y).__name__
        raise ValueError(f"value_and_grad_flat: func must return a scalar (0-d) array, got {shape}")
    return y


#: How many top-level (plain autograd) calls of value_and_grad_flat are running: their ``func``
#: is on the stack. A call made inside one must keep its results differentiable for it.
_AUTOGRAD_DEPTH = 0


def _value_and_grad_autograd(
    func: Callable[..., Any], xs: Sequence[Tensor], has_aux: bool
) -> tuple[Tensor, list[Tensor], Any]:
    global _AUTOGRAD_DEPTH
    # fresh leaves sharing the inputs' storage: the caller's tensors keep their flags and history
    leaves = [x.detach().requires_grad_(True) for x in xs]
    _AUTOGRAD_DEPTH += 1
    try:
        with torch.enable_grad():  # as torch.func.grad, differentiate even under no_grad
            out = func(leaves)
    finally:
        _AUTOGRAD_DEPTH -= 1
    y, aux = out if has_aux else (out, None)
    y = _scalar(y)
    if y.requires_grad:
        got = torch.autograd.grad(y, leaves, allow_unused=True)
        grads = [torch.zeros_like(x) if g is None else g for g, x in zip(got, leaves)]
    else:  # y does not depend on any input (nor on anything else that requires grad)
        grads = [torch.zeros_like(x) for x in leaves]
    if has_aux:
        # aux may hold tensors computed from the leaves: cut them off, as torch.func would
        a_leaves, a_struct = _nest.tree_flatten(aux)
        aux = _nest.tree_unflatten(a_struct, [v.detach() if isinstance(v, Tensor) else v for v in a_leaves])
    return y.detach(), grads, aux


def value_and_grad_flat(
    func: Callable[..., Any], xs: Sequence[Tensor], /, *, has_aux: bool = False
) -> tuple[Tensor, list[Tensor], Any]:
    # (not while torch.compile traces: torch.autograd.grad breaks its graph, torch.func does not)
    if _level() is None and _AUTOGRAD_DEPTH == 0 and not _compiling() and all(isinstance(x, Tensor) for x in xs):
        return _value_and_grad_autograd(func, xs, has_aux)
    # torch.func passes only tensors through `aux`: the other leaves of aux wait in `kept`
    kept: dict[str, Any] = {}

    def f(ls: tuple[Tensor, ...]) -> tuple[Tensor, tuple[Tensor, tuple[Tensor, ...]]]:
        out = func(list(ls))
        if has_aux:
            y, aux = out
            leaves, kept["structure"] = _nest.tree_flatten(aux)
            kept["leaves"] = leaves
            tensors = tuple(v for v in leaves if isinstance(v, Tensor))
        else:
            y, tensors = out, ()
        y = _scalar(y)
        return y, (y, tensors)

    grads, (value, tensors) = _tf.grad(f, has_aux=True)(tuple(xs))
    grads = list(grads)
    if _level() is None and _AUTOGRAD_DEPTH == 0:
        # Outside every transform: cut the link to ordinary autograd (inputs that require
        # grad). Inside one (a torch.func level, or the plain-autograd top-level path above),
        # the outer transform must still see the values, so that grad-of-grad works;
        # torch.func has already removed the inner level.
        value = value.detach()
        grads = [g.detach() for g in grads]
        tensors = tuple(v.detach() for v in tensors)
    aux = None
    if has_aux:
        it = iter(tensors)
        leaves = [next(it) if isinstance(v, Tensor) else v for v in kept["leaves"]]
        aux = _nest.tree_unflatten(kept["structure"], leaves)
    return value, grads, aux


def vjp(func: Callable[..., Any], /, *primals: Tensor) -> tuple[Any, Callable[..., Any]]:
    out, fn = _tf.vjp(func, *primals)  # type: ignore[misc]  # torch types it as 2 or 3 values, has_aux or not

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
    return _tf.jvp(func, primals, tangents)  # type: ignore[return-value]  # 2 or 3 values in torch's type, has_aux or not


def jacobian(
    func: Callable[..., Any], /, *primals: Tensor, argnums: int | Sequence[int] = 0
) -> Tensor | tuple[Tensor, ...]:
    n = len(primals)

    def norm(a: Any) -> int:
        a = operator.index(a)
        if not -n <= a < n:
            raise IndexError(f"jacobian: argnums {a} is out of range for {n} primals")
        return a % n

    nums: int | tuple[int, ...] = (
        norm(argnums) if not isinstance(argnums, Sequence) else tuple(norm(a) for a in argnums)
    )
    return _tf.jacrev(func, argnums=nums)(*primals)


def _fusable(w: Any, g: Any, m: Any, v: Any) -> bool:
    if not (isinstance(w, Tensor) and isinstance(g, Tensor) and isinstance(m, Tensor) and isinstance(v, Tensor)):
        return False
    dt, shape = w.dtype, w.shape
    if not (dt.is_floating_point and g.dtype is dt and m.dtype is dt and v.dtype is dt):
        return False  # (torch dtypes are singletons)
    if not (g.shape == shape and m.shape == shape and v.shape == shape):
        return False  # broadcasting: the generic formula
    # (tensors on different devices make the _foreach ops raise, as the generic formula would)
    # new moments that track gradients must keep their history: the unfused formula does that
    return not (g.requires_grad or m.requires_grad or v.requires_grad)


#: Per device type (``"cpu"``, ``"cuda"``): whether this torch's ``torch._fused_adam_`` runs there
#: (what ``torch.optim.Adam(fused=True)`` calls); absent until tried.
_FUSED: dict[str, bool] = {}

_FUSED_DTYPES = frozenset((torch.float16, torch.bfloat16, torch.float32, torch.float64))


def _one_kernel(w: list[Tensor], g: list[Tensor], m: list[Tensor], v: list[Tensor]) -> bool:
    """Whether one call of the fused kernel takes these leaves: one device and one dtype it has."""
    dev, dt = w[0].device, w[0].dtype
    if dt not in _FUSED_DTYPES:
        return False
    for group in (w, g, m, v):
        for x in group:
            if x.device != dev or x.dtype is not dt:
                return False
    return True


def _flat(x: Tensor) -> Tensor:
    """``x``, or a contiguous copy: the fused kernel reads and writes its tensors as flat buffers
    (a transposed one, as an LSTM's gradients are in Ivy's layout, would silently come out wrong)."""
    return x if x.is_contiguous() else x.contiguous()


def _fused_adam(
    w: list[Tensor],
    g: list[Tensor],
    m: list[Tensor],
    v: list[Tensor],
    lr: float,
    step: float,
    beta1: float,
    beta2: float,
    epsilon: float,
    owned_moments: bool,
) -> tuple[list[Tensor], list[Tensor], list[Tensor]] | None:
    """``(new w, new m, new v)`` from torch's multi-tensor Adam kernel (one call for every leaf,
    where the ``_foreach`` formula makes seven: 3x faster on a small model's step). The kernel
    writes the weights and moments in place: it is handed copies of the weights, and of the
    moments unless the caller owns them (and they are contiguous). Every eager step takes this
    path, owned moments or not, so that a step's arithmetic does not depend on who holds the
    moments (a run resumed from a checkpoint equals the straight run, bit for bit). None where
    this torch has no such kernel for the device."""
    w2 = [x.clone(memory_format=torch.contiguous_format) for x in w]
    g = [_flat(x) for x in g]
    if owned_moments:
        m = [_flat(x) for x in m]
        v = [_flat(x) for x in v]
    else:
        m = [x.clone(memory_format=torch.contiguous_format) for x in m]
        v = [x.clone(memory_format=torch.contiguous_format) for x in v]
    steps = [torch.tensor(float(step), dtype=torch.float32, device=w2[0].device)] * len(w2)
    try:
        torch._fused_adam_(
            w2,
            g,
            m,
            v,
            [],
            steps,
            lr=lr,
            beta1=beta1,
            beta2=beta2,
            weight_decay=0.0,
            eps=epsilon,
            amsgrad=False,
            maximize=False,
        )
    except (AttributeError, TypeError, NotImplementedError, RuntimeError):
        # no kernel for this device or dtype, or another signature (checked before it writes)
        _FUSED.setdefault(w2[0].device.type, False)
        return None
    _FUSED[w2[0].device.type] = True
    return w2, m, v


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

    The arithmetic of ``torch.optim.Adam`` (lerp, addcmul, addcdiv), over all leaves at once with
    the ``torch._foreach_*`` ops. ``ws`` and ``gs`` are never written; the moments are updated in
    place only when the caller owns them (``owned_moments``, eagerly), as torch.optim.Adam does.
    """
    out: list[tuple[Tensor, Tensor, Tensor] | None] = [None] * len(ws)
    if _level() is not None:  # inside a torch.func transform: leave the wrapping to the generic path
        return out
    idx = [i for i, leaf in enumerate(zip(ws, gs, ms, vs)) if _fusable(*leaf)]
    if not idx:
        return out
    w, g, m, v = ([seq[i] for i in idx] for seq in (ws, gs, ms, vs))
    if _FUSED.get(w[0].device.type) is not False and not _compiling() and _one_kernel(w, g, m, v):
        with torch.no_grad():  # (the new weights are cut from the graph)
            done = _fused_adam(w, g, m, v, lr, step, beta1, beta2, epsilon, owned_moments)
        if done is not None:
            for k, i in enumerate(idx):
                out[i] = (done[0][k], done[1][k], done[2][k])
            return out
    bc1 = 1.0 - beta1**step
    bc2_sqrt = (1.0 - beta2**step) ** 0.5
    m2: list[Tensor] | tuple[Tensor, ...]  # the caller's moments updated in place, or new ones
    v2: list[Tensor] | tuple[Tensor, ...]
    with torch.no_grad():
        if owned_moments and not _compiling():
            torch._foreach_lerp_(m, g, 1.0 - beta1)  # β1 m + (1-β1) g
            torch._foreach_mul_(v, beta2)
            m2, v2 = m, v
        else:  # new tensors: the caller's stay as they were
            m2 = torch._foreach_lerp(m, g, 1.0 - beta1)
            v2 = torch._foreach_mul(v, beta2)
        torch._foreach_addcmul_(v2, g, g, value=1.0 - beta2)  # β2 v + (1-β2) g²
        denom = torch._foreach_sqrt(v2)
        torch._foreach_div_(denom, bc2_sqrt)
        torch._foreach_add_(denom, epsilon)
        w2 = torch._foreach_addcdiv(w, m2, denom, value=-lr / bc1)
    for k, i in enumerate(idx):
        out[i] = (w2[k], m2[k], v2[k])
    return out
