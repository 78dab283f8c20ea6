"""Poses: a position and an orientation, in five layouts, with every conversion between them.

A pose maps body coordinates to world coordinates, ``p_world = R @ p_body + t``. Layouts (every
function takes arbitrary leading batch dimensions ``[...]``; angles in radians):

* rotation-vector pose (``rot_vec``) ``[..., 6]``: ``[x, y, z, vx, vy, vz]`` (axis times angle)
* axis-angle pose ``[..., 7]``: ``[x, y, z, ex, ey, ez, theta]``
* quaternion pose ``[..., 7]``: ``[x, y, z, qi, qj, qk, qr]``
* Euler pose ``[..., 6]``: ``[x, y, z, e0, e1, e2]``
* matrix pose (``mat``) ``[..., 3, 4]``: ``[R | t]``

The orientation parts follow ``ivy_mech.orientation``: quaternions scalar last (returned
canonical, ``qr >= 0``), Euler angles extrinsic in ``convention`` (default ``'zyx'``: ``R =
R_z(e2) @ R_y(e1) @ R_x(e0)``).
"""

from __future__ import annotations

from typing import Any

import ivy

from ._checks import check_last_dims
from .orientation import (
    axis_angle_to_euler,
    axis_angle_to_quaternion,
    axis_angle_to_rot_mat,
    axis_angle_to_rotation_vector,
    euler_to_axis_angle,
    euler_to_quaternion,
    euler_to_rot_mat,
    euler_to_rotation_vector,
    hamilton_product,
    quaternion_to_axis_angle,
    quaternion_to_euler,
    quaternion_to_rot_mat,
    quaternion_to_rotation_vector,
    rot_mat_to_axis_angle,
    rot_mat_to_euler,
    rot_mat_to_quaternion,
    rot_mat_to_rotation_vector,
    rot_vec_to_rot_mat,
    rotation_vector_to_axis_angle,
    rotation_vector_to_euler,
    rotation_vector_to_quaternion,
    scale_quaternion_rotation_angle,
)
from .orientation._common import checked_quaternion, euler_axes, nan_where

__all__ = [
    "axis_angle_pose_to_euler_pose",
    "axis_angle_pose_to_mat_pose",
    "axis_angle_pose_to_quaternion_pose",
    "axis_angle_pose_to_rot_vec_pose",
    "euler_pose_to_axis_angle_pose",
    "euler_pose_to_mat_pose",
    "euler_pose_to_quaternion_pose",
    "euler_pose_to_rot_vec_pose",
    "increment_quaternion_pose_with_velocity",
    "mat_pose_to_axis_angle_pose",
    "mat_pose_to_euler_pose",
    "mat_pose_to_quaternion_pose",
    "mat_pose_to_rot_vec_pose",
    "quaternion_pose_to_axis_angle_pose",
    "quaternion_pose_to_euler_pose",
    "quaternion_pose_to_mat_pose",
    "quaternion_pose_to_rot_vec_pose",
    "rot_vec_pose_to_axis_angle_pose",
    "rot_vec_pose_to_euler_pose",
    "rot_vec_pose_to_mat_pose",
    "rot_vec_pose_to_quaternion_pose",
]

_LAYOUTS = {
    "rot_vec": (6, "rotation-vector poses [x, y, z, vx, vy, vz]"),
    "axis_angle": (7, "axis-angle poses [x, y, z, ex, ey, ez, theta]"),
    "quaternion": (7, "quaternion poses [x, y, z, qi, qj, qk, qr]"),
    "euler": (6, "Euler poses [x, y, z, e0, e1, e2]"),
}


def _split(pose: Any, layout: str, name: str) -> tuple[Any, Any]:
    size, what = _LAYOUTS[layout]
    check_last_dims(pose, (size,), name, what)
    return pose[..., 0:3], pose[..., 3:size]


def _split_mat(mat_pose: Any, name: str) -> tuple[Any, Any]:
    check_last_dims(mat_pose, (3, 4), name, "matrix poses [R | t]")
    return mat_pose[..., :, 3], mat_pose[..., :, 0:3]


def _join(translation: Any, orientation: Any) -> Any:
    return ivy.concat([translation, orientation], axis=-1)


def _join_mat(translation: Any, rot_mat: Any) -> Any:
    return ivy.concat([rot_mat, translation[..., None]], axis=-1)


# -- to matrix poses --------------------------------------------------------------------------


def rot_vec_pose_to_mat_pose(rot_vec_pose: Any) -> Any:
    """Rotation-vector pose ``[..., 6]`` to matrix pose ``[..., 3, 4]`` ``[R | t]``."""
    t, v = _split(rot_vec_pose, "rot_vec", "rot_vec_pose_to_mat_pose")
    return _join_mat(t, rot_vec_to_rot_mat(v))


def axis_angle_pose_to_mat_pose(axis_angle_pose: Any) -> Any:
    """Axis-angle pose ``[..., 7]`` (unit axis) to matrix pose ``[..., 3, 4]``."""
    t, a = _split(axis_angle_pose, "axis_angle", "axis_angle_pose_to_mat_pose")
    return _join_mat(t, axis_angle_to_rot_mat(a))


def quaternion_pose_to_mat_pose(quat_pose: Any) -> Any:
    """Quaternion pose ``[..., 7]`` (any sign, any non-zero norm) to matrix pose ``[..., 3, 4]``."""
    t, q = _split(quat_pose, "quaternion", "quaternion_pose_to_mat_pose")
    return _join_mat(t, quaternion_to_rot_mat(q))


def euler_pose_to_mat_pose(euler_pose: Any, convention: str = "zyx") -> Any:
    """Euler pose ``[..., 6]`` (extrinsic ``convention``) to matrix pose ``[..., 3, 4]``."""
    euler_axes(convention, "euler_pose_to_mat_pose")
    t, e = _split(euler_pose, "euler", "euler_pose_to_mat_pose")
    return _join_mat(t, euler_to_rot_mat(e, convention))


# -- to rotation-vector poses -----------------------------------------------------------------


def mat_pose_to_rot_vec_pose(mat_pose: Any) -> Any:
    """Matrix pose ``[..., 3, 4]`` to rotation-vector pose ``[..., 6]`` (angle in ``[0, pi]``)."""
    t, r = _split_mat(mat_pose, "mat_pose_to_rot_vec_pose")
    return _join(t, rot_mat_to_rotation_vector(r))


def axis_angle_pose_to_rot_vec_pose(axis_angle_pose: Any) -> Any:
    """Axis-angle pose ``[..., 7]`` to rotation-vector pose ``[..., 6]`` (``theta * e``)."""
    t, a = _split(axis_angle_pose, "axis_angle", "axis_angle_pose_to_rot_vec_pose")
    return _join(t, axis_angle_to_rotation_vector(a))


def quaternion_pose_to_rot_vec_pose(quat_pose: Any) -> Any:
    """Quaternion pose ``[..., 7]`` (any sign) to rotation-vector pose ``[..., 6]`` (angle in ``[0, pi]``)."""
    t, q = _split(quat_pose, "quaternion", "quaternion_pose_to_rot_vec_pose")
    return _join(t, quaternion_to_rotation_vector(q))


def euler_pose_to_rot_vec_pose(euler_pose: Any, convention: str = "zyx") -> Any:
    """Euler pose ``[..., 6]`` (extrinsic ``convention``) to rotation-vector pose ``[..., 6]``."""
    euler_axes(convention, "euler_pose_to_rot_vec_pose")
    t, e = _split(euler_pose, "euler", "euler_pose_to_rot_vec_pose")
    return _join(t, euler_to_rotation_vector(e, convention))


# -- to axis-angle poses ----------------------------------------------------------------------


def mat_pose_to_axis_angle_pose(mat_pose: Any) -> Any:
    """Matrix pose ``[..., 3, 4]`` to axis-angle pose ``[..., 7]`` (``theta`` in ``[0, pi]``)."""
    t, r = _split_mat(mat_pose, "mat_pose_to_axis_angle_pose")
    return _join(t, rot_mat_to_axis_angle(r))


def rot_vec_pose_to_axis_angle_pose(rot_vec_pose: Any) -> Any:
    """Rotation-vector pose ``[..., 6]`` to axis-angle pose ``[..., 7]`` (``[v / |v|, |v|]``)."""
    t, v = _split(rot_vec_pose, "rot_vec", "rot_vec_pose_to_axis_angle_pose")
    return _join(t, rotation_vector_to_axis_angle(v))


def quaternion_pose_to_axis_angle_pose(quat_pose: Any) -> Any:
    """Quaternion pose ``[..., 7]`` (any sign) to axis-angle pose ``[..., 7]`` (``theta`` in ``[0, pi]``)."""
    t, q = _split(quat_pose, "quaternion", "quaternion_pose_to_axis_angle_pose")
    return _join(t, quaternion_to_axis_angle(q))


def euler_pose_to_axis_angle_pose(euler_pose: Any, convention: str = "zyx") -> Any:
    """Euler pose ``[..., 6]`` (extrinsic ``convention``) to axis-angle pose ``[..., 7]``."""
    euler_axes(convention, "euler_pose_to_axis_angle_pose")
    t, e = _split(euler_pose, "euler", "euler_pose_to_axis_angle_pose")
    return _join(t, euler_to_axis_angle(e, convention))


# -- to quaternion poses ----------------------------------------------------------------------


def mat_pose_to_quaternion_pose(mat_pose: Any) -> Any:
    """Matrix pose ``[..., 3, 4]`` to quaternion pose ``[..., 7]`` (canonical, ``qr >= 0``)."""
    t, r = _split_mat(mat_pose, "mat_pose_to_quaternion_pose")
    return _join(t, rot_mat_to_quaternion(r))


def rot_vec_pose_to_quaternion_pose(rot_vec_pose: Any) -> Any:
    """Rotation-vector pose ``[..., 6]`` to quaternion pose ``[..., 7]`` (canonical)."""
    t, v = _split(rot_vec_pose, "rot_vec", "rot_vec_pose_to_quaternion_pose")
    return _join(t, rotation_vector_to_quaternion(v))


def axis_angle_pose_to_quaternion_pose(axis_angle_pose: Any) -> Any:
    """Axis-angle pose ``[..., 7]`` (unit axis) to quaternion pose ``[..., 7]`` (canonical)."""
    t, a = _split(axis_angle_pose, "axis_angle", "axis_angle_pose_to_quaternion_pose")
    return _join(t, axis_angle_to_quaternion(a))


def euler_pose_to_quaternion_pose(euler_pose: Any, convention: str = "zyx") -> Any:
    """Euler pose ``[..., 6]`` (extrinsic ``convention``) to quaternion pose ``[..., 7]`` (canonical)."""
    euler_axes(convention, "euler_pose_to_quaternion_pose")
    t, e = _split(euler_pose, "euler", "euler_pose_to_quaternion_pose")
    return _join(t, euler_to_quaternion(e, convention))


# -- to Euler poses ---------------------------------------------------------------------------


def mat_pose_to_euler_pose(mat_pose: Any, convention: str = "zyx") -> Any:
    """Matrix pose ``[..., 3, 4]`` to Euler pose ``[..., 6]`` (extrinsic ``convention``)."""
    euler_axes(convention, "mat_pose_to_euler_pose")
    t, r = _split_mat(mat_pose, "mat_pose_to_euler_pose")
    return _join(t, rot_mat_to_euler(r, convention))


def rot_vec_pose_to_euler_pose(rot_vec_pose: Any, convention: str = "zyx") -> Any:
    """Rotation-vector pose ``[..., 6]`` to Euler pose ``[..., 6]`` (extrinsic ``convention``)."""
    euler_axes(convention, "rot_vec_pose_to_euler_pose")
    t, v = _split(rot_vec_pose, "rot_vec", "rot_vec_pose_to_euler_pose")
    return _join(t, rotation_vector_to_euler(v, convention))


def axis_angle_pose_to_euler_pose(axis_angle_pose: Any, convention: str = "zyx") -> Any:
    """Axis-angle pose ``[..., 7]`` (unit axis) to Euler pose ``[..., 6]`` (extrinsic ``convention``)."""
    euler_axes(convention, "axis_angle_pose_to_euler_pose")
    t, a = _split(axis_angle_pose, "axis_angle", "axis_angle_pose_to_euler_pose")
    return _join(t, axis_angle_to_euler(a, convention))


def quaternion_pose_to_euler_pose(quat_pose: Any, convention: str = "zyx") -> Any:
    """Quaternion pose ``[..., 7]`` (any sign) to Euler pose ``[..., 6]`` (extrinsic ``convention``)."""
    euler_axes(convention, "quaternion_pose_to_euler_pose")
    t, q = _split(quat_pose, "quaternion", "quaternion_pose_to_euler_pose")
    return _join(t, quaternion_to_euler(q, convention))


# -- integration ------------------------------------------------------------------------------


def increment_quaternion_pose_with_velocity(quat_pose: Any, quat_vel: Any, control_dt: Any) -> Any:
    """Advance a quaternion pose ``[..., 7]`` by a constant velocity over ``control_dt`` seconds.

    ``quat_vel`` ``[..., 7]`` is ``[vx, vy, vz, qi, qj, qk, qr]``: a linear velocity (world frame,
    per second) and the rotation performed in one second as a quaternion. The result is
    ``[t + v dt, q * scale_quaternion_rotation_angle(q_vel, dt)]``: the rotation increment is
    applied in the body frame (``R_new = R(q) @ R(q_vel)^dt``). ``control_dt`` is a number or an
    array broadcasting against ``[...]``. The new quaternion is the exact Hamilton product (not
    canonicalised); NaN where either quaternion is zero (no rotation).
    """
    t, q = _split(quat_pose, "quaternion", "increment_quaternion_pose_with_velocity")
    v, q_vel = _split(quat_vel, "quaternion", "increment_quaternion_pose_with_velocity")
    dt = control_dt if isinstance(control_dt, (int, float)) else control_dt[..., None]
    increment = scale_quaternion_rotation_angle(q_vel, control_dt)  # NaN for a zero q_vel
    return _join(t + v * dt, nan_where(checked_quaternion(q)[1], hamilton_product(q, increment)))
