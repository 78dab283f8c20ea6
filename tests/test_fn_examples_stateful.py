"""The one command of examples/cnn_classifier.py and examples/transformer_lm.py trains its model to
above 90% accuracy on every autodiff backend (run here with ``--quick``, as a user runs it)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.mark.parametrize("script", ["cnn_classifier", "transformer_lm"])
def test_fn_examples_one_command_trains_above_90_percent(autodiff, script):
    """The script as a user runs it (``python examples/<script>.py --quick --backends <backend>``):
    the parent starts the backend's own process, which trains with the script's defaults (fit's
    compile="auto") and exits non-zero below 90%."""
    cmd = [sys.executable, str(EXAMPLES / f"{script}.py"), "--quick", "--backends", autodiff]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    found = re.search(rf"{autodiff}: [a-z -]*accuracy ([0-9.]+)", p.stdout)
    assert found is not None, p.stdout
    assert float(found.group(1)) > 0.9
