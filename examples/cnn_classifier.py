"""An MNIST-style CNN classifier written once with Ivy's layers and trained with ``ivy.fit`` on
every autodiff backend.

    python examples/cnn_classifier.py                      # torch, jax, paddle, tensorflow
    python examples/cnn_classifier.py --backends jax       # one of them
    python examples/cnn_classifier.py --epochs 4 --verbose # longer, with a progress bar
    python examples/cnn_classifier.py --quick              # a quick check: 1024 samples, one epoch

The data are synthetic 16x16 grey images of 10 classes (a bright 4x4 square at one of ten
places, under noise), so the script needs no download. Each backend trains in its own process
(PaddlePaddle and TensorFlow do not share one) from the same seed; the script prints a line when
the first training step is done (the slowest: ``ivy.fit`` compiles the step then, on the backends
where it compiles) and one per epoch, then each backend's validation accuracy, and last a verdict:
``OK`` when every backend is above 90%, else ``FAILED``, naming them.

The model uses torch's channel-first layout (``data_format="NCHW"``); Keras' channel-last
layout is the layers' default and would need no argument.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

import numpy as np

import ivy

BACKENDS = ("torch", "jax", "paddle", "tensorflow")  # paddle before tensorflow in one listing
SIDE, CLASSES = 16, 10
CORNERS = [(r, c) for r in (0, 4, 8, 12) for c in (0, 4, 8, 12)][:CLASSES]  # a place per class


def make_data(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` images ``[n, 1, 16, 16]`` (float32) and their labels ``[n]`` (int64)."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, CLASSES, n)
    images = rng.normal(0.0, 0.3, (n, 1, SIDE, SIDE)).astype(np.float32)
    for i, k in enumerate(labels):
        r, c = CORNERS[k]
        images[i, 0, r : r + 4, c : c + 4] += 1.0
    return images, labels.astype(np.int64)


def make_model(backend: str, data_format: str = "NCHW") -> ivy.Module:
    """Two conv-ReLU-pool blocks and a linear head: ``[N, 1, 16, 16] -> [N, 10]`` logits
    (``[N, 16, 16, 1]`` images with ``data_format="NHWC"``, Keras' layout)."""
    fmt = {"data_format": data_format}
    return ivy.Sequential(
        ivy.Conv2D(1, 16, 3, padding="SAME", **fmt),
        ivy.ReLU(),
        ivy.MaxPool2D(2, **fmt),
        ivy.Conv2D(16, 32, 3, padding="SAME", **fmt),
        ivy.ReLU(),
        ivy.MaxPool2D(2, **fmt),
        ivy.Flatten(),
        ivy.Linear(32 * 4 * 4, CLASSES),
        backend=backend,
    )


def train(backend: str, epochs: int, verbose: int, samples: int = 2048) -> tuple[float, int]:
    """Train on ``backend``, printing its progress; returns the validation accuracy and the
    number of training steps."""
    start = time.perf_counter()
    ivy.seed(0)
    x, y = make_data(samples, seed=1)
    x_val, y_val = make_data(512, seed=2)
    to = lambda a: ivy.asarray(a, backend=backend)  # noqa: E731 - the native arrays of the backend
    model = make_model(backend)
    steps = 0

    def say(text: str) -> None:
        print(f"{backend:>10}: {text} ({time.perf_counter() - start:.1f} s)", flush=True)

    def on_batch_end(batch: int, logs: dict[str, float], trainer: ivy.Trainer) -> None:
        nonlocal steps
        steps += 1
        if steps == 1:  # the slowest: where ivy.fit compiles the step, it does so here
            say("first training step done")

    def on_epoch_end(epoch: int, logs: dict[str, float], trainer: ivy.Trainer) -> None:
        say(f"epoch {epoch + 1}/{epochs}, loss {logs['loss']:.3f}, validation accuracy {logs['val_accuracy']:.3f}")

    say(f"training on {samples} images, {epochs} epoch{'s' * (epochs != 1)} of batches of 64")
    history = ivy.fit(
        model,
        to(x),
        to(y),
        loss=ivy.CrossEntropyLoss(from_logits=True),
        optimizer=ivy.Adam(3e-3),
        metrics=["accuracy"],
        epochs=epochs,
        batch_size=64,
        validation_data=(to(x_val), to(y_val)),
        verbose=verbose,
        seed=0,
        callbacks=[ivy.callbacks.LambdaCallback(on_batch_end=on_batch_end, on_epoch_end=on_epoch_end)],
    )
    if backend == BACKENDS[0] and verbose:
        model.summary(to(x[:2]))
    return history["val_accuracy"][-1], steps


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backends", default=",".join(BACKENDS), help="comma-separated autodiff backends")
    parser.add_argument("--epochs", type=int, default=None, help="epochs of training (default 3; --quick: 1)")
    parser.add_argument("--verbose", action="store_true", help="a progress bar per epoch, the model's summary")
    parser.add_argument("--quick", action="store_true", help="1024 training samples and one epoch (a quick check)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    names = [b for b in args.backends.split(",") if b]
    epochs = args.epochs if args.epochs is not None else 1 if args.quick else 3
    if args.child:  # one backend in this process
        start = time.perf_counter()
        acc, steps = train(names[0], epochs, 1 if args.verbose else 0, 1024 if args.quick else 2048)
        print(
            f"{names[0]:>10}: validation accuracy {acc:.3f} after {steps} steps in {time.perf_counter() - start:.1f} s",
            flush=True,
        )
        return 0 if acc > 0.9 else 1
    start, failed = time.perf_counter(), []
    for name in names:
        cmd = [sys.executable, __file__, "--child", "--backends", name, "--epochs", str(epochs)]
        cmd += ["--verbose"] * args.verbose + ["--quick"] * args.quick
        if subprocess.call(cmd) != 0:
            failed.append(name)
    took = f"{len(names)} backend(s) in {time.perf_counter() - start:.0f} s"
    if failed:
        print(f"FAILED: below 90% validation accuracy, or an error above: {', '.join(failed)} ({took})")
    else:
        print(f"OK: validation accuracy above 90% on {', '.join(names)} ({took})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
