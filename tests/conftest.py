"""Ivy's cross-backend reference tests: one backend per pytest process.

    python -m pytest tests --backend torch -q

The backend option, the hypothesis profiles and the ``backend``/``xp``/``to_native``/``to_numpy``
fixtures come from Ivy's pytest plugin ``ivy.testing`` (loaded by the repository's pytest.ini).
"""

from __future__ import annotations

import os
import sys

# --import-mode=importlib does not put tests/ on sys.path: make the _helpers package importable.
_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
