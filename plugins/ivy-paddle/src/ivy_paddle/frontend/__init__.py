"""The transpiler's paddle frontend: ``paddle.nn.Layer``\\ s and functions of paddle tensors read
into :class:`ivy.Graph`\\ s by interpreting their static programs with Ivy ops.

``paddle.jit.to_static`` translates the function (or the Layer's ``forward``) on the example
inputs' shapes and dtypes into a PIR program of ``pd_op.*`` ops; each op is translated by a table
(``_ops_*.py``: ``pd_op.matmul`` -> ``ivy.matmul``, ``pd_op.conv2d`` -> ``ivy.conv2d`` in the
op's own ``data_format`` with the ``[out, in, kh, kw]`` weight permuted inside the graph,
``pd_op.batch_norm_`` -> ``ivy.batch_norm``...) while :func:`ivy.plugin_kit.trace_program`
records the Ivy ops. The Layer's parameters become the graph's parameters and its
non-trainable tensors (BatchNorm's running statistics) its buffers, by key chain from the
Layer's names (``fc.weight`` -> ``fc/weight``); a parameter with ``stop_gradient=True`` that the
program does not write is a frozen one (``graph.meta["frozen"]``), and a parameter two sublayers
share is one, its other names in ``graph.meta["ties"]``. The layout never changes: NCHW stays NCHW. A
program using ops the table lacks raises :class:`ivy.errors.UnsupportedOpsError` listing them
all with their source lines.

Limits: example inputs are positional tensors with static shapes; control flow must be static
(``to_static`` with ``full_graph=True``); the function's source must be available.

``ivy.transpile`` loads this through the ``ivy_register_frontends`` hook (``load``).
"""

from __future__ import annotations

import hashlib
import inspect
from typing import Any

import paddle

from ivy.plugin import FrontendImpl
from ivy.plugin_kit import code_fingerprint

from . import _ops_math, _ops_nn, _ops_shape  # fill the table
from ._interpret import capture, to_graph
from ._opset import op_set
from ._table import TABLE

__all__ = ["load", "to_graph", "capture", "kind", "op_set", "fingerprint", "TABLE"]


def kind(obj: Any) -> str | None:
    """``"module"`` for a ``paddle.nn.Layer``, ``"function"`` for other callables, else None."""
    if isinstance(obj, paddle.nn.Layer):
        return "module"
    if inspect.isroutine(obj) or callable(obj) and not isinstance(obj, type):
        return "function"
    return None


def _source(obj: Any) -> str:
    try:
        return inspect.getsource(obj)
    except (OSError, TypeError):
        return ""


def fingerprint(obj: Any) -> str | None:
    """A stable identity of the program ``obj`` runs (not of its weights), for the disk cache:
    paddle's version, the table, the source of the function or of every Layer class in the tree,
    the Layers' modes and the parameters' names, shapes and dtypes, and what that code reads
    beyond its text (``code_fingerprint``: globals' values, closures, the user code it calls);
    None where that cannot be described (then it is not cached)."""
    h = hashlib.sha256()
    h.update(paddle.__version__.encode())
    h.update(repr(sorted((name, r.doc) for name, r in TABLE.items())).encode())
    if isinstance(obj, paddle.nn.Layer):
        classes: dict[type, None] = {}  # (ordered, without repeats)
        for name, sub in obj.named_sublayers(include_self=True):
            h.update(f"{name}:{type(sub).__module__}.{type(sub).__qualname__}:{sub.training}".encode())
            h.update(_source(type(sub)).encode())
            classes[type(sub)] = None
        for name, t in (*obj.named_parameters(), *obj.named_buffers()):
            h.update(f"{name}:{tuple(t.shape)}:{t.dtype}:{t.stop_gradient}".encode())
        reads = code_fingerprint(*classes)
    else:
        h.update(f"{getattr(obj, '__module__', '')}.{getattr(obj, '__qualname__', repr(obj))}".encode())
        h.update(_source(obj).encode())
        reads = code_fingerprint(obj)
    if reads is None:
        return None
    h.update(reads.encode())
    return h.hexdigest()


def load() -> FrontendImpl:
    """The paddle frontend, as ``ivy.transpile`` uses it."""
    return FrontendImpl(kind=kind, to_graph=to_graph, op_set=op_set, fingerprint=fingerprint)
