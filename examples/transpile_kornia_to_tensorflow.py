"""Kornia, a torch library of differentiable computer vision, used from TensorFlow: the paper's
appendix snippet ``kornia = ivy.transpile(kornia, to="tensorflow")``, scaled to a CPU.

    python examples/transpile_kornia_to_tensorflow.py

``ivy.transpile`` on a Python package gives a lazy proxy of it: each kornia function is transpiled
on its first call for each call signature (array shapes and dtypes, other arguments), through
torch.export and Ivy's torch frontend, into a ``tf.function`` of TensorFlow's own ops; later calls
with that signature run that program directly. The script

1. calls a filter, a colour conversion, a geometric warp and an intensity adjustment of the
   transpiled kornia on TensorFlow tensors (NCHW images, as kornia takes them: layout is never
   changed), and checks each against kornia itself in torch on the same images;
2. differentiates through a transpiled function with ``tf.GradientTape`` and checks the gradient
   against torch's autograd of kornia;
3. uses the functions as the augmentation of a small Keras model trained with ``model.fit``;
4. prints how long the first call (the transpile) and a later call took.

Run it twice: the second run loads the transpiled graphs from the disk cache
(``~/.cache/ivy/transpile``, or ``$IVY_CACHE_DIR``), so its first calls are fast too.
"""

from __future__ import annotations

import functools
import logging
import os
import time

os.environ.setdefault("KERAS_BACKEND", "tensorflow")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import keras
import kornia
import numpy as np
import tensorflow as tf
import torch

import ivy

RTOL, ATOL = 1e-4, 1e-5


def _timed(fn: object, *args: object) -> tuple[object, float]:
    start = time.perf_counter()
    out = fn(*args)  # type: ignore[operator]
    return out, time.perf_counter() - start


def main() -> None:
    logging.basicConfig(format="%(name)s: %(message)s")
    logging.getLogger("ivy.transpile").setLevel(logging.INFO)  # each lazy transpile, as it happens

    tf_kornia = ivy.transpile(kornia, to="tensorflow")
    print(tf_kornia)

    rng = np.random.default_rng(0)
    images = rng.random((2, 3, 32, 32)).astype("float32")  # a batch of RGB images in [0, 1], NCHW
    angles = np.asarray([30.0, -45.0], "float32")
    x_tf, x_torch = tf.constant(images), torch.from_numpy(images)

    cases = {
        "filters.gaussian_blur2d": (
            lambda k, x: k.filters.gaussian_blur2d(x, (5, 5), (1.5, 1.5)),
            (x_tf,),
            (x_torch,),
        ),
        "color.rgb_to_hsv": (lambda k, x: k.color.rgb_to_hsv(x), (x_tf,), (x_torch,)),
        "geometry.transform.rotate": (
            lambda k, x, a: k.geometry.transform.rotate(x, a),
            (x_tf, tf.constant(angles)),
            (x_torch, torch.from_numpy(angles)),
        ),
        "enhance.adjust_contrast": (lambda k, x: k.enhance.adjust_contrast(x, 1.5), (x_tf,), (x_torch,)),
    }
    print(f"\n{'kornia function':<28} {'max |tf - torch|':>17} {'first call':>11} {'later call':>11}")
    for name, (call, tf_args, torch_args) in cases.items():
        out, first = _timed(functools.partial(call, tf_kornia), *tf_args)  # transpiles (or loads the cache)
        _, later = _timed(functools.partial(call, tf_kornia), *tf_args)  # runs the tf program
        assert isinstance(out, tf.Tensor), type(out)
        ref = call(kornia, *torch_args).numpy()
        np.testing.assert_allclose(np.asarray(out), ref, rtol=RTOL, atol=ATOL)
        print(f"{name:<28} {np.max(np.abs(np.asarray(out) - ref)):>17.2e} {first:>10.2f}s {later * 1e3:>9.2f}ms")

    # gradients: TensorFlow's autodiff through the transpiled program, torch's through kornia
    with tf.GradientTape() as tape:
        tape.watch(x_tf)
        loss = tf.reduce_sum(tf.square(tf_kornia.filters.gaussian_blur2d(x_tf, (5, 5), (1.5, 1.5))))
    grad_tf = tape.gradient(loss, x_tf)
    x_req = x_torch.clone().requires_grad_(True)
    kornia.filters.gaussian_blur2d(x_req, (5, 5), (1.5, 1.5)).square().sum().backward()
    np.testing.assert_allclose(np.asarray(grad_tf), x_req.grad.numpy(), rtol=RTOL, atol=ATOL)
    print("\ngradient of a loss through the transpiled gaussian_blur2d matches torch's autograd of kornia")

    # the transpiled functions as a Keras model's augmentation, trained with model.fit
    class Augmented(keras.Model):
        def __init__(self) -> None:
            super().__init__()
            self.head = keras.layers.Dense(1)

        def call(self, x: tf.Tensor) -> tf.Tensor:
            x = tf_kornia.color.rgb_to_grayscale(tf_kornia.filters.gaussian_blur2d(x, (3, 3), (1.0, 1.0)))
            return self.head(tf.reshape(x, (2, -1)))

    targets = images.mean(axis=(1, 2, 3))[:, None] * 2.0
    model = Augmented()
    model.compile(optimizer=keras.optimizers.SGD(0.002), loss="mse")  # (1024 features: a small step)
    hist = model.fit(images, targets, batch_size=2, epochs=20, verbose=0).history["loss"]
    assert hist[-1] < hist[0], hist
    print(f"a Keras model with transpiled kornia augmentation trains: mse {hist[0]:.4f} -> {hist[-1]:.4f}")


if __name__ == "__main__":
    main()
