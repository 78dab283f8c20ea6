"""Native interop of the stateful API (``ivy.to_native_module`` / ``ivy.from_native_module``) on
torch and paddle, and the training acceptance checks on every backend.

Every check compares numbers with an independent reference: a NumPy implementation written here
(the paper's ``IvyFcModel`` forward pass), or the framework's own layers (``torch.nn.Conv2d``,
``paddle.nn.LSTM``...) trained by its own optimizer from the same weights. Weights trained on the
backend under test load on every other installed backend, each in a subprocess (one framework per
process: paddle crashes after tensorflow). The paper model's trajectory against a NumPy reference
is in ``test_fn_acceptance.py``; TensorFlow and JAX interop in ``test_fn_interop_tf_jax.py``.

    python -m pytest tests/test_fn_interop.py --backend torch -q -p no:cacheprovider --import-mode=importlib
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import ivy
from ivy.testing.convert import native_to_numpy, to_native

HERE = os.path.dirname(os.path.abspath(__file__))


def _np(backend, x):
    return native_to_numpy(backend, x)


def _close(actual, expected, *, rtol=1e-5, atol=1e-5):
    np.testing.assert_allclose(
        np.asarray(actual, dtype=np.float64), np.asarray(expected, dtype=np.float64), rtol=rtol, atol=atol
    )


def _f32(a):
    return np.asarray(a, dtype="float32")


def _set_v(backend, module, weights):
    module.v = ivy.Container(weights).map(lambda a, _: to_native(backend, _f32(a)))
    return module


def _only(backend, *names):
    if backend not in names:
        pytest.skip(f"{' / '.join(names)} interop (this run: {backend})")


# ------------------------------------------------------------------------------------ models


class IvyFcModel(ivy.Module):
    """The paper's model (appendix A.2)."""

    def __init__(self, **kwargs):
        self.fc0 = ivy.Linear(3, 64)
        self.fc1 = ivy.Linear(64, 1)
        ivy.Module.__init__(self, **kwargs)

    def _forward(self, x):
        x = ivy.relu(self.fc0(x))
        return ivy.sigmoid(self.fc1(x))


class IvyConvNet(ivy.Module):
    """conv(2->4, 3x3) - relu - conv(4->4, 3x3) - relu - spatial mean - linear(4->1), NCHW."""

    def __init__(self, **kwargs):
        self.conv0 = ivy.Conv2D(2, 4, 3, data_format="NCHW")
        self.conv1 = ivy.Conv2D(4, 4, 3, data_format="NCHW")
        self.head = ivy.Linear(4, 1)
        ivy.Module.__init__(self, **kwargs)

    def _forward(self, x):
        x = ivy.relu(self.conv0(x))
        x = ivy.relu(self.conv1(x))
        return self.head(ivy.mean(x, axis=(2, 3)))


class IvyLSTMModel(ivy.Module):
    """LSTM(3->8) over [batch, time, 3], then linear(8->1) on the last step."""

    def __init__(self, **kwargs):
        self.lstm = ivy.LSTM(3, 8)
        self.head = ivy.Linear(8, 1)
        ivy.Module.__init__(self, **kwargs)

    def _forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1])


def _fc_weights(seed=0):
    rng = np.random.default_rng(seed)
    return {
        "fc0": {"w": rng.uniform(-0.5, 0.5, (64, 3)), "b": rng.uniform(-0.5, 0.5, 64)},
        "fc1": {"w": rng.uniform(-0.15, 0.15, (1, 64)), "b": rng.uniform(-0.1, 0.1, 1)},
    }


def _conv_weights(seed=1):
    rng = np.random.default_rng(seed)
    return {  # Ivy's conv layout: [fh, fw, in, out]
        "conv0": {"w": rng.uniform(-0.4, 0.4, (3, 3, 2, 4)), "b": rng.uniform(-0.1, 0.1, 4)},
        "conv1": {"w": rng.uniform(-0.3, 0.3, (3, 3, 4, 4)), "b": rng.uniform(-0.1, 0.1, 4)},
        "head": {"w": rng.uniform(-0.5, 0.5, (1, 4)), "b": rng.uniform(-0.1, 0.1, 1)},
    }


def _lstm_weights(seed=2):
    rng = np.random.default_rng(seed)
    k = 1 / np.sqrt(8)
    return {  # Ivy's LSTM layout: w [in, 4h], r [h, 4h], one bias; gates i, f, g, o
        "lstm": {
            "layer0": {"w": rng.uniform(-k, k, (3, 32)), "r": rng.uniform(-k, k, (8, 32)), "b": rng.uniform(-k, k, 32)}
        },
        "head": {"w": rng.uniform(-0.5, 0.5, (1, 8)), "b": rng.uniform(-0.1, 0.1, 1)},
    }


def _fc_data(seed=3):
    rng = np.random.default_rng(seed)
    return _f32(rng.standard_normal((16, 3))), _f32(rng.random((16, 1)))


def _ivy_train(backend, model, x, y, *, steps, lr):
    """The paper's loop: ivy.execute_with_gradients + ivy.Adam; returns the losses."""
    optimizer = ivy.Adam(lr, epsilon=1e-8)
    x, y = to_native(backend, x), to_native(backend, y)

    def loss_fn(v):
        return ivy.mean((model(x, v=v) - y) ** 2)

    losses = []
    for _ in range(steps):
        loss, grads = ivy.execute_with_gradients(loss_fn, model.v)
        model.v = optimizer.step(model.v, grads)
        losses.append(float(_np(backend, loss)))
    return losses


# ------------------------------------------------------------ NumPy reference of the paper's model


def _np_fc_forward(w, x):
    h_pre = x @ w["fc0"]["w"].T + w["fc0"]["b"]
    h = np.maximum(h_pre, 0)
    o = 1 / (1 + np.exp(-(h @ w["fc1"]["w"].T + w["fc1"]["b"])))
    return h_pre, h, o


# ------------------------------------------------- acceptance: weights across every backend


_LOAD_SCRIPT = r"""
import importlib.util, json, sys
import numpy as np
backend, weights, inputs, out = sys.argv[1:5]
spec = importlib.util.spec_from_file_location("interop_models", sys.argv[5])
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
import ivy
from ivy.testing.convert import native_to_numpy, to_native
xs = np.load(inputs)
res = {}
for name in ("IvyFcModel", "IvyConvNet", "IvyLSTMModel"):
    m = getattr(mod, name)(backend=backend)
    m.load_weights(weights + "." + name)
    assert ivy.namespace(m.v.head.w if "head" in m.v else m.v.fc0.w).name == backend
    res[name] = native_to_numpy(backend, m(to_native(backend, xs[name]))).tolist()
json.dump(res, open(out, "w"))
"""


#: each backend's weights are loaded by the next one (in a process of its own): across the test
#: matrix every backend writes weights another reads, at one subprocess per backend, not four
NEXT_BACKEND = {"numpy": "torch", "torch": "jax", "jax": "tensorflow", "tensorflow": "paddle", "paddle": "numpy"}


def test_fn_interop_trained_weights_load_on_another_backend(backend, tmp_path):
    """Train the three models here, save their weights; another backend (in its own process)
    loads them and gives the same outputs."""
    if backend not in NEXT_BACKEND:
        pytest.skip("weights portability is checked among the in-tree backends")
    rng = np.random.default_rng(5)
    data = {
        "IvyFcModel": (_fc_weights(), _f32(rng.standard_normal((6, 3)))),
        "IvyConvNet": (_conv_weights(), _f32(rng.standard_normal((3, 2, 7, 7)))),
        "IvyLSTMModel": (_lstm_weights(), _f32(rng.standard_normal((3, 5, 3)))),
    }
    weights = str(tmp_path / "w.safetensors")
    want = {}
    for name, (w0, x) in data.items():
        model = _set_v(backend, globals()[name](backend=backend), w0)
        if backend != "numpy":  # trained weights where the backend can train
            y = _f32(np.random.default_rng(6).random((x.shape[0], 1)))
            _ivy_train(backend, model, x, y, steps=3, lr=1e-2)
            assert not model.v.all_close(ivy.Container(w0).map(lambda a, _: to_native(backend, _f32(a))))
        model.save_weights(weights + "." + name)
        want[name] = _np(backend, model(to_native(backend, x)))
    np.savez(tmp_path / "x.npz", **{k: x for k, (_, x) in data.items()})
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([HERE, os.environ.get("PYTHONPATH", "")]))
    others = [NEXT_BACKEND[backend]]
    if others[0] not in ivy.backends():
        pytest.skip(f"the {others[0]!r} backend, which loads these weights, is not installed")
    for other in others:
        out = tmp_path / f"{other}.json"
        r = subprocess.run(
            [
                sys.executable,
                "-c",
                _LOAD_SCRIPT,
                other,
                weights,
                str(tmp_path / "x.npz"),
                str(out),
                os.path.abspath(__file__),
            ],
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert r.returncode == 0, f"{other}: {r.stderr[-3000:]}"
        got = json.loads(out.read_text())
        for name in data:
            _close(got[name], want[name], rtol=1e-4, atol=1e-5)


# --------------------------------------------- framework references for torch and paddle runs


def _torch():
    import torch

    torch.manual_seed(0)
    return torch


def _paddle():
    import paddle

    paddle.seed(0)
    return paddle


def _set_native(backend, param, a):
    """Copy NumPy ``a`` into a native parameter (torch.nn.Parameter / paddle parameter)."""
    a = _f32(a)
    if backend == "torch":
        import torch

        with torch.no_grad():
            param.copy_(torch.from_numpy(a).reshape(param.shape))
    else:
        param.set_value(a.reshape(param.shape))


#: native parameters the reference loops do not update (held, so that no id is reused)
_FROZEN: list = []


def _native_train(backend, model, x, y, *, steps, lr):
    """The framework's own loop: its Adam and its autograd; returns the losses."""
    x, y = to_native(backend, x), to_native(backend, y)
    losses = []
    params = [p for p in model.parameters() if not any(p is f for f in _FROZEN)]
    if backend == "torch":
        import torch

        opt = torch.optim.Adam(params, lr=lr, eps=1e-8)
        for _ in range(steps):
            opt.zero_grad()
            loss = ((model(x) - y) ** 2).mean()
            loss.backward()
            opt.step()
            losses.append(loss.item())
    else:
        import paddle

        opt = paddle.optimizer.Adam(learning_rate=lr, epsilon=1e-8, parameters=params)
        for _ in range(steps):
            loss = ((model(x) - y) ** 2).mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(float(loss))
    return losses


def _fc_native(backend, w):
    """The paper's model with the framework's own layers, holding weights ``w``."""
    if backend == "torch":
        nn = _torch().nn
        ref = nn.Sequential(nn.Linear(3, 64), nn.ReLU(), nn.Linear(64, 1), nn.Sigmoid())
        _set_native(backend, ref[0].weight, w["fc0"]["w"])
        _set_native(backend, ref[2].weight, w["fc1"]["w"])
    else:
        nn = _paddle().nn
        ref = nn.Sequential(nn.Linear(3, 64), nn.ReLU(), nn.Linear(64, 1), nn.Sigmoid())
        _set_native(backend, ref[0].weight, w["fc0"]["w"].T)  # paddle: [in, out]
        _set_native(backend, ref[2].weight, w["fc1"]["w"].T)
    _set_native(backend, ref[0].bias, w["fc0"]["b"])
    _set_native(backend, ref[2].bias, w["fc1"]["b"])
    return ref


def _conv_native(backend, w):
    if backend == "torch":
        nn = _torch().nn
        base, conv, lin = nn.Module, nn.Conv2d, nn.Linear
    else:
        nn = _paddle().nn
        base, conv, lin = nn.Layer, nn.Conv2D, nn.Linear

    class NativeConvNet(base):
        def __init__(self):
            super().__init__()
            self.conv0, self.conv1, self.head = conv(2, 4, 3), conv(4, 4, 3), lin(4, 1)
            self.act = nn.ReLU()

        def forward(self, x):
            x = self.act(self.conv1(self.act(self.conv0(x))))
            return self.head(x.mean((2, 3)) if backend == "torch" else x.mean(axis=[2, 3]))

    ref = NativeConvNet()
    for n in ("conv0", "conv1"):  # [fh, fw, in, out] -> [out, in, fh, fw] (both frameworks)
        _set_native(backend, getattr(ref, n).weight, np.transpose(w[n]["w"], (3, 2, 0, 1)))
        _set_native(backend, getattr(ref, n).bias, w[n]["b"])
    _set_native(backend, ref.head.weight, w["head"]["w"] if backend == "torch" else w["head"]["w"].T)
    _set_native(backend, ref.head.bias, w["head"]["b"])
    return ref


def _lstm_native(backend, w):
    if backend == "torch":
        nn = _torch().nn
        base = nn.Module
        lstm = nn.LSTM(3, 8, batch_first=True)
    else:
        nn = _paddle().nn
        base = nn.Layer
        lstm = nn.LSTM(3, 8)  # batch-first (time_major=False) by default

    class NativeLSTMModel(base):
        def __init__(self):
            super().__init__()
            self.lstm, self.head = lstm, nn.Linear(8, 1)

        def forward(self, x):
            out, _ = self.lstm(x)
            return self.head(out[:, -1])

    ref = NativeLSTMModel()
    lw = w["lstm"]["layer0"]
    _set_native(backend, ref.lstm.weight_ih_l0, lw["w"].T)
    _set_native(backend, ref.lstm.weight_hh_l0, lw["r"].T)
    _set_native(backend, ref.lstm.bias_ih_l0, lw["b"])
    # Ivy has one bias: the framework's second one stays zero, left out of the optimizer (paddle's
    # fused RNN kernel fails in backward with a stop_gradient bias, and crashes without one)
    _set_native(backend, ref.lstm.bias_hh_l0, np.zeros(32))
    _FROZEN.append(ref.lstm.bias_hh_l0)
    _set_native(backend, ref.head.weight, w["head"]["w"] if backend == "torch" else w["head"]["w"].T)
    _set_native(backend, ref.head.bias, w["head"]["b"])
    return ref


# -------------------------------------------- acceptance: convnet and LSTM vs the framework


@pytest.mark.parametrize("kind", ["conv", "lstm"])
def test_fn_interop_convnet_and_lstm_train_like_the_frameworks_own_layers(backend, kind):
    """Each layer's output equals the framework's own layer with the same weights, and training
    with ivy.Adam follows the framework's own Adam on its own layers."""
    _only(backend, "torch", "paddle")
    rng = np.random.default_rng(7)
    if kind == "conv":
        w0, ivy_model, native = _conv_weights(), IvyConvNet(backend=backend), _conv_native
        x = _f32(rng.standard_normal((4, 2, 8, 8)))
    else:
        w0, ivy_model, native = _lstm_weights(), IvyLSTMModel(backend=backend), _lstm_native
        x = _f32(rng.standard_normal((4, 6, 3)))
    y = _f32(rng.random((4, 1)))
    model = _set_v(backend, ivy_model, w0)
    ref = native(backend, w0)
    xn = to_native(backend, x)
    # layer by layer
    if kind == "conv":
        _close(_np(backend, model.conv0(xn)), _np(backend, ref.conv0(xn)))
        h = to_native(backend, _f32(rng.standard_normal((4, 4, 6, 6))))
        _close(_np(backend, model.conv1(h)), _np(backend, ref.conv1(h)))
    else:
        out, (h, c) = model.lstm(xn)
        rout, (rh, rc) = ref.lstm(xn)
        _close(_np(backend, out), _np(backend, rout))
        _close(_np(backend, h), _np(backend, rh))
        _close(_np(backend, c), _np(backend, rc))
    _close(_np(backend, model(xn)), _np(backend, ref(xn)))
    # training
    losses = _ivy_train(backend, model, x, y, steps=15, lr=1e-2)
    want = _native_train(backend, ref, x, y, steps=15, lr=1e-2)
    _close(losses, want, rtol=1e-3, atol=1e-6)
    assert losses[-1] < losses[0]
    _close(_np(backend, model(xn)), _np(backend, ref(xn)), rtol=1e-3, atol=1e-4)


# ------------------------------------------------------------------ Ivy module -> torch/paddle


def test_fn_interop_to_native_module_trains_with_the_frameworks_optimizer(backend):
    """ivy.to_native_module(IvyFcModel) is a torch.nn.Module / paddle.nn.Layer whose parameters
    are the Ivy variables; torch.optim / paddle.optimizer train it exactly like the framework's
    own layers, and the Ivy module sees the new weights."""
    _only(backend, "torch", "paddle")
    w0, (x, y) = _fc_weights(), _fc_data()
    model = _set_v(backend, IvyFcModel(backend=backend), w0)
    native = ivy.to_native_module(model)
    if backend == "torch":
        torch = _torch()
        assert isinstance(native, torch.nn.Module)
        names = [n for n, _ in native.named_parameters()]
    else:
        paddle = _paddle()
        assert isinstance(native, paddle.nn.Layer)
        names = [n for n, _ in native.named_parameters()]
    # a submodule tree like the Ivy module's: names read as in hand-written torch / paddle
    assert sorted(names) == ["fc0.b", "fc0.w", "fc1.b", "fc1.w"]
    assert sorted(native.state_dict()) == ["fc0.b", "fc0.w", "fc1.b", "fc1.w"]
    assert all(native.key_chain(n) == n.replace(".", "/") for n in names)
    assert model.v.fc0.w is native.fc0.w  # the variables ARE the parameters
    ref = _fc_native(backend, w0)
    xn = to_native(backend, x)
    _close(_np(backend, native(xn)), _np(backend, ref(xn)))
    losses = _native_train(backend, native, x, y, steps=20, lr=1e-2)
    want = _native_train(backend, ref, x, y, steps=20, lr=1e-2)
    _close(losses, want, rtol=1e-5, atol=1e-7)
    assert losses[-1] < losses[0]
    ref_w = _np(backend, ref[0].weight)
    _close(_np(backend, model.v.fc0.w), ref_w if backend == "torch" else ref_w.T, rtol=1e-5, atol=1e-6)
    _close(_np(backend, model(xn)), _np(backend, ref(xn)), rtol=1e-5, atol=1e-6)
    # the backend namespace offers the same converter
    assert getattr(ivy, backend).to_native_module is not None


def test_fn_interop_to_native_module_keeps_buffers_and_modes(backend, tmp_path):
    """BatchNorm's running statistics become buffers updated by training-mode calls;
    train() / eval() switch the Ivy module's mode; the state dict saves and loads."""
    _only(backend, "torch", "paddle")
    rng = np.random.default_rng(8)
    ivy_model = ivy.Sequential(ivy.Linear(3, 4), ivy.BatchNorm2D(4, momentum=0.1), backend=backend)
    native = ivy.to_native_module(ivy_model)
    x = _f32(rng.standard_normal((6, 3)))
    xn = to_native(backend, x)
    w, b = _np(backend, ivy_model.v.layers["0"].w), _np(backend, ivy_model.v.layers["0"].b)
    h = x @ w.T + b
    out = _np(backend, native(xn))
    _close(out, (h - h.mean(0)) / np.sqrt(h.var(0) + 1e-5), atol=1e-4)
    bufs = {n: _np(backend, t) for n, t in native.named_buffers()}
    assert set(bufs) == {"layers.1.running_mean", "layers.1.running_var"}
    # the running statistics follow the update rule (momentum 0.1, unbiased variance as torch)
    _close(bufs["layers.1.running_mean"], 0.1 * h.mean(0), atol=1e-5)
    _close(bufs["layers.1.running_var"], 0.9 + 0.1 * h.var(0, ddof=1), atol=1e-5)
    native.eval()
    assert ivy_model.training is False and all(not m.training for _, m in ivy_model.modules())
    rm, rv = bufs["layers.1.running_mean"], bufs["layers.1.running_var"]
    _close(_np(backend, native(xn)), (h - rm) / np.sqrt(rv + 1e-5), atol=1e-4)
    _close(_np(backend, getattr(native.layers, "1").running_mean), rm)  # unchanged in eval mode
    native.train()
    assert ivy_model.training is True
    # the framework's own saving round trip
    if backend == "torch":
        torch = _torch()
        torch.save(native.state_dict(), tmp_path / "sd.pt")
        other = ivy.to_native_module(ivy.Sequential(ivy.Linear(3, 4), ivy.BatchNorm2D(4), backend=backend))
        other.load_state_dict(torch.load(tmp_path / "sd.pt"))
    else:
        paddle = _paddle()
        paddle.save(native.state_dict(), str(tmp_path / "sd.pdparams"))
        other = ivy.to_native_module(ivy.Sequential(ivy.Linear(3, 4), ivy.BatchNorm2D(4), backend=backend))
        other.set_state_dict(paddle.load(str(tmp_path / "sd.pdparams")))
    native.eval()
    other.eval()
    _close(_np(backend, other(xn)), _np(backend, native(xn)))


def test_fn_interop_paper_torch_fc_model_with_ivy_functions(backend):
    """The paper's TorchFcModel: a torch.nn.Module calling ivy.relu / ivy.sigmoid around
    torch.nn.Linear layers, trained with torch.optim.Adam, equals the same model written with
    torch functions."""
    _only(backend, "torch")
    torch = _torch()

    class TorchFcModel(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc0 = torch.nn.Linear(3, 64)
            self.fc1 = torch.nn.Linear(64, 1)

        def forward(self, x):
            x = ivy.relu(self.fc0(x))
            return ivy.sigmoid(self.fc1(x))

    class TorchOnlyFcModel(TorchFcModel):
        def forward(self, x):
            return torch.sigmoid(self.fc1(torch.relu(self.fc0(x))))

    model, ref = TorchFcModel(), TorchOnlyFcModel()
    ref.load_state_dict(model.state_dict())
    x, y = _fc_data()
    losses = _native_train(backend, model, x, y, steps=30, lr=1e-2)
    want = _native_train(backend, ref, x, y, steps=30, lr=1e-2)
    _close(losses, want, rtol=1e-6, atol=1e-8)
    assert losses[-1] < 0.9 * losses[0]
    for a, b in zip(model.parameters(), ref.parameters()):
        _close(a.detach().numpy(), b.detach().numpy(), rtol=1e-6, atol=1e-7)


# ------------------------------------------------------------------ torch/paddle -> Ivy module


def test_fn_interop_from_native_module_trains_with_ivy_adam(backend):
    """ivy.from_native_module(torch/paddle model): v holds the native parameters by name; the
    paper's loop (ivy.execute_with_gradients + ivy.Adam) follows the framework's own Adam on a
    copy; to_native() writes the weights back."""
    _only(backend, "torch", "paddle")
    w0, (x, y) = _fc_weights(), _fc_data()
    native, ref = _fc_native(backend, w0), _fc_native(backend, w0)
    model = ivy.from_native_module(native)
    assert isinstance(model, ivy.NativeModuleWrapper) and isinstance(model, ivy.Module)
    assert model.backend == backend
    assert model.v.key_chains() == ["0/weight", "0/bias", "2/weight", "2/bias"]
    assert model.native_name("2/bias") == "2.bias"
    xn = to_native(backend, x)
    _close(_np(backend, model(xn)), _np(backend, ref(xn)))
    w_before = _np(backend, native[0].weight).copy()
    losses = _ivy_train(backend, model, x, y, steps=20, lr=1e-2)
    want = _native_train(backend, ref, x, y, steps=20, lr=1e-2)
    _close(losses, want, rtol=1e-4, atol=1e-7)
    assert losses[-1] < losses[0]
    _close(_np(backend, model.v["0"].weight), _np(backend, ref[0].weight), rtol=1e-4, atol=1e-5)
    # v= runs the native module functionally: its own weights stay until to_native()
    _close(_np(backend, native[0].weight), w_before)
    assert model.to_native() is native
    _close(_np(backend, native(xn)), _np(backend, ref(xn)), rtol=1e-4, atol=1e-5)


def test_fn_interop_from_native_module_keeps_batch_norm_state(backend):
    """Buffers (and paddle's frozen statistics parameters) go to state, are updated by
    training-mode calls (also inside ivy.execute_with_gradients) like the framework's own, and
    eval() gives the framework's eval output."""
    _only(backend, "torch", "paddle")
    rng = np.random.default_rng(9)
    x = _f32(rng.standard_normal((8, 3)))
    xn = to_native(backend, x)
    if backend == "torch":
        nn = _torch().nn
        native = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
        ref = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
        ref.load_state_dict(native.state_dict())
        stats = ("1/running_mean", "1/running_var", "1/num_batches_tracked")
    else:
        nn = _paddle().nn
        native = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1D(4))
        ref = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1D(4))
        ref.set_state_dict(native.state_dict())
        stats = ("1/_mean", "1/_variance")
    model = ivy.from_native_module(native)
    assert tuple(model.state.key_chains()) == stats
    assert "1/_mean" not in model.v.key_chains() and "1/running_mean" not in model.v.key_chains()
    loss, grads = ivy.execute_with_gradients(lambda v: ivy.mean(model(xn, v=v) ** 2), model.v)
    _ = ref(xn)
    s0 = model.state.to_flat_dict()
    ref_state = {k.replace(".", "/"): t for k, t in ref.state_dict().items()}
    for k in stats:
        _close(_np(backend, s0[k]), _np(backend, ref_state[k]), atol=1e-6)
    assert not np.allclose(_np(backend, s0[stats[0]]), 0)
    model(xn)  # a second training-mode call
    ref(xn)
    ref_state = {k.replace(".", "/"): t for k, t in ref.state_dict().items()}
    for k in stats:
        _close(_np(backend, model.state.to_flat_dict()[k]), _np(backend, ref_state[k]), atol=1e-6)
    model.eval()
    ref.eval()
    _close(_np(backend, model(xn)), _np(backend, ref(xn)), atol=1e-5)
    assert set(grads.key_chains()) == {"0/weight", "0/bias", "1/weight", "1/bias"}


def test_fn_interop_round_trip_ivy_native_ivy(backend):
    """from_native_module(to_native_module(m)) runs m, and its gradients are m's gradients."""
    _only(backend, "torch", "paddle")
    w0, (x, y) = _fc_weights(), _fc_data()
    model = _set_v(backend, IvyFcModel(backend=backend), w0)
    back = ivy.from_native_module(ivy.to_native_module(model))
    assert back.v.key_chains() == ["fc0/w", "fc0/b", "fc1/w", "fc1/b"]  # the round trip keeps the tree
    xn, yn = to_native(backend, x), to_native(backend, y)
    _close(_np(backend, back(xn)), _np_fc_forward(w0, x)[2], atol=1e-5)
    _, g = ivy.execute_with_gradients(lambda v: ivy.mean((back(xn, v=v) - yn) ** 2), back.v)
    _, g_ref = ivy.execute_with_gradients(lambda v: ivy.mean((model(xn, v=v) - yn) ** 2), model.v)
    _close(_np(backend, g.fc0.w), _np(backend, g_ref.fc0.w), rtol=1e-5, atol=1e-7)


# ------------------------------------------------------------------------------------ errors


def test_fn_interop_errors(backend):
    """A backend without interop, an unknown object, a module built elsewhere, an unbuilt one."""
    if backend == "numpy":
        m = ivy.Linear(2, 2, backend="numpy")
        with pytest.raises(ivy.InteropNotSupportedError, match="numpy"):
            ivy.to_native_module(m)
        with pytest.raises(ivy.InteropNotSupportedError, match="numpy"):
            ivy.from_native_module((lambda p, x: x, {"w": np.ones(2)}))
    with pytest.raises(ivy.InteropNotSupportedError, match="no installed Ivy backend"):
        ivy.from_native_module(object())
    built_np = ivy.Linear(2, 2, backend="numpy")
    built_np.v  # noqa: B018 - builds
    if backend != "numpy":
        with pytest.raises(ValueError, match="built on the 'numpy' backend"):
            ivy.to_native_module(built_np, backend=backend)
        if hasattr(ivy.backend_namespace(backend), "to_native_module"):  # ivy.<backend>.to_native_module
            with pytest.raises(ivy.ModuleNotBuiltError, match="example input"):
                ivy.to_native_module(ivy.Linear(None, 2, backend=backend))
    if backend in ("torch", "paddle"):
        with pytest.raises(TypeError, match="takes a"):
            ivy.from_native_module(object(), backend=backend)
