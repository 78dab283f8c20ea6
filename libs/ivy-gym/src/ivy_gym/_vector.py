"""A gymnasium VectorEnv over the batch dimension of the functional API."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

import ivy

from ._base import IvyEnv

__all__ = ["IvyVectorEnv"]


class IvyVectorEnv(VectorEnv):
    """``num_envs`` copies of one environment, stepped together as one batch of states.

    The state is one native array ``[num_envs, state_size]`` in ``self.state``, advanced by the
    environment's :meth:`~ivy_gym.IvyEnv.transition` in a single batched call. Observations,
    rewards, terminations and truncations are NumPy arrays with a leading ``num_envs`` axis.
    Since no environment terminates, all copies start and end their episodes together: after
    ``max_episode_steps`` steps every copy is truncated, and the next :meth:`step` resets them all
    (gymnasium's ``NEXT_STEP`` autoreset: it ignores the actions and returns the reset
    observations with zero rewards).

    Args:
        env_class: the environment class, such as :class:`ivy_gym.CartPole`.
        num_envs: the number of copies.
        max_episode_steps: the episode length; ``None`` for endless episodes.
        **env_kwargs: constructor arguments of the environment (``backend``, ``dtype``...).
    """

    metadata: dict[str, Any] = {"render_modes": ["rgb_array"], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        env_class: Callable[..., IvyEnv],
        num_envs: int = 1,
        *,
        max_episode_steps: int | None = None,
        **env_kwargs: Any,
    ) -> None:
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int; got {num_envs!r}")
        if max_episode_steps is not None and (not isinstance(max_episode_steps, int) or max_episode_steps < 1):
            raise ValueError(f"max_episode_steps must be None or a positive int; got {max_episode_steps!r}")
        self.env = env_class(**env_kwargs)
        self.num_envs = num_envs
        self.max_episode_steps = max_episode_steps
        self.render_mode = self.env.render_mode
        self.single_observation_space = self.env.observation_space
        self.single_action_space = self.env.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        #: the states of the copies, a native array ``[num_envs, state_size]``; ``None`` until reset
        self.state: Any = None
        self._elapsed_steps = 0
        self._needs_reset = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Start new episodes in every copy; ``options={"state": s}`` with ``s`` of shape
        ``[num_envs, state_size]`` sets the states. Returns ``(observations, {})``."""
        super().reset(seed=seed)
        options = dict(options or {})
        state = options.pop("state", None)
        if options:
            raise ValueError(f"unknown reset option(s) {sorted(options)}; the only option is 'state'")
        if state is None:
            self.state = self._initial_state()
        else:
            self.state = self._as_native(state, self.env.state_size, "state")
        self._elapsed_steps = 0
        self._needs_reset = False
        return self._observations(), {}

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """Step every copy with its row of ``actions`` (``[num_envs, action_size]``, clipped to
        ``[-1, 1]``)."""
        if self.state is None:
            raise RuntimeError("IvyVectorEnv.step() was called before reset(); call reset() first")
        env = self.env
        if self._needs_reset:
            self.state = self._initial_state()
            self._elapsed_steps = 0
            self._needs_reset = False
            rewards = ivy.zeros((self.num_envs,), dtype=env.dtype, device=env.device, backend=env.backend)
            return self._observations(), ivy.to_numpy(rewards), self._flags(False), self._flags(False), {}
        actions = self._as_native(actions, env.action_size, "actions")
        if not ivy.to_scalar(ivy.all(ivy.isfinite(actions))):
            raise ValueError("the actions must be finite")
        self.state, rewards = env.transition(self.state, ivy.clip(actions, -1.0, 1.0))
        self._elapsed_steps += 1
        truncated = self.max_episode_steps is not None and self._elapsed_steps >= self.max_episode_steps
        self._needs_reset = truncated
        return self._observations(), ivy.to_numpy(rewards), self._flags(False), self._flags(truncated), {}

    def render(self) -> tuple[Any, ...] | None:
        """With ``render_mode="rgb_array"``: one NumPy uint8 image ``[height, width, 3]`` per copy."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render mode; pass render_mode='rgb_array'")
            return None
        if self.state is None:
            raise RuntimeError("IvyVectorEnv.render() was called before reset(); call reset() first")
        return tuple(ivy.to_numpy(self.env.draw(s)) for s in ivy.unstack(self.state, axis=0))

    def _initial_state(self) -> Any:
        return self.env.initial_state((self.num_envs,), seed=int(self.np_random.integers(0, 2**31 - 1)))

    def _observations(self) -> Any:
        return ivy.to_numpy(self.env.observation(self.state))

    def _flags(self, value: bool) -> Any:
        env = self.env
        return ivy.to_numpy(ivy.full((self.num_envs,), value, dtype="bool", device=env.device, backend=env.backend))

    def _as_native(self, value: Any, size: int, what: str) -> Any:
        env = self.env
        array = ivy.asarray(value, dtype=env.dtype, device=env.device, backend=env.backend)
        if tuple(array.shape) != (self.num_envs, size):
            raise ValueError(
                f"{what} must have shape ({self.num_envs}, {size}) (num_envs, {what} size); "
                f"got shape {tuple(array.shape)}"
            )
        return array
