"""Device functions: Ivy device strings ("cpu", "gpu:0", "tpu:0") over ``jax.Device`` objects.

A device's Ivy string is its platform ("cuda" and "rocm" GPUs are both "gpu") and its position
among the devices of that platform; the first CPU is plain "cpu". Tracers inside ``jax.jit`` have
no concrete device: ``dev`` reports the default device for them.
"""

from __future__ import annotations

from typing import Any

import jax

from ivy.plugin_kit import device_kinds

from ._backend import _default_device, _devices
from ._dtypes import device as _native_device

__all__ = ["dev", "to_device", "default_device", "devices", "num_gpus", "gpu_is_available"]

_Array = jax.Array
_KINDS = {"cuda": "gpu", "rocm": "gpu", "gpu": "gpu"}
#: jax.Device -> Ivy device string (devices are hashable and few).
_STR: dict[Any, str] = {}
_NUM_GPUS: int | None = None


def _ivy_str(d: Any) -> str:
    s = _STR.get(d)
    if s is not None:
        return s
    kind = _KINDS.get(d.platform, d.platform)
    if kind not in ("cpu", "gpu", "tpu"):  # maybe a registered third-party kind (not cached)
        for dk in device_kinds("jax").values():
            s = dk.from_native(d)
            if s is not None:
                return s
    try:
        idx = list(jax.devices(d.platform)).index(d)
    except (RuntimeError, ValueError):
        idx = d.id
    s = "cpu" if kind == "cpu" and idx == 0 else f"{kind}:{idx}"
    _STR[d] = s
    return s


def _device_of(x: _Array) -> Any:
    try:
        devs = x.devices()
    except jax.errors.ConcretizationTypeError:  # a tracer inside jit: no concrete device
        return None
    if len(devs) == 1:
        return next(iter(devs))
    return x.sharding  # spread over several devices: JAX's own description of where


def dev(x: _Array, /, *, as_native: bool = False) -> str | Any:
    d = _device_of(x)
    if d is None:
        d = _default_device()
    elif not isinstance(d, jax.Device):  # a sharding over several devices
        if as_native:
            return d
        d = min(d.device_set, key=lambda v: v.id)
    return d if as_native else _ivy_str(d)


def _checked(device: Any) -> Any:
    if isinstance(device, (jax.Device, jax.sharding.Sharding)):
        return device
    if not isinstance(device, str):
        raise ValueError(f"unknown device {device!r} for the jax backend; use e.g. 'cpu', 'gpu:0' or a jax.Device")
    try:
        return _native_device(device)
    except (RuntimeError, ValueError, TypeError) as e:
        raise ValueError(
            f"device {device!r} is not available to the jax backend (devices: {', '.join(devices())}): {e}"
        ) from None


def to_device(x: _Array, device: Any, /) -> _Array:
    d = _checked(device)
    if isinstance(d, jax.Device):
        try:
            if x.devices() == {d}:  # already there
                return x
        except jax.errors.ConcretizationTypeError:
            pass
    return jax.device_put(x, d)


def default_device(*, as_native: bool = False) -> str | Any:
    d = _default_device()
    return d if as_native else _ivy_str(d)


def devices() -> list[str]:
    out = [_ivy_str(d) for d in _devices()]
    cpus = [s for s in out if s == "cpu" or s.startswith("cpu:")]
    out = cpus + [s for s in out if s not in cpus]
    for dk in device_kinds("jax").values():
        out += [s for s in dk.list_devices() if s not in out]
    return out


def num_gpus() -> int:
    global _NUM_GPUS
    if _NUM_GPUS is None:
        try:
            _NUM_GPUS = len(jax.devices("gpu"))
        except RuntimeError:  # no GPU platform
            _NUM_GPUS = 0
    return _NUM_GPUS


def gpu_is_available() -> bool:
    return num_gpus() > 0
