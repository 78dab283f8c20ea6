"""Calls and control flow: inlined calls, unrolled loops, static or selected branches.

* ``jit`` (``pjit``), ``closed_call``, ``remat``, ``custom_jvp_call``, ``custom_vjp_call``:
  the callee's jaxpr is interpreted in place. For the custom-derivative calls that is the primal
  function (``jax.nn.relu``, ``gelu``, ``softmax``...): the target differentiates it with its own
  autodiff, which agrees with the custom rule wherever the primal is differentiable.
* ``scan``: unrolled (its length is always static), ``xs`` unstacked, ``ys`` stacked.
* ``while``: unrolled when the condition is known at transpile time on every iteration (loops
  whose trip count depends on constants only, such as ``fori_loop`` with traced bounds computed
  from constants); otherwise a :class:`ivy.errors.TranspileError`.
* ``cond``: the branch known at transpile time, or else every branch computed and the results
  selected with ``ivy.where`` (a gradient through the unselected branch is multiplied by zero,
  so a branch that is NaN or infinite where it is not taken can still poison gradients).
"""

from __future__ import annotations

from typing import Any

import numpy as np

import ivy
from ivy.errors import TranspileError

from ._interpret import MAX_WHILE_ITERATIONS
from ._table import Ctx, Val, Vals, rule

__all__: list[str] = []


def _inline_param(param: str) -> Any:
    def translate(*args: Any, ctx: Ctx) -> Any:
        return Vals(ctx.inline(ctx.eqn.params[param], ctx.operands()))

    return translate


rule("jit", "pjit", "remat2", "checkpoint", doc="inlined: the callee's equations join the graph")(
    _inline_param("jaxpr")
)
rule("closed_call", "call", "core_call", doc="inlined: the callee's equations join the graph")(
    _inline_param("call_jaxpr")
)
rule("custom_jvp_call", doc="the primal function inlined (the target differentiates it)")(_inline_param("call_jaxpr"))
rule("custom_vjp_call", doc="the primal function inlined (the target differentiates it)")(_inline_param("call_jaxpr"))


def _row(v: Val, i: int, rows: list[Any]) -> Val:
    const = v.const
    return Val(rows[i], None if const is None else (lambda: np.asarray(const())[i]))


@rule("scan", doc="unrolled: the body inlined once per step, xs unstacked, ys stacked")
def _scan(*args: Any, ctx: Ctx) -> Any:
    p = ctx.eqn.params
    n_consts, n_carry, length = int(p["num_consts"]), int(p["num_carry"]), int(p["length"])
    ops = ctx.operands()
    consts, carry, xs = ops[:n_consts], ops[n_consts : n_consts + n_carry], ops[n_consts + n_carry :]
    rows = [list(ivy.unstack(x.value, axis=0)) if length else [] for x in xs]
    ys_by_step: dict[int, list[Val]] = {}
    steps = range(length - 1, -1, -1) if p["reverse"] else range(length)
    for i in steps:
        out = ctx.inline(p["jaxpr"], [*consts, *carry, *(_row(x, i, r) for x, r in zip(xs, rows))])
        carry, ys_by_step[i] = out[:n_carry], out[n_carry:]
    ys = []
    for j, var in enumerate(ctx.eqn.outvars[n_carry:]):
        if length:
            ys.append(Val(ivy.stack([_array(ys_by_step[i][j], var.aval) for i in range(length)], axis=0)))
        else:
            ys.append(Val(ivy.zeros(tuple(var.aval.shape), dtype=str(var.aval.dtype))))
    return Vals([*carry, *ys])


def _array(v: Val, aval: Any) -> Any:
    """A step's output as an array (a literal output is a Python scalar)."""
    x = v.value
    if isinstance(x, (bool, int, float, complex)):
        return ivy.full(tuple(aval.shape), x, dtype=str(aval.dtype))
    return x


@rule("while", doc="unrolled while the condition is known at transpile time; else an error")
def _while(*args: Any, ctx: Ctx) -> Any:
    p = ctx.eqn.params
    nc, nb = int(p["cond_nconsts"]), int(p["body_nconsts"])
    ops = ctx.operands()
    cond_consts, body_consts, carry = ops[:nc], ops[nc : nc + nb], ops[nc + nb :]
    for _ in range(MAX_WHILE_ITERATIONS):
        (go,) = ctx.inline(p["cond_jaxpr"], [*cond_consts, *carry])
        if go.const is None:
            raise TranspileError(
                f"a while loop at {ctx.where} stops on a condition computed from the inputs: the JAX frontend "
                "unrolls loops whose trip count is known when transpiling (lax.scan, lax.fori_loop with constant "
                "bounds). Rewrite it with lax.scan over a fixed number of steps (masking the extra steps), or "
                "transpile one graph per trip count."
            )
        if not bool(go.const()):
            return Vals(carry)
        carry = ctx.inline(p["body_jaxpr"], [*body_consts, *carry])
    raise TranspileError(
        f"a while loop at {ctx.where} ran {MAX_WHILE_ITERATIONS} iterations when unrolled: not unrolling it further"
    )


@rule("cond", doc="the branch known at transpile time, else every branch and ivy.where on the index")
def _cond(*args: Any, ctx: Ctx) -> Any:
    branches = ctx.eqn.params["branches"]
    index, *ops = ctx.operands()
    n = len(branches)
    if index.const is not None:
        i = min(max(int(index.const()), 0), n - 1)  # lax.switch clamps the index
        return Vals(ctx.inline(branches[i], ops))
    results = [ctx.inline(b, ops) for b in branches]
    idx = ivy.clip(index.value, 0, n - 1)
    outs = []
    for j, var in enumerate(ctx.eqn.outvars):
        out = _array(results[-1][j], var.aval)
        for i in range(n - 2, -1, -1):
            out = ivy.where(ivy.equal(idx, i), _array(results[i][j], var.aval), out)
        outs.append(Val(out))
    return Vals(outs)
