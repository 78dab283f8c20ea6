"""What is particular to gradients through mxnet.autograd: the caller's arrays keep their gradient
state, outputs outside the recorded graph, transforms that cannot nest, and the ops whose gradients
the plugin makes itself (convolutions padded by concatenation, set_item while recording, scatters
through an autograd.Function, cumulative_prod step by step), against central finite differences in
float64 computed here in NumPy. The transforms themselves are the conformance kit's
(test_fn_gradients*.py), which runs on every backend that declares autodiff.
"""

from __future__ import annotations

import numpy as np
import pytest

mx = pytest.importorskip("mxnet")

import ivy

R = np.random.default_rng(7)


def nat(a):
    a = np.asarray(a, dtype=np.float64)
    return mx.np.array(a, dtype=a.dtype)


def fd_grad(f, x, h=1e-6):
    """Central differences of scalar ``f`` at ``x`` (float64)."""
    x = np.asarray(x, dtype=np.float64)
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = h
        g[i] = (f(x + e) - f(x - e)) / (2 * h)
    return g


def close(got, want, tol=1e-6):
    np.testing.assert_allclose(
        np.asarray(got.asnumpy() if hasattr(got, "asnumpy") else got, np.float64), want, rtol=tol, atol=tol
    )


def test_mxnet_inputs_keep_their_state_and_results_are_detached():
    x = nat(R.standard_normal((2, 3)))
    value, (g,), _ = ivy.value_and_grad_flat(lambda ls: ivy.sum(ivy.sin(ls[0])), [x])
    assert x.grad is None  # the caller's array got no gradient buffer
    with mx.autograd.record():  # the results are constants for a later recording
        y = value * 2 + mx.np.sum(g)
    with pytest.raises(mx.base.MXNetError):
        y.backward()


def test_vjp_of_two_outputs_one_constant():
    x_np = R.standard_normal(3)
    const = nat(np.ones(3))
    out, pullback = ivy.vjp(lambda x: (ivy.sin(x), const), nat(x_np))
    (g,) = pullback((nat(np.full(3, 2.0)), nat(np.ones(3))))
    close(g, 2 * np.cos(x_np), 1e-12)


def test_transforms_do_not_nest():
    with pytest.raises(NotImplementedError, match="higher-order"):
        ivy.grad(lambda v: ivy.sum(ivy.grad(lambda u: ivy.sum(ivy.sin(u)))(v)))(nat(np.ones(3)))


def np_conv2d_same(x, w, strides):
    """NHWC cross-correlation with "SAME" padding (the odd extra on the high side), written out."""
    n, h, wd, _ = x.shape
    kh, kw, _, co = w.shape
    sh, sw = strides
    oh, ow = -(-h // sh), -(-wd // sw)
    ph, pw = max((oh - 1) * sh + kh - h, 0), max((ow - 1) * sw + kw - wd, 0)
    xp = np.pad(x, ((0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)))
    out = np.zeros((n, oh, ow, co))
    for i in range(oh):
        for j in range(ow):
            patch = xp[:, i * sh : i * sh + kh, j * sw : j * sw + kw, :]
            out[:, i, j, :] = np.tensordot(patch, w, axes=([1, 2, 3], [0, 1, 2]))
    return out


def np_max_pool2x2(y):
    """2x2 max pool, stride 2, "SAME" (padding with -inf on the high side)."""
    n, h, wd, c = y.shape
    yp = np.pad(y, ((0, 0), (0, h % 2), (0, wd % 2), (0, 0)), constant_values=-np.inf)
    return yp.reshape(n, yp.shape[1] // 2, 2, yp.shape[2] // 2, 2, c).max(axis=(2, 4))


def test_conv_and_pool_gradients():
    x, w = R.standard_normal((2, 5, 6, 2)), R.standard_normal((3, 2, 2, 3))

    def np_loss(xv, wv):
        return float(np.sum(np_max_pool2x2(np_conv2d_same(xv, wv, (1, 2))) ** 2))

    def loss(ls):
        y = ivy.conv2d(ls[0], ls[1], (1, 2), "SAME")
        p = ivy.max_pool2d(y, 2, 2, "SAME")
        return ivy.sum(ivy.multiply(p, p))

    value, (gx, gw), _ = ivy.value_and_grad_flat(loss, [nat(x), nat(w)])
    close(value, np_loss(x, w), 1e-10)
    close(gx, fd_grad(lambda v: np_loss(v, w), x), 1e-5)
    close(gw, fd_grad(lambda v: np_loss(x, v), w), 1e-5)


def test_set_item_scatter_and_cumulative_prod_are_differentiable():
    x_np, v_np = R.standard_normal((2, 4)), R.standard_normal(2)
    idx = np.array([[0], [2], [0]])

    def np_loss(xv, vv):
        y = xv.copy()
        y[:, 1] = vv * 3
        s = np.zeros(3)
        np.add.at(s, idx[:, 0], np.array([vv[0], vv[1], vv[0] * vv[1]]))
        return float(np.sum(y**2) + np.sum(np.cumprod(xv, axis=1)) + np.sum(s**2))

    def loss(ls):
        xv, vv = ls
        y = ivy.set_item(xv, (slice(None), 1), ivy.multiply(vv, 3.0))
        upd = ivy.stack([vv[0], vv[1], ivy.multiply(vv[0], vv[1])])
        s = ivy.scatter_nd(mx.np.array(idx, dtype="int64"), upd, (3,))
        return ivy.add(
            ivy.add(ivy.sum(ivy.square(y)), ivy.sum(ivy.cumulative_prod(xv, axis=1))), ivy.sum(ivy.square(s))
        )

    value, (gx, gv), _ = ivy.value_and_grad_flat(loss, [nat(x_np), nat(v_np)])
    close(value, np_loss(x_np, v_np), 1e-10)
    close(gx, fd_grad(lambda a: np_loss(a, v_np), x_np))
    close(gv, fd_grad(lambda a: np_loss(x_np, a), v_np))
