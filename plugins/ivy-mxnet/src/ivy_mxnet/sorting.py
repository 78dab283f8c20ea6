"""Sorting: MXNet's sort and argsort (stable, NaN last), descending by sorting the reversed
array (which keeps equal elements in their order, as the standard asks)."""

from __future__ import annotations

from typing import Any

from ._dtypes import INDEX, bool_, int8
from ._framework import Array, mnp
from ._helpers import cast, norm_axis

__all__ = ["argsort", "sort"]


def _keys(x: Any) -> Any:
    return cast(x, int8) if x.dtype == bool_ else x  # MXNet sorts bools as float32


def argsort(x: Array, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Array:
    if x.ndim == 0:
        return mnp.zeros((), dtype=INDEX, ctx=x.ctx)
    ax = norm_axis(axis, x.ndim, "argsort")
    k = _keys(x)
    if not descending:
        return cast(mnp.argsort(k, axis=ax), INDEX)
    n = x.shape[ax]
    # the last of equal elements of the reversed array is the first of the original
    rev = cast(mnp.argsort(mnp.flip(k, axis=ax), axis=ax), INDEX)
    return (n - 1) - mnp.flip(rev, axis=ax)


def sort(x: Array, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Array:
    if x.ndim == 0:
        return x.copy()
    ax = norm_axis(axis, x.ndim, "sort")
    out = mnp.sort(_keys(x), axis=ax)
    if descending:
        out = mnp.flip(out, axis=ax)
    return cast(out, x.dtype)
