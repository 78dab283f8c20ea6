"""One training step of an MLP, pure Ivy against the same step written natively, per backend.

    python benchmarks/bench_training.py [--backends torch,jax,tensorflow,paddle] [--quick]

Ivy: an ``ivy.Module`` MLP, ``ivy.execute_with_gradients`` and ``ivy.Adam.step`` (eager); that
whole stateful step compiled with ``ivy.compile`` (module and optimizer state threaded through
the program), against the eager step and against the native step compiled natively
(torch.compile, tf.function); and the functional step (``ivy.adam_update``) compiled with
``ivy.compile`` (jax.jit). Native: the
framework's own idiom (torch.nn + torch.optim.Adam, jax.value_and_grad + a hand-written Adam,
tf.GradientTape + keras Adam, paddle.nn + paddle.optimizer.Adam), compiled with jax.jit for the
compiled comparison. Both start from the same weights and have the same parameters (checked).
Targets: eager ratio <= 1.2, compiled <= 1.02. For scale: upstream Ivy's equivalent step is
about 800x slower than native torch.

Timing: the machine may be shared, so the two sides run in interleaved rounds (the side that
goes first alternates) and the reported ratio is the median of the per-round ratios, with its
quartiles; the ratio of the fastest rounds is shown too. Medians of the ms per step are shown.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any, Callable

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
        state = {"p": params, "m": jax.tree_util.tree_map(jnp.zeros_like, params),
                 "v": jax.tree_util.tree_map(jnp.zeros_like, params), "t": 0}

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
            state["p"] = tm(lambda p, m, v: p - LR * (m / (1 - 0.9**t)) / (jnp.sqrt(v / (1 - 0.999**t)) + EPS),
                            state["p"], state["m"], state["v"])
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


def _paired(native: Callable[[], Any], ivy_fn: Callable[[], Any], rounds: int, number: int,
            sync: Callable[[Any], Any]) -> dict[str, float]:
    """Times both steps in interleaved rounds (``number`` steps each; the side that goes first
    alternates), so that both see the same machine load, and compares them round by round."""
    t_n: list[float] = []
    t_i: list[float] = []
    for r in range(rounds):
        pair = [(native, t_n), (ivy_fn, t_i)]
        for fn, out in pair if r % 2 == 0 else pair[::-1]:
            start = time.perf_counter()
            for _ in range(number):
                res = fn()
            sync(res)  # jax dispatches asynchronously: wait for the last step's result
            out.append((time.perf_counter() - start) / number * 1e3)
    ratios = sorted(i / n for i, n in zip(t_i, t_n))
    return {"native_ms": statistics.median(t_n), "ivy_ms": statistics.median(t_i),
            "ratio": statistics.median(ratios), "ratio_q1": ratios[len(ratios) // 4],
            "ratio_q3": ratios[(3 * len(ratios)) // 4], "ratio_of_mins": min(t_i) / min(t_n)}


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
    res["eager"] = _paired(native, ivy_step, rounds, number, sync)

    # The whole stateful step compiled, as a user writes it: ivy.compile threads the module's
    # variables and the optimizer's state through the compiled program.
    ivy_compiled_step = ivy.compile(ivy_step)
    native_compiled = _native_compiled_step(name, native)
    for _ in range(3):
        sync(ivy_compiled_step())
    res["compiled step"] = _paired(ivy_step, ivy_compiled_step, rounds, number, sync)
    res["compiled step"]["vs"] = "ivy eager"
    if native_compiled is not None:
        for _ in range(3):
            sync(native_compiled())
        res["compiled step/native"] = _paired(native_compiled, ivy_compiled_step, rounds, number, sync)
        res["compiled step/native"]["vs"] = "native compiled"

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
            loss, sn["p"], sn["m"], sn["v"] = native_functional_step(sn["p"], sn["m"], sn["v"], jnp.asarray(sn["t"], jnp.float32))
            return loss

        for _ in range(3):
            sync(ivy_c()), sync(nat_c())
        # a compiled step is short and its program the same on both sides: more rounds
        res["compiled"] = _paired(nat_c, ivy_c, 3 * rounds, 2 * number, sync)
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--backends", default="torch,jax,paddle,tensorflow")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json")
    args = ap.parse_args()
    rounds, number = (5, 5) if args.quick else (15, 10)
    threads = {k: "1" for k in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")}
    env = dict(os.environ, **threads, TF_CPP_MIN_LOG_LEVEL="3", JAX_PLATFORMS="cpu",
               XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")
    report = {}
    print(f"MLP {SIZES}, batch {BATCH}, Adam. ms per training step: median over {rounds} interleaved rounds of "
          f"{number} steps (compiled: {3 * rounds} rounds of {2 * number});")
    print("x = ivy / native: median of the per-round ratios [quartiles]; 'min x' = ratio of the fastest rounds")
    print(f"{'backend':<12}{'mode':<22}{'other ms':>10}{'ivy ms':>9}{'x':>8}{'[q1, q3]':>16}{'min x':>8}")
    for name in sorted(args.backends.split(","), key=lambda b: b == "tensorflow"):  # paddle before tf
        code = (f"import json,sys; sys.path.insert(0,{ROOT!r}); from benchmarks.bench_training import bench_backend; "
                f"print('@@'+json.dumps(bench_backend({name!r},{rounds},{number})))")
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
        line = next((ln for ln in p.stdout.splitlines() if ln.startswith("@@")), None)
        if line is None:
            print(f"{name:<12}FAILED: {(p.stderr or p.stdout).strip().splitlines()[-1:]}")
            continue
        r = json.loads(line[2:])
        report[name] = r
        for mode in ("eager", "compiled", "compiled step", "compiled step/native"):
            if mode not in r:
                continue
            m = r[mode]
            q = f"[{m['ratio_q1']:.3f}, {m['ratio_q3']:.3f}]"
            label = {"eager": "eager", "compiled": "jit (functional)", "compiled step": "compiled / ivy eager",
                     "compiled step/native": "compiled / native"}[mode]
            print(f"{name:<12}{label:<22}{m['native_ms']:>10.2f}{m['ivy_ms']:>9.2f}{m['ratio']:>8.3f}{q:>16}"
                  f"{m['ratio_of_mins']:>8.3f}")
        print(f"{'':<12}first loss ivy {r['first_loss_ivy']:.5f} / native {r['first_loss_native']:.5f}")
    print("targets: eager x <= 1.2; compiled x <= 1.02. 'compiled / ivy eager': ivy.compile of the whole stateful "
          "step (module + Adam) against the same step eager; 'compiled / native': against the native step compiled "
          "natively (torch.compile, tf.function)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
