"""CartPole: a pole on a cart driven by a horizontal force, to swing up and balance."""

from __future__ import annotations

import math
from typing import Any, ClassVar

import ivy

from ._base import IvyEnv
from ._render import Canvas

__all__ = ["CartPole"]

Array = Any


class CartPole(IvyEnv):
    """A pole hinged on a cart that moves along an unbounded track (Barto et al. 1983 dynamics).

    * state ``[..., 4]``: ``x`` (cart position, m), ``x_dot`` (m/s), ``theta`` (pole angle from
      upright, rad), ``theta_dot`` (rad/s).
    * action ``[..., 1]`` in ``[-1, 1]``: the force on the cart is ``torque_scale * a``
      (``torque_scale`` 10 N by default).
    * observation ``[..., 5]``: ``x, x_dot, cos(theta), sin(theta), theta_dot``.
    * reward: ``exp(-x**2) * (cos(theta) + 1) / 2``: the pole upright over the origin.
    * reset: ``x ~ U(-1, 1)``, ``x_dot ~ U(-0.3, 0.3)``, ``theta ~ U(-pi, pi)``,
      ``theta_dot ~ U(-0.3, 0.3)``.

    Constants are gymnasium's ``CartPole-v1`` (gravity 9.8, cart mass 1, pole mass 0.1, pole
    half-length 0.5, ``dt`` 0.02), and a step equals gymnasium's with
    ``kinematics_integrator="semi-implicit euler"`` and force ``±10`` for ``a = ±1``; there are no
    track limits and no termination. Arguments: see :class:`IvyEnv`.
    """

    metadata: dict[str, Any] = {"render_modes": ["rgb_array"], "render_fps": 50}

    dt: ClassVar[float] = 0.02
    default_torque_scale: ClassVar[float] = 10.0
    gravity: ClassVar[float] = 9.8
    mass_cart: ClassVar[float] = 1.0
    mass_pole: ClassVar[float] = 0.1
    #: half the pole's length (m), the distance from the hinge to the pole's centre of mass
    half_length: ClassVar[float] = 0.5

    state_layout = "x, x_dot, theta, theta_dot"
    action_layout = "force in [-1, 1]"
    state_size = 4
    action_size = 1
    observation_size = 5

    def _next_state(self, state: Array, action: Array) -> Array:
        x, x_dot, theta, theta_dot = ivy.unstack(state, axis=-1)
        force = self.torque_scale * ivy.unstack(action, axis=-1)[0]
        total_mass = self.mass_pole + self.mass_cart
        pole_moment = self.mass_pole * self.half_length
        cos, sin = ivy.cos(theta), ivy.sin(theta)
        # the operations in the order of gymnasium's cartpole.py, so that the two agree to the bit
        temp = (force + pole_moment * ivy.square(theta_dot) * sin) / total_mass
        theta_acc = (self.gravity * sin - cos * temp) / (
            self.half_length * (4.0 / 3.0 - self.mass_pole * ivy.square(cos) / total_mass)
        )
        x_acc = temp - pole_moment * theta_acc * cos / total_mass
        x_dot = x_dot + self.dt * x_acc
        x = x + self.dt * x_dot
        theta_dot = theta_dot + self.dt * theta_acc
        theta = theta + self.dt * theta_dot
        return ivy.stack([x, x_dot, theta, theta_dot], axis=-1)

    def _observation(self, state: Array) -> Array:
        x, x_dot, theta, theta_dot = ivy.unstack(state, axis=-1)
        return ivy.stack([x, x_dot, ivy.cos(theta), ivy.sin(theta), theta_dot], axis=-1)

    def _reward(self, state: Array, action: Array) -> Array:
        x, _, theta, _ = ivy.unstack(state, axis=-1)
        return ivy.exp(-ivy.square(x)) * (ivy.cos(theta) + 1.0) / 2.0

    def _reset_bounds(self) -> tuple[list[float], list[float]]:
        return [-1.0, -0.3, -math.pi, -0.3], [1.0, 0.3, math.pi, 0.3]

    def _observation_bounds(self) -> tuple[list[float], list[float]]:
        inf = math.inf
        return [-inf, -inf, -1.0, -1.0, -inf], [inf, inf, 1.0, 1.0, inf]

    @property
    def view(self) -> tuple[float, float, float, float]:
        return (-2.5, 2.5, -1.5, 3.5)

    def _draw(self, canvas: Canvas, state: list[float]) -> None:
        x, _, theta, _ = state
        pole = 2.0 * self.half_length
        canvas.box(0.0, -0.02, 10.0, 0.02, (0.3, 0.3, 0.3))  # the track
        canvas.box(x, 0.0, 0.25, 0.12, (0.1, 0.1, 0.1))  # the cart
        canvas.segment(x, 0.0, x + pole * math.sin(theta), pole * math.cos(theta), 0.04, (0.8, 0.6, 0.4))
        canvas.circle(x, 0.0, 0.05, (0.5, 0.5, 0.8))  # the hinge
