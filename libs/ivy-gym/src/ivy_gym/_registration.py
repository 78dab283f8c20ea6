"""Registration of the environments with gymnasium, under the ``ivy_gym/`` namespace.

gymnasium 1.x has no plugin discovery: ``gymnasium.make(id)`` looks ``id`` up in
``gymnasium.registry``, and only imports a module when the id names one (``"module:id"``). So the
ids exist once ``ivy_gym`` is imported (its ``__init__`` calls :func:`register_envs`), or when the
id is written ``"ivy_gym:ivy_gym/CartPole-v1"``.
"""

from __future__ import annotations

import functools

import gymnasium

from ._base import IvyEnv
from ._cartpole import CartPole
from ._mountain_car import MountainCar
from ._pendulum import Pendulum
from ._reacher import Reacher
from ._swimmer import Swimmer
from ._vector import IvyVectorEnv

__all__ = ["ENV_IDS", "register_envs"]

#: gymnasium id -> (environment class, max_episode_steps of its TimeLimit)
ENV_IDS: dict[str, tuple[type[IvyEnv], int]] = {
    "ivy_gym/CartPole-v1": (CartPole, 500),
    "ivy_gym/Pendulum-v1": (Pendulum, 200),
    "ivy_gym/MountainCar-v0": (MountainCar, 200),
    "ivy_gym/Reacher-v0": (Reacher, 200),
    "ivy_gym/Swimmer-v0": (Swimmer, 200),
}


def register_envs() -> None:
    """Register the ids of :data:`ENV_IDS` with gymnasium (ids already registered are kept).

    Each id makes the environment class (``gymnasium.make``, keyword arguments such as
    ``backend="torch"`` pass to the constructor) and an :class:`ivy_gym.IvyVectorEnv`
    (``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")``).
    """
    for env_id, (env_class, max_episode_steps) in ENV_IDS.items():
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=env_id,
            entry_point=f"{env_class.__module__}:{env_class.__name__}",
            vector_entry_point=functools.partial(IvyVectorEnv, env_class),
            max_episode_steps=max_episode_steps,
        )
