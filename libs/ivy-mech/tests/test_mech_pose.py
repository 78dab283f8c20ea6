"""Poses in five layouts: every conversion against poses built with SciPy's ``Rotation``."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import transforms3d as t3d

import ivy
import ivy_mech

BATCH = (2, 3, 4)
LAYOUTS = ["rot_vec", "axis_angle", "quaternion", "euler", "mat"]
CONVENTION = "xzy"  # a non-default convention, passed to every function that takes one


def _pose(layout, rots, t, *, signed=False):
    """The reference pose of ``rots`` (SciPy) and translations ``t`` ``[..., 3]`` in ``layout``."""
    rotvec = rots.as_rotvec().reshape(BATCH + (3,))
    if layout == "rot_vec":
        return np.concatenate([t, rotvec], axis=-1)
    if layout == "axis_angle":
        theta = np.linalg.norm(rotvec, axis=-1, keepdims=True)
        return np.concatenate([t, rotvec / theta, theta], axis=-1)
    if layout == "quaternion":
        q = rots.as_quat(canonical=True).reshape(BATCH + (4,))
        if signed:  # inputs: about half with a negative scalar part
            q = q * np.where(np.random.default_rng(7).random(BATCH + (1,)) < 0.5, -1.0, 1.0)
        return np.concatenate([t, q], axis=-1)
    if layout == "euler":
        return np.concatenate([t, rots.as_euler(CONVENTION).reshape(BATCH + (3,))], axis=-1)
    return np.concatenate([rots.as_matrix().reshape(BATCH + (3, 3)), t[..., None]], axis=-1)


@pytest.mark.parametrize("source,target", [p for p in itertools.permutations(LAYOUTS, 2)])
def test_pose_conversion(backend, to_native, to_numpy, random_rotations, rng, assert_angles_close, source, target):
    rots, t = random_rotations(seed=11), rng.normal(size=BATCH + (3,))
    fn = getattr(ivy_mech, f"{source}_pose_to_{target}_pose")
    args = (CONVENTION,) if "euler" in (source, target) else ()
    out = fn(to_native(_pose(source, rots, t, signed=True)), *args)
    assert ivy.is_native_array(out)
    out = to_numpy(out)
    expected = _pose(target, rots, t)
    assert out.shape == expected.shape
    if target == "euler":
        np.testing.assert_allclose(out[..., :3], expected[..., :3], atol=1e-12)
        assert_angles_close(out[..., 3:], expected[..., 3:], atol=1e-10)
    else:
        np.testing.assert_allclose(out, expected, atol=1e-10)


def test_mat_pose_matches_transforms3d_affine(backend, to_native, to_numpy, random_rotations, rng):
    rots, t = random_rotations(seed=3), rng.normal(size=BATCH + (3,))
    mat = to_numpy(ivy_mech.rot_vec_pose_to_mat_pose(to_native(_pose("rot_vec", rots, t))))
    affines = [t3d.affines.compose(tt, m, np.ones(3)) for tt, m in zip(t.reshape(-1, 3), rots.as_matrix())]
    np.testing.assert_allclose(mat.reshape(-1, 3, 4), np.stack(affines)[:, :3], atol=1e-12)
    homogeneous = to_numpy(ivy_mech.make_transformation_homogeneous(to_native(mat)))
    np.testing.assert_allclose(homogeneous.reshape(-1, 4, 4), np.stack(affines), atol=1e-12)


def test_default_euler_pose_convention_is_zyx(backend, to_native, to_numpy, scipy_rotation):
    pose = np.array([1.0, 2.0, 3.0, 0.3, -0.4, 0.5])
    mat = to_numpy(ivy_mech.euler_pose_to_mat_pose(to_native(pose)))
    np.testing.assert_allclose(mat[:, :3], scipy_rotation.from_euler("zyx", pose[3:]).as_matrix(), atol=1e-14)
    np.testing.assert_allclose(mat[:, 3], pose[:3])


def test_increment_quaternion_pose_with_velocity(backend, to_native, to_numpy, scipy_rotation, random_rotations, rng):
    rots, vel_rots = random_rotations(seed=1), random_rotations(seed=2)
    t, v = rng.normal(size=BATCH + (3,)), rng.normal(size=BATCH + (3,))
    q = rots.as_quat().reshape(BATCH + (4,)) * -1.0  # negative scalar parts are fine
    q_vel = vel_rots.as_quat().reshape(BATCH + (4,))
    pose, vel = np.concatenate([t, q], -1), np.concatenate([v, q_vel], -1)
    for dt in (0.1, 0.5):
        out = to_numpy(ivy_mech.increment_quaternion_pose_with_velocity(to_native(pose), to_native(vel), dt))
        assert out.shape == BATCH + (7,)
        np.testing.assert_allclose(out[..., :3], t + v * dt, atol=1e-12)
        expected = rots * scipy_rotation.from_rotvec(vel_rots.as_rotvec() * dt)  # body-frame increment
        np.testing.assert_allclose(
            to_numpy(ivy_mech.quaternion_to_rot_mat(to_native(out[..., 3:]))),
            expected.as_matrix().reshape(BATCH + (3, 3)),
            atol=1e-12,
        )
    dts = rng.uniform(0, 1, BATCH)
    out = to_numpy(ivy_mech.increment_quaternion_pose_with_velocity(to_native(pose), to_native(vel), to_native(dts)))
    np.testing.assert_allclose(out[..., :3], t + v * dts[..., None], atol=1e-12)


def test_pose_bad_shapes_raise(backend, to_native):
    message = r"quaternion_pose_to_mat_pose: expected quaternion poses .* \[\.\.\., 7\], got shape \[6\]"
    with pytest.raises(ValueError, match=message):
        ivy_mech.quaternion_pose_to_mat_pose(to_native(np.zeros(6)))
    with pytest.raises(ValueError, match=r"mat_pose_to_rot_vec_pose: expected matrix poses .* \[\.\.\., 3, 4\]"):
        ivy_mech.mat_pose_to_rot_vec_pose(to_native(np.zeros((4, 4))))
    with pytest.raises(ValueError, match=r"rot_vec_pose_to_axis_angle_pose.*\[\.\.\., 6\]"):
        ivy_mech.rot_vec_pose_to_axis_angle_pose(to_native(np.zeros((2, 7))))
