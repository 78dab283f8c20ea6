"""The paper's per-function analysis (its Figure 6), for the core functions the libraries call.

A stage of ``scripts/bench`` (``python -m benchmarks.run --stages functions``). For each backend (three
processes whose rounds are pooled, single-threaded) and each function of ``_native_ops.OPS`` that the libraries
call (the
``usage`` stage's counts), inputs of 1e4 elements, interleaved rounds of:

* native        the framework's call (``torch.sin(x)``), and the same call again as a second
                variant ("A/A"), whose ratio to the first shows how large the noise is;
* namespace     ``ivy.<fw>.<op>(x)``: the plugin's function, no dispatch;
* ivy           ``ivy.<op>(x)``: the backend inferred from the argument types on every call;
* compiled      the program of ``ivy.compile(lambda x: ivy.<op>(x), backend=...)`` against the
                native lambda compiled with the framework's compiler (``jax.jit``,
                ``torch.compile``, ``tf.function``, ``paddle.jit.to_static``), with the native
                lambda compiled a second time as the A/A (another program of the same code);
                and ``ivy.compile`` without ``backend=``, whose per-call object picks the
                program by the first argument's type (its cost per call, reported apart).

The eager overhead splits into the paper's groups: *backend-specific code* (namespace - native:
what the plugin adds to unify behaviour; the part that adds ops stays in a compiled program) and
*Ivy eager-only code* (ivy - namespace: the dispatch, which runs only while a compiler traces).
*Compiled overhead* is what is left after compiling (ivy compiled - native compiled); the
difference between the eager and the compiled overhead is the Ivy code that compiles away.
"""

from __future__ import annotations

import re
import statistics
from typing import Any

from benchmarks._common import (
    block_until_ready,
    calls_for,
    interleaved,
    leaves,
    paired,
    pin_one_thread,
    progress,
)
from benchmarks._native_ops import NOT_TIMED, OPS, UTILITIES, framework_env, inputs

ARRAY_INPUTS = (
    "x",
    "y",
    "p",
    "c",
    "d",
    "x1",
    "row",
    "v3",
    "w3",
    "v100",
    "m4",
    "n4",
    "idx",
    "idx1",
    "sidx",
    "supd",
    "img",
    "dwk",
)


def _compiler(backend: str) -> Any:
    if backend == "torch":
        import torch

        return torch.compile
    if backend == "jax":
        import jax

        return jax.jit
    if backend == "tensorflow":
        import tensorflow as tf

        return tf.function
    if backend == "paddle":
        import paddle

        return paddle.jit.to_static
    return None


def _has(xp: Any, dotted: str) -> bool:
    obj = xp
    for part in dotted.split("."):
        if not hasattr(obj, part):
            return False
        obj = getattr(obj, part)
    return True


def _same_result(a: Any, b: Any) -> bool:
    import numpy as np

    import ivy

    la, lb = leaves(a if isinstance(a, (tuple, list)) else [a]), leaves(b if isinstance(b, (tuple, list)) else [b])
    if len(la) != len(lb):
        return False
    for u, v in zip(la, lb):
        u, v = np.asarray(ivy.to_numpy(u)), np.asarray(ivy.to_numpy(v))
        if u.shape != v.shape or not np.allclose(
            u.astype(np.float64), v.astype(np.float64), rtol=1e-4, atol=1e-5, equal_nan=True
        ):
            return False
    return True


def _program(compiled: Any, args: tuple[Any, ...]) -> Any:
    """The compiled program itself: what ``ivy.compile(f, backend=...)`` returns, or where that is
    still Ivy's per-call object (JAX: a random key may have to be threaded, which shows on the
    first call), the framework's program that object calls for these arguments."""
    by_type = getattr(compiled, "_by_type", None)
    if by_type is None:
        return compiled
    compiled(*args)  # the first call compiles
    return by_type.get(type(args[0]), compiled)


def _calls(fn: Any, target_s: float) -> int:
    """Calls per round: about ``target_s`` of them, and at least 12 where those take at most four
    times that (a round's fastest of only a few calls of a slow op is a noisy figure)."""
    return max(calls_for(fn, target_s), min(12, calls_for(fn, 4 * target_s)))


def _rounds_row(samples: dict[str, list[float]], pre: str) -> dict[str, Any]:
    row: dict[str, Any] = {}
    for k, v in samples.items():
        row[f"{pre}{k}_us"] = min(v) * 1e6
    return row


def bench_backend(
    backend: str,
    ops: list[str],
    compiled_ops: list[str],
    rounds: int,
    target_s: float,
) -> dict[str, Any]:
    """Child: every op of ``ops`` eager, those of ``compiled_ops`` compiled too."""
    pin_one_thread(backend)
    import ivy

    xp = ivy.backend_namespace(backend)
    g: dict[str, Any] = {**framework_env(backend), **inputs(backend, xp), "ivy": ivy, "xp": xp}
    sync = block_until_ready(backend)
    compiler = _compiler(backend)
    rows: list[dict[str, Any]] = []
    work = len(ops) + 3 * len(compiled_ops)
    done = 0
    for name in ops:
        row: dict[str, Any] = {"op": name}
        rows.append(row)
        spec = OPS.get(name)
        native = spec[2].get(backend) if spec else None
        if spec is None or native is None:
            row["skipped"] = NOT_TIMED.get(name, "no native counterpart written for this backend")
            done += 3 if name in compiled_ops else 1
            continue
        args, kw, _ = spec
        call = args + (", " + kw if kw else "")
        # the namespace takes no backend= (it is the backend); a utility may have no namespace twin
        ns_call = call.replace(", backend=xp", "")
        exprs = {"native": native, "aa": native, "namespace": f"xp.{name}({ns_call})", "ivy": f"ivy.{name}({call})"}
        if not _has(xp, name):
            del exprs["namespace"]
        try:
            thunks = {k: eval(f"lambda: {e}", g) for k, e in exprs.items()}  # fixed table
            if name not in UTILITIES and not _same_result(thunks["ivy"](), thunks["native"]()):
                row["skipped"] = "native result differs from Ivy's (not the same computation)"
                done += 3 if name in compiled_ops else 1
                continue
            timed = {k: (lambda f=f: sync(f())) for k, f in thunks.items()}
            for f in timed.values():
                f()
            number = _calls(timed["native"], target_s)
            samples = interleaved(timed, rounds, number, fastest=True)
        except Exception as e:  # one op failing must not hide the others
            row["error"] = f"{type(e).__name__}: {str(e).splitlines()[0][:160] if str(e) else ''}"
            done += 3 if name in compiled_ops else 1
            continue
        row["samples"] = samples  # pooled with the other processes' rounds by the parent
        _eager_figures(row)
        done += 1
        progress(done, work)
        if name in compiled_ops:
            if compiler is None or name in UTILITIES:
                done += 2
                continue
            params = [a for a in ARRAY_INPUTS if re.search(rf"\b{a}\b", args)]
            if not params:  # nothing to trace with: creation from constants only
                row["compiled_skipped"] = "no array argument"
                done += 2
                continue
            plist = ", ".join(params)
            try:
                nat_c = compiler(eval(f"lambda {plist}: {native}", g))
                # A/A: the native function compiled again, a program of its own (as Ivy's is)
                nat_aa = compiler(eval(f"lambda {plist}: {native}", g))
                # the program: ivy.compile with the backend named (the framework's compiled callable
                # itself where no state is threaded); and the same without backend= (a small object
                # picks the program by the first argument's type on each call)
                ivy_c = ivy.compile(eval(f"lambda {plist}: ivy.{name}({call})", g), backend=backend)
                ivy_ci = ivy.compile(eval(f"lambda {plist}: ivy.{name}({call})", g))
                ivy_c = _program(ivy_c, eval(f"({plist},)", g))
                gc_ = {**g, "nat_c": nat_c, "nat_aa": nat_aa, "ivy_c": ivy_c, "ivy_ci": ivy_ci}
                cthunks = {
                    "native": eval(f"lambda: nat_c({plist})", gc_),
                    "aa": eval(f"lambda: nat_aa({plist})", gc_),
                    "ivy": eval(f"lambda: ivy_c({plist})", gc_),
                    "inferred": eval(f"lambda: ivy_ci({plist})", gc_),
                }
                ok = _same_result(cthunks["ivy"](), cthunks["native"]())  # compiles both
                done += 1
                progress(done, work)
                ctimed = {k: (lambda f=f: sync(f())) for k, f in cthunks.items()}
                for _ in range(3):
                    for f in ctimed.values():
                        f()
                row["csamples"] = interleaved(ctimed, rounds, _calls(ctimed["native"], target_s), fastest=True)
                _compiled_figures(row)
                row["compiled_same_result"] = ok
            except Exception as e:
                row["compiled_error"] = f"{type(e).__name__}: {str(e).splitlines()[0][:160] if str(e) else ''}"
            done += 1
            progress(done, work)
    return {"backend": backend, "rows": rows}


def _eager_figures(row: dict[str, Any]) -> None:
    """The eager figures of ``row`` from its per-round ``samples`` (seconds per variant)."""
    samples = row["samples"]
    row.update(_rounds_row(samples, ""))
    row["eager"] = paired(samples, "ivy", "native")
    row["aa"] = paired(samples, "aa", "native")
    # the paper's groups, µs per call (medians of within-round differences)
    if "namespace" in samples:
        row["namespace"] = paired(samples, "namespace", "native")
        row["backend_specific_us"] = row["namespace"]["added_us"]
        row["dispatch_us"] = paired(samples, "ivy", "namespace")["added_us"]
    else:
        row["backend_specific_us"], row["dispatch_us"] = None, row["eager"]["added_us"]


def _compiled_figures(row: dict[str, Any]) -> None:
    """The compiled figures of ``row`` from its per-round ``csamples``."""
    csamples = row["csamples"]
    row.update(_rounds_row(csamples, "compiled "))
    row["compiled"] = paired(csamples, "ivy", "native")
    row["compiled_aa"] = paired(csamples, "aa", "native")
    row["compiled_inferred"] = paired(csamples, "inferred", "native")


def pooled(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """One backend's result from its processes' results: each op's rounds pooled, eager and
    compiled apart (an op with an error or skip in any process keeps the first process's row)."""
    first = parts[0]
    for key, figures in (("samples", _eager_figures), ("csamples", _compiled_figures)):
        for i, row in enumerate(first["rows"]):
            others = [p["rows"][i] for p in parts[1:]]
            if key not in row or any(key not in o for o in others):
                continue
            row[key] = {k: v + [x for o in others for x in o[key][k]] for k, v in row[key].items()}
            figures(row)
    for row in first["rows"]:
        row.pop("samples", None)
        row.pop("csamples", None)
    first["processes"] = len(parts)
    return first


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians over the timed ops of one backend."""
    timed = [r for r in rows if "eager" in r]
    comp = [r for r in rows if "compiled" in r]
    return {
        "ops_timed": len(timed),
        "eager_ratio": statistics.median(r["eager"]["ratio"] for r in timed) if timed else None,
        "aa_ratio": statistics.median(r["aa"]["ratio"] for r in timed) if timed else None,
        "compiled_ratio": statistics.median(r["compiled"]["ratio"] for r in comp) if comp else None,
        "compiled_aa_ratio": statistics.median(r["compiled_aa"]["ratio"] for r in comp) if comp else None,
    }


def run_stage(cfg: dict[str, Any], bar: Any) -> dict[str, Any]:
    """Parent: one child per backend. ``cfg['frequencies']``: op -> calls over all libraries."""
    from benchmarks._common import ChildError, run_child

    freq: dict[str, int] = cfg.get("frequencies") or {}
    ops = sorted(freq, key=lambda o: -freq[o]) if freq else sorted(OPS)
    by_freq = [o for o in ops if o in OPS and o not in UTILITIES]
    quick = cfg.get("quick", False)
    # short rounds, many of them: on a loaded machine a round of 0.5 ms is seldom cut by the scheduler
    rounds, target = (31, 0.0005) if quick else (120, 0.0005)
    # The rounds are split over several processes: from one process to the next an op's figure
    # can move by a percent (where the allocator and the loader place things; for compiled
    # programs, where the JIT places the code: two jax.jit programs of one HLO can differ by 5%
    # and more), more than it moves between rounds of one process; pooling averages that out.
    procs = 1 if quick else 3
    names = cfg["backends"]
    out: dict[str, Any] = {"rounds": rounds, "processes": procs, "backends": {}, "errors": {}}
    for i, b in enumerate(names):
        # compiling takes a second or more per function (torch.compile and paddle's to_static
        # several): the most called functions only, which cover most of the libraries' calls
        limit = 6 if quick else {"torch": 8, "paddle": 8, "tensorflow": 20}.get(b, 30)
        compiled_ops = by_freq[:limit]
        if b == "numpy":
            compiled_ops = []
        try:
            parts = []
            for k in range(procs):
                parts.append(
                    run_child(
                        "benchmarks.bench_functions",
                        "bench_backend",
                        {
                            "backend": b,
                            "ops": ops,
                            "compiled_ops": compiled_ops,  # each process compiles anew
                            "rounds": rounds // procs,
                            "target_s": target,
                        },
                        lambda f, i=i, b=b, k=k: bar.update((i + (k + f) / procs) / len(names), b),
                    )
                )
            res = pooled(parts)
            res["summary"] = summary(res["rows"])
            out["backends"][b] = res
        except ChildError as e:
            out["errors"][b] = str(e)
    bar.close()
    return out
