"""Pendulum: a torque-driven rod, to swing up and hold upright."""

from __future__ import annotations

import math
from typing import Any, ClassVar

import ivy

from ._base import IvyEnv
from ._render import Canvas

__all__ = ["Pendulum"]

Array = Any


class Pendulum(IvyEnv):
    """A uniform rod of mass ``m`` and length ``l`` turning about one end, driven by a torque.

    * state ``[..., 2]``: ``theta`` (angle from upright, rad), ``theta_dot`` (rad/s).
    * action ``[..., 1]`` in ``[-1, 1]``: the torque is ``torque_scale * a`` (1 N m by default).
    * dynamics: ``theta_acc = 3 g / (2 l) sin(theta) + 3 / (m l**2) torque``; no speed limit.
    * observation ``[..., 3]``: ``cos(theta), sin(theta), theta_dot``.
    * reward: ``(cos(theta) + 1) / 2``: 1 upright, 0 hanging down.
    * reset: ``theta ~ U(-pi, pi)``, ``theta_dot ~ U(-1, 1)``.

    Constants: ``g`` 9.8, ``m = l = 1``, ``dt`` 0.05. A step equals gymnasium's ``Pendulum-v1``
    made with ``g=9.8``, up to the speed where gymnasium clips (``|theta_dot| = 8``); the rewards
    differ. Arguments: see :class:`IvyEnv`.
    """

    metadata: dict[str, Any] = {"render_modes": ["rgb_array"], "render_fps": 20}

    dt: ClassVar[float] = 0.05
    default_torque_scale: ClassVar[float] = 1.0
    gravity: ClassVar[float] = 9.8
    mass: ClassVar[float] = 1.0
    length: ClassVar[float] = 1.0

    state_layout = "theta, theta_dot"
    action_layout = "torque in [-1, 1]"
    state_size = 2
    action_size = 1
    observation_size = 3

    def _next_state(self, state: Array, action: Array) -> Array:
        theta, theta_dot = ivy.unstack(state, axis=-1)
        torque = self.torque_scale * ivy.unstack(action, axis=-1)[0]
        g, m, length = self.gravity, self.mass, self.length
        # the operations in the order of gymnasium's pendulum.py, so that the two agree to the bit
        theta_dot = theta_dot + (3.0 * g / (2.0 * length) * ivy.sin(theta) + 3.0 / (m * length**2) * torque) * self.dt
        theta = theta + theta_dot * self.dt
        return ivy.stack([theta, theta_dot], axis=-1)

    def _observation(self, state: Array) -> Array:
        theta, theta_dot = ivy.unstack(state, axis=-1)
        return ivy.stack([ivy.cos(theta), ivy.sin(theta), theta_dot], axis=-1)

    def _reward(self, state: Array, action: Array) -> Array:
        theta = ivy.unstack(state, axis=-1)[0]
        return (ivy.cos(theta) + 1.0) / 2.0

    def _reset_bounds(self) -> tuple[list[float], list[float]]:
        return [-math.pi, -1.0], [math.pi, 1.0]

    def _observation_bounds(self) -> tuple[list[float], list[float]]:
        return [-1.0, -1.0, -math.inf], [1.0, 1.0, math.inf]

    @property
    def view(self) -> tuple[float, float, float, float]:
        reach = 1.3 * self.length
        return (-reach, reach, -reach, reach)

    def _draw(self, canvas: Canvas, state: list[float]) -> None:
        theta = state[0]
        tip_x, tip_y = self.length * math.sin(theta), self.length * math.cos(theta)
        canvas.segment(0.0, 0.0, tip_x, tip_y, 0.08 * self.length, (0.8, 0.3, 0.3))
        canvas.circle(0.0, 0.0, 0.05 * self.length, (0.1, 0.1, 0.1))  # the pivot
