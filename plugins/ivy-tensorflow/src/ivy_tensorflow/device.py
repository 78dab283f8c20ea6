"""Device functions: Ivy device strings ("cpu", "gpu:0") over TF device strings ("/device:GPU:0")."""

from __future__ import annotations

from typing import Any

import tensorflow as tf
from tensorflow.python.ops import gen_array_ops as ga

from ivy.plugin_kit import device_kinds

from ._helpers import device_name

__all__ = ["dev", "to_device", "default_device", "devices", "num_gpus", "gpu_is_available"]

#: x.device (a full TF device string) -> (Ivy string, canonical "/device:KIND:N"); few and hashable.
_PARSED: dict[str, tuple[str, str]] = {}


def _parse(full: str) -> tuple[str, str]:
    got = _PARSED.get(full)
    if got is not None:
        return got
    if not full:  # a graph tensor not placed yet (inside tf.function): the default placement
        nat = _default_native()
        return _ivy(nat), nat
    spec = tf.DeviceSpec.from_string(full)
    kind = (spec.device_type or "CPU").upper()
    idx = spec.device_index or 0
    nat = f"/device:{kind}:{idx}"
    if kind not in ("CPU", "GPU", "TPU"):  # maybe a registered third-party kind (not cached)
        for dk in device_kinds("tensorflow").values():
            s = dk.from_native(nat)
            if s is not None:
                return s, nat
    got = ("cpu" if kind == "CPU" else f"{kind.lower()}:{idx}", nat)
    _PARSED[full] = got
    return got


def _ivy(native: str) -> str:
    return _parse(native)[0]


def dev(x: Any, /, *, as_native: bool = False) -> str:
    s, nat = _parse(x.device)
    return nat if as_native else s


def _available() -> set[str]:
    return {d.name for d in tf.config.list_logical_devices()}


def to_device(x: Any, device: Any, /) -> Any:
    try:
        name = device_name(device)
    except ValueError as e:
        raise ValueError(str(e)) from None
    target = _parse(name)[1]
    if isinstance(x, tf.Tensor) and x.device and _parse(x.device)[1] == target:
        return x  # already there
    if target not in _available():
        have = ", ".join(devices())
        raise ValueError(f"device {device!r} is not available to the tensorflow backend (devices: {have})")
    with tf.device(target):
        return ga.identity(x)


def _default_native() -> str:
    gpus = tf.config.list_logical_devices("GPU")
    return gpus[0].name if gpus else "/device:CPU:0"


def default_device(*, as_native: bool = False) -> str:
    nat = _default_native()
    return nat if as_native else _ivy(nat)


def devices() -> list[str]:
    out = ["cpu"] + [f"gpu:{i}" for i in range(num_gpus())]
    for dk in device_kinds("tensorflow").values():
        out += dk.list_devices()
    return out


def num_gpus() -> int:
    return len(tf.config.list_logical_devices("GPU"))


def gpu_is_available() -> bool:
    return num_gpus() > 0
