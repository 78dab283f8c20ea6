"""A GRU forecaster of a seasonal time series, trained with ``ivy.fit`` (a validation split,
``EarlyStopping``, ``ModelCheckpoint``) and resumed from its checkpoint, on every autodiff backend.

    python examples/gru_forecaster.py                      # torch, jax, paddle, tensorflow
    python examples/gru_forecaster.py --backends jax       # one of them
    python examples/gru_forecaster.py --quick              # a quick check: fewer windows, four epochs

The data are synthetic: windows of a noisy series with a period of 12 steps (two harmonics of a
random amplitude and phase per window); the model reads 24 steps and forecasts the next one. Each
backend trains in its own process (PaddlePaddle and TensorFlow do not share one) from the same
seed, in two runs:

1. uninterrupted, ``epochs`` epochs, writing a checkpoint per epoch (``ModelCheckpoint``) and
   watching the validation loss (``EarlyStopping``);
2. a fresh model and optimizer restored (``ivy.load_checkpoint``) from the checkpoint of epoch 1
   (``--quick``: of the last epoch but one, so that less runs twice) and trained on with
   ``initial_epoch`` and the checkpoint's shuffling seed.

The resumed run must end where the uninterrupted one did (the same validation losses and the same
weights), and the forecast must beat the naive seasonal forecast (the value one period earlier)
on held-out windows. The last line is the verdict: ``OK`` when both hold on every backend, else
``FAILED``, naming the backends.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

import ivy

BACKENDS = ("torch", "jax", "paddle", "tensorflow")  # paddle before tensorflow in one listing
PERIOD, WINDOW, HIDDEN, NOISE = 12, 24, 16, 0.4


def make_data(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` windows ``[n, 24, 1]`` of the series and the value after each ``[n, 1]`` (float32)."""
    rng = np.random.default_rng(seed)
    t = np.arange(WINDOW + 1)[None, :]
    a, b = rng.uniform(0.5, 1.5, (n, 1)), rng.uniform(0.0, 0.5, (n, 1))
    phase = rng.uniform(0.0, 2 * np.pi, (n, 2))
    series = a * np.sin(2 * np.pi * t / PERIOD + phase[:, :1]) + b * np.sin(4 * np.pi * t / PERIOD + phase[:, 1:])
    series = (series + rng.normal(0.0, NOISE, series.shape)).astype(np.float32)
    return series[:, :WINDOW, None], series[:, WINDOW:]


class Forecaster(ivy.Module):
    """A window ``[batch, 24, 1]`` to the next value ``[batch, 1]``: a GRU, its last output, a
    linear head."""

    def __init__(self, hidden: int, **kwargs: Any) -> None:
        self.gru = ivy.GRU(1, hidden, return_state=False)
        self.head = ivy.Linear(hidden, 1)
        ivy.Module.__init__(self, **kwargs)

    def _forward(self, window: Any) -> Any:
        return self.head(self.gru(window)[:, -1])


def train(backend: str, epochs: int, quick: bool, folder: Path) -> tuple[float, float, float]:
    """Train on ``backend`` (uninterrupted, then resumed from a checkpoint), printing
    the progress; returns the forecast's and the seasonal baseline's held-out mean squared errors
    and the largest difference between the two runs' weights."""
    start = time.perf_counter()
    # --quick: batches that divide both splits (one batch shape) and eager steps (fit's
    # compilation is tested on its own; here it would cost more than the few steps it speeds up)
    samples, batch = (640, 64) if quick else (4096, 16)
    x, y = make_data(samples, seed=1)
    x_test, y_test = make_data(256, seed=2)

    def say(text: str) -> None:
        print(f"{backend:>10}: {text} ({time.perf_counter() - start:.1f} s)", flush=True)

    def on_epoch_end(epoch: int, logs: dict[str, float], trainer: ivy.Trainer) -> None:
        say(f"epoch {epoch + 1}/{epochs}, loss {logs['loss']:.4f}, validation loss {logs['val_loss']:.4f}")

    def run(model: ivy.Module, optimizer: ivy.Optimizer, **kwargs: Any) -> ivy.callbacks.History:
        return ivy.fit(
            model,
            x,
            y,
            loss=ivy.MSELoss(),
            optimizer=optimizer,
            epochs=epochs,
            batch_size=batch,
            validation_split=0.2,
            compile=not quick,
            verbose=0,
            callbacks=[
                ivy.callbacks.EarlyStopping("val_loss", patience=3),
                ivy.callbacks.ModelCheckpoint(folder / f"{backend}-epoch{{epoch}}.safetensors"),
                ivy.callbacks.LambdaCallback(on_epoch_end=on_epoch_end),
            ],
            **kwargs,
        )

    ivy.seed(0)
    say(f"training on {samples} windows ({int(samples * 0.8)} for training), {epochs} epochs of batches of {batch}")
    whole = Forecaster(HIDDEN, backend=backend)
    history = run(whole, ivy.Adam(2e-2), seed=0)

    at = len(history["val_loss"]) - 1 if quick else 1  # (EarlyStopping may have ended it early)
    say(f"resuming from the checkpoint of epoch {at} in a fresh model and optimizer")
    resumed, optimizer = Forecaster(HIDDEN, backend=backend), ivy.Adam(2e-2)
    info = ivy.load_checkpoint(folder / f"{backend}-epoch{at}.safetensors", resumed, optimizer)
    again = run(resumed, optimizer, initial_epoch=info["extra"]["epoch"], seed=info["extra"]["seed"])
    # (EarlyStopping's patience counts from the resumed epoch: should it stop the runs at
    # different epochs, they differ)
    rest = history["val_loss"][at:]
    same = len(again["val_loss"]) == len(rest) and np.allclose(again["val_loss"], rest, rtol=1e-5)
    if not same:
        say(f"the resumed validation losses {again['val_loss']} differ from {rest}")
    ours, theirs = whole.v.to_numpy().to_flat_dict(), resumed.v.to_numpy().to_flat_dict()
    weight_diff = max(float(np.max(np.abs(ours[k] - theirs[k]))) for k in ours)
    say(f"the resumed and the uninterrupted run end with weights {weight_diff:.1e} apart at most")

    # in batches of the training's size: a shape already compiled (JAX compiles per shape)
    chunks = [whole(ivy.asarray(x_test[i : i + batch], backend=backend)) for i in range(0, len(x_test), batch)]
    forecast = np.concatenate([ivy.to_numpy(c) for c in chunks])
    mse = float(np.mean((forecast - y_test) ** 2))
    baseline = float(np.mean((x_test[:, WINDOW - PERIOD] - y_test) ** 2))  # the value a period before
    return mse, baseline, weight_diff if same else float("inf")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backends", default=",".join(BACKENDS), help="comma-separated autodiff backends")
    parser.add_argument("--epochs", type=int, default=None, help="epochs of training (default 6; --quick: 4)")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="640 windows, four epochs of batches of 64, eager steps "
        "(a quick check; ivy.fit's compilation is tested on its own)",
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    names = [b for b in args.backends.split(",") if b]
    epochs = args.epochs if args.epochs is not None else 4 if args.quick else 6
    if epochs < 2:
        parser.error("--epochs must be at least 2 (the run resumes from the checkpoint of epoch 1)")
    if args.child:  # one backend in this process
        start = time.perf_counter()
        with tempfile.TemporaryDirectory() as folder:
            mse, baseline, diff = train(names[0], epochs, args.quick, Path(folder))
        ok = mse < baseline and diff < 1e-5
        print(
            f"{names[0]:>10}: forecast error {mse:.4f} against the seasonal baseline's {baseline:.4f}, resumed run "
            f"{'exact' if diff < 1e-5 else 'DIFFERENT'} ({time.perf_counter() - start:.1f} s)",
            flush=True,
        )
        return 0 if ok else 1
    start, failed = time.perf_counter(), []
    for name in names:
        cmd = [sys.executable, __file__, "--child", "--backends", name, "--epochs", str(epochs)]
        cmd += ["--quick"] * args.quick
        if subprocess.call(cmd) != 0:
            failed.append(name)
    took = f"{len(names)} backend(s) in {time.perf_counter() - start:.0f} s"
    if failed:
        print(
            f"FAILED: not above the seasonal baseline, resumed differently, or an error: {', '.join(failed)} ({took})"
        )
    else:
        print(f"OK: forecasts beat the seasonal baseline and resuming is exact on {', '.join(names)} ({took})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
