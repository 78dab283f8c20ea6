"""Manipulation functions on ``mxnet.numpy`` (MXNet's own, differentiable; the standard's
argument forms normalised first)."""

from __future__ import annotations

import operator

from ._dtypes import INDEX, bool_
from ._framework import Array, mnp, onp
from ._helpers import norm_axes, norm_axis, on_host, promote_many, to_host, via_uint8

__all__ = [
    "broadcast_arrays",
    "broadcast_to",
    "concat",
    "expand_dims",
    "flip",
    "moveaxis",
    "permute_dims",
    "repeat",
    "reshape",
    "roll",
    "squeeze",
    "stack",
    "tile",
    "unstack",
]


def broadcast_arrays(*arrays: Array) -> list[Array]:
    if not arrays:
        return []
    shape = onp.broadcast_shapes(*(a.shape for a in arrays))
    return [a if a.shape == shape else mnp.broadcast_to(a, shape) for a in arrays]


def broadcast_to(x: Array, /, shape: tuple[int, ...]) -> Array:
    shape = tuple(operator.index(s) for s in shape)
    try:
        if onp.broadcast_shapes(x.shape, shape) != shape:
            raise ValueError
    except ValueError:
        raise ValueError(f"ivy.broadcast_to: cannot broadcast shape {x.shape} to {shape}") from None
    return mnp.broadcast_to(x, shape)


def concat(arrays: tuple[Array, ...] | list[Array], /, *, axis: int | None = 0) -> Array:
    xs = promote_many(list(arrays), "concat")
    if axis is None:
        return mnp.concatenate([x.reshape(-1) for x in xs], axis=0)
    ax = norm_axis(axis, xs[0].ndim, "concat")
    return mnp.concatenate(xs, axis=ax)


def stack(arrays: tuple[Array, ...] | list[Array], /, *, axis: int = 0) -> Array:
    xs = promote_many(list(arrays), "stack")
    ax = norm_axis(axis, xs[0].ndim + 1, "stack")
    return mnp.stack(xs, axis=ax)


def expand_dims(x: Array, /, axis: int = 0) -> Array:
    ax = norm_axis(axis, x.ndim + 1, "expand_dims")
    return mnp.expand_dims(x, ax)


def flip(x: Array, /, *, axis: int | tuple[int, ...] | None = None) -> Array:
    axes = norm_axes(axis, x.ndim, "flip")
    if not axes:
        return x.copy()
    return via_uint8(mnp.flip, x, axis=axes)


def moveaxis(x: Array, source: int | tuple[int, ...], destination: int | tuple[int, ...], /) -> Array:
    src, dst = norm_axes(source, x.ndim, "moveaxis"), norm_axes(destination, x.ndim, "moveaxis")
    if len(src) != len(dst):
        raise ValueError(f"ivy.moveaxis: {len(src)} source axes but {len(dst)} destinations")
    order = [a for a in range(x.ndim) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return via_uint8(mnp.transpose, x, tuple(order))


def permute_dims(x: Array, /, axes: tuple[int, ...]) -> Array:
    perm = norm_axes(tuple(axes), x.ndim, "permute_dims")
    if len(perm) != x.ndim:
        raise ValueError(f"ivy.permute_dims: axes {tuple(axes)} is not a permutation of {x.ndim} axes")
    return via_uint8(mnp.transpose, x, perm)


def repeat(x: Array, repeats: int | Array, /, *, axis: int | None = None) -> Array:
    if axis is None:
        x, axis = x.reshape(-1), 0
    ax = norm_axis(axis, x.ndim, "repeat")
    if x.size == 0 or (not isinstance(repeats, Array) and repeats == 0):  # (zero-size: MXNet's shapes go wrong)
        reps = to_host(repeats) if isinstance(repeats, Array) else repeats
        return on_host(lambda a: onp.repeat(a, reps, axis=ax), x, ctx=x.ctx)
    if not isinstance(repeats, Array):
        try:
            r = operator.index(repeats)
        except TypeError:
            repeats = onp.asarray(repeats)
        else:
            if r < 0:
                raise ValueError(f"ivy.repeat: repeats must be non-negative, got {r}")
            return mnp.repeat(x, r, axis=ax)
    counts = to_host(repeats).astype(onp.int64).reshape(-1)
    if not counts.any():
        return on_host(lambda a: onp.repeat(a, counts if counts.size > 1 else int(counts.sum()), axis=ax), x, ctx=x.ctx)
    n = x.shape[ax]
    if counts.size == 1:
        counts = onp.full(n, counts[0])
    if counts.size != n or (counts < 0).any():
        raise ValueError(f"ivy.repeat: repeats must be one non-negative count or {n} of them, got {counts.size}")
    # MXNet repeats by one count only: the same result by gathering each index its count times
    idx = onp.repeat(onp.arange(n, dtype=onp.int64), counts)
    return mnp.take(x, mnp.array(idx, dtype=INDEX, ctx=x.ctx), axis=ax)


def reshape(x: Array, /, shape: tuple[int, ...], *, copy: bool | None = None) -> Array:
    shape = tuple(operator.index(s) for s in shape)
    if sum(s == -1 for s in shape) > 1 or any(s < -1 for s in shape):
        raise ValueError(f"ivy.reshape: invalid shape {shape}")
    known = 1
    for s in shape:
        if s != -1:
            known *= s
    if -1 not in shape and known != x.size or (-1 in shape and (known == 0 or x.size % known)):
        raise ValueError(f"ivy.reshape: cannot reshape an array of shape {x.shape} to {shape}")
    out = mnp.reshape(x, shape)
    return out.copy() if copy else out


def roll(x: Array, /, shift: int | tuple[int, ...], *, axis: int | tuple[int, ...] | None = None) -> Array:
    if x.dtype == bool_:
        return via_uint8(roll, x, shift, axis=axis)
    if isinstance(axis, (tuple, list)):
        shifts = (
            [operator.index(s) for s in shift]
            if isinstance(shift, (tuple, list))
            else [operator.index(shift)] * len(axis)
        )
        if len(shifts) != len(axis):
            raise ValueError(f"ivy.roll: {len(shifts)} shifts for {len(axis)} axes")
        out = x
        for s, a in zip(shifts, axis):
            out = mnp.roll(out, s, axis=norm_axis(a, x.ndim, "roll"))
        return out
    if isinstance(shift, (tuple, list)):
        raise TypeError(f"ivy.roll: a tuple of shifts needs a tuple of axes, got shift={shift!r}, axis={axis!r}")
    if axis is None:
        return mnp.roll(x.reshape(-1), operator.index(shift)).reshape(x.shape)
    return mnp.roll(x, operator.index(shift), axis=norm_axis(axis, x.ndim, "roll"))


def squeeze(x: Array, /, axis: int | tuple[int, ...]) -> Array:
    axes = norm_axes(axis, x.ndim, "squeeze")
    for a in axes:
        if x.shape[a] != 1:
            raise ValueError(f"ivy.squeeze: axis {a} has size {x.shape[a]}, not 1 (shape {x.shape})")
    if not axes:
        return x
    return mnp.squeeze(x, axis=axes)


def tile(x: Array, repetitions: tuple[int, ...], /) -> Array:
    reps = tuple(operator.index(r) for r in repetitions)
    if any(r < 0 for r in reps):
        raise ValueError(f"ivy.tile: repetitions must be non-negative, got {reps}")
    # copies concatenated along each axis (MXNet's tile fails where its internal reshape passes
    # 6 dimensions, and on zero-size results)
    nd = max(x.ndim, len(reps))
    reps = (1,) * (nd - len(reps)) + reps
    out = x.reshape((1,) * (nd - x.ndim) + x.shape)
    for ax, r in enumerate(reps):
        if r == 1:
            continue
        if r == 0 or out.size == 0:
            shape = out.shape[:ax] + (out.shape[ax] * r,) + out.shape[ax + 1 :]
            out = mnp.zeros(shape, dtype=out.dtype, ctx=out.ctx)
        else:
            out = mnp.concatenate([out] * r, axis=ax)
    return out if out is not x else x.copy()


def unstack(x: Array, /, *, axis: int = 0) -> tuple[Array, ...]:
    ax = norm_axis(axis, x.ndim, "unstack")
    return tuple(x[(slice(None),) * ax + (i,)] for i in range(x.shape[ax]))
