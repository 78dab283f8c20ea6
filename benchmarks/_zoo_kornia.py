"""Three of kornia's functions written by hand in paddle and TensorFlow: what a lazily transpiled
kornia is measured against in the target, besides kornia itself on torch. ``color.rgb_to_hsv``
(max, argmax, the three hue sectors, a gather) and ``filters.sobel`` (replicate padding, the
normalised 3x3 kernels as one convolution, the magnitude) follow kornia's code op for op.
``morphology.dilation`` is written as each framework's users write it: TensorFlow has the op
(``tf.nn.dilation2d``); paddle has none, so its twin is kornia's CPU engine (``shift``: a running
maximum over the shifted windows of the ``-inf``-padded image) with the structuring element read
on the host once, its cells outside the kernel skipped, where kornia (and so the transpiled
program) selects each cell on the device. TensorFlow's run under ``tf.function``, paddle's
eagerly. Images NCHW."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["KORNIA_TWINS", "kornia_twin"]

#: kornia's functions that have a hand-written version here
KORNIA_TWINS = ("kornia.rgb_to_hsv", "kornia.sobel", "kornia.dilation")
#: the normalised Sobel kernels (x, then y), as kornia's ``get_spatial_gradient_kernel2d``
_SOBEL = np.array([[[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]], [[-1, -2, -1], [0, 0, 0], [1, 2, 1]]], np.float32) / 8.0


def kornia_twin(name: str, target: str) -> Callable[..., Any]:
    """``name`` (one of :data:`KORNIA_TWINS`) written in ``target`` ("paddle" or "tensorflow"),
    taking the example inputs of kornia's function (dilation: the image and the kernel)."""
    return (_paddle if target == "paddle" else _tensorflow)(name)


def _paddle(name: str) -> Callable[..., Any]:
    import paddle
    import paddle.nn.functional as F

    if name == "kornia.dilation":

        def dilation(img: Any, kernel: Any) -> Any:
            kh, kw = kernel.shape
            h, w = img.shape[-2:]
            inside = kernel.numpy() != 0
            # kornia's padding: the window is anchored at the reflected centre (Minkowski dilation)
            padded = F.pad(img, [kw - kw // 2 - 1, kw // 2, kh - kh // 2 - 1, kh // 2], value=-math.inf)
            out = None
            for j in range(kw):
                for i in range(kh):
                    if inside[kh - 1 - i, kw - 1 - j]:
                        window = padded[:, :, i : i + h, j : j + w]
                        out = window if out is None else paddle.maximum(out, window)
            return out

        return dilation

    if name == "kornia.sobel":
        kernels = paddle.to_tensor(_SOBEL).unsqueeze(1)

        def sobel(img: Any) -> Any:
            b, c, h, w = img.shape
            padded = F.pad(img.reshape([b * c, 1, h, w]), [1, 1, 1, 1], mode="replicate")
            g = F.conv2d(padded, kernels).reshape([b, c, 2, h, w])
            return paddle.sqrt(g[:, :, 0] ** 2 + g[:, :, 1] ** 2 + 1e-6)

        return sobel

    def rgb_to_hsv(img: Any, eps: float = 1e-8) -> Any:
        v, which = img.max(-3), img.argmax(-3)
        delta = v - img.min(-3)
        s = delta / (v + eps)
        delta = paddle.where(delta == 0, paddle.ones_like(delta), delta)
        rc, gc, bc = paddle.unbind(v.unsqueeze(-3) - img, axis=-3)
        sectors = paddle.stack([bc - gc, (rc - bc) + 2.0 * delta, (gc - rc) + 4.0 * delta], axis=-3)
        h = paddle.take_along_axis(sectors / delta.unsqueeze(-3), which.unsqueeze(-3), axis=-3).squeeze(-3)
        return paddle.stack([2 * math.pi * ((h / 6.0) % 1.0), s, v], axis=-3)

    return rgb_to_hsv


def _tensorflow(name: str) -> Callable[..., Any]:
    import tensorflow as tf

    if name == "kornia.dilation":

        @tf.function
        def dilation(img: Any, kernel: Any) -> Any:
            c = img.shape[1]
            # TensorFlow's grayscale dilation: max of image + filter over each window, SAME padding
            # ignoring the border (kornia's geodesic); the filter is the reflected kernel, -inf off it
            flat = tf.where(tf.reverse(kernel, [0, 1]) != 0, 0.0, -math.inf)
            filters = tf.tile(flat[:, :, None], [1, 1, c])
            out = tf.nn.dilation2d(tf.transpose(img, [0, 2, 3, 1]), filters, [1, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1])
            return tf.transpose(out, [0, 3, 1, 2])

        return dilation

    if name == "kornia.sobel":
        kernels = tf.constant(_SOBEL.transpose(1, 2, 0)[:, :, None, :])  # [3, 3, 1, 2]

        @tf.function
        def sobel(img: Any) -> Any:
            b, c, h, w = img.shape
            # (one pixel of SYMMETRIC padding repeats the edge: kornia's replicate)
            padded = tf.pad(tf.reshape(img, [b * c, h, w, 1]), [[0, 0], [1, 1], [1, 1], [0, 0]], mode="SYMMETRIC")
            g = tf.reshape(tf.nn.conv2d(padded, kernels, 1, "VALID"), [b, c, h, w, 2])
            return tf.sqrt(g[..., 0] ** 2 + g[..., 1] ** 2 + 1e-6)

        return sobel

    @tf.function
    def rgb_to_hsv(img: Any, eps: float = 1e-8) -> Any:
        v, which = tf.reduce_max(img, -3), tf.argmax(img, -3)
        delta = v - tf.reduce_min(img, -3)
        s = delta / (v + eps)
        delta = tf.where(delta == 0, tf.ones_like(delta), delta)
        rc, gc, bc = tf.unstack(tf.expand_dims(v, -3) - img, axis=-3)
        sectors = tf.stack([bc - gc, (rc - bc) + 2.0 * delta, (gc - rc) + 4.0 * delta], axis=-1)
        h = tf.gather(sectors / tf.expand_dims(delta, -1), tf.expand_dims(which, -1), batch_dims=3)[..., 0]
        return tf.stack([2 * math.pi * tf.math.floormod(h / 6.0, 1.0), s, v], axis=-3)

    return rgb_to_hsv
