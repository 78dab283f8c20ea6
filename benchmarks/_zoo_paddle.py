"""The transpile stage's Hugging Face models written in ``paddle.nn``, as PaddleNLP, PaddleClas,
PaddleSpeech and PaddleMIX write them: BERT, ViT and Wav2Vec2 on ``paddle.nn.TransformerEncoder``,
ConvNeXt with its channels-first layer norm written out, CLIP's towers on
``paddle.nn.MultiHeadAttention`` (its quick GELU is not one of the encoder layer's activations).
Same configurations, layouts (NCHW) and parameter counts as the torch models of
``bench_transpile.py``; paddle's own initial weights."""

from __future__ import annotations

from typing import Any

import paddle
import paddle.nn.functional as F
from paddle import nn

__all__ = ["paddle_model"]

WIDTH, HEADS, FFN = 64, 4, 128


def paddle_model(name: str) -> nn.Layer:
    """The paddle twin of the stage's program ``name`` (``bert``, ``vit`` or ``convnext``)."""
    return {"bert": Bert, "vit": ViT, "convnext": ConvNeXt, "wav2vec2": Wav2Vec2, "clip": Clip}[name]()


def _encoder(pre_norm: bool, eps: float = 1e-12) -> nn.TransformerEncoder:
    layer = nn.TransformerEncoderLayer(
        WIDTH, HEADS, FFN, dropout=0.0, activation="gelu", normalize_before=pre_norm, layer_norm_eps=eps
    )
    # a pre-norm stack ends in a layer norm (ViT's), a post-norm one has it in its last layer
    return nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(WIDTH, epsilon=eps) if pre_norm else None)


class Bert(nn.Layer):
    """BERT: word, position and token-type embeddings, post-norm layers, a tanh pooler."""

    def __init__(self, vocab: int = 100, positions: int = 64) -> None:
        super().__init__()
        self.word = nn.Embedding(vocab, WIDTH)
        self.position = nn.Embedding(positions, WIDTH)
        self.token_type = nn.Embedding(2, WIDTH)
        self.norm = nn.LayerNorm(WIDTH, epsilon=1e-12)
        self.encoder = _encoder(pre_norm=False)
        self.pooler = nn.Linear(WIDTH, WIDTH)

    def forward(self, ids: Any) -> tuple[Any, Any]:
        where = paddle.arange(ids.shape[1])
        h = self.norm(self.word(ids) + self.position(where) + self.token_type(paddle.zeros_like(ids)))
        h = self.encoder(h)
        return h, paddle.tanh(self.pooler(h[:, 0]))


class ViT(nn.Layer):
    """ViT: 8x8 patches of a 32x32 image, a class token, learned positions, pre-norm layers."""

    def __init__(self, patch: int = 8, image: int = 32) -> None:
        super().__init__()
        self.patches = nn.Conv2D(3, WIDTH, patch, stride=patch)
        init = nn.initializer.TruncatedNormal(std=0.02)
        self.cls = self.create_parameter([1, 1, WIDTH], default_initializer=init)
        self.position = self.create_parameter([1, (image // patch) ** 2 + 1, WIDTH], default_initializer=init)
        self.encoder = _encoder(pre_norm=True)
        self.pooler = nn.Linear(WIDTH, WIDTH)

    def forward(self, x: Any) -> tuple[Any, Any]:
        p = self.patches(x).flatten(2).transpose([0, 2, 1])
        h = paddle.concat([self.cls.expand([x.shape[0], 1, WIDTH]), p], axis=1) + self.position
        h = self.encoder(h)
        return h, paddle.tanh(self.pooler(h[:, 0]))


class ChannelsFirstNorm(nn.Layer):
    """Layer norm over the channels of an NCHW map (PaddleClas' ConvNeXt writes it so)."""

    def __init__(self, channels: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.weight = self.create_parameter([channels], default_initializer=nn.initializer.Constant(1.0))
        self.bias = self.create_parameter([channels], is_bias=True)
        self.eps = eps

    def forward(self, x: Any) -> Any:
        mean = x.mean(1, keepdim=True)
        var = (x - mean).pow(2).mean(1, keepdim=True)
        x = (x - mean) / paddle.sqrt(var + self.eps)
        return self.weight[:, None, None] * x + self.bias[:, None, None]


class Block(nn.Layer):
    """A ConvNeXt block: 7x7 depthwise convolution, layer norm, inverted bottleneck, layer scale."""

    def __init__(self, c: int) -> None:
        super().__init__()
        self.dwconv = nn.Conv2D(c, c, 7, padding=3, groups=c)
        self.norm = nn.LayerNorm(c, epsilon=1e-6)
        self.pwconv1 = nn.Linear(c, 4 * c)
        self.act = nn.GELU()
        self.pwconv2 = nn.Linear(4 * c, c)
        self.gamma = self.create_parameter([c], default_initializer=nn.initializer.Constant(1e-6))

    def forward(self, x: Any) -> Any:
        h = self.dwconv(x).transpose([0, 2, 3, 1])
        h = self.gamma * self.pwconv2(self.act(self.pwconv1(self.norm(h))))
        return x + h.transpose([0, 3, 1, 2])


class ConvNeXt(nn.Layer):
    """ConvNeXt: a 2x2 patch stem, two stages of two blocks (widths 32 and 64), a pooled norm."""

    def __init__(self, widths: tuple[int, int] = (32, 64)) -> None:
        super().__init__()
        a, b = widths
        self.stem = nn.Sequential(nn.Conv2D(3, a, 2, stride=2), ChannelsFirstNorm(a))
        self.stage1 = nn.Sequential(Block(a), Block(a))
        self.down = nn.Sequential(ChannelsFirstNorm(a), nn.Conv2D(a, b, 2, stride=2))
        self.stage2 = nn.Sequential(Block(b), Block(b))
        self.norm = nn.LayerNorm(b, epsilon=1e-12)

    def forward(self, x: Any) -> tuple[Any, Any]:
        h = self.stage2(self.down(self.stage1(self.stem(x))))
        return h, self.norm(h.mean([2, 3]))


class Wav2Vec2(nn.Layer):
    """Wav2Vec2: a convolutional feature encoder (group norm on its first layer), a projection, a
    weight-normed grouped positional convolution, post-norm layers."""

    def __init__(self, c: int = 32) -> None:
        super().__init__()
        init = nn.initializer.Uniform()
        self.masked_spec_embed = self.create_parameter([WIDTH], default_initializer=init)  # (pre-training's mask)
        self.conv0 = nn.Conv1D(1, c, 10, stride=5, bias_attr=False)
        self.group_norm = nn.GroupNorm(c, c)
        self.conv1 = nn.Conv1D(c, c, 3, stride=2, bias_attr=False)
        self.conv2 = nn.Conv1D(c, c, 3, stride=2, bias_attr=False)
        self.project_norm = nn.LayerNorm(c, epsilon=1e-5)
        self.project = nn.Linear(c, WIDTH)
        self.pos_conv = nn.utils.weight_norm(nn.Conv1D(WIDTH, WIDTH, 16, padding=8, groups=4), dim=2)
        self.norm = nn.LayerNorm(WIDTH, epsilon=1e-5)
        self.encoder = _encoder(pre_norm=False, eps=1e-5)

    def forward(self, wave: Any) -> Any:
        h = F.gelu(self.group_norm(self.conv0(wave.unsqueeze(1))))
        h = F.gelu(self.conv2(F.gelu(self.conv1(h))))
        h = self.project(self.project_norm(h.transpose([0, 2, 1])))
        pos = F.gelu(self.pos_conv(h.transpose([0, 2, 1]))[:, :, :-1])  # (an even kernel: one step too many)
        return self.encoder(self.norm(h + pos.transpose([0, 2, 1])))


class ClipLayer(nn.Layer):
    """A pre-norm transformer layer with CLIP's quick GELU, ``x * sigmoid(1.702 x)``."""

    def __init__(self) -> None:
        super().__init__()
        self.norm1 = nn.LayerNorm(WIDTH, epsilon=1e-5)
        self.attention = nn.MultiHeadAttention(WIDTH, HEADS)
        self.norm2 = nn.LayerNorm(WIDTH, epsilon=1e-5)
        self.fc1 = nn.Linear(WIDTH, FFN)
        self.fc2 = nn.Linear(FFN, WIDTH)

    def forward(self, h: Any, mask: Any = None) -> Any:
        a = self.norm1(h)
        h = h + self.attention(a, a, a, attn_mask=mask)
        m = self.fc1(self.norm2(h))
        return h + self.fc2(m * F.sigmoid(1.702 * m))


class Clip(nn.Layer):
    """CLIP: a causal text tower and a ViT image tower, projected to 32 and compared by cosine."""

    def __init__(self, vocab: int = 100, positions: int = 32, eos: int = 1, patch: int = 8, image: int = 32) -> None:
        super().__init__()
        self.eos = eos
        self.token = nn.Embedding(vocab, WIDTH)
        self.text_position = nn.Embedding(positions, WIDTH)
        self.text_layers = nn.LayerList([ClipLayer(), ClipLayer()])
        self.text_norm = nn.LayerNorm(WIDTH, epsilon=1e-5)
        self.patches = nn.Conv2D(3, WIDTH, patch, stride=patch, bias_attr=False)
        self.cls = self.create_parameter([WIDTH], default_initializer=nn.initializer.Normal())
        self.image_position = nn.Embedding((image // patch) ** 2 + 1, WIDTH)
        self.pre_norm = nn.LayerNorm(WIDTH, epsilon=1e-5)
        self.image_layers = nn.LayerList([ClipLayer(), ClipLayer()])
        self.post_norm = nn.LayerNorm(WIDTH, epsilon=1e-5)
        self.text_projection = nn.Linear(WIDTH, 32, bias_attr=False)
        self.image_projection = nn.Linear(WIDTH, 32, bias_attr=False)
        self.logit_scale = self.create_parameter([], default_initializer=nn.initializer.Constant(2.6592))

    def encode_text(self, ids: Any) -> Any:
        n = ids.shape[1]
        h = self.token(ids) + self.text_position(paddle.arange(n))
        causal = paddle.triu(paddle.full([n, n], float("-inf")), 1)
        for layer in self.text_layers:
            h = layer(h, causal)
        h = self.text_norm(h)
        last = (ids == self.eos).astype("int32").argmax(-1)  # each text's end token
        return self.text_projection(h[paddle.arange(ids.shape[0]), last])

    def encode_image(self, x: Any) -> Any:
        p = self.patches(x).flatten(2).transpose([0, 2, 1])
        h = paddle.concat([self.cls.expand([x.shape[0], 1, WIDTH]), p], axis=1)
        h = self.pre_norm(h + self.image_position(paddle.arange(h.shape[1])))
        for layer in self.image_layers:
            h = layer(h)
        return self.image_projection(self.post_norm(h[:, 0]))

    def forward(self, ids: Any, images: Any) -> tuple[Any, Any]:
        text = F.normalize(self.encode_text(ids), axis=-1)
        image = F.normalize(self.encode_image(images), axis=-1)
        per_image = self.logit_scale.exp() * image @ text.T
        return per_image, per_image.T
