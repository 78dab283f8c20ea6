"""Translations of NumPy functions (``__array_function__``) into Ivy ops, with NumPy's
parameters. The frontend casts each result to the dtype NumPy itself gives (recorded on the
example), so these need not reproduce NumPy's type promotion."""

from __future__ import annotations

from typing import Any

import ivy

from ._table import Unsupported, function, no

__all__: list[str] = []


def _axis(axis: Any) -> Any:
    return tuple(axis) if isinstance(axis, list) else axis


def _floating(a: Any) -> Any:
    return a if ivy.isdtype(a.dtype, ("real floating", "complex floating")) else ivy.astype(a, "float64")


@function("sum", doc="ivy.sum")
def _sum(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    keepdims: bool = False,
    initial: Any = None,
    where: Any = None,
) -> Any:
    no(out=out, initial=initial, where=where)
    if dtype is not None:
        a = ivy.astype(a, ivy.dtype_name(dtype))
    return ivy.sum(a, axis=_axis(axis), keepdims=bool(keepdims))


@function("mean", doc="ivy.mean (of floats)")
def _mean(
    a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: bool = False, *, where: Any = None
) -> Any:
    no(out=out, where=where)
    a = ivy.astype(a, ivy.dtype_name(dtype)) if dtype is not None else _floating(a)
    return ivy.mean(a, axis=_axis(axis), keepdims=bool(keepdims))


def _extreme(fn: Any) -> Any:
    def reduce(
        a: Any, axis: Any = None, out: Any = None, keepdims: bool = False, initial: Any = None, where: Any = None
    ) -> Any:
        no(out=out, initial=initial, where=where)
        return fn(a, axis=_axis(axis), keepdims=bool(keepdims))

    return reduce


function("max", "amax", doc="ivy.max")(_extreme(ivy.max))
function("min", "amin", doc="ivy.min")(_extreme(ivy.min))


@function("prod", doc="ivy.prod")
def _prod(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    keepdims: bool = False,
    initial: Any = None,
    where: Any = None,
) -> Any:
    no(out=out, initial=initial, where=where, dtype=dtype)
    return ivy.prod(a, axis=_axis(axis), keepdims=bool(keepdims))


def _moment(fn: Any) -> Any:
    def reduce(
        a: Any,
        axis: Any = None,
        dtype: Any = None,
        out: Any = None,
        ddof: float = 0,
        keepdims: bool = False,
        *,
        where: Any = None,
        mean: Any = None,
        correction: Any = None,
    ) -> Any:
        no(out=out, where=where, mean=mean, dtype=dtype)
        corr = ddof if correction is None else correction
        return fn(_floating(a), axis=_axis(axis), correction=corr, keepdims=bool(keepdims))

    return reduce


function("std", doc="ivy.std (correction=ddof)")(_moment(ivy.std))
function("var", doc="ivy.var (correction=ddof)")(_moment(ivy.var))


def _logical(fn: Any) -> Any:
    def reduce(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False, *, where: Any = None) -> Any:
        no(out=out, where=where)
        return fn(a, axis=_axis(axis), keepdims=bool(keepdims))

    return reduce


function("all", doc="ivy.all")(_logical(ivy.all))
function("any", doc="ivy.any")(_logical(ivy.any))


def _arg(fn: Any) -> Any:
    def reduce(a: Any, axis: Any = None, out: Any = None, *, keepdims: bool = False) -> Any:
        no(out=out)
        if axis is None:
            return fn(ivy.reshape(a, (-1,)), axis=0, keepdims=False)
        return fn(a, axis=axis, keepdims=bool(keepdims))

    return reduce


function("argmax", doc="ivy.argmax")(_arg(ivy.argmax))
function("argmin", doc="ivy.argmin")(_arg(ivy.argmin))


def _cumulative(fn: Any) -> Any:
    def scan(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
        no(out=out)
        if dtype is not None:
            a = ivy.astype(a, ivy.dtype_name(dtype))
        if axis is None:
            a, axis = ivy.reshape(a, (-1,)), 0
        return fn(a, axis)

    return scan


function("cumsum", doc="ivy.cumsum")(_cumulative(ivy.cumsum))
function("cumprod", doc="ivy.cumprod")(_cumulative(ivy.cumprod))


# ------------------------------------------------------------------------------ shapes


@function("reshape", doc="ivy.reshape (C order)")
def _reshape(a: Any, shape: Any = None, order: str = "C", *, newshape: Any = None, copy: Any = None) -> Any:
    if order != "C":
        raise Unsupported(f"order={order!r} is not translated")
    shape = shape if shape is not None else newshape
    return ivy.reshape(a, (shape,) if isinstance(shape, int) else tuple(shape))


@function("transpose", doc="ivy.permute_dims (reversed axes by default)")
def _transpose(a: Any, axes: Any = None) -> Any:
    return ivy.permute_dims(a, tuple(range(a.ndim))[::-1] if axes is None else tuple(axes))


@function("moveaxis", doc="ivy.moveaxis")
def _moveaxis(a: Any, source: Any, destination: Any) -> Any:
    return ivy.moveaxis(a, _axis(source), _axis(destination))


@function("swapaxes", doc="ivy.permute_dims")
def _swapaxes(a: Any, axis1: int, axis2: int) -> Any:
    axes = list(range(a.ndim))
    axes[axis1], axes[axis2] = axes[axis2], axes[axis1]
    return ivy.permute_dims(a, tuple(axes))


@function("squeeze", doc="ivy.squeeze (all unit axes by default)")
def _squeeze(a: Any, axis: Any = None) -> Any:
    if axis is None:
        axis = tuple(i for i, d in enumerate(a.shape) if d == 1)
    return ivy.squeeze(a, axis=_axis(axis)) if axis != () else a


@function("expand_dims", doc="ivy.expand_dims (one axis at a time)")
def _expand_dims(a: Any, axis: Any) -> Any:
    axes = sorted(a2 % (a.ndim + len(axis)) for a2 in axis) if isinstance(axis, (tuple, list)) else [axis]
    for ax in axes:
        a = ivy.expand_dims(a, axis=ax)
    return a


@function("concatenate", doc="ivy.concat")
def _concatenate(arrays: Any, axis: Any = 0, out: Any = None, dtype: Any = None, casting: str = "same_kind") -> Any:
    no(out=out, dtype=dtype)
    if axis is None:
        return ivy.concat([ivy.reshape(a, (-1,)) for a in arrays], axis=0)
    return ivy.concat(list(arrays), axis=axis)


@function("stack", doc="ivy.stack")
def _stack(arrays: Any, axis: int = 0, out: Any = None, *, dtype: Any = None, casting: str = "same_kind") -> Any:
    no(out=out, dtype=dtype)
    return ivy.stack(list(arrays), axis=axis)


@function("hstack", doc="ivy.concat along axis 1 (0 for vectors)")
def _hstack(tup: Any, *, dtype: Any = None, casting: str = "same_kind") -> Any:
    no(dtype=dtype)
    return ivy.concat(list(tup), axis=0 if tup[0].ndim == 1 else 1)


@function("vstack", doc="ivy.concat along axis 0 (vectors as rows)")
def _vstack(tup: Any, *, dtype: Any = None, casting: str = "same_kind") -> Any:
    no(dtype=dtype)
    return ivy.concat([ivy.reshape(t, (1, -1)) if t.ndim == 1 else t for t in tup], axis=0)


@function("tile", doc="ivy.tile")
def _tile(A: Any, reps: Any) -> Any:  # NumPy's name
    reps = (reps,) if isinstance(reps, int) else tuple(reps)
    return ivy.tile(A, reps)


@function("repeat", doc="ivy.repeat")
def _repeat(a: Any, repeats: Any, axis: Any = None) -> Any:
    return ivy.repeat(a, repeats, axis=axis)


@function("flip", doc="ivy.flip")
def _flip(m: Any, axis: Any = None) -> Any:
    return ivy.flip(m, axis=_axis(axis))


@function("roll", doc="ivy.roll")
def _roll(a: Any, shift: Any, axis: Any = None) -> Any:
    return ivy.roll(a, _axis(shift), axis=_axis(axis))


@function("broadcast_to", doc="ivy.broadcast_to")
def _broadcast_to(array: Any, shape: Any, subok: bool = False) -> Any:
    return ivy.broadcast_to(array, (shape,) if isinstance(shape, int) else tuple(shape))


@function("split", doc="ivy.split (sections, or indices as sizes)")
def _split(ary: Any, indices_or_sections: Any, axis: int = 0) -> Any:
    if isinstance(indices_or_sections, int):
        return list(ivy.split(ary, num_or_size_splits=indices_or_sections, axis=axis))
    cuts = [0, *[int(i) for i in indices_or_sections], ary.shape[axis]]
    return list(ivy.split(ary, num_or_size_splits=[b - a for a, b in zip(cuts, cuts[1:])], axis=axis))


@function("pad", doc="ivy.pad (constant, reflect, symmetric, edge, wrap)")
def _pad(array: Any, pad_width: Any, mode: str = "constant", **kwargs: Any) -> Any:
    if mode not in ("constant", "reflect", "symmetric", "edge", "wrap"):
        raise Unsupported(f"mode={mode!r} is not translated")
    value = kwargs.pop("constant_values", 0)
    if kwargs or not isinstance(value, (int, float)):
        raise Unsupported(f"pad options {sorted(kwargs) or ['constant_values']} are not translated")
    return ivy.pad(array, pad_width, mode=mode, value=value)


# ------------------------------------------------------------------------------ selection, linear algebra


@function("where", doc="ivy.where (the three-argument form)")
def _where(condition: Any, x: Any = None, y: Any = None) -> Any:
    if x is None or y is None:
        raise Unsupported("where(condition) alone has a data-dependent shape")
    return ivy.where(condition, x, y)


@function("clip", doc="ivy.clip")
def _clip(
    a: Any,
    a_min: Any = None,
    a_max: Any = None,
    out: Any = None,
    *,
    min: Any = None,
    max: Any = None,
    **kwargs: Any,
) -> Any:
    no(out=out)
    lo = a_min if a_min is not None else min
    hi = a_max if a_max is not None else max
    if lo is not None and not isinstance(lo, (int, float)):
        a = ivy.maximum(a, lo)
        lo = None
    if hi is not None and not isinstance(hi, (int, float)):
        a = ivy.minimum(a, hi)
        hi = None
    return ivy.clip(a, lo, hi) if lo is not None or hi is not None else a


@function("dot", doc="ivy.matmul / ivy.tensordot over the last and second-to-last axes")
def _dot(a: Any, b: Any, out: Any = None) -> Any:
    no(out=out)
    if a.ndim == 0 or b.ndim == 0:
        return ivy.multiply(a, b)
    if b.ndim <= 2:
        return ivy.matmul(a, b)
    return ivy.tensordot(a, b, axes=([a.ndim - 1], [b.ndim - 2]))


@function("tensordot", doc="ivy.tensordot")
def _tensordot(a: Any, b: Any, axes: Any = 2) -> Any:
    if not isinstance(axes, int):
        axes = tuple([ax] if isinstance(ax, int) else list(ax) for ax in axes)
    return ivy.tensordot(a, b, axes=axes)


@function("einsum", doc="ivy.einsum")
def _einsum(subscripts: Any, *operands: Any, out: Any = None, optimize: Any = False, **kwargs: Any) -> Any:
    no(out=out)
    if not isinstance(subscripts, str):
        raise Unsupported("einsum's interleaved (operand, sublist) form is not translated")
    return ivy.einsum(subscripts, *operands)


@function("outer", doc="ivy.linalg.outer of the flattened inputs")
def _outer(a: Any, b: Any, out: Any = None) -> Any:
    no(out=out)
    return ivy.linalg.outer(ivy.reshape(a, (-1,)), ivy.reshape(b, (-1,)))


@function("sort", doc="ivy.sort")
def _sort(a: Any, axis: Any = -1, kind: Any = None, order: Any = None, *, stable: Any = None) -> Any:
    no(order=order)
    if axis is None:
        a, axis = ivy.reshape(a, (-1,)), 0
    return ivy.sort(a, axis=axis)


@function("argsort", doc="ivy.argsort")
def _argsort(a: Any, axis: Any = -1, kind: Any = None, order: Any = None, *, stable: Any = None) -> Any:
    no(order=order)
    if axis is None:
        a, axis = ivy.reshape(a, (-1,)), 0
    return ivy.argsort(a, axis=axis)


@function("take", doc="ivy.take")
def _take(a: Any, indices: Any, axis: Any = None, out: Any = None, mode: str = "raise") -> Any:
    no(out=out)
    if axis is None:
        a, axis = ivy.reshape(a, (-1,)), 0
    return ivy.take(a, indices, axis=axis)


@function("take_along_axis", doc="ivy.take_along_axis")
def _take_along_axis(arr: Any, indices: Any, axis: Any = -1) -> Any:
    return ivy.take_along_axis(arr, indices, axis=axis)


@function("zeros_like", doc="ivy.zeros_like")
def _zeros_like(a: Any, dtype: Any = None, order: str = "K", subok: bool = True, shape: Any = None, **kw: Any) -> Any:
    no(shape=shape)
    return ivy.zeros_like(a, dtype=None if dtype is None else ivy.dtype_name(dtype))


@function("ones_like", doc="ivy.ones_like")
def _ones_like(a: Any, dtype: Any = None, order: str = "K", subok: bool = True, shape: Any = None, **kw: Any) -> Any:
    no(shape=shape)
    return ivy.ones_like(a, dtype=None if dtype is None else ivy.dtype_name(dtype))


@function("round", "around", doc="ivy.round (decimals by scaling)")
def _round(a: Any, decimals: int = 0, out: Any = None) -> Any:
    no(out=out)
    if decimals == 0:
        return ivy.round(a)
    scale = 10.0**decimals
    return ivy.divide(ivy.round(ivy.multiply(a, scale)), scale)


@function("diff", doc="ivy.diff")
def _diff(a: Any, n: int = 1, axis: int = -1, prepend: Any = None, append: Any = None) -> Any:
    no(prepend=prepend, append=append)
    return ivy.diff(a, n=n, axis=axis)


@function("trace", doc="ivy.linalg.trace over the last two axes")
def _trace(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None, out: Any = None) -> Any:
    no(out=out, dtype=dtype)
    return ivy.linalg.trace(ivy.moveaxis(a, (axis1, axis2), (-2, -1)), offset=offset)


@function("linalg.norm", doc="ivy.linalg.vector_norm / matrix_norm")
def _norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Any:
    if axis is None and ord is None:
        return ivy.sqrt(ivy.sum(ivy.square(ivy.abs(x)), keepdims=bool(keepdims)))
    if isinstance(axis, int) or (axis is None and x.ndim == 1):
        return ivy.linalg.vector_norm(x, axis=axis, keepdims=bool(keepdims), ord=2 if ord is None else ord)
    axes = tuple(axis) if axis is not None else (-2, -1)
    moved = ivy.moveaxis(x, axes, (-2, -1))
    out = ivy.linalg.matrix_norm(moved, ord="fro" if ord is None else ord)
    if keepdims:
        for ax in sorted(a % x.ndim for a in axes):
            out = ivy.expand_dims(out, axis=ax)
    return out


@function("linalg.inv", doc="ivy.linalg.inv")
def _inv(a: Any) -> Any:
    return ivy.linalg.inv(a)


@function("linalg.det", doc="ivy.linalg.det")
def _det(a: Any) -> Any:
    return ivy.linalg.det(a)


@function("linalg.solve", doc="ivy.linalg.solve")
def _solve(a: Any, b: Any) -> Any:
    return ivy.linalg.solve(a, b)


@function("linalg.cholesky", doc="ivy.linalg.cholesky")
def _cholesky(a: Any, /, *, upper: bool = False) -> Any:
    if upper:
        raise Unsupported("upper=True is not translated")
    return ivy.linalg.cholesky(a)


@function("real", doc="ivy.real")
def _real(val: Any) -> Any:
    return ivy.real(val)


@function("imag", doc="ivy.imag")
def _imag(val: Any) -> Any:
    return ivy.imag(val)
