"""``python -m ivy doctor``, run in subprocesses: what it says about dispatch and backends.

Only the toy backend and a broken fake one are loaded (no framework: these tests stay quick); the
real backends are listed with ``--no-load``.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from ivy_core_tests_support import make_fake_dist, run_json

FRAMEWORKS = ("numpy", "torch", "jax", "jaxlib", "tensorflow", "paddle")


@pytest.fixture(scope="module")
def broken_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with an installed backend plugin whose import fails (a framework it lacks)."""
    root = tmp_path_factory.mktemp("broken-site")
    make_fake_dist(root, "ivy-broken", {"broken": "ivy_broken_fake"},
                   {"ivy_broken_fake": "import ivy_doctor_framework_that_is_not_installed\n"})
    return root


def doctor(*args: str, paths: tuple[Path, ...] = (), env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k not in ("IVY_PURE_PYTHON", "IVY_BACKEND")}
    full.update(env or {})
    full["PYTHONPATH"] = os.pathsep.join([*map(str, paths), full.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-m", "ivy", "doctor", *args], capture_output=True, text=True,
                          env=full, timeout=120, cwd=tempfile.gettempdir())


def test_doctor_names_the_dispatch_path_and_lists_backends(toy_site: Path) -> None:
    import ivy

    proc = doctor("--no-load", paths=(toy_site,))
    assert proc.returncode == 0, proc.stderr
    built = importlib.util.find_spec("ivy._cdispatch") is not None
    expected = "dispatch: C (ivy._cdispatch" if built else "dispatch: pure Python (ivy._cdispatch"
    assert expected in proc.stdout
    listed = [line.split()[0] for line in proc.stdout.splitlines() if line.startswith("  ")]
    assert "toy" in listed and set(ivy.backends()) <= set(listed)
    assert "ivy-toy 0.1.0" in proc.stdout


def test_doctor_says_why_dispatch_is_pure_python() -> None:
    proc = doctor("--no-load", env={"IVY_PURE_PYTHON": "1"})
    assert proc.returncode == 0, proc.stderr
    assert "dispatch: pure Python (IVY_PURE_PYTHON is set" in proc.stdout


def test_doctor_loads_each_backend_and_reports_failures(toy_site: Path, broken_site: Path) -> None:
    proc = doctor("--backend", "toy", "--backend", "broken", paths=(toy_site, broken_site))
    lines = {line.split()[0]: line for line in proc.stdout.splitlines() if line.startswith("  ")}
    assert " loads " in lines["toy"], proc.stdout
    assert "FAILS" in lines["broken"] and "ivy_doctor_framework_that_is_not_installed" in lines["broken"]
    assert "ivy-broken 0.1" in lines["broken"]
    assert proc.returncode == 1


def test_doctor_unknown_backend_is_an_error() -> None:
    proc = doctor("--no-load", "--backend", "no_such_backend")
    assert proc.returncode == 1
    assert "no backend named 'no_such_backend' is installed" in proc.stdout


def test_doctor_imports_no_framework_itself(toy_site: Path) -> None:
    # Loading happens in child processes: the doctor's own process stays framework-free.
    out = run_json(f"""
import sys, contextlib, io
from ivy._cli import main
with contextlib.redirect_stdout(io.StringIO()):
    rc_list = main(["doctor", "--no-load"])
    rc_load = main(["doctor", "--backend", "toy"])
emit({{"rc": [rc_list, rc_load], "frameworks": sorted(n for n in {FRAMEWORKS!r} if n in sys.modules)}})
""", [toy_site])
    assert out == {"rc": [0, 0], "frameworks": []}
