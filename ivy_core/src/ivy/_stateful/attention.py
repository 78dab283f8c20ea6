"""Attention layers: :class:`MultiHeadAttention` and the transformer blocks
(:class:`TransformerEncoderLayer`, :class:`TransformerDecoderLayer`, and stacks of them), over
sequences ``[batch, length, features]`` (``batch_first=True``, the default, Keras' layout) or
``[length, batch, features]`` (``batch_first=False``, torch's default). Masks and attention
weights are batch-major in either layout (as torch's).

Masks follow Ivy's convention (:func:`ivy.scaled_dot_product_attention`): a boolean mask is
``True`` where a query may attend to a key (Keras' ``attention_mask``); torch's boolean masks
are the negation (``True``: masked out), so pass ``~torch_mask``. A floating-point mask is added
to the scores (as in torch).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .. import _api as ivy
from ._layout import check_batch, check_sequence, is_bool, size
from .basic import Dropout
from .embeddings import RotaryEmbedding
from .initializers import GlorotUniform, Initializer, Zeros
from .layers import Linear
from .module import Module
from .normalization import LayerNorm

__all__ = [
    "MultiHeadAttention",
    "TransformerEncoderLayer",
    "TransformerDecoderLayer",
    "TransformerEncoder",
    "TransformerDecoder",
]


def _combine_masks(mask: Any, key_mask: Any, like: Any) -> Any:
    """One mask for the scores ``[batch, heads, l_q, l_k]`` from ``mask`` (bool or additive,
    broadcastable) and ``key_mask`` (bool ``[batch, l_k]``, ``True``: a real key)."""
    if key_mask is None:
        return mask
    km = ivy.expand_dims(ivy.expand_dims(key_mask, axis=1), axis=1)  # [batch, 1, 1, l_k]
    if mask is None:
        return km
    if is_bool(mask):
        return ivy.logical_and(mask, km)
    return ivy.where(km, mask, float("-inf"))


class MultiHeadAttention(Module):
    """Multi-head attention (Vaswani et al., 2017) over ``[batch, length, dim]`` (``[length,
    batch, dim]`` with ``batch_first=False``): project the query, key and value, split into
    ``num_heads`` heads, attend (:func:`ivy.scaled_dot_product_attention`), concatenate the heads,
    project.

    Variables: ``q_w`` ``[query_dim, embed_dim]``, ``k_w`` ``[key_dim, embed_dim]``, ``v_w``
    ``[value_dim, embed_dim]``, ``out_w`` ``[embed_dim, out_dim]`` (``x @ w``: the transposes of
    torch's ``in_proj_weight`` blocks and ``out_proj.weight``), and biases ``q_b``, ``k_b``,
    ``v_b`` ``[embed_dim]``, ``out_b`` ``[out_dim]``.

    Call: ``mha(query, key=None, value=None, *, mask=None, key_mask=None, is_causal=False,
    return_attention_weights=False)``: ``query`` ``[batch, l_q, embed_dim]``, ``key`` ``[batch,
    l_k, key_dim]`` and ``value`` ``[batch, l_k, value_dim]`` (the first two axes swapped with
    ``batch_first=False``); ``key`` defaults to ``query`` (self-attention), ``value`` to ``key``;
    ``mask`` broadcastable to ``[batch, num_heads, l_q, l_k]`` (``[batch, l_q, l_k]`` applies to
    every head), boolean (``True``: may attend) or additive; ``key_mask`` ``[batch, l_k]``
    boolean, ``True`` for real keys (torch's ``key_padding_mask`` negated); ``is_causal``: query
    ``i`` attends to keys ``j <= i``. The masks are batch-major in either layout. Returns
    ``[batch, l_q, out_dim]`` (``[l_q, batch, out_dim]`` with ``batch_first=False``), and with
    ``return_attention_weights`` also the weights ``[batch, num_heads, l_q, l_k]``.

    Args:
        embed_dim: total size of the heads (and default size of every input and the output).
        num_heads: number of heads; must divide ``embed_dim``.
        key_dim: size of the key features; default ``embed_dim``.
        value_dim: size of the value features; default ``embed_dim``.
        out_dim: size of the output; default ``embed_dim``.
        with_bias: whether to have the biases.
        dropout: dropout on the attention weights, in training mode.
        rotary: apply a :class:`RotaryEmbedding` to each head's queries and keys (``True``: the
            default one for the head size).
        batch_first: the sequence layout of the query, key, value and output: ``True`` (default,
            Keras' layout) ``[batch, length, features]``; ``False`` (torch's default) ``[length,
            batch, features]``.
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
        dropout: float = 0.0,
        rotary: bool | RotaryEmbedding = False,
        batch_first: bool = True,
        weight_initializer: Initializer | None = None,
        **kwargs: Any,
    ) -> None:
        if embed_dim % num_heads:
            raise ValueError(f"MultiHeadAttention: {num_heads} heads do not divide embed_dim {embed_dim}")
        self.embed_dim, self.num_heads = embed_dim, num_heads
        self.key_dim, self.value_dim = key_dim or embed_dim, value_dim or embed_dim
        self.out_dim, self.with_bias, self.dropout = out_dim or embed_dim, with_bias, dropout
        self.batch_first = batch_first
        self.rotary = RotaryEmbedding(embed_dim // num_heads) if rotary is True else (rotary or None)
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

    def _proj(self, x: Any, name: str) -> Any:
        v = self._vars
        # ivy.linear (x @ w.T + b) of the transposed weight: one fused product-and-bias where the
        # framework has it (torch's addmm), and the leading axes folded where a broadcast matmul
        # would be a batched product (TensorFlow's BatchMatMulV2, whose weight gradient sums over
        # the batch)
        return ivy.linear(x, ivy.matrix_transpose(v[f"{name}_w"]), v[f"{name}_b"] if self.with_bias else None)

    def _forward(
        self,
        query: Any,
        key: Any = None,
        value: Any = None,
        *,
        mask: Any = None,
        key_mask: Any = None,
        is_causal: bool = False,
        return_attention_weights: bool = False,
    ) -> Any:
        key = query if key is None else key
        value = key if value is None else value
        inputs = {"query": query, "key": key, "value": value}
        for name, dim in (("query", self.embed_dim), ("key", self.key_dim), ("value", self.value_dim)):
            check_sequence(self, inputs[name], self.batch_first, dim, what=name, length="length")
        ax = 0 if self.batch_first else 1
        check_batch(
            self,
            self.batch_first,
            {n: size(x.shape[ax]) for n, x in inputs.items()},
            {n: size(x.shape[1 - ax]) for n, x in inputs.items()},
        )
        lk, lv = size(key.shape[1 - ax]), size(value.shape[1 - ax])
        if lk is not None and lv is not None and lk != lv:
            raise ValueError(
                f"MultiHeadAttention: the key and value must have the same length (axis {1 - ax}), "
                f"got shapes {tuple(key.shape)} and {tuple(value.shape)}"
            )
        if not self.batch_first:  # batch-major within; the output back to the layer's layout
            swapped = ivy.permute_dims(query, (1, 0, 2))
            key = swapped if key is query else ivy.permute_dims(key, (1, 0, 2))
            value = key if value is inputs["key"] else ivy.permute_dims(value, (1, 0, 2))
            query = swapped
        hd = self.embed_dim // self.num_heads

        def heads(x: Any) -> Any:  # [b, l, e] -> [b, l, heads, hd]
            return ivy.reshape(x, (x.shape[0], x.shape[1], self.num_heads, hd))

        q, k, v = heads(self._proj(query, "q")), heads(self._proj(key, "k")), heads(self._proj(value, "v"))
        if self.rotary is not None:
            q, k = self.rotary(q), self.rotary(k)
        q, k, v = (ivy.permute_dims(t, (0, 2, 1, 3)) for t in (q, k, v))  # [b, heads, l, hd]
        if mask is not None and len(mask.shape) == 3:
            mask = ivy.expand_dims(mask, axis=1)  # one mask for every head
        mask = _combine_masks(mask, key_mask, q)
        p = self.dropout if self.training else 0.0
        if return_attention_weights:
            o, weights = self._attend(q, k, v, mask, is_causal, p)
        else:
            o = ivy.scaled_dot_product_attention(q, k, v, mask=mask, is_causal=is_causal, dropout_p=p)
        o = ivy.permute_dims(o, (0, 2, 1, 3))
        o = self._proj(ivy.reshape(o, (o.shape[0], o.shape[1], self.embed_dim)), "out")
        if not self.batch_first:
            o = ivy.permute_dims(o, (1, 0, 2))
        return (o, weights) if return_attention_weights else o

    def _attend(self, q: Any, k: Any, v: Any, mask: Any, is_causal: bool, p: float) -> tuple[Any, Any]:
        scores = ivy.matmul(q, ivy.matrix_transpose(k)) * (1.0 / math.sqrt(int(q.shape[-1])))
        lq, lk = int(q.shape[-2]), int(k.shape[-2])
        if is_causal:
            causal = ivy.tril(ivy.ones((lq, lk), dtype="bool", device=ivy.dev(q), backend=ivy.namespace(q)))
            mask = (
                causal
                if mask is None
                else (ivy.logical_and(mask, causal) if is_bool(mask) else ivy.where(causal, mask, float("-inf")))
            )
        if mask is not None:
            scores = ivy.where(mask, scores, float("-inf")) if is_bool(mask) else scores + mask
        weights = ivy.softmax(scores, axis=-1)
        dropped = ivy.dropout(weights, p, training=True) if p else weights
        return ivy.matmul(dropped, v), weights


def _activation(activation: str | Callable[[Any], Any]) -> Callable[[Any], Any]:
    if callable(activation):
        return activation
    if activation not in ("relu", "gelu", "silu"):
        raise ValueError(f"activation must be 'relu', 'gelu', 'silu' or a function, got {activation!r}")
    return getattr(ivy, activation)


class _Block(Module):
    # set by the subclasses' constructors
    d_model: int
    num_heads: int
    dim_feedforward: int
    dropout_prob: float
    norm_first: bool
    batch_first: bool
    activation: str | Callable[[Any], Any]
    linear1: Any
    linear2: Any
    dropout: Any

    def extra_repr(self) -> str:
        act = self.activation if isinstance(self.activation, str) else getattr(self.activation, "__name__", "fn")
        return (
            f"d_model={self.d_model}, num_heads={self.num_heads}, dim_feedforward={self.dim_feedforward}, "
            f"dropout={self.dropout_prob}, activation={act}, norm_first={self.norm_first}"
            + ("" if self.batch_first else ", batch_first=False")
        )

    def _check(self, what: str, x: Any) -> None:
        check_sequence(self, x, self.batch_first, self.d_model, what=what, length="length")

    def _ff(self, x: Any) -> Any:
        return self.linear2(self.dropout(_activation(self.activation)(self.linear1(x))))


class TransformerEncoderLayer(_Block):
    """A transformer encoder block (torch's ``TransformerEncoderLayer``, batch-major by default:
    pass ``batch_first=False`` for torch's default layout): self-attention and a feed-forward
    network (``linear1``, activation, ``linear2``), each with dropout and a residual connection,
    and layer norms: after each residual (``norm_first=False``, the paper's post-norm) or before
    each sublayer (``True``, pre-norm).

    Submodules: ``self_attn`` (:class:`MultiHeadAttention`), ``linear1`` ``[d_model ->
    dim_feedforward]``, ``linear2``, ``norm1``, ``norm2``, ``dropout``, ``dropout1``, ``dropout2``.

    Call: ``layer(x, *, mask=None, key_mask=None, is_causal=False)``, ``x`` ``[batch, length,
    d_model]`` (``[length, batch, d_model]`` with ``batch_first=False``), the output likewise;
    masks as for :class:`MultiHeadAttention` (batch-major in either layout).

    Args:
        d_model: feature size.
        num_heads: attention heads.
        dim_feedforward: hidden size of the feed-forward network.
        dropout: dropout probability (attention weights, feed-forward hidden, residual branches).
        activation: ``"relu"`` (default), ``"gelu"``, ``"silu"`` or a function.
        norm_first: pre-norm instead of post-norm.
        layer_norm_eps: the layer norms' ``eps``.
        batch_first: the sequence layout of the input and output: ``True`` (default, Keras'
            layout) ``[batch, length, d_model]``; ``False`` (torch's default) ``[length, batch,
            d_model]``.
        **kwargs: see :class:`Module`.
    """

    def __init__(
        self,
        d_model: int,
        num_heads: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        *,
        activation: str | Callable[[Any], Any] = "relu",
        norm_first: bool = False,
        layer_norm_eps: float = 1e-5,
        batch_first: bool = True,
        **kwargs: Any,
    ) -> None:
        self.d_model, self.num_heads, self.dim_feedforward = d_model, num_heads, dim_feedforward
        self.dropout_prob, self.activation, self.norm_first = dropout, activation, norm_first
        self.layer_norm_eps, self.batch_first = layer_norm_eps, batch_first
        _activation(activation)
        self.self_attn = MultiHeadAttention(d_model, num_heads, dropout=dropout, batch_first=batch_first)
        self.linear1 = Linear(d_model, dim_feedforward)
        self.linear2 = Linear(dim_feedforward, d_model)
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps)
        self.dropout, self.dropout1, self.dropout2 = Dropout(dropout), Dropout(dropout), Dropout(dropout)
        Module.__init__(self, **kwargs)

    def _sa(self, x: Any, mask: Any, key_mask: Any, is_causal: bool) -> Any:
        return self.dropout1(self.self_attn(x, mask=mask, key_mask=key_mask, is_causal=is_causal))

    def _forward(self, x: Any, *, mask: Any = None, key_mask: Any = None, is_causal: bool = False) -> Any:
        self._check("input", x)
        if self.norm_first:
            x = x + self._sa(self.norm1(x), mask, key_mask, is_causal)
            return x + self.dropout2(self._ff(self.norm2(x)))
        x = self.norm1(x + self._sa(x, mask, key_mask, is_causal))
        return self.norm2(x + self.dropout2(self._ff(x)))


class TransformerDecoderLayer(_Block):
    """A transformer decoder block (torch's ``TransformerDecoderLayer``, batch-major by default:
    pass ``batch_first=False`` for torch's default layout): self-attention, cross-attention to the
    encoder's output (``memory``) and a feed-forward network, each with dropout, a residual
    connection and a layer norm (post-norm, or pre-norm with ``norm_first``).

    Submodules: ``self_attn``, ``cross_attn`` (torch's ``multihead_attn``), ``linear1``,
    ``linear2``, ``norm1``, ``norm2``, ``norm3``, ``dropout``, ``dropout1..3``.

    Call: ``layer(x, memory, *, mask=None, memory_mask=None, key_mask=None, memory_key_mask=None,
    is_causal=False)``, ``x`` ``[batch, length, d_model]`` and ``memory`` ``[batch,
    memory_length, d_model]`` (the first two axes swapped with ``batch_first=False``), the output
    as ``x``; masks as for :class:`MultiHeadAttention`, batch-major in either layout (``mask`` /
    ``key_mask`` for the self-attention, ``memory_mask`` / ``memory_key_mask`` for the
    cross-attention).

    Args: as for :class:`TransformerEncoderLayer`.
    """

    def __init__(
        self,
        d_model: int,
        num_heads: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        *,
        activation: str | Callable[[Any], Any] = "relu",
        norm_first: bool = False,
        layer_norm_eps: float = 1e-5,
        batch_first: bool = True,
        **kwargs: Any,
    ) -> None:
        self.d_model, self.num_heads, self.dim_feedforward = d_model, num_heads, dim_feedforward
        self.dropout_prob, self.activation, self.norm_first = dropout, activation, norm_first
        self.layer_norm_eps, self.batch_first = layer_norm_eps, batch_first
        _activation(activation)
        self.self_attn = MultiHeadAttention(d_model, num_heads, dropout=dropout, batch_first=batch_first)
        self.cross_attn = MultiHeadAttention(d_model, num_heads, dropout=dropout, batch_first=batch_first)
        self.linear1 = Linear(d_model, dim_feedforward)
        self.linear2 = Linear(dim_feedforward, d_model)
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps)
        self.norm3 = LayerNorm(d_model, eps=layer_norm_eps)
        self.dropout, self.dropout1 = Dropout(dropout), Dropout(dropout)
        self.dropout2, self.dropout3 = Dropout(dropout), Dropout(dropout)
        Module.__init__(self, **kwargs)

    def _forward(
        self,
        x: Any,
        memory: Any,
        *,
        mask: Any = None,
        memory_mask: Any = None,
        key_mask: Any = None,
        memory_key_mask: Any = None,
        is_causal: bool = False,
    ) -> Any:
        self._check("input", x)
        self._check("memory", memory)

        def sa(h: Any) -> Any:
            return self.dropout1(self.self_attn(h, mask=mask, key_mask=key_mask, is_causal=is_causal))

        def ca(h: Any) -> Any:
            return self.dropout2(self.cross_attn(h, memory, mask=memory_mask, key_mask=memory_key_mask))

        if self.norm_first:
            x = x + sa(self.norm1(x))
            x = x + ca(self.norm2(x))
            return x + self.dropout3(self._ff(self.norm3(x)))
        x = self.norm1(x + sa(x))
        x = self.norm2(x + ca(x))
        return self.norm3(x + self.dropout3(self._ff(x)))


class TransformerEncoder(Module):
    """``num_layers`` :class:`TransformerEncoderLayer` blocks (``layers/0``...), and an optional
    final layer norm (``final_norm``, customary with pre-norm blocks). Further arguments as for
    :class:`TransformerEncoderLayer` (``batch_first``: the sequence layout of every block); the
    call takes the same input and masks.
    """

    def __init__(
        self,
        num_layers: int,
        d_model: int,
        num_heads: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        *,
        activation: str | Callable[[Any], Any] = "relu",
        norm_first: bool = False,
        layer_norm_eps: float = 1e-5,
        final_norm: bool = False,
        batch_first: bool = True,
        **kwargs: Any,
    ) -> None:
        self.num_layers, self.final_norm, self.batch_first = num_layers, final_norm, batch_first
        self.layers = [
            TransformerEncoderLayer(
                d_model,
                num_heads,
                dim_feedforward,
                dropout,
                activation=activation,
                norm_first=norm_first,
                layer_norm_eps=layer_norm_eps,
                batch_first=batch_first,
            )
            for _ in range(num_layers)
        ]
        self.norm = LayerNorm(d_model, eps=layer_norm_eps) if final_norm else None
        Module.__init__(self, **kwargs)

    def _forward(self, x: Any, *, mask: Any = None, key_mask: Any = None, is_causal: bool = False) -> Any:
        for layer in self.layers:
            x = layer(x, mask=mask, key_mask=key_mask, is_causal=is_causal)
        return self.norm(x) if self.norm is not None else x


class TransformerDecoder(Module):
    """``num_layers`` :class:`TransformerDecoderLayer` blocks (``layers/0``...), and an optional
    final layer norm. Arguments as for :class:`TransformerEncoder`; the call takes ``(x, memory)``
    and the masks of :class:`TransformerDecoderLayer`.
    """

    def __init__(
        self,
        num_layers: int,
        d_model: int,
        num_heads: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        *,
        activation: str | Callable[[Any], Any] = "relu",
        norm_first: bool = False,
        layer_norm_eps: float = 1e-5,
        final_norm: bool = False,
        batch_first: bool = True,
        **kwargs: Any,
    ) -> None:
        self.num_layers, self.final_norm, self.batch_first = num_layers, final_norm, batch_first
        self.layers = [
            TransformerDecoderLayer(
                d_model,
                num_heads,
                dim_feedforward,
                dropout,
                activation=activation,
                norm_first=norm_first,
                layer_norm_eps=layer_norm_eps,
                batch_first=batch_first,
            )
            for _ in range(num_layers)
        ]
        self.norm = LayerNorm(d_model, eps=layer_norm_eps) if final_norm else None
        Module.__init__(self, **kwargs)

    def _forward(
        self,
        x: Any,
        memory: Any,
        *,
        mask: Any = None,
        memory_mask: Any = None,
        key_mask: Any = None,
        memory_key_mask: Any = None,
        is_causal: bool = False,
    ) -> Any:
        for layer in self.layers:
            x = layer(
                x,
                memory,
                mask=mask,
                memory_mask=memory_mask,
                key_mask=key_mask,
                memory_key_mask=memory_key_mask,
                is_causal=is_causal,
            )
        return self.norm(x) if self.norm is not None else x
