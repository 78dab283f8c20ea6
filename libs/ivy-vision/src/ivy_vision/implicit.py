"""Implicit rendering (NeRF): pixel sampling, stratified ray sampling, volume rendering.

Volume rendering follows NeRF (Mildenhall et al., 2020): along a ray with samples ``t_i``, a
density ``σ_i`` over a segment of length ``δ_i`` gives the occupancy ``α_i = 1 - exp(-σ_i δ_i)``,
the ray terminates at sample ``i`` with probability ``w_i = α_i Π_{j<i} (1 - α_j + 1e-10)``, and a
rendered quantity is ``Σ_i w_i f_i``. Samples lie on the last axis: ``[..., n_samples]``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import ivy

from ._helpers import (
    as_batch_shape,
    check_image_dims,
    check_last_dims,
    check_rank_at_least,
    creation_namespace,
    like,
    shape_of,
)
from .single_view_geometry import bilinearly_interpolate_image

__all__ = [
    "create_sampled_pixel_coords_image",
    "downsampled_image_dims_from_desired_num_pixels",
    "ray_termination_probabilities",
    "render_implicit_features_and_depth",
    "render_rays_via_termination_probabilities",
    "sample_images",
    "sampled_volume_density_to_occupancy_probability",
    "stratified_sample",
]


def downsampled_image_dims_from_desired_num_pixels(
    image_dims: Sequence[int], num_pixels: int, maximum: bool = False
) -> tuple[tuple[int, int], int]:
    """Image dims of the same aspect ratio with about ``num_pixels`` pixels.

    Both sides are scaled by ``sqrt(num_pixels / (h w))`` and rounded to the nearest int (at
    least 1); with ``maximum`` rounded down instead, so that there are at most ``num_pixels``
    pixels (but at least 1 per side).

    Returns:
        ``((h', w'), h' w')``.
    """
    h, w = check_image_dims(image_dims, "downsampled_image_dims_from_desired_num_pixels")
    if num_pixels <= 0:
        raise ValueError(
            f"downsampled_image_dims_from_desired_num_pixels: num_pixels must be positive, got {num_pixels}"
        )
    scale = math.sqrt(num_pixels / (h * w))
    rnd = math.floor if maximum else round
    dims = (max(1, int(rnd(h * scale))), max(1, int(rnd(w * scale))))
    return dims, dims[0] * dims[1]


def create_sampled_pixel_coords_image(
    image_dims: Sequence[int],
    samples_per_dim: Sequence[int],
    batch_shape: Sequence[int] | None = None,
    normalized: bool = False,
    randomize: bool = True,
    homogeneous: bool = False,
    *,
    dtype: Any = None,
    device: Any = None,
    backend: Any = None,
    seed: int | None = None,
) -> Any:
    """Pixel coordinates sampled on a coarser grid: one sample in each cell.

    The image (extent ``[-0.5, w - 0.5] x [-0.5, h - 0.5]`` in pixel coordinates) is split into
    ``h' x w'`` equal cells; each cell gives its centre, or with ``randomize`` a uniformly random
    point of it (independently for each batch element).

    Args:
        image_dims: ``(h, w)`` of the full image.
        samples_per_dim: ``(h', w')``.
        batch_shape: leading batch axes.
        normalized: divide ``x`` by ``w`` and ``y`` by ``h``.
        randomize: random points in the cells (default) or the cell centres.
        homogeneous: append a 1 (``[..., h', w', 3]``).
        dtype, device, backend, seed: of the created array (``seed`` for ``randomize``).

    Returns:
        ``[*batch_shape, h', w', 2]`` (or ``3``) continuous ``(x, y)`` pixel coordinates.
    """
    fn = "create_sampled_pixel_coords_image"
    h, w = check_image_dims(image_dims, fn)
    sh, sw = check_image_dims(samples_per_dim, fn)
    xp = creation_namespace(backend)
    batch = as_batch_shape(batch_shape)
    ys = xp.arange(0.0, float(sh), 1.0, dtype=dtype, device=device)
    xs = xp.arange(0.0, float(sw), 1.0, dtype=dtype, device=device)
    grid_y, grid_x = xp.meshgrid(ys, xs, indexing="ij")
    cells = xp.stack([grid_x, grid_y], axis=-1)
    offset = 0.5
    if randomize:
        offset = ivy.random_uniform(shape=batch + (sh, sw, 2), dtype=cells.dtype, device=device, seed=seed, backend=xp)
    scale = xp.asarray([w / sw, h / sh], dtype=cells.dtype, device=device)
    coords = (cells + offset) * scale - 0.5
    if normalized:
        coords = coords / xp.asarray([float(w), float(h)], dtype=cells.dtype, device=device)
    coords = xp.broadcast_to(coords, batch + (sh, sw, 2))
    if homogeneous:
        coords = xp.concat([coords, xp.ones_like(coords[..., 0:1])], axis=-1)
    return coords


def sample_images(
    images: Sequence[Any], num_pixels: int, randomize: bool = True, maximum: bool = True, seed: int | None = None
) -> list[Any]:
    """Sample several aligned images ``[..., h, w, c_k]`` at the same ~``num_pixels`` points.

    The points come from :func:`create_sampled_pixel_coords_image` on the grid of
    :func:`downsampled_image_dims_from_desired_num_pixels`; each image is read bilinearly.

    Returns:
        A list of ``[..., h', w', c_k]``, one per image.
    """
    if not images:
        raise ValueError("sample_images: no images given")
    for img in images:
        check_rank_at_least(img, 3, "sample_images", "images", "[..., h, w, c]")
    shape = shape_of(images[0])
    for img in images[1:]:
        if shape_of(img)[:-1] != shape[:-1]:
            raise ValueError(
                f"sample_images: images of shapes {list(shape)} and {list(shape_of(img))} differ "
                "before the channel axis"
            )
    dims, _ = downsampled_image_dims_from_desired_num_pixels(shape[-3:-1], num_pixels, maximum)
    coords = create_sampled_pixel_coords_image(
        shape[-3:-1],
        dims,
        shape[:-3],
        randomize=randomize,
        backend=ivy.namespace(images[0]),
        seed=seed,
        **like(images[0]),
    )
    return [bilinearly_interpolate_image(img, coords) for img in images]


def sampled_volume_density_to_occupancy_probability(density: Any, inter_sample_distance: Any) -> Any:
    """Occupancy probability ``α = 1 - exp(-σ δ)`` of segments with density ``σ`` and length ``δ``."""
    return 1.0 - ivy.exp(-density * inter_sample_distance)


def ray_termination_probabilities(density: Any, inter_sample_distance: Any) -> Any:
    """Probability ``w_i = α_i Π_{j<i} (1 - α_j + 1e-10)`` that a ray stops at sample ``i``.

    Args:
        density: ``[..., n]`` volume densities ``σ`` at the samples.
        inter_sample_distance: ``[..., n]`` segment lengths ``δ``.

    Returns:
        ``[..., n]``.
    """
    alpha = sampled_volume_density_to_occupancy_probability(density, inter_sample_distance)
    transmittance = ivy.cumprod(1.0 - alpha + 1e-10, axis=-1, exclusive=True)
    return alpha * transmittance


def stratified_sample(starts: Any, ends: Any, num_samples: int, seed: int | None = None) -> Any:
    """One uniform sample in each of ``num_samples`` equal bins between ``starts`` and ``ends``.

    Args:
        starts, ends: ``[...]`` interval bounds.
        num_samples: bins per interval.
        seed: for the random numbers.

    Returns:
        ``[..., num_samples]``, increasing along the last axis.
    """
    starts, ends = ivy.broadcast_arrays(starts, ends)
    shape = shape_of(starts)
    xp = ivy.namespace(starts)
    bins = xp.arange(0.0, float(num_samples), 1.0, **like(starts))
    u = ivy.random_uniform(shape=shape + (num_samples,), seed=seed, backend=xp, **like(starts))
    width = (ends - starts) / float(num_samples)
    return ivy.expand_dims(starts, axis=-1) + (bins + u) * ivy.expand_dims(width, axis=-1)


def render_rays_via_termination_probabilities(ray_term_probs: Any, features: Any, render_variance: bool = False) -> Any:
    """Expected feature ``Σ_i w_i f_i`` ``[..., f]`` of rays, from termination probabilities.

    Args:
        ray_term_probs: ``[..., n]`` the ``w_i``.
        features: ``[..., n, f]`` features at the samples.
        render_variance: also return the variance ``Σ_i w_i (f_i - mean)²`` ``[..., f]``.

    Returns:
        The mean ``[..., f]``, or ``(mean, variance)``.
    """
    check_last_dims(
        features,
        (shape_of(ray_term_probs)[-1], None),
        "render_rays_via_termination_probabilities",
        "features (one row per sample)",
    )
    weights = ivy.expand_dims(ray_term_probs, axis=-1)
    mean = ivy.sum(weights * features, axis=-2)
    if not render_variance:
        return mean
    var = ivy.sum(weights * (features - ivy.expand_dims(mean, axis=-2)) ** 2, axis=-2)
    return mean, var


def render_implicit_features_and_depth(
    network_fn: Callable[..., tuple[Any, Any]],
    rays_o: Any,
    rays_d: Any,
    near: float | Any,
    far: float | Any,
    samples_per_ray: int,
    timestamps: Any = None,
    render_depth: bool = True,
    render_feats: bool = True,
    render_variance: bool = False,
    inter_feat_fn: Callable[[Any], Any] | None = None,
    v: Any = None,
    seed: int | None = None,
) -> tuple[Any, ...]:
    """Render features and depth of rays through an implicit network (NeRF volume rendering).

    Each ray gets ``samples_per_ray`` stratified samples ``t`` between ``near`` and ``far``; the
    network is queried at ``o + t d``; the last segment is 1e10 long (NeRF), and segment lengths
    are scaled by ``|d|`` (so depths are distances along ``d`` in units of ``|d|``).

    Args:
        network_fn: ``network_fn(points)`` (or ``network_fn(points, v=v)`` when ``v`` is given),
            ``points`` ``[..., n, 3]`` (``[..., n, 4]`` with timestamps), returning
            ``(features [..., n, f], densities [..., n, 1] or [..., n])``.
        rays_o: ``[..., 3]`` ray origins.
        rays_d: ``[..., 3]`` ray directions.
        near, far: floats or ``[...]`` arrays: the sampled range of ``t``.
        samples_per_ray: ``n``.
        timestamps: ``[..., 1]`` times appended to every query point, or ``None``.
        render_depth, render_feats: what to render (the other is returned as ``None``).
        render_variance: also return the variances.
        inter_feat_fn: applied to the network's features before rendering (e.g. a sigmoid).
        v: variables passed on to ``network_fn``.
        seed: for the stratified samples.

    Returns:
        ``(features [..., f], depth [..., 1])``; with ``render_variance``
        ``(features, depth, features_var, depth_var)``.
    """
    fn = "render_implicit_features_and_depth"
    check_last_dims(rays_o, (3,), fn, "ray origins")
    check_last_dims(rays_d, (3,), fn, "ray directions")
    rays_o, rays_d = ivy.broadcast_arrays(rays_o, rays_d)
    zero = ivy.zeros_like(rays_o[..., 0])
    starts = near + zero
    ends = far + zero
    t = stratified_sample(starts, ends, samples_per_ray, seed=seed)  # [..., n]
    points = ivy.expand_dims(rays_o, axis=-2) + ivy.expand_dims(t, axis=-1) * ivy.expand_dims(rays_d, axis=-2)
    if timestamps is not None:
        check_last_dims(timestamps, (1,), fn, "timestamps")
        points = ivy.concat([points, ivy.expand_dims(timestamps, axis=-2) + ivy.zeros_like(points[..., 0:1])], axis=-1)
    feats, densities = network_fn(points) if v is None else network_fn(points, v=v)
    if len(shape_of(densities)) == len(shape_of(points)):
        densities = densities[..., 0]
    if inter_feat_fn is not None:
        feats = inter_feat_fn(feats)
    last = ivy.full_like(t[..., 0:1], 1e10)
    deltas = ivy.concat([t[..., 1:] - t[..., :-1], last], axis=-1)
    deltas = deltas * ivy.linalg.vector_norm(rays_d, axis=-1, keepdims=True)
    weights = ray_termination_probabilities(densities, deltas)
    out_feats = render_rays_via_termination_probabilities(weights, feats, render_variance) if render_feats else None
    out_depth = (
        render_rays_via_termination_probabilities(weights, ivy.expand_dims(t, axis=-1), render_variance)
        if render_depth
        else None
    )
    if not render_variance:
        return out_feats, out_depth
    feats_mean, feats_var = out_feats if out_feats is not None else (None, None)
    depth_mean, depth_var = out_depth if out_depth is not None else (None, None)
    return feats_mean, depth_mean, feats_var, depth_var
