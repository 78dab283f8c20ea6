"""Dense and convolution layers: :class:`Linear`, ``Conv1D/2D/3D`` and their transposes,
depthwise and separable convolutions.

Conventions follow Ivy's nn functions: :class:`Linear` holds ``w`` of shape ``[out, in]``
(:func:`ivy.linear`, torch's layout); convolutions hold ``w`` of shape ``[*filter, in, out]``
(transposed ones ``[*filter, out, in]``, depthwise ``[*filter, channels * depth_multiplier]``:
Keras' layouts) and work channel-last by default (``data_format="NHWC"``...; ``"NCHW"``... or
``"channels_first"`` for channel-first input, as torch's). Biases are ``b``. A size given as
``None`` (``Linear(None, 64)``) is taken from the first input (see :class:`ivy.Module`). A
``padding`` is ``"SAME"`` / ``"VALID"`` (either case), an int, or ``(lo, hi)`` pairs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .. import _api as ivy
from ._layout import as_tuple, canonical_format, channel_axis, check_input, padding
from .initializers import GlorotUniform, Initializer, Zeros
from .module import Module

__all__ = [
    "Linear",
    "Conv1D",
    "Conv2D",
    "Conv3D",
    "Conv1DTranspose",
    "Conv2DTranspose",
    "Conv3DTranspose",
    "DepthwiseConv1D",
    "DepthwiseConv2D",
    "SeparableConv1D",
    "SeparableConv2D",
]


class Linear(Module):
    """``y = x @ w.T + b``, with ``w`` of shape ``[out, in]`` and ``b`` of shape ``[out]``; ``x``
    ``[..., in]`` (any leading axes).

    Args:
        input_channels: size ``in`` of the last input axis; ``None``: from the first input.
        output_channels: size ``out`` of the output.
        with_bias: whether to add ``b``.
        weight_initializer: for ``w`` (fans ``in``, ``out``); default :class:`GlorotUniform`.
        bias_initializer: for ``b``; default :class:`Zeros`.
        **kwargs: ``device``, ``backend``, ``dtype``, ``v``, ``training`` (see :class:`Module`).
    """

    def __init__(
        self,
        input_channels: int | None,
        output_channels: int,
        *,
        with_bias: bool = True,
        weight_initializer: Initializer | None = None,
        bias_initializer: Initializer | None = None,
        **kwargs: Any,
    ) -> None:
        self.input_channels = input_channels
        self.output_channels = output_channels
        self.with_bias = with_bias
        self.weight_initializer = weight_initializer or GlorotUniform()
        self.bias_initializer = bias_initializer or Zeros()
        Module.__init__(self, **kwargs)

    def _needs_input(self) -> bool:
        return self.input_channels is None

    def _infer_from_input(self, x: Any, *args: Any, **kwargs: Any) -> None:
        if self.input_channels is None:
            self.input_channels = int(x.shape[-1])

    def _create_variables(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        i, o = int(self.input_channels or 0), self.output_channels  # built: input_channels is known
        kw = {"dtype": dtype, "device": device, "backend": backend}
        v = {"w": self.weight_initializer.create((o, i), fan_in=i, fan_out=o, **kw)}
        if self.with_bias:
            v["b"] = self.bias_initializer.create((o,), fan_in=i, fan_out=o, **kw)
        return v

    def _forward(self, x: Any) -> Any:
        v = self._vars
        if x.shape[-1] is not None and int(x.shape[-1]) != self.input_channels:
            raise ValueError(
                f"Linear expects inputs [..., {self.input_channels}] (features last), got shape {tuple(x.shape)}"
            )
        return ivy.linear(x, v.w, v["b"] if self.with_bias else None)


class _Conv(Module):
    _NDIM = 2
    _FN = "conv2d"
    _TRANSPOSE = False

    def __init__(
        self,
        input_channels: int | None,
        output_channels: int,
        filter_shape: int | Sequence[int],
        strides: int | Sequence[int] = 1,
        padding: str | int | Sequence[tuple[int, int]] = "VALID",
        *,
        data_format: str | None = None,
        dilations: int | Sequence[int] = 1,
        with_bias: bool = True,
        weight_initializer: Initializer | None = None,
        bias_initializer: Initializer | None = None,
        output_shape: Sequence[int] | None = None,
        **kwargs: Any,
    ) -> None:
        self.input_channels = input_channels
        self.output_channels = output_channels
        self.filter_shape = as_tuple(filter_shape, self._NDIM)
        self.strides = strides
        self.padding = padding
        self.data_format = canonical_format(data_format, self._NDIM)
        self.dilations = dilations
        self.with_bias = with_bias
        self.weight_initializer = weight_initializer or GlorotUniform()
        self.bias_initializer = bias_initializer or Zeros()
        self.output_shape = output_shape
        Module.__init__(self, **kwargs)

    def _needs_input(self) -> bool:
        return self.input_channels is None

    def _infer_from_input(self, x: Any, *args: Any, **kwargs: Any) -> None:
        if self.input_channels is None:
            check_input(self, x, self.data_format)
            self.input_channels = int(x.shape[channel_axis(self.data_format)])

    def _weight_shape(self) -> tuple[int, ...]:
        i, o = int(self.input_channels or 0), self.output_channels  # built: input_channels is known
        return (*self.filter_shape, o, i) if self._TRANSPOSE else (*self.filter_shape, i, o)

    def _create_variables(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        field = math.prod(self.filter_shape)
        fan_in, fan_out = field * self.input_channels, field * self.output_channels  # type: ignore[operator]
        kw = {"fan_in": fan_in, "fan_out": fan_out, "dtype": dtype, "device": device, "backend": backend}
        v = {"w": self.weight_initializer.create(self._weight_shape(), **kw)}
        if self.with_bias:
            v["b"] = self.bias_initializer.create((self.output_channels,), **kw)
        return v

    def _forward(self, x: Any) -> Any:
        v = self._vars
        check_input(self, x, self.data_format, self.input_channels)
        fn = getattr(ivy, self._FN)
        kw: dict[str, Any] = {"data_format": self.data_format, "dilations": self.dilations}
        if self._TRANSPOSE:
            kw["output_shape"] = self.output_shape
        if self.with_bias:  # fused into the framework's convolution where it has a bias argument
            kw["bias"] = v.b
        return fn(x, v.w, self.strides, padding(self.padding), **kw)


class Conv1D(_Conv):
    """1-D convolution (:func:`ivy.conv1d`): ``w`` ``[fw, in, out]``, ``b`` ``[out]``; input
    ``[batch, w, in]`` (``data_format="NWC"``, default) or ``[batch, in, w]`` (``"NCW"``).

    Args:
        input_channels: ``None``: from the first input.
        output_channels: number of filters.
        filter_shape: window size, an int or ``(fw,)``.
        strides: stride.
        padding: ``"SAME"``, ``"VALID"`` (default), an int, or ``(lo, hi)`` pairs.
        data_format: ``"NWC"`` (default) or ``"NCW"``; also ``"channels_last"`` / ``"channels_first"``.
        dilations: dilation.
        with_bias: whether to add ``b``.
        weight_initializer: default :class:`GlorotUniform` (fans ``fw * in``, ``fw * out``).
        bias_initializer: default :class:`Zeros`.
        **kwargs: see :class:`Module`.

    Raises:
        ValueError: (on a call) the input's rank or channel axis does not fit ``data_format``;
            the message names the expected layout.
    """

    _NDIM, _FN = 1, "conv1d"


class Conv2D(_Conv):
    """2-D convolution (:func:`ivy.conv2d`): ``w`` ``[fh, fw, in, out]``, ``b`` ``[out]``; input
    ``[batch, h, w, in]`` (``"NHWC"``, default) or ``[batch, in, h, w]`` (``"NCHW"``). Arguments
    as for :class:`Conv1D`, with 2-D windows."""

    _NDIM, _FN = 2, "conv2d"


class Conv3D(_Conv):
    """3-D convolution (:func:`ivy.conv3d`): ``w`` ``[fd, fh, fw, in, out]``; ``"NDHWC"``
    (default) or ``"NCDHW"``. Arguments as for :class:`Conv1D`, with 3-D windows."""

    _NDIM, _FN = 3, "conv3d"


class Conv1DTranspose(_Conv):
    """1-D transposed convolution (:func:`ivy.conv1d_transpose`): ``w`` ``[fw, out, in]``.
    Arguments as for :class:`Conv1D`, plus ``output_shape`` (spatial size of the output)."""

    _NDIM, _FN, _TRANSPOSE = 1, "conv1d_transpose", True


class Conv2DTranspose(_Conv):
    """2-D transposed convolution (:func:`ivy.conv2d_transpose`): ``w`` ``[fh, fw, out, in]``.
    Arguments as for :class:`Conv2D`, plus ``output_shape``."""

    _NDIM, _FN, _TRANSPOSE = 2, "conv2d_transpose", True


class Conv3DTranspose(_Conv):
    """3-D transposed convolution (:func:`ivy.conv3d_transpose`): ``w`` ``[fd, fh, fw, out, in]``.
    Arguments as for :class:`Conv3D`, plus ``output_shape``."""

    _NDIM, _FN, _TRANSPOSE = 3, "conv3d_transpose", True


class _Depthwise(Module):
    """A depthwise convolution (one filter per input channel and multiplier), 1-D or 2-D."""

    _NDIM = 2

    def __init__(
        self,
        num_channels: int | None,
        filter_shape: int | Sequence[int],
        strides: int | Sequence[int] = 1,
        padding: str | int | Sequence[tuple[int, int]] = "VALID",
        *,
        depth_multiplier: int = 1,
        data_format: str | None = None,
        dilations: int | Sequence[int] = 1,
        with_bias: bool = True,
        weight_initializer: Initializer | None = None,
        bias_initializer: Initializer | None = None,
        **kwargs: Any,
    ) -> None:
        self.num_channels = num_channels
        self.filter_shape = as_tuple(filter_shape, self._NDIM)
        self.strides, self.padding, self.dilations = strides, padding, dilations
        self.depth_multiplier = depth_multiplier
        self.data_format = canonical_format(data_format, self._NDIM)
        self.with_bias = with_bias
        self.weight_initializer = weight_initializer or GlorotUniform()
        self.bias_initializer = bias_initializer or Zeros()
        Module.__init__(self, **kwargs)

    def _needs_input(self) -> bool:
        return self.num_channels is None

    def _infer_from_input(self, x: Any, *args: Any, **kwargs: Any) -> None:
        if self.num_channels is None:
            check_input(self, x, self.data_format)
            self.num_channels = int(x.shape[channel_axis(self.data_format)])

    def _create_variables(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        field = math.prod(self.filter_shape)
        out = self.num_channels * self.depth_multiplier  # type: ignore[operator]
        kw = {
            "fan_in": field,
            "fan_out": field * self.depth_multiplier,
            "dtype": dtype,
            "device": device,
            "backend": backend,
        }
        v = {"w": self.weight_initializer.create((*self.filter_shape, out), **kw)}
        if self.with_bias:
            v["b"] = self.bias_initializer.create((out,), **kw)
        return v

    def _forward(self, x: Any) -> Any:
        v = self._vars
        check_input(self, x, self.data_format, self.num_channels)
        return depthwise(
            x,
            v.w,
            self.strides,
            padding(self.padding),
            self.data_format,
            self.dilations,
            self.depth_multiplier,
            bias=v.b if self.with_bias else None,
        )


def depthwise(
    x: Any,
    w: Any,
    strides: Any,
    pad: Any,
    data_format: str,
    dilations: Any,
    multiplier: int,
    *,
    bias: Any = None,
) -> Any:
    """A depthwise convolution of ``x`` (1-D or 2-D by ``data_format``) with ``w``
    ``[*filter, channels * multiplier]`` and an optional ``bias`` ``[channels * multiplier]``;
    output channel ``c * multiplier + j`` filters input channel ``c`` (torch's
    ``groups=channels`` and Keras' ``depth_multiplier`` order)."""
    ax = channel_axis(data_format)
    if multiplier > 1:
        x = ivy.repeat(x, multiplier, axis=ax % len(x.shape))
    if len(data_format) == 3:  # 1-D: a 2-D convolution over a height of one
        fmt2 = "NCHW" if ax == 1 else "NHWC"
        x2 = ivy.expand_dims(x, axis=2 if ax == 1 else 1)
        pad2 = pad if isinstance(pad, str) else [(0, 0), *_pairs(pad, 1)]
        y = ivy.depthwise_conv2d(
            x2,
            ivy.expand_dims(w, axis=0),
            (1, *as_tuple(strides, 1)),
            pad2,
            data_format=fmt2,
            dilations=(1, *as_tuple(dilations, 1)),
            bias=bias,
        )
        return ivy.squeeze(y, axis=2 if ax == 1 else 1)
    return ivy.depthwise_conv2d(x, w, strides, pad, data_format=data_format, dilations=dilations, bias=bias)


def _pairs(pad: Any, n: int) -> list[tuple[int, int]]:
    if isinstance(pad, int):
        return [(pad, pad)] * n
    return [(int(p[0]), int(p[1])) for p in pad]


class DepthwiseConv1D(_Depthwise):
    """Depthwise 1-D convolution: each input channel filtered by its own ``depth_multiplier``
    filters; ``w`` ``[fw, channels * depth_multiplier]``, ``b`` ``[channels * depth_multiplier]``
    (output channel ``c * depth_multiplier + j`` comes from input channel ``c``: torch's
    ``Conv1d(groups=channels)`` with ``weight[:, 0].T``, Keras' kernel reshaped). Input
    ``[batch, w, channels]`` (``"NWC"``, default) or ``[batch, channels, w]`` (``"NCW"``).

    Args:
        num_channels: ``None``: from the first input.
        filter_shape: window size.
        strides: stride.
        padding: ``"SAME"``, ``"VALID"`` (default), an int, or ``(lo, hi)`` pairs.
        depth_multiplier: filters per input channel.
        data_format: ``"NWC"`` (default) or ``"NCW"``.
        dilations: dilation.
        with_bias: whether to add ``b``.
        weight_initializer: default :class:`GlorotUniform`.
        bias_initializer: default :class:`Zeros`.
        **kwargs: see :class:`Module`.
    """

    _NDIM = 1


class DepthwiseConv2D(_Depthwise):
    """Depthwise 2-D convolution (:func:`ivy.depthwise_conv2d`): ``w``
    ``[fh, fw, channels * depth_multiplier]``, ``b`` ``[channels * depth_multiplier]``; input
    ``"NHWC"`` (default) or ``"NCHW"``. Arguments as for :class:`DepthwiseConv1D`, with 2-D
    windows."""

    _NDIM = 2


class _Separable(Module):
    _NDIM = 2

    def __init__(
        self,
        input_channels: int | None,
        output_channels: int,
        filter_shape: int | Sequence[int],
        strides: int | Sequence[int] = 1,
        padding: str | int | Sequence[tuple[int, int]] = "VALID",
        *,
        depth_multiplier: int = 1,
        data_format: str | None = None,
        dilations: int | Sequence[int] = 1,
        with_bias: bool = True,
        weight_initializer: Initializer | None = None,
        bias_initializer: Initializer | None = None,
        **kwargs: Any,
    ) -> None:
        self.input_channels, self.output_channels = input_channels, output_channels
        self.filter_shape = as_tuple(filter_shape, self._NDIM)
        self.strides, self.padding, self.dilations = strides, padding, dilations
        self.depth_multiplier = depth_multiplier
        self.data_format = canonical_format(data_format, self._NDIM)
        self.with_bias = with_bias
        self.weight_initializer = weight_initializer or GlorotUniform()
        self.bias_initializer = bias_initializer or Zeros()
        Module.__init__(self, **kwargs)

    def _needs_input(self) -> bool:
        return self.input_channels is None

    def _infer_from_input(self, x: Any, *args: Any, **kwargs: Any) -> None:
        if self.input_channels is None:
            check_input(self, x, self.data_format)
            self.input_channels = int(x.shape[channel_axis(self.data_format)])

    def _create_variables(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        field = math.prod(self.filter_shape)
        mid = self.input_channels * self.depth_multiplier  # type: ignore[operator]
        kw = {"dtype": dtype, "device": device, "backend": backend}
        v = {
            "depthwise_w": self.weight_initializer.create(
                (*self.filter_shape, mid), fan_in=field, fan_out=field * self.depth_multiplier, **kw
            ),
            "pointwise_w": self.weight_initializer.create(
                (*(1,) * self._NDIM, mid, self.output_channels), fan_in=mid, fan_out=self.output_channels, **kw
            ),
        }
        if self.with_bias:
            v["b"] = self.bias_initializer.create(
                (self.output_channels,), fan_in=mid, fan_out=self.output_channels, **kw
            )
        return v

    def _forward(self, x: Any) -> Any:
        v = self._vars
        check_input(self, x, self.data_format, self.input_channels)
        h = depthwise(
            x,
            v.depthwise_w,
            self.strides,
            padding(self.padding),
            self.data_format,
            self.dilations,
            self.depth_multiplier,
        )
        fn = ivy.conv1d if self._NDIM == 1 else ivy.conv2d
        return fn(h, v.pointwise_w, 1, "VALID", data_format=self.data_format, bias=v.b if self.with_bias else None)


class SeparableConv1D(_Separable):
    """Depthwise-separable 1-D convolution (Keras' ``SeparableConv1D``): a depthwise convolution
    (``depthwise_w`` ``[fw, in * depth_multiplier]``, with ``strides``, ``padding`` and
    ``dilations``) then a pointwise one (``pointwise_w`` ``[1, in * depth_multiplier, out]``) and
    ``b`` ``[out]``. Input ``"NWC"`` (default) or ``"NCW"``.

    Args:
        input_channels: ``None``: from the first input.
        output_channels: number of output channels.
        filter_shape: depthwise window size.
        strides: depthwise stride.
        padding: depthwise padding.
        depth_multiplier: depthwise filters per input channel.
        data_format: ``"NWC"`` (default) or ``"NCW"``.
        dilations: depthwise dilation.
        with_bias: whether to add ``b``.
        weight_initializer: for both kernels; default :class:`GlorotUniform`.
        bias_initializer: default :class:`Zeros`.
        **kwargs: see :class:`Module`.
    """

    _NDIM = 1


class SeparableConv2D(_Separable):
    """Depthwise-separable 2-D convolution (Keras' ``SeparableConv2D``): ``depthwise_w``
    ``[fh, fw, in * depth_multiplier]``, ``pointwise_w`` ``[1, 1, in * depth_multiplier, out]``,
    ``b`` ``[out]``; ``"NHWC"`` (default) or ``"NCHW"``. Arguments as for
    :class:`SeparableConv1D`, with 2-D windows."""

    _NDIM = 2
