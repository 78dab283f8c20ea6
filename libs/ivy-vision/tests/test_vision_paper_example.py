"""The paper's example (examples/voxel_grid_in_native_models.py) runs in the backend's native model."""

from __future__ import annotations

import importlib.util
import pathlib

import numpy as np
import pytest

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "voxel_grid_in_native_models.py"


@pytest.fixture(scope="module")
def example():
    spec = importlib.util.spec_from_file_location("voxel_grid_in_native_models", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _check(out, grad, example):
    b = example.IMAGE[0]
    assert out.shape == (b,) + example.GRID_DIMS + (8,)
    assert np.all(np.isfinite(out)) and np.all(np.isfinite(grad))
    # the loss reaches the first (native) convolution only through coords_to_voxel_grid
    assert np.abs(grad).sum() > 0


def test_native_model(backend, example):
    if backend not in example.RUNNERS:
        pytest.skip(f"the example has no native model for {backend!r} (NumPy has no models or autodiff)")
    out, grad = example.RUNNERS[backend]()
    _check(out, grad, example)


def test_voxel_grid_in_native_model_matches_reference(backend, example, to_native, to_numpy):
    """The grid the models convolve: means and counts as scipy's binned_statistic_dd gives them."""
    from scipy.stats import binned_statistic_dd

    xyz, rgb = example.example_inputs()
    grid = to_numpy(example.voxelize(to_native(xyz), to_native(rgb)))
    pts, vals = xyz[0].reshape(-1, 3), np.concatenate([xyz[0], rgb[0]], -1).reshape(-1, 6)
    rng_ = [(-1.0, 1.0)] * 3
    counts = binned_statistic_dd(pts, vals[:, 0], "count", bins=example.GRID_DIMS, range=rng_).statistic
    means = np.stack(
        [binned_statistic_dd(pts, vals[:, c], "mean", bins=example.GRID_DIMS, range=rng_).statistic for c in range(6)],
        -1,
    )
    np.testing.assert_array_equal(grid[0, ..., -1], counts)
    np.testing.assert_allclose(grid[0, ..., :-1][counts > 0], means[counts > 0], rtol=1e-5, atol=1e-6)


def test_compiled_native_model(backend, example):
    if backend == "jax":
        _check(*example.run_jax(compiled=True), example)
    elif backend == "tensorflow":
        _check(*example.run_tensorflow(compiled=True), example)
    else:
        pytest.skip("compiled variants are run for the JAX (jax.jit) and TensorFlow (tf.function) models")


def test_jax_model_in_32_bit_mode(backend):
    """JAX's default mode (no x64): indices are int32 there, and the example still runs."""
    if backend != "jax":
        pytest.skip("a check of JAX's default 32-bit mode")
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "JAX_ENABLE_X64"}
    out = subprocess.run([sys.executable, str(EXAMPLE), "jax"], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "jax: output (2, 8, 8, 8, 8)" in out.stdout
