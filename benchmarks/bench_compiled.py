"""Compiled mode: an Ivy-written function compiled with ``ivy.compile`` against the same function
written natively and compiled with the framework's own compiler, side by side in one run.

    python benchmarks/bench_compiled.py [--backends jax,torch,tensorflow] [--quick]

The target is a median ratio of at most 1.01: the compiled Ivy program should be the native
program, because Ivy's dispatch runs only while tracing. Each backend runs in its own process,
single-threaded; the minimum over rounds is reported.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import timeit
from typing import Any, Callable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ivy_functions() -> dict[str, Callable[..., Any]]:
    import ivy

    def mlp(x, w1, b1, w2, b2):  # noqa: ANN001, ANN202
        return ivy.softmax(ivy.linear(ivy.gelu(ivy.linear(x, w1, b1)), w2, b2))

    def norm_attention(q, k, v, scale, offset):  # noqa: ANN001, ANN202
        return ivy.scaled_dot_product_attention(ivy.layer_norm(q, -1, scale=scale, offset=offset), k, v)

    def loss(x, w1, b1, w2, b2):  # noqa: ANN001, ANN202
        return ivy.mean(ivy.square(ivy.subtract(ivy.tanh(ivy.linear(x, w1, b1)), 0.5)))

    return {"mlp": mlp, "norm_attention": norm_attention, "loss": loss}


def native_functions(name: str) -> tuple[dict[str, Callable[..., Any]], Callable[[Callable[..., Any]], Callable[..., Any]]]:
    """The same functions in the framework's own API, and its compiler."""
    if name == "torch":
        import torch
        import torch.nn.functional as F

        def mlp(x, w1, b1, w2, b2):  # noqa: ANN001, ANN202
            return torch.softmax(F.linear(F.gelu(F.linear(x, w1, b1)), w2, b2), -1)

        def norm_attention(q, k, v, scale, offset):  # noqa: ANN001, ANN202
            q = F.layer_norm(q, q.shape[-1:], scale, offset)
            return F.scaled_dot_product_attention(q, k, v)

        def loss(x, w1, b1, w2, b2):  # noqa: ANN001, ANN202
            return torch.mean(torch.square(torch.tanh(F.linear(x, w1, b1)) - 0.5))

        return {"mlp": mlp, "norm_attention": norm_attention, "loss": loss}, torch.compile
    if name == "jax":
        import jax
        import jax.numpy as jnp

        def mlp(x, w1, b1, w2, b2):  # noqa: ANN001, ANN202
            return jax.nn.softmax(jax.nn.gelu(x @ w1.T + b1, approximate=False) @ w2.T + b2)

        def norm_attention(q, k, v, scale, offset):  # noqa: ANN001, ANN202
            m = q.mean(-1, keepdims=True)
            q = (q - m) / jnp.sqrt(q.var(-1, keepdims=True) + 1e-5) * scale + offset
            w = jax.nn.softmax(q @ jnp.swapaxes(k, -1, -2) / jnp.sqrt(q.shape[-1]))
            return w @ v

        def loss(x, w1, b1, w2, b2):  # noqa: ANN001, ANN202
            return jnp.mean(jnp.square(jnp.tanh(x @ w1.T + b1) - 0.5))

        return {"mlp": mlp, "norm_attention": norm_attention, "loss": loss}, jax.jit
    if name == "tensorflow":
        import tensorflow as tf

        def mlp(x, w1, b1, w2, b2):  # noqa: ANN001, ANN202
            h = tf.nn.gelu(tf.matmul(x, w1, transpose_b=True) + b1, approximate=False)
            return tf.nn.softmax(tf.matmul(h, w2, transpose_b=True) + b2)

        def norm_attention(q, k, v, scale, offset):  # noqa: ANN001, ANN202
            m, var = tf.nn.moments(q, axes=[-1], keepdims=True)
            q = (q - m) / tf.sqrt(var + 1e-5) * scale + offset
            w = tf.nn.softmax(tf.matmul(q, k, transpose_b=True) / tf.sqrt(float(q.shape[-1])))
            return tf.matmul(w, v)

        def loss(x, w1, b1, w2, b2):  # noqa: ANN001, ANN202
            return tf.reduce_mean(tf.square(tf.tanh(tf.matmul(x, w1, transpose_b=True) + b1) - 0.5))

        return {"mlp": mlp, "norm_attention": norm_attention, "loss": loss}, tf.function
    if name == "paddle":
        import paddle
        import paddle.nn.functional as F

        def mlp(x, w1, b1, w2, b2):  # noqa: ANN001, ANN202
            return F.softmax(F.linear(F.gelu(F.linear(x, w1.T, b1)), w2.T, b2))

        def norm_attention(q, k, v, scale, offset):  # noqa: ANN001, ANN202
            q = F.layer_norm(q, q.shape[-1:], scale, offset)
            w = F.softmax(paddle.matmul(q, k, transpose_y=True) / (q.shape[-1] ** 0.5))
            return paddle.matmul(w, v)

        def loss(x, w1, b1, w2, b2):  # noqa: ANN001, ANN202
            return paddle.mean(paddle.square(paddle.tanh(F.linear(x, w1.T, b1)) - 0.5))

        return {"mlp": mlp, "norm_attention": norm_attention, "loss": loss}, paddle.jit.to_static
    raise SystemExit(f"no native compiled versions for {name!r}")


def bench_backend(name: str, rounds: int, number: int) -> dict[str, Any]:
    import numpy as np

    import ivy

    rng = np.random.default_rng(0)
    f32 = lambda *s: rng.standard_normal(s).astype(np.float32)  # noqa: E731
    xp = ivy.backend_namespace(name)
    n = lambda a: xp.asarray(a)  # noqa: E731
    args = {
        "mlp": [n(f32(64, 128)), n(f32(256, 128) * 0.1), n(f32(256)), n(f32(10, 256) * 0.1), n(f32(10))],
        "norm_attention": [n(f32(4, 32, 64)), n(f32(4, 32, 64)), n(f32(4, 32, 64)), n(f32(64)), n(f32(64))],
        "loss": [n(f32(64, 128)), n(f32(256, 128) * 0.1), n(f32(256)), None, None],
    }
    natives, compiler = native_functions(name)
    sync = (lambda r: r.block_until_ready()) if name == "jax" else (lambda r: r)
    rows = []
    for fname, ivy_fn in ivy_functions().items():
        a = [v for v in args[fname] if v is not None]
        nat_fn = natives[fname]
        if fname == "loss":
            ivy_fn = (lambda f: lambda x, w1, b1: f(x, w1, b1, None, None))(ivy_fn)
            nat_fn = (lambda f: lambda x, w1, b1: f(x, w1, b1, None, None))(nat_fn)
        ivy_c = ivy.compile(ivy_fn, backend=name)
        nat_c = compiler(nat_fn)
        out_i, out_n = ivy.to_numpy(sync(ivy_c(*a))), ivy.to_numpy(sync(nat_c(*a)))
        err = float(np.max(np.abs(out_i - out_n)))
        t_i, t_n = [], []
        for _ in range(rounds):
            t_n.append(timeit.timeit(lambda: sync(nat_c(*a)), number=number) / number)
            t_i.append(timeit.timeit(lambda: sync(ivy_c(*a)), number=number) / number)
        rows.append({"fn": fname, "native": min(t_n) * 1e6, "ivy": min(t_i) * 1e6, "max_abs_diff": err})
    return {"backend": name, "rows": rows}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--backends", default="jax,tensorflow,torch,paddle")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json")
    args = ap.parse_args()
    rounds, number = (3, 20) if args.quick else (7, 100)
    threads = {k: "1" for k in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")}
    env = dict(os.environ, **threads, TF_CPP_MIN_LOG_LEVEL="3", JAX_PLATFORMS="cpu",
               XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")
    ratios, report = [], {}
    names = sorted(args.backends.split(","), key=lambda b: b == "tensorflow")  # paddle before tf
    for name in names:
        code = (f"import json,sys; sys.path.insert(0,{ROOT!r}); from benchmarks.bench_compiled import bench_backend; "
                f"print('@@'+json.dumps(bench_backend({name!r},{rounds},{number})))")
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
        line = next((ln for ln in p.stdout.splitlines() if ln.startswith("@@")), None)
        if line is None:
            print(f"## {name}: FAILED: {(p.stderr or p.stdout).strip().splitlines()[-1:]}")
            continue
        res = json.loads(line[2:])
        report[name] = res
        print(f"\n## {name} (compiled; µs per call)")
        print(f"{'function':<16}{'native':>10}{'ivy':>10}{'ratio':>8}{'max |diff|':>12}")
        for r in res["rows"]:
            ratio = r["ivy"] / r["native"]
            ratios.append(ratio)
            print(f"{r['fn']:<16}{r['native']:>10.1f}{r['ivy']:>10.1f}{ratio:>8.3f}{r['max_abs_diff']:>12.2e}")
    if ratios:
        print(f"\nmedian ratio ivy/native (compiled): {statistics.median(ratios):.3f}  (target <= 1.01)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
