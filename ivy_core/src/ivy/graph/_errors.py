"""Errors of the graph tracer: each names what went wrong, where (the traced source line), and
what to do about it."""

from __future__ import annotations

from ..errors import IvyError

__all__ = ["GraphError", "GraphTraceError", "GuardError", "ShapeMismatchError", "GraphEmitError", "GraphFormatError"]


class GraphError(IvyError):
    """Base class of the graph tracer's errors."""


class GraphTraceError(GraphError, TypeError):
    """The function cannot be traced as written (the message names the line and the fix)."""


class GuardError(GraphError, ValueError):
    """A graph was called with inputs that take another path through data-dependent Python
    control flow than the traced example did (a guard recorded at ``bool(x)``, ``int(x)``...)."""


class ShapeMismatchError(GraphError, ValueError):
    """A graph was called with an input whose shape, dtype or static value differs from the
    traced example's in a dimension that was not marked dynamic."""


class GraphEmitError(GraphError, NotImplementedError):
    """The graph cannot be emitted for the target backend (an op it lacks, named with its node
    and the source line of the traced call)."""


class GraphFormatError(GraphError, ValueError):
    """A stored graph (:meth:`ivy.Graph.load`, a transpile cache entry) is not a document Ivy
    writes: the message names the file and the JSON path of the first field that is wrong.
    Nothing is built from such a document."""
