"""Two-view geometry: warps between two cameras, the fundamental matrix and triangulation.

Conventions as in :mod:`ivy_vision.single_view_geometry`. A "cam1to2" matrix maps the first
camera's frame to the second's: ``cam1to2_ext_mat = ext_mat2 @ inv_ext_mat1`` (``[..., 3, 4]``,
camera points to camera points) and ``cam1to2_full_mat = full_mat2 @ inv_full_mat1`` (ds pixel
coords with a 1 appended to ds pixel coords). Pairs of views are stacked on an axis of size 2
right after the batch axes: ``full_mats`` ``[..., 2, 3, 4]``, pixel images ``[..., 2, h, w, 3]``.
"""

from __future__ import annotations

from typing import Any

import ivy

from ._helpers import (
    append_ones,
    apply_matrix,
    check_last_dims,
    check_rank_at_least,
    expand_to_spatial,
    homogeneous3,
    safe_divide,
    shape_of,
)
from .projective_geometry import projection_matrix_inverse, projection_matrix_pseudo_inverse, solve_homogeneous_dlt
from .single_view_geometry import (
    angular_pixel_to_sphere_coords,
    cam_to_sphere_coords,
    pixel_coords_to_world_ray_vectors,
    sphere_to_angular_pixel_coords,
    sphere_to_cam_coords,
    world_coords_to_depth,
)

__all__ = [
    "angular_pixel_to_angular_pixel_coords",
    "cam_to_cam_coords",
    "closest_mutual_points_along_two_skew_rays",
    "ds_pixel_to_ds_pixel_coords",
    "get_fundamental_matrix",
    "sphere_to_sphere_coords",
    "triangulate_depth",
]


def _view(x: Any, axis: int, i: int) -> Any:
    """``x`` at index ``i`` of axis ``axis`` (that axis removed)."""
    return x[(slice(None),) * axis + (i,)]


def ds_pixel_to_ds_pixel_coords(ds_pixel_coords1: Any, cam1to2_full_mat: Any) -> Any:
    """ds pixel coords of camera 1 ``[..., 3]`` -> ds pixel coords of camera 2 ``[..., 3]``.

    ``cam1to2_full_mat`` ``[B..., 3, 4]`` maps ``(u·d, v·d, d, 1)`` of camera 1 to camera 2.
    """
    check_last_dims(ds_pixel_coords1, (3,), "ds_pixel_to_ds_pixel_coords", "ds pixel coords")
    check_last_dims(cam1to2_full_mat, (3, 4), "ds_pixel_to_ds_pixel_coords", "cam1to2 full matrices")
    return apply_matrix(append_ones(ds_pixel_coords1), cam1to2_full_mat)


def cam_to_cam_coords(cam_coords1: Any, cam1to2_ext_mat: Any) -> Any:
    """Camera-1 points ``[..., 3 or 4]`` -> homogeneous camera-2 points ``[..., 4]``."""
    check_last_dims(cam1to2_ext_mat, (3, 4), "cam_to_cam_coords", "cam1to2 extrinsic matrices")
    pts = homogeneous3(cam_coords1, "cam_to_cam_coords", "camera coordinates")
    return append_ones(apply_matrix(pts, cam1to2_ext_mat))


def sphere_to_sphere_coords(sphere_coords1: Any, cam1to2_ext_mat: Any, forward_facing_z: bool = True) -> Any:
    """Camera-1 sphere coords ``[..., 3]`` -> camera-2 sphere coords ``[..., 3]`` (see ``cam_to_sphere_coords``)."""
    cam2 = cam_to_cam_coords(sphere_to_cam_coords(sphere_coords1, forward_facing_z), cam1to2_ext_mat)
    return cam_to_sphere_coords(cam2, forward_facing_z)


def angular_pixel_to_angular_pixel_coords(
    angular_pixel_coords1: Any, cam1to2_ext_mat: Any, pixels_per_degree: float | Any
) -> Any:
    """Camera-1 angular pixel coords ``(u, v, r)`` ``[..., 3]`` -> camera-2 ones ``[..., 3]``."""
    sphere1 = angular_pixel_to_sphere_coords(angular_pixel_coords1, pixels_per_degree)
    return sphere_to_angular_pixel_coords(sphere_to_sphere_coords(sphere1, cam1to2_ext_mat), pixels_per_degree)


def _skew(v: Any) -> Any:
    """Cross-product matrices ``[v]×`` ``[..., 3, 3]`` of vectors ``[..., 3]``."""
    x, y, z = v[..., 0], v[..., 1], v[..., 2]
    zero = ivy.zeros_like(x)
    return ivy.stack(
        [ivy.stack([zero, -z, y], axis=-1), ivy.stack([z, zero, -x], axis=-1), ivy.stack([-y, x, zero], axis=-1)],
        axis=-2,
    )


def get_fundamental_matrix(
    full_mat1: Any, full_mat2: Any, camera_center1: Any = None, pinv_full_mat1: Any = None
) -> Any:
    """Fundamental matrix ``F = [e₂]× P₂ P₁⁺`` ``[..., 3, 3]`` of two cameras.

    Pixels ``x₁`` of camera 1 and ``x₂`` of camera 2 (homogeneous) seeing the same point satisfy
    ``x₂ᵀ F x₁ = 0``; ``F x₁`` is the epipolar line of ``x₁`` in image 2.

    Args:
        full_mat1, full_mat2: ``[..., 3, 4]`` full projection matrices ``P₁``, ``P₂``.
        camera_center1: ``[..., 3]`` the centre of camera 1 (default: from ``P₁``).
        pinv_full_mat1: ``[..., 4, 3]`` the pseudo-inverse of ``P₁`` (default: computed).
    """
    fn = "get_fundamental_matrix"
    check_last_dims(full_mat1, (3, 4), fn, "full projection matrices")
    check_last_dims(full_mat2, (3, 4), fn, "full projection matrices")
    if camera_center1 is None:
        camera_center1 = projection_matrix_inverse(full_mat1)[..., 3]
    if pinv_full_mat1 is None:
        pinv_full_mat1 = projection_matrix_pseudo_inverse(full_mat1)
    epipole2 = ivy.matmul(full_mat2, ivy.expand_dims(append_ones(camera_center1), axis=-1))[..., 0]
    return ivy.matmul(_skew(epipole2), ivy.matmul(full_mat2, pinv_full_mat1))


def closest_mutual_points_along_two_skew_rays(camera_centers: Any, world_ray_vectors: Any) -> Any:
    """The closest pair of points on two rays, for each pair of rays.

    Ray ``i`` is ``o_i + t_i d_i``; the returned points minimise ``|p_1 - p_2|``. For parallel
    rays (no unique answer) the ray origins are returned.

    Args:
        camera_centers: ``[..., 2, 3]`` ray origins ``o_1, o_2``.
        world_ray_vectors: ``[..., 2, S..., 3]`` ray directions (e.g. ``S... = h, w``).

    Returns:
        ``[..., 2, S..., 4]``: homogeneous closest points on ray 1 and on ray 2.
    """
    fn = "closest_mutual_points_along_two_skew_rays"
    check_last_dims(camera_centers, (2, 3), fn, "camera centres")
    nb = len(shape_of(camera_centers)) - 2
    check_rank_at_least(world_ray_vectors, nb + 2, fn, "ray vectors", "[..., 2, S..., 3]")
    check_last_dims(world_ray_vectors, (3,), fn, "ray vectors")
    spatial = len(shape_of(world_ray_vectors)) - nb - 2
    o1 = expand_to_spatial(_view(camera_centers, nb, 0), nb, spatial)
    o2 = expand_to_spatial(_view(camera_centers, nb, 1), nb, spatial)
    d1 = _view(world_ray_vectors, nb, 0)
    d2 = _view(world_ray_vectors, nb, 1)
    w0 = o1 - o2
    a = ivy.sum(d1 * d1, axis=-1, keepdims=True)
    b = ivy.sum(d1 * d2, axis=-1, keepdims=True)
    c = ivy.sum(d2 * d2, axis=-1, keepdims=True)
    d = ivy.sum(d1 * w0, axis=-1, keepdims=True)
    e = ivy.sum(d2 * w0, axis=-1, keepdims=True)
    denom = a * c - b * b
    t1 = safe_divide(b * e - c * d, denom)
    t2 = safe_divide(a * e - b * d, denom)
    p1 = o1 + t1 * d1
    p2 = o2 + t2 * d2
    return append_ones(ivy.stack([p1, p2], axis=nb))


def triangulate_depth(
    ds_pixel_coords: Any, full_mats: Any, inv_full_mats: Any = None, camera_centers: Any = None, method: str = "cmp"
) -> Any:
    """Depth in the first view of points seen by two cameras.

    Args:
        ds_pixel_coords: ``[..., 2, S..., 3]`` matching homogeneous pixel coords in views 1 and 2
            (any depth scaling; e.g. ``(x, y, 1)``).
        full_mats: ``[..., 2, 3, 4]`` the two full projection matrices.
        inv_full_mats: ``[..., 2, 3, 4]`` their inverses (default: computed; ``"cmp"`` only).
        camera_centers: ``[..., 2, 3]`` the camera centres (default: from ``inv_full_mats``).
        method: ``"cmp"``: the midpoint of the closest mutual points of the two pixel rays;
            ``"dlt"``: the linear (DLT) triangulation, the SVD null vector of the stacked
            ``x × (P X) = 0`` equations (rows normalised).

    Returns:
        ``[..., S..., 1]`` depth of the triangulated points in camera 1.
    """
    fn = "triangulate_depth"
    check_last_dims(full_mats, (2, 3, 4), fn, "pairs of full projection matrices")
    check_last_dims(ds_pixel_coords, (3,), fn, "ds pixel coords")
    nb = len(shape_of(full_mats)) - 3
    check_rank_at_least(ds_pixel_coords, nb + 2, fn, "ds pixel coords", "[..., 2, S..., 3]")
    if shape_of(ds_pixel_coords)[nb] != 2:
        raise ValueError(
            f"{fn}: expected ds pixel coords of shape [..., 2, S..., 3] with the batch axes "
            f"{list(shape_of(full_mats)[:nb])} of full_mats, got {list(shape_of(ds_pixel_coords))}"
        )
    full_mat1 = _view(full_mats, nb, 0)
    if method == "cmp":
        if inv_full_mats is None:
            inv_full_mats = projection_matrix_inverse(full_mats)
        if camera_centers is None:
            camera_centers = inv_full_mats[..., 3]
        rays = ivy.stack(
            [
                pixel_coords_to_world_ray_vectors(_view(inv_full_mats, nb, i), _view(ds_pixel_coords, nb, i))
                for i in range(2)
            ],
            axis=nb,
        )
        closest = closest_mutual_points_along_two_skew_rays(camera_centers, rays)
        world = (_view(closest, nb, 0) + _view(closest, nb, 1)) * 0.5
    elif method == "dlt":
        world = _dlt_triangulation(ds_pixel_coords, full_mats, nb)
    else:
        raise ValueError(f"{fn}: unknown method {method!r}; use 'cmp' or 'dlt'")
    return world_coords_to_depth(world, full_mat1)


def _dlt_triangulation(ds_pixel_coords: Any, full_mats: Any, nb: int) -> Any:
    """Homogeneous world points ``[..., S..., 4]`` by DLT from two views."""
    spatial = len(shape_of(ds_pixel_coords)) - nb - 2
    rows = []
    for i in range(2):
        x = _view(ds_pixel_coords, nb, i)
        p = expand_to_spatial(_view(full_mats, nb, i), nb, spatial)  # [..., 1.., 3, 4]
        x0, x1, x2 = x[..., 0:1], x[..., 1:2], x[..., 2:3]
        rows.append(x2 * p[..., 0, :] - x0 * p[..., 2, :])
        rows.append(x2 * p[..., 1, :] - x1 * p[..., 2, :])
    a = ivy.stack(rows, axis=-2)  # [..., S..., 4, 4]
    # equal row norms: the SVD then weighs the four equations alike (better conditioning)
    a = a / ivy.linalg.vector_norm(a, axis=-1, keepdims=True)
    world = solve_homogeneous_dlt(a)
    return world / world[..., 3:4]
