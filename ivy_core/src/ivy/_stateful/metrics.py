"""``ivy.metrics``: streaming metrics, small stateful objects with ``update`` / ``result`` /
``reset`` (Keras' ``update_state`` / ``result`` / ``reset_state``, torchmetrics' ``update`` /
``compute`` / ``reset``).

A metric keeps its running sums as native arrays of the backend of the first ``update``'s
inputs, so ``update`` also runs inside a compiled training step: ``ivy.compile`` threads a
metric's state through the compiled program like a module's (the metric must be reachable by
the compiled function: a global, a closure variable, an argument, or an attribute of a bound
method's ``self``). ``result()`` returns a 0-d native array (per-class metrics with
``average=None``: ``[classes]``); ``float(m.result())`` gives a number.

``update(true, pred, sample_weight=None)``: ``true`` integer class indices (or one-hot rows,
or 0/1 targets for the binary metrics), ``pred`` scores (logits or probabilities; only their
order or the threshold matters), ``sample_weight`` one weight per sample.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import _api as ivy
from .. import _tracking

__all__ = ["Metric", "Mean", "Accuracy", "BinaryAccuracy", "TopKAccuracy", "Precision", "Recall", "F1Score", "AUC"]


class Metric:
    """Base class: subclasses define :meth:`_zeros` (the state at the start, a dict of arrays),
    :meth:`_update` (state, inputs -> new state) and :meth:`_result` (state -> value).

    Args:
        name: the metric's name in logs and training histories; default from the class.
    """

    _NAME = "metric"

    def __init__(self, name: str | None = None) -> None:
        self.name = name or self._NAME
        self._state: dict[str, Any] | None = None

    # -- to override
    def _zeros(self, like: Any, *args: Any) -> dict[str, Any]:
        raise NotImplementedError(f"{type(self).__name__} must implement _zeros")  # a subclass hook

    #: ``(state, *inputs, sample_weight=None) -> new state``; each subclass names its inputs
    _update: Callable[..., dict[str, Any]]

    def _result(self, state: dict[str, Any]) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must implement _result")  # a subclass hook

    # -- public
    def update(self, *args: Any, sample_weight: Any = None) -> None:
        """Add a batch: ``update(true, pred, sample_weight=None)`` (:class:`Mean`: ``update(values)``)."""
        if _tracking._session is not None:  # inside an ivy.compile'd call: is this state threaded?
            _tracking.touch(self)
        if self._state is None:
            self._state = self._zeros(args[-1], *args)
        self._state = self._update(self._state, *args, sample_weight=sample_weight)

    def result(self) -> Any:
        """The metric over every batch since the last :meth:`reset`, a native array.

        Raises:
            ValueError: no batch since the metric was created.
        """
        if _tracking._session is not None:
            _tracking.touch(self)
        if self._state is None:
            raise ValueError(f"{type(self).__name__} {self.name!r} has seen no batch: call update() first")
        return self._result(self._state)

    def reset(self) -> None:
        """Forget every batch (the state goes back to zeros, on the same backend and device)."""
        if _tracking._session is not None:
            _tracking.touch(self)
        if self._state is not None:
            self._state = {k: ivy.zeros_like(x) for k, x in self._state.items()}

    def __call__(self, *args: Any, sample_weight: Any = None) -> Any:
        """:meth:`update` then :meth:`result`."""
        self.update(*args, sample_weight=sample_weight)
        return self.result()

    @property
    def built(self) -> bool:
        """Whether the state exists (after the first update)."""
        return self._state is not None

    def __repr__(self) -> str:
        settings = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if not k.startswith("_") and k != "name")
        return f"{type(self).__name__}({settings}{', ' if settings else ''}name={self.name!r})"

    # -- compiled programs (see ivy._tracking)
    def _ivy_members(self) -> list[Metric]:
        return [self]

    def _ivy_get_state(self) -> Any:
        return None if self._state is None else dict(self._state)

    def _ivy_set_state(self, state: Any, *, concrete: bool = True) -> None:
        self._state = None if state is None else dict(state)

    def _ivy_ready(self) -> bool:
        return self._state is not None


def _zeros(like: Any, shape: tuple[int, ...] = ()) -> Any:
    """float32 zeros of ``shape``, placed where a reduction of ``like`` is (its device; for an
    array sharded across devices, replicated on them)."""
    z = ivy.zeros_like(ivy.astype(ivy.sum(like), "float32"))
    return z if shape == () else ivy.broadcast_to(z, shape) + 0.0


def _weights(sample_weight: Any, n_like: Any) -> Any:
    """Per-sample weights as float32 (ones without ``sample_weight``), shaped like ``n_like``."""
    if sample_weight is None:
        return ivy.ones_like(ivy.astype(n_like, "float32"))
    w = ivy.astype(
        sample_weight
        if ivy.is_native_array(sample_weight)
        else ivy.asarray(sample_weight, device=ivy.dev(n_like), backend=ivy.namespace(n_like)),
        "float32",
    )
    return ivy.broadcast_to(w, tuple(n_like.shape))


def _static_size(x: Any) -> int | None:
    """The number of elements of ``x`` where its shape is known as Python ints, else None."""
    size = 1
    for d in x.shape:
        if type(d) is not int or d < 0:
            return None
        size *= d
    return size


def _labels(true: Any, pred: Any, axis: int) -> Any:
    """Integer class indices from ``true``: indices as they are, one-hot rows through argmax."""
    if len(true.shape) == len(pred.shape):
        return ivy.argmax(true, axis=axis)
    return true


class Mean(Metric):
    """The (weighted) mean of every value passed to ``update(values, sample_weight=None)``: a
    training loss's running average. ``sample_weight``: one weight per value, or one number for
    them all (a batch's mean loss weighted by the batch's size)."""

    _NAME = "mean"

    def _zeros(self, like: Any, *args: Any) -> dict[str, Any]:
        return {"total": _zeros(like), "count": _zeros(like)}

    def _update(self, state: dict[str, Any], values: Any, sample_weight: Any = None) -> dict[str, Any]:
        v = ivy.astype(values, "float32")
        number = sample_weight is None or (
            isinstance(sample_weight, (int, float)) and not isinstance(sample_weight, bool)
        )
        size = _static_size(v) if number else None
        if size is not None:
            # one number weighs every value alike: no array of weights to build (a training
            # loop's loss, weighted by its batch's size, on every step)
            w = 1.0 if sample_weight is None else float(sample_weight)
            return {"total": state["total"] + ivy.sum(v) * w, "count": state["count"] + w * size}
        w = _weights(sample_weight, v)
        return {"total": state["total"] + ivy.sum(v * w), "count": state["count"] + ivy.sum(w)}

    def _result(self, state: dict[str, Any]) -> Any:
        return state["total"] / state["count"]


class Accuracy(Metric):
    """Classification accuracy: the fraction of samples whose highest score (``argmax`` over
    ``axis``) is the true class (Keras' ``SparseCategoricalAccuracy`` / ``CategoricalAccuracy``).

    Args:
        axis: the class axis of ``pred``.
        name: default ``"accuracy"``.
    """

    _NAME = "accuracy"

    def __init__(self, *, axis: int = -1, name: str | None = None) -> None:
        self.axis = axis
        super().__init__(name)

    def _zeros(self, like: Any, *args: Any) -> dict[str, Any]:
        return {"correct": _zeros(like), "count": _zeros(like)}

    def _hits(self, true: Any, pred: Any) -> Any:
        predicted = ivy.argmax(pred, axis=self.axis)
        return ivy.astype(predicted == ivy.astype(_labels(true, pred, self.axis), predicted.dtype), "float32")

    def _update(self, state: dict[str, Any], true: Any, pred: Any, sample_weight: Any = None) -> dict[str, Any]:
        hits = self._hits(true, pred)
        w = _weights(sample_weight, hits)
        return {"correct": state["correct"] + ivy.sum(hits * w), "count": state["count"] + ivy.sum(w)}

    def _result(self, state: dict[str, Any]) -> Any:
        return state["correct"] / state["count"]


class BinaryAccuracy(Accuracy):
    """Binary (or multi-label) accuracy: the fraction of elements where ``pred > threshold``
    agrees with ``true`` (0/1 or boolean) (Keras' ``BinaryAccuracy``).

    Args:
        threshold: ``0.5`` for probabilities; ``0.0`` for logits.
        name: default ``"binary_accuracy"``.
    """

    _NAME = "binary_accuracy"

    def __init__(self, *, threshold: float = 0.5, name: str | None = None) -> None:
        self.threshold = threshold
        Metric.__init__(self, name)

    def _hits(self, true: Any, pred: Any) -> Any:
        return ivy.astype((pred > self.threshold) == (ivy.astype(true, "float32") > 0.5), "float32")


class TopKAccuracy(Accuracy):
    """Top-``k`` accuracy: the fraction of samples whose true class is among the ``k`` highest
    scores (ties at the boundary count as hits, as ``tf.math.in_top_k``; Keras'
    ``SparseTopKCategoricalAccuracy``).

    Args:
        k: how many of the highest scores count.
        axis: the class axis (classes last is required: ``-1``).
        name: default ``"top_{k}_accuracy"``.
    """

    def __init__(self, k: int = 5, *, axis: int = -1, name: str | None = None) -> None:
        self.k = k
        super().__init__(axis=axis, name=name or f"top_{k}_accuracy")

    def _hits(self, true: Any, pred: Any) -> Any:
        labels = _labels(true, pred, self.axis)
        scores = pred if self.axis in (-1, len(pred.shape) - 1) else ivy.moveaxis(pred, self.axis, -1)
        index = ivy.astype(labels, ivy.argmax(scores[..., :1], axis=-1).dtype)  # the backend's index dtype
        target = ivy.take_along_axis(scores, ivy.expand_dims(index, axis=-1), axis=-1)
        above = ivy.sum(ivy.astype(scores > target, "float32"), axis=-1)
        return ivy.astype(above < self.k, "float32")


class _Confusion(Metric):
    """Per-class true positives, false positives and false negatives."""

    def __init__(
        self,
        num_classes: int | None = None,
        *,
        average: str | None = "macro",
        threshold: float = 0.5,
        multilabel: bool = False,
        axis: int = -1,
        name: str | None = None,
    ) -> None:
        if average not in ("macro", "micro", "weighted", None):
            raise ValueError(f"average must be 'macro', 'micro', 'weighted' or None, got {average!r}")
        if multilabel and num_classes is None:
            raise ValueError("multilabel needs num_classes")
        self.num_classes, self.average, self.threshold = num_classes, average, threshold
        self.multilabel, self.axis = multilabel, axis
        super().__init__(name)

    def _zeros(self, like: Any, *args: Any) -> dict[str, Any]:
        c = self.num_classes or 1
        return {k: _zeros(like, (c,)) for k in ("tp", "fp", "fn")}

    def _indicators(self, true: Any, pred: Any) -> tuple[Any, Any]:
        """``(Y, P)``: ``[samples, classes]`` 0/1 float32 matrices of truths and predictions."""
        if self.num_classes is None:  # binary: the positive class only
            p = ivy.astype(pred > self.threshold, "float32")
            y = ivy.astype(ivy.astype(true, "float32") > 0.5, "float32")
            return ivy.reshape(y, (-1, 1)), ivy.reshape(p, (-1, 1))
        c = self.num_classes
        scores = pred if self.axis in (-1, len(pred.shape) - 1) else ivy.moveaxis(pred, self.axis, -1)
        if self.multilabel:
            p = ivy.astype(scores > self.threshold, "float32")
            y = ivy.astype(ivy.astype(true, "float32") > 0.5, "float32")
        else:
            if int(scores.shape[-1]) != c:
                raise ValueError(
                    f"{type(self).__name__}: num_classes={c} but the scores have "
                    f"{int(scores.shape[-1])} classes (shape {tuple(pred.shape)})"
                )
            p = ivy.one_hot(ivy.argmax(scores, axis=-1), c, dtype="float32")
            y = (
                ivy.astype(true, "float32")
                if len(true.shape) == len(pred.shape)
                else ivy.one_hot(true, c, dtype="float32")
            )
        return ivy.reshape(y, (-1, c)), ivy.reshape(p, (-1, c))

    def _update(self, state: dict[str, Any], true: Any, pred: Any, sample_weight: Any = None) -> dict[str, Any]:
        y, p = self._indicators(true, pred)
        if sample_weight is not None:
            w = ivy.reshape(
                ivy.astype(
                    sample_weight
                    if ivy.is_native_array(sample_weight)
                    else ivy.asarray(sample_weight, device=ivy.dev(pred), backend=ivy.namespace(pred)),
                    "float32",
                ),
                (-1, 1),
            )
            if int(w.shape[0]) != int(y.shape[0]):  # one weight per sample of a multi-dimensional batch
                w = ivy.reshape(
                    ivy.broadcast_to(ivy.reshape(w, (-1, 1)), (int(w.shape[0]), int(y.shape[0]) // int(w.shape[0]))),
                    (-1, 1),
                )
            y_w = y * w
        else:
            y_w, w = y, 1.0
        return {
            "tp": state["tp"] + ivy.sum(p * y_w, axis=0),
            "fp": state["fp"] + ivy.sum(p * (1.0 - y) * w, axis=0),
            "fn": state["fn"] + ivy.sum((1.0 - p) * y_w, axis=0),
        }

    @staticmethod
    def _ratio(num: Any, den: Any) -> Any:
        safe = ivy.where(den > 0, den, ivy.ones_like(den))
        return ivy.where(den > 0, num / safe, ivy.zeros_like(num))  # 0 where undefined (as scikit-learn)

    def _per_class(self, tp: Any, fp: Any, fn: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must implement _per_class")  # a subclass hook

    def _result(self, state: dict[str, Any]) -> Any:
        tp, fp, fn = state["tp"], state["fp"], state["fn"]
        if self.num_classes is None:
            return self._per_class(tp, fp, fn)[0]
        if self.average == "micro":
            return self._per_class(ivy.sum(tp), ivy.sum(fp), ivy.sum(fn))
        per = self._per_class(tp, fp, fn)
        if self.average is None:
            return per
        if self.average == "macro":
            return ivy.mean(per)
        support = tp + fn
        return ivy.sum(per * support) / ivy.maximum(ivy.sum(support), ivy.ones_like(ivy.sum(support)))


_CONFUSION_ARGS = """
    Args:
        num_classes: ``None``: binary (``pred > threshold`` against 0/1 ``true``); else the number
            of classes: ``pred`` scores ``[..., num_classes]`` (predicted class: the argmax) against
            integer (or one-hot) ``true``, or with ``multilabel`` 0/1 targets per class.
        average: over the classes: ``"macro"`` (mean of the per-class values), ``"micro"`` (from
            the summed counts), ``"weighted"`` (by each class's support) or ``None`` (per class,
            ``[num_classes]``).
        threshold: for binary and multi-label predictions (``0.0`` for logits).
        multilabel: independent 0/1 targets per class.
        axis: the class axis of ``pred``.
        name: the metric's name.

    A class never predicted (or never present) contributes 0 where its ratio is undefined (as
    scikit-learn's ``zero_division=0``).
"""


class Precision(_Confusion):
    __doc__ = "Precision ``tp / (tp + fp)``, binary or per class." + _CONFUSION_ARGS
    _NAME = "precision"

    def _per_class(self, tp: Any, fp: Any, fn: Any) -> Any:
        return self._ratio(tp, tp + fp)


class Recall(_Confusion):
    __doc__ = "Recall ``tp / (tp + fn)``, binary or per class." + _CONFUSION_ARGS
    _NAME = "recall"

    def _per_class(self, tp: Any, fp: Any, fn: Any) -> Any:
        return self._ratio(tp, tp + fn)


class F1Score(_Confusion):
    __doc__ = "F1 score ``2 tp / (2 tp + fp + fn)`` (the harmonic mean of precision and recall)." + _CONFUSION_ARGS
    _NAME = "f1_score"

    def _per_class(self, tp: Any, fp: Any, fn: Any) -> Any:
        return self._ratio(2.0 * tp, 2.0 * tp + fp + fn)


class AUC(Metric):
    """Area under the ROC curve, from confusion counts at ``num_thresholds`` thresholds (Keras'
    ``AUC(curve="ROC", summation_method="interpolation")``): thresholds ``0 - 1e-7``,
    ``i / (num_thresholds - 1)`` for ``i = 1 .. num_thresholds - 2``, and ``1 + 1e-7``; a sample
    is predicted positive above a threshold; the area is the trapezoidal sum over the (FPR, TPR)
    points. It approaches the exact AUC as ``num_thresholds`` grows.

    Binary or multi-label (every element an independent 0/1 target, pooled). ``pred`` are
    probabilities (``from_logits=True``: a sigmoid is applied first).

    Args:
        num_thresholds: number of thresholds (> 1).
        from_logits: whether ``pred`` are logits.
        name: default ``"auc"``.
    """

    _NAME = "auc"

    def __init__(self, num_thresholds: int = 200, *, from_logits: bool = False, name: str | None = None) -> None:
        if num_thresholds < 2:
            raise ValueError(f"AUC: num_thresholds must be > 1, got {num_thresholds}")
        self.num_thresholds, self.from_logits = num_thresholds, from_logits
        super().__init__(name)

    def _thresholds(self, like: Any) -> Any:
        n = self.num_thresholds
        values = [-1e-7] + [i / (n - 1) for i in range(1, n - 1)] + [1.0 + 1e-7]
        return ivy.asarray(values, dtype="float32", device=ivy.dev(like), backend=ivy.namespace(like))

    def _zeros(self, like: Any, *args: Any) -> dict[str, Any]:
        return {k: _zeros(like, (self.num_thresholds,)) for k in ("tp", "fp", "tn", "fn")}

    def _update(self, state: dict[str, Any], true: Any, pred: Any, sample_weight: Any = None) -> dict[str, Any]:
        p = ivy.astype(ivy.sigmoid(pred) if self.from_logits else pred, "float32")
        p = ivy.reshape(p, (-1, 1))
        y = ivy.reshape(ivy.astype(ivy.astype(true, "float32") > 0.5, "float32"), (-1, 1))
        w = ivy.reshape(_weights(sample_weight, ivy.reshape(p, tuple(pred.shape))), (-1, 1))
        above = ivy.astype(p > ivy.expand_dims(self._thresholds(pred), axis=0), "float32")  # [n, thresholds]
        return {
            "tp": state["tp"] + ivy.sum(above * y * w, axis=0),
            "fp": state["fp"] + ivy.sum(above * (1.0 - y) * w, axis=0),
            "tn": state["tn"] + ivy.sum((1.0 - above) * (1.0 - y) * w, axis=0),
            "fn": state["fn"] + ivy.sum((1.0 - above) * y * w, axis=0),
        }

    def _result(self, state: dict[str, Any]) -> Any:
        ratio = _Confusion._ratio
        tpr = ratio(state["tp"], state["tp"] + state["fn"])
        fpr = ratio(state["fp"], state["fp"] + state["tn"])
        return ivy.sum((fpr[:-1] - fpr[1:]) * (tpr[:-1] + tpr[1:]) * 0.5)
