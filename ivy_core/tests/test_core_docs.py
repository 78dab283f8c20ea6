"""The API reference (docs/api.md) is generated from the specs and must be up to date."""

from __future__ import annotations

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_core_api_reference_is_generated_from_the_current_specs() -> None:
    script = os.path.join(ROOT, "docs", "gen_api.py")
    p = subprocess.run([sys.executable, script, "--check"], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
