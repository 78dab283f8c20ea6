"""Trajectory optimisation by gradient through an Ivy Gym environment: no reinforcement learning.

An open-loop plan of ``horizon`` actions, ``action_t = tanh(logit_t)``, is improved by Adam on
``loss = -sum_t reward_t``, the gradient flowing back through every step of the differentiable
dynamics. The same code runs on every autodiff backend::

    python libs/ivy-gym/examples/optimize_trajectory.py --backend torch --env CartPole
    python libs/ivy-gym/examples/optimize_trajectory.py --backend jax --env Swimmer --iterations 50
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

import ivy
import ivy_gym

ENVS = ("CartPole", "Pendulum", "MountainCar", "Reacher", "Swimmer")


def optimize_trajectory(
    env_name: str = "CartPole",
    *,
    backend: str = "torch",
    horizon: int = 100,
    iterations: int = 100,
    lr: float = 0.1,
    seed: int = 0,
    start: Sequence[float] | None = None,
    log_every: int = 10,
    log: Callable[[str], None] = print,
) -> list[float]:
    """Optimise the actions of one episode from ``start`` (a state; default: a random one drawn
    with ``seed``); returns the return (sum of rewards) before each Adam step, and after the last
    one."""
    env = getattr(ivy_gym, env_name)(backend=backend)
    if start is None:
        start = env.initial_state(seed=seed)
    else:
        start = ivy.asarray(list(start), dtype=env.dtype, backend=backend)
    v = ivy.Container(logits=ivy.variable(ivy.zeros((horizon, env.action_size), dtype=env.dtype, backend=backend)))
    optimizer = ivy.Adam(lr)

    def loss_fn(v: ivy.Container) -> object:
        _, rewards = env.rollout(start, ivy.tanh(v.logits))
        return -ivy.sum(rewards)

    returns = []
    for i in range(iterations + 1):
        loss, grads = ivy.execute_with_gradients(loss_fn, v)
        returns.append(-float(ivy.to_scalar(loss)))
        if log_every and (i % log_every == 0 or i == iterations):
            log(f"[{backend} {env_name}] iteration {i:4d}   return {returns[-1]:8.3f} / {horizon}")
        if i < iterations:
            v = optimizer.step(v, grads)
    return returns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="torch", help="torch, jax, tensorflow or paddle")
    parser.add_argument("--env", default="CartPole", choices=ENVS)
    parser.add_argument("--horizon", type=int, default=100)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    returns = optimize_trajectory(
        args.env, backend=args.backend, horizon=args.horizon, iterations=args.iterations, lr=args.lr, seed=args.seed
    )
    print(f"return: {returns[0]:.3f} -> {returns[-1]:.3f}")


if __name__ == "__main__":
    main()
