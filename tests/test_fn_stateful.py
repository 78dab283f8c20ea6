"""The stateful API (ivy.Module, layers, optimizers, Container) on every backend.

On the torch backend every layer is compared with torch's own layer holding the same weights
(converted between the layouts: torch's conv weights are ``[out, in, *k]``, Ivy's ``[*k, in,
out]``; torch's LSTM weights are ``[4h, in]`` with two biases, Ivy's ``[in, 4h]`` with one), and the
optimizers with ``torch.optim`` over several steps. On the other backends the layers are compared
with the same layers on the numpy backend, whose outputs the core tests check against NumPy
formulas. Gradient-based tests skip on numpy (no autodiff).
"""

from __future__ import annotations

import numpy as np
import pytest

import ivy
from ivy.testing.convert import native_to_numpy, to_native

RNG = np.random.default_rng(11)


def _np(backend, x):
    return native_to_numpy(backend, x)


def _close(actual, expected, *, rtol=1e-5, atol=1e-5):
    np.testing.assert_allclose(
        np.asarray(actual, dtype=np.float64), np.asarray(expected, dtype=np.float64), rtol=rtol, atol=atol
    )


def _set_v(backend, layer, weights):
    """Give ``layer`` the NumPy ``weights`` (a nested dict) as native arrays of ``backend``."""
    layer.v = ivy.Container(weights).map(lambda a, _: to_native(backend, np.asarray(a, dtype="float32")))
    return layer


def _torch():
    import torch

    torch.manual_seed(0)
    return torch


def _t2np(t):
    return t.detach().cpu().numpy().astype("float32")


def _needs_torch(backend):
    if backend != "torch":
        pytest.skip("compares with torch's own layers: torch backend only")


def _needs_autodiff(backend):
    if backend == "numpy":
        pytest.skip("numpy has no autodiff")


# ---------------------------------------------------------------------------------- layers vs torch


def test_fn_stateful_linear_vs_torch(backend):
    _needs_torch(backend)
    torch = _torch()
    ref = torch.nn.Linear(4, 3)
    layer = _set_v(backend, ivy.Linear(4, 3), {"w": _t2np(ref.weight), "b": _t2np(ref.bias)})
    x = RNG.standard_normal((2, 5, 4)).astype("float32")
    _close(_np(backend, layer(to_native(backend, x))), _t2np(ref(torch.from_numpy(x))))


@pytest.mark.parametrize("nd", [1, 2, 3])
@pytest.mark.parametrize("data_format", ["last", "first"])
def test_fn_stateful_conv_vs_torch(backend, nd, data_format):
    _needs_torch(backend)
    torch = _torch()
    ref = getattr(torch.nn, f"Conv{nd}d")(3, 4, 3, stride=2, padding=1, dilation=1)
    perm = (*range(2, 2 + nd), 1, 0)  # [out, in, *k] -> [*k, in, out]
    fmt = {1: ("NWC", "NCW"), 2: ("NHWC", "NCHW"), 3: ("NDHWC", "NCDHW")}[nd][data_format == "first"]
    layer = getattr(ivy, f"Conv{nd}D")(3, 4, 3, 2, 1, data_format=fmt)
    _set_v(backend, layer, {"w": _t2np(ref.weight.permute(*perm)), "b": _t2np(ref.bias)})
    x = RNG.standard_normal((2, 3, *([7] * nd))).astype("float32")
    want = _t2np(ref(torch.from_numpy(x)))
    if data_format == "last":
        x, want = np.moveaxis(x, 1, -1), np.moveaxis(want, 1, -1)
    _close(_np(backend, layer(to_native(backend, x))), want, rtol=1e-4)


@pytest.mark.parametrize("nd", [1, 2, 3])
def test_fn_stateful_conv_transpose_vs_torch(backend, nd):
    _needs_torch(backend)
    torch = _torch()
    ref = getattr(torch.nn, f"ConvTranspose{nd}d")(3, 4, 3, stride=2, padding=1)
    perm = (*range(2, 2 + nd), 1, 0)  # torch [in, out, *k] -> Ivy [*k, out, in]
    fmt = {1: "NCW", 2: "NCHW", 3: "NCDHW"}[nd]
    layer = getattr(ivy, f"Conv{nd}DTranspose")(3, 4, 3, 2, 1, data_format=fmt)
    _set_v(backend, layer, {"w": _t2np(ref.weight.permute(*perm)), "b": _t2np(ref.bias)})
    x = RNG.standard_normal((2, 3, *([4] * nd))).astype("float32")
    _close(_np(backend, layer(to_native(backend, x))), _t2np(ref(torch.from_numpy(x))), rtol=1e-4)


def test_fn_stateful_depthwise_conv_vs_torch(backend):
    _needs_torch(backend)
    torch = _torch()
    ref = torch.nn.Conv2d(3, 3, (3, 2), padding=1, groups=3)
    layer = ivy.DepthwiseConv2D(3, (3, 2), 1, 1)
    _set_v(backend, layer, {"w": _t2np(ref.weight[:, 0].permute(1, 2, 0)), "b": _t2np(ref.bias)})
    x = RNG.standard_normal((2, 3, 6, 5)).astype("float32")
    want = np.moveaxis(_t2np(ref(torch.from_numpy(x))), 1, -1)
    _close(_np(backend, layer(to_native(backend, np.moveaxis(x, 1, -1)))), want, rtol=1e-4)


def test_fn_stateful_layer_norm_vs_torch(backend):
    _needs_torch(backend)
    torch = _torch()
    ref = torch.nn.LayerNorm((3, 4))
    with torch.no_grad():
        ref.weight.normal_()
        ref.bias.normal_()
    layer = _set_v(backend, ivy.LayerNorm((3, 4)), {"w": _t2np(ref.weight), "b": _t2np(ref.bias)})
    x = RNG.standard_normal((2, 5, 3, 4)).astype("float32")
    _close(_np(backend, layer(to_native(backend, x))), _t2np(ref(torch.from_numpy(x))))


def test_fn_stateful_batch_norm_vs_torch(backend):
    _needs_torch(backend)
    torch = _torch()
    ref = torch.nn.BatchNorm2d(3, momentum=0.2)
    with torch.no_grad():
        ref.weight.normal_()
        ref.bias.normal_()
    layer = ivy.BatchNorm2D(3, momentum=0.2, data_format="NCHW", backend=backend)
    _set_v(backend, layer, {"w": _t2np(ref.weight), "b": _t2np(ref.bias)})
    for _ in range(3):  # training: batch statistics, running ones updated
        x = (RNG.standard_normal((4, 3, 5, 5)) * 2 + 1).astype("float32")
        _close(_np(backend, layer(to_native(backend, x))), _t2np(ref(torch.from_numpy(x))), rtol=1e-4)
    _close(_np(backend, layer.state.running_mean), _t2np(ref.running_mean))
    _close(_np(backend, layer.state.running_var), _t2np(ref.running_var))
    layer.eval()
    ref.eval()
    _close(_np(backend, layer(to_native(backend, x))), _t2np(ref(torch.from_numpy(x))), rtol=1e-4)


def test_fn_stateful_embedding_vs_torch(backend):
    _needs_torch(backend)
    torch = _torch()
    ref = torch.nn.Embedding(10, 4)
    layer = _set_v(backend, ivy.Embedding(10, 4), {"w": _t2np(ref.weight)})
    idx = RNG.integers(0, 10, (3, 5))
    _close(_np(backend, layer(to_native(backend, idx))), _t2np(ref(torch.from_numpy(idx))))


def test_fn_stateful_lstm_vs_torch(backend):
    _needs_torch(backend)
    torch = _torch()
    ref = torch.nn.LSTM(3, 5, num_layers=2, batch_first=True)
    weights = {
        f"layer{i}": {
            "w": _t2np(getattr(ref, f"weight_ih_l{i}").T),
            "r": _t2np(getattr(ref, f"weight_hh_l{i}").T),
            "b": _t2np(getattr(ref, f"bias_ih_l{i}") + getattr(ref, f"bias_hh_l{i}")),
        }
        for i in range(2)
    }
    layer = _set_v(backend, ivy.LSTM(3, 5, num_layers=2), weights)
    x = RNG.standard_normal((2, 6, 3)).astype("float32")
    h0 = RNG.standard_normal((2, 2, 5)).astype("float32")
    c0 = RNG.standard_normal((2, 2, 5)).astype("float32")
    out, (h, c) = layer(to_native(backend, x), (to_native(backend, h0), to_native(backend, c0)))
    rout, (rh, rc) = ref(torch.from_numpy(x), (torch.from_numpy(h0), torch.from_numpy(c0)))
    _close(_np(backend, out), _t2np(rout))
    _close(_np(backend, h), _t2np(rh))
    _close(_np(backend, c), _t2np(rc))


@pytest.mark.parametrize("causal", [False, True])
def test_fn_stateful_multi_head_attention_vs_torch(backend, causal):
    _needs_torch(backend)
    torch = _torch()
    e = 8
    ref = torch.nn.MultiheadAttention(e, 2, batch_first=True)
    with torch.no_grad():
        ref.in_proj_bias.normal_()
        ref.out_proj.bias.normal_()
    w, b = ref.in_proj_weight, ref.in_proj_bias
    weights = {
        "q_w": _t2np(w[:e].T),
        "k_w": _t2np(w[e : 2 * e].T),
        "v_w": _t2np(w[2 * e :].T),
        "out_w": _t2np(ref.out_proj.weight.T),
        "q_b": _t2np(b[:e]),
        "k_b": _t2np(b[e : 2 * e]),
        "v_b": _t2np(b[2 * e :]),
        "out_b": _t2np(ref.out_proj.bias),
    }
    layer = _set_v(backend, ivy.MultiHeadAttention(e, 2), weights)
    q = RNG.standard_normal((2, 4, e)).astype("float32")
    kv = RNG.standard_normal((2, 4, e)).astype("float32")
    mask = torch.triu(torch.ones(4, 4, dtype=torch.bool), 1) if causal else None
    want = _t2np(
        ref(torch.from_numpy(q), torch.from_numpy(kv), torch.from_numpy(kv), attn_mask=mask, need_weights=False)[0]
    )
    got = layer(to_native(backend, q), to_native(backend, kv), to_native(backend, kv), is_causal=causal)
    _close(_np(backend, got), want)


# ------------------------------------------------------------------- every backend vs numpy backend


def _layers():
    return [
        (ivy.Linear(4, 3), (2, 4)),
        (ivy.Conv2D(4, 3, 3, 1, "SAME"), (2, 5, 5, 4)),
        (ivy.Conv1DTranspose(4, 3, 2, 2, "VALID"), (2, 5, 4)),
        (ivy.DepthwiseConv2D(4, 3, 1, "VALID"), (2, 5, 5, 4)),
        (ivy.MaxPool2D(2), (2, 4, 4, 4)),
        (ivy.AvgPool1D(2, 1, "SAME"), (2, 5, 4)),
        (ivy.LayerNorm(4), (2, 3, 4)),
        (ivy.BatchNorm2D(4), (2, 3, 3, 4)),
        (ivy.LSTM(4, 3), (2, 5, 4)),
        (ivy.MultiHeadAttention(4, 2), (2, 3, 4)),
        (ivy.Sequential(ivy.Linear(4, 6), ivy.GELU(), ivy.Linear(6, 2), ivy.Softmax()), (3, 4)),
    ]


@pytest.mark.parametrize("index", range(len(_layers())))
def test_fn_stateful_layers_agree_with_the_numpy_backend(backend, index):
    layer, shape = _layers()[index]
    ref_layer, _ = _layers()[index]
    x = RNG.standard_normal(shape).astype("float32")
    ref_out = ref_layer(x)  # built on numpy, from the input
    weights = ref_layer.v.map(lambda a, _: np.asarray(a))
    _set_v(backend, layer, weights)
    if ref_layer.state:
        layer.state = ref_layer.state.map(lambda a, _: to_native(backend, np.zeros_like(a)))
    out = layer(to_native(backend, x))
    flat_ref, flat_out = ivy.nest.leaves(ref_out), ivy.nest.leaves(out)
    assert len(flat_ref) == len(flat_out)
    for r, o in zip(flat_ref, flat_out):
        _close(_np(backend, o), r, rtol=1e-4, atol=1e-5)


def test_fn_stateful_build_takes_backend_and_device_from_the_first_input(backend):
    lin = ivy.Linear(None, 2)
    x = to_native(backend, np.ones((1, 3), dtype="float32"))
    lin(x)
    assert lin.backend == backend and lin.input_channels == 3
    assert ivy.namespace(lin.v.w).name == backend
    assert ivy.dev(lin.v.w) == ivy.dev(x)
    lin.to_device("cpu")
    assert ivy.dev(lin.v.b) == "cpu"
    with ivy.use_backend(backend):
        assert ivy.Linear(2, 2).backend is None  # not built yet
        assert ivy.namespace(ivy.Linear(2, 2).v.w).name == backend


def test_fn_stateful_save_and_load_weights_across_backends(backend, tmp_path):
    from safetensors.numpy import load_file

    model = ivy.Sequential(ivy.Linear(3, 4), ivy.ReLU(), ivy.Linear(4, 2), backend=backend)
    model.save_weights(tmp_path / "w.safetensors")
    ref = load_file(str(tmp_path / "w.safetensors"))
    for kc, x in model.v.to_flat_dict().items():
        np.testing.assert_array_equal(ref[kc], _np(backend, x))
    np_model = ivy.Sequential(ivy.Linear(3, 4), ivy.ReLU(), ivy.Linear(4, 2), backend="numpy")
    np_model.load_weights(tmp_path / "w.safetensors")
    x = RNG.standard_normal((2, 3)).astype("float32")
    _close(_np(backend, model(to_native(backend, x))), np_model(x))
    back = ivy.Sequential(ivy.Linear(3, 4), ivy.ReLU(), ivy.Linear(4, 2), backend=backend)
    back.load_weights(tmp_path / "w.safetensors")
    assert ivy.namespace(back.v.layers["0"].w).name == backend
    assert back.v.all_equal(model.v)


def test_fn_stateful_container_arithmetic_on_native_arrays(backend):
    a = ivy.Container(x=to_native(backend, np.array([1.0, 2.0])), y={"z": to_native(backend, np.array([3.0]))})
    out = (a * 2 + a) / 3 - 1
    _close(_np(backend, out.x), [0.0, 1.0])
    _close(_np(backend, out.y.z), [2.0])
    assert ivy.namespace(out.y.z).name == backend


# ----------------------------------------------------------------------------- optimizers vs torch


def _torch_opt_run(torch, make, w0, grads):
    params = [torch.nn.Parameter(torch.from_numpy(w.copy())) for w in w0]
    opt = make(params)
    for g in grads:
        for p, gi in zip(params, g):
            p.grad = torch.from_numpy(gi.copy())
        opt.step()
    return [p.detach().numpy() for p in params]


@pytest.mark.parametrize(
    ("name", "ivy_opt", "torch_opt"),
    [
        ("sgd-momentum", lambda: ivy.SGD(0.1, momentum=0.9), lambda t, p: t.optim.SGD(p, lr=0.1, momentum=0.9)),
        (
            "sgd-nesterov-wd",
            lambda: ivy.SGD(0.05, momentum=0.8, nesterov=True, weight_decay=0.01),
            lambda t, p: t.optim.SGD(p, lr=0.05, momentum=0.8, nesterov=True, weight_decay=0.01),
        ),
        ("adam", lambda: ivy.Adam(0.01, epsilon=1e-8), lambda t, p: t.optim.Adam(p, lr=0.01, eps=1e-8)),
        (
            "adam-l2",
            lambda: ivy.Adam(0.01, epsilon=1e-8, weight_decay=0.1),
            lambda t, p: t.optim.Adam(p, lr=0.01, eps=1e-8, weight_decay=0.1),
        ),
        (
            "adamw",
            lambda: ivy.AdamW(0.01, epsilon=1e-8, weight_decay=0.05),
            lambda t, p: t.optim.AdamW(p, lr=0.01, eps=1e-8, weight_decay=0.05),
        ),
    ],
)
def test_fn_stateful_optimizers_vs_torch_optim(backend, name, ivy_opt, torch_opt):
    _needs_torch(backend)
    torch = _torch()
    w0 = [RNG.standard_normal((3, 2)), RNG.standard_normal(4)]
    grads = [[RNG.standard_normal((3, 2)), RNG.standard_normal(4)] for _ in range(6)]
    want = _torch_opt_run(torch, lambda p: torch_opt(torch, p), w0, grads)
    opt = ivy_opt()
    v = ivy.Container(a=to_native(backend, w0[0]), b={"c": to_native(backend, w0[1])})
    for g in grads:
        v = opt.step(v, ivy.Container(a=to_native(backend, g[0]), b={"c": to_native(backend, g[1])}))
    _close(_np(backend, v.a), want[0], rtol=1e-10, atol=1e-12)
    _close(_np(backend, v.b.c), want[1], rtol=1e-10, atol=1e-12)
    assert opt.step_count == 6


# --------------------------------------------------------------------------------------- training


class IvyFcModel(ivy.Module):
    def __init__(self):
        self.linear0 = ivy.Linear(3, 64)
        self.linear1 = ivy.Linear(64, 1)
        ivy.Module.__init__(self)

    def _forward(self, x):
        x = ivy.relu(self.linear0(x))
        return ivy.sigmoid(self.linear1(x))


def test_fn_stateful_paper_training_loop_lowers_the_loss(backend):
    _needs_autodiff(backend)
    ivy.seed(0, backend=backend)
    x_in = to_native(backend, np.array([[1.0, 2.0, 3.0]], dtype="float32"))
    target = to_native(backend, np.array([[0.0]], dtype="float32"))
    with ivy.use_backend(backend):
        model = IvyFcModel()
        optimizer = ivy.Adam(1e-4)

        def loss_fn(v):
            out = model(x_in, v=v)
            return ivy.mean((out - target) ** 2)

        losses = []
        for _ in range(100):
            loss, grads = ivy.execute_with_gradients(loss_fn, model.v)
            model.v = optimizer.step(model.v, grads)
            losses.append(float(_np(backend, loss)))
    assert isinstance(grads, ivy.Container) and grads.key_chains() == model.v.key_chains()
    assert losses[-1] < losses[0] and all(b <= a + 1e-7 for a, b in zip(losses, losses[1:]))
    assert optimizer.step_count == 100 and optimizer.state.mw.linear0.w.shape == (64, 3)


def test_fn_stateful_gradients_through_a_module_match_torch_autograd(backend):
    _needs_torch(backend)
    torch = _torch()
    model = IvyFcModel()
    ref = torch.nn.Sequential(torch.nn.Linear(3, 64), torch.nn.ReLU(), torch.nn.Linear(64, 1), torch.nn.Sigmoid())
    _set_v(
        backend,
        model,
        {
            "linear0": {"w": _t2np(ref[0].weight), "b": _t2np(ref[0].bias)},
            "linear1": {"w": _t2np(ref[2].weight), "b": _t2np(ref[2].bias)},
        },
    )
    x = RNG.standard_normal((8, 3)).astype("float32")
    t = RNG.random((8, 1)).astype("float32")
    loss, grads = ivy.execute_with_gradients(
        lambda v: ivy.mean(ivy.square(ivy.subtract(model(to_native(backend, x), v=v), to_native(backend, t)))), model.v
    )
    rl = ((ref(torch.from_numpy(x)) - torch.from_numpy(t)) ** 2).mean()
    rl.backward()
    _close(_np(backend, loss), rl.item())
    _close(_np(backend, grads.linear0.w), _t2np(ref[0].weight.grad), rtol=1e-4, atol=1e-6)
    _close(_np(backend, grads.linear1.b), _t2np(ref[2].bias.grad), rtol=1e-4, atol=1e-6)


def test_fn_stateful_batch_norm_inside_gradients_keeps_state_outside_the_graph(backend):
    _needs_autodiff(backend)
    model = ivy.Sequential(ivy.Linear(3, 4), ivy.BatchNorm2D(4), backend=backend)
    x = to_native(backend, RNG.standard_normal((6, 3)).astype("float32"))
    loss, grads = ivy.execute_with_gradients(lambda v: ivy.mean(model(x, v=v) ** 2), model.v)
    mean = model.state.layers["1"].running_mean
    assert not ivy.is_variable(mean, exclusive=True)
    h = _np(backend, model(x))  # the updated state is usable afterwards
    assert np.isfinite(h).all() and np.isfinite(_np(backend, mean)).all()
    assert grads.key_chains() == model.v.key_chains()


def test_fn_stateful_container_passes_through_jax_jit_and_grad(backend):
    if backend != "jax":
        pytest.skip("jax only")
    import jax

    from ivy.container import Container, pytree_flatten, pytree_unflatten

    try:  # what the jax plugin's load() is to do; harmless if it already has
        jax.tree_util.register_pytree_node(Container, pytree_flatten, pytree_unflatten)
    except ValueError:
        pass
    model = ivy.Linear(2, 3, backend="jax")
    x = to_native(backend, np.ones((4, 2), dtype="float32"))
    y = jax.jit(lambda v, x: model(x, v=v))(model.v, x)
    _close(_np(backend, y), _np(backend, model(x)), rtol=1e-6)
    g = jax.grad(lambda v: ivy.sum(model(x, v=v)))(model.v)
    assert type(g) is Container and g.key_chains() == ["w", "b"]
    _close(_np(backend, g.b), [4.0, 4.0, 4.0])
    _close(_np(backend, g.w), np.full((3, 2), 4.0))


# ----------------------------------------------------------------------- optimizer state, submodules


def _np_adam(w, g, m, v, t, lr, b1=0.9, b2=0.999, eps=1e-7):
    """Kingma & Ba, Algorithm 1 (NumPy)."""
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g * g
    return w - lr * (m / (1 - b1**t)) / (np.sqrt(v / (1 - b2**t)) + eps), m, v


@pytest.mark.parametrize("weight_decay", [0.0, 0.1])
def test_fn_stateful_adam_state_is_a_nest_like_v(backend, weight_decay):
    # ivy.Adam keeps its moments as lists of leaves between steps; opt.state shows them as nests
    # of v's structure, with the paper's values (L2 decay: g + wd w, as torch.optim.Adam).
    w0 = {"a": RNG.standard_normal((3, 2)), "b": {"c": RNG.standard_normal(4)}}
    grads = [{"a": RNG.standard_normal((3, 2)), "b": {"c": RNG.standard_normal(4)}} for _ in range(3)]
    opt = ivy.Adam(0.05, weight_decay=weight_decay)
    assert dict(opt.state) == {}
    v = ivy.Container(w0).map(lambda a, _: to_native(backend, a))
    ref = {k: (w0[k] if k == "a" else w0["b"]["c"], 0.0, 0.0) for k in ("a", "c")}
    for t, g in enumerate(grads, start=1):
        v = opt.step(v, ivy.Container(g).map(lambda a, _: to_native(backend, a)))
        for k, gk in (("a", g["a"]), ("c", g["b"]["c"])):
            w, m, vv = ref[k]
            ref[k] = _np_adam(w, gk + weight_decay * w, m, vv, t, 0.05)
    st = opt.state
    assert sorted(st) == ["mw", "vw"]
    for name, i in (("mw", 1), ("vw", 2)):
        assert type(st[name]) is ivy.Container and st[name].key_chains() == ["a", "b/c"]
        _close(_np(backend, st[name].a), ref["a"][i], rtol=1e-10, atol=1e-12)
        _close(_np(backend, st[name].b.c), ref["c"][i], rtol=1e-10, atol=1e-12)
    _close(_np(backend, v.a), ref["a"][0], rtol=1e-10, atol=1e-12)
    _close(_np(backend, v.b.c), ref["c"][0], rtol=1e-10, atol=1e-12)


def test_fn_stateful_adam_refuses_variables_of_another_structure(backend):
    opt = ivy.Adam(0.1)
    v = ivy.Container(a=to_native(backend, np.ones(2)))
    v = opt.step(v, ivy.Container(a=to_native(backend, np.ones(2))))
    other = ivy.Container(a=to_native(backend, np.ones(2)), b=to_native(backend, np.ones(3)))
    with pytest.raises(ValueError, match="differ in structure from those of the first step"):
        opt.step(other, other)
    with pytest.raises(ValueError, match="only in the first"):  # the gradients' key chains named
        opt.step(other, ivy.Container(a=to_native(backend, np.ones(2))))


def test_fn_stateful_adam_subclass_with_its_own_rule(backend):
    # a subclass overriding _step (the nest-level hook) is still called
    class HalfAdam(ivy.Adam):
        def _step(self, v, grads, lr):
            return super()._step(v, grads, lr / 2)

    w0, g0 = RNG.standard_normal(3), RNG.standard_normal(3)
    v = HalfAdam(0.2).step({"w": to_native(backend, w0)}, {"w": to_native(backend, g0)})
    _close(_np(backend, v["w"]), _np_adam(w0, g0, 0.0, 0.0, 1, 0.1)[0], rtol=1e-10, atol=1e-12)


def test_fn_stateful_submodules_follow_attribute_changes(backend):
    # Module caches which attributes can hold submodules: assigning, deleting and changing a
    # list in place must all show in v (as they did when every access scanned the attributes).
    class Net(ivy.Module):
        def __init__(self):
            self.first = ivy.Linear(2, 3, backend=backend)
            self.blocks = [ivy.Linear(3, 3, backend=backend)]
            ivy.Module.__init__(self, backend=backend)

        def _forward(self, x):
            for b in self.blocks:
                x = b(x)
            return x

    net = Net()
    assert net.v.key_chains() == ["first/w", "first/b", "blocks/0/w", "blocks/0/b"]
    net.blocks.append(ivy.Linear(3, 1, with_bias=False, backend=backend))  # in place
    assert net.v.key_chains()[-1] == "blocks/1/w"
    net.first = ivy.Linear(2, 5, with_bias=False, backend=backend)  # replaced
    assert net.v.key_chains()[:1] == ["first/w"] and tuple(net.v.first.w.shape) == (5, 2)
    net.extra = ivy.Linear(1, 1, backend=backend)  # added
    assert net.v.key_chains()[-2:] == ["extra/w", "extra/b"]
    del net.first  # removed
    assert not any(k.startswith("first") for k in net.v.key_chains())
    net.__dict__["late"] = ivy.Linear(1, 2, backend=backend)  # written past __setattr__
    assert net.v.key_chains()[-2:] == ["late/w", "late/b"]
    x = to_native(backend, np.ones((4, 3), dtype="float32"))
    v = net.v
    w0 = _np(backend, v.blocks["0"].w)
    w1 = _np(backend, v.blocks["1"].w)
    _close(_np(backend, net(x)), np.ones((4, 3)) @ w0.T @ w1.T + _np(backend, v.blocks["0"].b) @ w1.T)
