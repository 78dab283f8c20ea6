"""Index checks on JAX arrays: JAX clamps an out-of-range gather index, fills it (``take``: NaN)
or drops the update (``.at[].set``) instead of raising, so Ivy reads the indices of concrete
arrays first. Inside ``jax.jit`` the indices are tracers whose values are unknown: no check runs
there, and JAX's own behaviour applies (documented in docs/security.md)."""

from __future__ import annotations

from typing import Any

import jax
import numpy as np

from ivy.plugin_kit import (
    check_alloc,
    check_index_range,
    check_int_scalar,
    check_integer_indices,
    check_query,
    host_bounds,
    host_memory,
)

_Tracer = jax.core.Tracer
_INT_BOUNDS: dict[Any, tuple[int, int]] = {}


def bounds(indices: Any) -> tuple[int, int] | None:
    """The smallest and largest of concrete, non-empty indices; ``None`` for tracers."""
    if isinstance(indices, _Tracer):
        return None
    return host_bounds(np.asarray(indices))  # a host view of the (CPU) buffer, or one copy


def check_indices(indices: Any, n: int, op: str, *, negative: bool = True, what: str = "index") -> None:
    """``indices``: an integer array, each in ``[-n, n)`` (``[0, n)`` without ``negative``)."""
    dt = indices.dtype
    if dt.kind not in "iu":
        check_integer_indices(False, dt, op)
    b = bounds(indices)
    if b is not None:
        check_index_range(b[0], b[1], n, op, negative=negative, what=what)


def int_fits(v: int, dtype: Any, op: str) -> None:
    """A Python int next to an integer array must fit its dtype (JAX wraps it around)."""
    b = _INT_BOUNDS.get(dtype)
    if b is None:
        info = np.iinfo(dtype)
        b = _INT_BOUNDS.setdefault(dtype, (int(info.min), int(info.max)))
    if not b[0] <= v <= b[1]:
        check_int_scalar(v, np.dtype(dtype).name, op)


def check_size(shape: Any, dtype: Any, device: Any, op: str) -> None:
    """Refuse a result that cannot exist before XLA tries to allocate it: XLA's CPU client
    aborts the process when an allocation fails (``BadStatusOrAccess``) instead of raising."""
    dims = (shape,) if isinstance(shape, int) else tuple(shape)
    itemsize = np.dtype(dtype).itemsize if dtype is not None else 8
    n = itemsize
    for d in dims:
        if type(d) is not int:
            return  # (symbolic dimensions: JAX checks them)
        n *= d
    if 0 <= n < 2**30 and all(d >= 0 for d in dims):
        return  # (the common small result: no platform lookup)
    platform = getattr(device, "platform", None) or jax.default_backend()
    check_alloc(dims, itemsize, op, host_memory() if platform == "cpu" else None)


def check_item_query(query: Any, shape: tuple[int, ...], op: str) -> None:
    """Every int and integer array of an indexing query within the axis it indexes."""
    if type(query) is slice or query is Ellipsis or query is None:
        return  # (the common plain queries: nothing to check)
    check_query(query, shape, op, bounds, _is_mask)


def _is_mask(a: Any) -> bool:
    return a.dtype == np.bool_
