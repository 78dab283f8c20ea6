"""Gradients of the conversions against central finite differences (float64), on the backends
with autodiff, including the singular points that need safe formulations. Each check covers
several functions of one input at once (a random weighting of all their outputs)."""

from __future__ import annotations

import numpy as np

import ivy
import ivy_mech

# One convention for each code path: Tait-Bryan and proper Euler, each with an even and an odd
# relabelling of the axes (the values of all 12 are checked in test_mech_euler.py).
CONVENTIONS = ("zyx", "xyz", "yzy", "xzx")


def _signed_quats(rots):
    q = rots.as_quat()
    return q * np.where(np.arange(len(q)) % 2 == 0, 1.0, -1.0)[:, None]  # both signs of qr


def test_quaternion_gradients(check_gradient, random_rotations):
    q = 1.3 * _signed_quats(random_rotations((4,), seed=4)).reshape(2, 2, 4)
    check_gradient(
        lambda x: (
            ivy_mech.quaternion_to_rot_mat(x),
            ivy_mech.quaternion_to_rotation_vector(x),
            ivy_mech.quaternion_to_axis_angle(x),
            ivy_mech.inverse_quaternion(x),
            ivy_mech.scale_quaternion_rotation_angle(x, 1.7),
        ),
        q,
    )


def test_quaternion_product_gradient(check_gradient, random_rotations):
    pair = _signed_quats(random_rotations((4,), seed=5)).reshape(2, 2, 4)  # both arguments as one input
    check_gradient(lambda p: ivy_mech.hamilton_product(p[..., 0, :], p[..., 1, :]), pair)


def test_rot_mat_to_quaternion_gradient(check_gradient, random_rotations, scipy_rotation):
    # random rotations, and large rotations about x, y, z where the qi, qj, qk formulas of
    # rot_mat_to_quaternion are selected (qr stays away from 0, where the canonical sign flips)
    large = scipy_rotation.from_rotvec(2.6 * np.eye(3)).as_matrix()
    m = np.concatenate([random_rotations((3,), seed=3).as_matrix(), large])
    check_gradient(ivy_mech.rot_mat_to_quaternion, m)


def test_rot_mat_to_euler_gradients(check_gradient, scipy_rotation):
    # rotations away from gimbal lock in these conventions
    m = scipy_rotation.from_rotvec([[0.3, -0.5, 0.4], [-0.9, 0.2, 0.7], [0.4, 1.1, -0.6]]).as_matrix()
    check_gradient(lambda r: tuple(ivy_mech.rot_mat_to_euler(r, c) for c in CONVENTIONS), m)


def test_euler_gradients(check_gradient, rng):
    euler = rng.uniform(-3, 3, (2, 3))
    # one code path for every convention: products of elementary rotations
    check_gradient(
        lambda e: tuple(
            f(e, c) for c in ("zyx", "xzx") for f in (ivy_mech.euler_to_rot_mat, ivy_mech.euler_to_quaternion)
        ),
        euler,
    )


def test_rotation_vector_gradients(check_gradient, rng):
    check_gradient(
        lambda v: (
            ivy_mech.rot_vec_to_rot_mat(v),
            ivy_mech.rotation_vector_to_quaternion(v),
            ivy_mech.rotation_vector_to_axis_angle(v),
        ),
        rng.normal(size=(2, 2, 3)),
    )


def test_gradients_at_and_near_the_identity(check_gradient, rng):
    """Rotation vectors of norm 0, 1e-9, 1e-3 and 0.02 (both sides of the series switch), and the
    quaternions [v / 2, 1]: finite gradients equal to finite differences."""
    v = np.array([0.0, 1e-9, 1e-3, 0.02])[:, None] * rng.normal(size=(4, 3))

    def near_identity(x):
        q = ivy.concat([x / 2.0, ivy.ones_like(x[..., 0:1])], axis=-1)
        return (
            ivy_mech.rot_vec_to_rot_mat(x),
            ivy_mech.rotation_vector_to_quaternion(x),
            ivy_mech.quaternion_to_rotation_vector(q),
            ivy_mech.scale_quaternion_rotation_angle(q, 0.7),
            ivy_mech.quaternion_to_rot_mat(q),
            ivy_mech.rot_mat_to_quaternion(ivy_mech.rot_vec_to_rot_mat(x)),
        )

    check_gradient(near_identity, v, h=1e-5)


def test_axis_angle_gradients(check_gradient, rng):
    axis = rng.normal(size=(2, 3))
    aa = np.concatenate([axis / np.linalg.norm(axis, axis=-1, keepdims=True), rng.uniform(-3, 3, (2, 1))], -1)
    check_gradient(
        lambda a: (
            ivy_mech.axis_angle_to_rot_mat(a),
            ivy_mech.axis_angle_to_quaternion(a),
            ivy_mech.axis_angle_to_euler(a),
            ivy_mech.axis_angle_to_polar_axis_angle(a),
        ),
        aa,
    )
    polar = np.stack([rng.uniform(0.2, 3, 2), rng.uniform(-3, 3, 2), rng.uniform(-3, 3, 2)], -1)
    check_gradient(
        lambda p: (
            ivy_mech.polar_axis_angle_to_rot_mat(p),
            ivy_mech.polar_axis_angle_to_quaternion(p),
            ivy_mech.polar_axis_angle_to_axis_angle(p),
        ),
        polar,
    )


def test_pose_gradients(check_gradient, random_rotations, rng):
    rots = random_rotations((2,), seed=7)
    t = rng.normal(size=(2, 3))
    mat_pose = np.concatenate([rots.as_matrix(), t[..., None]], axis=-1)
    check_gradient(
        lambda m: (ivy_mech.mat_pose_to_rot_vec_pose(m), ivy_mech.mat_pose_to_euler_pose(m, "yxz")), mat_pose
    )
    velocity = np.concatenate([rng.normal(size=(2, 3)), random_rotations((2,), seed=8).as_quat()], axis=-1)
    both = np.stack([np.concatenate([t, rots.as_quat()], axis=-1), velocity], axis=-2)
    check_gradient(lambda p: ivy_mech.increment_quaternion_pose_with_velocity(p[..., 0, :], p[..., 1, :], 0.1), both)


def test_target_facing_rotation_matrix_gradient(check_gradient, rng):
    positions = rng.normal(size=(2, 2, 3))
    check_gradient(lambda p: ivy_mech.target_facing_rotation_matrix(p[..., 0, :], p[..., 1, :]), positions)
