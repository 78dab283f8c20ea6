"""Upstream Ivy (the ``ivy`` distribution on PyPI) on the ops of ``bench_dispatch``, in its own venv.

A stage of ``scripts/bench`` (``python -m benchmarks.run --stages upstream``). Upstream Ivy's
distribution is also named ``ivy``, so it cannot share the main venv: it lives in
``.venv-peers-ivy`` (``--upstream-venv``), created by ``scripts/bench --setup-peers``, which
installs it there and points that venv at the main venv's frameworks (a ``.pth`` line, so that the
same framework builds are measured). For each backend (own process, single-threaded) each op is
timed as ``bench_dispatch`` times it: ``ivy.set_backend(backend)``, then ``ivy.<op>(x)`` on native
arrays against the native call, interleaved rounds, medians of paired ratios. Upstream returns
its own ``ivy.Array`` wrapper; the check compares values.
"""

from __future__ import annotations

import os
import statistics
from typing import Any

from benchmarks._common import ROOT, calls_for, interleaved, pin_one_thread, progress

VENV = os.path.join(ROOT, ".venv-peers-ivy")


def bench_backend(backend: str, size: int, rounds: int, target_s: float) -> dict[str, Any]:
    """Child (in the upstream venv): upstream ``ivy.<op>`` against native, one backend."""
    import numpy as np

    from benchmarks.bench_dispatch import OPS, _caller, _framework, _resolve

    pin_one_thread(backend)
    import ivy  # upstream's

    version = getattr(ivy, "__version__", "?")
    env = _framework(backend)
    ivy.set_backend(backend)
    to_native = {
        "numpy": lambda a: a,
        "torch": lambda a: env["torch"].from_numpy(a),
        "jax": lambda a: env["jnp"].asarray(a),
        "tensorflow": lambda a: env["tf"].constant(a),
        "paddle": lambda a: env["paddle"].to_tensor(a),
    }[backend]
    rng = np.random.default_rng(0)
    n, side = size, int(round(size**0.5))
    a = to_native(rng.standard_normal(n).astype(np.float32))
    b = to_native(rng.standard_normal(n).astype(np.float32))
    pos = to_native(rng.random(n).astype(np.float32) + 0.5)
    cond = to_native(rng.random(n) > 0.5)
    m1 = to_native(rng.standard_normal((side, side)).astype(np.float32))
    m2 = to_native(rng.standard_normal((side, side)).astype(np.float32))
    sync = (lambda r: getattr(r, "block_until_ready", lambda: r)()) if backend == "jax" else (lambda r: r)
    rows, errors = [], {}
    for k, (op, kind, natives) in enumerate(OPS):
        progress(k, len(OPS))
        if backend not in natives or not hasattr(ivy, op) or kind == "z":  # creation: set globally, not timed here
            continue
        args: tuple[Any, ...] = {
            "u": (a,),
            "up": (pos,),
            "b": (a, b),
            "m": (m1, m2),
            "w": (cond, a, b),
            "c": ([a, b],),
            "r": (a, (side, -1)),
            "t": (m1, (1, 0)),
            "e": ("ij,jk->ik", m1, m2),
        }[kind]
        native = _resolve(natives[backend], env)
        up = getattr(ivy, op)
        try:
            nat_f, up_f = _caller(native, args), _caller(up, args)
            got, want = _np(getattr(up_f(), "data", None)), _np(nat_f())  # .data: the wrapped native array
            if got.shape != want.shape or not np.allclose(
                got.astype(np.float64), want.astype(np.float64), rtol=1e-4, atol=1e-5
            ):
                raise ValueError("result differs from the native one")
            variants = {"native": lambda f=nat_f: sync(f()), "upstream ivy": lambda f=up_f: sync(f())}
            for f in variants.values():
                f()
            numbers = {k: calls_for(f, target_s) for k, f in variants.items()}  # each fills a round
            samples = interleaved(variants, rounds, numbers, fastest=True)
        except Exception as e:  # an op upstream cannot run is left out, with why
            errors[op] = f"{type(e).__name__}: {str(e).splitlines()[0][:140] if str(e) else ''}"
            continue
        nat, upv = samples["native"], samples["upstream ivy"]
        rows.append(
            {
                "op": op,
                "native_us": min(nat) * 1e6,
                "upstream_us": min(upv) * 1e6,
                "ratio": statistics.median(x / y for x, y in zip(upv, nat)),
                "added_us": statistics.median((x - y) * 1e6 for x, y in zip(upv, nat)),
            }
        )
    progress(len(OPS), len(OPS))
    return {"backend": backend, "version": version, "size": size, "rows": rows, "errors": errors}


def _np(x: Any) -> Any:
    import numpy as np

    return x.numpy() if hasattr(x, "numpy") and not isinstance(x, np.ndarray) else np.asarray(x)


def python_of(venv: str) -> str | None:
    exe = os.path.join(venv, "bin", "python")
    return exe if os.path.exists(exe) else None


def run_stage(cfg: dict[str, Any], bar: Any) -> dict[str, Any]:
    from benchmarks._common import ChildError, child_env, run_child

    venv = cfg.get("upstream_venv") or VENV
    python = python_of(venv)
    if python is None:
        bar.close("no venv")
        return {"absent": f"no upstream venv at {os.path.relpath(venv, ROOT)} (create it: scripts/bench --setup-peers)"}
    quick = cfg.get("quick", False)
    rounds, target = (7, 0.002) if quick else (11, 0.002)
    names = cfg["backends"]
    out: dict[str, Any] = {"venv": os.path.relpath(venv, ROOT), "rounds": rounds, "backends": {}, "errors": {}}
    for i, b in enumerate(names):
        try:
            res = run_child(
                "benchmarks.bench_upstream",
                "bench_backend",
                {"backend": b, "size": 10000, "rounds": rounds, "target_s": target},
                lambda f, i=i, b=b: bar.update((i + f) / len(names), b),
                python=python,
                env=child_env(b),
                timeout=900,
            )
            if res["rows"]:
                res["median_ratio"] = statistics.median(r["ratio"] for r in res["rows"])
                res["median_added_us"] = statistics.median(r["added_us"] for r in res["rows"])
            out["backends"][b] = res
            out["version"] = res["version"]
        except ChildError as e:
            out["errors"][b] = str(e)
    bar.close()
    return out
