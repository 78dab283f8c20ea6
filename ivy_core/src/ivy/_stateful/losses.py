"""``ivy.losses``: loss functions, and loss classes (``ivy.CrossEntropyLoss``...).

Every function takes ``(true, pred, ...)`` (Ivy's and Keras' order: the target first; torch's
``loss(input, target)`` is the other way round) and a ``reduction``: ``"mean"`` (default),
``"sum"`` or ``"none"`` (the unreduced losses). They are written with ``ivy`` ops, so they run,
differentiate and compile on every backend.

The cross-entropies (``cross_entropy``, ``binary_cross_entropy``, ``focal``,
``categorical_focal``) take probabilities unless ``from_logits=True``, as Keras' losses and the
ops of the same names (:func:`ivy.cross_entropy`, :func:`ivy.binary_cross_entropy`): one name,
one meaning. From logits they are numerically stable for any logit (through
:func:`ivy.log_softmax` and ``log1p(exp(-|x|))``); pass ``from_logits=True`` for the output of a
layer without softmax or sigmoid (what ``torch.nn.functional.cross_entropy`` takes). A loss class
holds the keyword settings of its function: ``ivy.CrossEntropyLoss(from_logits=True,
label_smoothing=0.1)(labels, logits)``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from .. import _api as ivy
from .._compose.nn import _check_ids
from ._layout import is_integer

__all__ = [
    "cross_entropy",
    "nll",
    "binary_cross_entropy",
    "focal",
    "categorical_focal",
    "cosine_similarity",
    "cosine_embedding",
    "hinge",
    "squared_hinge",
    "categorical_hinge",
    "multi_margin",
    "ctc",
    "mse",
    "mae",
    "huber",
    "kl_div",
    "Loss",
    "CrossEntropyLoss",
    "NLLLoss",
    "BinaryCrossEntropyLoss",
    "FocalLoss",
    "CategoricalFocalLoss",
    "CosineSimilarityLoss",
    "CosineEmbeddingLoss",
    "HingeLoss",
    "SquaredHingeLoss",
    "CategoricalHingeLoss",
    "MultiMarginLoss",
    "CTCLoss",
    "MSELoss",
    "L1Loss",
    "HuberLoss",
    "KLDivLoss",
]

_REDUCTIONS = ("mean", "sum", "none")


def _check_reduction(reduction: str) -> None:
    if reduction not in _REDUCTIONS:
        raise ValueError(f"reduction must be 'mean', 'sum' or 'none', got {reduction!r}")


def _reduce(loss: Any, reduction: str, denominator: Any = None) -> Any:
    _check_reduction(reduction)
    if reduction == "none":
        return loss
    if reduction == "mean" and denominator is None:  # (no sum to build: it would be unused)
        return ivy.mean(loss)
    total = ivy.sum(loss)
    return total if reduction == "sum" else total / denominator


def _is_int(x: Any) -> bool:
    return is_integer(x)


def _as_weights(weight: Any, like: Any) -> Any:
    """``weight`` (an array of any backend, a list) as an array of ``like``'s backend and dtype."""
    if weight is None:
        return None
    xp = ivy.namespace(like)
    if ivy.is_native_array(weight):
        if ivy.namespace(weight).name == xp.name:
            return weight if weight.dtype == like.dtype else ivy.astype(weight, like.dtype)
        weight = ivy.to_numpy(weight)
    return ivy.asarray(weight, dtype=like.dtype, device=ivy.dev(like), backend=xp)


def _class_last(x: Any, axis: int) -> Any:
    return x if axis in (-1, len(x.shape) - 1) else ivy.moveaxis(x, axis, -1)


def _labels_and_logp(labels: Any, logp: Any, axis: int, what: str) -> tuple[Any, Any]:
    """Integer labels ``[...]`` against class scores ``[..., C, ...]`` (class axis ``axis``), the
    class axis moved last."""
    logp = _class_last(logp, axis)
    if tuple(labels.shape) != tuple(logp.shape[:-1]):
        raise ValueError(
            f"{what}: integer labels of shape {tuple(labels.shape)} do not match scores of shape "
            f"{tuple(logp.shape)} without their class axis (axis={axis})"
        )
    return labels, logp


def _pick(logp: Any, labels: Any) -> Any:
    return ivy.take_along_axis(logp, ivy.expand_dims(labels, axis=-1), axis=-1)[..., 0]


def _integer_nll(
    labels: Any,
    logp: Any,
    weight: Any,
    ignore_index: int | None,
    label_smoothing: float,
    reduction: str,
    what: str,
) -> Any:
    """torch's rule: ``(1 - ε) w[y] (-log p[y]) + ε / C Σ_c w_c (-log p_c)`` per sample (zero where
    the label is ``ignore_index``); ``"mean"`` divides by ``Σ w[y]`` over the kept samples. A label
    outside ``[0, C)`` raises ``IndexError`` (a negative one would pick a class from the end)."""
    n_classes = int(logp.shape[-1])
    if ignore_index is not None:
        valid = labels != ignore_index
        safe = ivy.where(valid, labels, ivy.zeros_like(labels))
    else:
        valid, safe = None, labels
    _check_ids(ivy.namespace(logp), safe, n_classes, what, "label")
    picked = -_pick(logp, safe)
    w = _pick(ivy.broadcast_to(weight, tuple(logp.shape)), safe) if weight is not None else None
    loss = picked if w is None else picked * w
    if label_smoothing:
        smooth = -ivy.sum(logp if weight is None else logp * weight, axis=-1) / n_classes
        loss = (1.0 - label_smoothing) * loss + label_smoothing * smooth
    denom = None
    if valid is not None:
        keep = ivy.astype(valid, loss.dtype)
        loss = loss * keep
        denom = ivy.sum(keep if w is None else w * keep)
    elif w is not None:
        denom = ivy.sum(w)
    return _reduce(loss, reduction, denom)


def _log_probabilities(pred: Any, axis: int, epsilon: float, from_logits: bool) -> Any:
    """``log_softmax(pred)`` of logits, or ``log(clip(pred, epsilon, 1 - epsilon))`` of
    probabilities (as :func:`ivy.cross_entropy`)."""
    if from_logits:
        return ivy.log_softmax(pred, axis=axis)
    return ivy.log(ivy.clip(pred, epsilon, 1.0 - epsilon))


def cross_entropy(
    true: Any,
    pred: Any,
    /,
    *,
    axis: int = -1,
    epsilon: float = 1e-7,
    from_logits: bool = False,
    weight: Any = None,
    ignore_index: int | None = None,
    label_smoothing: float = 0.0,
    reduction: str = "mean",
) -> Any:
    """Categorical cross-entropy of probabilities, or of logits with ``from_logits=True``:
    :func:`ivy.cross_entropy` with integer labels, class weights, ``ignore_index`` and label
    smoothing.

    With probabilities (the default) it is Keras' ``(Sparse)CategoricalCrossentropy()``
    (``pred`` clipped to ``[epsilon, 1 - epsilon]``); from logits it is
    ``torch.nn.functional.cross_entropy`` and Keras' ``from_logits=True``, stable for any logit.

    Args:
        true: integer class indices of the shape of ``pred`` without the class axis, or class
            probabilities (one-hot or soft) of the shape of ``pred``.
        pred: predicted probabilities, or unnormalised scores with ``from_logits``; the classes
            along ``axis``.
        axis: the class axis (``-1``: Keras' layout; ``1`` for torch's ``[batch, C, ...]``).
        epsilon: with probabilities, the clipping bound that keeps the logarithm finite.
        from_logits: whether ``pred`` holds logits.
        weight: per-class weights ``[C]`` (torch's ``weight``).
        ignore_index: integer labels equal to it contribute nothing (nor to the mean's denominator).
        label_smoothing: ``ε``: the target becomes ``(1 - ε) target + ε / C``.
        reduction: ``"mean"``, ``"sum"`` or ``"none"``. With integer labels and ``weight`` or
            ``ignore_index``, ``"mean"`` divides by the summed weights of the kept samples (torch).

    Returns:
        A 0-d array, or for ``"none"`` the per-sample losses (``pred``'s shape without ``axis``).
    """
    if from_logits and weight is None and ignore_index is None and not label_smoothing and _is_int(true):
        xp = ivy.namespace(pred)
        if "sparse_cross_entropy" in xp._ivy_backend.native_ops:
            # the framework's fused kernel (torch's F.cross_entropy: one op forward and backward,
            # a third of the time of the five below), where the backend has one
            _check_reduction(reduction)
            _labels_and_logp(true, pred, axis, "cross_entropy")  # (the shapes' check)
            return xp.sparse_cross_entropy(true, pred, axis=axis, from_logits=True, reduction=reduction)
    logp = _log_probabilities(pred, axis, epsilon, from_logits)
    weight = _as_weights(weight, pred)
    if _is_int(true):
        labels, logp = _labels_and_logp(true, logp, axis, "cross_entropy")
        return _integer_nll(labels, logp, weight, ignore_index, label_smoothing, reduction, "cross_entropy")
    if tuple(true.shape) != tuple(pred.shape):
        raise ValueError(
            f"cross_entropy: probability targets of shape {tuple(true.shape)} must have the shape "
            f"of the predictions, {tuple(pred.shape)} (or pass integer class indices)"
        )
    logp, target = _class_last(logp, axis), _class_last(ivy.astype(true, pred.dtype), axis)
    if label_smoothing:
        target = target * (1.0 - label_smoothing) + label_smoothing / int(logp.shape[-1])
    loss = -ivy.sum(target * (logp if weight is None else logp * weight), axis=-1)
    return _reduce(loss, reduction)


def nll(
    labels: Any,
    log_probs: Any,
    /,
    *,
    axis: int = -1,
    weight: Any = None,
    ignore_index: int | None = None,
    reduction: str = "mean",
) -> Any:
    """Negative log-likelihood of integer ``labels`` under ``log_probs`` (log-probabilities, e.g.
    from :func:`ivy.log_softmax`), as ``torch.nn.functional.nll_loss``: ``-w[y] log_probs[y]``.

    Args:
        labels: integer class indices, ``log_probs``' shape without the class axis.
        log_probs: log-probabilities, the classes along ``axis``.
        axis: the class axis.
        weight: per-class weights ``[C]``.
        ignore_index: labels equal to it contribute nothing.
        reduction: ``"mean"`` (divided by the summed weights of the kept samples), ``"sum"``, ``"none"``.

    Returns:
        A 0-d array, or the per-sample losses for ``"none"``.
    """
    if not _is_int(labels):
        raise TypeError(f"nll takes integer class indices, got labels of dtype {labels.dtype}")
    labels, logp = _labels_and_logp(labels, log_probs, axis, "nll")
    return _integer_nll(labels, logp, _as_weights(weight, log_probs), ignore_index, 0.0, reduction, "nll")


def _bce_logits(y: Any, x: Any, pos_weight: Any = None) -> Any:
    """``(1 - y) x + c (-log sigmoid(x))``, ``c = 1 + (pos_weight - 1) y``, with ``-log sigmoid(x)
    = max(-x, 0) + log(1 + exp(-|x|))``: finite for any ``x``. The linear terms are added first:
    for hard labels they cancel exactly, and a tiny loss keeps its digits."""
    tail = ivy.log1p(ivy.exp(-ivy.abs(x)))
    relu_neg = ivy.maximum(-x, ivy.zeros_like(x))
    if pos_weight is None:
        return ((1.0 - y) * x + relu_neg) + tail
    c = 1.0 + (pos_weight - 1.0) * y
    return ((1.0 - y) * x + c * relu_neg) + c * tail


def _check_focal(what: str, gamma: float, alpha: float | None) -> None:
    if not gamma >= 0.0:
        raise ValueError(f"{what}: gamma must be >= 0, got {gamma!r}")
    if alpha is not None and not 0.0 <= alpha <= 1.0:
        raise ValueError(f"{what}: alpha must be in [0, 1], got {alpha!r}")


def _focus(q: Any, gamma: float) -> Any:
    """``q ** gamma`` for ``q`` in ``[0, 1]``, ``q`` floored at the dtype's smallest normal number:
    where ``q`` underflows to 0 (a confident right prediction), the gradient of ``q ** gamma``
    stays finite for ``gamma < 1`` (``0 ** (gamma - 1)`` would be infinite, and times the zero
    slope of the saturated softmax or sigmoid, NaN)."""
    floor = ivy.full_like(q, float(ivy.finfo(q.dtype).smallest_normal))
    return ivy.maximum(q, floor) ** gamma


def binary_cross_entropy(
    true: Any,
    pred: Any,
    /,
    *,
    epsilon: float = 1e-7,
    from_logits: bool = False,
    pos_weight: Any = None,
    weight: Any = None,
    label_smoothing: float = 0.0,
    reduction: str = "mean",
) -> Any:
    """Binary (or multi-label) cross-entropy, per element: ``-(y log p + (1 - y) log(1 - p))``:
    :func:`ivy.binary_cross_entropy` with weights and label smoothing.

    From probabilities (the default; Keras' ``BinaryCrossentropy()``,
    ``torch.nn.functional.binary_cross_entropy``) ``p`` is ``pred`` clipped to ``[epsilon, 1 -
    epsilon]``. From logits (``torch.nn.functional.binary_cross_entropy_with_logits``, Keras'
    ``from_logits=True``) it is computed as ``(1 - y) x + log(1 + e^-|x|) + max(-x, 0)``, exact
    for any logit.

    Args:
        true: targets in ``[0, 1]``, the shape of ``pred``.
        pred: probabilities, or logits with ``from_logits``.
        epsilon: with probabilities, the clipping bound that keeps the logarithms finite.
        from_logits: whether ``pred`` holds logits.
        pos_weight: weight of the positive term (torch's ``pos_weight``, broadcast along the last axis).
        weight: per-element weights, broadcastable to ``pred``.
        label_smoothing: ``ε``: the target becomes ``(1 - ε) y + ε / 2`` (Keras).
        reduction: ``"mean"`` over every element, ``"sum"`` or ``"none"``.

    Returns:
        A 0-d array, or the per-element losses for ``"none"``.
    """
    y = ivy.astype(true, pred.dtype)
    if label_smoothing:
        y = y * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        loss = _bce_logits(y, pred, _as_weights(pos_weight, pred))
    else:
        log_p, log_q = _log_p_and_q(pred, epsilon)
        pw = 1.0 if pos_weight is None else _as_weights(pos_weight, pred)
        loss = -(pw * y * log_p + (1.0 - y) * log_q)
    if weight is not None:
        loss = loss * _as_weights(weight, pred)
    return _reduce(loss, reduction)


def _log_p_and_q(p: Any, epsilon: float) -> tuple[Any, Any]:
    """``(log p, log(1 - p))`` of probabilities clipped to ``[epsilon, 1 - epsilon]``."""
    p = ivy.clip(p, epsilon, 1.0 - epsilon)
    return ivy.log(p), ivy.log1p(-p)


def focal(
    true: Any,
    pred: Any,
    /,
    *,
    epsilon: float = 1e-7,
    from_logits: bool = False,
    gamma: float = 2.0,
    alpha: float | None = 0.25,
    reduction: str = "mean",
) -> Any:
    """Binary focal loss (Lin et al., 2017; Keras' ``BinaryFocalCrossentropy(
    apply_class_balancing=True)``; from logits torchvision's ``sigmoid_focal_loss``), per element:
    ``α_t (1 - p_t)^γ BCE(y, p)`` with ``p_t = p y + (1 - p)(1 - y)`` and ``α_t = α y + (1 - α)(1
    - y)``; ``p`` is ``pred`` clipped to ``[epsilon, 1 - epsilon]``, or ``sigmoid(pred)`` with
    ``from_logits``.

    Args:
        true: targets in ``[0, 1]``, the shape of ``pred``.
        pred: probabilities, or logits with ``from_logits``.
        epsilon: with probabilities, the clipping bound that keeps the logarithms finite.
        from_logits: whether ``pred`` holds logits.
        gamma: focusing parameter ``γ >= 0`` (gradients stay finite for ``γ < 1`` too, where
            ``1 - p_t`` underflows).
        alpha: class balance ``α`` in ``[0, 1]``; ``None``: no balancing.
        reduction: ``"mean"`` over every element, ``"sum"`` or ``"none"``.
    """
    _check_focal("focal", gamma, alpha)
    y = ivy.astype(true, pred.dtype)
    if from_logits:
        # 1 - p_t as (1 - y) sigmoid(x) + y sigmoid(-x): 1 - sigmoid(x) would round to 0 from x ~ 17 on
        q = (1.0 - y) * ivy.sigmoid(pred) + y * ivy.sigmoid(-pred)
        bce = _bce_logits(y, pred)
    else:
        p = ivy.clip(pred, epsilon, 1.0 - epsilon)
        log_p, log_q = _log_p_and_q(p, epsilon)
        q = (1.0 - y) * p + y * (1.0 - p)
        bce = -(y * log_p + (1.0 - y) * log_q)
    loss = bce * _focus(q, gamma)
    if alpha is not None:
        loss = loss * (alpha * y + (1.0 - alpha) * (1.0 - y))
    return _reduce(loss, reduction)


def _one_hot_like(labels: Any, scores: Any, axis: int, what: str) -> Any:
    """Class probabilities, classes last: integer labels one-hot encoded, else ``labels``."""
    scores_last = _class_last(scores, axis)
    if _is_int(labels):
        _labels_and_logp(labels, scores, axis, what)
        return ivy.one_hot(labels, int(scores_last.shape[-1]), dtype=scores.dtype)
    if tuple(labels.shape) != tuple(scores.shape):
        raise ValueError(
            f"{what}: targets of shape {tuple(labels.shape)} must have the shape of the scores "
            f"{tuple(scores.shape)}, or be integer class indices"
        )
    return _class_last(ivy.astype(labels, scores.dtype), axis)


def categorical_focal(
    true: Any,
    pred: Any,
    /,
    *,
    axis: int = -1,
    epsilon: float = 1e-7,
    from_logits: bool = False,
    gamma: float = 2.0,
    alpha: float = 0.25,
    reduction: str = "mean",
) -> Any:
    """Multi-class focal loss (Keras' ``CategoricalFocalCrossentropy``): per sample ``-Σ_c α (1 -
    p_c)^γ y_c log p_c`` with ``p`` the probabilities ``pred`` clipped to ``[epsilon, 1 -
    epsilon]``, or ``softmax(pred)`` with ``from_logits``.

    Args:
        true: integer class indices, or class probabilities of the shape of ``pred``.
        pred: probabilities, or logits with ``from_logits``; classes along ``axis``.
        axis: the class axis.
        epsilon: with probabilities, the clipping bound that keeps the logarithm finite.
        from_logits: whether ``pred`` holds logits.
        gamma: focusing parameter ``γ >= 0``.
        alpha: weight of every class, in ``[0, 1]``.
        reduction: ``"mean"`` over samples, ``"sum"`` or ``"none"``.
    """
    _check_focal("categorical_focal", gamma, alpha)
    y = _one_hot_like(true, pred, axis, "categorical_focal")
    logp = _class_last(_log_probabilities(pred, axis, epsilon, from_logits), axis)
    loss = -ivy.sum(alpha * _focus(-ivy.expm1(logp), gamma) * y * logp, axis=-1)
    return _reduce(loss, reduction)


def _l2_normalize(x: Any, axis: int, eps: float = 1e-12) -> Any:
    return x / ivy.sqrt(ivy.maximum(ivy.sum(x * x, axis=axis, keepdims=True), ivy.full_like(x[..., :1], eps)))


def cosine_similarity(true: Any, pred: Any, /, *, axis: int = -1, reduction: str = "mean") -> Any:
    """Negative cosine similarity along ``axis`` (Keras' ``CosineSimilarity`` loss): ``-cos(true,
    pred)`` per sample, in ``[-1, 1]`` (``-1``: aligned), each vector normalised with its squared
    norm floored at ``1e-12``."""
    t = _class_last(ivy.astype(true, pred.dtype), axis)
    p = _class_last(pred, axis)
    return _reduce(-ivy.sum(_l2_normalize(t, -1) * _l2_normalize(p, -1), axis=-1), reduction)


def cosine_embedding(x1: Any, x2: Any, labels: Any, /, *, margin: float = 0.0, reduction: str = "mean") -> Any:
    """torch's ``cosine_embedding_loss``: per pair of rows (last axis), ``1 - cos`` where
    ``labels`` is 1 and ``max(0, cos - margin)`` where it is -1; ``cos`` with ``1e-12`` added
    to each squared norm."""
    dot = ivy.sum(x1 * x2, axis=-1)
    cos = dot / ivy.sqrt((ivy.sum(x1 * x1, axis=-1) + 1e-12) * (ivy.sum(x2 * x2, axis=-1) + 1e-12))
    pos = labels == 1
    loss = ivy.where(pos, 1.0 - cos, ivy.maximum(cos - margin, ivy.zeros_like(cos)))
    return _reduce(loss, reduction)


def _signed(true: Any, like: Any) -> Any:
    y = ivy.astype(true, like.dtype)
    return ivy.where(y == 0.0, -ivy.ones_like(y), y)  # labels 0/1 or -1/1: a 0 is the negative class


def hinge(true: Any, pred: Any, /, *, reduction: str = "mean") -> Any:
    """Hinge loss (Keras' ``Hinge``), per element: ``max(1 - y pred, 0)``, labels ``y`` in
    ``{-1, 1}`` or ``{0, 1}`` (0 taken as -1). ``"none"``: per element."""
    return _reduce(ivy.maximum(1.0 - _signed(true, pred) * pred, ivy.zeros_like(pred)), reduction)


def squared_hinge(true: Any, pred: Any, /, *, reduction: str = "mean") -> Any:
    """Squared hinge loss (Keras' ``SquaredHinge``): ``max(1 - y pred, 0)²`` per element, labels
    as for :func:`hinge`."""
    h = ivy.maximum(1.0 - _signed(true, pred) * pred, ivy.zeros_like(pred))
    return _reduce(h * h, reduction)


def categorical_hinge(labels: Any, pred: Any, /, *, axis: int = -1, reduction: str = "mean") -> Any:
    """Keras' ``CategoricalHinge``, per sample: ``max(max_{c != y} pred_c - pred_y + 1, 0)``
    (``pos = Σ y pred``, ``neg = max((1 - y) pred)`` for one-hot ``y``); integer labels or one-hot."""
    y = _one_hot_like(labels, pred, axis, "categorical_hinge")
    p = _class_last(pred, axis)
    pos = ivy.sum(y * p, axis=-1)
    neg = ivy.max((1.0 - y) * p, axis=-1)
    return _reduce(ivy.maximum(neg - pos + 1.0, ivy.zeros_like(pos)), reduction)


def multi_margin(
    labels: Any, scores: Any, /, *, p: int = 1, margin: float = 1.0, weight: Any = None, reduction: str = "mean"
) -> Any:
    """torch's ``multi_margin_loss``: per sample ``Σ_{c != y} w[y] max(0, margin - s_y + s_c)^p / C``,
    ``scores`` ``[..., C]``, integer ``labels``."""
    if p not in (1, 2):
        raise ValueError(f"multi_margin: p must be 1 or 2, got {p}")
    labels, s = _labels_and_logp(labels, scores, -1, "multi_margin")
    n_classes = int(s.shape[-1])
    s_y = ivy.expand_dims(_pick(s, labels), axis=-1)
    m = ivy.maximum(margin - s_y + s, ivy.zeros_like(s)) ** p
    not_y = 1.0 - ivy.one_hot(labels, n_classes, dtype=s.dtype)
    loss = ivy.sum(m * not_y, axis=-1) / n_classes
    weight = _as_weights(weight, scores)
    if weight is not None:
        loss = loss * _pick(ivy.broadcast_to(weight, tuple(s.shape)), labels)
    return _reduce(loss, reduction)


#: stands for log(0) in CTC's forward variables (a finite value keeps every gradient finite)
_LOG_ZERO = -1e30


def _logsumexp3(a: Any, b: Any, c: Any) -> Any:
    m = ivy.maximum(ivy.maximum(a, b), c)
    return m + ivy.log(ivy.exp(a - m) + ivy.exp(b - m) + ivy.exp(c - m))


def ctc(
    labels: Any,
    logits: Any,
    logit_lengths: Any,
    label_lengths: Any,
    /,
    *,
    blank: int = 0,
    reduction: str = "mean",
    zero_infinity: bool = False,
) -> Any:
    """Connectionist temporal classification loss (Graves et al., 2006), composed from ``ivy``
    ops (the forward algorithm in log space, over the time steps): ``-log p(labels | logits)``
    summed over the alignments.

    Args:
        labels: ``[batch, max_label_length]`` integer labels (padded past each label length; never
            ``blank``).
        logits: ``[batch, time, classes]`` (batch first; torch's ``log_probs`` are ``[time,
            batch, classes]``): logits or log-probabilities (a log-softmax is applied).
        logit_lengths: ``[batch]`` integer lengths of the logit sequences.
        label_lengths: ``[batch]`` integer lengths of the label sequences.
        blank: the blank class.
        reduction: ``"mean"`` (each loss divided by its label length, then the batch mean:
            torch's), ``"sum"`` or ``"none"`` (per sample).
        zero_infinity: give impossible alignments (an infinite loss) a zero loss and gradient.

    Returns:
        A 0-d array, or ``[batch]`` for ``"none"``.
    """
    _check_reduction(reduction)
    logp = ivy.log_softmax(logits, axis=-1)
    batch, steps, _ = (int(d) for d in logp.shape)
    n_labels = int(labels.shape[1])
    s_len = 2 * n_labels + 1
    kw = {"device": ivy.dev(logits), "backend": ivy.namespace(logits)}
    lab = labels
    blanks = ivy.full((batch, n_labels), blank, dtype=lab.dtype, **kw)
    # the extended label sequence: blank, l1, blank, l2, ..., blank
    ext = ivy.concat(
        [
            ivy.reshape(ivy.stack([blanks, lab], axis=-1), (batch, 2 * n_labels)),
            ivy.full((batch, 1), blank, dtype=lab.dtype, **kw),
        ],
        axis=1,
    )
    # where the s-2 transition is allowed: a label that differs from the label two places back
    prev2 = ivy.concat([ivy.full((batch, 2), blank, dtype=lab.dtype, **kw), ext[:, :-2]], axis=1)
    skip = ivy.logical_and(ext != blank, ext != prev2)
    neg = ivy.full((batch, s_len), _LOG_ZERO, dtype=logp.dtype, **kw)
    pad1 = ivy.full((batch, 1), _LOG_ZERO, dtype=logp.dtype, **kw)
    pad2 = ivy.full((batch, 2), _LOG_ZERO, dtype=logp.dtype, **kw)
    emit = [ivy.take_along_axis(lp, ext, axis=-1) for lp in ivy.unstack(logp, axis=1)]  # [batch, S] per step
    pos = ivy.arange(s_len, **kw)
    alpha = ivy.where(ivy.expand_dims(pos < 2, axis=0), emit[0], neg)
    t_len = ivy.expand_dims(ivy.astype(logit_lengths, lab.dtype), axis=-1)
    for t in range(1, steps):
        a1 = ivy.concat([pad1, alpha[:, :-1]], axis=1)
        a2 = ivy.where(skip, ivy.concat([pad2, alpha[:, :-2]], axis=1), neg)
        new = _logsumexp3(alpha, a1, a2) + emit[t]
        alpha = ivy.where(t < t_len, new, alpha)  # sequences already ended keep their last step
    end = ivy.expand_dims(2 * ivy.astype(label_lengths, lab.dtype), axis=-1)
    last = ivy.take_along_axis(alpha, end, axis=-1)[:, 0]
    before = ivy.take_along_axis(alpha, ivy.maximum(end - 1, ivy.zeros_like(end)), axis=-1)[:, 0]
    before = ivy.where(end[:, 0] > 0, before, ivy.full_like(before, _LOG_ZERO))
    m = ivy.maximum(last, before)
    loss = -(m + ivy.log(ivy.exp(last - m) + ivy.exp(before - m)))
    impossible = loss > -0.5 * _LOG_ZERO
    if zero_infinity:
        loss = ivy.where(impossible, ivy.zeros_like(loss), loss)
    else:
        loss = ivy.where(impossible, ivy.full_like(loss, float("inf")), loss)
    if reduction == "mean":
        lengths = ivy.astype(label_lengths, loss.dtype)
        return ivy.mean(loss / ivy.maximum(lengths, ivy.ones_like(lengths)))
    return _reduce(loss, reduction)


def mse(true: Any, pred: Any, /, *, reduction: str = "mean") -> Any:
    """Mean squared error per element, ``(true - pred)²`` (:func:`ivy.mse_loss`)."""
    _check_reduction(reduction)
    return ivy.mse_loss(true, pred, reduction=reduction)


def mae(true: Any, pred: Any, /, *, reduction: str = "mean") -> Any:
    """Mean absolute error per element, ``|true - pred|`` (:func:`ivy.l1_loss`)."""
    _check_reduction(reduction)
    return ivy.l1_loss(true, pred, reduction=reduction)


def huber(true: Any, pred: Any, /, *, delta: float = 1.0, reduction: str = "mean") -> Any:
    """Huber loss per element (:func:`ivy.huber_loss`): quadratic within ``delta``, linear beyond."""
    _check_reduction(reduction)
    return ivy.huber_loss(true, pred, delta=delta, reduction=reduction)


def kl_div(true: Any, pred: Any, /, *, axis: int = -1, reduction: str = "mean") -> Any:
    """Kullback-Leibler divergence ``KL(true || pred)`` between distributions along ``axis``
    (:func:`ivy.kl_div`, probabilities on both sides)."""
    _check_reduction(reduction)
    return ivy.kl_div(true, pred, axis=axis, reduction=reduction)


# ------------------------------------------------------------------ classes


class Loss:
    """A loss function with its keyword settings: ``loss(true, pred)`` calls the function.

    Subclasses name the function (``_FN``); the constructor takes its keyword-only arguments.
    """

    _FN: Callable[..., Any]

    def __init__(self, **settings: Any) -> None:
        fn = type(self)._FN
        allowed = {n for n, p in inspect.signature(fn).parameters.items() if p.kind is p.KEYWORD_ONLY}
        unknown = sorted(set(settings) - allowed)
        if unknown:
            raise TypeError(f"{type(self).__name__} takes {sorted(allowed)}, got {unknown}")
        if "reduction" in settings:
            _check_reduction(settings["reduction"])
        self.settings = settings

    def __call__(self, *args: Any) -> Any:
        return type(self)._FN(*args, **self.settings)

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.settings.items() if not ivy.is_native_array(v))
        return f"{type(self).__name__}({args})"


def _loss_class(name: str, fn: Callable[..., Any]) -> type:
    doc = (
        f"Loss class of :func:`ivy.losses.{fn.__name__}`: ``{name}(**settings)(...)`` is "
        f"``ivy.losses.{fn.__name__}(..., **settings)``.\n\n    " + (fn.__doc__ or "").split("\n\n")[0].strip()
    )
    return type(name, (Loss,), {"_FN": staticmethod(fn), "__doc__": doc, "__module__": __name__})


CrossEntropyLoss = _loss_class("CrossEntropyLoss", cross_entropy)
NLLLoss = _loss_class("NLLLoss", nll)
BinaryCrossEntropyLoss = _loss_class("BinaryCrossEntropyLoss", binary_cross_entropy)
FocalLoss = _loss_class("FocalLoss", focal)
CategoricalFocalLoss = _loss_class("CategoricalFocalLoss", categorical_focal)
CosineSimilarityLoss = _loss_class("CosineSimilarityLoss", cosine_similarity)
CosineEmbeddingLoss = _loss_class("CosineEmbeddingLoss", cosine_embedding)
HingeLoss = _loss_class("HingeLoss", hinge)
SquaredHingeLoss = _loss_class("SquaredHingeLoss", squared_hinge)
CategoricalHingeLoss = _loss_class("CategoricalHingeLoss", categorical_hinge)
MultiMarginLoss = _loss_class("MultiMarginLoss", multi_margin)
CTCLoss = _loss_class("CTCLoss", ctc)
MSELoss = _loss_class("MSELoss", mse)
L1Loss = _loss_class("L1Loss", mae)
HuberLoss = _loss_class("HuberLoss", huber)
KLDivLoss = _loss_class("KLDivLoss", kl_div)
