"""The transpiler's TensorFlow frontend: Keras 3 layers and models, ``tf.Module``\\ s and TF
functions, read into :class:`ivy.Graph`\\ s by interpreting their ``tf.function`` graphs with Ivy
ops.

``tf.function(fn).get_concrete_function(...)`` gives the program as a graph of TF raw ops on the
example inputs' shapes and dtypes; each op the outputs depend on is translated by a table
(``_ops_*.py``: ``MatMul`` -> ``ivy.matmul``, ``Conv2D`` -> ``ivy.conv2d`` in the op's own
``data_format``, ``FusedBatchNormV3`` -> ``ivy.batch_norm``, ``StridedSlice`` -> ``ivy.get_item``,
...) while :func:`ivy.plugin_kit.trace_program` records the Ivy ops into the graph. Variables read
by ``ReadVariableOp`` become the graph's parameters (trainable) and buffers (the others) by key
chain; shape arithmetic on static shapes is computed at transpile time. The layout never
changes: an NHWC model stays NHWC. A program using ops the table lacks raises
:class:`ivy.errors.UnsupportedOpsError` listing them all with their source lines. See
:mod:`ivy_tensorflow.frontend._objects` for the objects read and how variables are named.

``ivy.transpile`` loads this through the ``ivy_register_frontends`` hook (``load``).
"""

from __future__ import annotations

from ivy.plugin import FrontendImpl

from . import _ops_lists, _ops_math, _ops_nn, _ops_shape  # fill the table
from ._frontend import concrete_function, to_graph
from ._objects import fingerprint, kind
from ._opset import op_set

__all__ = ["load", "to_graph", "concrete_function", "kind", "op_set", "fingerprint"]


def load() -> FrontendImpl:
    """The frontend, as ``Frontend.load`` hands it to Ivy."""
    return FrontendImpl(kind=kind, to_graph=to_graph, op_set=op_set, fingerprint=fingerprint)
