"""Specialised calls: how the graph emitter binds an op to its traced static arguments."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["specializer"]


def specializer(op: Callable[..., Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register how emitted graphs call the plugin op ``op`` for fixed static arguments.

    A graph knows every static argument of a call (strides, padding, layouts, axes) and the shape
    and dtype of every array; the plugin's general function normalises them on every call. The
    decorated function receives the op's arguments with each array replaced by a description
    (``.shape``, a tuple of ints; ``.dtype``, the dtype name) and returns a function of the arrays
    alone (in the order they appear among the arguments, nested sequences flattened) computing the
    op for those static values, or ``None`` to keep the general call. It runs once, when the
    graph is emitted (``graph.to``), and only for fully static shapes::

        @specializer(conv2d)
        def _conv2d_call(x, filters, strides, padding, /, *, data_format="NHWC", dilations=1):
            pads = ...                        # worked out once from x.shape and filters.shape
            return lambda x, f: F.conv2d(x, f.permute(3, 2, 0, 1), None, s, pads, d)

    It must give the general function's results exactly; the tests of emitted graphs check that.
    """

    def register(make: Callable[..., Any]) -> Callable[..., Any]:
        try:
            op.__ivy_specialize__ = make  # type: ignore[attr-defined]
        except AttributeError:
            raise TypeError(f"cannot attach a specializer to {op!r}: wrap it in a Python function") from None
        return make

    return register
