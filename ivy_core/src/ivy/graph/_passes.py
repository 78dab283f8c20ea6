"""Graph passes. A pass is a function ``pass_(graph) -> graph`` that returns a new graph (it never
changes its argument): ``graph.apply(pass_)`` runs one, ``trace_graph(..., passes=[...])`` runs a
list after tracing. The built-in ones:

* :func:`eliminate_dead_code`: keeps only the nodes that contribute to the outputs, the guards or
  the buffer updates (and effects such as ``seed``), as the paper's tracer reconstructs the graph
  from its outputs.
* :func:`fold_constants`: computes the values that depend on no input (nor on randomness) once,
  and stores them as constant arrays.
* :func:`eliminate_common_subexpressions`: one node for each set of identical calls.
* :func:`index_through_squeeze`: ``squeeze(x[:, i:i+1], axis=1)`` as ``x[:, i]``, one op (what
  ``torch.export`` makes of ``unbind``, ``select`` and ``stack``'s inverse).
* :func:`forward_stores`: ``set_item(x, q, v)[q]`` is ``v`` (store-to-load forwarding): a running
  result written into a buffer and read back at once (``torch.maximum(out, y, out=out[0])``, as
  ``torch.export`` functionalises it) is no longer copied into a new buffer per step.
* :func:`merge_reshapes`: ``reshape(reshape(x, s1), s2)`` as ``reshape(x, s2)``.
* :func:`merge_indexing`: ``x[q1][q2]`` as one ``x[q]`` (ints and slices).
* :func:`stack_from_concat`: a concat whose reshape splits the joined axis per array is a ``stack``.
* :func:`unstack_from_indexes`: ``x[:, 0]``, ..., ``x[:, n-1]`` together are one ``unstack``.
* :func:`index_by_scalar`: ``take(x, reshape(s, (-1,)), axis=k)`` read at position 0 is ``x[:, s]``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from .. import _context
from .._dtypes import DType
from ._ir import CALL, ConstArray, Dim, GraphIR, Guard, Node, Subgraph, Value, map_tree, tree_leaves
from ._trace import EFFECTS, HOPS, RANDOM

__all__ = [
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
    "DEFAULT",
]

Pass = Callable[[GraphIR], GraphIR]


def substitute(g: GraphIR, mapping: dict[int, Any]) -> GraphIR:
    """``g`` with each value whose ``id`` is in ``mapping`` replaced (in node arguments, outputs,
    guards and buffer updates) by ``mapping[id(value)]`` (another value or a constant array)."""
    if not mapping:
        return g

    def sub(x: Any) -> Any:
        if isinstance(x, Value):
            return mapping.get(id(x), x)
        if isinstance(x, Dim) and id(x.value) in mapping:
            new = mapping[id(x.value)]
            return Dim(new, x.axis) if isinstance(new, Value) else new.shape[x.axis]
        if isinstance(x, Subgraph) and any(id(c) in mapping for c in x.captures):
            return _substitute_captures(x, mapping)
        return x

    nodes = [Node(n.op, map_tree(sub, n.args), map_tree(sub, n.kwargs), n.outputs, n.source) for n in g.nodes]
    guards = [Guard(mapping.get(id(gd.value), gd.value), gd.kind, gd.expected, gd.source) for gd in g.guards]
    guards = [gd for gd in guards if isinstance(gd.value, Value)]  # a guard on a constant always holds
    return g.replace(
        nodes=nodes,
        outputs=map_tree(sub, g.outputs),
        guards=guards,
        state_updates={k: map_tree(sub, v) for k, v in g.state_updates.items()},
    )


def _substitute_captures(s: Subgraph, mapping: dict[int, Any]) -> Subgraph:
    """A subgraph whose captured outer values are replaced: a constant is moved inside."""
    inner_map: dict[int, Any] = {}
    captures, outer = [], []
    for inner, o in zip(s.graph.captures, s.captures):
        new = mapping.get(id(o), o)
        if isinstance(new, Value):
            captures.append(inner)
            outer.append(new)
        else:
            inner_map[id(inner)] = new
    g = substitute(s.graph, inner_map).replace(captures=captures)
    return Subgraph(g, outer)


def eliminate_dead_code(g: GraphIR) -> GraphIR:
    """Only the nodes that contribute to the outputs, guards, buffer updates or effects."""
    live = {id(v) for v in g.output_values()} | {id(gd.value) for gd in g.guards}
    kept: list[Node] = []
    for n in reversed(g.nodes):
        if n.op in EFFECTS or any(id(v) in live for v in n.output_values()):
            n = _prune_subgraphs(n)
            kept.append(n)
            live.update(id(v) for v in n.input_values())
    kept.reverse()
    return g.replace(nodes=kept)


def _prune_subgraphs(n: Node) -> Node:
    if not n.subgraphs():
        return n

    def prune(x: Any) -> Any:
        if not isinstance(x, Subgraph):
            return x
        inner = eliminate_dead_code(x.graph)
        used = {id(v) for m in inner.nodes for v in m.input_values()} | {id(v) for v in inner.output_values()}
        pairs = [(c, o) for c, o in zip(inner.captures, x.captures) if id(c) in used]
        return Subgraph(inner.replace(captures=[c for c, _ in pairs]), [o for _, o in pairs])

    return Node(n.op, map_tree(prune, n.args), n.kwargs, n.outputs, n.source)


def _key(x: Any, canon: dict[int, Value]) -> Any:
    t = type(x)
    if isinstance(x, Value):
        return ("v", id(canon.get(id(x), x)))
    if isinstance(x, Dim):
        return ("dim", id(canon.get(id(x.value), x.value)), x.axis)
    if isinstance(x, ConstArray):
        return ("c", x.dtype, x.shape, hashlib.sha1(x.data).hexdigest())
    if isinstance(x, DType):
        return ("dt", str(x))
    if t in (tuple, list):
        return (t.__name__, tuple(_key(e, canon) for e in x))
    if isinstance(x, dict):
        return ("dict", tuple((k, _key(e, canon)) for k, e in x.items()))
    if t is slice:
        return ("slice", _key(x.start, canon), _key(x.stop, canon), _key(x.step, canon))
    if t is float or t is complex:
        return (t.__name__, repr(x))  # 0.0 and -0.0 differ; nan equals itself here
    return (t.__name__, x)


def eliminate_common_subexpressions(g: GraphIR) -> GraphIR:
    """Merges identical calls (same op, same arguments) into the first; random ops, effects and
    gradient ops are never merged."""
    seen: dict[Any, Node] = {}
    canon: dict[int, Value] = {}
    nodes: list[Node] = []
    for n in g.nodes:
        if n.op in RANDOM or n.op in EFFECTS or n.op in HOPS or n.op == CALL:
            nodes.append(n)
            continue
        key = (n.op, _key(n.args, canon), _key(n.kwargs, canon))
        first = seen.get(key)
        if first is not None:
            mine, theirs = n.output_values(), first.output_values()
            if len(mine) == len(theirs):
                for a, b in zip(mine, theirs):
                    canon[id(a)] = b
                continue
        seen[key] = n
        nodes.append(n)
    return eliminate_dead_code(substitute(g.replace(nodes=nodes), dict(canon)))


def fold_constants(g: GraphIR, backend: Any = None, *, known: dict[int, tuple[Value, Any]] | None = None) -> GraphIR:
    """Replaces the values that depend on no input (nor on a random op) by constant arrays,
    computed once on ``backend`` (default: the backend the graph was traced on, else the current
    one; ``known``: id -> (value, native) of values already computed, as the tracer has them).
    Values made from Python scalars alone (``zeros``, ``arange``) stay nodes: they are cheaper to
    make than to store, and are folded into the constants computed from them."""
    dependent: set[int] = {id(v) for v in g.inputs}
    for n in g.nodes:
        if (
            n.op in RANDOM
            or n.op in EFFECTS
            or n.op in HOPS
            or n.op == CALL
            or any(id(v) in dependent for v in n.input_values())
        ):
            dependent.update(id(v) for v in n.output_values())
    producer: dict[int, Node] = {id(v): n for n in g.nodes for v in n.output_values()}

    def worth(v: Value) -> bool:  # made from arrays: folding saves computing it
        n = producer.get(id(v))
        return n is not None and any(isinstance(a, (Value, ConstArray)) for a in tree_leaves((n.args, n.kwargs)))

    wanted: list[Value] = []
    consumers = [m for m in g.nodes if any(id(v) in dependent for v in m.output_values()) or m.op in EFFECTS]
    uses = [v for m in consumers for v in m.input_values()] + g.output_values() + [gd.value for gd in g.guards]
    for v in uses:
        if id(v) not in dependent and id(v) in producer and worth(v) and all(w is not v for w in wanted):
            wanted.append(v)
    if not wanted:
        return g
    b = None
    env: dict[int, Any] = {k: nat for k, (_, nat) in (known or {}).items()}
    mapping: dict[int, Any] = {}
    for v in wanted:
        if id(v) not in env:
            if b is None:
                b = _fold_backend(g, backend)
            _evaluate(g, v, env, b, producer)
        mapping[id(v)] = ConstArray.from_native(env[id(v)], b.name if b is not None else g.meta.get("backend"))
    return eliminate_dead_code(substitute(g, mapping))


def _fold_backend(g: GraphIR, backend: Any) -> Any:
    if backend is not None:
        return _context.resolve(backend)
    name = g.meta.get("backend")
    if name:
        try:
            return _context.resolve(name)
        except Exception:  # not installed here: the current backend folds
            pass
    return _context.current_backend_object()


def _evaluate(g: GraphIR, v: Value, env: dict[int, Any], b: Any, producer: dict[int, Node]) -> None:
    node = producer[id(v)]
    for w in node.input_values():
        if id(w) not in env:
            _evaluate(g, w, env, b, producer)

    def nat(x: Any) -> Any:
        if isinstance(x, Value):
            return env[id(x)]
        if isinstance(x, ConstArray):
            return x.to_native(b)
        if isinstance(x, DType):
            return b.impl.dtypes[str(x)]
        return x

    out = b.calls[node.op](*map_tree(nat, node.args), **map_tree(nat, node.kwargs))
    flat_out = [o for o in tree_leaves(out) if isinstance(o, b.array_types)]
    for val, native in zip(node.output_values(), flat_out):
        env[id(val)] = native


def _single_position(q: Any, size: int | None) -> int | None:
    """``i`` where ``q`` is the slice ``i:i+1`` of an axis of ``size`` (``0 <= i < size``)."""
    if type(q) is not slice or q.step not in (None, 1):
        return None
    start = 0 if q.start is None else q.start
    if type(start) is not int or type(q.stop) is not int or q.stop != start + 1:
        return None
    return start if size is not None and 0 <= start < size else None


def _index_of_squeezed(n: Node, producer: dict[int, Node], uses: dict[int, int]) -> Node | None:
    """The one ``get_item`` that ``n`` (a squeeze of a one-position slice) amounts to, or None."""
    if n.op != "squeeze" or not n.args or set(n.kwargs) - {"axis"} or len(n.args) > 2:
        return None
    x = n.args[0]
    axis = n.kwargs["axis"] if "axis" in n.kwargs else (n.args[1] if len(n.args) == 2 else None)
    p = producer.get(id(x))
    if p is None or p.op != "get_item" or p.kwargs or len(p.args) != 2 or uses.get(id(x)) != 1:
        return None
    src, query = p.args
    query = query if type(query) is tuple else (query,)
    if not isinstance(src, Value) or src.shape is None or not all(type(q) is slice for q in query):
        return None  # (ints, None, Ellipsis or arrays in the query renumber the axes: left alone)
    ndim = len(src.shape)
    axes = (axis,) if type(axis) is int else axis
    if type(axes) is not tuple or not axes or not all(type(a) is int and -ndim <= a < ndim for a in axes):
        return None
    index = list(query) + [slice(None)] * (ndim - len(query))
    for a in {a % ndim for a in axes}:
        i = _single_position(index[a], src.shape[a])
        if i is None:
            return None
        index[a] = i
    return Node("get_item", (src, tuple(index)), {}, n.outputs, n.source)


def index_through_squeeze(g: GraphIR) -> GraphIR:
    """Each ``squeeze`` of axes that a ``get_item`` (read by nothing else) cut to one position
    (``x[:, i:i+1]``) becomes one ``get_item`` with the integer index (``x[:, i]``): the same
    values, one op fewer (``torch.export`` decomposes ``unbind`` and ``select`` into such pairs;
    an eager target pays for every op)."""
    return _rewrite_each(g, _index_of_squeezed)


def _rewrite_each(g: GraphIR, rewrite: Callable[[Node, dict[int, Node], dict[int, int]], Node | None]) -> GraphIR:
    """``g`` with each node that ``rewrite(node, producer, uses)`` replaces (``producer``: the node
    making each value, a replaced one included, so chains fold; ``uses``: the reads of each value
    in ``g``), then without the nodes nothing reads any more."""
    uses = _uses(g)
    producer = {id(v): n for n in g.nodes for v in n.output_values()}
    nodes, changed = [], False
    for n in g.nodes:
        new = rewrite(n, producer, uses)
        if new is not None:
            producer.update((id(v), new) for v in new.output_values())
            n, changed = new, True
        nodes.append(n)
    return eliminate_dead_code(g.replace(nodes=nodes)) if changed else g


def _uses(g: GraphIR) -> dict[int, int]:
    """How many times each value is read (by nodes, outputs and guards)."""
    uses: dict[int, int] = {}
    for v in [v for n in g.nodes for v in n.input_values()] + g.output_values() + [gd.value for gd in g.guards]:
        uses[id(v)] = uses.get(id(v), 0) + 1
    return uses


def _basic_index(q: Any) -> bool:
    """``q`` is made of ints and slices of ints only: it selects each element at most once and its
    result does not depend on any array (so the same ``q`` reads back what it wrote)."""
    parts = q if type(q) is tuple else (q,)
    for p in parts:
        if type(p) is slice:
            if not all(b is None or type(b) is int for b in (p.start, p.stop, p.step)) or p.step == 0:
                return False
        elif type(p) is not int:
            return False
    return True


def _stored(n: Node, producer: dict[int, Node]) -> Value | None:
    """The value that ``n`` (``get_item(y, q)``) reads back from ``y = set_item(x, q, v)``: ``v``,
    where it has the read's static shape and dtype already (no broadcast or cast left)."""
    if n.op != "get_item" or n.kwargs or len(n.args) != 2 or not isinstance(n.args[0], Value):
        return None
    w = producer.get(id(n.args[0]))
    if w is None or w.op != "set_item" or w.kwargs or len(w.args) != 3:
        return None
    query, v = w.args[1], w.args[2]
    out = n.outputs
    if not _basic_index(query) or query != n.args[1] or not isinstance(v, Value) or not isinstance(out, Value):
        return None
    if out.shape is None or None in out.shape or v.shape != out.shape or v.dtype != out.dtype:
        return None
    return v


def forward_stores(g: GraphIR) -> GraphIR:
    """Each ``set_item(x, q, v)[q]`` (the same ints-and-slices ``q``) is ``v`` itself, where ``v``
    has the shape and dtype of the read: what was written is what is read back. The writes that
    nothing else reads are then dropped (a running maximum written into ``out[0]`` 48 times and
    read back each time was 48 copies of the whole buffer)."""
    producer = {id(v): n for n in g.nodes for v in n.output_values()}
    mapping: dict[int, Any] = {}
    for n in g.nodes:
        v = _stored(n, producer)
        if v is not None:
            mapping[id(n.outputs)] = mapping.get(id(v), v)
    if not mapping:
        return g
    return eliminate_dead_code(substitute(g, mapping))


def _merged_reshape(n: Node, producer: dict[int, Node], uses: dict[int, int]) -> Node | None:
    inner = producer.get(id(n.args[0])) if n.op == "reshape" and n.args else None
    if inner is None or inner.op != "reshape" or uses.get(id(n.args[0])) != 1 or inner.kwargs or len(inner.args) != 2:
        return None
    if set(n.kwargs) - {"shape"}:
        return None
    return Node("reshape", (inner.args[0], *n.args[1:]), n.kwargs, n.outputs, n.source)


def merge_reshapes(g: GraphIR) -> GraphIR:
    """``reshape(reshape(x, s1), s2)`` where nothing else reads the inner one is ``reshape(x, s2)``:
    a reshape keeps the C order of the elements, so the intermediate shape does not matter."""
    return _rewrite_each(g, _merged_reshape)


def _as_slice(r: range, size: int) -> slice:
    """The slice of an axis of ``size`` that selects the positions ``r``."""
    if not r:
        return slice(0, 0)
    step = None if r.step == 1 else r.step
    start = None if r.start == (0 if r.step > 0 else size - 1) else r.start
    end = r.stop if r.step > 0 else (r.stop if r.stop >= 0 else None)
    return slice(start, None if end == (size if r.step > 0 else None) else end, step)


def _composed_index(shape: tuple[Any, ...], q1: Any, q2: Any) -> tuple[Any, ...] | None:
    """One query ``q`` with ``x[q] == x[q1][q2]`` for ``x`` of static ``shape``, or None."""
    q1 = q1 if type(q1) is tuple else (q1,)
    q2 = q2 if type(q2) is tuple else (q2,)
    if not (_basic_index(q1) and _basic_index(q2)) or len(q1) > len(shape) or not all(type(d) is int for d in shape):
        return None
    picks: list[Any] = []  # per axis of x: an int, or the range of positions left
    for size, q in zip(shape, list(q1) + [slice(None)] * (len(shape) - len(q1))):
        if type(q) is int:
            if not -size <= q < size:
                return None
            picks.append(q % size)
        else:
            picks.append(range(size)[q])
    kept = [a for a, p in enumerate(picks) if type(p) is range]
    if len(q2) > len(kept):
        return None
    for a, q in zip(kept, q2):
        r = picks[a]
        if type(q) is int and not -len(r) <= q < len(r):
            return None
        picks[a] = r[q]
    out = [p if type(p) is int else _as_slice(p, size) for p, size in zip(picks, shape)]
    while len(out) > 1 and out[-1] == slice(None):
        out.pop()
    return tuple(out)


def _merged_index(n: Node, producer: dict[int, Node], uses: dict[int, int]) -> Node | None:
    inner = producer.get(id(n.args[0])) if n.op == "get_item" and len(n.args) == 2 and not n.kwargs else None
    if inner is None or inner.op != "get_item" or len(inner.args) != 2 or inner.kwargs:
        return None
    src = inner.args[0]
    q = _composed_index(src.shape, inner.args[1], n.args[1]) if isinstance(src, Value) and src.shape else None
    return None if q is None else Node("get_item", (src, q), {}, n.outputs, n.source)


def merge_indexing(g: GraphIR) -> GraphIR:
    """``x[q1][q2]`` (``get_item`` of a ``get_item``, both of ints and slices, ``x`` of static
    shape) as one ``x[q]``: the same elements, one op; an inner ``get_item`` that every reader
    merged is dropped."""
    return _rewrite_each(g, _merged_index)


def _stacked(n: Node, producer: dict[int, Node], uses: dict[int, int]) -> Node | None:
    """The one ``stack`` that ``n`` (a reshape of a concat read by nothing else) amounts to, or None."""
    if n.op != "reshape" or not n.args or not isinstance(n.args[0], Value) or not isinstance(n.outputs, Value):
        return None
    c = producer.get(id(n.args[0]))
    if c is None or c.op != "concat" or uses.get(id(n.args[0])) != 1 or set(c.kwargs) - {"axis"} or len(c.args) != 1:
        return None
    xs, axis = c.args[0], c.kwargs.get("axis", 0)
    if not isinstance(xs, (list, tuple)) or not xs or not all(isinstance(x, Value) for x in xs):
        return None
    s = xs[0].shape
    if s is None or None in s or any(x.shape != s or x.dtype != xs[0].dtype for x in xs):
        return None
    if type(axis) is not int or not -len(s) <= axis < len(s):
        return None
    k = axis % len(s)
    if n.outputs.shape != (*s[:k], len(xs), *s[k:]):
        return None
    return Node("stack", (list(xs),), {"axis": k}, n.outputs, n.source)


def stack_from_concat(g: GraphIR) -> GraphIR:
    """``reshape(concat(xs, axis=k), ...)`` that splits axis ``k`` back into one position per
    array (each of the same shape) is ``stack(xs, axis=k)``: one op (``torch.export`` writes
    ``torch.stack`` so)."""
    return _rewrite_each(g, _stacked)


def _position(n: Node) -> tuple[int, Value, int, int] | None:
    """``(id(x), x, axis, i)`` where ``n`` is ``x[:, i]`` (one int, every other entry a full
    slice) on a static axis of ``x``, or None."""
    if n.op != "get_item" or n.kwargs or len(n.args) != 2 or not isinstance(n.args[0], Value):
        return None
    x, q = n.args
    q = q if type(q) is tuple else (q,)
    ints = [a for a, p in enumerate(q) if type(p) is int]
    if x.shape is None or len(ints) != 1 or any(p != slice(None) for a, p in enumerate(q) if a != ints[0]):
        return None
    axis, i = ints[0], q[ints[0]]
    if len(q) > len(x.shape) or type(x.shape[axis]) is not int or not -x.shape[axis] <= i < x.shape[axis]:
        return None
    return id(x), x, axis, i % x.shape[axis]


def unstack_from_indexes(g: GraphIR) -> GraphIR:
    """The integer indexes ``x[:, 0]``, ..., ``x[:, n-1]`` of every position of one axis are one
    ``unstack(x, axis=1)`` (``torch.export`` writes ``unbind`` so, one op per position), placed
    where the first of them was."""
    groups: dict[tuple[int, int], dict[int, Node]] = {}
    for n in g.nodes:
        p = _position(n)
        if p is not None:
            groups.setdefault((p[0], p[2]), {}).setdefault(p[3], n)
    order = {id(n): k for k, n in enumerate(g.nodes)}
    whole: dict[int, Node] = {}  # id of the first index of a group -> its unstack
    dropped: set[int] = set()
    for (_, axis), found in groups.items():
        x = found[next(iter(found))].args[0]
        if len(found) != x.shape[axis] or len(found) < 2:
            continue
        members = [found[i] for i in range(len(found))]
        first = min(members, key=lambda m: order[id(m)])
        whole[id(first)] = Node("unstack", (x,), {"axis": axis}, tuple(m.outputs for m in members), first.source)
        dropped.update(id(m) for m in members)
    if not whole:
        return g
    nodes = [whole.get(id(n), n) for n in g.nodes if id(n) in whole or id(n) not in dropped]
    return g.replace(nodes=nodes)


def _scalar_taken(n: Node, producer: dict[int, Node], uses: dict[int, int]) -> Node | None:
    """``x[:, s]`` where ``n`` reads position 0 of ``take(x, reshape(s, (-1,)), axis=1)`` (read by
    nothing else) and ``s`` is a 0-d integer array, or None."""
    if n.op != "get_item" or n.kwargs or len(n.args) != 2 or not isinstance(n.args[0], Value):
        return None
    t = producer.get(id(n.args[0]))
    if t is None or t.op != "take" or len(t.args) != 2 or set(t.kwargs) - {"axis"} or uses.get(id(n.args[0])) != 1:
        return None
    x, idx, axis = t.args[0], t.args[1], t.kwargs.get("axis")
    if not isinstance(x, Value) or not x.shape or type(axis) is not int or not -len(x.shape) <= axis < len(x.shape):
        return None
    r = producer.get(id(idx)) if isinstance(idx, Value) else None
    if r is None or r.op != "reshape" or r.kwargs or len(r.args) != 2 or tuple(r.args[1]) not in ((-1,), (1,)):
        return None
    scalar = r.args[0]
    if not isinstance(scalar, Value) or scalar.shape != () or not str(scalar.dtype).startswith(("int", "uint")):
        return None
    a = axis % len(x.shape)
    q = n.args[1] if type(n.args[1]) is tuple else (n.args[1],)
    if len(q) <= a or q[a] != 0 or type(q[a]) is not int or any(p != slice(None) for k, p in enumerate(q) if k != a):
        return None
    return Node("get_item", (x, (*[slice(None)] * a, scalar)), {}, n.outputs, n.source)


def index_by_scalar(g: GraphIR) -> GraphIR:
    """``take(x, reshape(s, (-1,)), axis=k)`` read only at position 0 along ``k``, ``s`` a 0-d
    integer array, is ``x[:, ..., s]``: one op, not three (``torch.export`` writes
    ``x.index_select(k, s.view(1))[0]`` so; both take ``s`` in ``[-n, n)``)."""
    return _rewrite_each(g, _scalar_taken)


#: what ``trace_graph`` runs by default
DEFAULT: tuple[Pass, ...] = (
    fold_constants,
    eliminate_common_subexpressions,
    index_through_squeeze,
    forward_stores,
    merge_reshapes,
    merge_indexing,
    stack_from_concat,
    unstack_from_indexes,
    index_by_scalar,
    eliminate_dead_code,
)
