"""Calls and control flow: inlined calls, unrolled loops, static or selected branches.

* ``jit`` (``pjit``), ``closed_call``, ``remat``, ``custom_jvp_call``, ``custom_vjp_call``:
  the callee's jaxpr is interpreted in place. For the custom-derivative calls that is the primal
  function (``jax.nn.relu``, ``gelu``, ``softmax``...): the target differentiates it with its own
  autodiff, which agrees with the custom rule wherever the primal is differentiable.
* ``scan`` (``lax.scan``, and ``fori_loop`` with static bounds): one ``ivy.scan`` whose function
  is the body's graph (the target runs its own loop: ``lax.scan``, ``tf.while_loop``, Python);
  unrolled, ``xs`` unstacked and ``ys`` stacked, where the body's translation reads a Python
  value from a carried or scanned array, which a subgraph cannot hold (see ``_scan``).
* ``while``: unrolled when the condition is known at transpile time on every iteration (loops
  whose trip count depends on constants only, such as ``fori_loop`` with traced bounds computed
  from constants); otherwise one ``ivy.while_loop`` whose condition and body are the jaxprs'
  graphs (the target runs its own loop: ``tf.while_loop``, ``lax.while_loop``, Python).
* ``cond``: the branch known at transpile time; else, for two branches (``lax.cond``), one
  ``ivy.cond``; for more (``lax.switch``), every branch computed and the results selected with
  ``ivy.where`` (a gradient through the unselected branch is multiplied by zero, so a branch that
  is NaN or infinite where it is not taken can still poison gradients).
"""

from __future__ import annotations

from typing import Any

import numpy as np

import ivy
from ivy.errors import TranspileError
from ivy.graph import GraphTraceError

from ._interpret import MAX_WHILE_ITERATIONS
from ._table import Ctx, Lazy, Val, Vals, rule

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


@rule("scan", doc="one ivy.scan (unrolled where its body reads a Python value from a carried array)")
def _scan(*args: Any, ctx: Ctx) -> Any:
    p = ctx.eqn.params
    n_consts, n_carry = int(p["num_consts"]), int(p["num_carry"])
    ops = ctx.operands()
    consts, carry, xs = ops[:n_consts], ops[n_consts : n_consts + n_carry], ops[n_consts + n_carry :]
    try:
        return Vals(_scan_node(ctx, consts, carry, xs))
    except GraphTraceError:
        # the body read a Python value from a carried or scanned array (a translation that needs
        # a static index or size, such as a fori_loop counter used as a slice bound): a loop in
        # the graph cannot give one, so the body is inlined once per step with its values known
        pass
    return Vals(_unrolled(ctx, consts, carry, xs))


def _scan_node(ctx: Ctx, consts: list[Val], carry: list[Val], xs: list[Val]) -> list[Val]:
    """``scan`` as one ``ivy.scan``: the body's jaxpr interpreted inside its function (tuples of
    the carried and the scanned arrays), the constants it reads captured from around it."""
    p = ctx.eqn.params
    n_carry, length = int(p["num_carry"]), int(p["length"])
    _force([*consts, *carry, *xs])
    body = p["jaxpr"]
    out_avals = [v.aval for v in body.jaxpr.outvars]
    in_avals = [v.aval for v in ctx.eqn.invars[len(consts) :]]

    def f(c: tuple[Any, ...], x: tuple[Any, ...] | None) -> Any:
        out = ctx.inline(body, [*consts, *(Val(v) for v in c), *(Val(v) for v in x or ())])
        arrays = tuple(_array(o, a) for o, a in zip(out, out_avals))
        return arrays[:n_carry], arrays[n_carry:]

    init = tuple(_array(v, a) for v, a in zip(carry, in_avals[:n_carry]))
    scanned = tuple(_array(v, a) for v, a in zip(xs, in_avals[n_carry:]))
    kw: dict[str, Any] = {"reverse": True} if p["reverse"] else {}
    if not scanned:
        kw["length"] = length
    c_out, ys = ivy.scan(f, init, scanned or None, **kw)
    return [Val(v) for v in (*c_out, *ys)]


def _unrolled(ctx: Ctx, consts: list[Val], carry: list[Val], xs: list[Val]) -> list[Val]:
    """``scan`` with the body inlined once per step, ``xs`` unstacked and ``ys`` stacked."""
    p = ctx.eqn.params
    n_carry, length = int(p["num_carry"]), int(p["length"])
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
    return [*carry, *ys]


def _array(v: Val, aval: Any) -> Any:
    """A step's output as an array (a literal output is a Python scalar)."""
    x = v.value() if isinstance(v.value, Lazy) else v.value
    if isinstance(x, (bool, int, float, complex)):
        return ivy.full(tuple(aval.shape), x, dtype=str(aval.dtype))
    return x


@rule("while", doc="unrolled while the condition is known at transpile time; else one ivy.while_loop")
def _while(*args: Any, ctx: Ctx) -> Any:
    p = ctx.eqn.params
    nc, nb = int(p["cond_nconsts"]), int(p["body_nconsts"])
    ops = ctx.operands()
    cond_consts, body_consts, carry = ops[:nc], ops[nc : nc + nb], ops[nc + nb :]
    for _ in range(MAX_WHILE_ITERATIONS):
        (go,) = ctx.inline(p["cond_jaxpr"], [*cond_consts, *carry])
        if go.const is None:  # the trip count depends on the inputs: a loop in the graph
            return Vals(_loop(ctx, cond_consts, body_consts, carry))
        if not bool(go.const()):
            return Vals(carry)
        carry = ctx.inline(p["body_jaxpr"], [*body_consts, *carry])
    raise TranspileError(
        f"a while loop at {ctx.where} ran {MAX_WHILE_ITERATIONS} iterations when unrolled: not unrolling it further"
    )


@rule("cond", doc="the branch known at transpile time, else ivy.cond (two branches) or ivy.where on the index")
def _cond(*args: Any, ctx: Ctx) -> Any:
    branches = ctx.eqn.params["branches"]
    index, *ops = ctx.operands()
    n = len(branches)
    if index.const is not None:
        i = min(max(int(index.const()), 0), n - 1)  # lax.switch clamps the index
        return Vals(ctx.inline(branches[i], ops))
    if n == 2:  # lax.cond: index 1 is the true branch
        _force(ops)
        outvars = ctx.eqn.outvars

        def branch(b: Any) -> Any:
            def run(*vs: Any) -> Any:
                out = ctx.inline(b, [Val(v) for v in vs])
                return tuple(_array(o, var.aval) for o, var in zip(out, outvars))

            return run

        arrays = [_array(o, o_var.aval) for o, o_var in zip(ops, ctx.eqn.invars[1:])]
        res = ivy.cond(ivy.not_equal(index.value, 0), branch(branches[1]), branch(branches[0]), arrays)
        return Vals([Val(r) for r in res])
    results = [ctx.inline(b, ops) for b in branches]
    idx = ivy.clip(index.value, 0, n - 1)
    outs = []
    for j, var in enumerate(ctx.eqn.outvars):
        out = _array(results[-1][j], var.aval)
        for i in range(n - 2, -1, -1):
            out = ivy.where(ivy.equal(idx, i), _array(results[i][j], var.aval), out)
        outs.append(Val(out))
    return Vals(outs)


def _force(vals: list[Val]) -> None:
    """Make the arrays of lazily made constants now, in the graph around a loop or branch (made
    first inside one, the array would belong to that function's graph only)."""
    for v in vals:
        if isinstance(v.value, Lazy):
            v.value()


def _loop(ctx: Ctx, cond_consts: list[Val], body_consts: list[Val], carry: list[Val]) -> list[Val]:
    """``while`` as one ``ivy.while_loop``: the condition's and the body's jaxprs interpreted
    inside its functions, the constants they read captured from around it."""
    p = ctx.eqn.params
    _force([*cond_consts, *body_consts, *carry])
    avals = [v.aval for v in p["body_jaxpr"].jaxpr.outvars]

    def cond_fn(*vs: Any) -> Any:
        (go,) = ctx.inline(p["cond_jaxpr"], [*cond_consts, *(Val(v) for v in vs)])
        return go.value

    def body_fn(*vs: Any) -> Any:
        out = ctx.inline(p["body_jaxpr"], [*body_consts, *(Val(v) for v in vs)])
        return tuple(_array(o, a) for o, a in zip(out, avals))

    res = ivy.while_loop(cond_fn, body_fn, [_array(c, a) for c, a in zip(carry, avals)])
    return [Val(r) for r in res]
