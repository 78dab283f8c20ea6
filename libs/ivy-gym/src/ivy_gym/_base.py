"""The shared base of Ivy Gym's environments: a differentiable functional API and a gymnasium Env.

Every environment has two faces over one set of physics:

* **Functional, native and differentiable**: :meth:`IvyEnv.initial_state`,
  :meth:`IvyEnv.next_state`, :meth:`IvyEnv.observation`, :meth:`IvyEnv.reward`,
  :meth:`IvyEnv.transition` and :meth:`IvyEnv.rollout`. They are pure functions of native arrays
  of the environment's backend (``torch.Tensor``, ``jax.Array``...), take any number of leading
  batch dimensions, and clip nothing, so gradients flow through every step. They read only the
  environment's constants, never ``env.state``, and (as every Ivy op) compute with the framework
  of the arrays they are given; the environment's backend is where it creates arrays.
* **gymnasium.Env, NumPy at the boundary**: :meth:`IvyEnv.reset`, :meth:`IvyEnv.step`,
  :meth:`IvyEnv.render`. One unbatched state is kept in ``env.state`` as a native array; the
  observations handed out are NumPy copies (:func:`ivy.to_numpy`) of the space's dtype, rewards are
  Python floats, and actions are clipped to the action space ``[-1, 1]``. The original Ivy Gym's
  names reach the same state: :meth:`IvyEnv.get_state`, :meth:`IvyEnv.set_state`,
  :meth:`IvyEnv.get_observation` and :meth:`IvyEnv.get_reward`.

A state set on the environment (``env.state = s``, :meth:`IvyEnv.set_state`, ``reset(options=
{"state": s})``) is converted to the environment's backend, device and dtype; the functional API
takes native arrays as they are and refuses those of another dtype than the environment's, with
an error that says so (frameworks disagree on mixed dtypes: torch promotes, TensorFlow fails).

Actions lie in ``[-1, 1]`` and are multiplied by ``torque_scale``. Integration is semi-implicit
Euler: velocities are updated first, then positions move with the new velocities. No environment
ever terminates; episode length is left to gymnasium's ``TimeLimit`` (``max_episode_steps`` of the
registered ids).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium

import ivy

from ._render import Canvas

__all__ = ["IvyEnv"]

Array = Any

_FLOAT_DTYPES = ("float32", "float64")


def _batch_shape(batch_shape: int | Sequence[int]) -> tuple[int, ...]:
    shape = (batch_shape,) if isinstance(batch_shape, int) else tuple(batch_shape)
    if any(not isinstance(n, int) or n < 0 for n in shape):
        raise ValueError(f"batch_shape must be a non-negative int or a sequence of them; got {batch_shape!r}")
    return shape


class IvyEnv(gymnasium.Env):
    """Base class of the differentiable environments (see the module docstring for the two faces).

    Subclasses set the sizes (``state_size``, ``action_size``, ``observation_size``), the layouts
    named in error messages, ``dt`` and ``default_torque_scale``, and implement ``_next_state``,
    ``_observation``, ``_reward``, ``_reset_bounds``, ``_observation_bounds``, ``view`` and
    ``_draw``.

    Args:
        backend: Ivy backend of the state arrays (a name such as ``"torch"``, or a namespace);
            default: the backend in context when the environment is created
            (:func:`ivy.current_backend`).
        dtype: floating-point dtype of states, observations and spaces: ``"float32"`` (default) or
            ``"float64"``.
        device: device of the arrays the environment creates (``"cpu"``, ``"gpu:0"``); default:
            the backend's default device.
        torque_scale: factor from an action in ``[-1, 1]`` to the force, torque or acceleration
            it applies; default: the environment's own (see its docstring).
        render_mode: ``None`` or ``"rgb_array"`` (:meth:`render` returns an ``HxWx3`` uint8
            image drawn with array code, no windowing library).
        render_size: ``(height, width)`` of rendered images in pixels, or one int for a square.
    """

    metadata: dict[str, Any] = {"render_modes": ["rgb_array"], "render_fps": 20}

    #: time step in seconds
    dt: ClassVar[float]
    #: the force, torque or acceleration of a full action (a = 1) unless ``torque_scale`` is given
    default_torque_scale: ClassVar[float] = 1.0
    #: the RGB colour behind what :meth:`draw` draws
    background: ClassVar[tuple[float, float, float]] = (1.0, 1.0, 1.0)
    #: the names of the state's entries, for error messages and docs
    state_layout: str
    action_layout: str

    state_size: int
    action_size: int
    observation_size: int

    def __init__(
        self,
        *,
        backend: Any = None,
        dtype: str = "float32",
        device: Any = None,
        torque_scale: float | None = None,
        render_mode: str | None = None,
        render_size: int | Sequence[int] = 256,
    ) -> None:
        if dtype not in _FLOAT_DTYPES:
            raise ValueError(f"dtype must be one of {_FLOAT_DTYPES} (a name); got {dtype!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}; got {render_mode!r}")
        size = (render_size, render_size) if isinstance(render_size, int) else tuple(render_size)
        if len(size) != 2 or any(not isinstance(n, int) or n < 1 for n in size):
            raise ValueError(f"render_size must be a positive int or (height, width); got {render_size!r}")
        if torque_scale is not None and not (isinstance(torque_scale, (int, float)) and math.isfinite(torque_scale)):
            raise ValueError(f"torque_scale must be a finite number; got {torque_scale!r}")
        namespace = ivy.current_backend() if backend is None else ivy.backend_namespace(backend)
        self.backend: str = namespace.name
        self.dtype: str = dtype
        self.device: Any = device
        self.torque_scale: float = float(self.default_torque_scale if torque_scale is None else torque_scale)
        self.render_mode = render_mode
        self.render_size: tuple[int, int] = (int(size[0]), int(size[1]))
        self._state: Array | None = None

        low, high = self._observation_bounds()
        # (Box takes a dtype name as NumPy does; its annotation names types and np.dtype only)
        self.observation_space = gymnasium.spaces.Box(  # type: ignore[call-overload]
            low=ivy.to_numpy(self._constant(low)), high=ivy.to_numpy(self._constant(high)), dtype=dtype
        )
        self.action_space = gymnasium.spaces.Box(  # type: ignore[call-overload]
            low=-1.0, high=1.0, shape=(self.action_size,), dtype=dtype
        )

    @property
    def state(self) -> Array | None:
        """The current (unbatched) state of the gymnasium-facing environment, a native array
        ``[state_size]`` of the environment's backend and dtype; ``None`` until :meth:`reset`.

        Setting it converts the value as :meth:`set_state` does.
        """
        return self._state

    @state.setter
    def state(self, value: Any) -> None:
        self._state = None if value is None else self._as_native(value, self.state_size, "state", self.state_layout)

    # ------------------------------------------------------------------ functional API

    def initial_state(self, batch_shape: int | Sequence[int] = (), *, seed: int | None = None) -> Array:
        """Random initial states, drawn from the environment's reset distribution.

        Args:
            batch_shape: leading batch shape ``[...]`` (an int for one dimension); ``()`` for one
                state.
            seed: seed of this draw (the same seed gives the same states on the same backend);
                ``None``: the backend's global random state.

        Returns:
            A native array of shape ``[..., state_size]`` and the environment's dtype.
        """
        shape = (*_batch_shape(batch_shape), self.state_size)
        low, high = self._reset_bounds()
        unit = ivy.random_uniform(shape=shape, dtype=self.dtype, device=self.device, seed=seed, backend=self.backend)
        # low + (high - low) * u rather than random_uniform(low, high): some entries are fixed
        # (a zero initial velocity), where high == low.
        return self._constant(low) + self._constant([h - lo for lo, h in zip(low, high, strict=True)]) * unit

    def next_state(self, state: Array, action: Array) -> Array:
        """The state one time step ``dt`` after ``state`` under ``action`` (semi-implicit Euler).

        Differentiable in both arguments; actions are not clipped (values outside ``[-1, 1]``
        extrapolate the dynamics linearly in the force).

        Args:
            state: ``[..., state_size]``, native array of the backend.
            action: ``[..., action_size]``, in ``[-1, 1]``; its batch shape broadcasts with the
                state's.

        Returns:
            The new state, ``[..., state_size]`` with the broadcast batch shape.
        """
        self._check_last_axis(state, self.state_size, "state", self.state_layout)
        self._check_last_axis(action, self.action_size, "action", self.action_layout)
        return self._next_state(state, action)

    def observation(self, state: Array) -> Array:
        """The observation of ``state``: ``[..., state_size]`` -> ``[..., observation_size]``."""
        self._check_last_axis(state, self.state_size, "state", self.state_layout)
        return self._observation(state)

    def reward(self, state: Array, action: Array) -> Array:
        """The dense reward, in ``[0, 1]``, of ``state`` reached by applying ``action``.

        As in the original Ivy environments, the reward of a step is scored on the state the step
        arrives at: :meth:`step` and :meth:`transition` return ``reward(next_state(s, a), a)``.
        The action is part of the signature for rewards with a control cost; none of the five
        environments has one.

        Args:
            state: ``[..., state_size]``.
            action: ``[..., action_size]``, broadcastable with the state's batch shape.

        Returns:
            The rewards, ``[...]`` (the state's batch shape), differentiable in ``state``.
        """
        self._check_last_axis(state, self.state_size, "state", self.state_layout)
        self._check_last_axis(action, self.action_size, "action", self.action_layout)
        return self._reward(state, action)

    def transition(self, state: Array, action: Array) -> tuple[Array, Array]:
        """One step: ``(next_state, reward)`` with ``next_state = next_state(state, action)`` and
        ``reward = reward(next_state, action)``; shapes ``[..., state_size]`` and ``[...]``."""
        new_state = self.next_state(state, action)
        return new_state, self._reward(new_state, action)

    def rollout(self, state: Array, actions: Array) -> tuple[Array, Array]:
        """Apply a sequence of actions from ``state``, differentiably (open loop).

        Args:
            state: the initial state, ``[..., state_size]``.
            actions: ``[..., T, action_size]``: ``T`` actions in time order (a static length).

        Returns:
            ``(states, rewards)``: the states after each step, ``[..., T, state_size]``, and the
            rewards of the steps, ``[..., T]`` (batch shapes broadcast).
        """
        self._check_last_axis(actions, self.action_size, "actions", "[..., T, " + self.action_layout + "]")
        if len(tuple(actions.shape)) < 2:
            raise ValueError(f"actions must have shape [..., T, {self.action_size}]; got shape {tuple(actions.shape)}")
        states, rewards = [], []
        for action in ivy.unstack(actions, axis=-2):
            state, reward = self.transition(state, action)
            states.append(state)
            rewards.append(reward)
        return ivy.stack(states, axis=-2), ivy.stack(rewards, axis=-1)

    # ------------------------------------------------------------------ gymnasium API

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Start an episode: draw a state from the reset distribution (or take ``options["state"]``).

        The draw is seeded from gymnasium's ``self.np_random``, so ``reset(seed=s)`` is
        reproducible on a backend.

        Args:
            seed: seed of ``self.np_random`` (gymnasium's convention).
            options: ``{"state": s}`` starts from ``s`` (shape ``[state_size]``, array-like or
                native, converted as by :meth:`set_state`); no other option exists.

        Returns:
            ``(observation, {})``, the observation a NumPy array in ``observation_space``.
        """
        super().reset(seed=seed)
        options = dict(options or {})
        state = options.pop("state", None)
        if options:
            raise ValueError(f"unknown reset option(s) {sorted(options)}; the only option is 'state'")
        if state is None:
            self._state = self.initial_state(seed=int(self.np_random.integers(0, 2**31 - 1)))
        else:
            self.state = state  # converted to the environment's backend, device and dtype
        return self.get_observation(), {}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Advance ``self.state`` by one step of ``dt``.

        Args:
            action: shape ``[action_size]``, array-like (a NumPy array from ``action_space``) or a
                native array; clipped to ``[-1, 1]``.

        Returns:
            ``(observation, reward, terminated, truncated, info)``: the observation a NumPy array,
            the reward a float in ``[0, 1]``, ``terminated`` and ``truncated`` always ``False``
            (time limits come from gymnasium's ``TimeLimit``), ``info`` empty.
        """
        state = self._current("step")
        action = self._as_native(action, self.action_size, "action", self.action_layout)
        if not ivy.to_scalar(ivy.all(ivy.isfinite(action))):
            raise ValueError(f"the action must be finite; got {ivy.to_list(action)}")
        self._state, reward = self.transition(state, ivy.clip(action, -1.0, 1.0))
        return self.get_observation(), float(ivy.to_scalar(reward)), False, False, {}

    # ------------------------------------------------------------------ the original Ivy Gym's names

    def get_state(self) -> Array:
        """The current state, ``env.state``: a native array ``[state_size]`` (the original Ivy
        Gym's ``get_state``)."""
        return self._current("get_state")

    def set_state(self, state: Any) -> Any:
        """Make ``state`` the current state and return its observation (the original Ivy Gym's
        ``set_state``); the episode goes on from there.

        Args:
            state: shape ``[state_size]``: array-like, or a native array of any backend. It is
                converted to the environment's backend, device and dtype: a state of another
                real dtype is cast (a float64 state in a float32 environment is rounded to
                float32); a boolean or complex state is refused.

        Returns:
            The observation of the new state, a NumPy array (as :meth:`reset` returns).

        Raises:
            TypeError: for a boolean or complex state.
            ValueError: for a state of another shape.
        """
        self.state = state
        return self.get_observation()

    def get_observation(self) -> Any:
        """The observation of the current state, a NumPy array in ``observation_space`` (the
        original Ivy Gym's ``get_observation``)."""
        return ivy.to_numpy(self._observation(self._current("get_observation")))

    def get_reward(self) -> float:
        """The reward of the current state, a float in ``[0, 1]`` (the original Ivy Gym's
        ``get_reward``): what :meth:`step` returned for arriving at it. No environment's reward
        depends on the action, so it is scored with a zero action."""
        state = self._current("get_reward")
        no_action = ivy.zeros((self.action_size,), dtype=self.dtype, device=self.device, backend=self.backend)
        return float(ivy.to_scalar(self._reward(state, no_action)))

    def render(self) -> Any:
        """With ``render_mode="rgb_array"``: the current state as a NumPy uint8 image of shape
        ``[height, width, 3]``; with ``render_mode=None``: a warning and ``None``."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() was called without a render mode; create the environment with "
                "render_mode='rgb_array' (for example gymnasium.make(id, render_mode='rgb_array'))"
            )
            return None
        return ivy.to_numpy(self.draw(self._current("render")))

    def draw(self, state: Array) -> Array:
        """Draw one state as an image (not differentiable).

        Args:
            state: one state, ``[state_size]`` (no batch dimensions).

        Returns:
            A native uint8 array ``[height, width, 3]`` (RGB) of the backend, ``render_size``
            pixels, y pointing up in the world.
        """
        self._check_last_axis(state, self.state_size, "state", self.state_layout)
        if len(tuple(state.shape)) != 1:
            raise ValueError(f"draw() takes one state of shape [{self.state_size}]; got shape {tuple(state.shape)}")
        height, width = self.render_size
        canvas = Canvas(height, width, self.view, backend=self.backend, device=self.device, background=self.background)
        self._draw(canvas, [float(v) for v in ivy.to_list(ivy.stop_gradient(state))])
        return canvas.to_uint8()

    # ------------------------------------------------------------------ helpers

    def _constant(self, values: Sequence[float]) -> Array:
        return ivy.asarray(list(values), dtype=self.dtype, device=self.device, backend=self.backend)

    def _current(self, method: str) -> Array:
        if self._state is None:
            raise RuntimeError(f"{type(self).__name__}.{method}() was called before reset(); call reset() first")
        return self._state

    def _as_native(self, value: Any, size: int, what: str, layout: str) -> Array:
        """``value`` as a native array of the environment's backend, device and dtype (cast from
        any real dtype), of shape ``(size,)``."""
        dtype = getattr(value, "dtype", None)
        if dtype is not None and ivy.dtype_name(dtype).startswith(("bool", "complex")):
            raise TypeError(
                f"{type(self).__name__} {what} must hold real numbers ({layout}); got dtype {ivy.dtype_name(dtype)}"
            )
        array = ivy.asarray(value, dtype=self.dtype, device=self.device, backend=self.backend)
        if tuple(array.shape) != (size,):
            raise ValueError(
                f"{type(self).__name__} {what} must have shape ({size},) ({layout}); got shape {tuple(array.shape)}"
            )
        return array

    def _check_last_axis(self, x: Any, size: int, what: str, layout: str) -> None:
        shape = getattr(x, "shape", None)
        if shape is None:
            raise TypeError(
                f"{type(self).__name__} {what} must be a native array of the {self.backend!r} backend "
                f"(convert with ivy.asarray(..., backend={self.backend!r})); got {type(x).__name__}"
            )
        shape = tuple(shape)
        # a dimension unknown while tracing (None) is not checked
        if not shape or (shape[-1] is not None and shape[-1] != size):
            raise ValueError(
                f"{type(self).__name__} {what} must have shape [..., {size}] ({layout}); got shape {shape}"
            )
        dtype = ivy.dtype_name(x.dtype)
        if dtype != self.dtype:
            raise TypeError(
                f"{type(self).__name__} {what} has dtype {dtype}, the environment computes in "
                f"{self.dtype}: cast it (ivy.astype({what}, {self.dtype!r})) or create the environment "
                f"with dtype={dtype!r}"
            )

    # ------------------------------------------------------------------ to implement

    def _next_state(self, state: Array, action: Array) -> Array:
        raise NotImplementedError

    def _observation(self, state: Array) -> Array:
        raise NotImplementedError

    def _reward(self, state: Array, action: Array) -> Array:
        raise NotImplementedError

    def _reset_bounds(self) -> tuple[list[float], list[float]]:
        """Per state entry, the bounds of the uniform reset distribution."""
        raise NotImplementedError

    def _observation_bounds(self) -> tuple[list[float], list[float]]:
        """Per observation entry, the bounds of the observation space (``±inf`` when unbounded)."""
        raise NotImplementedError

    @property
    def view(self) -> tuple[float, float, float, float]:
        """The world window ``(xmin, xmax, ymin, ymax)`` that :meth:`draw` shows (metres, y up)."""
        raise NotImplementedError

    def _draw(self, canvas: Canvas, state: list[float]) -> None:
        raise NotImplementedError
