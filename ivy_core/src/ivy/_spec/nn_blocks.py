"""Neural-network functions, second part of the ``nn`` category: normalisation, embeddings,
recurrent cells, attention and losses (layers and activations are in ``nn``).

Losses compare targets ``true`` with predictions ``pred`` and reduce the per-element (or
per-sample) losses according to ``reduction``: ``"mean"`` (the default) averages them into a 0-d
array, ``"sum"`` sums them into a 0-d array, ``"none"`` returns them unreduced.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ._base import Array, DType, spec

#: The specs here belong to the ``nn`` category (plugins implement them in their ``nn`` module).
CATEGORY = "nn"

# --------------------------------------------------------------------------------- normalisation


@spec
def layer_norm(
    x: Array,
    normalized_idxs: int | Sequence[int],
    /,
    *,
    scale: Array | None = None,
    offset: Array | None = None,
    eps: float = 1e-5,
) -> Array:
    """Layer normalisation: standardise ``x`` over some axes, then scale and shift.

    Computes ``(x - mean) / sqrt(var + eps) * scale + offset``, where ``mean`` and ``var`` (the
    biased variance, dividing by the count) are taken over the axes ``normalized_idxs``,
    separately for every index of the other axes.

    Args:
        x: real floating-point input array.
        normalized_idxs: the axis or axes to normalise over (e.g. ``-1`` for the feature axis).
        scale: multiplier broadcastable to ``x``, typically of the shape of the normalised
            (trailing) axes; ``None``: 1.
        offset: addend broadcastable to ``x``, like ``scale``; ``None``: 0.
        eps: added to the variance for numerical stability.

    Returns:
        An array of the same shape and dtype as ``x``.
    """


@spec
def batch_norm(
    x: Array,
    mean: Array,
    variance: Array,
    /,
    *,
    offset: Array | None = None,
    scale: Array | None = None,
    training: bool = False,
    eps: float = 1e-5,
    momentum: float = 0.1,
    data_format: str = "NHWC",
) -> tuple[Array, Array, Array]:
    """Batch normalisation: standardise each channel, then scale and shift.

    Computes ``(x - m) / sqrt(v + eps) * scale + offset`` per channel. In inference mode
    (``training=False``) ``m`` and ``v`` are the given running ``mean`` and ``variance``. In
    training mode they are the statistics of the batch: the mean and the biased variance over every
    axis but the channel axis; the running statistics are then updated as
    ``(1 - momentum) * running + momentum * batch_statistic``, using the unbiased (``n - 1``)
    batch variance for the running variance.

    Args:
        x: input of rank at least two, with the channel axis last for a channel-last
            ``data_format`` (ending in ``"C"``, such as ``"NWC"``, ``"NHWC"``, ``"NDHWC"``) or at
            axis 1 for a channel-first one (``"NCW"``, ``"NCHW"``, ``"NCDHW"``, ``"NC"``...).
        mean: running mean, ``[c]``.
        variance: running variance, ``[c]``.
        offset: addend, ``[c]``; ``None``: 0.
        scale: multiplier, ``[c]``; ``None``: 1.
        training: whether to normalise with the batch statistics and update the running ones.
        eps: added to the variance for numerical stability.
        momentum: weight of the batch statistic in the running-statistics update.
        data_format: layout of ``x``; only the position of ``"C"`` matters.

    Returns:
        A tuple ``(y, running_mean, running_var)``: ``y`` of the same shape and dtype as ``x``; the
        updated running statistics, ``[c]`` each (in inference mode, ``mean`` and ``variance``
        unchanged).
    """


@spec
def group_norm(
    x: Array,
    num_groups: int,
    /,
    *,
    scale: Array | None = None,
    offset: Array | None = None,
    eps: float = 1e-5,
    data_format: str = "NHWC",
) -> Array:
    """Group normalisation: standardise groups of channels per sample, then scale and shift.

    The ``c`` channels are split into ``num_groups`` contiguous groups of ``c / num_groups``
    channels; for each sample and group, the mean and biased variance are taken over the group's
    channels and all spatial axes, and ``(x - mean) / sqrt(var + eps) * scale + offset`` is
    computed with per-channel ``scale`` and ``offset``.

    Args:
        x: input of rank at least two, channel-last or channel-first according to
            ``data_format``.
        num_groups: number of groups; must divide the number of channels.
        scale: multiplier, ``[c]``; ``None``: 1.
        offset: addend, ``[c]``; ``None``: 0.
        eps: added to the variance for numerical stability.
        data_format: layout of ``x`` (``"NWC"``, ``"NHWC"``, ``"NCHW"``...); only the position of
            ``"C"`` matters: last if it ends in ``"C"``, otherwise axis 1.

    Returns:
        An array of the same shape and dtype as ``x``.

    Raises:
        ValueError: if ``num_groups`` does not divide the number of channels.
    """


# ----------------------------------------------------------------------------------- embeddings


@spec
def embedding(weights: Array, indices: Array, /, *, max_norm: float | None = None) -> Array:
    """Look up rows of an embedding table.

    Args:
        weights: the table, ``[num_embeddings, dim]``.
        indices: integer array of any shape, each in ``[0, num_embeddings)``.
        max_norm: if given, every looked-up row whose L2 norm exceeds ``max_norm`` is rescaled to
            norm ``max_norm`` in the result (``weights`` itself is not modified).

    Returns:
        An array of shape ``indices.shape + (dim,)`` with the dtype of ``weights``.
    """


@spec
def one_hot(indices: Array, depth: int, /, *, dtype: DType | None = None, axis: int = -1) -> Array:
    """One-hot encoding of integer indices.

    Args:
        indices: integer array of any shape.
        depth: number of classes, the size of the new axis.
        dtype: output dtype; ``None``: the default real floating-point dtype.
        axis: position of the new axis in the result (``-1``: last).

    Returns:
        An array of rank ``indices.ndim + 1`` with ``1`` where the position along ``axis`` equals
        the index and ``0`` elsewhere; an index outside ``[0, depth)`` gives all zeros.
    """


# ------------------------------------------------------------------------------------- recurrent


@spec
def lstm_update(
    x: Array,
    init_h: Array,
    init_c: Array,
    kernel: Array,
    recurrent_kernel: Array,
    /,
    *,
    bias: Array | None = None,
    recurrent_bias: Array | None = None,
) -> tuple[Array, tuple[Array, Array]]:
    """Run one LSTM layer over a sequence.

    At every time step ``t``, with ``z = x[:, t] @ kernel + bias + h @ recurrent_kernel +
    recurrent_bias`` split along the last axis into four blocks of size ``hidden`` in the order
    ``i, f, g, o``::

        i, f, o = sigmoid(i), sigmoid(f), sigmoid(o)    # input, forget, output gates
        g = tanh(g)                                     # candidate cell
        c = f * c + i * g
        h = o * tanh(c)

    Args:
        x: input sequence, ``[batch, time, in]``.
        init_h: initial hidden state, ``[batch, hidden]``.
        init_c: initial cell state, ``[batch, hidden]``.
        kernel: input weights, ``[in, 4 * hidden]``.
        recurrent_kernel: recurrent weights, ``[hidden, 4 * hidden]``.
        bias: input bias, ``[4 * hidden]``; ``None``: 0.
        recurrent_bias: recurrent bias, ``[4 * hidden]``; ``None``: 0.

    Returns:
        A tuple ``(hs, (h, c))``: ``hs`` the hidden states of every step, ``[batch, time,
        hidden]``; ``h`` and ``c`` the final hidden and cell states, ``[batch, hidden]`` each.
    """


@spec
def lstm(
    x: Array,
    init_h: Array,
    init_c: Array,
    kernels: Sequence[Array],
    recurrent_kernels: Sequence[Array],
    /,
    *,
    biases: Sequence[Array] | None = None,
    recurrent_biases: Sequence[Array] | None = None,
) -> tuple[Array, tuple[Array, Array]]:
    """Run a stack of LSTM layers over a sequence, each as in :func:`lstm_update`.

    Layer ``l`` takes the hidden states of layer ``l - 1`` (of ``x`` for the first layer) as its
    input sequence.

    Args:
        x: input sequence, ``[batch, time, in]``.
        init_h: initial hidden states, ``[num_layers, batch, hidden]``.
        init_c: initial cell states, ``[num_layers, batch, hidden]``.
        kernels: input weights, one per layer: ``[in, 4 * hidden]`` for the first layer,
            ``[hidden, 4 * hidden]`` for the others.
        recurrent_kernels: recurrent weights, one ``[hidden, 4 * hidden]`` per layer.
        biases: input biases, one ``[4 * hidden]`` per layer; ``None``: 0.
        recurrent_biases: recurrent biases, one ``[4 * hidden]`` per layer; ``None``: 0.

    Returns:
        A tuple ``(hs, (h, c))``: ``hs`` the hidden states of the last layer at every step,
        ``[batch, time, hidden]``; ``h`` and ``c`` the final hidden and cell states of every
        layer, ``[num_layers, batch, hidden]`` each.

    Raises:
        ValueError: if the per-layer sequences differ in length from each other or from
            ``init_h.shape[0]``.
    """


@spec
def gru_update(
    x: Array,
    init_h: Array,
    kernel: Array,
    recurrent_kernel: Array,
    /,
    *,
    bias: Array | None = None,
    recurrent_bias: Array | None = None,
) -> tuple[Array, Array]:
    """Run one GRU layer over a sequence (Cho et al., 2014, in torch's form).

    At every time step ``t``, with ``xz = x[:, t] @ kernel + bias`` and ``hz = h @
    recurrent_kernel + recurrent_bias`` each split along the last axis into three blocks of size
    ``hidden`` in the order ``r, z, n`` (``xr, xz_, xn`` and ``hr, hz_, hn``)::

        r = sigmoid(xr + hr)                            # reset gate
        z = sigmoid(xz_ + hz_)                          # update gate
        n = tanh(xn + r * hn)                           # candidate state
        h = (1 - z) * n + z * h

    The reset gate scales ``hn``, the recurrent block including its bias (torch's ``GRU``,
    Keras' with ``reset_after=True``): the recurrent bias is not interchangeable with ``bias``.

    Args:
        x: input sequence, ``[batch, time, in]``.
        init_h: initial hidden state, ``[batch, hidden]``.
        kernel: input weights, ``[in, 3 * hidden]`` (torch's ``weight_ih`` transposed).
        recurrent_kernel: recurrent weights, ``[hidden, 3 * hidden]`` (torch's ``weight_hh``
            transposed).
        bias: input bias, ``[3 * hidden]`` (torch's ``bias_ih``); ``None``: 0.
        recurrent_bias: recurrent bias, ``[3 * hidden]`` (torch's ``bias_hh``); ``None``: 0.

    Returns:
        A tuple ``(hs, h)``: ``hs`` the hidden states of every step, ``[batch, time, hidden]``;
        ``h`` the final hidden state, ``[batch, hidden]``.
    """


@spec
def gru(
    x: Array,
    init_h: Array,
    kernels: Sequence[Array],
    recurrent_kernels: Sequence[Array],
    /,
    *,
    biases: Sequence[Array] | None = None,
    recurrent_biases: Sequence[Array] | None = None,
) -> tuple[Array, Array]:
    """Run a stack of GRU layers over a sequence, each as in :func:`gru_update`.

    Layer ``l`` takes the hidden states of layer ``l - 1`` (of ``x`` for the first layer) as its
    input sequence.

    Args:
        x: input sequence, ``[batch, time, in]``.
        init_h: initial hidden states, ``[num_layers, batch, hidden]``.
        kernels: input weights, one per layer: ``[in, 3 * hidden]`` for the first layer,
            ``[hidden, 3 * hidden]`` for the others.
        recurrent_kernels: recurrent weights, one ``[hidden, 3 * hidden]`` per layer.
        biases: input biases, one ``[3 * hidden]`` per layer; ``None``: 0.
        recurrent_biases: recurrent biases, one ``[3 * hidden]`` per layer; ``None``: 0.

    Returns:
        A tuple ``(hs, h)``: ``hs`` the hidden states of the last layer at every step, ``[batch,
        time, hidden]``; ``h`` the final hidden states of every layer, ``[num_layers, batch,
        hidden]``.

    Raises:
        ValueError: if the per-layer sequences differ in length from each other or from
            ``init_h.shape[0]``.
    """


# ------------------------------------------------------------------------------------- attention


@spec
def scaled_dot_product_attention(
    q: Array,
    k: Array,
    v: Array,
    /,
    *,
    mask: Array | None = None,
    scale: float | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
) -> Array:
    """Attention ``softmax(q @ k^T * scale + mask) @ v``.

    Args:
        q: queries, ``[..., l_q, d]``.
        k: keys, ``[..., l_k, d]``; leading axes broadcast against those of ``q``.
        v: values, ``[..., l_k, d_v]``.
        mask: broadcastable to ``[..., l_q, l_k]``; a boolean mask (``True``: may attend) or a
            floating-point mask added to the scores. ``None``: no mask.
        scale: factor applied to the scores; ``None``: ``1 / sqrt(d)``.
        dropout_p: probability of zeroing each attention weight (after the softmax; the kept
            weights are divided by ``1 - dropout_p``). ``0.0``: deterministic.
        is_causal: whether query ``i`` may attend only to keys ``j <= i`` (combined with ``mask``).

    Returns:
        An array of shape ``[..., l_q, d_v]`` with the dtype of ``q``. A query that may attend to
        no key gives NaN.
    """


@spec
def multi_head_attention(
    query: Array,
    /,
    key: Array | None = None,
    value: Array | None = None,
    *,
    num_heads: int,
    q_weight: Array,
    k_weight: Array,
    v_weight: Array,
    out_weight: Array,
    q_bias: Array | None = None,
    k_bias: Array | None = None,
    v_bias: Array | None = None,
    out_bias: Array | None = None,
    mask: Array | None = None,
    is_causal: bool = False,
    scale: float | None = None,
) -> Array:
    """Multi-head attention: project, attend per head, concatenate the heads, project.

    The projected queries ``query @ q_weight + q_bias`` (and likewise keys and values) are split
    along the last axis into ``num_heads`` heads of size ``e / num_heads``; each head goes through
    :func:`scaled_dot_product_attention`; the heads are concatenated back to size ``e`` and
    projected with ``out_weight`` and ``out_bias``.

    Args:
        query: ``[batch, l_q, e_q]``.
        key: ``[batch, l_k, e_k]``; ``None``: ``query`` (self-attention).
        value: ``[batch, l_k, e_v]``; ``None``: ``key``.
        num_heads: number of heads; must divide ``e``.
        q_weight: ``[e_q, e]``.
        k_weight: ``[e_k, e]``.
        v_weight: ``[e_v, e]``.
        out_weight: ``[e, e_out]``.
        q_bias: ``[e]``; ``None``: 0.
        k_bias: ``[e]``; ``None``: 0.
        v_bias: ``[e]``; ``None``: 0.
        out_bias: ``[e_out]``; ``None``: 0.
        mask: broadcastable to ``[batch, num_heads, l_q, l_k]``; boolean (``True``: may attend)
            or additive floating-point. ``None``: no mask.
        is_causal: whether query ``i`` may attend only to keys ``j <= i``.
        scale: factor applied to the scores; ``None``: ``1 / sqrt(e / num_heads)``.

    Returns:
        An array of shape ``[batch, l_q, e_out]`` with the dtype of ``query``.

    Raises:
        ValueError: if ``num_heads`` does not divide ``e``.
    """


# ---------------------------------------------------------------------------------------- losses


@spec
def cross_entropy(
    true: Array,
    pred: Array,
    /,
    *,
    axis: int = -1,
    epsilon: float = 1e-7,
    from_logits: bool = False,
    reduction: Literal["mean", "sum", "none"] = "mean",
) -> Array:
    """Categorical cross-entropy between target distributions and predicted probabilities, or
    logits with ``from_logits=True``.

    The loss of each sample is ``-sum(true * log(p))`` along ``axis``, with ``p = clip(pred,
    epsilon, 1 - epsilon)`` (probabilities, the default: Keras' ``CategoricalCrossentropy()``) or
    ``log(p) = log_softmax(pred)`` (logits: ``torch.nn.functional.cross_entropy``, Keras'
    ``from_logits=True``). :func:`ivy.losses.cross_entropy` is the same loss with integer labels,
    class weights and label smoothing.

    Args:
        true: target probabilities (e.g. one-hot), of the shape of ``pred``.
        pred: predicted probabilities, or logits with ``from_logits``; ``axis`` is the class axis.
        axis: the class axis.
        epsilon: with probabilities, ``pred`` is clipped to ``[epsilon, 1 - epsilon]`` (keeps
            the logarithm finite); unused with logits.
        from_logits: whether ``pred`` holds logits (unnormalised scores).
        reduction: ``"mean"``, ``"sum"`` or ``"none"`` over the per-sample losses.

    Returns:
        A 0-d array, or for ``"none"`` an array of the shape of ``pred`` without ``axis``.
    """


@spec
def binary_cross_entropy(
    true: Array,
    pred: Array,
    /,
    *,
    epsilon: float = 1e-7,
    from_logits: bool = False,
    reduction: Literal["mean", "sum", "none"] = "mean",
) -> Array:
    """Binary cross-entropy ``-(true * log(p) + (1 - true) * log(1 - p))``, element-wise.

    ``p`` is ``pred`` clipped to ``[epsilon, 1 - epsilon]`` (probabilities, the default: Keras'
    ``BinaryCrossentropy()``, ``torch.nn.functional.binary_cross_entropy``) or ``sigmoid(pred)``
    (logits: ``binary_cross_entropy_with_logits``). :func:`ivy.losses.binary_cross_entropy` is the
    same loss with weights and label smoothing.

    Args:
        true: targets in [0, 1], broadcastable against ``pred``.
        pred: predicted probabilities ``p``, or logits with ``from_logits``.
        epsilon: with probabilities, ``p`` is clipped to ``[epsilon, 1 - epsilon]``; unused with
            logits.
        from_logits: whether ``pred`` holds logits, ``p = sigmoid(pred)``; the loss is then
            computed stably from the logits directly.
        reduction: ``"mean"``, ``"sum"`` or ``"none"`` over the element-wise losses.

    Returns:
        A 0-d array, or for ``"none"`` an array of the broadcast shape of ``true`` and ``pred``.
    """


@spec
def sparse_cross_entropy(
    true: Array,
    pred: Array,
    /,
    *,
    axis: int = -1,
    epsilon: float = 1e-7,
    from_logits: bool = False,
    reduction: Literal["mean", "sum", "none"] = "mean",
) -> Array:
    """Categorical cross-entropy with integer class targets.

    The same as :func:`cross_entropy` with ``true`` one-hot encoded along ``axis``: the loss of
    each sample is ``-log(p[true])``, ``p`` the clipped probabilities or, with ``from_logits``,
    ``softmax(pred)`` (Keras' ``SparseCategoricalCrossentropy``).

    Args:
        true: integer class indices, each in ``[0, C)`` for ``C`` classes (else ``IndexError``),
            of the shape of ``pred`` without ``axis``.
        pred: predicted probabilities, or logits with ``from_logits``; ``axis`` is the class axis.
        axis: the class axis of ``pred``.
        epsilon: with probabilities, ``pred`` is clipped to ``[epsilon, 1 - epsilon]``; unused
            with logits.
        from_logits: whether ``pred`` holds logits (unnormalised scores).
        reduction: ``"mean"``, ``"sum"`` or ``"none"`` over the per-sample losses.

    Returns:
        A 0-d array, or for ``"none"`` an array of the shape of ``true``.
    """


@spec
def mse_loss(true: Array, pred: Array, /, *, reduction: Literal["mean", "sum", "none"] = "mean") -> Array:
    """Squared error ``(pred - true) ** 2``, element-wise, then reduced.

    Args:
        true: targets, broadcastable against ``pred``.
        pred: predictions.
        reduction: ``"mean"``, ``"sum"`` or ``"none"`` over the element-wise losses.

    Returns:
        A 0-d array, or for ``"none"`` an array of the broadcast shape of ``true`` and ``pred``.
    """


@spec
def l1_loss(true: Array, pred: Array, /, *, reduction: Literal["mean", "sum", "none"] = "mean") -> Array:
    """Absolute error ``|pred - true|``, element-wise, then reduced.

    Args:
        true: targets, broadcastable against ``pred``.
        pred: predictions.
        reduction: ``"mean"``, ``"sum"`` or ``"none"`` over the element-wise losses.

    Returns:
        A 0-d array, or for ``"none"`` an array of the broadcast shape of ``true`` and ``pred``.
    """


@spec
def huber_loss(
    true: Array,
    pred: Array,
    /,
    *,
    delta: float = 1.0,
    reduction: Literal["mean", "sum", "none"] = "mean",
) -> Array:
    """Huber loss, element-wise, then reduced.

    With ``d = |pred - true|``: ``0.5 * d**2`` where ``d <= delta``, ``delta * (d - 0.5 * delta)``
    elsewhere (quadratic near zero, linear beyond ``delta``).

    Args:
        true: targets, broadcastable against ``pred``.
        pred: predictions.
        delta: where the loss turns from quadratic to linear; must be positive.
        reduction: ``"mean"``, ``"sum"`` or ``"none"`` over the element-wise losses.

    Returns:
        A 0-d array, or for ``"none"`` an array of the broadcast shape of ``true`` and ``pred``.
    """


@spec
def kl_div(
    p: Array,
    q: Array,
    /,
    *,
    axis: int = -1,
    reduction: Literal["mean", "sum", "none"] = "mean",
) -> Array:
    """Kullback-Leibler divergence KL(p || q) between distributions along one axis.

    The divergence of each pair of distributions is ``sum(p * (log(p) - log(q)))`` along
    ``axis``, where terms with ``p == 0`` count as 0.

    Args:
        p: target probabilities.
        q: predicted probabilities, broadcastable against ``p``.
        axis: the axis holding each distribution.
        reduction: ``"mean"``, ``"sum"`` or ``"none"`` over the per-distribution divergences.

    Returns:
        A 0-d array, or for ``"none"`` an array of the broadcast shape of ``p`` and ``q`` without
        ``axis``.
    """
