"""Voxel grids from point clouds, and point clouds from depth images.

Points are ``[..., n, 3]`` (``x, y, z``) with any leading batch axes; grids are
``[..., X, Y, Z, c]`` with ``x`` first.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import ivy

from ._helpers import check_last_dims, check_rank_at_least, index_dtype, shape_of
from .single_view_geometry import depth_to_world_coords

__all__ = ["coords_to_voxel_grid", "depth_images_to_world_point_cloud"]


def _bounds(coords: Any, coord_bounds: Any, fn: str) -> tuple[Any, Any]:
    """``(mins, maxs)``, each ``[..., 1, 3]`` (or ``[1, 3]`` for fixed bounds)."""
    if coord_bounds is None:
        return ivy.min(coords, axis=-2, keepdims=True), ivy.max(coords, axis=-2, keepdims=True)
    if ivy.is_native_array(coord_bounds):
        check_last_dims(coord_bounds, (6,), fn, "coordinate bounds (x_min, y_min, z_min, x_max, y_max, z_max)")
        return ivy.expand_dims(coord_bounds[..., 0:3], axis=-2), ivy.expand_dims(coord_bounds[..., 3:6], axis=-2)
    b = [float(v) for v in coord_bounds]
    if len(b) != 6 or any(lo >= hi for lo, hi in zip(b[0:3], b[3:6])):
        raise ValueError(
            f"{fn}: coord_bounds must be (x_min, y_min, z_min, x_max, y_max, z_max) with each min "
            f"below its max, got {list(coord_bounds)}"
        )
    return _row(b[0:3], coords), _row(b[3:6], coords)


def _row(values: Sequence[float], like_: Any) -> Any:
    """A ``[1, 3]`` array of ``values`` with ``like_``'s dtype, device and backend."""
    return ivy.asarray(
        [[float(v) for v in values]], dtype=like_.dtype, device=ivy.dev(like_), backend=ivy.namespace(like_)
    )


def coords_to_voxel_grid(
    coords: Any,
    voxel_shape_spec: Sequence[int] | Sequence[float] | Any,
    mode: str = "DIMS",
    coord_bounds: Sequence[float] | Any = None,
    features: Any = None,
) -> tuple[Any, tuple[int, int, int], Any, Any]:
    """Voxelize a point cloud: the mean point, the mean features and the count in each voxel.

    The grid spans ``[min, max]`` on each axis (the bounds, or the points' own extent); a point's
    voxel index is ``min(floor((p - min) / res), dims - 1)``, so each voxel is half-open except
    the last one, which includes ``max``. Points outside the bounds are ignored.

    Args:
        coords: ``[..., n, 3]`` points.
        voxel_shape_spec: with ``mode="DIMS"`` the number of voxels ``(X, Y, Z)`` (ints); with
            ``mode="RES"`` the voxel size ``(rx, ry, rz)`` (floats or an array ``[..., 3]``), the
            number of voxels then being ``ceil((max - min) / res)`` (the largest over the batch).
        mode: ``"DIMS"`` or ``"RES"``.
        coord_bounds: ``(x_min, y_min, z_min, x_max, y_max, z_max)`` (floats, or an array
            ``[..., 6]``); default: each batch element's point extent.
        features: ``[..., n, f]`` point features to average, or ``None``.

    Returns:
        ``(voxel_grid, dims, res, bb_mins)``: ``voxel_grid`` ``[..., X, Y, Z, 3 + f + 1]`` (mean
        point, mean features, count; zeros in empty voxels), ``dims`` ``(X, Y, Z)`` (ints),
        ``res`` ``[..., 3]`` voxel sizes and ``bb_mins`` ``[..., 3]`` the grid's minimum corner.

    ``mode="RES"`` reads array values to size the grid, so it cannot be compiled; ``mode="DIMS"``
    can. Differentiable with respect to ``coords`` (the means) and ``features``.
    """
    fn = "coords_to_voxel_grid"
    check_rank_at_least(coords, 2, fn, "points", "[..., n, 3]")
    check_last_dims(coords, (3,), fn, "points")
    cshape = shape_of(coords)
    batch, n = cshape[:-2], cshape[-2]
    if features is not None:
        check_last_dims(features, (n, None), fn, f"features (one row per point, {n} points)")
    mins, maxs = _bounds(coords, coord_bounds, fn)
    if mode == "DIMS":
        spec = tuple(int(d) for d in voxel_shape_spec)
        if len(spec) != 3 or min(spec) <= 0:
            raise ValueError(f"{fn}: voxel_shape_spec must be three positive ints in DIMS mode, got {voxel_shape_spec}")
        dims = (spec[0], spec[1], spec[2])
        res = (maxs - mins) / _row(dims, coords)
    elif mode == "RES":
        if ivy.is_native_array(voxel_shape_spec):
            check_last_dims(voxel_shape_spec, (3,), fn, "voxel sizes")
            res = ivy.expand_dims(voxel_shape_spec, axis=-2)
        else:
            res = _row(voxel_shape_spec, coords)
        # a small tolerance keeps an extent of exactly k voxels (up to rounding) at k voxels
        counts = ivy.to_numpy(ivy.ceil((maxs - mins) / res - 1e-6)).reshape(-1, 3).max(axis=0)
        cx, cy, cz = (max(1, int(c)) for c in counts)
        dims = (cx, cy, cz)
    else:
        raise ValueError(f"{fn}: unknown mode {mode!r}; use 'DIMS' or 'RES'")

    # an axis on which all points coincide has zero extent: its points all go to voxel 0
    safe_res = ivy.where(res > 0, res, ivy.ones_like(res))
    idx = ivy.minimum(ivy.maximum(ivy.floor((coords - mins) / safe_res), 0.0), _row([d - 1 for d in dims], coords))
    inside = ivy.all(ivy.logical_and(coords >= mins, coords <= maxs), axis=-1)
    idx = ivy.astype(idx, index_dtype(coords))
    nbatch = math.prod(batch)
    nvox = dims[0] * dims[1] * dims[2]
    xp = ivy.namespace(coords)
    offsets = ivy.reshape(xp.arange(nbatch, dtype=index_dtype(coords), device=ivy.dev(coords)) * nvox, batch + (1,))
    flat = offsets + (idx[..., 0] * dims[1] + idx[..., 1]) * dims[2] + idx[..., 2]
    # points outside the bounds go to one extra slot, dropped below
    flat = ivy.reshape(ivy.where(inside, flat, nbatch * nvox), (nbatch * n, 1))

    ones = ivy.astype(ivy.expand_dims(inside, axis=-1), coords.dtype)
    values = ivy.concat([coords * ones] + ([features * ones] if features is not None else []) + [ones], axis=-1)
    nc = shape_of(values)[-1]
    summed = ivy.scatter_nd(flat, ivy.reshape(values, (nbatch * n, nc)), (nbatch * nvox + 1, nc))
    summed = ivy.reshape(summed[0 : nbatch * nvox], batch + dims + (nc,))
    count = summed[..., nc - 1 :]
    grid = ivy.concat([summed[..., 0 : nc - 1] / ivy.maximum(count, 1.0), count], axis=-1)
    res_out = ivy.broadcast_to(res, batch + (1, 3))[..., 0, :]
    bb_mins = ivy.broadcast_to(mins, batch + (1, 3))[..., 0, :]
    return grid, dims, res_out, bb_mins


def depth_images_to_world_point_cloud(
    depths: Any, inv_calib_mats: Any, inv_ext_mats: Any, features: Any = None
) -> tuple[Any, Any]:
    """Fuse the depth images of several cameras into one world point cloud (e.g. to voxelize).

    Args:
        depths: ``[..., v, h, w, 1]`` depth images of ``v`` cameras.
        inv_calib_mats: ``[..., v, 3, 3]`` their ``K⁻¹``.
        inv_ext_mats: ``[..., v, 3, 4]`` their camera->world matrices.
        features: ``[..., v, h, w, f]`` per-pixel features (e.g. colour), or ``None``.

    Returns:
        ``(points, features)``: ``[..., v·h·w, 3]`` world points and ``[..., v·h·w, f]`` features
        (``None`` if none were given), in view-major, then row-major order.
    """
    fn = "depth_images_to_world_point_cloud"
    check_rank_at_least(depths, 4, fn, "depth images", "[..., v, h, w, 1]")
    check_last_dims(depths, (None, None, None, 1), fn, "depth images")
    shape = shape_of(depths)
    batch = shape[:-3]
    total = shape[-4] * shape[-3] * shape[-2]
    world = depth_to_world_coords(depths, inv_calib_mats, inv_ext_mats)[..., 0:3]
    points = ivy.reshape(world, batch[:-1] + (total, 3))
    if features is None:
        return points, None
    return points, ivy.reshape(features, batch[:-1] + (total, shape_of(features)[-1]))
