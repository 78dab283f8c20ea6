"""The conformance kit's machinery (the pytest plugin ``ivy.testing``): its profiles, its progress
lines and per-test time budget, and how its suite states facts. Each run is a pytest process on a
small test file of its own, outside the repository (no pytest.ini of ours applies)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SUITE = Path(__file__).resolve().parents[1] / "src" / "ivy" / "testing"

_COUNTING = """
import pytest
from hypothesis import given, strategies as st

SEEN = []


@given(st.integers())
def test_draws(x):
    SEEN.append(x)


def test_report_the_draws():  # (runs after test_draws: pytest keeps the file's order)
    print(f"@@examples {len(SEEN)}@@")


@pytest.mark.ivy_slow
def test_marked_slow():
    pass
"""


def _pytest(
    tmp_path: Path, source: str, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_probe.py").write_text(textwrap.dedent(source))
    full = {k: v for k, v in os.environ.items() if k not in ("HYPOTHESIS_PROFILE", "CI", "IVY_TEST_BACKEND")}
    full.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "ivy.testing", "-p", "no:cacheprovider", "-q", "-s", "-rs", *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=full,
        timeout=900,
    )


@pytest.mark.parametrize(("profile", "examples", "slow_runs"), [("quick", 2, False), ("ci", 6, True)])
def test_profiles_set_the_examples_and_the_slow_tests(
    tmp_path: Path, profile: str, examples: int, slow_runs: bool
) -> None:
    proc = _pytest(tmp_path, _COUNTING, "--ivy-profile", profile)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"@@examples {examples}@@" in proc.stdout, proc.stdout
    if slow_runs:
        assert "3 passed" in proc.stdout, proc.stdout
    else:
        assert "2 passed, 1 skipped" in proc.stdout, proc.stdout
        assert "a slow test: the quick profile skips it" in proc.stdout, proc.stdout


def test_profile_from_the_environment_and_a_wrong_name(tmp_path: Path) -> None:
    proc = _pytest(tmp_path, _COUNTING, env={"HYPOTHESIS_PROFILE": "quick"})
    assert "@@examples 2@@" in proc.stdout, proc.stdout
    proc = _pytest(tmp_path, _COUNTING, env={"HYPOTHESIS_PROFILE": "fastest"})
    assert proc.returncode == 4, proc.stdout + proc.stderr  # a usage error
    assert "unknown Ivy test profile 'fastest'" in proc.stderr, proc.stderr


_SLOW = """
import time


def test_quick():
    pass


def test_sleeps():
    time.sleep(2.0)  # at least 2 s, however busy the machine: over any budget below it


def test_quick_too():
    pass
"""


def test_budget_names_a_slow_test_while_it_runs_and_at_the_end(tmp_path: Path) -> None:
    proc = _pytest(tmp_path, _SLOW, "--ivy-budget", "0.5", "--ivy-progress", "0")
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr  # the budget reports, it never fails a test
    # (while it runs: the line names the time it has taken, a multiple of the budget)
    running = [line for line in out.splitlines() if line.startswith("ivy.testing: still running after ")]
    assert running, out
    assert all(line.endswith(" s (budget 0.5 s): test_probe.py::test_sleeps") for line in running), running
    assert "ivy.testing: slow test: test_probe.py::test_sleeps took" in out, out
    summary = out.split("ivy.testing: tests over the time budget of 0.5 s", 1)[1]
    assert "test_probe.py::test_sleeps" in summary, out
    assert "test_quick" not in summary, out  # only the slow one is listed


def test_progress_lines_count_the_tests(tmp_path: Path) -> None:
    proc = _pytest(tmp_path, _SLOW.replace("2.0", "0.01"), "--ivy-progress", "0.000001", "--ivy-budget", "0")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for done in ("1/3 tests done (33%)", "2/3 tests done (66%)", "3/3 tests done (100%)"):
        assert done in proc.stdout, proc.stdout
    assert "still running" not in proc.stdout, proc.stdout  # --ivy-budget 0: off


def _assertions() -> list[tuple[str, int, ast.Assert]]:
    out = []
    for path in sorted([*(SUITE / "suite").glob("*.py"), *(SUITE / "_helpers").glob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assert):
                out.append((path.name, node.lineno, node))
    return out


def test_the_suite_asserts_one_fact_at_a_time_with_a_message() -> None:
    found = _assertions()
    assert len(found) > 100, "the scan reads the suite"
    compound = [f"{f}:{n}" for f, n, a in found if isinstance(a.test, ast.BoolOp) and isinstance(a.test.op, ast.And)]
    assert not compound, f"an assertion joins facts with `and` (say which one failed: one assertion each): {compound}"
    chained = [f"{f}:{n}" for f, n, a in found if isinstance(a.test, ast.Compare) and len(a.test.ops) > 1]
    assert not chained, f"a chained comparison states two facts: {chained}"
    silent = [f"{f}:{n}" for f, n, a in found if a.msg is None]
    assert not silent, (
        "an assertion without a message (name the op, the expected and the actual value, e.g. with "
        f"ivy.testing._helpers.facts.expect): {silent}"
    )
