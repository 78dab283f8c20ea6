"""General functions beyond ``test_fn_general``: einsum's implicit outputs and dtypes, scatter into
slices with inferred shapes and integer dtypes, gather's index and value dtypes, the indexing
queries of get_item/set_item, in-place updates, the dtype rules of cumsum, padding wider than the
axis, top_k's sizes and dtypes, split/flatten/cast details and errors; NumPy references."""

from __future__ import annotations

import math

import numpy as np
import pytest

import ivy
from ivy.testing._helpers.facts import expect, expect_dtype, expect_is, expect_shape
from ivy.testing._helpers.nn_reference import fd_grad
from ivy.testing._helpers.registry import covers
from ivy.testing._helpers.strategies import supported_dtypes
from ivy.testing.convert import dtype_name, shape_of


def _default(xp, kind):
    return dtype_name(xp.__array_namespace_info__().default_dtypes()[kind])


def _supported(backend, *dtypes):
    missing = [d for d in dtypes if d not in supported_dtypes(backend)]
    if missing:
        pytest.skip(f"the {backend!r} backend has no {missing}")


# ---------------------------------------------------------------------------- einsum

EQUATIONS = [
    ("ij,jk", [(2, 3), (3, 4)]),  # implicit output: the letters that occur once, sorted
    ("ii", [(3, 3)]),  # a trace
    ("ii->i", [(3, 3)]),
    ("ba", [(2, 3)]),  # implicit transposition
    ("bij,jk->bik", [(5, 2, 3), (3, 4)]),
    ("...j,jk->...k", [(5, 2, 3), (3, 4)]),
]


@covers("einsum")
@pytest.mark.parametrize("eq,shapes", EQUATIONS, ids=[e for e, _ in EQUATIONS])
def test_fn_einsum_implicit_outputs_and_ellipsis(to_native, to_numpy, eq, shapes):
    r = np.random.default_rng(30)
    ops = [r.normal(size=s) for s in shapes]
    np.testing.assert_allclose(
        to_numpy(ivy.einsum(eq, *map(to_native, ops))), np.einsum(eq, *ops), rtol=1e-10, atol=1e-12
    )


@covers("einsum")
def test_fn_einsum_promotes_dtypes(backend, to_native, to_numpy):
    r = np.random.default_rng(31)
    a, b = r.normal(size=(2, 3)), r.normal(size=(3, 4))
    got = ivy.einsum("ij,jk->ik", to_native(a.astype(np.float32)), to_native(b))
    expect_dtype(got, "float64", "ivy.einsum")
    np.testing.assert_allclose(to_numpy(got), a.astype(np.float32).astype(np.float64) @ b, rtol=1e-12)
    ia, ib = r.integers(-5, 5, (2, 3)), r.integers(-5, 5, (3, 2)).astype(np.int32)
    got = ivy.einsum("ij,jk->ik", to_native(ia), to_native(ib))
    expect_dtype(got, "int64", "ivy.einsum")
    np.testing.assert_array_equal(to_numpy(got), ia @ ib)
    for dt in ("int8", "uint8", "int16"):
        if dt in supported_dtypes(backend):  # small values: integer overflow is unspecified
            ua, ub = r.integers(0, 4, (2, 3)).astype(dt), r.integers(0, 4, (3, 2)).astype(dt)
            got = ivy.einsum("ij,jk->ik", to_native(ua), to_native(ub))
            expect_dtype(got, dt, "ivy.einsum")
            np.testing.assert_array_equal(to_numpy(got), np.einsum("ij,jk->ik", ua, ub))
    big = np.array([2**40 + 1, 3], dtype=np.int64)  # exact beyond float64's integers
    got = ivy.einsum("i,i->", to_native(big), to_native(np.array([2**12, 1], np.int64)))
    expect(int(to_numpy(got)), int(big @ np.array([2**12, 1])), "ivy.einsum: int(to_numpy(got))")


@covers("einsum")
def test_fn_einsum_of_booleans(to_native, to_numpy):
    b = np.random.default_rng(32).random((2, 3)) > 0.5
    for eq, ops in (("ij,jk->ik", (b, b.T)), ("ij->j", (b,))):
        got = ivy.einsum(eq, *map(to_native, ops))
        # the promoted dtype of booleans: sums are "any"
        expect_dtype(got, "bool", "ivy.einsum")
        np.testing.assert_array_equal(to_numpy(got), np.einsum(eq, *ops))


# ---------------------------------------------------------------------------- scatter


@covers("scatter_nd")
def test_fn_scatter_nd_into_slices_and_of_scalars(xp, to_native, to_numpy):
    r = np.random.default_rng(32)
    idx = np.array([[1], [3], [1]])
    upd = r.normal(size=(3, 2))
    want = np.zeros((5, 2))
    np.add.at(want, idx[:, 0], upd)
    np.testing.assert_allclose(to_numpy(ivy.scatter_nd(to_native(idx.astype(np.int32)), to_native(upd), (5, 2))), want)
    mx = to_numpy(ivy.scatter_nd(to_native(idx), to_native(-np.abs(upd)), (5, 2), reduction="max"))
    np.testing.assert_array_equal(mx[[0, 2, 4]], np.zeros((3, 2)))  # rows no index reaches hold 0
    np.testing.assert_allclose(mx[1], np.maximum(-np.abs(upd[0]), -np.abs(upd[2])))
    s = ivy.scatter_nd(to_native(np.array([[0, 0], [1, 1]])), 2.5, (2, 2))
    expect_dtype(s, _default(xp, "real floating"), "ivy.scatter_nd")
    np.testing.assert_array_equal(to_numpy(s), [[2.5, 0], [0, 2.5]])


@covers("scatter_nd")
@pytest.mark.parametrize("reduction", ["sum", "min", "max"])
def test_fn_scatter_nd_of_integers(to_native, to_numpy, reduction):
    idx = np.array([[0, 1], [2, 3], [0, 1], [1, 0], [2, 3]])
    upd = np.random.default_rng(33).integers(-20, 20, size=5)
    ufunc = {"sum": np.add, "min": np.minimum, "max": np.maximum}[reduction]
    want = np.full((3, 4), {"sum": 0, "min": 10**6, "max": -(10**6)}[reduction])
    ufunc.at(want, tuple(idx.T), upd)
    touched = np.zeros((3, 4), dtype=bool)
    touched[tuple(idx.T)] = True
    want[~touched] = 0
    got = ivy.scatter_nd(to_native(idx.astype(np.int32)), to_native(upd), (3, 4), reduction=reduction)
    expect_dtype(got, "int64", "ivy.scatter_nd")
    np.testing.assert_array_equal(to_numpy(got), want)


@covers("scatter_nd", "scatter_flat")
def test_fn_scatter_infers_the_shape(to_native, to_numpy):
    idx = np.array([[1], [3], [1]])
    upd = np.random.default_rng(34).normal(size=(3, 2))
    want = np.zeros((4, 2))  # (max index + 1, the trailing shape of updates)
    np.add.at(want, idx[:, 0], upd)
    got = ivy.scatter_nd(to_native(idx), to_native(upd))
    expect_shape(got, (4, 2), "ivy.scatter_nd")
    np.testing.assert_allclose(to_numpy(got), want)
    flat = ivy.scatter_flat(to_native(idx[:, 0]), to_native(upd[:, 0]), reduction="max")
    expect_shape(flat, (4,), "ivy.scatter_flat")
    np.testing.assert_allclose(to_numpy(flat), [0.0, max(upd[0, 0], upd[2, 0]), 0.0, upd[1, 0]])


@covers("scatter_flat")
@pytest.mark.parametrize("reduction", ["sum", "min", "max"])
@pytest.mark.parametrize("dtype", ["int16", "int32", "int64", "float32", "float64"])
def test_fn_scatter_flat_reductions_and_dtypes(backend, to_native, to_numpy, reduction, dtype):
    _supported(backend, dtype)
    r = np.random.default_rng(33)
    idx, upd = r.integers(0, 6, size=12), r.integers(-20, 20, size=12)
    ufunc = {"sum": np.add, "min": np.minimum, "max": np.maximum}[reduction]
    want = np.full(8, {"sum": 0, "min": 10**6, "max": -(10**6)}[reduction])
    ufunc.at(want, idx, upd)
    want[np.isin(np.arange(8), idx, invert=True)] = 0
    got = ivy.scatter_flat(to_native(idx), to_native(upd.astype(dtype)), 8, reduction=reduction)
    expect_dtype(got, dtype, "ivy.scatter_flat")
    np.testing.assert_array_equal(to_numpy(got), want.astype(dtype))


@covers("scatter_flat")
def test_fn_scatter_flat_of_a_scalar_and_bad_reduction(to_native, to_numpy):
    idx = np.random.default_rng(35).integers(0, 6, size=12)
    np.testing.assert_array_equal(to_numpy(ivy.scatter_flat(to_native(idx), 1.0, 8)), np.bincount(idx, minlength=8))
    with pytest.raises(ValueError):
        ivy.scatter_flat(to_native(idx), to_native(np.ones(12)), 8, reduction="mean")


@covers("scatter_flat")
def test_fn_scatter_flat_gradient_matches_finite_differences(autodiff, to_native, to_numpy):
    idx = np.array([2, 0, 2, 3])
    u, w = np.array([1.0, -2.0, 3.0, 0.5]), np.array([1.0, -1.0, 0.5, 2.0, 3.0])

    def loss_np(ls):
        out = np.zeros(5)
        np.add.at(out, idx, ls[0])
        return float(np.sum(out**2 * w))

    def loss(ls):
        out = ivy.scatter_flat(to_native(idx), ls[0], 5)
        return ivy.sum(ivy.multiply(ivy.multiply(out, out), to_native(w)))

    _, g, _ = ivy.value_and_grad_flat(loss, [to_native(u)])
    np.testing.assert_allclose(to_numpy(g[0]), fd_grad(loss_np, [u])[0], rtol=1e-7, atol=1e-7)


# ---------------------------------------------------------------------------- gather


@covers("gather", "gather_nd")
def test_fn_gather_index_and_value_dtypes(backend, to_native, to_numpy):
    r = np.random.default_rng(34)
    p = r.normal(size=(3, 4, 5))
    idx = r.integers(0, 4, size=(2, 3))
    for it in ("int32", "uint8"):
        got = ivy.gather(to_native(p), to_native(idx.astype(it)), axis=1)
        np.testing.assert_array_equal(to_numpy(got), np.take(p, idx, axis=1))
    vals = np.arange(12).reshape(3, 4)
    for vt in ("bool", "uint8", "uint32", "int64"):
        if vt in supported_dtypes(backend):
            v = (vals % 3 == 0) if vt == "bool" else vals.astype(vt)
            got = ivy.gather(to_native(v), to_native(np.array([3, 0])), axis=1)
            expect_dtype(got, vt, "ivy.gather")
            np.testing.assert_array_equal(to_numpy(got), v[:, [3, 0]])
            nd = ivy.gather_nd(to_native(v), to_native(np.array([[2, 1]])))
            expect_dtype(nd, vt, "ivy.gather_nd")
            np.testing.assert_array_equal(to_numpy(nd), [v[2, 1]])


@covers("gather", "gather_nd")
def test_fn_gather_batch_dims_and_gather_nd_shapes(to_native, to_numpy):
    r = np.random.default_rng(36)
    p = r.normal(size=(3, 4, 5))
    bi = r.integers(0, 5, size=(3, 2))
    want = np.stack([p[b][:, bi[b]] for b in range(3)])  # batch_dims=1, axis=2
    np.testing.assert_array_equal(to_numpy(ivy.gather(to_native(p), to_native(bi), axis=2, batch_dims=1)), want)
    nd3 = np.array([[[0, 1, 2]], [[2, 3, 4]]], dtype=np.int32)
    got = ivy.gather_nd(to_native(p), to_native(nd3))
    expect_shape(got, (2, 1), "ivy.gather_nd")
    np.testing.assert_array_equal(to_numpy(got), p[nd3[..., 0], nd3[..., 1], nd3[..., 2]])
    bnd = r.integers(0, 4, size=(3, 2, 1))  # batch_dims=1: per batch row, index axis 1
    want = np.stack([p[b][bnd[b, :, 0]] for b in range(3)])
    np.testing.assert_array_equal(to_numpy(ivy.gather_nd(to_native(p), to_native(bnd), batch_dims=1)), want)


# ---------------------------------------------------------------------------- get_item / set_item

A = np.arange(24.0).reshape(2, 3, 4)

QUERIES = [
    (slice(None, None, -1),),
    (1, slice(None, None, -2)),
    (Ellipsis, slice(3, 0, -2)),
    (None, 0, slice(None), slice(None, None, -1)),
    (1, slice(2, None, -1), 0),
    (A[..., 0] > 5,),  # a boolean mask as the sole index
]


@covers("get_item", "set_item")
@pytest.mark.parametrize("query", QUERIES, ids=range(len(QUERIES)))
def test_fn_get_item_and_set_item_queries(to_native, to_numpy, query):
    x = to_native(A)
    q = tuple(to_native(e) if isinstance(e, np.ndarray) else e for e in query)
    got = ivy.get_item(x, q)
    expect_shape(got, A[query].shape, "ivy.get_item")
    np.testing.assert_array_equal(to_numpy(got), A[query])
    want = A.copy()
    want[query] = -1.0
    np.testing.assert_array_equal(to_numpy(ivy.set_item(x, q, -1.0)), want)
    np.testing.assert_array_equal(to_numpy(x), A)  # not modified


@covers("set_item")
def test_fn_set_item_values_broadcast_and_cast(to_native, to_numpy):
    x = to_native(A)
    for q, val in (
        ((Ellipsis, slice(None, None, -2)), np.array([-1.0, -2.0])),
        ((1, slice(2, None, -1), 0), np.array([5.0, 6.0, 7.0])),
    ):
        want = A.copy()
        want[q] = val
        np.testing.assert_array_equal(to_numpy(ivy.set_item(x, q, to_native(val))), want)
    np.testing.assert_array_equal(to_numpy(ivy.set_item(x, to_native(A > 20), 0.0)), np.where(A > 20, 0.0, A))
    ints = ivy.set_item(to_native(np.array([1, 2, 3], np.int32)), slice(0, 2), to_native(np.array([7.9, 8.2])))
    # val cast to the dtype of x
    expect_dtype(ints, "int32", "ivy.set_item")
    np.testing.assert_array_equal(to_numpy(ints), [7, 8, 3])
    wide = ivy.set_item(x, (0, 0, 0), to_native(np.float32(9.0)))
    expect_dtype(wide, "float64", "ivy.set_item")
    np.testing.assert_array_equal(to_numpy(wide), np.where(A == 0, 9.0, A))


@covers("set_item")
def test_fn_set_item_is_differentiable_in_x_and_val(autodiff, to_native, to_numpy):
    def loss(ls):
        y = ivy.set_item(ls[0], (slice(0, 1),), ivy.multiply(ls[1], 3.0))
        return ivy.sum(ivy.multiply(y, y))

    _, g, _ = ivy.value_and_grad_flat(loss, [to_native(np.array([1.0, 2.0, 3.0])), to_native(np.array(2.0))])
    np.testing.assert_allclose(to_numpy(g[0]), [0.0, 4.0, 6.0])
    np.testing.assert_allclose(to_numpy(g[1]), 36.0)


@covers("inplace_update")
def test_fn_inplace_update_broadcasts_casts_and_keeps_variables(to_native, to_numpy):
    """Where the arrays are mutable, ``x`` itself gets ``val`` broadcast and cast to its dtype; a
    variable stays a variable. Elsewhere a TypeError says the arrays are immutable."""
    for make in (lambda a: to_native(a), lambda a: ivy.variable(to_native(a))):
        x = make(np.zeros((2, 2)))
        was_variable = ivy.is_variable(x, exclusive=True)
        try:
            out = ivy.inplace_update(x, to_native(np.array([1.0, 2.0])))
        except TypeError as e:
            assert "immutable" in str(e), e
            continue
        expect_is(out, x, "ivy.inplace_update: out")
        np.testing.assert_array_equal(to_numpy(x), [[1.0, 2.0], [1.0, 2.0]])
        expect_is(ivy.inplace_update(x, 5), x, "ivy.inplace_update: ivy.inplace_update(x, 5)")
        np.testing.assert_array_equal(to_numpy(x), np.full((2, 2), 5.0))
        expect_is(
            ivy.inplace_update(x, to_native(np.array([1, 2], np.int64))),
            x,
            "ivy.inplace_update: ivy.inplace_update(x, to_native(np.array([1, 2], np.int64)))",
        )
        expect_dtype(x, "float64", "ivy.inplace_update")
        np.testing.assert_array_equal(to_numpy(x), [[1.0, 2.0], [1.0, 2.0]])
        expect_is(
            ivy.is_variable(x, exclusive=True), was_variable, "ivy.is_variable: ivy.is_variable(x, exclusive=True)"
        )


# ---------------------------------------------------------------------------- cumsum / cumprod


@covers("cumsum", "cumprod")
def test_fn_cumulative_dtypes(backend, xp, to_native, to_numpy):
    default_int = _default(xp, "integral")
    expect_dtype(ivy.cumsum(to_native(np.array([1, 2, 3], np.int8))), default_int, "ivy.cumsum")
    b = ivy.cumsum(to_native(np.array([True, True, False])))
    expect_dtype(b, default_int, "ivy.cumsum")
    np.testing.assert_array_equal(to_numpy(b), [1, 2, 2])
    f = ivy.cumsum(to_native(np.array([1, 2, 3], np.int32)), dtype="float64")
    expect_dtype(f, "float64", "ivy.cumsum")
    np.testing.assert_array_equal(to_numpy(f), [1.0, 3.0, 6.0])
    expect_dtype(ivy.cumsum(to_native(np.array([1.0, 2.0], np.float32))), "float32", "ivy.cumsum")
    expect_dtype(ivy.cumprod(to_native(np.ones(3, np.float32)), exclusive=True), "float32", "ivy.cumprod")
    if {"uint8", "uint64"} <= set(supported_dtypes(backend)):  # unsigned: the default unsigned dtype
        u = ivy.cumsum(to_native(np.array([1, 2], np.uint8)))
        expect_dtype(u, "uint64", "ivy.cumsum")
        np.testing.assert_array_equal(to_numpy(u), [1, 3])
        expect_dtype(ivy.cumprod(to_native(np.array([1, 2], np.uint8))), "uint64", "ivy.cumprod")
    if "complex128" in supported_dtypes(backend):
        np.testing.assert_array_equal(to_numpy(ivy.cumprod(to_native(np.array([1j, 2.0])))), [1j, 2j])


@covers("cumsum")
def test_fn_cumsum_exclusive_of_short_and_empty_axes(to_native, to_numpy):
    np.testing.assert_array_equal(to_numpy(ivy.cumsum(to_native(np.array([1.0, 2.0])), exclusive=True)), [0.0, 1.0])
    empty = ivy.cumsum(to_native(np.zeros((0, 2))), exclusive=True)
    expect_shape(empty, (0, 2), "ivy.cumsum")


# ---------------------------------------------------------------------------- pad

PAD_MODES = ["constant", "reflect", "symmetric", "edge", "wrap"]


@covers("pad")
@pytest.mark.parametrize("mode", PAD_MODES)
@pytest.mark.parametrize(
    "width", [1, (1, 2), ((0, 1), (2, 0)), ((5, 4), (6, 7)), ((3, 1), (5, 4))], ids=lambda w: str(w).replace(" ", "")
)
def test_fn_pad_width_forms_and_paddings_longer_than_the_axis(to_native, to_numpy, mode, width):
    a = np.arange(12.0).reshape(3, 4)
    np_width = width if not isinstance(width, tuple) or isinstance(width[0], tuple) else [width] * 2
    kw = {"value": 7.0} if mode == "constant" else {}
    want = np.pad(a, np_width, mode=mode, **({"constant_values": 7.0} if mode == "constant" else {}))
    np.testing.assert_array_equal(to_numpy(ivy.pad(to_native(a), width, mode=mode, **kw)), want)


@covers("pad")
def test_fn_pad_examples_dtypes_and_errors(to_native, to_numpy):
    v = to_native(np.array([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(to_numpy(ivy.pad(v, 2, mode="reflect")), [3, 2, 1, 2, 3, 2, 1])  # the spec's
    np.testing.assert_array_equal(to_numpy(ivy.pad(v, 2, mode="symmetric")), [2, 1, 1, 2, 3, 3, 2])
    b = ivy.pad(to_native(np.array([[True]])), 1)
    expect_dtype(b, "bool", "ivy.pad")
    expect_shape(b, (3, 3), "ivy.pad")
    expect(to_numpy(b).sum(), 1, "ivy.pad: to_numpy(b).sum()")
    ints = ivy.pad(to_native(np.array([1, 2], np.int32)), (2, 1), value=-1)
    expect_dtype(ints, "int32", "ivy.pad")
    np.testing.assert_array_equal(to_numpy(ints), [-1, -1, 1, 2, -1])
    u8 = ivy.pad(to_native(np.array([1, 2], np.uint8)), 1, value=9)
    expect_dtype(u8, "uint8", "ivy.pad")
    np.testing.assert_array_equal(to_numpy(u8), [9, 1, 2, 9])
    a3 = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)
    np.testing.assert_array_equal(
        to_numpy(ivy.pad(to_native(a3), ((1, 0), (0, 2), (3, 1)))), np.pad(a3, ((1, 0), (0, 2), (3, 1)))
    )
    a = to_native(np.arange(12.0).reshape(3, 4))
    with pytest.raises(ValueError):
        ivy.pad(a, ((1, 1),))  # one pair per axis, or one pair for all: not one pair for a 2-D array
    with pytest.raises(ValueError):
        ivy.pad(a, 1, mode="linear_ramp")
    with pytest.raises(ValueError):
        ivy.pad(a, ((1, -1), (0, 0)))
    with pytest.raises(ValueError):
        ivy.pad(to_native(np.zeros((0, 2))), 1, mode="reflect")  # nothing to mirror


# ---------------------------------------------------------------------------- top_k, split, flatten, cast


@covers("top_k")
@pytest.mark.parametrize(
    "shape,k",
    [((4, 5), 3), ((3, 50), 7), ((2, 40), 40), ((2, 40), 0), ((60,), 1)],
    ids=lambda v: str(v).replace(" ", ""),
)
def test_fn_top_k_sizes_and_unsorted(xp, to_native, to_numpy, shape, k):
    a = np.random.default_rng(36).permutation(math.prod(shape)).reshape(shape).astype(np.float64)
    x = to_native(a)
    for largest in (True, False):
        srt = np.sort(a, axis=-1)
        want = srt[..., ::-1][..., :k] if largest else srt[..., :k]
        v, i = ivy.top_k(x, k, largest=largest)
        expect_dtype(i, _default(xp, "integral"), "ivy.top_k")
        expect_shape(v, want.shape, "ivy.top_k")
        np.testing.assert_array_equal(to_numpy(v), want)
        np.testing.assert_array_equal(np.take_along_axis(a, to_numpy(i), -1), want)
        vu, iu = ivy.top_k(x, k, largest=largest, sorted=False)  # any order: the same set
        np.testing.assert_array_equal(np.sort(to_numpy(vu), -1), np.sort(want, -1))
        np.testing.assert_array_equal(np.take_along_axis(a, to_numpy(iu), -1), to_numpy(vu))


@covers("top_k")
def test_fn_top_k_along_axis_0_and_of_integers(backend, to_native, to_numpy):
    a = np.random.default_rng(37).permutation(20).reshape(4, 5).astype(np.float64)
    v, i = ivy.top_k(to_native(a), 2, axis=0, largest=False)
    np.testing.assert_array_equal(to_numpy(v), np.sort(a, axis=0)[:2])
    np.testing.assert_array_equal(np.take_along_axis(a, to_numpy(i), 0), np.sort(a, axis=0)[:2])
    for dt in ("int8", "uint8", "int64", "uint64"):
        if dt in supported_dtypes(backend):
            iv, _ = ivy.top_k(to_native(np.array([[0, 127, 5, 3]], dt)), 2, largest=False)
            expect_dtype(iv, dt, "ivy.top_k")
            np.testing.assert_array_equal(to_numpy(iv), [[0, 3]])
            top, _ = ivy.top_k(to_native(np.array([[3, 1, 2]], dt)), 2)
            np.testing.assert_array_equal(to_numpy(top), [[3, 2]])
    iv, _ = ivy.top_k(to_native(a.astype(np.int64)), 2, axis=0, largest=False)
    np.testing.assert_array_equal(to_numpy(iv), np.sort(a, axis=0)[:2])
    lo, _ = ivy.top_k(to_native(np.array([[-128, 127, 5]], np.int8)), 1, largest=False)  # no overflow
    np.testing.assert_array_equal(to_numpy(lo), [[-128]])


@covers("split", "flatten", "cast")
def test_fn_split_flatten_and_cast_details(to_native, to_numpy):
    a = to_native(np.arange(20.0).reshape(4, 5))
    pieces = ivy.split(a)  # None: pieces of size one along the axis
    expect(len(pieces), 4, "ivy.split: len(pieces)")
    assert all(shape_of(p) == (1, 5) for p in pieces), (
        "ivy.split: expected all((shape_of(p) == (1, 5) for p in pieces))"
    )
    expect(
        [shape_of(p)[1] for p in ivy.split(a, [1, 4], axis=1)],
        [1, 4],
        "ivy.split: [shape_of(p)[1] for p in ivy.split(a, [1, 4], axis=1)]",
    )
    expect(
        [shape_of(p)[1] for p in ivy.split(a, [0, 5], axis=1)],
        [0, 5],
        "ivy.split: [shape_of(p)[1] for p in ivy.split(a, [0, 5], axis=1)]",
    )
    np.testing.assert_array_equal(
        np.concatenate([to_numpy(p) for p in ivy.split(a, 5, axis=1)], 1), np.arange(20.0).reshape(4, 5)
    )
    expect(
        [shape_of(p)[0] for p in ivy.split(to_native(np.arange(7.0)), 3, with_remainder=True)],
        [2, 2, 2, 1],
        "ivy.split: [shape_of(p)[0] for p in ivy.split(to_native(np.arange(7.0)), 3, with_remainder=True)]",
    )
    with pytest.raises(ValueError):
        ivy.split(to_native(np.arange(7.0)), [3, 3])  # sizes not summing to the axis
    b = np.arange(24.0).reshape(2, 3, 4)
    x = to_native(b)
    np.testing.assert_array_equal(to_numpy(ivy.flatten(x, start_dim=0, end_dim=1)), b.reshape(6, 4))
    expect_shape(ivy.flatten(x, start_dim=1), (2, 12), "ivy.flatten")
    expect_shape(ivy.flatten(to_native(np.asarray(3.0))), (1,), "ivy.flatten")
    with pytest.raises(ValueError):
        ivy.flatten(x, start_dim=2, end_dim=0)
    c = ivy.cast(x, "int32")
    expect_dtype(c, "int32", "ivy.cast")
    np.testing.assert_array_equal(to_numpy(c), b.astype(np.int32))
    with pytest.raises(TypeError):
        ivy.cast(to_native(np.array([1j], np.complex64)), "float32")


@covers("clip_matrix_norm")
def test_fn_clip_matrix_norm_frobenius(to_native, to_numpy):
    a = np.array([[3.0, 4.0], [0.0, 1.0]])
    np.testing.assert_allclose(
        to_numpy(ivy.clip_matrix_norm(to_native(a), 1.0, p="fro")), a / np.linalg.norm(a), rtol=1e-12
    )


# ---------------------------------------------------------------------------- structured control flow


@covers("while_loop")
@pytest.mark.parametrize("start", [0.3, 7.0, 40.0])  # several steps, one, none
def test_fn_while_loop_steps_until_the_condition_fails(to_native, to_numpy, start):
    x0 = np.array([start, 2.0 * start], np.float32)
    x, n = x0.copy(), np.zeros((), np.int32)  # the reference: a Python loop on NumPy
    while x.sum() < 30.0:
        x, n = x * np.float32(1.5) + np.float32(1.0), n + 1
    got = ivy.while_loop(
        lambda v, k: ivy.less(ivy.sum(v), 30.0),
        lambda v, k: (ivy.add(ivy.multiply(v, 1.5), 1.0), ivy.add(k, 1)),
        [to_native(x0), to_native(np.zeros((), np.int32))],
    )
    expect(len(got), 2, "ivy.while_loop: number of loop variables returned")
    np.testing.assert_allclose(to_numpy(got[0]), x, rtol=1e-6)
    expect(int(to_numpy(got[1])), int(n), "ivy.while_loop: step count")


@covers("while_loop")
def test_fn_while_loop_refuses_a_body_that_changes_a_shape(to_native):
    with pytest.raises(ValueError):
        ivy.while_loop(
            lambda v: ivy.less(ivy.sum(v), 10.0),
            lambda v: ivy.concat([v, v]),
            [to_native(np.ones(2, np.float32))],
        )


@covers("cond")
@pytest.mark.parametrize("pred", [True, False])
def test_fn_cond_takes_the_branch_the_data_chooses(to_native, to_numpy, pred):
    a, b = np.array([1.0, -2.0], np.float32), np.array([0.5, 4.0], np.float32)
    got = ivy.cond(
        to_native(np.array(pred)),
        lambda x, y: ivy.add(x, y),
        lambda x, y: ivy.multiply(x, y),
        [to_native(a), to_native(b)],
    )
    np.testing.assert_allclose(to_numpy(got), a + b if pred else a * b, rtol=1e-6)


def _scan_reference(c0, k0, xs_a, xs_b, reverse):
    """``scan``'s reference: a Python loop over NumPy rows."""
    c, k, ys_s, ys_p = c0.copy(), k0, {}, {}
    for i in reversed(range(len(xs_a))) if reverse else range(len(xs_a)):
        c, k = c * xs_b[i] + xs_a[i], k + 1
        ys_s[i], ys_p[i] = np.sum(c), c * 2.0
    n = len(xs_a)
    return c, k, np.array([ys_s[i] for i in range(n)]), np.array([ys_p[i] for i in range(n)]).reshape(n, *c0.shape)


def _scan_step(carry, x):
    c, k = carry
    c = ivy.add(ivy.multiply(c, x["b"]), x["a"])
    return (c, ivy.add(k, 1)), (ivy.sum(c), ivy.multiply(c, 2.0))


@covers("scan")
@pytest.mark.parametrize("reverse", [False, True])
def test_fn_scan_carries_and_stacks_like_a_loop(to_native, to_numpy, reverse):
    r = np.random.default_rng(40)
    c0, xa, xb = r.normal(size=3), r.normal(size=(4, 3)), r.uniform(0.5, 1.5, (4, 1))
    (c, k), (ys_s, ys_p) = ivy.scan(
        _scan_step,
        (to_native(c0), to_native(np.zeros((), np.int32))),
        {"a": to_native(xa), "b": to_native(xb)},
        reverse=reverse,
    )
    want_c, want_k, want_s, want_p = _scan_reference(c0, 0, xa, xb, reverse)
    np.testing.assert_allclose(to_numpy(c), want_c, rtol=1e-10)
    expect(int(to_numpy(k)), want_k, "ivy.scan: the carried step count")
    expect_shape(ys_s, (4,), "ivy.scan: ys of a scalar y")
    np.testing.assert_allclose(to_numpy(ys_s), want_s, rtol=1e-10)
    np.testing.assert_allclose(to_numpy(ys_p), want_p, rtol=1e-10)


@covers("scan")
def test_fn_scan_without_xs_runs_length_steps(to_native, to_numpy):
    x0 = np.array([0.5, -1.0])
    c, ys = ivy.scan(lambda c, x: (ivy.add(ivy.multiply(c, c), 0.25), None), to_native(x0), None, length=3)
    want = x0
    for _ in range(3):
        want = want * want + 0.25
    np.testing.assert_allclose(to_numpy(c), want, rtol=1e-12)
    expect_is(ys, None, "ivy.scan: ys where f returns y = None")


@covers("scan")
def test_fn_scan_of_no_step_returns_init_and_empty_ys(to_native, to_numpy):
    c0 = np.array([1.0, 2.0])
    c, ys = ivy.scan(lambda c, x: (ivy.add(c, x), ivy.sum(x)), to_native(c0), to_native(np.zeros((0, 2))))
    np.testing.assert_allclose(to_numpy(c), c0)
    expect_shape(ys, (0,), "ivy.scan: ys of no step")


@covers("scan")
def test_fn_scan_refuses_bad_input(to_native):
    x, xs = to_native(np.ones(2)), to_native(np.ones((3, 2)))
    with pytest.raises(ValueError, match="length"):
        ivy.scan(lambda c, x: (c, c), x, None)
    with pytest.raises(ValueError, match="first dimension"):
        ivy.scan(lambda c, x: (c, c), x, (xs, to_native(np.ones((4, 2)))))
    with pytest.raises(ValueError, match="length"):
        ivy.scan(lambda c, x: (c, c), x, xs, length=5)
    with pytest.raises(ValueError, match="shape"):
        ivy.scan(lambda c, x: (ivy.concat([c, c]), x), x, xs)
    with pytest.raises(TypeError, match="pair"):
        ivy.scan(lambda c, x: c, x, xs)


@covers("scan")
@pytest.mark.parametrize("reverse", [False, True])
def test_fn_scan_gradient_matches_finite_differences(autodiff, to_native, to_numpy, reverse):
    r = np.random.default_rng(41)
    c0, xa, xb = r.normal(size=3), r.normal(size=(4, 3)), r.uniform(0.5, 1.5, (4, 1))
    w = r.normal(size=(4, 3))

    def loss_np(ls):
        c, _, ys_s, ys_p = _scan_reference(ls[0], 0, ls[1], xb, reverse)
        return float(np.sum(np.sin(c)) + np.sum(ys_s**2) + np.sum(ys_p * w))

    def loss(ls):
        (c, _), (ys_s, ys_p) = ivy.scan(
            _scan_step,
            (ls[0], to_native(np.zeros((), np.int32))),
            {"a": ls[1], "b": to_native(xb)},
            reverse=reverse,
        )
        return ivy.add(
            ivy.add(ivy.sum(ivy.sin(c)), ivy.sum(ivy.multiply(ys_s, ys_s))), ivy.sum(ivy.multiply(ys_p, to_native(w)))
        )

    _, g, _ = ivy.value_and_grad_flat(loss, [to_native(c0), to_native(xa)])
    want = fd_grad(loss_np, [c0, xa])
    np.testing.assert_allclose(to_numpy(g[0]), want[0], rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(to_numpy(g[1]), want[1], rtol=1e-6, atol=1e-7)
