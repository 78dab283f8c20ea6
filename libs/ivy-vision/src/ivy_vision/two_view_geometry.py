"""Two-view geometry: warps between two cameras, the fundamental matrix and triangulation.

Conventions as in :mod:`ivy_vision.single_view_geometry`. A "cam1to2" matrix maps the first
camera's frame to the second's: ``cam1to2_ext_mat = ext_mat2 @ inv_ext_mat1`` (``[..., 3, 4]``,
camera points to camera points) and ``cam1to2_full_mat = full_mat2 @ inv_full_mat1`` (ds pixel
coords with a 1 appended to ds pixel coords). Pairs of views are stacked on an axis of size 2
right after the batch axes: ``full_mats`` ``[..., 2, 3, 4]``, pixel images ``[..., 2, h, w, 3]``.
"""

from __future__ import annotations

import math
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
        depth = _dlt_depth(ds_pixel_coords, full_mats, nb)
        return ivy.reshape(depth, shape_of(depth)[:nb] + shape_of(ds_pixel_coords)[nb + 1 : -1] + (1,))
    else:
        raise ValueError(f"{fn}: unknown method {method!r}; use 'cmp' or 'dlt'")
    return world_coords_to_depth(world, full_mat1)


def _dlt_depth(ds_pixel_coords: Any, full_mats: Any, nb: int) -> Any:
    """Depth ``[..., n, 1]`` in view 1 of the DLT points (the sample axes ``S...`` flattened to
    ``n``: fewer axes than paddle's slicing allows).

    The DLT matrix ``A`` of a point has the rows ``x₂ P₀ - x₀ P₂`` and ``x₂ P₁ - x₁ P₂`` of each
    view, scaled to unit norm (the least-squares solution then weighs the four equations alike);
    its null vector ``X`` is the last right singular vector of ``A``.

    In float32, where the backend has float64, ``X`` is the eigenvector of the smallest eigenvalue
    ``λ`` of ``AᵀA`` (as kornia computes it), in float64: the squared condition number's error
    stays below float32's rounding. ``AᵀA`` is summed from the rows in closed form and the
    eigenvector is a column of the adjugate of ``AᵀA - λI`` (rank one: ``∏(λᵢ - λ) X Xᵀ``), the
    one with the largest diagonal entry, so that only the eigenvalues are solved for (about half
    the time of the eigenvectors). Other dtypes take the SVD.
    """
    dshape = shape_of(ds_pixel_coords)
    n = math.prod(dshape[nb + 1 : -1])
    xp = ivy.namespace(full_mats)
    float32 = ds_pixel_coords.dtype == full_mats.dtype == xp.float32
    fast = float32 and "float64" in xp.__array_namespace_info__().dtypes(kind="real floating")
    if fast:
        ds_pixel_coords, full_mats = ivy.astype(ds_pixel_coords, xp.float64), ivy.astype(full_mats, xp.float64)
    # the points on the last axis: there the elementwise ops run several times faster than over
    # trailing axes of 2 to 4
    x = ivy.moveaxis(ivy.reshape(ds_pixel_coords, dshape[: nb + 1] + (n, 3)), -1, -2)  # [..., 2 views, 3, n]
    x2 = ivy.expand_dims(x[..., 2:3, :], axis=-2)  # [..., 2, 1, 1, n]
    x01 = ivy.expand_dims(x[..., 0:2, :], axis=-2)  # [..., 2, 2, 1, n]
    p01 = ivy.expand_dims(full_mats[..., 0:2, :], axis=-1)  # [..., 2, 2, 4, 1]
    p2 = ivy.expand_dims(full_mats[..., 2:3, :], axis=-1)  # [..., 2, 1, 4, 1]
    rows = x2 * p01 - x01 * p2  # [..., 2 views, 2, 4, n]
    batch = shape_of(rows)[:-4]
    rows = ivy.reshape(rows, batch + (4, 4, n))  # [..., row, column, n]
    if fast:
        # (a sum of squares: in float64 it cannot overflow here, and vector_norm over an axis
        # other than the last is many times slower on torch)
        rows = rows / ivy.sqrt(ivy.sum(rows * rows, axis=-2, keepdims=True))
        ata = ivy.sum(ivy.expand_dims(rows, axis=-2) * ivy.expand_dims(rows, axis=-3), axis=-4)  # [..., 4, 4, n]
        lam = ivy.min(ivy.linalg.eigvalsh(ivy.moveaxis(ata, -1, -3)), axis=-1)  # [..., n]
        v = _null_vector_of_rank3(ata, lam)  # [..., 4, n], any scale
        # the depth (P₁ X)₂ of X = v / v₃: the third row of P₁ against v, divided once
        row = ivy.expand_dims(_view(full_mats, nb, 0)[..., 2, :], axis=-1)  # [..., 4, 1]
        depth = ivy.sum(v * row, axis=-2) / v[..., 3, :]
        return ivy.astype(ivy.expand_dims(depth, axis=-1), xp.float32)
    # flattened, then split: one copy into points-first order, which the SVD reads fastest
    a = ivy.reshape(ivy.reshape(ivy.moveaxis(rows, -1, -3), (-1,)), batch + (n, 4, 4))
    v = solve_homogeneous_dlt(a / ivy.linalg.vector_norm(a, axis=-1, keepdims=True))  # [..., n, 4]
    row = ivy.expand_dims(_view(full_mats, nb, 0)[..., 2, :], axis=-2)  # [..., 1, 4]
    return ivy.sum(v * row, axis=-1, keepdims=True) / v[..., 3:4]


def _null_vector_of_rank3(m: Any, lam: Any) -> Any:
    """The eigenvector ``[..., 4, n]`` (unnormalised, either sign) of the eigenvalue ``lam``
    ``[..., n]`` of symmetric ``m`` ``[..., 4, 4, n]``: the column of the adjugate of
    ``B = m - lam I`` with the largest diagonal entry (``adj B = ∏ᵢ (λᵢ - lam) v vᵀ`` over the
    other eigenvalues, so its diagonal is ``∝ vⱼ²`` and that column is the longest)."""
    b = [[m[..., i, j, :] - lam if i == j else m[..., i, j, :] for j in range(4)] for i in range(4)]
    # the 2x2 minors of rows 0-1 and of rows 2-3 over columns (j, k); each 3x3 minor is then a
    # sum of three products (Laplace expansion along its remaining row of the other pair)
    pairs = [(j, k) for j in range(4) for k in range(j + 1, 4)]
    top = {(j, k): b[0][j] * b[1][k] - b[0][k] * b[1][j] for j, k in pairs}
    bottom = {(j, k): b[2][j] * b[3][k] - b[2][k] * b[3][j] for j, k in pairs}

    def cofactor(i: int, j: int) -> Any:
        # row i and column j removed: the other row of i's pair against the minors of the
        # other pair
        r, minors = (1 - i, bottom) if i < 2 else (5 - i, top)
        t0, t1, t2 = (t for t in range(4) if t != j)
        det = b[r][t0] * minors[(t1, t2)] - b[r][t1] * minors[(t0, t2)] + b[r][t2] * minors[(t0, t1)]
        return det if (i + j) % 2 == 0 else -det

    upper = {(i, j): cofactor(i, j) for i in range(4) for j in range(i, 4)}  # adj B is symmetric
    best, column = upper[0, 0], [upper[0, i] for i in range(4)]
    for j in range(1, 4):
        # strictly larger: of two tied columns one is kept, never a mix (their signs may differ)
        larger = upper[j, j] > best
        best = ivy.where(larger, upper[j, j], best)
        column = [ivy.where(larger, upper[min(i, j), max(i, j)], column[i]) for i in range(4)]
    return ivy.stack(column, axis=-2)  # [..., 4, n]
