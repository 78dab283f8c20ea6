"""Embedding layers: token :class:`Embedding`, and positional embeddings: learned
(:class:`LearnedPositionalEmbedding`), sinusoidal (:class:`SinusoidalPositionalEmbedding`) and
rotary (:class:`RotaryEmbedding`)."""

from __future__ import annotations

import math
from typing import Any

from .. import _api as ivy
from .initializers import Initializer, RandomNormal
from .module import Module

__all__ = ["Embedding", "LearnedPositionalEmbedding", "SinusoidalPositionalEmbedding", "RotaryEmbedding"]


class Embedding(Module):
    """Row lookup in ``w`` ``[num_embeddings, embedding_dim]`` (:func:`ivy.embedding`): integer
    indices of any shape in, ``[*indices.shape, embedding_dim]`` out.

    Args:
        num_embeddings: number of rows (the vocabulary size).
        embedding_dim: size of each row.
        max_norm: rows looked up with a larger L2 norm are rescaled to it (in the result only).
        padding_idx: a row set to zeros at initialisation.
        weight_initializer: default ``RandomNormal(0, 1)`` (as torch).
        **kwargs: see :class:`Module`.
    """

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        *,
        max_norm: float | None = None,
        padding_idx: int | None = None,
        weight_initializer: Initializer | None = None,
        **kwargs: Any,
    ) -> None:
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.max_norm, self.padding_idx = max_norm, padding_idx
        self.weight_initializer = weight_initializer or RandomNormal(0.0, 1.0)
        Module.__init__(self, **kwargs)

    def _create_variables(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        shape = (self.num_embeddings, self.embedding_dim)
        w = self.weight_initializer.create(
            shape, fan_in=shape[0], fan_out=shape[1], dtype=dtype, device=device, backend=backend
        )
        if self.padding_idx is not None:
            rows = ivy.arange(self.num_embeddings, device=device, backend=backend)
            w = ivy.where(ivy.expand_dims(rows == self.padding_idx, axis=-1), 0.0, w)
        return {"w": w}

    def _forward(self, indices: Any) -> Any:
        return ivy.embedding(self._vars.w, indices, max_norm=self.max_norm)


def _positions_axis(layer: Any, x: Any, dim: int, batch_first: bool) -> int:
    """The position axis of ``x`` in the layer's layout (``batch_first``); a ValueError naming
    that layout if ``x`` cannot hold it (rank below 2, or not ``dim`` features last)."""
    shape = tuple(x.shape)
    if len(shape) < 2 or (shape[-1] is not None and int(shape[-1]) != dim):
        layout = f"[batch, length, {dim}]" if batch_first else f"[length, batch, {dim}]"
        where = "positions on axis -2" if batch_first else "positions on axis 0, as torch's default"
        raise ValueError(
            f"{type(layer).__name__}(batch_first={batch_first}) expects {layout} ({where}; features last; "
            f"[length, {dim}] unbatched), got shape {shape}"
        )
    return len(shape) - 2 if batch_first else 0


def _add_positions(x: Any, pe: Any, batch_first: bool) -> Any:
    """``x + pe`` with ``pe`` ``[length, dim]`` laid along the position axis of ``x``."""
    if not batch_first and len(x.shape) > 2:  # [length, 1, ..., 1, dim]
        pe = ivy.reshape(pe, (int(pe.shape[0]), *([1] * (len(x.shape) - 2)), int(pe.shape[-1])))
    return x + pe


class LearnedPositionalEmbedding(Module):
    """A learned position embedding ``w`` ``[max_length, embedding_dim]`` (BERT, GPT-2), added to
    the input: ``x`` ``[batch, length, embedding_dim]`` -> ``x + w[offset:offset + length]``, row
    ``p`` added at position ``p`` (``[length, batch, embedding_dim]`` with ``batch_first=False``).

    Args:
        max_length: the longest sequence.
        embedding_dim: feature size.
        weight_initializer: default ``RandomNormal(0, 0.02)``.
        batch_first: the layout of ``x``: ``True`` (default, Keras') ``[batch, length, features]``
            (positions on axis -2, any leading axes); ``False`` (torch's default) ``[length, batch,
            features]`` (positions on axis 0). ``[length, features]`` (unbatched) reads alike in
            both. :class:`RotaryEmbedding` names its position axis ``seq_axis`` instead.
        **kwargs: see :class:`Module`.
    """

    def __init__(
        self,
        max_length: int,
        embedding_dim: int,
        *,
        weight_initializer: Initializer | None = None,
        batch_first: bool = True,
        **kwargs: Any,
    ) -> None:
        self.max_length, self.embedding_dim, self.batch_first = max_length, embedding_dim, batch_first
        self.weight_initializer = weight_initializer or RandomNormal(0.0, 0.02)
        Module.__init__(self, **kwargs)

    def _create_variables(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        shape = (self.max_length, self.embedding_dim)
        return {
            "w": self.weight_initializer.create(
                shape, fan_in=shape[1], fan_out=shape[1], dtype=dtype, device=device, backend=backend
            )
        }

    def _forward(self, x: Any, *, offset: int = 0) -> Any:
        n = int(x.shape[_positions_axis(self, x, self.embedding_dim, self.batch_first)])
        if offset + n > self.max_length:
            raise ValueError(
                f"LearnedPositionalEmbedding: positions up to {offset + n} asked, max_length is {self.max_length}"
            )
        return _add_positions(x, self._vars.w[offset : offset + n], self.batch_first)


def sinusoids(length: int, dim: int, *, base: float = 10000.0, offset: int = 0, like: Any) -> Any:
    """The sinusoidal encodings ``[length, dim]`` (Vaswani et al., 2017): ``pe[p, 2i] = sin(p / base^(2i/dim))``,
    ``pe[p, 2i + 1] = cos(p / base^(2i/dim))``, for positions ``offset..offset + length - 1``;
    dtype and device of ``like``."""
    kw = {"device": ivy.dev(like), "backend": ivy.namespace(like)}
    pos = ivy.astype(ivy.arange(offset, offset + length, **kw), like.dtype)
    half = ivy.astype(ivy.arange(0, dim, 2, **kw), like.dtype)
    angles = ivy.expand_dims(pos, axis=-1) * ivy.exp(half * (-math.log(base) / dim))
    pe = ivy.stack([ivy.sin(angles), ivy.cos(angles)], axis=-1)
    return ivy.reshape(pe, (length, -1))[:, :dim]


class SinusoidalPositionalEmbedding(Module):
    """Fixed sinusoidal position encodings (Vaswani et al., 2017) added to the input:
    ``x`` ``[batch, length, dim]`` -> ``x + pe[offset:offset + length]`` (``[length, batch,
    dim]`` with ``batch_first=False``), with
    ``pe[p, 2i] = sin(p / base^(2i/dim))`` and ``pe[p, 2i+1] = cos(p / base^(2i/dim))`` (Keras
    Hub's ``SinePositionEncoding`` layout); no variables.

    Args:
        embedding_dim: feature size.
        base: the wavelength scale (``max_wavelength`` in Keras Hub).
        scale_input: multiply ``x`` by ``sqrt(embedding_dim)`` first (as the paper's embeddings are).
        batch_first: the layout of ``x``: ``True`` (default, Keras') ``[batch, length, features]``
            (positions on axis -2, any leading axes); ``False`` (torch's default) ``[length, batch,
            features]`` (positions on axis 0). ``[length, features]`` (unbatched) reads alike in
            both. :class:`RotaryEmbedding` names its position axis ``seq_axis`` instead.
        **kwargs: see :class:`Module`.
    """

    def __init__(
        self,
        embedding_dim: int,
        *,
        base: float = 10000.0,
        scale_input: bool = False,
        batch_first: bool = True,
        **kwargs: Any,
    ) -> None:
        self.embedding_dim, self.base, self.scale_input = embedding_dim, base, scale_input
        self.batch_first = batch_first
        Module.__init__(self, **kwargs)

    def _forward(self, x: Any, *, offset: int = 0) -> Any:
        n = int(x.shape[_positions_axis(self, x, self.embedding_dim, self.batch_first)])
        if self.scale_input:
            x = x * math.sqrt(self.embedding_dim)
        pe = sinusoids(n, self.embedding_dim, base=self.base, offset=offset, like=x)
        return _add_positions(x, pe, self.batch_first)


class RotaryEmbedding(Module):
    """Rotary position embedding (RoPE, Su et al., 2021), applied to queries or keys: the
    features are split in pairs, and pair ``i`` at position ``p`` is rotated by the angle
    ``p * base^(-2i/dim)``. No variables.

    ``interleaved=False`` (default) pairs feature ``i`` with ``i + dim/2`` ("rotate half", as Keras
    Hub's ``RotaryEmbedding`` and Hugging Face's LLaMA); ``True`` pairs ``2i`` with ``2i + 1`` (the
    paper's, and Meta's LLaMA code).

    Args:
        dim: the feature size rotated (the last axis; even).
        base: the wavelength scale.
        interleaved: the pairing of features, see above.
        seq_axis: the position axis of the input, before the features (default 1: ``[batch,
            length, heads, dim]``; 0 for sequence-first ``[length, batch, heads, dim]``, the layout
            other layers name ``batch_first=False``).
        **kwargs: see :class:`Module`.
    """

    def __init__(
        self, dim: int, *, base: float = 10000.0, interleaved: bool = False, seq_axis: int = 1, **kwargs: Any
    ) -> None:
        if dim % 2:
            raise ValueError(f"RotaryEmbedding: dim must be even, got {dim}")
        self.dim, self.base, self.interleaved, self.seq_axis = dim, base, interleaved, seq_axis
        Module.__init__(self, **kwargs)

    def _forward(self, x: Any, *, offset: int = 0) -> Any:
        if len(x.shape) == 0 or int(x.shape[-1]) != self.dim:
            raise ValueError(
                f"RotaryEmbedding expects {self.dim} features on the last axis, got shape {tuple(x.shape)}"
            )
        rank = len(x.shape)
        if not -rank <= self.seq_axis < rank or self.seq_axis % rank == rank - 1:
            raise ValueError(
                f"RotaryEmbedding(seq_axis={self.seq_axis}) expects the positions on axis {self.seq_axis}, "
                f"an axis before the features (last), got shape {tuple(x.shape)}"
            )
        seq = self.seq_axis % rank
        n = int(x.shape[seq])
        kw = {"device": ivy.dev(x), "backend": ivy.namespace(x)}
        pos = ivy.astype(ivy.arange(offset, offset + n, **kw), x.dtype)
        inv = ivy.exp(ivy.astype(ivy.arange(0, self.dim, 2, **kw), x.dtype) * (-math.log(self.base) / self.dim))
        angles = ivy.expand_dims(pos, axis=-1) * inv  # [n, dim/2]
        # shaped [n, 1, ..., 1, dim/2] to broadcast against x (position axis `seq`, features last)
        shape = [n] + [1] * (len(x.shape) - seq - 2) + [self.dim // 2]
        cos, sin = ivy.reshape(ivy.cos(angles), tuple(shape)), ivy.reshape(ivy.sin(angles), tuple(shape))
        if self.interleaved:
            pairs = ivy.reshape(x, (*x.shape[:-1], self.dim // 2, 2))
            x1, x2 = pairs[..., 0], pairs[..., 1]
            out = ivy.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1)
            return ivy.reshape(out, tuple(x.shape))
        h = self.dim // 2
        x1, x2 = x[..., :h], x[..., h:]
        return ivy.concat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)
