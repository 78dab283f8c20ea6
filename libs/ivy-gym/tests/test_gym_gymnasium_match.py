"""CartPole and Pendulum step for step against gymnasium's own environments.

* CartPole-v1 with ``kinematics_integrator = "semi-implicit euler"``: gymnasium's discrete action
  1 / 0 pushes with +10 / -10 N, which is ivy_gym's a = +1 / -1 (torque_scale 10).
* Pendulum-v1 made with ``g=9.8`` (its default is 10), equal while gymnasium's speed clip
  (|theta_dot| = 8) does not act; gymnasium's observation layout is ivy_gym's.
"""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np

import ivy_gym


def _gym(env_id, **kwargs):
    env = gym.make(env_id, **kwargs).unwrapped
    env.reset(seed=0)
    return env


def test_cartpole_equals_gymnasium_semi_implicit(backend, to_native, to_numpy):
    env = ivy_gym.CartPole(backend=backend, dtype="float64")
    ref = _gym("CartPole-v1")
    ref.kinematics_integrator = "semi-implicit euler"
    rng = np.random.default_rng(0)
    for _ in range(4):
        start = rng.uniform([-1, -0.3, -np.pi, -0.3], [1, 0.3, np.pi, 0.3])
        ref.state = start.copy()
        state = to_native(start)
        for t in range(200):
            a = rng.choice([-1.0, 1.0])
            with warnings.catch_warnings():  # its termination (the pole beyond 12 degrees) is not ours
                warnings.simplefilter("ignore")
                ref.step(1 if a > 0 else 0)
            state = env.next_state(state, to_native(np.array([a])))
            # equal to the bit on numpy, torch, jax and tensorflow; paddle's sin and cos differ from
            # NumPy's in the last bit now and then, which 200 steps grow to about 1e-14
            np.testing.assert_allclose(to_numpy(state), ref.state, rtol=0, atol=1e-12, err_msg=f"step {t}")
        # one step from the same state agrees to rounding
        ref.state = to_numpy(state).copy()
        ref.step(1)
        np.testing.assert_allclose(
            to_numpy(env.next_state(state, to_native(np.array([1.0])))), ref.state, rtol=1e-14, atol=1e-15
        )


def test_pendulum_equals_gymnasium_with_g_9_8(backend, to_native, to_numpy):
    env = ivy_gym.Pendulum(backend=backend, dtype="float64")
    ref = _gym("Pendulum-v1", g=9.8)
    rng = np.random.default_rng(1)
    compared = 0
    for _ in range(4):
        start = rng.uniform([-np.pi, -1], [np.pi, 1])
        ref.state = start.copy()
        state = to_native(start)
        for _ in range(100):
            a = rng.uniform(-1, 1)
            gym_obs, *_ = ref.step(np.array([a], dtype=np.float64))
            state = env.next_state(state, to_native(np.array([a])))
            if abs(to_numpy(state)[1]) >= 8:  # gymnasium clips the speed from here on
                break
            np.testing.assert_allclose(to_numpy(state), ref.state, rtol=0, atol=1e-12)
            np.testing.assert_allclose(to_numpy(env.observation(state)), gym_obs, rtol=1e-6, atol=1e-6)
            compared += 1
    assert compared > 100
