"""Devices: Ivy's device strings (``"cpu"``) and the library's device objects."""

from __future__ import annotations

from typing import Any

import array_api_strict as xp

__all__ = ["dev", "to_device", "default_device", "devices", "num_gpus", "gpu_is_available"]

_CPU = xp.__array_namespace_info__().default_device()


def to_native_device(device: Any) -> Any:
    """``"cpu"`` (Ivy's form) or the library's device object -> the library's device object."""
    if isinstance(device, str):
        if device in ("cpu", "cpu:0"):
            return _CPU
        raise ValueError(f"the 'strict' backend has only the device 'cpu', got {device!r}")
    return device


def dev(x: Any, /, *, as_native: bool = False) -> Any:
    return x.device if as_native else "cpu"


def to_device(x: Any, device: Any, /) -> Any:
    return xp.asarray(x, device=to_native_device(device))


def default_device(*, as_native: bool = False) -> Any:
    return _CPU if as_native else "cpu"


def devices() -> list[str]:
    return ["cpu"]


def num_gpus() -> int:
    return 0


def gpu_is_available() -> bool:
    return False
