"""A drone plans a collision-free path by gradient descent, written once for every autodiff backend.

    python examples/drone_motion_planning.py [--backend torch|jax|tensorflow|paddle]
                                             [--steps 200] [--lr 0.01] [--seed N] [--out results]

The Ivy paper's end-to-end application. The path is a cubic spline through four pose anchors
(start, two learnable anchors, target) sampled at 100 poses; each pose places the drone's five
body points in the world; the cost is the length of the path plus a collision cost from the signed
distances to 11 cuboid obstacles. Gradient descent on the two learnable anchors runs through the
spline (ivy_robot), the pose conversions (ivy_mech), the rigid-body sampling (ivy_robot) and the
signed distances (ivy_vision) until every body point clears every obstacle by 0.1 m along the
whole path, not only at the 100 poses: :func:`path_clearance` proves it (a lower bound of the
clearance between the poses, from the signed distance being 1-Lipschitz and the spline's
curvature bounded), and finds the true minimum to 1e-6 m. Every operation is an ``ivy.*`` call,
so the same code runs natively on PyTorch, JAX, TensorFlow and PaddlePaddle; NumPy has no
gradients, so the demo refuses it (exit code 2).

It prints the progress and the verdict and saves a picture of the obstacles and the initial and
final paths, from above, from the side and in 3D, with the clearance along the path, as
``drone_motion_planning_<backend>.png`` in the folder ``--out`` (default ``results/``), and prints
its path; the picture needs matplotlib.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

import ivy
import ivy_mech
import ivy_robot
import ivy_vision

# The scene of the original demo: (centre, rotation vector, edge lengths) of each cuboid, metres.
OBSTACLES = (
    ((-0.6, -0.025, 0.45), (0.0, 0.0, math.pi / 2), (0.4001, 0.45, 0.9088)),
    ((0.275, -0.65, 0.45), (0.0, 0.0, math.pi), (0.4001, 0.45, 0.9088)),
    ((0.3, 0.0, 0.375), (0.0, 0.0, 0.0), (1.6, 1.1, 0.75)),
    ((2.175, 1.775, 0.45), (-math.pi / 2, 0.0, 0.0), (0.6001, 0.9, 1.2)),
    ((2.175, 0.575, 0.45), (-math.pi / 2, 0.0, 0.0), (0.6001, 0.9, 1.2)),
    ((0.1718, -0.0171, 1.0274), (0.0, 0.0, 0.0), (0.4, 0.4006, 0.5636)),
    ((-0.725, 2.0978, 0.35), (0.0, -math.pi / 2, 0.0), (0.7124, 0.7986, 0.9976)),
    ((1.4252, 1.7834, 0.4607), (0.0, 0.0, 0.9599), (0.7342, 0.7652, 0.9185)),
    ((-0.675, -2.325, 0.985), (0.0, 0.0, -math.pi / 2), (0.3, 1.2, 1.97)),
    ((-2.175, 0.975, 0.985), (0.0, 0.0, math.pi), (0.58, 1.2001, 1.9701)),
    ((0.0, 0.0, -1.0), (0.0, 0.0, 0.0), (0.3, 0.3, 0.3)),
)
START_POSE = (-1.15, -1.028, 0.6, 0.0, 0.0, 0.6981)  # rotation-vector pose [x, y, z, vx, vy, vz]
TARGET_POSE = (1.025, 1.125, 0.6, 0.0, 0.0, 0.6981)
DRONE_BODY = ((0.0, 0.0, 0.0), (0.15, 0.15, 0.0), (0.15, -0.15, 0.0), (-0.15, 0.15, 0.0), (-0.15, -0.15, 0.0))
ANCHOR_TIMES = (0.0, 1 / 3, 2 / 3, 1.0)  # start, two learnable anchors, target
NUM_POSES = 100
CLEARANCE = 0.1  # the plan is done when every body point is this far from every obstacle
CLEARANCE_TOLERANCE = 1e-6  # metres: how closely path_clearance pins down the true minimum
# Points closer than the margin are penalised: a margin above the clearance lets gradient descent
# clear 0.1 m before the pull of the length term balances the push of the collision term.
PENALTY_MARGIN = 0.3
COLLISION_WEIGHT = 100.0
DEFAULT_STEPS, DEFAULT_LR = 200, 0.01
# Where ivy.compile pays off for a run of a few dozen steps (measured on a 2-core CPU): JAX's eager
# mode dispatches op by op (13 s eager, 1.7 s with jax.jit, compilation included), while torch.compile
# (about 100 s), tf.function (3.5 s against 1.9 s eager) and paddle's to_static (6 s against 0.3 s)
# take longer to compile than the whole eager run.
COMPILE_BY_DEFAULT = {"jax": True}


def obstacle_arrays(obstacles: Any, array: Callable[[Any], Any]) -> tuple[Any, Any, Any]:
    """``(box->world [n, 3, 4], world->box [n, 3, 4], edge lengths [n, 3])`` of the cuboids.

    ``array`` makes a native array of the planner's backend from nested lists.
    """
    box_to_world = ivy_mech.rot_vec_pose_to_mat_pose(array([list(c) + list(r) for c, r, _ in obstacles]))
    # inverted to the world->cuboid matrices that the signed distances take
    world_to_box = ivy.linalg.inv(ivy_mech.make_transformation_homogeneous(box_to_world))[..., 0:3, :]
    return box_to_world, world_to_box, array([list(d) for _, _, d in obstacles])


@dataclass
class Clearance:
    """The clearance of a whole path: the smallest signed distance of any body point at any time."""

    minimum: float  # the smallest signed distance at the poses evaluated: the true minimum, from above
    lower_bound: float  # proven: no body point comes closer to an obstacle anywhere along the path
    time: float  # the spline parameter (in [0, 1]) of the minimum
    poses: int  # poses evaluated to pin it down


@dataclass
class Plan:
    """The outcome of :func:`descend` (the anchors are native arrays of the planner's backend)."""

    anchors: Any  # [2, d] the learnable anchors after the last step
    costs: list[float]  # the cost before each step, and of the final anchors
    steps: int  # gradient steps taken
    length: float  # path length of the final anchors (mean over body points), metres
    clearance: float  # the final path's clearance: along the whole path when certified, else at the sampled poses
    required: float  # the clearance the plan had to reach
    seconds: float  # wall time of the optimisation loop
    sampled_clearance: float = math.nan  # the smallest signed distance at the poses the cost samples
    clearance_bound: float | None = None  # proven lower bound along the whole path (None: not certified)

    @property
    def collision_free(self) -> bool:
        """Whether the path clears ``required``: proven along the whole path when certified."""
        bound = self.clearance if self.clearance_bound is None else self.clearance_bound
        return bound >= self.required


CostTerms = Callable[[Any], "tuple[Any, Any, Any]"]


class DronePlanner:
    """The planning problem on one backend: the scene, the drone and the cost, as ``ivy.*`` code.

    Args:
        backend: an Ivy backend with autodiff (``torch``, ``jax``, ``tensorflow``, ``paddle``).
        dtype: the floating dtype of every array.
    """

    def __init__(self, backend: str, dtype: str = "float32") -> None:
        self.backend, self.dtype = backend, dtype
        self.obstacle_inv_ext_mats, self.obstacle_ext_mats, self.obstacle_dims = obstacle_arrays(OBSTACLES, self._array)
        self.drone = ivy_robot.RigidMobile(self._array(DRONE_BODY))
        self._checker: DronePlanner | None = None
        self.start, self.target = self._array([START_POSE]), self._array([TARGET_POSE])  # [1, 6]
        self.anchor_times = self._array([[t] for t in ANCHOR_TIMES])  # [4, 1]
        self.sample_times = self._array([[k / (NUM_POSES - 1)] for k in range(NUM_POSES)])  # [100, 1]

    def _array(self, values: Any) -> Any:
        return ivy.asarray(values, dtype=self.dtype, backend=self.backend)

    def initial_anchors(self, seed: int | None = None) -> Any:
        """``[2, 6]``: the interior anchors of the straight path (start and target interpolated).

        With ``seed``, each coordinate moves by up to 5 cm (rotation vectors by 0.05 rad), drawn
        by Python's ``random`` so that every backend starts from the same path.
        """
        rows = [[s + (t - s) * tau for s, t in zip(START_POSE, TARGET_POSE)] for tau in ANCHOR_TIMES[1:-1]]
        if seed is not None:
            import random

            rng = random.Random(seed)
            rows = [[v + rng.uniform(-0.05, 0.05) for v in row] for row in rows]
        return self._array(rows)

    def poses(self, anchors: Any) -> Any:
        """``[100, 6]`` rotation-vector poses along the spline through start, anchors and target."""
        anchor_poses = ivy.concat([self.start, anchors, self.target], axis=0)
        return ivy_robot.sample_spline_path(self.anchor_times, anchor_poses, self.sample_times)

    def body_points(self, anchors: Any) -> Any:
        """``[100, 5, 3]`` world positions of the drone's body points at each pose of the path."""
        return self.drone.sample_body(ivy_mech.rot_vec_pose_to_mat_pose(self.poses(anchors)))

    def cost_terms(self, anchors: Any) -> tuple[Any, Any, Any]:
        """``(cost, length, clearance)`` of the path through ``anchors`` (scalars).

        ``length`` is the mean over body points of the length of each point's trajectory (so
        spinning the drone costs length too); ``clearance`` the smallest signed distance.
        """
        points = self.body_points(anchors)
        length = ivy.mean(ivy_robot.path_length(ivy.permute_dims(points, (1, 0, 2))))
        distances = ivy_vision.cuboid_signed_distances(
            self.obstacle_ext_mats, self.obstacle_dims, ivy.reshape(points, (-1, 3))
        )
        cost = length + COLLISION_WEIGHT * ivy_robot.collision_cost(distances, PENALTY_MARGIN)
        return cost, length, ivy.min(distances)

    def distances_at(self, anchors: Any, times: Any) -> tuple[Any, Any]:
        """NumPy ``(poses [n, 6], signed distances [n, 5])`` of the body points along the spline
        through ``anchors`` at the spline parameters ``times`` (a NumPy ``[n]`` in ``[0, 1]``)."""
        anchor_poses = ivy.concat([self.start, self._array(ivy.to_numpy(anchors)), self.target], axis=0)
        poses = ivy_robot.sample_spline_path(self.anchor_times, anchor_poses, self._array(np.asarray(times)[:, None]))
        points = self.drone.sample_body(ivy_mech.rot_vec_pose_to_mat_pose(poses))  # [n, 5, 3]
        distances = ivy_vision.cuboid_signed_distances(
            self.obstacle_ext_mats, self.obstacle_dims, ivy.reshape(points, (-1, 3))
        )
        return ivy.to_numpy(poses), ivy.to_numpy(ivy.reshape(distances, (len(times), len(DRONE_BODY))))

    def checker(self) -> DronePlanner:
        """The planner that :meth:`path_clearance` evaluates with: float64 on NumPy (every pose
        there is cheap and exact to 1e-16), else on this backend in float64."""
        if self._checker is None:
            backend = "numpy" if "numpy" in ivy.backends() else self.backend
            self._checker = DronePlanner(backend, dtype="float64")
        return self._checker

    def path_clearance(self, anchors: Any, tolerance: float = CLEARANCE_TOLERANCE) -> Clearance:
        """The clearance of the whole spline through ``anchors``, not only at the sampled poses
        (see :func:`path_clearance`), evaluated in float64."""
        checker = self.checker()
        return path_clearance(
            lambda times: checker.distances_at(anchors, times),
            np.linalg.norm(np.asarray(DRONE_BODY), axis=-1),
            ANCHOR_TIMES,
            NUM_POSES,
            tolerance,
        )

    def plan(
        self,
        anchors: Any,
        steps: int = DEFAULT_STEPS,
        lr: float = DEFAULT_LR,
        compile: bool | None = None,
        on_step: Callable[[int, float, float], None] | None = None,
    ) -> Plan:
        """Gradient descent from ``anchors`` until the whole path is proven collision-free (see
        :func:`descend`)."""
        if compile is None:
            compile = COMPILE_BY_DEFAULT.get(self.backend, False)
        return descend(self.cost_terms, anchors, steps, lr, CLEARANCE, compile, on_step, certify=self.path_clearance)


def _second_derivative_bounds(evaluate: Callable[[Any], Any], knots: Any) -> tuple[float, float]:
    """Bounds of ``|x''(t)|`` and ``|v''(t)|`` over ``[0, 1]`` for the poses ``[x, v]`` of a cubic
    spline with the anchor times ``knots``.

    Between two knots the cubic spline is a cubic polynomial, so its second derivative is linear
    there and its norm is largest at a knot; four samples of a cubic give its second derivative
    at both ends exactly (the three-point one-sided formulas are exact up to cubics).
    """
    bound_x = bound_v = 0.0
    for a, b in zip(knots[:-1], knots[1:]):
        delta = (b - a) / 3
        f = evaluate(np.array([a, a + delta, a + 2 * delta, b]))  # [4, 6]
        for second in ((2 * f[0] - 5 * f[1] + 4 * f[2] - f[3]), (2 * f[3] - 5 * f[2] + 4 * f[1] - f[0])):
            second = second / delta**2
            bound_x = max(bound_x, float(np.linalg.norm(second[:3])))
            bound_v = max(bound_v, float(np.linalg.norm(second[3:])))
    return bound_x, bound_v


def path_clearance(
    distances_at: Callable[[Any], tuple[Any, Any]],
    body_radii: Any,
    knots: Any,
    num_poses: int,
    tolerance: float = CLEARANCE_TOLERANCE,
    max_poses: int = 20_000,
) -> Clearance:
    """The smallest signed distance of a rigid body's points along a whole cubic spline of
    rotation-vector poses, with a proof of a lower bound.

    ``distances_at(times)`` gives NumPy ``(poses [n, 6], distances [n, p])`` at spline parameters
    ``times``; ``body_radii`` ``[p]`` are the distances of the body points from the body's origin.
    Between two evaluated times ``t0 < t1`` (``h = t1 - t0``) a body point moves at most
    ``s |dx| + r s |dv| + (A_x + r A_v) s (1 - s) h² / 2`` from its position at ``t0`` by the time
    ``t0 + s h``: ``dx``, ``dv`` are the chords of the position and the rotation vector, ``A_x``,
    ``A_v`` bounds of their second derivatives (the distance of a curve from its chord), and a
    rotation by ``R(v)`` moves a point at radius ``r`` at most ``r |dv|`` (the exponential map is
    1-Lipschitz). The signed distance to a set of boxes is 1-Lipschitz, so the distance anywhere in
    between is at least ``(d0 + d1 - |dx| - r |dv|) / 2 - (A_x + r A_v) h² / 8``. Intervals whose
    bound is below the smallest distance found (less ``tolerance``) are halved, the lowest bounds
    first, until none is or ``max_poses`` poses are evaluated (a path that runs at a constant
    distance from a face, as through a box at constant height, would need ever more).

    Returns:
        The :class:`Clearance`: ``lower_bound <= true minimum <= minimum``, and ``minimum -
        lower_bound <= tolerance`` unless the ``max_poses`` did not suffice.
    """
    bound_x, bound_v = _second_derivative_bounds(lambda t: distances_at(t)[0], knots)
    radii = np.asarray(body_radii, dtype=np.float64)[None, :]
    times = np.linspace(0.0, 1.0, num_poses)
    poses, dists = (np.asarray(a, dtype=np.float64) for a in distances_at(times))
    while True:
        h = np.diff(times)[:, None]
        chord = np.linalg.norm(np.diff(poses[:, :3], axis=0), axis=-1)[:, None]
        turn = np.linalg.norm(np.diff(poses[:, 3:], axis=0), axis=-1)[:, None]
        sag = (bound_x + radii * bound_v) * h * h / 8
        bounds = ((dists[:-1] + dists[1:] - chord - radii * turn) / 2 - sag).min(axis=1)  # per interval
        split = np.flatnonzero(bounds < dists.min() - tolerance)
        room = max_poses - len(times)
        if not split.size or room <= 0:
            break
        split = split[np.argsort(bounds[split], kind="stable")[:room]]
        middles = (times[split] + times[split + 1]) / 2
        new_poses, new_dists = (np.asarray(a, dtype=np.float64) for a in distances_at(middles))
        order = np.argsort(np.concatenate([times, middles]), kind="stable")
        times = np.concatenate([times, middles])[order]
        poses = np.concatenate([poses, new_poses])[order]
        dists = np.concatenate([dists, new_dists])[order]
    k = int(np.argmin(dists.min(axis=1)))
    return Clearance(
        minimum=float(dists.min()),
        lower_bound=float(min(bounds.min(), dists.min())),
        time=float(times[k]),
        poses=len(times),
    )


def descent_step(cost_terms: CostTerms, anchors: Any, lr: float) -> tuple[Any, Any, Any, Any]:
    """One gradient-descent step on ``cost_terms``: ``(new anchors, cost, length, clearance)`` at ``anchors``."""
    cost, grads, length, clearance = ivy.execute_with_gradients(
        lambda xs: cost_terms(xs["anchors"]), {"anchors": anchors}
    )
    new = ivy.gradient_descent_update({"anchors": anchors}, grads, lr)
    return new["anchors"], cost, length, clearance


def descend(
    cost_terms: CostTerms,
    anchors: Any,
    steps: int,
    lr: float,
    clearance: float,
    compile: bool,
    on_step: Callable[[int, float, float], None] | None = None,
    certify: Callable[[Any], Clearance] | None = None,
) -> Plan:
    """Gradient descent on the anchors until the path clears ``clearance``, at most ``steps`` steps.

    ``cost_terms(anchors)`` returns ``(cost, length, clearance)``, the clearance at the poses the
    cost samples. ``compile``: run the step through ``ivy.compile`` (the framework's own
    compiler). ``on_step(k, cost, clearance)`` is called once the cost of step ``k`` is known.
    ``certify(anchors)``: the :class:`Clearance` of the whole path; with it, the descent goes on
    until the whole path is proven clear (checked once the sampled poses are), and the plan
    reports the whole path's clearance.
    """

    def step(x: Any) -> tuple[Any, Any, Any, Any]:
        return descent_step(cost_terms, x, lr)

    run = ivy.compile(step) if compile else step
    anchors = ivy.variable(anchors)
    costs: list[float] = []
    whole: Clearance | None = None
    started = time.perf_counter()
    for k in range(steps + 1):
        if k == steps:  # the final anchors: their cost only
            cost, length, closest = cost_terms(anchors)
        else:
            new_anchors, cost, length, closest = run(anchors)
        costs.append(float(ivy.to_scalar(cost)))
        closest = float(ivy.to_scalar(closest))
        if on_step is not None:
            on_step(k, costs[-1], closest)
        if closest >= clearance or k == steps:
            whole = None if certify is None else certify(anchors)
            if whole is None or whole.lower_bound >= clearance or k == steps:
                break
        anchors = new_anchors
    return Plan(
        anchors=anchors,
        costs=costs,
        steps=k,
        length=float(ivy.to_scalar(length)),
        clearance=closest if whole is None else whole.minimum,
        required=clearance,
        seconds=time.perf_counter() - started,
        sampled_clearance=closest,
        clearance_bound=None if whole is None else whole.lower_bound,
    )


class Progress:
    """A progress bar with the current cost: tqdm when installed, else one line on stderr."""

    def __init__(self, total: int, desc: str) -> None:
        self.total, self.desc, self.start = total, desc, time.perf_counter()
        try:
            from tqdm import tqdm
        except ImportError:
            self.bar = None
        else:
            self.bar = tqdm(total=total, desc=desc, unit="step", file=sys.stderr, leave=True)

    def __call__(self, k: int, cost: float, clearance: float) -> None:
        if self.bar is not None:
            self.bar.set_postfix(cost=f"{cost:.4f}", clearance=f"{clearance:+.3f}", refresh=False)
            self.bar.update(1 if k < self.total else 0)
            return
        rate = (k + 1) / max(time.perf_counter() - self.start, 1e-9)
        line = (
            f"{self.desc}: step {k}/{self.total}  cost {cost:.4f}  clearance {clearance:+.3f} m  ({rate:.1f} steps/s)"
        )
        sys.stderr.write("\r" + line.ljust(100))  # padded: a shorter line overwrites a longer one
        sys.stderr.flush()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        else:
            sys.stderr.write("\n")


def needs_gradients(backend: str) -> bool:
    """Whether ``backend`` lacks the automatic differentiation the demo needs."""
    probe = ivy.asarray([1.0], backend=backend)
    try:
        ivy.execute_with_gradients(lambda xs: ivy.sum(xs["x"]), {"x": ivy.variable(probe)})
    except ivy.errors.NoAutodiffError:
        return True
    return False


def import_pyplot() -> Any:
    """matplotlib's pyplot on a file-only backend, or None when matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


_SIGNS = np.array([[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)])


def _corners(dims: Any, box_to_world: Any) -> Any:
    """``[8, 3]``: the world corners of a cuboid of edge lengths ``dims`` (box->world ``[3, 4]``)."""
    return (_SIGNS * np.array(dims)) @ box_to_world[:, :3].T + box_to_world[:, 3]


def draw_obstacles(top: Any, in_3d: Any, obstacles: Any, box_to_world: Any, limits: Any = None) -> None:
    """Cuboids as footprints on the axes ``top`` (x-y) and as translucent boxes on the 3-D axes ``in_3d``.

    ``limits``: ``((x_min, x_max), (y_min, y_max))``; cuboids whose centre lies outside are left out
    (3-D axes do not clip what they draw).
    """
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection

    faces = [[0, 1, 3, 2], [4, 5, 7, 6], [0, 1, 5, 4], [2, 3, 7, 6], [0, 2, 6, 4], [1, 3, 7, 5]]
    for (_, _, dims), mat in zip(obstacles, ivy.to_numpy(box_to_world)):
        corners = _corners(dims, mat)
        centre = mat[:, 3]
        outside = limits is not None and any(not lo <= c <= hi for c, (lo, hi) in zip(centre, limits))
        if corners[:, 2].max() < 0 or outside:
            continue  # below the floor, or out of the picture
        top.fill(*_convex_hull(corners[:, :2]).T, color="0.6", alpha=0.5, lw=0.8, ec="0.3")
        in_3d.add_collection3d(Poly3DCollection([corners[f] for f in faces], fc="0.6", ec="0.3", lw=0.4, alpha=0.25))


def obstacle_tops_below(points: Any, obstacles: Any, box_to_world: Any) -> Any:
    """``[n]``: the height of the highest obstacle below any of the points ``[n, p, 3]`` (NumPy),
    0 (the floor) where none is: what the drone flies over. Every cuboid of the scene has one of
    its axes vertical, so its column is its footprint (the hull of its corners in x-y)."""
    tops = np.zeros(points.shape[0])
    for (_, _, dims), mat in zip(obstacles, ivy.to_numpy(box_to_world)):
        corners = _corners(dims, mat)
        hull = _convex_hull(corners[:, :2])
        edges = np.roll(hull, -1, axis=0) - hull
        rel = points[..., None, :2] - hull  # [n, p, edges, 2]
        inside = ((edges[:, 0] * rel[..., 1] - edges[:, 1] * rel[..., 0]) >= 0).all(-1).any(-1)  # [n]
        tops = np.where(inside, np.maximum(tops, corners[:, 2].max()), tops)
    return tops


def save_picture(
    planner: DronePlanner,
    initial_points: Any,
    final_points: Any,
    path: str,
    note: str = "",
    clearances: dict[str, tuple[Any, Any]] | None = None,
    minimum: Clearance | None = None,
) -> bool:
    """Draws the obstacles and the initial and final paths (body points ``[100, 5, 3]``) from above,
    from the side (unrolled along each path: its height over the obstacles below it) and in 3D,
    and (given ``clearances``: per path, NumPy spline parameters and the smallest signed distance
    of the body points there) the clearance along the paths, with the planned path's proven
    ``minimum``. ``note``: a subtitle.

    Returns False (and draws nothing) when matplotlib is not installed.
    """
    plt = import_pyplot()
    if plt is None:
        return False
    paths = {
        "initial path": (ivy.to_numpy(initial_points), "tab:red", "--"),
        "planned path": (ivy.to_numpy(final_points), "tab:blue", "-"),
    }
    fig = plt.figure(figsize=(14, 11))
    top = fig.add_subplot(2, 2, 1)
    in_3d = fig.add_subplot(2, 2, 2, projection="3d")
    side = fig.add_subplot(2, 2, 3)
    profile = fig.add_subplot(2, 2, 4)
    draw_obstacles(top, in_3d, OBSTACLES, planner.obstacle_inv_ext_mats)
    for name, (points, colour, style) in paths.items():
        centre = points[:, 0, :]
        top.plot(centre[:, 0], centre[:, 1], style, color=colour, lw=2, label=name)
        in_3d.plot(centre[:, 0], centre[:, 1], centre[:, 2], style, color=colour, lw=2, label=name)
        for k in range(0, NUM_POSES, 11):  # the drone at a few poses: its two diagonals
            for diagonal in ((1, 4), (2, 3)):
                ends = points[k, diagonal, :]
                top.plot(ends[:, 0], ends[:, 1], color=colour, lw=1, alpha=0.7)
                in_3d.plot(ends[:, 0], ends[:, 1], ends[:, 2], color=colour, lw=1, alpha=0.7)
        # the side view, unrolled along the path: the drone's height over what lies below it
        along = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(centre[:, :2], axis=0), axis=-1))])
        below = obstacle_tops_below(points, OBSTACLES, ivy.to_numpy(planner.obstacle_inv_ext_mats))
        if name == "planned path":
            side.fill_between(along, 0.0, below, color="0.6", alpha=0.5, lw=0.8, ec="0.3", label="obstacles below it")
        else:
            side.plot(along, below, ":", color=colour, lw=1, label="obstacles below the initial path")
        side.plot(along, points[:, :, 2].min(axis=1), style, color=colour, lw=2, label=f"{name}: lowest body point")
    for pose, marker, name in ((START_POSE, "o", "start"), (TARGET_POSE, "*", "target")):
        top.plot(pose[0], pose[1], marker, color="k", ms=10, label=name)
        in_3d.scatter([pose[0]], [pose[1]], [pose[2]], marker=marker, color="k", s=60)
    top.set(xlim=(-2.6, 2.6), ylim=(-2.6, 2.6), xlabel="x (m)", ylabel="y (m)", title="seen from above")
    top.set_aspect("equal")
    top.legend(loc="lower right", fontsize=8)
    side.set(
        ylim=(0, 1.6),
        xlabel="along the path, seen from above (m)",
        ylabel="z (m)",
        title="seen from the side, along the path",
    )
    side.legend(loc="upper right", fontsize=8)
    in_3d.set(
        xlim=(-2.6, 2.6), ylim=(-2.6, 2.6), zlim=(0, 2), xlabel="x (m)", ylabel="y (m)", zlabel="z (m)", title="in 3D"
    )
    in_3d.set_box_aspect((5.2, 5.2, 2.6))
    in_3d.view_init(elev=28, azim=-60)
    for name, (times, dists) in (clearances or {}).items():
        _, colour, style = paths[name]
        profile.plot(times, dists, style, color=colour, lw=1.5, label=name)
    profile.axhline(CLEARANCE, color="k", lw=1, ls=":", label=f"required {CLEARANCE} m")
    if minimum is not None:
        profile.plot(minimum.time, minimum.minimum, "o", color="tab:blue", ms=6)
        profile.annotate(
            f"minimum {minimum.minimum:.4f} m\n(proven >= {minimum.lower_bound:.4f} m)",
            (minimum.time, minimum.minimum),
            textcoords="offset points",
            xytext=(10, -28),
            fontsize=8,
        )
    profile.set(
        xlim=(0, 1),
        ylim=(-0.2, 0.6),
        xlabel="along the path (spline parameter)",
        ylabel="clearance (m)",
        title="clearance of the drone along the whole path",
    )
    profile.legend(loc="upper right", fontsize=8)
    fig.suptitle(
        f"drone motion planning on {planner.backend}: {len(OBSTACLES)} cuboid obstacles, required "
        f"clearance {CLEARANCE} m\n{note}"
    )
    fig.tight_layout()
    save_figure(fig, path, dpi=90)
    plt.close(fig)
    return True


def save_figure(fig: Any, path: str, dpi: int) -> None:
    """Writes ``fig`` as a PNG to ``path`` atomically: into a temporary file of the same folder,
    then renamed over ``path`` (an interrupted run leaves the previous picture whole)."""
    import tempfile

    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".drone-", suffix=".png")
    try:
        with os.fdopen(fd, "wb") as f:
            fig.savefig(f, format="png", dpi=dpi)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)  # mkstemp's file is private to its owner; a picture is not
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _convex_hull(points: Any) -> Any:
    """The convex hull of 2-D points (``[n, 2]`` NumPy), counter-clockwise (monotone chain)."""
    pts = sorted(map(tuple, np.round(points, 9)))

    def half(seq: list[tuple[float, float]]) -> list[tuple[float, float]]:
        out: list[tuple[float, float]] = []
        for p in seq:
            while (
                len(out) >= 2
                and ((out[-1][0] - out[-2][0]) * (p[1] - out[-2][1]) - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0]))
                <= 0
            ):
                out.pop()
            out.append(p)
        return out[:-1]

    return np.array(half(pts) + half(pts[::-1]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", default="torch", help="torch (default), jax, tensorflow or paddle")
    parser.add_argument("--steps", type=int, default=DEFAULT_STEPS, help="most gradient steps (default %(default)s)")
    parser.add_argument("--lr", type=float, default=DEFAULT_LR, help="learning rate (default %(default)s)")
    parser.add_argument(
        "--seed", type=int, default=None, help="start from randomly moved anchors (default: the straight path)"
    )
    parser.add_argument("--out", default="results", help="folder of the picture (default: %(default)s/)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--compile",
        dest="compile",
        action="store_true",
        default=None,
        help="compile the step with ivy.compile (default on jax only, see COMPILE_BY_DEFAULT)",
    )
    mode.add_argument("--eager", dest="compile", action="store_false", help="run the step eagerly")
    parser.set_defaults(compile=None)
    args = parser.parse_args(argv)
    compile_step = COMPILE_BY_DEFAULT.get(args.backend, False) if args.compile is None else args.compile

    if args.backend not in ivy.backends():
        print(f"backend {args.backend!r} is not installed (installed: {', '.join(ivy.backends())})", file=sys.stderr)
        return 2
    if needs_gradients(args.backend):
        print(
            f"the drone demo descends gradients, and the {args.backend!r} backend has no automatic "
            "differentiation: use --backend torch, jax, tensorflow or paddle",
            file=sys.stderr,
        )
        return 2
    planner = DronePlanner(args.backend)
    initial = planner.initial_anchors(args.seed)
    evaluate, body_points = (lambda a: planner.cost_terms(a)), (lambda a: planner.body_points(a))
    if compile_step:  # where eager mode is slow, so are single evaluations
        evaluate, body_points = ivy.compile(evaluate), ivy.compile(body_points)
    _, length0, clearance0 = evaluate(initial)
    print(
        f"drone motion planning on {args.backend}: {len(OBSTACLES)} obstacles, {NUM_POSES} poses, "
        f"{len(DRONE_BODY)} body points; initial path {float(ivy.to_scalar(length0)):.3f} m long, "
        f"clearance {float(ivy.to_scalar(clearance0)):+.3f} m at its {NUM_POSES} poses"
    )
    progress = Progress(args.steps, f"planning ({args.backend}, {'compiled' if compile_step else 'eager'})")
    plan = planner.plan(initial, steps=args.steps, lr=args.lr, compile=compile_step, on_step=progress)
    progress.close()

    verdict = "collision-free" if plan.collision_free else "NOT collision-free"
    print(
        f"{verdict} after {plan.steps} steps ({plan.seconds:.1f} s): clearance {plan.clearance:.4f} m along "
        f"the whole path (proven >= {plan.clearance_bound:.4f} m; {plan.sampled_clearance:.4f} m at its "
        f"{NUM_POSES} poses), required {CLEARANCE} m; path length {plan.length:.3f} m "
        f"(cost {plan.costs[0]:.3f} -> {plan.costs[-1]:.3f})"
    )
    picture = os.path.join(args.out, f"drone_motion_planning_{args.backend}.png")  # (one per backend)
    note = (
        f"{verdict} after {plan.steps} gradient steps: clearance {plan.clearance:.4f} m along the whole path, "
        f"path length {plan.length:.2f} m (straight path {float(ivy.to_scalar(length0)):.2f} m)"
    )
    times = np.linspace(0.0, 1.0, 2001)  # the clearance along each path, densely, in float64
    checker = planner.checker()
    clearances = {
        name: (times, checker.distances_at(anchors, times)[1].min(axis=1))
        for name, anchors in (("initial path", initial), ("planned path", plan.anchors))
    }
    whole = planner.path_clearance(plan.anchors)
    if save_picture(planner, body_points(initial), body_points(plan.anchors), picture, note, clearances, whole):
        print(f"picture: {picture}")
    else:
        print("matplotlib is not installed: no picture (pip install matplotlib)")
    if not plan.collision_free:
        print(f"no collision-free path within {args.steps} steps: try more --steps or another --lr")
    return 0 if plan.collision_free else 1


if __name__ == "__main__":
    sys.exit(main())
