"""The table of the paddle frontend: PIR op name (``pd_op.matmul``) -> its translation into Ivy ops.

A translation is ``fn(ctx, *operands)``: the op's operands as Ivy arrays (``None`` for an
optional operand the program leaves out, a list for a ``builtin.combine`` vector) and a
:class:`Ctx` giving the op's attributes, the operands known at transpile time (shapes, axes and
scale factors are ``pd_op.full``/``pd_op.full_int_array`` constants in a static program) and the
results' static shapes and dtypes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

import ivy

__all__ = ["Rule", "TABLE", "Ctx", "rule", "alias", "dtype_name"]


@dataclass(frozen=True)
class Rule:
    """How one PIR op is translated.

    Attributes:
        fn: ``fn(ctx, *operands)`` -> one array, or a tuple/list for several results.
        doc: one line for the coverage table: what it becomes in Ivy.
        const_inputs: operands the translation reads as constants (shapes, axes): an op whose
            such operand is computed from the program's inputs is unsupported.
        inplace: result index -> operand index it updates in place (batch norm's running
            statistics); a buffer operand so updated becomes a state update of the graph.
    """

    fn: Callable[..., Any]
    doc: str
    const_inputs: tuple[int, ...] = ()
    inplace: tuple[tuple[int, int], ...] = ()


#: op name -> translation; filled by the ``_ops_*`` modules on import
TABLE: dict[str, Rule] = {}


def rule(
    *names: str, doc: str, const_inputs: tuple[int, ...] = (), inplace: tuple[tuple[int, int], ...] = ()
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function as the translation of the PIR ops ``names``."""

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        for name in names:
            if name in TABLE:
                raise RuntimeError(f"the paddle op {name!r} is translated twice")
            TABLE[name] = Rule(fn, doc, const_inputs, inplace)
        return fn

    return deco


def alias(name: str, ivy_fn: Callable[..., Any], **fixed: Any) -> None:
    """``name`` means the Ivy op ``ivy_fn`` applied to the operands in order (with ``fixed``
    keyword arguments)."""

    def call(ctx: Ctx, *xs: Any) -> Any:
        return ivy_fn(*xs, **fixed)

    extra = ", ".join(f"{k}={v!r}" for k, v in fixed.items())
    rule(name, doc=f"ivy.{getattr(ivy_fn, '__name__', name)}" + (f"({extra})" if extra else ""))(call)


def dtype_name(dtype: Any) -> str | None:
    """A paddle dtype (``paddle.float32``, ``DataType.FLOAT32``) as an Ivy dtype name; None for
    paddle's ``UNDEFINED`` (an attribute left to default)."""
    name = getattr(dtype, "name", None) or str(dtype).rsplit(".", 1)[-1]
    name = name.lower()
    return None if name == "undefined" else name


class Ctx:
    """What a translation may ask about the op it translates.

    Attributes:
        op: the PIR operation.
        attrs: its attributes (``op.attrs()``).
        consts: per operand, its value as a NumPy array when known at transpile time, else None.
    """

    __slots__ = ("op", "attrs", "consts")

    def __init__(self, op: Any, attrs: dict[str, Any], consts: list[np.ndarray | None]):
        self.op, self.attrs, self.consts = op, attrs, consts

    def attr(self, name: str, default: Any = None) -> Any:
        """The attribute ``name``, or ``default``."""
        return self.attrs.get(name, default)

    def const(self, i: int) -> np.ndarray:
        """Operand ``i``'s value known at transpile time (the interpreter checked it is)."""
        c = self.consts[i] if i < len(self.consts) else None
        if c is None:
            raise ivy.errors.TranspileError(
                f"operand {i} of the paddle op {self.op.name()} must be known at transpile time"
            )
        return np.asarray(c)

    def ints(self, i: int) -> list[int]:
        """Operand ``i`` (a constant) as a list of Python ints."""
        return [int(v) for v in np.ravel(self.const(i))]

    def scalar(self, i: int) -> float:
        """Operand ``i`` (a constant of one element) as a Python float."""
        return float(np.ravel(self.const(i))[0])

    def out_shape(self, i: int = 0) -> tuple[int, ...]:
        """The static shape of result ``i`` (``-1`` for a dynamic dimension)."""
        return tuple(int(d) for d in self.op.result(i).shape)

    def out_dtype(self, i: int = 0) -> str | None:
        """The dtype name of result ``i``."""
        return dtype_name(self.op.result(i).dtype)

    def in_shape(self, i: int) -> tuple[int, ...]:
        """The static shape of operand ``i``."""
        return tuple(int(d) for d in self.op.operand_source(i).shape)
