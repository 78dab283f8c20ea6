"""Devices: Ivy's own ops for finding and moving between devices.

A device is given either as the framework's native device object or as an Ivy device string:
``"cpu"`` or ``"<kind>:<index>"`` such as ``"gpu:0"`` (NVIDIA and AMD GPUs alike are ``"gpu"``;
third-party plugins may register further kinds, such as ``"tpu"``).
"""

from __future__ import annotations

from ._base import Array, Device, spec


@spec
def dev(x: Array, /, *, as_native: bool = False) -> str | Device:
    """The device that ``x`` lives on.

    Args:
        x: input array.
        as_native: return the framework's device object instead of the Ivy device string.

    Returns:
        An Ivy device string such as ``"cpu"`` or ``"gpu:0"``, or with ``as_native`` the native
        device object.
    """


@spec
def to_device(x: Array, device: Device, /) -> Array:
    """Copy ``x`` to ``device``; if it is already there, ``x`` may be returned as it is.

    Args:
        x: input array.
        device: target device, an Ivy device string or a native device object.

    Returns:
        An array with the shape, dtype and values of ``x``, on ``device``.

    Raises:
        ValueError: if ``device`` is unknown or unavailable to the backend.
    """


@spec
def default_device(*, as_native: bool = False) -> str | Device:
    """The device that arrays are created on when no device is given.

    Args:
        as_native: return the framework's device object instead of the Ivy device string.

    Returns:
        An Ivy device string such as ``"cpu"`` or ``"gpu:0"``, or with ``as_native`` the native
        device object.
    """


@spec
def devices() -> list[str]:
    """Every device the backend can place arrays on, as Ivy device strings.

    Returns:
        A list starting with ``"cpu"``, followed by the accelerators (``"gpu:0"``, ``"gpu:1"``, ...)
        that the framework sees.
    """


@spec
def num_gpus() -> int:
    """The number of GPUs the backend can use.

    Returns:
        A non-negative Python ``int``; ``0`` for a CPU-only framework or machine.
    """


@spec
def gpu_is_available() -> bool:
    """Whether the backend can use at least one GPU.

    Returns:
        A Python ``bool``; the same as ``num_gpus() > 0``.
    """
