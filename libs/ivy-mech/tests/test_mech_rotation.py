"""Rotation matrices, quaternions, rotation vectors and (polar) axis-angles against SciPy's
``Rotation`` and transforms3d, on batches with several leading dimensions."""

from __future__ import annotations

import numpy as np
import pytest
import transforms3d as t3d

import ivy
import ivy_mech

BATCH = (2, 3, 4)


def _quats(rots, shape=BATCH, canonical=False):
    return rots.as_quat(canonical=canonical).reshape(shape + (4,))


def _signed_quats(rots, shape=BATCH, seed=5):
    """Quaternions with a random sign each: about half have a negative scalar part."""
    signs = np.where(np.random.default_rng(seed).random(shape + (1,)) < 0.5, -1.0, 1.0)
    return _quats(rots, shape) * signs


# -- rotation matrices ------------------------------------------------------------------------


def test_quaternion_to_rot_mat(backend, to_native, to_numpy, random_rotations):
    rots = random_rotations()
    q = _signed_quats(rots)
    out = ivy_mech.quaternion_to_rot_mat(to_native(q))
    assert ivy.is_native_array(out) and tuple(out.shape) == BATCH + (3, 3)
    np.testing.assert_allclose(to_numpy(out), rots.as_matrix().reshape(BATCH + (3, 3)), atol=1e-12)
    # transforms3d takes [w, x, y, z]; a non-unit quaternion gives the same rotation
    ref = np.stack([t3d.quaternions.quat2mat(np.roll(qq, 1)) for qq in q.reshape(-1, 4)]).reshape(BATCH + (3, 3))
    np.testing.assert_allclose(to_numpy(ivy_mech.quaternion_to_rot_mat(to_native(3.0 * q))), ref, atol=1e-12)


def test_rot_vec_to_rot_mat(backend, to_native, to_numpy, random_rotations):
    rots = random_rotations()
    v = rots.as_rotvec().reshape(BATCH + (3,))
    out = ivy_mech.rot_vec_to_rot_mat(to_native(v))
    assert tuple(out.shape) == BATCH + (3, 3)
    np.testing.assert_allclose(to_numpy(out), rots.as_matrix().reshape(BATCH + (3, 3)), atol=1e-12)
    assert ivy_mech.rotation_vector_to_rot_mat is ivy_mech.rot_vec_to_rot_mat
    # angles beyond pi and tiny angles, against transforms3d's axis-angle formula
    axes = np.random.default_rng(0).normal(size=(6, 3))
    axes /= np.linalg.norm(axes, axis=-1, keepdims=True)
    angles = np.array([5.0, -4.0, 1e-3, 1e-7, 1e-12, 3.0])
    ref = np.stack([t3d.axangles.axangle2mat(a, t) for a, t in zip(axes, angles)])
    out = to_numpy(ivy_mech.rot_vec_to_rot_mat(to_native(axes * angles[:, None])))
    np.testing.assert_allclose(out, ref, atol=1e-14)
    np.testing.assert_array_equal(to_numpy(ivy_mech.rot_vec_to_rot_mat(to_native(np.zeros(3)))), np.eye(3))


def test_axis_angle_to_rot_mat(backend, to_native, to_numpy, random_rotations):
    rots = random_rotations()
    v = rots.as_rotvec()
    theta = np.linalg.norm(v, axis=-1, keepdims=True)
    aa = np.concatenate([v / theta, theta], axis=-1).reshape(BATCH + (4,))
    out = ivy_mech.axis_angle_to_rot_mat(to_native(aa))
    np.testing.assert_allclose(to_numpy(out), rots.as_matrix().reshape(BATCH + (3, 3)), atol=1e-12)
    ref = np.stack([t3d.axangles.axangle2mat(a[:3], a[3]) for a in aa.reshape(-1, 4)]).reshape(BATCH + (3, 3))
    np.testing.assert_allclose(to_numpy(out), ref, atol=1e-12)


def test_polar_axis_angle_to_rot_mat(backend, to_native, to_numpy, rng):
    el, az, ang = rng.uniform(0, np.pi, BATCH), rng.uniform(-np.pi, np.pi, BATCH), rng.uniform(-4, 4, BATCH)
    axis = np.stack([np.sin(el) * np.cos(az), np.sin(el) * np.sin(az), np.cos(el)], axis=-1)
    ref = np.stack([t3d.axangles.axangle2mat(a, t) for a, t in zip(axis.reshape(-1, 3), ang.ravel())])
    out = ivy_mech.polar_axis_angle_to_rot_mat(to_native(np.stack([el, az, ang], axis=-1)))
    np.testing.assert_allclose(to_numpy(out), ref.reshape(BATCH + (3, 3)), atol=1e-12)


# -- quaternions ------------------------------------------------------------------------------


def test_rot_mat_to_quaternion(backend, to_native, to_numpy, random_rotations):
    rots = random_rotations()
    out = to_numpy(ivy_mech.rot_mat_to_quaternion(to_native(rots.as_matrix().reshape(BATCH + (3, 3)))))
    assert out.shape == BATCH + (4,)
    np.testing.assert_allclose(out, _quats(rots, canonical=True), atol=1e-12)
    ref = np.stack([np.roll(t3d.quaternions.mat2quat(m), -1) for m in rots.as_matrix()])
    ref *= np.where(ref[:, 3:] < 0, -1, 1)
    np.testing.assert_allclose(out.reshape(-1, 4), ref, atol=1e-12)


@pytest.mark.parametrize("axis", [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [1, -2, 3], [0, -1, 1]])
def test_rot_mat_to_quaternion_half_turns_and_near(backend, to_native, to_numpy, scipy_rotation, axis):
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    angles = np.array([np.pi, np.pi - 1e-9, np.pi - 1e-4, 1e-9, 0.0, 2.0])
    rots = scipy_rotation.from_rotvec(axis * angles[:, None])
    out = to_numpy(ivy_mech.rot_mat_to_quaternion(to_native(rots.as_matrix())))
    expected = rots.as_quat()
    # q and -q are the same rotation; at exactly pi both signs are canonical (qr = 0)
    sign = np.where(np.sum(out * expected, axis=-1, keepdims=True) < 0, -1.0, 1.0)
    np.testing.assert_allclose(out, sign * expected, atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(out, axis=-1), 1.0, atol=1e-14)
    assert np.all(out[..., 3] >= 0)


def test_rotation_vector_to_quaternion(backend, to_native, to_numpy, random_rotations):
    rots = random_rotations()
    out = to_numpy(ivy_mech.rotation_vector_to_quaternion(to_native(rots.as_rotvec().reshape(BATCH + (3,)))))
    np.testing.assert_allclose(out, _quats(rots, canonical=True), atol=1e-12)
    # angles beyond pi come back canonical; tiny angles are exact
    v = np.array([[0.0, 0.0, 4.0], [1e-9, -2e-9, 0.0], [0.0, 0.0, 0.0]])
    expected = scipy_rotation_canonical(v)
    np.testing.assert_allclose(to_numpy(ivy_mech.rotation_vector_to_quaternion(to_native(v))), expected, atol=1e-15)


def scipy_rotation_canonical(rotvecs):
    from scipy.spatial.transform import Rotation

    return Rotation.from_rotvec(rotvecs).as_quat(canonical=True)


def test_axis_angle_and_polar_to_quaternion(backend, to_native, to_numpy, rng):
    el, az, ang = rng.uniform(0, np.pi, BATCH), rng.uniform(-np.pi, np.pi, BATCH), rng.uniform(-6, 6, BATCH)
    axis = np.stack([np.sin(el) * np.cos(az), np.sin(el) * np.sin(az), np.cos(el)], axis=-1)
    expected = scipy_rotation_canonical((axis * ang[..., None]).reshape(-1, 3)).reshape(BATCH + (4,))
    aa = np.concatenate([axis, ang[..., None]], axis=-1)
    np.testing.assert_allclose(to_numpy(ivy_mech.axis_angle_to_quaternion(to_native(aa))), expected, atol=1e-12)
    polar = np.stack([el, az, ang], axis=-1)
    np.testing.assert_allclose(
        to_numpy(ivy_mech.polar_axis_angle_to_quaternion(to_native(polar))), expected, atol=1e-12
    )


def test_hamilton_product(backend, to_native, to_numpy, random_rotations):
    r1, r2 = random_rotations(seed=1), random_rotations(seed=2)
    q1, q2 = _signed_quats(r1, seed=1), _signed_quats(r2, seed=2)
    out = to_numpy(ivy_mech.hamilton_product(to_native(q1), to_native(q2)))
    assert out.shape == BATCH + (4,)
    ref = np.stack(
        [
            np.roll(t3d.quaternions.qmult(np.roll(a, 1), np.roll(b, 1)), -1)
            for a, b in zip(q1.reshape(-1, 4), q2.reshape(-1, 4))
        ]
    )
    np.testing.assert_allclose(out, ref.reshape(BATCH + (4,)), atol=1e-12)
    # it composes rotations: R(q1 q2) = R(q1) R(q2)
    np.testing.assert_allclose(
        to_numpy(ivy_mech.quaternion_to_rot_mat(to_native(out))),
        (r1 * r2).as_matrix().reshape(BATCH + (3, 3)),
        atol=1e-12,
    )
    # broadcasting one quaternion against a batch
    one = to_numpy(ivy_mech.hamilton_product(to_native(q1[0, 0, 0]), to_native(q2)))
    expected = np.roll(t3d.quaternions.qmult(np.roll(q1[0, 0, 0], 1), np.roll(q2[1, 2, 3], 1)), -1)
    assert one.shape == BATCH + (4,)
    np.testing.assert_allclose(one[1, 2, 3], expected, atol=1e-12)


def test_inverse_quaternion(backend, to_native, to_numpy, random_rotations):
    rots = random_rotations()
    unit = _signed_quats(rots)
    out = to_numpy(ivy_mech.inverse_quaternion(to_native(unit)))
    ref = np.stack([np.roll(t3d.quaternions.qinverse(np.roll(qq, 1)), -1) for qq in unit.reshape(-1, 4)])
    np.testing.assert_allclose(out, ref.reshape(BATCH + (4,)), atol=1e-12)
    np.testing.assert_allclose(
        to_numpy(ivy_mech.quaternion_to_rot_mat(to_native(out))),
        rots.inv().as_matrix().reshape(BATCH + (3, 3)),
        atol=1e-12,
    )
    # non-unit: q * q^-1 = 1 (transforms3d's qinverse divides by |q|, not |q|^2, so it is no oracle here)
    q = 2.5 * unit
    inv = to_numpy(ivy_mech.inverse_quaternion(to_native(q)))
    products = np.stack(
        [t3d.quaternions.qmult(np.roll(a, 1), np.roll(b, 1)) for a, b in zip(q.reshape(-1, 4), inv.reshape(-1, 4))]
    )
    np.testing.assert_allclose(products, np.broadcast_to([1.0, 0, 0, 0], products.shape), atol=1e-12)


def test_scale_quaternion_rotation_angle(backend, to_native, to_numpy, random_rotations):
    rots = random_rotations()
    q = _signed_quats(rots)
    for scale in (0.5, 2.0, -1.0, 0.0):
        out = to_numpy(ivy_mech.scale_quaternion_rotation_angle(to_native(q), scale))
        expected = scipy_rotation_canonical(rots.as_rotvec() * scale).reshape(BATCH + (4,))
        np.testing.assert_allclose(out, expected, atol=1e-12)
    # an array of scales, one per batch entry
    scales = np.random.default_rng(3).uniform(-2, 2, BATCH)
    out = to_numpy(ivy_mech.scale_quaternion_rotation_angle(to_native(q), to_native(scales)))
    expected = scipy_rotation_canonical(rots.as_rotvec() * scales.reshape(-1, 1)).reshape(BATCH + (4,))
    np.testing.assert_allclose(out, expected, atol=1e-12)
    identity = to_numpy(ivy_mech.scale_quaternion_rotation_angle(to_native(np.array([0.0, 0, 0, 1])), 3.0))
    np.testing.assert_array_equal(identity, [0.0, 0, 0, 1])


def test_canonicalize_quaternion(backend, to_native, to_numpy, random_rotations):
    rots = random_rotations()
    out = to_numpy(ivy_mech.canonicalize_quaternion(to_native(_signed_quats(rots))))
    np.testing.assert_allclose(out, _quats(rots, canonical=True), atol=0)


# -- rotation vectors and axis-angles ---------------------------------------------------------


def test_quaternion_to_rotation_vector_any_sign(backend, to_native, to_numpy, random_rotations):
    rots = random_rotations()
    out = to_numpy(ivy_mech.quaternion_to_rotation_vector(to_native(_signed_quats(rots))))
    assert out.shape == BATCH + (3,)
    np.testing.assert_allclose(out, rots.as_rotvec().reshape(BATCH + (3,)), atol=1e-12)
    # small angles: no NaN and exact to first order; non-unit quaternions are fine
    q = np.array([[1e-9, 0, 0, 1], [0, -1e-12, 0, -1], [0, 0, 0, 1], [0, 0, 0, -2.0]])
    expected = np.array([[2e-9, 0, 0], [0, 2e-12, 0], [0, 0, 0], [0, 0, 0]])
    np.testing.assert_allclose(to_numpy(ivy_mech.quaternion_to_rotation_vector(to_native(q))), expected, atol=1e-20)


def test_quaternion_to_axis_angle_any_sign(backend, to_native, to_numpy, random_rotations):
    rots = random_rotations()
    q = _signed_quats(rots)
    out = to_numpy(ivy_mech.quaternion_to_axis_angle(to_native(q)))
    assert out.shape == BATCH + (4,)
    rotvec = rots.as_rotvec().reshape(BATCH + (3,))
    theta = np.linalg.norm(rotvec, axis=-1)
    np.testing.assert_allclose(out[..., 3], theta, atol=1e-12)
    np.testing.assert_allclose(out[..., :3], rotvec / theta[..., None], atol=1e-12)
    for qq, row in zip(q.reshape(-1, 4), out.reshape(-1, 4)):
        axis, angle = t3d.quaternions.quat2axangle(np.roll(qq, 1) * np.sign(qq[3]))
        np.testing.assert_allclose(row, np.append(axis, angle), atol=1e-12)
    identity = to_numpy(ivy_mech.quaternion_to_axis_angle(to_native(np.array([0.0, 0, 0, -1]))))
    np.testing.assert_array_equal(identity, [0.0, 0, 1, 0])


def test_rot_mat_to_axis_angle_and_rotation_vector(backend, to_native, to_numpy, random_rotations):
    rots = random_rotations()
    m = to_native(rots.as_matrix().reshape(BATCH + (3, 3)))
    rotvec = rots.as_rotvec().reshape(BATCH + (3,))
    np.testing.assert_allclose(to_numpy(ivy_mech.rot_mat_to_rotation_vector(m)), rotvec, atol=1e-12)
    aa = to_numpy(ivy_mech.rot_mat_to_axis_angle(m))
    np.testing.assert_allclose(aa[..., :3] * aa[..., 3:], rotvec, atol=1e-12)
    for mm, row in zip(rots.as_matrix(), aa.reshape(-1, 4)):
        axis, angle = t3d.axangles.mat2axangle(mm)
        if angle < 0:
            axis, angle = -axis, -angle
        np.testing.assert_allclose(row, np.append(axis, angle), atol=1e-10)


def test_rotation_vector_axis_angle_polar_round_trips(backend, to_native, to_numpy, rng):
    v = rng.normal(size=BATCH + (3,))
    theta = np.linalg.norm(v, axis=-1, keepdims=True)
    aa = to_numpy(ivy_mech.rotation_vector_to_axis_angle(to_native(v)))
    np.testing.assert_allclose(aa, np.concatenate([v / theta, theta], axis=-1), atol=1e-12)
    np.testing.assert_allclose(to_numpy(ivy_mech.axis_angle_to_rotation_vector(to_native(aa))), v, atol=1e-12)
    polar = to_numpy(ivy_mech.rotation_vector_to_polar_axis_angle(to_native(v)))
    e = v / theta
    np.testing.assert_allclose(
        polar, np.stack([np.arccos(e[..., 2]), np.arctan2(e[..., 1], e[..., 0]), theta[..., 0]], -1), atol=1e-12
    )
    np.testing.assert_allclose(to_numpy(ivy_mech.axis_angle_to_polar_axis_angle(to_native(aa))), polar, atol=1e-12)
    np.testing.assert_allclose(to_numpy(ivy_mech.polar_axis_angle_to_axis_angle(to_native(polar))), aa, atol=1e-12)
    np.testing.assert_allclose(to_numpy(ivy_mech.polar_axis_angle_to_rotation_vector(to_native(polar))), v, atol=1e-12)
    zero = to_numpy(ivy_mech.rotation_vector_to_axis_angle(to_native(np.zeros(3))))
    np.testing.assert_array_equal(zero, [0, 0, 1, 0])


def test_polar_axis_angle_from_quaternion_and_matrix(backend, to_native, to_numpy, random_rotations):
    rots = random_rotations()
    rotvec = rots.as_rotvec().reshape(BATCH + (3,))
    theta = np.linalg.norm(rotvec, axis=-1)
    e = rotvec / theta[..., None]
    expected = np.stack([np.arccos(e[..., 2]), np.arctan2(e[..., 1], e[..., 0]), theta], -1)
    q = to_native(_signed_quats(rots))
    np.testing.assert_allclose(to_numpy(ivy_mech.quaternion_to_polar_axis_angle(q)), expected, atol=1e-10)
    m = to_native(rots.as_matrix().reshape(BATCH + (3, 3)))
    np.testing.assert_allclose(to_numpy(ivy_mech.rot_mat_to_polar_axis_angle(m)), expected, atol=1e-10)


def test_float32_round_trips(backend, to_native, to_numpy, random_rotations):
    rots = random_rotations(seed=9)
    m = rots.as_matrix().reshape(BATCH + (3, 3)).astype(np.float32)
    q = ivy_mech.rot_mat_to_quaternion(to_native(m))
    assert to_numpy(q).dtype == np.float32
    np.testing.assert_allclose(to_numpy(ivy_mech.quaternion_to_rot_mat(q)), m, atol=2e-6)
    v = ivy_mech.quaternion_to_rotation_vector(q)
    np.testing.assert_allclose(to_numpy(ivy_mech.rot_vec_to_rot_mat(v)), m, atol=2e-6)


# -- target facing ----------------------------------------------------------------------------


def test_target_facing_rotation_matrix(backend, to_native, to_numpy, rng):
    body, target = rng.normal(size=BATCH + (3,)), rng.normal(size=BATCH + (3,))
    r = to_numpy(ivy_mech.target_facing_rotation_matrix(to_native(body), to_native(target)))
    assert r.shape == BATCH + (3, 3)
    direction = (target - body) / np.linalg.norm(target - body, axis=-1, keepdims=True)
    np.testing.assert_allclose(r[..., :, 2], direction, atol=1e-12)
    np.testing.assert_allclose(r[..., 2, 0], 0.0, atol=1e-12)  # x axis is horizontal
    np.testing.assert_allclose(np.swapaxes(r, -1, -2) @ r, np.broadcast_to(np.eye(3), r.shape), atol=1e-12)
    np.testing.assert_allclose(np.linalg.det(r), 1.0, atol=1e-12)
    # x = unit(up x z): the body's y axis points upward (non-negative world z)
    assert np.all(r[..., 2, 1] >= 0)


def test_target_facing_straight_up(backend, to_native, to_numpy):
    r = to_numpy(ivy_mech.target_facing_rotation_matrix(to_native(np.zeros(3)), to_native(np.array([0.0, 0, 5]))))
    np.testing.assert_allclose(r, np.eye(3), atol=1e-15)
