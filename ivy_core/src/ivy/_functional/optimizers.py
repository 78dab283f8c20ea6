"""Optimizer update rules over nests, as pure functions: new values and new state are returned,
nothing is kept in hidden globals. Written once with ivy ops, so they run on every backend."""

from __future__ import annotations

from typing import Any

from .. import _api as ivy
from .. import nest
from .._dispatch import _infer

__all__ = ["gradient_descent_update", "adam_update", "lamb_update", "lars_update"]


def _finish(w: Any, stop_gradients: bool) -> Any:
    return ivy.stop_gradient(w) if stop_gradients else w


def gradient_descent_update(ws: Any, dcdws: Any, lr: Any, /, *, stop_gradients: bool = True) -> Any:
    """``w - lr * dc/dw`` for every leaf of the nest ``ws``; returns the new nest.

    Args:
        ws: nest of variables.
        dcdws: gradients, same structure as ``ws``.
        lr: learning rate (a float or a scalar array).
        stop_gradients: cut the new values from the graph of the old ones (default).
    """
    w_l, s, (g_l,) = _leaf_lists(ws, ("the gradients", dcdws))
    return nest.tree_unflatten(s, _descent_leaves(w_l, g_l, lr, stop_gradients))


# The update rules below loop over leaves explicitly (no lambdas, no comprehensions): paddle's
# bytecode tracer (SOT) mistakes closure cells for values when it compiles an optimizer step.


def _descent_leaves(w_l: list[Any], g_l: list[Any], lr: Any, stop_gradients: bool) -> list[Any]:
    out = []
    for w, g in zip(w_l, g_l):
        out.append(_finish(w - lr * g, stop_gradients))
    return out


def _adam_moments(g: Any, m: Any, v: Any, beta1: float, beta2: float) -> tuple[Any, Any]:
    return beta1 * m + (1.0 - beta1) * g, beta2 * v + (1.0 - beta2) * (g * g)


def _leaf_lists(ws: Any, *others: tuple[str, Any]) -> tuple[list[Any], Any, list[list[Any]]]:
    w_l, s = nest.tree_flatten(ws)
    out = []
    for what, tree in others:
        leaves = nest.leaves(tree)
        if len(leaves) != len(w_l):  # zip would silently drop the extra leaves
            raise ValueError(f"{what} has {len(leaves)} leaves but the variables have {len(w_l)}")
        out.append(leaves)
    return w_l, s, out


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _adam_kernel(b: Any) -> Any:
    """A backend's fused Adam kernel, if its plugin hands one to core (``BackendImpl.kernels``)."""
    return b.impl.kernels.get("adam_update_flat")


def _fused_adam(
    w_l: list[Any],
    g_l: list[Any],
    m_l: list[Any],
    v_l: list[Any],
    lr: Any,
    step: Any,
    beta1: float,
    beta2: float,
    epsilon: float,
    owned_moments: bool = False,
) -> list[Any] | None:
    """The backend's fused Adam kernel, where it has one (see :func:`_adam_kernel`). It is handed
    only Python-number ``lr`` and ``step``, stops the gradients of the new variables, and returns
    per leaf ``(new_w, new_m, new_v)``, or ``None`` for the leaves it does not fuse (another
    dtype, arrays tracking gradients...): those go through the generic formula.

    ``owned_moments``: nobody but the caller holds ``m_l`` and ``v_l`` (a stateful optimizer's
    own moments), so the kernel may write the new moments into them."""
    if not (w_l and _is_number(lr) and _is_number(step)):
        return None
    try:
        b = _infer("adam_update", {}, (w_l[0],), ())
    except Exception:  # not an array of a loaded backend: the generic formula says what is wrong
        return None
    kernel = _adam_kernel(b)
    if kernel is None:
        return None
    return kernel(
        w_l,
        g_l,
        m_l,
        v_l,
        float(lr),
        float(step),
        beta1=beta1,
        beta2=beta2,
        epsilon=epsilon,
        owned_moments=owned_moments,
    )


def adam_update(
    ws: Any,
    dcdws: Any,
    lr: Any,
    mw: Any,
    vw: Any,
    step: int,
    /,
    *,
    beta1: float = 0.9,
    beta2: float = 0.999,
    epsilon: float = 1e-7,
    stop_gradients: bool = True,
) -> tuple[Any, Any, Any]:
    """One Adam step (Kingma & Ba): returns ``(new_ws, new_mw, new_vw)``.

    ``m = β1 m + (1-β1) g``, ``v = β2 v + (1-β2) g²``,
    ``w -= lr · (m / (1-β1^step)) / (sqrt(v / (1-β2^step)) + ε)``. ``step`` counts from 1.
    ``mw`` and ``vw`` are nests like ``ws`` (zeros at the start).

    Raises:
        ValueError: ``dcdws``, ``mw`` or ``vw`` has another number of leaves than ``ws``.
    """
    # Where the backend has a fused Adam kernel (torch, paddle) and lr and step are Python
    # numbers, the leaves it can take go through it (same values); the others, and every leaf
    # under stop_gradients=False, through the formula written with ivy ops. A numeric step
    # below 1 raises ValueError (the bias corrections would divide by zero).
    w_l, s, (g_l, m_l, v_l) = _leaf_lists(ws, ("the gradients", dcdws), ("mw", mw), ("vw", vw))
    new_w, new_m, new_v = _adam_leaves(w_l, g_l, m_l, v_l, lr, step, beta1, beta2, epsilon, stop_gradients)
    return nest.tree_unflatten(s, new_w), nest.tree_unflatten(s, new_m), nest.tree_unflatten(s, new_v)


def _adam_leaves(
    w_l: list[Any],
    g_l: list[Any],
    m_l: list[Any],
    v_l: list[Any],
    lr: Any,
    step: Any,
    beta1: float,
    beta2: float,
    epsilon: float,
    stop_gradients: bool,
    owned_moments: bool = False,
) -> tuple[list[Any], list[Any], list[Any]]:
    """:func:`adam_update` on lists of leaves (also what ``ivy.Adam`` calls; it alone may pass
    ``owned_moments``, see :func:`_fused_adam`)."""
    if _is_number(step) and step < 1:  # the bias corrections would divide by zero
        raise ValueError(f"adam_update: step counts from 1, got {step}")
    fused = _fused_adam(w_l, g_l, m_l, v_l, lr, step, beta1, beta2, epsilon, owned_moments) if stop_gradients else None
    # The bias corrections folded into two scalars (as torch.optim.Adam does): one pass over
    # each leaf fewer than dividing m and v elementwise, and one elementwise division, not three.
    # step may be an array (a traced step count under jit): these stay scalar arrays then.
    if not _is_number(step) and w_l:  # a step count threaded through a compiled program
        step = ivy.astype(step, w_l[0].dtype)  # (float ** integer array fails on some backends)
    bc1 = 1.0 - beta1**step
    bc2 = 1.0 - beta2**step
    step_size = lr / bc1
    inv_sqrt_bc2 = bc2**-0.5
    new_w, new_m, new_v = [], [], []
    for i, (w, g, m, v) in enumerate(zip(w_l, g_l, m_l, v_l)):
        done = fused[i] if fused is not None else None
        if done is None:
            m, v = _adam_moments(g, m, v, beta1, beta2)
            w = _finish(w - step_size * m / (ivy.sqrt(v) * inv_sqrt_bc2 + epsilon), stop_gradients)
        else:
            w, m, v = done
        new_w.append(w)
        new_m.append(m)
        new_v.append(v)
    return new_w, new_m, new_v


def _trust(w: Any, r: Any, max_trust_ratio: float) -> Any:
    wn = ivy.linalg.vector_norm(w)
    rn = ivy.linalg.vector_norm(r)
    ratio = ivy.where(ivy.logical_and(wn > 0, rn > 0), wn / ivy.where(rn > 0, rn, 1.0), 1.0)
    return ivy.minimum(ratio, max_trust_ratio)


def lamb_update(
    ws: Any,
    dcdws: Any,
    lr: Any,
    mw: Any,
    vw: Any,
    step: int,
    /,
    *,
    beta1: float = 0.9,
    beta2: float = 0.999,
    epsilon: float = 1e-7,
    max_trust_ratio: float = 10.0,
    decay_lambda: float = 0.0,
    stop_gradients: bool = True,
) -> tuple[Any, Any, Any]:
    """One LAMB step (You et al., 2019): returns ``(new_ws, new_mw, new_vw)``.

    The Adam direction ``r = m̂ / (sqrt(v̂) + ε) + λ w`` is scaled per leaf by the trust ratio
    ``min(‖w‖ / ‖r‖, max_trust_ratio)`` (1 where either norm is 0): ``w -= lr · trust · r``.
    """
    w_l, s, (g_l, m_l, v_l) = _leaf_lists(ws, ("the gradients", dcdws), ("mw", mw), ("vw", vw))
    new_w, new_m, new_v = _lamb_leaves(
        w_l, g_l, m_l, v_l, lr, step, beta1, beta2, epsilon, max_trust_ratio, decay_lambda, stop_gradients
    )
    return nest.tree_unflatten(s, new_w), nest.tree_unflatten(s, new_m), nest.tree_unflatten(s, new_v)


def _lamb_leaves(
    w_l: list[Any],
    g_l: list[Any],
    m_l: list[Any],
    v_l: list[Any],
    lr: Any,
    step: Any,
    beta1: float,
    beta2: float,
    epsilon: float,
    max_trust_ratio: float,
    decay_lambda: float,
    stop_gradients: bool,
) -> tuple[list[Any], list[Any], list[Any]]:
    """:func:`lamb_update` on lists of leaves (also what ``ivy.LAMB`` calls)."""
    if not _is_number(step) and w_l:  # a step count threaded through a compiled program
        step = ivy.astype(step, w_l[0].dtype)
    bc1 = 1.0 - beta1**step
    bc2 = 1.0 - beta2**step
    new_w, new_m, new_v = [], [], []
    for w, g, m, v in zip(w_l, g_l, m_l, v_l):
        m, v = _adam_moments(g, m, v, beta1, beta2)
        r = (m / bc1) / (ivy.sqrt(v / bc2) + epsilon) + decay_lambda * w
        new_w.append(_finish(w - lr * _trust(w, r, max_trust_ratio) * r, stop_gradients))
        new_m.append(m)
        new_v.append(v)
    return new_w, new_m, new_v


def lars_update(ws: Any, dcdws: Any, lr: Any, /, *, decay_lambda: float = 0.0, stop_gradients: bool = True) -> Any:
    """One LARS step (You et al., 2017): per leaf, the local learning rate is
    ``lr · ‖w‖ / (‖g‖ + λ‖w‖)`` (``lr`` where either norm is 0) and ``w -= local_lr · (g + λ w)``.
    Returns the new nest."""
    w_l, s, (g_l,) = _leaf_lists(ws, ("the gradients", dcdws))
    return nest.tree_unflatten(s, _lars_leaves(w_l, g_l, lr, decay_lambda, stop_gradients))


def _lars_leaves(w_l: list[Any], g_l: list[Any], lr: Any, decay_lambda: float, stop_gradients: bool) -> list[Any]:
    """:func:`lars_update` on lists of leaves (also what ``ivy.LARS`` calls)."""
    out = []
    for w, g in zip(w_l, g_l):
        wn = ivy.linalg.vector_norm(w)
        gn = ivy.linalg.vector_norm(g)
        denom = gn + decay_lambda * wn
        ok = ivy.logical_and(wn > 0, gn > 0)
        ratio = ivy.where(ok, wn / ivy.where(ok, denom, 1.0), 1.0)
        out.append(_finish(w - lr * ratio * (g + decay_lambda * w), stop_gradients))
    return out
