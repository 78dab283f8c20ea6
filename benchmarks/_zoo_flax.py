"""The transpile stage's MLP, CNN and transformer encoder written in Flax (linen), as Flax's
examples write them, run as ``jax.jit(model.apply)``: what the stage's JAX target is measured
against besides torch. Same layer sizes and trainable-parameter counts as the torch programs of
``bench_transpile.py``; images NHWC (Flax's layout); Flax's own initial weights."""

from __future__ import annotations

from typing import Any

import flax.linen as nn
import jax

__all__ = ["flax_model"]


def flax_model(name: str) -> nn.Module:
    """The Flax twin of the stage's program ``name`` (``mlp``, ``cnn`` or ``encoder``)."""
    return {"mlp": Mlp, "cnn": Cnn, "encoder": Encoder}[name]()


def gelu(h: Any) -> Any:  # torch's nn.GELU: the exact form (Flax's default is the tanh one)
    return jax.nn.gelu(h, approximate=False)


class Mlp(nn.Module):
    @nn.compact
    def __call__(self, x: Any) -> Any:
        x = gelu(nn.Dense(512)(x))
        x = gelu(nn.Dense(256)(x))
        return nn.Dense(10)(x)


class Cnn(nn.Module):
    @nn.compact
    def __call__(self, x: Any) -> Any:
        for width, stride in ((16, 1), (32, 2)):
            x = nn.Conv(width, (3, 3), strides=stride, padding=1)(x)
            x = nn.relu(nn.BatchNorm(use_running_average=True, epsilon=1e-5)(x))
        return nn.Dense(10)(x.mean(axis=(1, 2)))


class Encoder(nn.Module):
    """torch's ``TransformerEncoderLayer(64, 4, 128, batch_first=True)``: post-norm, ReLU."""

    @nn.compact
    def __call__(self, x: Any) -> Any:
        x = nn.LayerNorm(epsilon=1e-5)(x + nn.MultiHeadDotProductAttention(num_heads=4)(x, x))
        return nn.LayerNorm(epsilon=1e-5)(x + nn.Dense(64)(nn.relu(nn.Dense(128)(x))))
