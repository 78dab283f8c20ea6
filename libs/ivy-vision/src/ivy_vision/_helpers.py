"""Shared building blocks: shape checks with clear errors, safe maths, array creation "like" x."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import ivy


def shape_of(x: Any) -> tuple[int, ...]:
    """The static shape of a native array as a tuple of ints."""
    return tuple(x.shape)


def check_last_dims(x: Any, dims: Sequence[int | None], fn: str, what: str) -> None:
    """Raise ``ValueError`` unless ``x`` ends in ``dims`` (``None`` matches any size)."""
    shape = tuple(x.shape)
    # a plain loop: these checks run on every call, next to a handful of array ops
    ok = len(shape) >= len(dims)
    if ok:
        for size, want in zip(shape[len(shape) - len(dims) :], dims):
            if want is not None and size != want:
                ok = False
    if not ok:
        expected = "[..., " + ", ".join("*" if d is None else str(d) for d in dims) + "]"
        raise ValueError(f"{fn}: expected {what} of shape {expected}, got shape {list(shape)}")


def check_last_dim_in(x: Any, sizes: Sequence[int], fn: str, what: str) -> int:
    """Raise ``ValueError`` unless the last axis of ``x`` has one of ``sizes``; return that size."""
    shape = shape_of(x)
    if not shape or shape[-1] not in sizes:
        opts = " or ".join(f"[..., {s}]" for s in sizes)
        raise ValueError(f"{fn}: expected {what} of shape {opts}, got shape {list(shape)}")
    return shape[-1]


def check_rank_at_least(x: Any, rank: int, fn: str, what: str, layout: str) -> None:
    """Raise ``ValueError`` unless ``x`` has at least ``rank`` axes (``layout`` names them)."""
    if len(shape_of(x)) < rank:
        raise ValueError(f"{fn}: expected {what} of shape {layout}, got shape {list(shape_of(x))}")


def check_image_dims(image_dims: Sequence[int], fn: str) -> tuple[int, int]:
    """``(h, w)`` as two positive Python ints, or a ``ValueError``."""
    dims = tuple(int(d) for d in image_dims)
    if len(dims) != 2 or min(dims) <= 0:
        raise ValueError(f"{fn}: image_dims must be two positive ints (height, width), got {list(image_dims)}")
    return dims


def like(x: Any) -> dict[str, Any]:
    """Keyword arguments that create an array on ``x``'s device with ``x``'s dtype."""
    return {"dtype": x.dtype, "device": ivy.dev(x)}


def creation_namespace(backend: Any) -> Any:
    """The namespace to create arrays with: ``backend`` (a name or namespace) or the current one."""
    if backend is None:
        return ivy.current_backend()
    return ivy.backend_namespace(backend)


def safe_norm(x: Any, axis: int = -1, keepdims: bool = False) -> Any:
    """Euclidean norm whose gradient at the zero vector is 0 instead of NaN."""
    sq = ivy.sum(x * x, axis=axis, keepdims=keepdims)
    nonzero = sq > 0
    return ivy.where(nonzero, ivy.sqrt(ivy.where(nonzero, sq, 1.0)), 0.0)


def safe_divide(num: Any, den: Any) -> Any:
    """``num / den`` where ``den != 0``, else 0, with finite gradients in both cases."""
    nonzero = ivy.not_equal(den, 0.0)  # exact: paddle's != operator has a tolerance
    return ivy.where(nonzero, num / ivy.where(nonzero, den, 1.0), 0.0)


def append_ones(coords: Any) -> Any:
    """``[..., n]`` -> ``[..., n + 1]`` with a trailing 1 (homogeneous coordinates)."""
    return ivy.concat([coords, ivy.ones_like(coords[..., 0:1])], axis=-1)


def homogeneous3(coords: Any, fn: str, what: str) -> Any:
    """3-D points as homogeneous ``[..., 4]``: a ``[..., 3]`` input gets a trailing 1."""
    n = check_last_dim_in(coords, (3, 4), fn, what)
    return append_ones(coords) if n == 3 else coords


def matrix_transpose(m: Any) -> Any:
    """Swap the last two axes."""
    return ivy.matrix_transpose(m)


def apply_matrix(coords: Any, mat: Any) -> Any:
    """``mat @ v`` for every vector ``v`` on the last axis of ``coords``.

    ``mat`` is ``[B..., m, n]`` and ``coords`` ``[B..., S..., n]``: the leading axes of ``coords``
    that ``mat`` has are batch axes (broadcast), the remaining ``S...`` (an image's ``h, w``, a
    list of points...) share one matrix. One matmul, ``[B..., m, n] @ [B..., n, P]``, transposed
    back: with the long axis last the matmul is several times faster (on torch) than
    ``[B..., P, n] @ [B..., n, m]``, whose inner dimension is tiny.
    """
    mshape = shape_of(mat)
    cshape = shape_of(coords)
    nb = len(mshape) - 2
    if len(cshape) < nb + 1:
        raise ValueError(
            f"coordinates of shape {list(cshape)} have fewer leading axes than the batch axes "
            f"{list(mshape[:-2])} of the matrix of shape {list(mshape)}"
        )
    if cshape[-1] != mshape[-1]:
        raise ValueError(
            f"cannot apply a matrix of shape {list(mshape)} to vectors of size {cshape[-1]} "
            f"(coordinates of shape {list(cshape)})"
        )
    spatial = cshape[nb:-1]
    flat = ivy.reshape(coords, cshape[:nb] + (math.prod(spatial), cshape[-1]))
    out = matrix_transpose(ivy.matmul(mat, matrix_transpose(flat)))
    oshape = shape_of(out)
    return ivy.reshape(out, oshape[:-2] + spatial + (mshape[-2],))


def expand_to_spatial(x: Any, batch_rank: int, spatial_rank: int) -> Any:
    """Insert ``spatial_rank`` size-1 axes after the first ``batch_rank`` axes of ``x``."""
    shape = shape_of(x)
    return ivy.reshape(x, shape[:batch_rank] + (1,) * spatial_rank + shape[batch_rank:])


def as_batch_shape(batch_shape: Sequence[int] | int | None) -> tuple[int, ...]:
    """``None`` -> ``()``, an int -> ``(int,)``, a sequence -> a tuple of ints."""
    if batch_shape is None:
        return ()
    if isinstance(batch_shape, int):
        return (batch_shape,)
    return tuple(int(b) for b in batch_shape)


def inv3x3(m: Any) -> Any:
    """Inverse of ``[..., 3, 3]`` matrices by the adjugate: ``M⁻¹ = [r1×r2, r2×r0, r0×r1] / det``.

    The columns of the inverse are cross products of the rows ``r_i``, divided by
    ``det = r0 · (r1 × r2)``: a handful of elementwise ops, cheaper than a batched LU for 3x3
    matrices on every backend, and on JAX it avoids compiling a LAPACK call for every new shape.
    ``m`` must be invertible.
    """
    rows_next = ivy.concat([m[..., 1:3, :], m[..., 0:1, :]], axis=-2)  # r1, r2, r0
    rows_after = ivy.concat([m[..., 2:3, :], m[..., 0:2, :]], axis=-2)  # r2, r0, r1
    cof = ivy.linalg.cross(rows_next, rows_after, axis=-1)  # rows: r1×r2, r2×r0, r0×r1
    det = ivy.sum(m[..., 0:1, :] * cof[..., 0:1, :], axis=-1, keepdims=True)  # [..., 1, 1]
    return matrix_transpose(cof) / det


def index_dtype(x: Any) -> Any:
    """The default indexing dtype of native array ``x``'s backend, or of namespace ``x``.

    int64 on most backends, int32 on JAX without 64-bit mode.
    """
    xp = x if hasattr(x, "__array_namespace_info__") else ivy.namespace(x)
    return xp.__array_namespace_info__().default_dtypes()["indexing"]
