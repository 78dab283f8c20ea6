"""The fft extension. TF transforms the innermost axis only: other axes are moved there and back."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import tensorflow as tf
from tensorflow.python.ops import gen_array_ops as ga
from tensorflow.python.ops import gen_math_ops as gm
from tensorflow.python.ops import gen_spectral_ops as gs

from . import _dtypes as D
from ._helpers import norm_axis, on

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

_NORMS = ("backward", "ortho", "forward")


def _complex(x: Any) -> Any:
    d = x.dtype
    if d in D.COMPLEX:
        return x
    return gm.cast(x, D.COMPLEX_OF.get(d, D.C128))  # real input: as complex of matching precision


def _real(x: Any) -> Any:
    d = x.dtype
    if d in D.REALF:
        return x
    if d in D.COMPLEX:
        raise TypeError("this transform needs real floating-point input")
    return gm.cast(x, D.F64)


def _to_last(x: Any, axis: int) -> tuple[Any, list[int] | None]:
    n = x.shape.rank
    if axis == n - 1:
        return x, None
    perm = [i for i in range(n) if i != axis] + [axis]
    return ga.transpose(x, perm), perm


def _from_last(x: Any, perm: list[int] | None) -> Any:
    if perm is None:
        return x
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return ga.transpose(x, inv)


def _fit(x: Any, n: int) -> Any:
    """Trim or zero-pad the last axis to length n."""
    m = int(x.shape[-1])
    if n == m:
        return x
    if n < m:
        return x[..., :n]
    pad = [[0, 0]] * (x.shape.rank - 1) + [[0, n - m]]
    return tf.pad(x, pad)


def _scale(x: Any, n: int, norm: str, inverse: bool) -> Any:
    """TF's forward transforms are unscaled and its inverses scale by 1/n ("backward")."""
    if norm == "backward":
        return x
    if norm not in _NORMS:
        raise ValueError(f"norm must be one of {_NORMS}, got {norm!r}")
    r = D.REAL_OF[x.dtype] if x.dtype in D.COMPLEX else x.dtype
    if norm == "ortho":
        f = math.sqrt(n) if inverse else 1 / math.sqrt(n)
    else:  # forward
        f = n if inverse else 1 / n
    c = tf.constant(f, r)
    return gm.mul(x, gm.cast(c, x.dtype) if x.dtype in D.COMPLEX else c)


def _c2c(x: Any, n: int | None, axis: int, norm: str, inverse: bool) -> Any:
    x = _complex(x)
    axis = norm_axis(axis, x.shape.rank)
    y, perm = _to_last(x, axis)
    n = int(y.shape[-1]) if n is None else n
    if n < 1:
        raise ValueError(f"invalid transform length {n}")
    y = _fit(y, n)
    y = gs.ifft(y) if inverse else gs.fft(y)
    return _from_last(_scale(y, n, norm, inverse), perm)


def fft(x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
    return _c2c(x, n, axis, norm, False)


def ifft(x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
    return _c2c(x, n, axis, norm, True)


def _axes_sizes(x: Any, s: Any, axes: Any) -> tuple[list[int], list[int | None]]:
    r = x.shape.rank
    if axes is None:
        axes = list(range(r)) if s is None else list(range(r - len(s), r))
    axes = [norm_axis(a, r) for a in axes]
    if s is None:
        sizes: list[int | None] = [None] * len(axes)
    else:
        sizes = [None if v == -1 else int(v) for v in s]
        if len(sizes) != len(axes):
            raise ValueError("s and axes must have the same length")
    return axes, sizes


def fftn(x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
    axes_, sizes = _axes_sizes(x, s, axes)
    x = _complex(x)
    for a, n in zip(axes_, sizes):
        x = _c2c(x, n, a, norm, False)
    return x


def ifftn(x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
    axes_, sizes = _axes_sizes(x, s, axes)
    x = _complex(x)
    for a, n in zip(axes_, sizes):
        x = _c2c(x, n, a, norm, True)
    return x


def _r2c(x: Any, n: int | None, axis: int, norm: str) -> Any:
    x = _real(x)
    axis = norm_axis(axis, x.shape.rank)
    y, perm = _to_last(x, axis)
    n = int(y.shape[-1]) if n is None else n
    if n < 1:
        raise ValueError(f"invalid transform length {n}")
    y = _fit(y, n)
    cd = D.COMPLEX_OF[x.dtype]
    y = gs.rfft(y, [n], Tcomplex=cd)
    return _from_last(_scale(y, n, norm, False), perm)


def _c2r(x: Any, n: int | None, axis: int, norm: str) -> Any:
    x = _complex(x)
    axis = norm_axis(axis, x.shape.rank)
    y, perm = _to_last(x, axis)
    n = 2 * (int(y.shape[-1]) - 1) if n is None else n
    if n < 1:
        raise ValueError(f"invalid output length {n}")
    y = _fit(y, n // 2 + 1)
    rd = D.REAL_OF[x.dtype]
    y = gs.irfft(y, [n], Treal=rd)  # scales by 1/n
    return _from_last(_scale(y, n, norm, True), perm)


def rfft(x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
    return _r2c(x, n, axis, norm)


def irfft(x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
    return _c2r(x, n, axis, norm)


def rfftn(x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
    axes_, sizes = _axes_sizes(x, s, axes)
    y = _r2c(x, sizes[-1], axes_[-1], norm)
    for a, n in zip(axes_[:-1], sizes[:-1]):
        y = _c2c(y, n, a, norm, False)
    return y


def irfftn(x: Any, /, *, s: Any = None, axes: Any = None, norm: str = "backward") -> Any:
    axes_, sizes = _axes_sizes(x, s, axes)
    y = _complex(x)
    for a, n in zip(axes_[:-1], sizes[:-1]):
        y = _c2c(y, n, a, norm, True)
    return _c2r(y, sizes[-1], axes_[-1], norm)


_SWAP = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def hfft(x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
    if norm not in _NORMS:
        raise ValueError(f"norm must be one of {_NORMS}, got {norm!r}")
    return _c2r(gm.conj(_complex(x)), n, axis, _SWAP[norm])  # NumPy's definition


def ihfft(x: Any, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Any:
    if norm not in _NORMS:
        raise ValueError(f"norm must be one of {_NORMS}, got {norm!r}")
    return gm.conj(_r2c(x, n, axis, _SWAP[norm]))


def fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    dtype = D.DEFAULT_FLOAT if dtype is None else D.native(dtype)
    a = np.fft.fftfreq(n, d)
    with on(device):
        return tf.constant(a.astype(dtype.as_numpy_dtype))


def rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Any:
    dtype = D.DEFAULT_FLOAT if dtype is None else D.native(dtype)
    a = np.fft.rfftfreq(n, d)
    with on(device):
        return tf.constant(a.astype(dtype.as_numpy_dtype))


def _shift(x: Any, axes: Any, sign: int) -> Any:
    r = x.shape.rank
    if axes is None:
        axes = list(range(r))
    elif isinstance(axes, int):
        axes = [axes]
    axes = [norm_axis(a, r) for a in axes]
    if not axes:
        return ga.identity(x)
    shifts = [sign * (int(x.shape[a]) // 2) for a in axes]
    return tf.roll(x, shifts, axes)


def fftshift(x: Any, /, *, axes: Any = None) -> Any:
    return _shift(x, axes, 1)


def ifftshift(x: Any, /, *, axes: Any = None) -> Any:
    return _shift(x, axes, -1)
