"""The torch backend's fast paths of the training step, against independent references:

* ``value_and_grad_flat`` at the top level runs plain ``torch.autograd`` (not torch.func): its
  gradients against ``torch.autograd.grad`` on a function written in torch and against central
  finite differences (NumPy), the caller's tensors untouched, and nesting in both directions
  (ivy transforms inside it, it inside torch.func and inside ordinary autograd);
* ``adam_update_flat``, the fused Adam kernel ``ivy.adam_update`` uses: against
  ``torch.optim.Adam`` and the paper's formula in NumPy, pure, and declining what it must not fuse.

    PYTHONPATH=ivy_core/src python -m pytest plugins/ivy-torch/tests/test_torch_gradients.py -q
"""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
ivy = pytest.importorskip("ivy")

ivy.backend_namespace("torch")  # loads the backend (and its gradients module)
from ivy_torch import gradients as tg

R = np.random.default_rng(7)


def t(a, dtype=torch.float64):
    return torch.tensor(np.asarray(a), dtype=dtype)  # a copy: never the NumPy array's memory


def npa(x):
    return x.detach().cpu().numpy()


def close(got, want, tol=1e-10):
    np.testing.assert_allclose(npa(got) if isinstance(got, torch.Tensor) else got, want, rtol=tol, atol=tol)


def fd_grad(f, x, h=1e-6):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = h
        g[i] = (f(x + e) - f(x - e)) / (2 * h)
    return g


# ===================================================================== value_and_grad_flat


def _f_t(ls):
    w, b = ls
    return torch.mean(torch.tanh(X @ w + b) ** 2)


X_NP = R.normal(size=(5, 3))
X = t(X_NP)
W_NP, B_NP = R.normal(size=(3, 2)), R.normal(size=2)


def _f_np(w, b):
    return np.mean(np.tanh(X_NP @ w + b) ** 2)


def test_top_level_gradients_match_autograd_and_finite_differences():
    w, b = t(W_NP), t(B_NP)
    value, (gw, gb), aux = ivy.value_and_grad_flat(_f_t, [w, b])
    assert aux is None
    ref_w, ref_b = w.clone().requires_grad_(), b.clone().requires_grad_()
    want = torch.autograd.grad(_f_t([ref_w, ref_b]), [ref_w, ref_b])
    close(value, _f_np(W_NP, B_NP))
    close(gw, npa(want[0]))
    close(gb, npa(want[1]))
    close(gw, fd_grad(lambda a: _f_np(a, B_NP), W_NP), 1e-7)
    close(gb, fd_grad(lambda a: _f_np(W_NP, a), B_NP), 1e-7)
    for r in (value, gw, gb):  # no link to any graph
        assert not r.requires_grad and r.grad_fn is None


def test_top_level_leaves_the_callers_tensors_as_they_were():
    leaf = t(W_NP).requires_grad_()  # a variable: a leaf that requires grad, no .grad yet
    plain = t(B_NP)
    _, grads, _ = ivy.value_and_grad_flat(_f_t, [leaf, plain])
    assert leaf.requires_grad and leaf.is_leaf and leaf.grad is None
    assert not plain.requires_grad and plain.grad is None
    close(leaf, W_NP)
    close(grads[1], fd_grad(lambda a: _f_np(W_NP, a), B_NP), 1e-7)  # a plain tensor is differentiated too


def test_top_level_under_no_grad_and_unused_inputs():
    unused = t(R.normal(size=(4,)))
    with torch.no_grad():  # as torch.func.grad, the transform differentiates regardless
        value, (gw, gb, gu), _ = ivy.value_and_grad_flat(lambda ls: _f_t(ls[:2]), [t(W_NP), t(B_NP), unused])
    close(gw, fd_grad(lambda a: _f_np(a, B_NP), W_NP), 1e-7)
    assert gu.shape == unused.shape and gu.dtype == unused.dtype
    close(gu, np.zeros(4), 0)
    # a function of no input at all: zero gradients, the value as it is
    value, (g,), _ = ivy.value_and_grad_flat(lambda ls: torch.tensor(2.5, dtype=torch.float64), [t(W_NP)])
    close(value, 2.5)
    close(g, np.zeros_like(W_NP), 0)


def test_top_level_aux_is_cut_from_the_graph():
    def f(ls):
        h = torch.tanh(X @ ls[0])
        return torch.sum(h), {"h": h, "tag": "x", "n": 2}

    value, (g,), aux = ivy.value_and_grad_flat(f, [t(W_NP)], has_aux=True)
    assert aux["tag"] == "x" and aux["n"] == 2
    assert not aux["h"].requires_grad and aux["h"].grad_fn is None
    close(aux["h"], np.tanh(X_NP @ W_NP))
    close(g, fd_grad(lambda a: np.sum(np.tanh(X_NP @ a)), W_NP), 1e-7)


def test_top_level_needs_a_scalar():
    with pytest.raises(ValueError, match="scalar"):
        ivy.value_and_grad_flat(lambda ls: ls[0] * 2, [t(W_NP)])


def test_transforms_nested_inside_the_top_level_one():
    # third derivative of sum(x^3 e^-x): the outer call runs autograd, the inner ones torch.func
    def f(x):
        return torch.sum(x**3 * torch.exp(-x))

    x0 = np.array([0.3, -1.2, 2.0])
    d3 = ivy.grad(lambda x: torch.sum(ivy.grad(lambda y: torch.sum(ivy.grad(f)(y)))(x)))(t(x0))
    want = (6 - 18 * x0 + 9 * x0**2 - x0**3) * np.exp(-x0)  # d^3/dx^3 of x^3 e^-x
    close(d3, want, 1e-9)
    # perturbation confusion: d/dx [d/dz (z x)]_{z=x} = d/dx x = 1
    g = ivy.grad(lambda x: torch.sum(ivy.grad(lambda z: torch.sum(z * x))(x)))(t([0.5, 2.0]))
    close(g, [1.0, 1.0])
    assert tg._AUTOGRAD_DEPTH == 0  # the counter is back at rest


def test_top_level_call_inside_torch_func_and_inside_autograd():
    def f(x):
        return torch.sum(torch.sin(x) * x)

    x0 = np.array([0.4, -0.7])
    d2 = np.diag(2 * np.cos(x0) - x0 * np.sin(x0))
    # inside torch.func: the torch.func path, differentiable by the outer transform
    close(torch.func.jacrev(ivy.grad(f))(t(x0)), d2)
    # a func that raises leaves the depth counter as it was
    with pytest.raises(RuntimeError, match="boom"):
        ivy.value_and_grad_flat(lambda ls: (_ for _ in ()).throw(RuntimeError("boom")), [t(x0)])
    assert tg._AUTOGRAD_DEPTH == 0


# ===================================================================== adam_update_flat


def _np_adam(w, g, m, v, t_, lr, b1, b2, eps):
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g * g
    return w - lr * (m / (1 - b1**t_)) / (np.sqrt(v / (1 - b2**t_)) + eps), m, v


SHAPES = [(4, 3), (3,), (2, 2, 2)]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_torch_adam_kernel_matches_torch_optim_adam(dtype):
    lr, b1, b2, eps = 0.03, 0.8, 0.95, 1e-6
    w0 = [R.normal(size=s) for s in SHAPES]
    grads = [[R.normal(size=s) for s in SHAPES] for _ in range(4)]
    params = [torch.nn.Parameter(t(a, dtype)) for a in w0]
    opt = torch.optim.Adam(params, lr=lr, betas=(b1, b2), eps=eps)
    ws = [t(a, dtype) for a in w0]
    ms = [torch.zeros(s, dtype=dtype) for s in SHAPES]
    vs = [torch.zeros(s, dtype=dtype) for s in SHAPES]
    for step, gl in enumerate(grads, start=1):
        for p, g in zip(params, gl):
            p.grad = t(g, dtype)
        opt.step()
        out = tg.adam_update_flat(
            ws, [t(g, dtype) for g in gl], ms, vs, lr, float(step), beta1=b1, beta2=b2, epsilon=eps
        )
        assert all(o is not None for o in out)
        ws, ms, vs = (list(x) for x in zip(*out))
    tol = 1e-6 if dtype == torch.float32 else 1e-12
    for w, m, v, p in zip(ws, ms, vs, params):
        assert w.dtype == dtype and not w.requires_grad
        close(w, npa(p), tol)
        close(m, npa(opt.state[p]["exp_avg"]), tol)
        close(v, npa(opt.state[p]["exp_avg_sq"]), tol)


def _kernel_case():
    """Weights, gradients and moments per leaf of SHAPES: as NumPy arrays, and as tensors."""
    w = [R.normal(size=s) for s in SHAPES]
    g = [R.normal(size=s) for s in SHAPES]
    m = [0.1 * R.normal(size=s) for s in SHAPES]
    v = [R.random(size=s) for s in SHAPES]
    return (w, g, m, v), tuple([t(a) for a in x] for x in (w, g, m, v))


def _check_step_5(out, w, g, m, v):
    """The kernel's step 5 (lr 0.01, default betas) against the paper's formula, per leaf."""
    for i, (nw, nm, nv) in enumerate(out):
        want = _np_adam(w[i], g[i], m[i], v[i], 5, 0.01, 0.9, 0.999, 1e-7)
        close(nw, want[0], 1e-12)
        close(nm, want[1], 1e-12)
        close(nv, want[2], 1e-12)


def test_torch_adam_kernel_is_pure_and_matches_the_paper():
    (w, g, m, v), (tw, tg_, tm, tv) = _kernel_case()
    tw[0].requires_grad_()  # a variable: its new value is cut from the graph
    out = tg.adam_update_flat(tw, tg_, tm, tv, 0.01, 5.0, beta1=0.9, beta2=0.999, epsilon=1e-7)
    _check_step_5(out, w, g, m, v)
    for nw, _, _ in out:
        assert not nw.requires_grad
    for given, old in ((tw, w), (tg_, g), (tm, m), (tv, v)):
        for a, b in zip(given, old):
            close(a, b, 0)  # the inputs hold their values
    assert tw[0].requires_grad and tw[0].is_leaf


def test_torch_adam_kernel_writes_owned_moments_in_place():
    (w, g, m, v), (tw, tg_, tm, tv) = _kernel_case()
    out = tg.adam_update_flat(tw, tg_, tm, tv, 0.01, 5.0, beta1=0.9, beta2=0.999, epsilon=1e-7, owned_moments=True)
    _check_step_5(out, w, g, m, v)
    for i, (nw, nm, nv) in enumerate(out):
        assert nm is tm[i] and nv is tv[i]  # the caller's moments, updated (as torch.optim.Adam's)
        assert nw is not tw[i]
        close(tw[i], w[i], 0)  # w and g are never written
        close(tg_[i], g[i], 0)


def test_torch_adam_kernel_with_owned_moments_is_torchs_fused_kernel_and_reads_strided_leaves_right():
    (w, g, m, v), (tw, tg_, tm, tv) = _kernel_case()
    tg.adam_update_flat(tw, tg_, tm, tv, 0.01, 5.0, beta1=0.9, beta2=0.999, epsilon=1e-7, owned_moments=True)
    assert tg._FUSED["cpu"] is True  # (torch._fused_adam_ ran: one call for the leaves)
    # moments owned or not, the same arithmetic, bit for bit (a run resumed from a checkpoint,
    # whose first step does not own its loaded moments, equals the straight run)
    _, (tw, tg_, tm, tv) = _kernel_case()
    kw = dict(beta1=0.9, beta2=0.999, epsilon=1e-7)
    shared = tg.adam_update_flat(tw, tg_, [x.clone() for x in tm], [x.clone() for x in tv], 0.01, 5.0, **kw)
    owned = tg.adam_update_flat(tw, tg_, tm, tv, 0.01, 5.0, **kw, owned_moments=True)
    for a, b in zip(shared, owned):
        assert all(torch.equal(x, y) for x, y in zip(a, b))
    # transposed gradients and moments (an LSTM's gradients are): the fused kernel reads its
    # tensors as flat buffers
    for strided in ("gradient", "moment"):
        (w, g, m, v), (tw, tg_, tm, tv) = _kernel_case()
        given = tg_ if strided == "gradient" else tm
        given[0] = t(np.ascontiguousarray((g if strided == "gradient" else m)[0].T)).T
        assert not given[0].is_contiguous()
        out = tg.adam_update_flat(tw, tg_, tm, tv, 0.01, 5.0, beta1=0.9, beta2=0.999, epsilon=1e-7, owned_moments=True)
        _check_step_5(out, w, g, m, v)


def test_torch_adam_kernel_leaves_moments_alone_while_torch_compile_traces():
    m, v = t(np.zeros(3)), t(np.zeros(3))

    @torch.compile(backend="eager", fullgraph=True)
    def step(w, g):
        return tg.adam_update_flat(
            [w], [g], [m], [v], 0.1, 1.0, beta1=0.9, beta2=0.999, epsilon=1e-7, owned_moments=True
        )[0]

    nw, nm, nv = step(t(np.ones(3)), t(np.ones(3)))
    close(nm, np.full(3, 0.1), 1e-12)
    close(m, np.zeros(3), 0)  # a compiled program returns new moments: the traced inputs stay
    close(v, np.zeros(3), 0)


def test_torch_adam_kernel_declines_what_it_must_not_fuse():
    f64, f32 = t(np.ones(3)), t(np.ones(3), torch.float32)
    tracked = t(np.ones(3)).requires_grad_()
    mat, ints = t(np.ones((2, 3))), t([1, 2, 3], torch.int64)
    cases = [
        (f64, f32, f64, f64),  # mixed dtypes: the generic formula promotes
        (mat, f64, mat, mat),  # broadcasting
        (f64, tracked, f64, f64),  # gradients that track gradients: the moments keep that history
        (f64, f64, tracked, f64),
        (ints, ints, ints, ints),  # integers
        (f64, 1.0, f64, f64),  # not a tensor
    ]
    for w, g, m, v in cases:
        assert tg.adam_update_flat([w], [g], [m], [v], 0.1, 1.0, beta1=0.9, beta2=0.999, epsilon=1e-7) == [None]
    # inside a torch.func transform nothing is fused (the generic path handles the wrapping)
    seen = []

    def f(x):
        seen.extend(tg.adam_update_flat([x], [x], [x], [x], 0.1, 1.0, beta1=0.9, beta2=0.999, epsilon=1e-7))
        return torch.sum(x)

    torch.func.grad(f)(t(np.ones(3)))
    assert seen == [None]


def test_ivy_adam_update_uses_the_kernel_and_falls_back_per_leaf():
    # one leaf the kernel takes, one it declines (float32 w, float64 g): both the paper's values
    w = {"a": R.normal(size=(3, 2)), "b": R.normal(size=4)}
    g = {"a": R.normal(size=(3, 2)), "b": R.normal(size=4)}
    ws = {"a": t(w["a"]), "b": t(w["b"], torch.float32)}
    gs = {k: t(a) for k, a in g.items()}
    z = {k: torch.zeros(a.shape, dtype=torch.float64) for k, a in w.items()}
    new_w, new_m, new_v = ivy.adam_update(ws, gs, 0.05, z, z, 1)
    for k, tol in (("a", 1e-12), ("b", 1e-6)):
        want = _np_adam(
            w[k].astype(np.float32).astype(np.float64) if k == "b" else w[k], g[k], 0.0, 0.0, 1, 0.05, 0.9, 0.999, 1e-7
        )
        close(new_w[k], want[0], tol)
        close(new_m[k], want[1], tol)
        close(new_v[k], want[2], tol)


def test_torch_backend_hands_core_its_adam_kernel(monkeypatch):
    import ivy_torch.gradients as tg
    from ivy import _registry

    kernels = _registry.get_backend("torch").impl.kernels
    assert kernels["adam_update_flat"] is tg.adam_update_flat
    calls = []

    def spy(*args, **kwargs):
        calls.append(len(args[0]))
        return tg.adam_update_flat(*args, **kwargs)

    monkeypatch.setitem(kernels, "adam_update_flat", spy)
    w, g = torch.ones(3), torch.full((3,), 0.5)
    new_w, _, _ = ivy.adam_update([w], [g], 0.1, [torch.zeros(3)], [torch.zeros(3)], 1)
    assert calls == [1]
    close(new_w[0], _np_adam(np.ones(3), np.full(3, 0.5), 0.0, 0.0, 1, 0.1, 0.9, 0.999, 1e-7)[0], 1e-6)
    ivy.adam_update([w], [g], torch.tensor(0.1), [torch.zeros(3)], [torch.zeros(3)], 1)  # array lr: generic
    assert calls == [1]
