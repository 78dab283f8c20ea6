"""The fft extension: jax.numpy.fft, with ``norm="backward"`` spelled out as the standard does."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp

from ivy.plugin_kit import axis_index, check_fft_points

from ._dtypes import device as _device
from ._dtypes import native

__all__ = [
    "fft",
    "fftfreq",
    "fftn",
    "fftshift",
    "hfft",
    "ifft",
    "ifftn",
    "ifftshift",
    "ihfft",
    "irfft",
    "irfftn",
    "rfft",
    "rfftfreq",
    "rfftn",
]

_f = jnp.fft
_fft, _ifft, _rfft, _irfft, _hfft, _ihfft = _f.fft, _f.ifft, _f.rfft, _f.irfft, _f.hfft, _f.ihfft
_fftn, _ifftn, _rfftn, _irfftn = _f.fftn, _f.ifftn, _f.rfftn, _f.irfftn
_fftfreq, _rfftfreq = _f.fftfreq, _f.rfftfreq

fftshift = _f.fftshift
ifftshift = _f.ifftshift


def _points(x: jax.Array, n: int | None, axis: int, op: str) -> None:
    # jnp.fft answers an empty axis (or n=0) with an empty array; NumPy and torch refuse it
    if n is None:
        m = x.shape[axis_index(axis, x.ndim, op)]
        n = 2 * (m - 1) if op in ("fft.irfft", "fft.hfft") else m
    check_fft_points(n, op)


# The wrappers below exist because jnp.fft's ``norm`` defaults to None (meaning "backward"); they
# pass None for "backward", which is jnp.fft's fast path (an explicit "backward" is 3x slower).


def fft(x: jax.Array, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> jax.Array:
    _points(x, n, axis, "fft.fft")
    return _fft(x, n, axis, None if norm == "backward" else norm)


def ifft(x: jax.Array, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> jax.Array:
    _points(x, n, axis, "fft.ifft")
    return _ifft(x, n, axis, None if norm == "backward" else norm)


def rfft(x: jax.Array, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> jax.Array:
    _points(x, n, axis, "fft.rfft")
    return _rfft(x, n, axis, None if norm == "backward" else norm)


def irfft(x: jax.Array, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> jax.Array:
    _points(x, n, axis, "fft.irfft")
    return _irfft(x, n, axis, None if norm == "backward" else norm)


def hfft(x: jax.Array, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> jax.Array:
    _points(x, n, axis, "fft.hfft")
    return _hfft(x, n, axis, None if norm == "backward" else norm)


def ihfft(x: jax.Array, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> jax.Array:
    _points(x, n, axis, "fft.ihfft")
    return _ihfft(x, n, axis, None if norm == "backward" else norm)


def _s(x: jax.Array, s: Any, axes: Any, last_half: bool = False) -> Any:
    """Resolve the standard's ``-1`` entries of ``s`` (keep the size), which jnp.fft refuses."""
    if s is None or -1 not in s:
        return s
    if axes is None:
        axes = range(-len(s), 0)
    out = [x.shape[a] if n == -1 else n for n, a in zip(s, axes)]
    if last_half and s[-1] == -1:
        out[-1] = 2 * (x.shape[list(axes)[-1]] - 1)
    return out


def fftn(
    x: jax.Array,
    /,
    *,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str = "backward",
) -> jax.Array:
    return _fftn(x, _s(x, s, axes), axes, None if norm == "backward" else norm)


def ifftn(
    x: jax.Array,
    /,
    *,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str = "backward",
) -> jax.Array:
    return _ifftn(x, _s(x, s, axes), axes, None if norm == "backward" else norm)


def rfftn(
    x: jax.Array,
    /,
    *,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str = "backward",
) -> jax.Array:
    return _rfftn(x, _s(x, s, axes), axes, None if norm == "backward" else norm)


def irfftn(
    x: jax.Array,
    /,
    *,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str = "backward",
) -> jax.Array:
    return _irfftn(x, _s(x, s, axes, True), axes, None if norm == "backward" else norm)


def fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> jax.Array:
    if dtype is not None:
        dtype = native(dtype, "fft.fftfreq")
    if device is not None:
        device = _device(device)
    return _fftfreq(n, d, dtype=dtype, device=device)


def rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> jax.Array:
    if dtype is not None:
        dtype = native(dtype, "fft.rfftfreq")
    if device is not None:
        device = _device(device)
    return _rfftfreq(n, d, dtype=dtype, device=device)
