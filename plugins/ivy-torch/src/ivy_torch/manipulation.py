"""Manipulation functions."""

from __future__ import annotations

from typing import Any

import torch

from ivy.plugin_kit import fastpath

from ._dtypes import promote
from ._helpers import Tensor, norm_axis, viewcall

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

moveaxis = torch.moveaxis


def broadcast_arrays(*arrays: Tensor) -> list[Tensor]:
    return list(torch.broadcast_tensors(*arrays))


@fastpath(torch.broadcast_to, nargs=2, retry=RuntimeError)  # the function raises the standard's ValueError
def broadcast_to(x: Tensor, /, shape: tuple[int, ...]) -> Tensor:
    try:
        return torch.broadcast_to(x, shape)
    except RuntimeError as e:  # the standard raises ValueError
        raise ValueError(str(e)) from e


def _common(arrays: Any) -> list[Tensor]:
    """Cast to the standard's common dtype when the inputs differ (torch.cat's 0-d/uint rules differ)."""
    arrays = list(arrays)
    d0 = arrays[0].dtype
    if all(a.dtype is d0 for a in arrays):
        return arrays
    dt = d0
    for a in arrays[1:]:
        dt = promote(dt, a.dtype)
    return [a if a.dtype is dt else a.to(dt) for a in arrays]


# torch.cat promotes like the standard; axis=None goes to the function. dim=0 is torch's default
# too: not passed when the call gives no axis (torch parses each argument it gets)
@fastpath(
    torch.cat,
    nargs=1,
    defaults=(0,),
    keywords=("axis",),
    native_defaults=1,
    keyword_types=(int,),
    retry=(RuntimeError, TypeError),
)
def concat(arrays: tuple[Tensor, ...] | list[Tensor], /, *, axis: int | None = 0) -> Tensor:
    if axis is None:
        arrays = [a.reshape(-1) for a in arrays]
        axis = 0
    try:
        return torch.cat(arrays, axis)  # promotes like the standard (no 0-d inputs here)
    except RuntimeError:  # partial unsigned dtypes: promote and concatenate through views
        return _cat_views(_common(arrays), axis)


def _cat_views(arrays: list[Tensor], axis: int) -> Tensor:
    from ._dtypes import SIGNED_VIEW

    d = arrays[0].dtype
    s = SIGNED_VIEW.get(d)
    if s is None:
        return torch.cat(arrays, dim=axis)
    return torch.cat([a.view(s) for a in arrays], dim=axis).view(d)


@fastpath(torch.unsqueeze, nargs=(1, 2), defaults=(0,), retry=TypeError)  # unsqueeze has no default dim
def expand_dims(x: Tensor, /, axis: int = 0) -> Tensor:
    return torch.unsqueeze(x, axis)


def flip(x: Tensor, /, *, axis: int | tuple[int, ...] | None = None) -> Tensor:
    dims = tuple(range(x.ndim)) if axis is None else ((axis,) if isinstance(axis, int) else axis)
    try:
        return torch.flip(x, dims)
    except NotImplementedError:  # uint16/32/64: through the same-width signed view
        return viewcall(torch.flip, x, dims)


@fastpath(torch.permute, nargs=2)
def permute_dims(x: Tensor, /, axes: tuple[int, ...]) -> Tensor:
    return torch.permute(x, axes)


def repeat(x: Tensor, repeats: int | Tensor, /, *, axis: int | None = None) -> Tensor:
    if isinstance(repeats, Tensor) and repeats.dtype is not torch.int64:
        repeats = repeats.long()  # repeat_interleave wants int64 counts
    try:
        return torch.repeat_interleave(x, repeats, dim=axis)
    except NotImplementedError:
        return viewcall(torch.repeat_interleave, x, repeats, dim=axis)


@fastpath(torch.reshape, nargs=2)
def reshape(x: Tensor, /, shape: tuple[int, ...], *, copy: bool | None = None) -> Tensor:
    if copy is None:
        return torch.reshape(x, shape)
    if copy:
        return torch.reshape(x, shape).clone()
    try:
        return x.view(shape)
    except RuntimeError as e:  # not expressible as a view
        raise ValueError(f"reshape: copy=False but a copy is needed ({e})") from e


def roll(
    x: Tensor,
    /,
    shift: int | tuple[int, ...],
    *,
    axis: int | tuple[int, ...] | None = None,
) -> Tensor:
    if axis is None:
        dims: Any = ()
        if not isinstance(shift, int):
            shift = sum(shift)  # several shifts of the flattened array add up
    elif isinstance(axis, int):
        dims = axis
    else:
        dims = tuple(axis)
        if isinstance(shift, int):
            shift = (shift,) * len(dims)  # torch needs one shift per axis
    try:
        return torch.roll(x, shift, dims)
    except NotImplementedError:
        return viewcall(torch.roll, x, shift, dims)


def squeeze(x: Tensor, /, axis: int | tuple[int, ...]) -> Tensor:
    shape = x.shape
    if isinstance(axis, int):
        if shape[axis] != 1:  # torch silently keeps axes that are not of size one
            raise ValueError(f"squeeze: axis {axis} has size {shape[axis]}, not 1")
        return torch.squeeze(x, axis)
    n = x.ndim
    axes = tuple(norm_axis(a, n) for a in axis)
    if len(set(axes)) != len(axes):
        raise ValueError("squeeze: repeated axis")
    for a in axes:
        if shape[a] != 1:
            raise ValueError(f"squeeze: axis {a} has size {shape[a]}, not 1")
    return torch.squeeze(x, axes)


@fastpath(
    torch.stack, nargs=1, defaults=(0,), keywords=("axis",), native_defaults=1, keyword_types=(int,), retry=RuntimeError
)
def stack(arrays: tuple[Tensor, ...] | list[Tensor], /, *, axis: int = 0) -> Tensor:
    try:
        return torch.stack(arrays, dim=axis)
    except RuntimeError:  # mixed 0-d inputs (torch promotes them as weak) or partial unsigned dtypes
        arrays = _common(arrays)
        return torch.stack(arrays, dim=axis)


def tile(x: Tensor, repetitions: tuple[int, ...], /) -> Tensor:
    try:
        return torch.tile(x, tuple(repetitions))
    except NotImplementedError:
        return viewcall(torch.tile, x, tuple(repetitions))


@fastpath(torch.unbind, nargs=1, defaults=(0,), keywords=("axis",), native_defaults=1, keyword_types=(int,))
def unstack(x: Tensor, /, *, axis: int = 0) -> tuple[Tensor, ...]:
    return torch.unbind(x, axis)
