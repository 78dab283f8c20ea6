"""Signed distance functions of spheres and cuboids.

Signed distances are negative inside an object, zero on its surface and positive outside, in the
units of the positions. Every function takes arbitrary leading batch axes ``[...]``, shared by the
primitives and the queries (broadcast), and is differentiable (the gradient of the distance to a
point at the point itself, and on a cuboid's medial surfaces, is one of the one-sided ones).
"""

from __future__ import annotations

from typing import Any

import ivy

from ._helpers import check_last_dims, matrix_transpose, safe_norm

__all__ = ["cuboid_signed_distances", "sphere_signed_distances"]


def sphere_signed_distances(sphere_positions: Any, sphere_radii: Any, query_positions: Any) -> Any:
    """Signed distances from query points to the nearest of a set of spheres.

    ``min_i (|q - c_i| - r_i)``.

    Args:
        sphere_positions: ``[..., n_s, 3]`` sphere centres.
        sphere_radii: ``[..., n_s, 1]`` radii.
        query_positions: ``[..., n_q, 3]``.

    Returns:
        ``[..., n_q, 1]``.
    """
    fn = "sphere_signed_distances"
    check_last_dims(sphere_positions, (None, 3), fn, "sphere positions")
    check_last_dims(sphere_radii, (None, 1), fn, "sphere radii")
    check_last_dims(query_positions, (None, 3), fn, "query positions")
    if sphere_positions.shape[-2] != sphere_radii.shape[-2]:
        raise ValueError(f"{fn}: {sphere_positions.shape[-2]} sphere positions but {sphere_radii.shape[-2]} radii")
    # [..., n_q, 1, 3] - [..., 1, n_s, 3] -> distances [..., n_q, n_s]
    offsets = ivy.expand_dims(query_positions, axis=-2) - ivy.expand_dims(sphere_positions, axis=-3)
    dists = safe_norm(offsets, axis=-1) - matrix_transpose(sphere_radii)
    return ivy.min(dists, axis=-1, keepdims=True)


def cuboid_signed_distances(
    cuboid_ext_mats: Any, cuboid_dims: Any, query_positions: Any, min_over_cuboids: bool = True
) -> Any:
    """Signed distances from query points to cuboids (boxes).

    Each query point ``q`` is moved into a cuboid's frame, ``p = R q + t`` (``[R | t]`` its
    world->cuboid matrix); with ``d = |p| - dims / 2`` (per axis) the box's signed distance is
    ``|max(d, 0)| + min(max_k d_k, 0)``, exact inside and outside.

    Args:
        cuboid_ext_mats: ``[..., n_c, 3, 4]`` world->cuboid-frame matrices; the cuboid is centred
            at its frame's origin and aligned with its axes.
        cuboid_dims: ``[..., n_c, 3]`` full edge lengths along the cuboid's x, y, z axes.
        query_positions: ``[..., n_q, 3]`` world positions.
        min_over_cuboids: return the distance to the nearest cuboid ``[..., n_q, 1]``; ``False``:
            the distance to each cuboid, ``[..., n_q, n_c]``.

    Returns:
        ``[..., n_q, 1]`` (or ``[..., n_q, n_c]``).
    """
    fn = "cuboid_signed_distances"
    check_last_dims(cuboid_ext_mats, (None, 3, 4), fn, "cuboid extrinsic matrices")
    check_last_dims(cuboid_dims, (None, 3), fn, "cuboid dimensions")
    check_last_dims(query_positions, (None, 3), fn, "query positions")
    if cuboid_ext_mats.shape[-3] != cuboid_dims.shape[-2]:
        raise ValueError(
            f"{fn}: {cuboid_ext_mats.shape[-3]} cuboid matrices but {cuboid_dims.shape[-2]} cuboid dimensions"
        )
    # each cuboid's frame, one column per query point (the long axis last: one wide matmul and
    # elementwise ops along contiguous memory): [..., n_c, 3, 3] @ [..., 1, 3, n_q] + [..., n_c, 3, 1]
    local = ivy.matmul(cuboid_ext_mats[..., 0:3], matrix_transpose(query_positions)[..., None, :, :])
    excess = ivy.abs(local + cuboid_ext_mats[..., 3:4]) - cuboid_dims[..., :, :, None] * 0.5
    outside = safe_norm(ivy.clip(excess, 0.0), axis=-2)
    inside = ivy.clip(ivy.max(excess, axis=-2), None, 0.0)
    dists = outside + inside  # [..., n_c, n_q]
    if not min_over_cuboids:
        return matrix_transpose(dists)
    return ivy.min(dists, axis=-2)[..., None]
