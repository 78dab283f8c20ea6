"""What the paddle plugin's functional API does of its own: its native ops, paddle's
``stop_gradient`` flags and leaves, paddle's global generator, Paddle's places, the copies it
avoids, and its compile hook. TensorFlow is never imported here (paddle crashes after it).

The behaviour every backend shares is tested once, for every backend, by the conformance suite
(``python -m pytest --backend paddle --pyargs ivy.testing.suite``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from types import SimpleNamespace

import numpy as np
import pytest

import ivy
import ivy.plugin_kit._devices as _kit_devices
from ivy.plugin_kit import composed

if "tensorflow" in sys.modules:  # pragma: no cover - paddle would crash
    pytest.skip("tensorflow is imported in this process: paddle cannot load after it", allow_module_level=True)

xp = ivy.backend_namespace("paddle")  # imports paddle quietly
import paddle
from scipy import special

B = ivy._registry.get_backend("paddle")


def _ngpu():
    try:
        return paddle.device.cuda.device_count() if paddle.is_compiled_with_cuda() else 0
    except Exception:
        return 0


NGPU = _ngpu()
no_gpu = pytest.mark.skipif(NGPU == 0, reason="no GPU visible to paddle (CPU build or no device)")


def t(a, dtype="float64"):
    return paddle.to_tensor(np.asarray(a), dtype=dtype)


def close(got, want, tol=1e-10):
    np.testing.assert_allclose(got.numpy() if isinstance(got, paddle.Tensor) else got, want, rtol=tol, atol=tol)


def test_paddle_native_ops_present():
    want = {
        "variable",
        "is_variable",
        "stop_gradient",
        "value_and_grad_flat",
        "vjp",
        "jvp",
        "jacobian",
        "seed",
        "random_uniform",
        "random_normal",
        "randint",
        "multinomial",
        "shuffle",
        "bernoulli",
        "dev",
        "to_device",
        "default_device",
        "devices",
        "num_gpus",
        "gpu_is_available",
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
        "scatter_nd",
        "scatter_flat",
        "set_item",
        "inplace_update",
        "einsum",
        # overrides of compositions
        "relu",
        "gelu",
        "softmax",
        "log_softmax",
        "layer_norm",
        "linear",
        "pad",
        "gather",
        "gather_nd",
        "top_k",
        "cumsum",
        "one_hot",
        "embedding",
        "dropout",
        "split",
        "flatten",
        "transpose",
        "cast",
        "get_item",
        "adaptive_avg_pool2d",
        "group_norm",
        "huber_loss",
        "batch_norm",
        "selu",
        "lstm_update",
        "lstm",
        "gru_update",
        "gru",
    }
    assert want <= set(B.native_ops), sorted(want - set(B.native_ops))
    from ivy._registry import signature_mismatch

    assert {n: m for n in B.native_ops if (m := signature_mismatch(n, B.ops[n]))} == {}


def test_paddle_plugin_import_is_framework_free():
    code = (
        "import sys, ivy_paddle; assert 'paddle' not in sys.modules, 'paddle imported'; print(ivy_paddle.ivy_compile)"
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr


# ---------------------------------------------------------------------------- stop_gradient flags, leaves


def test_paddle_variables_are_leaves_that_track_gradients():
    x = t([1.0, 2.0])
    v = ivy.variable(x)
    assert not v.stop_gradient and v.is_leaf and x.stop_gradient
    assert ivy.variable(v) is v
    y = v * 2  # tracked, but not a leaf: a variable, not of the distinct kind
    assert ivy.is_variable(y) and not ivy.is_variable(y, exclusive=True)
    w = ivy.variable(y)  # has history: a fresh leaf
    assert w.is_leaf and not w.stop_gradient
    close(w, [2.0, 4.0])
    assert ivy.stop_gradient(v).stop_gradient
    assert ivy.inplace_update(v, 5.0) is v
    assert not v.stop_gradient and v.is_leaf  # still a leaf after an in-place write
    close(v, [5.0, 5.0], 0)


def test_paddle_transforms_leave_the_flags_and_grad_alone():
    x = t([1.0, 2.0])
    ivy.value_and_grad_flat(lambda ls: (ls[0] ** 2).sum(), [x])
    assert x.stop_gradient  # the input itself is left alone
    v = ivy.variable(t([1.0, 2.0, 3.0]))
    ivy.value_and_grad_flat(lambda ls: (ls[0] ** 2).sum(), [v])
    assert v.grad is None  # paddle.grad does not accumulate into .grad
    h = ivy.grad(lambda a: paddle.sum(ivy.grad(lambda b: paddle.sum(b**3))(a)))(t([0.5, 2.0]))
    close(h, [3.0, 12.0])
    assert h.stop_gradient  # the result is detached


# ---------------------------------------------------------------------------- random


def test_paddle_seed_is_paddles_generator_and_a_per_call_seed_leaves_it():
    ivy.seed(3, backend="paddle")
    ref = paddle.rand([4]).numpy()
    ivy.seed(3, backend="paddle")
    ivy.random_uniform(shape=(4,), seed=11, backend="paddle")
    close(paddle.rand([4]), ref, 0)


def test_paddle_composed_dropout_draws_the_native_mask():
    ones = paddle.ones([6], dtype="float64")
    close(composed("dropout", "paddle")(ones, 0.5, seed=1), ivy.dropout(ones, 0.5, seed=1).numpy(), 0)


# ---------------------------------------------------------------------------- places


def test_paddle_devices_are_paddle_places():
    x = paddle.ones([3])
    assert ivy.dev(x, as_native=True).is_cpu_place()
    for d in ("cpu", paddle.CPUPlace(), "CPU", x.place):
        assert ivy.to_device(x, d) is x  # already there: no copy
    assert ivy.default_device(backend="paddle") == paddle.device.get_device()  # "cpu" / "gpu:0" both ways
    assert str(ivy.default_device(as_native=True, backend="paddle")) in ("Place(cpu)", "CPUPlace")
    assert ivy.num_gpus(backend="paddle") == NGPU


@no_gpu
def test_paddle_device_gpu_round_trip():
    x = paddle.arange(4, dtype="float32").cpu()
    for d in ("gpu:0", "cuda:0", paddle.CUDAPlace(0)):
        y = ivy.to_device(x, d)
        assert ivy.dev(y) == "gpu:0" and y.place.is_gpu_place()
        assert ivy.dev(y, as_native=True).is_gpu_place()
        z = ivy.to_device(y, "cpu")
        assert ivy.dev(z) == "cpu"
        close(z, [0.0, 1.0, 2.0, 3.0], 0)
    u = ivy.random_uniform(shape=(3,), device="gpu:0", seed=1, backend="paddle")
    assert ivy.dev(u) == "gpu:0"
    g = ivy.to_device(paddle.ones([1, 5, 5, 2]), "gpu:0")
    c = ivy.conv2d(g, ivy.to_device(paddle.ones([3, 3, 2, 4]), "gpu:0"), 2, "SAME")
    assert ivy.dev(c) == "gpu:0" and list(c.shape) == [1, 3, 3, 4]
    assert ivy.dev(ivy.pad(ivy.to_device(paddle.ones([2]), "gpu:0"), 1)) == "gpu:0"


def test_paddle_registered_device_kind(monkeypatch):
    """A third-party device kind registered for paddle (ivy_register_devices) is listed, accepted by
    to_device and creation and mapped to its native device; unregistered kinds still raise."""
    from ivy.plugin import DeviceKind

    cpu = paddle.CPUPlace()
    dk = DeviceKind(
        backend="paddle",
        kind="vdev",
        list_devices=lambda: ["vdev:0"],
        to_native=lambda s: cpu,
        from_native=lambda n: None,
    )
    monkeypatch.setattr(_kit_devices, "_device_kinds", {"paddle": {"vdev": dk}})  # restored afterwards
    assert "vdev:0" in xp.devices() and "vdev:0" in ivy.devices(backend="paddle")
    assert xp.devices()[0] == "cpu"
    x = paddle.ones([3])
    y = ivy.to_device(x, "vdev:0")
    assert ivy.dev(y) == "cpu"
    assert y.place.is_cpu_place()
    assert xp.asarray([1.0, 2.0], device="vdev:0").place.is_cpu_place()
    with pytest.raises(ValueError):
        ivy.to_device(x, "foo:0")


def test_paddle_identities_return_the_input():
    x = paddle.ones([8], dtype="float64")
    assert ivy.dropout(x, 0.5, training=False) is x
    assert ivy.cast(x, "float64") is x


# ---------------------------------------------------------------------------- compile


def _f(x, y):
    return paddle.sin(x) * y + paddle.nn.functional.softmax(x, axis=-1)


def test_paddle_compile_hook_only_for_paddle_and_options_pass_through():
    from ivy_paddle._compile import ivy_compile

    assert ivy_compile(backend="numpy", fn=_f, options={}) is None
    spec = [paddle.static.InputSpec(shape=[None], dtype="float64")]

    def twice_cos(a):
        return paddle.cos(a) * 2

    fn = ivy_compile(backend="paddle", fn=twice_cos, options={"input_spec": spec, "full_graph": True})
    assert isinstance(fn, paddle.jit.api.StaticFunction)
    for n in (3, 5):  # the declared dynamic shape
        z = np.linspace(0, 1, n)
        close(fn(t(z)), 2 * np.cos(z), 1e-12)
    hooked = ivy._registry.plugin_manager().hook.ivy_compile(backend="paddle", fn=_f, options={})
    x, y = (t(a) for a in np.random.default_rng(40).normal(size=(2, 3, 4)))
    close(hooked(x, y), np.sin(x.numpy()) * y.numpy() + special.softmax(x.numpy(), axis=-1), 1e-12)


def test_paddle_a_graph_emitted_again_runs_again():
    # each emission executes the same source with globals of its own; paddle's SOT caches its
    # translation by equal code objects and would run the first emission's with the second's globals
    def f(x):
        return ivy.sin(x) * 2.0 + ivy.exp(-x)

    z = np.linspace(-1.0, 1.0, 5)
    want = np.sin(z) * 2.0 + np.exp(-z)
    g = ivy.trace_graph(f, args=(t(z),))
    for program in (g.to("paddle"), g.to("paddle"), ivy.trace_graph(f, args=(t(z),), to="paddle")):
        close(program(t(z)), want, 1e-12)


def _rnn_case(op, seed):
    r = np.random.default_rng(seed)
    g = 3 if op == "gru" else 4
    x = r.normal(size=(2, 5, 3))
    ks = [r.normal(size=(3, g * 4)) * 0.5, r.normal(size=(4, g * 4)) * 0.5]
    rks = [r.normal(size=(4, g * 4)) * 0.5 for _ in range(2)]
    bs, rbs = [r.normal(size=(g * 4,)) for _ in range(2)], [r.normal(size=(g * 4,)) for _ in range(2)]
    states = [r.normal(size=(2, 2, 4)) for _ in range(1 if op == "gru" else 2)]
    return x, states, ks, rks, bs, rbs


def _rnn_loss(op, fn, x, states, w):
    hs, last = fn(x, *states, w[0:2], w[2:4], biases=w[4:6], recurrent_biases=w[6:8])
    finals = [last] if op == "gru" else list(last)
    return ivy.sum(hs * hs) + sum(ivy.sum(ivy.sin(f)) for f in finals)


@pytest.mark.parametrize("op", ["gru", "lstm"])
def test_paddle_fused_recurrent_stacks_match_the_composition_with_gradients(op, monkeypatch):
    # paddle's fused RNN op (a training step's gradient: of every weight) against core's loop of
    # Array API ops; then gradients it cannot give (of the input alone, of some weights) through
    # the composition
    from ivy_paddle import _recurrent

    calls = []
    rnn = _recurrent._C_ops.rnn
    monkeypatch.setattr(_recurrent, "_C_ops", SimpleNamespace(rnn=lambda *a: calls.append(1) or rnn(*a)))
    x, states, ks, rks, bs, rbs = _rnn_case(op, 35)
    xs, sts, ws = t(x), [t(s) for s in states], [t(a) for a in (*ks, *rks, *bs, *rbs)]
    for fn_name in ("native", "composed"):
        fn = getattr(ivy, op) if fn_name == "native" else composed(op, "paddle")
        v, g, _ = ivy.value_and_grad_flat(lambda w, fn=fn: _rnn_loss(op, fn, xs, sts, w), ws)
        if fn_name == "native":
            got = [v, *g]
        else:
            for a, b in zip(got, [v, *g]):
                close(a, b.numpy(), 1e-10)
    assert calls == [1], "the training step's gradient runs the fused op"
    want = composed(op, "paddle")
    for pick in ([0], [2, 5]):  # of the input alone, and of some weights only
        subset = [([xs] + ws)[i] for i in pick]

        def loss(sub, fn, pick=pick):
            full = [xs] + ws
            for i, a in zip(pick, sub):
                full[i] = a
            return _rnn_loss(op, fn, full[0], sts, full[1:])

        got_g = ivy.value_and_grad_flat(lambda sub: loss(sub, getattr(ivy, op)), subset)[1]
        want_g = ivy.value_and_grad_flat(lambda sub: loss(sub, want), subset)[1]
        for a, b in zip(got_g, want_g):
            close(a, b.numpy(), 1e-10)


def test_paddle_fused_gru_trains_without_biases_and_nested():
    x, (h0,), ks, rks, _, _ = _rnn_case("gru", 36)
    xs, hs0, k, rk = t(x), t(h0[0]), t(ks[0]), t(rks[0])

    def loss(w, fn):
        hs, h = fn(xs, hs0, w[0], w[1])
        return ivy.sum(hs * hs) + ivy.sum(h)

    got = ivy.value_and_grad_flat(lambda w: loss(w, ivy.gru_update), [k, rk])
    want = ivy.value_and_grad_flat(lambda w: loss(w, composed("gru_update", "paddle")), [k, rk])
    for a, b in zip([got[0], *got[1]], [want[0], *want[1]]):
        close(a, b.numpy(), 1e-10)

    def outer(w, fn):  # a gradient of a gradient: the fused op has no second derivative
        g = ivy.value_and_grad_flat(lambda xx: ivy.sum(fn(xx[0], hs0, w[0], w[1])[0] ** 2), [xs])[1][0]
        return ivy.sum(g * g)

    got = ivy.value_and_grad_flat(lambda w: outer(w, ivy.gru_update), [k, rk])[1]
    want = ivy.value_and_grad_flat(lambda w: outer(w, composed("gru_update", "paddle")), [k, rk])[1]
    for a, b in zip(got, want):
        close(a, b.numpy(), 1e-10)
