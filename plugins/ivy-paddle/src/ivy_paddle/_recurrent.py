"""Recurrent layers (``lstm_update``, ``lstm``, ``gru_update``, ``gru``) on paddle's fused RNN op,
the one ``paddle.nn.LSTM``/``GRU`` run: a whole stack of layers in one kernel, about 9x faster
forward and backward than core's loop of per-step ops on CPU. The op takes time-major input, and
the weights as one list (every layer's ``w_ih, w_hh``, then every layer's ``b_ih, b_hh``), in
torch's layout and gate orders (LSTM ``i, f, g, o``; GRU ``r, z, n``: Ivy's)."""

from __future__ import annotations

from collections.abc import Sequence

from ivy.plugin_kit import composed, rnn_layers

from . import gradients as _gradients
from ._framework import Tensor, paddle
from ._helpers import _C_ops

__all__ = ["lstm_update", "lstm", "gru_update", "gru"]


def _fusable(x: Tensor, states: Sequence[Tensor], state_ndim: int, *weights: Tensor | None) -> bool:
    """The fused op wants ``[batch, time, in]`` input with at least one step, batched states and
    one floating dtype throughout; anything else goes to core's composition. So does a gradient
    the op cannot give: its backward fails unless the gradient of every weight is asked for
    (paddle.grad of the input alone, or of some weights, raises), and it has no second
    derivative. It runs where no gradient flows, or where every weight takes one in a gradient
    that is not nested in another (a training step's)."""
    dt = x.dtype
    if not (
        x.ndim == 3
        and x.shape[1] > 0
        and dt in (paddle.float32, paddle.float64)
        and all(s.ndim == state_ndim and s.dtype == dt for s in states)
        and all(w is None or w.dtype == dt for w in weights)
    ):
        return False
    if not paddle.is_grad_enabled() or all(t.stop_gradient for t in (x, *states, *weights) if t is not None):
        return True
    return _gradients._DEPTH <= 1 and all(w is None or not w.stop_gradient for w in weights)


def _rnn(
    mode: str,
    x: Tensor,
    states: list[Tensor],
    kernels: Sequence[Tensor],
    recurrent_kernels: Sequence[Tensor],
    biases: Sequence[Tensor | None],
    rbs: Sequence[Tensor | None],
) -> tuple[Tensor, list[Tensor]]:
    weights: list[Tensor] = []
    for k, r in zip(kernels, recurrent_kernels):
        weights += [k.T, r.T]
    for k, b, rb in zip(kernels, biases, rbs):
        # the op has no bias-free form: zeros instead, computed from the kernel so that its
        # backward has a gradient to give them (one that flows back into the kernel as zeros)
        z = None if b is not None and rb is not None else k[0] * 0.0
        weights += [z if b is None else b, z if rb is None else rb]
    grad = paddle.is_grad_enabled()
    out, _, final = _C_ops.rnn(
        paddle.transpose(x, [1, 0, 2]),
        states,
        weights,
        None,  # every sequence full length
        paddle.zeros([0], dtype="uint8"),  # the dropout state (no dropout here)
        0.0,
        False,  # one direction
        int(kernels[0].shape[0]),
        int(recurrent_kernels[0].shape[0]),
        len(kernels),
        mode,
        0,
        not grad,  # is_test: the op keeps what its backward needs only if False
    )
    return paddle.transpose(out, [1, 0, 2]), list(final)


def lstm_update(
    x: Tensor,
    init_h: Tensor,
    init_c: Tensor,
    kernel: Tensor,
    recurrent_kernel: Tensor,
    /,
    *,
    bias: Tensor | None = None,
    recurrent_bias: Tensor | None = None,
) -> tuple[Tensor, tuple[Tensor, Tensor]]:
    if not _fusable(x, (init_h, init_c), 2, kernel, recurrent_kernel, bias, recurrent_bias):
        return composed("lstm_update", "paddle")(
            x, init_h, init_c, kernel, recurrent_kernel, bias=bias, recurrent_bias=recurrent_bias
        )
    hs, (h, c) = _rnn("LSTM", x, [init_h[None], init_c[None]], [kernel], [recurrent_kernel], [bias], [recurrent_bias])
    return hs, (h[0], c[0])


def lstm(
    x: Tensor,
    init_h: Tensor,
    init_c: Tensor,
    kernels: Sequence[Tensor],
    recurrent_kernels: Sequence[Tensor],
    /,
    *,
    biases: Sequence[Tensor] | None = None,
    recurrent_biases: Sequence[Tensor] | None = None,
) -> tuple[Tensor, tuple[Tensor, Tensor]]:
    bs, rbs = rnn_layers("lstm", (init_h, init_c), kernels, recurrent_kernels, biases, recurrent_biases)
    if not _fusable(x, (init_h, init_c), 3, *kernels, *recurrent_kernels, *bs, *rbs):
        return composed("lstm", "paddle")(
            x, init_h, init_c, kernels, recurrent_kernels, biases=biases, recurrent_biases=recurrent_biases
        )
    hs, (h, c) = _rnn("LSTM", x, [init_h, init_c], kernels, recurrent_kernels, bs, rbs)
    return hs, (h, c)


def gru_update(
    x: Tensor,
    init_h: Tensor,
    kernel: Tensor,
    recurrent_kernel: Tensor,
    /,
    *,
    bias: Tensor | None = None,
    recurrent_bias: Tensor | None = None,
) -> tuple[Tensor, Tensor]:
    if not _fusable(x, (init_h,), 2, kernel, recurrent_kernel, bias, recurrent_bias):
        return composed("gru_update", "paddle")(
            x, init_h, kernel, recurrent_kernel, bias=bias, recurrent_bias=recurrent_bias
        )
    hs, (h,) = _rnn("GRU", x, [init_h[None]], [kernel], [recurrent_kernel], [bias], [recurrent_bias])
    return hs, h[0]


def gru(
    x: Tensor,
    init_h: Tensor,
    kernels: Sequence[Tensor],
    recurrent_kernels: Sequence[Tensor],
    /,
    *,
    biases: Sequence[Tensor] | None = None,
    recurrent_biases: Sequence[Tensor] | None = None,
) -> tuple[Tensor, Tensor]:
    bs, rbs = rnn_layers("gru", (init_h,), kernels, recurrent_kernels, biases, recurrent_biases)
    if not _fusable(x, (init_h,), 3, *kernels, *recurrent_kernels, *bs, *rbs):
        return composed("gru", "paddle")(
            x, init_h, kernels, recurrent_kernels, biases=biases, recurrent_biases=recurrent_biases
        )
    hs, (h,) = _rnn("GRU", x, [init_h], kernels, recurrent_kernels, bs, rbs)
    return hs, h
