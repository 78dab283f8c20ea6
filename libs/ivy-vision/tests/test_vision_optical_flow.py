"""Optical flow against NumPy formulas and ground-truth scenes."""

from __future__ import annotations

import numpy as np
import pytest

import ivy
import ivy_vision as iv

BATCH = (2, 3)
H, W = 5, 6


def _cams(rng, geo, batch=BATCH):
    cam1 = geo.make_camera(rng, batch, H, W, max_angle=0.1, center_scale=0.1)
    cam2 = geo.make_camera(rng, batch, H, W, max_angle=0.1, center_scale=0.1)
    cam2["C"] = cam2["C"] + [0.5, 0.0, 0.0]
    cam2["ext"][..., 3] = -np.einsum("...ij,...j->...i", cam2["R"], cam2["C"])
    cam2["full"] = cam2["K"] @ cam2["ext"]
    return cam1, cam2


def _cam1to2_full(cam1, cam2, geo):
    return (geo.homo(cam2["full"]) @ np.linalg.inv(geo.homo(cam1["full"])))[..., :3, :]


def _flow_np(ds1, mat):
    ds2 = np.einsum("...ij,...hwj->...hwi", mat, np.concatenate([ds1, np.ones(ds1.shape[:-1] + (1,))], -1))
    return ds2[..., :2] / ds2[..., 2:] - ds1[..., :2] / ds1[..., 2:]


def test_flow_from_depth(to_native, to_numpy, rng, geo):
    cam1, cam2 = _cams(rng, geo)
    depth = rng.uniform(2, 4, BATCH + (H, W, 1))
    ds1 = geo.pixel_grid(H, W) * depth
    mat = _cam1to2_full(cam1, cam2, geo)
    flow = to_numpy(iv.flow_from_depth_and_cam_mats(to_native(ds1), to_native(mat)))
    assert flow.shape == BATCH + (H, W, 2)
    np.testing.assert_allclose(flow, _flow_np(ds1, mat), rtol=1e-10, atol=1e-12)


def test_flow_from_depth_gradient(grad_check, rng, geo):
    cam1, cam2 = _cams(rng, geo, (2,))
    ds1 = geo.pixel_grid(3, 4) * rng.uniform(2, 4, (2, 3, 4, 1))
    grad_check(iv.flow_from_depth_and_cam_mats, ds1, _cam1to2_full(cam1, cam2, geo), argnums=(0, 1))


@pytest.mark.parametrize("method", ["cmp", "dlt"])
def test_depth_from_flow(method, to_native, to_numpy, rng, geo):
    cam1, cam2 = _cams(rng, geo)
    depth = rng.uniform(2, 4, BATCH + (H, W, 1))
    flow = _flow_np(geo.pixel_grid(H, W) * depth, _cam1to2_full(cam1, cam2, geo))
    full_mats = np.stack([cam1["full"], cam2["full"]], axis=-3)
    out = to_numpy(iv.depth_from_flow_and_cam_mats(to_native(flow), to_native(full_mats), triangulation_method=method))
    np.testing.assert_allclose(out, depth, rtol=1e-7)


def test_project_flow_to_epipolar_line(to_native, to_numpy, rng, geo):
    cam1, cam2 = _cams(rng, geo)
    depth = rng.uniform(2, 4, BATCH + (H, W, 1))
    true_flow = _flow_np(geo.pixel_grid(H, W) * depth, _cam1to2_full(cam1, cam2, geo))
    f = to_numpy(iv.get_fundamental_matrix(to_native(cam1["full"]), to_native(cam2["full"])))
    noisy = true_flow + rng.standard_normal(true_flow.shape) * 0.3
    out = to_numpy(iv.project_flow_to_epipolar_line(to_native(noisy), to_native(f)))
    x1 = geo.pixel_grid(H, W)
    end = np.concatenate([x1[..., :2] + out, np.ones(out.shape[:-1] + (1,))], -1)
    line = np.einsum("...ij,...hwj->...hwi", f, np.broadcast_to(x1, out.shape[:-1] + (3,)))
    # the end points lie on their epipolar lines, at the foot of the perpendicular
    np.testing.assert_allclose(np.sum(end * line, -1) / np.linalg.norm(line[..., :2], axis=-1), 0.0, atol=1e-9)
    moved = (x1[..., :2] + noisy) - end[..., :2]
    cross = moved[..., 0] * line[..., 1] - moved[..., 1] * line[..., 0]
    np.testing.assert_allclose(cross, 0.0, atol=1e-9)
    # the true flow already satisfies the constraint
    np.testing.assert_allclose(
        to_numpy(iv.project_flow_to_epipolar_line(to_native(true_flow), to_native(f))), true_flow, atol=1e-8
    )


def _cost_volume_np(img1, img2, s):
    h, w = img1.shape[-3:-1]
    out = np.zeros(img1.shape[:-1] + ((2 * s + 1) ** 2,))
    k = 0
    for dy in range(-s, s + 1):
        for dx in range(-s, s + 1):
            for y in range(h):
                for x in range(w):
                    if 0 <= y + dy < h and 0 <= x + dx < w:
                        out[..., y, x, k] = np.mean(img1[..., y, x, :] * img2[..., y + dy, x + dx, :], -1)
            k += 1
    return out


def test_pixel_cost_volume(to_native, to_numpy, rng):
    img1, img2 = rng.standard_normal((2,) + BATCH + (H, W, 3))
    out = to_numpy(iv.pixel_cost_volume(to_native(img1), to_native(img2), 2))
    assert out.shape == BATCH + (H, W, 25)
    np.testing.assert_allclose(out, _cost_volume_np(img1, img2, 2), rtol=1e-12, atol=1e-14)
    with pytest.raises(ValueError, match="differ in shape"):
        iv.pixel_cost_volume(to_native(img1), to_native(img2[..., :2]), 1)


def test_pixel_cost_volume_gradient(grad_check, rng):
    img1, img2 = rng.standard_normal((2, 2, 3, 4, 2))
    grad_check(lambda a, b: iv.pixel_cost_volume(a, b, 1), img1, img2, argnums=(0, 1))


def _objects(rng, batch=BATCH):
    ids = rng.integers(0, 4, batch + (H, W, 1)).astype(np.float64)  # 0 = static background
    obj_ids = np.broadcast_to(np.array([[1.0], [2.0], [3.0]]), batch + (3, 1)).copy()
    obj_trans = np.concatenate(
        [np.eye(3) + 0.1 * rng.standard_normal(batch + (3, 3, 3)), 0.2 * rng.standard_normal(batch + (3, 3, 1))], -1
    )
    return ids, obj_ids, obj_trans


def _move_np(cam, ids, obj_ids, obj_trans):
    out = cam[..., :3].copy()
    for b in np.ndindex(*ids.shape[:-3]):
        for k in range(obj_ids.shape[-2]):
            sel = ids[b][..., 0] == obj_ids[b][k, 0]
            pts = np.concatenate([cam[b][..., :3], np.ones(cam[b].shape[:-1] + (1,))], -1)
            out[b][sel] = pts[sel] @ obj_trans[b][k].T
    return out


def test_object_transformations(to_native, to_numpy, rng, geo):
    cam = rng.uniform(-1, 1, BATCH + (H, W, 3)) + [0, 0, 4]
    ids, obj_ids, obj_trans = _objects(rng)
    cam1to2 = geo.make_camera(rng, BATCH, H, W)["ext"]
    moved = _move_np(cam, ids, obj_ids, obj_trans)
    out = to_numpy(
        iv.project_cam_coords_with_object_transformations(
            to_native(cam), to_native(ids), to_native(obj_ids), to_native(obj_trans), to_native(cam1to2)
        )
    )
    assert out.shape == BATCH + (H, W, 4)
    expected = np.einsum("...ij,...hwj->...hwi", cam1to2, np.concatenate([moved, np.ones(moved.shape[:-1] + (1,))], -1))
    np.testing.assert_allclose(out[..., :3], expected, rtol=1e-12, atol=1e-12)
    vel = to_numpy(
        iv.velocity_from_cam_coords_id_image_and_object_trans(
            to_native(cam), to_native(ids), to_native(obj_ids), to_native(obj_trans), 0.5
        )
    )
    np.testing.assert_allclose(vel, (moved - cam) / 0.5, rtol=1e-12, atol=1e-12)
    assert np.all(vel[ids[..., 0] == 0] == 0)
    dt = rng.uniform(0.1, 1.0, BATCH + (1,))
    vel_b = to_numpy(
        iv.velocity_from_cam_coords_id_image_and_object_trans(
            to_native(cam), to_native(ids), to_native(obj_ids), to_native(obj_trans), to_native(dt)
        )
    )
    np.testing.assert_allclose(vel_b, (moved - cam) / dt[..., None, None, :], rtol=1e-12, atol=1e-12)
    k = geo.make_camera(rng, BATCH, H, W)["K"]
    flow = to_numpy(
        iv.flow_from_cam_coords_id_image_and_object_trans(
            to_native(cam), to_native(ids), to_native(obj_ids), to_native(obj_trans), to_native(k), to_native(cam1to2)
        )
    )
    ds2 = np.einsum("...ij,...hwj->...hwi", k, expected)
    ds1 = np.einsum("...ij,...hwj->...hwi", k, cam)
    np.testing.assert_allclose(flow, ds2[..., :2] / ds2[..., 2:] - ds1[..., :2] / ds1[..., 2:], rtol=1e-9, atol=1e-9)


def test_object_transformations_gradient(grad_check, rng, geo):
    cam = rng.uniform(-1, 1, (2, H, W, 3)) + [0, 0, 4]
    ids, obj_ids, obj_trans = _objects(rng, (2,))
    cam1to2 = geo.make_camera(rng, (2,), H, W)["ext"]
    grad_check(
        iv.project_cam_coords_with_object_transformations, cam, ids, obj_ids, obj_trans, cam1to2, argnums=(0, 3, 4)
    )


def test_velocity_from_flow(to_native, to_numpy, rng, geo):
    # image t-1 holds the points of a fronto-parallel plane: linear in (x, y), so that bilinear
    # sampling of it is exact and the sampled points have a closed form
    cam = geo.make_camera(rng, BATCH, H, W)
    plane = 3.0 * np.einsum("...ij,hwj->...hwi", cam["K_inv"], geo.pixel_grid(H, W))
    targets = np.stack([rng.uniform(0, W - 1, BATCH + (H, W)), rng.uniform(0, H - 1, BATCH + (H, W))], -1)
    flow = targets - geo.pixel_grid(H, W)[..., :2]
    prev = 3.0 * np.einsum(
        "...ij,...hwj->...hwi", cam["K_inv"], np.concatenate([targets, np.ones(BATCH + (H, W, 1))], -1)
    )
    pts_t = rng.uniform(-1, 1, BATCH + (H, W, 3)) + [0, 0, 3]
    tm1_to_t = geo.make_camera(rng, BATCH, H, W)["ext"]
    vel = to_numpy(
        iv.velocity_from_flow_cam_coords_and_cam_mats(
            to_native(flow), to_native(pts_t), to_native(plane), to_native(tm1_to_t), 0.25
        )
    )
    prev_in_t = np.einsum("...ij,...hwj->...hwi", tm1_to_t, np.concatenate([prev, np.ones(BATCH + (H, W, 1))], -1))
    assert vel.shape == BATCH + (H, W, 3)
    np.testing.assert_allclose(vel, (pts_t - prev_in_t) / 0.25, rtol=1e-9, atol=1e-9)


def test_flow_projection_and_velocity_gradients(grad_check, rng, geo):
    cam1, cam2 = _cams(rng, geo, (2,))
    f = np.cross(np.eye(3), rng.standard_normal((2, 1, 3)))  # a rank-2 [e]x matrix per batch element
    flow = rng.standard_normal((2, 3, 4, 2))
    grad_check(iv.project_flow_to_epipolar_line, flow, f @ rng.standard_normal((2, 3, 3)), argnums=(0, 1))
    cam = rng.uniform(-1, 1, (2, 3, 4, 3)) + [0, 0, 3]
    targets = np.stack([rng.uniform(0.2, 2.8, (2, 3, 4)), rng.uniform(0.2, 1.8, (2, 3, 4))], -1)
    targets = np.where(np.abs(targets - np.round(targets)) < 0.05, targets + 0.1, targets)
    grad_check(
        lambda fl, a, b, m: iv.velocity_from_flow_cam_coords_and_cam_mats(fl, a, b, m, 0.5),
        targets - geo.pixel_grid(3, 4)[..., :2],
        cam,
        cam * 1.1,
        cam1["ext"],
        argnums=(0, 1, 2, 3),
    )


def test_compiled_flow_pipeline(compile_check, rng, geo):
    """Flow from depth, depth back from flow (triangulation), and the epipolar projection."""
    cam1, cam2 = _cams(rng, geo, (2,))
    ds1 = geo.pixel_grid(H, W) * rng.uniform(2, 4, (2, H, W, 1))

    def pipeline(ds, mat, full1, full2):
        flow = iv.flow_from_depth_and_cam_mats(ds, mat)
        depth = iv.depth_from_flow_and_cam_mats(flow, ivy.stack([full1, full2], axis=-3))
        return depth, iv.project_flow_to_epipolar_line(flow, iv.get_fundamental_matrix(full1, full2))

    compile_check(pipeline, ds1, _cam1to2_full(cam1, cam2, geo), cam1["full"], cam2["full"], rtol=1e-6, atol=1e-6)
