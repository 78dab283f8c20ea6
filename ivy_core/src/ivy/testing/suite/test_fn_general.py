"""General functions (gather/scatter, einsum, cumulative, pad, top_k, split, ...) against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import ivy
from ivy.testing._helpers.facts import expect, expect_cmp, expect_dtype
from ivy.testing._helpers.registry import covers
from ivy.testing.convert import native_to_numpy, to_native

RNG = np.random.default_rng(11)
A = RNG.standard_normal((3, 4, 5))


def _np(backend, x):
    return native_to_numpy(backend, x)


@covers("gather")
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_fn_gather(backend, axis):
    idx = RNG.integers(0, A.shape[axis], size=(2, 3)).astype(np.int64)
    got = _np(backend, ivy.gather(to_native(backend, A), to_native(backend, idx), axis=axis))
    np.testing.assert_array_equal(got, np.take(A, idx, axis=axis))


@covers("gather")
def test_fn_gather_batch_dims(backend):
    idx = RNG.integers(0, 4, size=(3, 6)).astype(np.int64)
    got = _np(backend, ivy.gather(to_native(backend, A), to_native(backend, idx), axis=1, batch_dims=1))
    ref = np.stack([np.take(A[b], idx[b], axis=0) for b in range(3)])
    np.testing.assert_array_equal(got, ref)


@covers("gather_nd")
def test_fn_gather_nd(backend):
    idx = np.array([[0, 1], [2, 3], [1, 0]], dtype=np.int64)
    got = _np(backend, ivy.gather_nd(to_native(backend, A), to_native(backend, idx)))
    np.testing.assert_array_equal(got, A[idx[:, 0], idx[:, 1]])
    full = np.array([[0, 1, 2], [2, 3, 4]], dtype=np.int64)
    got = _np(backend, ivy.gather_nd(to_native(backend, A), to_native(backend, full)))
    np.testing.assert_array_equal(got, A[full[:, 0], full[:, 1], full[:, 2]])


@covers("scatter_nd")
@pytest.mark.parametrize("reduction", ["sum", "replace", "min", "max"])
def test_fn_scatter_nd(backend, reduction):
    idx = np.array([[0, 1], [2, 2], [0, 1], [3, 0]], dtype=np.int64)
    upd = np.array([1.0, 2.0, 5.0, -3.0])
    got = _np(backend, ivy.scatter_nd(to_native(backend, idx), to_native(backend, upd), (4, 3), reduction=reduction))
    ref = np.zeros((4, 3))
    flat = (idx[:, 0], idx[:, 1])
    if reduction == "sum":
        np.add.at(ref, flat, upd)
    elif reduction == "replace":  # duplicates: the standard leaves the winner unspecified; use unique rows
        ref[flat] = upd
        dup = ref[0, 1]
        expect_cmp(got[0, 1], "in", (1.0, 5.0), "ivy.scatter_nd: got[0, 1]")
        got[0, 1] = dup
    else:
        touched = np.zeros((4, 3), bool)
        touched[flat] = True
        fill = np.full((4, 3), np.inf if reduction == "min" else -np.inf)
        (np.minimum if reduction == "min" else np.maximum).at(fill, flat, upd)
        ref = np.where(touched, fill, 0.0)
    np.testing.assert_allclose(got, ref)


@covers("scatter_flat")
def test_fn_scatter_flat(backend):
    idx = np.array([0, 3, 3, 1], dtype=np.int64)
    upd = np.array([1.0, 2.0, 4.0, 8.0])
    got = _np(backend, ivy.scatter_flat(to_native(backend, idx), to_native(backend, upd), 5))
    ref = np.zeros(5)
    np.add.at(ref, idx, upd)
    np.testing.assert_allclose(got, ref)
    got = _np(backend, ivy.scatter_flat(to_native(backend, idx), to_native(backend, upd), 5, reduction="max"))
    np.testing.assert_allclose(got, [1.0, 8.0, 0.0, 4.0, 0.0])


@covers("get_item", "set_item")
def test_fn_get_set_item(backend):
    x = to_native(backend, A)
    np.testing.assert_array_equal(_np(backend, ivy.get_item(x, (slice(1, 3), 0))), A[1:3, 0])
    np.testing.assert_array_equal(_np(backend, ivy.get_item(x, (Ellipsis, -1))), A[..., -1])
    val = np.full((2, 5), 7.0)
    got = _np(backend, ivy.set_item(x, (slice(0, 2), 1), to_native(backend, val)))
    ref = A.copy()
    ref[0:2, 1] = val
    np.testing.assert_array_equal(got, ref)
    np.testing.assert_array_equal(_np(backend, x), A)  # functional: the input is unchanged


#: in-tree backends whose arrays can be updated in place (TensorFlow: its variables)
MUTABLE = ("numpy", "torch", "paddle", "tensorflow")


@covers("inplace_update")
def test_fn_inplace_update(backend):
    x = ivy.variable(to_native(backend, A)) if backend == "tensorflow" else to_native(backend, A.copy())
    new = np.ones_like(A)
    try:
        out = ivy.inplace_update(x, to_native(backend, new))
    except TypeError as e:  # a backend of immutable arrays (JAX) must say so, and say what to do
        assert backend not in MUTABLE, f"{backend} refused an in-place update: {e}"
        expect_cmp("immutable", "in", str(e), "ivy.inplace_update: 'immutable'")
        expect_cmp("set_item", "in", str(e), "ivy.inplace_update: 'set_item'")
        return
    np.testing.assert_array_equal(_np(backend, x), new)
    np.testing.assert_array_equal(_np(backend, out), new)


@covers("clip_vector_norm", "clip_matrix_norm")
def test_fn_clip_norms(backend):
    x = to_native(backend, A)
    n = np.linalg.norm(A)
    got = _np(backend, ivy.clip_vector_norm(x, 1.5))
    np.testing.assert_allclose(got, A * 1.5 / n, rtol=1e-10)
    np.testing.assert_allclose(_np(backend, ivy.clip_vector_norm(x, 1e6)), A)
    m = np.linalg.norm(A, ord=2, axis=(-2, -1), keepdims=True)
    got = _np(backend, ivy.clip_matrix_norm(x, 1.0))
    np.testing.assert_allclose(got, np.where(m > 1.0, A / m, A), rtol=1e-9)


@covers("einsum")
@pytest.mark.parametrize("eq", ["ij,jk->ik", "bij,bjk->bik", "ii->i", "ij->", "i,j->ij"])
def test_fn_einsum(backend, eq):
    shapes = {
        "ij,jk->ik": [(3, 4), (4, 2)],
        "bij,bjk->bik": [(2, 3, 4), (2, 4, 5)],
        "ii->i": [(4, 4)],
        "ij->": [(3, 5)],
        "i,j->ij": [(3,), (4,)],
    }[eq]
    ops = [RNG.standard_normal(s) for s in shapes]
    got = _np(backend, ivy.einsum(eq, *[to_native(backend, o) for o in ops]))
    np.testing.assert_allclose(got, np.einsum(eq, *ops), rtol=1e-10, atol=1e-12)


def _cum(op, x, axis, exclusive, reverse):
    if reverse:
        x = np.flip(x, axis)
    out = op(x, axis=axis)
    if exclusive:
        init = np.zeros_like(np.take(x, [0], axis=axis)) + (0 if op is np.cumsum else 1)
        out = np.concatenate([init, np.delete(out, -1, axis=axis)], axis=axis)
    return np.flip(out, axis) if reverse else out


@covers("cumsum", "cumprod")
@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("axis", [0, 2])
def test_fn_cumulative(backend, exclusive, reverse, axis):
    x = to_native(backend, A)
    got = _np(backend, ivy.cumsum(x, axis, exclusive=exclusive, reverse=reverse))
    np.testing.assert_allclose(got, _cum(np.cumsum, A, axis, exclusive, reverse), rtol=1e-10, atol=1e-12)
    got = _np(backend, ivy.cumprod(x, axis, exclusive=exclusive, reverse=reverse))
    np.testing.assert_allclose(got, _cum(np.cumprod, A, axis, exclusive, reverse), rtol=1e-10, atol=1e-12)


@covers("pad")
@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric", "wrap"])
def test_fn_pad(backend, mode):
    widths = ((1, 2), (0, 3), (2, 0))
    kw = {"value": 2.5} if mode == "constant" else {}
    got = _np(backend, ivy.pad(to_native(backend, A), widths, mode=mode, **kw))
    ref = np.pad(A, widths, mode=mode, **({"constant_values": 2.5} if mode == "constant" else {}))
    np.testing.assert_array_equal(got, ref)


@covers("pad")
@pytest.mark.parametrize("mode", ["edge", "reflect", "wrap", "symmetric"])
def test_fn_pad_of_the_last_axes_of_a_batch(backend, mode):
    # images and signals: the trailing 1-3 axes padded, the batch and channels not (the form
    # frameworks pad in one kernel), with widths up to and past an axis' size
    cases = [
        ((2, 3, 5, 6), ((0, 0), (0, 0), (1, 2), (2, 1))),
        ((2, 3, 7), ((0, 0), (0, 0), (3, 2))),
        ((3, 4, 5), ((0, 0), (3, 4), (4, 0))),
        ((1, 2, 3, 4, 5), ((0, 0), (0, 0), (1, 1), (2, 0), (0, 2))),
        ((2, 1, 3, 3), ((0, 0), (0, 0), (3, 3), (5, 1))),
        ((2, 3, 5, 6), ((0, 0), (0, 0), (1, 1), (1, 0))),  # one deep: a 3x3 filter's
    ]
    for shape, widths in cases:
        a = RNG.standard_normal(shape)
        got = _np(backend, ivy.pad(to_native(backend, a), widths, mode=mode))
        if mode == "wrap":  # periodic, by definition (numpy before 1.25 pads wider than the axis otherwise)
            want = a[np.ix_(*[np.arange(-lo, n + hi) % n for n, (lo, hi) in zip(shape, widths)])]
        else:
            want = np.pad(a, widths, mode=mode)
        np.testing.assert_array_equal(got, want, err_msg=f"{shape} {widths}")


@covers("top_k")
@pytest.mark.parametrize("largest", [True, False])
def test_fn_top_k(backend, largest):
    x = RNG.permutation(40).reshape(5, 8).astype(np.float64)  # distinct values: a unique answer
    vals, idx = ivy.top_k(to_native(backend, x), 3, axis=-1, largest=largest)
    order = np.argsort(-x if largest else x, axis=-1)[:, :3]
    np.testing.assert_array_equal(_np(backend, idx), order)
    np.testing.assert_array_equal(_np(backend, vals), np.take_along_axis(x, order, axis=-1))


@covers("split")
def test_fn_split(backend):
    x = to_native(backend, np.arange(20.0).reshape(10, 2))
    for got, ref in zip(ivy.split(x, 5), np.split(np.arange(20.0).reshape(10, 2), 5)):
        np.testing.assert_array_equal(_np(backend, got), ref)
    sizes = [_np(backend, p).shape[0] for p in ivy.split(x, [3, 7])]
    expect(sizes, [3, 7], "ivy.split: sizes")
    sizes = [_np(backend, p).shape[0] for p in ivy.split(x, 3, with_remainder=True)]
    expect(sizes, [3, 3, 3, 1], "ivy.split: sizes")
    with pytest.raises(ValueError):
        ivy.split(x, 3)


@covers("flatten", "transpose", "cast")
def test_fn_shape_helpers(backend):
    x = to_native(backend, A)
    expect(_np(backend, ivy.flatten(x)).shape, (60,), "ivy.flatten: _np(backend, ivy.flatten(x)).shape")
    np.testing.assert_array_equal(_np(backend, ivy.flatten(x, start_dim=1)), A.reshape(3, 20))
    np.testing.assert_array_equal(_np(backend, ivy.transpose(x)), A.T)
    np.testing.assert_array_equal(_np(backend, ivy.transpose(x, (1, 0, 2))), A.transpose(1, 0, 2))
    c = ivy.cast(x, "float32")
    expect_dtype(c, "float32", "ivy.cast")
    np.testing.assert_allclose(_np(backend, c), A.astype(np.float32))
