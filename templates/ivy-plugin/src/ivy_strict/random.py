"""Random numbers: a NumPy generator, seeded by ``ivy.seed``; the draws become the library's arrays."""

from __future__ import annotations

from typing import Any

import array_api_strict as xp
import numpy as np

from ivy.plugin_kit import native_dtype

from ._dtypes import DTYPES

__all__ = ["seed", "random_uniform", "random_normal", "randint", "multinomial", "shuffle", "bernoulli"]

_RNG = np.random.default_rng()


def seed(seed_value: int = 0, /) -> None:
    global _RNG
    _RNG = np.random.default_rng(seed_value)


def _gen(seed: int | None) -> np.random.Generator:
    return _RNG if seed is None else np.random.default_rng(seed)


def _out(a: np.ndarray, dtype: Any, default: Any = None) -> Any:
    return xp.asarray(a, dtype=native_dtype(DTYPES, dtype) if dtype is not None else (default or xp.float64))


def _param(v: Any) -> Any:
    return np.from_dlpack(v) if hasattr(v, "__dlpack__") else v


def random_uniform(
    *,
    low: Any = 0.0,
    high: Any = 1.0,
    shape: Any = None,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
) -> Any:
    lo, hi = _param(low), _param(high)
    # lo + (hi - lo) u: NumPy's uniform() refuses high < low where the bounds broadcast
    return _out(lo + (np.subtract(hi, lo)) * _gen(seed).random(_shape(shape, lo, hi)), dtype)


def random_normal(
    *,
    mean: Any = 0.0,
    std: Any = 1.0,
    shape: Any = None,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
) -> Any:
    mu, sigma = _param(mean), _param(std)
    return _out(_gen(seed).normal(mu, sigma, None if shape is None else tuple(shape)), dtype)


def _shape(shape: Any, *params: Any) -> Any:
    if shape is not None:
        return (int(shape),) if isinstance(shape, int) else tuple(int(s) for s in shape)
    return np.broadcast_shapes(*(np.shape(p) for p in params)) if params else ()


def randint(
    low: Any, high: Any, /, shape: Any = None, *, dtype: Any = None, device: Any = None, seed: int | None = None
) -> Any:
    lo, hi = _param(low), _param(high)
    return _out(_gen(seed).integers(lo, hi, _shape(shape, lo, hi)), dtype, xp.int64)


def multinomial(
    population_size: int,
    num_samples: int,
    /,
    *,
    batch_size: int = 1,
    probs: Any = None,
    replace: bool = True,
    device: Any = None,
    seed: int | None = None,
) -> Any:
    g = _gen(seed)
    if probs is not None and np.ndim(_param(probs)) == 2:  # one row of probabilities per batch element
        batch_size = np.shape(_param(probs))[0]
    p = None if probs is None else np.broadcast_to(_param(probs), (batch_size, population_size))
    rows = [
        g.choice(population_size, num_samples, replace=replace, p=None if p is None else p[i] / p[i].sum())
        for i in range(batch_size)
    ]
    return xp.asarray(np.stack(rows).astype(np.int64))


def shuffle(x: Any, /, axis: int = 0, *, seed: int | None = None) -> Any:
    a = np.from_dlpack(x)
    return xp.asarray(np.take(a, _gen(seed).permutation(a.shape[axis]), axis=axis))


def bernoulli(
    probs: Any, /, *, shape: Any = None, dtype: Any = None, device: Any = None, seed: int | None = None
) -> Any:
    p = _param(probs)
    return _out((_gen(seed).random(_shape(shape, p)) < p).astype(np.float64), dtype)
