"""Swimmer: a fish, a 2-D point mass, that swims to a goal between sea urchins."""

from __future__ import annotations

import math
from typing import Any, ClassVar

import ivy

from ._base import IvyEnv
from ._render import Canvas

__all__ = ["Swimmer"]

Array = Any


class Swimmer(IvyEnv):
    """A point mass in the plane, driven by an acceleration, rewarded near a goal and away from
    ``num_urchins`` fixed sea urchins.

    With ``k = num_urchins``:

    * state ``[..., 2k + 6]``: ``u_1x, u_1y, ..., u_kx, u_ky`` (the urchins), ``x, y`` (the fish),
      ``vx, vy`` (its velocity), ``goal_x, goal_y``.
    * action ``[..., 2]`` in ``[-1, 1]``: the fish's acceleration is ``torque_scale * a`` (1 by
      default); ``v += dt a``, then ``xy += dt v``, ``dt`` 0.05.
    * observation ``[..., 2k + 6]``: the state.
    * reward: ``exp(-0.5 |xy - goal|**2) * prod_i (1 - exp(-30 |xy - u_i|**2))``: near the goal,
      and zero on an urchin.
    * reset: urchins, fish and goal each ``~ U(-1, 1)**2``, velocity 0.

    A point-mass task, not gymnasium's MuJoCo ``Swimmer``.

    Args:
        num_urchins: the number of sea urchins (5 by default).
        **kwargs: see :class:`IvyEnv`.
    """

    metadata: dict[str, Any] = {"render_modes": ["rgb_array"], "render_fps": 20}

    dt: ClassVar[float] = 0.05
    default_torque_scale: ClassVar[float] = 1.0
    background: ClassVar[tuple[float, float, float]] = (0.75, 0.88, 1.0)  # water

    def __init__(self, num_urchins: int = 5, **kwargs: Any) -> None:
        if not isinstance(num_urchins, int) or num_urchins < 0:
            raise ValueError(f"num_urchins must be a non-negative int; got {num_urchins!r}")
        self.num_urchins = num_urchins
        self.state_size = 2 * num_urchins + 6
        self.action_size = 2
        self.observation_size = self.state_size
        self.state_layout = f"{num_urchins} urchins (x, y each), x, y, vx, vy, goal_x, goal_y"
        self.action_layout = "acceleration (ax, ay) in [-1, 1]"
        super().__init__(**kwargs)

    def _split(self, state: Array) -> list[Array]:
        return ivy.split(state, [2 * self.num_urchins, 2, 2, 2], axis=-1)

    def _next_state(self, state: Array, action: Array) -> Array:
        urchins, xy, velocity, goal = self._split(state)
        velocity = velocity + self.dt * (self.torque_scale * action)
        xy = xy + self.dt * velocity
        # urchins and goal do not move; they take the batch shape the action may have widened
        batch = tuple(xy.shape)[:-1]
        urchins = ivy.broadcast_to(urchins, (*batch, 2 * self.num_urchins))
        goal = ivy.broadcast_to(goal, (*batch, 2))
        return ivy.concat([urchins, xy, velocity, goal], axis=-1)

    def _observation(self, state: Array) -> Array:
        return state

    def _reward(self, state: Array, action: Array) -> Array:
        urchins, xy, _, goal = self._split(state)
        x, y = ivy.unstack(xy, axis=-1)
        goal_x, goal_y = ivy.unstack(goal, axis=-1)
        reward = ivy.exp(-0.5 * (ivy.square(x - goal_x) + ivy.square(y - goal_y)))
        if self.num_urchins:
            urchin_x = ivy.get_item(urchins, (..., slice(0, None, 2)))  # [..., k]
            urchin_y = ivy.get_item(urchins, (..., slice(1, None, 2)))
            near = ivy.exp(
                -30.0
                * (
                    ivy.square(ivy.expand_dims(x, axis=-1) - urchin_x)
                    + ivy.square(ivy.expand_dims(y, axis=-1) - urchin_y)
                )
            )
            reward = reward * ivy.prod(1.0 - near, axis=-1)
        return reward

    def _reset_bounds(self) -> tuple[list[float], list[float]]:
        low = [-1.0] * (2 * self.num_urchins + 2) + [0.0, 0.0] + [-1.0, -1.0]
        return low, [-v for v in low]

    def _observation_bounds(self) -> tuple[list[float], list[float]]:
        return [-math.inf] * self.state_size, [math.inf] * self.state_size

    @property
    def view(self) -> tuple[float, float, float, float]:
        return (-2.0, 2.0, -2.0, 2.0)

    def _draw(self, canvas: Canvas, state: list[float]) -> None:
        k = self.num_urchins
        goal_x, goal_y = state[2 * k + 4], state[2 * k + 5]
        canvas.circle(goal_x, goal_y, 0.1, (0.2, 0.7, 0.2))
        for i in range(k):
            canvas.circle(state[2 * i], state[2 * i + 1], 0.1, (0.6, 0.1, 0.5))
        canvas.circle(state[2 * k], state[2 * k + 1], 0.07, (0.95, 0.55, 0.1))  # the fish
