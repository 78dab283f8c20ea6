"""The table of the JAX frontend: jaxpr primitive name -> its translation into Ivy ops.

A translation is a small function of the primitive's operands (Ivy arrays, or Python scalars for
a jaxpr's scalar literals) and of the primitive's parameters, passed by keyword. It declares the
parameters it reads; the rest (sharding, accuracy and precision hints) are not passed. One that
needs more than its operands (the output types, a concrete value known at transpile time, the
interpreter for a sub-jaxpr) declares a keyword ``ctx`` (a :class:`Ctx`).

``supports(eqn)`` returns why a particular use of a mapped primitive cannot be translated (a
parameter combination the table does not cover), or None; the interpreter asks before it runs
anything, so that every problem of a program is reported at once.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import ivy

__all__ = ["Rule", "TABLE", "Ctx", "Val", "Vals", "Lazy", "rule", "alias", "dtype_name", "as_array"]


@dataclass(frozen=True)
class Rule:
    """How one primitive is translated.

    Attributes:
        fn: the translation (see the module docstring).
        doc: one line for the coverage table: what it becomes in Ivy.
        params: the primitive parameters ``fn`` takes (None: all of them).
        takes_ctx: whether ``fn`` takes ``ctx=``.
        supports: ``(eqn) -> reason | None``, for uses the translation does not cover.
    """

    fn: Callable[..., Any]
    doc: str
    params: frozenset[str] | None
    takes_ctx: bool
    supports: Callable[[Any], str | None] | None = None

    def __call__(self, ctx: Ctx, args: list[Any], params: dict[str, Any]) -> Any:
        kw = dict(params) if self.params is None else {k: v for k, v in params.items() if k in self.params}
        if self.takes_ctx:
            kw["ctx"] = ctx
        return self.fn(*args, **kw)


#: primitive name -> translation; filled by the ``_ops_*`` modules on import.
TABLE: dict[str, Rule] = {}


def _register(
    names: tuple[str, ...], fn: Callable[..., Any], doc: str, supports: Callable[[Any], str | None] | None
) -> None:
    sig = inspect.signature(fn)
    kinds = {p.kind for p in sig.parameters.values()}
    keywords = frozenset(
        n for n, p in sig.parameters.items() if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) and n != "ctx"
    )
    params = None if inspect.Parameter.VAR_KEYWORD in kinds else keywords
    for name in names:
        if name in TABLE:
            raise RuntimeError(f"the jaxpr primitive {name!r} is translated twice")
        TABLE[name] = Rule(fn, doc, params, "ctx" in sig.parameters, supports)


def rule(
    *names: str, doc: str, supports: Callable[[Any], str | None] | None = None
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function as the translation of the primitives ``names``."""

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        _register(names, fn, doc, supports)
        return fn

    return deco


def alias(name: str, ivy_fn: Callable[..., Any]) -> None:
    """``name`` means what the Ivy op ``ivy_fn`` means, operand for operand."""

    def call(*args: Any) -> Any:
        return ivy_fn(*args)

    _register((name,), call, f"ivy.{getattr(ivy_fn, '__name__', name)}", None)


class Val(NamedTuple):
    """A jaxpr variable's value during interpretation.

    Attributes:
        value: the Ivy array (traced), or a Python scalar for a scalar literal.
        const: returns the value as a NumPy array when it is known at transpile time (computed
            from literals and constants alone, never from the inputs), else None.
    """

    value: Any
    const: Callable[[], Any] | None = None


class Vals(list[Val]):
    """Outputs a translation returns as :class:`Val`\\ s (keeping what is known at transpile
    time), as those of control flow do; plain translations return bare values."""


class Lazy:
    """A constant made on first use (most closed-over constants are never read by an op)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]):
        self.make = make

    def __call__(self) -> Any:
        return self.make()


def as_array(x: Any, dtype: str) -> Any:
    """``x`` as an Ivy array of ``dtype`` (a scalar literal becomes a 0-d array)."""
    return ivy.asarray(x, dtype=dtype) if isinstance(x, (bool, int, float, complex)) else x


def dtype_name(dtype: Any) -> str:
    """The standard name of a jaxpr type's dtype (``"float32"``)."""
    return str(getattr(dtype, "name", dtype))


class Ctx:
    """What a translation may ask about the equation it translates.

    Attributes:
        eqn: the jaxpr equation.
        interp: the interpreter (for translations of primitives with sub-jaxprs).
        env: the environment the equation reads its operands from.
    """

    __slots__ = ("eqn", "interp", "env")

    def __init__(self, eqn: Any, interp: Any, env: Any):
        self.eqn, self.interp, self.env = eqn, interp, env

    def out_dtype(self, i: int = 0) -> str:
        """The dtype name of output ``i``."""
        return dtype_name(self.eqn.outvars[i].aval.dtype)

    def out_shape(self, i: int = 0) -> tuple[int, ...]:
        """The shape of output ``i``."""
        return tuple(self.eqn.outvars[i].aval.shape)

    def in_dtype(self, i: int) -> str:
        """The dtype name of operand ``i``."""
        return dtype_name(self.eqn.invars[i].aval.dtype)

    def in_shape(self, i: int) -> tuple[int, ...]:
        """The shape of operand ``i``."""
        return tuple(self.eqn.invars[i].aval.shape)

    def concrete(self, i: int) -> Any:
        """Operand ``i``'s value as a NumPy array when it is known at transpile time (a literal,
        or computed from constants alone), else None."""
        const = self.env.read(self.eqn.invars[i]).const
        return None if const is None else const()

    def operands(self) -> list[Val]:
        """The operands with what is known of them at transpile time."""
        vals = [self.env.read(a) for a in self.eqn.invars]
        return [Val(v.value(), v.const) if isinstance(v.value, Lazy) else v for v in vals]

    def inline(self, jaxpr: Any, args: list[Val]) -> list[Val]:
        """Interpret ``jaxpr`` (closed or open) on ``args`` in place: its ops join the graph."""
        return self.interp.call(jaxpr, args)

    @property
    def where(self) -> str:
        """The source line of the equation, for messages."""
        return self.interp.source_of(self.eqn)
