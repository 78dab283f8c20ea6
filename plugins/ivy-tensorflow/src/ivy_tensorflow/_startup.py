"""Imports TensorFlow without the start-up lines it writes before it reads its log level.

TensorFlow's logging level is ``TF_CPP_MIN_LOG_LEVEL`` (0: everything, 1: no INFO, 2: no WARNING
either, 3: no ERROR either); the plugin sets it to 2 unless the user set it. But TensorFlow 2.21
links its platform code and Abseil's logging twice, into ``libtensorflow_framework.so.2`` and into
``python/profiler/internal/_pywrap_profiler_plugin.so``, and each copy logs "oneDNN custom
operations are on ..." (after Abseil's "All log messages before absl::InitializeLog() is called
are written to STDERR") while its library is being loaded, before TensorFlow has read that
setting: every process printed those lines twice, whatever the setting. So the import runs with
the process's standard error going to a file, and what TensorFlow wrote there is then written to
standard error, less the lines that the setting filters out and Abseil's notice.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from types import ModuleType

#: an Abseil log line: severity letter, date (MMDD), time, thread id, "file:line]"
_LOG_LINE = re.compile(rb"^([IWEF])\d{4} [\d:.]+ +\d+ [^ \]]+:\d+\] ")
_ABSL_NOTICE = b"WARNING: All log messages before absl::InitializeLog() is called are written to STDERR"
_HIDDEN_BY_LEVEL = {1: b"I", 2: b"IW", 3: b"IWE"}


def _level() -> int:
    try:
        return int(os.environ.get("TF_CPP_MIN_LOG_LEVEL", "0"))
    except ValueError:
        return 0


def _shown(line: bytes, hidden: bytes) -> bool:
    if line.rstrip(b"\r\n") == _ABSL_NOTICE:
        return False
    m = _LOG_LINE.match(line)
    return m is None or m.group(1) not in hidden


def import_tensorflow() -> ModuleType:
    """``import tensorflow``, its early log lines filtered by ``TF_CPP_MIN_LOG_LEVEL`` (default 2)."""
    if "tensorflow" in sys.modules:  # (imported by the user already: their process, their lines)
        return sys.modules["tensorflow"]
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    hidden = _HIDDEN_BY_LEVEL.get(min(_level(), 3), b"")
    if not hidden:  # the user asked for every line
        import tensorflow

        return tensorflow
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError, AttributeError):  # no standard error to redirect
        import tensorflow

        return tensorflow
    with tempfile.TemporaryFile() as captured:
        os.dup2(captured.fileno(), 2)
        try:
            import tensorflow
        finally:
            try:
                sys.stderr.flush()  # (what Python wrote during the import, in its place among TF's lines)
            finally:
                os.dup2(saved, 2)
                os.close(saved)
            captured.seek(0)
            kept = b"".join(line for line in captured.read().splitlines(keepends=True) if _shown(line, hidden))
            while kept:
                kept = kept[os.write(2, kept) :]
    return tensorflow
