"""The Array API linalg extension, dispatched like ``ivy.*``."""

from __future__ import annotations

from typing import Any

from . import _extensions

__all__ = _extensions.names("linalg")


def __getattr__(name: str) -> Any:
    return _extensions.op(globals(), "linalg", name)


def __dir__() -> list[str]:
    return list(__all__)
