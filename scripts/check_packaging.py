#!/usr/bin/env python3
"""Packaging check: build every distribution and use each one as a new user would.

    .venv/bin/python scripts/check_packaging.py             # everything
    .venv/bin/python scripts/check_packaging.py torch core  # only these targets
    .venv/bin/python scripts/check_packaging.py --help      # options (--keep, --offline...)

1. Builds the sdist of every distribution (``ivy_core``, ``plugins/ivy-*``, ``libs/ivy-*``, found
   by globbing), then its wheel *from that sdist* (so the sdist is known to be complete), with the
   oldest setuptools that ``[build-system] requires`` allows (so that bound is true). ivy-core's
   sdist is also built by ``pip wheel`` (build isolation) with ``CC=false``: the build must print
   its one-line notice and give a wheel without the C extension.
2. Fills a persistent wheelhouse of third-party wheels (``pip download -c constraints.txt``, once
   per set of requirements, constraints and Python; ``$IVY_WHEELHOUSE``, default
   ``$XDG_CACHE_HOME/ivy-packaging``), so that every install below runs offline (``--no-index``).
   A plugin with a ``constraints.txt`` of its own (ivy-mxnet: MXNet 1.9 needs numpy<1.24) has its
   wheels downloaded, and its venv installed, under those pins instead, with a Python they have
   wheels for (``OWN_PYTHONS``: this one if it fits, else ``$IVY_<BACKEND>_PYTHON`` or
   ``python3.X`` on PATH, with an ivy-core wheel built for it; if none is found, the target is
   SKIPped, saying why).
3. For each target, a fresh venv holding only what the target declares, installed from those
   wheels, and a smoke run in it:
   * ``core``: ivy-core alone: no backend, clear ``BackendNotInstalledError``s, C dispatch,
     ``ivy doctor``;
   * ``core-no-cc``: the compiler-less ivy-core wheel with ivy-numpy: pure-Python dispatch works;
   * each plugin (``numpy``, ``torch``, ``mxnet``...; tensorflow and paddle with their ``[cpu]``
     extra): a few ops, ``ivy.to_numpy``, a gradient, ``ivy.compile``, an ``ivy.Module`` with an
     optimizer step, native-module interop; what a backend does not offer (NumPy: gradients,
     compiler, native modules; MXNet: compiler, native modules), as Ivy answers it, is skipped and
     named in the result; ``jax-flax``: ivy-jax[flax] wrapping a flax module;
     ``tensorflow-bare``, ``paddle-bare``: the plugin without its framework extra fails to load
     with an error naming the extra;
   * each library: the library (its Ivy dependencies come from the built wheels) with ivy-numpy:
     importing it imports no framework, and one function is called.
   Every venv also gets an import audit: each ``import`` in the distribution's own modules must be
   the standard library, the distribution itself, or one of its declared requirements.

Standard library only. Prints one line per stage with its time and a final table; exits with 1
when anything failed, showing the end of that stage's log.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import venv
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONSTRAINTS = ROOT / "constraints.txt"
#: plugins whose pins cannot share constraints.txt keep their own (``<plugin>/constraints.txt``),
#: and some of those pins have wheels for older Pythons only: MXNet 1.9 needs numpy<1.24, which
#: has none past 3.11. Their venv takes the first of this interpreter, ``$IVY_<BACKEND>_PYTHON``,
#: ``python3.X`` on PATH whose version is listed here (newest first).
OWN_PYTHONS = {"ivy-mxnet": ("3.11", "3.10")}
#: the oldest setuptools series the projects' build requirements allow (``license = "..."``
#: strings need 77): the builds run with it, so that lower bound is known to be true
SETUPTOOLS_FLOOR = 77
BUILD_TOOLS = [f"setuptools~={SETUPTOOLS_FLOOR}.0"]
#: tensorflow and paddle choose their framework build by extra; the check installs the CPU one
FRAMEWORK_EXTRA = "cpu"
#: where a library's smoke run calls one function (module name -> code, with ``lib`` and ``np``)
#: (a library missing here is only imported, and the run says so)
LIBRARY_CALLS = {
    "ivy_mech": "R = lib.euler_to_rot_mat(np.array([0.1, 0.2, 0.3]))\n"
    "assert R.shape == (3, 3) and np.allclose(R @ R.T, np.eye(3)), R",
    "ivy_vision": "K = lib.focal_lengths_and_pp_offsets_to_calib_mat(np.array([2.0, 3.0]), np.array([0.5, 0.25]))\n"
    "assert np.allclose(K, [[2, 0, 0.5], [0, 3, 0.25], [0, 0, 1]]), K",
    "ivy_gym": "env = lib.CartPole(backend='numpy')\n"
    "obs, _ = env.reset(seed=0)\n"
    "obs, reward, terminated, truncated, _ = env.step(env.action_space.sample())\n"
    "assert obs.shape == env.observation_space.shape and np.isfinite(reward), (obs, reward)",
}
_START = time.perf_counter()
_print_lock = threading.Lock()


def say(stage: str, target: str, status: str, seconds: float | None = None, note: str = "") -> None:
    took = f"{seconds:6.1f}s" if seconds is not None else " " * 7
    with _print_lock:
        print(
            f"[{time.perf_counter() - _START:6.1f}s] {stage:<9} {target:<16} {status:<5} {took}  {note}".rstrip(),
            flush=True,
        )


class StageError(Exception):
    """A stage failed; ``log`` is the file holding its whole output."""

    def __init__(self, message: str, log: Path | None = None):
        super().__init__(message)
        self.log = log


def run(
    cmd: list[str],
    log: Path,
    *,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    timeout: float = 900,
    what: str = "",
) -> str:
    """Run ``cmd``, appending its output to ``log``; raise :class:`StageError` if it fails."""
    with open(log, "a") as f:
        f.write(f"$ {' '.join(map(str, cmd))}\n")
        f.flush()
        try:
            proc = subprocess.run(
                cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=cwd, timeout=timeout
            )
        except subprocess.TimeoutExpired as e:
            f.write(f"{e.output or ''}\n!! timed out after {timeout:g} s\n")
            raise StageError(f"{what or cmd[0]} timed out after {timeout:g} s", log) from None
        f.write(proc.stdout + f"\n(exit status {proc.returncode})\n")
    if proc.returncode != 0:
        raise StageError(f"{what or cmd[0]} failed (exit status {proc.returncode})", log)
    return proc.stdout


def clean_env(**extra: str) -> dict[str, str]:
    """The environment of installs and smoke runs: nothing from this checkout or its venv leaks in."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PIP_", "PYTHON", "IVY_")) and k not in ("VIRTUAL_ENV", "CC", "LDSHARED")
    }
    env.update(PYTHONNOUSERSITE="1", PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1", TF_CPP_MIN_LOG_LEVEL="2")
    env.update(extra)
    return env


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


# --------------------------------------------------------------------------- metadata


@dataclass
class Wheel:
    """A built wheel: its path and what its metadata declares."""

    path: Path
    name: str
    requires: list[str]  # Requires-Dist lines
    entry_points: dict[str, list[str]]  # group -> names
    files: list[str]

    @classmethod
    def read(cls, path: Path) -> Wheel:
        with zipfile.ZipFile(path) as z:
            files = z.namelist()
            info = next(f.split("/")[0] for f in files if f.endswith(".dist-info/METADATA"))
            meta = z.read(f"{info}/METADATA").decode()
            eps_text = z.read(f"{info}/entry_points.txt").decode() if f"{info}/entry_points.txt" in files else ""
        headers = meta.split("\n\n", 1)[0].splitlines()
        name = next(h.split(":", 1)[1].strip() for h in headers if h.startswith("Name:"))
        requires = [h.split(":", 1)[1].strip() for h in headers if h.startswith("Requires-Dist:")]
        eps: dict[str, list[str]] = {}
        group = ""
        for line in eps_text.splitlines():
            line = line.strip()
            if line.startswith("["):
                group = line.strip("[]")
                eps[group] = []
            elif "=" in line and group:
                eps[group].append(line.split("=", 1)[0].strip())
        return cls(path, name, requires, eps, files)

    def requirements(self, extras: tuple[str, ...] = ()) -> list[tuple[str, str]]:
        """``[(canonical name, requirement for pip)]`` of the base dependencies plus ``extras``."""
        out = []
        for req in self.requires:
            spec, _, marker = req.partition(";")
            m = re.search(r"""extra\s*==\s*["']([^"']+)["']""", marker)
            if m and m.group(1) not in extras:
                continue
            marker = re.sub(r"""(\band\s+)?extra\s*==\s*["'][^"']+["'](\s+and\b)?""", "", marker).strip()
            name = canonical(re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", spec).group(1))
            out.append((name, spec.strip() + (f"; {marker}" if marker else "")))
        return out

    @property
    def extras(self) -> set[str]:
        return {m.group(1) for r in self.requires if (m := re.search(r"""extra\s*==\s*["']([^"']+)["']""", r))}


@dataclass
class Project:
    """A distribution of the monorepo: its source folder and kind (core, plugin, library)."""

    label: str
    src: Path
    kind: str
    sdist: Path | None = None
    wheel: Wheel | None = None
    error: StageError | None = None  # a library whose build failed (the others go on)


def discover() -> list[Project]:
    projects = [Project("ivy-core", ROOT / "ivy_core", "core")]
    for kind, folder in (("plugin", "plugins"), ("library", "libs")):
        for p in sorted((ROOT / folder).glob("ivy-*")):
            if (p / "pyproject.toml").is_file():
                projects.append(Project(p.name, p, kind))
    return projects


# --------------------------------------------------------------------------- wheelhouse


class Wheelhouse:
    """A folder of third-party wheels, filled by ``pip download`` once per set of requirements."""

    def __init__(self, path: Path, offline: bool):
        self.path = path
        self.offline = offline
        self.path.mkdir(parents=True, exist_ok=True)
        self._stamps = self.path / ".ivy-stamps.json"
        self._lock = threading.Lock()

    def ensure(
        self,
        requirements: list[str],
        log: Path,
        label: str,
        constraints: Path = CONSTRAINTS,
        python: Interpreter | None = None,
    ) -> None:
        """Download ``requirements`` (one resolution, under ``constraints``, for ``python``:
        default this interpreter) unless every one of them was downloaded before with the same
        constraints and Python."""
        reqs = sorted(set(requirements))
        version = python.version if python else sys.version
        key = hashlib.sha256((constraints.read_text() + version).encode()).hexdigest()[:16]
        with self._lock:
            stamps = json.loads(self._stamps.read_text()) if self._stamps.exists() else {}
            if not isinstance(stamps, dict):
                stamps = {}
            if set(reqs) <= set(stamps.get(key, [])):
                say("wheels", label, "ok", 0.0, f"cached in {self.path}")
                return
            if self.offline:
                raise StageError(f"--offline, and the wheelhouse {self.path} lacks some of: {', '.join(reqs)}")
            t = time.perf_counter()
            # The user's pip configuration (index, find-links) applies here: this is the only step
            # that reaches a package index.
            env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
            run(
                [
                    sys.executable,
                    "-m",
                    "pip",
                    # pip runs under that interpreter: its tags and markers choose the wheels
                    *(["--python", str(python.path)] if python else []),
                    "download",
                    "-q",
                    "--prefer-binary",
                    "-d",
                    str(self.path),
                    "-c",
                    str(constraints),
                    *reqs,
                ],
                log,
                env=env,
                what="pip download",
                timeout=1800,
            )
            stamps[key] = sorted(set(stamps.get(key, [])) | set(reqs))
            self._stamps.write_text(json.dumps(stamps, indent=1))
            say("wheels", label, "ok", time.perf_counter() - t, f"downloaded into {self.path}")


# --------------------------------------------------------------------------- build


# PEP 517 hooks, called in the builder venv (pip's build isolation would set up a new
# environment for each build: several seconds each; ivy-core's compiler-less build still uses it)
_HOOK = "import sys; from setuptools import build_meta as b; print('@@' + getattr(b, sys.argv[1])(sys.argv[2]))"
_COPY_IGNORE = shutil.ignore_patterns(
    "build", "dist", "*.egg-info", "__pycache__", "*.so", "*.pyc", ".pytest_cache", ".hypothesis"
)


@dataclass(frozen=True)
class Interpreter:
    """A Python other than this one, for venvs whose pins need it."""

    path: Path
    version: str  # its sys.version

    @property
    def short(self) -> str:
        return ".".join(self.version.split(".")[:2])


def find_python(backend: str, versions: tuple[str, ...]) -> Interpreter | None | str:
    """``None`` if this interpreter is one of ``versions``, else the first other Python that is
    (``$IVY_<BACKEND>_PYTHON``, then ``python3.X`` on PATH), else why there is none."""
    if f"{sys.version_info[0]}.{sys.version_info[1]}" in versions:
        return None
    var = f"IVY_{backend.upper()}_PYTHON"
    candidates = ([os.environ[var]] if os.environ.get(var) else []) + [f"python{v}" for v in versions]
    for c in candidates:
        exe = shutil.which(c)
        if exe is None:
            continue
        out = subprocess.run([exe, "-c", "import sys; print(sys.version)"], capture_output=True, text=True)
        version = out.stdout.strip()
        if out.returncode == 0 and ".".join(version.split(".")[:2]) in versions:
            return Interpreter(Path(exe), version)
    return f"needs Python {' or '.join(versions)} (none found: this is {sys.version.split()[0]}; set {var})"


def make_venv(path: Path, python: Interpreter | None = None, log: Path = Path(os.devnull)) -> Path:
    if python is None:
        venv.EnvBuilder(with_pip=False, symlinks=True, clear=True).create(path)
    else:
        run([str(python.path), "-m", "venv", "--without-pip", "--clear", str(path)], log, what="creating the venv")
    return path / "bin" / "python"


def pip_install(
    python: Path, args: list[str], log: Path, find_links: list[Path], what: str, constraints: Path = CONSTRAINTS
) -> None:
    """Offline install into another venv, with this interpreter's pip (``pip --python``)."""
    links = [a for d in find_links for a in ("--find-links", str(d))]
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "-q",
            "--no-index",
            *links,
            "-c",
            str(constraints),
            "--no-compile",
            *args,
        ],
        log,
        env=clean_env(PIP_CONFIG_FILE=os.devnull),
        what=what,
    )


def check_build_requires(p: Project) -> None:
    text = (p.src / "pyproject.toml").read_text()
    m = re.search(r"^requires\s*=\s*\[([^\]]*)\]", text, re.M)
    floors = re.findall(r"setuptools\s*>=\s*(\d+)", m.group(1)) if m else []
    if not floors or int(floors[0]) < SETUPTOOLS_FLOOR:
        raise StageError(
            f"{p.label}/pyproject.toml: [build-system] requires must ask for "
            f'setuptools>={SETUPTOOLS_FLOOR} (license = "..." strings need it); it has {m and m.group(1)}'
        )


def check_sdist(p: Project) -> None:
    with tarfile.open(p.sdist) as t:
        names = [n.split("/", 1)[1] for n in t.getnames() if "/" in n]
    bad = [n for n in names if n.endswith((".so", ".pyc", ".pyd")) or "__pycache__" in n]
    if bad:
        raise StageError(f"{p.sdist.name} ships build outputs: {bad[:5]}")
    need = ["pyproject.toml", "README.md"] + (["setup.py", "src/ivy/_cdispatch.c"] if p.kind == "core" else [])
    missing = [n for n in need if n not in names]
    if not any(n.endswith("/py.typed") for n in names):
        missing.append("src/<package>/py.typed")
    if missing:
        raise StageError(f"{p.sdist.name} lacks {', '.join(missing)}")


def check_wheel(p: Project, w: Wheel) -> None:
    problems = []
    if not any(f.endswith("/py.typed") for f in w.files):
        problems.append("no py.typed")
    if p.kind == "core":
        if not any(re.fullmatch(r"ivy/_cdispatch\..*\.so", f) for f in w.files):
            problems.append("the compiled ivy/_cdispatch extension is missing")
        if "ivy" not in w.entry_points.get("console_scripts", []):
            problems.append("no `ivy` console script")
    if p.kind == "plugin" and not w.entry_points.get("ivy.backends"):
        problems.append("no entry point in the ivy.backends group")
    if p.kind != "core" and "ivy-core" not in dict(w.requirements()):
        problems.append("does not depend on ivy-core")
    if problems:
        raise StageError(f"{w.path.name}: {'; '.join(problems)}")


def build_all(projects: list[Project], work: Path, wheelhouse: Wheelhouse, jobs: int) -> Wheel:
    """Build every sdist, then every wheel from its sdist; returns the wheel of ivy-core built
    without a C compiler."""
    logs = work / "logs"
    t = time.perf_counter()
    wheelhouse.ensure(BUILD_TOOLS, logs / "wheelhouse.log", "build tools")
    builder = make_venv(work / "venv-builder")
    pip_install(builder, BUILD_TOOLS, logs / "builder.log", [wheelhouse.path], "installing setuptools")
    version = run([str(builder), "-c", "import setuptools; print(setuptools.__version__)"], logs / "builder.log")
    say("build", "builder venv", "ok", time.perf_counter() - t, f"setuptools {version.strip()}")
    sdists, dist = work / "sdist", work / "dist"
    sdists.mkdir()
    dist.mkdir()

    def build(p: Project) -> None:
        t = time.perf_counter()
        log = logs / f"build-{p.label}.log"
        copy = work / "src" / p.label
        shutil.copytree(p.src, copy, ignore=_COPY_IGNORE)
        check_build_requires(p)
        out = run(
            [str(builder), "-c", _HOOK, "build_sdist", str(sdists)],
            log,
            cwd=copy,
            env=clean_env(),
            what="building the sdist",
        )
        p.sdist = sdists / out.strip().splitlines()[-1].removeprefix("@@")
        check_sdist(p)
        unpacked = work / "unpacked"
        with tarfile.open(p.sdist) as tar:
            tar.extractall(unpacked, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
        out = run(
            [str(builder), "-c", _HOOK, "build_wheel", str(dist)],
            log,
            env=clean_env(),
            cwd=unpacked / p.sdist.name.removesuffix(".tar.gz"),
            what="building the wheel from the sdist",
        )
        new = dist / out.strip().splitlines()[-1].removeprefix("@@")
        p.wheel = Wheel.read(new)
        check_wheel(p, p.wheel)
        say("build", p.label, "ok", time.perf_counter() - t, f"{p.sdist.name} -> {new.name}")

    def build_no_cc(core: Project) -> Wheel:
        t = time.perf_counter()
        log = logs / "build-ivy-core-no-cc.log"
        out_dir = work / "dist-no-cc"
        out = run(
            [
                sys.executable,
                "-m",
                "pip",
                "wheel",
                "-v",
                "--no-deps",
                "--no-index",
                "--no-cache-dir",
                "--find-links",
                str(wheelhouse.path),
                "-w",
                str(out_dir),
                str(core.sdist),
            ],
            log,
            env=clean_env(PIP_CONFIG_FILE=os.devnull, CC="false"),
            cwd=work,
            what="building ivy-core's wheel with CC=false",
        )
        notices = [line.strip() for line in out.splitlines() if "ivy-core: NOTICE" in line]
        (path,) = out_dir.glob("*.whl")
        w = Wheel.read(path)
        if len(notices) != 1:
            raise StageError(f"the CC=false build printed {len(notices)} 'ivy-core: NOTICE' lines, not one", log)
        if any("_cdispatch" in f and f.endswith(".so") for f in w.files):
            raise StageError("the CC=false wheel still holds a compiled _cdispatch", log)
        say("build", "ivy-core no-cc", "ok", time.perf_counter() - t, notices[0].split("NOTICE: ", 1)[-1][:90])
        return w

    core = projects[0]
    build(core)  # first: the no-compiler build reuses its sdist
    with ThreadPoolExecutor(jobs) as pool:
        no_cc = pool.submit(build_no_cc, core)
        futures = {p.label: pool.submit(build, p) for p in projects[1:]}
        for p in projects[1:]:
            try:
                futures[p.label].result()
            except StageError as e:
                if p.kind != "library":  # core and the plugins are needed by every target
                    raise
                p.error = e
                say("build", p.label, "FAIL", None, str(e))
        return no_cc.result()


# --------------------------------------------------------------------------- smoke runs


SMOKE_COMMON = r'''
import ast, importlib, sys
from importlib.metadata import distribution, packages_distributions

import re

def canonical(n):
    return re.sub(r"[-_.]+", "-", n).lower()

def req_name(requirement):
    return canonical(re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement).group(1))

def audit(dist_name, exempt=()):
    """Every import in the distribution's modules is stdlib, its own, or declared."""
    dist = distribution(dist_name)
    declared = {req_name(r) for r in dist.requires or []}
    own = {str(f).split("/")[0] for f in dist.files if str(f).endswith(".py")}
    own = {o.removesuffix(".py") for o in own}
    providers = packages_distributions()
    problems = []
    for f in dist.files:
        if not str(f).endswith(".py"):
            continue
        tree = ast.parse(f.read_text(), str(f))
        for node in walk(tree):
            if isinstance(node, ast.Import):
                tops = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                tops = [node.module.split(".")[0]]
            else:
                continue
            for top in tops:
                if top in sys.stdlib_module_names or top in own or top in exempt or top == "__future__":
                    continue
                dists = {canonical(d) for d in providers.get(top, [])}
                if dists & declared or (not dists and canonical(top) in declared):
                    continue
                where = ", ".join(sorted(dists)) or "no installed distribution"
                problems.append(f"{f}:{node.lineno} imports {top!r} (from {where}), "
                                f"which {dist_name} does not declare")
    assert not problems, "undeclared imports:\n  " + "\n  ".join(problems)

def walk(tree):
    """ast.walk, leaving out `if TYPE_CHECKING:` bodies (never run)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                todo.extend(child.orelse)
            else:
                todo.append(child)

def check(cond, message):
    if not cond:
        raise AssertionError(message)

_names = sorted({canonical(d.metadata["Name"]) for d in __import__("importlib.metadata").metadata.distributions()})
print("@@dists " + " ".join(_names), flush=True)

def ivy_from_venv():
    import ivy
    check(ivy.__file__.startswith(sys.prefix), f"ivy was imported from {ivy.__file__}, not from the venv {sys.prefix}")
    return ivy
'''

SMOKE_CORE = r"""
import os, shutil, subprocess
ivy = ivy_from_venv()
from ivy import _dispatch
check(ivy.backends() == [], f"ivy.backends() == {ivy.backends()} with ivy-core alone")
for call, hint in ((lambda: ivy.zeros(3), "pip install ivy-numpy"),
                   (lambda: ivy.backend_namespace("torch"), "pip install ivy-torch")):
    try:
        call()
    except ivy.BackendNotInstalledError as e:
        check(hint in str(e), f"the error does not say {hint!r}: {e}")
    else:
        raise AssertionError("no BackendNotInstalledError without a backend")
no_cc = sys.argv[1] == "no-cc"
check(_dispatch.C_DISPATCH != no_cc, f"C dispatch is {_dispatch.C_DISPATCH} in the {sys.argv[1]} build")
script = shutil.which("ivy")
check(script and script.startswith(sys.prefix), f"the `ivy` console script is not in the venv: {script}")
out = subprocess.run([script, "doctor"], capture_output=True, text=True)
print(out.stdout)
check(out.returncode == 0, f"ivy doctor exited with {out.returncode}: {out.stderr}")
want = "dispatch: pure Python (ivy._cdispatch is not built" if no_cc else "dispatch: C (ivy._cdispatch"
check(want in out.stdout and "backends: none installed" in out.stdout, "unexpected doctor output")
audit("ivy-core", exempt={"torch", "jax", "tensorflow", "paddle"})  # ivy.testing: the backend under test's
print("ok", "no backend: BackendNotInstalledError names the pip line;", "pure-Python" if no_cc else "C",
      "dispatch; ivy doctor")
"""

SMOKE_NO_CC = r"""
import subprocess
ivy = ivy_from_venv()
import numpy as np
from ivy import _dispatch
check(not _dispatch.C_DISPATCH, "the compiler-less build dispatches in C")
check(ivy.to_numpy(ivy.add(np.ones(2), 1.0)).tolist() == [2.0, 2.0], "ivy.add on numpy")
out = subprocess.run([sys.executable, "-m", "ivy", "doctor"], capture_output=True, text=True)
print(out.stdout)
check(out.returncode == 0 and "dispatch: pure Python (ivy._cdispatch is not built" in out.stdout
      and "numpy 2." in out.stdout, "unexpected doctor output")
print("ok", "pure-Python dispatch runs ops; ivy doctor says why")
"""

SMOKE_PLUGIN = r"""
# What a backend does not offer (autodiff, a compiler, native modules) is learnt from Ivy's own
# answer, not from the backend's name: the part is skipped, and the skip printed and reported.
name, dist_name = sys.argv[1], sys.argv[2]
ivy = ivy_from_venv()
from ivy.errors import NoAutodiffError
check(ivy.backends() == [name], f"ivy.backends() == {ivy.backends()}, expected [{name!r}]")
lacks = []

def skip(part, why):
    print(f"{part}: skipped: {why}")
    lacks.append(part)

xp = ivy.backend_namespace(name)
x = xp.asarray([[1.0, 2.0], [3.0, 4.0]], dtype=xp.float32)
a = ivy.to_numpy(ivy.matmul(x, x))
check(type(a).__module__ == "numpy" and a.tolist() == [[7.0, 10.0], [15.0, 22.0]], f"matmul/to_numpy: {a!r}")
check(abs(ivy.to_scalar(ivy.sum(ivy.sin(x))) - 1.13508) < 1e-4, "sum(sin(x))")
try:
    _, grads = ivy.execute_with_gradients(lambda v: ivy.sum(ivy.multiply(v["w"], v["w"])), {"w": ivy.variable(x)})
except NoAutodiffError as e:
    autodiff = False
    skip("gradients", e)
else:
    autodiff = True
    check(ivy.to_numpy(grads["w"]).tolist() == [[2.0, 4.0], [6.0, 8.0]], "gradient of sum(w*w)")
affine = lambda t: ivy.add(ivy.multiply(t, 2.0), 1.0)
if ivy.compile(affine, backend=name) is affine:  # what ivy.compile gives where there is no compiler
    skip("compiler", "ivy.compile returns the function itself: it runs eagerly")
# (torch: dynamo traces Ivy's code, the part a wheel can break; inductor's C++ build of the kernel
# is torch's own, and takes 40 s in a new venv, whose cache is cold)
f = ivy.compile(affine, **({"options": {"backend": "aot_eager"}} if name == "torch" else {}))
check(ivy.to_numpy(f(x)).tolist() == [[3.0, 5.0], [7.0, 9.0]], "ivy.compile")
ivy.set_backend(name)
ivy.seed(0)
model = ivy.Linear(2, 1)
target = xp.asarray([[1.0], [0.0]], dtype=xp.float32)
loss_fn = lambda v: ivy.mse_loss(target, model(x, v=v))
before = ivy.to_scalar(loss_fn(model.v))
if autodiff:
    _, grads = ivy.execute_with_gradients(loss_fn, model.v)
    model.v = ivy.SGD(0.01).step(model.v, grads)
    after = ivy.to_scalar(loss_fn(model.v))
    check(after < before, f"an SGD step did not lower the loss: {before} -> {after}")
else:
    print("Module optimizer step: skipped: no gradients")
try:
    native = ivy.to_native_module(model)
except ivy.InteropNotSupportedError as e:
    skip("native modules", e)
else:
    print("native module:", type(native).__name__)
audit(dist_name)
# ...but what the in-tree backends are known to offer must be there: losing it is a failure
promised = {"torch": {"gradients", "compiler", "native modules"}, "jax": {"gradients", "compiler", "native modules"},
            "tensorflow": {"gradients", "compiler", "native modules"},
            "paddle": {"gradients", "compiler", "native modules"}, "mxnet": {"gradients"}}
lost = sorted(promised.get(name, set()) & set(lacks))
check(not lost, f"the {name} backend no longer offers {', '.join(lost)}")
import importlib.metadata as md

def version(d):
    try:
        return md.version(d)
    except md.PackageNotFoundError:  # a requirement whose marker leaves it out here
        return "(not installed)"

print("ok", name, "with", ", ".join(f"{d} {version(d)}" for d in sys.argv[3:])
      + (f"; skipped, not offered: {', '.join(lacks)}" if lacks else ""))
"""

SMOKE_BARE = r"""
name, hint = sys.argv[1], sys.argv[2]
ivy = ivy_from_venv()
check(ivy.backends() == [name], f"ivy.backends() == {ivy.backends()}, expected [{name!r}]")
try:
    ivy.backend_namespace(name)
except ivy.BackendLoadError as e:
    check(hint in str(e), f"the error does not name {hint!r}: {e}")
else:
    raise AssertionError(f"the {name} backend loaded without the extra that brings its framework")
print("ok", "BackendLoadError names", hint)
"""

SMOKE_FLAX = r"""
ivy = ivy_from_venv()
import jax, jax.numpy as jnp, flax.linen as nn, optax
module = nn.Dense(1)
params = module.init(jax.random.PRNGKey(0), jnp.ones((1, 2)))
wrapped = ivy.from_native_module((module, params))
x = jnp.ones((4, 2))
check(wrapped(x).shape == (4, 1), "the wrapped flax module's output shape")
loss_fn = lambda v: ivy.mean(ivy.square(wrapped(x, v=v)))
before = float(loss_fn(wrapped.v))
_, grads = ivy.execute_with_gradients(loss_fn, wrapped.v)
wrapped.v = ivy.SGD(0.1).step(wrapped.v, grads)
check(float(loss_fn(wrapped.v)) < before, "an SGD step on the flax module did not lower the loss")
native_params, apply = ivy.to_native_module(wrapped)
optax.sgd(0.1).init(native_params)
audit("ivy-jax")
print("ok", "a flax.linen module wrapped and trained one step; optax")
"""

SMOKE_LIBRARY = r"""
module_name, dist_name, call = sys.argv[1], sys.argv[2], sys.argv[3]
FRAMEWORKS = ("numpy", "torch", "jax", "jaxlib", "tensorflow", "paddle")
# what the library's declared third-party dependencies import by themselves (gymnasium: numpy)
by_dist = {}
for top, dists in packages_distributions().items():
    for d in dists:
        by_dist.setdefault(canonical(d), []).append(top)
for r in distribution(dist_name).requires or []:
    if "extra ==" in r:
        continue
    d = req_name(r)
    if not d.startswith("ivy-"):
        for top in by_dist.get(d, []):
            importlib.import_module(top)
before = {n for n in FRAMEWORKS if n in sys.modules}
lib = importlib.import_module(module_name)
new = sorted(n for n in FRAMEWORKS if n in sys.modules and n not in before)
check(not new, f"import {module_name} imported {new}")
for n in getattr(lib, "__all__", []):
    getattr(lib, n)
import numpy as np
if call:
    exec(call, {"lib": lib, "np": np, "ivy": ivy_from_venv()})
audit(dist_name)
print("ok", f"import {module_name} imports no framework;",
      f"{call.split('(')[0].split('.')[-1]}() on numpy" if call else "NO CALL configured in LIBRARY_CALLS: import only")
"""


@dataclass
class Target:
    """One clean venv and what to do in it."""

    name: str
    install: list[str]  # requirements / wheel paths for pip
    smoke: str
    args: list[str] = field(default_factory=list)
    weight: int = 1  # the longest first, so that the two job slots end together
    status: str = "skip"
    seconds: float = 0.0
    note: str = ""
    log: Path | None = None
    installed: str = ""  # what the venv holds in the end
    constraints: Path = CONSTRAINTS  # the pins of its installs (and of its wheelhouse downloads)
    python: Interpreter | None = None  # None: this interpreter
    core_sdist: Path | None = None  # with another Python: ivy-core's wheel is built for it from this


def make_targets(projects: list[Project], no_cc: Wheel) -> list[Target]:
    by_kind: dict[str, list[Project]] = {}
    for p in projects:
        by_kind.setdefault(p.kind, []).append(p)
    core = by_kind["core"][0].wheel
    targets = [
        Target("core", [core.name], SMOKE_CORE, ["full"]),
        Target("core-no-cc", [str(no_cc.path), "ivy-numpy"], SMOKE_NO_CC),
    ]
    heavy = {"torch": 6, "tensorflow": 5, "jax-flax": 4, "paddle": 3, "jax": 3}  # torch.compile: slowest
    for p in by_kind.get("plugin", []):
        w = p.wheel
        (backend,) = w.entry_points["ivy.backends"]
        extras = (FRAMEWORK_EXTRA,) if FRAMEWORK_EXTRA in w.extras else ()
        req = w.name + (f"[{','.join(extras)}]" if extras else "")
        frameworks = [n for n, _ in w.requirements(extras) if not n.startswith("ivy-")]
        t = Target(backend, ["ivy-core", req], SMOKE_PLUGIN, [backend, w.name, *frameworks], heavy.get(backend, 1))
        if (p.src / "constraints.txt").is_file():
            # pins that cannot share the monorepo's constraints (MXNet 1.9 needs numpy<1.24)
            t.constraints = p.src / "constraints.txt"
            python = find_python(backend, OWN_PYTHONS[p.label]) if p.label in OWN_PYTHONS else None
            if isinstance(python, str):
                t.status, t.note = "SKIP", python
            elif python is not None:
                t.python, t.core_sdist = python, by_kind["core"][0].sdist
        targets.append(t)
        if extras:  # what `pip install ivy-tensorflow` without an extra gives: a clear error
            targets.append(
                Target(f"{backend}-bare", ["ivy-core", w.name], SMOKE_BARE, [backend, f"{w.name}[{FRAMEWORK_EXTRA}]"])
            )
        if backend == "jax" and "flax" in w.extras:
            targets.append(Target("jax-flax", ["ivy-core", f"{w.name}[flax]"], SMOKE_FLAX, weight=heavy["jax-flax"]))
    for p in by_kind.get("library", []):
        if p.error is not None:
            targets.append(Target(p.label, [p.label], "", status="FAIL", note=f"build: {p.error}"))
            targets[-1].log = p.error.log
            continue
        w = p.wheel
        module = next(f.split("/")[0] for f in w.files if f.endswith("/__init__.py"))
        targets.append(
            Target(p.label, [w.name, "ivy-numpy"], SMOKE_LIBRARY, [module, w.name, LIBRARY_CALLS.get(module, "")])
        )
    return targets


def third_party(targets: list[Target], wheels: dict[str, Wheel]) -> list[str]:
    """The third-party requirements of all targets (what the wheelhouse must hold)."""
    out: set[str] = set()
    todo = []
    for t in targets:
        for item in t.install:
            m = re.fullmatch(r"([A-Za-z0-9._-]+)(?:\[([^\]]*)\])?", Path(item).name if item.endswith(".whl") else item)
            if item.endswith(".whl"):
                todo.append((canonical(Wheel.read(Path(item)).name), ()))
            elif m:
                todo.append((canonical(m.group(1)), tuple(filter(None, (m.group(2) or "").split(",")))))
    seen = set()
    while todo:
        name, extras = todo.pop()
        if (name, extras) in seen:
            continue
        seen.add((name, extras))
        if name not in wheels:
            out.add(name + (f"[{','.join(extras)}]" if extras else ""))
            continue
        for dep, req in wheels[name].requirements(extras):
            if dep in wheels:
                m = re.match(r"[^\[;]*\[([^\]]*)\]", req)
                todo.append((dep, tuple(m.group(1).split(",")) if m else ()))
            else:
                out.add(req)
    return sorted(out)


def run_target(t: Target, work: Path, find_links: list[Path], keep: bool) -> None:
    start = time.perf_counter()
    t.log = work / "logs" / f"venv-{t.name}.log"
    env_dir = work / f"venv-{t.name}"
    try:
        python = make_venv(env_dir, t.python, t.log)
        if t.core_sdist is not None:  # the wheel built above is for this interpreter's Python only
            core_dist = work / f"dist-{t.name}"
            links = [a for d in find_links for a in ("--find-links", str(d))]
            run(
                [sys.executable, "-m", "pip", "--python", str(python), "wheel", "-q", "--no-deps", "--no-index"]
                + [*links, "-w", str(core_dist), str(t.core_sdist)],
                t.log,
                env=clean_env(PIP_CONFIG_FILE=os.devnull),
                what=f"building ivy-core's wheel for Python {t.python.short}",
            )
            find_links = [core_dist, *find_links]
        what = f"installing {' '.join(Path(i).name for i in t.install)}"
        pip_install(python, t.install, t.log, find_links, what, t.constraints)
        say("install", t.name, "ok", time.perf_counter() - start, " ".join(Path(i).name for i in t.install))
        t2 = time.perf_counter()
        script = work / f"smoke-{t.name}.py"
        script.write_text(SMOKE_COMMON + t.smoke)
        rundir = work / f"run-{t.name}"
        rundir.mkdir()
        out = run(
            [str(python), str(script), *t.args],
            t.log,
            cwd=rundir,
            timeout=600,
            what="the smoke run",
            env=clean_env(PATH=f"{env_dir / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"),
        )
        dists = next((line.split()[1:] for line in out.splitlines() if line.startswith("@@dists")), [])
        ours = [d for d in dists if d.startswith("ivy-")]
        t.installed = " ".join(ours) + f" (+{len(dists) - len(ours)} others)"
        last = [line for line in out.splitlines() if line.startswith("ok")]
        t.status, t.note = "PASS", (last[-1][2:].strip() if last else "")
        say("smoke", t.name, "ok", time.perf_counter() - t2, t.note)
    except StageError as e:
        t.status, t.note = "FAIL", str(e)
        say("smoke" if "smoke" in str(e) else "install", t.name, "FAIL", time.perf_counter() - start, str(e))
    finally:
        t.seconds = time.perf_counter() - start
        if not keep:
            shutil.rmtree(env_dir, ignore_errors=True)


def error_excerpt(log: Path | None, lines: int = 25) -> str:
    if log is None or not log.exists():
        return ""
    text = log.read_text(errors="replace").rstrip().splitlines()
    # the assertion or traceback is what a reader needs: from the last traceback on, else the end
    tb = max((i for i, line in enumerate(text) if line.startswith("Traceback")), default=None)
    chosen = text[tb:][:lines] if tb is not None else text[-lines:]
    return "\n".join("    | " + line for line in chosen)


def main(argv: list[str] | None = None) -> int:
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ivy-packaging"
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1],
    )
    ap.add_argument("targets", nargs="*", help="run only these targets (core, core-no-cc, numpy, torch, ..., ivy-mech)")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), help="venvs set up at once (default 2)")
    ap.add_argument(
        "--wheelhouse",
        type=Path,
        default=Path(os.environ.get("IVY_WHEELHOUSE") or cache / "wheelhouse"),
        help="persistent third-party wheel cache (default $IVY_WHEELHOUSE or %(default)s)",
    )
    ap.add_argument("--offline", action="store_true", help="never download: fail if the wheelhouse lacks something")
    ap.add_argument("--refresh", action="store_true", help="empty the wheelhouse first (downloads everything again)")
    ap.add_argument("--keep", action="store_true", help="keep the work folder (venvs, wheels, logs) afterwards")
    args = ap.parse_args(argv)

    if args.refresh:
        shutil.rmtree(args.wheelhouse, ignore_errors=True)
    wheelhouse = Wheelhouse(args.wheelhouse, args.offline)
    work = Path(tempfile.mkdtemp(prefix="ivy-packaging-"))
    (work / "logs").mkdir()
    projects = discover()
    if args.targets:  # only the libraries asked for, and the libraries they depend on
        libs = {p.label: p for p in projects if p.kind == "library"}
        wanted = {n for n in args.targets if n in libs}
        todo = list(wanted)
        while todo:
            text = (libs[todo.pop()].src / "pyproject.toml").read_text()
            for dep in set(re.findall(r"\b(ivy-[a-z0-9-]+)", text)) & set(libs) - wanted:
                wanted.add(dep)
                todo.append(dep)
        projects = [p for p in projects if p.kind != "library" or p.label in wanted]
    print(f"packaging check of {len(projects)} distributions: {', '.join(p.label for p in projects)}")
    print(f"work folder {work}; wheelhouse {args.wheelhouse}; {args.jobs} jobs", flush=True)
    failed = True
    try:
        try:
            no_cc = build_all(projects, work, wheelhouse, args.jobs)
        except StageError as e:
            say("build", "", "FAIL", None, str(e))
            print(error_excerpt(e.log, 40))
            return 1
        targets = make_targets(projects, no_cc)
        unknown = set(args.targets) - {t.name for t in targets}
        if unknown:
            print(f"unknown target(s) {sorted(unknown)}; targets: {', '.join(t.name for t in targets)}")
            return 2
        chosen = [t for t in targets if not args.targets or t.name in args.targets]
        wheels = {canonical(p.wheel.name): p.wheel for p in projects if p.wheel is not None}
        # not the libraries that did not build, nor a target without the Python its pins need
        runnable = [t for t in chosen if t.status not in ("FAIL", "SKIP")]
        for t in chosen:
            if t.status == "SKIP":
                say("venv", t.name, "SKIP", None, t.note)
        groups: dict[tuple[Path, Interpreter | None], list[Target]] = {}
        for t in runnable:  # one download per set of pins and Python
            groups.setdefault((t.constraints, t.python), []).append(t)
        for (constraints, python), group in groups.items():
            label = "runtime deps"
            if constraints != CONSTRAINTS or python is not None:
                label = f"{'+'.join(t.name for t in group)} deps"
            try:
                wheelhouse.ensure(
                    third_party(group, wheels), work / "logs" / "wheelhouse.log", label, constraints, python
                )
            except StageError as e:
                say("wheels", label, "FAIL", None, str(e))
                print(error_excerpt(e.log, 40))
                return 1
        with ThreadPoolExecutor(args.jobs) as pool:
            for f in [
                pool.submit(run_target, t, work, [work / "dist", wheelhouse.path], args.keep)
                for t in sorted(runnable, key=lambda t: -t.weight)
            ]:
                f.result()

        print(f"\n{'target':<16} {'result':<6} {'time':>7}  installed / note")
        for t in chosen:
            installed = t.installed or " ".join(Path(i).name for i in t.install)
            print(f"{t.name:<16} {t.status:<6} {t.seconds:6.1f}s  {installed}" + (f"  ({t.note})" if t.note else ""))
        bad = [t for t in chosen if t.status not in ("PASS", "SKIP")]
        total = time.perf_counter() - _START
        if bad:
            print(f"\nFAILED: {', '.join(t.name for t in bad)} ({total:.0f} s in all)")
            for t in bad:
                print(f"\n--- {t.name}: {t.note}" + (f"; log {t.log}\n{error_excerpt(t.log)}" if t.log else ""))
            return 1
        failed = False
        skipped = [t.name for t in chosen if t.status == "SKIP"]
        print(
            f"\nall {len(chosen) - len(skipped)} targets passed in {total:.0f} s"
            + (f"; skipped: {', '.join(skipped)}" if skipped else "")
        )
        return 0
    finally:
        if args.keep or failed:
            print(f"(work folder kept: {work})")
            if failed and not args.keep:  # the venvs are large; the logs are what is needed
                for p in work.iterdir():
                    if p.name != "logs":
                        shutil.rmtree(p, ignore_errors=True) if p.is_dir() else p.unlink()
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
