"""Positions: polar <-> cartesian coordinates and homogeneous coordinates, against NumPy formulas."""

from __future__ import annotations

import numpy as np
import pytest

import ivy
import ivy_mech

BATCH = (2, 3, 4)


def _numpy_polar(xyz: np.ndarray) -> np.ndarray:
    x, y, z = xyz[..., 0], xyz[..., 1], xyz[..., 2]
    r = np.sqrt(x * x + y * y + z * z)
    return np.stack([np.arctan2(y, x), np.arccos(z / r), r], axis=-1)


def test_cartesian_to_polar_matches_numpy(backend, to_native, to_numpy, rng):
    xyz = rng.normal(size=BATCH + (3,))
    polar = ivy_mech.cartesian_to_polar_coords(to_native(xyz))
    assert ivy.is_native_array(polar)
    assert tuple(polar.shape) == BATCH + (3,)
    np.testing.assert_allclose(to_numpy(polar), _numpy_polar(xyz), rtol=1e-12, atol=1e-12)


def test_polar_to_cartesian_matches_numpy(backend, to_native, to_numpy, rng):
    polar = np.stack(
        [rng.uniform(-np.pi, np.pi, BATCH), rng.uniform(0, np.pi, BATCH), rng.uniform(0.1, 5, BATCH)], axis=-1
    )
    phi, theta, r = polar[..., 0], polar[..., 1], polar[..., 2]
    expected = np.stack([r * np.sin(theta) * np.cos(phi), r * np.sin(theta) * np.sin(phi), r * np.cos(theta)], -1)
    out = ivy_mech.polar_to_cartesian_coords(to_native(polar))
    assert tuple(out.shape) == BATCH + (3,)
    np.testing.assert_allclose(to_numpy(out), expected, rtol=1e-12, atol=1e-12)
    # round trip back to the polar coordinates (all in the principal ranges)
    back = ivy_mech.cartesian_to_polar_coords(out)
    np.testing.assert_allclose(to_numpy(back), polar, rtol=1e-10, atol=1e-10)


def test_polar_float32_keeps_dtype(backend, to_native, to_numpy, rng):
    xyz = rng.normal(size=(5, 3)).astype(np.float32)
    polar = ivy_mech.cartesian_to_polar_coords(to_native(xyz))
    assert to_numpy(polar).dtype == np.float32
    np.testing.assert_allclose(to_numpy(polar), _numpy_polar(xyz.astype(np.float64)), rtol=1e-5, atol=1e-5)


def test_polar_singular_points_are_finite(backend, to_native, to_numpy):
    xyz = np.array([[0.0, 0.0, 0.0], [0.0, 0.0, 2.0], [0.0, 0.0, -3.0]])
    polar = to_numpy(ivy_mech.cartesian_to_polar_coords(to_native(xyz)))
    np.testing.assert_allclose(polar, [[0.0, 0.0, 0.0], [0.0, 0.0, 2.0], [0.0, np.pi, 3.0]], atol=1e-15)


def test_polar_coordinate_gradients(check_gradient, rng):
    check_gradient(ivy_mech.cartesian_to_polar_coords, rng.normal(size=(2, 3)))
    polar = np.stack([rng.uniform(-3, 3, 4), rng.uniform(0.1, 3, 4), rng.uniform(0.5, 2, 4)], axis=-1)
    check_gradient(ivy_mech.polar_to_cartesian_coords, polar.reshape(2, 2, 3))


def test_cartesian_to_polar_gradient_at_singular_points_is_finite(gradient, to_native, to_numpy):
    points = to_native(np.array([[0.0, 0.0, 0.0], [0.0, 0.0, 2.0]]))
    grad = to_numpy(gradient(ivy_mech.cartesian_to_polar_coords)(points))
    assert np.all(np.isfinite(grad))


def test_make_coordinates_homogeneous(backend, to_native, to_numpy, rng):
    for n in (2, 3):
        coords = rng.normal(size=BATCH + (n,))
        out = ivy_mech.make_coordinates_homogeneous(to_native(coords))
        assert ivy.is_native_array(out)
        expected = np.concatenate([coords, np.ones(BATCH + (1,))], axis=-1)
        np.testing.assert_array_equal(to_numpy(out), expected)


def test_make_transformation_homogeneous(backend, to_native, to_numpy, rng):
    mats = rng.normal(size=BATCH + (3, 4)).astype(np.float32)
    out = to_numpy(ivy_mech.make_transformation_homogeneous(to_native(mats)))
    assert out.shape == BATCH + (4, 4) and out.dtype == np.float32
    np.testing.assert_array_equal(out[..., :3, :], mats)
    np.testing.assert_array_equal(out[..., 3, :], np.broadcast_to([0, 0, 0, 1], BATCH + (4,)))
    # the homogeneous transform applied to a homogeneous point is R p + t
    p = rng.normal(size=BATCH + (3,)).astype(np.float32)
    hp = to_numpy(ivy_mech.make_coordinates_homogeneous(to_native(p)))
    moved = np.einsum("...ij,...j->...i", out, hp)
    expected = np.einsum("...ij,...j->...i", mats[..., :3], p) + mats[..., 3]
    np.testing.assert_allclose(moved[..., :3], expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(moved[..., 3], 1.0)


def test_position_bad_shapes_raise(backend, to_native):
    with pytest.raises(ValueError, match=r"cartesian_to_polar_coords.*\[\.\.\., 3\].*\[2, 4\]"):
        ivy_mech.cartesian_to_polar_coords(to_native(np.zeros((2, 4))))
    with pytest.raises(ValueError, match=r"polar_to_cartesian_coords.*\[\.\.\., 3\]"):
        ivy_mech.polar_to_cartesian_coords(to_native(np.zeros((2,))))
    with pytest.raises(ValueError, match=r"make_transformation_homogeneous.*\[\.\.\., 3, 4\].*\[4, 4\]"):
        ivy_mech.make_transformation_homogeneous(to_native(np.zeros((4, 4))))
    with pytest.raises(ValueError, match=r"make_coordinates_homogeneous.*0-d"):
        ivy_mech.make_coordinates_homogeneous(to_native(np.array(1.0)))
