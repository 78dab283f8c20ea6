"""ivy.Module, layers, optimizers and initializers on the numpy backend (no autodiff needed),
against NumPy formulas written here."""

from __future__ import annotations

import math

import numpy as np
import pytest

import ivy
from ivy import Container


class IvyFcModel(ivy.Module):
    def __init__(self) -> None:
        self.linear0 = ivy.Linear(3, 64)
        self.linear1 = ivy.Linear(64, 1)
        ivy.Module.__init__(self)

    def _forward(self, x):
        x = ivy.relu(self.linear0(x))
        return ivy.sigmoid(self.linear1(x))


class InitFirst(ivy.Module):
    def __init__(self) -> None:
        ivy.Module.__init__(self, backend="numpy")
        self.linear0 = ivy.Linear(3, 4)
        self.blocks = [ivy.Linear(4, 4), ivy.ReLU(), ivy.Linear(4, 2)]

    def _forward(self, x):
        x = self.linear0(x)
        for b in self.blocks:
            x = b(x)
        return x


def _np_forward(v: Container, x: np.ndarray) -> np.ndarray:
    h = np.maximum(x @ v.linear0.w.T + v.linear0.b, 0)
    return 1 / (1 + np.exp(-(h @ v.linear1.w.T + v.linear1.b)))


X = np.random.default_rng(0).standard_normal((5, 3))


def test_core_module_paper_model_variables_and_forward() -> None:
    with ivy.use_backend("numpy"):
        model = IvyFcModel()
        v = model.v
    assert v.shapes.to_flat_dict() == {
        "linear0/w": (64, 3),
        "linear0/b": (64,),
        "linear1/w": (1, 64),
        "linear1/b": (1,),
    }
    assert model.backend == "numpy" and model.linear0.backend == "numpy"
    assert isinstance(v.linear0.w, np.ndarray) and v.linear0.w.dtype == np.float32
    np.testing.assert_array_equal(v.linear0.b, 0)
    np.testing.assert_allclose(model(X), _np_forward(v, X), rtol=1e-6)


def test_core_module_init_first_and_lists_of_submodules() -> None:
    model = InitFirst()
    v = model.v
    assert v.key_chains() == ["linear0/w", "linear0/b", "blocks/0/w", "blocks/0/b", "blocks/2/w", "blocks/2/b"]
    h = X @ v.linear0.w.T + v.linear0.b
    h = np.maximum(h @ v.blocks["0"].w.T + v.blocks["0"].b, 0)
    np.testing.assert_allclose(model(X), h @ v["blocks/2/w"].T + v["blocks/2/b"], rtol=1e-6)


def test_core_module_pure_call_uses_the_given_variables_and_keeps_its_own() -> None:
    model = IvyFcModel()
    own = model.v
    zeros = own.map(lambda x, _: np.zeros_like(x))
    np.testing.assert_array_equal(model(X, v=zeros), np.full((5, 1), 0.5))
    assert model.v.all_equal(own)
    other = own * 2
    np.testing.assert_allclose(model(X, v=other), _np_forward(other, X), rtol=1e-6)
    model.v = other
    assert model.v.all_equal(other) and model.linear1.v.all_equal(other.linear1)


def test_core_module_assigning_v_of_another_structure_names_the_key_chains() -> None:
    model = IvyFcModel()
    bad = model.v.prune_key_chains(["linear1/b"])
    with pytest.raises(ValueError, match=r"linear1/b"):
        model.v = bad


def test_core_module_assigning_v_checks_every_level_of_lists_of_submodules() -> None:
    model = InitFirst()  # a list attribute with a submodule without variables (blocks/1)
    v = model.v
    model.v = ivy.Container({"blocks": dict(reversed(v.blocks.items())), "linear0": v.linear0})  # order: free
    assert model.v.all_equal(v)
    extra = v.copy()
    extra["blocks/1"] = ivy.Container(w=np.ones((2, 2)))  # a key where the layer has no variables
    missing = v.prune_key_chains(["blocks/2"])
    leaf = v.copy()
    leaf["linear0/w"] = ivy.Container(a=np.ones(1))  # a Container where the layer has an array
    for bad in (extra, missing, leaf):
        with pytest.raises(ValueError, match="blocks/1|blocks/2|linear0/w"):
            model.v = bad
        assert model.v.all_equal(v)  # left as it was


def test_core_module_lazy_build_from_the_first_input() -> None:
    lin = ivy.Linear(None, 4)
    with pytest.raises(ivy.ModuleNotBuiltError, match="first input"):
        lin.v  # noqa: B018
    with pytest.raises(ivy.ModuleNotBuiltError, match="input array"):
        lin()
    y = lin(X.astype("float32"))
    assert lin.input_channels == 3 and lin.v.w.shape == (4, 3) and y.shape == (5, 4)
    seq = ivy.Sequential(ivy.Linear(None, 8), ivy.ReLU(), ivy.Linear(None, 2))
    with pytest.raises(ivy.ModuleNotBuiltError, match="layers/0"):
        seq.v  # noqa: B018
    assert seq(X).shape == (5, 2)
    assert seq.v.key_chains() == ["layers/0/w", "layers/0/b", "layers/2/w", "layers/2/b"]


def test_core_module_backend_and_dtype_arguments() -> None:
    lin = ivy.Linear(2, 3, backend="numpy", dtype="float64", device="cpu")
    assert lin.v.w.dtype == np.float64 and lin.backend == "numpy" and lin.device == "cpu"
    with ivy.use_backend("numpy"):
        assert ivy.Linear(2, 2).v.b.dtype == np.float32
    given = {"w": np.ones((3, 2)), "b": np.zeros(3)}
    lin = ivy.Linear(2, 3, v=given)
    np.testing.assert_array_equal(lin(np.ones((1, 2))), [[2.0, 2.0, 2.0]])


def test_core_module_train_eval_and_dropout() -> None:
    model = ivy.Sequential(ivy.Linear(3, 3), ivy.Dropout(0.5))
    assert model.training and model.layers[1].training
    x = np.ones((200, 3))
    model.eval()
    assert not model.layers[1].training
    drop = ivy.Dropout(0.5)
    drop.eval()
    np.testing.assert_array_equal(drop(x), x)
    drop.train()
    y = drop(x)
    assert set(np.unique(y)) <= {0.0, 2.0} and 0.3 < (y == 0).mean() < 0.7
    with pytest.raises(ValueError):
        ivy.Dropout(1.0)


def test_core_module_activation_modules_match_the_functions() -> None:
    x = np.linspace(-3, 3, 13)
    for mod, fn in [
        (ivy.ReLU(), ivy.relu),
        (ivy.Sigmoid(), ivy.sigmoid),
        (ivy.Tanh(), ivy.tanh),
        (ivy.GELU(), ivy.gelu),
        (ivy.SiLU(), ivy.silu),
        (ivy.SELU(), ivy.selu),
        (ivy.Mish(), ivy.mish),
        (ivy.Hardswish(), ivy.hardswish),
    ]:
        np.testing.assert_allclose(mod(x), fn(x), rtol=1e-12)
        assert mod.v == {}
    np.testing.assert_allclose(ivy.LeakyReLU(alpha=0.1)(x), np.where(x > 0, x, 0.1 * x))
    np.testing.assert_allclose(ivy.Softmax(axis=0)(x).sum(), 1.0)
    with pytest.raises(TypeError, match="alpha"):
        ivy.ReLU(alpha=1)


def test_core_module_batchnorm_keeps_running_stats_in_state() -> None:
    rng = np.random.default_rng(1)
    x = rng.standard_normal((4, 3, 3, 2)) * 3 + 1
    bn = ivy.BatchNorm2D(2, momentum=0.1, backend="numpy", dtype="float64")
    assert bn.state.key_chains() == ["running_mean", "running_var"]
    y = bn(x)
    mean, var = x.mean(axis=(0, 1, 2)), x.var(axis=(0, 1, 2))
    np.testing.assert_allclose(y, (x - mean) / np.sqrt(var + 1e-5), rtol=1e-10)
    n = 4 * 3 * 3
    np.testing.assert_allclose(bn.state.running_mean, 0.1 * mean, rtol=1e-12)
    np.testing.assert_allclose(bn.state.running_var, 0.9 + 0.1 * var * n / (n - 1), rtol=1e-12)
    bn.eval()
    before = bn.state.copy()
    y = bn(x)
    np.testing.assert_allclose(y, (x - before.running_mean) / np.sqrt(before.running_var + 1e-5), rtol=1e-10)
    assert bn.state.all_equal(before)
    model = ivy.Sequential(ivy.Linear(2, 2), ivy.BatchNorm2D(2))
    assert model.state.key_chains() == ["layers/1/running_mean", "layers/1/running_var"]


def test_core_module_save_and_load_weights(tmp_path) -> None:
    from safetensors.numpy import load_file

    model = ivy.Sequential(ivy.Linear(3, 4), ivy.BatchNorm2D(4), backend="numpy")
    model(np.ones((2, 1, 1, 3), dtype="float32"))  # updates the running stats
    model.save_weights(tmp_path / "m.safetensors")
    ref = load_file(str(tmp_path / "m.safetensors"))
    assert sorted(ref) == sorted(
        ["layers/0/w", "layers/0/b", "layers/1/w", "layers/1/b", "layers/1/running_mean", "layers/1/running_var"]
    )
    np.testing.assert_array_equal(ref["layers/0/w"], model.v.layers["0"].w)
    other = ivy.Sequential(ivy.Linear(3, 4), ivy.BatchNorm2D(4), backend="numpy")
    other.load_weights(tmp_path / "m.safetensors")
    assert other.v.all_equal(model.v) and other.state.all_equal(model.state)

    wrong = ivy.Sequential(ivy.Linear(3, 5), ivy.BatchNorm2D(4), backend="numpy")
    with pytest.raises(ValueError, match=r"'layers/0/w' has shape \(4, 3\) in the file, \(5, 3\) in the module"):
        wrong.load_weights(tmp_path / "m.safetensors")
    fewer = ivy.Sequential(ivy.Linear(3, 4), backend="numpy")
    with pytest.raises(KeyError, match="unknown key chains.*layers/1/running_mean"):
        fewer.load_weights(tmp_path / "m.safetensors")


def test_core_module_layer_norm_and_embedding() -> None:
    x = np.random.default_rng(2).standard_normal((2, 3, 4))
    ln = ivy.LayerNorm((3, 4), backend="numpy", dtype="float64")
    ln.v = {"w": np.full((3, 4), 2.0), "b": np.full((3, 4), 0.5)}
    m, s = x.mean(axis=(1, 2), keepdims=True), x.var(axis=(1, 2), keepdims=True)
    np.testing.assert_allclose(ln(x), (x - m) / np.sqrt(s + 1e-5) * 2 + 0.5, rtol=1e-10)
    emb = ivy.Embedding(10, 3, padding_idx=0, backend="numpy")
    np.testing.assert_array_equal(emb.v.w[0], 0)
    idx = np.array([[1, 0], [9, 1]])
    np.testing.assert_array_equal(emb(idx), emb.v.w[idx])


# ------------------------------------------------------------------------------- optimizers

W0 = {"a": np.array([1.0, -2.0, 3.0]), "b": {"c": np.array([[0.5, -0.5]])}}
GRADS = [{"a": np.array([0.1 * k, -0.2, 0.3]), "b": {"c": np.array([[k * 1.0, 0.25]])}} for k in range(1, 5)]


def _flat(t):
    return Container(t).to_flat_dict()


def test_core_optimizer_sgd_momentum_matches_the_formula() -> None:
    opt = ivy.SGD(0.1, momentum=0.9)
    v = Container(W0)
    ref, buf = _flat(W0), None
    for g in GRADS:
        v = opt.step(v, Container(g))
        gf = _flat(g)
        buf = gf if buf is None else {k: 0.9 * buf[k] + gf[k] for k in gf}
        ref = {k: ref[k] - 0.1 * buf[k] for k in ref}
    for k, x in v.to_flat_dict().items():
        np.testing.assert_allclose(x, ref[k], rtol=1e-12)
    assert opt.step_count == 4 and opt.state.momentum.key_chains() == ["a", "b/c"]


def test_core_optimizer_adam_and_adamw_match_the_formula() -> None:
    for cls, wd in ((ivy.Adam, 0.0), (ivy.AdamW, 0.05)):
        opt = cls(0.01, epsilon=1e-8, weight_decay=wd)
        v = Container(W0)
        w, m, s = _flat(W0), {k: 0.0 for k in _flat(W0)}, {k: 0.0 for k in _flat(W0)}
        for t, g in enumerate(GRADS, 1):
            v = opt.step(v, g)
            for k, gk in _flat(g).items():
                if cls is ivy.AdamW:
                    w[k] = w[k] * (1 - 0.01 * wd)
                m[k] = 0.9 * m[k] + 0.1 * gk
                s[k] = 0.999 * s[k] + 0.001 * gk**2
                w[k] = w[k] - 0.01 * (m[k] / (1 - 0.9**t)) / (np.sqrt(s[k] / (1 - 0.999**t)) + 1e-8)
        for k, x in v.to_flat_dict().items():
            np.testing.assert_allclose(x, w[k], rtol=1e-10, err_msg=f"{cls.__name__} {k}")
        np.testing.assert_allclose(opt.state.mw.a, m["a"], rtol=1e-12)
        np.testing.assert_allclose(opt.state["vw/b/c"], s["b/c"], rtol=1e-12)


def test_core_optimizer_lamb_and_lars_use_the_functional_updates() -> None:
    v = Container(W0)
    lamb = ivy.LAMB(0.01, decay_lambda=0.1)
    got = lamb.step(v, GRADS[0])
    want, _, _ = ivy.lamb_update(
        W0, GRADS[0], 0.01, ivy.nest.map(np.zeros_like, W0), ivy.nest.map(np.zeros_like, W0), 1, decay_lambda=0.1
    )
    assert got.all_close(want, rtol=1e-12)
    lars = ivy.LARS(0.1)
    assert lars.step(v, GRADS[1]).all_close(ivy.lars_update(W0, GRADS[1], 0.1), rtol=1e-12)


def test_core_optimizer_schedules_and_structure_errors() -> None:
    opt = ivy.SGD(lambda step: 1.0 / step)
    v = Container(a=np.array([1.0]))
    v = opt.step(v, Container(a=np.array([1.0])))
    v = opt.step(v, Container(a=np.array([1.0])))
    np.testing.assert_allclose(v.a, [1.0 - 1.0 - 0.5])
    with pytest.raises(ValueError, match=r"only in the second: \['b'\]"):
        opt.step(v, Container(a=np.array([1.0]), b=np.array([1.0])))


# ------------------------------------------------------------------------------ initializers

N = 200_000


@pytest.mark.parametrize(
    ("init", "low", "high", "var"),
    [
        (ivy.Uniform(-0.3, 0.7), -0.3, 0.7, 1.0 / 12),
        (ivy.GlorotUniform(), -math.sqrt(6 / (400 + 500)), math.sqrt(6 / (400 + 500)), 2 / (400 + 500)),
        (ivy.KaimingUniform(), -math.sqrt(6 / 400), math.sqrt(6 / 400), 2 / 400),
    ],
)
def test_core_initializers_uniform_bounds_and_variance(init, low, high, var) -> None:
    x = init.create((N,), fan_in=400, fan_out=500, backend="numpy", dtype="float64")
    assert x.shape == (N,) and x.min() >= low and x.max() < high
    assert x.min() < low + 0.01 * (high - low) and x.max() > high - 0.01 * (high - low)
    np.testing.assert_allclose(x.mean(), (low + high) / 2, atol=5 * math.sqrt(var / N))
    np.testing.assert_allclose(x.var(), var, rtol=0.02)


@pytest.mark.parametrize(
    ("init", "std"),
    [
        (ivy.GlorotNormal(), math.sqrt(2 / 900)),
        (ivy.KaimingNormal(), math.sqrt(2 / 400)),
        (ivy.KaimingNormal(gain=1.0, mode="fan_out"), math.sqrt(1 / 500)),
    ],
)
def test_core_initializers_normal_mean_and_std(init, std) -> None:
    x = init.create((N,), fan_in=400, fan_out=500, backend="numpy", dtype="float64")
    np.testing.assert_allclose(x.mean(), 0.0, atol=5 * std / math.sqrt(N))
    np.testing.assert_allclose(x.std(), std, rtol=0.01)
    # about 68.3% within one standard deviation: a normal, not a uniform (57.7%)
    assert abs(np.mean(np.abs(x) < std) - 0.6827) < 0.01


def test_core_initializers_constants_and_default_fans() -> None:
    np.testing.assert_array_equal(ivy.Zeros().create((2, 3), backend="numpy"), np.zeros((2, 3)))
    np.testing.assert_array_equal(ivy.Ones().create((2,), backend="numpy"), np.ones(2))
    np.testing.assert_array_equal(ivy.Constant(2.5).create((2,), backend="numpy"), [2.5, 2.5])
    from ivy._stateful.initializers import fans

    assert fans((8, 4)) == (4, 8) and fans((3, 3, 4, 16)) == (36, 144) and fans((5,)) == (5, 5)
    x = ivy.GlorotUniform().create((3, 3, 4, 16), backend="numpy")
    assert np.abs(x).max() <= math.sqrt(6 / (36 + 144))
