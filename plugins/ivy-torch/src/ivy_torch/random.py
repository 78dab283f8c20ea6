"""Random sampling on torch's generators: the global one (seeded by ``seed``), or a fresh
``torch.Generator`` per call when ``seed=`` is given."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any

import torch
import torch.nn.functional as F

from ivy.plugin_kit import check_probability

from ._dtypes import FLOATS, i64, native
from ._dtypes import device as _native_device
from ._helpers import Tensor, norm_axis

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


def seed(seed_value: int = 0, /) -> None:
    torch.manual_seed(seed_value)  # every device's generator


def _b64(t: Tensor) -> str:
    return base64.b64encode(t.numpy().tobytes()).decode("ascii")


def _bytes(text: str) -> Tensor:
    return torch.frombuffer(bytearray(base64.b64decode(text)), dtype=torch.uint8)


def save_random_state() -> dict[str, Any]:
    """torch's global generators (the CPU's, and CUDA's where in use), as base64 text."""
    out: dict[str, Any] = {"cpu": _b64(torch.get_rng_state())}
    if torch.cuda.is_available() and torch.cuda.is_initialized():
        out["cuda"] = [_b64(s) for s in torch.cuda.get_rng_state_all()]
    return out


def restore_random_state(state: dict[str, Any]) -> None:
    torch.set_rng_state(_bytes(state["cpu"]))
    if state.get("cuda") and torch.cuda.is_available():
        for i, s in enumerate(state["cuda"][: torch.cuda.device_count()]):
            torch.cuda.set_rng_state(_bytes(s), i)


RANDOM_SNAPSHOT = (save_random_state, restore_random_state)


def _gen(seed: int | None, dev: torch.device | None) -> torch.Generator | None:
    if seed is None:
        return None
    g = torch.Generator(device=dev if dev is not None else torch.get_default_device())
    g.manual_seed(seed)
    return g


def _where(device: Any, *params: Any) -> torch.device | None:
    """The target device: ``device``, else that of the first array parameter, else None (default)."""
    if device is not None:
        return _native_device(device)
    for p in params:
        if isinstance(p, Tensor):
            return p.device
    return None


def _shape(shape: Any, *params: Any) -> tuple[int, ...]:
    if shape is None:
        shapes = [p.shape for p in params if isinstance(p, Tensor)]
        return tuple(torch.broadcast_shapes(*shapes)) if shapes else ()
    return (shape,) if isinstance(shape, int) else tuple(shape)


def _float(dtype: Any) -> torch.dtype:
    return torch.get_default_dtype() if dtype is None else native(dtype)


def _as(p: Any, dtype: torch.dtype, dev: torch.device | None) -> Any:
    return p.to(device=dev, dtype=dtype) if isinstance(p, Tensor) else p


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
    shape = _shape(shape, low, high)
    g = _gen(seed, dev)
    if not isinstance(low, Tensor) and not isinstance(high, Tensor):
        return torch.empty(shape, dtype=dtype, device=dev).uniform_(low, high, generator=g)
    low, high = _as(low, dtype, dev), _as(high, dtype, dev)
    u = torch.rand(shape, generator=g, dtype=dtype, device=dev)
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
    shape = _shape(shape, mean, std)
    g = _gen(seed, dev)
    if not isinstance(mean, Tensor) and not isinstance(std, Tensor):
        return torch.empty(shape, dtype=dtype, device=dev).normal_(mean, std, generator=g)
    mean, std = _as(mean, dtype, dev), _as(std, dtype, dev)
    return torch.randn(shape, generator=g, dtype=dtype, device=dev) * std + mean


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
    dtype = i64 if dtype is None else native(dtype)
    dev = _where(device, low, high)
    shape = _shape(shape, low, high)
    g = _gen(seed, dev)
    if not isinstance(low, Tensor) and not isinstance(high, Tensor):
        if high <= low:
            raise ValueError(f"randint: high ({high}) must be greater than low ({low})")
        out = torch.randint(low, high, shape, generator=g, dtype=i64, device=dev)
    else:  # array bounds: scale a float64 uniform (exact for ranges below 2**53)
        lo = low.to(device=dev, dtype=i64) if isinstance(low, Tensor) else low
        hi = high.to(device=dev, dtype=i64) if isinstance(high, Tensor) else high
        u = torch.rand(shape, generator=g, dtype=torch.float64, device=dev)
        span = hi - lo
        out = lo + torch.floor(u * span).to(i64)
        out = torch.minimum(out, torch.as_tensor(hi - 1, device=out.device))
    return out if dtype is i64 else out.to(dtype)


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
        g = _gen(seed, dev)
        if replace:  # every category equally likely, drawn independently
            return torch.randint(0, population_size, (batch_size, num_samples), generator=g, device=dev)
        probs = torch.ones(batch_size, population_size, device=dev)
    else:
        if probs.dtype not in FLOATS:
            probs = probs.to(torch.get_default_dtype())
        if probs.ndim == 1:
            probs = probs[None]
        g = _gen(seed, probs.device)
    return torch.multinomial(probs, num_samples, replacement=replace, generator=g)


def shuffle(x: Tensor, /, axis: int = 0, *, seed: int | None = None) -> Tensor:
    if x.ndim == 0:
        raise ValueError("shuffle: x must have at least one axis")
    a = norm_axis(axis, x.ndim)
    perm = torch.randperm(x.shape[a], generator=_gen(seed, x.device), device=x.device)
    return x[(slice(None),) * a + (perm,)]


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
    shape = _shape(shape, probs)
    g = _gen(seed, dev)
    if isinstance(probs, Tensor):
        probs = probs.to(device=dev, dtype=dtype if dtype in FLOATS else torch.float64)
    try:
        return torch.empty(shape, dtype=dtype, device=dev).bernoulli_(probs, generator=g)
    except (NotImplementedError, RuntimeError):  # a dtype without a bernoulli kernel (uint16...)
        return torch.empty(shape, dtype=torch.float32, device=dev).bernoulli_(probs, generator=g).to(dtype)


def dropout(x: Tensor, prob: float, /, *, scale: bool = True, training: bool = True, seed: int | None = None) -> Tensor:
    check_probability(prob, "dropout")  # (torch takes 1, and gives zeros)
    if not training or prob == 0.0:
        return x
    if scale and seed is None:  # torch's fused kernel, on the global generator
        return F.dropout(x, prob, True)
    keep = bernoulli(1.0 - prob, shape=x.shape, dtype=x.dtype, device=x.device, seed=seed)
    y = x * keep
    return y / (1.0 - prob) if scale else y
