"""The transpile stage's programs written natively in the target framework, as that framework's
users write them: Flax (linen) for JAX, Keras layers for TensorFlow, ``paddle.nn`` for paddle:
what a transpiled model on those targets is measured against, besides torch.

Each twin has the source program's architecture and trainable-parameter count (checked: a
different count raises) and takes the same example inputs, laid out as the framework prefers
(images NHWC for Flax and Keras: TensorFlow's CPU convolutions take no other layout). The
Hugging Face models (BERT, ViT, ConvNeXt) are written as those frameworks' model zoos write
them: the framework's transformer layers (``paddle.nn.TransformerEncoderLayer``, Keras'
``MultiHeadAttention``), a channels-first layer norm in paddle as PaddleClas' ConvNeXt has it;
paddle also has Wav2Vec2 and CLIP (PaddleSpeech's and PaddleMIX's layouts); paddle and
TensorFlow have kornia's ``rgb_to_hsv``, ``sobel`` and ``dilation`` written by hand (``_zoo_kornia.py``).
Each runs as the transpiled program runs in the stage: the Flax model's ``apply`` under
``jax.jit``, the Keras model under ``tf.function`` (inference), the paddle layer eagerly under
``paddle.no_grad``. The weights are the framework's own initial ones (speed does not depend on
them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ivy
from benchmarks._zoo_kornia import KORNIA_TWINS, kornia_twin

__all__ = ["TWINS", "native_twin"]

#: the programs that have a native twin in each target
TWINS = {
    "jax": ("mlp", "cnn", "encoder"),
    "tensorflow": ("mlp", "cnn", "encoder", "bert", "vit", "convnext", *KORNIA_TWINS),
    "paddle": ("mlp", "cnn", "encoder", "bert", "vit", "convnext", "wav2vec2", "clip", *KORNIA_TWINS),
}
#: the programs whose input is an image batch (NCHW in torch and paddle, NHWC for Keras)
_IMAGES = ("cnn", "vit", "convnext")


def native_twin(name: str, target: str, source: Any, args: tuple[Any, ...]) -> Callable[[], Any] | None:
    """One inference call of ``name`` written natively in ``target`` on ``args`` (the torch example
    inputs, converted once), or None where the stage has no twin for it."""
    if name not in TWINS.get(target, ()):
        return None
    xs = [a.numpy() for a in args]
    if name in KORNIA_TWINS:
        fn = kornia_twin(name, target)
        xin = [ivy.asarray(x, backend=target) for x in xs]
        return lambda: fn(*xin)
    want = sum(p.numel() for p in source.parameters() if p.requires_grad)
    if target == "jax":
        import jax

        try:
            from benchmarks._zoo_flax import flax_model
        except ImportError:  # (flax comes with ivy-jax's optional "flax" extra)
            return None
        module = flax_model(name)
        xj = jax.numpy.asarray(xs[0].transpose(0, 2, 3, 1) if name in _IMAGES else xs[0])
        variables = module.init(jax.random.PRNGKey(0), xj)
        _check(name, target, sum(int(p.size) for p in jax.tree_util.tree_leaves(variables["params"])), want)
        apply = jax.jit(module.apply)
        return lambda: apply(variables, xj)
    if target == "tensorflow":
        import tensorflow as tf

        model = _keras(name)
        xin = tf.constant(xs[0].transpose(0, 2, 3, 1) if name in _IMAGES else xs[0])
        call = tf.function(lambda a: model(a, training=False))
        call(xin)  # (a subclassed Keras model makes its weights on its first call)
        got = sum(int(w.numpy().size) for w in model.trainable_weights)
        _check(name, target, got, want)
        return lambda: call(xin)
    import paddle

    layer = _paddle(name)
    layer.eval()
    got = sum(int(p.size) for p in layer.parameters() if not p.stop_gradient)
    _check(name, target, got, want)
    xin = [paddle.to_tensor(x) for x in xs]

    def run() -> Any:
        with paddle.no_grad():
            return layer(*xin)

    return run


def _check(name: str, target: str, got: int, want: int) -> None:
    if got != want:
        raise AssertionError(f"the native {target} {name} has {got} trainable parameters, the torch one {want}")


def _keras(name: str) -> Any:
    import keras

    from benchmarks._zoo_keras import gelu, keras_model  # (gelu: torch's exact form)

    L = keras.layers

    if name in ("bert", "vit", "convnext"):
        return keras_model(name)
    if name == "mlp":
        return keras.Sequential(
            [keras.Input((256,)), L.Dense(512, activation=gelu), L.Dense(256, activation=gelu), L.Dense(10)]
        )
    if name == "cnn":
        return keras.Sequential(
            [
                keras.Input((32, 32, 3)),
                L.Conv2D(16, 3, padding="same"),
                L.BatchNormalization(epsilon=1e-5),
                L.ReLU(),
                L.Conv2D(32, 3, strides=2, padding="same"),
                L.BatchNormalization(epsilon=1e-5),
                L.ReLU(),
                L.GlobalAveragePooling2D(),
                L.Dense(10),
            ]
        )
    # torch's TransformerEncoderLayer(64, 4, 128, batch_first=True): post-norm, ReLU
    inp = keras.Input((32, 64))
    h = L.LayerNormalization(epsilon=1e-5)(inp + L.MultiHeadAttention(4, 16)(inp, inp))
    ff = L.Dense(64)(L.Dense(128, activation="relu")(h))
    return keras.Model(inp, L.LayerNormalization(epsilon=1e-5)(h + ff))


def _paddle(name: str) -> Any:
    from paddle import nn

    if name in ("bert", "vit", "convnext", "wav2vec2", "clip"):
        from benchmarks._zoo_paddle import paddle_model

        return paddle_model(name)
    if name == "mlp":
        return nn.Sequential(nn.Linear(256, 512), nn.GELU(), nn.Linear(512, 256), nn.GELU(), nn.Linear(256, 10))
    if name == "cnn":
        return nn.Sequential(
            nn.Conv2D(3, 16, 3, padding=1),
            nn.BatchNorm2D(16),
            nn.ReLU(),
            nn.Conv2D(16, 32, 3, stride=2, padding=1),
            nn.BatchNorm2D(32),
            nn.ReLU(),
            nn.AdaptiveAvgPool2D(1),
            nn.Flatten(),
            nn.Linear(32, 10),
        )
    return nn.TransformerEncoderLayer(64, 4, 128, dropout=0.0)
