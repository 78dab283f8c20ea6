"""Manipulators: the Mico against matrices read from the CoppeliaSim simulator, the Panda against an
independent forward kinematics from Franka's published (modified, Craig) DH table."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import ivy
import ivy_robot

# A random Mico configuration and the link frames CoppeliaSim reported for it ([R | t], link 0 = base).
MICO_Q = np.array(
    [
        -0.3202435076236725,
        5.3120341300964355,
        4.000271320343018,
        1.116408348083496,
        -2.156550645828247,
        -1.7456011772155762,
    ]
)
MICO_SIM_FRAMES = np.array(
    [
        [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]],
        [[0.949159, 0.0, 0.314798, 0.0], [0.314798, 0.0, -0.949159, 0.0], [0.0, 1.0, 0.0, 0.2755]],
        [
            [-0.783565, -0.535657, -0.314798, -0.227234],
            [-0.259877, -0.177656, 0.949159, -0.075364],
            [-0.56435, 0.825536, 0.0, 0.111839],
        ],
        [
            [-0.243124, -0.314798, 0.917493, -0.225022],
            [-0.080634, 0.949159, 0.304295, -0.082006],
            [-0.966638, 0.0, -0.256147, 0.11187],
        ],
        [
            [-0.389566, 0.834715, 0.389217, -0.377407],
            [0.817456, 0.508053, -0.271382, -0.132546],
            [-0.424269, 0.212446, -0.880263, 0.15438],
        ],
        [
            [0.480203, 0.730109, -0.486154, -0.410645],
            [0.875269, -0.435188, 0.210988, -0.109291],
            [-0.057524, -0.526833, -0.84802, 0.229717],
        ],
        [
            [0.345881, -0.80252, 0.486136, -0.311968],
            [0.937628, 0.276342, -0.210923, -0.152304],
            [0.03493, 0.528769, 0.848047, 0.401567],
        ],
    ]
)
SIM_ATOL = 2e-4  # the simulator's frames are float32 with its own rounding


def _homogeneous(m):
    last = np.zeros(m.shape[:-2] + (1, 4))
    last[..., 0, 3] = 1.0
    return np.concatenate([m, last], axis=-2)


def _panda_flange_craig(q):
    """Franka's modified-DH forward kinematics (``[..., 7]`` -> ``[..., 4, 4]``) plus the flange."""
    a = [0.0, 0.0, 0.0, 0.0825, -0.0825, 0.0, 0.088]
    d = [0.333, 0.0, 0.316, 0.0, 0.384, 0.0, 0.0]
    alpha = [0.0, -np.pi / 2, np.pi / 2, np.pi / 2, -np.pi / 2, np.pi / 2, np.pi / 2]
    out = np.broadcast_to(np.eye(4), q.shape[:-1] + (4, 4)).copy()
    for i in range(7):
        ct, st = np.cos(q[..., i]), np.sin(q[..., i])
        ca, sa = np.cos(alpha[i]), np.sin(alpha[i])
        t = np.zeros(q.shape[:-1] + (4, 4))
        t[..., 0, :] = np.stack([ct, -st, np.zeros_like(ct), np.full_like(ct, a[i])], -1)
        t[..., 1, :] = np.stack([st * ca, ct * ca, np.full_like(ct, -sa), np.full_like(ct, -sa * d[i])], -1)
        t[..., 2, :] = np.stack([st * sa, ct * sa, np.full_like(ct, ca), np.full_like(ct, ca * d[i])], -1)
        t[..., 3, 3] = 1.0
        out = out @ t
    flange = np.eye(4)
    flange[2, 3] = 0.107
    return out @ flange


def _sample_segments(origins, counts):
    """NumPy: the base origin, then each link cut into ``counts[i]`` equal segments (their ends)."""
    points = [origins[..., 0, :]]
    for i, n in enumerate(counts):
        for k in range(1, n + 1):
            points.append(origins[..., i, :] + (origins[..., i + 1, :] - origins[..., i, :]) * k / n)
    return np.stack(points, axis=-2)


def test_mico_link_matrices_match_the_simulator(backend, to_native, to_numpy):
    mats = to_numpy(ivy_robot.MicoManipulator().compute_link_matrices(to_native(MICO_Q)))
    assert mats.shape == (7, 4, 4) and mats.dtype == np.float64
    np.testing.assert_allclose(mats[:, :3, :], MICO_SIM_FRAMES, atol=SIM_ATOL)
    np.testing.assert_allclose(mats[:, 3, :], np.tile([0.0, 0.0, 0.0, 1.0], (7, 1)), atol=0)
    batched = to_numpy(ivy_robot.MicoManipulator().compute_link_matrices(to_native(np.tile(MICO_Q, (2, 3, 1))), 4))
    assert batched.shape == (2, 3, 5, 4, 4)
    np.testing.assert_allclose(
        batched[..., :3, :], np.broadcast_to(MICO_SIM_FRAMES[:5], (2, 3, 5, 3, 4)), atol=SIM_ATOL
    )


def test_mico_link_poses_match_the_simulator(backend, to_native, to_numpy):
    poses = to_numpy(ivy_robot.MicoManipulator().compute_link_poses(to_native(MICO_Q)))
    assert poses.shape == (6, 6)
    np.testing.assert_allclose(poses[:, :3], MICO_SIM_FRAMES[1:, :, 3], atol=SIM_ATOL)
    np.testing.assert_allclose(
        Rotation.from_rotvec(poses[:, 3:]).as_matrix(), MICO_SIM_FRAMES[1:, :, :3], atol=SIM_ATOL
    )


def test_mico_sampled_links_lie_on_the_simulator_links(backend, to_native, to_numpy):
    mico = ivy_robot.MicoManipulator()
    counts = mico.link_sample_counts()
    assert counts == (6, 7, 1, 4, 2, 5)  # 26 points with the base, as the original library sampled
    out = to_numpy(mico.sample_links(to_native(MICO_Q)))
    assert out.shape == (26, 3)
    np.testing.assert_allclose(out, _sample_segments(MICO_SIM_FRAMES[:, :, 3], counts), atol=SIM_ATOL)
    lengths = np.linalg.norm(np.diff(MICO_SIM_FRAMES[:, :, 3], axis=0), axis=-1)
    np.testing.assert_allclose(mico.link_lengths, lengths, atol=SIM_ATOL)
    two = to_numpy(mico.sample_links(to_native(np.tile(MICO_Q, (4, 1))), link_num=2, samples_per_metre=50))
    expected_counts = [max(1, math.floor(n * 50)) for n in mico.link_lengths[:2]]
    assert two.shape == (4, 1 + sum(expected_counts), 3)
    np.testing.assert_allclose(two[1], _sample_segments(MICO_SIM_FRAMES[:3, :, 3], expected_counts), atol=SIM_ATOL)


def test_panda_flange_matches_franka_modified_dh(backend, to_native, to_numpy, rng):
    q = rng.uniform(-2.8, 2.8, size=(3, 4, 7))
    mats = to_numpy(ivy_robot.PandaManipulator().compute_link_matrices(to_native(q)))
    assert mats.shape == (3, 4, 8, 4, 4)
    np.testing.assert_allclose(mats[..., -1, :, :], _panda_flange_craig(q), atol=1e-12)
    # link 0 is the base: the world frame without a base pose
    np.testing.assert_allclose(mats[..., 0, :, :], np.broadcast_to(np.eye(4), (3, 4, 4, 4)), atol=0)


def test_panda_with_a_base_pose(backend, to_native, to_numpy, rng):
    base = np.concatenate([Rotation.from_rotvec([0.3, -0.2, 1.0]).as_matrix(), [[0.5], [-0.1], [0.7]]], axis=-1)
    q = rng.uniform(-2.8, 2.8, size=(5, 7))
    panda = ivy_robot.PandaManipulator(to_native(base))
    mats = to_numpy(panda.compute_link_matrices(to_native(q)))
    np.testing.assert_allclose(mats[:, -1], _homogeneous(base) @ _panda_flange_craig(q), atol=1e-12)
    np.testing.assert_allclose(mats[:, 0, :3], np.broadcast_to(base, (5, 3, 4)), atol=0)
    assert panda.num_joints == 7


def test_custom_manipulator_with_scales_and_offsets(backend, to_native, to_numpy, rng):
    # a planar 2-link arm: DH angles theta = 2 q - 0.5; the end is at l1 e(t1) + l2 e(t1 + t2)
    arm = ivy_robot.Manipulator([0.4, 0.3], [0.0, 0.0], [0.0, 0.0], [2.0, 2.0], [0.5, 0.5])
    q = rng.uniform(-1, 1, size=(6, 2))
    theta = 2.0 * q - 0.5
    end = to_numpy(arm.compute_link_matrices(to_native(q)))[:, -1, :2, 3]
    expected = np.stack(
        [
            0.4 * np.cos(theta[:, 0]) + 0.3 * np.cos(theta.sum(-1)),
            0.4 * np.sin(theta[:, 0]) + 0.3 * np.sin(theta.sum(-1)),
        ],
        axis=-1,
    )
    np.testing.assert_allclose(end, expected, atol=1e-12)


def test_manipulator_float32(backend, to_native, to_numpy):
    mats = to_numpy(ivy_robot.MicoManipulator().compute_link_matrices(to_native(MICO_Q.astype(np.float32))))
    assert mats.dtype == np.float32
    np.testing.assert_allclose(mats[:, :3, :], MICO_SIM_FRAMES, atol=SIM_ATOL)


def test_gradients_wrt_joint_angles(check_gradient, rng):
    panda, mico = ivy_robot.PandaManipulator(), ivy_robot.MicoManipulator()
    q = rng.uniform(-2.0, 2.0, size=(7,))
    check_gradient(lambda x: panda.compute_link_matrices(x), q)
    check_gradient(lambda x: mico.sample_links(x), MICO_Q)
    check_gradient(lambda x: mico.compute_link_poses(x, 3), MICO_Q, atol=1e-6)


def test_gradient_wrt_the_base(check_gradient, to_native, rng):
    q = to_native(rng.uniform(-2.0, 2.0, size=(6,)))
    base = np.concatenate([Rotation.from_rotvec([0.1, 0.2, 0.3]).as_matrix(), [[0.1], [0.2], [0.3]]], axis=-1)
    check_gradient(lambda b: ivy_robot.MicoManipulator(b).sample_links(q), base)


def test_link_computations_compile(check_compiled, to_native, rng):
    mico = ivy_robot.MicoManipulator()
    check_compiled(
        lambda q: (mico.compute_link_matrices(q), mico.sample_links(q), mico.compute_link_poses(q)),
        to_native(rng.uniform(-3, 3, size=(2, 6))),
    )


def test_bad_input(backend, to_native):
    mico = ivy_robot.MicoManipulator()
    with pytest.raises(ValueError, match=r"expected joint angles \(one per joint, 6\) of shape \[\.\.\., 6\]"):
        mico.compute_link_matrices(to_native(np.zeros(7)))
    with pytest.raises(ValueError, match=r"link_num must be an int in \[0, 6\], got 7"):
        mico.sample_links(to_native(np.zeros(6)), link_num=7)
    with pytest.raises(ValueError, match="samples_per_metre must be positive"):
        mico.sample_links(to_native(np.zeros(6)), samples_per_metre=0)
    with pytest.raises(ValueError, match="one entry per joint"):
        ivy_robot.Manipulator([0.1, 0.2], [0.0], [0.0, 0.0], [1.0, 1.0], [0.0, 0.0])
    with pytest.raises(ValueError, match=r"base->world matrix of shape \[\.\.\., 3, 4\]"):
        ivy_robot.PandaManipulator(to_native(np.eye(4)))
    with pytest.raises(ValueError, match="batch dimensions do not broadcast"):
        ivy_robot.MicoManipulator(to_native(np.zeros((2, 3, 4)))).compute_link_matrices(to_native(np.zeros((3, 6))))


def test_link_matrices_are_native(backend, to_native):
    out = ivy_robot.PandaManipulator().compute_link_matrices(to_native(np.zeros(7)), 0)
    assert ivy.is_native_array(out) and tuple(out.shape) == (1, 4, 4)
