"""Devices: Ivy's device strings (``"cpu"``, ``"gpu:0"``) and MXNet's Contexts
(``mx.cpu()``, ``mx.gpu(0)``)."""

from __future__ import annotations

from typing import Any

from ._framework import Array
from ._helpers import default_ctx, device_str, to_ctx
from ._helpers import devices as _devices
from ._helpers import num_gpus as _num_gpus

__all__ = ["dev", "to_device", "default_device", "devices", "num_gpus", "gpu_is_available"]


def dev(x: Array, /, *, as_native: bool = False) -> Any:
    return x.ctx if as_native else device_str(x.ctx)


def to_device(x: Array, device: Any, /) -> Array:
    ctx = to_ctx(device)
    return x if x.ctx == ctx else x.as_in_context(ctx)


def default_device(*, as_native: bool = False) -> Any:
    ctx = default_ctx()
    return ctx if as_native else device_str(ctx)


def devices() -> list[str]:
    return _devices()


def num_gpus() -> int:
    return _num_gpus()


def gpu_is_available() -> bool:
    return _num_gpus() > 0
