"""Single-view geometry against kornia, SciPy and NumPy formulas written here."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.ndimage import map_coordinates

import ivy
import ivy_vision as iv

H, W = 5, 7
BATCH = (2, 3)


def _depth(rng, batch=BATCH, h=H, w=W):
    return rng.uniform(1.0, 4.0, batch + (h, w, 1))


def _assert_native(x, xp):
    assert ivy.is_native_array(x)
    assert ivy.namespace(x) is xp


# ------------------------------------------------------------------------------ pixel grids


def test_uniform_pixel_coords(backend, xp, to_numpy, geo):
    out = iv.create_uniform_pixel_coords_image((H, W), BATCH, backend=backend, dtype="float64")
    _assert_native(out, xp)
    assert tuple(out.shape) == BATCH + (H, W, 3)
    np.testing.assert_array_equal(to_numpy(out), np.broadcast_to(geo.pixel_grid(H, W), BATCH + (H, W, 3)))
    norm = to_numpy(iv.create_uniform_pixel_coords_image((H, W), normalized=True, homogeneous=False, backend=backend))
    assert norm.shape == (H, W, 2) and norm.dtype == to_numpy(xp.zeros(1)).dtype  # the default float dtype
    np.testing.assert_allclose(norm, geo.pixel_grid(H, W)[..., :2] / [W, H], rtol=1e-6)


def test_uniform_pixel_coords_vs_kornia(backend, kornia, to_numpy):
    grid = kornia.geometry.create_meshgrid(H, W, normalized_coordinates=False).numpy()[0]  # (x, y)
    out = to_numpy(iv.create_uniform_pixel_coords_image((H, W), homogeneous=False, backend=backend))
    np.testing.assert_array_equal(out, grid)


def test_bad_image_dims():
    with pytest.raises(ValueError, match="image_dims must be two positive ints"):
        iv.create_uniform_pixel_coords_image((0, 4))


# ------------------------------------------------------------------------------ intrinsics / extrinsics


def test_focal_lengths_and_persp_angles(to_native, to_numpy, rng):
    angles = rng.uniform(0.5, 2.0, BATCH + (2,))
    focal = to_numpy(iv.persp_angles_to_focal_lengths(to_native(angles), (H, W)))
    expected = np.array([W, H]) / 2 / np.tan(angles / 2)
    np.testing.assert_allclose(focal, expected, rtol=1e-12)
    back = to_numpy(iv.focal_lengths_to_persp_angles(to_native(expected), (H, W)))
    np.testing.assert_allclose(back, angles, rtol=1e-12)
    dims_arr = to_native(np.array([float(H), float(W)]))
    np.testing.assert_allclose(
        to_numpy(iv.persp_angles_to_focal_lengths(to_native(angles), dims_arr)), expected, rtol=1e-12
    )


def test_focal_lengths_gradient(grad_check, rng):
    grad_check(lambda a: iv.persp_angles_to_focal_lengths(a, (H, W)), rng.uniform(0.5, 2.0, (3, 2)))


def test_calib_mat_and_intrinsics(to_native, to_numpy, rng):
    f = rng.uniform(50, 100, BATCH + (2,))
    pp = rng.uniform(2, 5, BATCH + (2,))
    k = to_numpy(iv.focal_lengths_and_pp_offsets_to_calib_mat(to_native(f), to_native(pp)))
    expected = np.zeros(BATCH + (3, 3))
    expected[..., 0, 0], expected[..., 1, 1] = f[..., 0], f[..., 1]
    expected[..., 0, 2], expected[..., 1, 2], expected[..., 2, 2] = pp[..., 0], pp[..., 1], 1.0
    np.testing.assert_array_equal(k, expected)
    intr = iv.focal_lengths_and_pp_offsets_to_intrinsics_object(to_native(f), to_native(pp), (H, W))
    assert isinstance(intr, iv.Intrinsics) and isinstance(intr, ivy.Container)
    np.testing.assert_allclose(to_numpy(intr.inv_calib_mats), np.linalg.inv(expected), rtol=1e-12)
    np.testing.assert_allclose(to_numpy(intr.persp_angles), 2 * np.arctan(np.array([W, H]) / 2 / f), rtol=1e-12)
    intr2 = iv.persp_angles_and_pp_offsets_to_intrinsics_object(intr.persp_angles, to_native(pp), (H, W))
    np.testing.assert_allclose(to_numpy(intr2.calib_mats), expected, rtol=1e-10)
    intr3 = iv.calib_mat_to_intrinsics_object(to_native(expected), (H, W))
    np.testing.assert_allclose(to_numpy(intr3.focal_lengths), f, rtol=1e-12)
    np.testing.assert_allclose(to_numpy(intr3.pp_offsets), pp, rtol=1e-12)
    np.testing.assert_allclose(to_numpy(intr3.inv_calib_mats), np.linalg.inv(expected), rtol=1e-10)


def test_ext_mat_and_camera_geometry(to_native, to_numpy, rng, geo):
    cam = geo.make_camera(rng, BATCH, H, W)
    ext = to_numpy(iv.rot_mat_and_cam_center_to_ext_mat(to_native(cam["R"]), to_native(cam["C"])))
    np.testing.assert_allclose(ext, cam["ext"], atol=1e-12)
    # one rotation shared by a batch of centres
    ext_b = to_numpy(iv.rot_mat_and_cam_center_to_ext_mat(to_native(cam["R"][0, 0]), to_native(cam["C"])))
    assert ext_b.shape == BATCH + (3, 4)
    np.testing.assert_allclose(ext_b[..., :3], np.broadcast_to(cam["R"][0, 0], BATCH + (3, 3)))
    intr = iv.calib_mat_to_intrinsics_object(to_native(cam["K"]), (H, W))
    for geom in (
        iv.ext_mat_and_intrinsics_to_cam_geometry_object(to_native(cam["ext"]), intr),
        iv.inv_ext_mat_and_intrinsics_to_cam_geometry_object(to_native(cam["inv_ext"]), intr),
    ):
        assert isinstance(geom, iv.CameraGeometry) and isinstance(geom.extrinsics, iv.Extrinsics)
        np.testing.assert_allclose(to_numpy(geom.extrinsics.cam_centers), cam["C"], atol=1e-12)
        np.testing.assert_allclose(to_numpy(geom.extrinsics.ext_mats_homo), geo.homo(cam["ext"]), atol=1e-12)
        np.testing.assert_allclose(to_numpy(geom.extrinsics.inv_ext_mats_homo), geo.homo(cam["inv_ext"]), atol=1e-12)
        np.testing.assert_allclose(to_numpy(geom.full_mats_homo), geo.homo(cam["full"]), atol=1e-10)
        np.testing.assert_allclose(to_numpy(geom.inv_full_mats_homo), np.linalg.inv(geo.homo(cam["full"])), atol=1e-10)
    np.testing.assert_allclose(to_numpy(iv.inv_ext_mat_to_camera_center(to_native(cam["inv_ext"]))), cam["C"])
    np.testing.assert_allclose(
        to_numpy(iv.calib_and_ext_to_full_mat(to_native(cam["K"]), to_native(cam["ext"]))), cam["full"], atol=1e-12
    )


def test_full_mat_vs_kornia(kornia, to_native, to_numpy, rng, geo):
    import torch

    cam = geo.make_camera(rng, (4,), H, W)
    ref = kornia.geometry.epipolar.projection_from_KRt(
        torch.from_numpy(cam["K"]), torch.from_numpy(cam["R"]), torch.from_numpy(cam["ext"][..., 3:])
    ).numpy()
    ours = to_numpy(iv.calib_and_ext_to_full_mat(to_native(cam["K"]), to_native(cam["ext"])))
    np.testing.assert_allclose(ours, ref[..., :3, :], rtol=1e-12, atol=1e-12)


# ------------------------------------------------------------------------------ depth / camera / pixels


def test_depth_to_cam_coords(xp, to_native, to_numpy, rng, geo):
    cam = geo.make_camera(rng, BATCH, H, W)
    depth = _depth(rng)
    out = iv.depth_to_cam_coords(to_native(depth), to_native(cam["K_inv"]))
    _assert_native(out, xp)
    assert tuple(out.shape) == BATCH + (H, W, 4)
    expected = depth * np.einsum(
        "...ij,...hwj->...hwi", cam["K_inv"], np.broadcast_to(geo.pixel_grid(H, W), BATCH + (H, W, 3))
    )
    np.testing.assert_allclose(to_numpy(out)[..., :3], expected, rtol=1e-12)
    np.testing.assert_array_equal(to_numpy(out)[..., 3], 1.0)
    ds = to_numpy(iv.depth_to_ds_pixel_coords(to_native(depth)))
    np.testing.assert_allclose(ds, geo.pixel_grid(H, W) * depth, rtol=1e-12)
    radial = to_numpy(iv.depth_to_radial_depth(to_native(depth), to_native(cam["K_inv"])))
    np.testing.assert_allclose(radial, np.linalg.norm(expected, axis=-1, keepdims=True), rtol=1e-12)
    radial2 = to_numpy(iv.ds_pixel_coords_to_radial_depth(to_native(ds), to_native(cam["K_inv"])))
    np.testing.assert_allclose(radial2, radial, rtol=1e-12)


def test_depth_to_cam_coords_of_a_tall_float32_image(xp, to_native, to_numpy, rng, geo):
    # taller than wide (the grid's rows outnumber its columns), float32, one batch axis
    h, w = 7, 3
    cam = geo.make_camera(rng, (2,), h, w)
    depth = _depth(rng, (2,), h, w).astype(np.float32)
    ds = iv.depth_to_ds_pixel_coords(to_native(depth))
    _assert_native(ds, xp)
    ds = to_numpy(ds)
    assert ds.shape == (2, h, w, 3) and ds.dtype == np.float32
    # a product of two float32 is exact in float64: rounding it to float32 is the float32 product
    np.testing.assert_array_equal(ds, (geo.pixel_grid(h, w) * depth).astype(np.float32))
    k_inv = cam["K_inv"].astype(np.float32)
    out = to_numpy(iv.depth_to_cam_coords(to_native(depth), to_native(k_inv)))
    assert out.shape == (2, h, w, 4) and out.dtype == np.float32
    expected = np.einsum("...ij,...hwj->...hwi", k_inv.astype(np.float64), ds.astype(np.float64))
    np.testing.assert_allclose(out[..., :3], expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(out[..., 3], 1.0)


def test_depth_to_cam_coords_vs_kornia(kornia, to_native, to_numpy, rng, geo):
    import torch

    cam = geo.make_camera(rng, (3,), H, W)
    depth = _depth(rng, (3,))
    ref = kornia.geometry.depth.depth_to_3d_v2(
        torch.from_numpy(depth[..., 0]), torch.from_numpy(cam["K"]), normalize_points=False
    ).numpy()
    ours = to_numpy(iv.depth_to_cam_coords(to_native(depth), to_native(cam["K_inv"])))[..., :3]
    np.testing.assert_allclose(ours, ref, rtol=1e-12, atol=1e-12)


def test_project_unproject_vs_kornia(kornia, to_native, to_numpy, rng, geo):
    import torch

    cam = geo.make_camera(rng, (3,), H, W)
    xyz = rng.uniform(-1, 1, (3, 10, 3)) + [0, 0, 3]
    ds = to_numpy(iv.cam_to_ds_pixel_coords(to_native(xyz), to_native(cam["K"])))
    uv_ref = kornia.geometry.camera.perspective.project_points(
        torch.from_numpy(xyz), torch.from_numpy(cam["K"][:, None])
    ).numpy()
    np.testing.assert_allclose(ds[..., :2] / ds[..., 2:], uv_ref, rtol=1e-12)
    depth = to_numpy(iv.cam_coords_to_depth(to_native(xyz), to_native(cam["K"])))
    np.testing.assert_allclose(depth, xyz[..., 2:], rtol=1e-12)
    back_ref = kornia.geometry.camera.perspective.unproject_points(
        torch.from_numpy(uv_ref), torch.from_numpy(depth), torch.from_numpy(cam["K"][:, None])
    ).numpy()
    back = to_numpy(iv.ds_pixel_to_cam_coords(to_native(ds), to_native(cam["K_inv"])))
    np.testing.assert_allclose(back[..., :3], back_ref, rtol=1e-10)
    np.testing.assert_allclose(back[..., :3], xyz, rtol=1e-10)


def test_world_conversions(to_native, to_numpy, rng, geo):
    cam = geo.make_camera(rng, BATCH, H, W)
    pts = rng.uniform(-1, 1, BATCH + (4, 6, 3)) + [0, 0, 4]
    pts_h = np.concatenate([pts, np.ones(pts.shape[:-1] + (1,))], axis=-1)
    cam_pts = to_numpy(iv.world_to_cam_coords(to_native(pts), to_native(cam["ext"])))
    expected = np.einsum("...ij,...hwj->...hwi", cam["ext"], pts_h)
    np.testing.assert_allclose(cam_pts[..., :3], expected, rtol=1e-12)
    np.testing.assert_allclose(to_numpy(iv.world_to_cam_coords(to_native(pts_h), to_native(cam["ext"]))), cam_pts)
    world = to_numpy(iv.cam_to_world_coords(to_native(cam_pts), to_native(cam["inv_ext"])))
    np.testing.assert_allclose(world, pts_h, rtol=1e-10)
    ds = to_numpy(iv.world_to_ds_pixel_coords(to_native(pts), to_native(cam["full"])))
    np.testing.assert_allclose(ds, np.einsum("...ij,...hwj->...hwi", cam["full"], pts_h), rtol=1e-12)
    np.testing.assert_allclose(
        to_numpy(iv.world_coords_to_depth(to_native(pts), to_native(cam["full"]))), ds[..., 2:], rtol=1e-12
    )
    world2 = to_numpy(iv.ds_pixel_to_world_coords(to_native(ds), to_native(cam["inv_full"])))
    np.testing.assert_allclose(world2, pts_h, rtol=1e-10)


def test_depth_to_world_coords(to_native, to_numpy, rng, geo):
    cam = geo.make_camera(rng, BATCH, H, W)
    depth = _depth(rng)
    world = to_numpy(iv.depth_to_world_coords(to_native(depth), to_native(cam["K_inv"]), to_native(cam["inv_ext"])))
    # reprojecting the world points gives back the pixel grid and the depth
    ds = np.einsum("...ij,...hwj->...hwi", cam["full"], world)
    np.testing.assert_allclose(ds[..., 2:], depth, rtol=1e-10)
    np.testing.assert_allclose(
        ds[..., :2] / ds[..., 2:], np.broadcast_to(geo.pixel_grid(H, W)[..., :2], ds.shape[:-1] + (2,)), atol=1e-9
    )


def test_world_to_cam_vs_kornia(kornia, to_native, to_numpy, rng, geo):
    import torch

    cam = geo.make_camera(rng, (3,), H, W)
    pts = rng.uniform(-2, 2, (3, 11, 3))
    ref = kornia.geometry.linalg.transform_points(torch.from_numpy(geo.homo(cam["ext"])), torch.from_numpy(pts))
    ours = to_numpy(iv.world_to_cam_coords(to_native(pts), to_native(cam["ext"])))
    np.testing.assert_allclose(ours[..., :3], ref.numpy(), rtol=1e-12, atol=1e-12)


def test_world_pipeline_gradient(grad_check, rng, geo):
    cam = geo.make_camera(rng, (2,), 3, 4)
    depth = _depth(rng, (2,), 3, 4)
    grad_check(
        lambda d, k, e: iv.depth_to_world_coords(d, k, e), depth, cam["K_inv"], cam["inv_ext"], argnums=(0, 1, 2)
    )
    pts = rng.uniform(-1, 1, (2, 5, 3)) + [0, 0, 3]
    grad_check(lambda p, f: iv.world_to_ds_pixel_coords(p, f), pts, cam["full"], argnums=(0, 1))


# ------------------------------------------------------------------------------ rays and spheres


def test_pixel_rays(to_native, to_numpy, rng, geo):
    cam = geo.make_camera(rng, BATCH, H, W)
    pix = np.broadcast_to(geo.pixel_grid(H, W), BATCH + (H, W, 3))
    rays = to_numpy(iv.pixel_coords_to_world_ray_vectors(to_native(cam["inv_full"]), to_native(pix)))
    # the world point at depth 2 of each pixel lies on its ray from the camera centre
    world = np.einsum(
        "...ij,...hwj->...hwi", cam["inv_full"], np.concatenate([pix * 2.0, np.ones(pix.shape[:-1] + (1,))], -1)
    )
    direction = world - cam["C"][..., None, None, :]
    np.testing.assert_allclose(rays, direction / np.linalg.norm(direction, axis=-1, keepdims=True), rtol=1e-10)
    with pytest.raises(ValueError, match="pixel_coords are required"):
        iv.pixel_coords_to_world_ray_vectors(to_native(cam["inv_full"]))


def _sphere_np(xyz):
    x, y, z = xyz[..., 0], xyz[..., 1], xyz[..., 2]
    r = np.linalg.norm(xyz, axis=-1)
    return np.stack([np.arctan2(x, z), np.arccos(y / r), r], axis=-1)


def test_sphere_coords(to_native, to_numpy, rng, geo):
    xyz = rng.uniform(-1, 1, BATCH + (4, 3))
    sph = to_numpy(iv.cam_to_sphere_coords(to_native(xyz)))
    np.testing.assert_allclose(sph, _sphere_np(xyz), rtol=1e-12)
    plain = to_numpy(iv.cam_to_sphere_coords(to_native(xyz), forward_facing_z=False))
    r = np.linalg.norm(xyz, axis=-1)
    np.testing.assert_allclose(
        plain, np.stack([np.arctan2(xyz[..., 1], xyz[..., 0]), np.arccos(xyz[..., 2] / r), r], -1), rtol=1e-12
    )
    for ffz in (True, False):
        back = to_numpy(iv.sphere_to_cam_coords(to_native(to_numpy(iv.cam_to_sphere_coords(to_native(xyz), ffz))), ffz))
        np.testing.assert_allclose(back[..., :3], xyz, atol=1e-12)
    cam = geo.make_camera(rng, BATCH, H, W)
    ds = np.einsum("...ij,...nj->...ni", cam["K"], xyz + [0, 0, 3])
    np.testing.assert_allclose(
        to_numpy(iv.ds_pixel_to_sphere_coords(to_native(ds), to_native(cam["K_inv"]))),
        _sphere_np(xyz + [0, 0, 3]),
        rtol=1e-10,
    )
    np.testing.assert_allclose(
        to_numpy(iv.sphere_to_ds_pixel_coords(to_native(_sphere_np(xyz + [0, 0, 3])), to_native(cam["K"]))),
        ds,
        rtol=1e-10,
    )
    ang = to_numpy(iv.sphere_to_angular_pixel_coords(to_native(sph), 2.5))
    np.testing.assert_allclose(ang, np.concatenate([np.degrees(sph[..., :2]) * 2.5, sph[..., 2:]], -1), rtol=1e-12)
    np.testing.assert_allclose(to_numpy(iv.angular_pixel_to_sphere_coords(to_native(ang), 2.5)), sph, rtol=1e-12)
    rays = to_numpy(iv.sphere_coords_to_world_ray_vectors(to_native(sph), to_native(np.swapaxes(cam["R"], -1, -2))))
    expected = np.einsum("...ji,...nj->...ni", cam["R"], xyz)
    np.testing.assert_allclose(rays, expected / np.linalg.norm(expected, axis=-1, keepdims=True), atol=1e-12)


def test_sphere_gradient(grad_check, rng):
    grad_check(iv.cam_to_sphere_coords, rng.uniform(-1, 1, (2, 4, 3)))
    grad_check(
        iv.sphere_to_cam_coords, np.stack([rng.uniform(-3, 3, 5), rng.uniform(0.2, 3, 5), rng.uniform(1, 2, 5)], -1)
    )


# ------------------------------------------------------------------------------ bilinear sampling


def _map_coordinates(img, coords):
    """SciPy reference: ``img`` ``[h, w, c]``, ``coords`` ``[..., 2]`` (x, y) -> ``[..., c]``."""
    return np.stack(
        [
            map_coordinates(img[..., c], [coords[..., 1], coords[..., 0]], order=1, mode="nearest")
            for c in range(img.shape[-1])
        ],
        axis=-1,
    )


def test_bilinear_vs_scipy(xp, to_native, to_numpy, rng):
    img = rng.standard_normal(BATCH + (H, W, 3))
    coords = np.stack([rng.uniform(-2, W + 1, BATCH + (4, 6)), rng.uniform(-2, H + 1, BATCH + (4, 6))], -1)
    coords[0, 0, 0, :2] = [[W - 1, H - 1], [0, 0]]  # exactly on the last row / column and the origin
    out = iv.bilinearly_interpolate_image(to_native(img), to_native(coords))
    _assert_native(out, xp)
    assert tuple(out.shape) == BATCH + (4, 6, 3)
    expected = np.stack([np.stack([_map_coordinates(img[i, j], coords[i, j]) for j in range(3)]) for i in range(2)])
    np.testing.assert_allclose(to_numpy(out), expected, rtol=1e-12, atol=1e-12)
    # float32 keeps its dtype
    out32 = iv.bilinearly_interpolate_image(to_native(img.astype(np.float32)), to_native(coords.astype(np.float32)))
    assert to_numpy(out32).dtype == np.float32
    np.testing.assert_allclose(to_numpy(out32), expected, rtol=1e-4, atol=1e-4)


def test_bilinear_gradient(grad_check, rng):
    img = rng.standard_normal((2, 4, 5, 2))
    coords = np.stack([rng.uniform(0.1, 3.9, (2, 3)), rng.uniform(0.1, 2.9, (2, 3))], -1)
    coords = np.where(np.abs(coords - np.round(coords)) < 0.05, coords + 0.1, coords)  # away from the kinks
    grad_check(iv.bilinearly_interpolate_image, img, coords, argnums=(0, 1))


def test_inverse_warp_vs_kornia(kornia, to_native, to_numpy, rng, geo):
    """Depth -> camera -> other camera -> pixels -> bilinear sampling, as ``warp_frame_depth``."""
    import torch

    h, w = 6, 8
    cam = geo.make_camera(rng, (2,), h, w)
    src_trans_dst = geo.homo(geo.make_camera(rng, (2,), h, w, max_angle=0.05, center_scale=0.05)["ext"])
    image_src = rng.standard_normal((2, h, w, 3))
    depth_dst = rng.uniform(2.0, 3.0, (2, h, w, 1))
    cam_dst = iv.depth_to_cam_coords(to_native(depth_dst), to_native(cam["K_inv"]))
    cam_src = iv.cam_to_cam_coords(cam_dst, to_native(src_trans_dst[..., :3, :]))
    ds_src = iv.cam_to_ds_pixel_coords(cam_src, to_native(cam["K"]))
    pix = ds_src[..., 0:2] / ds_src[..., 2:3]
    ours = to_numpy(iv.bilinearly_interpolate_image(to_native(image_src), pix))
    ref = (
        kornia.geometry.depth.warp_frame_depth(
            torch.from_numpy(image_src).permute(0, 3, 1, 2),
            torch.from_numpy(depth_dst).permute(0, 3, 1, 2),
            torch.from_numpy(src_trans_dst),
            torch.from_numpy(cam["K"]),
        )
        .permute(0, 2, 3, 1)
        .numpy()
    )
    pix_np = to_numpy(pix)
    inside = (pix_np[..., 0] >= 0) & (pix_np[..., 0] <= w - 1) & (pix_np[..., 1] >= 0) & (pix_np[..., 1] <= h - 1)
    assert inside.mean() > 0.5
    np.testing.assert_allclose(ours[inside], ref[inside], rtol=1e-10, atol=1e-10)
    # everywhere, against grid_sample with border padding (ivy_vision clamps)
    grid = kornia.geometry.conversions.normalize_pixel_coordinates(torch.from_numpy(pix_np), h, w)
    ref_border = torch.nn.functional.grid_sample(
        torch.from_numpy(image_src).permute(0, 3, 1, 2), grid, align_corners=True, padding_mode="border"
    )
    np.testing.assert_allclose(ours, ref_border.permute(0, 2, 3, 1).numpy(), rtol=1e-10, atol=1e-10)


# ------------------------------------------------------------------------------ errors and compilation


def test_shape_errors(to_native):
    with pytest.raises(ValueError, match=r"depth_to_ds_pixel_coords: expected a depth image of shape \[\.\.\., 1\]"):
        iv.depth_to_ds_pixel_coords(to_native(np.ones((2, 4, 5, 2))))
    with pytest.raises(ValueError, match=r"world_to_cam_coords: expected extrinsic matrices"):
        iv.world_to_cam_coords(to_native(np.ones((4, 3))), to_native(np.ones((3, 3))))
    with pytest.raises(ValueError, match=r"cam_to_ds_pixel_coords: expected camera coordinates"):
        iv.cam_to_ds_pixel_coords(to_native(np.ones((4, 2))), to_native(np.eye(3)))


def test_compiled_camera_pipeline(compile_check, rng, geo):
    cam = geo.make_camera(rng, (2,), H, W)
    img = rng.standard_normal((2, H, W, 2))

    def pipeline(depth, k_inv, inv_ext, full, image):
        world = iv.depth_to_world_coords(depth, k_inv, inv_ext)
        ds = iv.world_to_ds_pixel_coords(world, full)
        return iv.bilinearly_interpolate_image(image, ds[..., 0:2] / ds[..., 2:3]), iv.cam_to_sphere_coords(world)

    compile_check(pipeline, _depth(rng, (2,)), cam["K_inv"], cam["inv_ext"], cam["full"], img)


def test_radial_depth_and_intrinsics_gradients(grad_check, rng, geo):
    cam = geo.make_camera(rng, (2,), 3, 4)
    grad_check(iv.depth_to_radial_depth, _depth(rng, (2,), 3, 4), cam["K_inv"], argnums=(0, 1))
    grad_check(
        lambda f, p: iv.focal_lengths_and_pp_offsets_to_intrinsics_object(f, p, (3, 4))["inv_calib_mats"],
        cam["f"],
        cam["pp"],
        argnums=(0, 1),
    )
    grad_check(
        lambda e: iv.ext_mat_and_intrinsics_to_cam_geometry_object(
            e, iv.calib_mat_to_intrinsics_object(ivy.asarray(cam["K"], dtype=e.dtype, backend=ivy.namespace(e)), (3, 4))
        )["inv_full_mats_homo"],
        cam["ext"],
    )
