"""The graph tracer: programs emitted from traced Ivy functions against the same functions written
natively, eager and compiled, and the time it takes to trace a 1,000-node graph.

    python benchmarks/bench_graph.py [--backends numpy,torch,jax,tensorflow,paddle] [--quick] [--json PATH]

For each backend (each in its own process, single-threaded; paddle before tensorflow) and each
function of ``bench_compiled.py`` (an MLP, layer-normed attention, a loss and its gradient, a conv
block; on NumPy, which lacks gelu and layer norm, an MLP and a normalised attention of ops it has):

* eager     ``ivy.trace_graph(fn, args).to(backend, compile=False)``: one line per node, each
            calling the plugin's function for its op (no dispatch), against the native function
            (target: at most 1.01);
* compiled  ``....to(backend)`` (the emitted program through ``ivy.compile``) against the native
            function compiled by the framework's compiler (target: 1.00 within noise);

timed as ``bench_compiled.py`` times (interleaved single calls, paired rounds, the median of the
rounds' ratios of median calls). The inputs are checked against each other first. Then the time
``ivy.trace_graph`` takes for a chain of 1,000 ops on small arrays, with and without the default
passes (target: under 1 s).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from benchmarks.bench_compiled import _leaves, _pin_one_thread, inputs, ivy_functions, native_functions, time_pair  # noqa: E402

NUMPY_FUNCTIONS = ("mlp_tanh", "norm_softmax")


def numpy_functions() -> tuple[dict[str, Callable[..., Any]], dict[str, Callable[..., Any]]]:
    """On NumPy, which has no gelu, erf or layer norm of its own: two functions of ops NumPy has,
    written with Ivy and with NumPy (the inputs of ``mlp`` and ``norm_attention``)."""
    import numpy as np

    import ivy

    def mlp_tanh(x, w1, b1, w2, b2):
        h = ivy.tanh(ivy.matmul(x, ivy.matrix_transpose(w1)) + b1)
        return ivy.tanh(ivy.matmul(h, ivy.matrix_transpose(w2)) + b2)

    def norm_softmax(q, k, v, scale, offset):
        std = ivy.sqrt(ivy.var(q, axis=-1, keepdims=True) + 1e-5)
        q = (q - ivy.mean(q, axis=-1, keepdims=True)) / std * scale + offset
        s = ivy.matmul(q, ivy.matrix_transpose(k))
        e = ivy.exp(s - ivy.max(s, axis=-1, keepdims=True))
        return ivy.matmul(e / ivy.sum(e, axis=-1, keepdims=True), v)

    def mlp_tanh_np(x, w1, b1, w2, b2):
        h = np.tanh(np.matmul(x, np.matrix_transpose(w1)) + b1)
        return np.tanh(np.matmul(h, np.matrix_transpose(w2)) + b2)

    def norm_softmax_np(q, k, v, scale, offset):
        std = np.sqrt(np.var(q, axis=-1, keepdims=True) + 1e-5)
        q = (q - np.mean(q, axis=-1, keepdims=True)) / std * scale + offset
        s = np.matmul(q, np.matrix_transpose(k))
        e = np.exp(s - np.max(s, axis=-1, keepdims=True))
        return np.matmul(e / np.sum(e, axis=-1, keepdims=True), v)

    return (
        {"mlp_tanh": mlp_tanh, "norm_softmax": norm_softmax},
        {"mlp_tanh": mlp_tanh_np, "norm_softmax": norm_softmax_np},
    )


def _chain(n: int) -> Callable[[Any], Any]:
    def chain(x):  # n ops: sin, multiply, add, tanh, repeated
        import ivy

        for _ in range(n // 4):
            x = ivy.tanh(ivy.sin(x) * 1.01 + 0.5)
        return x

    return chain


def trace_time(name: str, repeats: int) -> dict[str, Any]:
    import numpy as np

    import ivy

    x = ivy.backend_namespace(name).asarray(np.linspace(-1, 1, 16, dtype=np.float32))
    chain = _chain(1000)
    out: dict[str, Any] = {}
    for label, passes in (("no passes", ()), ("default passes", None)):
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            g = ivy.trace_graph(chain, args=(x,), passes=passes)
            times.append(time.perf_counter() - t0)
        out[label] = {"seconds": statistics.median(times), "nodes": len(g)}
    return out


def _emitted(ivy_fn: Callable[..., Any], name: str, args: list[Any], compile_: bool) -> tuple[Callable[..., Any], str]:
    import ivy

    g = ivy.trace_graph(ivy_fn, args=args)
    try:
        return g.to(name, compile=compile_), ""
    except RecursionError:  # see the report: ivy.compile's state scan on TF's op dispatchers
        import tensorflow as tf

        return tf.function(g.to(name, compile=False)), " (tf.function: ivy.compile hit a core bug)"


def bench_backend(name: str, rounds: int, pairs: int, repeats: int) -> dict[str, Any]:
    import numpy as np

    _pin_one_thread(name)
    import ivy

    if name == "numpy":
        fns, natives = numpy_functions()
        compiler = None
    else:
        natives, compiler = native_functions(name)
        fns = ivy_functions(name)
    xp = ivy.backend_namespace(name)
    sync = (lambda r: [v.block_until_ready() for v in _leaves(r)]) if name == "jax" else (lambda r: r)
    rows = []
    for fname, ivy_fn in fns.items():
        data = inputs(name)
        args = [xp.asarray(a) for a in data[{"mlp_tanh": "mlp", "norm_softmax": "norm_attention"}.get(fname, fname)]]
        for mode in ("eager", "compiled"):
            if mode == "compiled" and compiler is None:
                continue
            try:
                prog, note = _emitted(ivy_fn, name, args, mode == "compiled")
                nat = natives[fname] if mode == "eager" else compiler(natives[fname])
                got, want = _leaves(prog(*args)), _leaves(nat(*args))
                err = max(float(np.max(np.abs(ivy.to_numpy(g) - ivy.to_numpy(w)))) for g, w in zip(got, want))
                row = time_pair(prog, nat, args, sync, rounds, pairs)
            except Exception as e:  # one function failing must not hide the others
                msg = str(e).splitlines()[0][:160] if str(e) else ""
                rows.append({"fn": fname, "mode": mode, "error": f"{type(e).__name__}: {msg}"})
                continue
            rows.append({"fn": fname, "mode": mode, **row, "max_abs_diff": err, "note": note})
    return {"backend": name, "rows": rows, "trace": trace_time(name, repeats)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--backends", default="numpy,torch,jax,tensorflow,paddle")
    ap.add_argument("--quick", action="store_true", help="fewer, shorter rounds (a smoke run)")
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args()
    rounds, pairs, repeats = (7, 10, 3) if args.quick else (31, 20, 5)
    threads = {
        k: "1"
        for k in (
            "OMP_NUM_THREADS",
            "MKL_NUM_THREADS",
            "OPENBLAS_NUM_THREADS",
            "TF_NUM_INTRAOP_THREADS",
            "TF_NUM_INTEROP_THREADS",
        )
    }
    env = dict(
        os.environ,
        **threads,
        TF_CPP_MIN_LOG_LEVEL="3",
        JAX_PLATFORMS="cpu",
        XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1",
        GLOG_minloglevel="3",
    )
    names = sorted(args.backends.split(","), key=lambda b: b == "tensorflow")  # paddle before tf
    print(f"{rounds} rounds of {pairs} interleaved emitted/native call pairs per function; single-threaded")
    report: dict[str, Any] = {}
    summary: dict[str, list[float]] = {"eager": [], "compiled": []}
    for name in names:
        t0 = time.perf_counter()
        code = (
            f"import json,sys; sys.path.insert(0,{ROOT!r}); from benchmarks.bench_graph import bench_backend; "
            f"print('@@'+json.dumps(bench_backend({name!r},{rounds},{pairs},{repeats})))"
        )
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
        line = next((ln for ln in p.stdout.splitlines() if ln.startswith("@@")), None)
        if line is None:
            print(f"\n## {name}: FAILED: {(p.stderr or p.stdout).strip().splitlines()[-3:]}")
            continue
        res = json.loads(line[2:])
        report[name] = res
        print(f"\n## {name} (µs per call, medians; {time.perf_counter() - t0:.0f} s)")
        print(
            f"{'function':<16}{'mode':<10}{'native':>9}{'graph':>9}{'ratio':>8}{'of mins':>9}{'  range':<15}"
            f"{'max|diff|':>10}"
        )
        for r in res["rows"]:
            if "error" in r:
                print(f"{r['fn']:<16}{r['mode']:<10}  FAILED: {r['error']}")
                continue
            summary[r["mode"]].append(r["ratio_median"])
            rng = f"  {r['ratio_lo']:.2f}-{r['ratio_hi']:.2f}"
            print(
                f"{r['fn']:<16}{r['mode']:<10}{r['native_us']:>9.1f}{r['ivy_us']:>9.1f}{r['ratio_median']:>8.3f}"
                f"{r['ratio_of_mins']:>9.3f}{rng:<15}{r['max_abs_diff']:>10.1e}{r.get('note', '')}"
            )
        for label, t in res["trace"].items():
            print(f"tracing a chain of 1,000 ops ({label}): {t['seconds']:.3f} s, {t['nodes']} nodes (target < 1 s)")
    for mode, target in (("eager", "<= 1.01"), ("compiled", "1.00 within noise")):
        if summary[mode]:
            print(
                f"\nmedian ratio graph/native, {mode}, all functions and backends: "
                f"{statistics.median(summary[mode]):.3f} (worst {max(summary[mode]):.3f}; target {target})"
            )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
