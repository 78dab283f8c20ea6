"""Imports paddle once, quietly: its C++ (glog) warnings and import-time Python warnings are
silenced for the import only, the user's environment is restored afterwards."""

from __future__ import annotations

import os
import warnings
from typing import Any


def _import_paddle() -> Any:  # the paddle module
    key = "GLOG_minloglevel"
    had = os.environ.get(key)
    if had is None:
        os.environ[key] = "2"  # glog reads it at library load: hide per-op INFO/WARNING lines
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "No ccache found" and similar import-time noise
            import paddle
    finally:
        if had is None:
            os.environ.pop(key, None)
    return paddle


paddle = _import_paddle()
Tensor = paddle.Tensor
