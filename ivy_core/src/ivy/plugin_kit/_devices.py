"""Device kinds that third-party plugins add to a backend (the ``ivy_register_devices`` hook)."""

from __future__ import annotations

from .. import _registry
from ..errors import PluginValidationError
from ..plugin import DeviceKind

__all__ = ["device_kinds", "refresh_device_kinds"]

_device_kinds: dict[str, dict[str, DeviceKind]] | None = None


def device_kinds(backend: str) -> dict[str, DeviceKind]:
    """The device kinds third-party plugins added to ``backend`` (kind -> :class:`DeviceKind`).

    Collected once through the ``ivy_register_devices`` hook of every installed plugin; a
    backend's device functions consult it for kinds they do not know themselves.
    """
    global _device_kinds
    if _device_kinds is None:
        found: dict[str, dict[str, DeviceKind]] = {}

        def register(dk: DeviceKind) -> None:
            if not isinstance(dk, DeviceKind):
                raise PluginValidationError(f"ivy_register_devices must register DeviceKind objects, got {dk!r}")
            found.setdefault(dk.backend, {})[dk.kind] = dk

        _registry.plugin_manager().hook.ivy_register_devices(register=register)
        _device_kinds = found
    return _device_kinds.get(backend, {})


def refresh_device_kinds() -> None:
    """Forget collected device kinds (after installing a plugin in a running process)."""
    global _device_kinds
    _device_kinds = None
