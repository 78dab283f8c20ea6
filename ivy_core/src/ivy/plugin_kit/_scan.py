"""``scan`` written once for the backends: its argument checks, the check of each step's result,
and the Python loop of eager backends (a compiled backend calls its own loop with the same checks,
so that every backend refuses the same input with the same error)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..nest import Structure, same_structure, tree_flatten, tree_unflatten

__all__ = ["scan_inputs", "scan_step", "scan_loop"]


def _shape(a: Any) -> tuple[Any, ...]:
    return tuple(a.shape)


def scan_inputs(xs: Any, length: Any, op: str = "scan") -> tuple[int | None, list[Any], Structure | None]:
    """The number of steps of a scan over ``xs`` (``None`` where a compiler's tracer does not know
    it yet), the arrays of ``xs`` and their structure (``None`` for ``xs=None``), checked: the
    arrays share their first dimension, which equals ``length`` where that is given."""
    if length is not None:
        if isinstance(length, bool) or not hasattr(length, "__index__") or length.__index__() < 0:
            raise ValueError(f"{op}: length must be a non-negative int, got {length!r}")
        length = length.__index__()
    if xs is None:
        if length is None:
            raise ValueError(f"{op}: xs is None, so length must say the number of steps")
        return length, [], None
    leaves, structure = tree_flatten(xs)
    if not leaves:
        raise ValueError(f"{op}: xs holds no array; pass xs=None and length= for a scan without inputs")
    sizes = []
    for i, a in enumerate(leaves):
        if not hasattr(a, "shape") or len(_shape(a)) == 0:
            got = "a 0-d array" if hasattr(a, "shape") else type(a).__name__
            raise ValueError(f"{op}: every leaf of xs must be an array with a first axis to scan, leaf {i} is {got}")
        sizes.append(_shape(a)[0])
    known = {int(s) for s in sizes if s is not None}
    if len(known) > 1:
        raise ValueError(f"{op}: the arrays of xs must have the same first dimension, got {sizes}")
    n = known.pop() if known else None
    if length is not None and n is not None and length != n:
        raise ValueError(f"{op}: length is {length}, but the arrays of xs have {n} slices")
    return (n if n is not None else length), leaves, structure


def scan_step(init: Any, out: Any, op: str = "scan") -> tuple[Any, Any]:
    """``f``'s result ``(carry, y)``, checked: a pair whose carry has the arrays of ``init`` (their
    number, shapes and dtypes; the carry is rebuilt in ``init``'s structure, so a list for a
    tuple passes, as a compiled loop needs one structure)."""
    if not isinstance(out, (tuple, list)) or len(out) != 2:
        got = f"a {type(out).__name__} of {len(out)}" if isinstance(out, (tuple, list)) else type(out).__name__
        raise TypeError(f"{op}: f must return a pair (carry, y), got {got}")
    carry, y = out
    old, structure = tree_flatten(init)
    new = _aligned(init, carry, op)
    if len(new) != len(old):
        raise ValueError(f"{op}: f returned a carry of {len(new)} arrays for an init of {len(old)}")
    for i, (a, b) in enumerate(zip(old, new)):
        if not hasattr(a, "shape"):
            raise TypeError(f"{op}: init must hold arrays, its leaf {i} is a {type(a).__name__}")
        if not hasattr(b, "shape"):
            raise ValueError(f"{op}: f returned carry leaf {i} as a {type(b).__name__}, where init has an array")
        if _shape(a) != _shape(b) or a.dtype != b.dtype:
            raise ValueError(
                f"{op}: f returned carry leaf {i} with shape {_shape(b)} and dtype {b.dtype}, where init has "
                f"shape {_shape(a)} and dtype {a.dtype}: each step must keep both"
            )
    if not same_structure(structure, tree_flatten(carry)[1]):
        carry = tree_unflatten(structure, new)
    return carry, y


def _aligned(like: Any, x: Any, op: str) -> list[Any]:
    """The leaves of ``x`` in the order of those of ``like`` (a dict's by ``like``'s keys: a
    framework may rebuild a dict in another order)."""
    if isinstance(like, dict):
        if not isinstance(x, dict) or set(x) != set(like):
            got = sorted(map(str, x)) if isinstance(x, dict) else type(x).__name__
            raise ValueError(f"{op}: f returned a carry of {got} where init has the keys {sorted(map(str, like))}")
        return [leaf for k in like for leaf in _aligned(like[k], x[k], op)]
    if isinstance(like, (tuple, list)):
        if not isinstance(x, (tuple, list)) or len(x) != len(like):
            got = f"{len(x)} items" if isinstance(x, (tuple, list)) else f"a {type(x).__name__}"
            raise ValueError(f"{op}: f returned a carry of {got} where init has {len(like)}")
        return [leaf for a, b in zip(like, x) for leaf in _aligned(a, b, op)]
    return [x]


def _slice(leaves: list[Any], structure: Structure | None, i: int, ellipsis: bool) -> Any:
    if structure is None:
        return None
    return tree_unflatten(structure, [a[i, ...] if ellipsis else a[i] for a in leaves])


def scan_loop(
    f: Callable[[Any, Any], Any],
    init: Any,
    xs: Any,
    length: int | None,
    reverse: bool,
    stack: Callable[[list[Any]], Any],
    empty: Callable[[Any], Any],
    zeros_like_slice: Callable[[Any], Any],
    op: str = "scan",
    ellipsis: bool = False,
) -> tuple[Any, Any]:
    """``scan`` as a Python loop (eager backends): ``stack(arrays)`` stacks along a new first axis,
    ``empty(y)`` is an array of shape ``(0, *y.shape)`` and ``y``'s dtype, and
    ``zeros_like_slice(a)`` is a zero slice of ``a`` along its first axis (without a step, ``f`` is
    still called once on ``init`` and such slices, for the shapes of ``ys``, as ``lax.scan`` does);
    ``ellipsis``: slices are ``a[i, ...]`` (the Array API's spelling for an array of more than one
    axis) instead of ``a[i]``."""
    if not callable(f):
        raise TypeError(f"{op}: f must be a function, got {type(f).__name__}")
    n, leaves, structure = scan_inputs(xs, length, op)
    assert n is not None  # (an eager backend knows its arrays' shapes)
    carry, ys = init, []
    for i in reversed(range(n)) if reverse else range(n):
        carry, y = scan_step(init, f(carry, _slice(leaves, structure, i, ellipsis)), op)
        ys.append(y)
    if reverse:
        ys.reverse()
    if not ys:
        x0 = None if structure is None else tree_unflatten(structure, [zeros_like_slice(a) for a in leaves])
        _, y0 = scan_step(init, f(init, x0), op)
        return init, _stacked([y0], lambda parts: empty(parts[0]))
    return carry, _stacked(ys, stack)


def _stacked(ys: list[Any], stack: Callable[[list[Any]], Any]) -> Any:
    """The ``y`` of every step stacked leaf by leaf (a ``None`` leaf stays ``None``)."""
    flat, structure = tree_flatten(ys[0])
    columns: list[list[Any]] = [[leaf] for leaf in flat]
    for y in ys[1:]:
        got, s = tree_flatten(y)
        if not same_structure(s, structure):
            raise ValueError(f"scan: f returned y of structure {s} after {structure}: each step must return the same")
        for col, leaf in zip(columns, got):
            col.append(leaf)
    return tree_unflatten(structure, [None if col[0] is None else stack(col) for col in columns])
