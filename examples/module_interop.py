"""Framework modules in and out of Ivy, trained both ways, on every autodiff backend.

    python examples/module_interop.py                      # torch, jax, paddle, tensorflow
    python examples/module_interop.py --backends paddle    # one of them
    python examples/module_interop.py --quick              # a quick check: fewer steps

Per backend, in its own process (PaddlePaddle and TensorFlow do not share one), on a small
synthetic regression task (``y = sin(x . a) + x . b / 2``, 4 features):

1. **Into Ivy.** A framework's own module (a ``torch.nn.Sequential``, a ``(flax.linen.Module,
   variables)`` pair, a built ``keras.Sequential``, a ``paddle.nn.Sequential``), wrapped with
   ``ivy.from_native_module``, becomes the body of an Ivy model with an ``ivy.Linear`` head, and
   the whole model trains with ``ivy.fit`` and Ivy's ``Adam``. ``wrapper.to_native()`` then writes
   the trained weights back into the framework's module, which must compute what the Ivy model's
   body computes.
2. **Out of Ivy.** An Ivy MLP, exported with ``ivy.to_native_module``, trains with the
   framework's own optimizer: ``torch.optim.Adam`` and ``paddle.optimizer.Adam`` over the module's
   parameters, Keras' ``model.fit`` inside a ``keras.Sequential``, optax's ``adam`` under
   ``jax.jit`` on the ``(params, apply)`` pair. The exported parameters must be the Ivy module's
   variables themselves (the same objects; JAX, whose arrays are immutable, hands back the
   trained pytree with ``model.v = params``), and the Ivy module must compute what the exported
   one does.

The last line is the verdict: ``OK`` when on every backend both losses fell by half or more and
the parameters are shared, else ``FAILED``, naming them.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import ivy

BACKENDS = ("torch", "jax", "paddle", "tensorflow")  # paddle before tensorflow in one listing
FEATURES, HIDDEN = 4, 16


def make_data(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` inputs ``[n, 4]`` and targets ``[n, 1]`` (float32)."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1.0, 1.0, (n, FEATURES)).astype(np.float32)
    a, b = np.array([1.5, -1.0, 0.5, 2.0]), np.array([0.5, 1.0, -1.0, 0.0])
    return x, (np.sin(x @ a) + x @ b / 2).astype(np.float32)[:, None]


def native_mlp(backend: str, x: np.ndarray) -> Any:
    """The framework's own ``4 -> 16 -> 8`` tanh MLP, built (flax: with its variables)."""
    if backend == "torch":
        import torch

        torch.manual_seed(0)
        return torch.nn.Sequential(torch.nn.Linear(FEATURES, HIDDEN), torch.nn.Tanh(), torch.nn.Linear(HIDDEN, 8))
    if backend == "paddle":
        import paddle

        paddle.seed(0)
        return paddle.nn.Sequential(paddle.nn.Linear(FEATURES, HIDDEN), paddle.nn.Tanh(), paddle.nn.Linear(HIDDEN, 8))
    if backend == "tensorflow":
        import keras

        keras.utils.set_random_seed(0)
        layers = [keras.Input((FEATURES,)), keras.layers.Dense(HIDDEN, activation="tanh"), keras.layers.Dense(8)]
        return keras.Sequential(layers)
    if backend == "jax":
        import flax.linen as nn
        import jax

        module = nn.Sequential([nn.Dense(HIDDEN), nn.tanh, nn.Dense(8)])
        return module, module.init(jax.random.key(0), x[:1])
    raise ValueError(f"no native module for the {backend!r} backend (an autodiff backend: {', '.join(BACKENDS)})")


class Hybrid(ivy.Module):
    """The framework's module (wrapped) as the body, an Ivy ``Linear`` as the head."""

    def __init__(self, body: ivy.Module, **kwargs: Any) -> None:
        self.body = body
        self.head = ivy.Linear(8, 1)
        ivy.Module.__init__(self, **kwargs)

    def _forward(self, x: Any) -> Any:
        return self.head(ivy.tanh(self.body(x)))


def into_ivy(backend: str, x: np.ndarray, y: np.ndarray, epochs: int, say: Callable[[str], None]) -> tuple[bool, bool]:
    """Part 1; returns whether the loss fell by half and whether the written-back native module
    computes what the trained wrapper does."""
    native = native_mlp(backend, x)
    wrapper = ivy.from_native_module(native)
    say(f"from_native_module: {wrapper!r}, variables {sorted(wrapper.v.key_chains())}")
    model = Hybrid(wrapper, backend=backend)
    history = ivy.fit(
        model, x, y, loss=ivy.MSELoss(), optimizer=ivy.Adam(1e-2), epochs=epochs, batch_size=32, seed=0, verbose=0
    )
    losses = history["loss"]
    say(f"trained inside an Ivy model with ivy.fit: loss {losses[0]:.4f} -> {losses[-1]:.4f}")
    written = wrapper.to_native()
    probe = ivy.asarray(x[:16], backend=backend)
    if backend == "jax":  # to_native gives (apply_fn, params) with the trained params
        module, variables = native
        theirs = module.apply({**variables, "params": written[1]}, probe)
    elif backend == "tensorflow":
        theirs = written(probe, training=False)
    else:
        written.eval()
        theirs = written(probe)
    same = np.allclose(ivy.to_numpy(theirs), ivy.to_numpy(wrapper(probe)), atol=1e-5)
    say(f"to_native() wrote the trained weights back: the native module computes the same: {same}")
    return losses[-1] < 0.5 * losses[0], same


def out_of_ivy(
    backend: str, x: np.ndarray, y: np.ndarray, epochs: int, say: Callable[[str], None]
) -> tuple[bool, bool]:
    """Part 2; returns whether the loss fell by half and whether the native parameters are the
    Ivy module's variables (and compute the same)."""
    ivy.seed(0)
    model = ivy.Sequential(ivy.Linear(FEATURES, HIDDEN), ivy.Tanh(), ivy.Linear(HIDDEN, 1), backend=backend)
    steps = epochs * (len(x) // 32)
    batches = [(x[i : i + 32], y[i : i + 32]) for i in range(0, len(x) - 31, 32)]
    losses: list[float] = []
    if backend == "torch":
        import torch

        net = ivy.to_native_module(model)  # model.v is now its parameters
        shared = {id(p) for p in net.parameters()} == {id(a) for a in model.v.to_flat_dict().values()}
        opt = torch.optim.Adam(net.parameters(), lr=1e-2)
        for i in range(steps):
            xb, yb = (torch.from_numpy(a) for a in batches[i % len(batches)])
            loss = torch.nn.functional.mse_loss(net(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(float(loss.detach()))
        native_out = net(torch.from_numpy(x[:16]))
    elif backend == "paddle":
        import paddle

        net = ivy.to_native_module(model)  # model.v is now its parameters
        shared = {id(p) for p in net.parameters()} == {id(a) for a in model.v.to_flat_dict().values()}
        opt = paddle.optimizer.Adam(learning_rate=1e-2, parameters=net.parameters())
        for i in range(steps):
            xb, yb = (paddle.to_tensor(a) for a in batches[i % len(batches)])
            loss = paddle.nn.functional.mse_loss(net(xb), yb)
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(float(loss))
        native_out = net(paddle.to_tensor(x[:16]))
    elif backend == "tensorflow":
        import keras

        layer = ivy.to_native_module(model)
        net = keras.Sequential([keras.Input((FEATURES,)), layer])
        shared = {id(w.value) for w in layer.weights} == {id(a) for a in model.v.to_flat_dict().values()}
        net.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
        losses = net.fit(x, y, batch_size=32, epochs=epochs, shuffle=False, verbose=0).history["loss"]
        native_out = net(x[:16])
    elif backend == "jax":
        import jax
        import jax.numpy as jnp
        import optax

        params, apply = ivy.to_native_module(model)
        shared = [id(a) for a in params.to_flat_dict().values()] == [id(a) for a in model.v.to_flat_dict().values()]
        opt = optax.adam(1e-2)
        opt_state = opt.init(params)

        @jax.jit
        def step(params: Any, opt_state: Any, xb: Any, yb: Any) -> tuple[Any, Any, Any]:
            loss, grads = jax.value_and_grad(lambda p: ((apply(p, xb) - yb) ** 2).mean())(params)
            updates, opt_state = opt.update(grads, opt_state)
            return optax.apply_updates(params, updates), opt_state, loss

        for i in range(steps):
            params, opt_state, loss = step(params, opt_state, *batches[i % len(batches)])
            losses.append(float(loss))
        native_out = apply(params, jnp.asarray(x[:16]))  # apply takes JAX arrays
        model.v = params  # JAX arrays are immutable: the trained pytree goes back as v
    else:
        raise ValueError(f"no native training loop for the {backend!r} backend")
    kind = type(net if backend != "jax" else apply).__name__
    say(f"to_native_module: {kind}, parameters are the Ivy variables: {shared}")
    first, last = float(np.mean(losses[:3])), float(np.mean(losses[-3:]))
    say(f"trained with the framework's own optimizer: loss {first:.4f} -> {last:.4f}")
    ours = ivy.to_numpy(model(ivy.asarray(x[:16], backend=backend)))
    same = np.allclose(ours, ivy.to_numpy(native_out), atol=1e-5)
    say(f"the Ivy module computes what the trained native one does: {same}")
    return last < 0.5 * first, shared and same


def run(backend: str, epochs: int, samples: int) -> bool:
    """Both parts on ``backend``; whether everything held."""
    start = time.perf_counter()

    def say(text: str) -> None:
        print(f"{backend:>10}: {text} ({time.perf_counter() - start:.1f} s)", flush=True)

    x, y = make_data(samples, seed=1)
    fell_in, same_in = into_ivy(backend, x, y, epochs, say)
    fell_out, shared_out = out_of_ivy(backend, x, y, epochs, say)
    return fell_in and same_in and fell_out and shared_out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backends", default=",".join(BACKENDS), help="comma-separated autodiff backends")
    parser.add_argument("--epochs", type=int, default=None, help="epochs of training (default 40; --quick: 20)")
    parser.add_argument("--quick", action="store_true", help="256 samples and 20 epochs (a quick check)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    names = [b for b in args.backends.split(",") if b]
    epochs = args.epochs if args.epochs is not None else 20 if args.quick else 40
    if args.child:  # one backend in this process
        start = time.perf_counter()
        ok = run(names[0], epochs, 256 if args.quick else 1024)
        print(
            f"{names[0]:>10}: {'both ways work' if ok else 'FAILED'} ({time.perf_counter() - start:.1f} s)", flush=True
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
        print(f"FAILED: a loss that did not fall, parameters not shared, or an error: {', '.join(failed)} ({took})")
    else:
        print(f"OK: native modules train inside Ivy and Ivy modules train natively on {', '.join(names)} ({took})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
