"""Reductions, arg-reductions, cumulative ops, windowed reductions (pooling), sorting."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import ivy

from ._table import Ctx, rule

__all__: list[str] = []


def _reduction(name: str, ivy_fn: Callable[..., Any]) -> None:
    @rule(name, doc=f"ivy.{ivy_fn.__name__} over axes")
    def translate(x: Any, *, axes: Sequence[int]) -> Any:
        return ivy_fn(x, axis=tuple(axes)) if axes else x


_reduction("reduce_sum", ivy.sum)
_reduction("reduce_max", ivy.max)
_reduction("reduce_min", ivy.min)
_reduction("reduce_prod", ivy.prod)


def _bool_only(eqn: Any) -> str | None:
    dt = str(eqn.invars[0].aval.dtype)
    return None if dt == "bool" else f"a bitwise reduction of {dt}"


@rule("reduce_and", doc="ivy.all over axes (bool)", supports=_bool_only)
def _reduce_and(x: Any, *, axes: Sequence[int]) -> Any:
    return ivy.all(x, axis=tuple(axes))


@rule("reduce_or", doc="ivy.any over axes (bool)", supports=_bool_only)
def _reduce_or(x: Any, *, axes: Sequence[int]) -> Any:
    return ivy.any(x, axis=tuple(axes))


@rule("reduce_xor", doc="odd ivy.count_nonzero over axes (bool)", supports=_bool_only)
def _reduce_xor(x: Any, *, axes: Sequence[int]) -> Any:
    return ivy.equal(ivy.remainder(ivy.count_nonzero(x, axis=tuple(axes)), 2), 1)


@rule("argmax", doc="ivy.argmax along the one axis")
def _argmax(x: Any, *, axes: Sequence[int]) -> Any:
    return ivy.argmax(x, axis=int(axes[0]))


@rule("argmin", doc="ivy.argmin along the one axis")
def _argmin(x: Any, *, axes: Sequence[int]) -> Any:
    return ivy.argmin(x, axis=int(axes[0]))


@rule("cumsum", doc="ivy.cumsum")
def _cumsum(x: Any, *, axis: int, reverse: bool) -> Any:
    return ivy.cumsum(x, axis, reverse=bool(reverse))


@rule("cumprod", doc="ivy.cumprod")
def _cumprod(x: Any, *, axis: int, reverse: bool) -> Any:
    return ivy.cumprod(x, axis, reverse=bool(reverse))


def _prefix_scan(x: Any, axis: int, reverse: bool, combine: Callable[[Any, Any], Any]) -> Any:
    """Inclusive scan with an associative ``combine`` in log2(n) steps (Hillis-Steele): each step
    combines every element with the one ``shift`` before it, where there is one."""
    if reverse:
        x = ivy.flip(x, axis=axis)
    n = x.shape[axis]
    shift = 1
    while shift < n:
        head = (slice(None),) * axis + (slice(0, shift),)
        rest = (slice(None),) * axis + (slice(shift, None),)
        before = (slice(None),) * axis + (slice(0, n - shift),)
        x = ivy.concat([ivy.get_item(x, head), combine(ivy.get_item(x, rest), ivy.get_item(x, before))], axis=axis)
        shift *= 2
    return ivy.flip(x, axis=axis) if reverse else x


def _scan_rule(name: str, combine: Callable[[Any, Any], Any]) -> None:
    @rule(name, doc=f"log-step prefix scan of ivy.{combine.__name__}")
    def translate(x: Any, *, axis: int, reverse: bool) -> Any:
        return _prefix_scan(x, int(axis) % len(x.shape), bool(reverse), combine)


_scan_rule("cummax", ivy.maximum)
_scan_rule("cummin", ivy.minimum)
_scan_rule("cumlogsumexp", ivy.logaddexp)


# ------------------------------------------------------------------------------ pooling

_LAST = {1: "NWC", 2: "NHWC", 3: "NDHWC"}
_FIRST = {1: "NCW", 2: "NCHW", 3: "NCDHW"}
_MAX_POOL = {1: ivy.max_pool1d, 2: ivy.max_pool2d, 3: ivy.max_pool3d}
_AVG_POOL = {1: ivy.avg_pool1d, 2: ivy.avg_pool2d, 3: ivy.avg_pool3d}


def _windowed_axes(eqn: Any) -> list[int]:
    p = eqn.params
    return [
        d
        for d in range(len(p["window_dimensions"]))
        if p["window_dimensions"][d] != 1 or p["window_strides"][d] != 1 or tuple(p["padding"][d]) != (0, 0)
    ]


def _poolable(eqn: Any) -> str | None:
    p = eqn.params
    if any(d != 1 for d in p["base_dilation"]) or any(d != 1 for d in p["window_dilation"]):
        return "a dilated window (no Ivy pooling op dilates)"
    if len(_windowed_axes(eqn)) > 3:
        return "a window over more than 3 axes"
    dt = str(eqn.invars[0].aval.dtype)
    return None if "float" in dt else f"pooling of {dt} (Ivy pools floating-point arrays)"


def _pool(
    x: Any,
    axes: list[int],
    pool: Callable[..., Any],
    kernel: list[int],
    strides: list[int],
    pads: list[tuple[int, int]],
    **kw: Any,
) -> Any:
    """Pool ``x`` over ``axes`` with an Ivy pooling op, in x's own layout when it is one (batch,
    spatial..., channels or batch, channels, spatial...); otherwise the other axes are moved
    first and merged into one batch axis, and restored after."""
    k, rank = len(axes), len(x.shape)
    if rank == k + 2 and axes == list(range(1, k + 1)):
        return pool(x, kernel, strides, pads, data_format=_LAST[k], **kw)
    if rank == k + 2 and axes == list(range(2, k + 2)):
        return pool(x, kernel, strides, pads, data_format=_FIRST[k], **kw)
    others = [d for d in range(rank) if d not in axes]
    perm = others + axes
    moved = ivy.permute_dims(x, tuple(perm)) if perm != list(range(rank)) else x
    lead = [x.shape[d] for d in others]
    flat = ivy.reshape(moved, (math.prod(lead), *[x.shape[d] for d in axes], 1))
    out = pool(flat, kernel, strides, pads, data_format=_LAST[k], **kw)
    out = ivy.reshape(out, (*lead, *out.shape[1:-1]))
    inverse = [perm.index(d) for d in range(rank)]
    return ivy.permute_dims(out, tuple(inverse)) if perm != list(range(rank)) else out


def _window_args(x: Any, eqn: Any) -> tuple[list[int], list[int], list[int], list[tuple[int, int]]]:
    p = eqn.params
    axes = _windowed_axes(eqn)
    return (
        axes,
        [int(p["window_dimensions"][d]) for d in axes],
        [int(p["window_strides"][d]) for d in axes],
        [(int(p["padding"][d][0]), int(p["padding"][d][1])) for d in axes],
    )


@rule("reduce_window_max", doc="ivy.max_pool1d/2d/3d in the array's layout", supports=_poolable)
def _reduce_window_max(x: Any, *, ctx: Ctx) -> Any:
    axes, kernel, strides, pads = _window_args(x, ctx.eqn)
    return _pool(x, axes, _MAX_POOL[len(axes)], kernel, strides, pads) if axes else x


@rule("reduce_window_min", doc="-ivy.max_pool1d/2d/3d(-x)", supports=_poolable)
def _reduce_window_min(x: Any, *, ctx: Ctx) -> Any:
    axes, kernel, strides, pads = _window_args(x, ctx.eqn)
    if not axes:
        return x
    return ivy.negative(_pool(ivy.negative(x), axes, _MAX_POOL[len(axes)], kernel, strides, pads))


@rule("reduce_window_sum", doc="ivy.avg_pool1d/2d/3d (padding counted) times the window size", supports=_poolable)
def _reduce_window_sum(x: Any, *, ctx: Ctx) -> Any:
    axes, kernel, strides, pads = _window_args(x, ctx.eqn)
    if not axes:
        return x
    mean = _pool(x, axes, _AVG_POOL[len(axes)], kernel, strides, pads, count_include_pad=True)
    return ivy.multiply(mean, float(math.prod(kernel)))


# ------------------------------------------------------------------------------ sorting


def _one_key(eqn: Any) -> str | None:
    return None if eqn.params.get("num_keys", 1) == 1 else "sorting by several keys"


@rule("sort", doc="ivy.sort; with more operands, ivy.argsort of the first and ivy.take_along_axis", supports=_one_key)
def _sort(*operands: Any, dimension: int, is_stable: bool) -> Any:
    if len(operands) == 1:
        return [ivy.sort(operands[0], axis=int(dimension), stable=bool(is_stable))]
    order = ivy.argsort(operands[0], axis=int(dimension), stable=bool(is_stable))
    return [ivy.take_along_axis(x, order, axis=int(dimension)) for x in operands]


@rule("top_k", doc="ivy.top_k")
def _top_k(x: Any, *, k: int, axis: int = -1) -> Any:
    values, indices = ivy.top_k(x, int(k), axis=int(axis))
    return [values, indices]
