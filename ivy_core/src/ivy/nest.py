"""Nests: dicts, lists, tuples and named tuples (and registered node types) of arrays.

``tree_flatten`` turns a nest into its leaves and a structure, ``tree_unflatten`` rebuilds it, ``map``
applies a function leaf-wise over one or more nests of the same structure. Gradients and
optimizer updates take and return nests of variables this way.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["Structure", "tree_flatten", "tree_unflatten", "map", "leaves", "register_node", "same_structure"]

_NODES: dict[type, tuple[Callable[[Any], tuple[list[Any], Any]], Callable[[Any, list[Any]], Any]]] = {}

#: dict subclasses rebuilt by ``make(pairs)`` instead of their constructor: their keys came from
#: an instance, so the constructor's checks would only repeat (Container registers itself).
_DICT_REBUILD: dict[type, Callable[[Any], Any]] = {}


def register_node(
    cls: type,
    flatten_fn: Callable[[Any], tuple[list[Any], Any]],
    unflatten_fn: Callable[[Any, list[Any]], Any],
) -> None:
    """Teach nests a container type: ``flatten_fn(x) -> (children, aux)``,
    ``unflatten_fn(aux, children) -> x``."""
    _NODES[cls] = (flatten_fn, unflatten_fn)


class Structure:
    """The shape of a nest without its leaves (what :func:`tree_unflatten` needs)."""

    __slots__ = ("kind", "meta", "children", "num_leaves")

    kind: str
    meta: Any
    children: list[Structure]
    num_leaves: int

    def __init__(self, kind: str, meta: Any, children: list[Structure], num_leaves: int | None = None):
        self.kind = kind
        self.meta = meta
        self.children = children
        if num_leaves is None:
            num_leaves = 1 if kind == "leaf" else sum(c.num_leaves for c in children)
        self.num_leaves = num_leaves

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Structure) and same_structure(self, other)

    def __repr__(self) -> str:
        if self.kind == "leaf":
            return "*"
        inner = ", ".join(map(repr, self.children))
        return f"{self.kind}({inner})"


def same_structure(a: Structure, b: Structure) -> bool:
    """Whether two structures are equal (``a == b``).

    Written with plain comparisons and function calls only: paddle's bytecode tracer (SOT),
    which runs this code when it compiles an optimizer step, can compare neither tuples holding
    classes nor objects with their own ``__eq__``.
    """
    if a is b:
        return True
    if a.kind != b.kind or a.num_leaves != b.num_leaves or not _same_meta(a.kind, a.meta, b.meta):
        return False
    if len(a.children) != len(b.children):
        return False
    for x, y in zip(a.children, b.children):
        if not same_structure(x, y):
            return False
    return True


def _same_meta(kind: str, a: Any, b: Any) -> bool:
    if kind == "dict":
        return a[0] is b[0] and a[1] == b[1] and a[2] is b[2]
    if kind == "node":
        return a[0] is b[0] and a[1] == b[1]
    return a is b


_LEAF = Structure("leaf", None, [])


def _flatten(x: Any, out: list[Any]) -> Structure:
    # (the leaf counts come from the growth of `out`: no second walk over the children)
    t = type(x)
    start = len(out)
    if t is dict or t in _DICT_REBUILD:  # the usual nests (their values in key order)
        children = [_flatten(c, out) for c in dict.values(x)]
        return Structure("dict", (t, tuple(x), None), children, len(out) - start)
    if t in _NODES:
        kids, aux = _NODES[t][0](x)
        children = [_flatten(c, out) for c in kids]
        return Structure("node", (t, aux), children, len(out) - start)
    if isinstance(x, dict):  # another dict class: through its own item access and order
        keys = tuple(x)
        factory = getattr(x, "default_factory", None) if isinstance(x, defaultdict) else None
        children = [_flatten(x[k], out) for k in keys]
        return Structure("dict", (t, keys, factory), children, len(out) - start)
    if t is list or t is tuple:
        children = [_flatten(c, out) for c in x]
        return Structure(t.__name__, None, children, len(out) - start)
    if isinstance(x, tuple) and hasattr(x, "_fields"):  # named tuple
        children = [_flatten(c, out) for c in x]
        return Structure("namedtuple", t, children, len(out) - start)
    out.append(x)
    return _LEAF


def tree_flatten(nest: Any) -> tuple[list[Any], Structure]:
    """The leaves of ``nest`` in a fixed order, and its :class:`Structure`."""
    out: list[Any] = []
    return out, _flatten(nest, out)


def _build(s: Structure, it: Iterable[Any]) -> Any:
    if s is _LEAF or s.kind == "leaf":  # (the shared leaf, or one from a copied structure)
        return next(it)  # type: ignore[call-overload]
    children = [_build(c, it) for c in s.children]
    if s.kind == "dict":
        cls, keys, factory = s.meta
        if cls is dict:
            return dict(zip(keys, children))
        make = _DICT_REBUILD.get(cls)
        if make is not None:
            return make(zip(keys, children))
        if issubclass(cls, defaultdict):  # its constructor takes the factory first
            return cls(factory, zip(keys, children))
        return cls(zip(keys, children))
    if s.kind == "list":
        return children
    if s.kind == "tuple":
        return tuple(children)
    if s.kind == "namedtuple":
        return s.meta(*children)
    cls, aux = s.meta
    return _NODES[cls][1](aux, children)


def tree_unflatten(structure: Structure, leaves: Iterable[Any]) -> Any:
    """Rebuilds a nest of ``structure`` from ``leaves`` (as returned by :func:`tree_flatten`)."""
    leaves = list(leaves)
    if len(leaves) != structure.num_leaves:
        raise ValueError(f"the structure has {structure.num_leaves} leaves, got {len(leaves)}")
    return _build(structure, iter(leaves))


def leaves(nest: Any) -> list[Any]:
    """The leaves of ``nest``."""
    return tree_flatten(nest)[0]


def map(fn: Callable[..., Any], nest: Any, *rest: Any) -> Any:  # the natural name
    """Applies ``fn`` leaf-wise: ``fn(leaf, *matching leaves of rest)``; same structure out."""
    flat, s = tree_flatten(nest)
    others = []
    for r in rest:
        fl, rs = tree_flatten(r)
        if not same_structure(rs, s):
            raise ValueError(f"nests differ in structure: {s} and {rs}")
        others.append(fl)
    return tree_unflatten(s, [fn(*args) for args in zip(flat, *others)])
