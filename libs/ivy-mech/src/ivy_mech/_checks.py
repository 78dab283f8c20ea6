"""Shape checks shared by the public functions: a clear error instead of a silent wrong answer."""

from __future__ import annotations

from typing import Any


def shape_of(x: Any) -> tuple[int, ...]:
    """The static shape of a native array as a tuple of ints (or ``None`` for unknown dims)."""
    return tuple(x.shape)


def check_last_dims(x: Any, dims: tuple[int, ...], name: str, what: str) -> None:
    """Raise ``ValueError`` unless ``x`` ends in ``dims`` (e.g. ``(3,)`` or ``(3, 4)``)."""
    shape = shape_of(x)
    n = len(dims)
    tail = shape[len(shape) - n :] if len(shape) >= n else None
    if tail is None or any(t is not None and t != d for t, d in zip(tail, dims)):
        want = "[..., " + ", ".join(str(d) for d in dims) + "]"
        raise ValueError(f"{name}: expected {what} of shape {want}, got shape {list(shape)}")


def check_at_least_1d(x: Any, name: str, what: str) -> None:
    """Raise ``ValueError`` if ``x`` is 0-d (there is no last axis to work on)."""
    if len(shape_of(x)) == 0:
        raise ValueError(f"{name}: expected {what} with at least one axis, got a 0-d array")
