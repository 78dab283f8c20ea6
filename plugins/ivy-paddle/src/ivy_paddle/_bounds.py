"""Index checks on paddle tensors: several paddle kernels read memory out of bounds (garbage
values, heap corruption, a segfault) for an index outside the indexed axis, or for a float index
tensor read as integers, instead of raising. Ivy reads the indices of eager tensors first (one
host copy). In a static program (``paddle.jit.to_static``) their values are unknown: no check
runs there (documented in docs/security.md)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ivy.plugin_kit import (
    check_alloc,
    check_index_range,
    check_integer_indices,
    check_query,
    host_bounds,
    host_memory,
)

from ._dtypes import DTYPES, INTS
from ._framework import Tensor, paddle

_BOOL = paddle.bool
_in_dygraph = paddle.base.framework.in_dygraph_mode
_in_to_static = paddle.base.dygraph.base.in_to_static_mode


def bounds(indices: Any) -> tuple[int, int] | None:
    """The smallest and largest of eager, non-empty integer indices; ``None`` otherwise."""
    if not isinstance(indices, Tensor) or not _in_dygraph() or _in_to_static():
        return None
    return host_bounds(indices.numpy())  # (paddle's Tensor.size costs tens of microseconds)


_INT_NAMES = frozenset(("int8", "int16", "int32", "int64", "uint8"))


def integral(indices: Any, op: str, what: str = "indices") -> None:
    """Refuse a float or bool index tensor (paddle reads some as integers: garbage rows)."""
    d = indices.dtype
    if id(d) not in INTS:
        # (a static program's values have dtype objects of their own: compared by name)
        check_integer_indices(str(d).rpartition(".")[2].lower() in _INT_NAMES, d, op, what)


def check_indices(indices: Any, n: int, op: str, *, negative: bool = True, what: str = "index") -> None:
    """``indices``: an integer tensor, each in ``[-n, n)`` (``[0, n)`` without ``negative``)."""
    integral(indices, op, what if what != "index" else "indices")
    b = bounds(indices)
    if b is not None:
        check_index_range(b[0], b[1], n, op, negative=negative, what=what)


_SMALL = 2**30  # bytes below which any machine holds a result
_ITEMSIZE = {id(d): np.dtype(n).itemsize for n, d in DTYPES.items()} | {
    id(paddle.float16): 2,
    id(paddle.bfloat16): 2,
}


def check_size(shape: Any, dtype: Any, place: Any, op: str) -> None:
    """Refuse a result that cannot exist before paddle allocates it: paddle's allocator corrupts
    the heap or segfaults on an impossible size (``empty((2**62,))``, ``eye(2**40)``) instead of
    raising; on the host, more than the machine's memory is refused too."""
    dims = (shape,) if isinstance(shape, int) else tuple(shape)
    n = _ITEMSIZE.get(id(dtype), 8)
    for d in dims:
        if type(d) is not int:
            return  # (tensor-valued shapes: paddle reads them itself)
        n *= d
    if 0 <= n < _SMALL and all(d >= 0 for d in dims):
        return  # (the common small result: no device lookup)
    cpu = place is None and paddle.device.get_device() == "cpu" or place is not None and "cpu" in str(place).lower()
    check_alloc(dims, _ITEMSIZE.get(id(dtype), 8), op, host_memory() if cpu else None)


def check_item_query(query: Any, shape: Any, op: str) -> None:
    """Every int and integer tensor of an indexing query within the axis it indexes."""
    if type(query) is int or type(query) is slice or query is Ellipsis or query is None:
        return  # (paddle checks a plain int itself; the other plain queries cannot go out of range)
    check_query(query, list(shape), op, bounds, _is_mask)


def _is_mask(t: Any) -> bool:
    d = t.dtype
    if d is _BOOL or id(d) in INTS:
        return d is _BOOL
    return str(d).endswith("bool")  # (a static program's dtype objects: by name)
