"""Conversions to Euler angles, in all 12 extrinsic conventions.

Euler angles ``[..., 3]`` ``[e0, e1, e2]`` in radians with convention ``'abc'`` (one of
``VALID_EULER_CONVENTIONS``; default ``'zyx'``) rotate by ``e0`` about the fixed world axis ``a``,
then ``e1`` about world ``b``, then ``e2`` about world ``c``: ``R = R_c(e2) @ R_b(e1) @ R_a(e0)``
(extrinsic; SciPy's lower-case sequences). The angles returned match SciPy's ``as_euler``
ranges: ``e0`` and ``e2`` in ``[-pi, pi]``; ``e1`` in ``[-pi/2, pi/2]`` for Tait-Bryan conventions
(three different axes) and in ``[0, pi]`` for proper Euler conventions (``a == c``). At gimbal lock
(``|e1| = pi/2``, resp. ``e1`` in ``{0, pi}``) only a combination of ``e0`` and ``e2`` is
determined; then ``e2 = 0``.
"""

from __future__ import annotations

from typing import Any

import ivy

from .._safe import safe_atan2
from ._common import (
    check_axis_angle,
    check_polar_axis_angle,
    check_quaternion,
    check_rot_mat,
    check_rotation_vector,
    checked_quaternion,
    euler_axes,
    matrix_is_no_rotation,
    nan_where,
)
from .rotation_matrix import (
    axis_angle_to_rot_mat,
    polar_axis_angle_to_rot_mat,
    quaternion_to_rot_mat,
    rot_vec_to_rot_mat,
)

__all__ = [
    "axis_angle_to_euler",
    "polar_axis_angle_to_euler",
    "quaternion_to_euler",
    "rot_mat_to_euler",
    "rotation_vector_to_euler",
]


def _solve_xyz(m: Any) -> tuple[Any, Any, Any]:
    """Angles ``(a, b, c)`` with ``M = Rx(a) Ry(b) Rz(c)`` and ``b`` in ``[-pi/2, pi/2]``.

    ``a`` comes from the last column; ``b`` and ``c`` are then read from ``Rx(-a) M = Ry(b) Rz(c)``.
    Near gimbal lock ``a`` is ill-determined, but ``b`` and ``c`` are computed *given* ``a``, so the
    three angles always reproduce ``M``.
    """
    a = safe_atan2(-m(1, 2), m(2, 2))
    ca, sa = ivy.cos(a), ivy.sin(a)
    b = ivy.atan2(m(0, 2), ca * m(2, 2) - sa * m(1, 2))
    c = ivy.atan2(ca * m(1, 0) + sa * m(2, 0), ca * m(1, 1) + sa * m(2, 1))
    return a, b, c


def _solve_xyx(m: Any, sign: float) -> tuple[Any, Any, Any]:
    """Angles ``(a, b, c)`` with ``M = Rx(a) Ry(b) Rx(c)`` and ``sign * b`` in ``[0, pi]``.

    Same scheme as ``_solve_xyz``: ``a`` from the first column, then ``Rx(-a) M = Ry(b) Rx(c)``.
    """
    a = safe_atan2(sign * m(1, 0), -sign * m(2, 0))
    ca, sa = ivy.cos(a), ivy.sin(a)
    # sin(b) = sa m10 - ca m20 has the sign of ``sign``; taking it from |.| keeps sign * b in
    # [0, pi] even where it is a signed zero (a half turn at gimbal lock).
    b = sign * ivy.atan2(ivy.abs(sa * m(1, 0) - ca * m(2, 0)), m(0, 0))
    c = ivy.atan2(-(ca * m(1, 2) + sa * m(2, 2)), ca * m(1, 1) + sa * m(2, 1))
    return a, b, c


def rot_mat_to_euler(rot_mat: Any, convention: str = "zyx") -> Any:
    """Rotation matrix ``[..., 3, 3]`` to Euler angles ``[..., 3]`` (radians, extrinsic ``convention``).

    The inverse of ``euler_to_rot_mat`` for every one of the 12 conventions (ranges and the gimbal
    lock choice in the module docstring). SciPy: ``Rotation.from_matrix(R).as_euler(convention)``.
    No branching on values: near gimbal lock the three angles still reproduce ``R``. A matrix that
    is no rotation, ``det(R) <= 0`` (singular, e.g. zero, or a reflection), gives NaN.
    """
    first, middle, last = euler_axes(convention, "rot_mat_to_euler")
    check_rot_mat(rot_mat, "rot_mat_to_euler")
    # R = R_last(e2) R_middle(e1) R_first(e0) is an intrinsic sequence (i, j, k) = (last, middle,
    # first). Relabelling the axes so that i -> x and j -> y (M' = P R P^T) turns it into an
    # xyz / xyx sequence; an odd relabelling P (det -1) negates every angle.
    i, j = last, middle
    k = 3 - i - j
    idx = (i, j, k)
    sign = 1.0 if (j - i) % 3 == 1 else -1.0

    def m(row: int, col: int) -> Any:
        return rot_mat[..., idx[row], idx[col]]

    if first == last:
        alpha, beta, gamma = _solve_xyx(m, sign)
    else:
        alpha, beta, gamma = _solve_xyz(m)
    invalid = matrix_is_no_rotation(*(rot_mat[..., r, c] for r in range(3) for c in range(3)))
    return nan_where(invalid[..., None], ivy.stack([sign * gamma, sign * beta, sign * alpha], axis=-1))


def quaternion_to_euler(quaternion: Any, convention: str = "zyx") -> Any:
    """Quaternion ``[..., 4]`` ``[qi, qj, qk, qr]`` (any sign, any non-zero norm) to Euler angles
    ``[..., 3]``; NaN for the zero quaternion."""
    euler_axes(convention, "quaternion_to_euler")
    check_quaternion(quaternion, "quaternion_to_euler")
    q, invalid = checked_quaternion(quaternion)
    return nan_where(invalid, rot_mat_to_euler(quaternion_to_rot_mat(q), convention))


def axis_angle_to_euler(axis_angle: Any, convention: str = "zyx") -> Any:
    """Axis-angle ``[..., 4]`` ``[ex, ey, ez, theta]`` (unit axis) to Euler angles ``[..., 3]``."""
    euler_axes(convention, "axis_angle_to_euler")
    check_axis_angle(axis_angle, "axis_angle_to_euler")
    return rot_mat_to_euler(axis_angle_to_rot_mat(axis_angle), convention)


def rotation_vector_to_euler(rot_vec: Any, convention: str = "zyx") -> Any:
    """Rotation vector ``[..., 3]`` to Euler angles ``[..., 3]`` (extrinsic ``convention``)."""
    euler_axes(convention, "rotation_vector_to_euler")
    check_rotation_vector(rot_vec, "rotation_vector_to_euler")
    return rot_mat_to_euler(rot_vec_to_rot_mat(rot_vec), convention)


def polar_axis_angle_to_euler(polar_axis_angle: Any, convention: str = "zyx") -> Any:
    """Polar axis-angle ``[..., 3]`` ``[theta_elev, phi_azim, angle]`` to Euler angles ``[..., 3]``."""
    euler_axes(convention, "polar_axis_angle_to_euler")
    check_polar_axis_angle(polar_axis_angle, "polar_axis_angle_to_euler")
    return rot_mat_to_euler(polar_axis_angle_to_rot_mat(polar_axis_angle), convention)
