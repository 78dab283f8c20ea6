"""What the torch plugin's functional API does of its own: its native ops, autograd's leaves and
functorch's wrappers, torch's global generator, torch's devices, equivalence with
``torch.nn.functional``, the slicing torch lacks natively, the copies it avoids, and its compile
hook.

The behaviour every backend shares is tested once, for every backend, by the conformance suite
(``python -m pytest --backend torch --pyargs ivy.testing.suite``).
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import torch.nn.functional as F

import ivy
import ivy.plugin_kit._devices as _kit_devices
from ivy.plugin_kit import composed

xp = ivy.backend_namespace("torch")
B = ivy._registry.get_backend("torch")

no_gpu = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU on this machine")


def t(a, dtype=torch.float64):
    return torch.as_tensor(np.asarray(a), dtype=dtype)


def npa(x):
    return x.detach().cpu().numpy()


def close(got, want, tol=1e-10):
    np.testing.assert_allclose(npa(got) if isinstance(got, torch.Tensor) else got, want, rtol=tol, atol=tol)


def test_torch_native_ops_present():
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
        "layer_norm",
        "pad",
        "gather",
        "gather_nd",
        "top_k",
        "cumsum",
        "lstm_update",
        "lstm",
        "gru_update",
        "gru",
        "scaled_dot_product_attention",
        "one_hot",
        "embedding",
        "dropout",
    }
    assert want <= set(B.native_ops), sorted(want - set(B.native_ops))
    from ivy._registry import signature_mismatch

    assert {n: m for n in B.native_ops if (m := signature_mismatch(n, B.ops[n]))} == {}


def test_torch_plugin_import_is_framework_free():
    code = "import sys, ivy_torch; assert 'torch' not in sys.modules, 'torch imported'; print(ivy_torch.ivy_compile)"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr


# ---------------------------------------------------------------------------- autograd


def test_torch_variables_are_autograd_leaves():
    x = t([1.0, 2.0])
    v = ivy.variable(x)
    assert v.requires_grad and v.is_leaf and not x.requires_grad
    y = v * 2  # tracked, but not a leaf: a variable, not of the distinct kind
    assert ivy.is_variable(y) and not ivy.is_variable(y, exclusive=True)
    w = ivy.variable(y)  # has history: a fresh leaf
    assert w.is_leaf and w.requires_grad
    close(w, [2.0, 4.0])
    assert not ivy.stop_gradient(v).requires_grad
    assert ivy.inplace_update(v, 5.0) is v
    assert v.requires_grad and v.is_leaf  # still a leaf after an in-place write
    close(v, [5.0, 5.0], 0)


def test_torch_module_state_updated_inside_gradients_is_a_plain_tensor():
    # BatchNorm's running statistics are stored while execute_with_gradients traces with
    # torch.func: they must come out as ordinary tensors, not wrappers of a finished level.
    m = ivy.Sequential(ivy.Linear(4, 6), ivy.BatchNorm2D(6), backend="torch")
    x = torch.randn(8, 4)
    ivy.execute_with_gradients(lambda v: ivy.mean(ivy.square(m(x, v=v))), m.v)
    state = ivy.nest.leaves(m.state)
    assert state and not any(torch._C._functorch.is_gradtrackingtensor(s) for s in state)
    assert not any(s.requires_grad for s in state)
    loss, grads = ivy.execute_with_gradients(lambda v: ivy.mean(ivy.square(m(x, v=v))), m.v)  # usable again
    assert torch.isfinite(loss)


# ---------------------------------------------------------------------------- random


def test_torch_seed_is_torchs_generator_and_a_per_call_seed_leaves_it():
    ivy.seed(3, backend="torch")
    ref = torch.rand(4, dtype=torch.get_default_dtype())
    ivy.seed(3, backend="torch")
    ivy.random_uniform(shape=(4,), seed=11, backend="torch")
    close(torch.rand(4, dtype=torch.get_default_dtype()), npa(ref), 0)


def test_torch_composed_dropout_draws_the_native_mask():
    ones = torch.ones(6, dtype=torch.float64)
    close(composed("dropout", "torch")(ones, 0.5, seed=1), npa(ivy.dropout(ones, 0.5, seed=1)), 0)


# ---------------------------------------------------------------------------- devices


def test_torch_devices_are_torch_devices():
    x = torch.ones(3)
    assert ivy.dev(x, as_native=True) == torch.device("cpu")
    for d in ("cpu", torch.device("cpu"), "CPU"):
        assert ivy.to_device(x, d) is x  # already there: no copy
    assert ivy.default_device(as_native=True, backend="torch") == torch.device("cpu")
    assert ivy.num_gpus(backend="torch") == torch.cuda.device_count()


@no_gpu
def test_torch_device_gpu_round_trip():
    x = torch.arange(4.0)
    for d in ("gpu:0", "cuda:0", torch.device("cuda", 0)):
        y = ivy.to_device(x, d)
        assert ivy.dev(y) == "gpu:0" and y.device == torch.device("cuda", 0)
        assert ivy.dev(y, as_native=True) == torch.device("cuda", 0)
        close(ivy.to_device(y, "cpu"), [0.0, 1.0, 2.0, 3.0], 0)
    u = ivy.random_uniform(shape=(3,), device="gpu:0", seed=1, backend="torch")
    assert ivy.dev(u) == "gpu:0"
    c = ivy.conv2d(torch.ones(1, 5, 5, 2, device="cuda"), torch.ones(3, 3, 2, 4, device="cuda"), 2, "SAME")
    assert ivy.dev(c) == "gpu:0" and c.shape == (1, 3, 3, 4)
    assert ivy.dev(ivy.pad(torch.ones(2, device="cuda"), 1)) == "gpu:0"


def test_torch_registered_device_kind(monkeypatch):
    """A third-party device kind registered for torch (ivy_register_devices) is listed, accepted by
    to_device and creation and mapped to its native device; unregistered kinds still raise."""
    from ivy.plugin import DeviceKind

    cpu = torch.device("cpu")
    dk = DeviceKind(
        backend="torch",
        kind="vdev",
        list_devices=lambda: ["vdev:0"],
        to_native=lambda s: cpu,
        from_native=lambda n: None,
    )
    monkeypatch.setattr(_kit_devices, "_device_kinds", {"torch": {"vdev": dk}})  # restored afterwards
    assert "vdev:0" in xp.devices() and "vdev:0" in ivy.devices(backend="torch")
    assert xp.devices()[0] == "cpu"
    x = torch.ones(3)
    y = ivy.to_device(x, "vdev:0")
    assert ivy.dev(y) == "cpu"
    assert y.device.type == "cpu"
    assert xp.asarray([1.0, 2.0], device="vdev:0").device.type == "cpu"
    with pytest.raises(ValueError):
        ivy.to_device(x, "foo:0")


# ---------------------------------------------------------------------------- torch.nn.functional


def test_torch_conv_and_pools_equal_torch_nn_functional():
    r = np.random.default_rng(11)
    x, w = r.normal(size=(2, 3, 8, 8)), r.normal(size=(3, 3, 3, 5))
    want = F.conv2d(t(x), t(w).permute(3, 2, 0, 1), stride=2, padding=1)  # Ivy's [kh, kw, in, out]
    close(ivy.conv2d(t(x), t(w), 2, 1, data_format="NCHW"), npa(want), 1e-10)
    p = t(r.normal(size=(2, 3, 9, 9)))
    close(ivy.max_pool2d(p, 3, 2, 1, data_format="NCHW"), npa(F.max_pool2d(p, 3, 2, 1)), 0)
    close(
        ivy.avg_pool2d(p, 3, 2, 1, data_format="NCHW", count_include_pad=True),
        npa(F.avg_pool2d(p, 3, 2, 1, count_include_pad=True)),
        1e-12,
    )


def test_torch_negative_steps_with_masks():
    # torch slices only with positive steps: the plugin flips; a mask before a reversed axis
    a = np.arange(24.0).reshape(2, 3, 4)
    x = t(a)
    close(ivy.get_item(x, slice(None, None, -1)), a[::-1], 0)
    close(ivy.get_item(x, (t(a[..., 0] > 5, torch.bool), slice(None, None, -1))), a[a[..., 0] > 5][:, ::-1], 0)


def test_torch_identities_return_the_input():
    x = torch.ones(8, dtype=torch.float64)
    assert ivy.dropout(x, 0.5, training=False) is x


# ---------------------------------------------------------------------------- compile


def test_torch_compile_hook_only_for_torch_and_options_pass_through():
    from ivy_torch._compile import ivy_compile

    assert ivy_compile(backend="numpy", fn=lambda a: a, options={}) is None
    torch._dynamo.reset()
    seen = []

    def my_backend(gm, example_inputs):
        seen.append(len(example_inputs))
        return gm.forward

    fn = ivy_compile(backend="torch", fn=lambda a: torch.cos(a) * 2, options={"backend": my_backend, "dynamic": False})
    x = t(np.linspace(0, 1, 5))
    close(fn(x), 2 * np.cos(np.linspace(0, 1, 5)), 1e-12)
    assert seen == [1]


def test_torch_compile_of_user_code_around_an_emitted_graph():
    # torch.compile reads the globals of every function it inlines through their module: an
    # emitted program's globals must not name a module that cannot be imported
    torch._dynamo.reset()
    x = t(np.linspace(-1, 1, 6).reshape(2, 3))
    program = ivy.trace_graph(lambda a: ivy.sin(a) * 2, args=(x,)).to("torch", compile=False)
    graphs = []

    def count(gm, example_inputs):
        graphs.append(gm)
        return gm.forward

    wrapped = torch.compile(lambda a: program(a) + 1, backend=count)
    close(wrapped(x), 2 * np.sin(np.linspace(-1, 1, 6).reshape(2, 3)) + 1, 1e-12)
    assert len(graphs) == 1


def test_torch_take_along_axis_wraps_negative_indices_and_checks_bounds():
    # torch's gather refuses negative indices: the plugin wraps [-n, 0) (with or without
    # broadcasting) and, where nothing is broadcast (gather checks its indices), raises IndexError
    # beyond
    import numpy as np
    import torch

    import ivy

    x = torch.arange(20.0).reshape(4, 5)
    for idx in ([[0, -1, 2]] * 4, [[4, -5]], [[1], [2], [-3], [0]]):
        i = torch.tensor(idx)
        want = np.take_along_axis(x.numpy(), np.broadcast_to(i.numpy(), (4, i.shape[1])), 1)
        np.testing.assert_array_equal(ivy.take_along_axis(x, i, axis=1).numpy(), want)
    with pytest.raises(IndexError, match="out of bounds"):
        ivy.take_along_axis(x, torch.tensor([[5]] * 4), axis=1)
    with pytest.raises(IndexError, match="out of bounds"):
        ivy.take_along_axis(x, torch.tensor([[-6]] * 4), axis=-1)


@pytest.mark.parametrize("op", ["gru", "lstm"])
def test_torch_native_recurrent_stacks_match_the_composition_with_gradients(op):
    # torch.gru / torch.lstm (one ATen kernel) against core's loop of Array API ops: the outputs,
    # and autograd's gradients of every weight, bias and initial state
    r = np.random.default_rng(31)
    g = 3 if op == "gru" else 4
    x = r.normal(size=(2, 5, 3))
    ks, rks = [r.normal(size=(3, g * 4)) * 0.5, r.normal(size=(4, g * 4)) * 0.5], [r.normal(size=(4, g * 4)) * 0.5] * 2
    bs, rbs = [r.normal(size=(g * 4,)) for _ in range(2)], [r.normal(size=(g * 4,)) for _ in range(2)]
    states = [r.normal(size=(2, 2, 4)) for _ in range(1 if op == "gru" else 2)]

    def run(fn):
        leaves = [t(a).requires_grad_() for a in (x, *states, *ks, *rks, *bs, *rbs)]
        xs, st = leaves[0], leaves[1 : 1 + len(states)]
        w = leaves[1 + len(states) :]
        hs, last = fn(xs, *st, w[0:2], w[2:4], biases=w[4:6], recurrent_biases=w[6:8])
        finals = [last] if op == "gru" else list(last)
        loss = (hs**2).sum() + sum((f * f.new_tensor(np.arange(f.numel()).reshape(f.shape))).sum() for f in finals)
        loss.backward()
        return [npa(hs), *map(npa, finals)], [npa(a.grad) for a in leaves]

    (got, got_g), (want, want_g) = run(getattr(ivy, op)), run(composed(op, "torch"))
    for a, b in zip(got + got_g, want + want_g):
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-10)


def test_torch_gru_update_without_biases_and_on_float32():
    r = np.random.default_rng(32)
    x, h0, k, rk = r.normal(size=(2, 4, 3)), r.normal(size=(2, 5)), r.normal(size=(3, 15)), r.normal(size=(5, 15))
    for kw in ({}, {"recurrent_bias": t(r.normal(size=(15,)))}):  # torch.gru needs both biases or none
        got = ivy.gru_update(t(x), t(h0), t(k), t(rk), **kw)
        want = composed("gru_update", "torch")(t(x), t(h0), t(k), t(rk), **kw)
        for a, b in zip(got, want):
            np.testing.assert_allclose(npa(a), npa(b), rtol=1e-10, atol=1e-12)
    f = torch.float32
    hs, h = ivy.gru_update(t(x, f), t(h0, f), t(k, f), t(rk, f))
    assert hs.dtype == h.dtype == f and hs.shape == (2, 4, 5)
