"""``ivy.metrics``: streaming accuracy, top-k accuracy, precision / recall / F1, mean and AUC
over several batches (with sample weights), against Keras' metrics on tensorflow and NumPy
formulas everywhere; reset; and updates inside a compiled step (the state threaded by
ivy.compile) equal to eager ones."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ivy
from ivy.testing.convert import native_to_numpy, to_native

RNG = np.random.default_rng(6)
C = 4
BATCHES = [
    (
        RNG.integers(0, C, 12),
        RNG.standard_normal((12, C)).astype(np.float32),
        RNG.uniform(0.2, 2.0, 12).astype(np.float32),
    )
    for _ in range(3)
]
Y = np.concatenate([b[0] for b in BATCHES])
P = np.concatenate([b[1] for b in BATCHES])
W = np.concatenate([b[2] for b in BATCHES])


def _stream(backend: str, metric: Any, batches: list[tuple[np.ndarray, ...]], weighted: bool = False) -> np.ndarray:
    for y, p, w in batches:
        metric.update(
            to_native(backend, y), to_native(backend, p), sample_weight=to_native(backend, w) if weighted else None
        )
    return native_to_numpy(backend, metric.result())


def _keras_stream(name: str, batches: list[tuple[np.ndarray, ...]], weighted: bool = False, **kw: Any) -> np.ndarray:
    import keras

    m = getattr(keras.metrics, name)(**kw)
    for y, p, w in batches:
        m.update_state(y, p, sample_weight=w if weighted else None)
    return np.asarray(m.result())


@pytest.mark.parametrize("weighted", [False, True])
def test_fn_metrics_accuracy_and_top_k(backend, weighted):
    w = W if weighted else np.ones_like(W)
    acc = _stream(backend, ivy.metrics.Accuracy(), BATCHES, weighted)
    np.testing.assert_allclose(acc, np.sum((P.argmax(1) == Y) * w) / w.sum(), rtol=1e-6)
    top2 = _stream(backend, ivy.metrics.TopKAccuracy(2), BATCHES, weighted)
    rank = (P > P[np.arange(len(Y)), Y][:, None]).sum(1)
    np.testing.assert_allclose(top2, np.sum((rank < 2) * w) / w.sum(), rtol=1e-6)
    if backend == "tensorflow":
        np.testing.assert_allclose(acc, _keras_stream("SparseCategoricalAccuracy", BATCHES, weighted), rtol=1e-6)
        np.testing.assert_allclose(
            top2, _keras_stream("SparseTopKCategoricalAccuracy", BATCHES, weighted, k=2), rtol=1e-6
        )
    one_hot = [(np.eye(C, dtype=np.float32)[y], p, sw) for y, p, sw in BATCHES]
    np.testing.assert_allclose(_stream(backend, ivy.metrics.Accuracy(), one_hot, weighted), acc, rtol=1e-6)


def test_fn_metrics_binary_accuracy(backend):
    y = RNG.integers(0, 2, (10, 3)).astype(np.float32)
    p = RNG.standard_normal((10, 3)).astype(np.float32)
    got = _stream(backend, ivy.metrics.BinaryAccuracy(threshold=0.0), [(y, p, None)])
    np.testing.assert_allclose(got, ((p > 0) == (y > 0.5)).mean(), rtol=1e-6)
    if backend == "tensorflow":
        np.testing.assert_allclose(got, _keras_stream("BinaryAccuracy", [(y, p, None)], threshold=0.0), rtol=1e-6)


def _np_prf(y: np.ndarray, pred: np.ndarray, w: np.ndarray, average: str | None) -> tuple[Any, Any, Any]:
    """Precision, recall, F1 from the weighted confusion counts (scikit-learn's definitions)."""
    tp = np.array([np.sum(w * ((pred == c) & (y == c))) for c in range(C)])
    fp = np.array([np.sum(w * ((pred == c) & (y != c))) for c in range(C)])
    fn = np.array([np.sum(w * ((pred != c) & (y == c))) for c in range(C)])

    def div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.where(b > 0, a / np.where(b > 0, b, 1), 0.0)

    if average == "micro":
        tp, fp, fn = tp.sum(), fp.sum(), fn.sum()
    prec, rec, f1 = div(tp, tp + fp), div(tp, tp + fn), div(2 * tp, 2 * tp + fp + fn)
    if average == "macro":
        return prec.mean(), rec.mean(), f1.mean()
    if average == "weighted":
        s = tp + fn
        return (prec * s).sum() / s.sum(), (rec * s).sum() / s.sum(), (f1 * s).sum() / s.sum()
    return prec, rec, f1


@pytest.mark.parametrize("average", ["macro", "micro", "weighted", None])
def test_fn_metrics_precision_recall_f1_multiclass(backend, average):
    want = _np_prf(Y, P.argmax(1), W, average)
    for cls, expected in zip((ivy.metrics.Precision, ivy.metrics.Recall, ivy.metrics.F1Score), want):
        got = _stream(backend, cls(C, average=average), BATCHES, weighted=True)
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-7)
        assert got.shape == (() if average else (C,))
    if backend == "tensorflow" and average is not None:
        one_hot = [(np.eye(C, dtype=np.float32)[y], p, w) for y, p, w in BATCHES]
        keras_f1 = _keras_stream("F1Score", one_hot, weighted=True, average=average)
        np.testing.assert_allclose(
            _stream(backend, ivy.metrics.F1Score(C, average=average), BATCHES, True), keras_f1, rtol=1e-5
        )


def test_fn_metrics_binary_precision_recall(backend):
    y = RNG.integers(0, 2, 40).astype(np.float32)
    p = RNG.random(40).astype(np.float32)
    batches = [(y[:20], p[:20], None), (y[20:], p[20:], None)]
    pos = p > 0.5
    tp, fp, fn = np.sum(pos & (y == 1)), np.sum(pos & (y == 0)), np.sum(~pos & (y == 1))
    prec = _stream(backend, ivy.metrics.Precision(), batches)
    rec = _stream(backend, ivy.metrics.Recall(), batches)
    f1 = _stream(backend, ivy.metrics.F1Score(), batches)
    np.testing.assert_allclose(
        [prec, rec, f1], [tp / (tp + fp), tp / (tp + fn), 2 * tp / (2 * tp + fp + fn)], rtol=1e-6
    )
    if backend == "tensorflow":
        np.testing.assert_allclose(prec, _keras_stream("Precision", batches), rtol=1e-6)
        np.testing.assert_allclose(rec, _keras_stream("Recall", batches), rtol=1e-6)


def _exact_auc(y: np.ndarray, p: np.ndarray) -> float:
    """ROC AUC as the probability that a positive outranks a negative (ties count half)."""
    pos, neg = p[y == 1], p[y == 0]
    wins = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(wins / (len(pos) * len(neg)))


def test_fn_metrics_auc(backend):
    y = RNG.integers(0, 2, 300).astype(np.float32)
    p = np.clip(y * 0.3 + RNG.random(300) * 0.7, 0, 1).astype(np.float32)
    batches = [(y[i : i + 100], p[i : i + 100], None) for i in range(0, 300, 100)]
    got = _stream(backend, ivy.metrics.AUC(), batches)
    assert abs(float(got) - _exact_auc(y, p)) < 0.01
    fine = _stream(backend, ivy.metrics.AUC(num_thresholds=2000), batches)
    assert abs(float(fine) - _exact_auc(y, p)) < 0.002
    if backend == "tensorflow":
        np.testing.assert_allclose(got, _keras_stream("AUC", batches), rtol=1e-5)
    logits = np.log(p + 1e-6) - np.log1p(-p + 1e-6)
    from_logits = _stream(backend, ivy.metrics.AUC(from_logits=True), [(y, logits.astype(np.float32), None)])
    assert abs(float(from_logits) - float(got)) < 0.01


def test_fn_metrics_mean_reset_and_errors(backend):
    m = ivy.metrics.Mean(name="loss")
    with pytest.raises(ValueError, match="has seen no batch"):
        m.result()
    m.update(to_native(backend, np.array([1.0, 2.0, 3.0], np.float32)))
    m.update(to_native(backend, np.array(6.0, np.float32)), sample_weight=to_native(backend, np.float32(2.0)))
    np.testing.assert_allclose(native_to_numpy(backend, m.result()), (1 + 2 + 3 + 12) / 5, rtol=1e-6)
    m.reset()
    m.update(to_native(backend, np.array([4.0], np.float32)))
    np.testing.assert_allclose(native_to_numpy(backend, m.result()), 4.0)
    assert "name='loss'" in repr(m)
    with pytest.raises(ValueError, match="num_classes=3 but the scores have 4 classes"):
        ivy.metrics.F1Score(3).update(to_native(backend, Y[:12]), to_native(backend, P[:12]))
    with pytest.raises(ValueError, match="average must be"):
        ivy.metrics.Precision(3, average="mean")


def test_fn_metrics_update_inside_a_compiled_step(backend):
    acc, f1, mean = ivy.metrics.Accuracy(), ivy.metrics.F1Score(C), ivy.metrics.Mean()
    ref_acc, ref_f1 = ivy.metrics.Accuracy(), ivy.metrics.F1Score(C)

    def step(y: Any, p: Any) -> Any:
        acc.update(y, p)
        f1.update(y, p)
        mean.update(ivy.max(p, axis=-1))
        return ivy.sum(p)

    options = {"options": {"backend": "eager"}} if backend == "torch" else {}
    compiled = ivy.compile(step, **options)
    for y, p, _ in BATCHES:
        yn, pn = to_native(backend, y), to_native(backend, p)
        compiled(yn, pn)
        ref_acc.update(yn, pn)
        ref_f1.update(yn, pn)
    np.testing.assert_allclose(
        native_to_numpy(backend, acc.result()), native_to_numpy(backend, ref_acc.result()), rtol=1e-6
    )
    np.testing.assert_allclose(
        native_to_numpy(backend, f1.result()), native_to_numpy(backend, ref_f1.result()), rtol=1e-6
    )
    np.testing.assert_allclose(native_to_numpy(backend, mean.result()), P.max(1).mean(), rtol=1e-5)
    acc.reset()
    compiled(to_native(backend, BATCHES[0][0]), to_native(backend, BATCHES[0][1]))  # after a reset, counts anew
    np.testing.assert_allclose(
        native_to_numpy(backend, acc.result()), (BATCHES[0][1].argmax(1) == BATCHES[0][0]).mean(), rtol=1e-6
    )
