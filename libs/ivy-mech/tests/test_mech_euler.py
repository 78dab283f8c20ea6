"""Euler angles in all 12 extrinsic conventions against SciPy (lower case = extrinsic) and
transforms3d (``'s' + convention``), including gimbal lock."""

from __future__ import annotations

import numpy as np
import pytest
import transforms3d as t3d

import ivy_mech

BATCH = (2, 3, 4)
CONVENTIONS = ["xyx", "yzy", "zxz", "xzx", "yxy", "zyz", "xyz", "yzx", "zxy", "xzy", "yxz", "zyx"]


def _is_proper(convention):
    return convention[0] == convention[2]


def test_valid_conventions_listed():
    assert sorted(ivy_mech.VALID_EULER_CONVENTIONS) == sorted(CONVENTIONS)


@pytest.mark.parametrize("convention", CONVENTIONS)
def test_euler_to_rot_mat(backend, to_native, to_numpy, scipy_rotation, rng, convention):
    euler = rng.uniform(-4, 4, BATCH + (3,))
    out = to_numpy(ivy_mech.euler_to_rot_mat(to_native(euler), convention))
    assert out.shape == BATCH + (3, 3)
    expected = scipy_rotation.from_euler(convention, euler.reshape(-1, 3)).as_matrix().reshape(BATCH + (3, 3))
    np.testing.assert_allclose(out, expected, atol=1e-12)
    ref = np.stack([t3d.euler.euler2mat(*e, axes="s" + convention) for e in euler.reshape(-1, 3)])
    np.testing.assert_allclose(out, ref.reshape(BATCH + (3, 3)), atol=1e-12)


@pytest.mark.parametrize("convention", CONVENTIONS)
def test_rot_mat_to_euler(
    backend, to_native, to_numpy, scipy_rotation, random_rotations, assert_angles_close, convention
):
    rots = random_rotations()
    m = rots.as_matrix()
    out = to_numpy(ivy_mech.rot_mat_to_euler(to_native(m.reshape(BATCH + (3, 3))), convention))
    assert out.shape == BATCH + (3,)
    out = out.reshape(-1, 3)
    assert_angles_close(out, rots.as_euler(convention), atol=1e-10)
    # transforms3d picks the other solution (negative middle angle) for some proper conventions,
    # so it checks the round trip
    ref = np.stack([t3d.euler.euler2mat(*e, axes="s" + convention) for e in out])
    np.testing.assert_allclose(ref, m, atol=1e-12)
    # the documented ranges
    assert np.all(np.abs(out) <= np.pi + 1e-12)
    if _is_proper(convention):
        assert np.all((out[:, 1] >= 0) & (out[:, 1] <= np.pi))
    else:
        assert np.all(np.abs(out[:, 1]) <= np.pi / 2)
    # round trip through the independent reference
    np.testing.assert_allclose(scipy_rotation.from_euler(convention, out).as_matrix(), m, atol=1e-12)


@pytest.mark.parametrize("convention", CONVENTIONS)
def test_rot_mat_to_euler_gimbal_lock(backend, to_native, to_numpy, scipy_rotation, rng, convention):
    locks = [0.0, np.pi] if _is_proper(convention) else [np.pi / 2, -np.pi / 2]
    offsets = [0.0, 1e-12, -1e-9, 1e-6, -1e-4]
    middle = np.array([lock + off for lock in locks for off in offsets])
    euler = np.stack([rng.uniform(-3, 3, middle.size), middle, rng.uniform(-3, 3, middle.size)], axis=-1)
    m = scipy_rotation.from_euler(convention, euler).as_matrix()
    out = to_numpy(ivy_mech.rot_mat_to_euler(to_native(m), convention))
    assert np.all(np.isfinite(out))
    np.testing.assert_allclose(scipy_rotation.from_euler(convention, out).as_matrix(), m, atol=1e-12)


@pytest.mark.parametrize("convention", CONVENTIONS)
def test_rot_mat_to_euler_exact_gimbal_lock(backend, to_native, to_numpy, convention):
    """Matrices with exact zeros: the documented choice e2 = 0, and the identity gives zeros."""
    a, b, _ = ("xyz".index(c) for c in convention)
    angle = np.pi if _is_proper(convention) else np.pi / 2
    # exact quarter / half turn about the middle axis, then a first rotation of 0.7 about axis a
    turn = np.eye(3)
    if _is_proper(convention):
        turn[[b - 1, b - 2], [b - 1, b - 2]] = -1.0  # half turn about b
    else:
        c = 3 - a - b
        sign = 1.0 if (b - a) % 3 == 1 else -1.0  # R_b(pi/2) maps a to -sign * c
        turn[:, a], turn[:, c] = 0.0, 0.0
        turn[c, a], turn[a, c] = -sign, sign
    first = np.eye(3)
    i, j = (a + 1) % 3, (a + 2) % 3
    first[[i, i, j, j], [i, j, i, j]] = [np.cos(0.7), -np.sin(0.7), np.sin(0.7), np.cos(0.7)]
    m = turn @ first
    out = to_numpy(ivy_mech.rot_mat_to_euler(to_native(np.stack([m, np.eye(3)])), convention))
    np.testing.assert_allclose(out[0], [0.7, angle, 0.0], atol=1e-15)
    np.testing.assert_array_equal(out[1], [0.0, 0.0, 0.0])


@pytest.mark.parametrize("convention", ["zyx", "xyz", "zxz", "yzy"])
def test_rot_mat_to_euler_gimbal_lock_float32(backend, to_native, to_numpy, scipy_rotation, rng, convention):
    lock = 0.0 if _is_proper(convention) else np.pi / 2
    middle = lock + np.array([0.0, 1e-7, -1e-5, 1e-3])
    euler = np.stack([rng.uniform(-3, 3, 4), middle, rng.uniform(-3, 3, 4)], axis=-1)
    m = scipy_rotation.from_euler(convention, euler).as_matrix().astype(np.float32)
    out = to_numpy(ivy_mech.rot_mat_to_euler(to_native(m), convention))
    assert out.dtype == np.float32 and np.all(np.isfinite(out))
    np.testing.assert_allclose(scipy_rotation.from_euler(convention, out.astype(np.float64)).as_matrix(), m, atol=1e-5)


@pytest.mark.parametrize("convention", CONVENTIONS)
def test_euler_to_quaternion(backend, to_native, to_numpy, scipy_rotation, rng, convention):
    euler = rng.uniform(-4, 4, BATCH + (3,))
    out = to_numpy(ivy_mech.euler_to_quaternion(to_native(euler), convention))
    expected = scipy_rotation.from_euler(convention, euler.reshape(-1, 3)).as_quat(canonical=True)
    np.testing.assert_allclose(out, expected.reshape(BATCH + (4,)), atol=1e-12)


@pytest.mark.parametrize("convention", ["zyx", "xyz", "zxy", "yzy", "xzx"])
def test_euler_to_and_from_other_representations(
    backend, to_native, to_numpy, random_rotations, assert_angles_close, convention
):
    rots = random_rotations()
    euler = rots.as_euler(convention).reshape(BATCH + (3,))
    rotvec = rots.as_rotvec().reshape(BATCH + (3,))
    theta = np.linalg.norm(rotvec, axis=-1, keepdims=True)
    axis_angle = np.concatenate([rotvec / theta, theta], axis=-1)
    e = axis_angle[..., :3]
    polar = np.stack([np.arccos(e[..., 2]), np.arctan2(e[..., 1], e[..., 0]), theta[..., 0]], axis=-1)
    signs = np.where(np.random.default_rng(0).random(BATCH + (1,)) < 0.5, -1.0, 1.0)
    quat = rots.as_quat().reshape(BATCH + (4,)) * signs
    e_native = to_native(euler)
    np.testing.assert_allclose(to_numpy(ivy_mech.euler_to_rotation_vector(e_native, convention)), rotvec, atol=1e-10)
    np.testing.assert_allclose(to_numpy(ivy_mech.euler_to_axis_angle(e_native, convention)), axis_angle, atol=1e-10)
    np.testing.assert_allclose(to_numpy(ivy_mech.euler_to_polar_axis_angle(e_native, convention)), polar, atol=1e-10)
    for fn, value in [
        (ivy_mech.quaternion_to_euler, quat),
        (ivy_mech.rotation_vector_to_euler, rotvec),
        (ivy_mech.axis_angle_to_euler, axis_angle),
        (ivy_mech.polar_axis_angle_to_euler, polar),
    ]:
        out = to_numpy(fn(to_native(value), convention))
        assert out.shape == BATCH + (3,)
        assert_angles_close(out, euler, atol=1e-10)


def test_default_convention_is_zyx(backend, to_native, to_numpy, scipy_rotation):
    euler = np.array([0.3, -0.2, 1.1])
    np.testing.assert_allclose(
        to_numpy(ivy_mech.euler_to_rot_mat(to_native(euler))),
        scipy_rotation.from_euler("zyx", euler).as_matrix(),
        atol=1e-14,
    )
    m = scipy_rotation.from_euler("zyx", euler).as_matrix()
    np.testing.assert_allclose(to_numpy(ivy_mech.rot_mat_to_euler(to_native(m))), euler, atol=1e-14)


def test_unknown_convention_raises(backend, to_native):
    e, m = to_native(np.zeros(3)), to_native(np.eye(3))
    with pytest.raises(ValueError, match=r"euler_to_rot_mat: unknown Euler convention 'xxy'.*zyx"):
        ivy_mech.euler_to_rot_mat(e, "xxy")
    with pytest.raises(ValueError, match=r"rot_mat_to_euler: unknown Euler convention 'ZYX'.*intrinsic"):
        ivy_mech.rot_mat_to_euler(m, "ZYX")
    for fn, arg in [
        (ivy_mech.euler_to_quaternion, e),
        (ivy_mech.quaternion_to_euler, to_native(np.array([0.0, 0, 0, 1]))),
        (ivy_mech.euler_pose_to_mat_pose, to_native(np.zeros(6))),
    ]:
        with pytest.raises(ValueError, match="unknown Euler convention"):
            fn(arg, "abc")
    with pytest.raises(ValueError, match="unknown Euler convention"):
        ivy_mech.get_random_euler((2,), "xy", backend=backend)


def test_euler_bad_shapes_raise(backend, to_native):
    message = r"euler_to_rot_mat: expected Euler angles of shape \[\.\.\., 3\], got shape \[2, 4\]"
    with pytest.raises(ValueError, match=message):
        ivy_mech.euler_to_rot_mat(to_native(np.zeros((2, 4))))
    with pytest.raises(ValueError, match=r"rot_mat_to_euler: expected rotation matrices of shape \[\.\.\., 3, 3\]"):
        ivy_mech.rot_mat_to_euler(to_native(np.zeros((3, 4))))
