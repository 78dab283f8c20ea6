"""Builders of the camera-geometry containers (exported from ``single_view_geometry``), from the
intrinsics of ``_intrinsics`` (below both)."""

from __future__ import annotations

from typing import Any

import ivy
import ivy_mech

from ._helpers import check_last_dims, inv3x3, matrix_transpose
from ._intrinsics import (
    _inv_calib_mat_from_focal_lengths,
    focal_lengths_and_pp_offsets_to_calib_mat,
    focal_lengths_to_persp_angles,
    persp_angles_to_focal_lengths,
)
from .containers import CameraGeometry, Extrinsics, Intrinsics

__all__ = [
    "calib_mat_to_intrinsics_object",
    "ext_mat_and_intrinsics_to_cam_geometry_object",
    "focal_lengths_and_pp_offsets_to_intrinsics_object",
    "inv_ext_mat_and_intrinsics_to_cam_geometry_object",
    "persp_angles_and_pp_offsets_to_intrinsics_object",
]


def focal_lengths_and_pp_offsets_to_intrinsics_object(
    focal_lengths: Any, pp_offsets: Any, image_dims: Any
) -> Intrinsics:
    """An :class:`Intrinsics` from focal lengths and principal points ``[..., 2]`` (pixels).

    ``image_dims`` ``(h, w)`` gives the fields of view.
    """
    focal_lengths, pp_offsets = ivy.broadcast_arrays(focal_lengths, pp_offsets)
    return Intrinsics(
        focal_lengths=focal_lengths,
        persp_angles=focal_lengths_to_persp_angles(focal_lengths, image_dims),
        pp_offsets=pp_offsets,
        calib_mats=focal_lengths_and_pp_offsets_to_calib_mat(focal_lengths, pp_offsets),
        inv_calib_mats=_inv_calib_mat_from_focal_lengths(focal_lengths, pp_offsets),
    )


def persp_angles_and_pp_offsets_to_intrinsics_object(persp_angles: Any, pp_offsets: Any, image_dims: Any) -> Intrinsics:
    """An :class:`Intrinsics` from fields of view ``[..., 2]`` (radians) and principal points ``[..., 2]``."""
    persp_angles, pp_offsets = ivy.broadcast_arrays(persp_angles, pp_offsets)
    focal_lengths = persp_angles_to_focal_lengths(persp_angles, image_dims)
    return Intrinsics(
        focal_lengths=focal_lengths,
        persp_angles=persp_angles,
        pp_offsets=pp_offsets,
        calib_mats=focal_lengths_and_pp_offsets_to_calib_mat(focal_lengths, pp_offsets),
        inv_calib_mats=_inv_calib_mat_from_focal_lengths(focal_lengths, pp_offsets),
    )


def calib_mat_to_intrinsics_object(calib_mat: Any, image_dims: Any) -> Intrinsics:
    """An :class:`Intrinsics` from calibration matrices ``[..., 3, 3]`` (``K⁻¹`` by matrix inverse)."""
    check_last_dims(calib_mat, (3, 3), "calib_mat_to_intrinsics_object", "calibration matrices")
    focal_lengths = ivy.stack([calib_mat[..., 0, 0], calib_mat[..., 1, 1]], axis=-1)
    return Intrinsics(
        focal_lengths=focal_lengths,
        persp_angles=focal_lengths_to_persp_angles(focal_lengths, image_dims),
        pp_offsets=ivy.stack([calib_mat[..., 0, 2], calib_mat[..., 1, 2]], axis=-1),
        calib_mats=calib_mat,
        inv_calib_mats=inv3x3(calib_mat),
    )


def _homogeneous_calib_mat(calib_mat: Any) -> Any:
    """``[[K, 0], [0, 1]]`` ``[..., 4, 4]``."""
    return ivy_mech.make_transformation_homogeneous(
        ivy.concat([calib_mat, ivy.zeros_like(calib_mat[..., 0:1])], axis=-1)
    )


def _cam_geometry(
    rot: Any, inv_rot: Any, center: Any, ext_mat: Any, inv_ext_mat: Any, intrinsics: Intrinsics
) -> CameraGeometry:
    ext_homo = ivy_mech.make_transformation_homogeneous(ext_mat)
    inv_ext_homo = ivy_mech.make_transformation_homogeneous(inv_ext_mat)
    full = ivy.matmul(_homogeneous_calib_mat(intrinsics["calib_mats"]), ext_homo)
    inv_full = ivy.matmul(inv_ext_homo, _homogeneous_calib_mat(intrinsics["inv_calib_mats"]))
    extrinsics = Extrinsics(
        cam_centers=center, Rs=rot, inv_Rs=inv_rot, ext_mats_homo=ext_homo, inv_ext_mats_homo=inv_ext_homo
    )
    return CameraGeometry(
        intrinsics=intrinsics, extrinsics=extrinsics, full_mats_homo=full, inv_full_mats_homo=inv_full
    )


def ext_mat_and_intrinsics_to_cam_geometry_object(ext_mat: Any, intrinsics: Intrinsics) -> CameraGeometry:
    """A :class:`CameraGeometry` from world->camera matrices ``[..., 3, 4]`` (rotation ``R``) and intrinsics.

    The camera->world matrix is ``[Rᵀ | -Rᵀ t]`` (``R`` must be a rotation).
    """
    check_last_dims(ext_mat, (3, 4), "ext_mat_and_intrinsics_to_cam_geometry_object", "extrinsic matrices")
    rot = ext_mat[..., 0:3]
    inv_rot = matrix_transpose(rot)
    center = -ivy.matmul(inv_rot, ext_mat[..., 3:4])
    inv_ext = ivy.concat([inv_rot, center], axis=-1)
    return _cam_geometry(rot, inv_rot, center[..., 0], ext_mat, inv_ext, intrinsics)


def inv_ext_mat_and_intrinsics_to_cam_geometry_object(inv_ext_mat: Any, intrinsics: Intrinsics) -> CameraGeometry:
    """A :class:`CameraGeometry` from camera->world matrices ``[..., 3, 4]`` ``[Rᵀ | c]`` and intrinsics."""
    check_last_dims(
        inv_ext_mat, (3, 4), "inv_ext_mat_and_intrinsics_to_cam_geometry_object", "inverse extrinsic matrices"
    )
    inv_rot = inv_ext_mat[..., 0:3]
    rot = matrix_transpose(inv_rot)
    center = inv_ext_mat[..., 3]
    ext = ivy.concat([rot, -ivy.matmul(rot, inv_ext_mat[..., 3:4])], axis=-1)
    return _cam_geometry(rot, inv_rot, center, ext, inv_ext_mat, intrinsics)
