"""Forward warping (``quantize_to_image``) against NumPy splatting and a NumPy z-buffer."""

from __future__ import annotations

import numpy as np
import pytest

import ivy
import ivy_vision as iv

BATCH = (2, 3)
H, W = 4, 5
N = 40


def _splat_np(coords, feats, h, w, var_c, var_f, prior, prior_var, with_db):
    """One image: inverse-variance fusion per pixel with ``np.add.at``; z-buffer by ``np.lexsort``."""
    xi = np.floor(coords[:, 0] + 0.5).astype(int)
    yi = np.floor(coords[:, 1] + 0.5).astype(int)
    ok = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
    values = np.concatenate([coords, feats], -1)
    var = np.concatenate([np.broadcast_to(var_c, coords.shape), np.broadcast_to(var_f, feats.shape)], -1)
    counts = np.zeros((h, w))
    np.add.at(counts, (yi[ok], xi[ok]), 1)
    keep = ok.copy()
    if with_db:
        keep[:] = False
        flat = np.where(ok, yi * w + xi, -1)
        order = np.lexsort((feats[:, 0], flat))  # by pixel, then by depth
        seen = set()
        for i in order:
            if flat[i] >= 0 and flat[i] not in seen:
                seen.add(flat[i])
                keep[i] = True
    num = prior / prior_var
    den = 1.0 / prior_var + np.zeros_like(prior)
    np.add.at(num, (yi[keep], xi[keep]), values[keep] / var[keep])
    np.add.at(den, (yi[keep], xi[keep]), 1.0 / var[keep])
    return num / den, np.clip(1 / den, 1e-3, 1e12), counts[..., None]


def _inputs(rng):
    coords = np.stack([rng.uniform(-1, W, BATCH + (N,)), rng.uniform(-1, H, BATCH + (N,))], -1)
    depth = rng.uniform(1, 5, BATCH + (N, 1))
    feats = np.concatenate([depth, rng.standard_normal(BATCH + (N, 2))], -1)
    return coords, feats


@pytest.mark.parametrize("with_db", [False, True])
def test_quantize_to_image(with_db, xp, to_native, to_numpy, rng, geo):
    coords, feats = _inputs(rng)
    feat_prior = rng.standard_normal(BATCH + (H, W, 3))
    var_c = rng.uniform(0.5, 2.0, BATCH + (N, 1))
    img, var, counter = iv.quantize_to_image(
        to_native(coords),
        (H, W),
        to_native(feats),
        to_native(feat_prior),
        with_db=with_db,
        pixel_coords_var=to_native(var_c),
        feat_var=0.1,
        pixel_coords_prior_var=10.0,
        feat_prior_var=5.0,
    )
    assert ivy.namespace(img) is xp
    assert tuple(img.shape) == BATCH + (H, W, 5) and tuple(var.shape) == BATCH + (H, W, 5)
    assert tuple(counter.shape) == BATCH + (H, W, 1)
    prior_var = np.concatenate([np.full((H, W, 2), 10.0), np.full((H, W, 3), 5.0)], -1)
    for b in np.ndindex(*BATCH):
        prior = np.concatenate([geo.pixel_grid(H, W)[..., :2], feat_prior[b]], -1)
        e_img, e_var, e_count = _splat_np(coords[b], feats[b], H, W, var_c[b], 0.1, prior, prior_var, with_db)
        np.testing.assert_allclose(to_numpy(img)[b], e_img, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(to_numpy(var)[b], e_var, rtol=1e-10)
        np.testing.assert_array_equal(to_numpy(counter)[b], e_count)


def test_depth_buffer_keeps_nearest_point(to_native, to_numpy):
    """Two points on one pixel: the depth buffer keeps the nearer one's features exactly."""
    coords = np.array([[[1.1, 0.9], [0.8, 1.2], [3.0, 2.0]]])
    feats = np.array([[[4.0, 10.0], [2.0, 20.0], [3.0, 30.0]]])
    img, _, counter = iv.quantize_to_image(to_native(coords), (3, 4), to_native(feats), with_db=True)
    img, counter = to_numpy(img), to_numpy(counter)
    np.testing.assert_allclose(img[0, 1, 1, 2:], [2.0, 20.0], rtol=1e-9)
    np.testing.assert_allclose(img[0, 2, 3, 2:], [3.0, 30.0], rtol=1e-9)
    assert counter[0, 1, 1, 0] == 2 and counter[0, 0, 0, 0] == 0
    # empty pixels keep the priors: their own centre and zero features
    np.testing.assert_allclose(img[0, 0, 2], [2.0, 0.0, 0.0, 0.0], atol=1e-9)
    plain, _, _ = iv.quantize_to_image(to_native(coords), (3, 4), to_native(feats))
    np.testing.assert_allclose(to_numpy(plain)[0, 1, 1, 2:], [3.0, 15.0], rtol=1e-9)  # the mean of both


def test_pixel_coords_only(to_native, to_numpy, rng, geo):
    coords = np.stack([rng.uniform(0, W - 1, (N,)), rng.uniform(0, H - 1, (N,))], -1)
    img, var, counter = iv.quantize_to_image(to_native(coords), (H, W))
    e_img, e_var, e_count = _splat_np(
        coords, np.zeros((N, 0)), H, W, 1e-3, 1e-3, geo.pixel_grid(H, W)[..., :2], 1e12, False
    )
    np.testing.assert_allclose(to_numpy(img), e_img, rtol=1e-10)
    np.testing.assert_allclose(to_numpy(var), e_var, rtol=1e-6)
    np.testing.assert_array_equal(to_numpy(counter), e_count)


def test_quantization_errors(to_native):
    with pytest.raises(ValueError, match="with_db=True needs feat"):
        iv.quantize_to_image(to_native(np.zeros((3, 2))), (2, 2), with_db=True)
    with pytest.raises(ValueError, match="one row per point, 3 points"):
        iv.quantize_to_image(to_native(np.zeros((3, 2))), (2, 2), to_native(np.zeros((4, 1))))


@pytest.mark.parametrize("with_db", [False, True])
def test_quantization_gradients(with_db, grad_check, rng):
    coords, feats = _inputs(rng)
    coords, feats = coords[0], feats[0]
    # away from pixel borders, so that the finite differences do not move points between pixels
    coords = np.floor(coords) + rng.uniform(0.1, 0.4, coords.shape)
    grad_check(
        lambda c, f: iv.quantize_to_image(
            c,
            (H, W),
            f,
            with_db=with_db,
            pixel_coords_var=0.5,
            feat_var=0.3,
            pixel_coords_prior_var=2.0,
            feat_prior_var=3.0,
        )[0],
        coords,
        feats,
        argnums=(0, 1),
    )


def test_compiled(compile_check, rng):
    coords, feats = _inputs(rng)
    compile_check(lambda c, f: iv.quantize_to_image(c, (H, W), f, with_db=True), coords, feats)
