"""The op table: every ATen op the frontend translates, by name (``"add.Tensor"``,
``"convolution"``: the overload name, ``.default`` left out), gathered from the category
modules, and the op set it covers.

The programs it reads are torch.export programs decomposed to Core ATen (the ops tagged
``torch.Tag.core``), except for the ops this table maps: those are kept whole (composites such
as ``linear``, attention and some activations, and core ops torch would still rewrite, such as
``elu`` and the paddings), since one Ivy op runs better on the target than the pieces it would
otherwise be written in.
"""

from __future__ import annotations

from typing import Any

import torch

from . import _creation, _elementwise, _indexing, _linalg, _nn, _norm, _reductions, _shape
from ._rules import Rule

__all__ = ["TABLE", "op_name", "core_ops", "op_set"]

TABLE: dict[str, Rule] = {}
for _module in (_elementwise, _reductions, _shape, _creation, _indexing, _linalg, _nn, _norm):
    for _name, _rule in _module.TABLE.items():
        if _name in TABLE:
            raise RuntimeError(f"the torch frontend maps aten.{_name} twice")
        TABLE[_name] = _rule


def op_name(target: Any) -> str:
    """The table's name of an ATen op overload: ``aten.add.Tensor`` -> ``"add.Tensor"``,
    ``aten.relu.default`` -> ``"relu"``."""
    return str(target).removeprefix("aten.").removesuffix(".default")


def core_ops() -> list[str]:
    """The Core ATen op set of the installed torch: every overload tagged ``torch.Tag.core``."""
    found = set()
    for full in torch._C._dispatch_get_all_op_names():
        if not full.startswith("aten::"):
            continue
        packet, _, overload = full[len("aten::") :].partition(".")
        try:
            op = getattr(getattr(torch.ops.aten, packet), overload or "default")
        except (AttributeError, RuntimeError):
            continue
        if torch.Tag.core in op.tags:
            found.add(str(op))
    return sorted(found)


def op_set() -> dict[str, str | None]:
    """Every Core ATen op (``"aten.add.Tensor"``) with how it maps to Ivy, or None where it does
    not; then the non-core ops the frontend also reads (the composites it keeps whole and the
    functional forms torch.export produces)."""
    table = {f"aten.{name}" if "." in name else f"aten.{name}.default": r.doc for name, r in TABLE.items()}
    core = {name: table.get(name) for name in core_ops()}
    extra = {name: doc for name, doc in sorted(table.items()) if name not in core}
    return {**core, **extra}
