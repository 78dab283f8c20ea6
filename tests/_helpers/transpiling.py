"""What the ``tests/test_transpile_from_<framework>.py`` files share: the fixtures that pick the
targets a test runs for and give it a transpile cache of its own, and the comparisons."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ivy

__all__ = ["close", "file_cache", "not_the_source", "rand", "scaled_close", "target_among"]


def not_the_source(
    source: str, label: str, *, also_skip: dict[str, str] | None = None, needs: tuple[str, ...] = (), cache: bool = True
) -> Any:
    """An autouse fixture for a file transpiling from ``source``: the run of ``source`` itself is
    skipped (``label`` names the framework in the reason), so are the backends of ``also_skip``
    (backend -> reason); the modules of ``needs`` must import; ``cache``: each test gets an empty
    transpile cache (``IVY_CACHE_DIR``)."""

    @pytest.fixture(autouse=True, name="_transpile_target")
    def fixture(backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        if backend == source:
            pytest.skip(f"{label} to {label} is not a transpilation")
        if also_skip and backend in also_skip:
            pytest.skip(also_skip[backend])
        for module in needs:
            pytest.importorskip(module)
        if cache:
            monkeypatch.setenv("IVY_CACHE_DIR", str(tmp_path / "cache"))

    return fixture


def file_cache() -> Any:
    """An autouse fixture: one transpile cache for the whole file, so that each model is read once
    per target and loaded from the cache by the other tests (which exercises the cache too)."""

    @pytest.fixture(scope="module", autouse=True, name="_transpile_cache")
    def fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("IVY_CACHE_DIR", str(tmp_path_factory.mktemp("transpile-cache")))
            yield

    return fixture


def target_among(targets: tuple[str, ...], why: str) -> Callable[[str], str]:
    """A fixture giving the backend when it is one of ``targets``, skipping the test otherwise
    (``why``: what the test needs, for the reason)."""

    def fixture(backend: str) -> str:
        if backend not in targets:
            pytest.skip(f"{why}, not {backend}")
        return backend

    return pytest.fixture(fixture)


def rand(*shape: int, seed: int = 0, dtype: str = "float32") -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def close(got: Any, want: Any, rtol: float = 1e-4, atol: float = 1e-5) -> None:
    got, want = np.asarray(ivy.to_numpy(got)), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol)


def scaled_close(got: Any, want: Any, rtol: float = 1e-3) -> None:
    """Gradients through deep float32 models: relative to the largest entry of each array (and
    an absolute floor for gradients that are zero but for rounding, such as attention's key bias)."""
    want = np.asarray(want, np.float64)
    close(got, want, rtol=rtol, atol=rtol * float(np.abs(want).max()) + 1e-7)


def doubling_reference(x: np.ndarray, k: float) -> tuple[int, np.ndarray]:
    """The control-flow tests' loop and branch in plain Python: multiply ``x`` by ``k`` until its
    sum reaches 100, then add 1 (after more than 3 steps) or subtract 1; (steps, result)."""
    i, v = 0, x.copy()
    while v.sum() < 100.0:
        i, v = i + 1, (v * np.float32(k)).astype(np.float32)
    return i, v + 1.0 if i > 3 else v - 1.0


# 6, 1 and 0 steps of doubling_reference
LOOP_INPUTS = [np.float32([1.0, 2.0]), np.float32([30.0, 40.0]), np.float32([200.0, 1.0])]
