"""The transpile stage's programs written natively in the target framework, as that framework's
users write them: Keras layers for TensorFlow, ``paddle.nn`` for paddle: what a transpiled model
on those targets is measured against, where the framework has such a version.

Each twin has the source program's architecture and trainable-parameter count (checked: a
different count raises) and takes the same example inputs, laid out as the framework prefers
(images NHWC for Keras: TensorFlow's CPU convolutions take no other layout). It runs as the
transpiled program runs in the stage: the Keras model under ``tf.function`` (inference), the
paddle layer eagerly under ``paddle.no_grad``. The weights are the framework's own initial ones
(speed does not depend on them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["TWINS", "native_twin"]

#: the programs that have a native twin in each target
TWINS = {"tensorflow": ("mlp", "cnn", "encoder"), "paddle": ("mlp", "cnn", "encoder")}


def native_twin(name: str, target: str, source: Any, args: tuple[Any, ...]) -> Callable[[], Any] | None:
    """One inference call of ``name`` written natively in ``target`` on ``args`` (the torch example
    inputs, converted once), or None where the stage has no twin for it."""
    if name not in TWINS.get(target, ()):
        return None
    want = sum(p.numel() for p in source.parameters() if p.requires_grad)
    x = args[0].numpy()
    if target == "tensorflow":
        import tensorflow as tf

        model = _keras(name)
        got = sum(int(w.numpy().size) for w in model.trainable_weights)
        xin = tf.constant(x.transpose(0, 2, 3, 1) if name == "cnn" else x)
        call = tf.function(lambda a: model(a, training=False))
        _check(name, target, got, want)
        return lambda: call(xin)
    import paddle

    layer = _paddle(name)
    layer.eval()
    got = sum(int(p.size) for p in layer.parameters() if not p.stop_gradient)
    _check(name, target, got, want)
    xin = paddle.to_tensor(x)

    def run() -> Any:
        with paddle.no_grad():
            return layer(xin)

    return run


def _check(name: str, target: str, got: int, want: int) -> None:
    if got != want:
        raise AssertionError(f"the native {target} {name} has {got} trainable parameters, the torch one {want}")


def _keras(name: str) -> Any:
    import keras

    L = keras.layers

    def gelu(h: Any) -> Any:  # torch's nn.GELU: the exact form (Keras' default is the tanh one)
        return keras.activations.gelu(h, approximate=False)

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
