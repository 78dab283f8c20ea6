"""Smoothing and omni-image padding against NumPy loops written here."""

from __future__ import annotations

import numpy as np
import pytest

import ivy
import ivy_vision as iv

BATCH = (2, 3)
H, W = 6, 8


def _windows(img, k):
    """``[..., h-k+1, w-k+1, k, k, c]`` windows of ``img``."""
    h, w = img.shape[-3:-1]
    return np.stack(
        [np.stack([img[..., y : y + k, x : x + k, :] for x in range(w - k + 1)], -4) for y in range(h - k + 1)], -5
    )


def test_weighted_image_smooth(xp, to_native, to_numpy, rng):
    mean = rng.standard_normal(BATCH + (H, W, 2))
    weights = rng.uniform(0, 1, BATCH + (H, W, 2))
    weights[0, 0, :3, :3] = 0.0  # a window with no weight at all
    new_mean, new_w = iv.weighted_image_smooth(to_native(mean), to_native(weights), 3)
    assert ivy.namespace(new_mean) is xp and tuple(new_mean.shape) == BATCH + (H - 2, W - 2, 2)
    wm, ww = _windows(mean, 3), _windows(weights, 3)
    wsum = ww.sum(axis=(-3, -2))
    expected = np.where(wsum > 0, (wm * ww).sum(axis=(-3, -2)) / np.where(wsum > 0, wsum, 1), 0.0)
    np.testing.assert_allclose(to_numpy(new_mean), expected, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(to_numpy(new_w), wsum / 9, rtol=1e-12)
    assert np.all(to_numpy(new_mean)[0, 0, 0, 0] == 0.0)


def test_smooth_image_fom_var_image(to_native, to_numpy, rng):
    mean = rng.standard_normal(BATCH + (H, W, 2))
    var = rng.uniform(0.1, 2, BATCH + (H, W, 2))
    scale = np.array([0.5, 2.0])
    new_mean, new_var = iv.smooth_image_fom_var_image(to_native(mean), to_native(var), 3, to_native(scale))
    off = np.arange(-1, 2)
    dist = np.sqrt(off[:, None] ** 2 + off[None, :] ** 2)[..., None]  # [k, k, 1]
    eff_var = _windows(var, 3) * (1 + dist * scale)
    e_var = 1 / (1 / eff_var).sum(axis=(-3, -2))
    e_mean = e_var * (_windows(mean, 3) / eff_var).sum(axis=(-3, -2))
    np.testing.assert_allclose(to_numpy(new_var), e_var, rtol=1e-10)
    np.testing.assert_allclose(to_numpy(new_mean), e_mean, rtol=1e-10)
    # a float scale is the same for every channel
    m2, _ = iv.smooth_image_fom_var_image(to_native(mean), to_native(var), 3, 0.5)
    np.testing.assert_allclose(to_numpy(m2)[..., 0], e_mean[..., 0], rtol=1e-10)
    with pytest.raises(ValueError, match="kernel_dim must be odd"):
        iv.smooth_image_fom_var_image(to_native(mean), to_native(var), 2, 0.5)


def test_smoothing_gradients(grad_check, rng):
    mean = rng.standard_normal((2, 4, 5, 2))
    var = rng.uniform(0.1, 2, (2, 4, 5, 2))
    grad_check(lambda m, v: iv.smooth_image_fom_var_image(m, v, 3, 0.5)[0], mean, var, argnums=(0, 1))
    grad_check(lambda m, w: iv.weighted_image_smooth(m, w, 3)[0], mean, var, argnums=(0, 1))


def _pad_omni_np(img, p):
    h, w = img.shape[-3:-1]
    top = np.flip(np.roll(img[..., :p, :, :], -(w // 2), axis=-2), axis=-3)
    bottom = np.flip(np.roll(img[..., h - p :, :, :], -(w // 2), axis=-2), axis=-3)
    tall = np.concatenate([top, img, bottom], -3)
    return np.concatenate([tall[..., -p:, :], tall, tall[..., :p, :]], -2)


def test_pad_omni_image(to_native, to_numpy, rng):
    img = rng.standard_normal(BATCH + (H, W, 3))
    out = to_numpy(iv.pad_omni_image(to_native(img), 2))
    assert out.shape == BATCH + (H + 4, W + 4, 3)
    np.testing.assert_array_equal(out, _pad_omni_np(img, 2))
    # the row above the top row is the top row seen from the opposite meridian
    np.testing.assert_array_equal(out[..., 1, 2:-2, :], np.roll(img[..., 0, :, :], -(W // 2), axis=-2))
    np.testing.assert_array_equal(to_numpy(iv.pad_omni_image(to_native(img), 0)), img)
    with pytest.raises(ValueError, match="pad_size must be in"):
        iv.pad_omni_image(to_native(img), H + 1)


def test_compiled_smoothing(compile_check, rng):
    img = rng.standard_normal((2, H, W, 2))
    var = rng.uniform(0.1, 2, (2, H, W, 2))
    compile_check(
        lambda m, v: iv.smooth_image_fom_var_image(iv.pad_omni_image(m, 1), iv.pad_omni_image(v, 1), 3, 0.5), img, var
    )


def test_pad_omni_image_gradient(grad_check, rng):
    grad_check(lambda x: iv.pad_omni_image(x, 2), rng.standard_normal((2, 4, 6, 2)))
