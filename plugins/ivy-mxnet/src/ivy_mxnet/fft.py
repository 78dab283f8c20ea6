"""The fft extension. MXNet 1.9 has no complex dtypes, so the transforms with a complex result
(``fft``, ``ifft``, ``fftn``, ``ifftn``, ``rfft``, ``rfftn``, ``ihfft``) raise
``UnsupportedDTypeError``; those with a real result of a real input (``irfft``, ``irfftn``,
``hfft`` treat it as complex with zero imaginary parts) are computed by NumPy on the host
(without gradients); the frequencies and shifts are MXNet arrays."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, Literal

from ._dtypes import DEFAULT_FLOAT, FLOATS, native, unsupported
from ._framework import Array, mnp, onp
from ._helpers import from_host, norm_axes, to_ctx, to_host

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

Norm = Literal["backward", "ortho", "forward"]


def fft(x: Array, /, *, n: int | None = None, axis: int = -1, norm: Norm = "backward") -> Array:
    raise unsupported("complex64", "fft.fft")


def ifft(x: Array, /, *, n: int | None = None, axis: int = -1, norm: Norm = "backward") -> Array:
    raise unsupported("complex64", "fft.ifft")


def fftn(
    x: Array, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: Norm = "backward"
) -> Array:
    raise unsupported("complex64", "fft.fftn")


def ifftn(
    x: Array, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: Norm = "backward"
) -> Array:
    raise unsupported("complex64", "fft.ifftn")


def rfft(x: Array, /, *, n: int | None = None, axis: int = -1, norm: Norm = "backward") -> Array:
    raise unsupported("complex64", "fft.rfft")


def rfftn(
    x: Array, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: Norm = "backward"
) -> Array:
    raise unsupported("complex64", "fft.rfftn")


def ihfft(x: Array, /, *, n: int | None = None, axis: int = -1, norm: Norm = "backward") -> Array:
    raise unsupported("complex64", "fft.ihfft")


def _real_out(x: Any, a: Any) -> Any:
    return from_host(a, x.ctx, x.dtype if x.dtype in FLOATS else DEFAULT_FLOAT)


def irfft(x: Array, /, *, n: int | None = None, axis: int = -1, norm: Norm = "backward") -> Array:
    return _real_out(x, onp.fft.irfft(to_host(x), n=n, axis=axis, norm=norm))


def irfftn(
    x: Array, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: Norm = "backward"
) -> Array:
    return _real_out(x, onp.fft.irfftn(to_host(x), s=s, axes=axes, norm=norm))


def hfft(x: Array, /, *, n: int | None = None, axis: int = -1, norm: Norm = "backward") -> Array:
    return _real_out(x, onp.fft.hfft(to_host(x), n=n, axis=axis, norm=norm))


def fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Array:
    n = operator.index(n)
    return from_host(onp.fft.fftfreq(n, d), to_ctx(device), native(dtype, "fft.fftfreq") or DEFAULT_FLOAT)


def rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Array:
    n = operator.index(n)
    return from_host(onp.fft.rfftfreq(n, d), to_ctx(device), native(dtype, "fft.rfftfreq") or DEFAULT_FLOAT)


def _shift(x: Any, axes: Any, sign: int, op: str) -> Any:
    if isinstance(axes, int):
        axes = (axes,)
    ax = norm_axes(None if axes is None else tuple(axes), x.ndim, op)
    out = x
    for a in ax:
        n = x.shape[a]
        out = mnp.roll(out, sign * (n // 2) if sign > 0 else -(n // 2), axis=a)
    return out if ax else x.copy()


def fftshift(x: Array, /, *, axes: int | Sequence[int] | None = None) -> Array:
    return _shift(x, axes, 1, "fft.fftshift")


def ifftshift(x: Array, /, *, axes: int | Sequence[int] | None = None) -> Array:
    return _shift(x, axes, -1, "fft.ifftshift")
