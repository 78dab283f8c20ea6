"""Argument checks shared by the backends: one wording of each error, written once.

A plugin calls these only where its framework would not refuse the input itself (a framework that
wraps an out-of-range axis, reads memory out of bounds, or aborts on an impossible allocation),
so the ops whose framework checks keep their speed. Every check raises a standard Python
exception (``IndexError`` for axes and indices, ``ValueError`` for other values, ``TypeError`` for
dtypes, ``MemoryError`` for sizes) whose message names the op, the argument, the valid range and
what to do.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

__all__ = [
    "rnn_layers",
    "axis_index",
    "axis_tuple",
    "check_probability",
    "check_count",
    "check_fft_points",
    "check_index_range",
    "check_query",
    "host_bounds",
    "check_integer_indices",
    "check_alloc",
    "host_memory",
    "known_true",
    "one_truth",
    "check_carry",
]


def axis_index(axis: int, ndim: int, op: str, name: str = "axis") -> int:
    """``axis`` (negative counts from the end) as an index in ``[0, ndim)``.

    Raises:
        IndexError: ``axis`` lies outside ``[-ndim, ndim)`` (NumPy's ``AxisError`` is an
            ``IndexError`` too).
        TypeError: ``axis`` is not an int.
    """
    if type(axis) is not int:
        if isinstance(axis, bool) or not hasattr(axis, "__index__"):
            raise TypeError(f"ivy.{op}: {name} must be an int, got {type(axis).__name__} {axis!r}")
        axis = axis.__index__()
    if -ndim <= axis < ndim:
        return axis + ndim if axis < 0 else axis
    raise IndexError(
        f"ivy.{op}: {name} {axis} is out of bounds for an array of {ndim} dimension(s) (valid: {-ndim} to {ndim - 1})"
        if ndim
        else f"ivy.{op}: {name} {axis} is out of bounds for a 0-d array (it has no axes)"
    )


def axis_tuple(axes: int | Sequence[int], ndim: int, op: str, name: str = "axis") -> tuple[int, ...]:
    """``axes`` (an int or a sequence of ints) as indices in ``[0, ndim)``, each at most once.

    Raises:
        IndexError: an axis lies outside ``[-ndim, ndim)``.
        ValueError: an axis is repeated.
    """
    out = (
        (axis_index(axes, ndim, op, name),)
        if isinstance(axes, int)
        else tuple(axis_index(a, ndim, op, name) for a in axes)
    )
    if len(set(out)) != len(out):
        raise ValueError(f"ivy.{op}: {name} {tuple(axes)!r} names an axis twice (for {ndim} dimension(s))")  # type: ignore[arg-type]
    return out


def check_probability(prob: Any, op: str, name: str = "prob") -> None:
    """Raise ``ValueError`` unless ``0 <= prob < 1`` (a probability of dropping: 1 would drop
    everything and divide by zero; NaN is no probability)."""
    try:
        ok = 0.0 <= prob < 1.0
    except TypeError:
        raise TypeError(f"ivy.{op}: {name} must be a float in [0, 1), got {type(prob).__name__}") from None
    if not ok:
        raise ValueError(f"ivy.{op}: {name} must lie in [0, 1), got {prob!r}")


def check_count(k: Any, n: int, op: str, name: str = "k") -> int:
    """``k`` as an int in ``[0, n]`` (how many of ``n`` elements to take).

    Raises:
        TypeError: ``k`` is not an int.
        ValueError: ``k`` lies outside ``[0, n]``.
    """
    if isinstance(k, bool) or not hasattr(k, "__index__"):
        raise TypeError(f"ivy.{op}: {name} must be an int, got {type(k).__name__} {k!r}")
    k = k.__index__()
    if not 0 <= k <= n:
        raise ValueError(f"ivy.{op}: {name} = {k} is outside [0, {n}] (the size of the axis)")
    return k


def check_fft_points(n: int, op: str) -> None:
    """Raise ``ValueError`` for a transform of fewer than one point (an empty axis, or ``n=0``),
    which some frameworks answer with an empty array."""
    if n < 1:
        raise ValueError(f"ivy.{op}: invalid number of FFT data points ({n}); a transform needs at least 1")


def check_index_range(lo: int, hi: int, n: int, op: str, *, negative: bool = True, what: str = "index") -> None:
    """Raise ``IndexError`` when indices whose smallest is ``lo`` and largest is ``hi`` do not all
    address one of ``n`` positions: ``[-n, n)`` with ``negative`` (counting from the end), else
    ``[0, n)``. Called with values the plugin read from the array (its min and max)."""
    low = -n if negative else 0
    if lo < low or hi >= n:
        bad = lo if lo < low else hi
        raise IndexError(
            f"ivy.{op}: {what} {bad} is out of range for a size of {n} (valid: {low} to {n - 1})"
            if n
            else f"ivy.{op}: {what} {bad} is out of range: the indexed axis is empty"
        )


def host_bounds(a: Any) -> tuple[int, int] | None:
    """The smallest and largest element of a host array (a NumPy array of indices), ``None`` for
    an empty one. A few elements go through a list: faster than two NumPy reductions."""
    n = a.size
    if not n:
        return None
    if n <= 256:
        v = a.ravel().tolist()
        return int(min(v)), int(max(v))
    return int(a.min()), int(a.max())


def check_query(
    query: Any,
    shape: Sequence[int],
    op: str,
    bounds: Callable[[Any], tuple[int, int] | None],
    is_mask: Callable[[Any], bool] | None = None,
) -> None:
    """Check every int and integer-array item of an indexing ``query`` (``x[query]``) against the
    size of the axis it indexes, for a framework that clamps or wraps them (or reads out of
    bounds). ``bounds(array)`` gives the smallest and largest index in an integer array, or
    ``None`` where they are unknown (the array is empty, or a compiler traces it); ``is_mask(array)``
    whether an array is boolean (default: by its dtype's name).

    Raises:
        IndexError: an index outside ``[-n, n)``, or more indices than ``shape`` has axes.
    """
    items = query if type(query) is tuple else (query,)
    used = [_axes_used(it, is_mask) for it in items]
    free = len(shape) - sum(used)
    axis = 0
    for it, k in zip(items, used):
        if it is Ellipsis:
            axis += max(free, 0)
            continue
        if not k:
            continue
        if axis + k > len(shape):
            raise IndexError(f"ivy.{op}: too many indices for an array of {len(shape)} dimension(s)")
        if k == 1 and type(it) is not slice:
            if hasattr(it, "shape"):  # an integer array (0-d included)
                b = bounds(it)
                if b is not None:
                    check_index_range(b[0], b[1], shape[axis], op)
            elif hasattr(it, "__index__"):
                i = it.__index__()
                check_index_range(i, i, shape[axis], op)
        axis += k


def _axes_used(item: Any, is_mask: Callable[[Any], bool] | None) -> int:
    """How many axes of the indexed array an item of a query consumes."""
    if item is None or item is Ellipsis or isinstance(item, bool):
        return 0
    if type(item) is int or type(item) is slice:
        return 1
    if getattr(item, "dtype", None) is not None and hasattr(item, "shape"):
        if is_mask is not None:
            mask = is_mask(item)
        else:
            from .._dtypes import dtype_name

            try:
                mask = dtype_name(item.dtype) == "bool"
            except TypeError:
                mask = False
        if mask:  # a mask takes as many axes as it has
            return len(item.shape)
    return 1


def check_integer_indices(is_integer: bool, dtype: Any, op: str, what: str = "indices") -> None:
    """Raise ``TypeError`` unless the indices' dtype is an integer one (frameworks that accept
    floating-point indices truncate them silently)."""
    if not is_integer:
        raise TypeError(f"ivy.{op}: {what} must have an integer dtype, got {dtype}; cast them with ivy.astype first")


def known_true(flag: Any) -> bool:
    """``bool(flag)`` of a 0-d boolean array computed from the input's values, or ``False`` where
    the values are not known yet: inside a tracing compiler (``jax.jit``, ``tf.function``) no
    check on values can run, and the framework's own behaviour applies there."""
    try:
        return bool(flag)
    except TypeError:  # a tracer: jax's ConcretizationTypeError, TF's OperatorNotAllowedInGraphError
        return False


def check_alloc(shape: Sequence[int], itemsize: int, op: str, limit: int | None = None) -> None:
    """Refuse a result that cannot exist, before the framework tries to allocate it.

    Raises:
        ValueError: a dimension is negative.
        MemoryError: the result needs more than ``2**63 - 1`` bytes (no address space holds it),
            or more than ``limit`` bytes (a backend whose allocator aborts the process instead of
            raising passes :func:`host_memory` for arrays on the host).
    """
    n = 1
    for d in shape:
        if d < 0:
            raise ValueError(f"ivy.{op}: negative dimensions are not allowed, got shape {tuple(shape)}")
        n *= d
    nbytes = n * itemsize
    cap = 2**63 - 1 if limit is None else min(limit, 2**63 - 1)
    if nbytes > cap:
        raise MemoryError(
            f"ivy.{op}: a result of shape {tuple(shape)} needs {_size(nbytes)}, more than "
            + ("any address space holds" if cap == 2**63 - 1 else f"this machine's memory ({_size(cap)})")
        )


@cache
def host_memory() -> int | None:
    """Bytes of physical memory plus swap of this machine, or ``None`` where unknown: no host
    allocation larger than this can succeed."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("SwapTotal:"):
                    total += int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return int(total)


def _size(nbytes: int) -> str:
    if nbytes < 1024:
        return f"{nbytes} bytes"
    k = min(int(math.log(nbytes, 1024)), 6)
    return f"{nbytes / 1024**k:.3g} {'KMGTPEZ'[k - 1]}iB"


def one_truth(p: Any, op: str, what: str) -> bool:
    """A one-element boolean array as a Python bool (an eager backend's branch)."""
    if math.prod(p.shape) != 1:
        raise ValueError(f"{op}: {what} must be a boolean array of one element, got shape {tuple(p.shape)}")
    at = (0,) * len(p.shape)  # (the Array API's bool() takes a 0-d array only)
    return bool(p[at]) if at else bool(p)


def check_carry(old: Sequence[Any], new: Any, op: str = "while_loop") -> tuple[Any, ...]:
    """``body_fn``'s result as a tuple, checked to match the loop variables (a compiled loop
    needs each step to keep them; an eager one keeps to the same contract)."""
    new = tuple(new) if isinstance(new, (tuple, list)) else (new,)
    if len(new) != len(old):
        raise ValueError(f"{op}: body_fn returned {len(new)} arrays for {len(old)} loop variables")
    for i, (a, b) in enumerate(zip(old, new)):
        if tuple(a.shape) != tuple(b.shape) or a.dtype != b.dtype:
            raise ValueError(
                f"{op}: body_fn returned loop variable {i} with shape {tuple(b.shape)} and dtype {b.dtype}, "
                f"where it has shape {tuple(a.shape)} and dtype {a.dtype}: each step must keep both"
            )
    return new


def rnn_layers(
    op: str,
    states: Sequence[Any],
    kernels: Sequence[Any],
    recurrent_kernels: Sequence[Any],
    biases: Sequence[Any] | None,
    recurrent_biases: Sequence[Any] | None,
) -> tuple[list[Any], list[Any]]:
    """The per-layer biases of a stack of recurrent layers (a list each, ``None`` per layer where
    not given), checked: the weights, the biases given and the initial ``states`` (one slice a
    layer along their first axis) agree on the number of layers."""
    n = len(kernels)
    lengths = {len(recurrent_kernels), *(s.shape[0] for s in states)}
    lengths |= {len(biases)} if biases is not None else set()
    lengths |= {len(recurrent_biases)} if recurrent_biases is not None else set()
    if lengths != {n}:
        raise ValueError(
            f"{op}: per-layer weights and initial states disagree on the number of layers: {sorted(lengths | {n})}"
        )
    return (list(biases) if biases is not None else [None] * n), (
        list(recurrent_biases) if recurrent_biases is not None else [None] * n
    )
