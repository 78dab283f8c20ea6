"""The transpiler's NumPy frontend: NumPy functions read into :class:`ivy.Graph`\\ s through
NumPy's dispatch protocols.

The function runs on tracer arrays (:mod:`ivy_numpy.frontend._tracer`) whose
``__array_ufunc__`` and ``__array_function__`` receive every ufunc (``np.add``, the Python
operators, ``np.exp``...) and function (``np.sum``, ``np.einsum``, ``np.linalg.norm``...) called
on them; tables map each to Ivy ops (``_table.py``, ``_ops.py``), recorded by
:func:`ivy.plugin_kit.trace_program`. A first run with NumPy itself learns the dtype NumPy gives
each result (the graph casts to it, so NumPy's promotion rules hold on every target) and lists
every call the tables lack, raised at once as :class:`ivy.errors.UnsupportedOpsError`.

Limits: arrays made inside the function from no input (``np.ones(3)``) are constants;
``np.asarray(traced)`` and other conversions to concrete arrays leave the trace (an error);
Python control flow on array values is guarded as in :func:`ivy.trace_graph`.

``ivy.transpile`` loads this through the ``ivy_register_frontends`` hook (``load``).
"""

from __future__ import annotations

from ivy.plugin import FrontendImpl

from . import _ops, _ops_more  # fill the tables
from ._frontend import fingerprint, kind, op_set, probe, to_graph
from ._tracer import Tracer

__all__ = ["load", "to_graph", "probe", "kind", "op_set", "fingerprint", "Tracer"]


def load() -> FrontendImpl:
    """The frontend, as ``Frontend.load`` hands it to Ivy."""
    return FrontendImpl(kind=kind, to_graph=to_graph, op_set=op_set, fingerprint=fingerprint)
