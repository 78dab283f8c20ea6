"""Contractions and convolutions: ``dot_general`` and ``conv_general_dilated``.

Layout never changes: a convolution over channels-last arrays (Flax's NHWC) stays channels-last
and one over channels-first arrays stays channels-first, through the Ivy ops' ``data_format``.
Only the kernel is permuted inside the graph, from its JAX layout to Ivy's ``[spatial..., in,
out]`` (a no-op for Flax and Haiku, whose kernels are HWIO already); the parameter itself keeps
its source layout.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from typing import Any

import ivy

from ._ops_shape import crop, interior_pad
from ._table import Ctx, rule

__all__: list[str] = []


@rule("dot_general", doc="ivy.matmul where it is one (x @ W, batched matmul), else ivy.einsum")
def _dot_general(lhs: Any, rhs: Any, *, dimension_numbers: Any, ctx: Ctx) -> Any:
    (lc, rc), (lb, rb) = dimension_numbers
    lc, rc, lb, rb = (tuple(int(a) for a in t) for t in (lc, rc, lb, rb))
    out = ctx.out_dtype()
    if ctx.in_dtype(0) != ctx.in_dtype(1):  # mixed operands (preferred_element_type): compute in the result's dtype
        lhs, rhs = ivy.astype(lhs, out), ivy.astype(rhs, out)
    nl, nr = len(lhs.shape), len(rhs.shape)
    nb = len(lb)
    batch = tuple(range(nb))
    if lb == batch and rb == batch and len(lc) == 1 and lc == (nl - 1,):
        if not lb and nr in (1, 2) and rc == (0,) and nl >= 1:
            return ivy.matmul(lhs, rhs)
        if lb and nl == nb + 2 and nr == nb + 2 and rc == (nb,):
            return ivy.matmul(lhs, rhs)
    return ivy.einsum(_equation(nl, nr, lc, rc, lb, rb), lhs, rhs)


def _equation(nl: int, nr: int, lc: Sequence[int], rc: Sequence[int], lb: Sequence[int], rb: Sequence[int]) -> str:
    """The einsum equation of a dot_general: batch axes, then lhs's free axes, then rhs's."""
    letters = iter(string.ascii_letters)
    left = [""] * nl
    right = [""] * nr
    for a, b in zip(lb, rb):
        left[a] = right[b] = next(letters)
    for a, b in zip(lc, rc):
        left[a] = right[b] = next(letters)
    for i in range(nl):
        left[i] = left[i] or next(letters)
    for i in range(nr):
        right[i] = right[i] or next(letters)
    out = [left[a] for a in lb]
    out += [left[i] for i in range(nl) if i not in lb and i not in lc]
    out += [right[i] for i in range(nr) if i not in rb and i not in rc]
    return f"{''.join(left)},{''.join(right)}->{''.join(out)}"


# ------------------------------------------------------------------------------ convolution

_LAST = {1: "NWC", 2: "NHWC", 3: "NDHWC"}
_FIRST = {1: "NCW", 2: "NCHW", 3: "NCDHW"}
_CONV = {1: ivy.conv1d, 2: ivy.conv2d, 3: ivy.conv3d}


def _convolvable(eqn: Any) -> str | None:
    p = eqn.params
    k = len(p["window_strides"])
    if p.get("batch_group_count", 1) != 1:
        return "batch_group_count > 1 (a convolution's weight gradient)"
    if not 1 <= k <= 3:
        return f"a {k}-d convolution"
    return None


def _spec(dn: Any) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    return tuple(dn.lhs_spec), tuple(dn.rhs_spec), tuple(dn.out_spec)


@rule(
    "conv_general_dilated",
    doc=(
        "ivy.conv1d/2d/3d in the input's layout (depthwise_conv2d, or split/concat per group); "
        "lhs dilation interleaves zeros"
    ),
    supports=_convolvable,
)
def _conv(
    lhs: Any,
    rhs: Any,
    *,
    window_strides: Sequence[int],
    padding: Sequence[tuple[int, int]],
    lhs_dilation: Sequence[int],
    rhs_dilation: Sequence[int],
    dimension_numbers: Any,
    feature_group_count: int,
    ctx: Ctx,
) -> Any:
    lhs_spec, rhs_spec, out_spec = _spec(dimension_numbers)
    k = len(window_strides)
    if ctx.in_dtype(0) != ctx.in_dtype(1):
        lhs, rhs = ivy.astype(lhs, ctx.out_dtype()), ivy.astype(rhs, ctx.out_dtype())
    # the input in a layout Ivy names: its own when it is channels-first or channels-last
    first = tuple(range(k + 2))
    last = (0, k + 1, *range(1, k + 1))
    if lhs_spec in (first, last):
        fmt_first = lhs_spec == first
    else:
        fmt_first = False
        lhs = ivy.permute_dims(lhs, (lhs_spec[0], *lhs_spec[2:], lhs_spec[1]))
    spatial = list(range(2, k + 2)) if fmt_first else list(range(1, k + 1))
    channel = 1 if fmt_first else k + 1
    # kernel: [spatial..., in, out]
    kperm = (*rhs_spec[2:], rhs_spec[1], rhs_spec[0])
    if kperm != tuple(range(k + 2)):
        rhs = ivy.permute_dims(rhs, kperm)
    # lhs dilation (transposed convolutions): zeros between the input's elements
    for axis, d in zip(spatial, lhs_dilation):
        lhs = interior_pad(lhs, axis, int(d) - 1, 0)
    pads = [(int(lo), int(hi)) for lo, hi in padding]
    if any(lo < 0 or hi < 0 for lo, hi in pads):
        full = [(0, 0)] * (k + 2)
        for axis, p in zip(spatial, pads):
            full[axis] = p
        lhs, left = crop(lhs, full)
        pads = [left[axis] for axis in spatial]
    fmt = (_FIRST if fmt_first else _LAST)[k]
    strides = [int(s) for s in window_strides]
    dil = [int(d) for d in rhs_dilation]
    out = _grouped(lhs, rhs, int(feature_group_count), k, strides, pads, fmt, dil, channel)
    # the result in the layout out_spec asks for
    logical = (0, 1, *range(2, k + 2)) if fmt_first else (0, k + 1, *range(1, k + 1))  # axes of N, C, spatial...
    perm = [0] * (k + 2)
    for pos, src in zip(out_spec, logical):
        perm[pos] = src
    return out if perm == list(range(k + 2)) else ivy.permute_dims(out, tuple(perm))


def _grouped(
    x: Any,
    w: Any,
    groups: int,
    k: int,
    strides: list[int],
    pads: list[tuple[int, int]],
    fmt: str,
    dil: list[int],
    channel: int,
) -> Any:
    if groups == 1:
        return _CONV[k](x, w, strides, pads, data_format=fmt, dilations=dil)
    c_in, c_out = x.shape[channel], w.shape[-1]
    if k == 2 and groups == c_in and c_out == c_in:
        # one filter per channel: a depthwise convolution, filters [fh, fw, channels]
        return ivy.depthwise_conv2d(
            x, ivy.reshape(w, (*w.shape[:2], c_in)), strides, pads, data_format=fmt, dilations=dil
        )
    xs = ivy.split(x, groups, axis=channel)
    ws = ivy.split(w, groups, axis=-1)
    outs = [_CONV[k](xg, wg, strides, pads, data_format=fmt, dilations=dil) for xg, wg in zip(xs, ws)]
    return ivy.concat(outs, axis=channel)
