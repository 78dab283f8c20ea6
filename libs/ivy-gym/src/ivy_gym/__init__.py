"""Ivy Gym: differentiable control environments written once with Ivy, for every backend.

``CartPole``, ``Pendulum``, ``MountainCar``, ``Reacher`` and ``Swimmer`` are gymnasium
environments (``reset``/``step``/``render``, NumPy at that boundary) with a differentiable
functional API on native arrays (``next_state``, ``observation``, ``reward``, ``transition``,
``rollout``), so a reward can be optimised by gradient through many steps. Importing this package
registers them with gymnasium as ``ivy_gym/CartPole-v1``, ``ivy_gym/Pendulum-v1``,
``ivy_gym/MountainCar-v0``, ``ivy_gym/Reacher-v0`` and ``ivy_gym/Swimmer-v0``. No array framework
is imported until an environment is created for a backend.
"""

from ._base import IvyEnv
from ._cartpole import CartPole
from ._mountain_car import MountainCar
from ._pendulum import Pendulum
from ._reacher import Reacher
from ._registration import ENV_IDS, register_envs
from ._render import Canvas
from ._swimmer import Swimmer
from ._vector import IvyVectorEnv

__all__ = [
    "CartPole",
    "Canvas",
    "ENV_IDS",
    "IvyEnv",
    "IvyVectorEnv",
    "MountainCar",
    "Pendulum",
    "Reacher",
    "Swimmer",
    "register_envs",
]

__version__ = "0.1.0"

register_envs()
