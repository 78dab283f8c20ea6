"""Containers of camera geometry and of primitive scenes (``ivy.Container`` subclasses).

Each is a nested dict of native arrays with attribute access, as ``ivy.Container``; all arrays
share the same leading batch axes ``[...]``. Build the camera ones with the functions of
:mod:`ivy_vision.single_view_geometry` (``focal_lengths_and_pp_offsets_to_intrinsics_object``,
``ext_mat_and_intrinsics_to_cam_geometry_object``...), which fill every field consistently.

Note for JAX: ``jax.jit`` only knows ``ivy.Container`` itself as a pytree, so compile functions
that take or return these objects' arrays (``cam_geom.full_mats_homo``), not the objects.
"""

from __future__ import annotations

from typing import Any

import ivy

from .sdf import cuboid_signed_distances, sphere_signed_distances

__all__ = ["CameraGeometry", "Extrinsics", "Intrinsics", "PrimitiveScene"]


class Intrinsics(ivy.Container):
    """Intrinsic parameters of pinhole cameras.

    Fields:
        focal_lengths: ``[..., 2]`` ``(fx, fy)`` in pixels.
        persp_angles: ``[..., 2]`` horizontal and vertical fields of view, radians.
        pp_offsets: ``[..., 2]`` principal point ``(px, py)`` in pixels.
        calib_mats: ``[..., 3, 3]`` ``K = [[fx, 0, px], [0, fy, py], [0, 0, 1]]``.
        inv_calib_mats: ``[..., 3, 3]`` ``K⁻¹``.
    """

    __slots__ = ()

    def __init__(
        self, focal_lengths: Any, persp_angles: Any, pp_offsets: Any, calib_mats: Any, inv_calib_mats: Any
    ) -> None:
        super().__init__(
            focal_lengths=focal_lengths,
            persp_angles=persp_angles,
            pp_offsets=pp_offsets,
            calib_mats=calib_mats,
            inv_calib_mats=inv_calib_mats,
        )


class Extrinsics(ivy.Container):
    """Extrinsic parameters (poses) of cameras.

    Fields:
        cam_centers: ``[..., 3]`` camera centres in world coordinates.
        Rs: ``[..., 3, 3]`` world->camera rotations.
        inv_Rs: ``[..., 3, 3]`` camera->world rotations (``Rᵀ``).
        ext_mats_homo: ``[..., 4, 4]`` world->camera ``[[R, -R c], [0, 0, 0, 1]]``.
        inv_ext_mats_homo: ``[..., 4, 4]`` camera->world.
    """

    __slots__ = ()

    def __init__(
        self,
        cam_centers: Any,
        Rs: Any,
        inv_Rs: Any,
        ext_mats_homo: Any,
        inv_ext_mats_homo: Any,
    ) -> None:
        super().__init__(
            cam_centers=cam_centers,
            Rs=Rs,
            inv_Rs=inv_Rs,
            ext_mats_homo=ext_mats_homo,
            inv_ext_mats_homo=inv_ext_mats_homo,
        )


class CameraGeometry(ivy.Container):
    """Complete geometry of cameras: intrinsics, extrinsics and full projection matrices.

    Fields:
        intrinsics: an :class:`Intrinsics`.
        extrinsics: an :class:`Extrinsics`.
        full_mats_homo: ``[..., 4, 4]`` world -> depth-scaled pixel ``(u·d, v·d, d, 1)``,
            ``[[K, 0], [0, 1]] @ ext_mats_homo``.
        inv_full_mats_homo: ``[..., 4, 4]`` depth-scaled pixel -> world.
    """

    __slots__ = ()

    def __init__(
        self, intrinsics: Intrinsics, extrinsics: Extrinsics, full_mats_homo: Any, inv_full_mats_homo: Any
    ) -> None:
        super().__init__(
            intrinsics=intrinsics,
            extrinsics=extrinsics,
            full_mats_homo=full_mats_homo,
            inv_full_mats_homo=inv_full_mats_homo,
        )


class PrimitiveScene(ivy.Container):
    """A scene of spheres and cuboids with a signed-distance function :meth:`sdf`.

    Fields (each optional; a scene needs spheres, cuboids or both):
        sphere_positions: ``[..., n_s, 3]`` sphere centres.
        sphere_radii: ``[..., n_s, 1]`` sphere radii.
        cuboid_ext_mats: ``[..., n_c, 3, 4]`` world->cuboid-frame matrices (the cuboid is centred
            at its frame's origin, axis-aligned in it).
        cuboid_dims: ``[..., n_c, 3]`` full edge lengths of the cuboids along their frame's axes.
    """

    __slots__ = ()

    def __init__(
        self,
        sphere_positions: Any = None,
        sphere_radii: Any = None,
        cuboid_ext_mats: Any = None,
        cuboid_dims: Any = None,
    ) -> None:
        if (sphere_positions is None) != (sphere_radii is None):
            raise ValueError("PrimitiveScene: give both sphere_positions and sphere_radii, or neither")
        if (cuboid_ext_mats is None) != (cuboid_dims is None):
            raise ValueError("PrimitiveScene: give both cuboid_ext_mats and cuboid_dims, or neither")
        if sphere_positions is None and cuboid_ext_mats is None:
            raise ValueError("PrimitiveScene: the scene is empty; give spheres, cuboids or both")
        fields = {
            "sphere_positions": sphere_positions,
            "sphere_radii": sphere_radii,
            "cuboid_ext_mats": cuboid_ext_mats,
            "cuboid_dims": cuboid_dims,
        }
        super().__init__({k: v for k, v in fields.items() if v is not None})

    def sdf(self, query_positions: Any) -> Any:
        """Signed distances ``[..., n_q, 1]`` from ``query_positions`` ``[..., n_q, 3]`` to the scene.

        The minimum over all primitives: negative inside an object, positive outside.
        """
        dists = []
        if "sphere_positions" in self:
            dists.append(sphere_signed_distances(self["sphere_positions"], self["sphere_radii"], query_positions))
        if "cuboid_ext_mats" in self:
            dists.append(cuboid_signed_distances(self["cuboid_ext_mats"], self["cuboid_dims"], query_positions))
        if len(dists) == 1:
            return dists[0]
        return ivy.minimum(dists[0], dists[1])
