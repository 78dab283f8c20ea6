"""The state of the gymnasium face: ``env.state``, the original Ivy Gym's ``get_state`` /
``set_state`` / ``get_observation`` / ``get_reward``, and states or actions of another dtype than
the environment's (cast where a state is set, refused by the functional API). References:
gymnasium's CartPole-v1 (semi-implicit Euler) and Pendulum-v1 (``g=9.8``)."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest

import ivy
import ivy_gym


def _gym(env_id, **kwargs):
    env = gym.make(env_id, **kwargs).unwrapped
    env.reset(seed=0)
    return env


def test_set_state_of_float64_in_a_float32_cartpole_steps_as_gymnasium(backend, to_native, to_numpy):
    env = ivy_gym.CartPole(backend=backend)  # float32
    ref = _gym("CartPole-v1")
    ref.kinematics_integrator = "semi-implicit euler"
    start = np.array([0.3, -0.2, 0.25, 0.1])  # float64
    for given in (start, to_native(start)):  # NumPy, and a native float64 array of the backend
        env.reset(seed=0)
        obs = env.set_state(given)
        state = env.get_state()
        assert state is env.state and ivy.is_native_array(state) and ivy.dtype_name(state.dtype) == "float32"
        np.testing.assert_array_equal(to_numpy(state), start.astype(np.float32))  # rounded, once
        assert obs.dtype == np.float32 and obs in env.observation_space
        ref.state = start.astype(np.float32).astype(np.float64)
        for k in range(20):
            a = 1.0 if k % 3 else -1.0
            obs, reward, *_ = env.step(np.array([a]))  # a float64 action: converted as well
            with warnings.catch_warnings():  # gymnasium's termination is not ours
                warnings.simplefilter("ignore")
                ref.step(1 if a > 0 else 0)
            np.testing.assert_allclose(to_numpy(env.get_state()), ref.state, rtol=1e-5, atol=1e-5)
        x, _, theta, _ = ref.state
        assert env.get_reward() == pytest.approx(np.exp(-(x**2)) * (np.cos(theta) + 1) / 2, rel=1e-5)
        assert env.get_reward() == pytest.approx(reward, rel=1e-6)  # what step returned
    # the attribute converts too: the step no longer meets a float64 state in TensorFlow's AddV2
    env.state = to_native(start)
    assert ivy.dtype_name(env.state.dtype) == "float32"
    env.step(np.array([1.0], np.float32))


def test_set_state_returns_gymnasiums_pendulum_observation(backend, to_native, to_numpy):
    env = ivy_gym.Pendulum(backend=backend, dtype="float64")
    ref = _gym("Pendulum-v1", g=9.8)
    env.reset(seed=1)

    def gym_obs():  # gymnasium's layout [cos, sin, theta_dot], in float64 (its _get_obs rounds to float32)
        theta, theta_dot = ref.state
        return np.array([np.cos(theta), np.sin(theta), theta_dot])

    for state in ([0.4, -0.7], [-2.5, 1.5]):
        ref.state = np.array(state)
        np.testing.assert_allclose(env.set_state(state), gym_obs(), rtol=0, atol=1e-15)
        np.testing.assert_allclose(env.get_observation(), gym_obs(), rtol=0, atol=1e-15)
        ref.step(np.array([0.5]))
        obs, reward, *_ = env.step(np.array([0.5]))
        np.testing.assert_allclose(obs, gym_obs(), rtol=0, atol=1e-12)
        np.testing.assert_allclose(to_numpy(env.get_state()), ref.state, rtol=0, atol=1e-12)
        assert env.get_reward() == pytest.approx((np.cos(ref.state[0]) + 1) / 2, abs=1e-12)
        assert env.get_reward() == reward


def test_states_that_are_no_state_are_refused(backend, to_native):
    env = ivy_gym.CartPole(backend=backend)
    with pytest.raises(RuntimeError, match=r"get_state\(\) was called before reset\(\)"):
        env.get_state()
    with pytest.raises(RuntimeError, match=r"get_reward\(\) was called before reset\(\)"):
        env.get_reward()
    env.reset(seed=0)
    with pytest.raises(TypeError, match="CartPole state must hold real numbers .* got dtype bool"):
        env.set_state(np.array([True, False, True, False]))
    with pytest.raises(TypeError, match="got dtype complex"):
        env.state = np.zeros(4, np.complex64)
    with pytest.raises(ValueError, match=r"must have shape \(4,\) .* got shape \(2,\)"):
        env.set_state([0.0, 1.0])
    before = env.get_state()
    with pytest.raises(ValueError):
        env.reset(options={"state": np.zeros((2, 4))})
    assert env.get_state() is before  # a refused state changes nothing


def test_functional_api_refuses_another_dtype(backend, to_native, to_numpy):
    env = ivy_gym.Pendulum(backend=backend)  # float32
    state32, action32 = to_native(np.array([0.1, 0.2]), "float32"), to_native(np.array([0.5]), "float32")
    state64, action64 = to_native(np.array([0.1, 0.2]), "float64"), to_native(np.array([0.5]), "float64")
    message = r"Pendulum {} has dtype float64, the environment computes in float32: cast it"
    with pytest.raises(TypeError, match=message.format("state")):
        env.next_state(state64, action32)
    with pytest.raises(TypeError, match=message.format("action")):
        env.transition(state32, action64)
    with pytest.raises(TypeError, match=message.format("state")):
        env.observation(state64)
    with pytest.raises(TypeError, match=r"Pendulum actions has dtype int64"):
        env.rollout(state32, to_native(np.ones((3, 1), np.int64)))
    # in the environment's dtype they step: theta_acc = (m g l/2 sin(theta) + a) / (m l^2 / 3)
    thd = 0.2 + 0.05 * (9.8 * 0.5 * np.sin(0.1) + 0.5) * 3
    np.testing.assert_allclose(to_numpy(env.next_state(state32, action32)), [0.1 + 0.05 * thd, thd], rtol=1e-6)
