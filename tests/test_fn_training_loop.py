"""``ivy.fit`` / ``ivy.Trainer``: epochs over arrays, native data loaders (torch DataLoader,
tf.data) and iterables; validation; metrics; callbacks (early stopping, checkpoints, learning-rate
changes); the progress output (tqdm, or plain text without it); the History and its plot; the
compiled training step (equal to the eager one) and its eager fallback."""

from __future__ import annotations

import sys
import warnings
from typing import Any

import numpy as np
import pytest

import ivy
from ivy.testing.convert import has_autodiff, native_to_numpy, to_native

RNG = np.random.default_rng(8)
X = RNG.standard_normal((96, 4)).astype(np.float32)
Y = (X[:, 0] - X[:, 1] > 0).astype(np.int64)
XV = RNG.standard_normal((32, 4)).astype(np.float32)
YV = (XV[:, 0] - XV[:, 1] > 0).astype(np.int64)
W0 = {
    "layers/0/w": RNG.standard_normal((16, 4)).astype(np.float32) * 0.5,
    "layers/0/b": np.zeros(16, np.float32),
    "layers/2/w": RNG.standard_normal((2, 16)).astype(np.float32) * 0.5,
    "layers/2/b": np.zeros(2, np.float32),
}


def _model(backend: str) -> Any:
    m = ivy.Sequential(ivy.Linear(4, 16), ivy.Tanh(), ivy.Linear(16, 2), backend=backend)
    m.v = ivy.Container.from_flat_dict({k: to_native(backend, v) for k, v in W0.items()})
    return m


def _cheap(backend: str) -> Any:
    # torch: a cheap compiler (inductor takes a minute on this machine); dynamo's tracing either way
    return {"options": {"backend": "eager"}} if backend == "torch" else True


def _weights(backend: str, m: Any) -> dict[str, np.ndarray]:
    return {k: native_to_numpy(backend, v) for k, v in m.v.to_flat_dict().items()}


def test_fn_training_loop_fits_arrays_with_validation_and_metrics(autodiff):
    backend = autodiff
    model = _model(backend)
    history = ivy.fit(
        model,
        to_native(backend, X),
        to_native(backend, Y),
        loss=ivy.CrossEntropyLoss(from_logits=True),
        optimizer=ivy.Adam(0.05),
        metrics=["accuracy", ivy.metrics.F1Score(2, name="f1")],
        epochs=6,
        batch_size=16,
        validation_data=(XV, YV),
        verbose=0,
        seed=0,
        compile=False,
    )
    h = history.history
    assert sorted(h) == ["accuracy", "f1", "loss", "val_accuracy", "val_f1", "val_loss"]
    assert len(h["loss"]) == 6 and history.epoch == list(range(6))
    assert h["loss"][-1] < 0.5 * h["loss"][0] and h["val_accuracy"][-1] >= 0.9
    # the logged validation values are those of the trained model on the validation data
    pred = native_to_numpy(backend, model(to_native(backend, XV)))
    assert h["val_accuracy"][-1] == pytest.approx(np.mean(pred.argmax(1) == YV))
    shift = pred - pred.max(1, keepdims=True)
    ce = -np.mean(shift[np.arange(len(YV)), YV] - np.log(np.exp(shift).sum(1)))
    assert h["val_loss"][-1] == pytest.approx(ce, rel=1e-4)


def test_fn_training_loop_compiled_step_equals_eager(autodiff):
    backend = autodiff
    runs = {}
    for compiled in (False, _cheap(backend)):
        model = _model(backend)
        tr = ivy.Trainer(
            model,
            ivy.CrossEntropyLoss(from_logits=True),
            ivy.SGD(0.1, momentum=0.9),
            metrics=["accuracy"],
            compile=compiled,
        )
        h = tr.fit(X, Y, epochs=2, batch_size=32, shuffle=False, verbose=0, validation_data=(XV, YV))
        runs[bool(compiled)] = (_weights(backend, model), h.history)
    for k, v in runs[False][0].items():
        np.testing.assert_allclose(runs[True][0][k], v, rtol=1e-5, atol=1e-6, err_msg=k)
    for k, v in runs[False][1].items():
        np.testing.assert_allclose(runs[True][1][k], v, rtol=1e-5, err_msg=k)


def test_fn_training_loop_inductor_compile_equals_eager(backend):
    if backend != "torch":
        pytest.skip("torch.compile with its default compiler (inductor): the torch backend's")
    import torch
    from torch._dynamo.utils import counters

    x, y = X[:8], Y[:8]  # two batches, two epochs: four steps (inductor's compiling is what costs)
    runs = {}
    for compiled in (False, True):
        model = _model(backend)
        kw = {"compile": True} if compiled else {}  # compiled: without options; eager: torch's default
        tr = ivy.Trainer(
            model, ivy.CrossEntropyLoss(from_logits=True), ivy.SGD(0.1, momentum=0.9), metrics=["accuracy"], **kw
        )
        if compiled:
            torch._dynamo.reset()  # an earlier test's step of the same code may sit in dynamo's cache
        before = sum(counters["inductor"].values())
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            h = tr.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0)
        assert not [w for w in caught if "eagerly" in str(w.message)]  # no fall back to the eager step
        if compiled:
            assert tr._train_fn != tr.train_step and tr.compiled is True
            assert sum(counters["inductor"].values()) > before  # inductor compiled the step
        else:
            assert tr.compile == "auto" and tr.compiled is False
        runs[compiled] = (_weights(backend, model), h.history)
    for k, v in runs[False][0].items():
        np.testing.assert_allclose(runs[True][0][k], v, rtol=1e-5, atol=1e-6, err_msg=k)
    for k, v in runs[False][1].items():
        np.testing.assert_allclose(runs[True][1][k], v, rtol=1e-5, err_msg=k)


def test_fn_training_loop_takes_a_torch_data_loader(autodiff):
    import torch
    from torch.utils.data import DataLoader, TensorDataset

    backend = autodiff
    loader = DataLoader(TensorDataset(torch.tensor(X), torch.tensor(Y)), batch_size=16, shuffle=False)
    model = _model(backend)
    h = ivy.fit(
        model,
        loader,
        loss=ivy.CrossEntropyLoss(from_logits=True),
        optimizer=ivy.SGD(0.2),
        metrics=["accuracy"],
        epochs=3,
        verbose=0,
        compile=False,
    )
    same = _model(backend)
    h2 = ivy.fit(
        same,
        X,
        Y,
        loss=ivy.CrossEntropyLoss(from_logits=True),
        optimizer=ivy.SGD(0.2),
        metrics=["accuracy"],
        epochs=3,
        batch_size=16,
        shuffle=False,
        verbose=0,
        compile=False,
    )
    np.testing.assert_allclose(h.history["loss"], h2.history["loss"], rtol=1e-5)
    assert ivy.namespace(model.v.layers["0"].w).name == backend


def test_fn_training_loop_takes_tf_data(autodiff):
    if autodiff != "tensorflow":
        pytest.skip("tf.data lives beside TensorFlow: tensorflow backend only (paddle must not share a process)")
    import tensorflow as tf

    ds = tf.data.Dataset.from_tensor_slices((X, Y)).batch(16)
    model = _model(autodiff)
    h = ivy.fit(
        model,
        ds,
        loss=ivy.CrossEntropyLoss(from_logits=True),
        optimizer=ivy.Adam(0.05),
        epochs=4,
        verbose=0,
        compile=False,
        validation_data=tf.data.Dataset.from_tensor_slices((XV, YV)).batch(16),
        metrics=["accuracy"],
    )
    assert h.history["loss"][-1] < h.history["loss"][0] and len(h.history["val_accuracy"]) == 4


def test_fn_training_loop_iterables_and_their_errors(autodiff):
    backend = autodiff
    batches = [(to_native(backend, X[i : i + 32]), to_native(backend, Y[i : i + 32])) for i in range(0, 96, 32)]
    h = ivy.fit(
        _model(backend),
        batches,
        loss=ivy.CrossEntropyLoss(from_logits=True),
        optimizer=ivy.SGD(0.1),
        epochs=2,
        verbose=0,
        compile=False,
    )
    assert len(h.history["loss"]) == 2
    gen = iter(batches)
    with pytest.raises(ValueError, match="epoch 2 got no batch"):
        ivy.fit(
            _model(backend),
            gen,
            loss=ivy.CrossEntropyLoss(from_logits=True),
            optimizer=ivy.SGD(0.1),
            epochs=2,
            verbose=0,
            compile=False,
        )
    with pytest.raises(ValueError, match="unknown loss 'crossentropy'"):
        ivy.Trainer(_model(backend), "crossentropy", ivy.SGD(0.1))
    with pytest.raises(ValueError, match="unknown metric 'acuracy'"):
        ivy.Trainer(_model(backend), "mse", ivy.SGD(0.1), metrics=["acuracy"])
    with pytest.raises(ValueError, match="x has 96 samples, y has 32"):
        ivy.fit(_model(backend), X, YV, loss=ivy.CrossEntropyLoss(from_logits=True), optimizer=ivy.SGD(0.1), verbose=0)


def test_fn_training_loop_evaluate_and_predict(backend):
    model = _model(backend)
    tr = ivy.Trainer(model, ivy.CrossEntropyLoss(from_logits=True), ivy.SGD(0.1), metrics=["accuracy"], compile=False)
    logs = tr.evaluate(XV, YV, batch_size=8)
    pred = tr.predict(XV, batch_size=10)
    np.testing.assert_allclose(
        native_to_numpy(backend, pred), native_to_numpy(backend, model(to_native(backend, XV))), rtol=1e-5, atol=1e-6
    )
    assert logs["accuracy"] == pytest.approx(np.mean(native_to_numpy(backend, pred).argmax(1) == YV))
    assert tuple(pred.shape) == (32, 2) and model.training


# ------------------------------------------------------------------ callbacks


class Overfit(ivy.callbacks.Callback):
    """Reports a made-up validation loss: better for two epochs, then worse."""

    def __init__(self) -> None:
        self.values = iter([1.0, 0.5, 0.6, 0.7, 0.8, 0.9])

    def on_epoch_end(self, epoch: int, logs: dict[str, float], trainer: Any) -> None:
        logs["val_loss"] = next(self.values)


def test_fn_training_loop_early_stopping_restores_the_best_weights(autodiff):
    backend = autodiff
    model = _model(backend)
    seen = []
    record = ivy.callbacks.LambdaCallback(on_epoch_end=lambda e, logs, t: seen.append(_weights(backend, t.model)))
    stop = ivy.callbacks.EarlyStopping(patience=1, restore_best_weights=True)
    h = ivy.fit(
        model,
        X,
        Y,
        loss=ivy.CrossEntropyLoss(from_logits=True),
        optimizer=ivy.SGD(0.1),
        epochs=6,
        verbose=0,
        compile=False,
        callbacks=[Overfit(), record, stop],
    )
    assert len(h.history["loss"]) == 4 and stop.stopped_epoch == 3 and stop.best == 0.5
    for k, v in _weights(backend, model).items():  # the weights after epoch 2 (index 1)
        np.testing.assert_array_equal(v, seen[1][k])


def test_fn_training_loop_checkpoints_and_lr_schedule_callbacks(autodiff, tmp_path):
    backend = autodiff
    model = _model(backend)
    opt = ivy.SGD(0.1)
    lrs = []
    sched = ivy.callbacks.LearningRateScheduler(lambda epoch: 0.1 if epoch == 0 else 0.0)
    record = ivy.callbacks.LambdaCallback(on_epoch_begin=lambda e, t: lrs.append(t.optimizer.lr))
    after = []
    keep = ivy.callbacks.LambdaCallback(on_epoch_end=lambda e, logs, t: after.append(_weights(backend, t.model)))
    ckpt = ivy.callbacks.ModelCheckpoint(tmp_path / "e{epoch}.safetensors", monitor="loss", save_best_only=False)
    ivy.fit(
        model,
        X,
        Y,
        loss=ivy.CrossEntropyLoss(from_logits=True),
        optimizer=opt,
        epochs=3,
        verbose=0,
        compile=_cheap(backend),
        callbacks=[sched, record, keep, ckpt],
    )
    assert lrs == [0.1, 0.0, 0.0]
    for k in after[0]:  # a zero rate, even inside the compiled step, leaves the weights
        np.testing.assert_array_equal(after[2][k], after[0][k])
    assert [p.rsplit("/", 1)[-1] for p in ckpt.saved] == ["e1.safetensors", "e2.safetensors", "e3.safetensors"]
    restored = _model(backend)
    info = ivy.load_checkpoint(ckpt.saved[0], restored, ivy.SGD(0.1))
    assert info["extra"]["epoch"] == 1 and isinstance(info["extra"]["seed"], int)  # what a resumed fit takes
    for k, v in _weights(backend, restored).items():
        np.testing.assert_array_equal(v, after[0][k])


def test_fn_training_loop_reduces_the_rate_on_a_plateau(autodiff):
    backend = autodiff
    plateau = ivy.schedules.ReduceLROnPlateau(0.1, monitor="val_loss", patience=0, factor=0.5)
    ivy.fit(
        _model(backend),
        X,
        Y,
        loss=ivy.CrossEntropyLoss(from_logits=True),
        optimizer=ivy.SGD(plateau),
        epochs=4,
        verbose=0,
        compile=False,
        callbacks=[Overfit()],
    )  # the schedule is a callback too: fit calls it
    assert plateau.lr == pytest.approx(0.1 * 0.5**2)


# ------------------------------------------------------------------ output


def test_fn_training_loop_progress_output(autodiff, capsys, monkeypatch):
    backend = autodiff
    names = ("loss", "accuracy", "val_loss", "val_accuracy")

    def run(verbose: int, epochs: int = 1) -> dict[str, list[float]]:
        return ivy.fit(
            _model(backend),
            X,
            Y,
            loss=ivy.CrossEntropyLoss(from_logits=True),
            optimizer=ivy.SGD(0.1),
            epochs=epochs,
            verbose=verbose,
            compile=False,
            metrics=["accuracy"],
            validation_data=(XV, YV),
        ).history

    h = run(2, epochs=2)  # a line per epoch: its values as the History logged them
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    for e, line in enumerate(lines):
        assert line.startswith(f"Epoch {e + 1}/2 - 3 batches - ")
        assert line.endswith(" - ".join(f"{k}: {h[k][e]:.4g}" for k in names)), line
    h = run(1)  # tqdm's bar (installed here), as it was left at the end of the epoch
    bar = capsys.readouterr().out.replace("\r", "\n").strip().splitlines()[-1]
    assert bar.startswith("Epoch 1/1: 100%") and "| 3/3 [" in bar, bar
    assert bar.endswith(", " + ", ".join(f"{k}={h[k][0]:.4g}" for k in names) + "]"), bar
    monkeypatch.setitem(sys.modules, "tqdm", None)  # without tqdm: a line of text
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    h = run(1)
    (line,) = capsys.readouterr().out.splitlines()
    assert line.startswith("Epoch 1/1 - 3 batches - ")
    assert line.endswith(" - ".join(f"{k}: {h[k][0]:.4g}" for k in names)), line
    run(0)
    assert capsys.readouterr().out == ""


def test_fn_training_loop_history_plots(autodiff, tmp_path, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    backend = autodiff
    h = ivy.fit(
        _model(backend),
        X,
        Y,
        loss=ivy.CrossEntropyLoss(from_logits=True),
        optimizer=ivy.SGD(0.1),
        epochs=2,
        verbose=0,
        compile=False,
        metrics=["accuracy"],
        validation_data=(XV, YV),
    )
    fig = h.plot(path=tmp_path / "history.png")
    assert [a.get_title() for a in fig.axes] == ["accuracy", "loss"]
    assert [ln.get_label() for ln in fig.axes[1].get_lines()] == ["loss", "val_loss"]
    assert (tmp_path / "history.png").stat().st_size > 0
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r"pip install .ivy-core\[progress\]."):
        h.plot()


def test_fn_training_loop_falls_back_to_eager_when_compiling_fails(autodiff):
    backend = autodiff

    class Branchy(ivy.Module):  # Python control flow on an array value: not traceable by jit / tf.function
        def __init__(self) -> None:
            self.lin = ivy.Linear(4, 2)
            ivy.Module.__init__(self, backend=backend)

        def _forward(self, x: Any) -> Any:
            y = self.lin(x)
            return y * 2.0 if float(ivy.to_scalar(ivy.sum(x))) > 0 else y

    model = Branchy()
    model(to_native(backend, X[:2]))
    tr = ivy.Trainer(model, ivy.CrossEntropyLoss(from_logits=True), ivy.SGD(0.1), compile=_cheap(backend))
    if backend in ("jax", "tensorflow"):
        with pytest.warns(RuntimeWarning, match="compiling the train step failed .*running it eagerly"):
            tr.fit(X, Y, epochs=1, batch_size=32, verbose=0)
        assert tr._train_fn == tr.train_step
    else:  # torch.compile and paddle's to_static run such Python themselves
        tr.fit(X, Y, epochs=1, batch_size=32, verbose=0)
    assert has_autodiff(backend)


# ------------------------------------------------------------------ exact means, validation_split, initial_epoch


def _np_logits(x: np.ndarray) -> np.ndarray:
    """The model's outputs with the weights W0, in float64 NumPy (the reference)."""
    h = np.tanh(x.astype(np.float64) @ W0["layers/0/w"].T + W0["layers/0/b"])
    return h @ W0["layers/2/w"].T + W0["layers/2/b"]


def _np_ce(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Per-sample cross-entropy of the W0 model on ``(x, y)``."""
    z = _np_logits(x)
    z = z - z.max(1, keepdims=True)
    return -(z[np.arange(len(y)), y] - np.log(np.exp(z).sum(1)))


def test_fn_training_loop_lambda_callback_calls_every_hook(autodiff):
    backend = autodiff
    calls: list[tuple[Any, ...]] = []
    record = ivy.callbacks.LambdaCallback(
        on_train_begin=lambda t: calls.append(("train_begin",)),
        on_epoch_begin=lambda e, t: calls.append(("epoch_begin", e)),
        on_batch_end=lambda b, logs, t: calls.append(("batch_end", b, logs["loss"])),
        on_epoch_end=lambda e, logs, t: calls.append(("epoch_end", e)),
        on_train_end=lambda t: calls.append(("train_end",)),
    )
    ivy.fit(
        _model(backend),
        X,
        Y,
        loss=ivy.CrossEntropyLoss(from_logits=True),
        optimizer=ivy.SGD(0.0),  # the weights stay W0: each batch's loss has a NumPy reference
        epochs=2,
        batch_size=40,  # 40, 40, 16
        shuffle=False,
        verbose=0,
        compile=False,
        callbacks=[record],
    )
    names = [c[:2] for c in calls]
    batches = [("batch_end", 0), ("batch_end", 1), ("batch_end", 2)]
    assert names == [
        ("train_begin",),
        ("epoch_begin", 0),
        *batches,
        ("epoch_end", 0),
        ("epoch_begin", 1),
        *batches,
        ("epoch_end", 1),
        ("train_end",),
    ]
    ce = _np_ce(X, Y)
    want = [ce[:40].mean(), ce[40:80].mean(), ce[80:].mean()]
    got = [c[2] for c in calls if c[0] == "batch_end"]
    np.testing.assert_allclose(got, want * 2, rtol=1e-5)


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compiled"])
def test_fn_training_loop_logged_means_are_exact_per_sample_means(autodiff, compiled):
    """A last, smaller batch counts by its size: the logged loss and accuracy over a dataset equal
    NumPy's means over all its samples, for training, validation and evaluate, at any batch size."""
    backend = autodiff
    ce, ce_val = _np_ce(X, Y), _np_ce(XV, YV)
    acc_val = np.mean(_np_logits(XV).argmax(1) == YV)
    # the reference is worth testing: averaging the batches' means unweighted is off by more than rtol
    for values, size in ((ce, 20), (ce_val, 20), (ce_val, 7)):
        unweighted = np.mean([values[i : i + size].mean() for i in range(0, len(values), size)])
        assert abs(unweighted - values.mean()) > 1e-4 * values.mean()
    model = _model(backend)
    tr = ivy.Trainer(
        model,
        ivy.CrossEntropyLoss(from_logits=True),
        ivy.SGD(0.0),
        metrics=["accuracy"],
        compile=_cheap(backend) if compiled else False,
    )
    # training: 4 x 20 + 16 samples; validation: 20 + 12
    h = tr.fit(X, Y, epochs=1, batch_size=20, shuffle=False, verbose=0, validation_data=(XV, YV))
    assert h["loss"][0] == pytest.approx(ce.mean(), rel=1e-5)
    assert h["val_loss"][0] == pytest.approx(ce_val.mean(), rel=1e-5)
    assert h["val_accuracy"][0] == pytest.approx(acc_val, abs=1e-6)
    for batch_size in (7, 32):  # 4 x 7 + 4; one batch
        logs = tr.evaluate(XV, YV, batch_size=batch_size)
        assert logs["loss"] == pytest.approx(ce_val.mean(), rel=1e-5), batch_size
        assert logs["accuracy"] == pytest.approx(acc_val, abs=1e-6), batch_size


def test_fn_training_loop_validation_split_holds_out_the_last_samples(autodiff):
    backend = autodiff
    # Keras: the last floor-complement of the samples, before shuffling; 96 * 0.7 = 67.19999...
    split = int(np.floor(96 * (1 - 0.3)))
    assert split == 67
    h = ivy.fit(
        _model(backend),
        to_native(backend, X),
        to_native(backend, Y),
        loss=ivy.CrossEntropyLoss(from_logits=True),
        optimizer=ivy.SGD(0.0),
        metrics=["accuracy"],
        epochs=2,
        batch_size=16,
        validation_split=0.3,
        verbose=0,
        seed=3,
        compile=False,
    )
    ce = _np_ce(X, Y)
    assert h["loss"] == pytest.approx([ce[:split].mean()] * 2, rel=1e-5)
    assert h["val_loss"] == pytest.approx([ce[split:].mean()] * 2, rel=1e-5)
    assert h["val_accuracy"][0] == pytest.approx(np.mean(_np_logits(X[split:]).argmax(1) == Y[split:]))
    kw: dict[str, Any] = {
        "loss": ivy.CrossEntropyLoss(from_logits=True),
        "optimizer": ivy.SGD(0.1),
        "verbose": 0,
        "compile": False,
    }
    with pytest.raises(ValueError, match="validation_data or validation_split, not both"):
        ivy.fit(_model(backend), X, Y, validation_split=0.2, validation_data=(XV, YV), **kw)
    with pytest.raises(ValueError, match="needs array data"):
        ivy.fit(_model(backend), [(X, Y)], validation_split=0.2, **kw)
    with pytest.raises(ValueError, match="between 0 and 1"):
        ivy.fit(_model(backend), X, Y, validation_split=1.0, **kw)
    with pytest.raises(ValueError, match="leaves no training sample"):
        ivy.fit(_model(backend), X[:1], Y[:1], validation_split=0.5, **kw)


def test_fn_training_loop_initial_epoch_resumes_the_count(autodiff, tmp_path, capsys):
    backend = autodiff
    seen: list[int] = []
    sched = ivy.callbacks.LearningRateScheduler(lambda epoch: seen.append(epoch) or 0.1)
    ckpt = ivy.callbacks.ModelCheckpoint(tmp_path / "e{epoch}.safetensors", monitor="loss")
    kw: dict[str, Any] = {"loss": ivy.CrossEntropyLoss(from_logits=True), "optimizer": ivy.SGD(0.1), "compile": False}
    h = ivy.fit(_model(backend), X, Y, epochs=5, initial_epoch=3, verbose=2, callbacks=[sched, ckpt], **kw)
    assert h.epoch == [3, 4] and len(h["loss"]) == 2 and seen == [3, 4]  # as Keras: epochs 4 and 5 of 5
    assert [p.rsplit("/", 1)[-1] for p in ckpt.saved] == ["e4.safetensors", "e5.safetensors"]
    assert [ln.split(" - ")[0] for ln in capsys.readouterr().out.splitlines()] == ["Epoch 4/5", "Epoch 5/5"]
    assert ivy.load_checkpoint(ckpt.saved[-1], _model(backend))["extra"]["epoch"] == 5
    done = ivy.fit(_model(backend), X, Y, epochs=2, initial_epoch=2, verbose=0, **kw)  # nothing left to train
    assert done.epoch == []
    for bad in (-1, 6, 1.0):
        with pytest.raises(ValueError, match="initial_epoch must be an int from 0 to epochs=5"):
            ivy.fit(_model(backend), X, Y, epochs=5, initial_epoch=bad, verbose=0, **kw)
