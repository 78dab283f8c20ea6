"""Dtypes the target lacks: a graph read from torch holds int64 (BatchNorm's
``num_batches_tracked``, indices) and float64 where the source has them, but JAX without x64 has
neither. The target program then computes in the narrower dtype of the same kind, as the
framework itself does with such inputs (JAX turns int64 into int32): :func:`narrow_for`."""

from __future__ import annotations

from typing import Any

from .._dtypes import DType

__all__ = ["NARROWER", "narrow_dtypes", "narrow_for"]

#: a 64-bit dtype -> the one a target without it computes in
NARROWER = {"int64": "int32", "uint64": "uint32", "float64": "float32", "complex128": "complex64"}


def _used(g: Any, out: set[str]) -> set[str]:
    from ..graph import ConstArray, Subgraph
    from ..graph._ir import tree_leaves

    for v in g.inputs:
        out.add(v.dtype)
    for n in g.nodes:
        for leaf in tree_leaves((n.args, n.kwargs, n.outputs)):
            if isinstance(leaf, (ConstArray, DType)):
                out.add(str(leaf.dtype) if isinstance(leaf, ConstArray) else str(leaf))
            elif isinstance(leaf, Subgraph):
                _used(leaf.graph, out)
            elif hasattr(leaf, "dtype") and hasattr(leaf, "kind"):
                out.add(leaf.dtype)
    return out


def narrow_for(graph: Any, backend: str) -> Any:
    """``graph`` as the target ``backend`` can run it: the 64-bit dtypes it lacks narrowed."""
    from .. import _registry

    return narrow_dtypes(graph, set(_registry.get_backend(backend).impl.dtypes))


def narrow_dtypes(graph: Any, supported: set[str]) -> Any:
    """``graph`` with every dtype outside ``supported`` that has a supported narrower one
    (:data:`NARROWER`) replaced by it: values, dtype arguments, constants, parameter values."""
    todo = {d: NARROWER[d] for d in _used(graph, set()) if d not in supported and NARROWER.get(d) in supported}
    if not todo:
        return graph
    return _Narrow(todo).graph(graph)


def _dtype_index(op: str) -> int | None:
    """Where op ``op`` takes a ``dtype``: its positional index (-1: keyword only), or None."""
    import inspect

    from .._spec import SPECS

    spec = SPECS.get(op)
    if spec is None:
        return None
    params = list(spec.signature.parameters.values())
    for i, p in enumerate(params):
        if p.name == "dtype":
            return i if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) else -1
    return None if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params) else -1


class _Narrow:
    def __init__(self, todo: dict[str, str]):
        self.todo = todo
        self.values: dict[int, Any] = {}
        self.consts: dict[int, Any] = {}

    def value(self, v: Any) -> Any:
        from ..graph import Value

        if v.dtype not in self.todo:
            return v
        got = self.values.get(id(v))
        if got is None:
            got = self.values[id(v)] = Value(v.shape, self.todo[v.dtype], v.kind, v.hint)
        return got

    def const(self, c: Any) -> Any:
        from ..graph import ConstArray

        if c.dtype not in self.todo:
            return c
        got = self.consts.get(id(c))
        if got is None:
            import numpy as np  # (a target lacking 64-bit dtypes is a framework built on NumPy's)

            a = np.frombuffer(c.data, dtype=np.dtype(c.dtype).newbyteorder("<")).reshape(c.shape)
            new = self.todo[c.dtype]
            got = self.consts[id(c)] = ConstArray(new, c.shape, a.astype(np.dtype(new).newbyteorder("<")).tobytes())
        return got

    def leaf(self, x: Any) -> Any:
        from ..graph import ConstArray, Dim, Subgraph, Value

        if isinstance(x, Value):
            return self.value(x)
        if isinstance(x, ConstArray):
            return self.const(x)
        if isinstance(x, DType):
            return DType(self.todo.get(str(x), str(x)))
        if isinstance(x, Dim):
            return Dim(self.value(x.value), x.axis)
        if isinstance(x, Subgraph):
            return Subgraph(self.graph(x.graph), [self.value(c) for c in x.captures])
        return x

    def arguments(
        self, op: str, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """The arguments of a call of ``op``, a dtype given by name (``astype(x, "int64")``)
        narrowed too: the op's ``dtype`` parameter, found from its spec."""
        index = _dtype_index(op)
        if index is None:
            return args, kwargs
        if index >= 0 and index < len(args) and args[index] in self.todo:
            args = (*args[:index], self.todo[args[index]], *args[index + 1 :])
        if kwargs.get("dtype") in self.todo:
            kwargs = {**kwargs, "dtype": self.todo[kwargs["dtype"]]}
        return args, kwargs

    def graph(self, g: Any) -> Any:
        from ..graph import Guard, Node
        from ..graph._ir import map_tree

        def tree(t: Any) -> Any:
            return map_tree(self.leaf, t)

        return g.replace(
            inputs=[self.value(v) for v in g.inputs],
            params={k: self.value(v) for k, v in g.params.items()},
            param_values={k: self.const(c) for k, c in g.param_values.items()},
            state_updates={k: tree(v) for k, v in g.state_updates.items()},
            captures=[self.value(v) for v in g.captures],
            nodes=[
                Node(n.op, *self.arguments(n.op, tree(n.args), tree(n.kwargs)), tree(n.outputs), n.source)
                for n in g.nodes
            ],
            outputs=tree(g.outputs),
            guards=[Guard(self.value(gd.value), gd.kind, gd.expected, gd.source) for gd in g.guards],
        )
