"""Spline paths against SciPy's ``RBFInterpolator``; path length and collision cost against NumPy."""

from __future__ import annotations

import contextlib

import numpy as np
import pytest
from scipy.interpolate import RBFInterpolator

import ivy
import ivy_robot

KERNELS = {1: "linear", 2: "thin_plate_spline", 3: "cubic", 5: "quintic"}


def _scipy_spline(anchors, vals, samples, order):
    """SciPy's interpolant over the flattened leading dims: ``[..., n, p]`` etc. -> ``[..., s, d]``."""
    batch = np.broadcast_shapes(anchors.shape[:-2], vals.shape[:-2], samples.shape[:-2])
    anchors = np.broadcast_to(anchors, batch + anchors.shape[-2:]).reshape((-1,) + anchors.shape[-2:])
    vals = np.broadcast_to(vals, batch + vals.shape[-2:]).reshape((-1,) + vals.shape[-2:])
    samples = np.broadcast_to(samples, batch + samples.shape[-2:]).reshape((-1,) + samples.shape[-2:])
    with np.errstate(all="ignore"), pytest.warns(UserWarning) if order == 5 else contextlib.nullcontext():
        # degree=1 (a linear term) is what the spline uses; SciPy warns that quintic wants 2
        out = [
            RBFInterpolator(c, y, kernel=KERNELS[order], degree=1, smoothing=0)(s)
            for c, y, s in zip(anchors, vals, samples)
        ]
    return np.stack(out).reshape(batch + out[0].shape)


@pytest.mark.parametrize("order", [1, 2, 3, 5])
def test_spline_matches_scipy_uniform_and_irregular(backend, to_native, to_numpy, rng, order):
    uniform = np.linspace(0.0, 1.0, 5)[:, None]
    irregular = np.sort(rng.uniform(0.0, 1.0, (7, 1)), axis=0)
    for anchors in (uniform, irregular):
        vals = rng.normal(size=(anchors.shape[0], 6))
        samples = np.concatenate([np.linspace(-0.1, 1.1, 60)[:, None], anchors])  # includes the anchors
        out = ivy_robot.sample_spline_path(to_native(anchors), to_native(vals), to_native(samples), order=order)
        assert ivy.is_native_array(out)
        out = to_numpy(out)
        assert out.shape == (samples.shape[0], 6) and out.dtype == np.float64
        np.testing.assert_allclose(out, _scipy_spline(anchors, vals, samples, order), rtol=1e-8, atol=1e-8)
        np.testing.assert_allclose(out[60:], vals, atol=1e-9)  # it interpolates


def test_spline_in_two_dimensions_and_float32(backend, to_native, to_numpy, rng):
    anchors, vals, samples = rng.uniform(size=(9, 2)), rng.normal(size=(9, 3)), rng.uniform(size=(20, 2))
    out = to_numpy(ivy_robot.sample_spline_path(to_native(anchors), to_native(vals), to_native(samples)))
    np.testing.assert_allclose(out, _scipy_spline(anchors, vals, samples, 3), rtol=1e-8, atol=1e-8)
    f32 = [to_native(a.astype(np.float32)) for a in (anchors, vals, samples)]
    out32 = to_numpy(ivy_robot.sample_spline_path(*f32))
    assert out32.dtype == np.float32
    np.testing.assert_allclose(out32, out, atol=2e-4)


def test_spline_reference_path_of_the_original_tests(backend, to_native, to_numpy):
    # The original library's check: this path of 3-D positions ends at its last anchor.
    anchors = np.linspace(0.0, 1.0, 5)[:, None]
    vals = np.array([[0.0, 0.0, 0.6], [0.3, 0.4, 0.9], [0.5, 0.5, 1.0], [0.8, 0.9, 0.8], [1.025, 1.125, 0.6]])
    out = to_numpy(
        ivy_robot.sample_spline_path(
            to_native(anchors), to_native(vals), to_native(np.linspace(0.0, 1.0, 100)[:, None])
        )
    )
    np.testing.assert_allclose(out[-1], [1.025, 1.125, 0.6], atol=1e-9)
    np.testing.assert_allclose(out[0], [0.0, 0.0, 0.6], atol=1e-9)


def test_spline_batch_dims_broadcast(backend, to_native, to_numpy, rng):
    anchors = np.sort(rng.uniform(size=(3, 1, 5, 1)), axis=-2)  # [3, 1, 5, 1]
    vals = rng.normal(size=(2, 5, 4))  # [2, 5, 4]: shared by the anchor batch
    samples = rng.uniform(size=(1, 2, 11, 1))
    out = to_numpy(ivy_robot.sample_spline_path(to_native(anchors), to_native(vals), to_native(samples)))
    assert out.shape == (3, 2, 11, 4)
    np.testing.assert_allclose(out, _scipy_spline(anchors, vals, samples, 3), rtol=1e-8, atol=1e-8)
    # unbatched anchors with a batch of values: one inverse serves every path
    shared = np.linspace(0, 1, 5)[:, None]
    out = to_numpy(ivy_robot.sample_spline_path(to_native(shared), to_native(vals), to_native(samples[0, 0])))
    assert out.shape == (2, 11, 4)
    np.testing.assert_allclose(out, _scipy_spline(shared, vals, samples[0, 0], 3), rtol=1e-8, atol=1e-8)


def test_spline_gradient_wrt_values_and_samples(check_gradient, to_native, rng):
    anchors = np.sort(rng.uniform(size=(5, 1)), axis=0)
    vals = rng.normal(size=(5, 3))
    samples = rng.uniform(size=(8, 1))
    check_gradient(lambda v: ivy_robot.sample_spline_path(to_native(anchors), v, to_native(samples)), vals)
    check_gradient(lambda s: ivy_robot.sample_spline_path(to_native(anchors), to_native(vals), s), samples)


def test_spline_gradient_wrt_anchor_points(check_gradient, to_native, rng):
    anchors = np.array([[0.0], [0.3], [0.45], [0.8], [1.0]])
    vals = rng.normal(size=(5, 2))
    samples = rng.uniform(size=(6, 1))
    check_gradient(
        lambda c: ivy_robot.sample_spline_path(c, to_native(vals), to_native(samples)), anchors, rtol=1e-5, atol=1e-6
    )


def test_spline_compiles(check_compiled, to_native, rng):
    anchors, vals = np.linspace(0, 1, 4)[:, None], rng.normal(size=(2, 4, 6))
    samples = np.linspace(0, 1, 30)[:, None]
    check_compiled(ivy_robot.sample_spline_path, to_native(anchors), to_native(vals), to_native(samples))


def test_spline_bad_input(backend, to_native):
    t5, v5, s = to_native(np.zeros((5, 1))), to_native(np.zeros((5, 3))), to_native(np.zeros((4, 1)))
    with pytest.raises(ValueError, match="5 anchor points but 4 anchor values"):
        ivy_robot.sample_spline_path(t5, to_native(np.zeros((4, 3))), s)
    with pytest.raises(ValueError, match="anchor points have 1 coordinates but sample points have 2"):
        ivy_robot.sample_spline_path(t5, v5, to_native(np.zeros((4, 2))))
    with pytest.raises(ValueError, match=r"expected anchor points of shape \[\.\.\., \*, \*\]"):
        ivy_robot.sample_spline_path(to_native(np.zeros(5)), v5, s)
    with pytest.raises(ValueError, match="order must be a positive int"):
        ivy_robot.sample_spline_path(t5, v5, s, order=0)
    with pytest.raises(ValueError, match="at least p \\+ 1 = 3 anchors"):
        ivy_robot.sample_spline_path(
            to_native(np.zeros((2, 2))), to_native(np.zeros((2, 1))), to_native(np.zeros((1, 2)))
        )
    with pytest.raises(ValueError, match="batch dimensions do not broadcast"):
        ivy_robot.sample_spline_path(to_native(np.zeros((2, 5, 1))), to_native(np.zeros((3, 5, 3))), s)


def _np_path_length(path):
    return np.linalg.norm(np.diff(path, axis=-2), axis=-1).sum(-1)


def test_path_length(backend, to_native, to_numpy, rng):
    path = rng.normal(size=(2, 3, 40, 3))
    out = to_numpy(ivy_robot.path_length(to_native(path)))
    assert out.shape == (2, 3)
    np.testing.assert_allclose(out, _np_path_length(path), rtol=1e-12)
    assert to_numpy(ivy_robot.path_length(to_native(np.ones((1, 3))))) == 0.0


def test_path_length_gradient_also_at_a_standstill(check_gradient, rng):
    path = rng.normal(size=(6, 3))
    path[3] = path[2]  # a zero-length segment: its gradient is 0, not NaN
    check_gradient(ivy_robot.path_length, path)


def test_collision_cost(backend, to_native, to_numpy, rng):
    d = rng.uniform(-0.3, 0.6, size=(4, 50, 1))
    out = to_numpy(ivy_robot.collision_cost(to_native(d), 0.2))
    assert out.shape == (4,)
    np.testing.assert_allclose(out, np.mean(np.clip(0.2 - d, 0, None) ** 2, axis=(-2, -1)), rtol=1e-12)
    assert to_numpy(ivy_robot.collision_cost(to_native(np.full((3, 1), 0.5)), 0.1)) == 0.0


def test_collision_cost_gradient(check_gradient, rng):
    d = rng.uniform(-0.3, 0.6, size=(20, 1))
    check_gradient(lambda x: ivy_robot.collision_cost(x, 0.25), d)


def test_path_terms_compile(check_compiled, to_native, rng):
    check_compiled(
        lambda p, d: (ivy_robot.path_length(p), ivy_robot.collision_cost(d, 0.1)),
        to_native(rng.normal(size=(3, 10, 3))),
        to_native(rng.normal(size=(3, 10, 1))),
    )


def test_path_terms_bad_input(backend, to_native):
    with pytest.raises(ValueError, match="path_length: expected a path of shape"):
        ivy_robot.path_length(to_native(np.zeros(3)))
    with pytest.raises(ValueError, match=r"collision_cost: expected signed distances of shape \[\.\.\., \*, 1\]"):
        ivy_robot.collision_cost(to_native(np.zeros((5, 3))), 0.1)
