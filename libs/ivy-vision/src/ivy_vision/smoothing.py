"""Image smoothing with per-pixel weights or variances (uncertainty-aware smoothing).

Images are ``[..., h, w, c]``. A ``k x k`` window is used without padding ("VALID"), so the
results are ``[..., h - k + 1, w - k + 1, c]``; pad first (e.g. :func:`pad_omni_image`) to keep
the size.
"""

from __future__ import annotations

import math
from typing import Any

import ivy

from ._helpers import check_rank_at_least, like, safe_divide, shape_of

__all__ = ["smooth_image_fom_var_image", "weighted_image_smooth"]


def _window_sum(image: Any, kernel: Any) -> Any:
    """Depthwise "VALID" correlation of ``[..., h, w, c]`` with ``kernel`` ``[k, k, c]``."""
    shape = shape_of(image)
    batch = shape[:-3]
    flat = ivy.reshape(image, (math.prod(batch),) + shape[-3:])
    out = ivy.depthwise_conv2d(flat, kernel, 1, "VALID")
    return ivy.reshape(out, batch + shape_of(out)[1:])


def _check(mean: Any, other: Any, kernel_dim: int, fn: str, what: str) -> int:
    check_rank_at_least(mean, 3, fn, "images", "[..., h, w, c]")
    if shape_of(mean) != shape_of(other):
        raise ValueError(
            f"{fn}: the mean image {list(shape_of(mean))} and the {what} image {list(shape_of(other))} differ in shape"
        )
    k = int(kernel_dim)
    h, w = shape_of(mean)[-3:-1]
    if k < 1 or k > min(h, w):
        raise ValueError(f"{fn}: kernel_dim must be in [1, min(h, w)] = [1, {min(h, w)}], got {kernel_dim}")
    return k


def weighted_image_smooth(mean: Any, weights: Any, kernel_dim: int) -> tuple[Any, Any]:
    """Weighted box smoothing: each ``k x k`` window's weighted mean and mean weight.

    ``new_mean = Σ w m / Σ w`` (0 where ``Σ w = 0``), ``new_weights = Σ w / k²``, per channel.

    Args:
        mean: ``[..., h, w, c]`` image.
        weights: ``[..., h, w, c]`` non-negative weights.
        kernel_dim: ``k``.

    Returns:
        ``(new_mean, new_weights)``, each ``[..., h - k + 1, w - k + 1, c]``.
    """
    k = _check(mean, weights, kernel_dim, "weighted_image_smooth", "weights")
    c = shape_of(mean)[-1]
    kernel = ivy.ones((k, k, c), backend=ivy.namespace(mean), **like(mean))
    weight_sum = _window_sum(weights, kernel)
    return safe_divide(_window_sum(mean * weights, kernel), weight_sum), weight_sum / float(k * k)


def smooth_image_fom_var_image(mean: Any, var: Any, kernel_dim: int, kernel_scale: float | Any) -> tuple[Any, Any]:
    """Inverse-variance smoothing, trusting pixels less the further they are from the centre.

    Within each ``k x k`` window, a pixel at offset ``o`` from the centre counts with variance
    ``v · (1 + s |o|)`` (``s`` = ``kernel_scale``, per channel), and the window's values are
    fused by inverse-variance weighting::

        new_var  = 1 / Σ_o 1 / (v_o (1 + s |o|))
        new_mean = new_var · Σ_o m_o / (v_o (1 + s |o|))

    Args:
        mean: ``[..., h, w, c]`` image.
        var: ``[..., h, w, c]`` positive variances.
        kernel_dim: ``k`` (odd, so that the window has a centre).
        kernel_scale: ``s``, a float or ``[c]`` (>= 0).

    Returns:
        ``(new_mean, new_var)``, each ``[..., h - k + 1, w - k + 1, c]``.
    """
    fn = "smooth_image_fom_var_image"
    k = _check(mean, var, kernel_dim, fn, "variance")
    if k % 2 == 0:
        raise ValueError(f"{fn}: kernel_dim must be odd (the window needs a centre pixel), got {kernel_dim}")
    c = shape_of(mean)[-1]
    xp = ivy.namespace(mean)
    offsets = xp.arange(-(k // 2), k // 2 + 1, 1, **like(mean))
    dist = ivy.sqrt(ivy.expand_dims(offsets, axis=1) ** 2 + ivy.expand_dims(offsets, axis=0) ** 2)  # [k, k]
    scale = kernel_scale if ivy.is_native_array(kernel_scale) else float(kernel_scale)
    kernel = 1.0 / (1.0 + ivy.expand_dims(dist, axis=-1) * scale) + ivy.zeros((1, 1, c), backend=xp, **like(mean))
    recip_var = 1.0 / var
    new_var = 1.0 / _window_sum(recip_var, kernel)
    return new_var * _window_sum(mean * recip_var, kernel), new_var
