"""Fixtures of ivy-core's tests.

The helpers live in ``_support/`` and are registered here as the module
``ivy_core_tests_support`` (test files import them from there: the tests run with
``--import-mode=importlib``, so the test folder is not on ``sys.path``).
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

_SUPPORT = "ivy_core_tests_support"
if _SUPPORT not in sys.modules:
    _spec = importlib.util.spec_from_file_location(_SUPPORT, Path(__file__).parent / "_support" / "__init__.py")
    assert _spec is not None and _spec.loader is not None
    _mod = importlib.util.module_from_spec(_spec)
    sys.modules[_SUPPORT] = _mod
    _spec.loader.exec_module(_mod)

from ivy_core_tests_support import install_toy, run_json, run_python


@pytest.fixture(scope="session")
def toy_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the installed ivy-toy plugin (built once per session)."""
    return install_toy(tmp_path_factory.mktemp("toy-site"))


@pytest.fixture(scope="session")
def run_py() -> Any:
    """``run_py(code, paths=(), env=None, check=True)``: run code in a fresh interpreter."""
    return run_python


@pytest.fixture(scope="session")
def run_py_json() -> Any:
    """``run_py_json(code, paths=(), ...)``: like run_py; the code calls ``emit(obj)``."""
    return run_json


@pytest.fixture(scope="module")
def toy(toy_site: Path) -> Iterator[Any]:
    """The toy backend, usable in this process: yields the ``ivy_toy`` module.

    The site folder is put on ``sys.path`` and Ivy's plugin discovery refreshed; afterwards both
    are undone, so later tests see the installed backends only (the loaded backend object stays
    cached, harmlessly).
    """
    import ivy
    from ivy import _registry

    sys.path.insert(0, str(toy_site))
    _registry.refresh()
    try:
        assert "toy" in ivy.backends()
        import ivy_toy

        yield ivy_toy
    finally:
        sys.path.remove(str(toy_site))
        _registry.refresh()


@pytest.fixture(autouse=True)
def _fresh_backend_stack() -> Iterator[None]:
    """Every test starts with no backend set and cannot leak one to the next."""
    from ivy import _context

    token = _context._STACK.set(())
    try:
        yield
    finally:
        _context._STACK.reset(token)
