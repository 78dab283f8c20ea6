"""Projective geometry against NumPy linear algebra and kornia."""

from __future__ import annotations

import numpy as np
import pytest

import ivy
import ivy_vision as iv


def test_transform_image_of_points(xp, to_native, to_numpy, rng):
    coords = rng.standard_normal((2, 3, 4, 5, 4))
    trans = rng.standard_normal((2, 3, 3, 4))
    out = iv.transform(to_native(coords), to_native(trans))
    assert ivy.namespace(out) is xp and tuple(out.shape) == (2, 3, 4, 5, 3)
    np.testing.assert_allclose(to_numpy(out), np.einsum("abij,abhwj->abhwi", trans, coords), rtol=1e-12)
    # a matrix without batch axes applies to every vector; batch axes of size 1 broadcast
    np.testing.assert_allclose(
        to_numpy(iv.transform(to_native(coords), to_native(trans[0, 0]))),
        np.einsum("ij,abhwj->abhwi", trans[0, 0], coords),
        rtol=1e-12,
    )
    np.testing.assert_allclose(
        to_numpy(iv.transform(to_native(coords), to_native(trans[:1]))),
        np.einsum("bij,abhwj->abhwi", trans[0], coords),
        rtol=1e-12,
    )


def test_transform_errors(to_native):
    with pytest.raises(ValueError, match="cannot apply a matrix of shape"):
        iv.transform(to_native(np.ones((4, 3))), to_native(np.ones((3, 4))))
    with pytest.raises(ValueError, match="fewer leading axes"):
        iv.transform(to_native(np.ones((4,))), to_native(np.ones((2, 3, 4))))


def test_transform_vs_kornia(kornia, to_native, to_numpy, rng, geo):
    import torch

    trans = geo.homo(geo.make_camera(rng, (3,), 4, 4)["ext"])
    pts = rng.standard_normal((3, 7, 3))
    ref = kornia.geometry.linalg.transform_points(torch.from_numpy(trans), torch.from_numpy(pts)).numpy()
    pts_h = np.concatenate([pts, np.ones((3, 7, 1))], -1)
    np.testing.assert_allclose(
        to_numpy(iv.transform(to_native(pts_h), to_native(trans)))[..., :3], ref, rtol=1e-12, atol=1e-12
    )


def test_projection_matrix_inverses(to_native, to_numpy, rng, geo):
    cam = geo.make_camera(rng, (2, 3), 4, 5)
    inv = to_numpy(iv.projection_matrix_inverse(to_native(cam["full"])))
    np.testing.assert_allclose(geo.homo(inv), np.linalg.inv(geo.homo(cam["full"])), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(
        to_numpy(iv.projection_matrix_inverse(to_native(cam["ext"]))), cam["inv_ext"], atol=1e-12
    )
    pinv = to_numpy(iv.projection_matrix_pseudo_inverse(to_native(cam["full"])))
    assert pinv.shape == (2, 3, 4, 3)
    np.testing.assert_allclose(pinv, np.linalg.pinv(cam["full"]), rtol=1e-8, atol=1e-12)


def test_projection_matrix_inverse_gradients(grad_check, rng, geo):
    cam = geo.make_camera(rng, (2,), 4, 5)
    grad_check(iv.projection_matrix_inverse, cam["full"] / 5.0)
    grad_check(iv.projection_matrix_pseudo_inverse, cam["full"] / 5.0)


def test_solve_homogeneous_dlt(to_native, to_numpy, rng):
    x_true = rng.standard_normal((2, 3, 4))
    x_true /= np.linalg.norm(x_true, axis=-1, keepdims=True)
    # rows orthogonal to x_true: A x_true = 0 exactly
    a = rng.standard_normal((2, 3, 6, 4))
    a -= np.einsum("...mn,...n->...m", a, x_true)[..., None] * x_true[..., None, :]
    x = to_numpy(iv.solve_homogeneous_dlt(to_native(a)))
    assert x.shape == (2, 3, 4)
    np.testing.assert_allclose(np.abs(np.sum(x * x_true, -1)), 1.0, rtol=1e-10)
    # with noise: the smallest right singular vector (NumPy's SVD), up to sign
    noisy = a + 1e-3 * rng.standard_normal(a.shape)
    ref = np.linalg.svd(noisy)[2][..., -1, :]
    x = to_numpy(iv.solve_homogeneous_dlt(to_native(noisy)))
    np.testing.assert_allclose(np.abs(np.sum(x * ref, -1)), 1.0, rtol=1e-10)


def test_solve_homogeneous_dlt_gradient(grad_check, rng):
    # the null vector's sign is arbitrary: differentiate the sign-free x xᵀ
    a = rng.standard_normal((2, 6, 4))
    grad_check(
        lambda m: (lambda x: ivy.expand_dims(x, axis=-1) * ivy.expand_dims(x, axis=-2))(iv.solve_homogeneous_dlt(m)),
        a,
        rtol=1e-3,
        atol=1e-6,
    )
