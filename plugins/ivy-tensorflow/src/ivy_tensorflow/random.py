"""Random sampling on ``tf.random.Generator``.

The global state is one Generator held here, created lazily and re-seeded in place by ``seed``
(so that functions traced by ``tf.function`` keep seeing it). A per-call ``seed=`` draws from
TF's stateless counter-based ops instead of a fresh ``Generator.from_seed``: the same numbers for
the same seed, no variable created per call (``tf.function`` refuses new variables after its
first trace) and the global state is left alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import tensorflow as tf

from ivy.plugin_kit import check_probability

from . import _dtypes as D
from ._helpers import norm_axis, on, tensor, to_device

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

_TENSORS = (tf.Tensor, tf.Variable)
_GEN: tf.random.Generator | None = None


def _global() -> tf.random.Generator:
    global _GEN
    if _GEN is None:
        with tf.init_scope():  # eager, even when first used while tracing
            _GEN = tf.random.Generator.from_non_deterministic_state()
    return _GEN


def save_random_state() -> dict[str, Any]:
    """The global generator's algorithm and state, as JSON values."""
    gen = _global()
    return {"algorithm": int(gen.algorithm), "state": gen.state.numpy().tolist()}


def restore_random_state(state: dict[str, Any]) -> None:
    gen = _global()
    if int(gen.algorithm) != state["algorithm"]:
        raise ValueError(
            f"the saved TensorFlow random state is of algorithm {state['algorithm']}, the global "
            f"generator's of {int(gen.algorithm)}"
        )
    with tf.init_scope():
        gen.reset(np.asarray(state["state"], dtype=np.int64))  # in place: compiled functions see it


RANDOM_SNAPSHOT = (save_random_state, restore_random_state)


def seed(seed_value: int = 0, /) -> None:
    global _GEN
    with tf.init_scope():
        if _GEN is None:
            _GEN = tf.random.Generator.from_seed(seed_value)
        else:
            _GEN.reset_from_seed(seed_value)  # the same variable: compiled functions see the reset
    tf.random.set_seed(seed_value)  # TF's own global seed too, for ops outside this plugin


class _Stateless:
    """Draws for one call with ``seed=``: the k-th draw of the call uses the key ``[seed, k]``."""

    def __init__(self, s: int):
        self.s = int(s)
        self.k = 0

    def _key(self) -> list[int]:
        self.k += 1
        return [self.s, self.k - 1]

    def uniform(self, shape: Any, minval: Any = 0, maxval: Any = None, dtype: Any = D.F32) -> Any:
        return tf.random.stateless_uniform(shape, self._key(), minval=minval, maxval=maxval, dtype=dtype)

    def normal(self, shape: Any, dtype: Any = D.F32) -> Any:
        return tf.random.stateless_normal(shape, self._key(), dtype=dtype)


def _rng(seed: int | None) -> Any:
    return _global() if seed is None else _Stateless(seed)


def _shape(shape: Any, *params: Any) -> list[int]:
    if shape is None:
        out: tuple[int, ...] = ()
        for p in params:
            if isinstance(p, _TENSORS):
                out = tuple(np.broadcast_shapes(out, tuple(p.shape)))
        return list(out)
    return [int(shape)] if isinstance(shape, (int, np.integer)) else [int(s) for s in shape]


def _float(dtype: Any) -> tf.DType:
    return D.DEFAULT_FLOAT if dtype is None else D.native(dtype)


def _param(p: Any, dtype: tf.DType) -> Any:
    if isinstance(p, _TENSORS):
        return p if p.dtype == dtype else tf.cast(p, dtype)
    return p


def _uniform01(rng: Any, shape: list[int], dtype: tf.DType) -> Any:
    if dtype in (D.F32, D.F64, tf.float16, tf.bfloat16):
        return rng.uniform(shape, 0.0, 1.0, dtype=dtype)
    return tf.cast(rng.uniform(shape, 0.0, 1.0, dtype=D.F64), dtype)


def _place(out: Any, device: Any) -> Any:
    return out if device is None else to_device(out, device)


def random_uniform(
    *,
    low: Any = 0.0,
    high: Any = 1.0,
    shape: Sequence[int] | None = None,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
) -> Any:
    dtype = _float(dtype)
    shape = _shape(shape, low, high)
    rng = _rng(seed)
    with on(device):
        if not isinstance(low, _TENSORS) and not isinstance(high, _TENSORS):
            return _place(rng.uniform(shape, float(low), float(high), dtype=dtype), device)
        u = _uniform01(rng, shape, dtype)
        lo, hi = _param(low, dtype), _param(high, dtype)
        return _place(lo + (hi - lo) * u, device)


def random_normal(
    *,
    mean: Any = 0.0,
    std: Any = 1.0,
    shape: Sequence[int] | None = None,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
) -> Any:
    dtype = _float(dtype)
    shape = _shape(shape, mean, std)
    rng = _rng(seed)
    with on(device):
        z = rng.normal(shape, dtype=dtype)
        if not isinstance(mean, _TENSORS) and not isinstance(std, _TENSORS) and mean == 0.0 and std == 1.0:
            return _place(z, device)
        return _place(z * _param(std, dtype) + _param(mean, dtype), device)


def randint(
    low: Any,
    high: Any,
    /,
    shape: Sequence[int] | None = None,
    *,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
) -> Any:
    dtype = D.DEFAULT_INT if dtype is None else D.native(dtype)
    shape = _shape(shape, low, high)
    rng = _rng(seed)
    with on(device):
        if not isinstance(low, _TENSORS) and not isinstance(high, _TENSORS):
            if high <= low:
                raise ValueError(f"randint: high ({high}) must be greater than low ({low})")
            out = rng.uniform(shape, int(low), int(high), dtype=D.I64)
        else:  # array bounds: scale a float64 uniform (exact for ranges below 2**53)
            lo = tf.cast(low, D.I64) if isinstance(low, _TENSORS) else tf.constant(int(low), D.I64)
            hi = tf.cast(high, D.I64) if isinstance(high, _TENSORS) else tf.constant(int(high), D.I64)
            u = rng.uniform(shape, 0.0, 1.0, dtype=D.F64)
            out = lo + tf.cast(tf.floor(u * tf.cast(hi - lo, D.F64)), D.I64)
            out = tf.minimum(out, hi - 1)
        return _place(out if dtype == D.I64 else tf.cast(out, dtype), device)


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
    rng = _rng(seed)
    if probs is None:
        with on(device):
            if replace:  # every category equally likely, drawn independently
                out = rng.uniform([batch_size, num_samples], 0, int(population_size), dtype=D.I64)
            else:  # a uniformly random ordering per row, cut to num_samples
                keys = rng.uniform([batch_size, population_size], 0.0, 1.0, dtype=D.F64)
                out = tf.cast(tf.math.top_k(keys, num_samples).indices, D.I64)
        return _place(out, device)
    p = tensor(probs)
    if p.dtype not in (D.F32, D.F64):
        p = tf.cast(p, D.F64)
    if p.shape.rank == 1:
        p = p[None]
    b, n = int(p.shape[0]), int(p.shape[1])
    if replace:  # inverse CDF: searchsorted of uniforms into the unnormalised cumulative weights
        cdf = tf.math.cumsum(p, axis=-1)
        u = rng.uniform([b, num_samples], 0.0, 1.0, dtype=p.dtype) * cdf[:, -1:]
        out = tf.minimum(tf.searchsorted(cdf, u, side="right", out_type=D.I64), n - 1)
    else:  # Gumbel top-k: exactly sequential sampling without replacement
        u = rng.uniform([b, n], 0.0, 1.0, dtype=p.dtype)
        gumbel = -tf.math.log(-tf.math.log(tf.maximum(u, tf.constant(np.finfo(p.dtype.as_numpy_dtype).tiny, p.dtype))))
        keys = tf.where(p > 0, tf.math.log(p) + gumbel, tf.constant(-np.inf, p.dtype))
        out = tf.cast(tf.math.top_k(keys, num_samples).indices, D.I64)
    return out


def shuffle(x: Any, /, axis: int = 0, *, seed: int | None = None) -> Any:
    x = tensor(x)
    if x.shape.rank == 0:
        raise ValueError("shuffle: x must have at least one axis")
    a = norm_axis(axis, x.shape.rank)
    n = int(x.shape[a])
    keys = _rng(seed).uniform([n], 0.0, 1.0, dtype=D.F64)
    perm = tf.argsort(keys)
    return tf.gather(x, perm, axis=a)


def bernoulli(
    probs: Any,
    /,
    *,
    shape: Sequence[int] | None = None,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
) -> Any:
    dtype = _float(dtype)
    shape = _shape(shape, probs)
    rng = _rng(seed)
    with on(device):
        if isinstance(probs, _TENSORS):
            pd = probs.dtype if probs.dtype in (D.F32, D.F64) else D.F64
            hit = rng.uniform(shape, 0.0, 1.0, dtype=pd) < _param(probs, pd)
        else:
            hit = rng.uniform(shape, 0.0, 1.0, dtype=D.F64 if dtype == D.F64 else D.F32) < float(probs)
        return _place(hit if dtype == D.BOOL else tf.cast(hit, dtype), device)


def dropout(x: Any, prob: float, /, *, scale: bool = True, training: bool = True, seed: int | None = None) -> Any:
    check_probability(prob, "dropout")
    if not training or prob == 0.0:
        return x
    keep = _rng(seed).uniform(tf.shape(x), 0.0, 1.0, dtype=x.dtype if x.dtype in (D.F32, D.F64) else D.F32) >= prob
    y = x / tf.cast(1.0 - prob, x.dtype) if scale else x
    return tf.where(keep, y, tf.zeros((), x.dtype))
