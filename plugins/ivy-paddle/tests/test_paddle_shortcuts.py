"""The paddle backend's shortcuts past paddle's Python layers (its C ops called directly, cached
causal masks, the top-level gradient's own C call, shared Adam scalars) against NumPy, on the
cases each shortcut takes and on the ones it hands back to the general code.

    python -m pytest plugins/ivy-paddle/tests/test_paddle_shortcuts.py --backend paddle -q
"""

from __future__ import annotations

import numpy as np
import pytest

ivy = pytest.importorskip("ivy")
if "tensorflow" in __import__("sys").modules:  # pragma: no cover - paddle would crash
    pytest.skip("tensorflow is loaded in this process; paddle cannot be", allow_module_level=True)

ivy.backend_namespace("paddle")  # imports paddle quietly, loads the backend
import paddle

from ivy_paddle import gradients as pg

R = np.random.default_rng(11)


def t(a, dtype=None):
    a = np.asarray(a)
    return paddle.to_tensor(a if dtype is None else a.astype(dtype))


def _np_log_softmax(x, axis):
    s = x - x.max(axis, keepdims=True)
    return s - np.log(np.exp(s).sum(axis, keepdims=True))


def _np_causal_attention(q, k, v):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    lq, lk = s.shape[-2:]
    s = np.where(np.tril(np.ones((lq, lk), bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    return (p / p.sum(-1, keepdims=True)) @ v


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("lq,lk", [(5, 5), (3, 6), (5, 5)])  # (5, 5) twice: the cached mask
def test_paddle_causal_attention_follows_numpy(dtype, lq, lk):
    q, k, v = (R.normal(size=(2, 3, n, 4)) for n in (lq, lk, lk))
    got = ivy.scaled_dot_product_attention(t(q, dtype), t(k, dtype), t(v, dtype), is_causal=True)
    assert got.dtype == getattr(paddle, dtype) and tuple(got.shape) == (2, 3, lq, 4)
    tol = 1e-5 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(got.numpy(), _np_causal_attention(q, k, v), rtol=tol, atol=tol)


def test_paddle_causal_attention_with_a_bool_mask_and_gradients():
    q, k, v = (R.normal(size=(2, 4, 3)) for _ in range(3))
    keep = R.random((4, 4)) > 0.3
    np.fill_diagonal(keep, True)  # every query keeps a key (causal keeps the diagonal too)

    def f(q, k, v):
        return ivy.sum(ivy.scaled_dot_product_attention(q, k, v, mask=t(keep), is_causal=True) ** 2)

    def ref(q, k, v):
        s = q @ np.swapaxes(k, -1, -2) / np.sqrt(3)
        s = np.where(np.tril(np.ones((4, 4), bool)) & keep, s, -np.inf)
        p = np.exp(s - s.max(-1, keepdims=True))
        return float((((p / p.sum(-1, keepdims=True)) @ v) ** 2).sum())

    np.testing.assert_allclose(f(t(q), t(k), t(v)).numpy(), ref(q, k, v), rtol=1e-12)
    grads = ivy.grad(f, argnums=(0, 1, 2))(t(q), t(k), t(v))
    for i, g in enumerate(grads):
        args, num = [q, k, v], np.zeros_like([q, k, v][i])
        for idx in np.ndindex(num.shape):
            hi, lo = [a.copy() for a in args], [a.copy() for a in args]
            hi[i][idx] += 1e-6
            lo[i][idx] -= 1e-6
            num[idx] = (ref(*hi) - ref(*lo)) / 2e-6
        np.testing.assert_allclose(g.numpy(), num, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("axis", [-1, 1])
def test_paddle_log_softmax_values_and_derivatives(axis):
    x = R.normal(size=(2, 5, 3)) * 3
    got = ivy.log_softmax(t(x), axis=axis)
    np.testing.assert_allclose(got.numpy(), _np_log_softmax(x, axis), rtol=1e-12, atol=1e-12)
    wide = ivy.log_softmax(t(np.array([[0.0, 1e4, -3.0]], np.float32)))
    np.testing.assert_array_equal(wide.numpy(), [[-1e4, 0.0, -1e4 - 3.0]])
    for shape in ((0, 3), (2, 0)):  # empty batch, empty class axis
        assert tuple(ivy.log_softmax(t(np.zeros(shape, np.float32))).shape) == shape
    # first and second derivatives of a weighted sum, against central differences in float64
    c = R.normal(size=x.shape)

    def f(x):
        return ivy.sum(ivy.log_softmax(x, axis=axis) * t(c))

    g = ivy.grad(f)(t(x)).numpy()
    p = np.exp(_np_log_softmax(x, axis))
    np.testing.assert_allclose(g, c - p * c.sum(axis, keepdims=True), rtol=1e-10, atol=1e-12)
    u = R.normal(size=x.shape)
    hu = ivy.grad(lambda x: ivy.sum(ivy.grad(f)(x) * t(u)))(t(x)).numpy()

    def g_np(x):
        p = np.exp(_np_log_softmax(x, axis))
        return c - p * c.sum(axis, keepdims=True)

    num = (g_np(x + 1e-6 * u) - g_np(x - 1e-6 * u)) / 2e-6  # H u (H symmetric)
    np.testing.assert_allclose(hu, num, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("idx_shape", [(3, 4, 1), (3, 1, 2)])  # the second one broadcasts
def test_paddle_take_along_axis_follows_numpy(idx_shape):
    x = R.normal(size=(3, 4, 5))
    idx = R.integers(0, 5, idx_shape)
    got = ivy.take_along_axis(t(x), t(idx), axis=-1)
    want = np.take_along_axis(x, np.broadcast_to(idx, (3, 4, idx_shape[-1])), -1)
    np.testing.assert_array_equal(got.numpy(), want)
    g = ivy.grad(lambda a: ivy.sum(ivy.take_along_axis(a, t(idx), axis=-1)))(t(x)).numpy()
    want_g = np.zeros_like(x)
    np.put_along_axis(want_g, np.broadcast_to(idx, (3, 4, idx_shape[-1])), 0.0, -1)
    for i, j in np.ndindex(3, 4):  # each pick adds one
        for c in np.broadcast_to(idx, (3, 4, idx_shape[-1]))[i, j]:
            want_g[i, j, c] += 1
    np.testing.assert_array_equal(g, want_g)


@pytest.mark.parametrize("kernel", ["_C_MERGED", "_C_ADAM"])
def test_paddle_adam_shares_its_scalars_per_dtype_only(kernel, monkeypatch):
    lr, step, b1, b2, eps = 0.01, 3.0, 0.9, 0.99, 1e-7
    dts = ["float32", "float64", "float32", "float64"]
    shapes = [(3, 2), (4,), (2,), (2, 2)]
    w, g, m = ([R.normal(size=s) for s in shapes] for _ in range(3))
    v = [np.abs(R.normal(size=s)) for s in shapes]
    monkeypatch.setattr(pg, "_C_MERGED", [None if kernel == "_C_MERGED" else False])  # (else: one leaf at a time)
    monkeypatch.setattr(pg, "_C_ADAM", [None])
    out = pg.adam_update_flat(
        *([t(a, d) for a, d in zip(arrs, dts)] for arrs in (w, g, m, v)), lr, step, beta1=b1, beta2=b2, epsilon=eps
    )
    assert getattr(pg, kernel) == [True]
    for (nw, nm, nv), a, b, c, d, dt in zip(out, w, g, m, v, dts):
        a, b, c, d = (np.asarray(z, dt).astype(np.float64) for z in (a, b, c, d))
        rm, rv = b1 * c + (1 - b1) * b, b2 * d + (1 - b2) * b * b
        rw = a - lr * (rm / (1 - b1**step)) / (np.sqrt(rv / (1 - b2**step)) + eps)
        tol = 2e-6 if dt == "float32" else 1e-12
        assert nw.dtype == getattr(paddle, dt)
        for got, want in ((nw, rw), (nm, rm), (nv, rv)):
            np.testing.assert_allclose(got.numpy(), want, rtol=tol, atol=tol)


def test_paddle_where_same_shapes_broadcasts_and_other_conditions():
    c, x, y = R.random((3, 4)) > 0.5, R.normal(size=(3, 4)), R.normal(size=(3, 4))
    for cond, a, b in ((c, x, y), (c, x, y[:1]), (c[:, :1], x, y), (c.astype(np.int32), x, y)):
        got = ivy.where(t(cond), t(a, "float32"), t(b, "float32"))
        np.testing.assert_array_equal(got.numpy(), np.where(cond.astype(bool), a, b).astype(np.float32))
    got = ivy.where(t(c), t(x, "int8"), t(y, "int8"))  # no int8 kernel: via int32
    assert got.dtype == paddle.int8
    np.testing.assert_array_equal(got.numpy(), np.where(c, x.astype(np.int8), y.astype(np.int8)))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_paddle_split_follows_numpy(axis):
    x = R.normal(size=(4, 6))
    for parts in (2, [1, 3] if x.shape[axis] == 4 else [1, 2, 3]):
        got = ivy.split(t(x), parts, axis=axis)
        want = np.split(x, parts if isinstance(parts, int) else np.cumsum(parts)[:-1], axis)
        assert isinstance(got, list) and len(got) == len(want)
        for a, b in zip(got, want):
            np.testing.assert_array_equal(a.numpy(), b)
    with pytest.raises(ValueError, match="does not divide"):
        ivy.split(t(x), 4, axis=1)


@pytest.mark.parametrize("dtype", ["float32", "int32", "int8", "bool"])
@pytest.mark.parametrize("indexing", ["ij", "xy"])
def test_paddle_meshgrid_follows_numpy(dtype, indexing):
    a, b, c = (R.integers(0, 2, n).astype(dtype) for n in (3, 4, 2))
    for arrays in ((a, b), (a, b, c)):
        got = ivy.meshgrid(*(t(z) for z in arrays), indexing=indexing)
        for g, w in zip(got, np.meshgrid(*arrays, indexing=indexing)):
            assert g.dtype == getattr(paddle, dtype) and tuple(g.shape) == w.shape
            np.testing.assert_array_equal(g.numpy(), w)


def test_paddle_broadcast_to_follows_numpy_and_rejects_bad_shapes():
    x = R.normal(size=(3, 1))
    np.testing.assert_array_equal(ivy.broadcast_to(t(x), (2, 3, 4)).numpy(), np.broadcast_to(x, (2, 3, 4)))
    for shape in ((3, 2, 4), (1,), (3, -1)):
        with pytest.raises(ValueError, match="cannot broadcast"):
            ivy.broadcast_to(t(x), shape)


def test_paddle_dev_and_top_level_gradients():
    assert ivy.dev(t([1.0])) == "cpu"
    x, w = R.normal(size=(4, 3)), R.normal(size=(3,))

    def loss(v):
        return ivy.sum(ivy.tanh(ivy.matmul(t(x), v["w"])) ** 2)

    value, grads = ivy.execute_with_gradients(loss, {"w": t(w), "unused": t([1.0, 2.0])})
    np.testing.assert_allclose(value.numpy(), (np.tanh(x @ w) ** 2).sum(), rtol=1e-12)
    h = np.tanh(x @ w)
    np.testing.assert_allclose(grads["w"].numpy(), x.T @ (2 * h * (1 - h * h)), rtol=1e-10)
    np.testing.assert_array_equal(grads["unused"].numpy(), [0.0, 0.0])
    assert value.stop_gradient and grads["w"].stop_gradient


def _emitted(fn, *args):
    return ivy.trace_graph(fn, args=args).to("paddle", compile=False)


def _specialised(program, op):
    return any(k.startswith(f"_k_{op}") for k in program.__globals__)


@pytest.mark.parametrize(
    "query, direct",
    [
        ((slice(None), 1), True),
        ((0, 1, 2), True),
        ((Ellipsis, slice(1, -1)), True),
        ((1, Ellipsis, 2), True),
        ((-1,), True),
        (slice(0, 1), True),
        ((slice(None, None, 2),), False),  # strides: the general call
        ((slice(3, 1),), False),  # an empty result: the general call
        ((None, 0), False),  # a new axis: the general call
    ],
)
def test_paddle_emitted_constant_slices_follow_numpy_with_gradients(query, direct):
    x = R.normal(size=(2, 3, 5, 7))
    program = _emitted(lambda a: ivy.get_item(a, query) * 2.0, t(x))
    assert _specialised(program, "get_item") is direct
    xt = t(x)
    xt.stop_gradient = False
    y = program(xt)
    np.testing.assert_array_equal(y.numpy(), x[query] * 2.0)
    y.sum().backward()
    want = np.zeros_like(x)
    want[query] = 2.0
    np.testing.assert_array_equal(xt.grad.numpy(), want)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64"])
@pytest.mark.parametrize("c", [0, 0.5, 1, 2.0, 1e-9, 1e-7, 150.0, -3])
def test_paddle_emitted_comparisons_with_a_number_are_exact(dtype, c):
    npdt = np.dtype(dtype)
    if npdt.kind == "i" and type(c) is not int:
        pytest.skip("an integer tensor against a float number promotes: the general call")
    cc = npdt.type(c)
    # the number, its neighbours in the dtype (paddle's own float equality takes them as equal
    # near zero), and the values that compare specially
    near = [np.nextafter(cc, npdt.type(-np.inf)), cc, np.nextafter(cc, npdt.type(np.inf))] if npdt.kind == "f" else []
    special = [0.0, -0.0, 1e-30, np.nan, np.inf, -np.inf] if npdt.kind == "f" else [0, -5, 7]
    x = np.array([*near, *special, 1, 2], dtype)
    for op, ref in (("equal", np.equal), ("not_equal", np.not_equal)):
        program = _emitted(lambda a, op=op: getattr(ivy, op)(a, c), t(x))
        assert _specialised(program, op)
        np.testing.assert_array_equal(program(t(x)).numpy(), ref(x, cc))


@pytest.mark.parametrize("k", [0, 2, -1, -3])
def test_paddle_emitted_index_by_a_0d_tensor_follows_numpy_and_checks_its_range(k):
    x = R.normal(size=(3, 4, 5))
    program = _emitted(lambda a, i: ivy.get_item(a, (i,)) + 1.0, t(x), t(0, "int64"))
    assert _specialised(program, "get_item")
    np.testing.assert_array_equal(program(t(x), t(k, "int64")).numpy(), x[k] + 1.0)
    with pytest.raises(IndexError):
        program(t(x), t(3, "int64"))


@pytest.mark.parametrize(
    "s1, s2, direct",
    [
        ((2, 8, 5, 6), (1, 8, 1, 1), True),  # a per-channel bias of the output's rank: leading ones dropped
        ((1, 3, 6, 7), (1, 1, 6, 7), True),
        ((3, 1, 6, 7), (3, 4, 6, 7), True),  # a one between larger axes: expanded (the first operand)
        ((2, 3, 4), (3, 4), False),  # already paddle's fast layout: the general call
        ((2, 3, 4), (2, 3, 1), False),
        ((2, 1, 4), (1, 3, 1), False),  # both broadcast: the general call
    ],
)
@pytest.mark.parametrize("op", ["add", "subtract", "multiply", "divide", "maximum", "atan2", "less_equal"])
def test_paddle_emitted_broadcasts_follow_numpy_with_gradients(s1, s2, direct, op):
    a, b = R.normal(size=s1), R.uniform(0.5, 2.0, size=s2)
    program = _emitted(lambda x, y: getattr(ivy, op)(x, y), t(a), t(b))
    assert _specialised(program, op) is direct
    ref = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide}
    ref.update(maximum=np.maximum, atan2=np.arctan2, less_equal=np.less_equal)
    ta, tb = t(a), t(b)
    got = program(ta, tb)
    np.testing.assert_allclose(got.numpy(), ref[op](a, b), rtol=1e-15, atol=0)
    if op in ("add", "multiply"):  # the gradients sum over the broadcast axes
        ta.stop_gradient = tb.stop_gradient = False
        program(ta, tb).sum().backward()
        full = np.broadcast_shapes(s1, s2)
        da = np.broadcast_to(b, full) if op == "multiply" else np.ones(full)
        db = np.broadcast_to(a, full) if op == "multiply" else np.ones(full)
        np.testing.assert_allclose(ta.grad.numpy(), _unbroadcast(da, s1), rtol=1e-12)
        np.testing.assert_allclose(tb.grad.numpy(), _unbroadcast(db, s2), rtol=1e-12)


def _unbroadcast(g, shape):
    g = g.sum(axis=tuple(range(g.ndim - len(shape))))
    return g.sum(axis=tuple(i for i, n in enumerate(shape) if n == 1), keepdims=True)


@pytest.mark.parametrize("c", [1.0, -2.5, 6, 0.5])
def test_paddle_emitted_remainder_by_a_number_follows_numpy(c):
    x = np.concatenate([R.normal(size=50) * 10, [0.0, -0.0, 2.5, -2.5, 6.0, -6.0, 1e-30, np.inf, np.nan]])
    divisors = np.concatenate([R.normal(size=50) * 10, [2.5, -2.5, 6.0, -6.0, 1e-30, np.inf, -np.inf]])
    for fn, a in ((lambda a: ivy.remainder(a, c), x), (lambda a: ivy.remainder(c, a), divisors)):
        program = _emitted(fn, t(a))
        assert _specialised(program, "remainder")
        with np.errstate(invalid="ignore"):
            want = np.remainder(a, c) if a is x else np.remainder(c, a)
        np.testing.assert_array_equal(program(t(a)).numpy(), want)


def test_paddle_emitted_pow_keeps_the_general_broadcast():
    # paddle rounds pow an ulp differently in its broadcasting and same-shape kernels: an emitted
    # program gives the general function's values bit for bit
    a = np.abs(R.normal(size=(2, 3, 3, 4))) * 3 + 0.5
    b = R.normal(size=(2, 1, 3, 1)) * 3
    for dtype in ("float32", "float64"):
        ta, tb = t(a, dtype), t(b, dtype)
        program = _emitted(lambda x, y: ivy.pow(x, y), ta, tb)
        np.testing.assert_array_equal(program(ta, tb).numpy(), ivy.pow(ta, tb).numpy())
