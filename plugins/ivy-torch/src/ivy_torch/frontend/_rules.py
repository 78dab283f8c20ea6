"""The shape of the op table: a :class:`Rule` per ATen op, and helpers shared by the category
modules (dtype names, torch's type promotion, axis normalisation).

A rule's function takes the FX node's arguments with every tensor replaced by an Ivy array (a
traced one while the graph is recorded). Rules marked ``out=True`` take first an :class:`Out`:
what torch computed for the node when it exported the program (shapes and dtypes of every
output, and which outputs the program reads), for the ops whose result dtype or size torch
decides from information the arguments alone do not carry.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

import ivy

__all__ = ["Rule", "Out", "same", "rule", "dtype_name", "result_dtype", "cast", "axes", "ntuple", "const"]


@dataclass(frozen=True)
class Out:
    """What torch computed for a node while exporting.

    Attributes:
        val: the node's ``meta["val"]``: a (fake) tensor, or a tuple/list of them for ops with
            several outputs, or a Python number for shape queries.
        used: the indices of a multi-output op's outputs that the program reads.
    """

    val: Any
    used: frozenset[int] = frozenset()

    @property
    def dtype(self) -> torch.dtype:
        return self.val.dtype

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(int(d) for d in self.val.shape)


@dataclass(frozen=True)
class Rule:
    """How one ATen op maps to Ivy.

    Attributes:
        fn: the translation, called with the node's arguments (and an :class:`Out` first when
            ``out``).
        doc: one line saying how it maps (shown in the coverage table).
        out: whether ``fn`` takes the node's :class:`Out`.
        check: ``(node) -> reason or None``: why this particular use cannot be translated
            (a dilated max pool, a used index output...), found before anything is traced so
            that every problem is reported at once.
    """

    fn: Callable[..., Any]
    doc: str
    out: bool = False
    check: Callable[[Any], str | None] | None = None


def same(fn: Callable[..., Any], doc: str | None = None) -> Rule:
    """The ATen op and the Ivy op mean the same thing: an alias."""
    return Rule(fn, doc or f"ivy.{fn.__name__}")


def rule(
    *, out: bool = False, check: Callable[[Any], str | None] | None = None
) -> Callable[[Callable[..., Any]], Rule]:
    """A translation function as a rule; its docstring's first line says how it maps."""

    def wrap(fn: Callable[..., Any]) -> Rule:
        return Rule(fn, (fn.__doc__ or fn.__name__).strip().splitlines()[0], out, check)

    return wrap


def dtype_name(dtype: torch.dtype) -> str:
    """torch's dtype as Ivy names it (``torch.float32`` -> ``"float32"``)."""
    return str(dtype).removeprefix("torch.")


def _probe(x: Any) -> Any:
    # torch's promotion depends on the category (tensor with dims, 0-d tensor, Python scalar),
    # so an empty tensor of the same rank and dtype stands for each array operand
    if isinstance(x, (bool, int, float, complex)):
        return x
    return torch.empty((0,) * x.ndim, dtype=x.dtype)


def result_dtype(*operands: Any) -> torch.dtype:
    """The dtype torch computes an element-wise op of ``operands`` in (its promotion rules:
    Python scalars and 0-d tensors only promote across categories)."""
    probes = [_probe(x) for x in operands if x is not None]
    dtype = torch.result_type(probes[0], probes[0]) if len(probes) == 1 else torch.result_type(probes[0], probes[1])
    for p in probes[2:]:
        dtype = torch.promote_types(dtype, torch.result_type(p, p))
    return dtype


def is_array(x: Any) -> bool:
    return not isinstance(x, (bool, int, float, complex, type(None)))


def cast(x: Any, dtype: torch.dtype) -> Any:
    """``x`` in ``dtype`` (an array only when it is not already; Python scalars unchanged)."""
    if not is_array(x) or x.dtype == dtype:
        return x
    return ivy.astype(x, dtype_name(dtype))


def axes(dims: int | Sequence[int] | None, ndim: int) -> tuple[int, ...] | None:
    """ATen's ``dim`` argument as a tuple of axes; ``None`` or ``[]`` means every axis."""
    if dims is None:
        return None
    if isinstance(dims, int):
        return (dims % max(ndim, 1),)
    if len(dims) == 0:
        return None
    return tuple(d % max(ndim, 1) for d in dims)


def ntuple(value: int | Sequence[int], n: int) -> list[int]:
    """An int or a sequence of one or ``n`` ints (ATen's kernel, stride and padding lists) as
    ``n`` ints."""
    if isinstance(value, int):
        return [value] * n
    value = list(value)
    return value * n if len(value) == 1 else value


def const(values: np.ndarray | torch.Tensor) -> Any:
    """A constant array of the graph (index tables and weights the frontend computes while
    translating)."""
    if isinstance(values, np.ndarray):
        values = torch.from_numpy(np.ascontiguousarray(values))
    return ivy.asarray(values)
