"""Optical flow: flow from depth and camera motion, depth from flow, epipolar projection of flow,
cost volumes, and flow and velocities of moving objects.

Conventions as in :mod:`ivy_vision.single_view_geometry`. Flow ``[..., h, w, 2]`` is in pixels,
``(dx, dy)``: pixel ``(x, y)`` of the first image moves to ``(x + dx, y + dy)`` in the second.
Object transformations ``obj_trans`` ``[..., n, 3, 4]`` move object points between the two times,
both expressed in the first camera's frame; a pixel belongs to the object whose id (``obj_ids``
``[..., n, 1]``) equals its value in ``id_image`` ``[..., h, w, 1]``; other pixels are static.
"""

from __future__ import annotations

from typing import Any

import ivy

from ._helpers import (
    apply_matrix,
    check_last_dims,
    check_rank_at_least,
    expand_to_spatial,
    homogeneous3,
    safe_divide,
    shape_of,
)
from .single_view_geometry import (
    _uniform_pixel_coords_like,
    bilinearly_interpolate_image,
    cam_to_ds_pixel_coords,
)
from .two_view_geometry import cam_to_cam_coords, ds_pixel_to_ds_pixel_coords, triangulate_depth

__all__ = [
    "depth_from_flow_and_cam_mats",
    "flow_from_cam_coords_id_image_and_object_trans",
    "flow_from_depth_and_cam_mats",
    "pixel_cost_volume",
    "project_cam_coords_with_object_transformations",
    "project_flow_to_epipolar_line",
    "velocity_from_cam_coords_id_image_and_object_trans",
    "velocity_from_flow_cam_coords_and_cam_mats",
]


def _pixels(ds_pixel_coords: Any) -> Any:
    """``(u·d, v·d, d)`` -> ``(u, v)`` (0 where ``d = 0``)."""
    return safe_divide(ds_pixel_coords[..., 0:2], ds_pixel_coords[..., 2:3])


def flow_from_depth_and_cam_mats(ds_pixel_coords1: Any, cam1to2_full_mat: Any) -> Any:
    """Optical flow ``[..., h, w, 2]`` of a static scene seen by a moving camera.

    Args:
        ds_pixel_coords1: ``[..., h, w, 3]`` ds pixel coords of image 1 (from its depth, with
            :func:`depth_to_ds_pixel_coords`).
        cam1to2_full_mat: ``[..., 3, 4]`` ds pixel coords of camera 1 -> of camera 2.
    """
    ds2 = ds_pixel_to_ds_pixel_coords(ds_pixel_coords1, cam1to2_full_mat)
    return _pixels(ds2) - _pixels(ds_pixel_coords1)


def depth_from_flow_and_cam_mats(
    flow: Any,
    full_mats: Any,
    inv_full_mats: Any = None,
    camera_centers: Any = None,
    uniform_pixel_coords: Any = None,
    triangulation_method: str = "cmp",
) -> Any:
    """Depth ``[..., h, w, 1]`` of image 1 triangulated from the flow ``[..., h, w, 2]`` to image 2.

    Args:
        flow: ``[..., h, w, 2]`` flow from image 1 to image 2.
        full_mats: ``[..., 2, 3, 4]`` the two cameras' full projection matrices.
        inv_full_mats, camera_centers: optional, as in :func:`triangulate_depth`.
        uniform_pixel_coords: ``[..., h, w, 3]`` pixel grid (default: built).
        triangulation_method: ``"cmp"`` or ``"dlt"`` (see :func:`triangulate_depth`).
    """
    fn = "depth_from_flow_and_cam_mats"
    check_last_dims(flow, (None, None, 2), fn, "flow")
    check_last_dims(full_mats, (2, 3, 4), fn, "pairs of full projection matrices")
    nb = len(shape_of(full_mats)) - 3
    check_rank_at_least(flow, nb + 3, fn, "flow", f"[{', '.join(map(str, shape_of(full_mats)[:nb]))}, h, w, 2]")
    if uniform_pixel_coords is None:
        uniform_pixel_coords = _uniform_pixel_coords_like(flow)
    pix1 = uniform_pixel_coords + ivy.zeros_like(flow[..., 0:1])  # broadcast to the batch axes
    pix2 = pix1 + ivy.concat([flow, ivy.zeros_like(flow[..., 0:1])], axis=-1)
    ds_pixel_coords = ivy.stack([pix1, pix2], axis=nb)
    return triangulate_depth(ds_pixel_coords, full_mats, inv_full_mats, camera_centers, triangulation_method)


def project_flow_to_epipolar_line(flow: Any, fundamental_matrix: Any, uniform_pixel_coords: Any = None) -> Any:
    """Move each flow end point onto its epipolar line (the nearest point on it).

    For pixel ``x₁`` the second image's epipolar line is ``l = F x₁`` = ``(a, b, c)``; the end
    point ``p = x₁ + flow`` becomes ``p - (a pₓ + b p_y + c) / (a² + b²) (a, b)``.

    Args:
        flow: ``[..., h, w, 2]`` flow from image 1 to image 2.
        fundamental_matrix: ``[..., 3, 3]`` with ``x₂ᵀ F x₁ = 0``.
        uniform_pixel_coords: ``[..., h, w, 3]`` pixel grid (default: built).

    Returns:
        ``[..., h, w, 2]`` the projected flow.
    """
    fn = "project_flow_to_epipolar_line"
    check_last_dims(flow, (None, None, 2), fn, "flow")
    check_last_dims(fundamental_matrix, (3, 3), fn, "fundamental matrices")
    if uniform_pixel_coords is None:
        uniform_pixel_coords = _uniform_pixel_coords_like(flow)
    lines = apply_matrix(uniform_pixel_coords + ivy.zeros_like(flow[..., 0:1]), fundamental_matrix)
    end = uniform_pixel_coords[..., 0:2] + flow
    ab = lines[..., 0:2]
    residual = ivy.sum(ab * end, axis=-1, keepdims=True) + lines[..., 2:3]
    projected = end - safe_divide(residual, ivy.sum(ab * ab, axis=-1, keepdims=True)) * ab
    return projected - uniform_pixel_coords[..., 0:2]


def pixel_cost_volume(image1: Any, image2: Any, search_range: int) -> Any:
    """Correlation cost volume of two images over a square search window.

    ``out[..., y, x, k] = mean_c image1[..., y, x, c] · image2[..., y + dy, x + dx, c]`` for the
    offsets ``(dy, dx)`` in ``[-s, s]²``, ``k = (dy + s)(2s + 1) + (dx + s)`` (row-major);
    ``image2`` is zero outside its borders.

    Args:
        image1, image2: ``[..., h, w, c]``.
        search_range: ``s >= 0``, the largest offset.

    Returns:
        ``[..., h, w, (2s + 1)²]``.
    """
    fn = "pixel_cost_volume"
    check_rank_at_least(image1, 3, fn, "images", "[..., h, w, c]")
    if shape_of(image1) != shape_of(image2):
        raise ValueError(f"{fn}: the images differ in shape: {list(shape_of(image1))} and {list(shape_of(image2))}")
    s = int(search_range)
    if s < 0:
        raise ValueError(f"{fn}: search_range must be >= 0, got {search_range}")
    shape = shape_of(image1)
    h, w = shape[-3], shape[-2]
    padded = ivy.pad(image2, [(0, 0)] * (len(shape) - 3) + [(s, s), (s, s), (0, 0)])
    costs = []
    for dy in range(-s, s + 1):
        for dx in range(-s, s + 1):
            shifted = padded[..., s + dy : s + dy + h, s + dx : s + dx + w, :]
            costs.append(ivy.mean(image1 * shifted, axis=-1))
    return ivy.stack(costs, axis=-1)


def velocity_from_flow_cam_coords_and_cam_mats(
    flow_t_to_tm1: Any,
    cam_coords_t: Any,
    cam_coords_tm1: Any,
    cam_tm1_to_t_ext_mat: Any,
    delta_t: float | Any,
    uniform_pixel_coords: Any = None,
) -> Any:
    """Velocity ``[..., h, w, 3]`` of the point seen at each pixel at time ``t``, in camera ``t``'s frame.

    The point's position at ``t - 1`` is read from ``cam_coords_tm1`` where the flow points
    (bilinearly), moved into camera ``t``'s frame, and ``v = (x_t - x_{t-1}) / delta_t``.

    Args:
        flow_t_to_tm1: ``[..., h, w, 2]`` flow from image ``t`` to image ``t - 1``.
        cam_coords_t: ``[..., h, w, 3 or 4]`` camera points of image ``t``.
        cam_coords_tm1: ``[..., h, w, 3 or 4]`` camera points of image ``t - 1``.
        cam_tm1_to_t_ext_mat: ``[..., 3, 4]`` camera ``t - 1`` -> camera ``t`` frame.
        delta_t: the time step, a float or ``[..., 1]``.
        uniform_pixel_coords: ``[..., h, w, 3]`` pixel grid (default: built).
    """
    fn = "velocity_from_flow_cam_coords_and_cam_mats"
    check_last_dims(flow_t_to_tm1, (None, None, 2), fn, "flow")
    cam_t = homogeneous3(cam_coords_t, fn, "camera coordinates")
    cam_tm1 = homogeneous3(cam_coords_tm1, fn, "camera coordinates")
    if uniform_pixel_coords is None:
        uniform_pixel_coords = _uniform_pixel_coords_like(flow_t_to_tm1)
    sample_at = uniform_pixel_coords[..., 0:2] + flow_t_to_tm1
    prev = bilinearly_interpolate_image(cam_tm1[..., 0:3], sample_at)
    prev_in_t = cam_to_cam_coords(prev, cam_tm1_to_t_ext_mat)
    return (cam_t[..., 0:3] - prev_in_t[..., 0:3]) / _per_image(delta_t, flow_t_to_tm1)


def _per_image(delta_t: float | Any, image: Any) -> Any:
    """``delta_t`` (a float or ``[B..., 1]``) shaped to divide images ``[B..., h, w, c]``."""
    if not ivy.is_native_array(delta_t):
        return delta_t
    return expand_to_spatial(delta_t, len(shape_of(delta_t)) - 1, 2)


def _per_pixel_transforms(id_image: Any, obj_ids: Any, obj_trans: Any, like_coords: Any) -> Any:
    """``[..., h*w, 3, 4]``: each pixel's object transformation (the identity for static pixels)."""
    fn = "object transformations"
    check_last_dims(id_image, (None, None, 1), fn, "an id image")
    check_last_dims(obj_ids, (None, 1), fn, "object ids")
    check_last_dims(obj_trans, (None, 3, 4), fn, "object transformations")
    ishape = shape_of(id_image)
    nb = len(ishape) - 3
    hw = ishape[-3] * ishape[-2]
    ids = ivy.reshape(id_image, ishape[:nb] + (hw, 1))
    masks = ivy.astype(ivy.equal(ids, ivy.matrix_transpose(obj_ids)), like_coords.dtype)  # [..., hw, n]
    tshape = shape_of(obj_trans)
    flat_trans = ivy.reshape(obj_trans, tshape[:-2] + (12,))
    moved = ivy.matmul(masks, flat_trans)  # [..., hw, 12]
    static = 1.0 - ivy.sum(masks, axis=-1, keepdims=True)
    identity = ivy.reshape(
        ivy.eye(
            3, 4, **{"dtype": like_coords.dtype, "device": ivy.dev(like_coords)}, backend=ivy.namespace(like_coords)
        ),
        (12,),
    )
    per_pixel = moved + static * identity
    return ivy.reshape(per_pixel, shape_of(per_pixel)[:-1] + (3, 4))


def _move_objects(cam_coords: Any, id_image: Any, obj_ids: Any, obj_trans: Any, fn: str) -> Any:
    """Camera points ``[..., h, w, 3]`` after their objects' transformations."""
    pts = homogeneous3(cam_coords, fn, "camera coordinates")
    shape = shape_of(pts)
    trans = _per_pixel_transforms(id_image, obj_ids, obj_trans, pts)
    flat = ivy.reshape(pts, shape[:-3] + (shape[-3] * shape[-2], 4, 1))
    moved = ivy.matmul(trans, flat)[..., 0]
    return ivy.reshape(moved, shape[:-1] + (3,))


def project_cam_coords_with_object_transformations(
    cam_coords_1: Any, id_image: Any, obj_ids: Any, obj_trans: Any, cam_1_to_2_ext_mat: Any
) -> Any:
    """Camera-1 points ``[..., h, w, 3 or 4]`` -> homogeneous camera-2 points ``[..., h, w, 4]``.

    Each pixel's point is moved by its object's transformation (static pixels stay) and then
    expressed in camera 2's frame with ``cam_1_to_2_ext_mat`` ``[..., 3, 4]``.

    Args:
        cam_coords_1: ``[..., h, w, 3 or 4]``.
        id_image: ``[..., h, w, 1]`` object id of each pixel.
        obj_ids: ``[..., n, 1]`` ids of the moving objects.
        obj_trans: ``[..., n, 3, 4]`` their transformations (in camera 1's frame).
        cam_1_to_2_ext_mat: ``[..., 3, 4]``.
    """
    fn = "project_cam_coords_with_object_transformations"
    moved = _move_objects(cam_coords_1, id_image, obj_ids, obj_trans, fn)
    return cam_to_cam_coords(moved, cam_1_to_2_ext_mat)


def velocity_from_cam_coords_id_image_and_object_trans(
    cam_coords_t: Any, id_image: Any, obj_ids: Any, obj_trans: Any, delta_t: float | Any
) -> Any:
    """Velocity ``[..., h, w, 3]`` of each pixel's point: ``(T x - x) / delta_t`` (0 for static pixels).

    Args as in :func:`project_cam_coords_with_object_transformations`; ``obj_trans`` moves the
    objects over the time step ``delta_t`` (a float or ``[..., 1]``).
    """
    fn = "velocity_from_cam_coords_id_image_and_object_trans"
    moved = _move_objects(cam_coords_t, id_image, obj_ids, obj_trans, fn)
    return (moved - cam_coords_t[..., 0:3]) / _per_image(delta_t, id_image)


def flow_from_cam_coords_id_image_and_object_trans(
    cam_coords_1: Any, id_image: Any, obj_ids: Any, obj_trans: Any, calib_mat: Any, cam_1_to_2_ext_mat: Any
) -> Any:
    """Optical flow ``[..., h, w, 2]`` caused by moving objects and a moving camera.

    Args as in :func:`project_cam_coords_with_object_transformations`; ``calib_mat``
    ``[..., 3, 3]`` is the (shared) calibration matrix of both images.
    """
    cam2 = project_cam_coords_with_object_transformations(
        cam_coords_1, id_image, obj_ids, obj_trans, cam_1_to_2_ext_mat
    )
    return _pixels(cam_to_ds_pixel_coords(cam2, calib_mat)) - _pixels(cam_to_ds_pixel_coords(cam_coords_1, calib_mat))
