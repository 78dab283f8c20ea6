"""Serial manipulators described by standard Denavit-Hartenberg parameters.

Convention (standard, "distal" DH): link ``i``'s frame follows link ``i-1``'s by
``T_i = Rot_z(theta_i) Trans_z(d_i) Trans_x(a_i) Rot_x(alpha_i)``, with the joint's DH angle
``theta_i = q_i * scale_i - offset_i`` (``q`` the robot's own joint angles, radians). Frame 0 is
the base, placed in the world by ``base_inv_ext_mat`` (base->world ``[R | t]``). Lengths in metres.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import ivy
import ivy_mech

from ._helpers import broadcast_batch, check_last_dims, constant_like, shape_of

__all__ = ["Manipulator", "MicoManipulator", "PandaManipulator"]


def _floats(values: Any, name: str) -> tuple[float, ...]:
    """A 1-d sequence (or array) of numbers as a tuple of Python floats."""
    if ivy.is_native_array(values):
        values = ivy.to_list(values)
    try:
        return tuple(float(v) for v in values)
    except TypeError as err:
        raise TypeError(f"Manipulator: {name} must be a 1-d sequence of numbers, got {values!r}") from err


class Manipulator:
    """A serial manipulator of revolute joints with standard Denavit-Hartenberg parameters.

    Args:
        a_s: ``[n_j]`` link lengths ``a_i`` (metres), numbers or a 1-d array.
        d_s: ``[n_j]`` link offsets ``d_i`` (metres).
        alpha_s: ``[n_j]`` link twists ``alpha_i`` (radians).
        dh_joint_scales: ``[n_j]`` ``scale_i`` in ``theta_i = q_i * scale_i - offset_i``.
        dh_joint_offsets: ``[n_j]`` ``offset_i`` (radians).
        base_inv_ext_mat: ``[..., 3, 4]`` base->world matrix, a native array (its leading
            dimensions broadcast with the joint angles'); ``None``: the base frame is the world.

    The DH parameters are kept as Python floats and become constants of the joint angles' backend
    and dtype at each call, so one manipulator serves every backend.
    """

    def __init__(
        self,
        a_s: Sequence[float],
        d_s: Sequence[float],
        alpha_s: Sequence[float],
        dh_joint_scales: Sequence[float],
        dh_joint_offsets: Sequence[float],
        base_inv_ext_mat: Any = None,
    ) -> None:
        params = {
            "a_s": a_s,
            "d_s": d_s,
            "alpha_s": alpha_s,
            "dh_joint_scales": dh_joint_scales,
            "dh_joint_offsets": dh_joint_offsets,
        }
        values = {k: _floats(v, k) for k, v in params.items()}
        sizes = {k: len(v) for k, v in values.items()}
        if len(set(sizes.values())) != 1 or sizes["a_s"] == 0:
            raise ValueError(f"Manipulator: every DH parameter needs one entry per joint, got lengths {sizes}")
        if base_inv_ext_mat is not None:
            check_last_dims(base_inv_ext_mat, (3, 4), "Manipulator", "the base->world matrix")
        self._a, self._d, self._alpha = values["a_s"], values["d_s"], values["alpha_s"]
        self._scales, self._offsets = values["dh_joint_scales"], values["dh_joint_offsets"]
        self._base_inv_ext_mat = base_inv_ext_mat

    @property
    def num_joints(self) -> int:
        """The number of joints ``n_j`` (and of links after the base)."""
        return len(self._a)

    @property
    def link_lengths(self) -> tuple[float, ...]:
        """The distance between consecutive frame origins, ``sqrt(a_i² + d_i²)``, per link."""
        return tuple(math.hypot(a, d) for a, d in zip(self._a, self._d))

    @property
    def base_inv_ext_mat(self) -> Any:
        """The base->world matrix ``[..., 3, 4]``, or ``None`` for the identity."""
        return self._base_inv_ext_mat

    def _check(self, joint_angles: Any, link_num: int | None, fn: str) -> int:
        check_last_dims(
            joint_angles,
            (self.num_joints,),
            f"{type(self).__name__}.{fn}",
            f"joint angles (one per joint, {self.num_joints})",
        )
        if link_num is None:
            return self.num_joints
        if isinstance(link_num, bool) or not isinstance(link_num, int) or not 0 <= link_num <= self.num_joints:
            raise ValueError(
                f"{type(self).__name__}.{fn}: link_num must be an int in [0, {self.num_joints}], got {link_num!r}"
            )
        return link_num

    def _joint_transforms(self, joint_angles: Any, link_num: int) -> Any:
        """``[..., link_num, 4, 4]``: the DH transforms ``T_i`` of the first ``link_num`` joints."""
        q = joint_angles[..., 0:link_num]
        theta = q * constant_like(self._scales[:link_num], q) - constant_like(self._offsets[:link_num], q)
        ct, st = ivy.cos(theta), ivy.sin(theta)
        ca = constant_like([math.cos(v) for v in self._alpha[:link_num]], q)
        sa = constant_like([math.sin(v) for v in self._alpha[:link_num]], q)
        a, d = constant_like(self._a[:link_num], q), constant_like(self._d[:link_num], q)
        zero, one = ivy.zeros_like(theta), ivy.ones_like(theta)
        rows = [
            [ct, -st * ca, st * sa, a * ct],
            [st, ct * ca, -ct * sa, a * st],
            [zero, sa + zero, ca + zero, d + zero],
            [zero, zero, zero, one],
        ]
        return ivy.stack([ivy.stack(row, axis=-1) for row in rows], axis=-2)

    def _base(self, like: Any) -> Any:
        """The base->world ``[..., 4, 4]`` (identity when not given), like the joint angles."""
        if self._base_inv_ext_mat is None:
            return ivy.eye(4, dtype=like.dtype, device=ivy.dev(like), backend=ivy.namespace(like))
        return ivy_mech.make_transformation_homogeneous(self._base_inv_ext_mat)

    def compute_link_matrices(self, joint_angles: Any, link_num: int | None = None) -> Any:
        """Link frame->world matrices of the base and the first ``link_num`` links.

        Args:
            joint_angles: ``[..., n_j]`` joint angles ``q`` (radians).
            link_num: how many links after the base (default: all ``n_j``).

        Returns:
            ``[..., link_num + 1, 4, 4]`` homogeneous matrices; entry 0 is the base, entry ``i``
            is ``base @ T_1 @ ... @ T_i``.
        """
        link_num = self._check(joint_angles, link_num, "compute_link_matrices")
        transforms = self._joint_transforms(joint_angles, link_num)
        base = self._base(joint_angles)
        batch = broadcast_batch(
            [shape_of(joint_angles)[:-1], shape_of(base)[:-2]],
            ["joint_angles", "base_inv_ext_mat"],
            f"{type(self).__name__}.compute_link_matrices",
        )
        frames = [ivy.broadcast_to(base, batch + (4, 4))]
        for i in range(link_num):
            frames.append(ivy.matmul(frames[-1], transforms[..., i, :, :]))
        return ivy.stack(frames, axis=-3)

    def compute_link_poses(self, joint_angles: Any, link_num: int | None = None) -> Any:
        """Rotation-vector poses ``[x, y, z, vx, vy, vz]`` of links 1..``link_num`` in the world.

        Returns:
            ``[..., link_num, 6]`` (the base's pose is not included).
        """
        link_num = self._check(joint_angles, link_num, "compute_link_poses")
        matrices = self.compute_link_matrices(joint_angles, link_num)
        return ivy_mech.mat_pose_to_rot_vec_pose(matrices[..., 1:, 0:3, :])

    def link_sample_counts(self, link_num: int | None = None, samples_per_metre: float = 25.0) -> tuple[int, ...]:
        """Segments per link used by :meth:`sample_links`: ``max(1, floor(length * samples_per_metre))``."""
        link_num = self.num_joints if link_num is None else link_num
        counts = []
        # plain loops: paddle's bytecode tracer (to_static) mis-reads closures of generator expressions
        for length in self.link_lengths[:link_num]:
            counts.append(max(1, int(math.floor(length * samples_per_metre + 1e-9))))
        return tuple(counts)

    def _sample_weights(self, link_num: int, samples_per_metre: float) -> list[list[float]]:
        """Rows ``(1 - f) e_{i-1} + f e_i`` that pick the samples from the frame origins."""
        weights = [[1.0] + [0.0] * link_num]
        for i, count in enumerate(self.link_sample_counts(link_num, samples_per_metre)):
            for k in range(1, count + 1):
                row = [0.0] * (link_num + 1)
                row[i], row[i + 1] = 1.0 - k / count, k / count
                weights.append(row)
        return weights

    def sample_links(self, joint_angles: Any, link_num: int | None = None, samples_per_metre: float = 25.0) -> Any:
        """Points spaced evenly along the straight segments between consecutive frame origins.

        Each link is cut into ``max(1, floor(length * samples_per_metre))`` equal segments (so at
        most ``samples_per_metre`` points per metre); the points are the base origin followed by
        each segment's end, link after link (a joint shared by two links appears once).

        Args:
            joint_angles: ``[..., n_j]`` joint angles (radians).
            link_num: how many links after the base (default: all).
            samples_per_metre: the sampling density, positive.

        Returns:
            ``[..., 1 + sum(counts), 3]`` world positions (``counts`` from :meth:`link_sample_counts`).
        """
        link_num = self._check(joint_angles, link_num, "sample_links")
        if not samples_per_metre > 0:
            raise ValueError(
                f"{type(self).__name__}.sample_links: samples_per_metre must be positive, got {samples_per_metre!r}"
            )
        origins = self.compute_link_matrices(joint_angles, link_num)[..., 0:3, 3]  # [..., link_num + 1, 3]
        # each sample is (1 - f) * origin_{i-1} + f * origin_i: one constant weight matrix
        return ivy.matmul(constant_like(self._sample_weights(link_num, samples_per_metre), origins), origins)


class MicoManipulator(Manipulator):
    """Kinova Mico, 6 joints, the DH parameters of Kinova's user guide (60 degree wrist).

    ``d1 = 0.2755``, ``d2 = 0.29``, ``d3 = 0.1233``, ``d4 = d5 = 0.0741``, ``d6 = 0.16``,
    ``e2 = 0.007`` m; Kinova's joint angles relate to DH angles by scales ``[-1, 1, 1, 1, 1, 1]``
    and offsets ``[0, pi/2, -pi/2, 0, pi, -pi/2]``.

    Args:
        base_inv_ext_mat: ``[..., 3, 4]`` base->world matrix, or ``None``.
    """

    def __init__(self, base_inv_ext_mat: Any = None) -> None:
        d1, d2, d3, d4, d5, d6, e2 = 0.2755, 0.29, 0.1233, 0.0741, 0.0741, 0.16, 0.007
        wrist = math.pi / 6  # half the 60 degree angle between the wrist's joint axes
        ratio = math.sin(wrist) / math.sin(2 * wrist)
        d4b, d5b, d6b = d3 + ratio * d4, ratio * (d4 + d5), ratio * d5 + d6
        super().__init__(
            a_s=[0.0, d2, 0.0, 0.0, 0.0, 0.0],
            d_s=[d1, 0.0, -e2, -d4b, -d5b, -d6b],
            alpha_s=[math.pi / 2, math.pi, math.pi / 2, 2 * wrist, 2 * wrist, math.pi],
            dh_joint_scales=[-1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
            dh_joint_offsets=[0.0, math.pi / 2, -math.pi / 2, 0.0, math.pi, -math.pi / 2],
            base_inv_ext_mat=base_inv_ext_mat,
        )


class PandaManipulator(Manipulator):
    """Franka Emika Panda, 7 joints; the last frame is the flange (0.107 m past joint 7).

    Franka publishes modified (Craig) DH parameters; these are the equivalent standard ones
    (the same flange pose; intermediate frames differ by the convention):
    ``a = [0, 0, .0825, -.0825, 0, .088, 0]``, ``d = [.333, 0, .316, 0, .384, 0, .107]``,
    ``alpha = [-pi/2, pi/2, pi/2, -pi/2, pi/2, pi/2, 0]``, scales 1 and offsets 0.

    Args:
        base_inv_ext_mat: ``[..., 3, 4]`` base->world matrix, or ``None``.
    """

    def __init__(self, base_inv_ext_mat: Any = None) -> None:
        half = math.pi / 2
        super().__init__(
            a_s=[0.0, 0.0, 0.0825, -0.0825, 0.0, 0.088, 0.0],
            d_s=[0.333, 0.0, 0.316, 0.0, 0.384, 0.0, 0.107],
            alpha_s=[-half, half, half, -half, half, half, 0.0],
            dh_joint_scales=[1.0] * 7,
            dh_joint_offsets=[0.0] * 7,
            base_inv_ext_mat=base_inv_ext_mat,
        )
