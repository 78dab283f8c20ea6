"""MountainCar: an under-powered car in a valley, to reach the hill top on the right."""

from __future__ import annotations

import math
from typing import Any, ClassVar

import ivy

from ._base import IvyEnv
from ._render import Canvas

__all__ = ["MountainCar"]

Array = Any


class MountainCar(IvyEnv):
    """A car on the curve ``height(x) = 0.45 sin(3 x) + 0.55``, too weak to drive straight up.

    * state ``[..., 2]``: ``x`` (position), ``x_dot`` (velocity).
    * action ``[..., 1]`` in ``[-1, 1]``: the car's acceleration is ``torque_scale * a`` (3 by
      default).
    * dynamics: ``x_acc = torque_scale * a - g cos(3 x)``, ``g`` 9.8, ``dt`` 0.02; no walls, no
      clipping.
    * observation ``[..., 2]``: the state ``x, x_dot``.
    * reward: ``exp(-5 (x - 0.45)**2)``: near the goal ``x = 0.45`` on the right hill.
    * reset: ``x ~ U(-0.9, -0.2)``, ``x_dot = 0``.

    The idea of gymnasium's ``MountainCarContinuous-v0`` (same hill, same goal) with other
    constants and no limits, so the two do not agree numerically. Arguments: see :class:`IvyEnv`.
    """

    metadata: dict[str, Any] = {"render_modes": ["rgb_array"], "render_fps": 50}

    dt: ClassVar[float] = 0.02
    default_torque_scale: ClassVar[float] = 3.0
    gravity: ClassVar[float] = 9.8
    goal: ClassVar[float] = 0.45

    state_layout = "x, x_dot"
    action_layout = "acceleration in [-1, 1]"
    state_size = 2
    action_size = 1
    observation_size = 2

    def _next_state(self, state: Array, action: Array) -> Array:
        x, x_dot = ivy.unstack(state, axis=-1)
        x_acc = self.torque_scale * ivy.unstack(action, axis=-1)[0] - self.gravity * ivy.cos(3.0 * x)
        x_dot = x_dot + self.dt * x_acc
        x = x + self.dt * x_dot
        return ivy.stack([x, x_dot], axis=-1)

    def _observation(self, state: Array) -> Array:
        return state

    def _reward(self, state: Array, action: Array) -> Array:
        x = ivy.unstack(state, axis=-1)[0]
        return ivy.exp(-5.0 * ivy.square(x - self.goal))

    def _reset_bounds(self) -> tuple[list[float], list[float]]:
        return [-0.9, 0.0], [-0.2, 0.0]

    def _observation_bounds(self) -> tuple[list[float], list[float]]:
        return [-math.inf, -math.inf], [math.inf, math.inf]

    @property
    def view(self) -> tuple[float, float, float, float]:
        return (-1.2, 0.6, -0.2, 1.6)

    def _draw(self, canvas: Canvas, state: list[float]) -> None:
        x = state[0]
        # the ground: everything below the curve (a vertical distance, close enough at one pixel)
        canvas.paint(canvas.y - (0.45 * ivy.sin(3.0 * canvas.x) + 0.55), (0.55, 0.75, 0.45))
        flag_y = 0.45 * math.sin(3.0 * self.goal) + 0.55
        canvas.segment(self.goal, flag_y, self.goal, flag_y + 0.2, 0.008, (0.2, 0.2, 0.2))
        canvas.box(self.goal + 0.04, flag_y + 0.17, 0.04, 0.03, (0.9, 0.8, 0.1))
        slope = math.atan(1.35 * math.cos(3.0 * x))  # the angle of the curve under the car
        radius = 0.05
        car_x, car_y = x - radius * math.sin(slope), 0.45 * math.sin(3.0 * x) + 0.55 + radius * math.cos(slope)
        canvas.circle(car_x, car_y, radius, (0.2, 0.2, 0.6))
