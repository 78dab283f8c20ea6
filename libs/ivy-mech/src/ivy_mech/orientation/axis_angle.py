"""Conversions to axis-angles and polar axis-angles.

* Axis-angle ``[..., 4]``: ``[ex, ey, ez, theta]``, a unit axis and the angle in radians. Those
  returned here have ``theta`` in ``[0, pi]``; for the identity rotation the axis is ``[0, 0, 1]``.
* Polar axis-angle ``[..., 3]``: ``[theta_elev, phi_azim, angle]`` with the axis's elevation
  ``acos(ez)`` (angle from ``+z``, in ``[0, pi]``) and azimuth ``atan2(ey, ex)`` (in ``(-pi, pi]``).
"""

from __future__ import annotations

from typing import Any

import ivy

from .._safe import safe_atan2, safe_norm, safe_normalize
from ._common import (
    check_axis_angle,
    check_polar_axis_angle,
    check_quaternion,
    check_rotation_vector,
    checked_quaternion,
    nan_where,
    polar_to_axis,
    unit_z_like,
)
from .quaternion import canonicalize_quaternion, euler_to_quaternion, rot_mat_to_quaternion

__all__ = [
    "axis_angle_to_polar_axis_angle",
    "euler_to_axis_angle",
    "euler_to_polar_axis_angle",
    "polar_axis_angle_to_axis_angle",
    "quaternion_to_axis_angle",
    "quaternion_to_polar_axis_angle",
    "rot_mat_to_axis_angle",
    "rot_mat_to_polar_axis_angle",
    "rotation_vector_to_axis_angle",
    "rotation_vector_to_polar_axis_angle",
]


def quaternion_to_axis_angle(quaternion: Any) -> Any:
    """Quaternion ``[..., 4]`` ``[qi, qj, qk, qr]`` to axis-angle ``[..., 4]`` ``[ex, ey, ez, theta]``.

    The quaternion is canonicalised first (``qr >= 0``), so every sign is handled; ``theta =
    2 atan2(|q_vec|, qr)`` is in ``[0, pi]`` and the axis is ``unit(q_vec)`` (``[0, 0, 1]`` for the
    identity). Non-unit quaternions are fine; the zero quaternion gives NaN.
    """
    check_quaternion(quaternion, "quaternion_to_axis_angle")
    q, invalid = checked_quaternion(quaternion)
    canonical = canonicalize_quaternion(q)
    vec, w = canonical[..., 0:3], canonical[..., 3:4]
    theta = 2.0 * safe_atan2(safe_norm(vec, axis=-1, keepdims=True), w)
    return nan_where(invalid, ivy.concat([safe_normalize(vec, unit_z_like(vec)), theta], axis=-1))


def rot_mat_to_axis_angle(rot_mat: Any) -> Any:
    """Rotation matrix ``[..., 3, 3]`` to axis-angle ``[..., 4]`` (``theta`` in ``[0, pi]``)."""
    return quaternion_to_axis_angle(rot_mat_to_quaternion(rot_mat))


def euler_to_axis_angle(euler_angles: Any, convention: str = "zyx") -> Any:
    """Euler angles ``[..., 3]`` (extrinsic ``convention``, see ``euler_to_rot_mat``) to axis-angle."""
    return quaternion_to_axis_angle(euler_to_quaternion(euler_angles, convention))


def rotation_vector_to_axis_angle(rot_vec: Any) -> Any:
    """Rotation vector ``[..., 3]`` to axis-angle ``[..., 4]``: ``[v / |v|, |v|]``.

    The zero vector gives ``[0, 0, 1, 0]``. The angle is ``|v|`` (not wrapped into ``[0, pi]``).
    """
    check_rotation_vector(rot_vec, "rotation_vector_to_axis_angle")
    theta = safe_norm(rot_vec, axis=-1, keepdims=True)
    return ivy.concat([safe_normalize(rot_vec, unit_z_like(rot_vec)), theta], axis=-1)


def axis_angle_to_polar_axis_angle(axis_angle: Any) -> Any:
    """Axis-angle ``[..., 4]`` to polar axis-angle ``[..., 3]`` ``[acos(ez), atan2(ey, ex), theta]``.

    The axis is normalised first; the elevation is computed as ``atan2(hypot(ex, ey), ez)`` (the
    same angle as ``acos(ez)``, accurate near the poles). On the z axis the azimuth is 0.
    """
    check_axis_angle(axis_angle, "axis_angle_to_polar_axis_angle")
    x, y, z = axis_angle[..., 0], axis_angle[..., 1], axis_angle[..., 2]
    elevation = safe_atan2(safe_norm(axis_angle[..., 0:2], axis=-1), z)
    return ivy.stack([elevation, safe_atan2(y, x), axis_angle[..., 3]], axis=-1)


def polar_axis_angle_to_axis_angle(polar_axis_angle: Any) -> Any:
    """Polar axis-angle ``[..., 3]`` ``[theta_elev, phi_azim, angle]`` to axis-angle ``[..., 4]``.

    The axis is ``[sin(el) cos(az), sin(el) sin(az), cos(el)]``; the angle is kept as given.
    """
    check_polar_axis_angle(polar_axis_angle, "polar_axis_angle_to_axis_angle")
    axis = polar_to_axis(polar_axis_angle[..., 0], polar_axis_angle[..., 1])
    return ivy.concat([axis, polar_axis_angle[..., 2:3]], axis=-1)


def quaternion_to_polar_axis_angle(quaternion: Any) -> Any:
    """Quaternion ``[..., 4]`` to polar axis-angle ``[..., 3]`` (via the canonical axis-angle; NaN
    for the zero quaternion)."""
    check_quaternion(quaternion, "quaternion_to_polar_axis_angle")
    q, invalid = checked_quaternion(quaternion)
    return nan_where(invalid, axis_angle_to_polar_axis_angle(quaternion_to_axis_angle(q)))


def rot_mat_to_polar_axis_angle(rot_mat: Any) -> Any:
    """Rotation matrix ``[..., 3, 3]`` to polar axis-angle ``[..., 3]`` (angle in ``[0, pi]``)."""
    return axis_angle_to_polar_axis_angle(rot_mat_to_axis_angle(rot_mat))


def rotation_vector_to_polar_axis_angle(rot_vec: Any) -> Any:
    """Rotation vector ``[..., 3]`` to polar axis-angle ``[..., 3]`` (angle ``|v|``)."""
    return axis_angle_to_polar_axis_angle(rotation_vector_to_axis_angle(rot_vec))


def euler_to_polar_axis_angle(euler_angles: Any, convention: str = "zyx") -> Any:
    """Euler angles ``[..., 3]`` (extrinsic ``convention``) to polar axis-angle ``[..., 3]``."""
    return axis_angle_to_polar_axis_angle(euler_to_axis_angle(euler_angles, convention))
