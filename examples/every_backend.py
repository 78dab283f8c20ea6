"""Runs the same Ivy code, written once, natively on every installed backend.

    python examples/every_backend.py [--backends numpy,torch]

The functions below use only ``ivy.*``; each call runs on the framework of its input arrays
(inferred per call) and returns that framework's own arrays. The script checks every backend's
result against NumPy, prints a table (the array type, the largest error, the time per call: the
best of five rounds) and last a verdict: ``OK`` when every backend agreed with NumPy, else
``FAILED``, naming the backends that did not (a backend named with ``--backends`` that cannot load
fails too; one merely installed that cannot load is named as skipped).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import ivy


def mlp_softmax(x, w1, b1, w2):
    """A two-layer perceptron with a softmax head, written once against ivy.*."""
    h = ivy.tanh(ivy.add(ivy.matmul(x, w1), b1))
    logits = ivy.matmul(h, w2)
    shifted = ivy.subtract(logits, ivy.max(logits, axis=-1, keepdims=True))
    e = ivy.exp(shifted)
    return ivy.divide(e, ivy.sum(e, axis=-1, keepdims=True))


def ridge_regression(a, y, lam):
    """Solves (AᵀA + λI) w = Aᵀy with the linalg extension."""
    at = ivy.matrix_transpose(a)
    n = a.shape[-1]
    gram = ivy.add(ivy.matmul(at, a), ivy.multiply(lam, ivy.eye(n, dtype=a.dtype, backend=ivy.namespace(a))))
    return ivy.linalg.solve(gram, ivy.matmul(at, y))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backends", help="comma-separated backend names (default: every installed one)")
    args = parser.parse_args()

    installed = ivy.backends()
    # paddle's native library crashes if imported after tensorflow, so paddle goes first.
    order = sorted(installed, key=lambda n: n == "tensorflow")
    wanted = args.backends.split(",") if args.backends else order
    print(f"Ivy {ivy.__version__}; installed backends: {', '.join(installed) or 'none'}")
    if not installed:
        print("no backend installed: pip install ivy-numpy (or ivy-torch, ivy-jax, ...)")
        return 1

    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 32)).astype(np.float32)
    w1 = rng.standard_normal((32, 16)).astype(np.float32) * 0.3
    b1 = rng.standard_normal((16,)).astype(np.float32) * 0.1
    w2 = rng.standard_normal((16, 10)).astype(np.float32) * 0.3
    a = rng.standard_normal((50, 8)).astype(np.float32)
    y = rng.standard_normal((50, 1)).astype(np.float32)

    # Reference: the same formulas in plain NumPy.
    h = np.tanh(x @ w1 + b1)
    logits = h @ w2
    e = np.exp(logits - logits.max(-1, keepdims=True))
    ref_probs = e / e.sum(-1, keepdims=True)
    ref_w = np.linalg.solve(a.T @ a + 0.1 * np.eye(8), a.T @ y)

    passed, failed, skipped = [], [], []
    print(f"{'backend':<12}{'array type':<44}{'max |err|':>12}{'µs/call':>10}")
    for name in wanted:
        try:
            xs = [ivy.asarray(v, backend=name) for v in (x, w1, b1, w2, a, y)]
        except ivy.IvyError as err:
            print(f"{name:<12}{'FAILED' if args.backends else 'skipped'}: {err}")
            (failed if args.backends else skipped).append(name)
            continue
        probs = mlp_softmax(*xs[:4])
        w = ridge_regression(xs[4], xs[5], 0.1)
        err = max(
            float(np.max(np.abs(ivy.to_numpy(probs) - ref_probs))),
            float(np.max(np.abs(ivy.to_numpy(w) - ref_w))),
        )
        rounds = []
        for _ in range(5):  # (the best round: other work on the machine only makes rounds slower)
            t0 = time.perf_counter()
            for _ in range(40):
                mlp_softmax(*xs[:4])
            rounds.append((time.perf_counter() - t0) / 40 * 1e6)
        kind = f"{type(probs).__module__}.{type(probs).__qualname__}"
        ok = err < 1e-4
        (passed if ok else failed).append(name)
        print(f"{name:<12}{kind:<44}{err:>12.2e}{min(rounds):>10.1f}{'' if ok else '  MISMATCH'}")
    also = f"; skipped (cannot load): {', '.join(skipped)}" if skipped else ""
    if failed:
        print(f"FAILED on {', '.join(failed)} (see above); agreed with NumPy on {', '.join(passed) or 'none'}{also}")
        return 1
    if not passed:
        print(f"FAILED: no backend ran{also}")
        return 1
    print(f"OK: the same Ivy code ran on {len(passed)} backends ({', '.join(passed)}) and agreed with NumPy{also}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
