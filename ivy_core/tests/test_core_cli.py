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
    make_fake_dist(
        root,
        "ivy-broken",
        {"broken": "ivy_broken_fake"},
        {"ivy_broken_fake": "import ivy_doctor_framework_that_is_not_installed\n"},
    )
    return root


# --------------------------------------------------------------------------- smoke check, versions

# A fake backend over Python lists. BROKEN_ADD: its add fails as a framework without a C compiler
# does; SMOKE: source of BackendImpl.smoke; DISTS: BackendSpec.framework_distributions.
_LISTS = """
from ivy.plugin import BackendImpl, BackendSpec, hookimpl

@hookimpl
def ivy_register_backends(register):
    register(BackendSpec(name={name!r}, array_modules=({mod!r},), load="{mod}:load",
                         framework_distributions={dists!r}))

class Arr(list):
    pass

def asarray(obj, /, *, dtype=None, device=None, copy=None):
    return Arr(obj)

def add(x1, x2, /):
    if {broken_add!r}:
        raise RuntimeError("no C compiler found to build the kernel")
    return Arr(a + b for a, b in zip(x1, x2))

def to_list(x, /):
    return list(x)

def _fail():
    raise RuntimeError("the device was lost")

def load():
    import {fw}
    return BackendImpl(ops={{"asarray": asarray, "add": add, "to_list": to_list}}, array_types=(Arr,),
                       dtypes={{}}, default_dtypes={{}}, devices=lambda: ["cpu"], default_device=lambda: "cpu",
                       framework={fw}, smoke={smoke})
"""


@pytest.fixture(scope="module")
def lists_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three fake backends: one that computes, one whose framework cannot compute (its add
    fails), one whose own smoke hook fails; their framework, a distribution of its own (version
    3.2.1, no ``__version__``), which the first plugin requires at >=4."""
    root = tmp_path_factory.mktemp("lists-site")
    make_fake_dist(root, "fakelists-fw", {}, {"fakelists_fw": "# a framework without __version__\n"}, version="3.2.1")
    cases = {
        "listsok": dict(broken_add=False, smoke="None", dists=("fakelists-fw",)),
        "listsnocc": dict(broken_add=True, smoke="None", dists=()),
        "listslost": dict(broken_add=False, smoke="_fail", dists=()),
    }
    for name, kw in cases.items():
        src = _LISTS.format(name=name, mod=f"ivy_{name}", fw="fakelists_fw", **kw)
        info = make_fake_dist(root, f"ivy-{name}", {name: f"ivy_{name}"}, {f"ivy_{name}": src})
        if name == "listsok":
            meta = info / "METADATA"
            meta.write_text(meta.read_text() + "Requires-Dist: fakelists-fw>=4,<5\n")
    return root


def doctor(
    *args: str, paths: tuple[Path, ...] = (), env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k not in ("IVY_PURE_PYTHON", "IVY_BACKEND")}
    full.update(env or {})
    full["PYTHONPATH"] = os.pathsep.join([*map(str, paths), full.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "ivy", "doctor", *args],
        capture_output=True,
        text=True,
        env=full,
        timeout=900,
        cwd=tempfile.gettempdir(),
    )


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
    out = run_json(
        f"""
import sys, contextlib, io
from ivy._cli import main
with contextlib.redirect_stdout(io.StringIO()):
    rc_list = main(["doctor", "--no-load"])
    rc_load = main(["doctor", "--backend", "toy"])
emit({{"rc": [rc_list, rc_load], "frameworks": sorted(n for n in {FRAMEWORKS!r} if n in sys.modules)}})
""",
        [toy_site],
    )
    assert out == {"rc": [0, 0], "frameworks": []}


def _ivy_cmd(*args: str, paths: tuple[Path, ...] = ()) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k not in ("IVY_PURE_PYTHON", "IVY_BACKEND")}
    full["PYTHONPATH"] = os.pathsep.join([*map(str, paths), full.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "ivy", *args],
        capture_output=True,
        text=True,
        env=full,
        timeout=900,
        cwd=tempfile.gettempdir(),
    )


def test_plugins_lists_status_coverage_and_broken_plugins(toy_site: Path, broken_site: Path, lists_site: Path) -> None:
    import json

    import ivy

    proc = _ivy_cmd("plugins", "--json", "--no-load", paths=(toy_site, broken_site))
    rows = {r["name"]: r for r in json.loads(proc.stdout)}
    assert set(ivy.backends()) | {"toy", "broken"} <= set(rows)
    assert rows["toy"]["distribution"] == "ivy-toy 0.1.0" and rows["toy"]["status"] == "not loaded"
    assert (
        rows["broken"]["status"].startswith("broken:")
        and "ivy_doctor_framework_that_is_not_installed" in rows["broken"]["status"]
    )
    assert proc.returncode == 1  # a broken plugin
    # loading the toy backend (no framework: quick) gives its coverage of the spec
    from ivy._spec import SPECS

    # (named: loading every installed backend would import every framework)
    proc = _ivy_cmd("plugins", "toy", "listsok", "listsnocc", paths=(toy_site, lists_site))
    assert "numpy:" not in proc.stdout  # only the backends named
    # a plugin that loads but whose smoke check fails is broken
    nocc = proc.stdout.split("listsnocc: ivy-listsnocc 0.1", 1)[1].split("\n\n")[0]
    assert "status:     broken: it loads, but its smoke check fails: RuntimeError: no C compiler" in nocc, nocc
    ok = proc.stdout.split("listsok: ivy-listsok 0.1", 1)[1].split("\n\n")[0]
    assert "framework:  fakelists-fw 3.2.1" in ok, ok
    block = proc.stdout.split("toy: ivy-toy 0.1.0", 1)[1].split("\n\n")[0]
    assert "status:     ok" in block
    cov = [line for line in block.splitlines() if "coverage:" in line][0]
    assert f"/{len(SPECS)} spec ops implemented" in cov and "composed by core" in cov
    # a name no backend has: the names found, and exit status 2
    proc = _ivy_cmd("plugins", "toy", "no_such_backend", paths=(toy_site,))
    assert proc.returncode == 2 and "no backend named 'no_such_backend'" in proc.stderr and "toy" in proc.stderr


def test_plugins_reports_two_plugins_claiming_one_module(toy_site: Path, tmp_path: Path) -> None:
    make_fake_dist(
        tmp_path,
        "ivy-toy-twin",
        {"toytwin": "ivy_toy_twin"},
        {
            "ivy_toy_twin": (
                "from ivy.plugin import BackendSpec, hookimpl\n"
                "@hookimpl\n"
                "def ivy_register_backends(register):\n"
                "    register(BackendSpec(name='toytwin', array_modules=('ivy_toy',), load='ivy_toy._backend:load'))\n"
            )
        },
    )
    proc = _ivy_cmd("plugins", "--no-load", paths=(toy_site, tmp_path))
    assert "CONFLICT:   the arrays of 'ivy_toy' are claimed by toytwin too" in proc.stdout
    assert proc.returncode == 1


def test_version_ranges_are_checked() -> None:
    from ivy._cli import _satisfies

    assert _satisfies("2.13.0+cpu", ">=2.13,<3") and not _satisfies("2.12.1", ">=2.13,<3")
    assert _satisfies("0.10.2", ">=0.10,<0.11") and not _satisfies("0.11.0", ">=0.10,<0.11")
    assert _satisfies("3.3.1", "==3.3.*") and not _satisfies("3.4.0", "==3.3.*")


def test_doctor_runs_the_smoke_check_and_reads_versions_from_metadata(lists_site: Path) -> None:
    proc = doctor("--backend", "listsok", "--backend", "listsnocc", "--backend", "listslost", paths=(lists_site,))
    lines = {line.split()[0]: line for line in proc.stdout.splitlines() if line.startswith("  ")}
    ok, nocc, lost = lines["listsok"], lines["listsnocc"], lines["listslost"]
    # the framework's version from its distribution's metadata (the module has no __version__)
    assert "loads       fakelists-fw 3.2.1" in ok, proc.stdout
    assert "smoke check ok" in ok, proc.stdout
    # the framework loads, but cannot compute: reported, with the framework's error
    assert "BROKEN" in nocc, proc.stdout
    assert "smoke check fails: RuntimeError: no C compiler found to build the kernel" in nocc, proc.stdout
    # the plugin's own smoke hook is what runs when it has one
    assert "smoke check fails: RuntimeError: the device was lost" in lost, proc.stdout
    # the version range the plugin requires, checked against the metadata
    assert "warning: ivy-listsok is tested with fakelists-fw>=4,<5, but fakelists-fw 3.2.1 is installed" in proc.stdout
    assert "3 problem(s) found" in proc.stdout, proc.stdout
    assert proc.returncode == 1
