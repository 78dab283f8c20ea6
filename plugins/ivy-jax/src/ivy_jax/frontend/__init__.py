"""The transpiler's JAX frontend: JAX functions, Flax (linen and nnx) and Haiku modules, read
into :class:`ivy.Graph`\\ s by interpreting their jaxprs with Ivy ops.

``jax.make_jaxpr`` gives the program as a closed jaxpr on the example inputs; each equation's
primitive is translated by a table (``_ops_*.py``: ``dot_general`` -> ``ivy.matmul`` /
``ivy.einsum``, ``conv_general_dilated`` -> ``ivy.conv2d`` in the input's own layout, ...)
while :func:`ivy.plugin_kit.trace_program` records the Ivy ops into the graph. Calls
(``jit``, ``custom_jvp_call``...) are inlined, ``scan`` and ``while`` loops unrolled (a while
loop only when its trip count is known at transpile time), ``cond`` resolved or selected. A
program using primitives the table lacks raises :class:`ivy.errors.UnsupportedOpsError` listing
them all with their source lines. See :mod:`ivy_jax.frontend._objects` for the objects read and
how their variables become key chains.

``ivy.transpile`` loads this through the ``ivy_register_frontends`` hook (``load``).
"""

from __future__ import annotations

from ivy.plugin import FrontendImpl

# imported to fill the table
from . import _ops_control, _ops_elementwise, _ops_indexing, _ops_linalg, _ops_linear, _ops_reduce, _ops_shape
from ._frontend import to_graph, to_jaxpr
from ._objects import fingerprint, kind
from ._opset import op_set

__all__ = ["load", "to_graph", "to_jaxpr", "kind", "op_set", "fingerprint"]


def load() -> FrontendImpl:
    """The frontend, as ``Frontend.load`` hands it to Ivy."""
    return FrontendImpl(kind=kind, to_graph=to_graph, op_set=op_set, fingerprint=fingerprint)
