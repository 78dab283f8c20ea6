"""Ivy's cross-backend reference tests: one backend per pytest process.

    python -m pytest tests --backend torch -q -p no:cacheprovider --import-mode=importlib

The backend comes from ``--backend`` or ``IVY_TEST_BACKEND``; without either, backend-parametrized
tests are skipped. Only the selected backend's framework (and NumPy) is imported in the process:
paddle crashes the interpreter when imported after tensorflow.
"""

from __future__ import annotations

import os
import sys

import pytest
from hypothesis import HealthCheck, settings

# --import-mode=importlib does not put tests/ on sys.path: make the _helpers package importable.
_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

SKIP_REASON = "run with --backend NAME (scripts/test runs every backend in its own process)"

settings.register_profile(
    "ci",
    max_examples=6,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
settings.register_profile(
    "dev",
    max_examples=50,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--backend",
        action="store",
        default=os.environ.get("IVY_TEST_BACKEND") or None,
        help="Ivy backend to test (numpy, torch, jax, tensorflow, paddle); default $IVY_TEST_BACKEND",
    )


def pytest_configure(config: pytest.Config) -> None:
    name = config.getoption("--backend")
    if name == "jax":
        # Before jax is imported: the reference dtypes include 64-bit ones.
        os.environ.setdefault("JAX_ENABLE_X64", "1")


def pytest_report_header(config: pytest.Config) -> str:
    name = config.getoption("--backend")
    return f"ivy backend: {name or '(none: backend tests skip)'}; hypothesis profile: {settings._current_profile}"


@pytest.fixture(scope="session")
def backend(request: pytest.FixtureRequest) -> str:
    """The backend under test (``--backend`` / ``IVY_TEST_BACKEND``)."""
    name = request.config.getoption("--backend")
    if not name:
        pytest.skip(SKIP_REASON)
    import ivy

    if name not in ivy.backends():
        pytest.fail(f"backend {name!r} is not installed (installed: {ivy.backends()})")
    return name


@pytest.fixture(scope="session")
def xp(backend: str):
    """The backend's Array API namespace, ``ivy.backend_namespace(backend)``."""
    import ivy

    return ivy.backend_namespace(backend)
