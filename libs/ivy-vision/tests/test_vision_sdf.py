"""Signed distance functions against NumPy formulas (Inigo Quilez's box SDF) and geometry facts."""

from __future__ import annotations

import numpy as np
import pytest

import ivy
import ivy_vision as iv

BATCH = (2, 3)


def _box_sdf_np(ext, dims, q):
    """Per-box signed distances ``[..., n_q, n_c]``: box-local points, then the IQ formula."""
    local = np.einsum("...cij,...qj->...qci", ext[..., :3], q) + ext[..., None, :, :, 3]
    d = np.abs(local) - dims[..., None, :, :] / 2
    return np.linalg.norm(np.maximum(d, 0), axis=-1) + np.minimum(np.max(d, axis=-1), 0)


def _boxes(rng, geo, batch=BATCH, n=4):
    rot = geo.random_rotations(rng, batch + (n,))
    centers = rng.uniform(-2, 2, batch + (n, 3))
    ext = np.concatenate([rot, -np.einsum("...ij,...j->...i", rot, centers)[..., None]], -1)
    return ext, rng.uniform(0.3, 1.5, batch + (n, 3)), centers


def test_cuboid_signed_distances(xp, to_native, to_numpy, rng, geo):
    ext, dims, centers = _boxes(rng, geo)
    q = rng.uniform(-3, 3, BATCH + (50, 3))
    q[..., :4, :] = centers  # box centres are inside: distance -min(dims)/2
    out = iv.cuboid_signed_distances(to_native(ext), to_native(dims), to_native(q))
    assert ivy.namespace(out) is xp and tuple(out.shape) == BATCH + (50, 1)
    per_box = _box_sdf_np(ext, dims, q)
    np.testing.assert_allclose(to_numpy(out)[..., 0], per_box.min(-1), rtol=1e-12, atol=1e-12)
    all_boxes = to_numpy(
        iv.cuboid_signed_distances(to_native(ext), to_native(dims), to_native(q), min_over_cuboids=False)
    )
    np.testing.assert_allclose(all_boxes, per_box, rtol=1e-12, atol=1e-12)
    idx = np.arange(4)
    np.testing.assert_allclose(all_boxes[..., idx, idx], -dims.min(-1) / 2, rtol=1e-12)


def test_cuboid_distance_facts(to_native, to_numpy):
    """An axis-aligned unit cube at the origin: exact distances to a face, an edge and a corner."""
    ext = np.concatenate([np.eye(3), np.zeros((3, 1))], -1)[None]
    dims = np.ones((1, 3))
    q = np.array([[2.0, 0, 0], [1.5, 1.5, 0], [1.5, 1.5, 1.5], [0.25, 0, 0], [0.5, 0.2, 0.1]])
    out = to_numpy(iv.cuboid_signed_distances(to_native(ext), to_native(dims), to_native(q)))[..., 0]
    np.testing.assert_allclose(out, [1.5, np.sqrt(2), np.sqrt(3), -0.25, 0.0], atol=1e-12)


def test_sphere_signed_distances(to_native, to_numpy, rng):
    pos = rng.uniform(-2, 2, BATCH + (5, 3))
    radii = rng.uniform(0.2, 1.0, BATCH + (5, 1))
    q = rng.uniform(-3, 3, BATCH + (40, 3))
    out = to_numpy(iv.sphere_signed_distances(to_native(pos), to_native(radii), to_native(q)))
    expected = (np.linalg.norm(q[..., :, None, :] - pos[..., None, :, :], axis=-1) - radii[..., None, :, 0]).min(-1)
    assert out.shape == BATCH + (40, 1)
    np.testing.assert_allclose(out[..., 0], expected, rtol=1e-12, atol=1e-12)


def test_primitive_scene(to_native, to_numpy, rng, geo):
    ext, dims, _ = _boxes(rng, geo)
    pos = rng.uniform(-2, 2, BATCH + (3, 3))
    radii = rng.uniform(0.2, 1.0, BATCH + (3, 1))
    q = rng.uniform(-3, 3, BATCH + (30, 3))
    scene = iv.PrimitiveScene(to_native(pos), to_native(radii), to_native(ext), to_native(dims))
    assert isinstance(scene, ivy.Container)
    spheres = (np.linalg.norm(q[..., :, None, :] - pos[..., None, :, :], axis=-1) - radii[..., None, :, 0]).min(-1)
    expected = np.minimum(spheres, _box_sdf_np(ext, dims, q).min(-1))
    np.testing.assert_allclose(to_numpy(scene.sdf(to_native(q)))[..., 0], expected, rtol=1e-12, atol=1e-12)
    only_spheres = iv.PrimitiveScene(sphere_positions=to_native(pos), sphere_radii=to_native(radii))
    np.testing.assert_allclose(to_numpy(only_spheres.sdf(to_native(q)))[..., 0], spheres, rtol=1e-12)
    only_boxes = iv.PrimitiveScene(cuboid_ext_mats=to_native(ext), cuboid_dims=to_native(dims))
    np.testing.assert_allclose(
        to_numpy(only_boxes.sdf(to_native(q)))[..., 0], _box_sdf_np(ext, dims, q).min(-1), rtol=1e-12, atol=1e-12
    )
    with pytest.raises(ValueError, match="the scene is empty"):
        iv.PrimitiveScene()
    with pytest.raises(ValueError, match="give both sphere_positions and sphere_radii"):
        iv.PrimitiveScene(sphere_positions=to_native(pos))


def test_sdf_errors(to_native):
    with pytest.raises(ValueError, match="3 cuboid matrices but 2 cuboid dimensions"):
        iv.cuboid_signed_distances(
            to_native(np.ones((3, 3, 4))), to_native(np.ones((2, 3))), to_native(np.ones((5, 3)))
        )
    with pytest.raises(ValueError, match=r"expected query positions of shape \[\.\.\., \*, 3\]"):
        iv.sphere_signed_distances(to_native(np.ones((3, 3))), to_native(np.ones((3, 1))), to_native(np.ones((5, 2))))


def test_sdf_gradients(grad_check, rng, geo):
    ext, dims, _ = _boxes(rng, geo, (2,), 3)
    q = rng.uniform(-3, 3, (2, 6, 3))
    grad_check(iv.cuboid_signed_distances, ext, dims, q, argnums=(0, 1, 2))
    pos = rng.uniform(-2, 2, (2, 3, 3))
    radii = rng.uniform(0.2, 1.0, (2, 3, 1))
    grad_check(iv.sphere_signed_distances, pos, radii, q, argnums=(0, 1, 2))


def test_sdf_gradient_inside_box_is_finite(autodiff, to_native, to_numpy):
    """Inside a box (where max(d, 0) = 0) the gradient is the face normal, not NaN."""
    ext = to_native(np.concatenate([np.eye(3), np.zeros((3, 1))], -1)[None])
    dims = to_native(np.ones((1, 3)))
    q = to_native(np.array([[0.3, 0.1, 0.0]]))
    g = to_numpy(ivy.grad(lambda p: ivy.sum(iv.cuboid_signed_distances(ext, dims, p)))(q))
    np.testing.assert_allclose(g, [[1.0, 0.0, 0.0]], atol=1e-12)


def test_compiled_scene_sdf(compile_check, rng, geo):
    ext, dims, _ = _boxes(rng, geo, (2,), 3)
    pos = rng.uniform(-2, 2, (2, 3, 3))
    radii = rng.uniform(0.2, 1.0, (2, 3, 1))

    def scene_sdf(p, r, e, d, q):
        return iv.PrimitiveScene(p, r, e, d).sdf(q)

    compile_check(scene_sdf, pos, radii, ext, dims, rng.uniform(-3, 3, (2, 10, 3)))
