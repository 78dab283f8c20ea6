"""Recurrent layers (``lstm_update``, ``lstm``, ``gru_update``, ``gru``) as core's loop over time
steps, in the ops whose gradients TensorFlow makes cheaply: the input projection of every step is
split into steps by one ``unstack`` (core indexes it per step: each index's gradient is a
``StridedSliceGrad`` that writes a zero tensor of the whole sequence, T of them summed), the gates
by one ``split`` and the logistic function is TF's own. A ``tf.function`` training step of an LSTM
ran 1.9x slower than Keras' ``LSTM`` that way (a while loop); unrolled like this it runs as fast.
TensorFlow has no fused recurrent kernel on CPU (Keras' fused path is cuDNN's, GPU only)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import tensorflow as tf
from tensorflow.python.ops import gen_math_ops as gm

from ivy.plugin_kit import composed, rnn_layers

__all__ = ["lstm_update", "lstm", "gru_update", "gru"]


def _steps(x: Any, *arrays: Any) -> int | None:
    """The number of time steps where this module's loop applies: a known, positive length and
    one floating dtype; None sends the call to core's composition (its checks and errors)."""
    if x.shape.rank is None or x.shape.rank < 2 or not x.dtype.is_floating:
        return None
    t = x.shape[-2]
    if t is None or t == 0 or any(a is not None and a.dtype != x.dtype for a in arrays):
        return None
    return int(t)


def _projected(x: Any, kernel: Any, *biases: Any) -> list[Any]:
    """``x @ kernel (+ biases)`` for every step at once, then one tensor per step."""
    xw = tf.matmul(x, kernel)
    for b in biases:
        if b is not None:
            xw = xw + b
    return tf.unstack(xw, axis=-2)


def _lstm_layer(x: Any, h: Any, c: Any, k: Any, rk: Any, b: Any, rb: Any) -> tuple[Any, Any, Any]:
    hs = []
    for xt in _projected(x, k, b, rb):
        i, f, g, o = tf.split(xt + tf.matmul(h, rk), 4, axis=-1)
        c = gm.sigmoid(f) * c + gm.sigmoid(i) * tf.tanh(g)
        h = gm.sigmoid(o) * tf.tanh(c)
        hs.append(h)
    return tf.stack(hs, axis=-2), h, c


def _gru_layer(x: Any, h: Any, k: Any, rk: Any, b: Any, rb: Any) -> tuple[Any, Any]:
    hs = []
    for xt in _projected(x, k, b):
        hw = tf.matmul(h, rk)
        if rb is not None:  # inside the reset gate's product: not foldable into the projection
            hw = hw + rb
        xr, xz, xn = tf.split(xt, 3, axis=-1)
        hr, hz, hn = tf.split(hw, 3, axis=-1)
        r, z = gm.sigmoid(xr + hr), gm.sigmoid(xz + hz)
        cand = tf.tanh(xn + r * hn)
        h = cand + z * (h - cand)  # (1 - z) * n + z * h
        hs.append(h)
    return tf.stack(hs, axis=-2), h


def lstm_update(
    x: Any,
    init_h: Any,
    init_c: Any,
    kernel: Any,
    recurrent_kernel: Any,
    /,
    *,
    bias: Any = None,
    recurrent_bias: Any = None,
) -> tuple[Any, tuple[Any, Any]]:
    if _steps(x, init_h, init_c, kernel, recurrent_kernel, bias, recurrent_bias) is None:
        return composed("lstm_update", "tensorflow")(
            x, init_h, init_c, kernel, recurrent_kernel, bias=bias, recurrent_bias=recurrent_bias
        )
    hs, h, c = _lstm_layer(x, init_h, init_c, kernel, recurrent_kernel, bias, recurrent_bias)
    return hs, (h, c)


def lstm(
    x: Any,
    init_h: Any,
    init_c: Any,
    kernels: Sequence[Any],
    recurrent_kernels: Sequence[Any],
    /,
    *,
    biases: Sequence[Any] | None = None,
    recurrent_biases: Sequence[Any] | None = None,
) -> tuple[Any, tuple[Any, Any]]:
    bs, rbs = rnn_layers("lstm", (init_h, init_c), kernels, recurrent_kernels, biases, recurrent_biases)
    if _steps(x, init_h, init_c, *kernels, *recurrent_kernels, *bs, *rbs) is None:
        return composed("lstm", "tensorflow")(
            x, init_h, init_c, kernels, recurrent_kernels, biases=biases, recurrent_biases=recurrent_biases
        )
    hs_last, cs_last = [], []
    for layer, (k, rk, b, rb) in enumerate(zip(kernels, recurrent_kernels, bs, rbs)):
        x, h, c = _lstm_layer(x, init_h[layer, ...], init_c[layer, ...], k, rk, b, rb)
        hs_last.append(h)
        cs_last.append(c)
    return x, (tf.stack(hs_last, axis=0), tf.stack(cs_last, axis=0))


def gru_update(
    x: Any,
    init_h: Any,
    kernel: Any,
    recurrent_kernel: Any,
    /,
    *,
    bias: Any = None,
    recurrent_bias: Any = None,
) -> tuple[Any, Any]:
    if _steps(x, init_h, kernel, recurrent_kernel, bias, recurrent_bias) is None:
        return composed("gru_update", "tensorflow")(
            x, init_h, kernel, recurrent_kernel, bias=bias, recurrent_bias=recurrent_bias
        )
    return _gru_layer(x, init_h, kernel, recurrent_kernel, bias, recurrent_bias)


def gru(
    x: Any,
    init_h: Any,
    kernels: Sequence[Any],
    recurrent_kernels: Sequence[Any],
    /,
    *,
    biases: Sequence[Any] | None = None,
    recurrent_biases: Sequence[Any] | None = None,
) -> tuple[Any, Any]:
    bs, rbs = rnn_layers("gru", (init_h,), kernels, recurrent_kernels, biases, recurrent_biases)
    if _steps(x, init_h, *kernels, *recurrent_kernels, *bs, *rbs) is None:
        return composed("gru", "tensorflow")(
            x, init_h, kernels, recurrent_kernels, biases=biases, recurrent_biases=recurrent_biases
        )
    hs_last = []
    for layer, (k, rk, b, rb) in enumerate(zip(kernels, recurrent_kernels, bs, rbs)):
        x, h = _gru_layer(x, init_h[layer, ...], k, rk, b, rb)
        hs_last.append(h)
    return x, tf.stack(hs_last, axis=0)
