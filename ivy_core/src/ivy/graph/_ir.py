"""The graph IR: values, nodes of spec ops, guards, subgraphs and backend-neutral constants.

A graph is a list of :class:`Node` in execution order. Each node calls one spec op (``"matmul"``,
``"linalg.inv"``, ``"conv2d"``: the names of :data:`ivy._spec.SPECS`) with positional and keyword
arguments that are *argument trees*: tuples, lists, dicts and slices whose leaves are graph
values (:class:`Value`), symbolic dimensions (:class:`Dim`), constant arrays
(:class:`ConstArray`), subgraphs (:class:`Subgraph`, the function argument of a gradient op),
dtypes (:class:`ivy.DType`) or Python constants (``None``, ``bool``, ``int``, ``float``,
``complex``, ``str``, ``...``). Nothing refers to a framework: a graph traced on torch runs on
jax. Values are identified by object identity; names are given when the graph is printed.
"""

from __future__ import annotations

import math
import sys
from array import array as _array
from collections.abc import Callable, Iterator
from typing import Any

from .. import _api
from ._eager import outside_traces

__all__ = [
    "Value",
    "Dim",
    "ConstArray",
    "Subgraph",
    "Node",
    "Guard",
    "GraphIR",
    "InputRef",
    "map_tree",
    "tree_leaves",
    "CALL",
    "ITEMSIZE",
]

#: the op of a node that calls a function value (the pullback that ``vjp`` returns)
CALL = "@call"

#: bytes per element of each dtype a constant may have
ITEMSIZE = {
    "bool": 1,
    "int8": 1,
    "uint8": 1,
    "int16": 2,
    "uint16": 2,
    "int32": 4,
    "uint32": 4,
    "int64": 8,
    "uint64": 8,
    "float32": 4,
    "float64": 8,
    "complex64": 8,
    "complex128": 16,
}


class Value:
    """One array (or function) flowing through a graph.

    Attributes:
        shape: the dimensions, ``None`` where a dimension is dynamic (any size at call time).
        dtype: the dtype name (``"float32"``); ``None`` for a function value.
        kind: ``"input"``, ``"param"`` (a module's trainable variable), ``"buffer"`` (its
            non-trainable state), ``"capture"`` (an outer value a subgraph uses), ``"op"`` (a
            node's output) or ``"function"`` (a callable a node returned).
        hint: the name it prints with (made unique when printed): the argument name, the
            parameter's key chain, or the op's short name.
    """

    __slots__ = ("shape", "dtype", "kind", "hint", "__weakref__")

    def __init__(self, shape: tuple[int | None, ...] | None, dtype: str | None, kind: str, hint: str):
        self.shape = shape
        self.dtype = dtype
        self.kind = kind
        self.hint = hint

    @property
    def type_str(self) -> str:
        """``float32[3, ?]``: dtype and shape, ``?`` for a dynamic dimension."""
        if self.kind == "function":
            return "function"
        dims = ", ".join("?" if d is None else str(d) for d in (self.shape or ()))
        return f"{self.dtype}[{dims}]"

    def __repr__(self) -> str:
        return f"<Value {self.hint}: {self.type_str}>"


class Dim:
    """The size of dimension ``axis`` of ``value`` at run time (a dynamic dimension that traced
    code passed to an op, as in ``ivy.reshape(x, (x.shape[0], -1))``)."""

    __slots__ = ("value", "axis")

    def __init__(self, value: Value, axis: int):
        self.value = value
        self.axis = axis

    def __repr__(self) -> str:
        return f"Dim({self.value.hint}, {self.axis})"


class ConstArray:
    """A constant array stored without any framework: dtype name, shape and C-order
    little-endian bytes. It becomes a native array of a backend on emission (cached per backend)."""

    __slots__ = ("dtype", "shape", "data", "_natives")

    def __init__(self, dtype: str, shape: tuple[int, ...], data: bytes):
        if dtype not in ITEMSIZE:
            raise ValueError(f"a graph constant cannot have dtype {dtype!r}")
        if len(data) != math.prod(shape) * ITEMSIZE[dtype]:
            raise ValueError(f"{len(data)} bytes do not hold a {dtype} array of shape {shape}")
        self.dtype = dtype
        self.shape = tuple(int(d) for d in shape)
        self.data = bytes(data)
        self._natives: dict[str, Any] = {}

    @classmethod
    def from_native(cls, x: Any, backend: str | None = None) -> ConstArray:
        """The constant holding native array ``x`` (any backend)."""
        a = _api.to_numpy(x)
        if sys.byteorder == "big" and a.dtype.itemsize > 1:
            a = a.byteswap()
        c = cls(a.dtype.name, tuple(a.shape), a.tobytes(order="C"))
        if backend is not None:
            c._natives[backend] = x
        return c

    def tolist(self) -> list[Any]:
        """The elements as a flat list of Python numbers."""
        d = self.dtype
        if d == "bool":
            return [b != 0 for b in self.data]
        if d.startswith("complex"):
            parts = _array("f" if d == "complex64" else "d", self.data)
            if sys.byteorder == "big":
                parts.byteswap()
            return [complex(parts[i], parts[i + 1]) for i in range(0, len(parts), 2)]
        code = _typecode(d)
        arr = _array(code, self.data)
        if sys.byteorder == "big":
            arr.byteswap()
        return arr.tolist()

    def to_native(self, backend: Any) -> Any:
        """This constant as a native array of ``backend`` (a Backend object), cached."""
        got = self._natives.get(backend.name)
        if got is not None:
            return got
        # (cached: made eagerly even on a first use inside jax.jit or tf.function)
        with outside_traces(backend.name):
            x = self._make_native(backend)
        self._natives[backend.name] = x
        return x

    def _make_native(self, backend: Any) -> Any:
        np = sys.modules.get("numpy")  # the fast way where a plugin has imported NumPy already
        if np is not None:
            try:
                a = np.frombuffer(self.data, dtype=np.dtype(self.dtype).newbyteorder("<")).reshape(self.shape)
                return backend.calls["asarray"](a.astype(self.dtype), dtype=backend.impl.dtypes[self.dtype], copy=True)
            except Exception:  # a backend that does not take NumPy arrays: the lists below
                pass
        flat = backend.calls["asarray"](self.tolist(), dtype=backend.impl.dtypes[self.dtype])
        return backend.calls["reshape"](flat, self.shape)

    def same(self, other: ConstArray) -> bool:
        return self.dtype == other.dtype and self.shape == other.shape and self.data == other.data

    @property
    def type_str(self) -> str:
        return f"{self.dtype}[{', '.join(map(str, self.shape))}]"

    def __repr__(self) -> str:
        return f"<ConstArray {self.type_str}>"


def _typecode(dtype: str) -> str:
    size = ITEMSIZE[dtype]
    if dtype.startswith("float"):
        return "f" if size == 4 else "d"
    unsigned = dtype.startswith("u")
    for tc in "bhilq":
        code = tc.upper() if unsigned else tc
        if _array(code).itemsize == size:
            return code
    raise ValueError(f"no array typecode for {dtype}")  # pragma: no cover


class Subgraph:
    """The function argument of a higher-order op (``value_and_grad_flat``, ``vjp``, ``jvp``,
    ``jacobian``): a graph whose inputs are the function's arguments, and the outer values it
    uses (``captures``, in the order of ``graph.captures``)."""

    __slots__ = ("graph", "captures")

    def __init__(self, graph: GraphIR, captures: list[Value]):
        self.graph = graph
        self.captures = captures

    def __repr__(self) -> str:
        return f"<Subgraph {self.graph.name} ({len(self.graph.nodes)} nodes)>"


class Node:
    """One call of spec op ``op`` (or :data:`CALL`: calling a function value).

    Attributes:
        op: the spec op's qualified name.
        args, kwargs: argument trees (see the module docstring).
        outputs: the result's tree: :class:`Value` leaves for arrays, Python constants for the
            rest (a tuple for ``linalg.qr``, a list for ``unstack``...), ``None`` for none.
        source: ``file:line in function`` of the traced call that made it (or ``None``).
    """

    __slots__ = ("op", "args", "kwargs", "outputs", "source")

    def __init__(self, op: str, args: tuple[Any, ...], kwargs: dict[str, Any], outputs: Any, source: str | None = None):
        self.op = op
        self.args = args
        self.kwargs = kwargs
        self.outputs = outputs
        self.source = source

    def input_values(self) -> list[Value]:
        """The values this node reads (subgraph captures and symbolic dims included)."""
        out: list[Value] = []
        for leaf in tree_leaves((self.args, self.kwargs)):
            if isinstance(leaf, Value):
                out.append(leaf)
            elif isinstance(leaf, Dim):
                out.append(leaf.value)
            elif isinstance(leaf, Subgraph):
                out.extend(leaf.captures)
        return out

    def output_values(self) -> list[Value]:
        return [v for v in tree_leaves(self.outputs) if isinstance(v, Value)]

    def subgraphs(self) -> list[Subgraph]:
        return [s for s in tree_leaves(self.args) if isinstance(s, Subgraph)]

    def __repr__(self) -> str:
        return f"<Node {self.op}{' at ' + self.source if self.source else ''}>"


class Guard:
    """A Python value that traced code read from an array (``bool(x)``, ``int(x)``,
    ``x.item()``, ``ivy.to_scalar(x)``...): the graph is valid only where it is the same.

    Attributes:
        value: the array read.
        kind: how it was read: ``"bool"``, ``"int"``, ``"float"``, ``"complex"``, ``"scalar"``
            (an element as a Python number), ``"list"`` (``to_list``, ``to_numpy``).
        expected: what the traced example gave.
        source: where it was read.
    """

    __slots__ = ("value", "kind", "expected", "source")

    def __init__(self, value: Value, kind: str, expected: Any, source: str | None):
        self.value = value
        self.kind = kind
        self.expected = expected
        self.source = source

    def __repr__(self) -> str:
        return f"<Guard {self.kind}({self.value.hint}) == {self.expected!r}>"


# --------------------------------------------------------------------------- trees


def map_tree(fn: Callable[[Any], Any], tree: Any) -> Any:
    """``tree`` with each leaf replaced by ``fn(leaf)``; tuples, lists, dicts (their class kept)
    and slices are nodes."""
    t = type(tree)
    if t is tuple:
        return tuple(map_tree(fn, x) for x in tree)
    if t is list:
        return [map_tree(fn, x) for x in tree]
    if isinstance(tree, dict):
        items = {k: map_tree(fn, x) for k, x in tree.items()}
        return items if t is dict else t(items)
    if t is slice:
        return slice(map_tree(fn, tree.start), map_tree(fn, tree.stop), map_tree(fn, tree.step))
    if isinstance(tree, tuple):  # a named tuple or structseq: a plain tuple in the IR
        return tuple(map_tree(fn, x) for x in tree)
    return fn(tree)


def tree_leaves(tree: Any) -> Iterator[Any]:
    t = type(tree)
    if t is tuple or t is list or isinstance(tree, tuple):
        for x in tree:
            yield from tree_leaves(x)
    elif isinstance(tree, dict):
        for x in tree.values():
            yield from tree_leaves(x)
    elif t is slice:
        yield from tree_leaves((tree.start, tree.stop, tree.step))
    else:
        yield tree


# --------------------------------------------------------------------------- graphs


class GraphIR:
    """The data of a graph (see :class:`ivy.Graph` for the methods on it).

    Attributes:
        name: the traced function's name.
        inputs: the array inputs, in the order of the leaves of ``in_tree``.
        in_tree: ``(args, kwargs)`` of the traced call with each array leaf replaced by its
            input's index (an ``InputRef``), and other leaves (static arguments) kept.
        arg_names: names of the positional arguments (the traced function's parameters).
        params: for a traced module: key chain -> input value of each variable and buffer (they
            come before the other inputs in ``inputs`` and are passed as one dict).
        param_values: key chain -> the variable's value when traced (a :class:`ConstArray`).
        buffers: the key chains of ``params`` that are non-trainable buffers.
        state_updates: buffer key chain -> the value it holds after a call (training mode).
        captures: a subgraph's inputs standing for outer values (empty for a top graph).
        nodes: the calls, in execution order.
        outputs: the output tree (values, constants, Python constants).
        guards: see :class:`Guard`.
        meta: ``{"backend": traced on, "decompose": bool, ...}``.
    """

    def __init__(
        self,
        *,
        name: str = "forward",
        inputs: list[Value] | None = None,
        in_tree: Any = ((), {}),
        arg_names: list[str] | None = None,
        params: dict[str, Value] | None = None,
        param_values: dict[str, ConstArray] | None = None,
        buffers: list[str] | None = None,
        state_updates: dict[str, Any] | None = None,
        captures: list[Value] | None = None,
        nodes: list[Node] | None = None,
        outputs: Any = None,
        guards: list[Guard] | None = None,
        meta: dict[str, Any] | None = None,
    ):
        self.name = name
        self.inputs = inputs or []
        self.in_tree = in_tree
        self.arg_names = arg_names or []
        self.params = params or {}
        self.param_values = param_values or {}
        self.buffers = buffers or []
        self.state_updates = state_updates or {}
        self.captures = captures or []
        self.nodes = nodes or []
        self.outputs = outputs
        self.guards = guards or []
        self.meta = meta or {}

    def replace(self, **changes: Any) -> GraphIR:
        """A copy with some fields replaced (passes build their result this way)."""
        fields = {
            k: getattr(self, k)
            for k in (
                "name",
                "inputs",
                "in_tree",
                "arg_names",
                "params",
                "param_values",
                "buffers",
                "state_updates",
                "captures",
                "nodes",
                "outputs",
                "guards",
                "meta",
            )
        }
        fields.update(changes)
        return type(self)(**fields)

    def output_values(self) -> list[Value]:
        """Values the graph returns (outputs and buffer updates)."""
        return [v for v in tree_leaves((self.outputs, self.state_updates)) if isinstance(v, Value)]

    def constants(self) -> list[ConstArray]:
        """Every constant array the graph (and its subgraphs) uses, each once."""
        seen: dict[int, ConstArray] = {}

        def visit(g: GraphIR) -> None:
            for n in g.nodes:
                for leaf in tree_leaves((n.args, n.kwargs)):
                    if isinstance(leaf, ConstArray):
                        seen.setdefault(id(leaf), leaf)
                    elif isinstance(leaf, Subgraph):
                        visit(leaf.graph)
            for leaf in tree_leaves(g.outputs):
                if isinstance(leaf, ConstArray):
                    seen.setdefault(id(leaf), leaf)

        visit(self)
        return list(seen.values())

    def walk(self) -> Iterator[Node]:
        """Every node, those of subgraphs included (each subgraph's before the node using it)."""
        for n in self.nodes:
            for s in n.subgraphs():
                yield from s.graph.walk()
            yield n

    def __len__(self) -> int:
        return sum(1 for _ in self.walk())


class InputRef:
    """A leaf of ``in_tree``: the array input at index ``index`` of ``inputs``."""

    __slots__ = ("index",)

    def __init__(self, index: int):
        self.index = index

    def __repr__(self) -> str:
        return f"InputRef({self.index})"
