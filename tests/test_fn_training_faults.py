"""Training faults and resuming: ``TerminateOnNaN`` stops at the batch whose loss is not finite,
``ModelCheckpoint`` refuses non-finite weights (the last good file stays), and a shuffled ``fit``
resumed from a checkpoint (``initial_epoch``, the shuffling's seed in the checkpoint) trains as
the uninterrupted one did."""

from __future__ import annotations

import os
import warnings
from typing import Any

import numpy as np
import pytest

import ivy
from ivy.testing.convert import native_to_numpy, to_native

RNG = np.random.default_rng(21)
X = RNG.standard_normal((50, 4)).astype(np.float32)
Y = (X[:, 0] + X[:, 2] > 0).astype(np.int64)
W0 = {
    "layers/0/w": RNG.standard_normal((8, 4)).astype(np.float32) * 0.5,
    "layers/0/b": np.zeros(8, np.float32),
    "layers/3/w": RNG.standard_normal((2, 8)).astype(np.float32) * 0.5,
    "layers/3/b": np.zeros(2, np.float32),
}


def _model(backend: str) -> Any:
    m = ivy.Sequential(ivy.Linear(4, 8), ivy.Tanh(), ivy.Dropout(0.25), ivy.Linear(8, 2), backend=backend)
    m.v = ivy.Container.from_flat_dict({k: to_native(backend, v) for k, v in W0.items()})
    return m


def _weights(backend: str, m: Any) -> dict[str, np.ndarray]:
    return {k: native_to_numpy(backend, v) for k, v in m.v.to_flat_dict().items()}


class _PoisonedSecondEpoch:
    """Batches of ``(X, Y)``, 20 a batch; in the second epoch the second batch holds a NaN input."""

    def __init__(self) -> None:
        self.epochs = 0

    def __iter__(self) -> Any:
        self.epochs += 1
        for i in range(0, 50, 20):
            x = X[i : i + 20].copy()
            if self.epochs == 2 and i == 20:
                x[3, 1] = np.nan
            yield x, Y[i : i + 20]


def test_fn_training_faults_terminate_on_nan_and_checkpoints_refuse_nan_weights(autodiff, tmp_path):
    backend = autodiff
    model, opt = _model(backend), ivy.SGD(0.1)
    stop = ivy.callbacks.TerminateOnNaN()
    ckpt = ivy.callbacks.ModelCheckpoint(tmp_path / "e{epoch}.safetensors", monitor="loss")
    after: list[dict[str, np.ndarray]] = []
    keep = ivy.callbacks.LambdaCallback(on_epoch_end=lambda e, logs, t: after.append(_weights(backend, t.model)))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        h = ivy.fit(
            model,
            _PoisonedSecondEpoch(),
            loss=ivy.CrossEntropyLoss(from_logits=True),
            optimizer=opt,
            epochs=4,
            verbose=0,
            compile=False,
            callbacks=[stop, keep, ckpt],
        )
    messages = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]
    # stopped at the poisoned batch: epoch 2 (index 1), batch 2 (index 1); 3 + 2 optimizer steps
    assert stop.stopped == (1, 1) and opt.step_count == 5
    assert h.epoch == [0, 1] and np.isfinite(h["loss"][0]) and np.isnan(h["loss"][1])
    assert any(m.startswith("TerminateOnNaN: epoch 2, batch 2: the loss is nan") for m in messages), messages
    # the NaN weights of epoch 2 were not written; epoch 1's file is intact and loads
    assert not any(np.isfinite(v).all() for v in after[1].values())
    assert [os.path.basename(p) for p in ckpt.saved] == ["e1.safetensors"] and ckpt.skipped == [2]
    assert not (tmp_path / "e2.safetensors").exists()
    assert any("epoch 2's weights hold NaN or infinite values" in m and "not written" in m for m in messages)
    restored = _model(backend)
    ivy.load_checkpoint(ckpt.saved[0], restored, ivy.SGD(0.1))
    for k, v in _weights(backend, restored).items():
        np.testing.assert_array_equal(v, after[0][k])


def test_fn_training_faults_checkpoint_refuses_non_finite_best_weights(autodiff, tmp_path):
    """With ``save_best_only`` a non-finite epoch neither writes nor becomes the best."""
    backend = autodiff
    model = _model(backend)
    ckpt = ivy.callbacks.ModelCheckpoint(tmp_path / "best.safetensors", monitor="loss", save_best_only=True)

    class Poison(ivy.callbacks.Callback):
        def on_epoch_end(self, epoch: int, logs: dict[str, float], trainer: Any) -> None:
            if epoch == 1:  # a better loss, and an infinite weight
                logs["loss"] = 0.0
                w = native_to_numpy(backend, trainer.model.v.layers["0"].w).copy()
                w[0, 0] = np.inf
                trainer.model.v = _replace(trainer.model.v, "layers/0/w", to_native(backend, w))

    with pytest.warns(RuntimeWarning, match=r"epoch 2's weights hold NaN or infinite values \(layers/0/w\)"):
        ivy.fit(
            model,
            X[:16],
            Y[:16],
            loss=ivy.CrossEntropyLoss(from_logits=True),
            optimizer=ivy.SGD(0.0),
            epochs=2,
            verbose=0,
            compile=False,
            callbacks=[Poison(), ckpt],
        )
    assert ckpt.skipped == [2] and len(ckpt.saved) == 1 and ckpt.best > 0.0


def _replace(v: Any, chain: str, x: Any) -> Any:
    flat = v.to_flat_dict()
    flat[chain] = x
    return ivy.Container.from_flat_dict(flat)


def test_fn_training_faults_a_resumed_shuffled_fit_is_exact(autodiff, tmp_path):
    """3 epochs in one run equal 1 epoch, a checkpoint, and 2 more epochs in a fresh state (new
    model, new optimizer, ``fit(initial_epoch=..., seed=...)`` from the checkpoint): the same
    shuffled batches (a last, smaller one included), dropout masks and updates, with the training
    step compiled as ``fit`` does by default (eager on torch: torch.compile fails on dropout once
    the batch size changes, a fault of the compiled step, not of resuming)."""
    backend = autodiff
    compile_: Any = backend != "torch"
    kw: dict[str, Any] = {
        "loss": ivy.CrossEntropyLoss(from_logits=True),
        "batch_size": 16,
        "verbose": 0,
        "compile": compile_,
    }
    ckpt = ivy.callbacks.ModelCheckpoint(tmp_path / "e{epoch}.safetensors", monitor="loss")
    full = _model(backend)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # (a step that fails to compile runs eagerly)
        h_full = ivy.fit(full, X, Y, optimizer=ivy.Adam(0.01), epochs=3, callbacks=[ckpt], **kw)  # a fresh seed
        resumed, opt = _model(backend), ivy.Adam(0.01)
        info = ivy.load_checkpoint(ckpt.saved[0], resumed, opt)
        assert info["extra"]["epoch"] == 1
        seed = info["extra"]["seed"]
        h = ivy.fit(resumed, X, Y, optimizer=opt, epochs=3, initial_epoch=info["extra"]["epoch"], seed=seed, **kw)
        assert h.epoch == [1, 2]
        # (float32 rounding apart: a compiled step and its eager run, which may take a first or a
        # last batch, round alike only to about 1e-7 of each update; other batches or masks would
        # differ by 1e-2)
        tol = {"rtol": 1e-5, "atol": 1e-6} if compile_ else {"rtol": 1e-6, "atol": 1e-7}
        np.testing.assert_allclose(h["loss"], h_full["loss"][1:], **tol)
        for k, v in _weights(backend, full).items():
            np.testing.assert_allclose(_weights(backend, resumed)[k], v, err_msg=k, **tol)
        # the shuffling mattered: the last epoch in another order gives other weights
        other, opt = _model(backend), ivy.Adam(0.01)
        ivy.load_checkpoint(ckpt.saved[1], other, opt)
        ivy.fit(other, X, Y, optimizer=opt, epochs=3, initial_epoch=2, seed=seed + 1, **kw)
    assert not np.allclose(_weights(backend, other)["layers/0/w"], _weights(backend, full)["layers/0/w"])
