"""What the modules ``ivy.linalg`` and ``ivy.fft`` (the Array API's extensions) share: their op
names, and each op generated on first access, as ``ivy.<op>`` is."""

from __future__ import annotations

from typing import Any

from . import _dispatch
from ._spec import SPECS

__all__ = ["names", "op"]


def names(extension: str) -> list[str]:
    """The short names of the ops of ``extension`` (``"linalg"``: ``inv``, ``det``...), sorted."""
    return sorted(q.partition(".")[2] for q in SPECS if q.startswith(extension + "."))


def op(namespace: dict[str, Any], extension: str, name: str) -> Any:
    """The module ``ivy.<extension>``'s ``__getattr__``: the public op ``name``, generated and kept
    in the module's ``namespace`` (its globals), so that later lookups are plain reads."""
    if name in namespace["__all__"]:
        fn = _dispatch.public_function(f"{extension}.{name}")
        namespace[name] = fn
        return fn
    raise AttributeError(f"module 'ivy.{extension}' has no attribute {name!r}")
