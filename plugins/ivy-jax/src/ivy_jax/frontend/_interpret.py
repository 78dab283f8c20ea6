"""The jaxpr interpreter: each equation of a closed jaxpr becomes Ivy ops, through the table.

Run under the graph tracer (``ivy.plugin_kit.trace_program``), the Ivy ops it calls are what the
graph records. Before it runs anything, :meth:`Interpreter.check` walks the whole program, sub-
jaxprs included, and raises :class:`ivy.errors.UnsupportedOpsError` listing every equation the
table cannot translate, with its source line.

Values known at transpile time (literals, the jaxpr's constants, and whatever is computed from
them alone) carry a thunk that computes them concretely with JAX; control flow reads it to
unroll ``while`` loops and pick ``cond`` branches, and indexing reads it to slice statically. An
equation the table lacks is still fine when its operands are all known: its result becomes a
constant. Keyed random numbers are never folded so (a transpiled dropout would repeat its mask).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import jax
import jax.extend.core
import numpy as np

import ivy
from ivy.errors import TranspileError, UnsupportedOpsError

from ._table import TABLE, Ctx, Lazy, Val, Vals, as_array, dtype_name

__all__ = ["Interpreter", "never_folded"]

#: primitives inlined as calls: the staticness of their operands carries into their jaxpr
_CALLS = frozenset(
    {"jit", "pjit", "closed_call", "call", "core_call", "remat2", "checkpoint", "custom_jvp_call", "custom_vjp_call"}
)
_CALLBACKS = frozenset({"debug_callback", "io_callback", "pure_callback", "debug_print"})
_RANDOM_HINT = (
    "JAX's keyed random numbers have no Ivy equivalent (Ivy's random ops draw from each target "
    "framework's own generator): pass the random values in as inputs, or use the model in its "
    "deterministic / eval mode"
)
#: more than this many iterations of an unrolled while loop is taken for a runaway loop
MAX_WHILE_ITERATIONS = 10_000


def never_folded(name: str) -> str | None:
    """Why the primitive ``name`` must not be computed at transpile time even from constants
    (random numbers, side effects), or None."""
    if name.startswith(("random_", "threefry", "philox", "rng_")):
        return _RANDOM_HINT
    if name in _CALLBACKS:
        return "a Python callback runs outside the traced program"
    return None


def _is_literal(atom: Any) -> bool:
    return isinstance(atom, jax.extend.core.Literal)


def _scalar(lit: Any) -> Any:
    """A scalar literal as the Python scalar an Ivy op takes (it adopts the array's dtype)."""
    arr = np.asarray(lit.val)
    return arr.item() if arr.shape == () else None


def _sub_jaxprs(params: dict[str, Any]) -> list[Any]:
    out = []
    for v in params.values():
        for x in v if isinstance(v, (tuple, list)) else (v,):
            if isinstance(x, jax.extend.core.ClosedJaxpr):
                out.append(x.jaxpr)
            elif isinstance(x, jax.extend.core.Jaxpr):
                out.append(x)
    return out


class Env:
    """The values of one jaxpr's variables during interpretation."""

    __slots__ = ("vals",)

    def __init__(self) -> None:
        self.vals: dict[Any, Val] = {}

    def read(self, atom: Any) -> Val:
        if _is_literal(atom):
            arr = np.asarray(atom.val, dtype=atom.aval.dtype)
            value = _scalar(atom)
            return Val(ivy.asarray(arr) if value is None else value, lambda: arr)
        return self.vals[atom]


class Interpreter:
    """Interprets one closed jaxpr with Ivy ops (see the module docstring)."""

    def __init__(self, closed: Any, what: str = "the program"):
        self.closed = closed
        self.what = what

    # ------------------------------------------------------------------ checking

    def check(self) -> None:
        """Raise :class:`UnsupportedOpsError` naming every equation that cannot be translated."""
        problems: dict[str, list[str]] = {}
        self._check(
            self.closed.jaxpr,
            [True] * len(self.closed.jaxpr.constvars),
            [False] * len(self.closed.jaxpr.invars),
            problems,
        )
        for v in self.closed.jaxpr.invars:
            if jax.dtypes.issubdtype(v.aval.dtype, jax.dtypes.prng_key):
                problems.setdefault("PRNG key input", []).append(
                    f"an input of type {v.aval.str_short()}: {_RANDOM_HINT}"
                )
        if problems:
            raise UnsupportedOpsError("jax", problems, what=self.what)

    def _check(
        self, jaxpr: Any, static_consts: list[bool], static_in: list[bool], problems: dict[str, list[str]]
    ) -> None:
        static = dict(zip(jaxpr.constvars, static_consts))
        static.update(zip(jaxpr.invars, static_in))
        for eqn in jaxpr.eqns:
            name = eqn.primitive.name
            known = [True if _is_literal(a) else static.get(a, False) for a in eqn.invars]
            folds = all(known) and never_folded(name) is None
            rule = TABLE.get(name)
            reason = None if rule is None or rule.supports is None else rule.supports(eqn)
            if rule is None or reason is not None:
                if not folds:
                    why = never_folded(name) or reason
                    where = self.source_of(eqn)
                    problems.setdefault(name, []).append(f"{where}: {why}" if why else where)
            elif name in _CALLS:
                for sub in _sub_jaxprs(eqn.params):
                    self._check(
                        sub, [True] * len(sub.constvars), known[-len(sub.invars) :] if sub.invars else [], problems
                    )
            else:
                for sub in _sub_jaxprs(eqn.params):
                    self._check(sub, [True] * len(sub.constvars), [False] * len(sub.invars), problems)
            for v in eqn.outvars:
                static[v] = folds

    @staticmethod
    def source_of(eqn: Any) -> str:
        """The user's source line of an equation (``file:line:col (function)``)."""
        try:
            from jax._src import source_info_util  # no public API for this

            return source_info_util.summarize(eqn.source_info)
        except Exception:  # a message detail only
            return "?"

    # ------------------------------------------------------------------ running

    def run(self, inputs: list[Any]) -> list[Any]:
        """The outputs of the program on ``inputs`` (Ivy arrays), as Ivy arrays."""
        outs = self.call(self.closed, [Val(x) for x in inputs])
        return [self._array(o.value, v.aval) for o, v in zip(outs, self.closed.jaxpr.outvars)]

    def call(self, jaxpr: Any, args: list[Val]) -> list[Val]:
        """Interpret a closed or open jaxpr on ``args``; its constants become graph constants."""
        if isinstance(jaxpr, jax.extend.core.ClosedJaxpr):
            consts = [self._const(c) for c in jaxpr.consts]
            jaxpr = jaxpr.jaxpr
        else:
            consts = []
        return self.eval_jaxpr(jaxpr, consts, args)

    def eval_jaxpr(self, jaxpr: Any, consts: list[Val], args: list[Val]) -> list[Val]:
        if len(args) != len(jaxpr.invars):
            raise TranspileError(f"a jaxpr of {len(jaxpr.invars)} inputs called with {len(args)}")
        env = Env()
        env.vals.update(zip(jaxpr.constvars, consts))
        env.vals.update(zip(jaxpr.invars, args))
        for eqn in jaxpr.eqns:
            outs = self._eqn(eqn, env)
            env.vals.update(zip(eqn.outvars, outs))
        return [env.read(a) for a in jaxpr.outvars]

    def _const(self, c: Any) -> Val:
        # an array the program closes over: a graph constant, made only where an op reads it
        holder: list[Any] = []

        def value() -> Any:
            if not holder:
                holder.append(ivy.asarray(c))
            return holder[0]

        return Val(Lazy(value), _memo(lambda: np.asarray(c)))

    def _eqn(self, eqn: Any, env: Env) -> list[Val]:
        name = eqn.primitive.name
        ins = [env.read(a) for a in eqn.invars]
        folds = all(v.const is not None for v in ins) and never_folded(name) is None
        consts = self._fold(eqn, ins) if folds else None
        rule = TABLE.get(name)
        if rule is None or (rule.supports is not None and rule.supports(eqn) is not None):
            if consts is None:  # check() has reported it
                raise UnsupportedOpsError("jax", {name: [self.source_of(eqn)]}, what=self.what)
            return [Val(ivy.asarray(c()), c) for c in consts]
        args = [v.value() if isinstance(v.value, Lazy) else v.value for v in ins]
        if args and all(isinstance(a, (bool, int, float, complex)) for a in args):
            args = [as_array(a, dtype_name(x.aval.dtype)) for a, x in zip(args, eqn.invars)]
        ctx = Ctx(eqn, self, env)
        out = rule(ctx, args, eqn.params)
        if isinstance(out, Vals):
            return [Val(self._array(o.value, v.aval, name, eqn), o.const) for o, v in zip(out, eqn.outvars)]
        outs = list(out) if eqn.primitive.multiple_results else [out]
        if len(outs) != len(eqn.outvars):
            raise TranspileError(
                f"the translation of {name} at {self.source_of(eqn)} gave {len(outs)} outputs, not {len(eqn.outvars)}"
            )
        vals = [self._array(o, v.aval, name, eqn) for o, v in zip(outs, eqn.outvars)]
        if consts is None:
            return [Val(o) for o in vals]
        return [Val(o, c) for o, c in zip(vals, consts)]

    def _fold(self, eqn: Any, ins: list[Val]) -> list[Callable[[], Any]]:
        """Thunks computing the equation's outputs with JAX from its operands' known values."""

        @_memo
        def outs() -> list[Any]:
            vals = [jax.numpy.asarray(v.const()) for v in ins]  # type: ignore[misc]
            res = eqn.primitive.bind(*vals, **eqn.primitive.get_bind_params(eqn.params))
            return [np.asarray(r) for r in (res if eqn.primitive.multiple_results else [res])]

        return [functools.partial(lambda i: outs()[i], i) for i in range(len(eqn.outvars))]

    def _array(self, x: Any, aval: Any, name: str = "", eqn: Any = None) -> Any:
        """``x`` as an array of exactly the jaxpr's type: JAX's result dtype is the truth where
        Ivy's promotion or defaults differ (sums of int32, argmax's index dtype)."""
        dtype = dtype_name(aval.dtype)
        if isinstance(x, Lazy):
            x = x()
        if isinstance(x, (bool, int, float, complex)):
            x = ivy.asarray(x, dtype=dtype)
        if tuple(x.shape) != tuple(aval.shape):
            where = f" at {self.source_of(eqn)}" if eqn is not None else ""
            raise TranspileError(
                f"the JAX frontend's translation of {name or 'an output'}{where} gave shape {tuple(x.shape)}, "
                f"JAX gives {tuple(aval.shape)}: a frontend bug, please report it"
            )
        if dtype_name(x.dtype) != dtype:
            x = ivy.astype(x, dtype)
        return x


def _memo(fn: Callable[[], Any]) -> Callable[[], Any]:
    cache: list[Any] = []

    def memo() -> Any:
        if not cache:
            cache.append(fn())
        return cache[0]

    return memo
