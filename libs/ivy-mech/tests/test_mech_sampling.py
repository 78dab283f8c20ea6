"""Random orientations: shapes, dtypes, backends, and uniformity over rotations (statistical tests
with fixed seeds against the Haar measure's angle distribution)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import ivy
import ivy_mech

N = 10000
BATCH = (2, 3, 4)


def _angles(quats):
    return 2 * np.arctan2(np.linalg.norm(quats[..., :3], axis=-1), np.abs(quats[..., 3]))


def _haar_angle_cdf(max_angle):
    # the angle of a uniform rotation has density (1 - cos t) / pi on [0, pi]
    return lambda t: (t - np.sin(t)) / (max_angle - np.sin(max_angle))


SAMPLERS = {
    "get_random_quaternion": (4,),
    "get_random_rot_mat": (3, 3),
    "get_random_axis_angle": (4,),
    "get_random_rotation_vector": (3,),
    "get_random_euler": (3,),
}


def test_sampler_shapes_dtypes_and_backends(backend, to_numpy):
    with ivy.use_backend(backend):
        default_dtype = to_numpy(ivy.random_normal(shape=(1,))).dtype
    for name, tail in SAMPLERS.items():
        fn = getattr(ivy_mech, name)
        out = fn(batch_shape=BATCH, backend=backend, dtype="float64", seed=0)
        assert ivy.is_native_array(out) and ivy.namespace(out) is ivy.backend_namespace(backend), name
        assert tuple(out.shape) == BATCH + tail and to_numpy(out).dtype == np.float64, name
        with ivy.use_backend(backend):  # the backend in context, with its default dtype
            out = fn(batch_shape=BATCH)
        assert ivy.namespace(out) is ivy.backend_namespace(backend), name
        assert tuple(out.shape) == BATCH + tail and to_numpy(out).dtype == default_dtype, name
    with ivy.use_backend(backend):  # no batch dimensions: the default batch_shape=()
        assert tuple(ivy_mech.get_random_quaternion().shape) == (4,)
    out = ivy_mech.get_random_quaternion(1.0, list(BATCH), backend=backend, dtype="float32")
    assert to_numpy(out).dtype == np.float32 and tuple(out.shape) == BATCH + (4,)


def test_samplers_are_valid_rotations(backend, to_numpy, scipy_rotation):
    q = to_numpy(ivy_mech.get_random_quaternion(batch_shape=BATCH, backend=backend, dtype="float64", seed=1))
    np.testing.assert_allclose(np.linalg.norm(q, axis=-1), 1.0, atol=1e-12)
    assert np.all(q[..., 3] >= 0)
    r = to_numpy(ivy_mech.get_random_rot_mat(BATCH, backend=backend, dtype="float64", seed=2))
    np.testing.assert_allclose(r @ np.swapaxes(r, -1, -2), np.broadcast_to(np.eye(3), r.shape), atol=1e-12)
    np.testing.assert_allclose(np.linalg.det(r), 1.0, atol=1e-12)
    e = to_numpy(ivy_mech.get_random_euler(BATCH, "zxz", backend=backend, dtype="float64", seed=3))
    assert np.all((e[..., 1] >= 0) & (e[..., 1] <= np.pi)) and np.all(np.abs(e) <= np.pi)


def test_random_quaternion_is_uniform(backend, to_numpy):
    q = to_numpy(ivy_mech.get_random_quaternion(batch_shape=(N,), backend=backend, dtype="float64", seed=4))
    assert stats.kstest(_angles(q), _haar_angle_cdf(np.pi)).pvalue > 1e-4
    # axes in every direction (the original sampler only drew positive axis components)
    axes = q[:, :3] / np.linalg.norm(q[:, :3], axis=-1, keepdims=True)
    np.testing.assert_allclose(axes.mean(axis=0), 0.0, atol=5 / np.sqrt(3 * N))
    # E[R] = 0 for the uniform distribution on SO(3); each entry has variance 1/3
    q = ivy_mech.get_random_quaternion(batch_shape=(N,), backend=backend, dtype="float64", seed=5)
    r = to_numpy(ivy_mech.quaternion_to_rot_mat(q))
    np.testing.assert_allclose(r.mean(axis=0), 0.0, atol=5 / np.sqrt(3 * N))


@pytest.mark.parametrize("max_angle", [0.3, 2.0])
def test_random_quaternion_with_max_angle_is_uniform_in_ball(backend, to_numpy, max_angle):
    q = to_numpy(ivy_mech.get_random_quaternion(max_angle, (N,), backend=backend, dtype="float64", seed=6))
    np.testing.assert_allclose(np.linalg.norm(q, axis=-1), 1.0, atol=1e-12)
    angles = _angles(q)
    assert angles.max() <= max_angle + 1e-9
    assert stats.kstest(angles, _haar_angle_cdf(max_angle)).pvalue > 1e-4
    axes = q[:, :3] / np.linalg.norm(q[:, :3], axis=-1, keepdims=True)
    np.testing.assert_allclose(axes.mean(axis=0), 0.0, atol=5 / np.sqrt(3 * N))
    rv = ivy_mech.get_random_rotation_vector(BATCH, max_rot_ang=max_angle, backend=backend, dtype="float32", seed=7)
    rv = to_numpy(rv)
    assert np.linalg.norm(rv, axis=-1).max() <= max_angle + 1e-5


def test_seed_is_reproducible(backend, to_numpy):
    a = to_numpy(ivy_mech.get_random_quaternion(1.0, BATCH, backend=backend, dtype="float32", seed=9))
    b = to_numpy(ivy_mech.get_random_quaternion(1.0, BATCH, backend=backend, dtype="float32", seed=9))
    np.testing.assert_array_equal(a, b)


def test_sampler_bad_arguments_raise(backend):
    with pytest.raises(ValueError, match="max_rot_ang must be positive"):
        ivy_mech.get_random_quaternion(0.0, (2,), backend=backend)
    with pytest.raises(TypeError, match="batch_shape must be a sequence of ints"):
        ivy_mech.get_random_rot_mat(batch_shape=2.5, backend=backend)
    with pytest.raises(ValueError, match="negative"):
        ivy_mech.get_random_axis_angle(batch_shape=(-1,), backend=backend)
