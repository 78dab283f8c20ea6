"""Conversions to rotation matrices, and a target-facing rotation.

A rotation matrix ``R`` (``[..., 3, 3]``) acts on column vectors: ``v_world = R @ v_body``.
"""

from __future__ import annotations

from typing import Any

import ivy

from .._checks import check_last_dims
from .._safe import safe_norm, safe_normalize, sinc
from ._common import (
    check_axis_angle,
    check_euler,
    check_polar_axis_angle,
    check_quaternion,
    check_rotation_vector,
    checked_quaternion,
    euler_axes,
    nan_where,
    polar_to_axis,
)

__all__ = [
    "axis_angle_to_rot_mat",
    "euler_to_rot_mat",
    "polar_axis_angle_to_rot_mat",
    "quaternion_to_rot_mat",
    "rot_vec_to_rot_mat",
    "rotation_vector_to_rot_mat",
    "target_facing_rotation_matrix",
]


def _matrix(rows: list[list[Any]]) -> Any:
    """``[..., 3, 3]`` from nine ``[...]`` entries given row by row."""
    # one stack of the nine entries in row-major order, then a reshape (a view): two ops, not four
    entries = ivy.stack([e for row in rows for e in row], axis=-1)
    return ivy.reshape(entries, tuple(entries.shape)[:-1] + (3, 3))


def _rodrigues(v: Any, cos_theta: Any, a: Any, b: Any) -> Any:
    """``cos(theta) I + a [v]x + b v v^T`` for ``v`` ``[..., 3]`` and coefficients ``[...]``."""
    x, y, z = v[..., 0], v[..., 1], v[..., 2]
    bx, by, bz = b * x, b * y, b * z
    ax, ay, az = a * x, a * y, a * z
    return _matrix(
        [
            [cos_theta + bx * x, bx * y - az, bx * z + ay],
            [by * x + az, cos_theta + by * y, by * z - ax],
            [bz * x - ay, bz * y + ax, cos_theta + bz * z],
        ]
    )


def rot_vec_to_rot_mat(rot_vec: Any) -> Any:
    """Rotation vector ``[..., 3]`` (unit axis times angle in radians) to ``R`` ``[..., 3, 3]``.

    Rodrigues' formula ``R = cos(t) I + sinc(t) [v]x + (1 - cos(t)) / t^2 v v^T`` with ``t = |v|``,
    written so that values and gradients stay finite and accurate at and near ``v = 0``.
    """
    check_rotation_vector(rot_vec, "rot_vec_to_rot_mat")
    theta = safe_norm(rot_vec, axis=-1)
    half_sinc = sinc(theta / 2.0)
    # (1 - cos t) / t^2 == sinc(t / 2)^2 / 2 without the cancellation of 1 - cos t at small t.
    return _rodrigues(rot_vec, ivy.cos(theta), sinc(theta), half_sinc * half_sinc / 2.0)


#: The same function under the spelling used by the other rotation-vector conversions.
rotation_vector_to_rot_mat = rot_vec_to_rot_mat


def axis_angle_to_rot_mat(axis_angle: Any) -> Any:
    """Axis-angle ``[..., 4]`` ``[ex, ey, ez, theta]`` (unit axis, radians) to ``R`` ``[..., 3, 3]``.

    The axis is expected to have unit length (it is not normalised).
    """
    check_axis_angle(axis_angle, "axis_angle_to_rot_mat")
    theta = axis_angle[..., 3]
    return _rodrigues(axis_angle[..., 0:3], ivy.cos(theta), ivy.sin(theta), 1.0 - ivy.cos(theta))


def polar_axis_angle_to_rot_mat(polar_axis_angle: Any) -> Any:
    """Polar axis-angle ``[..., 3]`` ``[theta_elev, phi_azim, angle]`` to ``R`` ``[..., 3, 3]``.

    The axis is ``[sin(el) cos(az), sin(el) sin(az), cos(el)]``; all angles in radians.
    """
    check_polar_axis_angle(polar_axis_angle, "polar_axis_angle_to_rot_mat")
    axis = polar_to_axis(polar_axis_angle[..., 0], polar_axis_angle[..., 1])
    theta = polar_axis_angle[..., 2]
    return _rodrigues(axis, ivy.cos(theta), ivy.sin(theta), 1.0 - ivy.cos(theta))


def quaternion_to_rot_mat(quaternion: Any) -> Any:
    """Quaternion ``[..., 4]`` ``[qi, qj, qk, qr]`` (scalar last) to ``R`` ``[..., 3, 3]``.

    Any non-zero quaternion is accepted: it is normalised (``q`` and ``-q`` give the same ``R``).
    The zero quaternion is no rotation: its matrix is all NaN.
    """
    check_quaternion(quaternion, "quaternion_to_rot_mat")
    q, invalid = checked_quaternion(quaternion)
    i, j, k, r = q[..., 0], q[..., 1], q[..., 2], q[..., 3]
    s = 2.0 / ivy.sum(q * q, axis=-1)
    ii, jj, kk = s * i * i, s * j * j, s * k * k
    ij, ik, jk = s * i * j, s * i * k, s * j * k
    ir, jr, kr = s * i * r, s * j * r, s * k * r
    rot_mat = _matrix(
        [
            [1.0 - (jj + kk), ij - kr, ik + jr],
            [ij + kr, 1.0 - (ii + kk), jk - ir],
            [ik - jr, jk + ir, 1.0 - (ii + jj)],
        ]
    )
    return nan_where(invalid[..., None], rot_mat)


def _elementary_rot_mat(axis: int, angle: Any) -> Any:
    """Rotation by ``angle`` (radians) about the x, y or z axis (``axis`` 0, 1 or 2)."""
    c, s = ivy.cos(angle), ivy.sin(angle)
    zero, one = ivy.zeros_like(angle), ivy.ones_like(angle)
    if axis == 0:
        rows = [[one, zero, zero], [zero, c, -s], [zero, s, c]]
    elif axis == 1:
        rows = [[c, zero, s], [zero, one, zero], [-s, zero, c]]
    else:
        rows = [[c, -s, zero], [s, c, zero], [zero, zero, one]]
    return _matrix(rows)


def euler_to_rot_mat(euler_angles: Any, convention: str = "zyx") -> Any:
    """Euler angles ``[..., 3]`` (radians) to ``R`` ``[..., 3, 3]``.

    The convention ``'abc'`` is extrinsic (rotations about the fixed world axes): first ``e0``
    about ``a``, then ``e1`` about ``b``, then ``e2`` about ``c``, so
    ``R = R_c(e2) @ R_b(e1) @ R_a(e0)``. This is SciPy's ``Rotation.from_euler('abc', e)`` (lower
    case) and transforms3d's ``euler2mat(*e, axes='sabc')``. Conventions: ``VALID_EULER_CONVENTIONS``.
    """
    a, b, c = euler_axes(convention, "euler_to_rot_mat")
    check_euler(euler_angles, "euler_to_rot_mat")
    r_a = _elementary_rot_mat(a, euler_angles[..., 0])
    r_b = _elementary_rot_mat(b, euler_angles[..., 1])
    r_c = _elementary_rot_mat(c, euler_angles[..., 2])
    return ivy.matmul(r_c, ivy.matmul(r_b, r_a))


def target_facing_rotation_matrix(body_pos: Any, target_pos: Any) -> Any:
    """The body-to-world rotation ``[..., 3, 3]`` of a body at ``body_pos`` facing ``target_pos``.

    Positions are ``[..., 3]`` in world coordinates (they broadcast). The columns of ``R`` are the
    body axes in world coordinates: ``z`` is the unit vector from body to target, ``x = unit(up x
    z)`` with world ``+z`` as ``up`` (so ``x`` is horizontal), and ``y = z x x``. When the target
    is straight above or below the body, ``x`` is world ``+x``. Coincident positions give
    ``z = +z``.
    """
    check_last_dims(body_pos, (3,), "target_facing_rotation_matrix", "body positions")
    check_last_dims(target_pos, (3,), "target_facing_rotation_matrix", "target positions")
    direction = target_pos - body_pos
    zero = ivy.zeros_like(direction[..., 0:1])
    one = ivy.ones_like(direction[..., 0:1])
    z_axis = safe_normalize(direction, ivy.concat([zero, zero, one], axis=-1))
    # up x z for up = [0, 0, 1] is [-z_y, z_x, 0]
    horizontal = ivy.concat([-z_axis[..., 1:2], z_axis[..., 0:1], zero], axis=-1)
    x_axis = safe_normalize(horizontal, ivy.concat([one, zero, zero], axis=-1))
    y_axis = ivy.linalg.cross(z_axis, x_axis)
    return ivy.stack([x_axis, y_axis, z_axis], axis=-1)
