"""Conversions to rotation vectors.

A rotation vector ``[..., 3]`` is the unit rotation axis times the rotation angle in radians.
The rotation vectors returned here have angle ``|v|`` in ``[0, pi]`` (from canonical quaternions).
"""

from __future__ import annotations

from typing import Any

from .._safe import atan2_over, safe_norm
from ._common import (
    check_axis_angle,
    check_polar_axis_angle,
    check_quaternion,
    checked_quaternion,
    nan_where,
    polar_to_axis,
)
from .quaternion import canonicalize_quaternion, euler_to_quaternion, rot_mat_to_quaternion

__all__ = [
    "axis_angle_to_rotation_vector",
    "euler_to_rotation_vector",
    "polar_axis_angle_to_rotation_vector",
    "quaternion_to_rotation_vector",
    "rot_mat_to_rotation_vector",
]


def quaternion_to_rotation_vector(quaternion: Any) -> Any:
    """Quaternion ``[..., 4]`` ``[qi, qj, qk, qr]`` to a rotation vector ``[..., 3]``.

    The quaternion is canonicalised first (``qr >= 0``), so any sign is handled and the angle
    ``2 atan2(|q_vec|, qr)`` lies in ``[0, pi]``; non-unit quaternions are fine (the formula is
    scale-invariant). Finite values and gradients at the identity; NaN for the zero quaternion.
    """
    check_quaternion(quaternion, "quaternion_to_rotation_vector")
    q, invalid = checked_quaternion(quaternion)
    canonical = canonicalize_quaternion(q)
    vec, w = canonical[..., 0:3], canonical[..., 3:4]
    return nan_where(invalid, vec * (2.0 * atan2_over(safe_norm(vec, axis=-1, keepdims=True), w)))


def rot_mat_to_rotation_vector(rot_mat: Any) -> Any:
    """Rotation matrix ``[..., 3, 3]`` to a rotation vector ``[..., 3]`` (angle in ``[0, pi]``)."""
    return quaternion_to_rotation_vector(rot_mat_to_quaternion(rot_mat))


def axis_angle_to_rotation_vector(axis_angle: Any) -> Any:
    """Axis-angle ``[..., 4]`` ``[ex, ey, ez, theta]`` to the rotation vector ``theta * e`` ``[..., 3]``.

    The axis and angle are used as given (no normalisation, no wrapping of the angle).
    """
    check_axis_angle(axis_angle, "axis_angle_to_rotation_vector")
    return axis_angle[..., 0:3] * axis_angle[..., 3:4]


def polar_axis_angle_to_rotation_vector(polar_axis_angle: Any) -> Any:
    """Polar axis-angle ``[..., 3]`` ``[theta_elev, phi_azim, angle]`` to a rotation vector ``[..., 3]``.

    The axis is ``[sin(el) cos(az), sin(el) sin(az), cos(el)]``; the angle is used as given.
    """
    check_polar_axis_angle(polar_axis_angle, "polar_axis_angle_to_rotation_vector")
    axis = polar_to_axis(polar_axis_angle[..., 0], polar_axis_angle[..., 1])
    return axis * polar_axis_angle[..., 2:3]


def euler_to_rotation_vector(euler_angles: Any, convention: str = "zyx") -> Any:
    """Euler angles ``[..., 3]`` (extrinsic ``convention``, see ``euler_to_rot_mat``) to a rotation vector."""
    return quaternion_to_rotation_vector(euler_to_quaternion(euler_angles, convention))
