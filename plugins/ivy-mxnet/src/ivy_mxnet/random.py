"""Random numbers. Draws without ``seed=`` come from MXNet's own generators on the target device
(seeded by ``ivy.seed``, which calls ``mxnet.random.seed``); a draw with ``seed=`` comes from a
NumPy generator of that seed, made for the call, so that MXNet's global state is left as it was
(MXNet has no generator objects). Every distribution is built from uniform draws."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

from ._dtypes import DEFAULT_FLOAT, DEFAULT_INT, FLOATS, INDEX, INTS, float64, native
from ._framework import Array, mnp, mx, onp
from ._helpers import cast, ctx_of, from_host, host, to_ctx, to_host, where

__all__ = ["seed", "random_uniform", "random_normal", "randint", "multinomial", "shuffle", "bernoulli"]


def seed(seed_value: int = 0, /) -> None:
    mx.random.seed(operator.index(seed_value), ctx="all")


def _shape(shape: Any, *params: Any) -> tuple[int, ...]:
    if shape is not None:
        return (
            (operator.index(shape),)
            if not isinstance(shape, (tuple, list))
            else tuple(operator.index(s) for s in shape)
        )
    return tuple(onp.broadcast_shapes(*(p.shape if isinstance(p, Array) else onp.shape(p) for p in params)))


def _uniform01(shape: tuple[int, ...], dt: Any, ctx: Any, seed: int | None) -> Any:
    """Draws from [0, 1) of dtype ``dt`` on ``ctx``."""
    if seed is not None:
        return from_host(onp.random.default_rng(seed).random(shape), ctx, dt)
    return mnp.random.uniform(0.0, 1.0, size=shape, dtype=dt, ctx=ctx)


def _normal01(shape: tuple[int, ...], dt: Any, ctx: Any, seed: int | None) -> Any:
    if seed is not None:
        return from_host(onp.random.default_rng(seed).standard_normal(shape), ctx, dt)
    return mnp.random.normal(0.0, 1.0, size=shape, dtype=dt, ctx=ctx)


def _param(v: Any, dt: Any, ctx: Any) -> Any:
    return cast(v, dt) if isinstance(v, Array) else host(v, dt, ctx)


def _float_dtype(dtype: Any, op: str) -> Any:
    dt = native(dtype, op) if dtype is not None else DEFAULT_FLOAT
    if dt not in FLOATS:
        raise TypeError(f"ivy.{op}: dtype must be a floating-point dtype, got {dt}")
    return dt


def random_uniform(
    *,
    low: Array | float = 0.0,
    high: Array | float = 1.0,
    shape: Sequence[int] | None = None,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
) -> Array:
    dt = _float_dtype(dtype, "random_uniform")
    ctx = to_ctx(device) if device is not None else ctx_of(low, high)
    shp = _shape(shape, low, high)
    lo, hi = _param(low, dt, ctx), _param(high, dt, ctx)
    u = _uniform01(shp, dt, ctx, seed)
    # lo + (hi - lo) u, broadcast as the standard says; where rounding reaches high, the largest
    # number below it (the interval is half-open)
    out = mnp.broadcast_to(lo + (hi - lo) * u, shp)
    below = host(onp.nextafter(to_host(hi), to_host(lo)), dt, ctx)
    return where(out >= hi, below + mnp.zeros(shp, dtype=dt, ctx=ctx), out)


def random_normal(
    *,
    mean: Array | float = 0.0,
    std: Array | float = 1.0,
    shape: Sequence[int] | None = None,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
) -> Array:
    dt = _float_dtype(dtype, "random_normal")
    ctx = to_ctx(device) if device is not None else ctx_of(mean, std)
    shp = _shape(shape, mean, std)
    mu, sigma = _param(mean, dt, ctx), _param(std, dt, ctx)
    return mnp.broadcast_to(mu + sigma * _normal01(shp, dt, ctx, seed), shp)


def randint(
    low: Array | int,
    high: Array | int,
    /,
    shape: Sequence[int] | None = None,
    *,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
) -> Array:
    dt = native(dtype, "randint") if dtype is not None else DEFAULT_INT
    if dt not in INTS:
        raise TypeError(f"ivy.randint: dtype must be an integer dtype, got {dt}")
    ctx = to_ctx(device) if device is not None else ctx_of(low, high)
    shp = _shape(shape, low, high)
    lo, hi = _param(low, float64, ctx), _param(high, float64, ctx)
    if (to_host(hi) <= to_host(lo)).any():
        raise ValueError(f"ivy.randint: the range [low, high) holds no integer (low {low}, high {high})")
    u = _uniform01(shp, float64, ctx, seed)
    # floor(lo + (hi - lo) u), below hi even where rounding lands on it
    out = mnp.minimum(mnp.floor(lo + (hi - lo) * u), hi - 1)
    return cast(mnp.broadcast_to(out, shp), dt)


def multinomial(
    population_size: int,
    num_samples: int,
    /,
    *,
    batch_size: int = 1,
    probs: Array | None = None,
    replace: bool = True,
    device: Any = None,
    seed: int | None = None,
) -> Array:
    n, k = operator.index(population_size), operator.index(num_samples)
    ctx = to_ctx(device) if device is not None else ctx_of(probs)
    if probs is None:
        p = mnp.ones((batch_size, n), dtype=float64, ctx=ctx)
    else:
        p = cast(probs, float64)
        if p.ndim == 1:
            p = p.reshape(1, -1)
        if p.shape[0] == 1 and batch_size > 1:
            p = mnp.broadcast_to(p, (batch_size, p.shape[-1]))
        if p.shape[-1] != n:
            raise ValueError(f"ivy.multinomial: probs have {p.shape[-1]} categories, population_size is {n}")
    b = p.shape[0]
    if not replace and k > n:
        raise ValueError(f"ivy.multinomial: cannot draw {k} of {n} without replacement")
    if not replace and (to_host(p) > 0).sum(axis=-1).min() < k:
        raise ValueError(
            f"ivy.multinomial: cannot draw {k} without replacement from fewer categories of non-zero probability"
        )
    p = p / mnp.sum(p, axis=-1, keepdims=True)
    if replace:
        # inverse CDF: the number of categories whose cumulative probability is <= u
        cdf = mnp.cumsum(p, axis=1)
        u = _uniform01((b, k), float64, ctx, seed)
        idx = mnp.sum(cast(mnp.expand_dims(u, -1) >= mnp.expand_dims(cdf, 1), INDEX), axis=-1)
        return mnp.minimum(idx, n - 1)
    # without replacement: the k largest of log p + Gumbel noise (categories of probability 0 last)
    u = _uniform01((b, n), float64, ctx, seed)
    keys = mnp.log(p) - mnp.log(-mnp.log(mnp.maximum(u, 1e-300)))
    order = cast(mnp.argsort(-keys, axis=-1), INDEX)
    return order[:, :k]


def shuffle(x: Array, /, axis: int = 0, *, seed: int | None = None) -> Array:
    if x.ndim == 0:
        raise ValueError("ivy.shuffle: a 0-d array has no axis to permute")
    ax = operator.index(axis) % x.ndim
    keys = _uniform01((x.shape[ax],), float64, x.ctx, seed)
    return mnp.take(x, cast(mnp.argsort(keys), INDEX), axis=ax)


def bernoulli(
    probs: Array | float,
    /,
    *,
    shape: Sequence[int] | None = None,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
) -> Array:
    dt = native(dtype, "bernoulli") if dtype is not None else DEFAULT_FLOAT
    ctx = to_ctx(device) if device is not None else ctx_of(probs)
    shp = _shape(shape, probs)
    p = _param(probs, float64, ctx)
    hit = _uniform01(shp, float64, ctx, seed) < p
    return cast(mnp.broadcast_to(hit, shp) if hit.shape != shp else hit, dt)
