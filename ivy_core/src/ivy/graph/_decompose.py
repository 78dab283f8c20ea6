"""The ``decompose`` pass: composed ops (``gelu``, ``layer_norm``, ``cross_entropy``...) written
out as the primitive ops core composes them from."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .. import _context
from .._compose import load_defaults
from ._build import trace_function
from ._ir import ConstArray, Dim, GraphIR, Node, Value, map_tree, tree_leaves
from ._passes import eliminate_dead_code, substitute

__all__ = ["decompose", "composed_ops"]


def composed_ops(backend: Any = None) -> set[str]:
    """The ops core composes from others; with ``backend``, those it has no native function for."""
    names = set(load_defaults())
    if backend is None:
        return names
    b = _context.resolve(backend)
    return {n for n in names if n not in b.native_ops}


def decompose(g: GraphIR, ops: Iterable[str] | None = None, *, backend: Any = None) -> GraphIR:
    """``g`` with each node of a composed op (of ``ops``, default all) replaced by the primitive
    ops of core's composition. Each node is traced again on example arrays of its inputs' shapes
    and dtypes on ``backend`` (default: the traced one); a composition that branches on values
    there (a guard) is left as it is."""
    wanted = composed_ops() if ops is None else set(ops) & composed_ops()
    b = _context.resolve(backend or g.meta.get("backend") or _context.current_backend_object())
    nodes: list[Node] = []
    mapping: dict[int, Any] = {}
    changed = False
    for n in g.nodes:
        if n.subgraphs():
            n = Node(n.op, map_tree(lambda x: _sub(x, wanted, b), n.args), n.kwargs, n.outputs, n.source)
        if n.op not in wanted:
            nodes.append(n)
            continue
        inner = _expand(n, b, wanted)
        if inner is None:
            nodes.append(n)
            continue
        inner_nodes, out_map = inner
        nodes.extend(inner_nodes)
        mapping.update(out_map)
        changed = True
    if not changed:
        return g.replace(nodes=nodes)
    return eliminate_dead_code(substitute(g.replace(nodes=nodes), mapping))


def _sub(x: Any, wanted: set[str], b: Any) -> Any:
    from ._ir import Subgraph

    if isinstance(x, Subgraph):
        return Subgraph(decompose(x.graph, wanted, backend=b), x.captures)
    return x


def _example(v: Value, b: Any) -> Any:
    shape = tuple(2 if d is None else d for d in (v.shape or ()))
    dt = b.impl.dtypes[v.dtype]
    if v.dtype in ("float32", "float64", "complex64", "complex128"):
        return b.calls["full"](shape, 0.5, dtype=dt)
    return b.calls["zeros"](shape, dtype=dt)


def _expand(n: Node, b: Any, wanted: set[str]) -> tuple[list[Node], dict[int, Any]] | None:
    """The primitive nodes of ``n`` (reading ``n``'s input values) and a map from ``n``'s
    outputs to theirs, or None where ``n`` cannot be decomposed this way."""
    leaves = [x for x in tree_leaves((n.args, n.kwargs)) if isinstance(x, Value)]
    if any(isinstance(x, Dim) for x in tree_leaves((n.args, n.kwargs))) or any(v.kind == "function" for v in leaves):
        return None
    uniq: list[Value] = []
    for v in leaves:
        if all(v is not u for u in uniq):
            uniq.append(v)
    from .. import _api

    space, _, short = n.op.rpartition(".")
    fn = getattr(getattr(_api, space) if space else _api, short)

    def call(*xs: Any) -> Any:
        env = {id(v): x for v, x in zip(uniq, xs)}

        def put(a: Any) -> Any:
            if isinstance(a, Value):
                return env[id(a)]
            if isinstance(a, ConstArray):
                return a.to_native(b)
            return a

        return fn(*map_tree(put, n.args), **map_tree(put, n.kwargs))

    try:
        sub, _ = trace_function(call, tuple(_example(v, b) for v in uniq), {}, b, wanted, {})
    except Exception:  # a composition that needs real values: the node stays
        return None
    if sub.guards:
        return None
    inner_in = {id(iv): ov for iv, ov in zip(sub.inputs, uniq)}
    body = substitute(sub, inner_in)
    outs = [v for v in tree_leaves(body.outputs)]
    mine = n.output_values()
    if len(outs) != len(mine) or not all(isinstance(o, (Value, ConstArray)) for o in outs):
        return None
    for node in body.nodes:  # the composed op's line, for errors and the printed view
        node.source = n.source
    return body.nodes, {id(m): o for m, o in zip(mine, outs)}
