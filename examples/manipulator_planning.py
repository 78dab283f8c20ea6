"""A Kinova Mico arm plans a collision-free motion in joint space, with the drone demo's machinery.

    python examples/manipulator_planning.py [--backend torch|jax|tensorflow|paddle]
                                            [--steps 100] [--lr 0.05] [--out results]

The arm stands on the table of the drone demo's scene, with one more box (0.3 m cube) in its way.
The motion is a cubic spline in joint space through the start configuration, two learnable
anchors and the target configuration, sampled at 100 configurations; the forward kinematics
(``ivy_robot.MicoManipulator.sample_links``) gives points along the links, and the cost is the
mean length of their trajectories plus the collision cost of their signed distances to the boxes.
Gradient descent moves the two anchors until every link point clears every box by 0.1 m.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from typing import Any

import ivy
import ivy_robot
import ivy_vision

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from drone_motion_planning import (  # the drone demo's scene, loop and drawing
    ANCHOR_TIMES,
    COLLISION_WEIGHT,
    COMPILE_BY_DEFAULT,
    NUM_POSES,
    OBSTACLES,
    PENALTY_MARGIN,
    Plan,
    Progress,
    descend,
    draw_obstacles,
    import_pyplot,
    needs_gradients,
    obstacle_arrays,
    save_figure,
)

# The original demo's set-up: the drone scene's spare cube (under the floor there) moved next to
# the arm, the arm's base on the table, and two configurations (Kinova joint angles, degrees).
ARM_OBSTACLES = OBSTACLES[:10] + (((0.55, 0.0, 0.9), (0.0, 0.0, 0.0), (0.3, 0.3, 0.3)),)
BASE_INV_EXT_MAT = ((1.0, 0.0, 0.0, 0.85), (0.0, 1.0, 0.0, -0.025), (0.0, 0.0, 1.0, 0.70))
START_DEGREES = (100.0, 100.0, 240.0, 180.0, 180.0, 120.0)
TARGET_DEGREES = (260.0, 100.0, 220.0, 0.0, 180.0, 45.0)
CLEARANCE = 0.1
DEFAULT_STEPS, DEFAULT_LR = 100, 0.05


class ArmPlanner:
    """The joint-space planning problem on one backend.

    Args:
        backend: an Ivy backend with autodiff.
        dtype: the floating dtype of every array.
    """

    def __init__(self, backend: str, dtype: str = "float32") -> None:
        self.backend, self.dtype = backend, dtype
        self.obstacle_inv_ext_mats, self.obstacle_ext_mats, self.obstacle_dims = obstacle_arrays(
            ARM_OBSTACLES, self._array
        )
        self.arm = ivy_robot.MicoManipulator(self._array(BASE_INV_EXT_MAT))
        # The first link turns about its own axis, fixed in the base that stands in the table top:
        # its points never move, so they are left out of the cost and of the clearance.
        self.fixed_points = 1 + self.arm.link_sample_counts()[0]
        self.start = self._array([[math.radians(v) for v in START_DEGREES]])  # [1, 6]
        self.target = self._array([[math.radians(v) for v in TARGET_DEGREES]])
        self.anchor_times = self._array([[t] for t in ANCHOR_TIMES])
        self.sample_times = self._array([[k / (NUM_POSES - 1)] for k in range(NUM_POSES)])

    def _array(self, values: Any) -> Any:
        return ivy.asarray(values, dtype=self.dtype, backend=self.backend)

    def initial_anchors(self) -> Any:
        """``[2, 6]``: the interior anchors of the straight motion in joint space."""
        return self._array(
            [
                [math.radians(s + (t - s) * tau) for s, t in zip(START_DEGREES, TARGET_DEGREES)]
                for tau in ANCHOR_TIMES[1:-1]
            ]
        )

    def joint_angles(self, anchors: Any) -> Any:
        """``[100, 6]`` configurations along the joint-space spline."""
        anchor_vals = ivy.concat([self.start, anchors, self.target], axis=0)
        return ivy_robot.sample_spline_path(self.anchor_times, anchor_vals, self.sample_times)

    def link_points(self, anchors: Any) -> Any:
        """``[100, n, 3]`` world positions of the points along the links, at each configuration."""
        return self.arm.sample_links(self.joint_angles(anchors))

    def cost_terms(self, anchors: Any) -> tuple[Any, Any, Any]:
        """``(cost, length, clearance)``: the mean trajectory length of the moving link points, plus
        the collision cost of their signed distances, and the smallest signed distance."""
        points = self.link_points(anchors)[:, self.fixed_points :, :]
        length = ivy.mean(ivy_robot.path_length(ivy.permute_dims(points, (1, 0, 2))))
        distances = ivy_vision.cuboid_signed_distances(
            self.obstacle_ext_mats, self.obstacle_dims, ivy.reshape(points, (-1, 3))
        )
        cost = length + COLLISION_WEIGHT * ivy_robot.collision_cost(distances, PENALTY_MARGIN)
        return cost, length, ivy.min(distances)

    def plan(
        self,
        anchors: Any,
        steps: int = DEFAULT_STEPS,
        lr: float = DEFAULT_LR,
        compile: bool | None = None,
        on_step: Callable[[int, float, float], None] | None = None,
    ) -> Plan:
        """Gradient descent from ``anchors`` until the motion is collision-free."""
        if compile is None:
            compile = COMPILE_BY_DEFAULT.get(self.backend, False)
        return descend(self.cost_terms, anchors, steps, lr, CLEARANCE, compile, on_step)


def save_picture(planner: ArmPlanner, initial: Any, final: Any, path: str) -> bool:
    """The arm at a few configurations of the initial and planned motions, from above and in 3D."""
    plt = import_pyplot()
    if plt is None:
        return False
    fig = plt.figure(figsize=(13, 6))
    top, side = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2, projection="3d")
    limits = ((-0.9, 1.3), (-1.0, 1.0))
    draw_obstacles(top, side, ARM_OBSTACLES, planner.obstacle_inv_ext_mats, limits)
    for name, anchors, colour in (("initial motion", initial, "tab:red"), ("planned motion", final, "tab:blue")):
        frames = ivy.to_numpy(planner.arm.compute_link_matrices(planner.joint_angles(anchors)))[..., 0:3, 3]
        for k in range(0, NUM_POSES, 9):  # the arm's links, as straight segments between joints
            top.plot(frames[k, :, 0], frames[k, :, 1], "-", color=colour, lw=1, alpha=0.5)
            side.plot(frames[k, :, 0], frames[k, :, 1], frames[k, :, 2], "-", color=colour, lw=1, alpha=0.5)
        tip = frames[:, -1, :]
        top.plot(tip[:, 0], tip[:, 1], color=colour, lw=2, label=f"{name} (gripper path)")
        side.plot(tip[:, 0], tip[:, 1], tip[:, 2], color=colour, lw=2)
    top.set(xlim=limits[0], ylim=limits[1], xlabel="x (m)", ylabel="y (m)", title="seen from above")
    top.set_aspect("equal")
    top.legend(loc="lower right", fontsize=8)
    side.set(
        xlim=limits[0], ylim=limits[1], zlim=(0.0, 1.5), xlabel="x (m)", ylabel="y (m)", zlabel="z (m)", title="in 3D"
    )
    side.set_box_aspect((2.2, 2.0, 1.5))
    side.view_init(elev=25, azim=-50)
    fig.suptitle(f"Mico arm motion planning on {planner.backend}: clearance >= {CLEARANCE} m")
    fig.tight_layout()
    save_figure(fig, path, dpi=100)
    plt.close(fig)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", default="torch", help="torch (default), jax, tensorflow or paddle")
    parser.add_argument("--steps", type=int, default=DEFAULT_STEPS, help="most gradient steps (default %(default)s)")
    parser.add_argument("--lr", type=float, default=DEFAULT_LR, help="learning rate (default %(default)s)")
    parser.add_argument("--out", default="results", help="folder of the picture (default: %(default)s/)")
    args = parser.parse_args(argv)
    if args.backend not in ivy.backends():
        print(f"backend {args.backend!r} is not installed (installed: {', '.join(ivy.backends())})", file=sys.stderr)
        return 2
    if needs_gradients(args.backend):
        print(
            f"the arm demo descends gradients, and the {args.backend!r} backend has no automatic "
            "differentiation: use --backend torch, jax, tensorflow or paddle",
            file=sys.stderr,
        )
        return 2
    planner = ArmPlanner(args.backend)
    initial = planner.initial_anchors()
    progress = Progress(args.steps, f"planning ({args.backend})")
    plan = planner.plan(initial, steps=args.steps, lr=args.lr, on_step=progress)
    progress.close()
    verdict = "collision-free" if plan.collision_free else "NOT collision-free"
    print(
        f"{verdict} after {plan.steps} steps ({plan.seconds:.1f} s): clearance {plan.clearance:.3f} m "
        f"(required {CLEARANCE} m), mean link-point path {plan.length:.3f} m "
        f"(cost {plan.costs[0]:.3f} -> {plan.costs[-1]:.3f})"
    )
    picture = os.path.join(args.out, "manipulator_planning.png")
    if save_picture(planner, initial, plan.anchors, picture):
        print(f"picture: {picture}")
    else:
        print("matplotlib is not installed: no picture (pip install matplotlib)")
    if not plan.collision_free:
        print(f"no collision-free path within {args.steps} steps: try more --steps or another --lr")
    return 0 if plan.collision_free else 1


if __name__ == "__main__":
    sys.exit(main())
