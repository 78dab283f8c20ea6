"""Lines of code of the library functions the drone demo uses (the Ivy paper's Table 2, for our demo).

    python scripts/loc_analysis.py [--backend torch] [--markdown] [--details]

It runs the demo's set-up and two planning steps (eager, so that every Python function runs) under
``sys.setprofile`` and records every function of ivy_robot, ivy_mech and ivy_vision that executes,
helpers included, and every function of the demo itself. A function's lines are its source lines
that are not blank, not comments and not docstrings (its signature and decorators count). The table
gives, per library, the public functions the demo calls directly, all the functions that ran and
their lines; then the demo's own planning code, and the whole demo file (with its command line,
progress output and picture).
"""

from __future__ import annotations

import argparse
import ast
import importlib
import os
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "examples" / "drone_motion_planning.py"
LIBRARIES = ("ivy_robot", "ivy_mech", "ivy_vision")


@dataclass(frozen=True)
class Function:
    """A function (or method) definition in a source file."""

    path: str
    qualname: str
    lines: int  # non-blank, non-comment, non-docstring lines


@dataclass
class Usage:
    executed: set[Function] = field(default_factory=set)
    called_by_demo: set[Function] = field(default_factory=set)


def _docstring_lines(tree: ast.AST) -> set[int]:
    """Line numbers covered by docstrings (of the module, classes and functions)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                out.update(range(first.lineno, first.end_lineno + 1))
    return out


def count_code_lines(source_lines: list[str], first: int, last: int, skip: set[int]) -> int:
    """Lines ``first..last`` (1-based) that hold code: not blank, not a comment, not in ``skip``."""
    count = 0
    for number in range(first, last + 1):
        text = source_lines[number - 1].strip()
        if text and not text.startswith("#") and number not in skip:
            count += 1
    return count


class SourceIndex:
    """The function definitions of source files, found by the line a code object starts on."""

    def __init__(self) -> None:
        self._files: dict[str, dict[int, Function]] = {}

    def _index(self, path: str) -> dict[int, Function]:
        source = Path(path).read_text()
        tree = ast.parse(source)
        lines, docstrings = source.splitlines(), _docstring_lines(tree)
        table: dict[int, Function] = {}

        def visit(node: ast.AST, prefix: str, parent: Function | None) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                    # a function defined inside another one is part of it (its lines count there)
                    fn = parent or Function(
                        path, prefix + child.name, count_code_lines(lines, first, child.end_lineno, docstrings)
                    )
                    table[first] = table[child.lineno] = fn
                    visit(child, "", fn)
                elif isinstance(child, ast.ClassDef):
                    visit(child, prefix + child.name + ".", parent)
                else:
                    visit(child, prefix, parent)

        visit(tree, "", None)
        return table

    def function_of(self, code: CodeType) -> Function | None:
        """The definition a code object belongs to (a lambda or comprehension: its enclosing one)."""
        if code.co_filename not in self._files:
            self._files[code.co_filename] = self._index(code.co_filename)
        return self._files[code.co_filename].get(code.co_firstlineno)


def library_of(path: str, roots: dict[str, str]) -> str | None:
    for name, root in roots.items():
        if path.startswith(root):
            return name
    return None


def trace_demo(backend: str, steps: int) -> tuple[dict[str, Usage], Any]:
    """Runs the demo's set-up and ``steps`` eager planning steps; the functions that ran, per source."""
    sys.path.insert(0, str(DEMO.parent))
    demo = importlib.import_module(DEMO.stem)
    roots = {name: os.path.dirname(importlib.import_module(name).__file__) + os.sep for name in LIBRARIES}
    roots["demo"] = str(DEMO)
    index, usage = SourceIndex(), defaultdict(Usage)

    def enclosing(frame: FrameType | None) -> tuple[str | None, Function | None]:
        # a lambda or comprehension counts as part of the function that defines it
        while frame is not None:
            source = library_of(frame.f_code.co_filename, roots)
            if source is None:
                return None, None
            fn = index.function_of(frame.f_code)
            if fn is not None:
                return source, fn
            frame = frame.f_back
        return None, None

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        source, fn = enclosing(frame)
        if fn is None:
            return
        usage[source].executed.add(fn)
        caller_source, _ = enclosing(frame.f_back)
        if source != "demo" and caller_source == "demo":
            usage[source].called_by_demo.add(fn)

    sys.setprofile(profile)
    try:
        planner = demo.DronePlanner(backend)
        planner.plan(planner.initial_anchors(), steps=steps, compile=False)
    finally:
        sys.setprofile(None)
    return usage, demo


def demo_file_lines() -> tuple[int, int]:
    """``(lines of the module-level constants, lines of the whole file)`` of the demo."""
    source = DEMO.read_text()
    tree, lines = ast.parse(source), source.splitlines()
    docstrings = _docstring_lines(tree)
    constants = sum(
        count_code_lines(lines, node.lineno, node.end_lineno, docstrings)
        for node in tree.body
        if isinstance(node, (ast.Assign, ast.AnnAssign))
    )
    return constants, count_code_lines(lines, 1, len(lines), docstrings)


def render(rows: list[tuple[str, str, str, str]], markdown: bool) -> str:
    header = ("", "called by the demo", "functions run", "lines")
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|---|---|---|---|"]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        return "\n".join(lines)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(4)]
    out = ["  ".join(h.ljust(w) for h, w in zip(header, widths))]
    out += ["  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))) for row in rows]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", default="torch", help="an autodiff backend to run the demo on (default torch)")
    parser.add_argument("--steps", type=int, default=2, help="planning steps to trace (default %(default)s)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--details", action="store_true", help="also list every function and its lines")
    args = parser.parse_args(argv)

    usage, _ = trace_demo(args.backend, args.steps)
    rows, total = [], 0
    for name in LIBRARIES:
        used = usage[name]
        called = sorted(f.qualname for f in used.called_by_demo)
        lines = sum(f.lines for f in used.executed)
        total += lines
        rows.append((name, ", ".join(called) or "-", str(len(used.executed)), str(lines)))
    rows.append(("libraries, total", "", str(sum(len(usage[n].executed) for n in LIBRARIES)), str(total)))
    own = usage["demo"].executed
    constants, whole = demo_file_lines()
    rows.append(("the demo: scene and settings (constants)", "", "", str(constants)))
    rows.append(("the demo: set-up, cost and descent", "", str(len(own)), str(sum(f.lines for f in own))))
    rows.append(("the demo file (with CLI, progress, picture)", "", "", str(whole)))
    print(render(rows, args.markdown))
    if args.details:
        print()
        for name in (*LIBRARIES, "demo"):
            for fn in sorted(usage[name].executed, key=lambda f: (f.path, f.qualname)):
                print(f"{name:10s} {fn.lines:4d}  {os.path.relpath(fn.path, ROOT)}::{fn.qualname}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
