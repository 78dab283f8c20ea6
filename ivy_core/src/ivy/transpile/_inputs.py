"""Example inputs: finding their arrays, converting them between frameworks, and the signature of
a call (what a transpiled graph is specialised to: array shapes and dtypes, static values)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import _api, _registry
from .._dtypes import dtype_name

__all__ = ["Shaped", "is_array", "array_backend", "map_arrays", "to_backend", "to_example", "signature", "portable"]

_SCALARS = (bool, int, float, complex, str, bytes, type(None))


class Shaped:
    """An array known by its shape and dtype only (a graph's input, when its traced signature
    is described)."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape: Any, dtype: str | None):
        self.shape = () if shape is None else tuple(shape)
        self.dtype = dtype


def is_array(x: Any) -> bool:
    """Whether ``x`` is an array of an installed backend's framework (a tracer counts)."""
    return type(x) not in _SCALARS and _api.is_native_array(x)


def array_backend(x: Any) -> str:
    b = _registry.backend_for_type(type(x))
    assert b is not None
    return b.name


def map_arrays(fn: Callable[[Any], Any], tree: Any) -> Any:
    """``tree`` (tuples, named tuples, lists, dicts) with ``fn`` applied to each array leaf."""
    t = type(tree)
    if t is tuple or t is list:
        return t(map_arrays(fn, x) for x in tree)
    if isinstance(tree, tuple) and hasattr(tree, "_fields"):  # a named tuple
        return t(*(map_arrays(fn, x) for x in tree))
    if isinstance(tree, dict):
        out = {k: map_arrays(fn, x) for k, x in tree.items()}
        return out if t is dict else _rebuild(t, tree, out)
    return fn(tree) if is_array(tree) else tree


def _rebuild(t: type, original: Any, items: dict[Any, Any]) -> Any:
    try:
        return t(items)
    except Exception:  # a mapping type that cannot be built from a dict: keep a dict
        return items


def leaves(tree: Any) -> list[Any]:
    out: list[Any] = []
    map_arrays(lambda x: out.append(x), tree)
    return out


def to_backend(x: Any, backend: str) -> Any:
    """Array ``x`` (any framework) as an array of ``backend``; the same object if it is one."""
    if array_backend(x) == backend:
        return x
    return _registry.get_backend(backend).calls["asarray"](_api.to_numpy(x))


def to_example(x: Any, backend: str) -> Any:
    """``x`` as an example input of ``backend`` for a trace: its value where it has one, zeros of
    its shape and dtype where it is a compiler's abstract value (a tracer under ``jax.jit``, a
    symbolic tensor inside ``tf.function``)."""
    try:
        a = _api.to_numpy(x)
    except Exception:  # an abstract value: only its shape and dtype are known
        b = _registry.get_backend(backend)
        shape = tuple(int(d) for d in x.shape)
        return b.calls["zeros"](shape, dtype=b.impl.dtypes[dtype_name(x.dtype)])
    if array_backend(x) == backend:
        return x
    return _registry.get_backend(backend).calls["asarray"](a)


def _dims(shape: Any) -> tuple[int | None, ...]:
    return tuple(None if d is None else int(d) for d in shape)


def signature(args: Any, kwargs: Any = None) -> Any:
    """A hashable description of a call: each array as ``("a", shape, dtype)``, each other leaf
    as its value (or its identity, for objects that are not plain Python values)."""
    return ("call", _sig(tuple(args)), _sig(dict(kwargs or {})))


def _sig(x: Any) -> Any:
    t = type(x)
    if t in _SCALARS:
        return (t.__name__, x)
    if t is tuple or t is list or (isinstance(x, tuple) and hasattr(x, "_fields")):
        return (t.__name__, tuple(_sig(e) for e in x))
    if isinstance(x, dict):
        return ("dict", tuple(sorted(((repr(k), _sig(e)) for k, e in x.items()), key=lambda kv: kv[0])))
    if t is slice:
        return ("slice", _sig((x.start, x.stop, x.step)))
    if x is Ellipsis:
        return ("ellipsis",)
    if t is Shaped:
        return ("a", _dims(x.shape), x.dtype)
    if is_array(x):
        return ("a", _dims(x.shape), dtype_name(x.dtype))
    try:
        return ("dtype", dtype_name(x))
    except Exception:  # not a dtype
        pass
    return ("obj", f"{t.__module__}.{t.__qualname__}", id(x))


def portable(sig: Any) -> bool:
    """Whether a signature holds no object identity (it means the same in another process)."""
    if isinstance(sig, tuple):
        if len(sig) == 3 and sig[0] == "obj":
            return False
        return all(portable(e) for e in sig)
    return True
