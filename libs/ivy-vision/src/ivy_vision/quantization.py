"""Quantization: forward warping (point splatting) of points and features into an image.

Conventions as in :mod:`ivy_vision.single_view_geometry`: pixel coordinates are ``(x, y)`` =
(column, row), integer values at pixel centres.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import ivy

from ._helpers import check_image_dims, check_last_dims, check_rank_at_least, index_dtype, like, shape_of
from .single_view_geometry import create_uniform_pixel_coords_image

__all__ = ["quantize_to_image"]


def _as_array(v: float | Any, ref: Any) -> Any:
    return v if ivy.is_native_array(v) else ivy.full_like(ref[..., 0:1], float(v))


def quantize_to_image(
    pixel_coords: Any,
    final_image_dims: Sequence[int],
    feat: Any = None,
    feat_prior: Any = None,
    with_db: bool = False,
    pixel_coords_var: float | Any = 1e-3,
    feat_var: float | Any = 1e-3,
    pixel_coords_prior_var: float | Any = 1e12,
    feat_prior_var: float | Any = 1e12,
    var_threshold: tuple[float, float] = (1e-3, 1e12),
) -> tuple[Any, Any, Any]:
    """Splat points with features into an image (forward warping), fusing those that share a pixel.

    Each point goes to the pixel nearest to it, ``(floor(x + 0.5), floor(y + 0.5))``; points
    outside the image are dropped. Each pixel fuses a prior with the points that land on it by
    inverse-variance weighting, channel by channel::

        mean = (prior / prior_var + sum_i value_i / var_i) / (1 / prior_var + sum_i 1 / var_i)
        var  = 1 / (1 / prior_var + sum_i 1 / var_i), clipped to var_threshold

    The priors are the pixel centres for the coordinates and ``feat_prior`` (default 0) for the
    features, with large default prior variances so that any point dominates. With ``with_db``
    (a depth buffer) only the point(s) of smallest depth ``feat[..., 0]`` in each pixel are fused.

    Args:
        pixel_coords: ``[..., n, 2]`` continuous pixel coordinates ``(x, y)`` of ``n`` points
            (flatten an image of them first).
        final_image_dims: ``(h, w)`` of the image.
        feat: ``[..., n, f]`` features of the points (e.g. depth and colour), or ``None``.
        feat_prior: ``[..., h, w, f]`` prior features (default zeros).
        with_db: keep only the nearest points, by depth ``feat[..., 0]`` (requires ``feat``).
        pixel_coords_var, feat_var: variances of the points' coordinates / features (floats, or
            arrays broadcastable to ``[..., n, 2]`` / ``[..., n, f]``).
        pixel_coords_prior_var, feat_prior_var: prior variances (floats, or broadcastable to
            ``[..., h, w, 2]`` / ``[..., h, w, f]``).
        var_threshold: ``(min, max)`` the fused variances are clipped to.

    Returns:
        ``(image, var, counter)``: ``image`` ``[..., h, w, 2 + f]`` the fused pixel coordinates
        and features, ``var`` ``[..., h, w, 2 + f]`` their variances and ``counter``
        ``[..., h, w, 1]`` how many points landed in each pixel (before the depth buffer).
    """
    fn = "quantize_to_image"
    h, w = check_image_dims(final_image_dims, fn)
    check_rank_at_least(pixel_coords, 2, fn, "pixel coords", "[..., n, 2]")
    check_last_dims(pixel_coords, (2,), fn, "pixel coords")
    pshape = shape_of(pixel_coords)
    batch, n = pshape[:-2], pshape[-2]
    if feat is not None:
        check_last_dims(feat, (n, None), fn, f"features (one row per point, {n} points)")
    elif with_db:
        raise ValueError(f"{fn}: with_db=True needs feat, whose first channel is the depth")
    nf = 0 if feat is None else shape_of(feat)[-1]
    nbatch = math.prod(batch)
    size = nbatch * h * w

    # nearest pixel and its flat index over all batch images; points outside go to a last
    # (dump) slot that is dropped afterwards
    rounded = ivy.floor(pixel_coords + 0.5)
    xi, yi = rounded[..., 0], rounded[..., 1]
    valid = ivy.logical_and(ivy.logical_and(xi >= 0, xi <= w - 1), ivy.logical_and(yi >= 0, yi <= h - 1))
    xi = ivy.astype(ivy.where(valid, xi, 0.0), index_dtype(pixel_coords))
    yi = ivy.astype(ivy.where(valid, yi, 0.0), index_dtype(pixel_coords))
    xp = ivy.namespace(pixel_coords)
    image_offsets = ivy.reshape(
        xp.arange(nbatch, dtype=index_dtype(pixel_coords), device=ivy.dev(pixel_coords)) * (h * w), batch + (1,)
    )
    flat_idx = ivy.where(valid, image_offsets + yi * w + xi, size)
    flat_idx = ivy.reshape(flat_idx, (nbatch * n, 1))

    weight = ivy.astype(valid, pixel_coords.dtype)
    count_weight = weight
    if with_db:
        depth = ivy.stop_gradient(feat[..., 0])
        flat_depth = ivy.reshape(depth, (nbatch * n,))
        min_depth = ivy.scatter_nd(flat_idx, flat_depth, (size + 1,), reduction="min")
        nearest = ivy.reshape(ivy.take(min_depth, flat_idx[:, 0], axis=0), shape_of(depth)) >= depth
        weight = weight * ivy.astype(nearest, pixel_coords.dtype)

    values = pixel_coords if feat is None else ivy.concat([pixel_coords, feat], axis=-1)
    var = _as_array(pixel_coords_var, pixel_coords) + ivy.zeros_like(pixel_coords)
    if feat is not None:
        var = ivy.concat([var, _as_array(feat_var, feat) + ivy.zeros_like(feat)], axis=-1)
    precision = ivy.expand_dims(weight, axis=-1) / var
    contributions = ivy.concat([values * precision, precision, ivy.expand_dims(count_weight, axis=-1)], axis=-1)
    nc = 2 + nf
    summed = ivy.scatter_nd(flat_idx, ivy.reshape(contributions, (nbatch * n, 2 * nc + 1)), (size + 1, 2 * nc + 1))
    summed = ivy.reshape(summed[0:size], batch + (h, w, 2 * nc + 1))

    prior = create_uniform_pixel_coords_image((h, w), batch, homogeneous=False, backend=xp, **like(pixel_coords))
    prior_var = _as_array(pixel_coords_prior_var, prior) + ivy.zeros_like(prior)
    if feat is not None:
        fprior = ivy.zeros(batch + (h, w, nf), backend=xp, **like(feat)) if feat_prior is None else feat_prior
        prior = ivy.concat([prior, fprior + ivy.zeros(batch + (h, w, nf), backend=xp, **like(feat))], axis=-1)
        prior_var = ivy.concat([prior_var, _as_array(feat_prior_var, fprior) + ivy.zeros_like(prior[..., 2:])], axis=-1)
    prior_precision = 1.0 / prior_var
    total_precision = summed[..., nc : 2 * nc] + prior_precision
    mean = (summed[..., 0:nc] + prior * prior_precision) / total_precision
    fused_var = ivy.clip(1.0 / total_precision, float(var_threshold[0]), float(var_threshold[1]))
    return mean, fused_var, summed[..., 2 * nc :]
