"""Ivy's command line: ``python -m ivy <command>`` (also installed as the ``ivy`` script).

Commands are registered in :data:`COMMANDS` (name, help, argument setup, function), so a new one
is one function and one entry.

``plugins`` lists the discovered backends: distribution, version, framework version, status (ok,
or broken and why), coverage (spec ops the plugin implements itself, those core composes for it,
those missing) and conflicts (two plugins claiming one array module).

``doctor`` reports the installation: the dispatch path in use (the C extension or pure Python, and
why), the installed backends, and, unless ``--no-load`` is given, whether each backend loads, with
which framework version (read from package metadata, see ``BackendSpec.framework_distributions``)
and whether the framework computes: its smoke check (``BackendImpl.smoke``, by default an array
made, added to itself and read back) runs and its result is reported. Each backend is loaded in a
subprocess of its own: loading imports its framework, some frameworks cannot share a process
(paddle after tensorflow crashes), and a framework that crashes the interpreter must not take the
report with it. The doctor process itself never imports a framework.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

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
    except Exception as e:  # any import failure is the reason to report
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


def framework_version(backend: Any) -> tuple[str, str]:
    """``(framework, version)`` of a loaded backend: the version from the metadata of the first
    installed of ``BackendSpec.framework_distributions``, else the framework module's
    ``__version__``, else from the distribution that installs its first array module."""
    from importlib.metadata import PackageNotFoundError, packages_distributions, version

    spec, fw = backend.spec, backend.impl.framework
    for dist in spec.framework_distributions:
        try:
            return dist, version(dist)
        except PackageNotFoundError:
            continue
    fw_name = getattr(fw, "__name__", None) or (spec.array_modules or (backend.name,))[0]
    got = getattr(fw, "__version__", None)
    if got is not None:
        return fw_name, str(got)
    top = str(fw_name).partition(".")[0]
    for dist in packages_distributions().get(top, []):
        try:
            return dist, version(dist)
        except PackageNotFoundError:
            continue
    return fw_name, "unknown version"


def smoke(backend: Any) -> None:
    """Run the backend's smoke check (``BackendImpl.smoke``), or the default one: an array made
    with its ``asarray``, added to itself with its ``add``, read back with its ``to_list``.

    Raises:
        RuntimeError: the default check computed a wrong result (naming it); any error the
            framework raises passes through.
    """
    if backend.impl.smoke is not None:
        backend.impl.smoke()
        return
    xp = backend.namespace
    x = xp.asarray([1.0, 2.0, 3.0])
    got = xp.to_list(xp.add(x, x))
    if got != [2.0, 4.0, 6.0]:
        raise RuntimeError(f"add([1.0, 2.0, 3.0], itself) gave {got!r}, not [2.0, 4.0, 6.0]")


def _load_one(name: str) -> None:
    """Run in the subprocess: load backend ``name``, run its smoke check and print a JSON report
    after :data:`_MARK`."""
    import time

    from . import _registry

    start = time.perf_counter()
    report: dict[str, Any]
    try:
        backend = _registry.get_backend(name)
        fw_name, fw_version = framework_version(backend)
        report = {"ok": True, "framework": fw_name, "version": fw_version}
        report.update(_registry.coverage(backend))
    except Exception as e:  # the report is the point
        report = {"ok": False, "error": f"{type(e).__name__}: {e}"}
    report["seconds"] = round(time.perf_counter() - start, 2)
    if report["ok"]:
        start = time.perf_counter()
        try:
            smoke(backend)
            report["smoke"] = "ok"
        except Exception as e:  # the framework's failure is what doctor reports
            report["smoke"] = f"{type(e).__name__}: {e}"
        report["smoke_seconds"] = round(time.perf_counter() - start, 2)
    print(_MARK + json.dumps(report), flush=True)


def _check_load(name: str, timeout: float) -> dict[str, object]:
    code = f"from ivy._cli import _load_one; _load_one({name!r})"
    try:
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"ok": False, "error": f"did not finish loading within {timeout:g} s"}
    for line in proc.stdout.splitlines():
        if line.startswith(_MARK):
            return json.loads(line[len(_MARK) :])
    tail = " | ".join(proc.stderr.strip().splitlines()[-3:])
    if proc.returncode < 0:
        return {"ok": False, "error": f"the interpreter crashed while loading (signal {-proc.returncode}) {tail}"}
    return {"ok": False, "error": f"the loading process exited with {proc.returncode}: {tail}"}


def _version_key(v: str) -> tuple[int, ...]:
    out = []
    for part in v.split("+")[0].split("."):
        digits = "".join(ch for ch in part if ch.isdigit()) if part[:1].isdigit() else ""
        if not digits:
            break
        out.append(int(digits))
    return tuple(out)


def _satisfies(version: str, spec: str) -> bool:
    """Whether ``version`` meets a requirement's specifiers (``>=2.13,<3``: the common operators)."""
    v = _version_key(version)
    for clause in filter(None, (c.strip() for c in spec.split(","))):
        op = next((o for o in (">=", "<=", "==", "!=", "~=", ">", "<") if clause.startswith(o)), None)
        if op is None:
            continue
        w = _version_key(clause[len(op) :].strip().rstrip(".*"))
        n = len(w)
        checks = {
            ">=": v >= w,
            "<=": v[:n] <= w,
            ">": v > w,
            "<": v < w,
            "==": v[:n] == w,
            "!=": v[:n] != w,
            "~=": v >= w and v[: max(n - 1, 1)] == w[: max(n - 1, 1)],
        }
        if not checks[op]:
            return False
    return True


def _version_checks(names: Sequence[str]) -> list[str]:
    """The installed frameworks against the ranges each plugin declares (its tested ranges)."""
    import re
    from importlib.metadata import PackageNotFoundError, distribution, requires

    from . import _registry

    out = []
    for name in names:
        dist = _registry._entry_points()[name].dist
        if dist is None:
            continue
        for req in requires(dist.name) or []:
            m = re.match(r"\s*([A-Za-z0-9_.\-]+)(\[[^\]]*\])?\s*([^;]*)", req)
            if not m:
                continue
            project, spec = m.group(1), m.group(3).strip()
            if project.lower().replace("_", "-") == "ivy-core" or not spec:
                continue
            try:
                installed = distribution(project).version
            except PackageNotFoundError:
                continue  # an extra that is not installed
            if not _satisfies(installed, spec):
                out.append(
                    f"warning: {dist.name} is tested with {project}{spec}, but {project} {installed} is "
                    f"installed: pip install '{project}{spec}'"
                )
    return out


def _conflict_notes(names: Sequence[str]) -> list[str]:
    """Frameworks that cannot share a process in one order (paddle after tensorflow)."""
    import importlib.util

    from . import _registry

    out = []
    for name in names:
        try:
            spec, _ = _registry._spec_for(name)
        except Exception:  # reported by the load check
            continue
        own = spec.array_modules[0] if spec.array_modules else name
        for other in spec.unsafe_after:
            if importlib.util.find_spec(other) is not None:
                out.append(
                    f"note: {own} crashes if imported after {other} in one process; Ivy refuses with "
                    f"BackendConflictError: use the {name!r} backend first, or separate processes"
                )
    return out


def _doctor_setup(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--no-load",
        action="store_true",
        help="only list what is installed (read from package metadata): load no backend and import no framework",
    )
    p.add_argument(
        "--backend",
        action="append",
        metavar="NAME",
        help="check only this backend (repeatable); default: every installed backend",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=300.0,
        metavar="SECONDS",
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
        print(
            "backends: none installed (pip install ivy-numpy, ivy-torch, ivy-jax, ivy-tensorflow[cpu] "
            "or ivy-paddle[cpu] for one)"
        )
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
            if rep["ok"] and rep.get("smoke", "ok") == "ok":
                state = (
                    f"loads       {rep['framework']} {rep['version']} ({rep.get('seconds', '?')} s); "
                    f"smoke check ok ({rep.get('smoke_seconds', '?')} s)"
                )
            elif rep["ok"]:
                problems += 1
                state = (
                    f"BROKEN      loads ({rep['framework']} {rep['version']}), but its smoke check fails: "
                    f"{rep['smoke']}"
                )
            else:
                problems += 1
                state = f"FAILS       {rep['error']}"
            # multi-line errors (a validation report) stay readable under their backend
            print(f"  {name:<12} {labels[name]:<22} {state}".replace("\n", "\n" + " " * 50))
    for line in _version_checks(names) + _conflict_notes(names):
        print(line)
        problems += line.startswith("warning")
    extra = _extra_plugins()
    if extra:
        print("other plugins (ivy.plugins): " + ", ".join(f"{n} ({label})" for n, label in extra))
    if problems:
        print(f"{problems} problem(s) found")
    return 1 if problems else 0


# --------------------------------------------------------------------------- plugins


def _plugins_setup(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help="only these backends (default: every one found); loading one imports its framework",
    )
    p.add_argument(
        "--no-load",
        action="store_true",
        help="read package metadata only: no coverage or framework version (loads nothing)",
    )
    p.add_argument("--missing", action="store_true", help="also list the spec ops each backend lacks")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument(
        "--timeout",
        type=float,
        default=300.0,
        metavar="SECONDS",
        help="give up on a backend that takes longer than this to load (default: 300)",
    )


def _plugins(args: argparse.Namespace) -> int:
    from . import _registry

    rows = _registry.backend_details()
    if args.names:
        found = [r["name"] for r in rows]
        unknown = [n for n in args.names if n not in found]
        if unknown:
            print(
                f"ivy plugins: no backend named {', '.join(map(repr, unknown))}; the backends found: "
                f"{', '.join(found) or 'none'}",
                file=sys.stderr,
            )
            return 2
        rows = [r for r in rows if r["name"] in args.names]
    if not args.no_load:
        workers = max(1, min(len(rows), os.cpu_count() or 1))
        with ThreadPoolExecutor(workers) as pool:
            reports = list(pool.map(lambda r: _check_load(r["name"], args.timeout), rows))
        for row, rep in zip(rows, reports):
            if not rep["ok"]:
                row["status"] = f"broken: {rep['error']}"
            elif rep.get("smoke", "ok") != "ok":
                row["status"] = f"broken: it loads, but its smoke check fails: {rep['smoke']}"
            else:
                row["status"] = "ok"
            for key in ("framework", "version", "native", "composed", "missing", "total"):
                if key in rep:
                    row["framework_version" if key == "version" else key] = rep[key]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0 if all(not str(r["status"]).startswith("broken") for r in rows) else 1
    if not rows:
        print(
            "no Ivy backend is installed (pip install ivy-numpy, ivy-torch, ivy-jax, ivy-tensorflow[cpu] or "
            "ivy-paddle[cpu])"
        )
        return 0
    problems = 0
    for r in rows:
        print(f"{r['name']}: {r['distribution']}")
        if r.get("description"):
            print(f"  {r['description']}")
        print(f"  arrays of:  {', '.join(r['array_modules']) or '-'}")
        if "framework" in r:
            print(f"  framework:  {r['framework']} {r['framework_version']}")
        print(f"  status:     {r['status']}")
        if "native" in r:
            missing = r["missing"]
            print(
                f"  coverage:   {len(r['native'])}/{r['total']} spec ops implemented, {len(r['composed'])} composed "
                f"by core, {len(missing)} missing"
            )
            if args.missing and missing:
                print("  missing:    " + ", ".join(missing))
        for c in r["conflicts"]:
            print(f"  CONFLICT:   {c}")
        problems += bool(r["conflicts"]) or str(r["status"]).startswith("broken")
    from .transpile._command import frontend_lines

    print("\n".join(frontend_lines()))
    return 1 if problems else 0


def _transpile_setup(p: argparse.ArgumentParser) -> None:
    from .transpile._command import setup

    setup(p)


def _transpile(args: argparse.Namespace) -> int:
    from .transpile._command import run

    return run(args)


COMMANDS: list[Command] = [
    Command(
        name="plugins",
        help="list the discovered backends: distribution, versions, status, coverage, conflicts",
        description=(
            "List every backend plugin found in the ivy.backends entry-point group (or the NAMEs given): "
            "its distribution and version, the framework version, whether it loads (each in its own "
            "process; --no-load reads metadata only), its coverage of the spec ops and any conflict (two "
            "plugins claiming the arrays of one module). Exits with 1 when a plugin is broken or conflicts, "
            "with 2 when no backend has a NAME given."
        ),
        setup=_plugins_setup,
        run=_plugins,
    ),
    Command(
        name="doctor",
        help="report the dispatch path and the installed backends (loads each backend and runs its smoke check)",
        description=(
            "Report this Ivy installation: the dispatch path in use (C extension or pure Python, and "
            "why) and the installed backends. Unless --no-load is given, each backend is loaded, "
            "which imports its framework: in a separate process per backend, never in this one; its "
            "framework's version is read from package metadata, and its smoke check (a real "
            "computation: BackendImpl.smoke, or an array made, added to itself and read back) runs. "
            "Exits with 1 when a backend fails to load or to compute, or a framework is outside the "
            "version range its plugin requires."
        ),
        setup=_doctor_setup,
        run=_doctor,
    ),
    Command(
        name="transpile",
        help="transpile a function or module to another framework and print the program",
        description=(
            "Transpile MODULE:NAME (a function or module of any framework a frontend reads) on example "
            "inputs (--input float32[2,3]) to the backend --to, and print the program as a standalone Python "
            "module of the target's own calls (a module's weights go to FILE.safetensors beside -o FILE); "
            "--to ivy prints the Ivy graph. See docs/transpiling.md."
        ),
        setup=_transpile_setup,
        run=_transpile,
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
