"""Single-view geometry: pixels, depth, camera and world coordinates of one pinhole camera.

Conventions (used throughout ``ivy_vision``):

* Images are channels-last ``[..., h, w, c]``; any number of leading batch axes ``[...]``.
* A pixel coordinate is ``(x, y) = (column, row)``; integer values are pixel centres, from 0.
* Camera frame: ``x`` right, ``y`` down, ``z`` forward along the optical axis; depth is ``z``.
* ``K = [[fx, 0, px], [0, fy, py], [0, 0, 1]]`` (focal lengths and principal point in pixels);
  a camera point ``(x, y, z)`` is seen at pixel ``(fx x / z + px, fy y / z + py)``.
* "ds pixel coords" are depth-scaled homogeneous pixel coordinates ``(u·d, v·d, d)``: ``K`` maps
  camera points to them, ``K⁻¹`` back.
* ``ext_mat`` ``[..., 3, 4]`` maps world to camera coordinates (``[R | -R c]`` for a camera at
  ``c``), ``inv_ext_mat`` camera to world, ``full_mat = K @ ext_mat`` world to ds pixel coords
  and ``inv_full_mat = projection_matrix_inverse(full_mat)`` ds pixel coords (with a 1 appended)
  to world.
* Points returned by camera/world conversions are homogeneous ``[..., 4]`` (last entry 1);
  functions taking 3-D points accept ``[..., 3]`` or homogeneous ``[..., 4]``.
* Matrices carry the leading batch axes ``[...]`` of the images / points they act on; the
  remaining axes (``h, w`` or a list of points) share one matrix.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ivy
import ivy_mech

from ._camera_objects import (
    calib_mat_to_intrinsics_object,
    ext_mat_and_intrinsics_to_cam_geometry_object,
    focal_lengths_and_pp_offsets_to_intrinsics_object,
    inv_ext_mat_and_intrinsics_to_cam_geometry_object,
    persp_angles_and_pp_offsets_to_intrinsics_object,
)
from ._helpers import (
    append_ones,
    apply_matrix,
    as_batch_shape,
    check_image_dims,
    check_last_dim_in,
    check_last_dims,
    check_rank_at_least,
    creation_namespace,
    homogeneous3,
    like,
    matrix_transpose,
    safe_norm,
    shape_of,
)
from ._intrinsics import (
    focal_lengths_and_pp_offsets_to_calib_mat,
    focal_lengths_to_persp_angles,
    persp_angles_to_focal_lengths,
)

__all__ = [
    "angular_pixel_to_sphere_coords",
    "bilinearly_interpolate_image",
    "calib_and_ext_to_full_mat",
    "calib_mat_to_intrinsics_object",
    "cam_coords_to_depth",
    "cam_to_ds_pixel_coords",
    "cam_to_sphere_coords",
    "cam_to_world_coords",
    "create_uniform_pixel_coords_image",
    "depth_to_cam_coords",
    "depth_to_ds_pixel_coords",
    "depth_to_radial_depth",
    "depth_to_world_coords",
    "ds_pixel_coords_to_radial_depth",
    "ds_pixel_to_cam_coords",
    "ds_pixel_to_sphere_coords",
    "ds_pixel_to_world_coords",
    "ext_mat_and_intrinsics_to_cam_geometry_object",
    "focal_lengths_and_pp_offsets_to_calib_mat",
    "focal_lengths_and_pp_offsets_to_intrinsics_object",
    "focal_lengths_to_persp_angles",
    "inv_ext_mat_and_intrinsics_to_cam_geometry_object",
    "inv_ext_mat_to_camera_center",
    "persp_angles_and_pp_offsets_to_intrinsics_object",
    "persp_angles_to_focal_lengths",
    "pixel_coords_to_world_ray_vectors",
    "rot_mat_and_cam_center_to_ext_mat",
    "sphere_coords_to_world_ray_vectors",
    "sphere_to_angular_pixel_coords",
    "sphere_to_cam_coords",
    "sphere_to_ds_pixel_coords",
    "world_coords_to_depth",
    "world_to_cam_coords",
    "world_to_ds_pixel_coords",
]


# ---------------------------------------------------------------------------------- pixel grids


def create_uniform_pixel_coords_image(
    image_dims: Sequence[int],
    batch_shape: Sequence[int] | None = None,
    normalized: bool = False,
    homogeneous: bool = True,
    *,
    dtype: Any = None,
    device: Any = None,
    backend: Any = None,
) -> Any:
    """The image of each pixel's own coordinates: ``out[..., y, x, :] = (x, y, 1)``.

    Args:
        image_dims: ``(h, w)``.
        batch_shape: leading batch axes of the result (default none).
        normalized: divide ``x`` by ``w`` and ``y`` by ``h`` (values in ``[0, 1)``).
        homogeneous: append the 1 (``[..., h, w, 3]``); otherwise ``[..., h, w, 2]``.
        dtype, device: of the result (default: the backend's default float dtype and device).
        backend: the backend to create it with (default: the current one).

    Returns:
        ``[*batch_shape, h, w, 3]`` (or ``2``), ``x`` = column, ``y`` = row; with a batch shape, a
        broadcast of one image (read-only where the framework has views, as NumPy and torch).
    """
    h, w = check_image_dims(image_dims, "create_uniform_pixel_coords_image")
    xp = creation_namespace(backend)
    xs = xp.arange(0.0, float(w), 1.0, dtype=dtype, device=device)
    ys = xp.arange(0.0, float(h), 1.0, dtype=dtype, device=device)
    if normalized:
        xs, ys = xs / float(w), ys / float(h)
    grid_y, grid_x = xp.meshgrid(ys, xs, indexing="ij")
    chans = [grid_x, grid_y] + ([xp.ones_like(grid_x)] if homogeneous else [])
    img = xp.stack(chans, axis=-1)
    batch = as_batch_shape(batch_shape)
    return xp.broadcast_to(img, batch + (h, w, len(chans))) if batch else img


def _uniform_pixel_coords_like(x: Any) -> Any:
    """The homogeneous pixel grid ``[h, w, 3]`` for an image ``x`` ``[..., h, w, c]`` (its dtype and device)."""
    h, w = shape_of(x)[-3:-1]
    return create_uniform_pixel_coords_image((h, w), None, backend=ivy.namespace(x), **like(x))


# ---------------------------------------------------------------------------------- extrinsics


def rot_mat_and_cam_center_to_ext_mat(rotation_mat: Any, camera_center: Any) -> Any:
    """World->camera matrix ``[R | -R c]`` ``[..., 3, 4]``.

    Args:
        rotation_mat: ``[..., 3, 3]`` world->camera rotation ``R`` (its rows are the camera axes
            in world coordinates).
        camera_center: ``[..., 3]`` camera centre ``c`` in world coordinates.
    """
    fn = "rot_mat_and_cam_center_to_ext_mat"
    check_last_dims(rotation_mat, (3, 3), fn, "rotation matrices")
    check_last_dims(camera_center, (3,), fn, "camera centres")
    t = -ivy.matmul(rotation_mat, ivy.expand_dims(camera_center, axis=-1))
    batch = shape_of(t)[:-2]
    if shape_of(rotation_mat)[:-2] != batch:
        rotation_mat = ivy.broadcast_to(rotation_mat, batch + (3, 3))
    return ivy.concat([rotation_mat, t], axis=-1)


def inv_ext_mat_to_camera_center(inv_ext_mat: Any) -> Any:
    """Camera centres ``[..., 3]`` in world coordinates from camera->world matrices ``[..., 3, 4]``."""
    check_last_dims(inv_ext_mat, (3, 4), "inv_ext_mat_to_camera_center", "inverse extrinsic matrices")
    return inv_ext_mat[..., 3]


def calib_and_ext_to_full_mat(calib_mat: Any, ext_mat: Any) -> Any:
    """Full projection matrices ``K @ ext_mat`` ``[..., 3, 4]`` (world -> ds pixel coords)."""
    check_last_dims(calib_mat, (3, 3), "calib_and_ext_to_full_mat", "calibration matrices")
    check_last_dims(ext_mat, (3, 4), "calib_and_ext_to_full_mat", "extrinsic matrices")
    return ivy.matmul(calib_mat, ext_mat)


# ---------------------------------------------------------------------------------- depth / pixels / camera


def depth_to_ds_pixel_coords(depth: Any, uniform_pixel_coords: Any = None) -> Any:
    """Depth image ``[..., h, w, 1]`` -> ds pixel coords ``(x·d, y·d, d)`` ``[..., h, w, 3]``.

    Args:
        depth: ``[..., h, w, 1]`` depth (camera ``z``) of each pixel.
        uniform_pixel_coords: ``[..., h, w, 3]`` homogeneous pixel grid (default: built with
            :func:`create_uniform_pixel_coords_image`; pass it to reuse one).
    """
    check_rank_at_least(depth, 3, "depth_to_ds_pixel_coords", "a depth image", "[..., h, w, 1]")
    check_last_dims(depth, (1,), "depth_to_ds_pixel_coords", "a depth image")
    if uniform_pixel_coords is not None:
        check_last_dims(
            uniform_pixel_coords, (None, None, 3), "depth_to_ds_pixel_coords", "homogeneous uniform pixel coords"
        )
        return uniform_pixel_coords * depth
    # the grid (x, y, 1) times d, without building the grid: a column index [w, 1] and a row
    # index [h, 1, 1] broadcast against the depth, both cut from one range
    h, w = shape_of(depth)[-3:-1]
    index = ivy.namespace(depth).arange(float(max(h, w)), **like(depth))
    xs, ys = ivy.reshape(index[:w], (w, 1)), ivy.reshape(index[:h], (h, 1, 1))
    return ivy.concat([xs * depth, ys * depth, depth], axis=-1)


def cam_to_ds_pixel_coords(coords_wrt_cam: Any, calib_mat: Any) -> Any:
    """Camera points ``[..., 3 or 4]`` -> ds pixel coords ``K (x, y, z)`` ``[..., 3]``.

    ``calib_mat`` ``[B..., 3, 3]`` carries the leading batch axes of the points.
    """
    n = check_last_dim_in(coords_wrt_cam, (3, 4), "cam_to_ds_pixel_coords", "camera coordinates")
    check_last_dims(calib_mat, (3, 3), "cam_to_ds_pixel_coords", "calibration matrices")
    xyz = coords_wrt_cam[..., 0:3] if n == 4 else coords_wrt_cam
    return apply_matrix(xyz, calib_mat)


def cam_coords_to_depth(coords_wrt_cam: Any, calib_mat: Any) -> Any:
    """Depth ``[..., 1]`` of camera points ``[..., 3 or 4]`` (the third ds pixel coordinate)."""
    return cam_to_ds_pixel_coords(coords_wrt_cam, calib_mat)[..., 2:3]


def ds_pixel_to_cam_coords(ds_pixel_coords: Any, inv_calib_mat: Any) -> Any:
    """ds pixel coords ``[..., 3]`` -> homogeneous camera points ``K⁻¹ (u·d, v·d, d)`` ``[..., 4]``."""
    check_last_dims(ds_pixel_coords, (3,), "ds_pixel_to_cam_coords", "ds pixel coords")
    check_last_dims(inv_calib_mat, (3, 3), "ds_pixel_to_cam_coords", "inverse calibration matrices")
    return append_ones(apply_matrix(ds_pixel_coords, inv_calib_mat))


def depth_to_cam_coords(depth: Any, inv_calib_mat: Any, uniform_pixel_coords: Any = None) -> Any:
    """Depth image ``[..., h, w, 1]`` -> homogeneous camera points ``[..., h, w, 4]``.

    ``inv_calib_mat`` ``[B..., 3, 3]`` carries the leading batch axes of the depth image.
    """
    if uniform_pixel_coords is not None:
        return ds_pixel_to_cam_coords(depth_to_ds_pixel_coords(depth, uniform_pixel_coords), inv_calib_mat)
    fn = "depth_to_cam_coords"
    check_rank_at_least(depth, 3, fn, "a depth image", "[..., h, w, 1]")
    check_last_dims(depth, (1,), fn, "a depth image")
    check_last_dims(inv_calib_mat, (3, 3), fn, "inverse calibration matrices")
    dshape, mshape = shape_of(depth), shape_of(inv_calib_mat)
    nb, ns = len(mshape) - 2, len(dshape) - 3  # batch axes of the matrices, axes before h, w
    if ns < nb:
        raise ValueError(
            f"{fn}: a depth image of shape {list(dshape)} lacks the batch axes {list(mshape[:-2])} of the "
            f"inverse calibration matrices"
        )
    h, w = dshape[-3:-1]
    # K⁻¹ (x d, y d, d) = d (x k0 + y k1 + k2), k_j the columns of K⁻¹: built as channel planes
    # [..., 3, h, w], whose elementwise ops run along w, several times faster on every backend
    # than over a last axis of 3; the planes are moved last at the end (a view where the
    # framework has them)
    index = ivy.namespace(depth).arange(float(max(h, w)), **like(depth))
    xs, ys = index[:w], ivy.reshape(index[:h], (h, 1))
    cols = matrix_transpose(inv_calib_mat)
    k0, k1, k2 = (ivy.reshape(cols[..., j, :], mshape[:-2] + (1,) * (ns - nb) + (3, 1, 1)) for j in range(3))
    rays = xs * k0 + (ys * k1 + k2)  # [..., 3, h, w]
    planes = ivy.reshape(depth, dshape[:-3] + (1, h, w)) * rays
    ones = ivy.namespace(planes).ones(shape_of(planes)[:-3] + (1, h, w), **like(planes))
    return ivy.moveaxis(ivy.concat([planes, ones], axis=-3), -3, -1)


def depth_to_radial_depth(depth: Any, inv_calib_mat: Any, uniform_pixel_coords: Any = None) -> Any:
    """Depth ``[..., h, w, 1]`` (camera ``z``) -> radial depth ``|(x, y, z)|`` ``[..., h, w, 1]``."""
    cam = depth_to_cam_coords(depth, inv_calib_mat, uniform_pixel_coords)
    return safe_norm(cam[..., 0:3], axis=-1, keepdims=True)


def ds_pixel_coords_to_radial_depth(ds_pixel_coords: Any, inv_calib_mat: Any) -> Any:
    """ds pixel coords ``[..., 3]`` -> radial depth (distance from the camera centre) ``[..., 1]``."""
    cam = ds_pixel_to_cam_coords(ds_pixel_coords, inv_calib_mat)
    return safe_norm(cam[..., 0:3], axis=-1, keepdims=True)


# ---------------------------------------------------------------------------------- world


def world_to_cam_coords(coords_wrt_world: Any, ext_mat: Any) -> Any:
    """World points ``[..., 3 or 4]`` -> homogeneous camera points ``[..., 4]`` (``ext_mat`` ``[B..., 3, 4]``)."""
    check_last_dims(ext_mat, (3, 4), "world_to_cam_coords", "extrinsic matrices")
    pts = homogeneous3(coords_wrt_world, "world_to_cam_coords", "world coordinates")
    return append_ones(apply_matrix(pts, ext_mat))


def cam_to_world_coords(coords_wrt_cam: Any, inv_ext_mat: Any) -> Any:
    """Camera points ``[..., 3 or 4]`` -> homogeneous world points ``[..., 4]`` (``inv_ext_mat`` camera->world)."""
    check_last_dims(inv_ext_mat, (3, 4), "cam_to_world_coords", "inverse extrinsic matrices")
    pts = homogeneous3(coords_wrt_cam, "cam_to_world_coords", "camera coordinates")
    return append_ones(apply_matrix(pts, inv_ext_mat))


def world_to_ds_pixel_coords(coords_wrt_world: Any, full_mat: Any) -> Any:
    """World points ``[..., 3 or 4]`` -> ds pixel coords ``full_mat @ X`` ``[..., 3]``."""
    check_last_dims(full_mat, (3, 4), "world_to_ds_pixel_coords", "full projection matrices")
    pts = homogeneous3(coords_wrt_world, "world_to_ds_pixel_coords", "world coordinates")
    return apply_matrix(pts, full_mat)


def world_coords_to_depth(coords_wrt_world: Any, full_mat: Any) -> Any:
    """Depth ``[..., 1]`` of world points ``[..., 3 or 4]`` in the camera of ``full_mat``."""
    return world_to_ds_pixel_coords(coords_wrt_world, full_mat)[..., 2:3]


def ds_pixel_to_world_coords(ds_pixel_coords: Any, inv_full_mat: Any) -> Any:
    """ds pixel coords ``[..., 3]`` -> homogeneous world points ``[..., 4]``.

    ``inv_full_mat`` ``[B..., 3, 4]`` is ``projection_matrix_inverse(full_mat)``.
    """
    check_last_dims(ds_pixel_coords, (3,), "ds_pixel_to_world_coords", "ds pixel coords")
    check_last_dims(inv_full_mat, (3, 4), "ds_pixel_to_world_coords", "inverse full projection matrices")
    return append_ones(apply_matrix(append_ones(ds_pixel_coords), inv_full_mat))


def depth_to_world_coords(depth: Any, inv_calib_mat: Any, inv_ext_mat: Any, uniform_pixel_coords: Any = None) -> Any:
    """Depth image ``[..., h, w, 1]`` -> homogeneous world points ``[..., h, w, 4]``."""
    return cam_to_world_coords(depth_to_cam_coords(depth, inv_calib_mat, uniform_pixel_coords), inv_ext_mat)


# ---------------------------------------------------------------------------------- rays


def pixel_coords_to_world_ray_vectors(inv_full_mat: Any, pixel_coords: Any = None) -> Any:
    """Unit world-frame ray directions ``[..., 3]`` through pixels.

    Args:
        inv_full_mat: ``[B..., 3, 4]`` inverse full projection matrices.
        pixel_coords: homogeneous pixel coords ``(x, y, 1)`` (or any depth-scaled version)
            ``[B..., S..., 3]``; default the full pixel grid is not known here, so it is
            required unless given.

    Returns:
        ``[B..., S..., 3]``: ``normalize(M⁻¹ p)`` with ``M⁻¹ = inv_full_mat[..., :3]``, pointing
        from the camera centre through the pixel (for positive depth).
    """
    fn = "pixel_coords_to_world_ray_vectors"
    check_last_dims(inv_full_mat, (3, 4), fn, "inverse full projection matrices")
    if pixel_coords is None:
        raise ValueError(f"{fn}: pixel_coords are required (e.g. create_uniform_pixel_coords_image)")
    check_last_dims(pixel_coords, (3,), fn, "homogeneous pixel coords")
    rays = apply_matrix(pixel_coords, inv_full_mat[..., 0:3])
    return rays / safe_norm(rays, axis=-1, keepdims=True)


def sphere_coords_to_world_ray_vectors(sphere_coords: Any, inv_rotation_mat: Any) -> Any:
    """Unit world-frame ray directions ``[..., 3]`` from camera-centric sphere coords ``[..., 3]``.

    ``inv_rotation_mat`` ``[B..., 3, 3]`` is the camera->world rotation ``Rᵀ``; the radius of
    the sphere coords is ignored. See :func:`cam_to_sphere_coords` for the angle convention.
    """
    check_last_dims(inv_rotation_mat, (3, 3), "sphere_coords_to_world_ray_vectors", "inverse rotation matrices")
    unit = ivy.concat([sphere_coords[..., 0:2], ivy.ones_like(sphere_coords[..., 2:3])], axis=-1)
    rays = apply_matrix(sphere_to_cam_coords(unit)[..., 0:3], inv_rotation_mat)
    return rays / safe_norm(rays, axis=-1, keepdims=True)


# ---------------------------------------------------------------------------------- sampling


def bilinearly_interpolate_image(image: Any, sampling_pixel_coords: Any) -> Any:
    """Sample an image at continuous pixel coordinates (inverse warping), bilinearly.

    Coordinates outside the image are clamped to its border (the border pixels extend
    outwards). Differentiable with respect to the image and, inside the image, the coordinates.
    This is :func:`ivy.bilinear_sample`, which runs each backend's own sampler where it has one
    (``grid_sample`` on torch and paddle, ``map_coordinates`` on JAX).

    Args:
        image: ``[B..., h, w, c]``, floating-point.
        sampling_pixel_coords: ``[B..., S..., 2]`` ``(x, y)`` = (column, row) positions, e.g. an
            image of them ``[B..., h', w', 2]``; floating-point.

    Returns:
        ``[B..., S..., c]``, in the promoted dtype of the image and the coordinates.
    """
    return ivy.bilinear_sample(image, sampling_pixel_coords)


# ---------------------------------------------------------------------------------- spheres


def cam_to_sphere_coords(coords_wrt_cam: Any, forward_facing_z: bool = True) -> Any:
    """Camera points ``[..., 3 or 4]`` -> camera-centric sphere coords ``(phi, theta, r)`` ``[..., 3]``.

    With ``forward_facing_z`` (default) the polar coordinates of ``(z, x, y)``: azimuth
    ``phi = atan2(x, z)`` (0 along the optical axis, positive to the right), inclination
    ``theta = acos(y / r)`` from the camera's ``+y`` (down) axis, so ``theta = pi / 2`` on the
    horizontal plane; ``r`` the distance. Otherwise the polar coordinates of ``(x, y, z)``
    (``ivy_mech.cartesian_to_polar_coords``). Angles in radians.
    """
    n = check_last_dim_in(coords_wrt_cam, (3, 4), "cam_to_sphere_coords", "camera coordinates")
    xyz = coords_wrt_cam[..., 0:3] if n == 4 else coords_wrt_cam
    if forward_facing_z:
        xyz = ivy.concat([xyz[..., 2:3], xyz[..., 0:2]], axis=-1)
    return ivy_mech.cartesian_to_polar_coords(xyz)


def sphere_to_cam_coords(sphere_coords: Any, forward_facing_z: bool = True) -> Any:
    """Sphere coords ``(phi, theta, r)`` ``[..., 3]`` -> homogeneous camera points ``[..., 4]``.

    The inverse of :func:`cam_to_sphere_coords` (same ``forward_facing_z`` convention).
    """
    check_last_dims(sphere_coords, (3,), "sphere_to_cam_coords", "sphere coordinates")
    cart = ivy_mech.polar_to_cartesian_coords(sphere_coords)
    if forward_facing_z:
        cart = ivy.concat([cart[..., 1:3], cart[..., 0:1]], axis=-1)
    return append_ones(cart)


def ds_pixel_to_sphere_coords(ds_pixel_coords: Any, inv_calib_mat: Any, forward_facing_z: bool = True) -> Any:
    """ds pixel coords ``[..., 3]`` -> sphere coords ``[..., 3]`` (see :func:`cam_to_sphere_coords`)."""
    return cam_to_sphere_coords(ds_pixel_to_cam_coords(ds_pixel_coords, inv_calib_mat), forward_facing_z)


def sphere_to_ds_pixel_coords(sphere_coords: Any, calib_mat: Any, forward_facing_z: bool = True) -> Any:
    """Sphere coords ``[..., 3]`` -> ds pixel coords ``[..., 3]``."""
    return cam_to_ds_pixel_coords(sphere_to_cam_coords(sphere_coords, forward_facing_z), calib_mat)


def angular_pixel_to_sphere_coords(angular_pixel_coords: Any, pixels_per_degree: float | Any) -> Any:
    """Angular pixel coords ``(u, v, r)`` ``[..., 3]`` -> sphere coords ``(phi, theta, r)`` ``[..., 3]``.

    An angular (equirectangular) image has ``pixels_per_degree`` pixels per degree on both axes:
    ``phi = u / ppd`` and ``theta = v / ppd`` in degrees, converted to radians; ``r`` unchanged.
    """
    check_last_dims(angular_pixel_coords, (3,), "angular_pixel_to_sphere_coords", "angular pixel coords")
    angles = angular_pixel_coords[..., 0:2] * (3.141592653589793 / 180.0) / pixels_per_degree
    return ivy.concat([angles, angular_pixel_coords[..., 2:3]], axis=-1)


def sphere_to_angular_pixel_coords(sphere_coords: Any, pixels_per_degree: float | Any) -> Any:
    """Sphere coords ``(phi, theta, r)`` ``[..., 3]`` -> angular pixel coords ``(u, v, r)`` ``[..., 3]``.

    The inverse of :func:`angular_pixel_to_sphere_coords`.
    """
    check_last_dims(sphere_coords, (3,), "sphere_to_angular_pixel_coords", "sphere coordinates")
    uv = sphere_coords[..., 0:2] * (180.0 / 3.141592653589793) * pixels_per_degree
    return ivy.concat([uv, sphere_coords[..., 2:3]], axis=-1)
