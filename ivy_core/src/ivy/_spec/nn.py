"""Neural-network functions: Ivy's own ops for layers (linear, convolutions, pooling) and activations.

Convolutions and pooling are backend primitives; most other functions here are composed in core
from the Array API ops (a backend may still provide a native version for speed).

Layouts: ``N`` is the batch axis, ``C`` the channel axis and ``W``, ``H``, ``D`` the spatial axes
(width, height, depth); ``data_format`` names the layout of the input and output arrays, channel
last (``"NWC"``, ``"NHWC"``, ``"NDHWC"``, the default) or channel first (``"NCW"``, ``"NCHW"``,
``"NCDHW"``). Filters have the same layout whatever ``data_format`` is: the spatial axes first,
then the channel axes. The convolutions ``conv1d``/``conv2d``/``conv3d`` also take filters in the
channel-first layout of torch and paddle (``filter_format="OIHW"``: output channels, input
channels, then the window), so that a model's weights kept in that layout need no permutation on
every call; ``I`` and ``O`` stand for the input and output channels.

Convolutions take an optional ``bias`` of one value per output channel, added along the channel
axis of ``data_format`` (fused into the framework's convolution where it has one); it never
changes the result's dtype (that of ``x``). A bias of another shape is an error.

Padding, for convolutions and pooling, takes one of these forms:

- ``"VALID"``: no padding; only windows that fit entirely inside the input;
- ``"SAME"``: enough zero padding that every spatial output size is ``ceil(in / stride)``; when the
  total padding of an axis is odd, the extra element goes at the end (high side);
- an int ``p``: ``p`` elements on both sides of every spatial axis;
- a sequence of ``(lo, hi)`` pairs, one per spatial axis, in the order of the spatial axes.

With explicit padding, the spatial output size of a convolution or pooling is
``floor((in + lo + hi - dilation * (k - 1) - 1) / stride) + 1`` for a window of size ``k``.

Normalisation, embeddings, recurrent cells, attention and losses (the same category) are in
``nn_blocks``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ._base import Array, spec

# ---------------------------------------------------------------------------------------- layers


@spec
def linear(x: Array, weight: Array, /, bias: Array | None = None) -> Array:
    """Affine map ``x @ weight.T + bias`` over the last axis of ``x``.

    Args:
        x: input of shape ``[..., in]``.
        weight: weights of shape ``[out, in]``.
        bias: bias of shape ``[out]``, or ``None`` for none.

    Returns:
        An array of shape ``[..., out]``.
    """


@spec
def conv1d(
    x: Array,
    filters: Array,
    strides: int | Sequence[int],
    padding: str | int | Sequence[tuple[int, int]],
    /,
    *,
    data_format: Literal["NWC", "NCW"] = "NWC",
    dilations: int | Sequence[int] = 1,
    bias: Array | None = None,
    filter_format: Literal["WIO", "OIW"] = "WIO",
) -> Array:
    """1-D convolution (cross-correlation, as in every deep-learning framework; no flip).

    Args:
        x: input of shape ``[batch, w, d_in]`` for ``"NWC"``, ``[batch, d_in, w]`` for ``"NCW"``.
        filters: ``[fw, d_in, d_out]`` (``[d_out, d_in, fw]`` with ``filter_format="OIW"``).
        strides: stride of the window, an int or a sequence of one int.
        padding: ``"SAME"``, ``"VALID"``, an int, or a sequence of one ``(lo, hi)`` pair (see the
            module docstring).
        data_format: layout of ``x`` and of the result.
        dilations: spacing between filter taps (1: contiguous), an int or a sequence of one int.
        bias: ``[d_out]``, added to every output position along the channel axis of
            ``data_format``, or ``None`` for none.
        filter_format: the layout of ``filters``: ``"WIO"`` (the default) or ``"OIW"``.

    Returns:
        An array of shape ``[batch, w_out, d_out]`` (``"NWC"``) or ``[batch, d_out, w_out]``
        (``"NCW"``), with the dtype of ``x``.
    """


@spec
def conv2d(
    x: Array,
    filters: Array,
    strides: int | Sequence[int],
    padding: str | int | Sequence[tuple[int, int]],
    /,
    *,
    data_format: Literal["NHWC", "NCHW"] = "NHWC",
    dilations: int | Sequence[int] = 1,
    bias: Array | None = None,
    filter_format: Literal["HWIO", "OIHW"] = "HWIO",
) -> Array:
    """2-D convolution (cross-correlation; no flip).

    Args:
        x: input of shape ``[batch, h, w, d_in]`` for ``"NHWC"``, ``[batch, d_in, h, w]`` for
            ``"NCHW"``.
        filters: ``[fh, fw, d_in, d_out]`` (``[d_out, d_in, fh, fw]`` with ``filter_format="OIHW"``).
        strides: stride of the window, an int (both axes) or a sequence ``(sh, sw)``.
        padding: ``"SAME"``, ``"VALID"``, an int, or a sequence of two ``(lo, hi)`` pairs (height,
            then width; see the module docstring).
        data_format: layout of ``x`` and of the result.
        dilations: spacing between filter taps, an int (both axes) or a sequence ``(dh, dw)``.
        bias: ``[d_out]``, added to every output position along the channel axis of
            ``data_format``, or ``None`` for none.
        filter_format: the layout of ``filters``: ``"HWIO"`` (the default) or ``"OIHW"``.

    Returns:
        An array of shape ``[batch, h_out, w_out, d_out]`` (``"NHWC"``) or
        ``[batch, d_out, h_out, w_out]`` (``"NCHW"``), with the dtype of ``x``.
    """


@spec
def conv3d(
    x: Array,
    filters: Array,
    strides: int | Sequence[int],
    padding: str | int | Sequence[tuple[int, int]],
    /,
    *,
    data_format: Literal["NDHWC", "NCDHW"] = "NDHWC",
    dilations: int | Sequence[int] = 1,
    bias: Array | None = None,
    filter_format: Literal["DHWIO", "OIDHW"] = "DHWIO",
) -> Array:
    """3-D convolution (cross-correlation; no flip).

    Args:
        x: input of shape ``[batch, depth, h, w, d_in]`` for ``"NDHWC"``,
            ``[batch, d_in, depth, h, w]`` for ``"NCDHW"``.
        filters: ``[fd, fh, fw, d_in, d_out]`` (``[d_out, d_in, fd, fh, fw]`` with ``filter_format="OIDHW"``).
        strides: stride of the window, an int (all axes) or a sequence ``(sd, sh, sw)``.
        padding: ``"SAME"``, ``"VALID"``, an int, or a sequence of three ``(lo, hi)`` pairs (depth,
            height, width; see the module docstring).
        data_format: layout of ``x`` and of the result.
        dilations: spacing between filter taps, an int (all axes) or a sequence ``(dd, dh, dw)``.
        bias: ``[d_out]``, added to every output position along the channel axis of
            ``data_format``, or ``None`` for none.
        filter_format: the layout of ``filters``: ``"DHWIO"`` (the default) or ``"OIDHW"``.

    Returns:
        An array of shape ``[batch, depth_out, h_out, w_out, d_out]`` (``"NDHWC"``) or
        ``[batch, d_out, depth_out, h_out, w_out]`` (``"NCDHW"``), with the dtype of ``x``.
    """


@spec
def conv1d_transpose(
    x: Array,
    filters: Array,
    strides: int | Sequence[int],
    padding: str | int | Sequence[tuple[int, int]],
    /,
    *,
    output_shape: Sequence[int] | None = None,
    data_format: Literal["NWC", "NCW"] = "NWC",
    dilations: int | Sequence[int] = 1,
    bias: Array | None = None,
) -> Array:
    """1-D transposed convolution: the gradient of :func:`conv1d` with respect to its input.

    Args:
        x: input of shape ``[batch, w, d_in]`` for ``"NWC"``, ``[batch, d_in, w]`` for ``"NCW"``.
        filters: ``[fw, d_out, d_in]`` (the filters of the forward convolution that maps
            ``d_out`` channels to ``d_in``).
        strides: stride of the forward convolution, an int or a sequence of one int.
        padding: padding of the forward convolution: ``"SAME"``, ``"VALID"``, an int, or a
            sequence of one ``(lo, hi)`` pair; it is removed from the output.
        output_shape: spatial size of the output, ``(w_out,)``; ``None``: the smallest consistent
            size, ``w * stride`` for ``"SAME"`` and
            ``(w - 1) * stride + dilation * (fw - 1) + 1 - lo - hi`` otherwise. Since several
            input sizes give the same forward output size, a larger size (by less than the stride)
            may be asked for.
        data_format: layout of ``x`` and of the result.
        dilations: dilation of the forward convolution, an int or a sequence of one int.
        bias: ``[d_out]``, added to every output position along the channel axis of
            ``data_format``, or ``None`` for none.

    Returns:
        An array of shape ``[batch, w_out, d_out]`` (``"NWC"``) or ``[batch, d_out, w_out]``
        (``"NCW"``), with the dtype of ``x``.
    """


@spec
def conv2d_transpose(
    x: Array,
    filters: Array,
    strides: int | Sequence[int],
    padding: str | int | Sequence[tuple[int, int]],
    /,
    *,
    output_shape: Sequence[int] | None = None,
    data_format: Literal["NHWC", "NCHW"] = "NHWC",
    dilations: int | Sequence[int] = 1,
    bias: Array | None = None,
) -> Array:
    """2-D transposed convolution: the gradient of :func:`conv2d` with respect to its input.

    Args:
        x: input of shape ``[batch, h, w, d_in]`` for ``"NHWC"``, ``[batch, d_in, h, w]`` for
            ``"NCHW"``.
        filters: ``[fh, fw, d_out, d_in]`` (the filters of the forward convolution that maps
            ``d_out`` channels to ``d_in``).
        strides: stride of the forward convolution, an int or a sequence ``(sh, sw)``.
        padding: padding of the forward convolution: ``"SAME"``, ``"VALID"``, an int, or a
            sequence of two ``(lo, hi)`` pairs; it is removed from the output.
        output_shape: spatial size of the output, ``(h_out, w_out)``; ``None``: per axis the
            smallest consistent size, ``in * stride`` for ``"SAME"`` and
            ``(in - 1) * stride + dilation * (f - 1) + 1 - lo - hi`` otherwise. A larger size (by
            less than the stride) may be asked for.
        data_format: layout of ``x`` and of the result.
        dilations: dilation of the forward convolution, an int or a sequence ``(dh, dw)``.
        bias: ``[d_out]``, added to every output position along the channel axis of
            ``data_format``, or ``None`` for none.

    Returns:
        An array of shape ``[batch, h_out, w_out, d_out]`` (``"NHWC"``) or
        ``[batch, d_out, h_out, w_out]`` (``"NCHW"``), with the dtype of ``x``.
    """


@spec
def conv3d_transpose(
    x: Array,
    filters: Array,
    strides: int | Sequence[int],
    padding: str | int | Sequence[tuple[int, int]],
    /,
    *,
    output_shape: Sequence[int] | None = None,
    data_format: Literal["NDHWC", "NCDHW"] = "NDHWC",
    dilations: int | Sequence[int] = 1,
    bias: Array | None = None,
) -> Array:
    """3-D transposed convolution: the gradient of :func:`conv3d` with respect to its input.

    Args:
        x: input of shape ``[batch, depth, h, w, d_in]`` for ``"NDHWC"``,
            ``[batch, d_in, depth, h, w]`` for ``"NCDHW"``.
        filters: ``[fd, fh, fw, d_out, d_in]`` (the filters of the forward convolution that maps
            ``d_out`` channels to ``d_in``).
        strides: stride of the forward convolution, an int or a sequence ``(sd, sh, sw)``.
        padding: padding of the forward convolution: ``"SAME"``, ``"VALID"``, an int, or a
            sequence of three ``(lo, hi)`` pairs; it is removed from the output.
        output_shape: spatial size of the output, ``(depth_out, h_out, w_out)``; ``None``: per axis
            the smallest consistent size, ``in * stride`` for ``"SAME"`` and
            ``(in - 1) * stride + dilation * (f - 1) + 1 - lo - hi`` otherwise. A larger size (by
            less than the stride) may be asked for.
        data_format: layout of ``x`` and of the result.
        dilations: dilation of the forward convolution, an int or a sequence ``(dd, dh, dw)``.
        bias: ``[d_out]``, added to every output position along the channel axis of
            ``data_format``, or ``None`` for none.

    Returns:
        An array with the spatial output size and ``d_out`` channels, in the layout
        ``data_format``, with the dtype of ``x``.
    """


@spec
def depthwise_conv2d(
    x: Array,
    filters: Array,
    strides: int | Sequence[int],
    padding: str | int | Sequence[tuple[int, int]],
    /,
    *,
    data_format: Literal["NHWC", "NCHW"] = "NHWC",
    dilations: int | Sequence[int] = 1,
    bias: Array | None = None,
) -> Array:
    """Depthwise 2-D convolution: each input channel convolved with its own single filter.

    Args:
        x: input of shape ``[batch, h, w, d_in]`` for ``"NHWC"``, ``[batch, d_in, h, w]`` for
            ``"NCHW"``.
        filters: ``[fh, fw, d_in]``, one ``[fh, fw]`` filter per channel.
        strides: stride of the window, an int or a sequence ``(sh, sw)``.
        padding: ``"SAME"``, ``"VALID"``, an int, or a sequence of two ``(lo, hi)`` pairs.
        data_format: layout of ``x`` and of the result.
        dilations: spacing between filter taps, an int or a sequence ``(dh, dw)``.
        bias: ``[d_in]`` (one per output channel: the input channels times a multiplier of
            one), added to every output position along the channel axis of ``data_format``, or
            ``None`` for none.

    Returns:
        An array with ``d_in`` channels: ``[batch, h_out, w_out, d_in]`` (``"NHWC"``) or
        ``[batch, d_in, h_out, w_out]`` (``"NCHW"``), with the dtype of ``x``.
    """


# --------------------------------------------------------------------------------------- pooling


@spec
def max_pool1d(
    x: Array,
    kernel: int | Sequence[int],
    strides: int | Sequence[int],
    padding: str | int | Sequence[tuple[int, int]],
    /,
    *,
    data_format: Literal["NWC", "NCW"] = "NWC",
) -> Array:
    """1-D max pooling: the maximum over each window, per channel.

    Args:
        x: input of shape ``[batch, w, c]`` for ``"NWC"``, ``[batch, c, w]`` for ``"NCW"``.
        kernel: window size, an int or a sequence of one int.
        strides: stride of the window, an int or a sequence of one int.
        padding: ``"SAME"``, ``"VALID"``, an int, or a sequence of one ``(lo, hi)`` pair; padded
            positions never win the maximum (they act as ``-inf``).
        data_format: layout of ``x`` and of the result.

    Returns:
        An array of shape ``[batch, w_out, c]`` or ``[batch, c, w_out]``, with the dtype of ``x``.
    """


@spec
def max_pool2d(
    x: Array,
    kernel: int | Sequence[int],
    strides: int | Sequence[int],
    padding: str | int | Sequence[tuple[int, int]],
    /,
    *,
    data_format: Literal["NHWC", "NCHW"] = "NHWC",
) -> Array:
    """2-D max pooling: the maximum over each window, per channel.

    Args:
        x: input of shape ``[batch, h, w, c]`` for ``"NHWC"``, ``[batch, c, h, w]`` for ``"NCHW"``.
        kernel: window size, an int (both axes) or a sequence ``(kh, kw)``.
        strides: stride of the window, an int or a sequence ``(sh, sw)``.
        padding: ``"SAME"``, ``"VALID"``, an int, or a sequence of two ``(lo, hi)`` pairs; padded
            positions never win the maximum (they act as ``-inf``).
        data_format: layout of ``x`` and of the result.

    Returns:
        An array of shape ``[batch, h_out, w_out, c]`` or ``[batch, c, h_out, w_out]``, with the
        dtype of ``x``.
    """


@spec
def max_pool3d(
    x: Array,
    kernel: int | Sequence[int],
    strides: int | Sequence[int],
    padding: str | int | Sequence[tuple[int, int]],
    /,
    *,
    data_format: Literal["NDHWC", "NCDHW"] = "NDHWC",
) -> Array:
    """3-D max pooling: the maximum over each window, per channel.

    Args:
        x: input of shape ``[batch, depth, h, w, c]`` for ``"NDHWC"``,
            ``[batch, c, depth, h, w]`` for ``"NCDHW"``.
        kernel: window size, an int (all axes) or a sequence ``(kd, kh, kw)``.
        strides: stride of the window, an int or a sequence ``(sd, sh, sw)``.
        padding: ``"SAME"``, ``"VALID"``, an int, or a sequence of three ``(lo, hi)`` pairs;
            padded positions never win the maximum (they act as ``-inf``).
        data_format: layout of ``x`` and of the result.

    Returns:
        An array with the pooled spatial sizes and ``c`` channels, in the layout ``data_format``,
        with the dtype of ``x``.
    """


@spec
def avg_pool1d(
    x: Array,
    kernel: int | Sequence[int],
    strides: int | Sequence[int],
    padding: str | int | Sequence[tuple[int, int]],
    /,
    *,
    data_format: Literal["NWC", "NCW"] = "NWC",
    count_include_pad: bool = False,
) -> Array:
    """1-D average pooling: the mean over each window, per channel.

    Args:
        x: input of shape ``[batch, w, c]`` for ``"NWC"``, ``[batch, c, w]`` for ``"NCW"``;
            floating-point.
        kernel: window size, an int or a sequence of one int.
        strides: stride of the window, an int or a sequence of one int.
        padding: ``"SAME"``, ``"VALID"``, an int, or a sequence of one ``(lo, hi)`` pair; padded
            positions hold zeros.
        data_format: layout of ``x`` and of the result.
        count_include_pad: whether padded positions count in the divisor. ``False``: each window
            is divided by the number of its positions inside the input; ``True``: always by the
            window size.

    Returns:
        An array of shape ``[batch, w_out, c]`` or ``[batch, c, w_out]``, with the dtype of ``x``.
    """


@spec
def avg_pool2d(
    x: Array,
    kernel: int | Sequence[int],
    strides: int | Sequence[int],
    padding: str | int | Sequence[tuple[int, int]],
    /,
    *,
    data_format: Literal["NHWC", "NCHW"] = "NHWC",
    count_include_pad: bool = False,
) -> Array:
    """2-D average pooling: the mean over each window, per channel.

    Args:
        x: input of shape ``[batch, h, w, c]`` for ``"NHWC"``, ``[batch, c, h, w]`` for
            ``"NCHW"``; floating-point.
        kernel: window size, an int (both axes) or a sequence ``(kh, kw)``.
        strides: stride of the window, an int or a sequence ``(sh, sw)``.
        padding: ``"SAME"``, ``"VALID"``, an int, or a sequence of two ``(lo, hi)`` pairs; padded
            positions hold zeros.
        data_format: layout of ``x`` and of the result.
        count_include_pad: whether padded positions count in the divisor. ``False``: each window
            is divided by the number of its positions inside the input; ``True``: always by the
            window size.

    Returns:
        An array of shape ``[batch, h_out, w_out, c]`` or ``[batch, c, h_out, w_out]``, with the
        dtype of ``x``.
    """


@spec
def avg_pool3d(
    x: Array,
    kernel: int | Sequence[int],
    strides: int | Sequence[int],
    padding: str | int | Sequence[tuple[int, int]],
    /,
    *,
    data_format: Literal["NDHWC", "NCDHW"] = "NDHWC",
    count_include_pad: bool = False,
) -> Array:
    """3-D average pooling: the mean over each window, per channel.

    Args:
        x: input of shape ``[batch, depth, h, w, c]`` for ``"NDHWC"``,
            ``[batch, c, depth, h, w]`` for ``"NCDHW"``; floating-point.
        kernel: window size, an int (all axes) or a sequence ``(kd, kh, kw)``.
        strides: stride of the window, an int or a sequence ``(sd, sh, sw)``.
        padding: ``"SAME"``, ``"VALID"``, an int, or a sequence of three ``(lo, hi)`` pairs;
            padded positions hold zeros.
        data_format: layout of ``x`` and of the result.
        count_include_pad: whether padded positions count in the divisor. ``False``: each window
            is divided by the number of its positions inside the input; ``True``: always by the
            window size.

    Returns:
        An array with the pooled spatial sizes and ``c`` channels, in the layout ``data_format``,
        with the dtype of ``x``.
    """


@spec
def adaptive_avg_pool2d(
    x: Array,
    output_size: int | Sequence[int],
    /,
    *,
    data_format: Literal["NHWC", "NCHW"] = "NHWC",
) -> Array:
    """2-D average pooling to a fixed output size, whatever the input size.

    Output position ``i`` of an axis of input size ``n`` and output size ``m`` averages the input
    positions ``floor(i * n / m)`` to ``ceil((i + 1) * n / m)`` (exclusive); the windows cover the
    input and may overlap.

    Args:
        x: input of shape ``[batch, h, w, c]`` for ``"NHWC"``, ``[batch, c, h, w]`` for
            ``"NCHW"``; floating-point.
        output_size: ``(h_out, w_out)``, or an int for both.
        data_format: layout of ``x`` and of the result.

    Returns:
        An array of shape ``[batch, h_out, w_out, c]`` or ``[batch, c, h_out, w_out]``, with the
        dtype of ``x``.
    """


# -------------------------------------------------------------------------------------- sampling


@spec
def bilinear_sample(image: Array, coords: Array, /) -> Array:
    """Images read at continuous pixel coordinates, by bilinear interpolation, clamped to the border.

    A coordinate is ``(x, y)`` = (column, row) in pixels: integer values are pixel centres,
    ``(0, 0)`` the first pixel and ``(w - 1, h - 1)`` the last. Inside the image the value is the
    bilinear blend of the four surrounding pixels; a coordinate outside it is first clamped to
    ``[0, w - 1] x [0, h - 1]`` (the border pixels extend outwards), so every result is a blend of
    pixels of the image. This is ``scipy.ndimage.map_coordinates(..., order=1, mode="nearest")``
    on each channel (whose coordinates are ``(row, column)``), and torch's ``grid_sample`` with
    ``padding_mode="border"`` and ``align_corners=True`` on coordinates normalised to [-1, 1].

    Differentiable with respect to the image and the coordinates: the gradient with respect to a
    coordinate is that of the blend inside the image and 0 where the coordinate is clamped (it is
    one-sided where a coordinate is exactly on a pixel centre, where the blend has a kink).

    Args:
        image: ``[B..., h, w, c]``, channels last, with any number of leading batch axes ``B...``
            (``h``, ``w`` at least 1); real floating-point.
        coords: ``[B..., S..., 2]``: the batch axes of ``image`` (each equal or broadcast, NumPy
            rules), then any sample axes ``S...`` (an image of coordinates ``[B..., h', w', 2]``, a
            list ``[B..., n, 2]``, or none); real floating-point.

    Returns:
        ``[B..., S..., c]`` (``B...`` the broadcast batch axes), with the dtype of
        ``image * coords`` (their promoted floating dtype).

    Raises:
        ValueError: ``image`` has fewer than 3 axes or no pixels, ``coords`` does not end in 2 or
            lacks the batch axes of ``image``, or the batch axes do not broadcast.
        TypeError: ``image`` or ``coords`` is not of a real floating dtype.
    """


# ----------------------------------------------------------------------------------- activations


@spec
def relu(x: Array, /) -> Array:
    """Rectified linear unit ``max(x, 0)``, element-wise.

    Args:
        x: real input array.

    Returns:
        An array of the same shape and dtype as ``x``.
    """


@spec
def leaky_relu(x: Array, /, *, alpha: float = 0.2) -> Array:
    """Leaky rectified linear unit: ``x`` where ``x >= 0``, ``alpha * x`` elsewhere.

    Args:
        x: real floating-point input array.
        alpha: slope for negative inputs.

    Returns:
        An array of the same shape and dtype as ``x``.
    """


@spec
def gelu(x: Array, /, *, approximate: bool = False) -> Array:
    """Gaussian error linear unit ``x * Phi(x)``, element-wise.

    Args:
        x: real floating-point input array.
        approximate: ``False``: the exact form ``0.5 * x * (1 + erf(x / sqrt(2)))``; ``True``: the
            tanh approximation
            ``0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x**3)))``.

    Returns:
        An array of the same shape and dtype as ``x``.
    """


@spec
def silu(x: Array, /) -> Array:
    """Sigmoid linear unit (swish) ``x * sigmoid(x)``, element-wise.

    Args:
        x: real floating-point input array.

    Returns:
        An array of the same shape and dtype as ``x``.
    """


@spec
def sigmoid(x: Array, /) -> Array:
    """Logistic sigmoid ``1 / (1 + exp(-x))``, element-wise, computed without overflow.

    Args:
        x: real floating-point input array.

    Returns:
        An array of the same shape and dtype as ``x``, with values in [0, 1].
    """


@spec
def softmax(x: Array, /, *, axis: int = -1) -> Array:
    """Softmax ``exp(x) / sum(exp(x))`` along one axis, computed stably (max subtracted first).

    Args:
        x: real floating-point input array.
        axis: axis along which the result sums to one.

    Returns:
        An array of the same shape and dtype as ``x``.
    """


@spec
def log_softmax(x: Array, /, *, axis: int = -1) -> Array:
    """Logarithm of :func:`softmax`, ``x - logsumexp(x)`` along one axis, computed stably.

    Args:
        x: real floating-point input array.
        axis: axis along which to normalise.

    Returns:
        An array of the same shape and dtype as ``x``.
    """


@spec
def softplus(x: Array, /, *, beta: float = 1.0, threshold: float = 20.0) -> Array:
    """Softplus ``log(1 + exp(beta * x)) / beta``, element-wise.

    Args:
        x: real floating-point input array.
        beta: sharpness; must be positive.
        threshold: where ``beta * x > threshold`` the result is ``x`` itself (the two agree to
            within rounding there), which avoids overflow.

    Returns:
        An array of the same shape and dtype as ``x``.
    """


@spec
def elu(x: Array, /, *, alpha: float = 1.0) -> Array:
    """Exponential linear unit: ``x`` where ``x > 0``, ``alpha * (exp(x) - 1)`` elsewhere.

    Args:
        x: real floating-point input array.
        alpha: scale of the negative part.

    Returns:
        An array of the same shape and dtype as ``x``.
    """


@spec
def selu(x: Array, /) -> Array:
    """Scaled exponential linear unit ``scale * elu(x, alpha=alpha)``, element-wise.

    The constants are those of Klambauer et al. (2017): ``alpha = 1.6732632423543772`` and
    ``scale = 1.0507009873554805``.

    Args:
        x: real floating-point input array.

    Returns:
        An array of the same shape and dtype as ``x``.
    """


@spec
def hardswish(x: Array, /) -> Array:
    """Hard swish ``x * min(max(x + 3, 0), 6) / 6``, element-wise.

    Args:
        x: real floating-point input array.

    Returns:
        An array of the same shape and dtype as ``x``.
    """


@spec
def mish(x: Array, /) -> Array:
    """Mish ``x * tanh(softplus(x))``, element-wise.

    Args:
        x: real floating-point input array.

    Returns:
        An array of the same shape and dtype as ``x``.
    """


@spec
def erf(x: Array, /) -> Array:
    """Gauss error function ``2 / sqrt(pi) * integral of exp(-t**2) from 0 to x``, element-wise.

    Args:
        x: real floating-point input array.

    Returns:
        An array of the same shape and dtype as ``x``, with values in [-1, 1].
    """
