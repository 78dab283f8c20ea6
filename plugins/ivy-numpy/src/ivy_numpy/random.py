"""Random sampling on ``numpy.random.Generator``: one module-level generator (re-seeded by
``seed``) serves the calls without ``seed=``; a call with ``seed=`` uses a fresh
``default_rng(seed)`` and leaves the global one alone."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ivy.plugin_kit import check_probability

from ._dtypes import native
from .device import check_device

__all__ = [
    "seed",
    "random_uniform",
    "random_normal",
    "randint",
    "multinomial",
    "shuffle",
    "bernoulli",
    "dropout",
]

_f64 = np.dtype("float64")
_i64 = np.dtype("int64")
_GEN_DTYPES = (np.dtype("float32"), _f64)  # what Generator.random / standard_normal draw natively

#: The global generator; ``seed`` replaces it.
_RNG: np.random.Generator = np.random.default_rng()


def seed(seed_value: int = 0, /) -> None:
    global _RNG
    _RNG = np.random.default_rng(seed_value)


def save_random_state() -> dict[str, Any]:
    """The global generator's bit-generator state (PCG64's: integers only)."""
    return dict(_RNG.bit_generator.state)


def restore_random_state(state: dict[str, Any]) -> None:
    _RNG.bit_generator.state = state


RANDOM_SNAPSHOT = (save_random_state, restore_random_state)


def _gen(seed: int | None) -> np.random.Generator:
    return _RNG if seed is None else np.random.default_rng(seed)


def _shape(shape: Any, *params: Any) -> tuple[int, ...]:
    if shape is None:
        return np.broadcast_shapes(*(np.shape(p) for p in params))
    return (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(s) for s in shape)


def _float(dtype: Any) -> np.dtype:
    dt = _f64 if dtype is None else native(dtype)
    if dt.kind != "f":
        raise TypeError(f"expected a real floating-point dtype, got {dt}")
    return dt


def _draw(g: np.random.Generator, kind: str, shape: tuple[int, ...], dt: np.dtype) -> np.ndarray:
    """Uniform [0, 1) ("random") or standard normal draws of dtype ``dt``."""
    draw = g.random if kind == "random" else g.standard_normal
    if dt in _GEN_DTYPES:
        return draw(shape, dtype=dt)
    return draw(shape).astype(dt)  # float16: drawn in float64, rounded


def random_uniform(
    *,
    low: np.ndarray | float = 0.0,
    high: np.ndarray | float = 1.0,
    shape: Sequence[int] | None = None,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
) -> np.ndarray:
    check_device(device)
    dt = _float(dtype)
    shape = _shape(shape, low, high)
    u = _draw(_gen(seed), "random", shape, dt)
    lo = np.asarray(low, dtype=dt)
    hi = np.asarray(high, dtype=dt)
    out = np.asarray(lo + (hi - lo) * u)
    # rounding can give exactly `high` (float32 especially): the interval is half-open
    return np.minimum(out, np.nextafter(hi, lo), out=out)


def random_normal(
    *,
    mean: np.ndarray | float = 0.0,
    std: np.ndarray | float = 1.0,
    shape: Sequence[int] | None = None,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
) -> np.ndarray:
    check_device(device)
    dt = _float(dtype)
    shape = _shape(shape, mean, std)
    z = _draw(_gen(seed), "normal", shape, dt)
    return np.asarray(z * np.asarray(std, dtype=dt) + np.asarray(mean, dtype=dt))


def randint(
    low: np.ndarray | int,
    high: np.ndarray | int,
    /,
    shape: Sequence[int] | None = None,
    *,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
) -> np.ndarray:
    check_device(device)
    dt = _i64 if dtype is None else native(dtype)
    if dt.kind not in "iu":
        raise TypeError(f"randint: expected an integer dtype, got {dt}")
    shape = _shape(shape, low, high)
    # Generator.integers takes array bounds (broadcast), draws in any integer dtype, and raises
    # ValueError where high <= low
    return _gen(seed).integers(low, high, size=shape, dtype=dt)


def multinomial(
    population_size: int,
    num_samples: int,
    /,
    *,
    batch_size: int = 1,
    probs: np.ndarray | None = None,
    replace: bool = True,
    device: Any = None,
    seed: int | None = None,
) -> np.ndarray:
    check_device(device)
    g = _gen(seed)
    if probs is None:
        if replace:  # every category equally likely, drawn independently
            return g.integers(0, population_size, size=(batch_size, num_samples), dtype=_i64)
        if num_samples > population_size:
            raise ValueError(
                f"multinomial: cannot draw {num_samples} samples without replacement from {population_size} categories"
            )
        # a uniformly random permutation per row (the order of random keys), cut to num_samples
        keys = g.random((batch_size, population_size))
        return np.argsort(keys, axis=1)[:, :num_samples].astype(_i64, copy=False)
    p = np.asarray(probs, dtype=_f64)
    if p.ndim == 1:
        p = p[None]
    if p.ndim != 2 or p.shape[1] != population_size:
        raise ValueError(f"multinomial: probs must have shape [batch_size, {population_size}], got {np.shape(probs)}")
    if np.any(p < 0) or not np.all(np.isfinite(p)):
        raise ValueError("multinomial: probs must be finite and non-negative")
    totals = p.sum(axis=1, keepdims=True)
    if np.any(totals <= 0):
        raise ValueError("multinomial: every row of probs needs a positive weight")
    p = p / totals
    out = np.empty((p.shape[0], num_samples), dtype=_i64)
    for b in range(p.shape[0]):  # Generator.choice draws from one distribution at a time
        out[b] = g.choice(population_size, num_samples, replace=replace, p=p[b])
    return out


def shuffle(x: np.ndarray, /, axis: int = 0, *, seed: int | None = None) -> np.ndarray:
    if np.ndim(x) == 0:
        raise ValueError("shuffle: x must have at least one axis")
    return _gen(seed).permutation(x, axis=axis)  # a shuffled copy; x is left as it is


def bernoulli(
    probs: np.ndarray | float,
    /,
    *,
    shape: Sequence[int] | None = None,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
) -> np.ndarray:
    check_device(device)
    dt = _f64 if dtype is None else native(dtype)
    shape = _shape(shape, probs)
    # float64 draws whatever the dtype: one seed gives the same zeros and ones in every dtype
    hits = _gen(seed).random(shape) < probs
    if hits.shape != shape:
        hits = np.broadcast_to(hits, shape)
    return hits.astype(dt)


def dropout(
    x: np.ndarray, prob: float, /, *, scale: bool = True, training: bool = True, seed: int | None = None
) -> np.ndarray:
    check_probability(prob, "dropout")
    if not training or prob == 0.0:
        return x
    keep = 1.0 - prob
    mask = _gen(seed).random(np.shape(x)) < keep  # the draws of bernoulli(keep, shape=x.shape)
    y = x * mask  # keeps x's dtype (the mask is bool)
    return y / keep if scale else y
