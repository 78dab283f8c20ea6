"""The transpiler's torch frontend: torch programs read into :class:`ivy.Graph`.

``torch.export`` captures a ``torch.nn.Module`` or a function on example inputs as an FX
graph of ATen ops, decomposed to the Core ATen op set (with a few composites kept whole where
Ivy has the same op: ``linear``, ``scaled_dot_product_attention``, ``silu``...). The frontend
interprets that graph with Ivy ops, one small rule per ATen op (the table in the ``_*.py``
category modules), under the graph tracer, so the result is an Ivy graph of spec ops that any
backend emits. Layout is kept: NCHW stays NCHW, convolution weights stay OIHW parameters, taken
as they are by Ivy's convolutions (``filter_format``).

Loaded by ``ivy.transpile`` through the plugin's ``ivy_register_frontends`` hook
(``Frontend(name="torch", load="ivy_torch.frontend:load")``); importing it imports torch.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
from typing import Any

import torch

from ivy.plugin import FrontendImpl

from . import _fingerprint
from ._interpret import to_graph, unsupported_ops
from ._table import TABLE, core_ops, op_set

__all__ = ["load", "to_graph", "op_set", "core_ops", "unsupported_ops", "kind", "fingerprint", "TABLE"]


def kind(obj: Any) -> str | None:
    """``"module"`` for any ``torch.nn.Module`` (of any package: Hugging Face models, torchvision,
    user classes), ``"function"`` for other Python callables, None otherwise."""
    if isinstance(obj, torch.nn.Module):
        return "module"
    if inspect.isroutine(obj) or callable(obj) and not isinstance(obj, type):
        return "function"
    return None


def fingerprint(obj: Any) -> str | None:
    """A stable identity of the program ``obj`` runs, for the disk cache (None: not cacheable):
    its modules' classes and configuration, the mode, the parameters' and buffers' names, shapes
    and dtypes (not their values), the values of the globals its code reads, and the op table's
    rules (see ``_fingerprint``)."""
    return _fingerprint.fingerprint(obj, _table_stamp())


@functools.lru_cache(maxsize=1)
def _table_stamp() -> str:
    return hashlib.sha256(repr(sorted((name, r.doc) for name, r in TABLE.items())).encode()).hexdigest()


def load() -> FrontendImpl:
    """The torch frontend, as ``ivy.transpile`` uses it."""
    return FrontendImpl(kind=kind, to_graph=to_graph, op_set=op_set, fingerprint=fingerprint)
