"""Set functions, computed by NumPy on the host: their results have data-dependent shapes and no
gradient, and MXNet's own ``unique`` is NumPy's run on the host too. Every NaN is a distinct
value (the standard's rule)."""

from __future__ import annotations

from typing import Any, NamedTuple

from ._dtypes import INDEX
from ._framework import Array, onp
from ._helpers import from_host, to_host

__all__ = ["unique_all", "unique_counts", "unique_inverse", "unique_values"]


class UniqueAllResult(NamedTuple):
    values: Array
    indices: Array
    inverse_indices: Array
    counts: Array


class UniqueCountsResult(NamedTuple):
    values: Array
    counts: Array


class UniqueInverseResult(NamedTuple):
    values: Array
    inverse_indices: Array


def _unique(x: Any) -> tuple[Any, Any, Any, Any]:
    """(values, first indices, inverse indices in x's shape, counts) as NumPy arrays."""
    a = to_host(x).reshape(-1)
    n = a.size
    order = onp.argsort(a, kind="stable")  # NaN last; a stable sort keeps first occurrences first
    s = a[order]
    new = onp.ones(n, dtype=bool)
    if n > 1:
        new[1:] = s[1:] != s[:-1]  # NaN != NaN: each NaN starts a group of its own
    starts = onp.flatnonzero(new)
    counts = onp.diff(onp.append(starts, n))
    inverse = onp.empty(n, dtype=onp.int64)
    inverse[order] = onp.cumsum(new) - 1
    return s[starts], order[starts], inverse.reshape(x.shape), counts


def _out(a: Any, x: Any, dtype: Any = None) -> Any:
    return from_host(a, x.ctx, dtype if dtype is not None else x.dtype)


def unique_all(x: Array, /) -> UniqueAllResult:
    v, i, inv, c = _unique(x)
    return UniqueAllResult(_out(v, x), _out(i, x, INDEX), _out(inv, x, INDEX), _out(c, x, INDEX))


def unique_counts(x: Array, /) -> UniqueCountsResult:
    v, _, _, c = _unique(x)
    return UniqueCountsResult(_out(v, x), _out(c, x, INDEX))


def unique_inverse(x: Array, /) -> UniqueInverseResult:
    v, _, inv, _ = _unique(x)
    return UniqueInverseResult(_out(v, x), _out(inv, x, INDEX))


def unique_values(x: Array, /) -> Array:
    return _out(_unique(x)[0], x)
