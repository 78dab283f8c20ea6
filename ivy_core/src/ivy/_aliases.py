"""The paper's (2021) names, kept as documented aliases with the paper's call forms."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import _api as ivy
from . import _context

__all__ = [
    "set_framework",
    "unset_framework",
    "get_framework",
    "array",
    "reduce_sum",
    "reduce_mean",
    "reduce_min",
    "reduce_max",
    "reduce_prod",
    "concatenate",
]


def _axis(axis: Any) -> Any:
    return tuple(axis) if isinstance(axis, list) else axis


def set_framework(f: Any) -> Any:
    """Paper name of :func:`ivy.set_backend` (accepts a name, a namespace or a framework module)."""
    return _context.set_backend(f)


def unset_framework() -> Any:
    """Paper name of :func:`ivy.unset_backend`."""
    return _context.unset_backend()


def get_framework(x: Any = None) -> Any:
    """Paper name: the namespace of ``x``'s framework, or the current backend's if ``x`` is None."""
    return _context.current_backend() if x is None else ivy.namespace(x)


def array(object_in: Any, dtype: Any = None, device: Any = None, *, backend: Any = None) -> Any:
    """Paper name of :func:`ivy.asarray`; ``dtype`` and ``device`` may be given positionally."""
    return ivy.asarray(object_in, dtype=dtype, device=device, backend=backend)


def reduce_sum(x: Any, axis: Any = None, keepdims: bool = False, *, backend: Any = None) -> Any:
    """Paper name of :func:`ivy.sum`, with ``axis`` positional (an int, tuple or list)."""
    return ivy.sum(x, axis=_axis(axis), keepdims=keepdims, backend=backend)


def reduce_mean(x: Any, axis: Any = None, keepdims: bool = False, *, backend: Any = None) -> Any:
    """Paper name of :func:`ivy.mean`, with ``axis`` positional."""
    return ivy.mean(x, axis=_axis(axis), keepdims=keepdims, backend=backend)


def reduce_min(x: Any, axis: Any = None, keepdims: bool = False, *, backend: Any = None) -> Any:
    """Paper name of :func:`ivy.min`, with ``axis`` positional."""
    return ivy.min(x, axis=_axis(axis), keepdims=keepdims, backend=backend)


def reduce_max(x: Any, axis: Any = None, keepdims: bool = False, *, backend: Any = None) -> Any:
    """Paper name of :func:`ivy.max`, with ``axis`` positional."""
    return ivy.max(x, axis=_axis(axis), keepdims=keepdims, backend=backend)


def reduce_prod(x: Any, axis: Any = None, keepdims: bool = False, *, backend: Any = None) -> Any:
    """Paper name of :func:`ivy.prod`, with ``axis`` positional."""
    return ivy.prod(x, axis=_axis(axis), keepdims=keepdims, backend=backend)


def concatenate(xs: Sequence[Any], axis: int = -1, *, backend: Any = None) -> Any:
    """Paper name of :func:`ivy.concat`; as in the paper, ``axis`` defaults to the last axis."""
    return ivy.concat(list(xs), axis=axis, backend=backend)
