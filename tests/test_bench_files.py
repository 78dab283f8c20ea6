"""The safetensors loading benchmark (``benchmarks/bench_files.py``) on the session's backend: both
loaders, Ivy's and the ``safetensors`` package's for that framework, give the same tensors (the
script checks them against the saved NumPy arrays before it times anything), and its table lists
the backend with its figures. No figure is checked (timings vary)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:  # (benchmarks/ is a folder of the repository, not an installed package)
    sys.path.insert(0, ROOT)

from benchmarks import bench_files


def test_bench_files_loads_what_the_reference_loads(backend: str) -> None:
    if backend not in bench_files.REFERENCE:
        pytest.skip(f"the safetensors package has no loader for {backend}")
    pytest.importorskip(f"safetensors.{bench_files.REFERENCE[backend]}")
    r = bench_files.measure(backend, rounds=1)
    assert set(r) == {"ivy_ms", "reference_ms", "ratio"} and all(v > 0 for v in r.values()), r


def test_bench_files_prints_a_row_per_backend(backend: str) -> None:
    if backend != "numpy":
        pytest.skip("the command runs once, in the numpy test process")
    pytest.importorskip("safetensors.numpy")
    p = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_files", "--backends", "numpy", "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert p.returncode == 0, p.stderr[-2000:]
    (row,) = [line.split() for line in p.stdout.splitlines() if line.startswith("numpy")]
    assert len(row) == 4 and all(float(v) > 0 for v in row[1:]), p.stdout
