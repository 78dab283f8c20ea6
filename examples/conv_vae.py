"""A convolutional variational autoencoder (VAE) whose whole training step is compiled with
``ivy.compile``, on every autodiff backend.

    python examples/conv_vae.py                      # torch, jax, paddle, tensorflow
    python examples/conv_vae.py --backends jax       # one of them
    python examples/conv_vae.py --quick              # a quick check: fewer steps

The data are synthetic 16x16 grey images in [0, 1]: a soft round blob of a random place and size.
The encoder (two strided ``Conv2D``s and a ``Linear``; ``--quick``: one ``Conv2D``) gives the mean
and log-variance of a 4-dimensional latent code; the decoder (a ``Linear`` and two strided
``Conv2DTranspose``s; ``--quick``: one) gives the pixels' logits. The code is drawn with the
reparameterisation ``z = mean + exp(logvar / 2) * eps``, so that the loss (the pixels' binary
cross-entropy plus the KL divergence of the code from N(0, 1)) is differentiable in the mean and
log-variance; ``eps`` is drawn outside the step (NumPy) and passed in, so that the eager and the
compiled step see the same draws.

The training step (forward, loss, gradients, ``AdamW`` update) is one function, compiled with
``ivy.compile``: jax.jit, tf.function, torch.compile (``--quick``: its cheap ``"eager"``
backend, which still traces the step with dynamo; the default inductor compile takes a minute),
paddle.jit.to_static; the model and the optimizer are its arguments, so their state is threaded
through the compiled program. The first step runs both eagerly and compiled, on two copies of the
model, which must give the same loss and the same updated weights; then the compiled step trains.
Where the framework's compiler crashes on the step (paddle's to_static on the full-size one, with
its ``GradTensorHolder`` error; it compiles the ``--quick`` one), ``ivy.compile`` runs it eagerly
with a warning, and the script says so on its progress and result lines.
Each backend runs in its own process (PaddlePaddle and TensorFlow do not share one). The last line
is the verdict: ``OK`` when on every backend the compiled step equals the eager one and the loss
fell by a fifth or more, else ``FAILED``, naming them.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
import warnings
from typing import Any

import numpy as np

import ivy

BACKENDS = ("torch", "jax", "paddle", "tensorflow")  # paddle before tensorflow in one listing
SIDE, LATENT = 16, 4


def make_data(n: int, seed: int) -> np.ndarray:
    """``n`` images ``[n, 16, 16, 1]`` (float32, in [0, 1]) of one soft blob each."""
    rng = np.random.default_rng(seed)
    centre = rng.uniform(3.0, SIDE - 3.0, (n, 2, 1, 1))
    width = rng.uniform(1.5, 3.0, (n, 1, 1))
    r, c = np.meshgrid(np.arange(SIDE), np.arange(SIDE), indexing="ij")
    d2 = (r - centre[:, 0]) ** 2 + (c - centre[:, 1]) ** 2
    return np.exp(-d2 / (2 * width**2)).astype(np.float32)[..., None]


class ConvVAE(ivy.Module):
    """Images ``[batch, 16, 16, 1]`` and noise ``[batch, 4]`` to ``(logits, mean, logvar)``; one
    strided convolution (encoder) and transposed convolution (decoder) per entry of ``channels``."""

    def __init__(self, latent: int, channels: tuple[int, ...] = (16, 32), **kwargs: Any) -> None:
        side = SIDE // 2 ** len(channels)  # each stage halves the side
        encoder: list[ivy.Module] = []
        for c_in, c_out in zip((1, *channels), channels):
            encoder += [ivy.Conv2D(c_in, c_out, 3, strides=2, padding="SAME"), ivy.ReLU()]
        self.encoder = ivy.Sequential(*encoder, ivy.Flatten(), ivy.Linear(side * side * channels[-1], 2 * latent))
        decoder: list[ivy.Module] = [
            ivy.Linear(latent, side * side * channels[-1]),
            ivy.ReLU(),
            ivy.Reshape((side, side, channels[-1])),
        ]
        outs = (*channels[-2::-1], 1)
        for i, (c_in, c_out) in enumerate(zip(channels[::-1], outs)):
            decoder.append(ivy.Conv2DTranspose(c_in, c_out, 4, strides=2, padding="SAME"))
            if i + 1 < len(outs):
                decoder.append(ivy.ReLU())
        self.decoder = ivy.Sequential(*decoder)
        ivy.Module.__init__(self, **kwargs)

    def _forward(self, images: Any, eps: Any) -> tuple[Any, Any, Any]:
        stats = self.encoder(images)
        mean, logvar = stats[:, :LATENT], stats[:, LATENT:]
        z = mean + ivy.exp(0.5 * logvar) * eps  # the reparameterisation: differentiable in both
        return self.decoder(z), mean, logvar


def vae_loss(model: ConvVAE, v: Any, images: Any, eps: Any) -> Any:
    """The negative evidence lower bound per image: the pixels' cross-entropy plus the KL term."""
    logits, mean, logvar = model(images, eps, v=v)
    reconstruction = ivy.losses.binary_cross_entropy(images, logits, from_logits=True, reduction="sum")
    kl = -0.5 * ivy.sum(1.0 + logvar - mean**2 - ivy.exp(logvar))
    return (reconstruction + kl) / images.shape[0]


def train_step(model: ConvVAE, optimizer: ivy.Optimizer, images: Any, eps: Any) -> Any:
    """One step: the loss, its gradients in every variable, the optimizer's update."""
    loss, grads = ivy.execute_with_gradients(lambda v: vae_loss(model, v, images, eps), model.v)
    model.v = optimizer.step(model.v, grads)
    return loss


def train(backend: str, steps: int, quick: bool) -> tuple[float, float, list[float], bool]:
    """Train on ``backend``, printing the progress; returns the first step's eager-compiled loss
    and weight differences, the compiled step's losses, and whether it compiled (``ivy.compile``
    runs a step eagerly, with a warning, where the framework's compiler crashes on it)."""
    start = time.perf_counter()

    def say(text: str) -> None:
        print(f"{backend:>10}: {text} ({time.perf_counter() - start:.1f} s)", flush=True)

    # --quick: one stage each way and smaller batches (the compiled step is the subject; fewer
    # operations compile sooner), as the loss still falls
    channels, batch_size = ((8,), 16) if quick else ((16, 32), 32)
    images = make_data(batch_size * 8, seed=1)
    rng = np.random.default_rng(2)
    to = lambda a: ivy.asarray(a, backend=backend)  # noqa: E731 - the native arrays of the backend
    models = []
    for _ in range(2):  # the same initial weights for the eager and the compiled copy
        ivy.seed(0)
        models.append(ConvVAE(LATENT, channels, backend=backend))
        models[-1].build()
    eager_model, model = models
    eager_opt, optimizer = ivy.AdamW(2e-3), ivy.AdamW(2e-3)
    options = {"options": {"backend": "eager"}} if quick and backend == "torch" else {}
    compiled_step = ivy.compile(train_step, **options)

    x, eps = to(images[:batch_size]), to(rng.standard_normal((batch_size, LATENT)).astype(np.float32))
    eager_loss = float(train_step(eager_model, eager_opt, x, eps))
    say(f"first step eagerly: loss {eager_loss:.3f}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RuntimeWarning)
        losses = [float(compiled_step(model, optimizer, x, eps))]
    failed = [w for w in caught if isinstance(w.message, ivy.errors.CompileFailedWarning)]
    for w in failed:  # the step runs eagerly from now on
        say(f"NOT COMPILED: {str(w.message)[:300]}")
    say(f"first step compiled (the compiling included): loss {losses[0]:.3f}")
    ours, theirs = model.v.to_numpy().to_flat_dict(), eager_model.v.to_numpy().to_flat_dict()
    weight_diff = max(float(np.max(np.abs(ours[k] - theirs[k]))) for k in ours)
    say(f"compiled against eager: loss difference {abs(losses[0] - eager_loss):.1e}, weights {weight_diff:.1e}")

    for i in range(1, steps):
        batch = images[(i % 8) * batch_size : (i % 8 + 1) * batch_size]
        eps = rng.standard_normal((batch_size, LATENT)).astype(np.float32)
        losses.append(float(compiled_step(model, optimizer, to(batch), to(eps))))
        if (i + 1) % 20 == 0 or i + 1 == steps:
            say(f"step {i + 1}/{steps}: loss {np.mean(losses[-10:]):.3f} (the last ten steps' mean)")
    return abs(losses[0] - eager_loss) / abs(eager_loss), weight_diff, losses, not failed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backends", default=",".join(BACKENDS), help="comma-separated autodiff backends")
    parser.add_argument("--steps", type=int, default=None, help="training steps (default 300; --quick: 60)")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="60 steps of a one-stage VAE, torch.compile's cheap backend (a quick check)",
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    names = [b for b in args.backends.split(",") if b]
    steps = args.steps if args.steps is not None else 60 if args.quick else 300
    if args.child:  # one backend in this process
        start = time.perf_counter()
        loss_diff, weight_diff, losses, compiled = train(names[0], steps, args.quick)
        first, last = float(np.mean(losses[:5])), float(np.mean(losses[-5:]))
        same, fell = loss_diff < 1e-4 and weight_diff < 1e-4, last < 0.8 * first
        print(
            f"{names[0]:>10}: {'compiled' if compiled else 'NOT COMPILED (see above)'} step "
            f"{'equals' if same else 'DIFFERS FROM'} the eager one, loss "
            f"{first:.3f} -> {last:.3f} in {steps} steps ({time.perf_counter() - start:.1f} s)",
            flush=True,
        )
        return 0 if same and fell else 1
    start, failed = time.perf_counter(), []
    for name in names:
        cmd = [sys.executable, __file__, "--child", "--backends", name, "--steps", str(steps)]
        cmd += ["--quick"] * args.quick
        if subprocess.call(cmd) != 0:
            failed.append(name)
    took = f"{len(names)} backend(s) in {time.perf_counter() - start:.0f} s"
    if failed:
        print(f"FAILED: compiled differs from eager, the loss did not fall, or an error: {', '.join(failed)} ({took})")
    else:
        print(f"OK: the compiled step equals the eager one and the loss falls on {', '.join(names)} ({took})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
