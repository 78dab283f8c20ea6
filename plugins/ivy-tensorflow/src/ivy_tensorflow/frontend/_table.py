"""The table of the TensorFlow frontend: TF graph op type -> its translation into Ivy ops.

A translation is a small function ``fn(ctx, *inputs)`` of the op's data inputs (Ivy arrays) and
of a :class:`Ctx` giving its attributes, the values of inputs known at transpile time (shapes,
axes, permutations are constants in a concrete function's graph) and the output types.
``supports(op)`` returns why a particular use of a mapped op cannot be translated (an attribute
value the table does not cover), or None; the interpreter asks before it runs anything, so that
every problem of a program is reported at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

import ivy

__all__ = ["Rule", "TABLE", "Ctx", "rule", "alias", "attr"]


@dataclass(frozen=True)
class Rule:
    """How one op type is translated.

    Attributes:
        fn: ``fn(ctx, *inputs)``: the Ivy ops computing the op's outputs (one array, or a
            tuple/list for an op with several outputs).
        doc: one line for the coverage table: what it becomes in Ivy.
        supports: ``(op) -> reason | None`` for uses the translation does not cover.
        const_inputs: indices of inputs the translation reads as constants (shapes, axes); an op
            whose such input is computed from the program's inputs is unsupported.
    """

    fn: Callable[..., Any]
    doc: str
    supports: Callable[[Any], str | None] | None = None
    const_inputs: tuple[int, ...] = ()


#: op type -> translation; filled by the ``_ops_*`` modules on import
TABLE: dict[str, Rule] = {}


def rule(
    *names: str, doc: str, supports: Callable[[Any], str | None] | None = None, const_inputs: tuple[int, ...] = ()
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function as the translation of the op types ``names``."""

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        for name in names:
            if name in TABLE:
                raise RuntimeError(f"the TF op {name!r} is translated twice")
            TABLE[name] = Rule(fn, doc, supports, const_inputs)
        return fn

    return deco


def alias(name: str, ivy_fn: Callable[..., Any]) -> None:
    """``name`` means what the Ivy op ``ivy_fn`` means, input for input."""

    def call(ctx: Ctx, *xs: Any) -> Any:
        return ivy_fn(*xs)

    rule(name, doc=f"ivy.{getattr(ivy_fn, '__name__', name)}")(call)


def attr(op: Any, name: str, default: Any = None) -> Any:
    """An attribute of a graph op as a Python value (bytes as str), or ``default``."""
    try:
        v = op.get_attr(name)
    except ValueError:
        return default
    if isinstance(v, bytes):
        return v.decode()
    if isinstance(v, list):
        return [x.decode() if isinstance(x, bytes) else x for x in v]
    return v


class Ctx:
    """What a translation may ask about the op it translates.

    Attributes:
        op: the ``tf.Operation``.
        consts: per input, a thunk giving its value as a NumPy array when known at transpile
            time, else None.
    """

    __slots__ = ("op", "consts")

    def __init__(self, op: Any, consts: list[Callable[[], np.ndarray] | None]):
        self.op, self.consts = op, consts

    def attr(self, name: str, default: Any = None) -> Any:
        """The attribute ``name`` (see :func:`attr`)."""
        return attr(self.op, name, default)

    def const(self, i: int) -> np.ndarray:
        """Input ``i``'s value known at transpile time (the interpreter has checked it is)."""
        c = self.consts[i]
        if c is None:
            raise ivy.errors.TranspileError(
                f"input {i} of the TF op {self.op.type} ({self.op.name}) must be known at transpile time"
            )
        return np.asarray(c())

    def ints(self, i: int) -> list[int]:
        """Input ``i`` (a constant) as a list of Python ints."""
        return [int(v) for v in np.ravel(self.const(i))]

    def out_dtype(self, i: int = 0) -> str:
        """The dtype name of output ``i``."""
        return self.op.outputs[i].dtype.name

    def out_shape(self, i: int = 0) -> tuple[int | None, ...] | None:
        """The static shape of output ``i`` (None for an unknown rank)."""
        shape = self.op.outputs[i].shape
        return None if shape.rank is None else tuple(shape.as_list())

    def in_shape(self, i: int) -> tuple[int, ...]:
        """The static shape of input ``i``."""
        return tuple(self.op.inputs[i].shape.as_list())

    def in_dtype(self, i: int) -> str:
        """The dtype name of input ``i``."""
        return self.op.inputs[i].dtype.name
