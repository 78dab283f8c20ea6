"""The documented examples run: every Python block marked runnable in README.md, docs/*.md and the
READMEs of the distributions.

A block is marked by an HTML comment on the line before its fence (invisible when rendered)::

    <!-- runnable: torch -->
    ```python
    ...
    ```

It runs in a fresh interpreter, in the test process of the backend it names (``any``: the numpy
process), so each example runs once per test run, with the frameworks it needs importable.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = [
    REPO / "README.md",
    *sorted((REPO / "docs").glob("*.md")),
    *sorted(REPO.glob("ivy_core/README.md")),
    *sorted(REPO.glob("plugins/*/README.md")),
    *sorted(REPO.glob("libs/*/README.md")),
]
_BLOCK = re.compile(r"<!-- runnable: *([a-z_]+) *-->\s*\n```python\n(.*?)\n```", re.S)


def _blocks() -> list[tuple[str, str, str]]:
    out = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for m in _BLOCK.finditer(text):
            line = text[: m.start()].count("\n") + 1
            out.append((f"{path.relative_to(REPO)}:{line}", m.group(1), m.group(2)))
    return out


BLOCKS = _blocks()


def test_docs_have_runnable_examples() -> None:
    assert len(BLOCKS) >= 5, "the README and the guides mark their examples runnable"


@pytest.mark.parametrize(("where", "needs", "code"), BLOCKS, ids=[b[0] for b in BLOCKS])
def test_documented_example_runs(backend: str, where: str, needs: str, code: str, tmp_path: Path) -> None:
    if needs != backend and not (needs == "any" and backend == "numpy"):
        pytest.skip(f"runs in the {needs if needs != 'any' else 'numpy'} test process")
    env = {k: v for k, v in os.environ.items() if k not in ("IVY_BACKEND",)}
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600)
    assert p.returncode == 0, f"{where} failed:\n{p.stdout[-2000:]}\n{p.stderr[-4000:]}"
