"""Per-op eager cost of Ivy against the native framework call and the peers, side by side in one run.

A stage of ``scripts/bench`` (``python -m benchmarks.run --stages dispatch``; ``python
benchmarks/bench_dispatch.py`` runs that stage alone).

For every backend (each in its own process: paddle must not be imported after tensorflow), for
float32 inputs of 1e2 and 1e4 elements, and for each op it times, interleaved in many short rounds
(each framework single-threaded):

* native    the framework's own function (``torch.sin(x)``)
* namespace ``ivy.torch.sin(x)`` (the plugin's function; mostly the native function itself)
* inferred  ``ivy.sin(x)``: the backend is inferred from the argument types on every call
* global    ``ivy.zeros(...)`` with ``ivy.set_backend`` in force (creation ops, no array args)
* peers     the same op through array-api-compat (``array_namespace(x).sin(x)``), ``keras.ops``
            (the process's framework as Keras backend) and EagerPy (``ep.astensor(x).sin().raw``),
            where installed and supported (``_peers.py``); each checked against the native result

and records microseconds per call (the minimum over rounds) and ratios to native: the median over
rounds of the ratio within a round, where the variants ran back to back, so that the load of a
shared machine, which drifts over seconds, cancels out; and the time each adds per call. Targets:
inferred dispatch within 1.02x of native at 1e4 elements, ahead of every peer.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import timeit
from collections.abc import Callable
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# op -> (ivy name, native attribute path per backend, argument kind)
# kinds: u = one array, up = one positive array, b = two arrays, m = two square matrices,
#        w = where(cond, x, y), c = list of two arrays, r = reshape, t = permute, z = creation,
#        e = einsum over two matrices
OPS: list[tuple[str, str, dict[str, str]]] = [
    (
        "sin",
        "u",
        {
            "numpy": "np.sin",
            "torch": "torch.sin",
            "jax": "jnp.sin",
            "tensorflow": "tf.math.sin",
            "paddle": "paddle.sin",
        },
    ),
    (
        "exp",
        "u",
        {
            "numpy": "np.exp",
            "torch": "torch.exp",
            "jax": "jnp.exp",
            "tensorflow": "tf.math.exp",
            "paddle": "paddle.exp",
        },
    ),
    (
        "abs",
        "u",
        {
            "numpy": "np.abs",
            "torch": "torch.abs",
            "jax": "jnp.abs",
            "tensorflow": "tf.math.abs",
            "paddle": "paddle.abs",
        },
    ),
    (
        "tanh",
        "u",
        {
            "numpy": "np.tanh",
            "torch": "torch.tanh",
            "jax": "jnp.tanh",
            "tensorflow": "tf.math.tanh",
            "paddle": "paddle.tanh",
        },
    ),
    (
        "sqrt",
        "up",
        {
            "numpy": "np.sqrt",
            "torch": "torch.sqrt",
            "jax": "jnp.sqrt",
            "tensorflow": "tf.math.sqrt",
            "paddle": "paddle.sqrt",
        },
    ),
    (
        "log",
        "up",
        {
            "numpy": "np.log",
            "torch": "torch.log",
            "jax": "jnp.log",
            "tensorflow": "tf.math.log",
            "paddle": "paddle.log",
        },
    ),
    (
        "negative",
        "u",
        {
            "numpy": "np.negative",
            "torch": "torch.negative",
            "jax": "jnp.negative",
            "tensorflow": "tf.math.negative",
            "paddle": "paddle.neg",
        },
    ),
    (
        "add",
        "b",
        {
            "numpy": "np.add",
            "torch": "torch.add",
            "jax": "jnp.add",
            "tensorflow": "tf.math.add",
            "paddle": "paddle.add",
        },
    ),
    (
        "subtract",
        "b",
        {
            "numpy": "np.subtract",
            "torch": "torch.subtract",
            "jax": "jnp.subtract",
            "tensorflow": "tf.math.subtract",
            "paddle": "paddle.subtract",
        },
    ),
    (
        "multiply",
        "b",
        {
            "numpy": "np.multiply",
            "torch": "torch.multiply",
            "jax": "jnp.multiply",
            "tensorflow": "tf.math.multiply",
            "paddle": "paddle.multiply",
        },
    ),
    (
        "divide",
        "b",
        {
            "numpy": "np.divide",
            "torch": "torch.divide",
            "jax": "jnp.divide",
            "tensorflow": "tf.math.truediv",
            "paddle": "paddle.divide",
        },
    ),
    (
        "maximum",
        "b",
        {
            "numpy": "np.maximum",
            "torch": "torch.maximum",
            "jax": "jnp.maximum",
            "tensorflow": "tf.math.maximum",
            "paddle": "paddle.maximum",
        },
    ),
    (
        "greater",
        "b",
        {
            "numpy": "np.greater",
            "torch": "torch.greater",
            "jax": "jnp.greater",
            "tensorflow": "tf.math.greater",
            "paddle": "paddle.greater_than",
        },
    ),
    (
        "where",
        "w",
        {
            "numpy": "np.where",
            "torch": "torch.where",
            "jax": "jnp.where",
            "tensorflow": "tf.where",
            "paddle": "paddle.where",
        },
    ),
    (
        "sum",
        "u",
        {
            "numpy": "np.sum",
            "torch": "torch.sum",
            "jax": "jnp.sum",
            "tensorflow": "tf.math.reduce_sum",
            "paddle": "paddle.sum",
        },
    ),
    (
        "mean",
        "u",
        {
            "numpy": "np.mean",
            "torch": "torch.mean",
            "jax": "jnp.mean",
            "tensorflow": "tf.math.reduce_mean",
            "paddle": "paddle.mean",
        },
    ),
    (
        "max",
        "u",
        {
            "numpy": "np.max",
            "torch": "torch.amax",
            "jax": "jnp.max",
            "tensorflow": "tf.math.reduce_max",
            "paddle": "paddle.max",
        },
    ),
    (
        "argmax",
        "u",
        {
            "numpy": "np.argmax",
            "torch": "torch.argmax",
            "jax": "jnp.argmax",
            "tensorflow": "tf.math.argmax",
            "paddle": "paddle.argmax",
        },
    ),
    (
        "matmul",
        "m",
        {
            "numpy": "np.matmul",
            "torch": "torch.matmul",
            "jax": "jnp.matmul",
            "tensorflow": "tf.linalg.matmul",
            "paddle": "paddle.matmul",
        },
    ),
    (
        "concat",
        "c",
        {
            "numpy": "np.concatenate",
            "torch": "torch.cat",
            "jax": "jnp.concatenate",
            "tensorflow": "lambda xs: tf.concat(xs, 0)",
            "paddle": "paddle.concat",
        },
    ),
    (
        "reshape",
        "r",
        {
            "numpy": "np.reshape",
            "torch": "torch.reshape",
            "jax": "jnp.reshape",
            "tensorflow": "tf.reshape",
            "paddle": "paddle.reshape",
        },
    ),
    (
        "permute_dims",
        "t",
        {
            "numpy": "np.transpose",
            "torch": "torch.permute",
            "jax": "jnp.transpose",
            "tensorflow": "tf.transpose",
            "paddle": "paddle.transpose",
        },
    ),
    (
        "zeros",
        "z",
        {
            "numpy": "np.zeros",
            "torch": "torch.zeros",
            "jax": "jnp.zeros",
            "tensorflow": "tf.zeros",
            "paddle": "paddle.zeros",
        },
    ),
    # the functional API: the natives are the frameworks' own nn functions
    (
        "relu",
        "u",
        {
            "numpy": "lambda x: np.maximum(x, 0)",
            "torch": "torch.relu",
            "jax": "jax.nn.relu",
            "tensorflow": "tf.nn.relu",
            "paddle": "paddle.nn.functional.relu",
        },
    ),
    (
        "sigmoid",
        "u",
        {
            "numpy": "lambda x: 1 / (1 + np.exp(-x))",
            "torch": "torch.sigmoid",
            "jax": "jax.nn.sigmoid",
            "tensorflow": "tf.math.sigmoid",
            "paddle": "paddle.nn.functional.sigmoid",
        },
    ),
    (
        "softmax",
        "u",
        {
            "numpy": "lambda x: (lambda e: e / e.sum(-1, keepdims=True))(np.exp(x - x.max(-1, keepdims=True)))",
            "torch": "lambda x: torch.softmax(x, -1)",
            "jax": "jax.nn.softmax",
            "tensorflow": "tf.nn.softmax",
            "paddle": "paddle.nn.functional.softmax",
        },
    ),
    (
        "gelu",
        "u",
        {
            "torch": "torch.nn.functional.gelu",
            "jax": "lambda x: jax.nn.gelu(x, approximate=False)",
            "tensorflow": "tf.nn.gelu",
            "paddle": "paddle.nn.functional.gelu",
        },
    ),
    (
        "cumsum",
        "u",
        {
            "numpy": "np.cumsum",
            "torch": "lambda x: torch.cumsum(x, 0)",
            "jax": "jnp.cumsum",
            "tensorflow": "tf.math.cumsum",
            "paddle": "paddle.cumsum",
        },
    ),
    (
        "einsum",
        "e",
        {
            "numpy": "np.einsum",
            "torch": "torch.einsum",
            "jax": "jnp.einsum",
            "tensorflow": "tf.einsum",
            "paddle": "paddle.einsum",
        },
    ),
]


def _framework(name: str) -> dict[str, Any]:
    if name == "numpy":
        import numpy as np

        return {"np": np}
    if name == "torch":
        import torch

        return {"torch": torch}
    if name == "jax":
        import jax
        import jax.numpy as jnp

        return {"jnp": jnp, "jax": jax}
    if name == "tensorflow":
        import tensorflow as tf

        return {"tf": tf}
    if name == "paddle":
        import paddle

        return {"paddle": paddle}
    raise SystemExit(f"no native table for backend {name!r}")


def _resolve(path: str, env: dict[str, Any]) -> Callable[..., Any]:
    if path.startswith("lambda"):  # no single native function: the idiomatic native expression
        return eval(path, env)  # a fixed table in this file
    head, *rest = path.split(".")
    obj = env[head]
    for part in rest:
        obj = getattr(obj, part)
    return obj  # type: ignore[no-any-return]


def _caller(fn: Callable[..., Any], args: tuple[Any, ...]) -> Callable[[], Any]:
    """``fn(a, b)`` as user code writes it: positional arguments, not ``fn(*args)`` (a star call
    hands C functions that take a tuple the caller's tuple, and others a copy of it)."""
    if len(args) == 1:
        (a,) = args
        return lambda: fn(a)
    if len(args) == 2:
        a, b = args
        return lambda: fn(a, b)
    if len(args) == 3:
        a, b, c = args
        return lambda: fn(a, b, c)
    return lambda: fn(*args)


def _agree(got: Any, want: Any) -> bool:
    """Whether a peer's result equals the native one (values, shape; dtype kinds may differ)."""
    import numpy as np

    import ivy

    if isinstance(want, (list, tuple)):
        return isinstance(got, (list, tuple)) and len(got) == len(want) and all(map(_agree, got, want))
    g, w = np.asarray(ivy.to_numpy(got)), np.asarray(ivy.to_numpy(want))
    return g.shape == w.shape and bool(np.allclose(g.astype(np.float64), w.astype(np.float64), rtol=1e-4, atol=1e-5))


def _time(fn: Callable[[], Any], number: int) -> float:
    return timeit.timeit(fn, number=number) / number


def bench_backend(name: str, sizes: list[int], rounds: int, target_s: float, with_peers: bool = True) -> dict[str, Any]:
    """Runs in a child process: times every op for one backend."""
    import numpy as np

    from benchmarks._common import fastest_alternating, pin_one_thread, progress
    from benchmarks._peers import peers

    pin_one_thread(name)
    import ivy

    peer_exprs, peer_env, absent = peers(name) if with_peers else ({}, {}, {})
    env = _framework(name)
    xp = ivy.backend_namespace(name)
    sync = (lambda r: r.block_until_ready()) if name == "jax" else None  # jax dispatches async
    rng = np.random.default_rng(0)
    results: dict[str, Any] = {"backend": name, "sizes": {}, "peers_absent": absent, "peer_errors": {}}
    total, done = len(sizes) * len(OPS), 0
    for n in sizes:
        side = int(round(n**0.5))
        a = xp.asarray(rng.standard_normal(n).astype(np.float32))
        b = xp.asarray(rng.standard_normal(n).astype(np.float32))
        pos = xp.asarray(rng.random(n).astype(np.float32) + 0.5)
        cond = xp.asarray(rng.random(n) > 0.5)
        m1 = xp.asarray(rng.standard_normal((side, side)).astype(np.float32))
        m2 = xp.asarray(rng.standard_normal((side, side)).astype(np.float32))
        rows = []
        for op, kind, natives in OPS:
            done += 1
            progress(done, total)
            if name not in natives or not hasattr(ivy, op):  # no native counterpart / older core
                continue
            native = _resolve(natives[name], env)
            ivy_fn = getattr(ivy, op)
            ns_fn = getattr(xp, op)
            if kind == "u":
                args: tuple[Any, ...] = (a,)
            elif kind == "up":
                args = (pos,)
            elif kind == "b":
                args = (a, b)
            elif kind == "m":
                args = (m1, m2)
            elif kind == "w":
                args = (cond, a, b)
            elif kind == "c":
                args = ([a, b],)
            elif kind == "r":
                args = (a, (side, -1) if side * side == n else (n, 1))
            elif kind == "t":
                args = (m1, (1, 0))
            elif kind == "e":
                args = ("ij,jk->ik", m1, m2)
            else:  # creation: no array argument, the globally set backend decides
                args = ((n,),)
            variants: dict[str, Callable[[], Any]]
            if kind == "z":
                dt = xp.float32

                variants = {
                    "native": lambda f=native, args=args, dt=dt: f(*args, dtype=dt),
                    "namespace": lambda f=ns_fn, args=args, dt=dt: f(*args, dtype=dt),
                    "inferred": lambda f=ivy_fn, args=args, dt=dt: f(*args, dtype=dt),
                }
            else:
                variants = {
                    "native": _caller(native, args),
                    "namespace": _caller(ns_fn, args),
                    "inferred": _caller(ivy_fn, args),
                }
            variants["aa"] = _caller(native, args) if kind != "z" else variants["native"]  # native again: the noise
            for peer, table in peer_exprs.items():
                if op not in table:
                    continue
                g = {**peer_env, **{f"a{i}": v for i, v in enumerate(args)}}
                try:
                    f = eval(f"lambda: {table[op]}", g)  # a fixed table in _peers.py
                    if not _agree(f(), variants["native"]()):
                        raise ValueError("result differs from the native one")
                    variants[peer] = f
                except Exception as e:  # a peer that cannot do this op is left out
                    msg = f"{type(e).__name__}: {str(e).splitlines()[0][:120] if str(e) else ''}"
                    results["peer_errors"].setdefault(peer, {})[op] = msg
            if sync is not None:
                variants = {k: (lambda f=f: sync(f())) for k, f in variants.items()}
            token = ivy.set_backend(name) if kind == "z" else None
            try:
                for f in variants.values():
                    f()  # warm up (and fill Ivy's per-op table)
                # Ivy's variants make as many calls per round as the native one (the same conditions);
                # a peer, often many times slower, as many as fill the same time
                number = max(1, int(target_s / max(_time(variants["native"], 20), 1e-8)))
                numbers = {
                    k: number
                    if k in ("native", "namespace", "inferred", "aa")
                    else max(1, int(target_s / max(_time(f, 5), 1e-8)))
                    for k, f in variants.items()
                }
                samples: dict[str, list[float]] = {k: [] for k in variants}
                for i in range(rounds):
                    # the variants' calls alternate within a round; the order flips between rounds
                    for k, t in fastest_alternating(variants, numbers, flip=i % 2 == 1).items():
                        samples[k].append(t)
            finally:
                if token is not None:
                    ivy.unset_backend()
            # Times: the minimum over rounds, the least disturbed estimate (as timeit advises).
            # Ratios and the added time: medians over rounds of the within-round comparison.
            row: dict[str, Any] = {k: min(v) * 1e6 for k, v in samples.items()}
            nat = samples["native"]
            row["r_ns"] = statistics.median(a / b for a, b in zip(samples["namespace"], nat))
            row["r_inf"] = statistics.median(a / b for a, b in zip(samples["inferred"], nat))
            row["r_aa"] = statistics.median(a / b for a, b in zip(samples["aa"], nat))
            row["r_inf_of_mins"] = min(samples["inferred"]) / min(nat)
            row["added"] = statistics.median((a - b) * 1e6 for a, b in zip(samples["inferred"], samples["namespace"]))
            row["added_vs_native"] = statistics.median(
                (a - b) * 1e6 for a, b in zip(samples["inferred"], samples["native"])
            )
            row["peers"] = {
                peer: {
                    "ratio": statistics.median(a / b for a, b in zip(samples[peer], nat)),
                    "added": statistics.median((a - b) * 1e6 for a, b in zip(samples[peer], nat)),
                    "us": min(samples[peer]) * 1e6,
                }
                for peer in peer_exprs
                if peer in samples
            }
            for peer in row["peers"]:
                del row[peer]
            rows.append({"op": op, "kind": kind, **row})
        results["sizes"][str(n)] = rows
    # a peer that could run none of the ops on this framework does not support it: say so once
    for peer, errors in list(results["peer_errors"].items()):
        if not any(peer in r["peers"] for rows in results["sizes"].values() for r in rows):
            results["peers_absent"][peer] = f"does not support {name} ({next(iter(errors.values()))})"
            del results["peer_errors"][peer]
    return results


def import_time(repeats: int = 5) -> float:
    code = "import time; t=time.perf_counter(); import ivy; print(time.perf_counter()-t)"
    best = min(
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
        for _ in range(repeats)
    )
    return best * 1e3


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians over the ops of one backend and size (creation ops, set globally, apart)."""
    ops = [r for r in rows if r["kind"] != "z"]
    peer_names = sorted({p for r in rows for p in r.get("peers", {})})
    glob = next((r for r in rows if r["kind"] == "z"), None)
    return {
        "added_us": statistics.median(r["added"] for r in ops),
        "added_vs_native_us": statistics.median(r["added_vs_native"] for r in ops),
        "ns_ratio": statistics.median(r["r_ns"] for r in ops),
        "ivy_ratio": statistics.median(r["r_inf"] for r in ops),
        "aa_ratio": statistics.median(r["r_aa"] for r in ops),
        "ivy_ratio_of_mins": statistics.median(r["r_inf_of_mins"] for r in ops),
        "global_added_us": glob["added"] if glob else None,
        "peers": {
            p: {
                "ratio": statistics.median(r["peers"][p]["ratio"] for r in rows if p in r["peers"]),
                "added_us": statistics.median(r["peers"][p]["added"] for r in rows if p in r["peers"]),
                "ops": sum(p in r["peers"] for r in rows),
                # Ivy over the same ops as this peer: a like-for-like comparison
                "ivy_ratio_same_ops": statistics.median(r["r_inf"] for r in rows if p in r["peers"]),
            }
            for p in peer_names
        },
    }


def run_stage(cfg: dict[str, Any], bar: Any) -> dict[str, Any]:
    """Parent: one child per backend; the import time of ``ivy`` first."""
    from benchmarks._common import ChildError, child_env, run_child

    names = cfg["backends"]
    # Short rounds: on a loaded machine a time slice lasts a few ms; a round of 0.5 ms is seldom cut
    rounds, target = (25, 0.0005) if cfg.get("quick") else (61, 0.0005)
    report: dict[str, Any] = {"import_ms": import_time(), "rounds": rounds, "backends": {}, "errors": {}}
    for i, name in enumerate(names):
        try:
            res = run_child(
                "benchmarks.bench_dispatch",
                "bench_backend",
                {"name": name, "sizes": [100, 10000], "rounds": rounds, "target_s": target, "with_peers": True},
                lambda f, i=i, name=name: bar.update((i + f) / len(names), name),
                env=child_env(name),
            )
        except ChildError as e:
            report["errors"][name] = str(e)
            continue
        res["summary"] = {n: summarise(rows) for n, rows in res["sizes"].items()}
        report["backends"][name] = res
    bar.close()
    return report


if __name__ == "__main__":
    sys.exit(subprocess.call([sys.executable, "-m", "benchmarks.run", "--stages", "dispatch", *sys.argv[1:]], cwd=ROOT))
