"""Ivy's benchmark suite: every stage, one results folder with a report, the raw JSON and plots.

    bash scripts/bench [--quick] [--out DIR] [--backends numpy,torch,...] [--stages a,b] [--skip a,b]
                       [--publish] [--no-progress] [--recount] [--torch-compile] [--quick-external]
                       [--skip-slow-compile]
    python -m benchmarks.run ...            (the same, in an environment that is already set up)
    python -m benchmarks.run --report DIR   (write the report and plots again from DIR/results.json)

Stages, in order (each backend in its own process, single-threaded; interleaved rounds, medians of
paired ratios; see ``_common.py``):

  usage      how often each library calls each core function (counted while running its tests
             and the drone demo; kept in usage_counts.json and reused)  bench_usage.py
  functions  per core function at 1e4 elements: native, Ivy eager, native compiled, Ivy compiled,
             the overhead split into the paper's groups                bench_functions.py
  dispatch   per-op dispatch at 1e2/1e4 elements, with the peers (array-api-compat, keras.ops,
             EagerPy)                                                   bench_dispatch.py
  libraries  whole library functions and the drone step, Ivy vs native torch/jax
                                                                        bench_libraries.py
  upstream   upstream Ivy (PyPI ``ivy``) in its own venv                bench_upstream.py
  training   an MLP training step (Module + Adam) vs native             bench_training.py
  compiled   four model functions through ivy.compile vs native compilers  bench_compiled.py
  native_models  seven small models (MLP, CNN, GRU, LSTM, transformer, ViT, VAE) in Ivy against the
             same models written natively (torch.nn, flax + optax, Keras, paddle.nn), eager and
             compiled, with compile times; --skip-slow-compile leaves out torch.compile (minutes
             per model)                                              bench_native_models.py
  models     the stateful API, when benchmarks/bench_models.py exists (run as a subprocess with
             --json PATH; the report renders its table)
  graph      the graph tracer, when benchmarks/bench_graph.py exists (likewise)
  transpile  the transpiler, when benchmarks/bench_transpile.py exists (likewise; torch.compile for
             the transformers only)
  vision     ivy_vision on torch against kornia (libs/ivy-vision/benchmarks/bench_vs_kornia.py,
             likewise; needs torch and kornia)

Then the per-library overheads (the paper's Table 3) are computed from the counts and the
per-function figures, and the folder gets ``report.md``, ``results.json`` and ``bench_*.png``
(default folder: ``benchmarks/results/<date>-<time>[-quick]``). ``--publish`` also writes the
report to ``benchmarks/RESULTS.md`` (+ ``RESULTS.json``) with its plots in ``docs/images/``.
Every stage's result is saved as soon as it is done: an interrupted run keeps what it measured
(``--report DIR [--publish]`` writes its report). ``--update FILE`` runs the stages given and puts
them into an earlier run's results (``benchmarks/RESULTS.json``: the published report), keeping its
other stages' figures, e.g. ``--stages vision --update benchmarks/RESULTS.json --publish``.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks._common import BACKENDS, ROOT, Bar, child_env, load, machine
from ivy import _atomic

STAGES = (
    "usage",
    "functions",
    "dispatch",
    "libraries",
    "upstream",
    "training",
    "compiled",
    "native_models",
    "models",
    "graph",
    "transpile",
    "vision",
)
TITLES = {
    "usage": "function usage per library",
    "functions": "per-function analysis",
    "libraries": "library functions and drone demo",
    "dispatch": "dispatch and peers",
    "upstream": "upstream Ivy",
    "compiled": "compiled model functions",
    "training": "training step",
    "native_models": "Ivy models vs native models",
    "models": "stateful API (bench_models.py)",
    "graph": "graph tracer (bench_graph.py)",
    "transpile": "transpiler (bench_transpile.py)",
    "vision": "ivy_vision vs kornia (bench_vs_kornia.py)",
}
# the external stages' scripts, from the repository's root
EXTERNAL = {
    "models": "benchmarks/bench_models.py",
    "graph": "benchmarks/bench_graph.py",
    "transpile": "benchmarks/bench_transpile.py",
    "vision": "libs/ivy-vision/benchmarks/bench_vs_kornia.py",
}
# rough durations (s) of each stage on a small shared machine, quick and full: the progress bars
# of the external stages (they report no progress) and the estimate of the whole run's time left
EXPECTED = {
    "usage": (5, 5),
    "functions": (240, 400),
    "dispatch": (180, 300),
    "libraries": (150, 300),
    "upstream": (120, 180),
    "training": (160, 240),
    "compiled": (130, 200),
    "native_models": (600, 1200),
    "models": (200, 400),
    "graph": (420, 600),
    "transpile": (900, 1500),
    "vision": (10, 30),
}


def expected(stage: str, quick: bool) -> float:
    return float(EXPECTED[stage][0 if quick else 1])


def external_args(stage: str, cfg: dict[str, Any]) -> list[str]:
    """The command-line options of an external stage: its backends (or targets), --quick."""
    backends = cfg["backends"]
    if stage == "transpile":
        # torch.compile (tens of seconds per program here) for the bench's default programs: the
        # models and blur, not kornia's functions
        args = ["--targets", ",".join(b for b in backends if b != "numpy")]
    elif stage == "vision":  # torch only (kornia's framework)
        args = []
    elif stage == "models":
        args = ["--backends", ",".join(b for b in backends if b in ("torch", "jax", "paddle", "tensorflow"))]
    else:
        args = ["--backends", ",".join(backends)]
    return args + (["--quick"] if cfg.get("quick") or cfg.get("quick_external") else [])


def installed_backends() -> list[str]:
    import ivy

    have = set(ivy.backends())
    return [b for b in BACKENDS if b in have]  # paddle before tensorflow


def run_external(stage: str, cfg: dict[str, Any], bar: Bar) -> dict[str, Any]:
    """A benchmark another part of the project owns: its --json output and its printout."""
    script = os.path.join(ROOT, EXTERNAL[stage])
    if not os.path.exists(script):
        bar.close("not present")
        return {"absent": f"{EXTERNAL[stage]} does not exist"}
    if stage == "vision" and ("torch" not in cfg["backends"] or importlib.util.find_spec("kornia") is None):
        bar.close("not run")
        return {"absent": "it needs the torch backend and kornia (pip install kornia)"}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "out.json")
        cmd = [sys.executable, script, "--json", path, *external_args(stage, cfg)]
        guess = expected(stage, bool(cfg.get("quick") or cfg.get("quick_external")))
        started = time.perf_counter()
        with tempfile.TemporaryFile("w+") as log, tempfile.TemporaryFile("w+") as err:
            p = subprocess.Popen(cmd, stdout=log, stderr=err, text=True, cwd=ROOT, env=child_env())
            while p.poll() is None:
                time.sleep(1.0)
                spent = time.perf_counter() - started
                bar.update(min(0.95, spent / guess), f"{spent:.0f} s")
            log.seek(0)
            err.seek(0)
            # its table (stdout); the end of its log only when it failed
            printout = log.read()
            if p.returncode != 0:
                printout += "\n" + "\n".join(err.read().splitlines()[-15:])
        result: dict[str, Any] = {
            "command": " ".join(["python", os.path.relpath(script, ROOT), *cmd[2:]]).replace(path, "PATH"),
            "exit": p.returncode,
            "printout": printout[-12000:],
        }
        if os.path.exists(path):
            with open(path) as f:
                result["json"] = json.load(f)
    bar.close()
    return result


def run_stage(stage: str, cfg: dict[str, Any], bar: Bar) -> Any:
    if stage in EXTERNAL:
        return run_external(stage, cfg, bar)
    module = {
        "usage": "bench_usage",
        "functions": "bench_functions",
        "libraries": "bench_libraries",
        "dispatch": "bench_dispatch",
        "upstream": "bench_upstream",
        "compiled": "bench_compiled",
        "training": "bench_training",
        "native_models": "bench_native_models",
    }[stage]
    return importlib.import_module(f"benchmarks.{module}").run_stage(cfg, bar)


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:.0f} min" if seconds >= 90 else f"{seconds:.0f} s"


def _load_text() -> str:
    avg = load()
    return "unknown" if avg is None else ", ".join(f"{v:.1f}" for v in avg)


def default_out(quick: bool) -> str:
    return os.path.join(ROOT, "benchmarks", "results", time.strftime("%Y-%m-%d-%H%M") + ("-quick" if quick else ""))


def frequencies(usage: dict[str, Any] | None) -> dict[str, int]:
    """Calls per core function over every library and the demo."""
    total: dict[str, int] = {}
    if not usage:
        return total
    parts = list(usage.get("libraries", {}).values()) + ([usage["demo"]] if usage.get("demo") else [])
    for part in parts:
        for op, n in part["counts"].items():
            total[op] = total.get(op, 0) + n
    return total


def cached_usage() -> dict[str, Any] | None:
    from benchmarks import bench_usage

    for backend in ("torch",):
        cached = bench_usage.load_cache(bench_usage.sources_hash(backend))
        if cached is not None:
            return {**cached, "cached": True}
    cached = bench_usage.load_cache(None)
    return {**cached, "cached": True, "stale": True} if cached is not None else None


def write_outputs(results: dict[str, Any], out: str, publish: bool) -> None:
    from benchmarks import _analysis, _plots, _report

    results["analysis"] = _analysis.analyse(results)
    os.makedirs(out, exist_ok=True)
    _atomic.write_text(os.path.join(out, "results.json"), json.dumps(results, indent=1))
    images = _plots.plot_all(results, out)
    _atomic.write_text(os.path.join(out, "report.md"), _report.render(results, {name: name for name in images}))
    print(
        f"\nreport: {os.path.relpath(os.path.join(out, 'report.md'), ROOT)}"
        f"  (raw: results.json, plots: {', '.join(images)})"
    )
    if publish:
        docs = os.path.join(ROOT, "docs", "images")
        os.makedirs(docs, exist_ok=True)
        for name in images:
            shutil.copy(os.path.join(out, name), os.path.join(docs, name))
        # (atomic: --update reads RESULTS.json and replaces it, its only copy)
        published = _report.render(results, {name: f"../docs/images/{name}" for name in images})
        _atomic.write_text(os.path.join(ROOT, "benchmarks", "RESULTS.md"), published)
        _atomic.write_text(os.path.join(ROOT, "benchmarks", "RESULTS.json"), json.dumps(results, indent=1))
        print("published: benchmarks/RESULTS.md, benchmarks/RESULTS.json, docs/images/" + ", docs/images/".join(images))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer, shorter rounds (about half the time of a full run)")
    ap.add_argument("--out", help="results folder (default benchmarks/results/<date>-<time>)")
    ap.add_argument("--backends", help="comma-separated (default: every installed backend)")
    ap.add_argument("--stages", help=f"comma-separated, from {','.join(STAGES)} (default: all)")
    ap.add_argument("--skip", help="comma-separated stages to leave out")
    ap.add_argument(
        "--publish", action="store_true", help="also write benchmarks/RESULTS.md and docs/images/bench_*.png"
    )
    ap.add_argument("--no-progress", action="store_true", help="no progress bars")
    ap.add_argument(
        "--torch-compile", action="store_true", help="also torch.compile the library functions (minutes on a small CPU)"
    )
    ap.add_argument(
        "--quick-external", action="store_true", help="run bench_models/graph/transpile with --quick in a full run"
    )
    ap.add_argument(
        "--skip-slow-compile",
        action="store_true",
        help="native_models: leave out torch's compiled steps (torch.compile: minutes per model)",
    )
    ap.add_argument("--recount", action="store_true", help="count the libraries' function usage again")
    ap.add_argument("--upstream-venv", help="the venv with upstream Ivy (default .venv-peers-ivy)")
    ap.add_argument("--report", metavar="DIR", help="only write the report and plots again from DIR/results.json")
    ap.add_argument(
        "--update",
        metavar="FILE",
        help="put the stages run into the results FILE of an earlier run (e.g. benchmarks/RESULTS.json), "
        "keeping its other stages, and write the report of the whole",
    )
    args = ap.parse_args(argv)
    base = None
    if args.update:  # read first: a file that cannot be read stops the run before it starts
        with open(args.update) as f:
            base = json.load(f)

    if args.report:
        with open(os.path.join(args.report, "results.json")) as f:
            results = json.load(f)
        write_outputs(results, args.report, args.publish)
        return 0

    stages = [s.strip() for s in args.stages.split(",")] if args.stages else list(STAGES)
    unknown = [s for s in stages + (args.skip.split(",") if args.skip else []) if s not in STAGES]
    if unknown:
        ap.error(f"unknown stage(s) {', '.join(unknown)}; stages: {', '.join(STAGES)}")
    if args.skip:
        stages = [s for s in stages if s not in args.skip.split(",")]
    backends = [b for b in BACKENDS if b in args.backends.split(",")] if args.backends else installed_backends()
    out = os.path.abspath(args.out or default_out(args.quick))
    cfg: dict[str, Any] = {
        "quick": args.quick,
        "backends": backends,
        "upstream_venv": args.upstream_venv,
        "recount": args.recount,
        "torch_compile": args.torch_compile,
        "quick_external": args.quick_external,
        "skip_slow_compile": args.skip_slow_compile,
    }
    meta = machine()
    meta.update(
        quick=args.quick,
        backends=backends,
        stages=stages,
        not_run=[s for s in STAGES if s not in stages],
        command="bash scripts/bench" + "".join(f" {a}" for a in (argv if argv is not None else sys.argv[1:])),
    )
    results: dict[str, Any] = {"meta": meta, "stages": {}}
    print(
        f"Ivy benchmarks ({'quick' if args.quick else 'full'} run): {', '.join(backends)}; stages {', '.join(stages)}"
    )
    print(f"{meta['cpu']}, {meta['cores']} cores; one thread per framework; {meta['uptime']}")
    started = time.perf_counter()
    os.makedirs(out, exist_ok=True)
    for k, stage in enumerate(stages):
        if stage == "functions":
            usage = results["stages"].get("usage", {}).get("result") or cached_usage()
            cfg["frequencies"] = frequencies(usage)
            if "usage" not in results["stages"] and usage is not None:
                results["stages"]["usage"] = {"result": usage, "seconds": 0.0, "load": [load(), load()]}
        left = sum(expected(s, args.quick) for s in stages[k:])
        done = [s for s in stages[:k] if s != "usage"]  # (usage is mostly read from its cache)
        if done:
            # the stages so far against their expected times: how fast this machine is today
            spent = sum(results["stages"][s]["seconds"] for s in done)
            left *= min(max(spent / sum(expected(s, args.quick) for s in done), 0.5), 4.0)
        print(f"-- {TITLES[stage]}; about {_minutes(left)} left in the run (load {_load_text()})", file=sys.stderr)
        bar = Bar(f"[{k + 1}/{len(stages)}] {stage}", enabled=not args.no_progress)
        t0, load0 = time.perf_counter(), load()
        try:
            result = run_stage(stage, cfg, bar)
        except Exception as e:  # one stage failing must not lose the others
            bar.close("FAILED")
            result = {"failed": f"{type(e).__name__}: {e}"}
        results["stages"][stage] = {"result": result, "seconds": time.perf_counter() - t0, "load": [load0, load()]}
        if args.no_progress:
            print(f"[{k + 1}/{len(stages)}] {stage}: {time.perf_counter() - t0:.0f} s")
        # kept after every stage: an interrupted run loses nothing (--report DIR writes its report)
        _atomic.write_text(os.path.join(out, "results.json"), json.dumps(results, indent=1))
    meta["duration_s"] = time.perf_counter() - started
    meta["uptime_end"] = machine()["uptime"]
    if base is not None:
        results = merged(base, results)
    write_outputs(results, out, args.publish)
    return 0


def merged(base: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """``base`` (an earlier run's results) with the stages of ``new`` in place of its own; its
    meta lists the update (when, by which command, the machine's load)."""
    meta = dict(base["meta"])
    ran = list(new["stages"])
    keys = ("date", "command", "commit", "cpu", "cores", "uptime", "uptime_end", "duration_s")
    # an earlier update keeps only the stages whose figures are still its own
    earlier = [{**u, "stages": [s for s in u["stages"] if s not in ran]} for u in meta.get("updates", [])]
    meta["updates"] = [u for u in earlier if u["stages"]] + [{"stages": ran, **{k: new["meta"].get(k) for k in keys}}]
    meta["stages"] = [*meta.get("stages", []), *[s for s in ran if s not in meta.get("stages", [])]]
    meta["not_run"] = [s for s in STAGES if s not in meta["stages"]]
    stages = {**base["stages"], **new["stages"]}
    return {**base, "meta": meta, "stages": {s: stages[s] for s in STAGES if s in stages}}


if __name__ == "__main__":
    sys.exit(main())
