"""The fft extension. paddle.fft matches the standard's signatures and semantics, so the 1-D
transforms are aliases; the n-D ones resolve ``-1`` in ``s``, the frequency helpers take
``device`` and the shifts are composed from ``roll``."""

from __future__ import annotations

from typing import Any

from ivy.plugin_kit import axis_index, check_fft_points

from ._dtypes import DEFAULT_FLOAT, native
from ._framework import paddle
from ._helpers import place
from .manipulation import roll

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


def _points(f: Any, name: str, half: bool = False) -> Any:
    """paddle's transform ``f``, refusing fewer than one point (paddle answers an empty array)."""

    def op(x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
        if n is None:
            m = x.shape[axis_index(axis, len(x.shape), name)]
            check_fft_points(2 * (m - 1) if half else m, name)
        else:
            check_fft_points(n, name)
        return f(x, n, axis, norm)

    op.__name__ = op.__qualname__ = name.rpartition(".")[2]
    op.__module__ = __name__
    return op


fft = _points(paddle.fft.fft, "fft.fft")
ifft = _points(paddle.fft.ifft, "fft.ifft")
rfft = _points(paddle.fft.rfft, "fft.rfft")
irfft = _points(paddle.fft.irfft, "fft.irfft", half=True)
hfft = _points(paddle.fft.hfft, "fft.hfft", half=True)
ihfft = _points(paddle.fft.ihfft, "fft.ihfft")


def _s(x: Any, s: Any, axes: Any, half_last: bool = False) -> tuple[Any, Any]:
    """Resolve ``-1`` entries of ``s`` (keep that axis' size), which paddle rejects."""
    if s is None or -1 not in s:
        return s, axes
    nd = len(x.shape)
    ax = list(axes) if axes is not None else list(range(nd - len(s), nd))
    out = list(s)
    for i, (n, a) in enumerate(zip(out, ax)):
        if n == -1:
            m = x.shape[a]
            out[i] = 2 * (m - 1) if half_last and i == len(out) - 1 else m
    return out, ax


def fftn(x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
    s, axes = _s(x, s, axes)
    return paddle.fft.fftn(x, s, axes, norm)


def ifftn(x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
    s, axes = _s(x, s, axes)
    return paddle.fft.ifftn(x, s, axes, norm)


def rfftn(x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
    s, axes = _s(x, s, axes)
    return paddle.fft.rfftn(x, s, axes, norm)


def irfftn(x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
    s, axes = _s(x, s, axes, half_last=True)
    return paddle.fft.irfftn(x, s, axes, norm)


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
