"""Implicit rendering against a NumPy NeRF ``raw2outputs`` written here, and SciPy sampling."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.ndimage import map_coordinates

import ivy
import ivy_vision as iv

BATCH = (2, 3)


def _weights_np(density, delta):
    alpha = 1.0 - np.exp(-density * delta)
    trans = np.cumprod(1.0 - alpha + 1e-10, axis=-1)
    trans = np.concatenate([np.ones_like(trans[..., :1]), trans[..., :-1]], axis=-1)
    return alpha * trans


def test_downsampled_dims():
    assert iv.downsampled_image_dims_from_desired_num_pixels((480, 640), 1200) == ((30, 40), 1200)
    assert iv.downsampled_image_dims_from_desired_num_pixels((100, 100), 50) == ((7, 7), 49)
    assert iv.downsampled_image_dims_from_desired_num_pixels((100, 100), 80, maximum=True) == ((8, 8), 64)
    assert iv.downsampled_image_dims_from_desired_num_pixels((100, 100), 80) == ((9, 9), 81)
    with pytest.raises(ValueError, match="num_pixels must be positive"):
        iv.downsampled_image_dims_from_desired_num_pixels((10, 10), 0)


def test_sampled_pixel_coords(backend, xp, to_numpy):
    centres = to_numpy(
        iv.create_sampled_pixel_coords_image((6, 8), (3, 2), BATCH, randomize=False, backend=backend, dtype="float64")
    )
    assert centres.shape == BATCH + (3, 2, 2)
    ys, xs = np.meshgrid(np.arange(3), np.arange(2), indexing="ij")
    expected = np.stack([(xs + 0.5) * 4 - 0.5, (ys + 0.5) * 2 - 0.5], -1)
    np.testing.assert_allclose(centres, np.broadcast_to(expected, centres.shape), rtol=1e-12)
    rand = iv.create_sampled_pixel_coords_image(
        (6, 8), (3, 2), BATCH, homogeneous=True, backend=backend, dtype="float64", seed=3
    )
    assert ivy.namespace(rand) is xp
    r = to_numpy(rand)
    assert r.shape == BATCH + (3, 2, 3)
    np.testing.assert_array_equal(r[..., 2], 1.0)
    # each sample lies in its own cell, and the batch elements differ
    assert np.all(np.abs(r[..., :2] - centres) < [2.0, 1.0])
    assert not np.allclose(r[0, 0], r[1, 2])
    again = to_numpy(
        iv.create_sampled_pixel_coords_image(
            (6, 8), (3, 2), BATCH, homogeneous=True, backend=backend, dtype="float64", seed=3
        )
    )
    np.testing.assert_array_equal(r, again)
    norm = to_numpy(
        iv.create_sampled_pixel_coords_image(
            (6, 8), (3, 2), randomize=False, normalized=True, backend=backend, dtype="float64"
        )
    )
    np.testing.assert_allclose(norm, expected / [8, 6], rtol=1e-12)


def test_sample_images(to_native, to_numpy, rng):
    imgs = [rng.standard_normal(BATCH + (6, 8, 3)), rng.standard_normal(BATCH + (6, 8, 1))]
    out = iv.sample_images([to_native(i) for i in imgs], 12, randomize=False)
    assert [tuple(o.shape) for o in out] == [BATCH + (3, 4, 3), BATCH + (3, 4, 1)]
    ys, xs = np.meshgrid(np.arange(3), np.arange(4), indexing="ij")
    px, py = (xs + 0.5) * 2 - 0.5, (ys + 0.5) * 2 - 0.5
    for img, o in zip(imgs, out):
        for b in np.ndindex(*BATCH):
            expected = np.stack(
                [map_coordinates(img[b][..., c], [py, px], order=1, mode="nearest") for c in range(img.shape[-1])], -1
            )
            np.testing.assert_allclose(to_numpy(o)[b], expected, rtol=1e-12, atol=1e-12)


def test_termination_probabilities_and_rendering(xp, to_native, to_numpy, rng):
    density = rng.uniform(0, 3, BATCH + (8,))
    delta = rng.uniform(0.05, 0.5, BATCH + (8,))
    occ = to_numpy(iv.sampled_volume_density_to_occupancy_probability(to_native(density), to_native(delta)))
    np.testing.assert_allclose(occ, 1 - np.exp(-density * delta), rtol=1e-12)
    w = iv.ray_termination_probabilities(to_native(density), to_native(delta))
    assert ivy.namespace(w) is xp
    np.testing.assert_allclose(to_numpy(w), _weights_np(density, delta), rtol=1e-12)
    feats = rng.standard_normal(BATCH + (8, 4))
    mean, var = iv.render_rays_via_termination_probabilities(w, to_native(feats), render_variance=True)
    wn = _weights_np(density, delta)[..., None]
    e_mean = np.sum(wn * feats, -2)
    np.testing.assert_allclose(to_numpy(mean), e_mean, rtol=1e-12)
    np.testing.assert_allclose(to_numpy(var), np.sum(wn * (feats - e_mean[..., None, :]) ** 2, -2), rtol=1e-12)
    np.testing.assert_allclose(
        to_numpy(iv.render_rays_via_termination_probabilities(w, to_native(feats))), e_mean, rtol=1e-12
    )


def test_rendering_gradients(grad_check, rng):
    density = rng.uniform(0, 3, (2, 6))
    delta = rng.uniform(0.05, 0.5, (2, 6))
    grad_check(iv.ray_termination_probabilities, density, delta, argnums=(0, 1))
    w = _weights_np(density, delta)
    grad_check(
        lambda a, f: iv.render_rays_via_termination_probabilities(a, f, render_variance=True)[1],
        w,
        rng.standard_normal((2, 6, 3)),
        argnums=(0, 1),
    )


def test_stratified_sample(xp, to_native, to_numpy, rng):
    starts = rng.uniform(0, 1, BATCH)
    ends = starts + rng.uniform(1, 2, BATCH)
    s = iv.stratified_sample(to_native(starts), to_native(ends), 16, seed=5)
    assert ivy.namespace(s) is xp and tuple(s.shape) == BATCH + (16,)
    s = to_numpy(s)
    width = ((ends - starts) / 16)[..., None]
    bin_idx = np.floor((s - starts[..., None]) / width)
    np.testing.assert_array_equal(bin_idx, np.broadcast_to(np.arange(16), s.shape))
    assert not np.allclose((s - starts[..., None]) / width - bin_idx, 0.5)  # random, not the bin centres


def _network_np(points, w_feat, centre):
    """Features ``sigmoid(p @ w_feat)`` and density ``4 exp(-|p - centre|²)``."""
    feats = 1 / (1 + np.exp(-points @ w_feat))
    density = 4 * np.exp(-np.sum((points - centre) ** 2, -1, keepdims=True))
    return feats, density


def test_render_implicit_features_and_depth(to_native, to_numpy, rng):
    rays_o = rng.uniform(-0.2, 0.2, BATCH + (3,))
    rays_d = rng.standard_normal(BATCH + (3,)) * 0.1 + [0, 0, 1]
    w_feat = rng.standard_normal((3, 2))
    centre = np.array([0.0, 0.0, 2.0])
    seen = []
    w_n, c_n = to_native(w_feat), to_native(centre)

    def network(points):
        seen.append(to_numpy(points))
        feats = ivy.sigmoid(ivy.matmul(points, w_n))
        density = 4 * ivy.exp(-ivy.sum((points - c_n) ** 2, axis=-1, keepdims=True))
        return feats, density

    feats, depth, feats_var, depth_var = iv.render_implicit_features_and_depth(
        network, to_native(rays_o), to_native(rays_d), 0.5, 4.0, 8, render_variance=True, seed=7
    )
    assert tuple(feats.shape) == BATCH + (2,) and tuple(depth.shape) == BATCH + (1,)
    points = seen[0]
    assert points.shape == BATCH + (8, 3)
    # the samples: t along each ray, in [near, far], increasing
    t = np.sum((points - rays_o[..., None, :]) * rays_d[..., None, :], -1) / np.sum(rays_d**2, -1, keepdims=True)
    np.testing.assert_allclose(points, rays_o[..., None, :] + t[..., None] * rays_d[..., None, :], atol=1e-12)
    assert np.all(np.diff(t, axis=-1) > 0) and t.min() >= 0.5 and t.max() <= 4.0
    f_np, d_np = _network_np(points, w_feat, centre)
    delta = np.concatenate([np.diff(t, axis=-1), np.full(t.shape[:-1] + (1,), 1e10)], -1)
    delta = delta * np.linalg.norm(rays_d, axis=-1, keepdims=True)
    w = _weights_np(d_np[..., 0], delta)[..., None]
    e_feats = np.sum(w * f_np, -2)
    e_depth = np.sum(w * t[..., None], -2)
    np.testing.assert_allclose(to_numpy(feats), e_feats, rtol=1e-10)
    np.testing.assert_allclose(to_numpy(depth), e_depth, rtol=1e-10)
    np.testing.assert_allclose(to_numpy(feats_var), np.sum(w * (f_np - e_feats[..., None, :]) ** 2, -2), rtol=1e-9)
    np.testing.assert_allclose(
        to_numpy(depth_var), np.sum(w * (t[..., None] - e_depth[..., None, :]) ** 2, -2), rtol=1e-9
    )
    # depth only, and timestamps reach the network as a fourth coordinate
    seen.clear()
    ts = rng.uniform(0, 1, BATCH + (1,))
    out = iv.render_implicit_features_and_depth(
        lambda p: network(p[..., :3]) if seen.append(to_numpy(p)) is None else None,
        to_native(rays_o),
        to_native(rays_d),
        0.5,
        4.0,
        8,
        timestamps=to_native(ts),
        render_feats=False,
    )
    assert out[0] is None and tuple(out[1].shape) == BATCH + (1,)
    np.testing.assert_array_equal(seen[0][..., 3], np.broadcast_to(ts, BATCH + (8,)))


def test_render_implicit_gradient(grad_check, rng):
    rays_o = rng.uniform(-0.2, 0.2, (2, 3))
    rays_d = rng.standard_normal((2, 3)) * 0.1 + [0, 0, 1]

    def render(o, d, w):
        def network(points, v):
            return ivy.sigmoid(ivy.matmul(points, v)), 3 * ivy.exp(-ivy.sum(points**2, axis=-1, keepdims=True))

        return iv.render_implicit_features_and_depth(network, o, d, 0.5, 3.0, 6, v=w, seed=2)[0]

    # fixed seed and fixed shapes: the same samples in every evaluation
    grad_check(render, rays_o, rays_d, rng.standard_normal((3, 2)), argnums=(0, 1, 2), batched=False, entries=4)


def test_compiled_rendering(compile_check, rng):
    density = rng.uniform(0, 3, (2, 3, 8))
    delta = rng.uniform(0.05, 0.5, (2, 3, 8))
    feats = rng.standard_normal((2, 3, 8, 4))
    compile_check(
        lambda d, s, f: iv.render_rays_via_termination_probabilities(
            iv.ray_termination_probabilities(d, s), f, render_variance=True
        ),
        density,
        delta,
        feats,
    )
