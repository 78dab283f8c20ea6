"""Ivy's pytest plugin: run a test suite against one installed Ivy backend.

Opt in with ``-p ivy.testing`` (on the command line, or in ``addopts``), then choose the backend::

    python -m pytest -p ivy.testing --ivy-backend torch tests/

``--backend`` is an alias of ``--ivy-backend``; the default is ``$IVY_TEST_BACKEND``. Without a
backend, tests that use the :func:`backend` fixture are skipped. One backend per process: paddle
crashes the interpreter when imported after tensorflow, and separate processes keep frameworks
apart.

Fixtures:

* ``backend``: the backend's name; ``xp``: its namespace (``ivy.backend_namespace(backend)``).
* ``to_native(a)``: a native array of the backend holding NumPy array ``a`` (values, shape, dtype);
  ``to_numpy(x)``: a NumPy copy of a native array. For the in-tree frameworks these use the
  framework's own API (tests must not trust the code they test to build inputs); for any other
  backend they use the backend's ``asarray`` and :func:`ivy.to_numpy`.
* ``autodiff``: the backend's name, skipping the test when the backend has no automatic
  differentiation (``BackendImpl.autodiff``).

Expected failures: a file of ``pattern  # reason`` lines (a test name or node id; ``*`` and ``?``
are wildcards, brackets are literal; the reason is required), from ``--ivy-xfails FILE`` or, by default, the file
``conformance-xfails.txt`` beside the plugin's entry-point module. Each matching test is marked
``xfail(strict=True)``: a test that passes again fails the run until its line is removed, and a
line that matches no collected test is reported at the end.

The conformance suite itself is the package :mod:`ivy.testing.suite`::

    python -m pytest -p ivy.testing --ivy-backend mybackend --pyargs ivy.testing.suite

Hypothesis profiles (when hypothesis is installed): ``ci`` (6 derandomized examples per property)
and ``dev`` (50 random examples), chosen by ``$HYPOTHESIS_PROFILE``, else ``ci`` when ``$CI`` is
set, else ``dev``.
"""

from __future__ import annotations

import fnmatch
import importlib.util
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .convert import has_autodiff, native_to_numpy, to_native

__all__ = ["has_autodiff", "native_to_numpy", "to_native", "read_xfails"]

SKIP_REASON = "run with --ivy-backend NAME (scripts/test runs every backend in its own process)"


def _register_hypothesis_profiles() -> str | None:
    try:
        from hypothesis import HealthCheck, settings
    except ImportError:
        return None
    quiet = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
    settings.register_profile(
        "ci", max_examples=6, deadline=None, derandomize=True, print_blob=True, suppress_health_check=quiet
    )
    settings.register_profile("dev", max_examples=50, deadline=None, print_blob=True, suppress_health_check=quiet)
    name = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
    settings.load_profile(name)
    return name


_PROFILE = _register_hypothesis_profiles()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ivy", "Ivy backend under test")
    group.addoption(
        "--ivy-backend",
        "--backend",
        dest="ivy_backend",
        action="store",
        default=os.environ.get("IVY_TEST_BACKEND") or None,
        help="Ivy backend to test (numpy, torch, jax, tensorflow, paddle, or any installed plugin's); "
        "default $IVY_TEST_BACKEND",
    )
    group.addoption(
        "--ivy-xfails",
        dest="ivy_xfails",
        action="store",
        default=None,
        metavar="FILE",
        help="expected failures of the backend (lines 'pattern  # reason'); default: "
        "conformance-xfails.txt beside the plugin's entry-point module",
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("ivy_backend") == "jax":
        # Before jax is imported: the reference dtypes include 64-bit ones.
        os.environ.setdefault("JAX_ENABLE_X64", "1")


def _xfails_file(config: pytest.Config, backend: str) -> Path | None:
    given = config.getoption("ivy_xfails")
    if given:
        return Path(given)
    try:
        from ivy import _registry

        ep = _registry._entry_points().get(backend)
        if ep is None:
            return None
        spec = importlib.util.find_spec(ep.value.partition(":")[0])
    except Exception:  # noqa: BLE001 - no file then; the backend fixture reports a broken plugin
        return None
    if spec is None or not spec.origin:
        return None
    path = Path(spec.origin).parent / "conformance-xfails.txt"
    return path if path.exists() else None


def read_xfails(path: Path) -> list[tuple[str, str]]:
    """``[(pattern, reason)]`` of an expected-failures file; a line without a reason is an error."""
    out = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        pattern, sep, reason = text.partition("#")
        if not sep or not reason.strip():
            raise pytest.UsageError(f"{path}:{n}: every expected failure needs a reason: 'pattern  # reason'")
        out.append((pattern.strip(), reason.strip()))
    return out


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    backend = config.getoption("ivy_backend")
    if not backend:
        return
    path = _xfails_file(config, backend)
    if path is None:
        return
    entries = read_xfails(path)
    used: set[str] = set()
    for item in items:
        for pattern, reason in entries:
            glob = _literal_brackets(pattern)
            if fnmatch.fnmatchcase(item.name, glob) or fnmatch.fnmatchcase(item.nodeid, glob):
                item.add_marker(pytest.mark.xfail(strict=True, reason=f"expected on {backend!r}: {reason}"))
                used.add(pattern)
                break
    config.stash[_XFAILS] = (path, [p for p, _ in entries if p not in used])


_XFAILS = pytest.StashKey[tuple[Path, list[str]]]()


def _literal_brackets(pattern: str) -> str:
    """``pattern`` for fnmatch with ``[`` and ``]`` literal (they belong to test ids, as in
    ``test_op_present[einsum]``); ``*`` and ``?`` stay wildcards."""
    return "".join({"[": "[[]", "]": "[]]"}.get(c, c) for c in pattern)


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    path, unused = config.stash.get(_XFAILS, (None, []))
    if unused and not config.getoption("keyword") and not config.getoption("markexpr"):
        terminalreporter.write_line(
            f"ivy.testing: {len(unused)} expected failure(s) in {path} match no collected test "
            f"(a renamed test, or a line to remove): {', '.join(unused)}",
            yellow=True,
        )


def pytest_report_header(config: pytest.Config) -> str:
    name = config.getoption("ivy_backend")
    return f"ivy backend: {name or '(none: backend tests skip)'}; hypothesis profile: {_PROFILE}"


@pytest.fixture(scope="session")
def backend(request: pytest.FixtureRequest) -> str:
    """The backend under test (``--ivy-backend`` / ``IVY_TEST_BACKEND``)."""
    name = request.config.getoption("ivy_backend")
    if not name:
        pytest.skip(SKIP_REASON)
    import ivy

    if name not in ivy.backends():
        pytest.fail(f"backend {name!r} is not installed (installed: {ivy.backends()})")
    return str(name)


@pytest.fixture(scope="session")
def xp(backend: str) -> Any:
    """The backend's namespace, ``ivy.backend_namespace(backend)``."""
    import ivy

    return ivy.backend_namespace(backend)


@pytest.fixture(scope="session")
def autodiff(backend: str) -> str:
    """The backend's name; skips the test when the backend has no automatic differentiation."""
    if not has_autodiff(backend):
        pytest.skip(f"the {backend!r} backend has no automatic differentiation")
    return backend


@pytest.fixture(scope="session", name="to_numpy")
def _to_numpy_fixture(backend: str) -> Callable[[Any], Any]:
    """``to_numpy(x)``: a NumPy copy of the backend's native array ``x`` (scalars pass through)."""
    return lambda x: native_to_numpy(backend, x)


@pytest.fixture(scope="session", name="to_native")
def _to_native_fixture(backend: str) -> Callable[..., Any]:
    """``to_native(a, dtype=None)``: a native array of the backend holding NumPy array ``a``."""
    return lambda a, dtype=None: to_native(backend, a, dtype)
