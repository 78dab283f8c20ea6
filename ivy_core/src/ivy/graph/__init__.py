"""Ivy's graph tracer: the computational graph of any Ivy function or ``ivy.Module``, as a
framework-agnostic program of spec ops, turned back into pure target-framework code.

``ivy.trace_graph(fn, args=...)`` records every spec-op call ``fn`` makes on example inputs (a
recording backend whose arrays are thin proxies over a concrete backend's: nothing is
monkey-patched) into an :class:`ivy.Graph`. The graph prints as Python (``print(graph)``),
serializes to JSON plus safetensors, draws (``graph.show()``), is transformed by passes, and
emits programs: ``graph.to("jax")`` is a function of pure ``jax`` calls, compiled by
``jax.jit``. See ``docs/graphs.md``.

Passes are functions ``graph -> graph`` returning a new graph (:func:`eliminate_dead_code`,
:func:`fold_constants`, :func:`eliminate_common_subexpressions`, :func:`index_through_squeeze`,
:func:`forward_stores`, :func:`merge_reshapes`, :func:`merge_indexing`,
:func:`stack_from_concat`, :func:`unstack_from_indexes`, :func:`index_by_scalar` and
:func:`substitute` are the building blocks); the IR classes (:class:`Value`, :class:`Node`, :class:`ConstArray`,
:class:`Subgraph`, :class:`Guard`, :class:`Dim`) are what a pass reads and builds.
"""

from __future__ import annotations

from ._decompose import composed_ops, decompose
from ._entry import trace_graph
from ._errors import GraphEmitError, GraphError, GraphFormatError, GraphTraceError, GuardError, ShapeMismatchError
from ._graph import Graph
from ._ir import CALL, ConstArray, Dim, Guard, InputRef, Node, Subgraph, Value
from ._passes import DEFAULT as DEFAULT_PASSES
from ._passes import (
    eliminate_common_subexpressions,
    eliminate_dead_code,
    fold_constants,
    forward_stores,
    index_by_scalar,
    index_through_squeeze,
    merge_indexing,
    merge_reshapes,
    stack_from_concat,
    substitute,
    unstack_from_indexes,
)

__all__ = [
    "trace_graph",
    "Graph",
    "Value",
    "Node",
    "ConstArray",
    "Subgraph",
    "Guard",
    "Dim",
    "InputRef",
    "CALL",
    "DEFAULT_PASSES",
    "eliminate_dead_code",
    "fold_constants",
    "eliminate_common_subexpressions",
    "index_through_squeeze",
    "forward_stores",
    "merge_reshapes",
    "merge_indexing",
    "stack_from_concat",
    "unstack_from_indexes",
    "index_by_scalar",
    "substitute",
    "decompose",
    "composed_ops",
    "GraphError",
    "GraphTraceError",
    "GuardError",
    "ShapeMismatchError",
    "GraphEmitError",
    "GraphFormatError",
]
