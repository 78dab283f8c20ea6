"""Pooling and resampling layers: max / average pooling, global and adaptive pooling, and
:class:`Upsample`. No variables. Channel-last by default (``data_format``: ``"NHWC"``...,
``"NCHW"``... or ``"channels_first"`` for torch's layout)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .. import _api as ivy
from ._layout import canonical_format, channel_axis, check_input, padding
from .module import Module

__all__ = [
    "MaxPool1D",
    "MaxPool2D",
    "MaxPool3D",
    "AvgPool1D",
    "AvgPool2D",
    "AvgPool3D",
    "GlobalAvgPool1D",
    "GlobalAvgPool2D",
    "GlobalAvgPool3D",
    "GlobalMaxPool1D",
    "GlobalMaxPool2D",
    "GlobalMaxPool3D",
    "AdaptiveAvgPool1D",
    "AdaptiveAvgPool2D",
    "AdaptiveAvgPool3D",
    "AdaptiveMaxPool1D",
    "AdaptiveMaxPool2D",
    "AdaptiveMaxPool3D",
    "Upsample",
]


class _Pool(Module):
    _FN = "max_pool2d"
    _NDIM = 2

    def __init__(
        self,
        kernel_size: int | Sequence[int],
        strides: int | Sequence[int] | None = None,
        padding: str | int | Sequence[tuple[int, int]] = "VALID",
        *,
        data_format: str | None = None,
        **kwargs: Any,
    ) -> None:
        self.kernel_size = kernel_size
        self.strides = kernel_size if strides is None else strides
        self.padding = padding
        self.data_format = canonical_format(data_format, self._NDIM)
        self._extra: dict[str, Any] = {}
        Module.__init__(self, **kwargs)

    def _forward(self, x: Any) -> Any:
        check_input(self, x, self.data_format)
        fn = getattr(ivy, self._FN)
        return fn(x, self.kernel_size, self.strides, padding(self.padding), data_format=self.data_format, **self._extra)


class _AvgPool(_Pool):
    def __init__(
        self,
        kernel_size: int | Sequence[int],
        strides: int | Sequence[int] | None = None,
        padding: str | int | Sequence[tuple[int, int]] = "VALID",
        *,
        data_format: str | None = None,
        count_include_pad: bool = False,
        **kwargs: Any,
    ) -> None:
        _Pool.__init__(self, kernel_size, strides, padding, data_format=data_format, **kwargs)
        self.count_include_pad = count_include_pad
        self._extra = {"count_include_pad": count_include_pad}


_POOL_DOC = """{kind} pooling (:func:`ivy.{fn}`) over windows of ``kernel_size``; input {layout}.

    Args:
        kernel_size: window size, an int or one per spatial axis.
        strides: default ``kernel_size`` (as torch and Keras).
        padding: ``"VALID"`` (default), ``"SAME"``, an int, or ``(lo, hi)`` pairs.{extra}
        data_format: {formats}; also ``"channels_last"`` / ``"channels_first"``.
        **kwargs: see :class:`Module`.
    """
_COUNT = "\n        count_include_pad: whether padded zeros count in the averages (torch's default: True)."
_LAYOUTS = {
    1: ('``[batch, w, c]`` (``"NWC"``) or ``[batch, c, w]``', '``"NWC"`` (default) or ``"NCW"``'),
    2: ('``[batch, h, w, c]`` (``"NHWC"``) or ``[batch, c, h, w]``', '``"NHWC"`` (default) or ``"NCHW"``'),
    3: ('``[batch, d, h, w, c]`` (``"NDHWC"``) or channel-first', '``"NDHWC"`` (default) or ``"NCDHW"``'),
}


def _pool_class(name: str, base: type, nd: int, kind: str, fn: str) -> type:
    layout, formats = _LAYOUTS[nd]
    doc = _POOL_DOC.format(kind=kind, fn=fn, layout=layout, formats=formats, extra=_COUNT if base is _AvgPool else "")
    return type(name, (base,), {"_FN": fn, "_NDIM": nd, "__doc__": doc, "__module__": __name__})


MaxPool1D = _pool_class("MaxPool1D", _Pool, 1, "Max", "max_pool1d")
MaxPool2D = _pool_class("MaxPool2D", _Pool, 2, "Max", "max_pool2d")
MaxPool3D = _pool_class("MaxPool3D", _Pool, 3, "Max", "max_pool3d")
AvgPool1D = _pool_class("AvgPool1D", _AvgPool, 1, "Average", "avg_pool1d")
AvgPool2D = _pool_class("AvgPool2D", _AvgPool, 2, "Average", "avg_pool2d")
AvgPool3D = _pool_class("AvgPool3D", _AvgPool, 3, "Average", "avg_pool3d")


def _spatial_axes(data_format: str) -> tuple[int, ...]:
    n = len(data_format) - 2
    return tuple(range(2, 2 + n)) if channel_axis(data_format) == 1 else tuple(range(1, 1 + n))


class _Global(Module):
    _NDIM = 2
    _REDUCE = "mean"

    def __init__(self, *, keepdims: bool = False, data_format: str | None = None, **kwargs: Any) -> None:
        self.keepdims = keepdims
        self.data_format = canonical_format(data_format, self._NDIM)
        Module.__init__(self, **kwargs)

    def _forward(self, x: Any) -> Any:
        check_input(self, x, self.data_format)
        reduce = getattr(ivy, self._REDUCE)
        return reduce(x, axis=_spatial_axes(self.data_format), keepdims=self.keepdims)


_GLOBAL_DOC = """Global {kind} pooling: the {kind} over every spatial axis, ``[batch, channels]`` out
    (``keepdims=True``: the spatial axes kept with size 1, torch's ``Adaptive{cap}Pool{nd}d(1)``).

    Args:
        keepdims: keep the spatial axes (size 1).
        data_format: {formats}; also ``"channels_last"`` / ``"channels_first"``.
        **kwargs: see :class:`Module`.
    """


def _global_class(name: str, nd: int, reduce: str) -> type:
    kind = "average" if reduce == "mean" else "max"
    doc = _GLOBAL_DOC.format(kind=kind, cap="Avg" if reduce == "mean" else "Max", nd=nd, formats=_LAYOUTS[nd][1])
    return type(name, (_Global,), {"_NDIM": nd, "_REDUCE": reduce, "__doc__": doc, "__module__": __name__})


GlobalAvgPool1D = _global_class("GlobalAvgPool1D", 1, "mean")
GlobalAvgPool2D = _global_class("GlobalAvgPool2D", 2, "mean")
GlobalAvgPool3D = _global_class("GlobalAvgPool3D", 3, "mean")
GlobalMaxPool1D = _global_class("GlobalMaxPool1D", 1, "max")
GlobalMaxPool2D = _global_class("GlobalMaxPool2D", 2, "max")
GlobalMaxPool3D = _global_class("GlobalMaxPool3D", 3, "max")


def _bins(n_in: int, n_out: int) -> list[tuple[int, int]]:
    """torch's adaptive-pooling windows: ``[floor(i n_in / n_out), ceil((i + 1) n_in / n_out))``."""
    return [((i * n_in) // n_out, -((-(i + 1) * n_in) // n_out)) for i in range(n_out)]


def _along(x: Any, axis: int, matrix: list[list[float]]) -> Any:
    """``x`` with axis ``axis`` (size ``n_in``) mapped through ``matrix`` ``[n_out, n_in]``."""
    m = ivy.asarray(matrix, dtype=x.dtype, device=ivy.dev(x), backend=ivy.namespace(x))
    y = ivy.matmul(ivy.moveaxis(x, axis, -1), ivy.matrix_transpose(m))
    return ivy.moveaxis(y, -1, axis)


def _adaptive_avg_axis(x: Any, axis: int, n_out: int) -> Any:
    n_in = int(x.shape[axis])
    if n_in == n_out:
        return x
    rows = []
    for lo, hi in _bins(n_in, n_out):
        rows.append([1.0 / (hi - lo) if lo <= j < hi else 0.0 for j in range(n_in)])
    return _along(x, axis, rows)


def _adaptive_max_axis(x: Any, axis: int, n_out: int) -> Any:
    n_in = int(x.shape[axis])
    if n_in == n_out:
        return x
    parts = []
    for lo, hi in _bins(n_in, n_out):
        index = [slice(None)] * len(x.shape)
        index[axis] = slice(lo, hi)
        parts.append(ivy.max(x[tuple(index)], axis=axis, keepdims=True))
    return ivy.concat(parts, axis=axis)


class _Adaptive(Module):
    _NDIM = 2
    _MAX = False

    def __init__(
        self, output_size: int | Sequence[int | None], *, data_format: str | None = None, **kwargs: Any
    ) -> None:
        self.output_size = output_size
        self.data_format = canonical_format(data_format, self._NDIM)
        Module.__init__(self, **kwargs)

    def _forward(self, x: Any) -> Any:
        check_input(self, x, self.data_format)
        sizes: Any = (self.output_size,) * self._NDIM if isinstance(self.output_size, int) else tuple(self.output_size)
        axes = _spatial_axes(self.data_format)
        sizes = tuple(int(x.shape[a]) if s is None else int(s) for a, s in zip(axes, sizes))
        reduce = _adaptive_max_axis if self._MAX else _adaptive_avg_axis
        for a, s in zip(axes, sizes):
            x = reduce(x, a, s)
        return x


_ADAPTIVE_DOC = """Adaptive {kind} pooling to a fixed output size (torch's ``Adaptive{cap}Pool{nd}d``):
    output index ``i`` of a spatial axis of size ``n`` pools the input window
    ``[floor(i n / out), ceil((i + 1) n / out))``.

    Args:
        output_size: an int, or one per spatial axis (``None``: that axis kept).
        data_format: {formats}; also ``"channels_last"`` / ``"channels_first"``.
        **kwargs: see :class:`Module`.
    """


def _adaptive_class(name: str, nd: int, is_max: bool) -> type:
    doc = _ADAPTIVE_DOC.format(
        kind="max" if is_max else "average", cap="Max" if is_max else "Avg", nd=nd, formats=_LAYOUTS[nd][1]
    )
    return type(name, (_Adaptive,), {"_NDIM": nd, "_MAX": is_max, "__doc__": doc, "__module__": __name__})


AdaptiveAvgPool1D = _adaptive_class("AdaptiveAvgPool1D", 1, False)
AdaptiveAvgPool2D = _adaptive_class("AdaptiveAvgPool2D", 2, False)
AdaptiveAvgPool3D = _adaptive_class("AdaptiveAvgPool3D", 3, False)
AdaptiveMaxPool1D = _adaptive_class("AdaptiveMaxPool1D", 1, True)
AdaptiveMaxPool2D = _adaptive_class("AdaptiveMaxPool2D", 2, True)
AdaptiveMaxPool3D = _adaptive_class("AdaptiveMaxPool3D", 3, True)


#: the interpolation modes of :class:`Upsample` with the number of spatial axes each is for
#: (``"nearest"``: any), as torch's ``nn.Upsample``
_MODE_AXES = {"nearest": None, "linear": 1, "bilinear": 2, "trilinear": 3}
_FORMAT_AXES = {"NWC": 1, "NCW": 1, "NHWC": 2, "NCHW": 2, "NDHWC": 3, "NCDHW": 3}


def _axes_text(n: int) -> str:
    return f"{n} spatial axis" if n == 1 else f"{n} spatial axes"


def _given_axes(size: Any, scale_factor: Any, data_format: str) -> tuple[int, str] | None:
    """The number of spatial axes that :class:`Upsample`'s arguments fix (a ``data_format`` such as
    ``"NCHW"``, a ``size`` or ``scale_factor`` per axis), with the argument that says so; ``None``
    where none does. A ValueError for a ``data_format`` of no layout, or arguments that disagree."""
    fixed: dict[str, tuple[int, str]] = {}
    nd = _FORMAT_AXES.get(str(data_format).upper())
    if nd is not None:
        fixed["data_format"] = (nd, repr(data_format))
    elif str(data_format).lower() not in ("channels_last", "channels_first", "last", "first"):
        raise ValueError(
            f"Upsample: data_format must be 'channels_last', 'channels_first' or one of "
            f"{', '.join(map(repr, _FORMAT_AXES))}, got {data_format!r}"
        )
    for name, value in (("size", size), ("scale_factor", scale_factor)):
        if value is not None and not isinstance(value, (int, float)):
            fixed[name] = (len(value), repr(tuple(value)))
    if len({n for n, _ in fixed.values()}) > 1:
        given = ", ".join(f"{k}={v} ({_axes_text(n)})" for k, (n, v) in fixed.items())
        raise ValueError(f"Upsample: {given} disagree on the number of spatial axes")
    if not fixed:
        return None
    name, (n, value) = next(iter(fixed.items()))
    return n, f"{name}={value}"


class Upsample(Module):
    """Resize the spatial axes (1, 2 or 3 of them, from the input's rank) by ``scale_factor`` or
    to ``size``, as torch's ``nn.Upsample`` (Keras' ``UpSampling1D/2D/3D`` for integer factors).

    ``mode="nearest"``: output index ``i`` takes input index ``floor(i * in / out)``.
    ``mode="linear"`` (1 spatial axis), ``"bilinear"`` (2) or ``"trilinear"`` (3): linear
    interpolation along each axis, at source position ``(i + 0.5) * in / out - 0.5`` (half-pixel
    centres, clamped at 0: torch's ``align_corners=False``, TensorFlow's ``resize``), or
    ``i * (in - 1) / (out - 1)`` with ``align_corners=True``. As in torch, a linear mode must
    match the number of spatial axes (a ValueError otherwise: at construction where
    ``data_format``, ``size`` or ``scale_factor`` fixes it, else at the call).

    Args:
        size: output spatial size, an int or one per axis (exclusive with ``scale_factor``).
        scale_factor: a number or one per axis; the output size is ``floor(in * factor)``.
        mode: ``"nearest"`` (default, any rank), ``"linear"``, ``"bilinear"`` or ``"trilinear"``.
        align_corners: see above (linear modes only).
        data_format: ``"channels_last"`` (default) or ``"channels_first"`` (or a name such as
            ``"NCHW"`` that fixes the rank).
        **kwargs: see :class:`Module`.
    """

    def __init__(
        self,
        size: int | Sequence[int] | None = None,
        scale_factor: float | Sequence[float] | None = None,
        mode: str = "nearest",
        *,
        align_corners: bool = False,
        data_format: str = "channels_last",
        **kwargs: Any,
    ) -> None:
        if (size is None) == (scale_factor is None):
            raise ValueError("Upsample: give exactly one of size and scale_factor")
        if mode not in _MODE_AXES:
            raise ValueError(f"Upsample: mode must be 'nearest', 'linear', 'bilinear' or 'trilinear', got {mode!r}")
        self.size, self.scale_factor, self.mode, self.align_corners = size, scale_factor, mode, align_corners
        self.data_format = data_format
        given = _given_axes(size, scale_factor, data_format)
        if given is not None:  # the rank fixed by the arguments: the mode checked now
            self._check_axes(*given)
        Module.__init__(self, **kwargs)

    def _check_axes(self, nd: int, why: str) -> None:
        """A ValueError if ``self.mode`` is not for ``nd`` spatial axes (``why``: what says so)."""
        want = _MODE_AXES[self.mode]
        if want is None or want == nd:
            return
        fits = " or ".join(repr(m) for m, n in _MODE_AXES.items() if n is None or n == nd)
        raise ValueError(
            f"Upsample: mode {self.mode!r} interpolates {_axes_text(want)} (a rank-{want + 2} input), but "
            f"{why} gives {nd} (rank {nd + 2}); for {_axes_text(nd)} use {fits}"
        )

    def _forward(self, x: Any) -> Any:
        nd = len(x.shape) - 2
        if nd not in (1, 2, 3):
            raise ValueError(
                f"Upsample expects an input of rank 3, 4 or 5 ([batch, *spatial, channels] or "
                f"channel-first), got shape {tuple(x.shape)}"
            )
        fmt = canonical_format(self.data_format, nd)
        check_input(self, x, fmt)
        self._check_axes(nd, f"the input's shape {tuple(x.shape)}")
        axes = _spatial_axes(fmt)
        ins = [int(x.shape[a]) for a in axes]
        if self.size is not None:
            outs = [int(s) for s in ((self.size,) * nd if isinstance(self.size, int) else self.size)]
            scales = [i / o for i, o in zip(ins, outs)]
        else:
            f = (self.scale_factor,) * nd if isinstance(self.scale_factor, (int, float)) else self.scale_factor
            factors: Any = f
            outs = [int(math.floor(i * float(s))) for i, s in zip(ins, factors)]
            scales = [1.0 / float(s) for s in factors]
        if len(outs) != nd:
            raise ValueError(
                f"Upsample: {'size' if self.size is not None else 'scale_factor'} has {len(outs)} entries, "
                f"the input {nd} spatial axes (shape {tuple(x.shape)})"
            )
        for a, n_in, n_out, scale in zip(axes, ins, outs, scales):
            if n_in != n_out or self.mode != "nearest":
                x = self._resize_axis(x, a, n_in, n_out, scale)
        return x

    def _resize_axis(self, x: Any, axis: int, n_in: int, n_out: int, scale: float) -> Any:
        if self.mode == "nearest":
            idx = [min(int(math.floor(i * scale)), n_in - 1) for i in range(n_out)]
            index = ivy.asarray(idx, dtype="int64", device=ivy.dev(x), backend=ivy.namespace(x))
            return ivy.take(x, index, axis=axis)
        rows = []
        for i in range(n_out):
            if self.align_corners:
                src = i * (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
            else:
                src = max((i + 0.5) * scale - 0.5, 0.0)
            i0 = min(int(math.floor(src)), n_in - 1)
            i1 = min(i0 + 1, n_in - 1)
            lam = src - i0
            row = [0.0] * n_in
            row[i0] += 1.0 - lam
            row[i1] += lam
            rows.append(row)
        return _along(x, axis, rows)
