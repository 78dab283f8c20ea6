"""The TF raw op set, and how much of it the table covers."""

from __future__ import annotations

import tensorflow as tf

from ._table import TABLE

__all__ = ["op_set"]

#: ops the interpreter handles itself (not through the table)
BUILTIN = {
    "Placeholder": "an input (or a captured variable, lifted by key chain)",
    "Const": "a constant",
    "NoOp": "nothing (control dependencies are not followed)",
    "Shape": "the static shape, a constant",
    "ShapeN": "the static shapes, constants",
    "Size": "the static size, a constant",
    "Rank": "the static rank, a constant",
    "If": "the branch a condition known at transpile time takes; else one ivy.cond",
    "StatelessIf": "the branch a condition known at transpile time takes; else one ivy.cond",
    "While": "unrolled, for a trip count known at transpile time; else one ivy.while_loop",
    "StatelessWhile": "unrolled, for a trip count known at transpile time; else one ivy.while_loop",
}


def op_set() -> dict[str, str | None]:
    """Every op of ``tf.raw_ops`` (about 1,500) -> what the frontend translates it into (None: not
    translated; such an op still works when its inputs are known at transpile time)."""
    names = {n for n in dir(tf.raw_ops) if not n.startswith("_")}
    names |= set(TABLE) | set(BUILTIN)
    return {n: BUILTIN.get(n) or (TABLE[n].doc if n in TABLE else None) for n in sorted(names)}
