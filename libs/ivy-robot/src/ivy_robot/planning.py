"""Motion planning: spline paths through anchors, their length, and a collision cost.

Conventions: ``[...]`` is any number of leading batch dimensions, broadcast between the
arguments; positions are in metres; every function is differentiable and compiles with
``ivy.compile`` (no branching on array values).
"""

from __future__ import annotations

from typing import Any

import ivy

from ._helpers import broadcast_batch, check_last_dims, safe_norm, shape_of

__all__ = ["collision_cost", "path_length", "sample_spline_path"]


def _polyharmonic(sq_dists: Any, order: int) -> Any:
    """The polyharmonic kernel of squared distances ``s = r²``.

    ``r^k = s^(k/2)`` for odd ``k``, ``r^k log(r)`` for even ``k``; both are 0 at ``r = 0``. For
    odd ``k >= 3``, ``s^(k/2)`` and its derivative are finite at 0 as they stand; otherwise the
    power (``k = 1``: an infinite derivative) and the logarithm are evaluated at a substitute 1
    there, so that values and gradients stay finite (no clamp: the kernel is exact for every
    ``r > 0``).
    """
    if order % 2 == 1 and order >= 3:
        return ivy.pow(sq_dists, order / 2)
    positive = sq_dists > 0
    s = ivy.where(positive, sq_dists, 1.0)
    if order % 2 == 1:
        phi = ivy.pow(s, order / 2)
    else:
        phi = 0.5 * ivy.pow(s, order / 2) * ivy.log(s)
    return ivy.where(positive, phi, 0.0)


def _kernel_matrix(points_a: Any, points_b: Any, order: int) -> Any:
    """``phi(|a_i - b_j|)``: ``[..., n_a, p]`` and ``[..., n_b, p]`` -> ``[..., n_a, n_b]``."""
    diffs = points_a[..., :, None, :] - points_b[..., None, :, :]
    return _polyharmonic(ivy.sum(diffs * diffs, axis=-1), order)


def _linear_terms(points: Any) -> Any:
    """``[..., n, p]`` -> ``[..., n, p + 1]``: rows ``[x, 1]``, the basis of the linear term."""
    return ivy.concat([points, ivy.ones_like(points[..., 0:1])], axis=-1)


def sample_spline_path(anchor_points: Any, anchor_vals: Any, sample_points: Any, order: int = 3) -> Any:
    """Sample the polyharmonic spline through anchors, e.g. a path of poses at times in [0, 1].

    The interpolant is ``f(x) = sum_i w_i phi(|x - c_i|) + V [x, 1]`` with the polyharmonic
    kernel ``phi(r) = r^k`` (odd ``k = order``) or ``r^k log r`` (even ``k``) and a linear
    polynomial term; ``w`` and ``V`` solve the interpolation conditions ``f(c_i) = y_i`` with
    ``sum_i w_i [c_i, 1] = 0`` (no smoothing). ``order=3`` is the cubic spline, ``5`` quintic,
    ``2`` the thin-plate spline; this is SciPy's ``RBFInterpolator(kernel=..., degree=1,
    smoothing=0)``. The samples are linear in the anchor values: the linear system of the anchor
    points is inverted once, shared by a batch of values.

    Args:
        anchor_points: ``[..., n, p]`` anchor coordinates ``c_i`` (for a path: times, ``p = 1``);
            ``n >= p + 1`` distinct points, not all on one hyperplane.
        anchor_vals: ``[..., n, d]`` values ``y_i`` at the anchors (for a path: poses).
        sample_points: ``[..., s, p]`` where to evaluate the spline.
        order: the kernel's order ``k``, a positive int.

    Returns:
        ``[..., s, d]`` interpolated values; the batch dimensions of the three arguments broadcast.
    """
    fn = "sample_spline_path"
    if isinstance(order, bool) or not isinstance(order, int) or order < 1:
        raise ValueError(f"{fn}: order must be a positive int (3: cubic, 5: quintic), got {order!r}")
    anchors = check_last_dims(anchor_points, (None, None), fn, "anchor points")
    vals = check_last_dims(anchor_vals, (None, None), fn, "anchor values")
    samples = check_last_dims(sample_points, (None, None), fn, "sample points")
    n, p = anchors[-2:]
    if vals[-2] != n:
        raise ValueError(
            f"{fn}: {n} anchor points but {vals[-2]} anchor values (shapes {list(anchors)} and {list(vals)})"
        )
    if samples[-1] != p:
        raise ValueError(
            f"{fn}: anchor points have {p} coordinates but sample points have {samples[-1]} "
            f"(shapes {list(anchors)} and {list(samples)})"
        )
    if n < p + 1:
        raise ValueError(f"{fn}: the linear term needs at least p + 1 = {p + 1} anchors, got {n}")
    broadcast_batch([anchors[:-2], vals[:-2], samples[:-2]], ["anchor_points", "anchor_vals", "sample_points"], fn)
    return ivy.matmul(_interpolation_weights(anchor_points, sample_points, order), anchor_vals)


def _interpolation_weights(anchor_points: Any, sample_points: Any, order: int) -> Any:
    """``[..., s, n]``: the spline is linear in the anchor values, ``f(x_j) = sum_i W_ji y_i``.

    ``W = D M⁻¹ [I; 0]`` with the design rows ``D_j = [phi(|x_j - c_1|), ..., phi(|x_j - c_n|),
    x_j, 1]`` and the system ``M = [[Phi, P], [Pᵀ, 0]]`` (``Phi_ik = phi(|c_i - c_k|)``,
    ``P_i = [c_i, 1]``); ``M⁻¹ [I; 0]`` is the first ``n`` columns of ``M⁻¹``. The inverse
    involves the anchor points alone, so a batch of values shares it, and gradients with respect
    to the values or the sample points do not pass through it.
    """
    shape = shape_of(anchor_points)
    n, p = shape[-2:]
    poly = _linear_terms(anchor_points)  # [..., n, p + 1]
    system = ivy.concat(
        [
            ivy.concat([_kernel_matrix(anchor_points, anchor_points, order), poly], axis=-1),
            # [Pᵀ, 0]: zeros padded on, on the device of the points
            ivy.pad(ivy.matrix_transpose(poly), [(0, 0)] * (len(shape) - 1) + [(0, p + 1)]),
        ],
        axis=-2,
    )
    coeffs = ivy.linalg.inv(system)[..., :n]  # M⁻¹ [I; 0]
    kernel = _kernel_matrix(sample_points, anchor_points, order)  # [..., s, n], batches broadcast
    linear = _linear_terms(sample_points)
    if shape_of(linear)[:-1] != shape_of(kernel)[:-1]:  # the anchors' batch is broadcast in
        linear = ivy.broadcast_to(linear, shape_of(kernel)[:-1] + (p + 1,))
    return ivy.matmul(ivy.concat([kernel, linear], axis=-1), coeffs)


def path_length(path: Any) -> Any:
    """The length of a polyline, the sum of its segment lengths ``sum_k |x_{k+1} - x_k|``.

    Args:
        path: ``[..., s, d]`` points in order along the path (``s >= 1``).

    Returns:
        ``[...]`` lengths (0 for a single point). The gradient of a zero-length segment is 0.
    """
    check_last_dims(path, (None, None), "path_length", "a path")
    return ivy.sum(safe_norm(path[..., 1:, :] - path[..., :-1, :], axis=-1), axis=-1)


def collision_cost(signed_distances: Any, clearance: float = 0.0) -> Any:
    """The mean squared shortfall of signed distances below a clearance.

    ``mean_q max(clearance - d_q, 0)²``: 0 when every query point is at least ``clearance`` away
    from every obstacle; smooth (continuously differentiable) in the distances.

    Args:
        signed_distances: ``[..., q, 1]`` signed distances (negative inside obstacles), as
            returned by ``ivy_vision.cuboid_signed_distances`` or ``PrimitiveScene.sdf``.
        clearance: the distance below which a point is penalised, in the distances' units.

    Returns:
        ``[...]`` costs.
    """
    check_last_dims(signed_distances, (None, 1), "collision_cost", "signed distances")
    shortfall = ivy.clip(clearance - signed_distances, 0.0)
    return ivy.mean(shortfall * shortfall, axis=(-2, -1))
