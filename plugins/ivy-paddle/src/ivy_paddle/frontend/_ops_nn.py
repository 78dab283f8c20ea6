"""Neural-network ops of paddle's PIR op set: matmul, convolution, pooling, normalisation,
embedding, dropout. The layout is kept: an NCHW program stays NCHW; paddle's convolution weights
(``[out, in / groups, kh, kw]``) are permuted to Ivy's ``[kh, kw, in, out]`` inside the graph."""

from __future__ import annotations

from typing import Any

import numpy as np
import paddle

import ivy
from ivy.errors import TranspileError

from ._table import Ctx, rule

__all__: list[str] = []


def _swap_last(x: Any) -> Any:
    n = len(x.shape)
    return x if n < 2 else ivy.permute_dims(x, (*range(n - 2), n - 1, n - 2))


@rule("pd_op.matmul", doc="ivy.matmul (operands transposed first where the attributes say)")
def _matmul(ctx: Ctx, x: Any, y: Any) -> Any:
    if ctx.attr("transpose_x", False):
        x = _swap_last(x)
    if ctx.attr("transpose_y", False):
        y = _swap_last(y)
    return ivy.matmul(x, y)


@rule("pd_op.bmm", doc="ivy.matmul")
def _bmm(ctx: Ctx, x: Any, y: Any) -> Any:
    return ivy.matmul(x, y)


def _padding(ctx: Ctx, nd: int) -> Any:
    """Paddle's ``paddings`` attribute (``[p]*nd`` symmetric or ``[lo, hi]`` per axis) and its
    ``padding_algorithm`` as Ivy's padding argument."""
    algo = ctx.attr("padding_algorithm", "EXPLICIT")
    if algo in ("SAME", "VALID"):
        return algo
    p = [int(v) for v in ctx.attr("paddings", [0] * nd)]
    if len(p) == nd:
        return [(v, v) for v in p]
    if len(p) == 2 * nd:
        return [(p[2 * i], p[2 * i + 1]) for i in range(nd)]
    raise TranspileError(f"{ctx.op.name()}: paddings {p} of unexpected length for a {nd}-D op")


@rule("pd_op.conv2d", "pd_op.depthwise_conv2d", doc="ivy.conv2d / ivy.depthwise_conv2d / per-group ivy.conv2d")
def _conv2d(ctx: Ctx, x: Any, w: Any) -> Any:
    fmt = "NHWC" if ctx.attr("data_format", "NCHW") == "NHWC" else "NCHW"
    strides = [int(s) for s in ctx.attr("strides", [1, 1])]
    dil = [int(d) for d in ctx.attr("dilations", [1, 1])]
    pad = _padding(ctx, 2)
    groups = int(ctx.attr("groups", 1))
    c_in = x.shape[1 if fmt == "NCHW" else 3]
    out_c, per_group = w.shape[0], w.shape[1]
    if groups == 1:
        return ivy.conv2d(x, ivy.permute_dims(w, (2, 3, 1, 0)), strides, pad, data_format=fmt, dilations=dil)
    if groups == c_in and out_c == c_in and per_group == 1:
        # depthwise, one filter per channel: [C, 1, kh, kw] -> [kh, kw, C]
        f = ivy.permute_dims(ivy.reshape(w, (out_c, w.shape[2], w.shape[3])), (1, 2, 0))
        return ivy.depthwise_conv2d(x, f, strides, pad, data_format=fmt, dilations=dil)
    axis = 1 if fmt == "NCHW" else 3
    xs = ivy.split(x, groups, axis=axis)
    ws = ivy.split(w, groups, axis=0)
    outs = [
        ivy.conv2d(xg, ivy.permute_dims(wg, (2, 3, 1, 0)), strides, pad, data_format=fmt, dilations=dil)
        for xg, wg in zip(xs, ws)
    ]
    return ivy.concat(outs, axis=axis)


@rule("pd_op.pool2d", doc="ivy.max_pool2d / ivy.avg_pool2d / ivy.adaptive_avg_pool2d / mean", const_inputs=(1,))
def _pool2d(ctx: Ctx, x: Any, kernel: Any) -> Any:
    fmt = "NHWC" if ctx.attr("data_format", "NCHW") == "NHWC" else "NCHW"
    kind = ctx.attr("pooling_type", "max")
    hw = (2, 3) if fmt == "NCHW" else (1, 2)
    k = ctx.ints(1)
    if ctx.attr("global_pooling", False) or (ctx.attr("adaptive", False) and k == [1, 1]):
        fn = ivy.mean if kind == "avg" else ivy.max
        return fn(x, axis=hw, keepdims=True)
    if ctx.attr("adaptive", False):
        if kind != "avg":
            raise TranspileError("adaptive max pooling is not translated (only adaptive average pooling)")
        return ivy.adaptive_avg_pool2d(x, k, data_format=fmt)
    if ctx.attr("ceil_mode", False):
        raise TranspileError("pooling with ceil_mode=True is not translated")
    strides = [int(s) for s in ctx.attr("strides", k)]
    pad = _padding(ctx, 2)
    if kind == "max":
        return ivy.max_pool2d(x, k, strides, pad, data_format=fmt)
    return ivy.avg_pool2d(x, k, strides, pad, data_format=fmt, count_include_pad=not ctx.attr("exclusive", True))


@rule(
    "pd_op.batch_norm",
    "pd_op.batch_norm_",
    doc="ivy.batch_norm (running statistics updated in training mode)",
    inplace=((1, 1), (2, 2)),
)
def _batch_norm(ctx: Ctx, x: Any, mean: Any, var: Any, scale: Any, bias: Any) -> Any:
    training = not ctx.attr("is_test", True) and not ctx.attr("use_global_stats", False)
    fmt = "NHWC" if ctx.attr("data_format", "NCHW") in ("NHWC", "NLC", "NDHWC") else "NCHW"
    y, _, _ = ivy.batch_norm(
        x,
        mean,
        var,
        offset=bias,
        scale=scale,
        training=training,
        eps=float(ctx.attr("epsilon", 1e-5)),
        # paddle's momentum weighs the running statistic, Ivy's the batch statistic
        momentum=1.0 - float(ctx.attr("momentum", 0.9)),
        data_format=fmt,
    )
    if not training:  # inference leaves the running statistics alone: no state update in the graph
        return (y, None, None, None, None, None)
    # paddle updates the running variance with the biased batch variance (Ivy's uses n - 1)
    axes = tuple(i for i in range(len(x.shape)) if i != (len(x.shape) - 1 if fmt == "NHWC" else 1))
    bm = ivy.mean(x, axis=axes, keepdims=True)
    bv = ivy.mean(ivy.square(x - bm), axis=axes)
    keep = float(ctx.attr("momentum", 0.9))
    m = ivy.stop_gradient(mean * keep + ivy.reshape(bm, tuple(mean.shape)) * (1.0 - keep))
    v = ivy.stop_gradient(var * keep + bv * (1.0 - keep))
    return (y, m, v, None, None, None)


@rule("pd_op.layer_norm", doc="ivy.layer_norm over the axes from begin_norm_axis")
def _layer_norm(ctx: Ctx, x: Any, scale: Any, bias: Any) -> Any:
    begin = int(ctx.attr("begin_norm_axis", len(x.shape) - 1))
    norm_shape = tuple(x.shape[begin:])
    # paddle keeps a multi-axis LayerNorm's weight flat: [prod(normalized_shape)]
    if scale is not None and tuple(scale.shape) != norm_shape:
        scale = ivy.reshape(scale, norm_shape)
    if bias is not None and tuple(bias.shape) != norm_shape:
        bias = ivy.reshape(bias, norm_shape)
    y = ivy.layer_norm(
        x, list(range(begin, len(x.shape))), scale=scale, offset=bias, eps=float(ctx.attr("epsilon", 1e-5))
    )
    return (y, None, None)


@rule("pd_op.embedding", doc="ivy.embedding(weight, ids)")
def _embedding(ctx: Ctx, ids: Any, weight: Any) -> Any:
    return ivy.embedding(weight, ids)


@rule("pd_op.dropout", doc="identity in inference (or downscaled), ivy.dropout in training")
def _dropout(ctx: Ctx, x: Any, *rest: Any) -> Any:
    # the probability is operand 2 (a ``full`` constant) in PIR, an attribute in older programs
    p = ctx.scalar(2) if len(ctx.consts) > 2 and ctx.consts[2] is not None else float(ctx.attr("p", 0.5))
    upscale = ctx.attr("mode", "upscale_in_train") == "upscale_in_train"
    if ctx.attr("is_test", False) or p == 0.0:
        return (x if upscale else x * (1.0 - p), None)
    return (ivy.dropout(x, p, scale=upscale, training=True), None)


def _channel_shape(x: Any, fmt: str) -> tuple[int, ...]:
    """The shape a per-channel vector broadcasts with against ``x``."""
    n = len(x.shape)
    if fmt.endswith("C"):
        return (x.shape[-1],)
    return (x.shape[1], *([1] * (n - 2)))


@rule("pd_op.conv2d_transpose", doc="ivy.conv2d_transpose (weight permuted inside the graph)")
def _conv2d_transpose(ctx: Ctx, x: Any, w: Any, output_size: Any = None) -> Any:
    if int(ctx.attr("groups", 1)) != 1:
        raise TranspileError("grouped transposed convolutions are not translated")
    fmt = "NHWC" if ctx.attr("data_format", "NCHW") == "NHWC" else "NCHW"
    out = ctx.out_shape()
    spatial = out[1:3] if fmt == "NHWC" else out[2:4]
    return ivy.conv2d_transpose(
        x,
        ivy.permute_dims(w, (2, 3, 1, 0)),  # paddle's [in, out, kh, kw] -> [kh, kw, out, in]
        [int(s) for s in ctx.attr("strides", [1, 1])],
        _padding(ctx, 2),
        output_shape=list(spatial),
        data_format=fmt,
        dilations=[int(d) for d in ctx.attr("dilations", [1, 1])],
    )


def _affine(y: Any, scale: Any, bias: Any, shape: tuple[int, ...]) -> Any:
    if scale is not None:
        y = y * ivy.reshape(scale, shape)
    if bias is not None:
        y = y + ivy.reshape(bias, shape)
    return y


@rule("pd_op.group_norm", doc="mean and variance per group of channels, then the per-channel affine")
def _group_norm(ctx: Ctx, x: Any, scale: Any, bias: Any) -> Any:
    fmt = ctx.attr("data_format", "NCHW")
    if fmt.endswith("C") and fmt != "NC":
        raise TranspileError("channel-last group_norm is not translated")
    g = int(ctx.attr("groups", 1))
    shape = tuple(x.shape)
    xg = ivy.reshape(x, (shape[0], g, -1))
    m = ivy.mean(xg, axis=2, keepdims=True)
    v = ivy.mean(ivy.square(xg - m), axis=2, keepdims=True)
    y = ivy.reshape((xg - m) / ivy.sqrt(v + float(ctx.attr("epsilon", 1e-5))), shape)
    return (_affine(y, scale, bias, _channel_shape(x, "NCHW")), None, None)


@rule("pd_op.instance_norm", doc="mean and variance per sample and channel, then the per-channel affine")
def _instance_norm(ctx: Ctx, x: Any, scale: Any, bias: Any) -> Any:
    axes = tuple(range(2, len(x.shape)))
    m = ivy.mean(x, axis=axes, keepdims=True)
    v = ivy.mean(ivy.square(x - m), axis=axes, keepdims=True)
    y = (x - m) / ivy.sqrt(v + float(ctx.attr("epsilon", 1e-5)))
    return (_affine(y, scale, bias, _channel_shape(x, "NCHW")), None, None)


@rule("pd_op.prelu", doc="ivy.where(x > 0, x, alpha * x), alpha per tensor, channel or element")
def _prelu(ctx: Ctx, x: Any, alpha: Any) -> Any:
    mode = ctx.attr("mode", "all")
    if mode == "channel":
        alpha = ivy.reshape(alpha, _channel_shape(x, ctx.attr("data_format", "NCHW")))
    elif mode == "element":
        alpha = ivy.reshape(alpha, tuple(x.shape[1:]))
    return ivy.where(x > 0, x, x * alpha)


def _bins(n: int, out: int) -> list[tuple[int, int]]:
    """The windows of adaptive pooling along one axis: ``[floor(i n / out), ceil((i+1) n / out))``."""
    return [((i * n) // out, -((-(i + 1) * n) // out)) for i in range(out)]


@rule("pd_op.max_pool2d_with_index", doc="ivy.max_pool2d, or adaptive max pooling by windows (no indices)")
def _max_pool_with_index(ctx: Ctx, x: Any) -> Any:
    k = [int(v) for v in ctx.attr("kernel_size")]
    if ctx.attr("global_pooling", False):
        return (ivy.max(x, axis=(2, 3), keepdims=True), None)
    if not ctx.attr("adaptive", False):
        if ctx.attr("ceil_mode", False):
            raise TranspileError("pooling with ceil_mode=True is not translated")
        strides = [int(s) for s in ctx.attr("strides", k)]
        return (ivy.max_pool2d(x, k, strides, _padding(ctx, 2), data_format="NCHW"), None)
    h, w = x.shape[2], x.shape[3]
    if h % k[0] == 0 and w % k[1] == 0:  # equal windows: one reshape
        n, c = x.shape[0], x.shape[1]
        r = ivy.reshape(x, (n, c, k[0], h // k[0], k[1], w // k[1]))
        # one reduced axis: paddle's max over non-adjacent axes (3, 5) has a wrong gradient
        r = ivy.reshape(ivy.permute_dims(r, (0, 1, 2, 4, 3, 5)), (n, c, k[0], k[1], -1))
        return (ivy.max(r, axis=-1), None)
    rows = []
    for h0, h1 in _bins(h, k[0]):
        cols = [ivy.max(ivy.get_item(x, (..., slice(h0, h1), slice(w0, w1))), axis=(2, 3)) for w0, w1 in _bins(w, k[1])]
        rows.append(ivy.stack(cols, axis=-1))
    return (ivy.stack(rows, axis=-2), None)


@rule("pd_op.nearest_interp", doc="ivy.take of the nearest source rows and columns")
def _nearest_interp(ctx: Ctx, x: Any, *sizes: Any) -> Any:
    fmt = ctx.attr("data_format", "NCHW")
    if ctx.attr("align_corners", False) or fmt not in ("NCHW", "NCW", "NCDHW"):
        raise TranspileError("nearest interpolation is translated for channel-first layouts without align_corners")
    out = ctx.out_shape()
    scale = [float(s) for s in ctx.attr("scale", [])]
    for i, axis in enumerate(range(2, len(x.shape))):
        n_in, n_out = x.shape[axis], out[axis]
        # paddle maps output index j to floor(j / scale) (or floor(j * in / out) without a scale)
        ratio = 1.0 / scale[i] if len(scale) > i and scale[i] > 0 else n_in / n_out
        idx = np.minimum(np.floor(np.arange(n_out) * ratio).astype("int64"), n_in - 1)
        x = ivy.take(x, _const(idx), axis=axis)
    return x


def _const(a: np.ndarray) -> Any:
    return ivy.asarray(paddle.to_tensor(a))  # a constant of the traced program (it computes on paddle)


@rule("pd_op.bilinear_interp", "pd_op.linear_interp", doc="two ivy.take per spatial axis, mixed by constant weights")
def _linear_interp(ctx: Ctx, x: Any, *sizes: Any) -> Any:
    if ctx.attr("data_format", "NCHW") not in ("NCHW", "NCW"):
        raise TranspileError("linear interpolation is translated for channel-first layouts only")
    corners = bool(ctx.attr("align_corners", False))
    half_pixel = int(ctx.attr("align_mode", 0)) == 0
    out = ctx.out_shape()
    scale = [float(s) for s in ctx.attr("scale", [])]
    for i, axis in enumerate(range(2, len(x.shape))):
        n_in, n_out = x.shape[axis], out[axis]
        j = np.arange(n_out, dtype="float64")
        if corners:
            src = j * ((n_in - 1) / (n_out - 1) if n_out > 1 else 0.0)
        else:
            ratio = 1.0 / scale[i] if len(scale) > i and scale[i] > 0 else n_in / n_out
            src = np.maximum((j + 0.5) * ratio - 0.5, 0.0) if half_pixel else j * ratio
        lo = np.minimum(np.floor(src).astype("int64"), n_in - 1)
        hi = np.minimum(lo + 1, n_in - 1)
        w = (src - lo).astype(np.dtype(ivy.dtype_name(x.dtype)))
        shape = [1] * len(x.shape)
        shape[axis] = n_out
        w_hi = _const(w.reshape(shape))
        x = ivy.take(x, _const(lo), axis=axis) * (1.0 - w_hi) + ivy.take(x, _const(hi), axis=axis) * w_hi
    return x
