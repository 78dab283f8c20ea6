"""``ivy.compile`` (torch.compile, jax.jit, tf.function, paddle.jit.to_static) gives the eager
results: no function branches on values, so each traces into one static graph."""

from __future__ import annotations

import numpy as np
import pytest

import ivy
import ivy_mech

BATCH = (2, 3, 4)

# torch: dynamo with fullgraph=True fails on any graph break (data-dependent Python control
# flow); aot_eager skips inductor's C++ code generation, which takes tens of seconds per function.
_OPTIONS = {"torch": {"backend": "aot_eager", "fullgraph": True}}


def _from_rot_mats(m):
    return (
        ivy_mech.rot_mat_to_quaternion(m),
        ivy_mech.rot_mat_to_euler(m, "xyz"),
        ivy_mech.rot_mat_to_euler(m, "zxz"),
        ivy_mech.rot_mat_to_rotation_vector(m),
        ivy_mech.rot_mat_to_axis_angle(m),
        ivy_mech.rot_mat_to_polar_axis_angle(m),
    )


def _from_quaternions(q):
    return (
        ivy_mech.quaternion_to_rot_mat(q),
        ivy_mech.quaternion_to_rotation_vector(q),
        ivy_mech.quaternion_to_axis_angle(q),
        ivy_mech.quaternion_to_euler(q),
        ivy_mech.scale_quaternion_rotation_angle(q, 0.3),
        ivy_mech.hamilton_product(q, q),
        ivy_mech.inverse_quaternion(q),
    )


def _from_vectors(v):
    return (
        ivy_mech.rot_vec_to_rot_mat(v),
        ivy_mech.rotation_vector_to_quaternion(v),
        ivy_mech.euler_to_rot_mat(v, "yzy"),
        ivy_mech.euler_to_quaternion(v),
        ivy_mech.cartesian_to_polar_coords(v),
        ivy_mech.polar_to_cartesian_coords(v),
        ivy_mech.make_coordinates_homogeneous(v),
        ivy_mech.target_facing_rotation_matrix(v, 2.0 * v + 1.0),
    )


def _from_mat_poses(p):
    return (
        ivy_mech.mat_pose_to_quaternion_pose(p),
        ivy_mech.mat_pose_to_euler_pose(p, "yxz"),
        ivy_mech.mat_pose_to_rot_vec_pose(p),
        ivy_mech.make_transformation_homogeneous(p),
        ivy_mech.quaternion_pose_to_mat_pose(ivy_mech.mat_pose_to_quaternion_pose(p)),
    )


def _rot_mats(rng, columns=3):
    q, _ = np.linalg.qr(rng.normal(size=BATCH + (3, 3)))
    q = q * np.sign(np.linalg.det(q))[..., None, None]
    return np.concatenate([q, rng.normal(size=BATCH + (3, columns - 3))], axis=-1)


CASES = {
    "rot_mats": (_from_rot_mats, lambda rng: _rot_mats(rng)),
    "quaternions": (_from_quaternions, lambda rng: rng.normal(size=BATCH + (4,))),
    "vectors": (_from_vectors, lambda rng: rng.normal(size=BATCH + (3,))),
    "mat_poses": (_from_mat_poses, lambda rng: _rot_mats(rng, columns=4)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_mech_compiled_equals_eager(backend, to_native, to_numpy, rng, name):
    fn, make_input = CASES[name]
    x = to_native(make_input(rng))
    eager = fn(x)
    compiled = ivy.compile(fn, options=_OPTIONS.get(backend))(x)
    assert len(compiled) == len(eager)
    for c, e in zip(compiled, eager):
        assert ivy.is_native_array(c)
        np.testing.assert_allclose(to_numpy(c), to_numpy(e), rtol=1e-12, atol=1e-12)


def test_compiled_random_quaternion(backend, to_numpy):
    """The restricted sampler's Newton iterations have a fixed count: they compile too."""
    fn = ivy.compile(
        lambda: ivy_mech.get_random_quaternion(0.5, (64,), backend=backend, dtype="float64"),
        backend=backend,
        options=_OPTIONS.get(backend),
    )
    q = to_numpy(fn())
    assert q.shape == (64, 4)
    np.testing.assert_allclose(np.linalg.norm(q, axis=-1), 1.0, atol=1e-12)
    assert np.all(2 * np.arccos(np.clip(q[:, 3], -1, 1)) <= 0.5 + 1e-9)
