"""Positions: polar <-> cartesian coordinates and homogeneous coordinates / transformations.

Conventions:

* Polar coordinates are ``[phi, theta, r]``: azimuth ``phi = atan2(y, x)`` in ``(-pi, pi]``,
  polar (inclination from +z) angle ``theta = acos(z / r)`` in ``[0, pi]`` and radius ``r >= 0``.
  Angles are in radians.
* Every function takes arbitrary leading batch dimensions ``[...]`` and returns native arrays of
  the input's framework.
"""

from __future__ import annotations

from typing import Any

import ivy

from ._checks import check_at_least_1d, check_last_dims
from ._safe import safe_atan2, safe_norm

__all__ = [
    "cartesian_to_polar_coords",
    "make_coordinates_homogeneous",
    "make_transformation_homogeneous",
    "polar_to_cartesian_coords",
]


def polar_to_cartesian_coords(polar_coords: Any) -> Any:
    """Polar coordinates ``[..., 3]`` ``[phi, theta, r]`` to cartesian ``[..., 3]`` ``[x, y, z]``.

    ``x = r sin(theta) cos(phi)``, ``y = r sin(theta) sin(phi)``, ``z = r cos(theta)``; angles in
    radians.
    """
    check_last_dims(polar_coords, (3,), "polar_to_cartesian_coords", "polar coordinates")
    phi, theta, r = polar_coords[..., 0], polar_coords[..., 1], polar_coords[..., 2]
    r_sin_theta = r * ivy.sin(theta)
    return ivy.stack([r_sin_theta * ivy.cos(phi), r_sin_theta * ivy.sin(phi), r * ivy.cos(theta)], axis=-1)


def cartesian_to_polar_coords(cartesian_coords: Any) -> Any:
    """Cartesian coordinates ``[..., 3]`` ``[x, y, z]`` to polar ``[..., 3]`` ``[phi, theta, r]``.

    ``phi = atan2(y, x)``, ``theta = acos(z / r)`` (computed as ``atan2(sqrt(x^2 + y^2), z)``, which
    is the same angle but accurate near the poles), ``r = |xyz|``. On the z axis ``phi = 0``; at the
    origin ``phi = theta = r = 0``. Values and gradients are finite everywhere.
    """
    check_last_dims(cartesian_coords, (3,), "cartesian_to_polar_coords", "cartesian coordinates")
    x, y, z = cartesian_coords[..., 0], cartesian_coords[..., 1], cartesian_coords[..., 2]
    rho = safe_norm(cartesian_coords[..., 0:2], axis=-1)
    r = safe_norm(cartesian_coords, axis=-1)
    return ivy.stack([safe_atan2(y, x), safe_atan2(rho, z), r], axis=-1)


def make_coordinates_homogeneous(coords: Any) -> Any:
    """Append a 1 to the last axis: ``[..., n]`` -> ``[..., n + 1]`` (e.g. ``[x, y, z, 1]``)."""
    check_at_least_1d(coords, "make_coordinates_homogeneous", "coordinates")
    return ivy.concat([coords, ivy.ones_like(coords[..., 0:1])], axis=-1)


def make_transformation_homogeneous(matrices: Any) -> Any:
    """Append the row ``[0, 0, 0, 1]``: ``[..., 3, 4]`` ``[R | t]`` -> ``[..., 4, 4]``."""
    check_last_dims(matrices, (3, 4), "make_transformation_homogeneous", "transformation matrices")
    last_row = ivy.concat([ivy.zeros_like(matrices[..., 0:1, 0:3]), ivy.ones_like(matrices[..., 0:1, 0:1])], axis=-1)
    return ivy.concat([matrices, last_row], axis=-2)
