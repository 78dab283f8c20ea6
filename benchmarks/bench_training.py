"""One training step of an MLP, pure Ivy against the same step written natively, per backend.

A stage of ``scripts/bench`` (``python -m benchmarks.run --stages training``; ``python
benchmarks/bench_training.py`` runs that stage alone).

Ivy: an ``ivy.Module`` MLP, ``ivy.execute_with_gradients`` and ``ivy.Adam.step`` (eager); that
whole stateful step compiled with ``ivy.compile`` (module and optimizer state threaded through
the program), against the eager step and against the native step compiled natively
(torch.compile, tf.function); and the functional step (``ivy.adam_update``) compiled with
``ivy.compile`` (jax.jit). Native: the
framework's own idiom (torch.nn + torch.optim.Adam, jax.value_and_grad + a hand-written Adam,
tf.GradientTape + keras Adam, paddle.nn + paddle.optimizer.Adam), compiled with jax.jit for the
compiled comparison. Both start from the same weights and have the same parameters (checked).
Targets: eager ratio <= 1.1, compiled <= 1.02. For scale: upstream Ivy's equivalent step is
about 800x slower than native torch.

Timing: the machine may be shared, so the two sides run in interleaved rounds (the side that
goes first alternates) of a few steps each, each step timed alone; a side's figure in a round is
its fastest step, the reported ratio the median of the per-round ratios, with its quartiles (and
the ratio of the fastest rounds). The ms per step shown are medians over rounds.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZES = (256, 512, 512, 10)
BATCH = 128
LR = 1e-3
EPS = 1e-7


def _weights() -> list[tuple[Any, Any]]:
    import numpy as np

    rng = np.random.default_rng(0)
    out = []
    for i, o in zip(SIZES[:-1], SIZES[1:]):
        bound = (6 / (i + o)) ** 0.5
        out.append((rng.uniform(-bound, bound, (o, i)).astype(np.float32), np.zeros(o, np.float32)))
    return out


def _ivy_model(name: str) -> Any:
    import ivy

    class MLP(ivy.Module):
        def __init__(self) -> None:
            # each layer is held by one attribute only: a Module registers every attribute that
            # holds a submodule, so keeping the layers in a list *and* as attributes would give
            # v every weight twice (twice the optimizer work of the native model)
            for k, (i, o) in enumerate(zip(SIZES[:-1], SIZES[1:])):
                setattr(self, f"linear{k}", ivy.Linear(i, o, backend=name))
            ivy.Module.__init__(self, backend=name)

        def _forward(self, x: Any) -> Any:
            n = len(SIZES) - 1
            for k in range(n - 1):
                x = ivy.relu(getattr(self, f"linear{k}")(x))
            return getattr(self, f"linear{n - 1}")(x)

    model = MLP()
    v = model.v
    for k, (w, b) in enumerate(_weights()):
        v[f"linear{k}"]["w"] = ivy.asarray(w, backend=name)
        v[f"linear{k}"]["b"] = ivy.asarray(b, backend=name)
    model.v = v
    return model


def _native_step(name: str, x: Any, y: Any) -> Callable[[], Any]:
    ws = _weights()
    if name == "torch":
        import torch

        layers = []
        for k, (w, b) in enumerate(ws):
            lin = torch.nn.Linear(w.shape[1], w.shape[0])
            with torch.no_grad():
                lin.weight.copy_(torch.from_numpy(w))
                lin.bias.copy_(torch.from_numpy(b))
            layers += [lin] + ([torch.nn.ReLU()] if k < len(ws) - 1 else [])
        net = torch.nn.Sequential(*layers)
        opt = torch.optim.Adam(net.parameters(), lr=LR, eps=EPS)

        def step() -> Any:
            opt.zero_grad()
            loss = torch.nn.functional.mse_loss(net(x), y)
            loss.backward()
            opt.step()
            return loss

        return step
    if name == "jax":
        import jax
        import jax.numpy as jnp

        params = [(jnp.asarray(w), jnp.asarray(b)) for w, b in ws]
        state = {
            "p": params,
            "m": jax.tree_util.tree_map(jnp.zeros_like, params),
            "v": jax.tree_util.tree_map(jnp.zeros_like, params),
            "t": 0,
        }

        def loss_fn(p: Any) -> Any:
            h = x
            for k, (w, b) in enumerate(p):
                h = h @ w.T + b
                if k < len(p) - 1:
                    h = jax.nn.relu(h)
            return jnp.mean((h - y) ** 2)

        vg = jax.value_and_grad(loss_fn)

        def step() -> Any:
            state["t"] += 1
            t = state["t"]
            loss, g = vg(state["p"])
            tm = jax.tree_util.tree_map
            state["m"] = tm(lambda m, g: 0.9 * m + 0.1 * g, state["m"], g)
            state["v"] = tm(lambda v, g: 0.999 * v + 0.001 * g * g, state["v"], g)
            state["p"] = tm(
                lambda p, m, v: p - LR * (m / (1 - 0.9**t)) / (jnp.sqrt(v / (1 - 0.999**t)) + EPS),
                state["p"],
                state["m"],
                state["v"],
            )
            return loss

        return step
    if name == "tensorflow":
        import keras
        import tensorflow as tf

        vs = [(tf.Variable(w), tf.Variable(b)) for w, b in ws]
        flat = [a for pair in vs for a in pair]
        opt = keras.optimizers.Adam(learning_rate=LR, epsilon=EPS)

        def step() -> Any:
            with tf.GradientTape() as tape:
                h = x
                for k, (w, b) in enumerate(vs):
                    h = tf.matmul(h, w, transpose_b=True) + b
                    if k < len(vs) - 1:
                        h = tf.nn.relu(h)
                loss = tf.reduce_mean(tf.square(h - y))
            opt.apply_gradients(zip(tape.gradient(loss, flat), flat))
            return loss

        return step
    if name == "paddle":
        import paddle

        layers = []
        for k, (w, b) in enumerate(ws):
            lin = paddle.nn.Linear(w.shape[1], w.shape[0])
            lin.weight.set_value(w.T)  # paddle stores [in, out]
            lin.bias.set_value(b)
            layers += [lin] + ([paddle.nn.ReLU()] if k < len(ws) - 1 else [])
        net = paddle.nn.Sequential(*layers)
        opt = paddle.optimizer.Adam(learning_rate=LR, epsilon=EPS, parameters=net.parameters())

        def step() -> Any:
            loss = paddle.nn.functional.mse_loss(net(x), y)
            loss.backward()
            opt.step()
            opt.clear_grad()
            return loss

        return step
    raise SystemExit(f"no native training step for {name!r}")


def _native_compiled_step(name: str, step: Callable[[], Any]) -> Callable[[], Any] | None:
    """The native step compiled with the framework's own compiler, where it compiles a whole
    training step (optimizer included): torch.compile, tf.function. JAX's is the functional step
    below; paddle's to_static does not take an optimizer step."""
    if name == "torch":
        import torch

        return torch.compile(step)  # type: ignore[no-any-return]
    if name == "tensorflow":
        import tensorflow as tf

        return tf.function(step)  # type: ignore[no-any-return]
    return None


def _paired(
    native: Callable[[], Any], ivy_fn: Callable[[], Any], rounds: int, number: int, sync: Callable[[Any], Any]
) -> dict[str, float]:
    """Times both steps in interleaved rounds (``number`` steps each, each timed alone; the side
    that goes first alternates), so that both see the same machine load, and compares them round
    by round: a side's figure in a round is its fastest step (one the scheduler did not cut)."""
    t_n: list[float] = []
    t_i: list[float] = []
    for r in range(rounds):
        pair = [(native, t_n), (ivy_fn, t_i)]
        for fn, out in pair if r % 2 == 0 else pair[::-1]:
            best = float("inf")
            for _ in range(number):
                start = time.perf_counter()
                sync(fn())  # jax dispatches asynchronously: wait for the step's result
                best = min(best, time.perf_counter() - start)
            out.append(best * 1e3)
    ratios = sorted(i / n for i, n in zip(t_i, t_n))
    return {
        "native_ms": statistics.median(t_n),
        "ivy_ms": statistics.median(t_i),
        "ratio": statistics.median(ratios),
        "ratio_q1": ratios[len(ratios) // 4],
        "ratio_q3": ratios[(3 * len(ratios)) // 4],
        "ratio_of_mins": min(t_i) / min(t_n),
    }


def bench_backend(name: str, rounds: int, number: int) -> dict[str, Any]:
    import numpy as np

    import ivy

    rng = np.random.default_rng(1)
    x = ivy.asarray(rng.standard_normal((BATCH, SIZES[0])).astype(np.float32), backend=name)
    y = ivy.asarray(rng.standard_normal((BATCH, SIZES[-1])).astype(np.float32), backend=name)
    model = _ivy_model(name)
    opt = ivy.Adam(LR, epsilon=EPS)

    def loss_fn(v: Any) -> Any:
        return ivy.mse_loss(y, model(x, v=v))

    def ivy_step() -> Any:
        loss, grads = ivy.execute_with_gradients(loss_fn, model.v)
        model.v = opt.step(model.v, grads)
        return loss

    native = _native_step(name, x, y)
    # the same starting point gives the same first losses: a sanity check of the comparison
    l_ivy, l_nat = float(ivy.to_numpy(ivy_step())), float(ivy.to_numpy(native()))
    n_ivy = sum(int(np.prod(tuple(a.shape))) for a in ivy.nest.leaves(model.v))
    n_nat = sum(w.size + b.size for w, b in _weights())
    if n_ivy != n_nat:  # e.g. a layer registered twice: twice the optimizer work
        raise SystemExit(f"the ivy model has {n_ivy} parameters, the native one {n_nat}")
    res: dict[str, Any] = {"backend": name, "first_loss_ivy": l_ivy, "first_loss_native": l_nat}
    sync = (lambda r: r.block_until_ready()) if name == "jax" else (lambda r: r)
    for _ in range(3):  # warm-up: allocator, caches, lazy initialisation
        sync(native()), sync(ivy_step())
    from benchmarks._common import progress

    progress(1, 5)
    res["eager"] = _paired(native, ivy_step, rounds, number, sync)
    progress(2, 5)

    # The whole stateful step compiled, as a user writes it: ivy.compile threads the module's
    # variables and the optimizer's state through the compiled program.
    ivy_compiled_step = ivy.compile(ivy_step)
    native_compiled = _native_compiled_step(name, native)
    for _ in range(3):
        sync(ivy_compiled_step())
    res["compiled step"] = _paired(ivy_step, ivy_compiled_step, rounds, number, sync)
    progress(3, 5)
    res["compiled step"]["vs"] = "ivy eager"
    if native_compiled is not None:
        for _ in range(3):
            sync(native_compiled())
        res["compiled step/native"] = _paired(native_compiled, ivy_compiled_step, rounds, number, sync)
        res["compiled step/native"]["vs"] = "native compiled"
    progress(4, 5)

    if name == "jax":
        import jax
        import jax.numpy as jnp

        def ivy_functional_step(v: Any, mw: Any, vw: Any, t: Any) -> Any:
            loss, grads = ivy.execute_with_gradients(lambda vv: ivy.mse_loss(y, model(x, v=vv)), v)
            new, mw, vw = ivy.adam_update(v, grads, LR, mw, vw, t, epsilon=EPS)
            return loss, new, mw, vw

        # backend given: ivy.compile hands back jax.jit's own callable (no per-call Ivy wrapper)
        compiled = ivy.compile(ivy_functional_step, backend=name)
        v0 = model.v.to_dict() if hasattr(model.v, "to_dict") else dict(model.v)
        zeros = jax.tree_util.tree_map(jnp.zeros_like, v0)
        st = {"v": v0, "m": zeros, "w": zeros, "t": 0}

        def ivy_c() -> Any:
            st["t"] += 1
            loss, st["v"], st["m"], st["w"] = compiled(st["v"], st["m"], st["w"], jnp.asarray(st["t"], jnp.float32))
            return loss

        ws = _weights()
        params = [(jnp.asarray(w), jnp.asarray(b)) for w, b in ws]

        @jax.jit
        def native_functional_step(p: Any, m: Any, vv: Any, t: Any) -> Any:
            def lf(p: Any) -> Any:
                h = x
                for k, (w, b) in enumerate(p):
                    h = h @ w.T + b
                    if k < len(p) - 1:
                        h = jax.nn.relu(h)
                return jnp.mean((h - y) ** 2)

            loss, g = jax.value_and_grad(lf)(p)
            tm = jax.tree_util.tree_map
            m = tm(lambda m, g: 0.9 * m + 0.1 * g, m, g)
            vv = tm(lambda v, g: 0.999 * v + 0.001 * g * g, vv, g)
            p = tm(lambda p, m, v: p - LR * (m / (1 - 0.9**t)) / (jnp.sqrt(v / (1 - 0.999**t)) + EPS), p, m, vv)
            return loss, p, m, vv

        z = jax.tree_util.tree_map(jnp.zeros_like, params)
        sn = {"p": params, "m": z, "v": z, "t": 0}

        def nat_c() -> Any:
            sn["t"] += 1
            loss, sn["p"], sn["m"], sn["v"] = native_functional_step(
                sn["p"], sn["m"], sn["v"], jnp.asarray(sn["t"], jnp.float32)
            )
            return loss

        for _ in range(3):
            sync(ivy_c()), sync(nat_c())
        # a compiled step is short and its program the same on both sides: more rounds
        res["compiled"] = _paired(nat_c, ivy_c, 3 * rounds, 2 * number, sync)
    return res


def run_stage(cfg: dict[str, Any], bar: Any) -> dict[str, Any]:
    """Parent: one child per backend with autodiff (paddle before tensorflow)."""
    from benchmarks._common import ChildError, run_child

    rounds, number = (9, 3) if cfg.get("quick") else (21, 3)  # short rounds: a loaded machine cuts long ones
    names = [b for b in cfg["backends"] if b != "numpy"]
    out: dict[str, Any] = {
        "rounds": rounds,
        "steps_per_round": number,
        "model": list(SIZES),
        "batch": BATCH,
        "backends": {},
        "errors": {},
    }
    for i, name in enumerate(names):
        try:
            out["backends"][name] = run_child(
                "benchmarks.bench_training",
                "bench_backend",
                {"name": name, "rounds": rounds, "number": number},
                lambda f, i=i, name=name: bar.update((i + f) / len(names), name),
            )
        except ChildError as e:
            out["errors"][name] = str(e)
    bar.close()
    return out


if __name__ == "__main__":
    sys.exit(subprocess.call([sys.executable, "-m", "benchmarks.run", "--stages", "training", *sys.argv[1:]], cwd=ROOT))
