"""The generated reference of docs/stateful.md is up to date and names every public class and
function of the stateful API (run once, in the numpy test process)."""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

import ivy
from ivy._stateful_names import NAMES

REPO = Path(__file__).resolve().parents[1]


def test_fn_stateful_reference_is_generated_and_complete(backend):
    if backend != "numpy":
        pytest.skip("runs once, in the numpy test process")
    p = subprocess.run(
        [sys.executable, str(REPO / "docs" / "gen_stateful.py"), "--check"], capture_output=True, text=True
    )
    assert p.returncode == 0, p.stderr
    text = (REPO / "docs" / "stateful.md").read_text(encoding="utf-8")
    missing = []
    for name in NAMES:
        obj = getattr(ivy, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            if not re.search(rf"#### `ivy(\.[a-z_]+)?\.{name}`", text):  # ivy.X, or ivy.losses.X
                missing.append(f"ivy.{name}")
        elif inspect.ismodule(obj):  # ivy.losses, ivy.metrics...: every public class and function
            for sub in getattr(obj, "__all__", []):
                if f"#### `ivy.{name}.{sub}`" not in text:
                    missing.append(f"ivy.{name}.{sub}")
    assert not missing, f"not in the reference of docs/stateful.md: {missing}"
