"""Import cycles in a package's source, found by reading it (nothing is imported): the check
that keeps a package layered, for Ivy's own packages and for plugins and libraries::

    from pathlib import Path

    import mypackage
    from ivy.testing.imports import import_cycles, import_graph

    def test_mypackage_has_no_import_cycle():
        assert import_cycles(import_graph(Path(mypackage.__file__).parent)) == []

An import inside a function counts (it runs, later); one under ``if TYPE_CHECKING:`` does not
(it never runs).
"""

from __future__ import annotations

import ast
import os
from collections.abc import Mapping
from pathlib import Path

__all__ = ["import_graph", "import_cycles"]


def _modules(package: Path) -> dict[str, Path]:
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _runtime_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append(child)
            visit(child)

    visit(tree)
    return found


def import_graph(package: str | os.PathLike[str]) -> dict[str, set[str]]:
    """The package's modules (dotted names, ``pkg.sub.mod``; a package is named by its
    ``__init__``) and, for each, the package's modules it imports.

    ``from .mod import name`` is an edge to ``mod``; ``from . import sub`` one to ``sub`` when it
    is a module. Imports of other packages are left out.

    Raises:
        ValueError: ``package`` is not a folder with an ``__init__.py``.
    """
    root = Path(package)
    if not (root / "__init__.py").is_file():
        raise ValueError(f"import_graph: {os.fspath(package)!r} is not a package folder (it has no __init__.py)")
    mods = _modules(root)
    edges: dict[str, set[str]] = {}
    for name, path in mods.items():
        base = name if path.name == "__init__.py" else name.rpartition(".")[0]
        deps: set[str] = set()
        for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                deps.update(a.name for a in node.names)
                continue
            if node.level:
                pkg = base
                for _ in range(node.level - 1):
                    pkg = pkg.rpartition(".")[0]
                target = pkg + ("." + node.module if node.module else "")
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                if sub in mods:
                    deps.add(sub)
                elif target in mods and not (node.level and not node.module):
                    deps.add(target)  # a name of the module `target`
        edges[name] = {d for d in deps if d in mods and d != name}
    return edges


def import_cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph`` (from :func:`import_graph`): each a sorted list of the
    modules that import one another, directly or through others (empty: none)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def strong(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in graph:
        if v not in index:
            strong(v)
    return out
