"""Optimizer updates (gradient descent, Adam, LAMB, LARS) over nests, several steps, against NumPy
implementations of the published algorithms written here from the papers' equations:

* Adam: Kingma & Ba, "Adam: A Method for Stochastic Optimization", 2015, Algorithm 1.
* LAMB: You et al., "Large Batch Optimization for Deep Learning: Training BERT in 76 minutes",
  2020, Algorithm 2 (with bias correction; the scaling function phi is the identity).
* LARS: You, Gitman & Ginsburg, "Large Batch Training of Convolutional Networks", 2017,
  Algorithm 1 without momentum and with trust coefficient 1: local rate
  ``||w|| / (||g|| + beta ||w||)``, step ``lr * local * (g + beta w)``.

Adam is also compared with ``torch.optim.Adam`` on the torch backend (torch is imported only
there). The updates are pure: new values and new state come back, the inputs are unchanged.
"""

from __future__ import annotations

import numpy as np
import pytest

import ivy
from ivy.testing.convert import dtype_name, native_to_numpy, shape_of, to_native

RNG = np.random.default_rng(99)
#: A nest of parameters: a dict holding arrays, a nested dict and a list.
W_INIT = {
    "w": RNG.standard_normal((3, 2)),
    "b": RNG.standard_normal(2),
    "block": {"k": RNG.standard_normal(4), "list": [RNG.standard_normal((2, 2)), RNG.standard_normal(1)]},
}
#: Gradients for each step (independent of the parameters, so that both sides see the same).
GRADS = [
    {
        "w": RNG.standard_normal((3, 2)),
        "b": RNG.standard_normal(2),
        "block": {"k": RNG.standard_normal(4), "list": [RNG.standard_normal((2, 2)), RNG.standard_normal(1)]},
    }
    for _ in range(5)
]
STEPS = len(GRADS)


# ---------------------------------------------------------------------------- nest helpers (no ivy)


def _leaves(tree):
    if isinstance(tree, dict):
        return [x for k in tree for x in _leaves(tree[k])]
    if isinstance(tree, (list, tuple)):
        return [x for c in tree for x in _leaves(c)]
    return [tree]


def _map(fn, tree, *rest):
    if isinstance(tree, dict):
        return {k: _map(fn, tree[k], *(r[k] for r in rest)) for k in tree}
    if isinstance(tree, (list, tuple)):
        return type(tree)(_map(fn, *cs) for cs in zip(tree, *rest))
    return fn(tree, *rest)


def _native(backend, tree, dtype="float64"):
    return _map(lambda a: to_native(backend, np.asarray(a, dtype=dtype)), tree)


def _numpy(backend, tree):
    return _map(lambda a: native_to_numpy(backend, a), tree)


def _assert_same_structure(got, want, path="nest"):
    if isinstance(want, dict):
        assert type(got) is dict, f"{path}: expected a dict, got {type(got).__name__}"
        assert list(got) == list(want), f"{path}: keys {list(got)} != {list(want)}"
        for k in want:
            _assert_same_structure(got[k], want[k], f"{path}[{k!r}]")
    elif isinstance(want, (list, tuple)):
        assert type(got) is type(want), f"{path}: expected {type(want).__name__}, got {type(got).__name__}"
        assert len(got) == len(want), f"{path}: length {len(got)} != {len(want)}"
        for i, (g, w) in enumerate(zip(got, want)):
            _assert_same_structure(g, w, f"{path}[{i}]")
    else:
        assert ivy.is_native_array(got), f"{path}: expected a native array, got {type(got).__name__}"
        assert shape_of(got) == np.shape(want), f"{path}: shape {shape_of(got)} != {np.shape(want)}"


def _close_nest(backend, got, want, *, rtol=1e-10, atol=1e-12, msg=""):
    _assert_same_structure(got, want)
    for g, w in zip(_leaves(got), _leaves(want)):
        np.testing.assert_allclose(native_to_numpy(backend, g), w, rtol=rtol, atol=atol, err_msg=msg)


# ---------------------------------------------------------------------------- NumPy references


def ref_sgd(w, g, lr):
    return w - lr * g


def ref_adam(w, g, m, v, t, lr, b1, b2, eps):
    """Kingma & Ba, Algorithm 1 (t counts from 1)."""
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g * g
    m_hat = m / (1 - b1**t)
    v_hat = v / (1 - b2**t)
    return w - lr * m_hat / (np.sqrt(v_hat) + eps), m, v


def ref_lamb(w, g, m, v, t, lr, b1, b2, eps, lam, max_trust=None):
    """You et al. 2020, Algorithm 2: the Adam direction plus weight decay, scaled per layer by
    ||w|| / ||r + lambda w|| (with ``max_trust`` the ratio is clipped there, as Ivy documents)."""
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g * g
    m_hat = m / (1 - b1**t)
    v_hat = v / (1 - b2**t)
    r = m_hat / (np.sqrt(v_hat) + eps) + lam * w
    wn, rn = np.linalg.norm(w), np.linalg.norm(r)
    trust = wn / rn if wn > 0 and rn > 0 else 1.0
    if max_trust is not None:
        trust = min(trust, max_trust)
    return w - lr * trust * r, m, v


def ref_lars(w, g, lr, beta):
    """You, Gitman & Ginsburg 2017, Algorithm 1 (no momentum, trust coefficient 1)."""
    wn, gn = np.linalg.norm(w), np.linalg.norm(g)
    local = wn / (gn + beta * wn) if wn > 0 and gn > 0 else 1.0
    return w - lr * local * (g + beta * w)


def _zeros(tree):
    return _map(np.zeros_like, tree)


# ---------------------------------------------------------------------------- gradient descent


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_gradient_descent_several_steps(backend, dtype):
    lr = 0.1
    ws, want = _native(backend, W_INIT, dtype), _map(lambda a: a.astype(dtype), W_INIT)
    for g in GRADS:
        ws = ivy.gradient_descent_update(ws, _native(backend, g, dtype), lr)
        want = _map(lambda w, gg: ref_sgd(w, gg.astype(dtype), lr), want, g)
        _assert_same_structure(ws, want)
    tol = dict(rtol=1e-5, atol=1e-6) if dtype == "float32" else dict(rtol=1e-12, atol=1e-13)
    _close_nest(backend, ws, want, **tol)
    for leaf in _leaves(ws):
        assert dtype_name(leaf.dtype) == dtype


def test_gradient_descent_array_learning_rate(backend):
    ws = _native(backend, W_INIT)
    lr = to_native(backend, np.asarray(0.05))
    new = ivy.gradient_descent_update(ws, _native(backend, GRADS[0]), lr)
    _close_nest(backend, new, _map(lambda w, g: ref_sgd(w, g, 0.05), W_INIT, GRADS[0]))


def test_gradient_descent_does_not_modify_its_inputs(backend):
    ws, gs = _native(backend, W_INIT), _native(backend, GRADS[0])
    ivy.gradient_descent_update(ws, gs, 0.5)
    _close_nest(backend, ws, W_INIT, rtol=0, atol=0)
    _close_nest(backend, gs, GRADS[0], rtol=0, atol=0)


# ---------------------------------------------------------------------------- Adam


@pytest.mark.parametrize(
    "hyper",
    [
        dict(lr=0.01, beta1=0.9, beta2=0.999, epsilon=1e-7),
        dict(lr=0.3, beta1=0.5, beta2=0.8, epsilon=1e-3),
    ],
)
def test_adam_several_steps(backend, hyper):
    lr, b1, b2, eps = hyper["lr"], hyper["beta1"], hyper["beta2"], hyper["epsilon"]
    ws, mw, vw = _native(backend, W_INIT), _native(backend, _zeros(W_INIT)), _native(backend, _zeros(W_INIT))
    rw, rm, rv = W_INIT, _zeros(W_INIT), _zeros(W_INIT)
    for t, g in enumerate(GRADS, start=1):
        out = ivy.adam_update(ws, _native(backend, g), lr, mw, vw, t, beta1=b1, beta2=b2, epsilon=eps)
        assert isinstance(out, tuple) and len(out) == 3, "adam_update returns (new_ws, new_mw, new_vw)"
        ws, mw, vw = out
        rw, rm, rv = _ref_tuple_map(lambda w, gg, m, v, t=t: ref_adam(w, gg, m, v, t, lr, b1, b2, eps), rw, g, rm, rv)
        # The state is returned (not kept anywhere) and matches the paper's moments.
        _close_nest(backend, mw, rm, msg=f"m at step {t}")
        _close_nest(backend, vw, rv, msg=f"v at step {t}")
        _close_nest(backend, ws, rw, msg=f"w at step {t}")


def _ref_tuple_map(fn, *trees):
    """Map ``fn`` (returning a tuple) over NumPy nests; a tuple of nests."""
    res = _map(lambda *a: fn(*a), *trees)
    n = len(_leaves_tuple(res)[0])
    return tuple(_map_tuple(res, i) for i in range(n))


def _leaves_tuple(tree):
    if isinstance(tree, dict):
        return [x for k in tree for x in _leaves_tuple(tree[k])]
    if isinstance(tree, list):
        return [x for c in tree for x in _leaves_tuple(c)]
    return [tree]


def _map_tuple(tree, i):
    if isinstance(tree, dict):
        return {k: _map_tuple(v, i) for k, v in tree.items()}
    if isinstance(tree, list):
        return [_map_tuple(c, i) for c in tree]
    return tree[i]


def test_adam_is_pure(backend):
    ws, gs = _native(backend, W_INIT), _native(backend, GRADS[0])
    m0, v0 = _native(backend, _map(lambda a: 0.1 * a, GRADS[1])), _native(backend, _map(lambda a: a * a, GRADS[2]))
    a = ivy.adam_update(ws, gs, 0.01, m0, v0, 3)
    b = ivy.adam_update(ws, gs, 0.01, m0, v0, 3)  # same inputs, same outputs: no hidden state
    for x, y in zip(a, b):
        _close_nest(backend, x, _numpy(backend, y), rtol=0, atol=0)
    _close_nest(backend, ws, W_INIT, rtol=0, atol=0)
    _close_nest(backend, m0, _map(lambda a: 0.1 * a, GRADS[1]), rtol=0, atol=0)
    _close_nest(backend, v0, _map(lambda a: a * a, GRADS[2]), rtol=0, atol=0)
    # Defaults: beta1=0.9, beta2=0.999, epsilon=1e-7; step 3 (bias correction uses it).
    want = _ref_tuple_map(
        lambda w, g, m, v: ref_adam(w, g, m, v, 3, 0.01, 0.9, 0.999, 1e-7),
        W_INIT,
        GRADS[0],
        _map(lambda a: 0.1 * a, GRADS[1]),
        _map(lambda a: a * a, GRADS[2]),
    )
    for got, ref in zip(a, want):
        _close_nest(backend, got, ref)


def test_adam_matches_torch_optim(backend):
    if backend != "torch":
        pytest.skip("torch.optim.Adam is compared on the torch backend only")
    import torch

    lr, b1, b2, eps = 0.05, 0.85, 0.99, 1e-6
    leaves = _leaves(W_INIT)
    params = [torch.nn.Parameter(torch.from_numpy(a.copy())) for a in leaves]
    opt = torch.optim.Adam(params, lr=lr, betas=(b1, b2), eps=eps)
    ws, mw, vw = _native(backend, W_INIT), _native(backend, _zeros(W_INIT)), _native(backend, _zeros(W_INIT))
    for t, g in enumerate(GRADS, start=1):
        for p, gl in zip(params, _leaves(g)):
            p.grad = torch.from_numpy(gl.copy())
        opt.step()
        ws, mw, vw = ivy.adam_update(ws, _native(backend, g), lr, mw, vw, t, beta1=b1, beta2=b2, epsilon=eps)
    for got, p in zip(_leaves(ws), params):
        np.testing.assert_allclose(native_to_numpy(backend, got), p.detach().numpy(), rtol=1e-10, atol=1e-12)
    for got, p in zip(_leaves(mw), params):
        np.testing.assert_allclose(
            native_to_numpy(backend, got), opt.state[p]["exp_avg"].numpy(), rtol=1e-10, atol=1e-13
        )
    for got, p in zip(_leaves(vw), params):
        np.testing.assert_allclose(
            native_to_numpy(backend, got), opt.state[p]["exp_avg_sq"].numpy(), rtol=1e-10, atol=1e-13
        )


def test_adam_float32_keeps_dtype(backend):
    ws = _native(backend, W_INIT, "float32")
    z = _native(backend, _zeros(W_INIT), "float32")
    new_w, new_m, new_v = ivy.adam_update(ws, _native(backend, GRADS[0], "float32"), 0.01, z, z, 1)
    for leaf in _leaves(new_w) + _leaves(new_m) + _leaves(new_v):
        assert dtype_name(leaf.dtype) == "float32"
    want = _ref_tuple_map(
        lambda w, g, m, v: ref_adam(w, g, m, v, 1, 0.01, 0.9, 0.999, 1e-7),
        _map(lambda a: a.astype("float32").astype("float64"), W_INIT),
        _map(lambda a: a.astype("float32").astype("float64"), GRADS[0]),
        _zeros(W_INIT),
        _zeros(W_INIT),
    )
    _close_nest(backend, new_w, want[0], rtol=1e-5, atol=1e-6)


# ---------------------------------------------------------------------------- LAMB


@pytest.mark.parametrize("decay", [0.0, 0.01])
def test_lamb_several_steps(backend, decay):
    lr, b1, b2, eps = 0.02, 0.9, 0.999, 1e-6
    ws, mw, vw = _native(backend, W_INIT), _native(backend, _zeros(W_INIT)), _native(backend, _zeros(W_INIT))
    rw, rm, rv = W_INIT, _zeros(W_INIT), _zeros(W_INIT)
    for t, g in enumerate(GRADS, start=1):
        ws, mw, vw = ivy.lamb_update(
            ws, _native(backend, g), lr, mw, vw, t, beta1=b1, beta2=b2, epsilon=eps, decay_lambda=decay
        )
        rw, rm, rv = _ref_tuple_map(
            lambda w, gg, m, v, t=t: ref_lamb(w, gg, m, v, t, lr, b1, b2, eps, decay), rw, g, rm, rv
        )
        _close_nest(backend, mw, rm, msg=f"m at step {t}")
        _close_nest(backend, vw, rv, msg=f"v at step {t}")
        _close_nest(backend, ws, rw, msg=f"w at step {t}")
    # The trust ratios stayed below the default clip (10), so the paper's unclipped rule applied.


def test_lamb_trust_ratio_clip(backend):
    # A large weight and a tiny gradient: ||w|| / ||r|| is far above max_trust_ratio.
    w = {"a": np.full(4, 100.0)}
    g = {"a": np.array([1e-3, -1e-3, 2e-3, 0.0])}
    z = _zeros(w)
    new_w, _, _ = ivy.lamb_update(
        _native(backend, w), _native(backend, g), 0.1, _native(backend, z), _native(backend, z), 1, max_trust_ratio=2.0
    )
    want = _ref_tuple_map(lambda ww, gg, m, v: ref_lamb(ww, gg, m, v, 1, 0.1, 0.9, 0.999, 1e-7, 0.0, 2.0), w, g, z, z)
    _close_nest(backend, new_w, want[0])
    unclipped = ref_lamb(w["a"], g["a"], z["a"], z["a"], 1, 0.1, 0.9, 0.999, 1e-7, 0.0)[0]
    assert not np.allclose(want[0]["a"], unclipped)  # the clip matters in this case


def test_lamb_zero_weights_use_ratio_one(backend):
    w, g = {"a": np.zeros(3)}, {"a": np.array([0.5, -1.0, 2.0])}
    z = _zeros(w)
    new_w, _, _ = ivy.lamb_update(
        _native(backend, w), _native(backend, g), 0.1, _native(backend, z), _native(backend, z), 1
    )
    want = _ref_tuple_map(lambda ww, gg, m, v: ref_lamb(ww, gg, m, v, 1, 0.1, 0.9, 0.999, 1e-7, 0.0), w, g, z, z)
    _close_nest(backend, new_w, want[0])
    assert np.all(np.isfinite(native_to_numpy(backend, new_w["a"])))


# ---------------------------------------------------------------------------- LARS


def test_lars_several_steps(backend):
    lr = 0.1
    ws, rw = _native(backend, W_INIT), W_INIT
    for g in GRADS:
        ws = ivy.lars_update(ws, _native(backend, g), lr)
        rw = _map(lambda w, gg: ref_lars(w, gg, lr, 0.0), rw, g)
        _assert_same_structure(ws, rw)
    _close_nest(backend, ws, rw)


def test_lars_weight_decay_matches_paper(backend):
    # Paper: local rate ||w|| / (||g|| + beta ||w||), step lr * local * (g + beta w).
    lr, beta = 0.1, 0.05
    ws, rw = _native(backend, W_INIT), W_INIT
    for g in GRADS:
        ws = ivy.lars_update(ws, _native(backend, g), lr, decay_lambda=beta)
        rw = _map(lambda w, gg: ref_lars(w, gg, lr, beta), rw, g)
    _close_nest(backend, ws, rw)


def test_lars_zero_gradient_is_no_step(backend):
    w = {"a": RNG.standard_normal(3), "b": np.zeros(2)}
    g = {"a": np.zeros(3), "b": np.array([1.0, -2.0])}
    new = ivy.lars_update(_native(backend, w), _native(backend, g), 0.5)
    # "a": a zero gradient moves nothing; "b": zero weights fall back to ratio 1 (plain SGD).
    _close_nest(backend, new, {"a": w["a"], "b": -0.5 * g["b"]})


# ---------------------------------------------------------------------------- with autodiff


def test_training_loop_with_gradients_and_adam(backend):
    if backend == "numpy":
        pytest.skip("numpy has no autodiff")
    target = {"w": RNG.standard_normal((3, 2)), "b": RNG.standard_normal(2)}
    init = {"w": np.zeros((3, 2)), "b": np.ones(2)}
    tn = _native(backend, target)

    def loss(p):
        dw = ivy.subtract(p["w"], tn["w"])
        db = ivy.subtract(p["b"], tn["b"])
        return ivy.add(ivy.sum(ivy.multiply(dw, dw)), ivy.sum(ivy.multiply(db, db)))

    ws = _map(ivy.variable, _native(backend, init))
    mw, vw = _native(backend, _zeros(init)), _native(backend, _zeros(init))
    rw, rm, rv = init, _zeros(init), _zeros(init)
    for t in range(1, 6):
        y, grads = ivy.execute_with_gradients(loss, ws)
        rg = _map(lambda w, tt: 2 * (w - tt), rw, target)
        np.testing.assert_allclose(
            native_to_numpy(backend, y),
            sum(np.sum((w - tt) ** 2) for w, tt in zip(_leaves(rw), _leaves(target))),
            rtol=1e-10,
        )
        _close_nest(backend, grads, rg)
        ws, mw, vw = ivy.adam_update(ws, grads, 0.1, mw, vw, t)
        ws = _map(ivy.variable, ws)
        rw, rm, rv = _ref_tuple_map(
            lambda w, g, m, v, t=t: ref_adam(w, g, m, v, t, 0.1, 0.9, 0.999, 1e-7), rw, rg, rm, rv
        )
    _close_nest(backend, ws, rw)


@pytest.mark.parametrize("stop", [True, False])
def test_stop_gradients_option(backend, stop):
    if backend not in ("torch", "paddle"):
        pytest.skip("observable where arrays carry a gradient-tracking flag (torch, paddle)")
    ws = _map(ivy.variable, _native(backend, {"w": W_INIT["w"]}))
    gs = _native(backend, {"w": GRADS[0]["w"]})
    z = _native(backend, _zeros({"w": W_INIT["w"]}))
    for new in (
        ivy.gradient_descent_update(ws, gs, 0.1, stop_gradients=stop),
        ivy.adam_update(ws, gs, 0.1, z, z, 1, stop_gradients=stop)[0],
        ivy.lamb_update(ws, gs, 0.1, z, z, 1, stop_gradients=stop)[0],
        ivy.lars_update(ws, gs, 0.1, stop_gradients=stop),
    ):
        # stop_gradients: the new values are cut from the graph of the old ones (framework flags).
        tracks = bool(new["w"].requires_grad) if backend == "torch" else not new["w"].stop_gradient
        assert tracks is (not stop)


# ---------------------------------------------------------------------------- Adam: every path
#
# ivy.adam_update hands Python-number learning rates and steps to a backend's fused kernel where
# it has one (torch, paddle) and runs the generic formula otherwise (array lr or step, arrays
# that track gradients, mixed dtypes, backends without a kernel). Every path must give the paper's
# values: each test below steers the update onto one of them and compares with ref_adam.


def test_adam_array_learning_rate_and_step(backend):
    # arrays for lr and step (as a compiled training loop passes them): the generic formula
    ws, gs = _native(backend, W_INIT), _native(backend, GRADS[0])
    m0, v0 = _native(backend, _map(lambda a: 0.1 * a, GRADS[1])), _native(backend, _map(lambda a: a * a, GRADS[2]))
    lr, step = to_native(backend, np.asarray(0.02)), to_native(backend, np.asarray(4.0))
    got = ivy.adam_update(ws, gs, lr, m0, v0, step)
    want = _ref_tuple_map(
        lambda w, g, m, v: ref_adam(w, g, m, v, 4, 0.02, 0.9, 0.999, 1e-7),
        W_INIT,
        GRADS[0],
        _map(lambda a: 0.1 * a, GRADS[1]),
        _map(lambda a: a * a, GRADS[2]),
    )
    for g, r in zip(got, want):
        _close_nest(backend, g, r)


def test_adam_mixed_dtypes_per_leaf(backend):
    # float32 variables with float64 gradients and moments: no fused kernel takes such a leaf;
    # the result follows the backend's type promotion, the values the paper's formula
    if backend == "tensorflow":
        pytest.skip("TensorFlow does not promote between float dtypes (its arithmetic raises)")
    w = {"a": W_INIT["w"].astype("float32"), "b": W_INIT["b"]}
    ws = {"a": to_native(backend, w["a"]), "b": to_native(backend, w["b"])}
    g = {"a": GRADS[0]["w"], "b": GRADS[0]["b"]}
    z = _zeros(g)
    got = ivy.adam_update(ws, _native(backend, g), 0.05, _native(backend, z), _native(backend, z), 2)
    want = _ref_tuple_map(
        lambda w_, g_, m, v: ref_adam(w_, g_, m, v, 2, 0.05, 0.9, 0.999, 1e-7),
        _map(lambda a: a.astype("float64"), w),
        g,
        z,
        z,
    )
    for gn, r in zip(got, want):
        _close_nest(backend, gn, r, rtol=1e-6, atol=1e-7)


def test_adam_moments_that_track_gradients(backend):
    # Gradients that are variables themselves (a meta-learning loop): the new moments keep their
    # link to them (the fused kernels must not cut it), the values are the paper's.
    if backend not in ("torch", "paddle"):
        pytest.skip("observable where arrays carry a gradient-tracking flag (torch, paddle)")
    ws = _native(backend, {"w": W_INIT["w"]})
    gs = _map(ivy.variable, _native(backend, {"w": GRADS[0]["w"]}))
    z = _native(backend, _zeros({"w": W_INIT["w"]}))
    new_w, new_m, new_v = ivy.adam_update(ws, gs, 0.1, z, z, 1)
    tracks = bool(new_m["w"].requires_grad) if backend == "torch" else not new_m["w"].stop_gradient
    assert tracks
    want = ref_adam(W_INIT["w"], GRADS[0]["w"], 0.0, 0.0, 1, 0.1, 0.9, 0.999, 1e-7)
    for got, r in zip((new_w, new_m, new_v), want):
        np.testing.assert_allclose(native_to_numpy(backend, got["w"]), r, rtol=1e-10, atol=1e-12)


def test_adam_inside_a_gradient_transform(backend):
    # The update differentiated (stop_gradients=False): d new_w / d lr, against finite differences
    # of the NumPy reference. Inside a transform no fused kernel may run.
    if backend == "numpy":
        pytest.skip("numpy has no autodiff")
    w, g = W_INIT["w"], GRADS[0]["w"]
    m0, v0 = 0.1 * GRADS[1]["w"], GRADS[2]["w"] ** 2

    def f(ls):
        new = ivy.adam_update(
            to_native(backend, w),
            to_native(backend, g),
            ls[0],
            to_native(backend, m0),
            to_native(backend, v0),
            3,
            stop_gradients=False,
        )[0]
        return ivy.sum(new)

    lr0 = 0.02
    value, (dlr,), _ = ivy.value_and_grad_flat(f, [ivy.variable(to_native(backend, np.asarray(lr0)))])
    ref = lambda lr: np.sum(ref_adam(w, g, m0, v0, 3, lr, 0.9, 0.999, 1e-7)[0])  # noqa: E731
    np.testing.assert_allclose(native_to_numpy(backend, value), ref(lr0), rtol=1e-10)
    h = 1e-6
    np.testing.assert_allclose(native_to_numpy(backend, dlr), (ref(lr0 + h) - ref(lr0 - h)) / (2 * h), rtol=1e-6)


def test_adam_rejects_bad_input(backend):
    ws, gs = _native(backend, W_INIT), _native(backend, GRADS[0])
    z = _native(backend, _zeros(W_INIT))
    with pytest.raises(ValueError, match="step counts from 1"):
        ivy.adam_update(ws, gs, 0.1, z, z, 0)
    short = {"w": gs["w"]}  # zip would silently drop the other leaves
    with pytest.raises(ValueError, match="the gradients has 1 leaves but the variables have 5"):
        ivy.adam_update(ws, short, 0.1, z, z, 1)
    with pytest.raises(ValueError, match="mw has 1 leaves"):
        ivy.adam_update(ws, gs, 0.1, short, z, 1)


def test_fn_optimizers_constructors_name_every_option(backend):
    # each optimizer's signature (the generated reference, type checkers, editors) names the
    # options of Optimizer itself (clipping, accumulation) rather than leaving them to **kwargs
    import inspect

    if backend != "numpy":
        pytest.skip("the signatures do not depend on the backend: runs in the numpy test process")
    base = {p for p in inspect.signature(ivy.Optimizer.__init__).parameters if p not in ("self", "lr")}
    hidden = {}
    for name in ("SGD", "Adam", "AdamW", "LAMB", "LARS"):
        params = inspect.signature(getattr(ivy, name).__init__).parameters
        kinds = {q.kind for q in params.values()}
        missing = base - set(params)
        if missing or inspect.Parameter.VAR_KEYWORD in kinds:
            hidden[name] = sorted(missing)
    assert not hidden, f"options only reachable through **kwargs: {hidden}"
    opt = ivy.AdamW(1e-3, clip_norm=1.0, accumulate_steps=2)
    assert (opt.clip_norm, opt.accumulate_steps, opt.weight_decay) == (1.0, 2, 0.01)


# ---------------------------------------------------------------------------- ivy.Adam's own state


def test_adam_state_handed_out_keeps_its_values(backend):
    """ivy.Adam may update its moments in place (the fused kernels do, as torch.optim.Adam), but
    only arrays nobody else holds: a state read, assigned or shared with a copy keeps its values
    through later steps, and every step still follows the paper."""
    import copy

    lr = 0.02
    opt = ivy.Adam(lr)
    ref = {"w": W_INIT, "m": _zeros(W_INIT), "v": _zeros(W_INIT)}

    def step(o, ws, t):  # one step of `o`, and of the reference
        out = _ref_tuple_map(
            lambda w, g, m, v: ref_adam(w, g, m, v, t, lr, 0.9, 0.999, 1e-7), ref["w"], GRADS[t - 1], ref["m"], ref["v"]
        )
        ref["w"], ref["m"], ref["v"] = out
        return o.step(ws, _native(backend, GRADS[t - 1]))

    ws = step(opt, _native(backend, W_INIT), 1)
    ws = step(opt, ws, 2)
    snap = opt.state  # read after two steps in which the optimizer owned its moments
    snap_np = {k: _map(np.array, _numpy(backend, tree.to_dict())) for k, tree in snap.items()}  # (copies)
    ws = step(opt, ws, 3)
    for k in ("mw", "vw"):
        _close_nest(backend, snap[k].to_dict(), snap_np[k], rtol=0, atol=0, msg=f"state[{k!r}] read before a step")
    _close_nest(backend, ws, ref["w"])
    _close_nest(backend, opt.state["mw"].to_dict(), ref["m"])
    _close_nest(backend, opt.state["vw"].to_dict(), ref["v"])

    # state assigned by the caller stays the caller's
    given = {"mw": _native(backend, ref["m"]), "vw": _native(backend, ref["v"])}
    other = ivy.Adam(lr)
    other.step_count = 3
    other.state = given
    other.step(ws, _native(backend, GRADS[3]))
    other.step(ws, _native(backend, GRADS[3]))
    _close_nest(backend, given["mw"], ref["m"], rtol=0, atol=0, msg="assigned state['mw']")
    _close_nest(backend, given["vw"], ref["v"], rtol=0, atol=0, msg="assigned state['vw']")

    # a shallow copy shares the moments: stepping it leaves the original's as they were
    ws = step(opt, ws, 4)  # (the original owns its moments again)
    twin = copy.copy(opt)
    twin.step(ws, _native(backend, GRADS[0]))
    twin.step(ws, _native(backend, GRADS[1]))
    ws = step(opt, ws, 5)
    _close_nest(backend, ws, ref["w"])
    _close_nest(backend, opt.state["mw"].to_dict(), ref["m"])
