"""Ivy's command line: ``python -m ivy <command>`` (also installed as the ``ivy`` script).

Commands are registered in :data:`COMMANDS` (name, help, argument setup, function), so a new one
is one function and one entry. Only ``doctor`` exists for now.

``doctor`` reports the installation: the dispatch path in use (the C extension or pure Python, and
why), the installed backends, and, unless ``--no-load`` is given, whether each backend loads and
with which framework version. Each backend is loaded in a subprocess of its own: loading imports
its framework, some frameworks cannot share a process (paddle after tensorflow crashes), and a
framework that crashes the interpreter must not take the report with it. The doctor process itself
never imports a framework.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable, Sequence

__all__ = ["main", "COMMANDS", "Command"]

#: Prefix of the line through which a backend-loading subprocess reports back.
_MARK = "@@ivy-doctor@@"


@dataclass(frozen=True)
class Command:
    """A subcommand: ``setup`` adds its arguments, ``run`` does it and returns the exit status."""

    name: str
    help: str
    description: str
    setup: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


# --------------------------------------------------------------------------- doctor


def _core_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ivy-core")
    except PackageNotFoundError:  # running from a source tree that is not installed
        import ivy

        return f"{ivy.__version__} (not installed as a distribution)"


def dispatch_path() -> tuple[str, str]:
    """``("C" | "pure Python", why)`` for the per-call dispatch of this process."""
    from . import _dispatch

    if _dispatch.C_DISPATCH:
        return "C", f"ivy._cdispatch, built at install: {_dispatch._cdispatch.__file__}"
    if os.environ.get("IVY_PURE_PYTHON", "").strip() not in ("", "0"):
        return "pure Python", "IVY_PURE_PYTHON is set in the environment"
    import importlib.util

    if importlib.util.find_spec("ivy._cdispatch") is None:
        return "pure Python", (
            "ivy._cdispatch is not built: this ivy-core was installed without a C compiler or "
            "Python headers; reinstall it from source with both to get it"
        )
    try:  # built but unusable (a different Python, a broken build): say why
        import ivy._cdispatch  # noqa: F401
    except Exception as e:  # noqa: BLE001 - any import failure is the reason to report
        return "pure Python", f"ivy._cdispatch failed to import: {type(e).__name__}: {e}"
    return "pure Python", "ivy._cdispatch was not used"  # pragma: no cover


def _installed() -> list[tuple[str, str]]:
    """``[(backend name, "distribution version")]`` of the installed backends, from metadata."""
    from . import _registry

    eps = _registry._entry_points()
    return [(name, _registry._dist_label(eps[name])) for name in _registry.backends()]


def _extra_plugins() -> list[tuple[str, str]]:
    from importlib.metadata import entry_points

    from . import _registry

    return [(ep.name, _registry._dist_label(ep)) for ep in entry_points(group=_registry.PLUGIN_GROUP)]


def _load_one(name: str) -> None:
    """Run in the subprocess: load backend ``name`` and print a JSON report after :data:`_MARK`."""
    import time

    from . import _registry

    start = time.perf_counter()
    try:
        backend = _registry.get_backend(name)
        fw = backend.impl.framework
        fw_name = getattr(fw, "__name__", None) or (backend.spec.array_modules or (name,))[0]
        report = {"ok": True, "framework": fw_name, "version": str(getattr(fw, "__version__", "unknown version"))}
    except Exception as e:  # noqa: BLE001 - the report is the point
        report = {"ok": False, "error": f"{type(e).__name__}: {e}"}
    report["seconds"] = round(time.perf_counter() - start, 2)
    print(_MARK + json.dumps(report), flush=True)


def _check_load(name: str, timeout: float) -> dict[str, object]:
    code = f"from ivy._cli import _load_one; _load_one({name!r})"
    try:
        proc = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return {"ok": False, "error": f"did not finish loading within {timeout:g} s"}
    for line in proc.stdout.splitlines():
        if line.startswith(_MARK):
            return json.loads(line[len(_MARK):])
    tail = " | ".join(proc.stderr.strip().splitlines()[-3:])
    if proc.returncode < 0:
        return {"ok": False, "error": f"the interpreter crashed while loading (signal {-proc.returncode}) {tail}"}
    return {"ok": False, "error": f"the loading process exited with {proc.returncode}: {tail}"}


def _doctor_setup(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--no-load", action="store_true",
        help="only list what is installed (read from package metadata): load no backend and import no framework",
    )
    p.add_argument(
        "--backend", action="append", metavar="NAME",
        help="check only this backend (repeatable); default: every installed backend",
    )
    p.add_argument(
        "--timeout", type=float, default=300.0, metavar="SECONDS",
        help="give up on a backend that takes longer than this to load (default: 300)",
    )


def _doctor(args: argparse.Namespace) -> int:
    path, why = dispatch_path()
    print(f"ivy-core {_core_version()} at {os.path.dirname(os.path.abspath(__file__))}")
    print(f"python {sys.version.split()[0]} at {sys.executable}")
    print(f"dispatch: {path} ({why})")
    problems = 0
    installed = _installed()
    wanted = args.backend or [name for name, _ in installed]
    labels = dict(installed)
    for name in wanted:
        if name not in labels:
            print(f"error: no backend named {name!r} is installed (installed: {', '.join(labels) or 'none'})")
            problems += 1
    names = [n for n in wanted if n in labels]
    if not installed:
        print("backends: none installed (pip install ivy-numpy, ivy-torch, ivy-jax, ivy-tensorflow[cpu] "
              "or ivy-paddle[cpu] for one)")
    elif args.no_load:
        print(f"backends: {len(installed)} installed (not loaded: --no-load)")
        for name in names:
            print(f"  {name:<12} {labels[name]}")
    else:
        print(f"backends: {len(installed)} installed; loading {len(names)}, each in its own process")
        workers = max(1, min(len(names), os.cpu_count() or 1))
        with ThreadPoolExecutor(workers) as pool:
            reports = list(pool.map(lambda n: _check_load(n, args.timeout), names))
        for name, rep in zip(names, reports):
            if rep["ok"]:
                state = f"loads       {rep['framework']} {rep['version']} ({rep.get('seconds', '?')} s)"
            else:
                problems += 1
                state = f"FAILS       {rep['error']}"
            # multi-line errors (a validation report) stay readable under their backend
            print(f"  {name:<12} {labels[name]:<22} {state}".replace("\n", "\n" + " " * 50))
    extra = _extra_plugins()
    if extra:
        print("other plugins (ivy.plugins): " + ", ".join(f"{n} ({label})" for n, label in extra))
    if problems:
        print(f"{problems} problem(s) found")
    return 1 if problems else 0


COMMANDS: list[Command] = [
    Command(
        name="doctor",
        help="report the dispatch path and the installed backends (loads each backend)",
        description=(
            "Report this Ivy installation: the dispatch path in use (C extension or pure Python, and "
            "why) and the installed backends. Unless --no-load is given, each backend is loaded, "
            "which imports its framework: in a separate process per backend, never in this one. "
            "Exits with 1 when a backend fails to load."
        ),
        setup=_doctor_setup,
        run=_doctor,
    ),
]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m ivy", description="Ivy's command line. Importing ivy imports no framework."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for cmd in COMMANDS:
        p = sub.add_parser(cmd.name, help=cmd.help, description=cmd.description)
        cmd.setup(p)
        p.set_defaults(_run=cmd.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (default ``sys.argv[1:]``), run the command and return its exit status."""
    args = _parser().parse_args(argv)
    try:
        return int(args._run(args))
    except BrokenPipeError:  # output piped into `head` and the like: stop quietly
        # and keep the interpreter's final flush of stdout from failing again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
