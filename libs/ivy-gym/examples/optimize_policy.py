"""Policy optimisation by gradient through an Ivy Gym environment: no reinforcement learning.

An ``ivy.Module`` MLP (observation -> 64 -> 64 -> action, tanh) acts in a batch of episodes that
start from random states; Adam lowers ``-mean over the batch of sum_t reward_t``, the gradient
flowing back through the policy and the differentiable dynamics at every step. The same code runs
on every autodiff backend::

    python libs/ivy-gym/examples/optimize_policy.py --backend torch --env Pendulum
    python libs/ivy-gym/examples/optimize_policy.py --backend tensorflow --env Reacher
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

import ivy
import ivy_gym

ENVS = ("CartPole", "Pendulum", "MountainCar", "Reacher", "Swimmer")


class Policy(ivy.Module):
    """``action = tanh(W2 tanh(W1 tanh(W0 obs + b0) + b1) + b2)``: observations ``[..., obs]`` to
    actions ``[..., act]`` in ``[-1, 1]``."""

    def __init__(self, observation_size: int, action_size: int, hidden: int = 64, **kwargs: Any) -> None:
        self.layer0 = ivy.Linear(observation_size, hidden)
        self.layer1 = ivy.Linear(hidden, hidden)
        self.layer2 = ivy.Linear(hidden, action_size)
        ivy.Module.__init__(self, **kwargs)

    def _forward(self, obs: Any) -> Any:
        x = ivy.tanh(self.layer0(obs))
        x = ivy.tanh(self.layer1(x))
        return ivy.tanh(self.layer2(x))


def optimize_policy(
    env_name: str = "Pendulum",
    *,
    backend: str = "torch",
    horizon: int = 100,
    batch: int = 16,
    iterations: int = 100,
    lr: float = 1e-2,
    seed: int = 0,
    log_every: int = 10,
    log: Callable[[str], None] = print,
) -> list[float]:
    """Train a policy on a fixed batch of ``batch`` random starts; returns the mean return before
    each Adam step, and after the last one."""
    env = getattr(ivy_gym, env_name)(backend=backend)
    with ivy.use_backend(backend):
        ivy.seed(seed)  # the policy's initial weights
    policy = Policy(env.observation_size, env.action_size, backend=backend)
    starts = env.initial_state((batch,), seed=seed)
    optimizer = ivy.Adam(lr)

    def loss_fn(v: ivy.Container) -> Any:
        state, total = starts, 0.0
        for _ in range(horizon):
            state, reward = env.transition(state, policy(env.observation(state), v=v))
            total = total + reward
        return -ivy.mean(total)

    returns = []
    for i in range(iterations + 1):
        loss, grads = ivy.execute_with_gradients(loss_fn, policy.v)
        returns.append(-float(ivy.to_scalar(loss)))
        if log_every and (i % log_every == 0 or i == iterations):
            log(f"[{backend} {env_name}] iteration {i:4d}   mean return {returns[-1]:8.3f} / {horizon}")
        if i < iterations:
            policy.v = optimizer.step(policy.v, grads)
    return returns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="torch", help="torch, jax, tensorflow or paddle")
    parser.add_argument("--env", default="Pendulum", choices=ENVS)
    parser.add_argument("--horizon", type=int, default=100)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--lr", type=float, default=1e-2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    returns = optimize_policy(
        args.env,
        backend=args.backend,
        horizon=args.horizon,
        batch=args.batch,
        iterations=args.iterations,
        lr=args.lr,
        seed=args.seed,
    )
    print(f"mean return: {returns[0]:.3f} -> {returns[-1]:.3f}")


if __name__ == "__main__":
    main()
