"""A few library functions written natively for PyTorch and for JAX: the same computation as the
Ivy libraries (the same formulas, the same numerically safe forms, a shape check per input), so
that the difference in time is the cost of writing them once against ``ivy.*``.

``torch_functions()`` / ``jax_functions()`` return ``{name: fn}`` with the names of
:data:`LIBRARY_FUNCTIONS`, plus ``drone_cost`` (the drone demo's cost: spline path, pose matrices,
body points, path length, signed distances to cuboids and the collision cost), which
``drone_step_*`` differentiate.
"""

from __future__ import annotations

from typing import Any

#: (name, library function it stands for)
LIBRARY_FUNCTIONS = (
    ("quaternion_to_rot_mat", "ivy_mech.quaternion_to_rot_mat"),
    ("rot_vec_pose_to_mat_pose", "ivy_mech.rot_vec_pose_to_mat_pose"),
    ("depth_to_cam_coords", "ivy_vision.depth_to_cam_coords"),
    ("cuboid_signed_distances", "ivy_vision.cuboid_signed_distances"),
    ("sample_spline_path", "ivy_robot.sample_spline_path"),
)

SMALL = 1e-2  # below this angle the Taylor series of sinc is used (as ivy_mech)


def _check_last(x: Any, n: int, what: str) -> None:
    if x.shape[-1] != n:
        raise ValueError(f"expected {what} [..., {n}], got {tuple(x.shape)}")


def torch_functions() -> dict[str, Any]:
    import torch

    def safe_norm(x: Any, dim: int = -1, keepdim: bool = False) -> Any:
        sq = torch.sum(x * x, dim=dim, keepdim=keepdim)
        nonzero = sq > 0
        return torch.where(nonzero, torch.sqrt(torch.where(nonzero, sq, 1.0)), 0.0)

    def sinc(x: Any) -> Any:
        x_sq = x * x
        small = x_sq < SMALL * SMALL
        series = 1.0 - x_sq / 6.0 + x_sq * x_sq / 120.0
        return torch.where(small, series, torch.sin(x) / torch.where(small, 1.0, x))

    def matrix(rows: list[list[Any]]) -> Any:
        return torch.stack([torch.stack(row, dim=-1) for row in rows], dim=-2)

    def quaternion_to_rot_mat(q: Any) -> Any:
        _check_last(q, 4, "quaternions")
        i, j, k, r = q[..., 0], q[..., 1], q[..., 2], q[..., 3]
        s = 2.0 / torch.sum(q * q, dim=-1)
        ii, jj, kk = s * i * i, s * j * j, s * k * k
        ij, ik, jk = s * i * j, s * i * k, s * j * k
        ir, jr, kr = s * i * r, s * j * r, s * k * r
        return matrix(
            [
                [1.0 - (jj + kk), ij - kr, ik + jr],
                [ij + kr, 1.0 - (ii + kk), jk - ir],
                [ik - jr, jk + ir, 1.0 - (ii + jj)],
            ]
        )

    def rot_vec_to_rot_mat(v: Any) -> Any:
        theta = safe_norm(v)
        half = sinc(theta / 2.0)
        c, a, b = torch.cos(theta), sinc(theta), half * half / 2.0
        x, y, z = v[..., 0], v[..., 1], v[..., 2]
        bx, by, bz, ax, ay, az = b * x, b * y, b * z, a * x, a * y, a * z
        return matrix(
            [
                [c + bx * x, bx * y - az, bx * z + ay],
                [by * x + az, c + by * y, by * z - ax],
                [bz * x - ay, bz * y + ax, c + bz * z],
            ]
        )

    def rot_vec_pose_to_mat_pose(pose: Any) -> Any:
        _check_last(pose, 6, "rotation-vector poses")
        return torch.cat([rot_vec_to_rot_mat(pose[..., 3:6]), pose[..., 0:3, None]], dim=-1)

    def depth_to_cam_coords(depth: Any, inv_calib_mat: Any) -> Any:
        _check_last(depth, 1, "a depth image")
        _check_last(inv_calib_mat, 3, "inverse calibration matrices")
        h, w = depth.shape[-3:-1]
        # ivy_vision's algorithm: channel planes d (x k0 + y k1 + k2) [3, h, w], moved last
        xs = torch.arange(0.0, float(w), 1.0, dtype=depth.dtype, device=depth.device)
        ys = torch.arange(0.0, float(h), 1.0, dtype=depth.dtype, device=depth.device).reshape(h, 1)
        k = inv_calib_mat.mT.reshape(3, 3, 1, 1)
        planes = depth.reshape(1, h, w) * (xs * k[0] + (ys * k[1] + k[2]))
        return torch.cat([planes, torch.ones_like(planes[0:1])], dim=0).movedim(0, -1)

    def cuboid_signed_distances(ext_mats: Any, dims: Any, query: Any) -> Any:
        _check_last(ext_mats, 4, "cuboid extrinsic matrices")
        _check_last(dims, 3, "cuboid dimensions")
        _check_last(query, 3, "query positions")
        local = torch.matmul(query.unsqueeze(-3), ext_mats[..., 0:3].mT) + ext_mats[..., 3:4].mT
        excess = torch.abs(local) - dims.unsqueeze(-2) * 0.5
        outside = safe_norm(torch.clamp(excess, min=0.0))
        inside = torch.clamp(torch.amax(excess, dim=-1), max=0.0)
        return torch.amin((outside + inside).mT, dim=-1, keepdim=True)

    def kernel(a: Any, b: Any) -> Any:  # the cubic polyharmonic kernel r^3 of |a_i - b_j|
        diffs = a.unsqueeze(-2) - b.unsqueeze(-3)
        sq = torch.sum(diffs * diffs, dim=-1)
        positive = sq > 0
        return torch.where(positive, torch.pow(torch.where(positive, sq, 1.0), 1.5), 0.0)

    def linear_terms(p: Any) -> Any:
        return torch.cat([p, torch.ones_like(p[..., 0:1])], dim=-1)

    def sample_spline_path(anchor_points: Any, anchor_vals: Any, sample_points: Any) -> Any:
        n, p = anchor_points.shape[-2:]
        if anchor_vals.shape[-2] != n or sample_points.shape[-1] != p:
            raise ValueError("anchor points, values and sample points do not match")
        like = {"dtype": anchor_points.dtype, "device": anchor_points.device}
        poly = linear_terms(anchor_points)
        system = torch.cat(
            [
                torch.cat([kernel(anchor_points, anchor_points), poly], dim=-1),
                torch.cat([poly.mT, torch.zeros((p + 1, p + 1), **like)], dim=-1),
            ],
            dim=-2,
        )
        selector = torch.cat([torch.eye(n, **like), torch.zeros((p + 1, n), **like)], dim=-2)
        coeffs = torch.linalg.solve(system, selector)
        weights = torch.cat([kernel(sample_points, anchor_points), linear_terms(sample_points)], dim=-1) @ coeffs
        return weights @ anchor_vals

    def path_length(path: Any) -> Any:
        return torch.sum(safe_norm(path[..., 1:, :] - path[..., :-1, :]), dim=-1)

    def collision_cost(distances: Any, clearance: float) -> Any:
        shortfall = torch.clamp(clearance - distances, min=0.0)
        return torch.mean(shortfall * shortfall, dim=(-2, -1))

    def drone_cost(anchors: Any, scene: dict[str, Any]) -> tuple[Any, Any, Any]:
        poses = sample_spline_path(
            scene["anchor_times"], torch.cat([scene["start"], anchors, scene["target"]], dim=0), scene["sample_times"]
        )
        points = torch.matmul(scene["body"], rot_vec_pose_to_mat_pose(poses).mT)  # [poses, points, 3]
        length = torch.mean(path_length(points.permute(1, 0, 2)))
        dists = cuboid_signed_distances(scene["ext_mats"], scene["dims"], points.reshape(-1, 3))
        cost = length + scene["weight"] * collision_cost(dists, scene["margin"])
        return cost, length, torch.amin(dists)

    def drone_step(anchors: Any, scene: dict[str, Any], lr: float) -> tuple[Any, Any, Any, Any]:
        a = anchors.detach().requires_grad_(True)
        cost, length, clearance = drone_cost(a, scene)
        (grad,) = torch.autograd.grad(cost, [a])
        return (a - lr * grad).detach(), cost.detach(), length.detach(), clearance.detach()

    return {
        "quaternion_to_rot_mat": quaternion_to_rot_mat,
        "rot_vec_pose_to_mat_pose": rot_vec_pose_to_mat_pose,
        "depth_to_cam_coords": depth_to_cam_coords,
        "cuboid_signed_distances": cuboid_signed_distances,
        "sample_spline_path": sample_spline_path,
        "drone_cost": drone_cost,
        "drone_step": drone_step,
    }


def jax_functions() -> dict[str, Any]:
    import jax
    import jax.numpy as jnp

    def safe_norm(x: Any, axis: int = -1, keepdims: bool = False) -> Any:
        sq = jnp.sum(x * x, axis=axis, keepdims=keepdims)
        nonzero = sq > 0
        return jnp.where(nonzero, jnp.sqrt(jnp.where(nonzero, sq, 1.0)), 0.0)

    def sinc(x: Any) -> Any:
        x_sq = x * x
        small = x_sq < SMALL * SMALL
        series = 1.0 - x_sq / 6.0 + x_sq * x_sq / 120.0
        return jnp.where(small, series, jnp.sin(x) / jnp.where(small, 1.0, x))

    def matrix(rows: list[list[Any]]) -> Any:
        return jnp.stack([jnp.stack(row, axis=-1) for row in rows], axis=-2)

    def quaternion_to_rot_mat(q: Any) -> Any:
        _check_last(q, 4, "quaternions")
        i, j, k, r = q[..., 0], q[..., 1], q[..., 2], q[..., 3]
        s = 2.0 / jnp.sum(q * q, axis=-1)
        ii, jj, kk = s * i * i, s * j * j, s * k * k
        ij, ik, jk = s * i * j, s * i * k, s * j * k
        ir, jr, kr = s * i * r, s * j * r, s * k * r
        return matrix(
            [
                [1.0 - (jj + kk), ij - kr, ik + jr],
                [ij + kr, 1.0 - (ii + kk), jk - ir],
                [ik - jr, jk + ir, 1.0 - (ii + jj)],
            ]
        )

    def rot_vec_to_rot_mat(v: Any) -> Any:
        theta = safe_norm(v)
        half = sinc(theta / 2.0)
        c, a, b = jnp.cos(theta), sinc(theta), half * half / 2.0
        x, y, z = v[..., 0], v[..., 1], v[..., 2]
        bx, by, bz, ax, ay, az = b * x, b * y, b * z, a * x, a * y, a * z
        return matrix(
            [
                [c + bx * x, bx * y - az, bx * z + ay],
                [by * x + az, c + by * y, by * z - ax],
                [bz * x - ay, bz * y + ax, c + bz * z],
            ]
        )

    def rot_vec_pose_to_mat_pose(pose: Any) -> Any:
        _check_last(pose, 6, "rotation-vector poses")
        return jnp.concatenate([rot_vec_to_rot_mat(pose[..., 3:6]), pose[..., 0:3, None]], axis=-1)

    def depth_to_cam_coords(depth: Any, inv_calib_mat: Any) -> Any:
        _check_last(depth, 1, "a depth image")
        _check_last(inv_calib_mat, 3, "inverse calibration matrices")
        h, w = depth.shape[-3:-1]
        # ivy_vision's algorithm: channel planes d (x k0 + y k1 + k2) [3, h, w], moved last
        xs = jnp.arange(0.0, float(w), 1.0, dtype=depth.dtype)
        ys = jnp.arange(0.0, float(h), 1.0, dtype=depth.dtype).reshape(h, 1)
        k = jnp.swapaxes(inv_calib_mat, -1, -2).reshape(3, 3, 1, 1)
        planes = depth.reshape(1, h, w) * (xs * k[0] + (ys * k[1] + k[2]))
        return jnp.moveaxis(jnp.concatenate([planes, jnp.ones_like(planes[0:1])], axis=0), 0, -1)

    def cuboid_signed_distances(ext_mats: Any, dims: Any, query: Any) -> Any:
        _check_last(ext_mats, 4, "cuboid extrinsic matrices")
        _check_last(dims, 3, "cuboid dimensions")
        _check_last(query, 3, "query positions")
        local = jnp.matmul(query[..., None, :, :], jnp.swapaxes(ext_mats[..., 0:3], -1, -2)) + jnp.swapaxes(
            ext_mats[..., 3:4], -1, -2
        )
        excess = jnp.abs(local) - dims[..., :, None, :] * 0.5
        outside = safe_norm(jnp.maximum(excess, 0.0))
        inside = jnp.minimum(jnp.max(excess, axis=-1), 0.0)
        return jnp.min(jnp.swapaxes(outside + inside, -1, -2), axis=-1, keepdims=True)

    def kernel(a: Any, b: Any) -> Any:
        diffs = a[..., :, None, :] - b[..., None, :, :]
        sq = jnp.sum(diffs * diffs, axis=-1)
        positive = sq > 0
        return jnp.where(positive, jnp.power(jnp.where(positive, sq, 1.0), 1.5), 0.0)

    def linear_terms(p: Any) -> Any:
        return jnp.concatenate([p, jnp.ones_like(p[..., 0:1])], axis=-1)

    def sample_spline_path(anchor_points: Any, anchor_vals: Any, sample_points: Any) -> Any:
        n, p = anchor_points.shape[-2:]
        if anchor_vals.shape[-2] != n or sample_points.shape[-1] != p:
            raise ValueError("anchor points, values and sample points do not match")
        dt = anchor_points.dtype
        poly = linear_terms(anchor_points)
        system = jnp.concatenate(
            [
                jnp.concatenate([kernel(anchor_points, anchor_points), poly], axis=-1),
                jnp.concatenate([jnp.swapaxes(poly, -1, -2), jnp.zeros((p + 1, p + 1), dt)], axis=-1),
            ],
            axis=-2,
        )
        selector = jnp.concatenate([jnp.eye(n, dtype=dt), jnp.zeros((p + 1, n), dt)], axis=-2)
        coeffs = jnp.linalg.solve(system, selector)
        weights = jnp.concatenate([kernel(sample_points, anchor_points), linear_terms(sample_points)], axis=-1) @ coeffs
        return weights @ anchor_vals

    def path_length(path: Any) -> Any:
        return jnp.sum(safe_norm(path[..., 1:, :] - path[..., :-1, :]), axis=-1)

    def collision_cost(distances: Any, clearance: float) -> Any:
        shortfall = jnp.maximum(clearance - distances, 0.0)
        return jnp.mean(shortfall * shortfall, axis=(-2, -1))

    def drone_cost(anchors: Any, scene: dict[str, Any]) -> tuple[Any, Any, Any]:
        poses = sample_spline_path(
            scene["anchor_times"],
            jnp.concatenate([scene["start"], anchors, scene["target"]], axis=0),
            scene["sample_times"],
        )
        points = jnp.matmul(scene["body"], jnp.swapaxes(rot_vec_pose_to_mat_pose(poses), -1, -2))
        length = jnp.mean(path_length(jnp.transpose(points, (1, 0, 2))))
        dists = cuboid_signed_distances(scene["ext_mats"], scene["dims"], points.reshape(-1, 3))
        cost = length + scene["weight"] * collision_cost(dists, scene["margin"])
        return cost, length, jnp.min(dists)

    def drone_step(anchors: Any, scene: dict[str, Any], lr: float) -> tuple[Any, Any, Any, Any]:
        def cost_only(a: Any) -> tuple[Any, tuple[Any, Any]]:
            cost, length, clearance = drone_cost(a, scene)
            return cost, (length, clearance)

        (cost, (length, clearance)), grad = jax.value_and_grad(cost_only, has_aux=True)(anchors)
        return anchors - lr * grad, cost, length, clearance

    return {
        "quaternion_to_rot_mat": quaternion_to_rot_mat,
        "rot_vec_pose_to_mat_pose": rot_vec_pose_to_mat_pose,
        "depth_to_cam_coords": depth_to_cam_coords,
        "cuboid_signed_distances": cuboid_signed_distances,
        "sample_spline_path": sample_spline_path,
        "drone_cost": drone_cost,
        "drone_step": drone_step,
    }
