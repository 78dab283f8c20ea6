"""Shared fixtures of ivy-gym's tests (one backend per process: ``--backend NAME``).

The references here are written from the equations in the environments' documentation, in NumPy,
independently of ivy_gym's code: one function per environment taking NumPy states and actions
with any leading batch dimensions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest


def _cartpole(s: np.ndarray, a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Barto et al. (1983) cart-pole, semi-implicit Euler; obs and reward as documented."""
    g, mc, mp, half, dt = 9.8, 1.0, 0.1, 0.5, 0.02
    x, xd, th, thd = np.moveaxis(s, -1, 0)
    f = 10.0 * a[..., 0]
    # the textbook form: solve the pole's angular acceleration, then the cart's
    thdd = (g * np.sin(th) + np.cos(th) * (-f - mp * half * thd**2 * np.sin(th)) / (mc + mp)) / (
        half * (4.0 / 3.0 - mp * np.cos(th) ** 2 / (mc + mp))
    )
    xdd = (f + mp * half * (thd**2 * np.sin(th) - thdd * np.cos(th))) / (mc + mp)
    xd2 = xd + dt * xdd
    thd2 = thd + dt * thdd
    new = np.stack(np.broadcast_arrays(x + dt * xd2, xd2, th + dt * thd2, thd2), axis=-1)
    nx, _, nth, _ = np.moveaxis(new, -1, 0)
    obs = np.stack([nx, new[..., 1], np.cos(nth), np.sin(nth), new[..., 3]], axis=-1)
    return new, obs, np.exp(-(nx**2)) * (np.cos(nth) + 1) / 2


def _pendulum(s: np.ndarray, a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    g, m, length, dt = 9.8, 1.0, 1.0, 0.05
    th, thd = np.moveaxis(s, -1, 0)
    # a rod about its end: I = m l^2 / 3, gravity torque m g (l/2) sin(theta) (theta from upright)
    thdd = (m * g * (length / 2) * np.sin(th) + 1.0 * a[..., 0]) / (m * length**2 / 3)
    thd2 = thd + dt * thdd
    th2 = th + dt * thd2
    obs = np.stack([np.cos(th2), np.sin(th2), thd2], axis=-1)
    return np.stack([th2, thd2], axis=-1), obs, (np.cos(th2) + 1) / 2


def _mountain_car(s: np.ndarray, a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x, xd = np.moveaxis(s, -1, 0)
    xd2 = xd + 0.02 * (3.0 * a[..., 0] - 9.8 * np.cos(3 * x))
    x2 = x + 0.02 * xd2
    new = np.stack([x2, xd2], axis=-1)
    return new, new, np.exp(-5 * (x2 - 0.45) ** 2)


def _reacher(s: np.ndarray, a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = (s.shape[-1] - 2) // 2
    th, thd, goal = s[..., :n], s[..., n : 2 * n], s[..., 2 * n :]
    thd2 = thd + 0.05 * a
    th2 = th + 0.05 * thd2
    goal = np.broadcast_to(goal, th2.shape[:-1] + (2,))
    new = np.concatenate([th2, thd2, goal], axis=-1)
    obs = np.concatenate([np.cos(th2), np.sin(th2), thd2, goal], axis=-1)
    tip = np.stack([np.cos(th2).sum(-1), np.sin(th2).sum(-1)], axis=-1)
    return new, obs, np.exp(-np.sum((tip - goal) ** 2, axis=-1))


def _swimmer(s: np.ndarray, a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    k = (s.shape[-1] - 6) // 2
    v2 = s[..., 2 * k + 2 : 2 * k + 4] + 0.05 * a
    xy2 = s[..., 2 * k : 2 * k + 2] + 0.05 * v2
    batch = xy2.shape[:-1]
    urchins = np.broadcast_to(s[..., : 2 * k], batch + (2 * k,))
    goal = np.broadcast_to(s[..., 2 * k + 4 :], batch + (2,))
    new = np.concatenate([urchins, xy2, v2, goal], axis=-1)
    points = urchins.reshape(batch + (k, 2))
    near = np.exp(-30 * np.sum((xy2[..., None, :] - points) ** 2, axis=-1))
    reward = np.exp(-0.5 * np.sum((xy2 - goal) ** 2, axis=-1)) * np.prod(1 - near, axis=-1)
    return new, new, reward


#: env name -> (constructor kwargs, reference step (state, action) -> (next state, obs, reward),
#: reset bounds (low, high) per state entry)
REFERENCES: dict[str, tuple[dict[str, Any], Callable[..., Any], tuple[list[float], list[float]]]] = {
    "CartPole": ({}, _cartpole, ([-1, -0.3, -np.pi, -0.3], [1, 0.3, np.pi, 0.3])),
    "Pendulum": ({}, _pendulum, ([-np.pi, -1], [np.pi, 1])),
    "MountainCar": ({}, _mountain_car, ([-0.9, 0], [-0.2, 0])),
    "Reacher": ({}, _reacher, ([-np.pi] * 2 + [-1] * 2 + [-2, -2], [np.pi] * 2 + [1] * 2 + [2, 2])),
    "Reacher3": ({"num_joints": 3}, _reacher, ([-np.pi] * 3 + [-1] * 3 + [-3, -3], [np.pi] * 3 + [1] * 3 + [3, 3])),
    "Swimmer": ({}, _swimmer, ([-1] * 12 + [0, 0, -1, -1], [1] * 12 + [0, 0, 1, 1])),
    "Swimmer2": ({"num_urchins": 2}, _swimmer, ([-1] * 6 + [0, 0, -1, -1], [1] * 6 + [0, 0, 1, 1])),
}


def _case(name: str) -> tuple[str, dict[str, Any], Callable[..., Any], Any]:
    kwargs, step, bounds = REFERENCES[name]
    return name.rstrip("0123456789"), kwargs, step, bounds


@pytest.fixture(params=sorted(REFERENCES))
def case(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any], Callable[..., Any], Any]:
    """``(class name, constructor kwargs, NumPy reference step, reset bounds)`` of each env, with
    the default sizes and with another number of joints / urchins."""
    return _case(request.param)


@pytest.fixture(params=[name for name in sorted(REFERENCES) if not name[-1].isdigit()])
def default_case(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any], Callable[..., Any], Any]:
    """As ``case``, for the five environments with their default sizes only."""
    return _case(request.param)


@pytest.fixture(scope="session")
def central_difference() -> Callable[..., float]:
    """``central_difference(f, xs, directions, eps)``: the derivative of the scalar
    ``f(*xs)`` along ``directions`` (one float64 NumPy array per argument), by central
    differences."""

    def derivative(
        f: Callable[..., float], xs: list[np.ndarray], directions: list[np.ndarray], eps: float = 1e-6
    ) -> float:
        plus = [x + eps * d for x, d in zip(xs, directions, strict=True)]
        minus = [x - eps * d for x, d in zip(xs, directions, strict=True)]
        return (f(*plus) - f(*minus)) / (2 * eps)

    return derivative
