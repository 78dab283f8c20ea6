"""Colour conversions (channels first: ``[..., 3, H, W]``)."""

import ivy

__all__ = ["rgb_to_gray"]


def rgb_to_gray(image):
    """ITU-R BT.601 luma of an RGB image ``[..., 3, H, W]`` -> ``[..., 1, H, W]``."""
    r, g, b = image[..., 0:1, :, :], image[..., 1:2, :, :], image[..., 2:3, :, :]
    return ivy.add(ivy.add(ivy.multiply(r, 0.299), ivy.multiply(g, 0.587)), ivy.multiply(b, 0.114))
