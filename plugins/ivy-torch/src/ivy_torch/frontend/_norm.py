"""Normalisation, softmax, dropout and attention.

ATen's normalisation ops also return the statistics they used (for their backward pass); those
outputs are computed only where the program reads them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ivy

from ._rules import Out, Rule, dtype_name, rule

__all__ = ["TABLE"]

_CHANNEL_FIRST = {2: "NC", 3: "NCW", 4: "NCHW", 5: "NCDHW"}


def _format(x: Any) -> str:
    return _CHANNEL_FIRST.get(x.ndim, "NCHW")


def _channel_view(v: Any, ndim: int) -> Any:
    """A per-channel [C] statistic shaped to broadcast against [N, C, *spatial]."""
    return ivy.reshape(v, (1, -1) + (1,) * (ndim - 2))


def _batch_stats(x: Any, eps: float) -> tuple[Any, Any, Any]:
    """Mean, biased variance and 1/sqrt(var + eps) over every axis but the channel axis (1)."""
    reduce = (0, *range(2, x.ndim))
    mean = ivy.mean(x, axis=reduce)
    var = ivy.var(x, axis=reduce)
    return mean, var, ivy.reciprocal(ivy.sqrt(ivy.add(var, eps)))


def _saved(*stats: Any) -> tuple[Any, ...]:
    """Statistics a normalisation returns for its backward pass: torch defines no gradient
    through them."""
    return tuple(None if s is None else ivy.stop_gradient(s) for s in stats)


def _empty(x: Any) -> Any:
    return ivy.zeros((0,), dtype=dtype_name(x.dtype))


@rule(out=True)
def batch_norm_inference(
    out: Out, x: Any, weight: Any, bias: Any, running_mean: Any, running_var: Any, momentum: float, eps: float
) -> Any:
    """ivy.batch_norm(training=False) with the running statistics, channel axis 1"""
    y = ivy.batch_norm(
        x, running_mean, running_var, offset=bias, scale=weight, training=False, eps=eps, data_format=_format(x)
    )[0]
    return y, _empty(x), _empty(x)


@rule(out=True)
def batch_norm_functional(
    out: Out,
    x: Any,
    weight: Any,
    bias: Any,
    running_mean: Any,
    running_var: Any,
    training: bool,
    momentum: float,
    eps: float,
) -> Any:
    """ivy.batch_norm(training=...): (y, batch mean, batch 1/std, new running mean, new running var)"""
    if not training:
        y = ivy.batch_norm(x, running_mean, running_var, offset=bias, scale=weight, eps=eps, data_format=_format(x))[0]
        return y, _empty(x), _empty(x), running_mean, running_var
    y, new_mean, new_var = ivy.batch_norm(
        x,
        running_mean,
        running_var,
        offset=bias,
        scale=weight,
        training=True,
        eps=eps,
        momentum=momentum,
        data_format=_format(x),
    )
    mean = rstd = None
    if 1 in out.used or 2 in out.used:
        mean, _, rstd = _batch_stats(x, eps)
    return (y, *_saved(mean, rstd), new_mean, new_var)


def _normalize_with_batch_stats(x: Any, weight: Any, bias: Any, eps: float) -> tuple[Any, Any, Any]:
    mean, _, rstd = _batch_stats(x, eps)
    y = ivy.multiply(ivy.subtract(x, _channel_view(mean, x.ndim)), _channel_view(rstd, x.ndim))
    if weight is not None:
        y = ivy.multiply(y, _channel_view(weight, x.ndim))
    if bias is not None:
        y = ivy.add(y, _channel_view(bias, x.ndim))
    return y, mean, rstd


def _legit_check(node: Any) -> str | None:
    training = node.args[5] if len(node.args) > 5 else node.kwargs.get("training")
    if training:
        return "batch norm updating its running statistics in place (export the module to get the functional form)"
    return None


@rule(out=True, check=_legit_check)
def batch_norm_legit(
    out: Out,
    x: Any,
    weight: Any,
    bias: Any,
    running_mean: Any,
    running_var: Any,
    training: bool,
    momentum: float,
    eps: float,
) -> Any:
    """ivy.batch_norm(training=False) (the in-place training form is not translated)"""
    return batch_norm_inference.fn(out, x, weight, bias, running_mean, running_var, momentum, eps)


@rule()
def batch_norm_no_stats(x: Any, weight: Any, bias: Any, training: bool, momentum: float, eps: float) -> Any:
    """standardisation with the batch's statistics per channel (ivy.mean, ivy.var), then scale
    and shift"""
    y, mean, rstd = _normalize_with_batch_stats(x, weight, bias, eps)
    return (y, *_saved(mean, rstd))


@rule(out=True)
def native_layer_norm(out: Out, x: Any, normalized_shape: Sequence[int], weight: Any, bias: Any, eps: float) -> Any:
    """ivy.layer_norm over the trailing normalized_shape axes (mean and 1/std when read)"""
    axes = tuple(range(x.ndim - len(normalized_shape), x.ndim))
    y = ivy.layer_norm(x, axes, scale=weight, offset=bias, eps=eps)
    mean = rstd = None
    if 1 in out.used or 2 in out.used:
        mean = ivy.mean(x, axis=axes, keepdims=True)
        rstd = ivy.reciprocal(ivy.sqrt(ivy.add(ivy.var(x, axis=axes, keepdims=True), eps)))
    return (y, *_saved(mean, rstd))


@rule(out=True)
def native_group_norm(out: Out, x: Any, weight: Any, bias: Any, n: int, c: int, hw: int, group: int, eps: float) -> Any:
    """ivy.group_norm, channel axis 1 (per-group mean and 1/std [N, group] when read)"""
    y = ivy.group_norm(x, group, scale=weight, offset=bias, eps=eps, data_format=_format(x))
    mean = rstd = None
    if 1 in out.used or 2 in out.used:
        grouped = ivy.reshape(x, (n, group, -1))
        mean = ivy.mean(grouped, axis=-1)
        rstd = ivy.reciprocal(ivy.sqrt(ivy.add(ivy.var(grouped, axis=-1), eps)))
    # unlike the other normalisations, torch differentiates group norm's statistics too
    return y, mean, rstd


@rule()
def softmax(x: Any, dim: int, half_to_float: bool = False) -> Any:
    """ivy.softmax(axis=dim)"""
    return ivy.softmax(x, axis=dim)


@rule()
def log_softmax(x: Any, dim: int, half_to_float: bool = False) -> Any:
    """ivy.log_softmax(axis=dim)"""
    return ivy.log_softmax(x, axis=dim)


@rule(out=True)
def native_dropout(out: Out, x: Any, p: float, train: bool | None) -> Any:
    """identity when not training; ivy.dropout when training (the target's random numbers)"""
    if not train or p == 0:
        return x, ivy.ones(tuple(x.shape), dtype="bool") if 1 in out.used else None
    if 1 not in out.used:
        return ivy.dropout(x, p), None
    keep = ivy.greater_equal(ivy.random_uniform(shape=tuple(x.shape), dtype=dtype_name(x.dtype)), p)
    return ivy.where(keep, ivy.divide(x, 1.0 - p), ivy.zeros_like(x)), keep


@rule()
def scaled_dot_product_attention(
    q: Any,
    k: Any,
    v: Any,
    attn_mask: Any = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    *,
    scale: float | None = None,
    enable_gqa: bool = False,
) -> Any:
    """ivy.scaled_dot_product_attention (kept whole, not decomposed; grouped-query attention:
    key and value heads repeated)"""
    if enable_gqa and k.shape[-3] != q.shape[-3]:
        times = q.shape[-3] // k.shape[-3]
        k, v = ivy.repeat(k, times, axis=-3), ivy.repeat(v, times, axis=-3)
    return ivy.scaled_dot_product_attention(
        q, k, v, mask=attn_mask, scale=scale, dropout_p=dropout_p, is_causal=is_causal
    )


TABLE: dict[str, Rule] = {
    "_native_batch_norm_legit_no_training": batch_norm_inference,
    "_native_batch_norm_legit_functional": batch_norm_functional,
    "_native_batch_norm_legit": batch_norm_legit,
    "_native_batch_norm_legit.no_stats": batch_norm_no_stats,
    "native_layer_norm": native_layer_norm,
    "native_group_norm": native_group_norm,
    "_softmax": softmax,
    "_log_softmax": log_softmax,
    "native_dropout": native_dropout,
    "scaled_dot_product_attention": scaled_dot_product_attention,
}
