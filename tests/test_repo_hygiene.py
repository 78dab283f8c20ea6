"""Hygiene of the repository's test trees."""

from __future__ import annotations

import ast
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
