"""Random sampling on paddle's global generator.

Paddle has no per-call generator object in its sampling ops. A call with ``seed=`` therefore saves
the global RNG state (``paddle.get_rng_state``, and the CUDA one where GPUs exist), reseeds with
``paddle.seed(seed)``, draws, and restores the saved state: the call is reproducible and leaves the
global stream exactly where it was. Without ``seed`` a call draws from the global stream, which
:func:`seed` resets.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ivy.plugin_kit import check_probability

from ._dtypes import DEFAULT_FLOAT, FLOATS, float32, float64, int64, native
from ._framework import Tensor, paddle
from ._helpers import lift, norm_axis, place, to_device

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

_F = paddle.nn.functional


def seed(seed_value: int = 0, /) -> None:
    paddle.seed(seed_value)  # every device's generator


def _cuda() -> bool:
    try:
        return paddle.is_compiled_with_cuda() and paddle.device.cuda.device_count() > 0
    except Exception:  # a CUDA build without a usable driver
        return False


def save_random_state() -> dict[str, Any]:
    """paddle's global generators (the CPU's, and CUDA's where present): a generator state
    pickles as (device, seed, offset, engine state), plain JSON values."""
    out: dict[str, Any] = {"cpu": [list(s.__getstate__()) for s in paddle.get_rng_state("cpu")]}
    if _cuda():
        out["cuda"] = [list(s.__getstate__()) for s in paddle.get_cuda_rng_state()]
    return out


def _states(saved: list[Any], like: list[Any]) -> list[Any]:
    cls: Any = type(like[0])
    out = []
    for s in saved:  # as unpickling does (setting the state of an existing object is ignored)
        new = cls.__new__(cls)
        new.__setstate__(tuple(s))
        out.append(new)
    return out


def restore_random_state(state: dict[str, Any]) -> None:
    paddle.set_rng_state(_states(state["cpu"], paddle.get_rng_state("cpu")), "cpu")
    if state.get("cuda") and _cuda():
        paddle.set_cuda_rng_state(_states(state["cuda"], paddle.get_cuda_rng_state()))


RANDOM_SNAPSHOT = (save_random_state, restore_random_state)


@contextmanager
def _seeded(seed: int | None) -> Iterator[None]:
    if seed is None:
        yield
        return
    state = paddle.get_rng_state()
    cuda = _cuda()
    cuda_state = paddle.get_cuda_rng_state() if cuda else None
    paddle.seed(seed)
    try:
        yield
    finally:
        paddle.set_rng_state(state)
        if cuda:
            paddle.set_cuda_rng_state(cuda_state)


def _where(device: Any, *params: Any) -> Any:
    """The target place: ``device``, else that of the first array parameter, else None (default)."""
    if device is not None:
        return place(device)
    for p in params:
        if isinstance(p, Tensor):
            return p.place
    return None


def _shape(shape: Any, *params: Any) -> list[int]:
    if shape is None:
        out: list[int] = []
        for p in params:
            if isinstance(p, Tensor):
                out = list(paddle.broadcast_shape(out, list(p.shape)))
        return out
    return [shape] if isinstance(shape, int) else [int(s) for s in shape]


def _float(dtype: Any) -> Any:
    return DEFAULT_FLOAT if dtype is None else native(dtype, "random")


def _on(x: Tensor, dev: Any) -> Tensor:
    return x if dev is None else to_device(x, dev)


def _as(p: Any, dtype: Any, dev: Any) -> Any:
    if not isinstance(p, Tensor):
        return p
    if p.dtype != dtype:
        p = p.astype(dtype)
    return _on(p, dev)


def random_uniform(
    *,
    low: Tensor | float = 0.0,
    high: Tensor | float = 1.0,
    shape: Sequence[int] | None = None,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
) -> Tensor:
    dtype = _float(dtype)
    dev = _where(device, low, high)
    shp = _shape(shape, low, high)
    with _seeded(seed):
        u = paddle.rand(shp, dtype=dtype, device=dev)
    if not isinstance(low, Tensor) and not isinstance(high, Tensor):
        if low == 0.0 and high == 1.0:
            return u
        return u * (float(high) - float(low)) + float(low)
    low, high = _as(low, dtype, dev), _as(high, dtype, dev)
    return low + (high - low) * u


def random_normal(
    *,
    mean: Tensor | float = 0.0,
    std: Tensor | float = 1.0,
    shape: Sequence[int] | None = None,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
) -> Tensor:
    dtype = _float(dtype)
    dev = _where(device, mean, std)
    shp = _shape(shape, mean, std)
    with _seeded(seed):
        z = paddle.randn(shp, dtype=dtype, device=dev)
    mean, std = _as(mean, dtype, dev), _as(std, dtype, dev)
    if not isinstance(mean, Tensor) and not isinstance(std, Tensor) and mean == 0.0 and std == 1.0:
        return z
    return z * std + mean


def randint(
    low: Tensor | int,
    high: Tensor | int,
    /,
    shape: Sequence[int] | None = None,
    *,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
) -> Tensor:
    dtype = int64 if dtype is None else native(dtype, "randint")
    dev = _where(device, low, high)
    shp = _shape(shape, low, high)
    if not isinstance(low, Tensor) and not isinstance(high, Tensor):
        if high <= low:
            raise ValueError(f"randint: high ({high}) must be greater than low ({low})")
        with _seeded(seed):
            out = paddle.randint(int(low), int(high), shp, dtype=int64)
        out = _on(out, dev)
    else:  # array bounds: scale a float64 uniform (exact for ranges below 2**53)
        lo = _as(low, int64, dev)
        hi = _as(high, int64, dev)
        with _seeded(seed):
            u = paddle.rand(shp, dtype=float64, device=dev)
        span = hi - lo
        span_f = span.astype(float64) if isinstance(span, Tensor) else float(span)
        out = lo + paddle.floor(u * span_f).astype(int64)
        top = hi - 1
        out = paddle.minimum(out, top if isinstance(top, Tensor) else paddle.full([], top, int64))
    return out if out.dtype == dtype else out.astype(dtype)


def multinomial(
    population_size: int,
    num_samples: int,
    /,
    *,
    batch_size: int = 1,
    probs: Tensor | None = None,
    replace: bool = True,
    device: Any = None,
    seed: int | None = None,
) -> Tensor:
    if probs is None:
        dev = _where(device)
        if replace:  # every category equally likely, drawn independently
            with _seeded(seed):
                out = paddle.randint(0, population_size, [batch_size, num_samples], dtype=int64)
            return _on(out, dev)
        probs = paddle.ones([batch_size, population_size], dtype=float32)
        probs = _on(probs, dev)
    else:
        if id(probs.dtype) not in FLOATS:
            probs = probs.astype(float32)
        if probs.ndim == 1:
            probs = probs.unsqueeze(0)
    with _seeded(seed):
        return paddle.multinomial(probs, num_samples, replace)


def shuffle(x: Tensor, /, axis: int = 0, *, seed: int | None = None) -> Tensor:
    if x.ndim == 0:
        raise ValueError("shuffle: x must have at least one axis")
    a = norm_axis(axis, x.ndim)
    with _seeded(seed):
        perm = paddle.randperm(x.shape[a], dtype=int64)
    perm = _on(perm, x.place)
    return lift(paddle.gather, x, perm, a)


def bernoulli(
    probs: Tensor | float,
    /,
    *,
    shape: Sequence[int] | None = None,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
) -> Tensor:
    dtype = _float(dtype)
    dev = _where(device, probs)
    shp = _shape(shape, probs)
    # u < p with u uniform on [0, 1): exactly Bernoulli(p), any output dtype, p broadcast
    udt = float64 if isinstance(probs, Tensor) and probs.dtype == float64 else float32
    with _seeded(seed):
        u = paddle.rand(shp, dtype=udt, device=dev)
    if isinstance(probs, Tensor):
        probs = _as(probs, udt, dev)
    hit = u < probs
    return hit if dtype == paddle.bool else hit.astype(dtype)


def _f32_exact(v: float) -> bool:
    return struct.unpack("f", struct.pack("f", v))[0] == v


def dropout(x: Tensor, prob: float, /, *, scale: bool = True, training: bool = True, seed: int | None = None) -> Tensor:
    check_probability(prob, "dropout")  # (paddle takes 1 and NaN)
    if not training or prob == 0.0:
        return x
    if scale and seed is None and id(x.dtype) in FLOATS and (x.dtype is float32 or _f32_exact(prob)):
        # paddle's kernel, on the global generator (it holds prob as a float32 attribute: for
        # float64 only a prob that float32 holds exactly gives the exact 1 / (1 - prob) scale)
        return _F.dropout(x, prob, training=True, mode="upscale_in_train")
    keep = bernoulli(1.0 - prob, shape=x.shape, dtype=x.dtype, device=x.place, seed=seed)
    y = x * keep
    return y / (1.0 - prob) if scale else y
