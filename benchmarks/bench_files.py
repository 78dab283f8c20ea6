"""Loading a safetensors file: ``ivy.safetensors.load_file`` against the ``safetensors`` package's
own loader for the same framework (``safetensors.numpy``, ``.torch``, ``.flax``, ``.tensorflow``,
``.paddle``), per backend, in one process each (paddle and TensorFlow cannot share one).

    python -m benchmarks.bench_files [--backends numpy,torch,jax] [--quick]

The file: 52 float32 tensors, 20.3 MB (two weight matrices and 50 small layers of distinct
shapes, as a checkpoint has). Both loaders' tensors are checked equal (values, dtypes, shapes)
before timing; then interleaved rounds (each loader once a round, JAX's arrays waited for), and
the median of the per-round ratios Ivy / safetensors.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REFERENCE = {"numpy": "numpy", "torch": "torch", "jax": "flax", "tensorflow": "tensorflow", "paddle": "paddle"}


def tensors() -> dict[str, Any]:
    import numpy as np

    rng = np.random.default_rng(0)
    out = {"w": rng.random((1000, 1000), np.float32), "v": rng.random((4000, 1000), np.float32)}
    out.update({f"layer{i}/w": rng.random((i + 3, 2 * i + 5), np.float32) for i in range(50)})
    return out


def measure(backend: str, rounds: int) -> dict[str, float]:
    """Times in ms and their ratio for one backend (run in a process of its own)."""
    import importlib

    import numpy as np

    import ivy

    reference = importlib.import_module(f"safetensors.{REFERENCE[backend]}").load_file
    want = tensors()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "checkpoint.safetensors")
        ivy.safetensors.save_file(want, path)

        def ours() -> dict[str, Any]:
            return ivy.safetensors.load_file(path, backend=backend)

        def theirs() -> dict[str, Any]:
            return reference(path)

        for load in (ours, theirs):
            got = load()
            assert sorted(got) == sorted(want), load.__name__
            for k, a in want.items():
                b = np.asarray(ivy.to_numpy(got[k]))
                assert b.dtype == a.dtype and b.shape == a.shape and np.array_equal(a, b), (load.__name__, k)

        def timed(load: Any) -> float:
            t = time.perf_counter()
            out = load()
            if backend == "jax":
                import jax

                jax.block_until_ready(list(out.values()))
            return time.perf_counter() - t

        pairs = [(timed(ours), timed(theirs)) for _ in range(rounds)]
    return {
        "ivy_ms": statistics.median(a for a, _ in pairs) * 1e3,
        "reference_ms": statistics.median(b for _, b in pairs) * 1e3,
        "ratio": statistics.median(a / b for a, b in pairs),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--backends", default="numpy,torch,jax,paddle,tensorflow", help="comma-separated")
    ap.add_argument("--quick", action="store_true", help="3 rounds instead of 15")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    rounds = 3 if args.quick else 15
    if args.child:
        print(json.dumps(measure(args.child, rounds)))
        return
    print("backend     Ivy ms  safetensors ms  Ivy / safetensors  (52 float32 tensors, 20.3 MB)")
    for b in args.backends.split(","):
        cmd = [sys.executable, "-m", "benchmarks.bench_files", "--child", b] + (["--quick"] if args.quick else [])
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        if p.returncode != 0:
            print(f"{b:<10}  failed: {(p.stderr.strip().splitlines() or ['?'])[-1]}")
            continue
        r = json.loads(p.stdout.strip().splitlines()[-1])
        print(f"{b:<10}  {r['ivy_ms']:6.1f}  {r['reference_ms']:14.1f}  {r['ratio']:17.2f}")


if __name__ == "__main__":
    main()
