"""Device functions: Ivy device strings ("cpu", "gpu:0") over torch.device objects."""

from __future__ import annotations

from typing import Any

import torch

from ivy.plugin_kit import device_kinds

from ._dtypes import device as _native_device
from ._helpers import Tensor

__all__ = ["dev", "to_device", "default_device", "devices", "num_gpus", "gpu_is_available"]

#: torch.device -> Ivy device string (torch devices are hashable and few).
_STR: dict[torch.device, str] = {}
_BUILTIN = frozenset({"cpu", "cuda", "mps", "meta"})


def _ivy_str(d: torch.device) -> str:
    s = _STR.get(d)
    if s is not None:
        return s
    kind, idx = d.type, d.index
    if kind not in _BUILTIN:  # maybe a registered third-party kind (not cached: they may change)
        for dk in device_kinds("torch").values():
            s = dk.from_native(d)
            if s is not None:
                return s
    if kind == "cpu":
        s = "cpu"
    else:
        if idx is None:  # "cuda" without an index: the current device of that kind
            idx = torch.cuda.current_device() if kind == "cuda" else 0
        s = f"{'gpu' if kind == 'cuda' else kind}:{idx}"  # NVIDIA and AMD (ROCm) GPUs are both "cuda"
    _STR[d] = s
    return s


def dev(x: Tensor, /, *, as_native: bool = False) -> str | torch.device:
    if as_native:
        return x.device
    if x.is_cpu:  # the common case, without making a torch.device (libraries ask often)
        return "cpu"
    d = x.device
    s = _STR.get(d)
    return s if s is not None else _ivy_str(d)


def _checked(device: Any) -> torch.device:
    """The torch device for an Ivy string / native device, or ValueError if unknown or absent."""
    try:
        d = _native_device(device)
    except (RuntimeError, ValueError, TypeError) as e:
        raise ValueError(f"unknown device {device!r} for the torch backend: {e}") from None
    if d.type == "cuda":
        n = torch.cuda.device_count()
        idx = 0 if d.index is None else d.index
        if idx >= n:
            have = ", ".join(devices())
            raise ValueError(f"device {device!r} is not available to the torch backend (devices: {have})")
    elif d.type == "mps" and not torch.backends.mps.is_available():
        raise ValueError(f"device {device!r} is not available to the torch backend (devices: {', '.join(devices())})")
    return d


def to_device(x: Tensor, device: Any, /) -> Tensor:
    if type(device) is torch.device and device == x.device:  # fast path: already there
        return x
    d = _checked(device)
    if d.type == x.device.type and (d.index is None or d.index == x.device.index or d.type == "cpu"):
        return x
    return x.to(d)


def default_device(*, as_native: bool = False) -> str | torch.device:
    d = torch.get_default_device()
    return d if as_native else _ivy_str(d)


def devices() -> list[str]:
    out = ["cpu"] + [f"gpu:{i}" for i in range(torch.cuda.device_count())]
    if torch.backends.mps.is_available():
        out.append("mps:0")
    for dk in device_kinds("torch").values():
        out += dk.list_devices()
    return out


def num_gpus() -> int:
    return torch.cuda.device_count()


def gpu_is_available() -> bool:
    return torch.cuda.device_count() > 0
