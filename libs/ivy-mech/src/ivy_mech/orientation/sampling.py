"""Random orientations, distributed uniformly over rotations (the Haar measure on SO(3)).

Every sampler takes ``batch_shape`` (the leading dimensions of the result) and keyword-only
``dtype``, ``device``, ``seed`` and ``backend`` that pass through to ``ivy.random_normal``:
without ``backend`` the backend in context is used (``ivy.set_backend``,
``with ivy.use_backend(...)``, ...). ``max_rot_ang`` (radians) restricts the rotation angle to
``[0, max_rot_ang]``; the rotations stay uniformly distributed within that ball.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import ivy

from .._safe import safe_norm
from ._common import euler_axes
from .axis_angle import quaternion_to_axis_angle
from .euler import rot_mat_to_euler
from .quaternion import canonicalize_quaternion
from .rotation_matrix import quaternion_to_rot_mat
from .rotation_vector import quaternion_to_rotation_vector

__all__ = [
    "get_random_axis_angle",
    "get_random_euler",
    "get_random_quaternion",
    "get_random_rot_mat",
    "get_random_rotation_vector",
]

# Newton steps for the restricted angle: from the cube-root start they reach machine precision
# in at most four steps on [0, pi]; two more for margin.
_NEWTON_STEPS = 6


def _shape(batch_shape: int | Sequence[int], name: str) -> tuple[int, ...]:
    if isinstance(batch_shape, int):
        batch_shape = (batch_shape,)
    try:
        shape = tuple(int(d) for d in batch_shape)
    except TypeError:
        raise TypeError(f"{name}: batch_shape must be a sequence of ints, got {batch_shape!r}") from None
    if any(d < 0 for d in shape):
        raise ValueError(f"{name}: batch_shape must not have negative dimensions, got {shape}")
    return shape


def _angle_minus_sin(t: Any) -> Any:
    """``t - sin(t)``, by its Taylor series for small ``t`` where the difference cancels."""
    t_sq = t * t
    series = t * t_sq / 6.0 * (1.0 - t_sq / 20.0 * (1.0 - t_sq / 42.0 * (1.0 - t_sq / 72.0)))
    return ivy.where(t < 0.1, series, t - ivy.sin(t))


def _restricted_angle(u: Any, max_rot_ang: float) -> Any:
    """The angle with CDF ``(t - sin t) / (m - sin m)`` on ``[0, m]`` at probability ``u``.

    The rotation angle of a uniform rotation has density proportional to ``1 - cos t``; its CDF has
    no closed-form inverse, so ``t - sin t = c`` is solved by a fixed number of Newton steps (no
    data-dependent control flow). ``t - sin t`` is increasing and convex on ``[0, pi]`` and the
    start ``cbrt(6 c)`` lies left of the root (``t - sin t <= t^3 / 6``), so after the first step
    the iterates decrease monotonically to the root.
    """
    target = u * (max_rot_ang - math.sin(max_rot_ang))
    angle = ivy.pow(6.0 * target, 1.0 / 3.0)
    for _ in range(_NEWTON_STEPS):
        slope = 2.0 * ivy.square(ivy.sin(angle / 2.0))  # 1 - cos t without cancellation
        moving = slope > 0  # t = 0 only when c = 0, which is already the root
        step = (_angle_minus_sin(angle) - target) / ivy.where(moving, slope, 1.0)
        angle = ivy.clip(angle - ivy.where(moving, step, 0.0), 0.0, max_rot_ang)
    return angle


def get_random_quaternion(
    max_rot_ang: float = math.pi,
    batch_shape: int | Sequence[int] = (),
    *,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
    backend: Any = None,
) -> Any:
    """Uniformly distributed random unit quaternions ``[*batch_shape, 4]`` (canonical, ``qr >= 0``).

    With ``max_rot_ang >= pi``: normalised 4-D Gaussian samples (uniform on the 3-sphere). Below
    ``pi``: a uniform axis and an angle drawn from the uniform rotation's angle distribution
    restricted to ``[0, max_rot_ang]`` (by inverting its CDF).
    """
    shape = _shape(batch_shape, "get_random_quaternion")
    if not max_rot_ang > 0:
        raise ValueError(f"get_random_quaternion: max_rot_ang must be positive (radians), got {max_rot_ang!r}")
    # One draw of four Gaussians per rotation, for every max_rot_ang.
    gaussian = ivy.random_normal(shape=(*shape, 4), dtype=dtype, device=device, seed=seed, backend=backend)
    if max_rot_ang >= math.pi:  # uniform on the 3-sphere
        return canonicalize_quaternion(gaussian / safe_norm(gaussian, axis=-1, keepdims=True))
    # a uniform axis from three Gaussians; the fourth, through the normal CDF, a uniform probability
    axis = gaussian[..., 0:3] / safe_norm(gaussian[..., 0:3], axis=-1, keepdims=True)
    u = 0.5 * (1.0 + ivy.erf(gaussian[..., 3:4] / math.sqrt(2.0)))
    half = _restricted_angle(u, float(max_rot_ang)) / 2.0
    return ivy.concat([axis * ivy.sin(half), ivy.cos(half)], axis=-1)


def get_random_rot_mat(
    batch_shape: int | Sequence[int] = (),
    *,
    max_rot_ang: float = math.pi,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
    backend: Any = None,
) -> Any:
    """Uniformly distributed random rotation matrices ``[*batch_shape, 3, 3]``."""
    q = get_random_quaternion(max_rot_ang, batch_shape, dtype=dtype, device=device, seed=seed, backend=backend)
    return quaternion_to_rot_mat(q)


def get_random_axis_angle(
    batch_shape: int | Sequence[int] = (),
    *,
    max_rot_ang: float = math.pi,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
    backend: Any = None,
) -> Any:
    """Uniformly distributed random axis-angles ``[*batch_shape, 4]`` ``[ex, ey, ez, theta]``."""
    q = get_random_quaternion(max_rot_ang, batch_shape, dtype=dtype, device=device, seed=seed, backend=backend)
    return quaternion_to_axis_angle(q)


def get_random_rotation_vector(
    batch_shape: int | Sequence[int] = (),
    *,
    max_rot_ang: float = math.pi,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
    backend: Any = None,
) -> Any:
    """Uniformly distributed random rotation vectors ``[*batch_shape, 3]``."""
    q = get_random_quaternion(max_rot_ang, batch_shape, dtype=dtype, device=device, seed=seed, backend=backend)
    return quaternion_to_rotation_vector(q)


def get_random_euler(
    batch_shape: int | Sequence[int] = (),
    convention: str = "zyx",
    *,
    max_rot_ang: float = math.pi,
    dtype: Any = None,
    device: Any = None,
    seed: int | None = None,
    backend: Any = None,
) -> Any:
    """Euler angles ``[*batch_shape, 3]`` (extrinsic ``convention``) of uniformly random rotations.

    The rotations, not the angles, are uniform: the angles follow the distribution that a uniform
    rotation induces, in the ranges of ``rot_mat_to_euler``.
    """
    euler_axes(convention, "get_random_euler")  # before drawing any numbers
    rot_mat = get_random_rot_mat(
        batch_shape, max_rot_ang=max_rot_ang, dtype=dtype, device=device, seed=seed, backend=backend
    )
    return rot_mat_to_euler(rot_mat, convention)
