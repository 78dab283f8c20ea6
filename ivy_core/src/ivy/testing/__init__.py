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

Profiles: ``--ivy-profile quick|ci|dev`` (else ``$HYPOTHESIS_PROFILE``, else ``ci`` when ``$CI`` is
set, else ``dev``). ``quick`` is the one to iterate with: 2 fixed examples per property, and the
tests marked ``ivy_slow`` (compiled training steps, optimizer checkpoints, seeding in fresh
processes) skipped; ``ci`` runs 6 fixed examples per property, ``dev`` 50 random ones and also the
tests marked ``ivy_long`` (whole example programs, a minute of CPU per backend each). One
category alone: ``-k test_ref_linalg`` (the test modules are named by category).

Progress and time (``ivy.testing._progress``): a progress line every ``--ivy-progress`` seconds
(default 60; 0: none), and a per-test time budget, ``--ivy-budget`` seconds (default 20; 0: none):
a test running past it is named while it runs, and the tests that took longer are listed at the
end. The budget only reports; no test fails for its time.

Layering: :mod:`ivy.testing.imports` finds the import cycles in a package's source, for a test
that keeps a plugin or a library free of them.
"""

from __future__ import annotations

import fnmatch
import importlib.util
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ._progress import WATCH_KEY, Watch, terminal_copy
from .convert import has_autodiff, native_to_numpy, to_native

__all__ = ["has_autodiff", "native_to_numpy", "to_native", "read_xfails"]

SKIP_REASON = "run with --ivy-backend NAME (scripts/test runs every backend in its own process)"


#: the kit's profiles: hypothesis examples per property, and whether tests marked ivy_slow run
PROFILES = {"quick": (2, False, False), "ci": (6, True, False), "dev": (50, True, True)}
#: what the markers say (registered in pytest_configure)
SLOW_MARK = "ivy_slow: a slow test of the conformance kit (skipped by the quick profile)"
LONG_MARK = "ivy_long: a long test, a whole example program per backend (run by the dev profile only)"


def _register_hypothesis_profiles() -> bool:
    try:
        from hypothesis import HealthCheck, settings
    except ImportError:
        return False
    quiet = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
    for name, (examples, _, _) in PROFILES.items():
        settings.register_profile(
            name,
            max_examples=examples,
            deadline=None,
            derandomize=name != "dev",
            print_blob=True,
            suppress_health_check=quiet,
        )
    return True


_HYPOTHESIS = _register_hypothesis_profiles()


def _profile_name(config: pytest.Config | None) -> str:
    given = config.getoption("ivy_profile") if config is not None else None
    return str(given or os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))


def _load_profile(name: str) -> None:
    if _HYPOTHESIS:
        from hypothesis import settings

        settings.load_profile(name)


if _profile_name(None) in PROFILES:  # (a wrong name is reported once pytest is configured)
    _load_profile(_profile_name(None))


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
        "--ivy-profile",
        dest="ivy_profile",
        action="store",
        default=None,
        choices=sorted(PROFILES),
        help="quick: 2 fixed examples per property, slow tests skipped (iterate with it); ci: 6 fixed "
        "examples; dev: 50 random examples. Default $HYPOTHESIS_PROFILE, else ci when $CI is set, else dev",
    )
    group.addoption(
        "--ivy-budget",
        dest="ivy_budget",
        action="store",
        type=float,
        default=20.0,
        metavar="SECONDS",
        help="per-test time budget: a test running longer is named while it runs and listed at the end "
        "(reported only, never failed; 0: off; default 20)",
    )
    group.addoption(
        "--ivy-progress",
        dest="ivy_progress",
        action="store",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="a progress line (tests done, time taken) at most this often (0: none; default 60)",
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
    config.addinivalue_line("markers", SLOW_MARK)
    config.addinivalue_line("markers", LONG_MARK)
    name = _profile_name(config)
    if name not in PROFILES:
        raise pytest.UsageError(
            f"unknown Ivy test profile {name!r} (from $HYPOTHESIS_PROFILE); use one of {', '.join(PROFILES)}"
        )
    _load_profile(name)


@pytest.hookimpl(trylast=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    # (here: the terminal reporter exists, and pytest is not capturing the output descriptors)
    config = session.config
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    # xdist workers report to their controller, not to a terminal
    if reporter is not None and not hasattr(config, "workerinput"):
        budget, every = float(config.getoption("ivy_budget")), float(config.getoption("ivy_progress"))
        out = terminal_copy() if budget > 0 else None
        config.stash[WATCH_KEY] = Watch(reporter, out, budget, every)


def pytest_unconfigure(config: pytest.Config) -> None:
    watch = config.stash.get(WATCH_KEY, None)
    if watch is not None:
        watch.close()


def pytest_collection_finish(session: pytest.Session) -> None:
    watch = session.config.stash.get(WATCH_KEY, None)
    if watch is not None:
        watch.collected(len(session.items))


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("ivy_slow") is not None and not PROFILES[_profile_name(item.config)][1]:
        pytest.skip("a slow test: the quick profile skips it (--ivy-profile ci or dev runs it)")
    if item.get_closest_marker("ivy_long") is not None and not PROFILES[_profile_name(item.config)][2]:
        # (the ci profile is the test command's, which must finish in 20 minutes)
        pytest.skip("a long test: only the dev profile runs it (--ivy-profile dev, or HYPOTHESIS_PROFILE=dev)")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    watch = item.config.stash.get(WATCH_KEY, None)
    if watch is not None:
        watch.test_started(item.nodeid)
    yield
    if watch is not None:
        watch.test_finished(item.nodeid)


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
    except Exception:  # no file then; the backend fixture reports a broken plugin
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
    # stale entries are reported by the runs that collect the conformance suite, whose tests the
    # file names (a run of the other tests alone would list every entry)
    suite = Path(__file__).parent / "suite"
    if any(Path(item.path).is_relative_to(suite) for item in items):
        config.stash[_XFAILS] = (path, [p for p, _ in entries if p not in used])


_XFAILS = pytest.StashKey[tuple[Path, list[str]]]()


def _literal_brackets(pattern: str) -> str:
    """``pattern`` for fnmatch with ``[`` and ``]`` literal (they belong to test ids, as in
    ``test_op_present[einsum]``); ``*`` and ``?`` stay wildcards."""
    return "".join({"[": "[[]", "]": "[]]"}.get(c, c) for c in pattern)


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    watch = config.stash.get(WATCH_KEY, None)
    if watch is not None:
        watch.summary(terminalreporter)
    path, unused = config.stash.get(_XFAILS, (None, []))
    if unused and not config.getoption("keyword") and not config.getoption("markexpr"):
        terminalreporter.write_line(
            f"ivy.testing: {len(unused)} expected failure(s) in {path} match no collected test "
            f"(a renamed test, or a line to remove): {', '.join(unused)}",
            yellow=True,
        )


def pytest_report_header(config: pytest.Config) -> str:
    name = config.getoption("ivy_backend")
    return f"ivy backend: {name or '(none: backend tests skip)'}; ivy test profile: {_profile_name(config)}"


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
