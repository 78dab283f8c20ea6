"""Voxel grids against scipy.stats.binned_statistic_dd."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binned_statistic_dd

import ivy
import ivy_vision as iv

BATCH = (2, 3)
DIMS = (4, 5, 3)


def _reference(coords, values, dims, bounds):
    """``[X, Y, Z, c]`` means and ``[X, Y, Z]`` counts of one point cloud, with SciPy."""
    rng_ = [(bounds[i], bounds[i + 3]) for i in range(3)]
    means = np.stack(
        [
            binned_statistic_dd(coords, values[:, c], "mean", bins=dims, range=rng_).statistic
            for c in range(values.shape[1])
        ],
        -1,
    )
    counts = binned_statistic_dd(coords, values[:, 0], "count", bins=dims, range=rng_).statistic
    return means, counts


def _check_grid(grid, coords, feats, dims, bounds):
    values = np.concatenate([coords, feats], -1)
    means, counts = _reference(coords, values, dims, bounds)
    np.testing.assert_array_equal(grid[..., -1], counts)
    filled = counts > 0
    np.testing.assert_allclose(grid[..., :-1][filled], means[filled], rtol=1e-10)
    np.testing.assert_array_equal(grid[..., :-1][~filled], 0.0)


def test_dims_mode_with_bounds(xp, to_native, to_numpy, rng):
    coords = rng.uniform(-1.2, 1.2, BATCH + (200, 3))  # some points outside the bounds
    feats = rng.standard_normal(BATCH + (200, 2))
    bounds = (-1.0, -1.0, -1.0, 1.0, 1.0, 1.0)
    grid, dims, res, mins = iv.coords_to_voxel_grid(
        to_native(coords), DIMS, coord_bounds=bounds, features=to_native(feats)
    )
    assert ivy.namespace(grid) is xp and tuple(grid.shape) == BATCH + DIMS + (6,)
    assert dims == DIMS
    np.testing.assert_allclose(to_numpy(res), np.broadcast_to(2.0 / np.array(DIMS), BATCH + (3,)), rtol=1e-12)
    np.testing.assert_allclose(to_numpy(mins), -np.ones(BATCH + (3,)))
    g = to_numpy(grid)
    for b in np.ndindex(*BATCH):
        _check_grid(g[b], coords[b], feats[b], DIMS, bounds)


def test_dims_mode_own_extent_and_bounds_edges(to_native, to_numpy, rng):
    coords = rng.uniform(-1, 2, BATCH + (100, 3))
    grid, _, res, mins = iv.coords_to_voxel_grid(to_native(coords), DIMS)
    g = to_numpy(grid)
    for b in np.ndindex(*BATCH):
        lo, hi = coords[b].min(0), coords[b].max(0)
        _check_grid(g[b], coords[b], np.zeros((100, 0)), DIMS, tuple(lo) + tuple(hi))
        np.testing.assert_allclose(to_numpy(res)[b], (hi - lo) / DIMS, rtol=1e-12)
        np.testing.assert_allclose(to_numpy(mins)[b], lo)
    # every point is inside its own extent, including those on the maximum (last voxel closed)
    np.testing.assert_array_equal(g[..., -1].sum(axis=(-3, -2, -1)), 100)


def test_bounds_as_array(to_native, to_numpy, rng):
    coords = rng.uniform(-1, 1, BATCH + (80, 3))
    bounds = np.concatenate([rng.uniform(-1, -0.5, BATCH + (3,)), rng.uniform(0.5, 1, BATCH + (3,))], -1)
    grid, *_ = iv.coords_to_voxel_grid(to_native(coords), DIMS, coord_bounds=to_native(bounds))
    g = to_numpy(grid)
    for b in np.ndindex(*BATCH):
        _check_grid(g[b], coords[b], np.zeros((80, 0)), DIMS, tuple(bounds[b]))


def test_res_mode(to_native, to_numpy, rng):
    coords = rng.uniform(0, 1, (2, 60, 3))
    grid, dims, res, _ = iv.coords_to_voxel_grid(
        to_native(coords), (0.25, 0.5, 0.3), mode="RES", coord_bounds=(0, 0, 0, 1, 1, 0.9)
    )
    assert dims == (4, 2, 3)
    np.testing.assert_allclose(to_numpy(res), [[0.25, 0.5, 0.3]] * 2)
    g = to_numpy(grid)
    for b in range(2):
        _check_grid(g[b], coords[b], np.zeros((60, 0)), dims, (0, 0, 0, 1, 1, 0.9))


def test_voxel_grid_errors(to_native):
    pts = to_native(np.zeros((5, 3)))
    with pytest.raises(ValueError, match="unknown mode"):
        iv.coords_to_voxel_grid(pts, DIMS, mode="SIZE")
    with pytest.raises(ValueError, match="three positive ints"):
        iv.coords_to_voxel_grid(pts, (4, 4))
    with pytest.raises(ValueError, match="each min below its max"):
        iv.coords_to_voxel_grid(pts, DIMS, coord_bounds=(0, 0, 0, 1, -1, 1))
    with pytest.raises(ValueError, match="one row per point"):
        iv.coords_to_voxel_grid(pts, DIMS, features=to_native(np.zeros((4, 2))))


def test_voxel_grid_gradients(grad_check, rng):
    coords = rng.uniform(-0.9, 0.9, (2, 30, 3))
    feats = rng.standard_normal((2, 30, 2))
    bounds = (-1.0, -1.0, -1.0, 1.0, 1.0, 1.0)
    grad_check(
        lambda c, f: iv.coords_to_voxel_grid(c, (3, 3, 2), coord_bounds=bounds, features=f)[0],
        coords,
        feats,
        argnums=(0, 1),
    )


def test_compiled_voxel_grid(compile_check, rng):
    coords = rng.uniform(-1, 1, (2, 40, 3))
    compile_check(lambda c: iv.coords_to_voxel_grid(c, DIMS, coord_bounds=(-1, -1, -1, 1, 1, 1))[0], coords)


def test_depth_images_to_world_point_cloud(to_native, to_numpy, rng, geo):
    cams = geo.make_camera(rng, (2, 3), 4, 5)  # batch 2, 3 views
    depth = rng.uniform(1, 3, (2, 3, 4, 5, 1))
    rgb = rng.uniform(0, 1, (2, 3, 4, 5, 3))
    pts, feats = iv.depth_images_to_world_point_cloud(
        to_native(depth), to_native(cams["K_inv"]), to_native(cams["inv_ext"]), to_native(rgb)
    )
    assert tuple(pts.shape) == (2, 60, 3) and tuple(feats.shape) == (2, 60, 3)
    cam_pts = depth * np.einsum("...ij,hwj->...hwi", cams["K_inv"], geo.pixel_grid(4, 5))
    world = np.einsum("...ij,...hwj->...hwi", cams["inv_ext"], np.concatenate([cam_pts, np.ones(depth.shape)], -1))
    np.testing.assert_allclose(to_numpy(pts), world.reshape(2, 60, 3), rtol=1e-12)
    np.testing.assert_array_equal(to_numpy(feats), rgb.reshape(2, 60, 3))


def test_flat_point_cloud(to_native, to_numpy, rng):
    """Points on a plane (zero extent in z): all in the first z layer, no NaNs."""
    coords = np.concatenate([rng.uniform(0, 1, (30, 2)), np.full((30, 1), 0.5)], -1)
    grid, _, res, _ = iv.coords_to_voxel_grid(to_native(coords), (2, 2, 3))
    g = to_numpy(grid)
    assert np.all(np.isfinite(g)) and g[..., -1].sum() == 30 and g[:, :, 1:, -1].sum() == 0
    np.testing.assert_allclose(to_numpy(res)[2], 0.0)
