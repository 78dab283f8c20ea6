"""Linear algebra and neural-network ops of TF graphs (matrix products, convolutions, pooling,
batch normalisation) as Ivy ops, in the graph's own layout (NHWC stays NHWC, NCHW stays NCHW)."""

from __future__ import annotations

from typing import Any

import ivy

from ._table import Ctx, attr, rule

__all__: list[str] = []


@rule("MatMul", doc="ivy.matmul (transposes as attributed)")
def _matmul(ctx: Ctx, a: Any, b: Any) -> Any:
    if ctx.attr("transpose_a"):
        a = ivy.matrix_transpose(a)
    if ctx.attr("transpose_b"):
        b = ivy.matrix_transpose(b)
    return ivy.matmul(a, b)


def _real_adjoint(op: Any) -> str | None:
    if (attr(op, "adj_x") or attr(op, "adj_y")) and op.inputs[0].dtype.is_complex:
        return "the adjoint of complex matrices is not translated"
    return None


@rule(
    "BatchMatMul",
    "BatchMatMulV2",
    "BatchMatMulV3",
    doc="ivy.matmul (adjoints of real matrices as transposes)",
    supports=_real_adjoint,
)
def _batch_matmul(ctx: Ctx, a: Any, b: Any) -> Any:
    if ctx.attr("adj_x"):
        a = ivy.matrix_transpose(a)
    if ctx.attr("adj_y"):
        b = ivy.matrix_transpose(b)
    out = ivy.matmul(a, b)
    return out


@rule("Einsum", doc="ivy.einsum(equation, *inputs)")
def _einsum(ctx: Ctx, *xs: Any) -> Any:
    return ivy.einsum(ctx.attr("equation"), *xs)


@rule("BiasAdd", "BiasAddV1", doc="ivy.add with the bias on the channel axis of data_format")
def _bias_add(ctx: Ctx, x: Any, b: Any) -> Any:
    if str(ctx.attr("data_format", "NHWC")).startswith("NC") and len(ctx.in_shape(0)) > 2:
        b = ivy.reshape(b, (-1,) + (1,) * (len(ctx.in_shape(0)) - 2))
    return ivy.add(x, b)


# ------------------------------------------------------------------------------ windows


def _spatial(ctx: Ctx, values: list[int]) -> list[int]:
    """The spatial entries of a per-axis attribute (strides, ksize, dilations) in data_format."""
    fmt = str(ctx.attr("data_format", "NHWC"))
    return [v for v, axis in zip(values, fmt) if axis not in "NC"]


def _padding(ctx: Ctx) -> Any:
    pad = ctx.attr("padding")
    if pad != "EXPLICIT":
        return pad
    fmt = str(ctx.attr("data_format", "NHWC"))
    flat = ctx.attr("explicit_paddings")
    pairs = [(flat[2 * i], flat[2 * i + 1]) for i in range(len(fmt))]
    return [p for p, axis in zip(pairs, fmt) if axis not in "NC"]


def _layout(ctx: Ctx) -> str:
    return str(ctx.attr("data_format", "NHWC"))


def _conv_layout(op: Any) -> str | None:
    fmt = attr(op, "data_format", "NHWC")
    return None if fmt in ("NHWC", "NCHW", "NDHWC", "NCDHW") else f"data_format {fmt!r} is not translated"


@rule("Conv2D", doc="ivy.conv2d in the op's data_format", supports=_conv_layout)
def _conv2d(ctx: Ctx, x: Any, w: Any) -> Any:
    if ctx.in_shape(1)[2] != ctx.in_shape(0)[_layout(ctx).index("C")]:
        groups = ctx.in_shape(0)[_layout(ctx).index("C")] // ctx.in_shape(1)[2]
        return _grouped(ctx, x, w, groups)
    return ivy.conv2d(
        x,
        w,
        _spatial(ctx, ctx.attr("strides")),
        _padding(ctx),
        data_format=_layout(ctx),
        dilations=_spatial(ctx, ctx.attr("dilations")),
    )


def _grouped(ctx: Ctx, x: Any, w: Any, groups: int) -> Any:
    """A grouped convolution (filters with fewer input channels than x) as one conv per group."""
    axis = _layout(ctx).index("C")
    xs = ivy.split(x, num_or_size_splits=groups, axis=axis)
    ws = ivy.split(w, num_or_size_splits=groups, axis=3)
    outs = [
        ivy.conv2d(
            xi,
            wi,
            _spatial(ctx, ctx.attr("strides")),
            _padding(ctx),
            data_format=_layout(ctx),
            dilations=_spatial(ctx, ctx.attr("dilations")),
        )
        for xi, wi in zip(xs, ws)
    ]
    return ivy.concat(outs, axis=axis)


@rule("Conv3D", doc="ivy.conv3d in the op's data_format", supports=_conv_layout)
def _conv3d(ctx: Ctx, x: Any, w: Any) -> Any:
    return ivy.conv3d(
        x,
        w,
        _spatial(ctx, ctx.attr("strides")),
        _padding(ctx),
        data_format=_layout(ctx),
        dilations=_spatial(ctx, ctx.attr("dilations")),
    )


@rule(
    "Conv2DBackpropInput",
    doc="ivy.conv2d_transpose (the op is the gradient of Conv2D)",
    supports=_conv_layout,
    const_inputs=(0,),
)
def _conv2d_transpose(ctx: Ctx, _shape: Any, w: Any, x: Any) -> Any:
    fmt = _layout(ctx)
    out = ctx.ints(0)
    spatial = [out[i] for i, axis in enumerate(fmt) if axis not in "NC"]
    return ivy.conv2d_transpose(
        x,
        w,
        _spatial(ctx, ctx.attr("strides")),
        _padding(ctx),
        output_shape=spatial,
        data_format=fmt,
        dilations=_spatial(ctx, ctx.attr("dilations")),
    )


@rule(
    "DepthwiseConv2dNative",
    doc="ivy.depthwise_conv2d (a channel multiplier as repeated channels)",
    supports=_conv_layout,
)
def _depthwise(ctx: Ctx, x: Any, w: Any) -> Any:
    fh, fw, c, m = ctx.in_shape(1)
    fmt = _layout(ctx)
    if m != 1:
        # output channel c*m + k is channel c convolved with filter [:, :, c, k]: repeat each
        # input channel m times and take the filters flattened in that order
        x = ivy.repeat(x, m, axis=fmt.index("C"))
    return ivy.depthwise_conv2d(
        x,
        ivy.reshape(w, (fh, fw, c * m)),
        _spatial(ctx, ctx.attr("strides")),
        _padding(ctx),
        data_format=fmt,
        dilations=_spatial(ctx, ctx.attr("dilations")),
    )


@rule("MaxPool", doc="ivy.max_pool2d in the op's data_format", supports=_conv_layout)
def _max_pool(ctx: Ctx, x: Any) -> Any:
    return ivy.max_pool2d(
        x, _spatial(ctx, ctx.attr("ksize")), _spatial(ctx, ctx.attr("strides")), _padding(ctx), data_format=_layout(ctx)
    )


@rule("AvgPool", doc="ivy.avg_pool2d (padding not counted, as TF) in the op's data_format", supports=_conv_layout)
def _avg_pool(ctx: Ctx, x: Any) -> Any:
    return ivy.avg_pool2d(
        x,
        _spatial(ctx, ctx.attr("ksize")),
        _spatial(ctx, ctx.attr("strides")),
        _padding(ctx),
        data_format=_layout(ctx),
        count_include_pad=False,
    )


@rule("MaxPool3D", doc="ivy.max_pool3d in the op's data_format", supports=_conv_layout)
def _max_pool3d(ctx: Ctx, x: Any) -> Any:
    return ivy.max_pool3d(
        x, _spatial(ctx, ctx.attr("ksize")), _spatial(ctx, ctx.attr("strides")), _padding(ctx), data_format=_layout(ctx)
    )


@rule("AvgPool3D", doc="ivy.avg_pool3d (padding not counted) in the op's data_format", supports=_conv_layout)
def _avg_pool3d(ctx: Ctx, x: Any) -> Any:
    return ivy.avg_pool3d(
        x,
        _spatial(ctx, ctx.attr("ksize")),
        _spatial(ctx, ctx.attr("strides")),
        _padding(ctx),
        data_format=_layout(ctx),
        count_include_pad=False,
    )


def _inference_bn(op: Any) -> str | None:
    if attr(op, "is_training"):
        return "training mode (batch statistics) is not translated: transpile the model in inference mode"
    return None


@rule(
    "FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3", doc="ivy.batch_norm (inference)", supports=_inference_bn
)
def _fused_batch_norm(ctx: Ctx, x: Any, scale: Any, offset: Any, mean: Any, var: Any) -> Any:
    y, _, _ = ivy.batch_norm(
        x, mean, var, offset=offset, scale=scale, eps=float(ctx.attr("epsilon")), data_format=_layout(ctx)
    )
    rest = [mean, var] + [
        ivy.zeros(tuple(d or 0 for d in ctx.out_shape(i) or (0,)), dtype=ctx.out_dtype(i))
        for i in range(3, len(ctx.op.outputs))
    ]
    return [y, *rest]
