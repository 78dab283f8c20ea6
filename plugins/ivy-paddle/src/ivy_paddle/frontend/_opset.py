"""Paddle's op set, and how much of it the table covers."""

from __future__ import annotations

import paddle

from ._interpret import BUILTIN
from ._table import TABLE

__all__ = ["op_set"]


def op_set() -> dict[str, str | None]:
    """Every op paddle registers (about 1,200, as ``pd_op.<name>``; gradient and optimizer ops
    left out) -> what the frontend translates it into (None: not translated)."""
    names = {
        f"pd_op.{n}"
        for n in paddle.base.core.get_all_op_names()
        if not n.endswith(("_grad", "_grad_grad")) and "_grad_" not in n
    }
    names |= set(TABLE) | set(BUILTIN)
    return {n: BUILTIN.get(n) or (TABLE[n].doc if n in TABLE else None) for n in sorted(names)}
