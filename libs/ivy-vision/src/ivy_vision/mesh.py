"""Meshes: triangle rasterization and triangle meshes from coordinate images.

Pixel coordinates are ``(x, y)`` = (column, row) with integer pixel centres; images are
``[..., h, w, c]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ivy

from ._helpers import (
    as_batch_shape,
    check_image_dims,
    check_last_dims,
    check_rank_at_least,
    creation_namespace,
    index_dtype,
    shape_of,
)
from .single_view_geometry import create_uniform_pixel_coords_image

__all__ = ["coord_image_to_trimesh", "create_trimesh_indices_for_image", "rasterize_triangles"]


def rasterize_triangles(pixel_coords_triangles: Any, image_dims: Sequence[int]) -> Any:
    """Rasterize image-space triangles into a depth image with a depth buffer.

    A pixel centre is covered by a triangle when its barycentric coordinates are all ``>= 0``
    (edges included). A covered pixel takes the depth of the nearest covering triangle there,
    interpolated linearly in image space from the vertices' depths; uncovered pixels are 0.
    Degenerate (zero-area) triangles cover nothing. Memory is ``O(h w n)``.

    Args:
        pixel_coords_triangles: ``[..., n, 3, 3]``: ``n`` triangles, 3 vertices each, a vertex
            being ``(x, y, depth)``.
        image_dims: ``(h, w)``.

    Returns:
        ``[..., h, w, 1]`` depth image; differentiable with respect to the vertex depths (and,
        inside triangles, the vertex positions).
    """
    fn = "rasterize_triangles"
    h, w = check_image_dims(image_dims, fn)
    check_last_dims(pixel_coords_triangles, (None, 3, 3), fn, "triangles of (x, y, depth) vertices")
    batch = shape_of(pixel_coords_triangles)[:-3]
    pixels = create_uniform_pixel_coords_image(
        (h, w),
        homogeneous=False,
        backend=ivy.namespace(pixel_coords_triangles),
        dtype=pixel_coords_triangles.dtype,
        device=ivy.dev(pixel_coords_triangles),
    )
    p = ivy.reshape(pixels, (1, h * w, 2))  # [1, hw, 2] against triangles [..., n, 1, 2]
    tri = ivy.expand_dims(pixel_coords_triangles, axis=-3)  # [..., n, 1, 3, 3]
    a, b, c = tri[..., 0, 0:2], tri[..., 1, 0:2], tri[..., 2, 0:2]
    v0, v1, v2 = b - a, c - a, p - a
    d00 = ivy.sum(v0 * v0, axis=-1)
    d01 = ivy.sum(v0 * v1, axis=-1)
    d11 = ivy.sum(v1 * v1, axis=-1)
    d20 = ivy.sum(v2 * v0, axis=-1)
    d21 = ivy.sum(v2 * v1, axis=-1)
    denom = d00 * d11 - d01 * d01
    ok = ivy.not_equal(denom, 0.0)
    safe = ivy.where(ok, denom, 1.0)
    beta = (d11 * d20 - d01 * d21) / safe
    gamma = (d00 * d21 - d01 * d20) / safe
    alpha = 1.0 - beta - gamma
    inside = ivy.logical_and(ok, ivy.logical_and(alpha >= 0, ivy.logical_and(beta >= 0, gamma >= 0)))
    depth = alpha * tri[..., 0, 2] + beta * tri[..., 1, 2] + gamma * tri[..., 2, 2]  # [..., n, hw]
    nearest = ivy.min(ivy.where(inside, depth, float("inf")), axis=-2)
    covered = ivy.any(inside, axis=-2)
    out = ivy.where(covered, nearest, 0.0)
    return ivy.reshape(out, batch + (h, w, 1))


def create_trimesh_indices_for_image(
    image_dims: Sequence[int], batch_shape: Sequence[int] | None = None, *, device: Any = None, backend: Any = None
) -> Any:
    """Vertex indices of a triangle mesh over an image grid: two triangles per 2x2 pixel quad.

    Vertices are the pixels in row-major order (index ``y w + x``). The quad with top-left
    pixel ``i`` gives the triangles ``(i, i + 1, i + w)`` and ``(i + 1, i + w + 1, i + w)``;
    quads are in row-major order, their two triangles consecutive.

    Returns:
        ``[*batch_shape, 2 (h - 1)(w - 1), 3]`` indices of the backend's default indexing dtype.
    """
    h, w = check_image_dims(image_dims, "create_trimesh_indices_for_image")
    xp = creation_namespace(backend)
    ys = xp.arange(h - 1, dtype=index_dtype(xp), device=device)
    xs = xp.arange(w - 1, dtype=index_dtype(xp), device=device)
    top_left = xp.reshape(xp.expand_dims(ys, axis=1) * w + xp.expand_dims(xs, axis=0), (-1, 1))
    first = xp.concat([top_left, top_left + 1, top_left + w], axis=-1)
    second = xp.concat([top_left + 1, top_left + w + 1, top_left + w], axis=-1)
    indices = xp.reshape(xp.stack([first, second], axis=1), (-1, 3))
    batch = as_batch_shape(batch_shape)
    return xp.broadcast_to(indices, batch + tuple(shape_of(indices))) if batch else indices


def coord_image_to_trimesh(coord_img: Any, validity_mask: Any = None) -> tuple[Any, Any, Any]:
    """A triangle mesh from an image of 3-D points (e.g. world coordinates of each pixel).

    Args:
        coord_img: ``[..., h, w, 3]``.
        validity_mask: ``[..., h, w, 1]`` booleans (or 0/1) marking valid pixels, or ``None``.

    Returns:
        ``(vertices, triangle_indices, triangle_validity)``: ``[..., h w, 3]`` vertices,
        ``[..., 2 (h - 1)(w - 1), 3]`` indices (see :func:`create_trimesh_indices_for_image`) and
        ``[..., 2 (h - 1)(w - 1)]`` booleans, true for triangles whose three vertices are valid
        (all true without a mask). The mask keeps the shapes static and batchable; select the
        valid triangles with it where a varying count is fine.
    """
    fn = "coord_image_to_trimesh"
    check_rank_at_least(coord_img, 3, fn, "a coordinate image", "[..., h, w, 3]")
    check_last_dims(coord_img, (3,), fn, "a coordinate image")
    shape = shape_of(coord_img)
    batch, h, w = shape[:-3], shape[-3], shape[-2]
    vertices = ivy.reshape(coord_img, batch + (h * w, 3))
    xp = ivy.namespace(coord_img)
    indices = create_trimesh_indices_for_image((h, w), batch, device=ivy.dev(coord_img), backend=xp)
    ntri = 2 * (h - 1) * (w - 1)
    if validity_mask is None:
        valid = ivy.ones(batch + (ntri,), dtype=ivy.bool, device=ivy.dev(coord_img), backend=xp)
        return vertices, indices, valid
    check_last_dims(validity_mask, (h, w, 1), fn, "a validity mask")
    mask = ivy.reshape(ivy.astype(validity_mask, ivy.bool), batch + (h * w,))
    flat_idx = ivy.reshape(indices, batch + (ntri * 3,))
    corner_valid = ivy.take_along_axis(mask, flat_idx, axis=-1)
    valid = ivy.all(ivy.reshape(corner_valid, batch + (ntri, 3)), axis=-1)
    return vertices, indices, valid
