"""Sequence layers: :class:`LSTM` (:func:`ivy.lstm`) and :class:`MultiHeadAttention`
(:func:`ivy.multi_head_attention`)."""

from __future__ import annotations

import math
from typing import Any

from .. import _api
from ..container import Container
from .initializers import GlorotUniform, Initializer, Uniform, Zeros
from .module import Module

__all__ = ["LSTM", "MultiHeadAttention"]


def _ivy() -> Any:
    return _api


class LSTM(Module):
    """A stack of LSTM layers over batch-first sequences ``[batch, time, in]``.

    Variables per layer ``l``, under ``layer{l}``: ``w`` (input kernel ``[in, 4 * hidden]``,
    ``in`` being ``hidden`` above the first layer), ``r`` (recurrent kernel
    ``[hidden, 4 * hidden]``) and ``b`` (bias ``[4 * hidden]``); the gates are ordered
    ``i, f, g, o`` along the last axis (as torch's, whose ``weight_ih_l{l}`` is ``w.T``, and
    whose two biases add up to ``b``).

    Args:
        input_channels: size of the input features.
        output_channels: hidden size.
        num_layers: number of stacked layers.
        return_sequence: return the hidden states of every step (else only the last one).
        return_state: also return the final ``(h, c)``, ``[num_layers, batch, hidden]`` each.
        with_bias: whether to have ``b``.
        weight_initializer: default ``Uniform(-1/sqrt(hidden), 1/sqrt(hidden))`` (as torch), also
            used for the biases.
        **kwargs: see :class:`Module`.
    """

    def __init__(
        self,
        input_channels: int,
        output_channels: int,
        *,
        num_layers: int = 1,
        return_sequence: bool = True,
        return_state: bool = True,
        with_bias: bool = True,
        weight_initializer: Initializer | None = None,
        **kwargs: Any,
    ) -> None:
        self.input_channels, self.output_channels, self.num_layers = input_channels, output_channels, num_layers
        self.return_sequence, self.return_state, self.with_bias = return_sequence, return_state, with_bias
        k = 1.0 / math.sqrt(output_channels)
        self.weight_initializer = weight_initializer or Uniform(-k, k)
        Module.__init__(self, **kwargs)

    def _create_variables(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        h = self.output_channels
        kw = {"dtype": dtype, "device": device, "backend": backend}
        init = self.weight_initializer
        v: dict[str, Any] = {}
        for layer in range(self.num_layers):
            i = self.input_channels if layer == 0 else h
            lv = {"w": init.create((i, 4 * h), fan_in=i, fan_out=4 * h, **kw),
                  "r": init.create((h, 4 * h), fan_in=h, fan_out=4 * h, **kw)}
            if self.with_bias:
                lv["b"] = init.create((4 * h,), fan_in=h, fan_out=4 * h, **kw)
            v[f"layer{layer}"] = Container(lv)
        return v

    def _forward(self, x: Any, initial_state: tuple[Any, Any] | None = None) -> Any:
        ivy = _ivy()
        v = self.v
        layers = [v[f"layer{i}"] for i in range(self.num_layers)]
        if initial_state is None:
            shape = (self.num_layers, x.shape[0], self.output_channels)
            h0 = ivy.zeros(shape, dtype=x.dtype, device=ivy.dev(x), backend=ivy.namespace(x))
            initial_state = (h0, h0)
        biases = [lv.b for lv in layers] if self.with_bias else None
        hs, (h, c) = ivy.lstm(x, initial_state[0], initial_state[1], [lv.w for lv in layers],
                              [lv.r for lv in layers], biases=biases)
        out = hs if self.return_sequence else hs[:, -1]
        return (out, (h, c)) if self.return_state else out


class MultiHeadAttention(Module):
    """Multi-head attention (:func:`ivy.multi_head_attention`) over ``[batch, length, dim]``.

    Variables: ``q_w`` ``[query_dim, embed_dim]``, ``k_w`` ``[key_dim, embed_dim]``, ``v_w``
    ``[value_dim, embed_dim]``, ``out_w`` ``[embed_dim, out_dim]`` (``x @ w``: the transposes of
    torch's ``in_proj_weight`` blocks and ``out_proj.weight``), and biases ``q_b``, ``k_b``,
    ``v_b`` ``[embed_dim]``, ``out_b`` ``[out_dim]``.

    Args:
        embed_dim: total size of the heads (and default size of every input and the output).
        num_heads: number of heads; must divide ``embed_dim``.
        key_dim: size of the key features; default ``embed_dim``.
        value_dim: size of the value features; default ``embed_dim``.
        out_dim: size of the output; default ``embed_dim``.
        with_bias: whether to have the biases.
        weight_initializer: default :class:`GlorotUniform`; biases start at zero.
        **kwargs: see :class:`Module`.
    """

    def __init__(
        self,
        embed_dim: int,
        num_heads: int,
        *,
        key_dim: int | None = None,
        value_dim: int | None = None,
        out_dim: int | None = None,
        with_bias: bool = True,
        weight_initializer: Initializer | None = None,
        **kwargs: Any,
    ) -> None:
        if embed_dim % num_heads:
            raise ValueError(f"MultiHeadAttention: {num_heads} heads do not divide embed_dim {embed_dim}")
        self.embed_dim, self.num_heads = embed_dim, num_heads
        self.key_dim, self.value_dim = key_dim or embed_dim, value_dim or embed_dim
        self.out_dim, self.with_bias = out_dim or embed_dim, with_bias
        self.weight_initializer = weight_initializer or GlorotUniform()
        Module.__init__(self, **kwargs)

    def _create_variables(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        e = self.embed_dim
        kw = {"dtype": dtype, "device": device, "backend": backend}
        init = self.weight_initializer
        dims = {"q": (e, e), "k": (self.key_dim, e), "v": (self.value_dim, e), "out": (e, self.out_dim)}
        v = {f"{n}_w": init.create(s, fan_in=s[0], fan_out=s[1], **kw) for n, s in dims.items()}
        if self.with_bias:
            v.update({f"{n}_b": Zeros().create((s[1],), **kw) for n, s in dims.items()})
        return v

    def _forward(self, query: Any, key: Any = None, value: Any = None, *, mask: Any = None,
                 is_causal: bool = False) -> Any:
        v = self.v
        b = {f"{n}_bias": v[f"{n}_b"] for n in ("q", "k", "v", "out")} if self.with_bias else {}
        return _ivy().multi_head_attention(
            query, key, value, num_heads=self.num_heads, q_weight=v.q_w, k_weight=v.k_w, v_weight=v.v_w,
            out_weight=v.out_w, mask=mask, is_causal=is_causal, **b,
        )
