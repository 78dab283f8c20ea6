"""A small vision transformer (ViT) written once with Ivy's layers and trained with ``ivy.fit`` on
every autodiff backend.

    python examples/vit_classifier.py                      # torch, jax, paddle, tensorflow
    python examples/vit_classifier.py --backends torch     # one of them
    python examples/vit_classifier.py --quick              # a quick check: fewer images, more epochs

The data are synthetic 16x16 grey images (channel-last, Keras' layout) of 4 classes: a bright
line, anywhere, horizontal, vertical, diagonal or anti-diagonal, under noise. The model cuts an image
into 16 patches of 4x4 (a ``Conv2D`` with a stride of 4: the patch embedding), prepends a learned
class token (a custom variable declared with ``Module.add_weight``), adds learned positions, runs
a pre-norm ``TransformerEncoder`` and classifies the class token's output with a ``Linear`` head.
Optimizer: ``AdamW`` with a linear warm-up and cosine decay (``ivy.schedules.CosineDecay``); the
metric: accuracy. Each backend trains in its own process (PaddlePaddle and TensorFlow do not
share one) from the same seed; the last line is the verdict: ``OK`` when every backend's
validation accuracy is above 50% (twice chance: 25%), else ``FAILED``, naming them.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from typing import Any

import numpy as np

import ivy

BACKENDS = ("torch", "jax", "paddle", "tensorflow")  # paddle before tensorflow in one listing
SIDE, PATCH, CLASSES, DIM = 16, 4, 4, 32
PATCHES = (SIDE // PATCH) ** 2
THRESHOLD = 0.5  # twice chance


def make_data(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` images ``[n, 16, 16, 1]`` (float32) and their labels ``[n]`` (int64): a bright line
    of 6 pixels, anywhere, horizontal (0), vertical (1), diagonal (2) or anti-diagonal (3)."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, CLASSES, n)
    images = rng.normal(0.0, 0.2, (n, SIDE, SIDE, 1)).astype(np.float32)
    step = np.array([(0, 1), (1, 0), (1, 1), (1, -1)])[labels]  # per class: (row, column) steps
    row = rng.integers(0, SIDE - 6, n)
    col = rng.integers(0, SIDE - 6, n) + 5 * (labels == 3)  # an anti-diagonal goes left
    for k in range(6):
        images[np.arange(n), row + k * step[:, 0], col + k * step[:, 1], 0] += 1.5
    return images, labels.astype(np.int64)


class ViT(ivy.Module):
    """Images ``[batch, 16, 16, 1]`` to class logits ``[batch, 4]``."""

    def __init__(self, dim: int, layers: int = 2, heads: int = 4, **kwargs: Any) -> None:
        self.patches = ivy.Conv2D(1, dim, PATCH, strides=PATCH)  # one embedding per 4x4 patch
        self.encoder = ivy.TransformerEncoder(
            layers, dim, heads, dim_feedforward=2 * dim, dropout=0.0, activation="gelu", norm_first=True
        )
        self.norm = ivy.LayerNorm(dim)
        self.head = ivy.Linear(dim, CLASSES)
        ivy.Module.__init__(self, **kwargs)
        # the custom variables of the model itself, trained and saved with the layers' own
        self.add_weight("cls_token", (1, 1, dim), initializer=ivy.RandomNormal(0.0, 0.02))
        self.add_weight("positions", (1, PATCHES + 1, dim), initializer=ivy.RandomNormal(0.0, 0.02))

    def _forward(self, images: Any) -> Any:
        tokens = ivy.reshape(self.patches(images), (images.shape[0], PATCHES, -1))
        cls = ivy.broadcast_to(self.cls_token, (images.shape[0], 1, tokens.shape[-1]))
        h = self.encoder(ivy.concat([cls, tokens], axis=1) + self.positions)
        return self.head(self.norm(h[:, 0]))


def train(backend: str, epochs: int, quick: bool) -> tuple[float, int]:
    """Train on ``backend``, printing its progress; returns the validation accuracy and the
    number of training steps."""
    start = time.perf_counter()
    # --quick: batches that divide the data (one batch shape) and eager steps (fit's compilation
    # is tested on its own; here it would cost more than the few steps it speeds up)
    samples, batch = (512, 32) if quick else (4096, 16)
    ivy.seed(0)
    x, y = make_data(samples, seed=1)
    x_val, y_val = make_data(128 if quick else 256, seed=2)
    model = ViT(DIM, backend=backend)
    steps = epochs * (samples // batch)
    schedule = ivy.schedules.CosineDecay(1e-2, decay_steps=steps, warmup_steps=max(1, steps // 10))

    def on_epoch_end(epoch: int, logs: dict[str, float], trainer: ivy.Trainer) -> None:
        print(
            f"{backend:>10}: epoch {epoch + 1}/{epochs}, loss {logs['loss']:.3f}, validation accuracy "
            f"{logs['val_accuracy']:.3f} ({time.perf_counter() - start:.1f} s)",
            flush=True,
        )

    print(
        f"{backend:>10}: training on {samples} images, {epochs} epoch{'s' * (epochs != 1)} of batches of {batch}",
        flush=True,
    )
    history = ivy.fit(
        model,
        x,
        y,
        loss=ivy.CrossEntropyLoss(from_logits=True),
        optimizer=ivy.AdamW(schedule, weight_decay=0.05),
        metrics=["accuracy"],
        epochs=epochs,
        batch_size=batch,
        drop_remainder=True,
        compile=not quick,
        validation_data=(x_val, y_val),
        verbose=0,
        seed=0,
        callbacks=[ivy.callbacks.LambdaCallback(on_epoch_end=on_epoch_end)],
    )
    return history["val_accuracy"][-1], steps


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backends", default=",".join(BACKENDS), help="comma-separated autodiff backends")
    parser.add_argument("--epochs", type=int, default=None, help="epochs of training (default 4; --quick: 8)")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="512 training images, eight epochs of batches of 32, eager steps "
        "(a quick check; ivy.fit's compilation is tested on its own)",
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    names = [b for b in args.backends.split(",") if b]
    epochs = args.epochs if args.epochs is not None else 8 if args.quick else 4
    if args.child:  # one backend in this process
        start = time.perf_counter()
        acc, steps = train(names[0], epochs, args.quick)
        took = time.perf_counter() - start
        print(f"{names[0]:>10}: validation accuracy {acc:.3f} after {steps} steps in {took:.1f} s", flush=True)
        return 0 if acc > THRESHOLD else 1
    start, failed = time.perf_counter(), []
    for name in names:
        cmd = [sys.executable, __file__, "--child", "--backends", name, "--epochs", str(epochs)]
        cmd += ["--quick"] * args.quick
        if subprocess.call(cmd) != 0:
            failed.append(name)
    took = f"{len(names)} backend(s) in {time.perf_counter() - start:.0f} s"
    if failed:
        print(f"FAILED: validation accuracy not above {THRESHOLD:.0%}, or an error above: {', '.join(failed)} ({took})")
    else:
        print(f"OK: validation accuracy above {THRESHOLD:.0%} (chance: 25%) on {', '.join(names)} ({took})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
