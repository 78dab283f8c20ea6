"""The repository's planning demos (``examples/``) on the backend under test.

The drone demo is checked against an independent reference: the same cost written with NumPy and
SciPy (``RBFInterpolator``, ``Rotation``, a box signed distance) in float64, descended with central
finite-difference gradients. Every backend must follow that reference's descent step for step (so
the four backends agree with each other) and end collision-free along the whole path: its verdict
and the minimum clearance it reports must agree with a dense NumPy check of the spline (20001
poses, the smallest refined by SciPy's bounded scalar minimisation).
"""

from __future__ import annotations

import functools
import importlib
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.interpolate import RBFInterpolator
from scipy.optimize import minimize_scalar
from scipy.spatial.transform import Rotation

import ivy
from ivy.testing import has_autodiff

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
pytestmark = pytest.mark.skipif(
    not (EXAMPLES / "drone_motion_planning.py").exists(), reason="the repository's examples/ folder is not here"
)


@pytest.fixture(scope="module")
def demo():
    sys.path.insert(0, str(EXAMPLES))
    try:
        yield importlib.import_module("drone_motion_planning")
    finally:
        sys.path.remove(str(EXAMPLES))


@pytest.fixture(scope="module")
def arm_demo(demo):
    sys.path.insert(0, str(EXAMPLES))
    try:
        yield importlib.import_module("manipulator_planning")
    finally:
        sys.path.remove(str(EXAMPLES))


def _box_distances(points, obstacles):
    """NumPy: signed distance of each point ``[q, 3]`` to the nearest cuboid."""
    out = []
    for centre, rot_vec, dims in obstacles:
        local = (points - np.array(centre)) @ Rotation.from_rotvec(rot_vec).as_matrix()  # world -> box
        excess = np.abs(local) - np.array(dims) / 2
        out.append(np.linalg.norm(np.maximum(excess, 0), axis=-1) + np.minimum(excess.max(-1), 0))
    return np.min(out, axis=0)


class ReferencePlanner:
    """The drone demo's cost in NumPy/SciPy (float64), with finite-difference gradient descent."""

    def __init__(self, demo):
        self.demo = demo
        self.times = np.array(demo.ANCHOR_TIMES)[:, None]
        self.samples = np.linspace(0.0, 1.0, demo.NUM_POSES)[:, None]
        self.body = np.array(demo.DRONE_BODY)

    def body_points(self, anchors, times):
        """``[len(times), 5, 3]``: the body points along the spline through ``anchors``."""
        d = self.demo
        anchor_poses = np.concatenate([[d.START_POSE], np.asarray(anchors).reshape(2, 6), [d.TARGET_POSE]])
        spline = RBFInterpolator(self.times, anchor_poses, kernel="cubic", degree=1, smoothing=0)
        poses = spline(np.asarray(times, dtype=np.float64).reshape(-1, 1))
        rot = Rotation.from_rotvec(poses[:, 3:]).as_matrix()
        return np.einsum("kij,pj->kpi", rot, self.body) + poses[:, None, :3]  # [poses, body points, 3]

    def cost_terms(self, anchors):
        d = self.demo
        points = self.body_points(anchors, self.samples)
        length = np.linalg.norm(np.diff(points, axis=0), axis=-1).sum(0).mean()
        dist = _box_distances(points.reshape(-1, 3), d.OBSTACLES)
        cost = length + d.COLLISION_WEIGHT * np.mean(np.maximum(d.PENALTY_MARGIN - dist, 0) ** 2)
        return cost, length, dist.min()

    def dense_clearance(self, anchors, n=20001):
        """The smallest signed distance along the whole spline: at ``n`` poses, then refined to
        1e-10 of the spline parameter around the smallest by bounded scalar minimisation."""

        def clearance(t):
            return _box_distances(self.body_points(anchors, np.atleast_1d(t)).reshape(-1, 3), self.demo.OBSTACLES)

        times = np.linspace(0.0, 1.0, n)
        dense = clearance(times).reshape(n, -1).min(axis=1)
        k = int(np.argmin(dense))
        lo, hi = times[max(k - 1, 0)], times[min(k + 1, n - 1)]
        refined = minimize_scalar(
            lambda t: clearance(t).min(), bounds=(lo, hi), method="bounded", options={"xatol": 1e-10}
        )
        return min(float(dense[k]), float(refined.fun))

    def gradient(self, anchors, h=1e-6):
        grad = np.zeros_like(anchors)
        for i in range(anchors.size):
            step = np.zeros_like(anchors)
            step.flat[i] = h
            grad.flat[i] = (self.cost_terms(anchors + step)[0] - self.cost_terms(anchors - step)[0]) / (2 * h)
        return grad

    def descend(self, anchors, steps, lr):
        """The anchors after each of ``steps`` gradient steps (entry 0: the start)."""
        trajectory = [np.asarray(anchors, dtype=np.float64)]
        for _ in range(steps):
            trajectory.append(trajectory[-1] - lr * self.gradient(trajectory[-1]))
        return trajectory


REFERENCE_STEPS = 40  # the demo's descent takes 39 steps


@functools.lru_cache(maxsize=1)
def _reference_descent(demo, steps):
    ref = ReferencePlanner(demo)
    rows = [[s + (t - s) * tau for s, t in zip(demo.START_POSE, demo.TARGET_POSE)] for tau in demo.ANCHOR_TIMES[1:-1]]
    return ref, ref.descend(np.array(rows), steps, demo.DEFAULT_LR)


def test_reference_planner_agrees_with_the_demo_at_the_start(demo, autodiff):
    planner = demo.DronePlanner(autodiff, dtype="float64")
    ref = ReferencePlanner(demo)
    anchors = ivy.to_numpy(planner.initial_anchors())
    cost_terms = planner.cost_terms
    if autodiff == "jax":  # jax's eager mode compiles each op for each new shape: one jit is faster
        cost_terms = ivy.compile(lambda a: planner.cost_terms(a))
    got = [float(ivy.to_scalar(v)) for v in cost_terms(planner.initial_anchors())]
    np.testing.assert_allclose(got, ref.cost_terms(anchors), rtol=1e-10, atol=1e-12)


def _check_verdict(demo, plan, ref):
    """The plan's verdict and clearances against the dense NumPy check of its whole spline."""
    true_minimum = ref.dense_clearance(ivy.to_numpy(plan.anchors))
    assert plan.collision_free == (true_minimum >= demo.CLEARANCE)
    # the proof holds, and the reported minimum is the true one (the certificate evaluates in
    # float64 at the planner's float32 anchors, as this check does)
    assert plan.clearance_bound <= true_minimum + 1e-9
    np.testing.assert_allclose(plan.clearance, true_minimum, atol=2e-6)
    assert plan.sampled_clearance >= plan.clearance - 1e-6  # the poses of the cost see no less
    return true_minimum


def test_drone_planning_decreases_the_cost(demo, autodiff):
    planner = demo.DronePlanner(autodiff)
    plan = planner.plan(planner.initial_anchors(), steps=20)
    assert plan.steps == 20 and len(plan.costs) == 21
    assert not plan.collision_free  # not yet: the full descent takes a few dozen steps
    assert np.all(np.diff(plan.costs) < 1e-4), plan.costs
    assert plan.costs[-1] < 0.5 * plan.costs[0]
    ref, trajectory = _reference_descent(demo, REFERENCE_STEPS)
    np.testing.assert_allclose(ivy.to_numpy(plan.anchors), trajectory[20], atol=1e-5)
    assert _check_verdict(demo, plan, ref) < demo.CLEARANCE


def test_drone_plan_is_collision_free_and_follows_the_reference(demo, autodiff):
    planner = demo.DronePlanner(autodiff)
    plan = planner.plan(planner.initial_anchors())  # the demo's defaults, as scripts/demo runs it
    ref, trajectory = _reference_descent(demo, REFERENCE_STEPS)
    assert plan.collision_free and _check_verdict(demo, plan, ref) >= demo.CLEARANCE
    # the reference's path clears the obstacles along its whole length at the same step (at its
    # 100 poses it did a step earlier, with 0.0991 m left between two of them)
    clearances = [ref.dense_clearance(a) for a in trajectory[plan.steps - 1 : plan.steps + 1]]
    assert clearances[0] < demo.CLEARANCE <= clearances[1]
    assert ref.cost_terms(trajectory[plan.steps - 1])[2] >= demo.CLEARANCE
    anchors = ivy.to_numpy(plan.anchors)
    np.testing.assert_allclose(anchors, trajectory[plan.steps], atol=1e-5)
    # the final path, checked by NumPy alone: as long as reported
    _, length, sampled = ref.cost_terms(anchors)
    np.testing.assert_allclose(plan.length, length, rtol=1e-5)
    np.testing.assert_allclose(plan.sampled_clearance, sampled, atol=1e-5)


def test_path_clearance_bounds_the_dense_minimum_of_a_colliding_path(demo, backend):
    # the straight path runs through a box at constant depth: a plateau, where the certificate
    # stops at its budget of poses with a looser (still proven) lower bound
    if backend != "numpy":
        pytest.skip("the certificate computes on NumPy whatever the planner's backend: run once, in the numpy process")
    planner = demo.DronePlanner("numpy", dtype="float64")
    anchors = planner.initial_anchors()
    whole = planner.path_clearance(anchors)
    true_minimum = ReferencePlanner(demo).dense_clearance(ivy.to_numpy(anchors))
    assert whole.lower_bound <= true_minimum <= whole.minimum + 1e-12
    assert whole.minimum - whole.lower_bound < 1e-3 and whole.poses <= 20_000
    np.testing.assert_allclose(true_minimum, -0.15, atol=1e-6)  # 0.15 m deep in the big box


def test_drone_demo_main_reports_and_draws(demo, autodiff, tmp_path, capsys):
    assert demo.main(["--backend", autodiff, "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "collision-free after" in out and "path length" in out
    picture = tmp_path / f"drone_motion_planning_{autodiff}.png"  # (one per backend)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "matplotlib is not installed" in out and not picture.exists()
    else:
        assert picture.stat().st_size > 10_000 and f"picture: {picture}" in out


def test_drone_demo_refuses_a_backend_without_gradients(demo, backend, capsys):
    if has_autodiff(backend):
        pytest.skip(f"{backend} has automatic differentiation")
    assert demo.main(["--backend", backend]) == 2
    assert "no automatic differentiation" in capsys.readouterr().err


def test_arm_planning_clears_the_boxes(arm_demo, autodiff):
    planner = arm_demo.ArmPlanner(autodiff)
    plan = planner.plan(planner.initial_anchors())
    assert plan.collision_free and plan.costs[-1] < plan.costs[0]
    points = ivy.to_numpy(planner.link_points(plan.anchors))[:, planner.fixed_points :, :]
    assert _box_distances(points.reshape(-1, 3), arm_demo.ARM_OBSTACLES).min() >= arm_demo.CLEARANCE - 1e-4
    # start and target configurations are kept
    angles = ivy.to_numpy(planner.joint_angles(plan.anchors))
    np.testing.assert_allclose(
        np.degrees(angles[[0, -1]]), [arm_demo.START_DEGREES, arm_demo.TARGET_DEGREES], atol=1e-3
    )
