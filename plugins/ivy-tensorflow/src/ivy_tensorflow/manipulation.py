"""Manipulation functions."""

from __future__ import annotations

from typing import Any

import tensorflow as tf
from tensorflow.python.ops import gen_array_ops as ga

from . import _dtypes as D
from ._helpers import arrays as _promoted
from ._helpers import ints, norm_axes, norm_axis, tensor

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


def _movable(x: Any) -> tuple[Any, Any]:
    """uint16 has no Tile kernel on CPU: move the same bits as int16 (exact), then bitcast back."""
    if x.dtype is D.U16:
        return ga.bitcast(x, D.I16), D.U16
    return x, None


def _back(y: Any, d: Any) -> Any:
    return y if d is None else ga.bitcast(y, d)


def broadcast_shapes(*shapes: Any) -> list[int]:
    out: list[int] = []
    for s in shapes:
        s = list(s)
        if len(s) > len(out):
            out = [1] * (len(s) - len(out)) + out
        s = [1] * (len(out) - len(s)) + s
        for i, (a, b) in enumerate(zip(out, s)):
            if a == 1:
                out[i] = b
            elif b != 1 and a != b:
                raise ValueError(f"shapes {shapes} cannot be broadcast together")
    return out


def broadcast_arrays(*arrays: Any) -> list[Any]:
    shape = broadcast_shapes(*(a.shape for a in arrays))
    dims = ints(tuple(shape), tf.int64)
    return [a if list(a.shape) == shape else ga.broadcast_to(a, dims) for a in arrays]


def broadcast_to(x: Any, /, shape: tuple[int, ...]) -> Any:
    want = [int(s) for s in shape]
    if broadcast_shapes(x.shape, want) != want:
        raise ValueError(f"cannot broadcast shape {tuple(x.shape)} to {tuple(want)}")
    return ga.broadcast_to(x, ints(tuple(want), tf.int64))


def concat(arrays: Any, /, *, axis: int | None = 0) -> Any:
    xs = _promoted(arrays)
    if axis is None:
        return tf.concat([tf.reshape(x, [-1]) for x in xs], 0)
    n = xs[0].shape.rank
    if n == 0:
        raise ValueError("concat: zero-dimensional arrays cannot be concatenated")
    return ga.concat_v2(xs, norm_axis(axis, n)) if len(xs) > 1 else ga.identity(xs[0])


def expand_dims(x: Any, /, axis: int = 0) -> Any:
    n = x.shape.rank
    if not -n - 1 <= axis <= n:
        raise IndexError(f"expand_dims: axis {axis} out of range for rank {n}")
    return ga.expand_dims(x, axis)


def flip(x: Any, /, *, axis: int | tuple[int, ...] | None = None) -> Any:
    return ga.reverse_v2(x, ints(tuple(norm_axes(axis, x.shape.rank))))


def moveaxis(x: Any, source: Any, destination: Any, /) -> Any:
    n = x.shape.rank
    src = [norm_axis(a, n) for a in ([source] if isinstance(source, int) else source)]
    dst = [norm_axis(a, n) for a in ([destination] if isinstance(destination, int) else destination)]
    if len(src) != len(dst):
        raise ValueError("moveaxis: source and destination must have the same number of axes")
    order = [i for i in range(n) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return ga.transpose(x, ints(tuple(order)))


def permute_dims(x: Any, /, axes: tuple[int, ...]) -> Any:
    perm = ints(tuple(axes))
    try:
        return ga.transpose(x, perm)
    except tf.errors.InvalidArgumentError as e:
        raise ValueError(f"permute_dims: {e.message}") from None


def repeat(x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
    if axis is None:
        x = tf.reshape(x, [-1])
        axis = 0
    axis = norm_axis(axis, x.shape.rank)
    if not isinstance(repeats, int):
        repeats = tensor(repeats)
        if repeats.dtype is not D.I64:
            repeats = tf.cast(repeats, D.I64)
        if repeats.shape.rank == 1 and repeats.shape[0] == 1:
            repeats = tf.reshape(repeats, [])
    if x.shape.num_elements() == 0:  # tf.repeat fails on empty input: only the shape matters
        shape = list(x.shape)
        if isinstance(repeats, int):
            shape[axis] *= repeats
        elif repeats.shape.rank == 0:
            shape[axis] *= int(repeats)
        else:
            shape[axis] = int(tf.reduce_sum(repeats))
        return tf.zeros(shape, x.dtype)
    y, d = _movable(x)
    return _back(tf.repeat(y, repeats, axis=axis), d)


def reshape(x: Any, /, shape: tuple[int, ...], *, copy: bool | None = None) -> Any:
    try:
        out = ga.reshape(x, ints(tuple(shape), tf.int64))
    except tf.errors.InvalidArgumentError as e:
        raise ValueError(f"reshape: {e.message}") from None
    return ga.identity(out) if copy else out


def roll(x: Any, /, shift: Any, *, axis: Any = None) -> Any:
    if axis is None:
        return ga.reshape(tf.roll(tf.reshape(x, [-1]), shift, 0), tf.shape(x))
    n = x.shape.rank
    if isinstance(axis, int):
        axis = [axis]
    axis = [norm_axis(a, n) for a in axis]
    shift = [shift] * len(axis) if isinstance(shift, int) else list(shift)
    if len(shift) != len(axis):
        raise ValueError("roll: shift and axis must have the same length")
    return tf.roll(x, shift, axis)


def squeeze(x: Any, /, axis: Any) -> Any:
    n = x.shape.rank
    axes = [norm_axis(a, n) for a in ([axis] if isinstance(axis, int) else axis)]
    if len(set(axes)) != len(axes):
        raise ValueError("squeeze: repeated axis")
    for a in axes:
        if x.shape[a] != 1:
            raise ValueError(f"squeeze: axis {a} has size {x.shape[a]}, not 1")
    return ga.squeeze(x, axes) if axes else ga.identity(x)


def stack(arrays: Any, /, *, axis: int = 0) -> Any:
    xs = _promoted(arrays)
    n = xs[0].shape.rank
    if not -n - 1 <= axis <= n:
        raise IndexError(f"stack: axis {axis} out of range")
    return ga.pack(xs, axis=axis)


def tile(x: Any, repetitions: tuple[int, ...], /) -> Any:
    reps = [int(r) for r in repetitions]
    n = x.shape.rank
    if len(reps) > n:
        x = ga.reshape(x, [1] * (len(reps) - n) + list(x.shape))
    elif len(reps) < n:
        reps = [1] * (n - len(reps)) + reps
    y, d = _movable(x)
    return _back(ga.tile(y, ints(tuple(reps), tf.int64)), d)


def unstack(x: Any, /, *, axis: int = 0) -> tuple[Any, ...]:
    n = x.shape.rank
    return tuple(tf.unstack(x, axis=norm_axis(axis, n)))
