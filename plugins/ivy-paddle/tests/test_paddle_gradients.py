"""The paddle backend's fused Adam kernel (``adam_update_flat``, what ``ivy.adam_update`` uses):
each of its ways (paddle's multi-tensor and one-leaf fused kernels, and public ops where this
paddle lacks them as expected) against ``paddle.optimizer.Adam`` and the paper's formula in NumPy; pure; declining
what it must not fuse. And the gradient transforms under ``paddle.no_grad()``, which must
differentiate as they do outside it (as ``torch.func.grad`` does), against the derivatives in
NumPy. tensorflow is never imported here (paddle segfaults after it).

    PYTHONPATH=ivy_core/src python -m pytest plugins/ivy-paddle/tests/test_paddle_gradients.py -q
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

R = np.random.default_rng(5)
SHAPES = [(4, 3), (3,), (2, 2, 2)]


def t(a, dtype="float64"):
    return paddle.to_tensor(np.array(a, dtype=dtype))


def close(got, want, tol):
    np.testing.assert_allclose(got.numpy() if isinstance(got, paddle.Tensor) else got, want, rtol=tol, atol=tol)


def _np_adam(w, g, m, v, step, lr, b1, b2, eps):
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g * g
    return w - lr * (m / (1 - b1**step)) / (np.sqrt(v / (1 - b2**step)) + eps), m, v


@pytest.fixture(params=["multi-tensor kernel", "paddle kernel", "public ops"])
def way(request, monkeypatch):
    """Runs a test with paddle's multi-tensor Adam kernel, with its one-leaf kernel, then with
    the public-ops fallback."""
    monkeypatch.setattr(pg, "_C_MERGED", [None if request.param == "multi-tensor kernel" else False])
    monkeypatch.setattr(pg, "_C_ADAM", [None if request.param == "paddle kernel" else False])
    yield request.param
    if request.param == "multi-tensor kernel":
        assert pg._C_MERGED == [True], "paddle's multi-tensor Adam kernel was not used"
    if request.param == "paddle kernel":
        assert pg._C_ADAM == [True], "paddle's fused Adam kernel was not used"


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_paddle_adam_kernel_matches_the_paper(way, dtype):
    lr, b1, b2, eps = 0.03, 0.8, 0.95, 1e-6
    w = [R.normal(size=s) for s in SHAPES]
    ws = [t(a, dtype) for a in w]
    m = [np.zeros(s) for s in SHAPES]
    v = [np.zeros(s) for s in SHAPES]
    ms, vs = [t(a, dtype) for a in m], [t(a, dtype) for a in v]
    ref = [(a.astype(dtype).astype("float64"), mm, vv) for a, mm, vv in zip(w, m, v)]
    for step in range(1, 4):
        g = [R.normal(size=s).astype(dtype).astype("float64") for s in SHAPES]
        out = pg.adam_update_flat(
            ws, [t(a, dtype) for a in g], ms, vs, lr, float(step), beta1=b1, beta2=b2, epsilon=eps
        )
        assert all(o is not None for o in out)
        ws, ms, vs = (list(x) for x in zip(*out))
        ref = [_np_adam(rw, gi, rm, rv, step, lr, b1, b2, eps) for (rw, rm, rv), gi in zip(ref, g)]
    tol = 2e-6 if dtype == "float32" else 1e-12
    for (nw, nm, nv), (rw, rm, rv) in zip(zip(ws, ms, vs), ref):
        assert nw.dtype == getattr(paddle, dtype) and nw.stop_gradient
        close(nw, rw, tol)
        close(nm, rm, tol)
        close(nv, rv, tol)


def test_paddle_adam_kernel_matches_paddle_optimizer_adam(way):
    lr, eps = 0.01, 1e-7
    w0 = [R.normal(size=s).astype("float32") for s in SHAPES]
    params = [paddle.create_parameter(list(s), "float32") for s in SHAPES]
    for p, a in zip(params, w0):
        p.set_value(a)
    opt = paddle.optimizer.Adam(learning_rate=lr, epsilon=eps, parameters=params)
    ws = [t(a, "float32") for a in w0]
    ms = [paddle.zeros(list(s)) for s in SHAPES]
    vs = [paddle.zeros(list(s)) for s in SHAPES]
    for step in range(1, 4):
        g = [R.normal(size=s).astype("float32") for s in SHAPES]
        loss = sum(paddle.sum(p * t(gi, "float32")) for p, gi in zip(params, g))  # d loss / d p = g
        loss.backward()
        opt.step()
        opt.clear_grad()
        out = pg.adam_update_flat(
            ws, [t(gi, "float32") for gi in g], ms, vs, lr, float(step), beta1=0.9, beta2=0.999, epsilon=eps
        )
        ws, ms, vs = (list(x) for x in zip(*out))
    for w, p in zip(ws, params):
        close(w, p.numpy(), 1e-6)


def _kernel_case():
    """Weights, gradients and moments per leaf of SHAPES: as NumPy arrays, and as tensors."""
    w, g, m, v = ([R.normal(size=s) for s in SHAPES] for _ in range(4))
    v = [a * a for a in v]
    return (w, g, m, v), tuple([t(a) for a in x] for x in (w, g, m, v))


def _check_step_4(out, w, g, m, v):
    """The kernel's step 4 (lr 0.01, default betas) against the paper's formula, per leaf."""
    for i, (nw, nm, nv) in enumerate(out):
        want = _np_adam(w[i], g[i], m[i], v[i], 4, 0.01, 0.9, 0.999, 1e-7)
        close(nw, want[0], 1e-12)
        close(nm, want[1], 1e-12)
        close(nv, want[2], 1e-12)


def test_paddle_adam_kernel_is_pure(way):
    (w, g, m, v), (tw, tg, tm, tv) = _kernel_case()
    tw[0].stop_gradient = False  # a variable: its new value is cut from the graph
    out = pg.adam_update_flat(tw, tg, tm, tv, 0.01, 4.0, beta1=0.9, beta2=0.999, epsilon=1e-7)
    _check_step_4(out, w, g, m, v)
    for nw, _, _ in out:
        assert nw.stop_gradient
    for given, old in ((tw, w), (tg, g), (tm, m), (tv, v)):
        for a, b in zip(given, old):
            close(a, b, 0)  # the inputs hold their values
    assert not tw[0].stop_gradient


def test_paddle_adam_kernel_writes_owned_moments_in_place(way):
    (w, g, m, v), (tw, tg, tm, tv) = _kernel_case()
    out = pg.adam_update_flat(tw, tg, tm, tv, 0.01, 4.0, beta1=0.9, beta2=0.999, epsilon=1e-7, owned_moments=True)
    _check_step_4(out, w, g, m, v)
    for i in range(len(out)):
        close(tw[i], w[i], 0)  # w and g are never written
        close(tg[i], g[i], 0)
    if way != "public ops":  # paddle's kernels: the moments given are the ones updated
        assert all(nm is a for (_, nm, _), a in zip(out, tm))
        close(tm[0], _np_adam(w[0], g[0], m[0], v[0], 4, 0.01, 0.9, 0.999, 1e-7)[1], 1e-12)


def test_paddle_adam_kernel_declines_what_it_must_not_fuse():
    f64, f32 = t(np.ones(3)), t(np.ones(3), "float32")
    tracked = t(np.ones(3))
    tracked.stop_gradient = False
    mat, ints = t(np.ones((2, 3))), t([1, 2, 3], "int64")
    cases = [
        (f64, f32, f64, f64),  # mixed dtypes: the generic formula promotes
        (mat, f64, mat, mat),  # broadcasting
        (f64, tracked, f64, f64),  # gradients that track gradients: the moments keep that history
        (f64, f64, f64, tracked),
        (ints, ints, ints, ints),  # integers
        (f64, 1.0, f64, f64),  # not a tensor
    ]
    for w, g, m, v in cases:
        assert pg.adam_update_flat([w], [g], [m], [v], 0.1, 1.0, beta1=0.9, beta2=0.999, epsilon=1e-7) == [None]


def test_paddle_ivy_adam_update_is_the_papers(way):
    w = {"a": R.normal(size=(3, 2)), "b": R.normal(size=4)}
    g = {"a": R.normal(size=(3, 2)), "b": R.normal(size=4)}
    z = {k: np.zeros_like(a) for k, a in w.items()}
    new_w, new_m, new_v = ivy.adam_update(
        {k: t(a) for k, a in w.items()},
        {k: t(a) for k, a in g.items()},
        0.05,
        {k: t(a) for k, a in z.items()},
        {k: t(a) for k, a in z.items()},
        2,
    )
    for k in w:
        want = _np_adam(w[k], g[k], 0.0, 0.0, 2, 0.05, 0.9, 0.999, 1e-7)
        close(new_w[k], want[0], 1e-12)
        close(new_m[k], want[1], 1e-12)
        close(new_v[k], want[2], 1e-12)


# ------------------------------------------------------------------ transforms under no_grad

A_NP = R.normal(size=(3,))
M_NP = R.normal(size=(2, 3))


def test_paddle_transforms_differentiate_under_no_grad():
    # f(a) = sum(sin(M a)): gradient M^T cos(M a), Jacobian of sin(M a): diag(cos(M a)) M
    cos = np.cos(M_NP @ A_NP)
    m = t(M_NP)
    with paddle.no_grad():
        y, g = ivy.execute_with_gradients(lambda a: ivy.sum(ivy.sin(ivy.matmul(m, a))), t(A_NP))
        close(y, np.sin(M_NP @ A_NP).sum(), 1e-12)
        close(g, M_NP.T @ cos, 1e-12)
        out, pullback = ivy.vjp(lambda a: ivy.sin(ivy.matmul(m, a)), t(A_NP))
        (ga,) = pullback(t([1.0, -2.0]))
        close(ga, M_NP.T @ (cos * np.array([1.0, -2.0])), 1e-12)
        _, tangent = ivy.jvp(lambda a: ivy.sin(ivy.matmul(m, a)), (t(A_NP),), (t([1.0, 0.5, -1.0]),))
        close(tangent, cos * (M_NP @ np.array([1.0, 0.5, -1.0])), 1e-12)
        close(ivy.jacobian(lambda a: ivy.sin(ivy.matmul(m, a)), t(A_NP)), cos[:, None] * M_NP, 1e-12)
    assert paddle.is_grad_enabled()
