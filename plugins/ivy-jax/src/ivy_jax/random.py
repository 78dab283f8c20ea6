"""Random sampling on JAX's functional PRNG.

JAX has no global random state: every draw takes a key. The plugin keeps one module-level key,
reset by :func:`seed` and split on every call that has neither ``seed=`` nor ``key=``. A per-call
``seed=`` uses a fresh key made from it and leaves the global key alone.

Every function also takes a keyword-only ``key=`` (a JAX PRNG key, typed or legacy ``uint32[2]``)
for users who manage keys themselves: with it, no global state is read or written. Programs
compiled with ``ivy.compile`` thread the global key through (a new draw on every call). Under a
bare ``jax.jit`` pass ``key=`` (as an argument of the jitted function): the global key is read
while tracing, so it would be baked into the compiled function as a constant and every call would
return the same numbers. These functions are reached with the extra keyword through the backend
namespace, e.g. ``ivy.backend_namespace("jax").random_normal(shape=(3,), key=k)``.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Sequence
from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ivy.plugin_kit import check_probability, touch_random_state

from ._dtypes import DEFAULT_INT, native, put
from ._dtypes import device as _device

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

_Array = jax.Array
_lock = threading.Lock()
_KEY: Any = None  # the global key; created on first use from OS entropy unless seed() ran


def seed(seed_value: int = 0, /) -> None:
    global _KEY
    with _lock:
        _KEY = jax.random.key(int(seed_value))


def _key(seed: int | None, key: Any) -> Any:
    """The key of one call: ``key``, else a fresh one from ``seed``, else a split of the global."""
    global _KEY
    if key is not None:
        if seed is not None:
            raise ValueError("pass either seed= or key=, not both")
        return key
    if seed is not None:
        return jax.random.key(int(seed))
    if isinstance(_KEY, jax.core.Tracer):  # threaded through a program ivy.compile traces
        _KEY, sub = jax.random.split(_KEY)
        return sub
    touch_random_state("jax")  # inside ivy.compile: have the key threaded (this trace restarts)
    # Evaluated eagerly even while jax.jit traces: the global key must stay a concrete array (a
    # tracer stored here would leak out of the trace); the subkey becomes a constant of the trace.
    with _lock, jax.ensure_compile_time_eval():
        _KEY, sub = jax.random.split(_global_key())
    return sub


def _global_key() -> Any:
    global _KEY
    if _KEY is None:
        _KEY = jax.random.key(secrets.randbits(31))
    return _KEY


def _set_global_key(key: Any) -> None:
    global _KEY
    _KEY = key


#: the global key as (get, set), for ivy.compile to thread it through compiled programs
RANDOM_STATE = (_global_key, _set_global_key)


def save_random_state() -> dict[str, Any]:
    """The global key as JSON values: its implementation's name and its data."""
    key = _global_key()
    if jax.dtypes.issubdtype(key.dtype, jax.dtypes.prng_key):
        return {"impl": str(jax.random.key_impl(key)), "data": np.asarray(jax.random.key_data(key)).tolist()}
    return {"impl": None, "data": np.asarray(key).tolist()}  # a raw uint32 key


def restore_random_state(state: dict[str, Any]) -> None:
    data = jnp.asarray(state["data"], dtype=jnp.uint32)
    _set_global_key(data if state["impl"] is None else jax.random.wrap_key_data(data, impl=state["impl"]))


RANDOM_SNAPSHOT = (save_random_state, restore_random_state)


def _shape(shape: Any, *params: Any) -> tuple[int, ...]:
    if shape is None:
        return tuple(jnp.broadcast_shapes(*(jnp.shape(p) for p in params))) if params else ()
    return (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(s) for s in shape)


def _float(dtype: Any, op: str) -> Any:
    from ._dtypes import default_float

    return default_float() if dtype is None else native(dtype, op)


def _on(out: _Array, device: Any) -> _Array:
    return out if device is None else put(out, _device(device))


def random_uniform(
    *,
    low: _Array | float = 0.0,
    high: _Array | float = 1.0,
    shape: Sequence[int] | None = None,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
    key: Any = None,
) -> _Array:
    dt = _float(dtype, "random_uniform")
    shp = _shape(shape, low, high)
    if isinstance(low, _Array):
        low = low.astype(dt)
    if isinstance(high, _Array):
        high = high.astype(dt)
    out = jax.random.uniform(_key(seed, key), shp, dt, low, high)
    return _on(out, device)


def random_normal(
    *,
    mean: _Array | float = 0.0,
    std: _Array | float = 1.0,
    shape: Sequence[int] | None = None,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
    key: Any = None,
) -> _Array:
    dt = _float(dtype, "random_normal")
    shp = _shape(shape, mean, std)
    out = jax.random.normal(_key(seed, key), shp, dt)
    if not (isinstance(std, float) and std == 1.0):
        out = out * (std.astype(dt) if isinstance(std, _Array) else std)
    if not (isinstance(mean, float) and mean == 0.0):
        out = out + (mean.astype(dt) if isinstance(mean, _Array) else mean)
    return _on(out, device)


def randint(
    low: _Array | int,
    high: _Array | int,
    /,
    shape: Sequence[int] | None = None,
    *,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
    key: Any = None,
) -> _Array:
    dt = DEFAULT_INT if dtype is None else native(dtype, "randint")
    if not isinstance(low, _Array) and not isinstance(high, _Array) and high <= low:
        raise ValueError(f"randint: high ({high}) must be greater than low ({low})")
    shp = _shape(shape, low, high)
    out = jax.random.randint(_key(seed, key), shp, low, high, dt)
    return _on(out, device)


def multinomial(
    population_size: int,
    num_samples: int,
    /,
    *,
    batch_size: int = 1,
    probs: _Array | None = None,
    replace: bool = True,
    device: Any = None,
    seed: int | None = None,
    key: Any = None,
) -> _Array:
    k = _key(seed, key)
    if probs is None:
        if replace:  # every category equally likely, drawn independently
            out = jax.random.randint(k, (batch_size, num_samples), 0, population_size, DEFAULT_INT)
        else:  # the order of i.i.d. uniforms is a uniformly random permutation
            u = jax.random.uniform(k, (batch_size, population_size))
            out = jnp.argsort(u, axis=-1)[:, :num_samples].astype(DEFAULT_INT)
        return _on(out, device)
    if not jnp.issubdtype(probs.dtype, jnp.floating):
        probs = probs.astype(_float(None, "multinomial"))
    if probs.ndim == 1:
        probs = probs[None]
    logits = jnp.log(probs)  # unnormalised is fine; probability 0 -> -inf, never drawn
    if replace:
        out = jax.random.categorical(k, logits, axis=-1, shape=(num_samples, probs.shape[0])).T
    else:  # Gumbel top-k: the k largest perturbed logits are a sample without replacement
        g = logits + jax.random.gumbel(k, logits.shape, logits.dtype)
        out = jax.lax.top_k(g, num_samples)[1]
    return out.astype(DEFAULT_INT)


def shuffle(x: _Array, /, axis: int = 0, *, seed: int | None = None, key: Any = None) -> _Array:
    if x.ndim == 0:
        raise ValueError("shuffle: x must have at least one axis")
    return jax.random.permutation(_key(seed, key), x, axis=axis, independent=False)


def bernoulli(
    probs: _Array | float,
    /,
    *,
    shape: Sequence[int] | None = None,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
    key: Any = None,
) -> _Array:
    dt = _float(dtype, "bernoulli")
    if isinstance(probs, _Array) and not jnp.issubdtype(probs.dtype, jnp.floating):
        probs = probs.astype(_float(None, "bernoulli"))
    shp = _shape(shape, probs)
    out = jax.random.bernoulli(_key(seed, key), probs, shp)  # bool
    if dt != out.dtype:
        out = out.astype(dt)
    return _on(out, device)


def dropout(
    x: _Array,
    prob: float,
    /,
    *,
    scale: bool = True,
    training: bool = True,
    seed: int | None = None,
    key: Any = None,
) -> _Array:
    check_probability(prob, "dropout")
    if not training or prob == 0.0:
        return x
    return _dropout(_key(seed, key), x, 1.0 - prob, bool(scale))


@partial(jax.jit, static_argnums=(3,))
def _dropout(key: Any, x: _Array, keep_prob: Any, scale: bool) -> _Array:
    # one kernel: the mask and the select fused (eagerly one dispatch instead of four)
    keep = jax.random.bernoulli(key, keep_prob, x.shape)
    kept = x / keep_prob if scale else x
    return jnp.where(keep, kept, jnp.zeros((), x.dtype))
