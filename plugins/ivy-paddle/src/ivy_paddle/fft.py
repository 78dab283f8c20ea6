"""The fft extension. paddle.fft matches the standard's signatures and semantics, so most are
aliases; the frequency helpers take ``device`` and the shifts an int ``axes``."""

from __future__ import annotations

from typing import Any

from ._common import place
from ._dtypes import DEFAULT_FLOAT, native
from ._framework import paddle
from .manipulation import roll

__all__ = [
    "fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft",
    "fftfreq", "rfftfreq", "fftshift", "ifftshift",
]

fft = paddle.fft.fft
ifft = paddle.fft.ifft
fftn = paddle.fft.fftn
ifftn = paddle.fft.ifftn
rfft = paddle.fft.rfft
irfft = paddle.fft.irfft
rfftn = paddle.fft.rfftn
irfftn = paddle.fft.irfftn
hfft = paddle.fft.hfft
ihfft = paddle.fft.ihfft


def fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    dt = DEFAULT_FLOAT if dtype is None else native(dtype, "fft.fftfreq")
    return paddle.fft.fftfreq(n, d, dt, device=None if device is None else place(device))


def rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    dt = DEFAULT_FLOAT if dtype is None else native(dtype, "fft.rfftfreq")
    return paddle.fft.rfftfreq(n, d, dt, device=None if device is None else place(device))


def _shift(x: Any, axes: Any, sign: int) -> Any:
    # composed with roll: paddle.fft.fftshift fails for size-1 axes
    axes = list(range(len(x.shape))) if axes is None else [axes] if isinstance(axes, int) else list(axes)
    if not axes:
        return x.clone()
    return roll(x, [sign * (x.shape[a] // 2) for a in axes], axis=axes)


def fftshift(x: Any, /, *, axes: Any = None) -> Any:
    return _shift(x, axes, 1)


def ifftshift(x: Any, /, *, axes: Any = None) -> Any:
    return _shift(x, axes, -1)
