"""Meshes: rasterization against a NumPy barycentric test; trimesh indices against the definition."""

from __future__ import annotations

import numpy as np
import pytest

import ivy
import ivy_vision as iv

BATCH = (2, 3)
H, W = 6, 7


def _rasterize_np(tris, h, w):
    out = np.zeros((h, w, 1))
    best = np.full((h, w), np.inf)
    for tri in tris:
        a, b, c = tri[:, :2]
        for y in range(h):
            for x in range(w):
                p = np.array([x, y], dtype=float)
                m = np.stack([b - a, c - a], -1)
                if abs(np.linalg.det(m)) < 1e-12:
                    continue
                beta, gamma = np.linalg.solve(m, p - a)
                alpha = 1 - beta - gamma
                if min(alpha, beta, gamma) >= 0:
                    z = alpha * tri[0, 2] + beta * tri[1, 2] + gamma * tri[2, 2]
                    if z < best[y, x]:
                        best[y, x] = z
                        out[y, x, 0] = z
    return out


def _triangles(rng, batch=BATCH, n=4):
    xy = np.stack([rng.uniform(-1, W, batch + (n, 3)), rng.uniform(-1, H, batch + (n, 3))], -1)
    return np.concatenate([xy, rng.uniform(1, 5, batch + (n, 3, 1))], -1)


def test_rasterize_triangles(xp, to_native, to_numpy, rng):
    tris = _triangles(rng)
    out = iv.rasterize_triangles(to_native(tris), (H, W))
    assert ivy.namespace(out) is xp and tuple(out.shape) == BATCH + (H, W, 1)
    for b in np.ndindex(*BATCH):
        np.testing.assert_allclose(to_numpy(out)[b], _rasterize_np(tris[b], H, W), rtol=1e-9, atol=1e-12)
    assert np.count_nonzero(to_numpy(out)) > 0


def test_rasterize_overlap_and_degenerate(to_native, to_numpy):
    big_far = [[-1.0, -1.0, 5.0], [10.0, -1.0, 5.0], [-1.0, 10.0, 5.0]]
    small_near = [[0.0, 0.0, 1.0], [3.0, 0.0, 2.0], [0.0, 3.0, 3.0]]
    line = [[0.0, 0.0, 0.5], [2.0, 2.0, 0.5], [4.0, 4.0, 0.5]]  # zero area: covers nothing
    out = to_numpy(iv.rasterize_triangles(to_native(np.array([big_far, small_near, line])), (4, 4)))[..., 0]
    assert out[0, 0] == 1.0 and out[0, 3] == 2.0 and out[3, 0] == 3.0  # vertices of the near one
    np.testing.assert_allclose(out[1, 1], 1.0 + 1 / 3 + 2 / 3)  # barycentric (1/3, 1/3, 1/3)
    assert out[3, 3] == 5.0  # only the far one covers it


def test_rasterize_gradient(grad_check, rng):
    tris = _triangles(rng, (2,), 2)
    grad_check(lambda t: iv.rasterize_triangles(t, (H, W)), tris)


def test_trimesh_indices(backend, to_numpy):
    idx = to_numpy(iv.create_trimesh_indices_for_image((3, 4), (2,), backend=backend))
    assert idx.shape == (2, 12, 3) and idx.dtype == np.int64
    expected = []
    for y in range(2):
        for x in range(3):
            i = y * 4 + x
            expected += [[i, i + 1, i + 4], [i + 1, i + 5, i + 4]]
    np.testing.assert_array_equal(idx, np.broadcast_to(expected, (2, 12, 3)))


def test_coord_image_to_trimesh(to_native, to_numpy, rng):
    img = rng.standard_normal(BATCH + (3, 4, 3))
    mask = rng.uniform(0, 1, BATCH + (3, 4, 1)) > 0.3
    verts, idx, valid = iv.coord_image_to_trimesh(to_native(img), to_native(mask))
    np.testing.assert_array_equal(to_numpy(verts), img.reshape(BATCH + (12, 3)))
    idx, valid = to_numpy(idx), to_numpy(valid)
    assert idx.shape == BATCH + (12, 3) and valid.shape == BATCH + (12,) and valid.dtype == np.bool_
    flat_mask = mask.reshape(BATCH + (12,))
    for b in np.ndindex(*BATCH):
        np.testing.assert_array_equal(valid[b], flat_mask[b][idx[b]].all(-1))
    _, _, all_valid = iv.coord_image_to_trimesh(to_native(img))
    assert to_numpy(all_valid).all()
    with pytest.raises(ValueError, match="validity mask"):
        iv.coord_image_to_trimesh(to_native(img), to_native(mask[..., :2, :, :]))


def test_compiled_rasterize_and_trimesh(compile_check, rng):
    tris = _triangles(rng, (2,))
    img = rng.standard_normal((2, 3, 4, 3))
    mask = (rng.uniform(0, 1, (2, 3, 4, 1)) > 0.3).astype(np.float64)
    compile_check(
        lambda t, i, m: (iv.rasterize_triangles(t, (H, W)),) + iv.coord_image_to_trimesh(i, m), tris, img, mask
    )
