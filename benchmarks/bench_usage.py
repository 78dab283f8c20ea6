"""How often each library calls each core function (the paper's appendix A.1, Figure 7), counted.

A stage of ``scripts/bench`` (``python -m benchmarks.run --stages usage``). For each library a child
process replaces every public function of ``ivy`` (``ivy.sin``, ``ivy.linalg.solve``, ...) and of
the backend's namespace (``xp = ivy.namespace(x); xp.arange(...)``) by a counting wrapper, then
runs the library's own test suite on one backend (pytest, in that process; its compile tests left out, as
torch.compile cannot trace the counting wrapper). A call counts for a
library when the frame that makes it belongs to the library's package, so the tests' own calls
and Ivy's internal calls (a composed op calling others) do not count. The drone demo
(``examples/drone_motion_planning.py``) is counted the same way for a few planning steps, its
calls and those of the libraries it uses together. Python operators on native arrays
(``a + b``, ``x[..., 0]``) are the framework's own and are not Ivy calls.

The counts depend on the library sources, not on the machine, and take about a quarter of an hour
on a small machine: a run keeps them in ``benchmarks/usage_counts.json`` (with a hash of the
libraries' sources and tests), and later runs reuse them (the report says whether they were
counted on the same sources); ``--recount`` counts again.
"""

from __future__ import annotations

import collections
import functools
import hashlib
import json
import os
import sys
from typing import Any

from benchmarks._common import ROOT, progress

LIBRARIES = ("ivy_mech", "ivy_vision", "ivy_robot", "ivy_gym")
DEMO = "drone_motion_planning"
# the last full count, kept with the published results: a quick run reuses it
CACHE = os.path.join(ROOT, "benchmarks", "usage_counts.json")

# Public callables that are not array functions: the backend and device plumbing a library uses
# to create arrays "like" another one. They are counted (they cost time) and shown apart.
UTILITIES = frozenset(
    {
        "namespace",
        "backend_namespace",
        "current_backend",
        "dev",
        "is_native_array",
        "use_backend",
        "set_backend",
        "unset_backend",
        "compile",
        "to_numpy",
        "to_scalar",
        "to_list",
        "backends",
        "default_device",
        "get_framework",
        "dtype_name",
        "is_variable",
        "variable",
    }
)


def _counting(fn: Any, name: str, counts: collections.Counter, owners: tuple[str, ...]) -> Any:
    @functools.wraps(fn)
    def counted(*args: Any, **kwargs: Any) -> Any:
        caller = sys._getframe(1).f_globals.get("__name__", "")
        top = caller.split(".", 1)[0]
        if top in owners:
            counts[(top, name)] += 1
        return fn(*args, **kwargs)

    return counted


def install_counters(backend: str, owners: tuple[str, ...]) -> collections.Counter:
    """Wraps every public function of ``ivy``, ``ivy.linalg``, ``ivy.fft`` and the backend's
    namespace; returns the counter the wrappers fill (keys ``(package, function name)``)."""
    import types

    import ivy

    counts: collections.Counter = collections.Counter()

    def wrap_all(obj: Any, prefix: str) -> None:
        for name in dir(obj):
            if name.startswith("_"):
                continue
            try:
                f = getattr(obj, name)
            except Exception:  # an attribute that cannot be built is not called either
                continue
            if isinstance(f, (type, types.ModuleType)) or not callable(f) or name.endswith("Error"):
                continue
            if getattr(f, "__module__", "") == "typing":
                continue
            setattr(obj, name, _counting(f, prefix + name, counts, owners))

    wrap_all(ivy, "")
    for sub in ("linalg", "fft"):
        if isinstance(getattr(ivy, sub, None), types.ModuleType):
            wrap_all(getattr(ivy, sub), sub + ".")
    # calls through a namespace object count under the op's own name
    wrap_all(ivy.backend_namespace(backend), "")
    return counts


class _Progress:
    """A pytest plugin that reports how many of the collected tests have run."""

    def __init__(self) -> None:
        self.total, self.done, self.failed = 0, 0, []

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.failed:
            self.failed.append(report.nodeid)

    def pytest_collection_modifyitems(self, items: list[Any]) -> None:
        self.total = len(items)
        progress(0, max(self.total, 1))

    def pytest_runtest_logfinish(self, nodeid: str, location: Any) -> None:
        self.done += 1
        if self.done % 5 == 0 or self.done == self.total:
            progress(self.done, max(self.total, 1))


def count_library(backend: str, library: str) -> dict[str, Any]:
    """Child: runs ``library``'s tests on ``backend`` with counting wrappers."""
    import pytest

    counts = install_counters(backend, (library,))
    folder = os.path.join(ROOT, "libs", library.replace("_", "-"), "tests")
    plugin = _Progress()
    code = pytest.main(
        # the compile tests are left out: torch.compile(fullgraph=True) cannot trace the counting
        # wrapper (it reads the caller's frame), and a compiled call repeats the eager test's calls
        [
            folder,
            "--backend",
            backend,
            "-q",
            "-p",
            "no:cacheprovider",
            "--no-header",
            "-W",
            "ignore",
            "-k",
            "not compile",
        ],
        plugins=[plugin],
    )
    return {
        "library": library,
        "backend": backend,
        "tests": plugin.total,
        "pytest_exit": int(code),
        "failed": plugin.failed,
        "counts": {name: n for (_, name), n in counts.most_common()},
    }


def count_demo(backend: str, steps: int) -> dict[str, Any]:
    """Child: ``steps`` eager planning steps of the drone demo with counting wrappers."""
    import importlib.util

    counts = install_counters(backend, (*LIBRARIES, DEMO))
    spec = importlib.util.spec_from_file_location(DEMO, os.path.join(ROOT, "examples", f"{DEMO}.py"))
    assert spec is not None and spec.loader is not None
    demo = importlib.util.module_from_spec(spec)
    sys.modules[DEMO] = demo
    spec.loader.exec_module(demo)
    planner = demo.DronePlanner(backend)
    anchors = planner.initial_anchors()
    for k in range(steps):
        anchors = demo.descent_step(planner.cost_terms, anchors, demo.DEFAULT_LR)[0]
        progress(k + 1, steps)
    per_package: collections.Counter = collections.Counter()
    total: collections.Counter = collections.Counter()
    for (pkg, name), n in counts.items():
        per_package[pkg] += n
        total[name] += n
    return {
        "library": "drone demo",
        "backend": backend,
        "steps": steps,
        "counts": dict(total.most_common()),
        "by_package": dict(per_package),
    }


def sources_hash(backend: str) -> str:
    """A hash of what the counts depend on: the libraries' sources and tests, the demo."""
    h = hashlib.sha256(backend.encode())
    paths = [os.path.join(ROOT, "examples", f"{DEMO}.py"), os.path.abspath(__file__)]
    for lib in LIBRARIES:
        base = os.path.join(ROOT, "libs", lib.replace("_", "-"))
        for sub in ("src", "tests"):
            for dirpath, _, files in os.walk(os.path.join(base, sub)):
                paths += [os.path.join(dirpath, f) for f in files if f.endswith(".py")]
    for p in sorted(paths):
        if os.path.exists(p):
            h.update(p.encode())
            with open(p, "rb") as f:
                h.update(f.read())
    return h.hexdigest()[:16]


def load_cache(key: str | None) -> dict[str, Any] | None:
    """The cached count if it was made of these sources (``key``), or any cached count (``None``)."""
    try:
        with open(CACHE) as f:
            cached = json.load(f)
    except (OSError, ValueError):
        return None
    return cached if key is None or cached.get("key") == key else None


def save_cache(result: dict[str, Any]) -> None:
    os.makedirs(os.path.dirname(CACHE), exist_ok=True)
    with open(CACHE, "w") as f:
        json.dump(result, f, indent=1)


def importable(library: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(library) is not None


def run_stage(cfg: dict[str, Any], bar: Any) -> dict[str, Any]:
    """Parent: the counts of every importable library and of the demo (or the cached counts)."""
    from benchmarks._common import ChildError, child_env, run_child

    backend = cfg.get("usage_backend", "torch")
    # the counts depend on the sources only, and take a quarter of an hour: a count of the same
    # sources is reused, and one of older sources too (the report says so); --recount counts again
    if not cfg.get("recount"):
        if (cached := load_cache(sources_hash(backend))) is not None:
            bar.close("cached count of these sources")
            return {**cached, "cached": True}
        if (cached := load_cache(None)) is not None:
            bar.close("cached count of older sources")
            return {**cached, "cached": True, "stale": True}
    key = sources_hash(backend)
    libs = [lib for lib in LIBRARIES if importable(lib)]
    parts = [*libs, DEMO]
    # the small deterministic hypothesis profile: the same examples, so the same counts, every run
    env = child_env(backend, HYPOTHESIS_PROFILE="ci")
    out: dict[str, Any] = {
        "key": key,
        "backend": backend,
        "libraries": {},
        "errors": {},
        "missing": [lib for lib in LIBRARIES if lib not in libs],
    }
    for i, part in enumerate(parts):

        def report(f: float, i: int = i, part: str = part) -> None:
            bar.update((i + f) / len(parts), part)

        try:
            if part == DEMO:
                out["demo"] = run_child(
                    "benchmarks.bench_usage", "count_demo", {"backend": backend, "steps": 3}, report, env=env
                )
            else:
                out["libraries"][part] = run_child(
                    "benchmarks.bench_usage", "count_library", {"backend": backend, "library": part}, report, env=env
                )
        except ChildError as e:
            out["errors"][part] = str(e)
    bar.close()
    if not out["errors"]:
        save_cache(out)
    return out


if __name__ == "__main__":
    sys.exit(os.system(f"{sys.executable} -m benchmarks.run --stages usage " + " ".join(sys.argv[1:])) >> 8)
