"""Manipulation functions. Kernels lacking narrow dtypes go through ``lift`` (exact casts)."""

from __future__ import annotations

from typing import Any

from ivy.plugin_kit import axis_tuple, fastpath

from ._dtypes import idset, int8, int16, uint8
from ._framework import Tensor, paddle
from ._helpers import lift, norm_axes, norm_axis, promote_many

_LIFT = idset(int8, int16, uint8)

# the C ops behind paddle's Python functions, which only rename arguments before calling them
# (in dynamic and PIR mode); about 1 µs less per call
_concat = paddle._C_ops.concat
_stack = paddle._C_ops.stack
_expand = paddle._C_ops.expand

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


def broadcast_shapes(*shapes: Any) -> list[int]:
    n = max((len(s) for s in shapes), default=0)
    out = [1] * n
    for s in shapes:
        for i, d in enumerate(s, n - len(s)):
            o = out[i]
            if d != o:
                if o == 1:
                    out[i] = d
                elif d != 1:
                    raise ValueError(f"shapes {[tuple(s) for s in shapes]} cannot be broadcast together")
    return out


def broadcast_arrays(*arrays: Any) -> list[Any]:
    # paddle.broadcast_tensors lacks int8/uint8/...: broadcast each array to the common shape
    shape = broadcast_shapes(*[a.shape for a in arrays])
    return [a if list(a.shape) == shape else paddle.broadcast_to(a, shape) for a in arrays]


def broadcast_to(x: Any, /, shape: Any) -> Any:
    shape = list(shape)
    xs = x.shape
    k = len(shape) - len(xs)
    # each axis of x is 1 or the target's (paddle's expand also takes -1, "keep this axis")
    if k < 0 or any(d != s and d != 1 for d, s in zip(xs, shape[k:])) or any(s < 0 for s in shape):
        raise ValueError(f"cannot broadcast an array of shape {tuple(xs)} to {tuple(shape)}")
    return _expand(x, shape)  # what paddle.broadcast_to calls, minus two Python layers


# paddle.concat's C op with its default axis 0. It raises ValueError for mixed dtypes (which this
# function promotes) and for everything else it rejects, which this function then reports itself.
@fastpath(_concat, nargs=1, defaults=(0,), keywords=("axis",), retry=(ValueError, TypeError))
def concat(arrays: Any, /, *, axis: int | None = 0) -> Any:
    xs = promote_many(arrays, "concat")
    if axis is None:
        return _concat([x.reshape([-1]) for x in xs], 0)
    return _concat(xs, axis)  # paddle.concat's own call (it checks the arrays itself)


_unsqueeze = paddle._C_ops.unsqueeze
_unbind = paddle._C_ops.unbind


def expand_dims(x: Any, /, axis: int = 0) -> Any:
    n = len(x.shape)
    if not -n - 1 <= axis <= n:
        raise IndexError(f"ivy.expand_dims: axis {axis} is out of range for rank {n}")
    return _unsqueeze(x, [axis])  # paddle.unsqueeze's own call in dynamic mode, for an int axis


def flip(x: Any, /, *, axis: int | tuple[int, ...] | None = None) -> Any:
    if axis is None:
        axis = tuple(range(len(x.shape)))
    if axis == () or axis == []:
        return x.clone()
    if id(x.dtype) in _LIFT:
        return lift(paddle.flip, x, axis)  # no int8/int16/uint8 kernels
    return paddle.flip(x, axis)


def moveaxis(x: Any, source: Any, destination: Any, /) -> Any:
    nd = len(x.shape)  # paddle's own check is an AssertionError
    axis_tuple(source, nd, "moveaxis", "source")
    axis_tuple(destination, nd, "moveaxis", "destination")
    return paddle.moveaxis(x, source, destination)


# paddle.transpose(x, perm) is _C_ops.transpose(x, perm) behind an argument-alias layer; an
# int (or other) perm it rejects with ValueError: the Python function reports that itself
@fastpath(paddle._C_ops.transpose, nargs=2, retry=(ValueError, TypeError))
def permute_dims(x: Any, /, axes: tuple[int, ...]) -> Any:
    return paddle.transpose(x, list(axes))


def _repeat(x: Any, repeats: Any, axis: int) -> Any:
    return paddle.repeat_interleave(x, repeats, axis)


def repeat(x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
    if axis is None:
        x = x.reshape([-1])
        axis = 0
    else:
        axis = norm_axis(axis, len(x.shape))
    if isinstance(repeats, Tensor):
        if len(repeats.shape) == 0 or repeats.shape[0] == 1:
            repeats = int(repeats.reshape([-1])[0])  # (1,) broadcasts: an int repeat count
        elif repeats.dtype != paddle.int64:
            repeats = paddle.cast(repeats, paddle.int64)
    if x.shape[axis] == 0 or (isinstance(repeats, int) and repeats == 0):
        shape = list(x.shape)  # paddle rejects empty input and zero repeats
        shape[axis] = 0
        return paddle.empty(shape, dtype=x.dtype)
    return lift(_repeat, x, repeats, axis, complex_split=True)


# paddle.reshape takes a tuple, a list (or an int) as the shape; it rejects other iterables with
# ValueError, which the Python function turns into a list first
@fastpath(paddle.reshape, nargs=2, retry=(ValueError, TypeError))
def reshape(x: Any, /, shape: Any, *, copy: bool | None = None) -> Any:
    out = paddle.reshape(x, [shape] if type(shape) is int else list(shape))
    return out.clone() if copy else out


def roll(x: Any, /, shift: Any, *, axis: Any = None) -> Any:
    if axis is None:
        return lift(paddle.roll, x.reshape([-1]), shift, 0).reshape(x.shape)
    if isinstance(axis, int):
        axis = [axis]
    if isinstance(shift, int):
        shift = [shift] * len(axis)  # one shift for every listed axis
    return lift(paddle.roll, x, list(shift), list(axis))


def squeeze(x: Any, /, axis: Any) -> Any:
    axes = norm_axes(axis, len(x.shape))
    for a in axes:
        if x.shape[a] != 1:  # paddle silently skips such axes; the standard raises
            raise ValueError(f"ivy.squeeze: axis {a} has size {x.shape[a]}, not 1")
    return paddle.squeeze(x, axes) if axes else x


# paddle.stack's C op: like concat's, it raises ValueError for mixed dtypes (promoted here)
@fastpath(_stack, nargs=1, defaults=(0,), keywords=("axis",), retry=(ValueError, TypeError))
def stack(arrays: Any, /, *, axis: int = 0) -> Any:
    return _stack(promote_many(arrays, "stack"), axis)  # paddle.stack's own call


def tile(x: Any, repetitions: Any, /) -> Any:
    reps = list(repetitions)
    if len(x.shape) > len(reps):
        reps = [1] * (len(x.shape) - len(reps)) + reps
    if not reps:
        return x.clone()
    return paddle.tile(x, reps)


def unstack(x: Any, /, *, axis: int = 0) -> tuple[Any, ...]:
    # unbind has every dtype, unstack not; _C_ops.unbind is paddle.unbind in dynamic and PIR mode
    return tuple(_unbind(x, norm_axis(axis, len(x.shape))))
