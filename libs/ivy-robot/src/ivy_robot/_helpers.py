"""Shared building blocks: shape checks with clear errors, constants "like" an array, safe maths."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ivy


def shape_of(x: Any) -> tuple[int, ...]:
    """The static shape of a native array as a tuple of ints."""
    return tuple(x.shape)


def check_last_dims(x: Any, dims: Sequence[int | None], fn: str, what: str) -> tuple[int, ...]:
    """``x``'s shape; a ``ValueError`` unless it ends in ``dims`` (``None`` matches any size)."""
    shape = getattr(x, "shape", None)
    if shape is None:
        raise TypeError(
            f"{fn}: expected {what} as a native array (torch.Tensor, jax.Array, ...), got {type(x).__name__}"
        )
    shape = tuple(shape)
    # a plain loop: these checks run on every call, next to a handful of array ops
    ok = len(shape) >= len(dims)
    if ok:
        for size, want in zip(shape[len(shape) - len(dims) :], dims):
            if want is not None and size != want:
                ok = False
    if not ok:
        expected = "[..., " + ", ".join("*" if d is None else str(d) for d in dims) + "]"
        raise ValueError(f"{fn}: expected {what} of shape {expected}, got shape {list(shape)}")
    return shape


def broadcast_batch(shapes: Sequence[tuple[int, ...]], names: Sequence[str], fn: str) -> tuple[int, ...]:
    """The broadcast of several leading batch shapes, or a ``ValueError`` naming the culprits."""
    if len(set(shapes)) == 1:  # the common case: one batch shape (or none) for every argument
        return tuple(shapes[0])
    rank = max(len(s) for s in shapes)
    out = []
    for axis in range(-rank, 0):
        sizes = {s[axis] for s in shapes if len(s) >= -axis and s[axis] != 1}
        if len(sizes) > 1:
            listed = ", ".join(f"{n} {list(s)}" for n, s in zip(names, shapes))
            raise ValueError(f"{fn}: the leading batch dimensions do not broadcast: {listed}")
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


def constant_like(values: Any, x: Any) -> Any:
    """A constant array of Python ``values`` with ``x``'s backend, dtype and device."""
    return ivy.asarray(values, dtype=x.dtype, device=ivy.dev(x), backend=ivy.namespace(x))


def safe_norm(x: Any, axis: int = -1, keepdims: bool = False) -> Any:
    """Euclidean norm along ``axis`` whose gradient at the zero vector is 0, not NaN.

    ``sqrt`` has an infinite derivative at 0, so the root is taken of a substitute 1 where the
    squared norm is 0 and the result is then replaced by 0 there.
    """
    sq = ivy.sum(x * x, axis=axis, keepdims=keepdims)
    nonzero = sq > 0
    return ivy.where(nonzero, ivy.sqrt(ivy.where(nonzero, sq, 1.0)), 0.0)
