"""The ``native_models`` benchmark stage runs in its quick mode: through the runner's own dispatch,
on the session's backend, for one of its models (the slow compilers left out), and its section of
the report renders what it measured. No figure is checked (timings vary): the structure, the
parameter counts of each Ivy model and its native twin, and the compile times' presence."""

from __future__ import annotations

import os
import sys
from typing import Any

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:  # (benchmarks/ is a folder of the repository, not an installed package)
    sys.path.insert(0, ROOT)

from benchmarks import _native_models, bench_native_models, run

MODELS = ["mlp"]  # one model: the stage's machinery is the same for each (its cost is the test budget's)


class _Bar:
    def __init__(self) -> None:
        self.fractions: list[float] = []
        self.closed = False

    def update(self, fraction: float, note: str | None = None) -> None:
        self.fractions.append(fraction)

    def close(self, note: str = "") -> None:
        self.closed = True


def test_bench_native_models_quick_stage_runs(autodiff):
    backend = autodiff
    assert "native_models" in run.STAGES
    cfg = {"quick": True, "backends": [backend], "models": MODELS, "skip_slow_compile": True}
    lines: list[str] = []
    bar = _Bar()
    r: dict[str, Any] = bench_native_models.run_stage(cfg, bar, log=lines.append)
    assert r["errors"] == {}, r["errors"]
    assert bar.closed and bar.fractions and max(bar.fractions) <= 1.0
    assert [ln.split("(")[0].split(": ")[1].strip() for ln in lines] == [f"{backend} {m}" for m in MODELS]
    got = r["backends"][backend]
    assert list(got) == MODELS
    slow = backend in bench_native_models.SLOW_COMPILERS
    modes = (["eager"] if backend != "jax" else []) + ([] if slow else ["compiled"])
    for kind in MODELS:
        res = got[kind]
        assert res["params"] == res["native_params"] > 1000  # the same architecture on both sides
        assert sorted(m for m in ("eager", "compiled") if m in res) == sorted(modes)
        for mode in modes:
            m = res[mode]
            assert m["ivy_ms"] > 0 and m["native_ms"] > 0
            assert m["q1"] <= m["ratio"] <= m["q3"]
            assert ("ivy_compile_s" in m) is (mode == "compiled")
    section = bench_native_models.report_section({"stages": {"native_models": {"result": r}}})
    rows = [ln for ln in section.splitlines() if ln.startswith(("| mlp ", "| cnn "))]
    assert len(rows) == len(MODELS) * len(modes)
    assert ("Compiled steps not measured on" in section) is slow


def test_bench_native_models_runner_dispatches_the_stage(monkeypatch):
    seen: dict[str, Any] = {}
    monkeypatch.setattr(bench_native_models, "run_stage", lambda cfg, bar: seen.setdefault("cfg", cfg))
    assert run.run_stage("native_models", {"backends": ["torch"]}, _Bar()) == {"backends": ["torch"]}
    assert run.TITLES["native_models"] and run.EXPECTED["native_models"]


def test_bench_native_models_rejects_a_different_parameter_count():
    _native_models.check_params("torch", "lstm", 100, 100 + 4 * _native_models.SIZES["hidden"])
    with pytest.raises(SystemExit, match="not the same architecture"):
        _native_models.check_params("torch", "mlp", 100, 101)


def test_bench_native_models_report_lists_a_failed_row_apart():
    row = {"ivy_ms": 2.0, "native_ms": 1.0, "ratio": 2.0, "q1": 1.9, "q3": 2.1}
    r = {
        "rounds": 3,
        "steps_per_round": 2,
        "target": 1.05,
        "native": _native_models.NATIVE,
        "backends": {
            "torch": {"lstm": {"params": 5, "native_params": 7, "eager": row, "compiled": {"error": "Boom: no"}}}
        },
        "errors": {},
    }
    assert bench_native_models.failures(r) == [("torch", "lstm", "compiled", "Boom: no")]
    section = bench_native_models.report_section({"stages": {"native_models": {"result": r}}})
    assert "| lstm | torch | eager | 5 (7) |" in section and "2.000 ✗" in section
    assert "lstm on torch, compiled: failed: Boom: no" in section
    assert "| torch | 2.00 (0/1 met) | - |" in section
