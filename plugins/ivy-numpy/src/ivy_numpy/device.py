"""Device functions. NumPy has one device, the CPU: its native device object is the string
``"cpu"`` (what ``ndarray.device`` reports), so the Ivy string and the native object coincide."""

from __future__ import annotations

from typing import Any

import numpy as np

from ivy.plugin_kit import device_kinds

__all__ = ["dev", "to_device", "default_device", "devices", "num_gpus", "gpu_is_available"]

_CPU_NAMES = frozenset({"cpu", "cpu:0"})


def check_device(device: Any) -> None:
    """Raise ValueError unless ``device`` names the CPU (an Ivy string, ``"cpu:0"``, or an object
    whose ``str`` is ``"cpu"``, such as ``torch.device("cpu")``); ``None`` means the default."""
    if device is None or device == "cpu":  # the hot path: no normalisation
        return
    name = device if isinstance(device, str) else str(device)
    if name.strip().lower() in _CPU_NAMES:
        return
    if isinstance(device, str):  # a third-party kind ("vdev:0") registered for numpy
        dk = device_kinds("numpy").get(name.strip().partition(":")[0].lower())
        if dk is not None:
            native = dk.to_native(device)
            if str(native).strip().lower() in _CPU_NAMES:
                return
            raise ValueError(f"device {device!r} maps to {native!r}, not a numpy device; NumPy is CPU-only")
    raise ValueError(
        f"device {device!r} is not available to the numpy backend: NumPy is CPU-only (devices: ['cpu']); "
        "use a backend with accelerator support (torch, jax, tensorflow, paddle) for other devices"
    )


def dev(x: np.ndarray, /, *, as_native: bool = False) -> str:
    return "cpu"  # the native device is also the string "cpu"


def to_device(x: np.ndarray, device: Any, /) -> np.ndarray:
    check_device(device)
    return x  # already there: NumPy arrays only ever live on the CPU


def default_device(*, as_native: bool = False) -> str:
    return "cpu"


def devices() -> list[str]:
    out = ["cpu"]
    for dk in device_kinds("numpy").values():
        out += dk.list_devices()
    return out


def num_gpus() -> int:
    return 0


def gpu_is_available() -> bool:
    return False
