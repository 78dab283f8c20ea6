"""The fft extension: NumPy 2 keeps float32/complex64 precision and takes the standard's ``norm``
names; the n-dimensional ones need ``axes`` whenever ``s`` is given."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

__all__ = [
    "fft",
    "ifft",
    "fftn",
    "ifftn",
    "rfft",
    "irfft",
    "rfftn",
    "irfftn",
    "hfft",
    "ihfft",
    "fftfreq",
    "rfftfreq",
    "fftshift",
    "ifftshift",
]

_fft = np.fft

fft = _fft.fft
ifft = _fft.ifft
rfft = _fft.rfft
irfft = _fft.irfft
hfft = _fft.hfft
ihfft = _fft.ihfft
fftshift = _fft.fftshift
ifftshift = _fft.ifftshift


_Norm = Literal["backward", "ortho", "forward"]


def _last_axes(s: Sequence[int]) -> tuple[int, ...]:
    # NumPy 2 deprecates s without axes; the standard means the last len(s) axes.
    return tuple(range(-len(s), 0))


def fftn(
    x: np.ndarray, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: _Norm = "backward"
) -> np.ndarray:
    if s is not None and axes is None:
        axes = _last_axes(s)
    return _fft.fftn(x, s, axes, norm)


def ifftn(
    x: np.ndarray, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: _Norm = "backward"
) -> np.ndarray:
    if s is not None and axes is None:
        axes = _last_axes(s)
    return _fft.ifftn(x, s, axes, norm)


def rfftn(
    x: np.ndarray, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: _Norm = "backward"
) -> np.ndarray:
    if s is not None and axes is None:
        axes = _last_axes(s)
    return _fft.rfftn(x, s, axes, norm)


def irfftn(
    x: np.ndarray, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: _Norm = "backward"
) -> np.ndarray:
    if s is not None:
        if axes is None:
            axes = _last_axes(s)
        if s[-1] == -1:
            # The standard's -1 on the last axis means 2 * (m - 1); NumPy would keep m.
            s = (*s[:-1], 2 * (x.shape[axes[-1]] - 1))
    return _fft.irfftn(x, s, axes, norm)


def fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> np.ndarray:
    r = _fft.fftfreq(n, d, device=device)
    return r if dtype is None else r.astype(dtype, copy=False)  # NumPy has no dtype argument


def rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> np.ndarray:
    r = _fft.rfftfreq(n, d, device=device)
    return r if dtype is None else r.astype(dtype, copy=False)  # NumPy has no dtype argument
