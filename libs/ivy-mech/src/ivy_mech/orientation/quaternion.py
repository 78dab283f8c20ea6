"""Quaternion algebra and conversions to quaternions.

A quaternion is ``[..., 4]`` ``[qi, qj, qk, qr]``: vector part first, scalar part last (SciPy's
order), Hamilton's convention, so that ``hamilton_product(q1, q2)`` is the rotation ``R(q1) @
R(q2)``. ``q`` and ``-q`` are the same rotation; every conversion here returns the *canonical* unit
quaternion, with ``qr >= 0`` (rotation angle in ``[0, pi]``).
"""

from __future__ import annotations

from typing import Any

import ivy

from .._safe import atan2_over, safe_norm, sinc
from ._common import (
    check_axis_angle,
    check_euler,
    check_polar_axis_angle,
    check_quaternion,
    check_rot_mat,
    check_rotation_vector,
    checked_quaternion,
    euler_axes,
    matrix_is_no_rotation,
    nan_where,
    polar_to_axis,
)

__all__ = [
    "axis_angle_to_quaternion",
    "canonicalize_quaternion",
    "euler_to_quaternion",
    "hamilton_product",
    "inverse_quaternion",
    "polar_axis_angle_to_quaternion",
    "rot_mat_to_quaternion",
    "rotation_vector_to_quaternion",
    "scale_quaternion_rotation_angle",
]


def canonicalize_quaternion(quaternion: Any) -> Any:
    """``q`` or ``-q`` (the same rotation), whichever has ``qr >= 0``; ``[..., 4]`` -> ``[..., 4]``."""
    check_quaternion(quaternion, "canonicalize_quaternion")
    return ivy.where(quaternion[..., 3:4] < 0, -quaternion, quaternion)


def _unit(quaternion: Any) -> Any:
    return quaternion / safe_norm(quaternion, axis=-1, keepdims=True)


def hamilton_product(quaternion1: Any, quaternion2: Any) -> Any:
    """The Hamilton product ``q1 * q2`` of quaternions ``[..., 4]`` (scalar last; they broadcast).

    For unit quaternions this is the composed rotation ``R(q1) @ R(q2)`` (``q2`` applied first).
    The result is not canonicalised: the product of unit quaternions is their exact product.
    """
    check_quaternion(quaternion1, "hamilton_product")
    check_quaternion(quaternion2, "hamilton_product")
    a1, b1, c1, d1 = quaternion1[..., 3], quaternion1[..., 0], quaternion1[..., 1], quaternion1[..., 2]
    a2, b2, c2, d2 = quaternion2[..., 3], quaternion2[..., 0], quaternion2[..., 1], quaternion2[..., 2]
    return ivy.stack(
        [
            a1 * b2 + b1 * a2 + c1 * d2 - d1 * c2,
            a1 * c2 - b1 * d2 + c1 * a2 + d1 * b2,
            a1 * d2 + b1 * c2 - c1 * b2 + d1 * a2,
            a1 * a2 - b1 * b2 - c1 * c2 - d1 * d2,
        ],
        axis=-1,
    )


def inverse_quaternion(quaternion: Any) -> Any:
    """The inverse ``conj(q) / |q|^2`` of quaternions ``[..., 4]`` (scalar last).

    For a unit quaternion this is the conjugate, the inverse rotation. The zero quaternion has no
    inverse: NaN.
    """
    check_quaternion(quaternion, "inverse_quaternion")
    q, invalid = checked_quaternion(quaternion)
    conjugate = ivy.concat([-q[..., 0:3], q[..., 3:4]], axis=-1)
    return nan_where(invalid, conjugate / ivy.sum(q * q, axis=-1, keepdims=True))


def rotation_vector_to_quaternion(rot_vec: Any) -> Any:
    """Rotation vector ``[..., 3]`` (axis times angle, radians) to a canonical quaternion ``[..., 4]``.

    ``q = [sin(t/2) v/t, cos(t/2)]`` with ``t = |v|``, finite (with finite gradients) at ``v = 0``.
    """
    check_rotation_vector(rot_vec, "rotation_vector_to_quaternion")
    half = safe_norm(rot_vec, axis=-1, keepdims=True) / 2.0
    # sin(t/2) / t == sinc(t/2) / 2
    quaternion = ivy.concat([rot_vec * (sinc(half) / 2.0), ivy.cos(half)], axis=-1)
    return canonicalize_quaternion(quaternion)


def axis_angle_to_quaternion(axis_angle: Any) -> Any:
    """Axis-angle ``[..., 4]`` ``[ex, ey, ez, theta]`` (unit axis, radians) to a canonical quaternion.

    The axis is expected to have unit length (it is not normalised).
    """
    check_axis_angle(axis_angle, "axis_angle_to_quaternion")
    half = axis_angle[..., 3:4] / 2.0
    quaternion = ivy.concat([axis_angle[..., 0:3] * ivy.sin(half), ivy.cos(half)], axis=-1)
    return canonicalize_quaternion(quaternion)


def polar_axis_angle_to_quaternion(polar_axis_angle: Any) -> Any:
    """Polar axis-angle ``[..., 3]`` ``[theta_elev, phi_azim, angle]`` to a canonical quaternion.

    The axis is ``[sin(el) cos(az), sin(el) sin(az), cos(el)]``; all angles in radians.
    """
    check_polar_axis_angle(polar_axis_angle, "polar_axis_angle_to_quaternion")
    axis = polar_to_axis(polar_axis_angle[..., 0], polar_axis_angle[..., 1])
    half = polar_axis_angle[..., 2:3] / 2.0
    return canonicalize_quaternion(ivy.concat([axis * ivy.sin(half), ivy.cos(half)], axis=-1))


def rot_mat_to_quaternion(rot_mat: Any) -> Any:
    """Rotation matrix ``[..., 3, 3]`` to a canonical unit quaternion ``[..., 4]`` (``qr >= 0``).

    Each of ``qi, qj, qk, qr`` gives a formula for ``4 q_m q`` that is accurate when ``|q_m|`` is
    largest; the formula with the largest diagonal term ``4 q_m^2`` is selected element-wise (no
    data-dependent branching, so it compiles) and normalised. This is exact for every rotation,
    180-degree rotations included, and the normalisation never divides by less than 2. A matrix
    that is no rotation, ``det(R) <= 0`` (singular, e.g. zero, or a reflection), gives NaN.
    """
    check_rot_mat(rot_mat, "rot_mat_to_quaternion")
    m00, m01, m02 = rot_mat[..., 0, 0], rot_mat[..., 0, 1], rot_mat[..., 0, 2]
    m10, m11, m12 = rot_mat[..., 1, 0], rot_mat[..., 1, 1], rot_mat[..., 1, 2]
    m20, m21, m22 = rot_mat[..., 2, 0], rot_mat[..., 2, 1], rot_mat[..., 2, 2]
    t_r = 1.0 + m00 + m11 + m22  # 4 qr^2
    t_i = 1.0 + m00 - m11 - m22  # 4 qi^2
    t_j = 1.0 - m00 + m11 - m22  # 4 qj^2
    t_k = 1.0 - m00 - m11 + m22  # 4 qk^2
    from_r = ivy.stack([m21 - m12, m02 - m20, m10 - m01, t_r], axis=-1)
    from_i = ivy.stack([t_i, m01 + m10, m02 + m20, m21 - m12], axis=-1)
    from_j = ivy.stack([m01 + m10, t_j, m12 + m21, m02 - m20], axis=-1)
    from_k = ivy.stack([m02 + m20, m12 + m21, t_k, m10 - m01], axis=-1)
    best_ij = ivy.where((t_i >= t_j)[..., None], from_i, from_j)
    best_ijk = ivy.where((ivy.maximum(t_i, t_j) >= t_k)[..., None], best_ij, from_k)
    best = ivy.where((t_r >= ivy.maximum(ivy.maximum(t_i, t_j), t_k))[..., None], from_r, best_ijk)
    invalid = matrix_is_no_rotation(m00, m01, m02, m10, m11, m12, m20, m21, m22)
    return nan_where(invalid[..., None], canonicalize_quaternion(_unit(best)))


def _elementary_quaternion(axis: int, angle: Any) -> Any:
    """The quaternion of a rotation by ``angle`` (radians) about the x, y or z axis."""
    half = angle[..., None] / 2.0
    zero = ivy.zeros_like(half)
    parts = [zero, zero, zero, ivy.cos(half)]
    parts[axis] = ivy.sin(half)
    return ivy.concat(parts, axis=-1)


def euler_to_quaternion(euler_angles: Any, convention: str = "zyx") -> Any:
    """Euler angles ``[..., 3]`` (radians, extrinsic ``convention``) to a canonical quaternion.

    ``'abc'`` means ``e0`` about world ``a``, then ``e1`` about world ``b``, then ``e2`` about world
    ``c``: ``q = q_c(e2) * q_b(e1) * q_a(e0)`` (see ``euler_to_rot_mat``).
    """
    a, b, c = euler_axes(convention, "euler_to_quaternion")
    check_euler(euler_angles, "euler_to_quaternion")
    q_a = _elementary_quaternion(a, euler_angles[..., 0])
    q_b = _elementary_quaternion(b, euler_angles[..., 1])
    q_c = _elementary_quaternion(c, euler_angles[..., 2])
    return canonicalize_quaternion(hamilton_product(q_c, hamilton_product(q_b, q_a)))


def scale_quaternion_rotation_angle(quaternion: Any, scale: Any) -> Any:
    """The rotation about the same axis by ``scale`` times the angle; ``[..., 4]`` -> ``[..., 4]``.

    The angle is taken from the canonical quaternion, so it lies in ``[0, pi]`` (``q`` and ``-q``
    give the same result). ``scale`` is a number or an array that broadcasts against ``[...]``.
    Returns a canonical unit quaternion. Finite values and gradients at the identity rotation; NaN
    for the zero quaternion.
    """
    check_quaternion(quaternion, "scale_quaternion_rotation_angle")
    q, invalid = checked_quaternion(quaternion)
    canonical = canonicalize_quaternion(_unit(q))
    vec, w = canonical[..., 0:3], canonical[..., 3:4]
    n = safe_norm(vec, axis=-1, keepdims=True)
    if not isinstance(scale, (int, float)):
        scale = scale[..., None]
    new_half = scale * ivy.atan2(n, w)
    # sin(new_half) / n == scale * (half / n) * sinc(new_half), finite as n -> 0
    new_vec = vec * (scale * atan2_over(n, w) * sinc(new_half))
    return nan_where(invalid, canonicalize_quaternion(ivy.concat([new_vec, ivy.cos(new_half)], axis=-1)))
