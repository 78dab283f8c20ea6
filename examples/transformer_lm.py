"""A small causal transformer language model written once with Ivy's layers and trained with
``ivy.Trainer`` on every autodiff backend.

    python examples/transformer_lm.py                      # torch, jax, paddle, tensorflow
    python examples/transformer_lm.py --backends torch     # one of them
    python examples/transformer_lm.py --epochs 6 --verbose # longer, with a progress bar
    python examples/transformer_lm.py --quick              # a quarter of the training data

The corpus is synthetic: sequences of 16 tokens counting up modulo 24 from a random start, with a
random stride of 1, 2 or 3 (``5 7 9 11 ...``). After two tokens the next one is determined, so a
model that attends to the previous tokens predicts positions 2 onwards exactly. Each backend
trains in its own process (PaddlePaddle and TensorFlow do not share one) from the same seed; the
script prints a line per epoch, then the next-token accuracy on held-out sequences from position 2
on, and last a verdict: ``OK`` when every backend is above 90%, else ``FAILED``, naming them.

Layers: ``Embedding`` (token ids to vectors), ``SinusoidalPositionalEmbedding``, a pre-norm
``TransformerEncoder`` with a causal mask (each position attends to itself and earlier ones),
``LayerNorm`` and a ``Linear`` head to the vocabulary's logits. Loss: ``ivy.losses.cross_entropy``
on integer next-token labels; the schedule: cosine decay with linear warm-up; gradients clipped by
their global norm.
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
VOCAB, LENGTH, D_MODEL = 24, 16, 64


def make_data(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` input sequences ``[n, 16]`` and their next tokens ``[n, 16]`` (int64)."""
    rng = np.random.default_rng(seed)
    start = rng.integers(0, VOCAB, (n, 1))
    stride = rng.integers(1, 4, (n, 1))
    seq = (start + stride * np.arange(LENGTH + 1)) % VOCAB
    return seq[:, :-1].astype(np.int64), seq[:, 1:].astype(np.int64)


class TinyLM(ivy.Module):
    """Token ids ``[batch, T]`` to next-token logits ``[batch, T, vocab]`` (channel-last)."""

    def __init__(self, vocab: int, d_model: int, layers: int = 2, heads: int = 4, **kwargs: Any) -> None:
        self.embed = ivy.Embedding(vocab, d_model)
        self.position = ivy.SinusoidalPositionalEmbedding(d_model, scale_input=True)
        self.encoder = ivy.TransformerEncoder(
            layers, d_model, heads, dim_feedforward=2 * d_model, dropout=0.0, activation="gelu", norm_first=True
        )
        self.norm = ivy.LayerNorm(d_model)
        self.head = ivy.Linear(d_model, vocab)
        ivy.Module.__init__(self, **kwargs)

    def _forward(self, tokens: Any) -> Any:
        h = self.encoder(self.position(self.embed(tokens)), is_causal=True)
        return self.head(self.norm(h))


def next_token_loss(labels: Any, logits: Any) -> Any:
    """Cross-entropy of the next tokens, the first two positions ignored (not yet predictable)."""
    return ivy.losses.cross_entropy(labels[:, 2:], logits[:, 2:], from_logits=True)


class PredictableAccuracy(ivy.metrics.Accuracy):
    """Next-token accuracy from position 2 on."""

    def update(self, true: Any, pred: Any, *, sample_weight: Any = None) -> None:
        super().update(true[:, 2:], pred[:, 2:], sample_weight=sample_weight)


def train(backend: str, epochs: int, verbose: int, samples: int = 4096) -> tuple[float, int]:
    """Train on ``backend``, printing its progress; returns the held-out next-token accuracy (from
    position 2 on) and the number of training steps."""
    start = time.perf_counter()
    ivy.seed(0)
    x, y = make_data(samples, seed=1)
    x_val, y_val = make_data(512, seed=2)
    to = lambda a: ivy.asarray(a, backend=backend)  # noqa: E731 - the native arrays of the backend
    model = TinyLM(VOCAB, D_MODEL, backend=backend)
    steps = epochs * (len(x) // 64)
    schedule = ivy.schedules.CosineDecay(3e-3, decay_steps=steps, warmup_steps=steps // 10)
    trainer = ivy.Trainer(
        model, next_token_loss, ivy.AdamW(schedule, weight_decay=0.01, clip_norm=1.0), metrics=[PredictableAccuracy()]
    )

    def on_epoch_end(epoch: int, logs: dict[str, float], trainer: ivy.Trainer) -> None:
        print(
            f"{backend:>10}: epoch {epoch + 1}/{epochs}, loss {logs['loss']:.3f}, held-out accuracy "
            f"{logs['val_accuracy']:.3f} ({time.perf_counter() - start:.1f} s)",
            flush=True,
        )

    history = trainer.fit(
        to(x),
        to(y),
        epochs=epochs,
        batch_size=64,
        validation_data=(to(x_val), to(y_val)),
        verbose=verbose,
        seed=0,
        drop_remainder=True,
        callbacks=[ivy.callbacks.LambdaCallback(on_epoch_end=on_epoch_end)],
    )
    if backend == BACKENDS[0] and verbose:
        print(model)
    return history["val_accuracy"][-1], steps


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backends", default=",".join(BACKENDS), help="comma-separated autodiff backends")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--verbose", action="store_true", help="a progress bar per epoch, the model's repr")
    parser.add_argument("--quick", action="store_true", help="1024 training samples instead of 4096 (a quicker check)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    names = [b for b in args.backends.split(",") if b]
    if args.child:  # one backend in this process
        start = time.perf_counter()
        acc, steps = train(names[0], args.epochs, 1 if args.verbose else 0, 1024 if args.quick else 4096)
        took = time.perf_counter() - start
        print(f"{names[0]:>10}: held-out next-token accuracy {acc:.3f} after {steps} steps in {took:.1f} s", flush=True)
        return 0 if acc > 0.9 else 1
    start, failed = time.perf_counter(), []
    for name in names:
        cmd = [sys.executable, __file__, "--child", "--backends", name, "--epochs", str(args.epochs)]
        cmd += ["--verbose"] * args.verbose + ["--quick"] * args.quick
        if subprocess.call(cmd) != 0:
            failed.append(name)
    took = f"{len(names)} backend(s) in {time.perf_counter() - start:.0f} s"
    if failed:
        print(f"FAILED: below 90% next-token accuracy, or an error above: {', '.join(failed)} ({took})")
    else:
        print(f"OK: held-out next-token accuracy above 90% on {', '.join(names)} ({took})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
