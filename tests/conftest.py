"""Ivy's cross-backend reference tests: one backend per pytest process.

    python -m pytest tests --backend torch -q

The backend option, the hypothesis profiles and the ``backend``/``xp``/``to_native``/``to_numpy``
fixtures come from Ivy's pytest plugin ``ivy.testing`` (loaded by the repository's pytest.ini); how
the test processes collect garbage, from the repository's root ``conftest.py``.
"""

from __future__ import annotations

import os
import sys

import pytest

# --import-mode=importlib does not put tests/ on sys.path: make the _helpers package importable.
_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

#: the files whose tests use no backend: they run once, in the process without ``--backend``
#: (``scripts/test``'s core job), not again in every backend's process
BACKEND_FREE = ("test_third_party_plugin.py", "test_repo_hygiene.py")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.getoption("ivy_backend", None):
        return
    once = pytest.mark.skip(reason="uses no backend: runs once, without --backend (scripts/test's core job)")
    for item in items:
        if item.path.name in BACKEND_FREE:
            item.add_marker(once)
