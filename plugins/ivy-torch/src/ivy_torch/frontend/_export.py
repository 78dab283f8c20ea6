"""Reading a torch program: ``torch.export`` of a module or function on example inputs,
decomposed to Core ATen (with the composites the table keeps whole), and torch's failures
turned into :class:`ivy.errors.TranspileError` naming the user's source line."""

from __future__ import annotations

import functools
import re
import traceback
from collections.abc import Callable, Mapping
from typing import Any

import torch

from ivy.errors import TranspileError

from ._table import TABLE, op_name

__all__ = ["capture", "decompose", "FunctionModule"]


class FunctionModule(torch.nn.Module):
    """A plain function as a module, for torch.export (which exports modules): no parameters;
    tensors the function closes over become the program's constants."""

    def __init__(self, fn: Callable[..., Any]):
        super().__init__()
        self.fn = fn

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)


@functools.cache
def decomposable() -> dict[Any, Any]:
    """torch.export's default decompositions (to Core ATen); not to be changed."""
    return dict(torch.export.default_decompositions())


def _decompositions(also: frozenset[Any]) -> dict[Any, Any]:
    """The default decompositions, less those of the ops the table maps (composites such as
    ``linear`` and attention, and the core ops torch would still rewrite, such as ``elu`` and
    the paddings): one Ivy op runs better on the target than the pieces. ``also``: mapped ops
    to decompose anyway (their use in this program is one the rule cannot translate)."""
    return {op: fn for op, fn in decomposable().items() if op in also or op_name(op) not in TABLE}


def _anchor(fn: Callable[..., Any]) -> None:
    """Ask torch to record the function's own lines in the nodes' stack traces (it keeps only
    the frames of ``forward`` methods otherwise)."""
    register = getattr(torch.fx.proxy, "_register_stack_trace_anchor", None)
    if register is not None and hasattr(fn, "__code__"):
        register(fn)


_CALL = re.compile(r'File "([^"]+)", line (\d+), in (\S+)\n\s*(.*)')


def _user_line(error: BaseException) -> str | None:
    """The user's line torch names in an export failure ("The following call raised this
    error"), else the innermost frame of the traceback outside torch and Ivy."""
    text = str(error)
    marker = text.find("The following call raised this error")
    if marker >= 0:
        m = _CALL.search(text, marker)
        if m:
            return f"{m.group(1)}:{m.group(2)} in {m.group(3)}: {m.group(4).strip()}"
    frames = traceback.extract_tb(error.__traceback__)
    for f in reversed(frames):
        path = f.filename.replace("\\", "/")
        if "/torch/" not in path and "/ivy" not in path and "/transformers/utils/" not in path:
            return f"{f.filename}:{f.lineno} in {f.name}: {(f.line or '').strip()}"
    return None


def _explain(error: BaseException, what: str) -> TranspileError:
    from torch.fx.experimental.symbolic_shapes import GuardOnDataDependentSymNode

    where = _user_line(error)
    at = f" at {where}" if where else ""
    data_dependent = isinstance(error, GuardOnDataDependentSymNode) or "data-dependent" in str(error)
    if data_dependent:
        message = (
            f"{what} branches on the values of a tensor{at}: torch.export cannot capture data-dependent "
            "control flow, so the transpiler cannot read it. Write the branch with torch.where (both sides "
            "computed), or with torch.cond (a loop with torch.while_loop), or move the decision out of the function."
        )
    else:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        message = f"torch.export could not capture {what}{at}: {type(error).__name__}: {first}"
    return TranspileError(message)


def capture(obj: Any, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> tuple[Any, Any, str]:
    """``torch.export`` of ``obj`` on ``args``/``kwargs`` (not yet decomposed): ``(program,
    module, description)``, the module being ``obj`` or the function wrapped as one.

    A module is exported in its current mode (``train()`` or ``eval()``): in training mode
    BatchNorm's running statistics are updates of the program's buffers and dropout is random.
    """
    if isinstance(obj, torch.nn.Module):
        module, what = obj, f"the module {type(obj).__name__}"
    else:
        module, what = FunctionModule(obj), f"the function {getattr(obj, '__qualname__', obj)!r}"
        _anchor(obj)
    try:
        return torch.export.export(module, tuple(args), dict(kwargs)), module, what
    except Exception as e:  # torch raises many kinds: user errors, unsupported constructs, guards
        raise _explain(e, what) from e


def decompose(program: Any, what: str, also: frozenset[Any] = frozenset()) -> Any:
    """The captured ``program`` decomposed to Core ATen and functionalised (in-place ops and
    buffer writes become values and outputs), keeping the ops the table maps whole."""
    try:
        return program.run_decompositions(_decompositions(also))
    except Exception as e:
        raise _explain(e, what) from e
