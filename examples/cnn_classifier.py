"""An MNIST-style CNN classifier written once with Ivy's layers and trained with ``ivy.fit`` on
every autodiff backend.

    python examples/cnn_classifier.py                      # torch, jax, paddle, tensorflow
    python examples/cnn_classifier.py --backends jax       # one of them
    python examples/cnn_classifier.py --epochs 4 --verbose # longer, with a progress bar
    python examples/cnn_classifier.py --quick              # a quarter of the training data

The data are synthetic 16x16 grey images of 10 classes (a bright 4x4 square at one of ten
places, under noise), so the script needs no download. Each backend trains in its own process
(PaddlePaddle and TensorFlow do not share one) from the same seed; the script prints each
backend's validation accuracy and checks that it is above 90%.

The model uses torch's channel-first layout (``data_format="NCHW"``); Keras' channel-last
layout is the layers' default and would need no argument.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

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


def train(backend: str, epochs: int, verbose: int, samples: int = 2048) -> float:
    """Train on ``backend``; returns the validation accuracy."""
    ivy.seed(0)
    x, y = make_data(samples, seed=1)
    x_val, y_val = make_data(512, seed=2)
    to = lambda a: ivy.asarray(a, backend=backend)  # noqa: E731 - the native arrays of the backend
    model = make_model(backend)
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
    )
    if backend == BACKENDS[0] and verbose:
        model.summary(to(x[:2]))
    return history["val_accuracy"][-1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backends", default=",".join(BACKENDS), help="comma-separated autodiff backends")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--verbose", action="store_true", help="a progress bar per epoch, the model's summary")
    parser.add_argument("--quick", action="store_true", help="512 training samples instead of 2048 (a quicker check)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    names = [b for b in args.backends.split(",") if b]
    if args.child:  # one backend in this process
        acc = train(names[0], args.epochs, 1 if args.verbose else 0, 512 if args.quick else 2048)
        print(f"{names[0]:>10}: validation accuracy {acc:.3f}", flush=True)
        return 0 if acc > 0.9 else 1
    failed = []
    for name in names:
        cmd = [sys.executable, __file__, "--child", "--backends", name, "--epochs", str(args.epochs)]
        cmd += ["--verbose"] * args.verbose + ["--quick"] * args.quick
        if subprocess.call(cmd) != 0:
            failed.append(name)
    if failed:
        print(f"below 90% validation accuracy, or failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
