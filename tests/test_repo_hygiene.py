"""Hygiene of the repository: its test trees, what plugins and libraries use of core, and mypy's
reach (every distribution)."""

from __future__ import annotations

import ast
import configparser
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_test_names_are_unique_repo_wide() -> None:
    """pytest runs every test tree with --import-mode=importlib: a test function name may occur once
    in the whole repository (tests/, ivy_core/tests/, the conformance suite, plugins/*/tests/,
    libs/*/tests/)."""
    seen: dict[str, list[str]] = {}
    roots = [
        REPO / "tests",
        REPO / "ivy_core" / "tests",
        REPO / "ivy_core" / "src" / "ivy" / "testing" / "suite",
        *sorted((REPO / "plugins").glob("*/tests")),
        *sorted((REPO / "libs").glob("*/tests")),
    ]
    for root in roots:
        for path in sorted(root.rglob("test_*.py")):
            if "fixtures" in path.relative_to(REPO).parts:
                continue
            tree = ast.parse(path.read_text(), str(path))
            for node in tree.body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test_"):
                    seen.setdefault(node.name, []).append(str(path.relative_to(REPO)))
                elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                    seen.setdefault(node.name, []).append(str(path.relative_to(REPO)))
    dups = {k: v for k, v in seen.items() if len(v) > 1}
    assert not dups, f"test names defined more than once: {dups}"


#: a dotted name of Ivy's that passes through a private part (``ivy._registry``, ``ivy.graph._ir``)
_PRIVATE = re.compile(r"^ivy(\.\w+)*\._(?!_)\w*")


def _private_uses(source: str, filename: str = "<source>") -> list[tuple[int, str]]:
    """``(line, what)`` for each private name of ``ivy`` that ``source`` uses: ``import ivy._x``,
    ``from ivy._x import y``, ``from ivy import _x``, ``ivy._x``, ``"ivy._x"`` (importlib)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source, filename)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "ivy":
            names = [f"ivy.{node.attr}"]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names = [node.value]
        private = [name for name in names if _PRIVATE.match(name)]
        if private:
            found.append((node.lineno, private[0]))
    return sorted(found)


def test_private_uses_finds_every_spelling() -> None:
    source = (
        "import ivy._registry\n"
        "from ivy.graph._ir import Value\n"
        "from ivy import _registry, plugin_kit\n"
        "import ivy\n"
        "b = ivy._registry.get_backend('torch')\n"
        "m = importlib.import_module('ivy._spec')\n"
        "from ivy.plugin_kit import fastpath\n"
        "x = ivy.__version__\n"
    )
    assert [line for line, _ in _private_uses(source)] == [1, 2, 3, 5, 6]


def test_plugins_and_libraries_use_only_cores_public_names() -> None:
    """Plugins and libraries build on core's public surface (``ivy``, ``ivy.plugin``,
    ``ivy.plugin_kit``, ``ivy.transpile``...), never on its private modules, which change
    without notice."""
    bad = []
    for root in [*sorted((REPO / "plugins").glob("*/src")), *sorted((REPO / "libs").glob("*/src"))]:
        for path in sorted(root.rglob("*.py")):
            for line, name in _private_uses(path.read_text(encoding="utf-8"), str(path)):
                bad.append(f"{path.relative_to(REPO)}:{line}: {name}")
    assert len(list((REPO / "plugins").glob("*/src/*/__init__.py"))) >= 5  # (the scan finds the plugins)
    assert not bad, "private names of ivy used outside core:\n" + "\n".join(bad)


def test_mypy_checks_every_distribution() -> None:
    """``mypy`` (scripts/test's lint step) type-checks the package of every distribution: a new
    plugin, library or template is listed in mypy.ini's ``files`` and ``mypy_path``."""
    config = configparser.ConfigParser()
    config.read(REPO / "mypy.ini", encoding="utf-8")
    listed = {p.strip() for p in config["mypy"]["files"].split(",") if p.strip()}
    search_path = {p.strip() for p in config["mypy"]["mypy_path"].split(",") if p.strip()}
    bases = [
        REPO / "ivy_core",
        *(d for group in ("plugins", "libs", "templates") for d in sorted((REPO / group).glob("*"))),
    ]
    packages = {
        str(init.parent.relative_to(REPO))
        for base in bases
        if (base / "pyproject.toml").is_file()
        for init in sorted((base / "src").glob("*/__init__.py"))
    }
    assert len(packages) >= 12  # (core, six plugins, four libraries, the template: the scan finds them)
    assert packages == listed, (
        f"mypy.ini's files: missing {sorted(packages - listed)}, extra {sorted(listed - packages)}"
    )
    unsearched = {str(Path(p).parent) for p in packages} - search_path
    assert not unsearched, f"mypy.ini's mypy_path misses {sorted(unsearched)}"


def test_the_test_command_refuses_a_log_folder_of_an_earlier_run(tmp_path: Path) -> None:
    """scripts/test reads each job's verdict from LOGS/<job>.rc: an earlier run's files in the
    folder given by IVY_TEST_LOGS would count as this run's jobs, finished and passed."""
    import os
    import subprocess

    (tmp_path / "core.rc").write_text("0\n")
    env = {**os.environ, "IVY_TEST_LOGS": str(tmp_path)}
    p = subprocess.run(["bash", str(REPO / "scripts" / "test"), "numpy"], capture_output=True, text=True, env=env)
    assert p.returncode == 2, p.stdout + p.stderr
    assert "holds the results of an earlier run" in p.stderr
    assert sorted(f.name for f in tmp_path.iterdir()) == ["core.rc"]  # nothing run, nothing written
