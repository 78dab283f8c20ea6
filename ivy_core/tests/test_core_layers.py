"""Core is layered: no module imports, directly or through others, a module that imports it back
(imports inside functions count; imports under ``if TYPE_CHECKING:`` do not, they never run)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ivy.testing.imports import import_cycles, import_graph

SRC = Path(__file__).resolve().parents[1] / "src" / "ivy"


def test_core_has_no_import_cycle() -> None:
    edges = import_graph(SRC)
    assert len(edges) > 40 and edges["ivy._dispatch"] >= {"ivy._context", "ivy._registry"}  # the scan works
    assert import_cycles(edges) == []


def test_the_contract_imports_nothing_of_the_machinery() -> None:
    # ivy.plugin is the contract alone: a plugin author's import pulls in no dispatch or registry
    assert import_graph(SRC)["ivy.plugin"] <= {"ivy._spec", "ivy._spec._base"}


def test_import_cycles_finds_a_cycle_through_a_function_level_import(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .b import g\n")
    (pkg / "b.py").write_text("def g():\n    from . import c\n")
    (pkg / "c.py").write_text("import pkg.a\n")
    (pkg / "d.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import x\n")
    edges = import_graph(pkg)
    assert edges["pkg.d"] == set()  # an import under TYPE_CHECKING never runs
    assert import_cycles(edges) == [["pkg.a", "pkg.b", "pkg.c"]]
    with pytest.raises(ValueError, match="not a package folder"):
        import_graph(tmp_path)
