"""The transpile stage's Hugging Face models written with Keras 3 layers, as Keras users write
them: subclassed layers on ``MultiHeadAttention``, ``DepthwiseConv2D`` and ``LayerNormalization``,
images NHWC. Same configurations and parameter counts as the torch models of
``bench_transpile.py``; Keras' own initial weights."""

from __future__ import annotations

from typing import Any

import keras
from keras import layers as L
from keras import ops

__all__ = ["keras_model"]

WIDTH, HEADS, FFN = 64, 4, 128


def keras_model(name: str) -> keras.Model:
    """The Keras twin of the stage's program ``name`` (``bert``, ``vit`` or ``convnext``)."""
    return {"bert": Bert, "vit": ViT, "convnext": ConvNeXt}[name]()


def gelu(h: Any) -> Any:  # the exact form, as torch's and Hugging Face's (Keras' default is tanh's)
    return keras.activations.gelu(h, approximate=False)


class EncoderLayer(L.Layer):
    """A transformer layer: attention and a GELU feed-forward, each with a residual and a norm."""

    def __init__(self, pre_norm: bool) -> None:
        super().__init__()
        self.pre_norm = pre_norm
        self.attention = L.MultiHeadAttention(HEADS, WIDTH // HEADS)
        self.norm1 = L.LayerNormalization(epsilon=1e-12)
        self.norm2 = L.LayerNormalization(epsilon=1e-12)
        self.up = L.Dense(FFN, activation=gelu)
        self.down = L.Dense(WIDTH)

    def call(self, h: Any) -> Any:
        if self.pre_norm:
            a = self.norm1(h)
            h = h + self.attention(a, a)
            return h + self.down(self.up(self.norm2(h)))
        h = self.norm1(h + self.attention(h, h))
        return self.norm2(h + self.down(self.up(h)))


class Bert(keras.Model):
    """BERT: word, position and token-type embeddings, post-norm layers, a tanh pooler."""

    def __init__(self, vocab: int = 100, positions: int = 64) -> None:
        super().__init__()
        self.word = L.Embedding(vocab, WIDTH)
        self.position = L.Embedding(positions, WIDTH)
        self.token_type = L.Embedding(2, WIDTH)
        self.norm = L.LayerNormalization(epsilon=1e-12)
        self.layers_ = [EncoderLayer(pre_norm=False) for _ in range(2)]
        self.pooler = L.Dense(WIDTH, activation="tanh")

    def call(self, ids: Any) -> tuple[Any, Any]:
        where = ops.arange(ops.shape(ids)[1])
        h = self.norm(self.word(ids) + self.position(where) + self.token_type(ops.zeros_like(ids)))
        for layer in self.layers_:
            h = layer(h)
        return h, self.pooler(h[:, 0])


class ViT(keras.Model):
    """ViT: 8x8 patches of a 32x32 image, a class token, learned positions, pre-norm layers."""

    def __init__(self, patch: int = 8, image: int = 32) -> None:
        super().__init__()
        self.patches = L.Conv2D(WIDTH, patch, strides=patch)
        init = keras.initializers.TruncatedNormal(stddev=0.02)
        self.cls = self.add_weight(shape=(1, 1, WIDTH), initializer=init, name="cls")
        self.position = self.add_weight(shape=(1, (image // patch) ** 2 + 1, WIDTH), initializer=init, name="position")
        self.layers_ = [EncoderLayer(pre_norm=True) for _ in range(2)]
        self.norm = L.LayerNormalization(epsilon=1e-12)
        self.pooler = L.Dense(WIDTH, activation="tanh")

    def call(self, x: Any) -> tuple[Any, Any]:
        p = self.patches(x)
        p = ops.reshape(p, (ops.shape(p)[0], -1, WIDTH))
        cls = ops.broadcast_to(self.cls, (ops.shape(p)[0], 1, WIDTH))
        h = ops.concatenate([cls, p], axis=1) + self.position
        for layer in self.layers_:
            h = layer(h)
        h = self.norm(h)
        return h, self.pooler(h[:, 0])


class LayerScale(L.Layer):
    """A learned per-channel scale, started small (ConvNeXt's ``gamma``)."""

    def build(self, shape: Any) -> None:
        self.gamma = self.add_weight(shape=(shape[-1],), initializer=keras.initializers.Constant(1e-6), name="gamma")

    def call(self, h: Any) -> Any:
        return h * self.gamma


class Block(L.Layer):
    """A ConvNeXt block: 7x7 depthwise convolution, layer norm, inverted bottleneck, layer scale."""

    def __init__(self, c: int) -> None:
        super().__init__()
        self.dwconv = L.DepthwiseConv2D(7, padding="same")
        self.norm = L.LayerNormalization(epsilon=1e-6)
        self.pwconv1 = L.Dense(4 * c, activation=gelu)
        self.pwconv2 = L.Dense(c)
        self.scale = LayerScale()

    def call(self, x: Any) -> Any:
        return x + self.scale(self.pwconv2(self.pwconv1(self.norm(self.dwconv(x)))))


class ConvNeXt(keras.Model):
    """ConvNeXt: a 2x2 patch stem, two stages of two blocks (widths 32 and 64), a pooled norm."""

    def __init__(self, widths: tuple[int, int] = (32, 64)) -> None:
        super().__init__()
        a, b = widths
        self.stem = [L.Conv2D(a, 2, strides=2), L.LayerNormalization(epsilon=1e-6)]
        self.stage1 = [Block(a), Block(a)]
        self.down = [L.LayerNormalization(epsilon=1e-6), L.Conv2D(b, 2, strides=2)]
        self.stage2 = [Block(b), Block(b)]
        self.norm = L.LayerNormalization(epsilon=1e-12)

    def call(self, x: Any) -> tuple[Any, Any]:
        for layer in (*self.stem, *self.stage1, *self.down, *self.stage2):
            x = layer(x)
        return x, self.norm(ops.mean(x, axis=(1, 2)))
