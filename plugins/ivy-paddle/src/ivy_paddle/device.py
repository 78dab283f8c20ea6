"""Device functions: Ivy device strings ("cpu", "gpu:0") over paddle Places.

``paddle.CPUPlace()`` is ``"cpu"`` and ``paddle.CUDAPlace(n)`` is ``"gpu:n"``. The global default
device (``paddle.device.set_device``) is only read here, never changed.
"""

from __future__ import annotations

from typing import Any

from ivy.plugin_kit import device_kinds

from ._framework import Tensor, paddle
from ._helpers import PLACE_TYPES, default_place, place, same_place

__all__ = ["dev", "to_device", "default_device", "devices", "num_gpus", "gpu_is_available"]

#: str(place) -> Ivy device string (places are few).
_STR: dict[str, str] = {}


def _ivy_str(p: Any) -> str:
    key = str(p)
    s = _STR.get(key)
    if s is not None:
        return s
    if p.is_cpu_place():
        s = "cpu"
    elif p.is_gpu_place():
        s = f"gpu:{p.gpu_device_id()}"
    elif p.is_cuda_pinned_place():
        s = "cpu"  # pinned host memory
    else:  # custom devices (npu, xpu...): "kind:index" from paddle's own spelling
        for dk in device_kinds("paddle").values():  # registered third-party kinds first (not cached)
            got = dk.from_native(p)
            if got is not None:
                return got
        inner = key[6:-1] if key.startswith("Place(") else key
        kind, _, idx = inner.partition(":")
        s = f"{kind}:{idx or 0}"
    _STR[key] = s
    return s


def dev(x: Tensor, /, *, as_native: bool = False) -> str | Any:
    p = x.place
    return p if as_native else _ivy_str(p)


def num_gpus() -> int:
    try:
        if not paddle.is_compiled_with_cuda():
            return 0
        return int(paddle.device.cuda.device_count())
    except Exception:  # a CUDA build without a usable driver
        return 0


def gpu_is_available() -> bool:
    return num_gpus() > 0


def devices() -> list[str]:
    out = ["cpu"] + [f"gpu:{i}" for i in range(num_gpus())]
    for dk in device_kinds("paddle").values():
        out += dk.list_devices()
    return out


def _gpu_index(p: Any) -> int | None:
    if isinstance(p, paddle.CUDAPlace):
        return int(p.get_device_id())
    if hasattr(p, "is_gpu_place") and p.is_gpu_place():
        return int(p.gpu_device_id())
    return None


def _checked(device: Any) -> Any:
    """The paddle Place for an Ivy string / native place, or ValueError if unknown or absent."""
    if isinstance(device, str):
        kind, _, idx = device.strip().lower().partition(":")
        if kind in ("gpu", "cuda") and (idx or "0").isdigit() and int(idx or 0) >= num_gpus():
            # checked before building a CUDAPlace: a CPU build of paddle logs an error for that
            raise ValueError(
                f"device {device!r} is not available to the paddle backend (devices: {', '.join(devices())})"
            )
    try:
        p = place(device)
    except (ValueError, TypeError, RuntimeError) as e:
        raise ValueError(f"unknown device {device!r} for the paddle backend: {e}") from None
    if not isinstance(p, PLACE_TYPES):  # pragma: no cover - place() returns places only
        raise ValueError(f"unknown device {device!r} for the paddle backend")
    gpu = _gpu_index(p)
    if gpu is not None and gpu >= num_gpus():
        raise ValueError(f"device {device!r} is not available to the paddle backend (devices: {', '.join(devices())})")
    return p


def to_device(x: Tensor, device: Any, /) -> Tensor:
    p = _checked(device)
    if same_place(x.place, p):
        return x
    return x._copy_to(p, True)


def default_device(*, as_native: bool = False) -> str | Any:
    p = default_place()
    return p if as_native else _ivy_str(p)
