"""Helpers shared by the orientation modules: Euler conventions, elementary rotations, layouts."""

from __future__ import annotations

from typing import Any

import ivy

from .._checks import check_last_dims

__all__ = ["VALID_EULER_CONVENTIONS"]

#: The 12 Euler conventions, as extrinsic (fixed-frame) axis sequences.
VALID_EULER_CONVENTIONS: tuple[str, ...] = (
    "xyx",
    "yzy",
    "zxz",
    "xzx",
    "yxy",
    "zyz",
    "xyz",
    "yzx",
    "zxy",
    "xzy",
    "yxz",
    "zyx",
)

AXIS_INDEX = {"x": 0, "y": 1, "z": 2}


def euler_axes(convention: Any, name: str) -> tuple[int, int, int]:
    """The axis indices of a valid convention, or a ``ValueError`` that says what is accepted."""
    if not isinstance(convention, str) or convention not in VALID_EULER_CONVENTIONS:
        hint = ""
        if isinstance(convention, str) and convention.lower() in VALID_EULER_CONVENTIONS:
            hint = (
                " Upper case (intrinsic) sequences are not accepted: the intrinsic sequence 'ABC' with"
                " angles [a, b, c] is the extrinsic sequence 'cba' with angles [c, b, a]."
            )
        raise ValueError(
            f"{name}: unknown Euler convention {convention!r}; expected one of "
            f"{', '.join(VALID_EULER_CONVENTIONS)} (lower case, extrinsic).{hint}"
        )
    return AXIS_INDEX[convention[0]], AXIS_INDEX[convention[1]], AXIS_INDEX[convention[2]]


def check_quaternion(q: Any, name: str) -> None:
    check_last_dims(q, (4,), name, "quaternions [qi, qj, qk, qr]")


def check_rot_mat(r: Any, name: str) -> None:
    check_last_dims(r, (3, 3), name, "rotation matrices")


def check_rotation_vector(v: Any, name: str) -> None:
    check_last_dims(v, (3,), name, "rotation vectors")


def check_axis_angle(a: Any, name: str) -> None:
    check_last_dims(a, (4,), name, "axis-angles [ex, ey, ez, theta]")


def check_polar_axis_angle(a: Any, name: str) -> None:
    check_last_dims(a, (3,), name, "polar axis-angles [theta_elev, phi_azim, angle]")


def check_euler(e: Any, name: str) -> None:
    check_last_dims(e, (3,), name, "Euler angles")


def checked_quaternion(q: Any) -> tuple[Any, Any]:
    """``(safe, invalid)`` for quaternions ``[..., 4]``: ``invalid`` ``[..., 1]`` marks those that
    are no rotation (zero, or not finite: ``|q|² > 0`` fails), which ``safe`` replaces by the
    identity so that the formulas stay finite and warning-free; the caller returns NaN there
    (:func:`nan_where`)."""
    invalid = ivy.logical_not(ivy.sum(q * q, axis=-1, keepdims=True) > 0)
    identity = ivy.concat([ivy.zeros_like(q[..., 0:3]), ivy.ones_like(q[..., 3:4])], axis=-1)
    return ivy.where(invalid, identity, q), invalid


def matrix_is_no_rotation(
    m00: Any, m01: Any, m02: Any, m10: Any, m11: Any, m12: Any, m20: Any, m21: Any, m22: Any
) -> Any:
    """``[...]``: where the 3x3 matrix of these entries is no rotation: ``det <= 0`` (singular,
    such as the zero matrix, or a reflection) or not finite (``det > 0`` fails)."""
    det = m00 * (m11 * m22 - m12 * m21) - m01 * (m10 * m22 - m12 * m20) + m02 * (m10 * m21 - m11 * m20)
    return ivy.logical_not(det > 0)


def nan_where(invalid: Any, x: Any) -> Any:
    """``x`` with NaN where ``invalid`` (which broadcasts against ``x``)."""
    return ivy.where(invalid, float("nan"), x)


def unit_z_like(v: Any) -> Any:
    """``[0, 0, 1]`` with the batch shape, dtype and device of ``v`` (``[..., 3]``)."""
    return ivy.concat([ivy.zeros_like(v[..., 0:2]), ivy.ones_like(v[..., 0:1])], axis=-1)


def polar_to_axis(theta_elev: Any, phi_azim: Any) -> Any:
    """Unit axis ``[..., 3]`` from elevation (angle from +z) and azimuth (from +x towards +y)."""
    sin_elev = ivy.sin(theta_elev)
    return ivy.stack([sin_elev * ivy.cos(phi_azim), sin_elev * ivy.sin(phi_azim), ivy.cos(theta_elev)], axis=-1)
