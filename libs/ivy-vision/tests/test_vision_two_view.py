"""Two-view geometry against kornia, NumPy least squares and ground-truth scenes."""

from __future__ import annotations

import numpy as np
import pytest

import ivy_vision as iv

BATCH = (2, 3)


def _two_cameras(rng, geo, batch=BATCH, h=6, w=8):
    cam1 = geo.make_camera(rng, batch, h, w)
    cam2 = geo.make_camera(rng, batch, h, w)
    cam2["C"] = cam2["C"] + [0.8, 0.1, 0.0]  # a baseline, so that triangulation is well posed
    cam2["ext"][..., 3] = -np.einsum("...ij,...j->...i", cam2["R"], cam2["C"])
    cam2["inv_ext"][..., 3] = cam2["C"]
    cam2["full"] = cam2["K"] @ cam2["ext"]
    cam2["inv_full"] = np.concatenate([cam2["inv_ext"][..., :3] @ cam2["K_inv"], cam2["C"][..., None]], -1)
    return cam1, cam2


def _project(full, pts):
    ds = np.einsum("...ij,...nj->...ni", full, np.concatenate([pts, np.ones(pts.shape[:-1] + (1,))], -1))
    return ds


def test_pixel_and_camera_warps(to_native, to_numpy, rng, geo):
    cam1, cam2 = _two_cameras(rng, geo)
    pts = rng.uniform(-1, 1, BATCH + (9, 3)) + [0, 0, 4]
    ds1, ds2 = _project(cam1["full"], pts), _project(cam2["full"], pts)
    cam1to2_full = (geo.homo(cam2["full"]) @ np.linalg.inv(geo.homo(cam1["full"])))[..., :3, :]
    out = to_numpy(iv.ds_pixel_to_ds_pixel_coords(to_native(ds1), to_native(cam1to2_full)))
    np.testing.assert_allclose(out, ds2, rtol=1e-9)
    cam1to2_ext = (geo.homo(cam2["ext"]) @ geo.homo(cam1["inv_ext"]))[..., :3, :]
    c1 = np.einsum("...ij,...nj->...ni", cam1["ext"], np.concatenate([pts, np.ones(pts.shape[:-1] + (1,))], -1))
    c2 = to_numpy(iv.cam_to_cam_coords(to_native(c1), to_native(cam1to2_ext)))
    np.testing.assert_allclose(
        c2[..., :3],
        np.einsum("...ij,...nj->...ni", cam2["ext"], np.concatenate([pts, np.ones(pts.shape[:-1] + (1,))], -1)),
        rtol=1e-9,
        atol=1e-12,
    )
    # sphere and angular pixel warps: the same points in camera 2's sphere coordinates
    sph1 = to_numpy(iv.cam_to_sphere_coords(to_native(c1)))
    sph2 = to_numpy(iv.sphere_to_sphere_coords(to_native(sph1), to_native(cam1to2_ext)))
    x, y, z = c2[..., 0], c2[..., 1], c2[..., 2]
    r = np.linalg.norm(c2[..., :3], axis=-1)
    np.testing.assert_allclose(sph2, np.stack([np.arctan2(x, z), np.arccos(y / r), r], -1), rtol=1e-9)
    ang1 = np.concatenate([np.degrees(sph1[..., :2]) * 3.0, sph1[..., 2:]], -1)
    ang2 = to_numpy(iv.angular_pixel_to_angular_pixel_coords(to_native(ang1), to_native(cam1to2_ext), 3.0))
    np.testing.assert_allclose(ang2, np.concatenate([np.degrees(sph2[..., :2]) * 3.0, sph2[..., 2:]], -1), rtol=1e-9)


def test_fundamental_matrix_epipolar_constraint(to_native, to_numpy, rng, geo):
    cam1, cam2 = _two_cameras(rng, geo)
    f = to_numpy(iv.get_fundamental_matrix(to_native(cam1["full"]), to_native(cam2["full"])))
    assert f.shape == BATCH + (3, 3)
    pts = rng.uniform(-1, 1, BATCH + (9, 3)) + [0, 0, 4]
    x1, x2 = _project(cam1["full"], pts), _project(cam2["full"], pts)
    x1, x2 = x1 / x1[..., 2:], x2 / x2[..., 2:]
    residual = np.einsum("...ni,...ij,...nj->...n", x2, f, x1)
    scale = np.linalg.norm(f, axis=(-2, -1))[..., None]
    np.testing.assert_allclose(residual / scale, 0.0, atol=1e-9)
    # the optional arguments give the same matrix
    f2 = to_numpy(
        iv.get_fundamental_matrix(
            to_native(cam1["full"]),
            to_native(cam2["full"]),
            to_native(cam1["C"]),
            to_native(np.linalg.pinv(cam1["full"])),
        )
    )
    np.testing.assert_allclose(f2, f, rtol=1e-8, atol=1e-10)


def _unit_frobenius(m):
    m = m / np.linalg.norm(m, axis=(-2, -1), keepdims=True)
    sign = np.sign(m.reshape(m.shape[:-2] + (9,))[..., np.argmax(np.abs(m.reshape(-1, 9)[0]))])
    return m * sign[..., None, None]


def test_fundamental_matrix_vs_kornia(kornia, to_native, to_numpy, rng, geo):
    import torch

    cam1, cam2 = _two_cameras(rng, geo, (4,))
    ref = kornia.geometry.epipolar.fundamental_from_projections(
        torch.from_numpy(cam1["full"]), torch.from_numpy(cam2["full"])
    ).numpy()
    ours = to_numpy(iv.get_fundamental_matrix(to_native(cam1["full"]), to_native(cam2["full"])))
    np.testing.assert_allclose(_unit_frobenius(ours), _unit_frobenius(ref), atol=1e-9)


def test_fundamental_matrix_gradient(grad_check, rng, geo):
    cam1, cam2 = _two_cameras(rng, geo, (2,))
    grad_check(iv.get_fundamental_matrix, cam1["full"] / 8, cam2["full"] / 8, argnums=(0, 1), rtol=1e-4)


def test_closest_mutual_points(to_native, to_numpy, rng):
    centers = rng.standard_normal(BATCH + (2, 3))
    rays = rng.standard_normal(BATCH + (2, 4, 5, 3))
    out = to_numpy(iv.closest_mutual_points_along_two_skew_rays(to_native(centers), to_native(rays)))
    assert out.shape == BATCH + (2, 4, 5, 4)
    np.testing.assert_array_equal(out[..., 3], 1.0)
    # least squares: o1 + t1 d1 - (o2 + t2 d2) = 0 in the least-squares sense
    for idx in np.ndindex(*BATCH, 4, 5):
        b, (h, w) = idx[:2], idx[2:]
        d1, d2 = rays[b][0, h, w], rays[b][1, h, w]
        o1, o2 = centers[b][0], centers[b][1]
        t, *_ = np.linalg.lstsq(np.stack([d1, -d2], -1), o2 - o1, rcond=None)
        np.testing.assert_allclose(out[b][0, h, w, :3], o1 + t[0] * d1, rtol=1e-8, atol=1e-10)
        np.testing.assert_allclose(out[b][1, h, w, :3], o2 + t[1] * d2, rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("method", ["cmp", "dlt"])
def test_triangulate_depth(method, to_native, to_numpy, rng, geo):
    cam1, cam2 = _two_cameras(rng, geo)
    pts = rng.uniform(-1, 1, BATCH + (4, 5, 3)) + [0, 0, 4]
    flat = pts.reshape(BATCH + (20, 3))
    ds = np.stack([_project(cam1["full"], flat), _project(cam2["full"], flat)], axis=-3).reshape(BATCH + (2, 4, 5, 3))
    pix = ds / ds[..., 2:]
    full_mats = np.stack([cam1["full"], cam2["full"]], axis=-3)
    depth = to_numpy(iv.triangulate_depth(to_native(pix), to_native(full_mats), method=method))
    assert depth.shape == BATCH + (4, 5, 1)
    np.testing.assert_allclose(depth, ds[..., 0, :, :, 2:], rtol=1e-8)


def test_triangulate_dlt_vs_kornia(kornia, to_native, to_numpy, rng, geo):
    import torch

    cam1, cam2 = _two_cameras(rng, geo, (3,))
    pts = rng.uniform(-1, 1, (3, 10, 3)) + [0, 0, 4]
    x1, x2 = _project(cam1["full"], pts), _project(cam2["full"], pts)
    x1, x2 = x1 / x1[..., 2:], x2 / x2[..., 2:]
    ref_world = kornia.geometry.epipolar.triangulate_points(
        torch.from_numpy(cam1["full"]),
        torch.from_numpy(cam2["full"]),
        torch.from_numpy(x1[..., :2]),
        torch.from_numpy(x2[..., :2]),
    ).numpy()
    ref_depth = _project(cam1["full"], ref_world)[..., 2:]
    ours = to_numpy(
        iv.triangulate_depth(
            to_native(np.stack([x1, x2], -3)), to_native(np.stack([cam1["full"], cam2["full"]], -3)), method="dlt"
        )
    )
    np.testing.assert_allclose(ours, ref_depth, rtol=1e-8)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_triangulate_dlt_noisy(dtype, to_native, to_numpy, rng, geo):
    """With noisy matches: a NumPy DLT with unit-norm rows (the documented equations), in float64
    from the same (for float32: rounded) inputs; float32 takes another solver than float64."""
    cam1, cam2 = _two_cameras(rng, geo, (3,))
    pts = rng.uniform(-1, 1, (3, 10, 3)) + [0, 0, 4]
    x1, x2 = _project(cam1["full"], pts), _project(cam2["full"], pts)
    x1 = x1 / x1[..., 2:] + 0.05 * rng.standard_normal(x1.shape) * [1, 1, 0]
    x2 = x2 / x2[..., 2:]
    x1, x2 = x1.astype(dtype).astype(np.float64), x2.astype(dtype).astype(np.float64)
    for cam in (cam1, cam2):
        cam["full"] = cam["full"].astype(dtype).astype(np.float64)
    expected = np.zeros((3, 10, 1))
    for b in range(3):
        for n in range(10):
            rows = []
            for p, x in ((cam1["full"][b], x1[b, n]), (cam2["full"][b], x2[b, n])):
                rows += [x[2] * p[0] - x[0] * p[2], x[2] * p[1] - x[1] * p[2]]
            a = np.stack(rows)
            a /= np.linalg.norm(a, axis=-1, keepdims=True)
            world = np.linalg.svd(a)[2][-1]
            expected[b, n] = (cam1["full"][b] @ (world / world[3]))[2]
    pix, full_mats = np.stack([x1, x2], -3).astype(dtype), np.stack([cam1["full"], cam2["full"]], -3).astype(dtype)
    ours = to_numpy(iv.triangulate_depth(to_native(pix), to_native(full_mats), method="dlt"))
    assert ours.dtype == np.dtype(dtype)
    np.testing.assert_allclose(ours, expected, rtol=1e-8 if dtype == "float64" else 2e-6)


@pytest.mark.parametrize("method", ["cmp", "dlt"])
def test_triangulate_gradient(method, grad_check, rng, geo):
    cam1, cam2 = _two_cameras(rng, geo, (2,))
    pts = rng.uniform(-1, 1, (2, 3, 3)) + [0, 0, 4]
    ds = np.stack([_project(cam1["full"], pts), _project(cam2["full"], pts)], axis=-3)
    pix = ds / ds[..., 2:] + 0.01 * rng.standard_normal(ds.shape) * [1, 1, 0]
    full_mats = np.stack([cam1["full"], cam2["full"]], axis=-3) / 8.0
    pix = pix * [1 / 8.0, 1 / 8.0, 1.0]  # pixel units of the scaled matrices: better conditioned
    grad_check(lambda p, m: iv.triangulate_depth(p, m, method=method), pix, full_mats, argnums=(0, 1))


def test_triangulate_errors(to_native):
    with pytest.raises(ValueError, match="unknown method"):
        iv.triangulate_depth(to_native(np.ones((2, 4, 3))), to_native(np.ones((2, 3, 4))), method="svd")
    with pytest.raises(ValueError, match="pairs of full projection matrices"):
        iv.triangulate_depth(to_native(np.ones((2, 4, 3))), to_native(np.ones((3, 3, 4))))


def test_warp_gradients(grad_check, rng, geo):
    centers = rng.standard_normal((2, 2, 3))
    rays = rng.standard_normal((2, 2, 3, 4, 3))
    grad_check(iv.closest_mutual_points_along_two_skew_rays, centers, rays, argnums=(0, 1))
    cam1, cam2 = _two_cameras(rng, geo, (2,))
    cam1to2_ext = (geo.homo(cam2["ext"]) @ geo.homo(cam1["inv_ext"]))[..., :3, :]
    pts = rng.uniform(-1, 1, (2, 5, 3)) + [0, 0, 4]
    grad_check(iv.cam_to_cam_coords, pts, cam1to2_ext, argnums=(0, 1))
    sph = np.stack([rng.uniform(-1, 1, (2, 5)), rng.uniform(1, 2, (2, 5)), rng.uniform(2, 4, (2, 5))], -1)
    grad_check(iv.sphere_to_sphere_coords, sph, cam1to2_ext, argnums=(0, 1))
