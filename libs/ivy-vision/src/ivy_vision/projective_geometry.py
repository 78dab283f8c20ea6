"""Projective geometry: batched transforms, projection-matrix inverses, homogeneous DLT solves.

A projection matrix ``P = K [R | t]`` is ``[..., 3, 4]``. Every function takes arbitrary leading
batch axes and returns native arrays of the input's framework.
"""

from __future__ import annotations

from typing import Any

import ivy

from ._helpers import apply_matrix, check_last_dims, check_rank_at_least, inv3x3, matrix_transpose, shape_of

__all__ = [
    "projection_matrix_inverse",
    "projection_matrix_pseudo_inverse",
    "solve_homogeneous_dlt",
    "transform",
]


def transform(coords: Any, trans: Any) -> Any:
    """Apply the matrix ``trans`` to every vector on the last axis of ``coords``: ``trans @ v``.

    Args:
        coords: ``[B..., S..., n]``, e.g. a homogeneous point image ``[B..., h, w, 4]``.
        trans: ``[B..., m, n]``; its leading axes ``B...`` are batch axes matched with (and
            broadcast against) the leading axes of ``coords``; every vector of the remaining
            axes ``S...`` is transformed by the same matrix.

    Returns:
        ``[B..., S..., m]``.
    """
    check_rank_at_least(trans, 2, "transform", "the transformation", "[..., m, n]")
    check_rank_at_least(coords, 1, "transform", "the coordinates", "[..., n]")
    return apply_matrix(coords, trans)


def projection_matrix_pseudo_inverse(proj_mat: Any) -> Any:
    """Right pseudo-inverse ``P⁺ = Pᵀ (P Pᵀ)⁻¹`` of projection matrices ``[..., 3, 4]`` -> ``[..., 4, 3]``.

    ``P P⁺ = I₃``; for a full-rank ``P`` this is the Moore-Penrose pseudo-inverse. ``P⁺ x`` is a
    homogeneous world point on the ray of pixel ``x``.
    """
    check_last_dims(proj_mat, (3, 4), "projection_matrix_pseudo_inverse", "projection matrices")
    p_t = matrix_transpose(proj_mat)
    return ivy.matmul(p_t, inv3x3(ivy.matmul(proj_mat, p_t)))


def projection_matrix_inverse(proj_mat: Any) -> Any:
    """Inverse of affine maps ``[M | t]`` ``[..., 3, 4]``: ``[M⁻¹ | -M⁻¹ t]`` ``[..., 3, 4]``.

    For an extrinsic matrix (world->camera, ``M = R``) this is the camera->world matrix; for a
    full projection matrix ``K [R | t]`` it maps depth-scaled pixels ``(u·d, v·d, d, 1)`` to world
    points. ``M`` must be invertible.
    """
    check_last_dims(proj_mat, (3, 4), "projection_matrix_inverse", "projection matrices")
    m_inv = inv3x3(proj_mat[..., 0:3])
    t = ivy.matmul(m_inv, proj_mat[..., 3:4])
    return ivy.concat([m_inv, -t], axis=-1)


def solve_homogeneous_dlt(a: Any) -> Any:
    """Least-squares null vector of ``A x = 0`` with ``|x| = 1``: the last right singular vector.

    Args:
        a: ``[..., m, n]`` with ``m >= n - 1``.

    Returns:
        ``[..., n]``, the unit vector minimising ``|A x|`` (its sign is arbitrary, as the SVD's).
    """
    check_rank_at_least(a, 2, "solve_homogeneous_dlt", "the DLT matrix", "[..., m, n]")
    m, n = shape_of(a)[-2:]
    # the reduced SVD has all n right singular vectors when m >= n, and JAX and TensorFlow
    # differentiate only the reduced (or square) one
    _, _, vh = ivy.linalg.svd(a, full_matrices=m < n)
    return vh[..., -1, :]
