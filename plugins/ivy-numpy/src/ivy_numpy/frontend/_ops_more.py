"""More NumPy functions as Ivy ops: FFTs, matrix decompositions and element-wise compositions
that NumPy has as ufuncs or functions and Ivy composes."""

from __future__ import annotations

from typing import Any

import ivy

from ._table import UFUNC_DOCS, UFUNCS, Unsupported, function, no

__all__: list[str] = []


def _fft1(fn: Any) -> Any:
    def transform(a: Any, n: Any = None, axis: int = -1, norm: Any = None, out: Any = None) -> Any:
        no(out=out)
        return fn(a, n=n, axis=axis, norm=norm or "backward")

    return transform


def _fftn(fn: Any) -> Any:
    def transform(a: Any, s: Any = None, axes: Any = None, norm: Any = None, out: Any = None) -> Any:
        no(out=out)
        return fn(
            a, s=None if s is None else tuple(s), axes=None if axes is None else tuple(axes), norm=norm or "backward"
        )

    return transform


for _name in ("fft", "ifft", "rfft", "irfft"):
    function(f"fft.{_name}", doc=f"ivy.fft.{_name}")(_fft1(getattr(ivy.fft, _name)))
for _name in ("fftn", "ifftn", "rfftn", "irfftn"):
    function(f"fft.{_name}", doc=f"ivy.fft.{_name}")(_fftn(getattr(ivy.fft, _name)))


@function("linalg.eigh", doc="ivy.linalg.eigh (lower triangle)")
def _eigh(a: Any, UPLO: str = "L") -> Any:  # NumPy's name
    if UPLO != "L":
        raise Unsupported("UPLO='U' is not translated")
    return tuple(ivy.linalg.eigh(a))


@function("linalg.svd", doc="ivy.linalg.svd")
def _svd(a: Any, full_matrices: bool = True, compute_uv: bool = True, hermitian: bool = False) -> Any:
    if not compute_uv:
        return ivy.linalg.svdvals(a)
    return tuple(ivy.linalg.svd(a, full_matrices=full_matrices))


@function("linalg.qr", doc="ivy.linalg.qr (reduced / complete)")
def _qr(a: Any, mode: str = "reduced") -> Any:
    if mode not in ("reduced", "complete"):
        raise Unsupported(f"mode={mode!r} is not translated")
    return tuple(ivy.linalg.qr(a, mode=mode))


@function("linalg.slogdet", doc="ivy.linalg.slogdet")
def _slogdet(a: Any) -> Any:
    return tuple(ivy.linalg.slogdet(a))


@function("linalg.pinv", doc="ivy.linalg.pinv")
def _pinv(a: Any, rcond: Any = None, hermitian: bool = False, *, rtol: Any = None) -> Any:
    no(rcond=rcond)
    return ivy.linalg.pinv(a, rtol=rtol)


@function("linalg.matrix_power", doc="ivy.linalg.matrix_power")
def _matrix_power(a: Any, n: int) -> Any:
    return ivy.linalg.matrix_power(a, n)


@function("cross", doc="ivy.linalg.cross (3-vectors)")
def _cross(a: Any, b: Any, axisa: int = -1, axisb: int = -1, axisc: int = -1, axis: Any = None) -> Any:
    if axis is None and (axisa, axisb, axisc) != (-1, -1, -1):
        raise Unsupported("axisa/axisb/axisc are not translated (use axis=)")
    return ivy.linalg.cross(a, b, axis=-1 if axis is None else axis)


@function("tril", doc="ivy.tril")
def _tril(m: Any, k: int = 0) -> Any:
    return ivy.tril(m, k=k)


@function("triu", doc="ivy.triu")
def _triu(m: Any, k: int = 0) -> Any:
    return ivy.triu(m, k=k)


@function("diagonal", doc="ivy.linalg.diagonal over the last two axes")
def _diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
    return ivy.linalg.diagonal(ivy.moveaxis(a, (axis1, axis2), (-2, -1)), offset=offset)


@function("ravel", doc="ivy.reshape to one axis")
def _ravel(a: Any, order: str = "C") -> Any:
    if order != "C":
        raise Unsupported(f"order={order!r} is not translated")
    return ivy.reshape(a, (-1,))


@function("average", doc="ivy.mean, or the weighted sum over the weights' sum")
def _average(a: Any, axis: Any = None, weights: Any = None, returned: bool = False, *, keepdims: bool = False) -> Any:
    if returned:
        raise Unsupported("returned=True is not translated")
    axis = tuple(axis) if isinstance(axis, list) else axis
    if weights is None:
        return ivy.mean(a, axis=axis, keepdims=bool(keepdims))
    if weights.ndim != a.ndim:  # a 1-D weight vector along one axis
        shape = [1] * a.ndim
        shape[axis] = -1
        weights = ivy.reshape(weights, tuple(shape))
    total = ivy.sum(ivy.multiply(a, weights), axis=axis, keepdims=bool(keepdims))
    return ivy.divide(total, ivy.sum(ivy.broadcast_to(weights, tuple(a.shape)), axis=axis, keepdims=bool(keepdims)))


@function("median", doc="the middle of ivy.sort (the mean of the two middle values for an even count)")
def _median(a: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False, keepdims: bool = False) -> Any:
    no(out=out)
    if axis is None:
        a, axis = ivy.reshape(a, (-1,)), 0
    if not isinstance(axis, int):
        raise Unsupported("median over several axes is not translated")
    n = a.shape[axis]
    s = ivy.moveaxis(ivy.sort(a, axis=axis), axis, -1)
    mid = (
        ivy.get_item(s, (..., n // 2))
        if n % 2
        else ivy.mean(ivy.get_item(s, (..., slice(n // 2 - 1, n // 2 + 1))), axis=-1)
    )
    return ivy.expand_dims(mid, axis=axis) if keepdims else mid


def _ufunc(name: str, fn: Any) -> None:
    UFUNCS[name] = fn
    UFUNC_DOCS[name] = (fn.__doc__ or "").strip()


def _exp2(x: Any) -> Any:
    """ivy.pow(2, x)"""
    return ivy.pow(2.0, x)


def _cbrt(x: Any) -> Any:
    """sign(x) * |x| ** (1/3)"""
    return ivy.multiply(ivy.sign(x), ivy.pow(ivy.abs(x), 1.0 / 3.0))


def _deg2rad(x: Any) -> Any:
    """x * pi / 180"""
    return ivy.multiply(x, 0.017453292519943295)


def _rad2deg(x: Any) -> Any:
    """x * 180 / pi"""
    return ivy.multiply(x, 57.29577951308232)


def _fmod(x: Any, y: Any) -> Any:
    """x - trunc(x / y) * y"""
    # C's fmod: the remainder takes the dividend's sign (NumPy's % takes the divisor's)
    return ivy.subtract(x, ivy.multiply(ivy.trunc(ivy.divide(x, y)), y))


def _float_power(x: Any, y: Any) -> Any:
    """ivy.pow"""
    return ivy.pow(x, y)


def _heaviside(x: Any, h0: Any) -> Any:
    """ivy.where of the sign, h0 at 0"""
    return ivy.where(ivy.less(x, 0), ivy.zeros_like(x), ivy.where(ivy.greater(x, 0), ivy.ones_like(x), h0))


def _logaddexp2(x: Any, y: Any) -> Any:
    """ivy.logaddexp scaled by ln 2"""
    ln2 = 0.6931471805599453
    return ivy.divide(ivy.logaddexp(ivy.multiply(x, ln2), ivy.multiply(y, ln2)), ln2)


for _name, _fn in {
    "exp2": _exp2, "cbrt": _cbrt, "deg2rad": _deg2rad, "radians": _deg2rad, "rad2deg": _rad2deg,
    "degrees": _rad2deg, "fmod": _fmod, "float_power": _float_power, "heaviside": _heaviside,
    "logaddexp2": _logaddexp2,
}.items():  # fmt: skip
    _ufunc(_name, _fn)
