"""The ``fft`` extension: torch.fft with the standard's keyword names (``axis``/``axes``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch

from ._dtypes import device as _dev
from ._dtypes import native
from ._helpers import Tensor

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

_fft = torch.fft


def fft(x: Tensor, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Tensor:
    return _fft.fft(x, n, axis, norm)


def ifft(x: Tensor, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Tensor:
    return _fft.ifft(x, n, axis, norm)


def rfft(x: Tensor, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Tensor:
    return _fft.rfft(x, n, axis, norm)


def irfft(x: Tensor, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Tensor:
    return _fft.irfft(x, n, axis, norm)


def hfft(x: Tensor, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Tensor:
    return _fft.hfft(x, n, axis, norm)


def ihfft(x: Tensor, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Tensor:
    return _fft.ihfft(x, n, axis, norm)


def _sa(s: Any, axes: Any) -> tuple[Any, Any]:
    return (None if s is None else tuple(s)), (None if axes is None else tuple(axes))


def fftn(
    x: Tensor, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: str = "backward"
) -> Tensor:
    s, axes = _sa(s, axes)
    return _fft.fftn(x, s, axes, norm)


def ifftn(
    x: Tensor, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: str = "backward"
) -> Tensor:
    s, axes = _sa(s, axes)
    return _fft.ifftn(x, s, axes, norm)


def rfftn(
    x: Tensor, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: str = "backward"
) -> Tensor:
    s, axes = _sa(s, axes)
    return _fft.rfftn(x, s, axes, norm)


def irfftn(
    x: Tensor, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: str = "backward"
) -> Tensor:
    s, axes = _sa(s, axes)
    if s is not None and s[-1] == -1:  # -1 for the last axis: torch wants None-like default
        ax = axes if axes is not None else tuple(range(x.ndim - len(s), x.ndim))
        s = (*s[:-1], 2 * (x.shape[ax[-1]] - 1))
    if s is not None and -1 in s[:-1]:
        ax = axes if axes is not None else tuple(range(x.ndim - len(s), x.ndim))
        s = tuple(x.shape[a] if v == -1 else v for a, v in zip(ax, s))
    return _fft.irfftn(x, s, axes, norm)


def fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Tensor:
    if dtype is not None:
        dtype = native(dtype)
    if device is not None:
        device = _dev(device)
    return _fft.fftfreq(n, d, dtype=dtype, device=device)


def rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Tensor:
    if dtype is not None:
        dtype = native(dtype)
    if device is not None:
        device = _dev(device)
    return _fft.rfftfreq(n, d, dtype=dtype, device=device)


def fftshift(x: Tensor, /, *, axes: int | Sequence[int] | None = None) -> Tensor:
    return _fft.fftshift(x, axes if axes is None or isinstance(axes, int) else tuple(axes))


def ifftshift(x: Tensor, /, *, axes: int | Sequence[int] | None = None) -> Tensor:
    return _fft.ifftshift(x, axes if axes is None or isinstance(axes, int) else tuple(axes))
