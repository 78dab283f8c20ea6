"""A rigid body (a drone, a box on a gripper) represented by points fixed in its frame."""

from __future__ import annotations

from typing import Any

import ivy
import ivy_mech

from ._helpers import check_last_dims

__all__ = ["RigidMobile"]


class RigidMobile:
    """A rigid mobile robot, sampled as points fixed in its body frame.

    Args:
        rel_body_points: ``[..., n_p, 3]`` the points in the body frame (metres), a native array;
            e.g. a drone's centre and rotor positions. Leading dimensions broadcast with those of
            the poses given to :meth:`sample_body`.
    """

    def __init__(self, rel_body_points: Any) -> None:
        check_last_dims(rel_body_points, (None, 3), "RigidMobile", "relative body points")
        self._rel_body_points = rel_body_points
        # [..., n_p, 4]: homogeneous once, so that each pose costs one matrix product
        self._homogeneous_points = ivy_mech.make_coordinates_homogeneous(rel_body_points)

    @property
    def rel_body_points(self) -> Any:
        """``[..., n_p, 3]`` the body points in the body frame."""
        return self._rel_body_points

    @property
    def num_body_points(self) -> int:
        """The number ``n_p`` of body points."""
        return int(self._rel_body_points.shape[-2])

    def sample_body(self, inv_ext_mats: Any) -> Any:
        """World positions of the body points at the given poses.

        Args:
            inv_ext_mats: ``[..., 3, 4]`` body->world matrices ``[R | t]`` (``p_world = R p + t``),
                e.g. from ``ivy_mech.rot_vec_pose_to_mat_pose``.

        Returns:
            ``[..., n_p, 3]`` world positions, one row per body point.
        """
        check_last_dims(inv_ext_mats, (3, 4), "RigidMobile.sample_body", "body->world matrices")
        # rows p^T: [..., n_p, 4] @ [..., 4, 3] = (M [p; 1])^T
        return ivy.matmul(self._homogeneous_points, ivy.matrix_transpose(inv_ext_mats))
