"""The one command of each training example (examples/cnn_classifier.py, transformer_lm.py,
gru_forecaster.py, vit_classifier.py, conv_vae.py, module_interop.py) passes its own checks on every
autodiff backend (run here with ``--quick``, as a user runs it)."""

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


@pytest.mark.ivy_long  # (30-60 s of CPU per backend for the four: the dev profile runs them)
@pytest.mark.parametrize("script", ["gru_forecaster", "vit_classifier", "conv_vae", "module_interop"])
def test_fn_examples_training_programs_pass_their_own_checks(autodiff, script):
    """The four training programs of the user study, as a user runs them (``--quick``): a GRU
    forecaster that must beat the seasonal baseline and resume exactly from its checkpoint, a ViT
    above twice chance, a convolutional VAE whose compiled step equals the eager one, and native
    modules trained inside Ivy and Ivy modules trained natively with their parameters shared.
    Each script checks its own verdict and exits non-zero when it fails."""
    cmd = [sys.executable, str(EXAMPLES / f"{script}.py"), "--quick", "--backends", autodiff]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    assert p.stdout.strip().splitlines()[-1].startswith("OK: "), p.stdout[-3000:]
