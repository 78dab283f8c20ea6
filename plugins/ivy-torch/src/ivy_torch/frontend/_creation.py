"""Creation ops, random numbers and shape queries.

The dtype of a created tensor is the one torch gave it when it exported the program (ATen's
creation ops leave it implicit: ``arange(0, 8)`` is int64, ``full([2], 1.0)`` float32).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ivy

from ._rules import Out, Rule, dtype_name, rule

__all__ = ["TABLE"]


@rule(out=True)
def full(out: Out, size: Sequence[int], fill_value: Any, **kwargs: Any) -> Any:
    """ivy.full"""
    return ivy.full(tuple(size), fill_value, dtype=dtype_name(out.dtype))


@rule(out=True)
def full_like(out: Out, x: Any, fill_value: Any, **kwargs: Any) -> Any:
    """ivy.full of x's shape"""
    return ivy.full(out.shape, fill_value, dtype=dtype_name(out.dtype))


@rule(out=True)
def fill(out: Out, x: Any, value: Any) -> Any:
    """ivy.full of x's shape"""
    return ivy.full(out.shape, value, dtype=dtype_name(out.dtype))


@rule(out=True)
def scalar_tensor(out: Out, s: Any, **kwargs: Any) -> Any:
    """ivy.full(())"""
    return ivy.full((), s, dtype=dtype_name(out.dtype))


@rule(out=True)
def zeros(out: Out, size: Sequence[int], *args: Any, **kwargs: Any) -> Any:
    """ivy.zeros (torch leaves empty tensors uninitialised; zeros are one valid content)"""
    return ivy.zeros(tuple(size), dtype=dtype_name(out.dtype))


@rule(out=True)
def arange(out: Out, *args: Any, **kwargs: Any) -> Any:
    """ivy.arange(start, end, step)"""
    start, end, step = (0, *args, 1)[-3:] if len(args) == 1 else (*args, 1)[:3]
    return ivy.arange(start, end, step, dtype=dtype_name(out.dtype))


@rule(out=True)
def rand(out: Out, size: Sequence[int], **kwargs: Any) -> Any:
    """ivy.random_uniform in [0, 1) (the target's generator: other numbers than torch's)"""
    return ivy.random_uniform(shape=tuple(size), dtype=dtype_name(out.dtype))


@rule(out=True)
def randn(out: Out, size: Sequence[int], **kwargs: Any) -> Any:
    """ivy.random_normal (the target's generator: other numbers than torch's)"""
    return ivy.random_normal(shape=tuple(size), dtype=dtype_name(out.dtype))


@rule(out=True)
def randperm(out: Out, n: int, **kwargs: Any) -> Any:
    """ivy.shuffle of ivy.arange(n) (the target's generator)"""
    return ivy.shuffle(ivy.arange(n, dtype=dtype_name(out.dtype)))


@rule()
def sym_size(x: Any, dim: int) -> Any:
    """x.shape[dim] (shapes are static: torch.export specialises them)"""
    return x.shape[dim]


@rule()
def sym_numel(x: Any) -> Any:
    """the product of x.shape"""
    n = 1
    for d in x.shape:
        n *= d
    return n


@rule(out=True)
def exported_value(out: Out, *args: Any) -> Any:
    """the value torch computed (strides and offsets of the exported, static-shaped program)"""
    return out.val


@rule()
def checked(*args: Any, **kwargs: Any) -> None:
    """nothing: a check torch made on the example while exporting"""
    return None


TABLE: dict[str, Rule] = {
    "full": full,
    "full_like": full_like,
    "fill.Scalar": fill,
    "scalar_tensor": scalar_tensor,
    "empty.memory_format": zeros,
    "empty_strided": zeros,
    "zeros": zeros,
    "arange.start_step": arange,
    "arange.start": arange,
    "arange": arange,
    "rand": rand,
    "randn": randn,
    "randperm": randperm,
    "sym_size.int": sym_size,
    "sym_numel": sym_numel,
    "sym_stride.int": exported_value,
    "sym_storage_offset": exported_value,
    "sym_is_contiguous": exported_value,
    "_assert_tensor_metadata": checked,
    "_assert_scalar": checked,
    "_assert_async.msg": checked,
    "sym_constrain_range_for_size": checked,
}
