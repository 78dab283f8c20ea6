"""Helpers shared by ivy-core's tests (loaded by ``conftest.py`` as ``ivy_core_tests_support``).

* :func:`install_toy`: build and install the third-party fixture plugin ``tests/fixtures/ivy-toy``
  into a folder (``pip install --target``), without touching the source tree.
* :func:`run_python`: run Python code in a fresh interpreter with extra ``sys.path`` entries.
* :func:`make_fake_dist`: write a minimal installed distribution (``*.dist-info`` + module) with an
  ``ivy.backends`` entry point, for plugins that must misbehave.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[3]
TOY_SRC = REPO / "tests" / "fixtures" / "ivy-toy"

__all__ = ["REPO", "TOY_SRC", "install_toy", "run_python", "run_json", "make_fake_dist", "JSON_MARK"]

#: Prefix of the line through which a subprocess script hands back a JSON result (see run_json).
JSON_MARK = "@@IVY-TEST-JSON@@"


def install_toy(target: Path) -> Path:
    """``pip install --no-deps --no-build-isolation --target target`` the toy plugin.

    The source is copied first so that the build leaves nothing (``build/``, ``*.egg-info``) in the
    repository and concurrent builds cannot collide.
    """
    with tempfile.TemporaryDirectory(prefix="ivy-toy-src-") as tmp:
        src = Path(tmp) / "ivy-toy"
        shutil.copytree(TOY_SRC, src, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "--quiet",
                "--no-deps",
                "--no-build-isolation",
                "--disable-pip-version-check",
                "--no-input",
                "--target",
                str(target),
                str(src),
            ],
            capture_output=True,
            text=True,
            timeout=900,
        )
    if proc.returncode != 0:
        pytest.fail(f"installing the ivy-toy fixture failed:\n{proc.stdout}\n{proc.stderr}")
    return target


def _env(paths: Iterable[os.PathLike[str] | str], env: dict[str, str] | None) -> dict[str, str]:
    out = dict(os.environ)
    out.pop("IVY_BACKEND", None)  # the default rule is under test: only set it on purpose
    out.update(env or {})
    extra = [str(p) for p in paths]
    if out.get("PYTHONPATH"):
        extra.append(out["PYTHONPATH"])
    if extra:
        out["PYTHONPATH"] = os.pathsep.join(extra)
    out.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    return out


def run_python(
    code: str,
    paths: Iterable[os.PathLike[str] | str] = (),
    *,
    env: dict[str, str] | None = None,
    check: bool = True,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """Run ``code`` (dedented) with ``python -c`` and ``paths`` prepended to ``PYTHONPATH``.

    With ``check`` a non-zero exit fails the test, showing the subprocess's output.
    """
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=_env(paths, env),
        timeout=timeout,
        cwd=tempfile.gettempdir(),
    )
    if check and proc.returncode != 0:
        pytest.fail(
            f"subprocess exited with {proc.returncode}\n--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}",
            pytrace=False,
        )
    return proc


def run_json(code: str, paths: Iterable[os.PathLike[str] | str] = (), **kw: Any) -> Any:
    """Run ``code`` like :func:`run_python`; it calls ``emit(obj)`` once to hand back a result.

    ``emit`` is predefined in the script: it prints ``obj`` as JSON after :data:`JSON_MARK`.
    """
    prelude = f"def emit(obj):\n    import json, sys\n    print({JSON_MARK!r} + json.dumps(obj), flush=True)\n"
    proc = run_python(prelude + textwrap.dedent(code), paths, **kw)
    for line in proc.stdout.splitlines():
        if line.startswith(JSON_MARK):
            return json.loads(line[len(JSON_MARK) :])
    pytest.fail(
        f"the subprocess emitted no result\n--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}", pytrace=False
    )


def make_fake_dist(
    root: Path,
    dist: str,
    entry_points: dict[str, str],
    modules: dict[str, str],
    version: str = "0.1",
    group: str = "ivy.backends",
) -> Path:
    """Write an installed distribution ``dist`` into ``root`` (a folder for ``sys.path``).

    ``entry_points`` maps entry-point names of ``group`` (``ivy.backends``, or ``ivy.plugins`` for a
    plugin without a backend) to their values (``"module"``);
    ``modules`` maps top-level module names to their (dedented) source.
    """
    root.mkdir(parents=True, exist_ok=True)
    info = root / f"{dist.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
    eps = f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in entry_points.items())
    (info / "entry_points.txt").write_text(eps)
    files = []
    for mod, src in modules.items():
        (root / f"{mod}.py").write_text(textwrap.dedent(src))
        files.append(f"{mod}.py")
    record = [f"{f},," for f in files] + [f"{info.name}/{n},," for n in ("METADATA", "entry_points.txt", "RECORD")]
    (info / "RECORD").write_text("\n".join(record) + "\n")
    return info


def dumps(obj: Any) -> str:  # pragma: no cover - convenience for debugging
    return json.dumps(obj, indent=2)
