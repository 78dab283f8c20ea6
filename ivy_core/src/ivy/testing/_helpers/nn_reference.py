"""NumPy reference implementations shared by the plugins' functional tests: convolutions,
pooling, layer norm, attention, LSTM, bilinear sampling and finite differences, written once here."""

from __future__ import annotations

import numpy as np

CONV = {1: "conv1d", 2: "conv2d", 3: "conv3d"}


FMT = {1: ("NWC", "NCW"), 2: ("NHWC", "NCHW"), 3: ("NDHWC", "NCDHW")}


def _norm(v, n):
    return (v,) * n if isinstance(v, int) else tuple(v)


def same_pads(sizes, windows, strides):
    """The spec's SAME padding: output ceil(in / stride), the odd element at the end."""
    out = []
    for i, k, s in zip(sizes, windows, strides):
        o = -(-i // s)
        total = max((o - 1) * s + k - i, 0)
        out.append((total // 2, total - total // 2))
    return out


def _pads_of(padding, n, sizes, windows, strides):
    if padding == "VALID":
        return [(0, 0)] * n
    if padding == "SAME":
        return same_pads(sizes, windows, strides)
    if isinstance(padding, int):
        return [(padding, padding)] * n
    return [tuple(p) for p in padding]


def np_conv(x, w, strides, pads, dil):
    """Channel-last N-d cross-correlation: x [N, *S, Ci], w [*K, Ci, Co]."""
    n = x.ndim - 2
    xp_ = np.pad(x, [(0, 0), *pads, (0, 0)])
    K = w.shape[:n]
    outs = [(xp_.shape[1 + i] - dil[i] * (K[i] - 1) - 1) // strides[i] + 1 for i in range(n)]
    out = np.zeros((x.shape[0], *outs, w.shape[-1]))
    for k in np.ndindex(*K):
        sl = tuple(slice(k[i] * dil[i], k[i] * dil[i] + strides[i] * (outs[i] - 1) + 1, strides[i]) for i in range(n))
        out += xp_[(slice(None), *sl, slice(None))] @ w[k]
    return out


def np_conv_t(x, w, strides, pads, dil, outs):
    """Transposed conv as the adjoint of np_conv: x [N, *I, d_in], w [*K, d_out, d_in]."""
    n = x.ndim - 2
    I, K = x.shape[1:-1], w.shape[:n]
    full = [(I[i] - 1) * strides[i] + dil[i] * (K[i] - 1) + 1 for i in range(n)]
    acc = np.zeros((x.shape[0], *full, w.shape[-2]))
    for k in np.ndindex(*K):
        sl = tuple(slice(k[i] * dil[i], k[i] * dil[i] + strides[i] * (I[i] - 1) + 1, strides[i]) for i in range(n))
        acc[(slice(None), *sl, slice(None))] += x @ w[k].T
    big = [max(full[i], pads[i][0] + outs[i]) for i in range(n)]
    acc = np.pad(acc, [(0, 0), *[(0, big[i] - full[i]) for i in range(n)], (0, 0)])
    return acc[(slice(None), *[slice(pads[i][0], pads[i][0] + outs[i]) for i in range(n)], slice(None))]


def np_pool(x, k, s, pads, kind, count_include_pad=False):
    n = x.ndim - 2
    fill = -np.inf if kind == "max" else 0.0
    xp_ = np.pad(x, [(0, 0), *pads, (0, 0)], constant_values=fill)
    ones = np.pad(np.ones(x.shape[1:-1]), pads)
    outs = [(xp_.shape[1 + i] - k[i]) // s[i] + 1 for i in range(n)]
    acc = np.full((x.shape[0], *outs, x.shape[-1]), fill)
    cnt = np.zeros(outs)
    for kk in np.ndindex(*k):
        sl = tuple(slice(kk[i], kk[i] + s[i] * (outs[i] - 1) + 1, s[i]) for i in range(n))
        patch = xp_[(slice(None), *sl, slice(None))]
        acc = np.maximum(acc, patch) if kind == "max" else acc + patch
        cnt += ones[sl]
    if kind == "max":
        return acc
    return acc / (np.prod(k) if count_include_pad else cnt[None, ..., None])


def _np_layer_norm(x, axes, scale=None, offset=None, eps=1e-5):
    m = x.mean(axis=axes, keepdims=True)
    v = x.var(axis=axes, keepdims=True)
    y = (x - m) / np.sqrt(v + eps)
    return y * (1 if scale is None else scale) + (0 if offset is None else offset)


def _np_attention(q, k, v, mask=None, scale=None, causal=False):
    s = q @ np.swapaxes(k, -1, -2) * (1 / np.sqrt(q.shape[-1]) if scale is None else scale)
    allowed = np.ones(s.shape, dtype=bool)
    if causal:
        allowed &= np.tril(np.ones(s.shape[-2:], dtype=bool))  # key j <= query i
    if mask is not None:
        if mask.dtype == bool:
            allowed &= mask
        else:
            s = s + mask
    s = np.where(allowed, s, -np.inf)
    with np.errstate(invalid="ignore"):
        w = np.exp(s - s.max(-1, keepdims=True))
        w = w / w.sum(-1, keepdims=True)
    return w @ v


def _np_lstm(x, h, c, k, rk, b, rb):
    sig = lambda z: 1 / (1 + np.exp(-z))  # noqa: E731
    hs = []
    H = h.shape[-1]
    for step in range(x.shape[1]):
        z = x[:, step] @ k + b + h @ rk + rb
        i, f, g, o = z[:, :H], z[:, H : 2 * H], z[:, 2 * H : 3 * H], z[:, 3 * H :]
        c = sig(f) * c + sig(i) * np.tanh(g)
        h = sig(o) * np.tanh(c)
        hs.append(h)
    return np.stack(hs, 1), h, c


def _np_gru(x, h, k, rk, b, rb):
    """One GRU layer over ``x`` ``[batch, time, in]`` in torch's form (gates r, z, n; the reset
    gate scales the recurrent block with its bias); returns ``(hs, h)``."""
    sig = lambda z: 1 / (1 + np.exp(-z))  # noqa: E731
    hs = []
    for step in range(x.shape[1]):
        xr, xz, xn = np.split(x[:, step] @ k + b, 3, axis=-1)
        hr, hz, hn = np.split(h @ rk + rb, 3, axis=-1)
        r, z = sig(xr + hr), sig(xz + hz)
        n = np.tanh(xn + r * hn)
        h = (1 - z) * n + z * h
        hs.append(h)
    return np.stack(hs, 1), h


def np_bilinear_sample(img, coords):
    """``ivy.bilinear_sample`` of one image ``[h, w, c]`` at ``coords`` ``[..., 2]`` (x, y) by
    ``scipy.ndimage.map_coordinates`` (order 1, mode "nearest": the border clamp) on each
    channel, whose coordinates are (row, column)."""
    from scipy import ndimage

    rc = [coords[..., 1], coords[..., 0]]
    channels = [ndimage.map_coordinates(img[..., k], rc, order=1, mode="nearest") for k in range(img.shape[-1])]
    return np.stack(channels, -1)


def fd_grad(f, xs, eps=1e-6):
    """Central finite differences of a scalar numpy function of a list of arrays."""
    out = []
    for i, x in enumerate(xs):
        g = np.zeros_like(x)
        for j in np.ndindex(x.shape):
            up = [a.copy() for a in xs]
            dn = [a.copy() for a in xs]
            up[i][j] += eps
            dn[i][j] -= eps
            g[j] = (f(up) - f(dn)) / (2 * eps)
        out.append(g)
    return out


def fd_jac(f, x, eps=1e-6):
    y0 = np.asarray(f(x))
    J = np.zeros(y0.shape + x.shape)
    for j in np.ndindex(x.shape):
        up, dn = x.copy(), x.copy()
        up[j] += eps
        dn[j] -= eps
        J[(...,) + j] = (np.asarray(f(up)) - np.asarray(f(dn))) / (2 * eps)
    return J


def _loss_np(ls):
    a, b = ls
    return float(np.sum(np.sin(a) * b**2) + np.sum(a**3))
