"""RigidMobile against SciPy's ``Rotation``: body points moved by rotation-vector poses."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import ivy
import ivy_robot

BODY = np.array([[0.0, 0.0, 0.0], [0.2, 0.2, 0.0], [0.2, -0.2, 0.0], [-0.2, 0.2, 0.0], [-0.2, -0.2, 0.0]])


def _mat_poses(rot_vecs, translations):
    """``[..., 3, 4]`` body->world matrices from SciPy."""
    shape = rot_vecs.shape[:-1]
    rot = Rotation.from_rotvec(rot_vecs.reshape(-1, 3)).as_matrix().reshape(shape + (3, 3))
    return np.concatenate([rot, translations[..., None]], axis=-1)


def _scipy_body(rot_vecs, translations, body):
    flat_r, flat_t = rot_vecs.reshape(-1, 3), translations.reshape(-1, 3)
    out = [Rotation.from_rotvec(r).apply(body) + t for r, t in zip(flat_r, flat_t)]
    return np.stack(out).reshape(rot_vecs.shape[:-1] + body.shape)


def test_sample_body_matches_scipy(backend, to_native, to_numpy, rng):
    rot_vecs, trans = rng.normal(size=(2, 3, 4, 3)), rng.normal(size=(2, 3, 4, 3))
    mobile = ivy_robot.RigidMobile(to_native(BODY))
    out = mobile.sample_body(to_native(_mat_poses(rot_vecs, trans)))
    assert ivy.is_native_array(out)
    out = to_numpy(out)
    assert out.shape == (2, 3, 4, 5, 3) and out.dtype == np.float64
    np.testing.assert_allclose(out, _scipy_body(rot_vecs, trans, BODY), atol=1e-12)
    assert mobile.num_body_points == 5
    np.testing.assert_array_equal(to_numpy(mobile.rel_body_points), BODY)


def test_sample_body_of_the_original_tests(backend, to_native, to_numpy):
    # the original library's pose: position (0.1, 0.2, 0.3), rotation vector (0.4, 0.5, 0.6)
    pose = np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    mobile = ivy_robot.RigidMobile(to_native(BODY.astype(np.float32)))
    mats = _mat_poses(pose[None, 3:], pose[None, :3]).astype(np.float32)
    out = to_numpy(mobile.sample_body(to_native(mats)))
    assert out.dtype == np.float32
    np.testing.assert_allclose(out[0], Rotation.from_rotvec(pose[3:]).apply(BODY) + pose[:3], atol=1e-6)


def test_batched_bodies_broadcast_with_poses(backend, to_native, to_numpy, rng):
    bodies = rng.normal(size=(3, 1, 4, 3))  # three different bodies
    rot_vecs, trans = rng.normal(size=(6, 3)), rng.normal(size=(6, 3))
    out = to_numpy(ivy_robot.RigidMobile(to_native(bodies)).sample_body(to_native(_mat_poses(rot_vecs, trans))))
    assert out.shape == (3, 6, 4, 3)
    for i in range(3):
        np.testing.assert_allclose(out[i], _scipy_body(rot_vecs, trans, bodies[i, 0]), atol=1e-12)


def test_sample_body_gradient(check_gradient, to_native, rng):
    mobile = ivy_robot.RigidMobile(to_native(BODY))
    check_gradient(mobile.sample_body, _mat_poses(rng.normal(size=(2, 3)), rng.normal(size=(2, 3))))
    # and with respect to the body points
    mats = to_native(_mat_poses(rng.normal(size=(3, 3)), rng.normal(size=(3, 3))))
    check_gradient(lambda b: ivy_robot.RigidMobile(ivy.expand_dims(b, axis=-3)).sample_body(mats), BODY)


def test_sample_body_compiles(check_compiled, to_native, rng):
    mobile = ivy_robot.RigidMobile(to_native(BODY))
    mats = _mat_poses(rng.normal(size=(7, 3)), rng.normal(size=(7, 3)))
    check_compiled(lambda m: mobile.sample_body(m), to_native(mats))


def test_bad_shapes(backend, to_native):
    with pytest.raises(ValueError, match=r"RigidMobile: expected relative body points of shape \[\.\.\., \*, 3\]"):
        ivy_robot.RigidMobile(to_native(np.zeros((5, 2))))
    mobile = ivy_robot.RigidMobile(to_native(BODY))
    with pytest.raises(ValueError, match=r"sample_body: expected body->world matrices of shape \[\.\.\., 3, 4\]"):
        mobile.sample_body(to_native(np.zeros((2, 4, 4))))
    with pytest.raises(TypeError, match="native array"):
        ivy_robot.RigidMobile(BODY.tolist())
