"""Reacher: a planar chain of unit links whose tip should reach a goal."""

from __future__ import annotations

import math
from typing import Any, ClassVar

import ivy

from ._base import IvyEnv
from ._render import Canvas

__all__ = ["Reacher"]

Array = Any


class Reacher(IvyEnv):
    """A planar arm of ``num_joints`` unit links; each joint is a double integrator.

    Angles are **absolute** (each link's angle to the x axis, not to the previous link), and the
    joints do not couple: ``theta_acc_i = torque_scale * a_i`` (1 by default), ``dt`` 0.05. The
    tip is at ``(sum_i cos(theta_i), sum_i sin(theta_i))``.

    With ``n = num_joints``:

    * state ``[..., 2n + 2]``: ``theta_1..n`` (rad), ``theta_dot_1..n`` (rad/s), ``goal_x,
      goal_y``.
    * action ``[..., n]`` in ``[-1, 1]``: the angular accelerations.
    * observation ``[..., 3n + 2]``: ``cos(theta_1..n), sin(theta_1..n), theta_dot_1..n, goal_x,
      goal_y``.
    * reward: ``exp(-|tip - goal|**2)``.
    * reset: ``theta ~ U(-pi, pi)``, ``theta_dot ~ U(-1, 1)``, each goal coordinate
      ``~ U(-n, n)``.

    A kinematic toy, not gymnasium's MuJoCo ``Reacher``.

    Args:
        num_joints: the number of links (2 by default).
        **kwargs: see :class:`IvyEnv`.
    """

    metadata: dict[str, Any] = {"render_modes": ["rgb_array"], "render_fps": 20}

    dt: ClassVar[float] = 0.05
    default_torque_scale: ClassVar[float] = 1.0

    def __init__(self, num_joints: int = 2, **kwargs: Any) -> None:
        if not isinstance(num_joints, int) or num_joints < 1:
            raise ValueError(f"num_joints must be a positive int; got {num_joints!r}")
        self.num_joints = num_joints
        n = num_joints
        self.state_size = 2 * n + 2
        self.action_size = n
        self.observation_size = 3 * n + 2
        self.state_layout = f"theta_1..{n}, theta_dot_1..{n}, goal_x, goal_y"
        self.action_layout = f"angular accelerations of the {n} joints in [-1, 1]"
        super().__init__(**kwargs)

    def _split(self, state: Array) -> list[Array]:
        n = self.num_joints
        return ivy.split(state, [n, n, 2], axis=-1)

    def tip(self, state: Array) -> Array:
        """The position of the arm's tip, ``[..., 2]`` (the links have unit length)."""
        self._check_last_axis(state, self.state_size, "state", self.state_layout)
        theta = self._split(state)[0]
        return ivy.stack([ivy.sum(ivy.cos(theta), axis=-1), ivy.sum(ivy.sin(theta), axis=-1)], axis=-1)

    def _next_state(self, state: Array, action: Array) -> Array:
        theta, theta_dot, goal = self._split(state)
        theta_dot = theta_dot + self.dt * (self.torque_scale * action)
        theta = theta + self.dt * theta_dot
        # the goal does not move; it takes the batch shape the action may have widened
        goal = ivy.broadcast_to(goal, (*tuple(theta.shape)[:-1], 2))
        return ivy.concat([theta, theta_dot, goal], axis=-1)

    def _observation(self, state: Array) -> Array:
        theta, theta_dot, goal = self._split(state)
        return ivy.concat([ivy.cos(theta), ivy.sin(theta), theta_dot, goal], axis=-1)

    def _reward(self, state: Array, action: Array) -> Array:
        goal = self._split(state)[2]
        return ivy.exp(-ivy.sum(ivy.square(self.tip(state) - goal), axis=-1))

    def _reset_bounds(self) -> tuple[list[float], list[float]]:
        n = float(self.num_joints)
        low = [-math.pi] * self.num_joints + [-1.0] * self.num_joints + [-n, -n]
        return low, [-v for v in low]

    def _observation_bounds(self) -> tuple[list[float], list[float]]:
        n = self.num_joints
        low = [-1.0] * (2 * n) + [-math.inf] * (n + 2)
        return low, [-v for v in low]

    @property
    def view(self) -> tuple[float, float, float, float]:
        reach = self.num_joints + 0.5
        return (-reach, reach, -reach, reach)

    def _draw(self, canvas: Canvas, state: list[float]) -> None:
        n = self.num_joints
        goal_x, goal_y = state[2 * n], state[2 * n + 1]
        canvas.circle(goal_x, goal_y, 0.12, (0.2, 0.7, 0.2))
        x, y = 0.0, 0.0
        for theta in state[:n]:
            x1, y1 = x + math.cos(theta), y + math.sin(theta)
            canvas.segment(x, y, x1, y1, 0.06, (0.3, 0.4, 0.8))
            canvas.circle(x, y, 0.08, (0.1, 0.1, 0.1))
            x, y = x1, y1
        canvas.circle(x, y, 0.06, (0.8, 0.2, 0.2))  # the tip
