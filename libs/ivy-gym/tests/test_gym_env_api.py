"""The gymnasium face: registration and ``gymnasium.make``, ``check_env``, NumPy at the boundary,
seeding, time limits, the vector env, rendering, errors, and an import that loads no framework."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import ivy
import ivy_gym
from ivy.testing.imports import import_cycles, import_graph

IDS = sorted(ivy_gym.ENV_IDS)


@pytest.mark.parametrize("env_id", IDS)
def test_make_and_check_env(env_id, backend):
    env = gymnasium.make(env_id, backend=backend)
    assert isinstance(env.unwrapped, ivy_gym.ENV_IDS[env_id][0]) and env.unwrapped.backend == backend
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)  # also makes it again with render_mode="rgb_array" and renders
    # unbounded positions and velocities are honest infinite bounds; nothing else may be flagged
    unexpected = [str(w.message) for w in caught if "infinity" not in str(w.message)]
    assert not unexpected, unexpected


def test_gymnasium_face_converts_to_numpy(backend, to_numpy):
    env = gymnasium.make("ivy_gym/Swimmer-v0", backend=backend, dtype="float64")
    obs, info = env.reset(seed=3)
    assert type(obs) is np.ndarray and obs.dtype == np.float64 and obs.shape == (16,) and info == {}
    state = env.unwrapped.state
    assert ivy.is_native_array(state) and ivy.namespace(state).name == backend
    np.testing.assert_array_equal(obs, to_numpy(state))  # the swimmer observes its state
    obs2, reward, terminated, truncated, info = env.step(np.array([0.5, -0.5], dtype=np.float64))
    assert type(obs2) is np.ndarray and type(reward) is float and 0 <= reward <= 1
    assert terminated is False and truncated is False and info == {}
    np.testing.assert_allclose(obs2[12:14], obs[12:14] + 0.05 * np.array([0.5, -0.5]), rtol=1e-12)
    np.testing.assert_allclose(obs2[10:12], obs[10:12] + 0.05 * obs2[12:14], rtol=1e-12)
    assert obs2 in env.observation_space


def test_reset_is_seeded_and_takes_a_state(backend, to_native):
    env = ivy_gym.CartPole(backend=backend, dtype="float64")
    first, _ = env.reset(seed=11)
    assert np.array_equal(env.reset(seed=11)[0], first)
    assert not np.array_equal(env.reset(seed=12)[0], first)
    assert not np.array_equal(env.reset()[0], env.reset()[0])  # unseeded resets go on drawing
    obs, _ = env.reset(options={"state": [0.5, 0.0, np.pi, 0.0]})
    np.testing.assert_allclose(obs, [0.5, 0.0, -1.0, 0.0, 0.0], atol=1e-15)
    obs, _ = env.reset(options={"state": to_native(np.array([0.0, 0.1, 0.0, 0.2]))})
    np.testing.assert_allclose(obs, [0.0, 0.1, 1.0, 0.0, 0.2], atol=1e-15)


def test_step_clips_actions_to_the_space(backend):
    env = ivy_gym.MountainCar(backend=backend, dtype="float64")
    env.reset(options={"state": [-0.5, 0.0]})
    clipped = env.step(np.array([7.0]))[0]
    env.reset(options={"state": [-0.5, 0.0]})
    np.testing.assert_array_equal(clipped, env.step(np.array([1.0]))[0])


def test_time_limit_truncates(backend):
    env = gymnasium.make("ivy_gym/Pendulum-v1", backend=backend, max_episode_steps=3)
    assert gymnasium.spec("ivy_gym/Pendulum-v1").max_episode_steps == 200
    env.reset(seed=0)
    flags = [env.step(env.action_space.sample())[3] for _ in range(3)]
    assert flags == [False, False, True]


def test_vector_env(backend, to_native, to_numpy):
    envs = gymnasium.make_vec(
        "ivy_gym/Reacher-v0",
        num_envs=4,
        vectorization_mode="vector_entry_point",
        backend=backend,
        dtype="float64",
        max_episode_steps=2,
    )
    assert isinstance(envs, ivy_gym.IvyVectorEnv)
    obs, _ = envs.reset(seed=1)
    assert type(obs) is np.ndarray and obs.shape == (4, 8) and obs in envs.observation_space
    start = to_numpy(envs.state)
    actions = np.linspace(-1, 1, 8).reshape(4, 2)
    obs, rewards, terminated, truncated, _ = envs.step(actions)
    new, reward = envs.env.transition(to_native(start), to_native(actions))
    np.testing.assert_allclose(obs, to_numpy(envs.env.observation(new)), rtol=1e-14)
    np.testing.assert_allclose(rewards, to_numpy(reward), rtol=1e-14)
    assert rewards.shape == (4,) and terminated.dtype == np.bool_ and not terminated.any() and not truncated.any()
    truncated = envs.step(actions)[3]
    assert truncated.all()
    # NEXT_STEP autoreset: the following step starts new episodes and ignores the actions
    obs, rewards, terminated, truncated, _ = envs.step(actions)
    assert not truncated.any() and np.all(rewards == 0)
    np.testing.assert_array_equal(obs, to_numpy(envs.env.observation(envs.state)))
    # given states, and one image per copy
    states = np.tile([0.0, np.pi / 2, 0.0, 0.0, -1.0, -1.0], (4, 1))
    obs, _ = envs.reset(options={"state": states})
    np.testing.assert_allclose(obs[:, :4], np.tile([1.0, 0.0, 0.0, 1.0], (4, 1)), atol=1e-15)
    frames = ivy_gym.IvyVectorEnv(ivy_gym.Reacher, 2, backend=backend, render_mode="rgb_array", render_size=32)
    frames.reset(seed=0)
    images = frames.render()
    assert len(images) == 2 and all(i.shape == (32, 32, 3) and i.dtype == np.uint8 for i in images)
    with pytest.raises(ValueError, match=r"actions must have shape \(2, 2\)"):
        frames.step(np.zeros((3, 2)))


def _pixel(env, x, y):
    """The (row, col) of world point (x, y) in ``env``'s rendered image."""
    xmin, xmax, ymin, ymax = env.view
    height, width = env.render_size
    return int((ymax - y) / (ymax - ymin) * height), int((x - xmin) / (xmax - xmin) * width)


# env, state, points that must show a colour (RGB in [0, 1]) or the background (None)
_SCENES = [
    ("Pendulum", [0.0, 0.0], [((0.0, 0.6), (0.8, 0.3, 0.3)), ((0.0, -0.6), None)]),  # upright
    ("Pendulum", [np.pi, 0.0], [((0.0, -0.6), (0.8, 0.3, 0.3)), ((0.0, 0.6), None)]),  # hanging
    # the cart at x = 1: its body, the upright pole above it, and nothing above the origin
    (
        "CartPole",
        [1.0, 0.0, 0.0, 0.0],
        [((1.2, 0.0), (0.1, 0.1, 0.1)), ((1.0, 0.7), (0.8, 0.6, 0.4)), ((-1.0, 0.7), None)],
    ),
    ("MountainCar", [-0.5, 0.0], [((-1.0, 0.0), (0.55, 0.75, 0.45)), ((-1.0, 1.3), None)]),  # ground, sky
    # links along +x then +y: the tip at (1, 1); the goal at (-1, -1)
    (
        "Reacher",
        [0.0, np.pi / 2, 0.0, 0.0, -1.0, -1.0],
        [((1.0, 1.0), (0.8, 0.2, 0.2)), ((-1.0, -1.0), (0.2, 0.7, 0.2)), ((-1.0, 1.0), None)],
    ),
    # the fish at (0.5, -0.5), the goal at (-0.5, 0.5), all urchins at (1.5, 1.5)
    (
        "Swimmer",
        [1.5, 1.5] * 5 + [0.5, -0.5, 0.0, 0.0, -0.5, 0.5],
        [
            ((0.5, -0.5), (0.95, 0.55, 0.1)),
            ((-0.5, 0.5), (0.2, 0.7, 0.2)),
            ((1.5, 1.5), (0.6, 0.1, 0.5)),
            ((-1.5, -1.5), None),
        ],
    ),
]


@pytest.mark.parametrize("name, state, points", _SCENES)
def test_render_draws_the_state(name, state, points, backend):
    env = getattr(ivy_gym, name)(backend=backend, render_mode="rgb_array", render_size=(120, 160))
    env.reset(options={"state": state})
    image = env.render()
    assert type(image) is np.ndarray and image.dtype == np.uint8 and image.shape == (120, 160, 3)
    for (x, y), color in points:
        expected = env.background if color is None else color
        np.testing.assert_allclose(image[_pixel(env, x, y)], np.round(np.array(expected) * 255), atol=1)


def test_render_without_mode_warns(backend):
    env = ivy_gym.Pendulum(backend=backend)
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert env.render() is None


def test_errors_are_specific(backend, to_native):
    env = ivy_gym.Reacher(backend=backend, dtype="float64")
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(2))
    with pytest.raises(RuntimeError, match="reset"):
        ivy_gym.Reacher(backend=backend, render_mode="rgb_array").render()
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"action must have shape \(2,\)"):
        env.step(np.zeros(3))
    with pytest.raises(ValueError, match="finite"):
        env.step(np.array([np.nan, 0.0]))
    with pytest.raises(ValueError, match=r"state must have shape \[\.\.\., 6\] \(theta_1\.\.2"):
        env.next_state(to_native(np.zeros(5)), to_native(np.zeros(2)))
    with pytest.raises(ValueError, match=r"action must have shape \[\.\.\., 2\]"):
        env.reward(to_native(np.zeros(6)), to_native(np.zeros(1)))
    with pytest.raises(ValueError, match=r"actions must have shape \[\.\.\., T, 2\]"):
        env.rollout(to_native(np.zeros(6)), to_native(np.zeros(2)))
    with pytest.raises(TypeError, match="native array"):
        env.observation([0.0] * 6)
    with pytest.raises(ValueError, match="unknown reset option"):
        env.reset(options={"goal": [0, 0]})
    with pytest.raises(ValueError, match=r"state must have shape \(6,\)"):
        env.reset(options={"state": [0.0] * 4})
    with pytest.raises(ValueError, match="one state"):
        env.draw(to_native(np.zeros((2, 6))))
    with pytest.raises(ValueError, match="dtype"):
        ivy_gym.Reacher(backend=backend, dtype="int32")
    with pytest.raises(ValueError, match="render_mode"):
        ivy_gym.Reacher(backend=backend, render_mode="human")
    with pytest.raises(ValueError, match="num_joints"):
        ivy_gym.Reacher(0, backend=backend)
    with pytest.raises(ValueError, match="num_urchins"):
        ivy_gym.Swimmer(-1, backend=backend)
    with pytest.raises(ValueError, match="batch_shape"):
        env.initial_state((2, -1))
    with pytest.raises(ValueError, match="num_envs"):
        ivy_gym.IvyVectorEnv(ivy_gym.Reacher, 0, backend=backend)


_FRESH_INTERPRETER = textwrap.dedent(
    """
    import sys
    import ivy_gym
    frameworks = sorted(m for m in sys.modules if m.split(".")[0] in ("torch", "jax", "tensorflow", "paddle"))
    assert not frameworks, frameworks
    """
)

_MAKE_WITHOUT_IMPORT = textwrap.dedent(
    """
    import gymnasium
    try:
        gymnasium.make("ivy_gym/Pendulum-v1")
    except gymnasium.error.Error:
        pass
    else:
        raise AssertionError("gymnasium found the id without importing ivy_gym")
    env = gymnasium.make("ivy_gym:ivy_gym/Pendulum-v1", backend={backend!r})  # gymnasium imports ivy_gym
    assert env.reset(seed=0)[0].shape == (3,)
    """
)


def _run(code):
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=900, env=dict(os.environ)
    )
    assert result.returncode == 0, result.stderr[-3000:]


def test_import_loads_no_array_framework():
    _run(_FRESH_INTERPRETER)


def test_module_prefixed_id_imports_ivy_gym():
    # numpy when it is installed: the cheapest backend to start in a child process
    _run(_MAKE_WITHOUT_IMPORT.format(backend="numpy" if "numpy" in ivy.backends() else ivy.backends()[0]))


def test_gym_has_no_import_cycle():
    # no module imports, directly or through others, one that imports it back
    edges = import_graph(Path(ivy_gym.__file__).parent)
    assert len(edges) > 3 and import_cycles(edges) == []
