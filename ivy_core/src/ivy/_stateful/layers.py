"""Layers with variables: dense, convolutions, normalisation, embedding; and pooling and dropout.

Conventions follow Ivy's nn functions: :class:`Linear` holds ``w`` of shape ``[out, in]``
(:func:`ivy.linear`); convolutions hold ``w`` of shape ``[*filter, in, out]`` (transposed ones
``[*filter, out, in]``, depthwise ``[fh, fw, channels]``) and work channel-last by default
(``data_format="NHWC"``...; ``"NCHW"``... for channel-first). Biases are ``b``. A size given as
``None`` (``Linear(None, 64)``) is taken from the first input (see :class:`ivy.Module`).
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from .. import _api
from .initializers import GlorotUniform, Initializer, Ones, RandomNormal, Zeros
from .module import Module

__all__ = [
    "Linear",
    "Conv1D",
    "Conv2D",
    "Conv3D",
    "Conv1DTranspose",
    "Conv2DTranspose",
    "Conv3DTranspose",
    "DepthwiseConv2D",
    "MaxPool1D",
    "MaxPool2D",
    "MaxPool3D",
    "AvgPool1D",
    "AvgPool2D",
    "AvgPool3D",
    "Dropout",
    "LayerNorm",
    "BatchNorm2D",
    "Embedding",
]


def _ivy() -> Any:
    return _api


def _tuple(x: int | Sequence[int], n: int) -> tuple[int, ...]:
    return (x,) * n if isinstance(x, int) else tuple(x)


def _channel_axis(data_format: str) -> int:
    return 1 if data_format.startswith("NC") else -1


def _add_channel_bias(x: Any, b: Any, data_format: str) -> Any:
    if data_format.startswith("NC"):
        return x + _ivy().reshape(b, (-1,) + (1,) * (x.ndim - 2))
    return x + b


class Linear(Module):
    """``y = x @ w.T + b``, with ``w`` of shape ``[out, in]`` and ``b`` of shape ``[out]``.

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
        i, o = self.input_channels, self.output_channels
        kw = {"dtype": dtype, "device": device, "backend": backend}
        v = {"w": self.weight_initializer.create((o, i), fan_in=i, fan_out=o, **kw)}
        if self.with_bias:
            v["b"] = self.bias_initializer.create((o,), fan_in=i, fan_out=o, **kw)
        return v

    def _forward(self, x: Any) -> Any:
        v = self.v
        return _ivy().linear(x, v.w, v["b"] if self.with_bias else None)


class _Conv(Module):
    _NDIM = 2
    _FORMAT = "NHWC"
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
        self.filter_shape = _tuple(filter_shape, self._NDIM)
        self.strides = strides
        self.padding = padding
        self.data_format = data_format or self._FORMAT
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
            self.input_channels = int(x.shape[_channel_axis(self.data_format)])

    def _weight_shape(self) -> tuple[int, ...]:
        i, o = self.input_channels, self.output_channels
        return (*self.filter_shape, o, i) if self._TRANSPOSE else (*self.filter_shape, i, o)  # type: ignore[return-value]

    def _create_variables(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        field = math.prod(self.filter_shape)
        fan_in, fan_out = field * self.input_channels, field * self.output_channels  # type: ignore[operator]
        kw = {"fan_in": fan_in, "fan_out": fan_out, "dtype": dtype, "device": device, "backend": backend}
        v = {"w": self.weight_initializer.create(self._weight_shape(), **kw)}
        if self.with_bias:
            v["b"] = self.bias_initializer.create((self.output_channels,), **kw)
        return v

    def _forward(self, x: Any) -> Any:
        ivy = _ivy()
        v = self.v
        fn = getattr(ivy, self._FN)
        kw: dict[str, Any] = {"data_format": self.data_format, "dilations": self.dilations}
        if self._TRANSPOSE:
            kw["output_shape"] = self.output_shape
        y = fn(x, v.w, self.strides, self.padding, **kw)
        return _add_channel_bias(y, v.b, self.data_format) if self.with_bias else y


class Conv1D(_Conv):
    """1-D convolution (:func:`ivy.conv1d`): ``w`` ``[fw, in, out]``, ``b`` ``[out]``; input
    ``[batch, w, in]`` (``data_format="NWC"``) or ``[batch, in, w]`` (``"NCW"``).

    Args:
        input_channels: ``None``: from the first input.
        output_channels: number of filters.
        filter_shape: window size, an int or ``(fw,)``.
        strides: stride.
        padding: ``"SAME"``, ``"VALID"`` (default), an int, or ``(lo, hi)`` pairs.
        data_format: ``"NWC"`` (default) or ``"NCW"``.
        dilations: dilation.
        with_bias: whether to add ``b``.
        weight_initializer: default :class:`GlorotUniform` (fans ``fw * in``, ``fw * out``).
        bias_initializer: default :class:`Zeros`.
        **kwargs: see :class:`Module`.
    """

    _NDIM, _FORMAT, _FN = 1, "NWC", "conv1d"


class Conv2D(_Conv):
    """2-D convolution (:func:`ivy.conv2d`): ``w`` ``[fh, fw, in, out]``, ``b`` ``[out]``; input
    ``[batch, h, w, in]`` (``"NHWC"``, default) or ``[batch, in, h, w]`` (``"NCHW"``). Arguments
    as for :class:`Conv1D`, with 2-D windows."""

    _NDIM, _FORMAT, _FN = 2, "NHWC", "conv2d"


class Conv3D(_Conv):
    """3-D convolution (:func:`ivy.conv3d`): ``w`` ``[fd, fh, fw, in, out]``; ``"NDHWC"``
    (default) or ``"NCDHW"``. Arguments as for :class:`Conv1D`, with 3-D windows."""

    _NDIM, _FORMAT, _FN = 3, "NDHWC", "conv3d"


class Conv1DTranspose(_Conv):
    """1-D transposed convolution (:func:`ivy.conv1d_transpose`): ``w`` ``[fw, out, in]``.
    Arguments as for :class:`Conv1D`, plus ``output_shape`` (spatial size of the output)."""

    _NDIM, _FORMAT, _FN, _TRANSPOSE = 1, "NWC", "conv1d_transpose", True


class Conv2DTranspose(_Conv):
    """2-D transposed convolution (:func:`ivy.conv2d_transpose`): ``w`` ``[fh, fw, out, in]``.
    Arguments as for :class:`Conv2D`, plus ``output_shape``."""

    _NDIM, _FORMAT, _FN, _TRANSPOSE = 2, "NHWC", "conv2d_transpose", True


class Conv3DTranspose(_Conv):
    """3-D transposed convolution (:func:`ivy.conv3d_transpose`): ``w`` ``[fd, fh, fw, out, in]``.
    Arguments as for :class:`Conv3D`, plus ``output_shape``."""

    _NDIM, _FORMAT, _FN, _TRANSPOSE = 3, "NDHWC", "conv3d_transpose", True


class DepthwiseConv2D(Module):
    """Depthwise 2-D convolution (:func:`ivy.depthwise_conv2d`): ``w`` ``[fh, fw, channels]``,
    ``b`` ``[channels]``.

    Args:
        num_channels: ``None``: from the first input.
        filter_shape: window size, an int or ``(fh, fw)``.
        strides: stride.
        padding: ``"SAME"``, ``"VALID"`` (default), an int, or ``(lo, hi)`` pairs.
        data_format: ``"NHWC"`` (default) or ``"NCHW"``.
        dilations: dilation.
        with_bias: whether to add ``b``.
        weight_initializer: default :class:`GlorotUniform` (fans ``fh * fw`` each).
        bias_initializer: default :class:`Zeros`.
        **kwargs: see :class:`Module`.
    """

    def __init__(
        self,
        num_channels: int | None,
        filter_shape: int | Sequence[int],
        strides: int | Sequence[int] = 1,
        padding: str | int | Sequence[tuple[int, int]] = "VALID",
        *,
        data_format: str = "NHWC",
        dilations: int | Sequence[int] = 1,
        with_bias: bool = True,
        weight_initializer: Initializer | None = None,
        bias_initializer: Initializer | None = None,
        **kwargs: Any,
    ) -> None:
        self.num_channels = num_channels
        self.filter_shape = _tuple(filter_shape, 2)
        self.strides, self.padding, self.dilations = strides, padding, dilations
        self.data_format = data_format
        self.with_bias = with_bias
        self.weight_initializer = weight_initializer or GlorotUniform()
        self.bias_initializer = bias_initializer or Zeros()
        Module.__init__(self, **kwargs)

    def _needs_input(self) -> bool:
        return self.num_channels is None

    def _infer_from_input(self, x: Any, *args: Any, **kwargs: Any) -> None:
        if self.num_channels is None:
            self.num_channels = int(x.shape[_channel_axis(self.data_format)])

    def _create_variables(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        field = math.prod(self.filter_shape)
        kw = {"fan_in": field, "fan_out": field, "dtype": dtype, "device": device, "backend": backend}
        v = {"w": self.weight_initializer.create((*self.filter_shape, self.num_channels), **kw)}
        if self.with_bias:
            v["b"] = self.bias_initializer.create((self.num_channels,), **kw)
        return v

    def _forward(self, x: Any) -> Any:
        v = self.v
        y = _ivy().depthwise_conv2d(x, v.w, self.strides, self.padding, data_format=self.data_format, dilations=self.dilations)
        return _add_channel_bias(y, v.b, self.data_format) if self.with_bias else y


# ------------------------------------------------------------------ pooling


class _Pool(Module):
    _FN = "max_pool2d"
    _FORMAT = "NHWC"

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
        self.data_format = data_format or self._FORMAT
        self._extra: dict[str, Any] = {}
        Module.__init__(self, **kwargs)

    def _forward(self, x: Any) -> Any:
        fn = getattr(_ivy(), self._FN)
        return fn(x, self.kernel_size, self.strides, self.padding, data_format=self.data_format, **self._extra)


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
        self._extra = {"count_include_pad": count_include_pad}


class MaxPool1D(_Pool):
    """Max pooling (:func:`ivy.max_pool1d`); ``strides`` default to ``kernel_size``; ``"NWC"``."""

    _FN, _FORMAT = "max_pool1d", "NWC"


class MaxPool2D(_Pool):
    """Max pooling (:func:`ivy.max_pool2d`); ``strides`` default to ``kernel_size``; ``"NHWC"``."""

    _FN, _FORMAT = "max_pool2d", "NHWC"


class MaxPool3D(_Pool):
    """Max pooling (:func:`ivy.max_pool3d`); ``strides`` default to ``kernel_size``; ``"NDHWC"``."""

    _FN, _FORMAT = "max_pool3d", "NDHWC"


class AvgPool1D(_AvgPool):
    """Average pooling (:func:`ivy.avg_pool1d`); ``strides`` default to ``kernel_size``."""

    _FN, _FORMAT = "avg_pool1d", "NWC"


class AvgPool2D(_AvgPool):
    """Average pooling (:func:`ivy.avg_pool2d`); ``strides`` default to ``kernel_size``."""

    _FN, _FORMAT = "avg_pool2d", "NHWC"


class AvgPool3D(_AvgPool):
    """Average pooling (:func:`ivy.avg_pool3d`); ``strides`` default to ``kernel_size``."""

    _FN, _FORMAT = "avg_pool3d", "NDHWC"


class Dropout(Module):
    """Zero each element with probability ``prob`` in training mode (:func:`ivy.dropout`), the
    kept ones divided by ``1 - prob`` if ``scale``; the identity in evaluation mode."""

    def __init__(self, prob: float, *, scale: bool = True, **kwargs: Any) -> None:
        if not 0.0 <= prob < 1.0:
            raise ValueError(f"Dropout: prob must be in [0, 1), got {prob}")
        self.prob, self.scale = prob, scale
        Module.__init__(self, **kwargs)

    def _forward(self, x: Any) -> Any:
        return _ivy().dropout(x, self.prob, scale=self.scale, training=self.training)


# ------------------------------------------------------------------ normalisation and embedding


class LayerNorm(Module):
    """Layer normalisation over the last ``len(normalized_shape)`` axes (:func:`ivy.layer_norm`),
    with ``w`` (scale, ones) and ``b`` (offset, zeros) of shape ``normalized_shape``.

    Args:
        normalized_shape: the trailing shape normalised over (an int: the last axis).
        eps: added to the variance.
        elementwise_affine: whether to have ``w`` and ``b``.
        **kwargs: see :class:`Module`.
    """

    def __init__(self, normalized_shape: int | Sequence[int], *, eps: float = 1e-5,
                 elementwise_affine: bool = True, **kwargs: Any) -> None:
        self.normalized_shape = _tuple(normalized_shape, 1)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        Module.__init__(self, **kwargs)

    def _create_variables(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        if not self.elementwise_affine:
            return {}
        kw = {"dtype": dtype, "device": device, "backend": backend}
        return {"w": Ones().create(self.normalized_shape, **kw), "b": Zeros().create(self.normalized_shape, **kw)}

    def _forward(self, x: Any) -> Any:
        axes = tuple(range(-len(self.normalized_shape), 0))
        v = self.v
        if self.elementwise_affine:
            return _ivy().layer_norm(x, axes, scale=v.w, offset=v.b, eps=self.eps)
        return _ivy().layer_norm(x, axes, eps=self.eps)


class BatchNorm2D(Module):
    """Batch normalisation of 4-D inputs (:func:`ivy.batch_norm`), per channel.

    Variables ``w`` (scale, ones) and ``b`` (offset, zeros); buffers in ``state``:
    ``running_mean`` (zeros) and ``running_var`` (ones). In training mode the batch statistics
    normalise, and the running ones are updated (``momentum``: weight of the batch, unbiased
    variance, as in torch) and stored back in ``state``; in evaluation mode the running ones
    normalise.

    Args:
        num_features: number of channels.
        eps: added to the variance.
        momentum: weight of the batch statistics in the running-statistics update.
        data_format: ``"NHWC"`` (default) or ``"NCHW"``.
        affine: whether to have ``w`` and ``b``.
        track_running_stats: without them, the batch statistics normalise in both modes.
        **kwargs: see :class:`Module`.
    """

    def __init__(self, num_features: int, *, eps: float = 1e-5, momentum: float = 0.1,
                 data_format: str = "NHWC", affine: bool = True, track_running_stats: bool = True,
                 **kwargs: Any) -> None:
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.data_format, self.affine, self.track_running_stats = data_format, affine, track_running_stats
        Module.__init__(self, **kwargs)

    def _create_variables(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        if not self.affine:
            return {}
        kw = {"dtype": dtype, "device": device, "backend": backend}
        return {"w": Ones().create((self.num_features,), **kw), "b": Zeros().create((self.num_features,), **kw)}

    def _create_state(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        if not self.track_running_stats:
            return {}
        kw = {"dtype": dtype, "device": device, "backend": backend}
        return {"running_mean": Zeros().create((self.num_features,), **kw),
                "running_var": Ones().create((self.num_features,), **kw)}

    def _forward(self, x: Any) -> Any:
        ivy = _ivy()
        v = self.v
        kw: dict[str, Any] = {"eps": self.eps, "momentum": self.momentum, "data_format": self.data_format}
        if self.affine:
            kw.update(scale=v.w, offset=v.b)
        st = self._own_state
        if not self.track_running_stats:
            c = ivy.zeros((self.num_features,), dtype=x.dtype, device=ivy.dev(x), backend=ivy.namespace(x))
            return ivy.batch_norm(x, c, c + 1.0, training=True, **kw)[0]
        training = self.training
        y, mean, var = ivy.batch_norm(x, st["running_mean"], st["running_var"], training=training, **kw)  # type: ignore[index]
        if training:
            self._update_state(running_mean=mean, running_var=var)
        return y


class Embedding(Module):
    """Row lookup in ``w`` ``[num_embeddings, embedding_dim]`` (:func:`ivy.embedding`).

    Args:
        num_embeddings: number of rows.
        embedding_dim: size of each row.
        max_norm: rows looked up with a larger L2 norm are rescaled to it (in the result only).
        padding_idx: a row set to zeros at initialisation.
        weight_initializer: default ``RandomNormal(0, 1)`` (as torch).
        **kwargs: see :class:`Module`.
    """

    def __init__(self, num_embeddings: int, embedding_dim: int, *, max_norm: float | None = None,
                 padding_idx: int | None = None, weight_initializer: Initializer | None = None,
                 **kwargs: Any) -> None:
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.max_norm, self.padding_idx = max_norm, padding_idx
        self.weight_initializer = weight_initializer or RandomNormal(0.0, 1.0)
        Module.__init__(self, **kwargs)

    def _create_variables(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        ivy = _ivy()
        shape = (self.num_embeddings, self.embedding_dim)
        w = self.weight_initializer.create(shape, fan_in=shape[0], fan_out=shape[1], dtype=dtype, device=device,
                                           backend=backend)
        if self.padding_idx is not None:
            rows = ivy.arange(self.num_embeddings, device=device, backend=backend)
            w = ivy.where(ivy.expand_dims(rows == self.padding_idx, axis=-1), 0.0, w)
        return {"w": w}

    def _forward(self, indices: Any) -> Any:
        return _ivy().embedding(self.v.w, indices, max_norm=self.max_norm)
