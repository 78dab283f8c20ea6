"""TensorFlow's start-up lines: loading the backend applies ``TF_CPP_MIN_LOG_LEVEL`` to the lines
TensorFlow logs before it reads that setting."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytest.importorskip("tensorflow")

from ivy_tensorflow._startup import _shown

# (TensorFlow 2.21's own lines, as it logs them while its libraries load)
ABSL_NOTICE = b"WARNING: All log messages before absl::InitializeLog() is called are written to STDERR\n"
INFO = b"I0000 00:00:1796183469.033659    9111 port.cc:153] oneDNN custom operations are on. You may see ...\n"
ERROR = b"E0000 00:00:1796183486.765318   10118 util.cc:131] oneDNN supports DT_INT64 only on platforms with ...\n"


def test_tensorflow_start_up_lines_are_kept_by_severity() -> None:
    hide_info_and_warnings = b"IW"  # TF_CPP_MIN_LOG_LEVEL=2, the plugin's default
    assert not _shown(ABSL_NOTICE, hide_info_and_warnings)
    assert not _shown(INFO, hide_info_and_warnings)
    assert not _shown(INFO.replace(b"I0000", b"W1231", 1), hide_info_and_warnings)
    assert _shown(ERROR, hide_info_and_warnings)
    assert not _shown(ERROR, b"IWE")  # TF_CPP_MIN_LOG_LEVEL=3
    for other in (b"Traceback (most recent call last):\n", b"x.py:3: UserWarning: I0000 is a name\n", b"\n"):
        assert _shown(other, b"IWE"), other


def test_loading_the_tensorflow_backend_prints_no_start_up_lines() -> None:
    code = "import numpy as np, ivy\nprint(type(ivy.asarray(np.ones(3), backend='tensorflow')).__name__)\n"
    env = {k: v for k, v in os.environ.items() if k not in ("TF_CPP_MIN_LOG_LEVEL", "IVY_BACKEND")}
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "EagerTensor", p.stdout
    assert "oneDNN" not in p.stderr and "absl::InitializeLog" not in p.stderr, p.stderr
