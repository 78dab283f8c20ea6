"""The functional API of every environment against NumPy reference steps written from the
equations (conftest.REFERENCES): next state, observation and reward, batched and broadcast, and the
reset distribution."""

from __future__ import annotations

import numpy as np

import ivy
import ivy_gym


def _make(case, backend, dtype="float64", **kwargs):
    name, ctor_kwargs, step, bounds = case
    env = getattr(ivy_gym, name)(backend=backend, dtype=dtype, **ctor_kwargs, **kwargs)
    return env, step, bounds


def _states(bounds, batch, rng):
    low, high = (np.asarray(b, dtype=np.float64) for b in bounds)
    # wider than the reset box, and moving, so that every term of the dynamics matters
    return rng.uniform(low - 0.5, high + 0.5, size=batch + low.shape)


def test_step_observation_reward_match_reference_batched(case, backend, to_native, to_numpy):
    env, step, bounds = _make(case, backend)
    rng = np.random.default_rng(1)
    states = _states(bounds, (2, 3), rng)
    actions = rng.uniform(-1, 1, size=(2, 3, env.action_size))
    new_ref, obs_ref, reward_ref = step(states, actions)

    new = env.next_state(to_native(states), to_native(actions))
    obs = env.observation(new)
    reward = env.reward(new, to_native(actions))
    for got, want, size in ((new, new_ref, env.state_size), (obs, obs_ref, env.observation_size)):
        assert type(got) is type(to_native(states)) and tuple(got.shape) == (2, 3, size)
        np.testing.assert_allclose(to_numpy(got), want, rtol=1e-12, atol=1e-12)
    assert tuple(reward.shape) == (2, 3)
    np.testing.assert_allclose(to_numpy(reward), reward_ref, rtol=1e-12, atol=1e-12)
    assert to_numpy(new).dtype == np.float64 and to_numpy(reward).dtype == np.float64
    assert np.all((to_numpy(reward) >= 0) & (to_numpy(reward) <= 1))


def test_transition_and_rollout_match_reference(case, backend, to_native, to_numpy):
    env, step, bounds = _make(case, backend)
    rng = np.random.default_rng(2)
    state = _states(bounds, (3,), rng)
    actions = rng.uniform(-1, 1, size=(3, 6, env.action_size))  # [batch, T, action]
    states_ref, rewards_ref = [], []
    s = state
    for t in range(6):
        s, _, r = step(s, actions[:, t])
        states_ref.append(s)
        rewards_ref.append(r)
    states, rewards = env.rollout(to_native(state), to_native(actions))
    assert tuple(states.shape) == (3, 6, env.state_size) and tuple(rewards.shape) == (3, 6)
    np.testing.assert_allclose(to_numpy(states), np.stack(states_ref, axis=1), rtol=1e-11, atol=1e-11)
    np.testing.assert_allclose(to_numpy(rewards), np.stack(rewards_ref, axis=1), rtol=1e-11, atol=1e-11)

    new, reward = env.transition(to_native(state), to_native(actions[:, 0]))
    np.testing.assert_allclose(to_numpy(new), states_ref[0], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(to_numpy(reward), rewards_ref[0], rtol=1e-12, atol=1e-12)


def test_batch_shapes_broadcast(case, backend, to_native, to_numpy):
    env, step, bounds = _make(case, backend)
    rng = np.random.default_rng(3)
    states = _states(bounds, (3,), rng)  # [3, S]
    actions = rng.uniform(-1, 1, size=(2, 1, env.action_size))  # [2, 1, A]
    new = env.next_state(to_native(states), to_native(actions))
    assert tuple(new.shape) == (2, 3, env.state_size)
    np.testing.assert_allclose(to_numpy(new), step(states, actions)[0], rtol=1e-12, atol=1e-12)
    # one state, many actions; and unbatched in, unbatched out
    one = env.next_state(to_native(states[0]), to_native(actions[:, 0]))
    assert tuple(one.shape) == (2, env.state_size)
    single = env.next_state(to_native(states[0]), to_native(actions[0, 0]))
    assert tuple(single.shape) == (env.state_size,)
    np.testing.assert_allclose(to_numpy(single), step(states[0], actions[0, 0])[0], rtol=1e-12, atol=1e-12)


def test_gym_physics_float32(default_case, backend, to_native, to_numpy):
    env, step, bounds = _make(default_case, backend, dtype="float32")
    rng = np.random.default_rng(4)
    states = _states(bounds, (4,), rng).astype(np.float32)
    actions = rng.uniform(-1, 1, size=(4, env.action_size)).astype(np.float32)
    new, reward = env.transition(to_native(states), to_native(actions))
    new_ref, _, reward_ref = step(states.astype(np.float64), actions.astype(np.float64))
    assert to_numpy(new).dtype == np.float32 and to_numpy(reward).dtype == np.float32
    np.testing.assert_allclose(to_numpy(new), new_ref, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(to_numpy(reward), reward_ref, rtol=1e-5, atol=1e-5)


def test_torque_scale(backend, to_native, to_numpy):
    # a pendulum at rest upright: only the torque acts, theta_acc = 3 / (m l^2) * torque_scale * a
    env = ivy_gym.Pendulum(backend=backend, dtype="float64", torque_scale=2.5)
    new = env.next_state(to_native(np.zeros(2)), to_native(np.array([0.4])))
    theta_dot = 0.05 * 3.0 * 2.5 * 0.4
    np.testing.assert_allclose(to_numpy(new), [0.05 * theta_dot, theta_dot], rtol=1e-14)


def test_initial_state_distribution(default_case, backend, to_numpy):
    env, _, bounds = _make(default_case, backend)
    low, high = (np.asarray(b, dtype=np.float64) for b in bounds)
    states = to_numpy(env.initial_state((400, 2), seed=5))
    assert states.shape == (400, 2, env.state_size) and states.dtype == np.float64
    assert np.all(states >= low) and np.all(states <= high)
    fixed = low == high
    np.testing.assert_array_equal(states[..., fixed], np.broadcast_to(low[fixed], states[..., fixed].shape))
    # the random entries fill their box: a uniform draw of 800 reaches within 2 % of each end
    span = (high - low)[~fixed]
    assert np.all(states[..., ~fixed].min(axis=(0, 1)) < low[~fixed] + 0.02 * span)
    assert np.all(states[..., ~fixed].max(axis=(0, 1)) > high[~fixed] - 0.02 * span)
    np.testing.assert_array_equal(to_numpy(env.initial_state((400, 2), seed=5)), states)
    assert not np.array_equal(to_numpy(env.initial_state((400, 2), seed=6)), states)
    assert tuple(env.initial_state().shape) == (env.state_size,)
    assert tuple(env.initial_state(3).shape) == (3, env.state_size)


def test_default_backend_is_the_one_in_context(backend):
    with ivy.use_backend(backend):
        env = ivy_gym.CartPole()
    assert env.backend == backend
    assert ivy.namespace(env.initial_state()).name == backend
