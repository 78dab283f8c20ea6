"""Intrinsics of a pinhole camera: focal lengths <-> perspective angles, and the calibration
matrix ``K`` (and its closed-form inverse). A module of its own below ``single_view_geometry``
(which exports the public ones) and ``_camera_objects`` (whose builders use them)."""

from __future__ import annotations

from typing import Any

import ivy

from ._helpers import check_image_dims, check_last_dims, like

__all__ = [
    "focal_lengths_and_pp_offsets_to_calib_mat",
    "focal_lengths_to_persp_angles",
    "persp_angles_to_focal_lengths",
]


def _image_dims_wh(image_dims: Any) -> Any:
    """``(w, h)`` from ``image_dims`` ``(h, w)``: a tuple of floats, or a flipped array."""
    if ivy.is_native_array(image_dims):
        return ivy.flip(image_dims, axis=-1)
    h, w = check_image_dims(image_dims, "focal lengths <-> perspective angles")
    return (float(w), float(h))


def persp_angles_to_focal_lengths(persp_angles: Any, image_dims: Any) -> Any:
    """Fields of view ``[..., 2]`` (horizontal, vertical; radians) -> focal lengths ``[..., 2]``.

    ``f = (size / 2) / tan(angle / 2)`` with ``size`` the image width (for ``fx``) or height
    (``fy``) in pixels, from ``image_dims`` ``(h, w)`` (ints or an array ``[..., 2]``). Focal
    lengths are positive (the original library returned them negated, a simulator's convention).
    """
    check_last_dims(persp_angles, (2,), "persp_angles_to_focal_lengths", "perspective angles")
    wh = _image_dims_wh(image_dims)
    if isinstance(wh, tuple):
        wh = ivy.asarray(wh, **like(persp_angles), backend=ivy.namespace(persp_angles))
    return (wh * 0.5) / ivy.tan(persp_angles * 0.5)


def focal_lengths_to_persp_angles(focal_lengths: Any, image_dims: Any) -> Any:
    """Focal lengths ``[..., 2]`` ``(fx, fy)`` in pixels -> fields of view ``[..., 2]`` (radians).

    ``angle = 2 atan((size / 2) / f)``, the inverse of :func:`persp_angles_to_focal_lengths`.
    """
    check_last_dims(focal_lengths, (2,), "focal_lengths_to_persp_angles", "focal lengths")
    wh = _image_dims_wh(image_dims)
    if isinstance(wh, tuple):
        wh = ivy.asarray(wh, **like(focal_lengths), backend=ivy.namespace(focal_lengths))
    return 2.0 * ivy.atan((wh * 0.5) / focal_lengths)


def focal_lengths_and_pp_offsets_to_calib_mat(focal_lengths: Any, pp_offsets: Any) -> Any:
    """``K = [[fx, 0, px], [0, fy, py], [0, 0, 1]]`` ``[..., 3, 3]`` from ``(fx, fy)`` and ``(px, py)`` ``[..., 2]``."""
    fn = "focal_lengths_and_pp_offsets_to_calib_mat"
    check_last_dims(focal_lengths, (2,), fn, "focal lengths")
    check_last_dims(pp_offsets, (2,), fn, "principal point offsets")
    focal_lengths, pp_offsets = ivy.broadcast_arrays(focal_lengths, pp_offsets)
    fx, fy = focal_lengths[..., 0], focal_lengths[..., 1]
    px, py = pp_offsets[..., 0], pp_offsets[..., 1]
    zero, one = ivy.zeros_like(fx), ivy.ones_like(fx)
    rows = [
        ivy.stack([fx, zero, px], axis=-1),
        ivy.stack([zero, fy, py], axis=-1),
        ivy.stack([zero, zero, one], axis=-1),
    ]
    return ivy.stack(rows, axis=-2)


def _inv_calib_mat_from_focal_lengths(focal_lengths: Any, pp_offsets: Any) -> Any:
    """Closed-form ``K⁻¹ = [[1/fx, 0, -px/fx], [0, 1/fy, -py/fy], [0, 0, 1]]``."""
    inv_f = 1.0 / focal_lengths
    return focal_lengths_and_pp_offsets_to_calib_mat(inv_f, -pp_offsets * inv_f)
