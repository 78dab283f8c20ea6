"""Image helpers against NumPy (bit casts with ``ndarray.view``), SciPy and kornia."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.ndimage import map_coordinates

import ivy
import ivy_vision as iv

BATCH = (2, 3)
H, W = 5, 6


def test_gradient_image(xp, to_native, to_numpy, rng):
    x = rng.standard_normal(BATCH + (H, W, 2))
    dy, dx = iv.gradient_image(to_native(x))
    assert ivy.namespace(dy) is xp
    e_dy = np.concatenate([np.diff(x, axis=-3), np.zeros(BATCH + (1, W, 2))], -3)
    e_dx = np.concatenate([np.diff(x, axis=-2), np.zeros(BATCH + (H, 1, 2))], -2)
    np.testing.assert_allclose(to_numpy(dy), e_dy, rtol=1e-12)
    np.testing.assert_allclose(to_numpy(dx), e_dx, rtol=1e-12)
    cy, cx = iv.gradient_image(to_native(x), mode="central")
    padded = np.pad(x, [(0, 0)] * 2 + [(1, 1), (1, 1), (0, 0)], mode="edge")
    np.testing.assert_allclose(to_numpy(cy), (padded[..., 2:, 1:-1, :] - padded[..., :-2, 1:-1, :]) / 2, rtol=1e-12)
    np.testing.assert_allclose(to_numpy(cx), (padded[..., 1:-1, 2:, :] - padded[..., 1:-1, :-2, :]) / 2, rtol=1e-12)
    with pytest.raises(ValueError, match="unknown mode"):
        iv.gradient_image(to_native(x), mode="sobel")


def test_gradient_image_vs_kornia(kornia, to_native, to_numpy, rng):
    import torch

    x = rng.standard_normal((2, H, W, 3))
    ref = kornia.filters.spatial_gradient(torch.from_numpy(x).permute(0, 3, 1, 2), mode="diff", order=1)
    ref = ref.permute(0, 3, 4, 2, 1).numpy()  # [B, C, (dx, dy), H, W] -> [B, H, W, (dx, dy), C]
    cy, cx = iv.gradient_image(to_native(x), mode="central")
    np.testing.assert_allclose(to_numpy(cx), ref[..., 0, :], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(to_numpy(cy), ref[..., 1, :], rtol=1e-12, atol=1e-12)


def test_gradient_image_gradient(grad_check, rng):
    grad_check(lambda x: iv.gradient_image(x)[1], rng.standard_normal((2, 3, 4, 2)))


def test_bilinear_resample(to_native, to_numpy, rng):
    img = rng.standard_normal(BATCH + (H, W, 2))
    warp = np.stack([rng.uniform(-1, W, BATCH + (9,)), rng.uniform(-1, H, BATCH + (9,))], -1)
    out = to_numpy(iv.bilinear_resample(to_native(img), to_native(warp)))
    assert out.shape == BATCH + (9, 2)
    for b in np.ndindex(*BATCH):
        expected = np.stack(
            [
                map_coordinates(img[b][..., c], [warp[b][:, 1], warp[b][:, 0]], order=1, mode="nearest")
                for c in range(2)
            ],
            -1,
        )
        np.testing.assert_allclose(out[b], expected, rtol=1e-12, atol=1e-12)


def test_stack_images(to_native, to_numpy, rng):
    imgs = [rng.standard_normal((2, 3, 4, 1)) for _ in range(5)]
    out = to_numpy(iv.stack_images([to_native(i) for i in imgs], (1, 1)))
    # 5 images of 3x4: 3 rows of 2 (9 x 8) is the squarest grid that holds them
    assert out.shape == (2, 9, 8, 1)
    np.testing.assert_array_equal(out[:, 0:3, 0:4], imgs[0])
    np.testing.assert_array_equal(out[:, 0:3, 4:8], imgs[1])
    np.testing.assert_array_equal(out[:, 3:6, 4:8], imgs[3])
    np.testing.assert_array_equal(out[:, 6:9, 0:4], imgs[4])
    np.testing.assert_array_equal(out[:, 6:9, 4:8], 0.0)
    wide = to_numpy(iv.stack_images([to_native(i) for i in imgs], (10, 1)))
    assert wide.shape == (2, 3, 20, 1)
    tall = to_numpy(iv.stack_images([to_native(i) for i in imgs], (1, 10)))
    assert tall.shape == (2, 15, 4, 1)
    with pytest.raises(ValueError, match="images differ in shape"):
        iv.stack_images([to_native(imgs[0]), to_native(imgs[0][..., :2, :])])


def test_random_crop(xp, to_native, to_numpy, rng):
    x = rng.standard_normal(BATCH + (H, W, 2))
    out = iv.random_crop(to_native(x), (3, 4), seed=11)
    assert ivy.namespace(out) is xp and tuple(out.shape) == BATCH + (3, 4, 2)
    out = to_numpy(out)
    offsets = set()
    for b in np.ndindex(*BATCH):
        matches = [
            (oy, ox)
            for oy in range(H - 2)
            for ox in range(W - 3)
            if np.array_equal(out[b], x[b][oy : oy + 3, ox : ox + 4])
        ]
        assert len(matches) == 1
        offsets.add(matches[0])
    assert len(offsets) > 1  # each batch element has its own offset
    with pytest.raises(ValueError, match="must be positive and fit"):
        iv.random_crop(to_native(x), (H + 1, 2))


def test_float_uint8_bit_casts(xp, to_native, to_numpy, rng):
    special = np.array(
        [
            0.0,
            -0.0,
            1.0,
            -2.5,
            2.0**-126,
            2.0**-130,
            -(2.0**-149),
            3.4e38,
            np.inf,
            -np.inf,
            0.5,
            2.0**24,
            1 - 2.0**-24,
            1.0e-38,
        ],
        dtype=np.float32,
    )
    x = np.concatenate([special, (rng.standard_normal(58) * 10.0 ** rng.integers(-30, 30, 58)).astype(np.float32)])
    x = x.reshape(8, 9)
    u8 = iv.float_img_to_uint8_img(to_native(x))
    assert ivy.namespace(u8) is xp and tuple(u8.shape) == (8, 9, 4)
    # backends whose CPU arithmetic flushes subnormals to zero (XLA, ...) see them as signed zeros
    flushes = to_numpy(to_native(np.array([2.0**-130], np.float32)) * 2.0)[0] == 0.0
    seen = np.where((np.abs(x) < 2.0**-126) & flushes, np.copysign(np.float32(0), x), x).astype(np.float32)
    expected = seen.astype("<f4").view(np.uint8).reshape(8, 9, 4)
    got = to_numpy(u8)
    assert got.dtype == np.uint8
    np.testing.assert_array_equal(got, expected)
    back = to_numpy(iv.uint8_img_to_float_img(to_native(expected)))
    assert back.dtype == np.float32
    np.testing.assert_array_equal(back.view(np.uint32), seen.view(np.uint32))
    nan = to_numpy(iv.float_img_to_uint8_img(to_native(np.array([[np.nan]], dtype=np.float32))))
    np.testing.assert_array_equal(nan[0, 0], np.array([0x7FC00000], dtype="<u4").view(np.uint8))
    assert np.isnan(to_numpy(iv.uint8_img_to_float_img(to_native(nan)))[0, 0])
