"""Indexing functions: paddle's gathers reject negative indices, so indices are wrapped first."""

from __future__ import annotations

from typing import Any

from ivy.plugin_kit import axis_index

from ._bounds import integral
from ._framework import paddle
from ._helpers import lift

__all__ = ["take", "take_along_axis"]


def take(x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
    if axis is None:
        if len(x.shape) != 1:
            raise ValueError("ivy.take: axis may be None only for one-dimensional x")
        axis = 0
    axis_index(axis, len(x.shape), "take")  # paddle's gather reads another axis for one out of range
    # gather takes negative indices and has kernels for every dtype (index_select lacks some)
    return paddle.gather(x, indices, axis)


def take_along_axis(x: Any, indices: Any, /, *, axis: int = -1) -> Any:
    xs, ns = x.shape, indices.shape
    nd = len(xs)
    axis_index(axis, nd, "take_along_axis")
    integral(indices, "take_along_axis")  # paddle reads float indices as integers: garbage
    if len(ns) == nd and -nd <= axis < nd:
        a = axis % nd
        if all(xs[i] == ns[i] for i in range(nd) if i != a):
            # nothing to broadcast: paddle's broadcast=True would still copy x (an expand, and
            # its reduction in the backward pass)
            return lift(paddle.take_along_axis, x, indices, a, broadcast=False, complex_split=True)
    return lift(paddle.take_along_axis, x, indices, axis, complex_split=True)
