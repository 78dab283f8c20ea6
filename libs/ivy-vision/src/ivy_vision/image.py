"""Image helpers: tiling, gradients, resampling, random crops, float <-> uint8 bit casts.

Images are channels-last ``[..., h, w, c]``; pixel coordinates ``(x, y)`` = (column, row).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import ivy

from ._helpers import check_last_dims, check_rank_at_least, index_dtype, shape_of
from .single_view_geometry import bilinearly_interpolate_image

__all__ = [
    "bilinear_resample",
    "float_img_to_uint8_img",
    "gradient_image",
    "random_crop",
    "stack_images",
    "uint8_img_to_float_img",
]


def stack_images(images: Sequence[Any], desired_aspect_ratio: Sequence[float] = (1.0, 1.0)) -> Any:
    """Tile equally-shaped images ``[..., h, w, c]`` into one grid image, row by row.

    The grid has the number of rows and columns (enough for all images) whose overall aspect
    ratio ``(cols·w) / (rows·h)`` is closest (in log scale) to ``desired_aspect_ratio``
    ``(width, height)``; fewer rows win ties. Unused cells are zero.

    Returns:
        ``[..., rows·h, cols·w, c]``.
    """
    if not images:
        raise ValueError("stack_images: no images given")
    shape = shape_of(images[0])
    check_rank_at_least(images[0], 3, "stack_images", "images", "[..., h, w, c]")
    for img in images[1:]:
        if shape_of(img) != shape:
            raise ValueError(f"stack_images: images differ in shape: {list(shape)} and {list(shape_of(img))}")
    n = len(images)
    h, w = shape[-3:-1]
    target = float(desired_aspect_ratio[0]) / float(desired_aspect_ratio[1])
    best = min(range(1, n + 1), key=lambda r: (abs(math.log((math.ceil(n / r) * w) / (r * h) / target)), r))
    rows, cols = best, math.ceil(n / best)
    blank = ivy.zeros_like(images[0])
    cells = list(images) + [blank] * (rows * cols - n)
    grid_rows = [ivy.concat(cells[r * cols : (r + 1) * cols], axis=-2) for r in range(rows)]
    return ivy.concat(grid_rows, axis=-3)


def gradient_image(x: Any, mode: str = "forward") -> tuple[Any, Any]:
    """Spatial image gradients ``(dy, dx)``, each ``[..., h, w, c]``.

    Args:
        x: ``[..., h, w, c]``.
        mode: ``"forward"``: ``dy[y] = x[y + 1] - x[y]`` (and likewise ``dx``), 0 on the last
            row (column); ``"central"``: ``(x[y + 1] - x[y - 1]) / 2`` with the border pixels
            repeated outside the image.
    """
    check_rank_at_least(x, 3, "gradient_image", "an image", "[..., h, w, c]")
    if mode == "forward":
        dy = ivy.concat([x[..., 1:, :, :] - x[..., :-1, :, :], ivy.zeros_like(x[..., 0:1, :, :])], axis=-3)
        dx = ivy.concat([x[..., :, 1:, :] - x[..., :, :-1, :], ivy.zeros_like(x[..., :, 0:1, :])], axis=-2)
        return dy, dx
    if mode == "central":
        ypad = ivy.concat([x[..., 0:1, :, :], x, x[..., -1:, :, :]], axis=-3)
        xpad = ivy.concat([x[..., :, 0:1, :], x, x[..., :, -1:, :]], axis=-2)
        return (ypad[..., 2:, :, :] - ypad[..., :-2, :, :]) * 0.5, (xpad[..., :, 2:, :] - xpad[..., :, :-2, :]) * 0.5
    raise ValueError(f"gradient_image: unknown mode {mode!r}; use 'forward' or 'central'")


def bilinear_resample(x: Any, warp: Any) -> Any:
    """Sample images ``[..., h, w, c]`` at points ``warp`` ``[..., n, 2]`` ``(x, y)`` -> ``[..., n, c]``.

    Bilinear, with coordinates clamped to the image (border padding); as
    :func:`bilinearly_interpolate_image` for a list of points.
    """
    check_rank_at_least(warp, 2, "bilinear_resample", "warp points", "[..., n, 2]")
    return bilinearly_interpolate_image(x, warp)


def random_crop(x: Any, crop_size: Sequence[int], seed: int | None = None) -> Any:
    """A random ``crop_size`` ``(ch, cw)`` window of each image ``[..., h, w, c]`` -> ``[..., ch, cw, c]``.

    Each batch element gets its own uniformly random offset.
    """
    check_rank_at_least(x, 3, "random_crop", "images", "[..., h, w, c]")
    shape = shape_of(x)
    batch, (h, w) = shape[:-3], shape[-3:-1]
    ch, cw = (int(s) for s in crop_size)
    if not (0 < ch <= h and 0 < cw <= w):
        raise ValueError(f"random_crop: crop_size {list(crop_size)} must be positive and fit in the image ({h}, {w})")
    xp = ivy.namespace(x)
    dev = ivy.dev(x)
    oy = ivy.randint(0, h - ch + 1, batch + (1,), dtype=index_dtype(x), device=dev, seed=seed, backend=xp)
    ox = ivy.randint(
        0,
        w - cw + 1,
        batch + (1,),
        dtype=index_dtype(x),
        device=dev,
        seed=None if seed is None else seed + 1,
        backend=xp,
    )
    rows = oy + xp.arange(ch, dtype=index_dtype(x), device=dev)  # [..., ch]
    cols = ox + xp.arange(cw, dtype=index_dtype(x), device=dev)  # [..., cw]
    rows_idx = ivy.broadcast_to(ivy.reshape(rows, batch + (ch, 1, 1)), batch + (ch, w, shape[-1]))
    cropped = ivy.take_along_axis(x, rows_idx, axis=-3)
    cols_idx = ivy.broadcast_to(ivy.reshape(cols, batch + (1, cw, 1)), batch + (ch, cw, shape[-1]))
    return ivy.take_along_axis(cropped, cols_idx, axis=-2)


# ---------------------------------------------------------------------------------- bit casts
# There is no bit-cast op in the Array API, so the IEEE-754 binary32 fields are computed with
# exact float32 arithmetic (scaling by powers of two is exact) and integer arithmetic.


def _mul_pow2(x: Any, e: Any) -> Any:
    """``x · 2^e`` (exact) for integer-valued float ``e`` in ``[-128, 128]``.

    The powers come from a table of the exact ``2^k``, ``|k| <= 64``, applied in two halves, so
    that no factor is subnormal (which some backends flush to zero).
    """
    table = ivy.asarray([2.0**k for k in range(-64, 65)], dtype=x.dtype, device=ivy.dev(x), backend=ivy.namespace(x))
    half = ivy.floor(e * 0.5)
    idt = index_dtype(x)
    low = ivy.gather(table, ivy.astype(half + 64.0, idt), axis=0)
    high = ivy.gather(table, ivy.astype(e - half + 64.0, idt), axis=0)
    return x * low * high


def float_img_to_uint8_img(x: Any) -> Any:
    """Bit-cast float32 images ``[..., h, w]`` to their 4 bytes ``[..., h, w, 4]`` uint8 (little-endian).

    The bytes are those of IEEE-754 binary32 (``numpy``'s ``x.astype('<f4').view(np.uint8)``):
    lossless, e.g. to store a depth image as an RGBA PNG. NaNs become the quiet NaN
    ``0x7fc00000`` (with their sign). Inputs of other float dtypes are cast to float32 first.
    Subnormal values (below ``2^-126`` in magnitude) read as zero on backends whose CPU
    arithmetic flushes subnormals to zero (JAX's XLA, Paddle).
    """
    x = ivy.astype(x, ivy.float32)
    a = ivy.abs(x)
    sign = ivy.astype(ivy.signbit(x), ivy.int32)
    nan, inf = ivy.isnan(x), ivy.isinf(x)
    zero = ivy.equal(a, 0.0)  # exact: paddle's == operator treats tiny floats as 0
    sub = ivy.logical_and(a < 2.0**-126, ivy.logical_not(zero))
    normal = ivy.logical_not(ivy.logical_or(ivy.logical_or(nan, inf), ivy.logical_or(zero, sub)))
    safe = ivy.where(normal, a, 1.0)
    e = ivy.clip(ivy.floor(ivy.log2(safe)), -126.0, 127.0)
    # log2 may be off by one next to powers of two: fix e so that a / 2^e is in [1, 2)
    m = _mul_pow2(safe, -e)
    e = ivy.where(m >= 2.0, e + 1.0, ivy.where(m < 1.0, e - 1.0, e))
    m = _mul_pow2(safe, -e)
    zeros = ivy.zeros_like(a)
    mant_normal = (m - 1.0) * 2.0**23
    mant_sub = a * 2.0**126 * 2.0**23
    mant = ivy.where(normal, mant_normal, ivy.where(sub, mant_sub, ivy.where(nan, zeros + 2.0**22, zeros)))
    exp_field = ivy.where(normal, e + 127.0, ivy.where(ivy.logical_or(nan, inf), zeros + 255.0, zeros))
    mant = ivy.astype(mant, ivy.int32)
    exp_field = ivy.astype(exp_field, ivy.int32)
    b0 = ivy.remainder(mant, 256)
    b1 = ivy.remainder(ivy.floor_divide(mant, 256), 256)
    b2 = ivy.floor_divide(mant, 65536) + ivy.remainder(exp_field, 2) * 128
    b3 = sign * 128 + ivy.floor_divide(exp_field, 2)
    return ivy.astype(ivy.stack([b0, b1, b2, b3], axis=-1), ivy.uint8)


def uint8_img_to_float_img(x: Any) -> Any:
    """The inverse of :func:`float_img_to_uint8_img`: ``[..., h, w, 4]`` uint8 -> ``[..., h, w]`` float32."""
    check_last_dims(x, (4,), "uint8_img_to_float_img", "byte images")
    b = ivy.astype(x, ivy.int32)
    b0, b1, b2, b3 = b[..., 0], b[..., 1], b[..., 2], b[..., 3]
    sign = ivy.floor_divide(b3, 128)
    exp_field = ivy.remainder(b3, 128) * 2 + ivy.floor_divide(b2, 128)
    mant = ivy.astype(ivy.remainder(b2, 128) * 65536 + b1 * 256 + b0, ivy.float32)
    e = ivy.astype(exp_field, ivy.float32)
    frac = mant * 2.0**-23
    normal = _mul_pow2(1.0 + frac, e - 127.0)
    subnormal = frac * 2.0**-63 * 2.0**-63
    special = ivy.where(ivy.equal(mant, 0.0), ivy.full_like(frac, float("inf")), float("nan"))
    mag = ivy.where(exp_field == 0, subnormal, ivy.where(exp_field == 255, special, normal))
    # copysign, not -mag: paddle negates (and multiplies) 0.0 to +0.0
    return ivy.copysign(mag, ivy.where(sign == 1, ivy.full_like(mag, -1.0), 1.0))
