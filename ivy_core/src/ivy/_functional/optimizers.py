"""Optimizer update rules over nests, as pure functions: new values and new state are returned,
nothing is kept in hidden globals. Written once with ivy ops, so they run on every backend."""

from __future__ import annotations

from typing import Any

from .. import nest

__all__ = ["gradient_descent_update", "adam_update", "lamb_update", "lars_update"]


def _ivy() -> Any:
    import ivy

    return ivy


def _finish(w: Any, stop_gradients: bool) -> Any:
    return _ivy().stop_gradient(w) if stop_gradients else w


def gradient_descent_update(ws: Any, dcdws: Any, lr: Any, /, *, stop_gradients: bool = True) -> Any:
    """``w - lr * dc/dw`` for every leaf of the nest ``ws``; returns the new nest.

    Args:
        ws: nest of variables.
        dcdws: gradients, same structure as ``ws``.
        lr: learning rate (a float or a scalar array).
        stop_gradients: cut the new values from the graph of the old ones (default).
    """
    return nest.map(lambda w, g: _finish(w - lr * g, stop_gradients), ws, dcdws)


def _adam_moments(g: Any, m: Any, v: Any, beta1: float, beta2: float) -> tuple[Any, Any]:
    return beta1 * m + (1.0 - beta1) * g, beta2 * v + (1.0 - beta2) * (g * g)


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
    """
    ivy = _ivy()
    bc1 = 1.0 - beta1**step  # step may be an array (a traced step count under jit)
    bc2 = 1.0 - beta2**step
    w_l, s = nest.flatten(ws)
    g_l, m_l, v_l = nest.leaves(dcdws), nest.leaves(mw), nest.leaves(vw)
    new_w, new_m, new_v = [], [], []
    for w, g, m, v in zip(w_l, g_l, m_l, v_l):
        m, v = _adam_moments(g, m, v, beta1, beta2)
        new_w.append(_finish(w - lr * (m / bc1) / (ivy.sqrt(v / bc2) + epsilon), stop_gradients))
        new_m.append(m)
        new_v.append(v)
    return nest.unflatten(s, new_w), nest.unflatten(s, new_m), nest.unflatten(s, new_v)


def _trust(w: Any, r: Any, max_trust_ratio: float) -> Any:
    ivy = _ivy()
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
    ivy = _ivy()
    bc1 = 1.0 - beta1**step  # step may be an array (a traced step count under jit)
    bc2 = 1.0 - beta2**step
    w_l, s = nest.flatten(ws)
    g_l, m_l, v_l = nest.leaves(dcdws), nest.leaves(mw), nest.leaves(vw)
    new_w, new_m, new_v = [], [], []
    for w, g, m, v in zip(w_l, g_l, m_l, v_l):
        m, v = _adam_moments(g, m, v, beta1, beta2)
        r = (m / bc1) / (ivy.sqrt(v / bc2) + epsilon) + decay_lambda * w
        new_w.append(_finish(w - lr * _trust(w, r, max_trust_ratio) * r, stop_gradients))
        new_m.append(m)
        new_v.append(v)
    return nest.unflatten(s, new_w), nest.unflatten(s, new_m), nest.unflatten(s, new_v)


def lars_update(
    ws: Any, dcdws: Any, lr: Any, /, *, decay_lambda: float = 0.0, stop_gradients: bool = True
) -> Any:
    """One LARS step (You et al., 2017): per leaf, the local learning rate is
    ``lr · ‖w‖ / (‖g‖ + λ‖w‖)`` (``lr`` where either norm is 0) and ``w -= local_lr · (g + λ w)``.
    Returns the new nest."""
    ivy = _ivy()

    def upd(w: Any, g: Any) -> Any:
        wn = ivy.linalg.vector_norm(w)
        gn = ivy.linalg.vector_norm(g)
        denom = gn + decay_lambda * wn
        ok = ivy.logical_and(wn > 0, gn > 0)
        ratio = ivy.where(ok, wn / ivy.where(ok, denom, 1.0), 1.0)
        return _finish(w - lr * ratio * (g + decay_lambda * w), stop_gradients)

    return nest.map(upd, ws, dcdws)
