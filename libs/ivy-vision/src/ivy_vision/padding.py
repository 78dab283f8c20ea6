"""Padding of omnidirectional (equirectangular) images, continuing them across the wrap-around
seam and over the poles.

An equirectangular image ``[..., h, w, c]`` covers 360° of azimuth across its width and 180° of
inclination down its height.
"""

from __future__ import annotations

from typing import Any

import ivy

from ._helpers import check_rank_at_least, shape_of

__all__ = ["pad_omni_image"]


def pad_omni_image(image: Any, pad_size: int) -> Any:
    """Pad an equirectangular image by ``p = pad_size`` on every side, as the sphere continues.

    Top and bottom: the ``p`` rows next to the pole, shifted by half the width (``w // 2``
    columns: the meridian opposite) and flipped vertically, as going over the pole does. Then
    left and right: the columns of the other side (the azimuth wraps around), corners included.

    Args:
        image: ``[..., h, w, c]`` (``w`` even for an exact half-turn over the poles).
        pad_size: ``p``, with ``0 <= p <= h`` and ``p <= w``.

    Returns:
        ``[..., h + 2p, w + 2p, c]``.
    """
    check_rank_at_least(image, 3, "pad_omni_image", "an image", "[..., h, w, c]")
    h, w = shape_of(image)[-3:-1]
    p = int(pad_size)
    if p < 0 or p > h or p > w:
        raise ValueError(f"pad_omni_image: pad_size must be in [0, min(h, w)] = [0, {min(h, w)}], got {pad_size}")
    if p == 0:
        return image
    half = w // 2

    def over_pole(rows: Any) -> Any:
        shifted = ivy.concat([rows[..., half:, :], rows[..., 0:half, :]], axis=-2)
        return ivy.flip(shifted, axis=-3)

    tall = ivy.concat([over_pole(image[..., 0:p, :, :]), image, over_pole(image[..., h - p : h, :, :])], axis=-3)
    return ivy.concat([tall[..., w - p : w, :], tall, tall[..., 0:p, :]], axis=-2)
