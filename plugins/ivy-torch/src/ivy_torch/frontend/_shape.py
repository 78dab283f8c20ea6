"""Views, shape manipulation, padding and copies.

The exported program is functional (torch.export removed in-place ops and aliasing), so views
are values: ``view`` is a reshape, ``clone`` and ``alias`` are the value itself, ``copy`` is
its source broadcast to the destination's shape and dtype.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch

import ivy

from ._rules import Out, Rule, cast, const, rule

__all__ = ["TABLE"]

_INT64_MAX = 2**63 - 1


@rule()
def view(x: Any, size: Sequence[int]) -> Any:
    """ivy.reshape"""
    return ivy.reshape(x, tuple(size))


@rule(out=True)
def expand(out: Out, x: Any, size: Sequence[int], *, implicit: bool = False) -> Any:
    """ivy.broadcast_to (to the exported shape: ATen's -1 keeps a size)"""
    return ivy.broadcast_to(x, out.shape)


@rule()
def permute(x: Any, dims: Sequence[int]) -> Any:
    """ivy.permute_dims"""
    return ivy.permute_dims(x, tuple(d % x.ndim for d in dims))


@rule()
def unsqueeze(x: Any, dim: int) -> Any:
    """ivy.expand_dims"""
    return ivy.expand_dims(x, axis=dim % (x.ndim + 1))


@rule()
def squeeze(x: Any, dim: int | Sequence[int] | None = None) -> Any:
    """ivy.squeeze of the named axes whose size is 1 (torch leaves the others alone)"""
    dims = range(x.ndim) if dim is None else [dim] if isinstance(dim, int) else dim
    ones = tuple(sorted({d % x.ndim for d in dims if x.shape[d] == 1})) if x.ndim else ()
    return ivy.squeeze(x, axis=ones) if ones else x


@rule(out=True)
def cat(out: Out, tensors: Sequence[Any], dim: int = 0) -> Any:
    """ivy.concat in torch's result dtype (legacy empty 1-D tensors skipped, as torch does)"""
    parts = [cast(t, out.dtype) for t in tensors if not (t.ndim == 1 and t.shape[0] == 0 and len(out.shape) > 1)]
    return ivy.concat(parts, axis=dim % len(out.shape)) if len(parts) > 1 else parts[0]


@rule()
def split_with_sizes(x: Any, split_sizes: Sequence[int], dim: int = 0) -> Any:
    """ivy.split(x, sizes, axis=dim)"""
    return ivy.split(x, list(split_sizes), axis=dim % x.ndim)


@rule()
def split(x: Any, split_size: int, dim: int = 0) -> Any:
    """ivy.split into pieces of split_size (the last one shorter)"""
    n = x.shape[dim]
    sizes = [split_size] * (n // split_size) + ([n % split_size] if n % split_size else [])
    return ivy.split(x, sizes, axis=dim % x.ndim)


def _index(ndim: int, dim: int, item: Any) -> tuple[Any, ...]:
    return (slice(None),) * (dim % ndim) + (item,)


@rule()
def slice_(x: Any, dim: int = 0, start: int | None = None, end: int | None = None, step: int = 1) -> Any:
    """ivy.get_item with a slice on one axis (ATen's INT64_MAX end: to the end)"""
    if end is not None and end >= _INT64_MAX:
        end = None
    if start == 0:
        start = None
    if start is None and end is None and step == 1:
        return x
    return ivy.get_item(x, _index(x.ndim, dim, slice(start, end, step if step != 1 else None)))


@rule()
def select(x: Any, dim: int, index: int) -> Any:
    """ivy.get_item with an integer on one axis"""
    return ivy.get_item(x, _index(x.ndim, dim, index))


@rule()
def slice_scatter(
    x: Any, src: Any, dim: int = 0, start: int | None = None, end: int | None = None, step: int = 1
) -> Any:
    """ivy.set_item of a slice of one axis"""
    if end is not None and end >= _INT64_MAX:
        end = None
    return ivy.set_item(x, _index(x.ndim, dim, slice(start, end, step)), src)


@rule()
def select_scatter(x: Any, src: Any, dim: int, index: int) -> Any:
    """ivy.set_item of one index of one axis"""
    return ivy.set_item(x, _index(x.ndim, dim, index), src)


@rule()
def flip(x: Any, dims: Sequence[int]) -> Any:
    """ivy.flip"""
    return ivy.flip(x, axis=tuple(d % x.ndim for d in dims))


@rule()
def repeat(x: Any, repeats: Sequence[int]) -> Any:
    """ivy.tile (torch's repeat), after adding the leading axes repeats has more of"""
    extra = len(repeats) - x.ndim
    if extra:
        x = ivy.reshape(x, (1,) * extra + tuple(x.shape))
    return ivy.tile(x, tuple(repeats))


def _pad_widths(ndim: int, pad: Sequence[int]) -> list[tuple[int, int]]:
    """ATen's flat padding list (last axis first: left, right, then the axis before...) as one
    (before, after) pair per axis."""
    widths = [(0, 0)] * ndim
    for k in range(len(pad) // 2):
        widths[ndim - 1 - k] = (pad[2 * k], pad[2 * k + 1])
    return widths


@rule()
def constant_pad_nd(x: Any, pad: Sequence[int], value: float = 0) -> Any:
    """ivy.pad with a constant; negative widths crop (ivy.get_item)"""
    widths = _pad_widths(x.ndim, pad)
    grow = [(max(lo, 0), max(hi, 0)) for lo, hi in widths]
    if any(lo or hi for lo, hi in grow):
        x = ivy.pad(x, grow, value=value)
    if any(lo < 0 or hi < 0 for lo, hi in widths):
        x = ivy.get_item(x, tuple(slice(-lo if lo < 0 else None, hi if hi < 0 else None) for lo, hi in widths))
    return x


def _pad(mode: str) -> Rule:
    def apply(x: Any, padding: Sequence[int]) -> Any:
        return ivy.pad(x, _pad_widths(x.ndim, padding), mode=mode)

    return Rule(apply, f'ivy.pad(mode="{mode}") of the last axes')


@rule()
def identity(x: Any, *args: Any, **kwargs: Any) -> Any:
    """the value itself (the exported program is functional: nothing aliases it)"""
    return x


@rule()
def copy(x: Any, src: Any, non_blocking: bool = False) -> Any:
    """src broadcast to x's shape and cast to x's dtype"""
    src = cast(src, x.dtype)
    return src if tuple(src.shape) == tuple(x.shape) else ivy.broadcast_to(src, tuple(x.shape))


@rule(out=True)
def to_copy(out: Out, x: Any, **kwargs: Any) -> Any:
    """ivy.astype to the requested dtype (device and layout ignored)"""
    return cast(x, out.dtype)


@rule()
def diagonal(x: Any, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Any:
    """ivy.linalg.diagonal of the two axes moved last"""
    return ivy.linalg.diagonal(ivy.moveaxis(x, (dim1 % x.ndim, dim2 % x.ndim), (-2, -1)), offset=offset)


def _strided_input(node: Any) -> str | None:
    val = node.args[0].meta.get("val")
    if val is None or not val.is_contiguous() or val.storage_offset() != 0:
        return "as_strided of a tensor that is not a contiguous, unshifted array"
    return None


@rule(check=_strided_input)
def as_strided(x: Any, size: Sequence[int], stride: Sequence[int], storage_offset: int | None = None) -> Any:
    """ivy.take of the flattened tensor at the strided element positions (contiguous inputs)"""
    index = torch.full(tuple(size), storage_offset or 0, dtype=torch.int64)
    for axis, (n, s) in enumerate(zip(size, stride)):
        shape = [1] * len(size)
        shape[axis] = n
        index = index + (torch.arange(n) * s).reshape(shape)
    return ivy.reshape(ivy.take(ivy.reshape(x, (-1,)), const(index.reshape(-1))), tuple(size))


@rule()
def view_as_real(x: Any) -> Any:
    """ivy.stack of ivy.real and ivy.imag on a new last axis"""
    return ivy.stack([ivy.real(x), ivy.imag(x)], axis=-1)


@rule(out=True)
def view_as_complex(out: Out, x: Any) -> Any:
    """real + 1j * imaginary, from the last axis of size 2"""
    parts = ivy.unstack(x, axis=-1)
    return ivy.add(cast(parts[0], out.dtype), ivy.multiply(cast(parts[1], out.dtype), 1j))


TABLE: dict[str, Rule] = {
    "view": view,
    "_unsafe_view": view,
    "reshape": view,
    "expand": expand,
    "permute": permute,
    "unsqueeze": unsqueeze,
    "squeeze": squeeze,
    "squeeze.dim": squeeze,
    "squeeze.dims": squeeze,
    "cat": cat,
    "split_with_sizes": split_with_sizes,
    "split.Tensor": split,
    "slice.Tensor": slice_,
    "select.int": select,
    "slice_scatter": slice_scatter,
    "select_scatter": select_scatter,
    "flip": flip,
    "repeat": repeat,
    "constant_pad_nd": constant_pad_nd,
    "reflection_pad1d": _pad("reflect"),
    "reflection_pad2d": _pad("reflect"),
    "reflection_pad3d": _pad("reflect"),
    "replication_pad2d": _pad("edge"),
    "replication_pad3d": _pad("edge"),
    "alias": identity,
    "clone": identity,
    "copy": copy,
    "_to_copy": to_copy,
    "diagonal": diagonal,
    "as_strided": as_strided,
    "view_as_real": view_as_real,
    "view_as_complex": view_as_complex,
}
