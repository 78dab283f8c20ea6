"""Neural-network functions: convolutions and pooling on ``sliding_window_view`` + BLAS, the
error function (fdlibm's rational approximations, vectorised), and native versions of the composed
ops where NumPy's ufuncs give the spec's semantics directly.

Convolutions work on a window view of the (padded, channel-last) input: ``sliding_window_view``
over the spatial axes, sliced by the strides and the dilations, copied once with the channels
innermost (im2col) and multiplied with the filters in one GEMM. Transposed convolutions are the
adjoint: one GEMM of the input with the filters, a strided scatter-add per filter tap, then the
forward padding cropped off. Depthwise convolutions and pools combine the window taps with
in-place ufuncs (one multiply-add, maximum or sum per tap).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import product
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ivy.plugin_kit import (
    axis_index,
    check_index_range,
    check_integer_indices,
    conv_family,
    conv_transpose_family,
    host_bounds,
    pool_family,
)

from ._dtypes import native
from .random import dropout as _dropout

__all__ = [
    # primitives
    "conv1d",
    "conv2d",
    "conv3d",
    "conv1d_transpose",
    "conv2d_transpose",
    "conv3d_transpose",
    "depthwise_conv2d",
    "max_pool1d",
    "max_pool2d",
    "max_pool3d",
    "avg_pool1d",
    "avg_pool2d",
    "avg_pool3d",
    "erf",
    # native versions of composed ops
    "relu",
    "leaky_relu",
    "gelu",
    "silu",
    "sigmoid",
    "softmax",
    "log_softmax",
    "softplus",
    "elu",
    "selu",
    "hardswish",
    "mish",
    "linear",
    "layer_norm",
    "embedding",
    "one_hot",
    "scaled_dot_product_attention",
]

_f64 = np.dtype("float64")

# ------------------------------------------------------------------------------------- layouts


def _spatial(n: int, cl: bool) -> tuple[int, ...]:
    return tuple(range(1, n + 1)) if cl else tuple(range(2, n + 2))


def _pad_input(x: np.ndarray, pads: Sequence[tuple[int, int]], axes: Sequence[int], fill: Any) -> np.ndarray:
    """``x`` with ``fill`` added around the spatial ``axes`` (``x`` itself without padding)."""
    if not any(lo or hi for lo, hi in pads):
        return x
    shape = list(x.shape)
    inner = [slice(None)] * x.ndim
    for a, (lo, hi) in zip(axes, pads):
        shape[a] += lo + hi
        inner[a] = slice(lo, lo + x.shape[a])
    out = np.full(shape, fill, dtype=x.dtype)
    out[tuple(inner)] = x
    return out


def _windows(xp: np.ndarray, axes: tuple[int, ...], k: Sequence[int], s: Sequence[int], d: Sequence[int]) -> np.ndarray:
    """A view ``[..., *out_spatial, ..., *k]``: every strided window, dilated taps last."""
    eff = [di * (ki - 1) + 1 for ki, di in zip(k, d)]
    win = sliding_window_view(xp, eff, axis=axes)
    sl = [slice(None)] * win.ndim
    for a, si in zip(axes, s):
        sl[a] = slice(None, None, si)
    for j, di in enumerate(d):
        sl[xp.ndim + j] = slice(None, None, di)
    return win[tuple(sl)]


# ---------------------------------------------------------------------------------------- convs


def _add_bias(y: np.ndarray, bias: Any, cl: bool) -> np.ndarray:
    """A convolution's result ``y`` plus its (checked) ``bias``, in place (``y`` is a fresh array)."""
    y += np.asarray(bias, dtype=y.dtype)[(slice(None),) + (() if cl else (None,) * (y.ndim - 2))]
    return y


def _to_channel_last(x: np.ndarray, cl: bool, pads: Sequence[tuple[int, int]]) -> np.ndarray:
    """Channel-first input moved to channel-last (copied now unless the padding copies it)."""
    if cl:
        return x
    x = np.moveaxis(x, 1, -1)
    return x if any(lo or hi for lo, hi in pads) else np.ascontiguousarray(x)


def _conv(
    x: np.ndarray,
    w: np.ndarray,
    s: tuple[int, ...],
    pads: list[tuple[int, int]],
    d: tuple[int, ...],
    cl: bool,
    bias: Any = None,
) -> np.ndarray:
    """x [N, *S, Ci] or [N, Ci, *S]; w [*K, Ci, Co] -> the output in the layout of x."""
    n = len(s)
    x = np.asarray(x)
    w = np.asarray(w)
    if w.dtype != x.dtype:
        w = w.astype(x.dtype)
    k = w.shape[:n]
    axes = _spatial(n, True)
    xp = _pad_input(_to_channel_last(x, cl, pads), pads, axes, 0)  # [N, *P, Ci], C-contiguous
    win = _windows(xp, axes, k, s, d)  # [N, *O, Ci, *K]
    outs = win.shape[1 : n + 1]
    # im2col with the channels innermost (contiguous runs), rows [*K, Ci] as in the filters
    cols = win.transpose(0, *range(1, n + 1), *range(n + 2, 2 * n + 2), n + 1)
    y = np.matmul(cols.reshape(-1, math.prod(k) * w.shape[-2]), w.reshape(-1, w.shape[-1]))
    y = y.reshape(x.shape[0], *outs, w.shape[-1])
    if not cl:
        y = np.ascontiguousarray(np.moveaxis(y, -1, 1))
    return y if bias is None else _add_bias(y, bias, cl)


def _depthwise(
    x: np.ndarray,
    w: np.ndarray,
    s: tuple[int, ...],
    pads: list[tuple[int, int]],
    d: tuple[int, ...],
    cl: bool,
    bias: Any = None,
) -> np.ndarray:
    x = np.asarray(x)
    w = np.asarray(w)  # [fh, fw, C]
    if w.dtype != x.dtype:
        w = w.astype(x.dtype)
    k = w.shape[:2]
    axes = _spatial(2, cl)
    xp = _pad_input(x, pads, axes, 0)
    outs = [(xp.shape[a] - di * (ki - 1) - 1) // si + 1 for a, ki, di, si in zip(axes, k, d, s)]
    # one [fh, fw] filter per channel: a multiply-add per filter tap over the whole batch
    out: Any = None
    for tap in product(range(k[0]), range(k[1])):
        sl = [slice(None)] * xp.ndim
        for a, t, di, si, o in zip(axes, tap, d, s, outs):
            sl[a] = slice(t * di, t * di + si * (o - 1) + 1, si)
        wt = w[tap] if cl else w[tap][:, None, None]
        if out is None:
            out = xp[tuple(sl)] * wt
        else:
            out += xp[tuple(sl)] * wt
    return out if bias is None else _add_bias(out, bias, cl)


def _conv_t(
    x: np.ndarray,
    filters: np.ndarray,
    s: tuple[int, ...],
    pads: list[tuple[int, int]],
    d: tuple[int, ...],
    cl: bool,
    outs: tuple[int, ...],
    bias: Any = None,
) -> np.ndarray:
    n = len(s)
    x = np.asarray(x)
    if not cl:
        x = np.moveaxis(x, 1, -1)
    w = np.asarray(filters)  # [*K, d_out, d_in]
    if w.dtype != x.dtype:
        w = w.astype(x.dtype)
    sizes = x.shape[1:-1]
    k = w.shape[:n]
    full = [(i - 1) * si + di * (ki - 1) + 1 for i, si, ki, di in zip(sizes, s, k, d)]  # before removing padding
    # the adjoint of the forward window gather: every input position scatters its filter taps
    y = np.matmul(x.reshape(-1, w.shape[-1]), w.reshape(-1, w.shape[-1]).T)
    y = y.reshape(*x.shape[:-1], *k, w.shape[-2])  # [N, *I, *K, d_out]
    ext = [max(f, lo + o) for f, o, (lo, _) in zip(full, outs, pads)]
    acc = np.zeros((x.shape[0], *ext, w.shape[-2]), dtype=y.dtype)
    lead = (slice(None),) * (n + 1)
    for tap in product(*(range(ki) for ki in k)):
        dst = tuple(slice(t * di, t * di + si * (i - 1) + 1, si) for t, di, si, i in zip(tap, d, s, sizes))
        acc[(slice(None), *dst)] += y[lead + tap]
    out = np.ascontiguousarray(acc[(slice(None), *(slice(lo, lo + o) for (lo, _), o in zip(pads, outs)))])
    if bias is not None:
        out = _add_bias(out, bias, True)
    return out if cl else np.ascontiguousarray(np.moveaxis(out, -1, 1))


# -------------------------------------------------------------------------------------- pooling

#: Above this many window taps a pool reduces over the window view in one call instead of
#: combining tap by tap.
_TAP_LOOP_MAX = 27


def _lowest(dt: np.dtype) -> Any:
    if dt.kind == "f":
        return -np.inf
    if dt.kind in "iu":
        return np.iinfo(dt).min
    if dt.kind == "b":
        return False
    raise TypeError(f"max_pool: unsupported dtype {dt}")


def _pool(
    x: np.ndarray,
    k: tuple[int, ...],
    s: tuple[int, ...],
    pads: list[tuple[int, int]],
    cl: bool,
    kind: str,
    count_include_pad: bool = False,
) -> np.ndarray:
    n = len(k)
    x = np.asarray(x)
    axes = _spatial(n, cl)
    sizes = [x.shape[a] for a in axes]
    is_max = kind == "max"
    if is_max:
        xp = _pad_input(x, pads, axes, _lowest(x.dtype))  # padded positions never win
    else:
        if x.dtype.kind not in "fc":
            x = x.astype(_f64)
        xp = _pad_input(x, pads, axes, 0)
    outs = [(xp.shape[a] - ki) // si + 1 for a, ki, si in zip(axes, k, s)]
    if math.prod(k) > _TAP_LOOP_MAX:
        win = _windows(xp, axes, k, s, (1,) * n)
        red = tuple(range(xp.ndim, win.ndim))
        acc = win.max(axis=red) if is_max else win.sum(axis=red)
    else:
        acc = None
        for tap in product(*(range(ki) for ki in k)):
            sl = [slice(None)] * xp.ndim
            for a, t, si, o in zip(axes, tap, s, outs):
                sl[a] = slice(t, t + si * (o - 1) + 1, si)
            patch = xp[tuple(sl)]
            if acc is None:
                acc = patch.copy()
            elif is_max:
                np.maximum(acc, patch, out=acc)
            else:
                np.add(acc, patch, out=acc)
    if is_max:
        return acc
    if count_include_pad or not any(lo or hi for lo, hi in pads):
        return acc / math.prod(k)
    # divide each window by the number of its positions inside the input (separable per axis)
    cnt = np.ones((), dtype=acc.real.dtype)
    for i, ki, si, o, (lo, _) in zip(sizes, k, s, outs, pads):
        start = np.arange(o) * si - lo
        c = np.maximum(np.minimum(start + ki, i) - np.maximum(start, 0), 0)
        cnt = np.multiply.outer(cnt, c.astype(cnt.dtype))
    shape = [1] * acc.ndim
    for a, o in zip(axes, outs):
        shape[a] = o
    with np.errstate(invalid="ignore"):  # a window wholly in the padding: the mean of nothing, NaN
        return acc / cnt.reshape(shape)


def _max_pool(
    x: np.ndarray, k: tuple[int, ...], s: tuple[int, ...], pads: list[tuple[int, int]], cl: bool
) -> np.ndarray:
    return _pool(x, k, s, pads, cl, "max")


def _avg_pool(
    x: np.ndarray,
    k: tuple[int, ...],
    s: tuple[int, ...],
    pads: list[tuple[int, int]],
    cl: bool,
    count_include_pad: bool,
) -> np.ndarray:
    return _pool(x, k, s, pads, cl, "avg", count_include_pad)


_FAMILY = {
    **conv_family(_conv, fused_bias=True),
    **conv_family(_depthwise, (2,), fused_bias=True, depthwise=True),
    **conv_transpose_family(_conv_t, fused_bias=True),
    **pool_family(_max_pool, _avg_pool),
}
conv1d = _FAMILY["conv1d"]
conv2d = _FAMILY["conv2d"]
conv3d = _FAMILY["conv3d"]
depthwise_conv2d = _FAMILY["depthwise_conv2d"]
conv1d_transpose = _FAMILY["conv1d_transpose"]
conv2d_transpose = _FAMILY["conv2d_transpose"]
conv3d_transpose = _FAMILY["conv3d_transpose"]
max_pool1d = _FAMILY["max_pool1d"]
max_pool2d = _FAMILY["max_pool2d"]
max_pool3d = _FAMILY["max_pool3d"]
avg_pool1d = _FAMILY["avg_pool1d"]
avg_pool2d = _FAMILY["avg_pool2d"]
avg_pool3d = _FAMILY["avg_pool3d"]


# ------------------------------------------------------------------------------ error function
# NumPy has no erf. These are the rational approximations of fdlibm's s_erf.c (Sun Microsystems,
# freely redistributable), whose error is below 1 ulp in float64, evaluated on whole arrays: one
# branch per interval of |x|, each on the elements that fall into it.

_ERX = 8.45062911510467529297e-01
# erf on [0, 0.84375]: x + x * P(x^2) / Q(x^2)
_PP = (
    1.28379167095512558561e-01,
    -3.25042107247001499370e-01,
    -2.84817495755985104766e-02,
    -5.77027029648944159157e-03,
    -2.37630166566501626084e-05,
)
_QQ = (
    1.0,
    3.97917223959155352819e-01,
    6.50222499887672944485e-02,
    5.08130628187576562776e-03,
    1.32494738004321644526e-04,
    -3.96022827877536812320e-06,
)
# erf on [0.84375, 1.25]: erx + P(s) / Q(s), s = |x| - 1
_PA = (
    -2.36211856075265944077e-03,
    4.14856118683748331666e-01,
    -3.72207876035701323847e-01,
    3.18346619901161753674e-01,
    -1.10894694282396677476e-01,
    3.54783043256182359371e-02,
    -2.16637559486879084300e-03,
)
_QA = (
    1.0,
    1.06420880400844228286e-01,
    5.40397917702171048937e-01,
    7.18286544141962662868e-02,
    1.26171219808761642112e-01,
    1.36370839120290507362e-02,
    1.19844998467991074170e-02,
)
# erfc on [1.25, 1/0.35]: exp(-x^2 - 0.5625 + R(z) / S(z)) / x, z = 1 / x^2
_RA = (
    -9.86494403484714822705e-03,
    -6.93858572707181764372e-01,
    -1.05586262253232909814e01,
    -6.23753324503260060396e01,
    -1.62396669462573470355e02,
    -1.84605092906711035994e02,
    -8.12874355063065934246e01,
    -9.81432934416914548592e00,
)
_SA = (
    1.0,
    1.96512716674392571292e01,
    1.37657754143519042600e02,
    4.34565877475229228821e02,
    6.45387271733267880336e02,
    4.29008140027567833386e02,
    1.08635005541779435134e02,
    6.57024977031928170135e00,
    -6.04244152148580987438e-02,
)
# erfc on [1/0.35, 28]
_RB = (
    -9.86494292470009928597e-03,
    -7.99283237680523006574e-01,
    -1.77579549177547519889e01,
    -1.60636384855821916062e02,
    -6.37566443368389627722e02,
    -1.02509513161107724954e03,
    -4.83519191608651397019e02,
)
_SB = (
    1.0,
    3.03380607434824582924e01,
    3.25792512996573918826e02,
    1.53672958608443695994e03,
    3.19985821950859553908e03,
    2.55305040643316442583e03,
    4.74528541206955367215e02,
    -2.24409524465858183362e01,
)


def _horner(z: np.ndarray, coeffs: tuple[float, ...]) -> np.ndarray:
    acc = np.full_like(z, coeffs[-1])
    for c in coeffs[-2::-1]:
        acc *= z
        acc += c
    return acc


def _tail(a: np.ndarray) -> np.ndarray:
    """erfc(a) for 1.25 <= a < 28, without cancellation."""
    z = 1.0 / (a * a)
    near = a < 1 / 0.35
    rs = np.empty_like(a)
    if near.any():
        zn = z[near]
        rs[near] = _horner(zn, _RA) / _horner(zn, _SA)
    far = ~near
    if far.any():
        zf = z[far]
        rs[far] = _horner(zf, _RB) / _horner(zf, _SB)
    # exp(-a^2) as exp(-h^2) exp((h - a)(h + a)), h = a with its low 32 bits cleared: exact squares
    h = (np.ascontiguousarray(a).view(np.uint64) & np.uint64(0xFFFFFFFF00000000)).view(np.float64)
    return np.exp(-h * h - 0.5625) * np.exp((h - a) * (h + a) + rs) / a


def _erf_abs(a: np.ndarray, complement: bool) -> np.ndarray:
    """erf(a) (or erfc(a) with ``complement``) for a float64 array ``a >= 0`` (NaN stays NaN)."""
    out = a.copy()
    m = a < 0.84375
    if m.any():
        v = a[m]
        z = v * v
        r = v * (_horner(z, _PP) / _horner(z, _QQ))
        if complement:  # 1 - (v + r), arranged as fdlibm does to keep the last bits
            out[m] = np.where(v < 0.25, 1.0 - (v + r), 0.5 - ((v - 0.5) + r))
        else:
            out[m] = v + r
    m = (a >= 0.84375) & (a < 1.25)
    if m.any():
        t = a[m] - 1.0
        pq = _horner(t, _PA) / _horner(t, _QA)
        out[m] = (1.0 - _ERX) - pq if complement else _ERX + pq
    m = (a >= 1.25) & (a < 28.0)
    if m.any():
        c = _tail(a[m])
        out[m] = c if complement else 1.0 - c
    m = a >= 28.0  # erf rounds to 1 from about 5.9 on, erfc underflows to 0 beyond 27.2
    if m.any():
        out[m] = 0.0 if complement else 1.0
    return out


def _as_f64(x: Any) -> tuple[np.ndarray, np.dtype]:
    x = np.asarray(x)
    dt = x.dtype if x.dtype.kind == "f" else _f64
    return x.astype(_f64, copy=False), dt


#: SciPy's erf (the extra ``ivy-numpy[scipy]``), looked up on the first call: NumPy has none
_SCIPY_ERF: list[Any] = []


def _scipy_erf() -> Any:
    try:
        from scipy.special import erf as fn
    except ImportError:
        fn = None
    _SCIPY_ERF.append(fn)
    return fn


def erf(x: np.ndarray, /) -> np.ndarray:
    fast = _SCIPY_ERF[0] if _SCIPY_ERF else _scipy_erf()
    if fast is not None and type(x) is np.ndarray and x.dtype.char in "fd":
        return fast(x)  # (its float32 loop also rounds the float64 result: the same values)
    v, dt = _as_f64(x)
    out = np.copysign(_erf_abs(np.abs(v), False), v)
    return out if dt == _f64 else out.astype(dt)


def _erfc(v: np.ndarray) -> np.ndarray:
    c = _erf_abs(np.abs(v), True)
    return np.where(v < 0, 2.0 - c, c)


# ---------------------------------------------------------------------------------- activations

_SQRT_HALF = math.sqrt(0.5)
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def relu(x: np.ndarray, /) -> np.ndarray:
    return np.maximum(x, 0)


def leaky_relu(x: np.ndarray, /, *, alpha: float = 0.2) -> np.ndarray:
    return np.where(x > 0, x, x * alpha)


def sigmoid(x: np.ndarray, /) -> np.ndarray:
    # exp(-|x|) never overflows; 1 / (1 + e) for x >= 0 and e / (1 + e) below keep full relative
    # accuracy at both tails (0.5 (1 + tanh(x / 2)) loses it for x << 0, and 1 / (1 + exp(-x))
    # overflows, with a warning, and flushes the subnormal results to 0)
    if x.ndim == 0 or x.dtype.kind != "f":  # scalars and integers: no in-place steps
        e = np.exp(-np.abs(x))
        num = np.where(x >= 0, 1.0, e)
        e += 1.0
        num /= e
        return num
    e = np.abs(x)
    np.negative(e, out=e)
    np.exp(e, out=e)  # e = exp(-|x|), in (0, 1]
    # The numerator, 1 for x >= 0 and e below, as max(step(x), e) (NaN stays NaN): np.where
    # costs as much as the exp here, a compare, a cast and a maximum a third of it.
    num = (x >= 0).astype(x.dtype)
    np.maximum(num, e, out=num)
    e += 1.0
    num /= e
    return num


def silu(x: np.ndarray, /) -> np.ndarray:
    return x * sigmoid(x)


def gelu(x: np.ndarray, /, *, approximate: bool = False) -> np.ndarray:
    if approximate:
        inner = (x + 0.044715 * x**3) * _SQRT_2_OVER_PI
        return 0.5 * x * (1.0 + np.tanh(inner))
    # x Phi(x) = x erfc(-x / sqrt 2) / 2: no cancellation in the negative tail (1 + erf would lose it)
    v, dt = _as_f64(x)
    out = 0.5 * v * _erfc(-v * _SQRT_HALF)
    return out if dt == _f64 else out.astype(dt)


def softmax(x: np.ndarray, /, *, axis: int = -1) -> np.ndarray:
    if x.size == 0:  # nothing to normalise (np.max refuses an empty axis)
        axis_index(axis, x.ndim, "softmax")
        return np.exp(x)
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def log_softmax(x: np.ndarray, /, *, axis: int = -1) -> np.ndarray:
    if x.size == 0:
        axis_index(axis, x.ndim, "log_softmax")
        return np.exp(x)
    s = x - np.max(x, axis=axis, keepdims=True)
    return s - np.log(np.sum(np.exp(s), axis=axis, keepdims=True))


def _softplus1(z: np.ndarray) -> np.ndarray:
    """log(1 + exp(z)) as max(z, 0) + log1p(exp(-|z|)): no overflow (np.logaddexp is slower)."""
    return np.maximum(z, 0) + np.log1p(np.exp(-np.abs(z)))


def softplus(x: np.ndarray, /, *, beta: float = 1.0, threshold: float = 20.0) -> np.ndarray:
    bx = x if beta == 1.0 else x * beta
    soft = _softplus1(bx)
    if beta != 1.0:
        soft = soft / beta
    return np.where(bx > threshold, x, soft)


def elu(x: np.ndarray, /, *, alpha: float = 1.0) -> np.ndarray:
    return np.where(x > 0, x, np.expm1(np.minimum(x, 0)) * alpha)  # min: no overflow in the unused branch


def selu(x: np.ndarray, /) -> np.ndarray:
    return elu(x, alpha=_SELU_ALPHA) * _SELU_SCALE


def hardswish(x: np.ndarray, /) -> np.ndarray:
    return x * (np.clip(x + 3.0, 0.0, 6.0) / 6.0)


def mish(x: np.ndarray, /) -> np.ndarray:
    return x * np.tanh(_softplus1(x))


# --------------------------------------------------------------------------------------- layers


def linear(x: np.ndarray, weight: np.ndarray, /, bias: np.ndarray | None = None) -> np.ndarray:
    y = np.matmul(x, np.swapaxes(weight, -1, -2))
    return y if bias is None else y + bias


def layer_norm(
    x: np.ndarray,
    normalized_idxs: int | Sequence[int],
    /,
    *,
    scale: np.ndarray | None = None,
    offset: np.ndarray | None = None,
    eps: float = 1e-5,
) -> np.ndarray:
    axes = (normalized_idxs,) if isinstance(normalized_idxs, (int, np.integer)) else tuple(normalized_idxs)
    d = x - np.mean(x, axis=axes, keepdims=True)
    var = np.mean(d * d, axis=axes, keepdims=True)  # the biased variance
    y = d / np.sqrt(var + eps)
    if scale is not None:
        y = y * scale
    if offset is not None:
        y = y + offset
    return y


def embedding(weights: np.ndarray, indices: np.ndarray, /, *, max_norm: float | None = None) -> np.ndarray:
    # np.take checks integer ids and reads -1 as the last row: the spec takes [0, n) only
    b = host_bounds(indices) if indices.dtype.kind == "i" else None
    if b is not None and b[0] < 0:
        check_index_range(b[0], b[1], weights.shape[0], "embedding", negative=False, what="id")
    rows = np.take(weights, indices, axis=0)  # indices.shape + (dim,)
    if max_norm is None:
        return rows
    norms = np.linalg.vector_norm(rows, axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        factor = np.where(norms > max_norm, max_norm / norms, 1.0)
    return rows * factor.astype(rows.dtype, copy=False)


def one_hot(indices: np.ndarray, depth: int, /, *, dtype: Any = None, axis: int = -1) -> np.ndarray:
    check_integer_indices(indices.dtype.kind in "iu", indices.dtype, "one_hot")
    hot = np.expand_dims(indices, -1) == np.arange(depth)  # int64 positions: an index outside gives no hit
    out = hot.astype(_f64 if dtype is None else native(dtype))
    if axis != -1 and axis != out.ndim - 1:
        out = np.moveaxis(out, -1, axis)
    return out


# ------------------------------------------------------------------------------------ attention


def scaled_dot_product_attention(
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    /,
    *,
    mask: np.ndarray | None = None,
    scale: float | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
) -> np.ndarray:
    scores = np.matmul(q, np.swapaxes(k, -1, -2))
    scores = scores * ((1.0 / math.sqrt(q.shape[-1])) if scale is None else scale)
    if is_causal:  # query i attends to keys j <= i (top-left aligned)
        scores = np.where(np.tri(q.shape[-2], k.shape[-2], dtype=bool), scores, -np.inf)
    if mask is not None:
        mask = np.asarray(mask)
        if mask.dtype == np.bool_:  # True marks the positions to attend to
            scores = np.where(mask, scores, -np.inf)
        else:  # an additive mask, in the dtype of the scores
            scores = scores + mask.astype(scores.dtype, copy=False)
    # a query that may attend to no key: a row of -inf, whose softmax is NaN (as the spec says)
    with np.errstate(invalid="ignore"):
        weights = softmax(scores, axis=-1)
    if dropout_p > 0.0:
        weights = _dropout(weights, dropout_p)
    return np.matmul(weights, v)
