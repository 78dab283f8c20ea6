"""The torch frontend as a whole: how modules are read (parameters and buffers lifted by key
chain, layouts kept, training-mode buffer updates threaded, outputs' structure), its errors
(every unmapped op at once, with lines; data-dependent control flow), its op set, and its
registration through the plugin hook.

Run with ``--backend torch`` (the op-by-op checks are in ``test_torch_frontend_ops.py``).
"""

from __future__ import annotations

import copy
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import ivy


@pytest.fixture(autouse=True)
def _torch_only(backend: str) -> None:
    if backend != "torch":
        pytest.skip("the torch frontend's tests run in the torch process")


class ConvBN(torch.nn.Module):
    def __init__(self, groups: int = 1) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(6 if groups == 6 else 4, 6, 3, stride=2, padding=1, groups=groups)
        self.bn = torch.nn.BatchNorm2d(6, momentum=0.3)
        self.head = torch.nn.Sequential(torch.nn.Linear(6, 2))

    def forward(self, x: Any) -> Any:
        return self.head(torch.relu(self.bn(self.conv(x))).mean((2, 3)))


def _x(*shape: int, seed: int = 0) -> Any:
    return torch.from_numpy(np.random.default_rng(seed).standard_normal(shape).astype("float32"))


def _state(module: Any) -> dict[str, Any]:
    """The module's parameters and buffers by key chain (torch's names, ``/``-separated)."""
    return {name.replace(".", "/"): t.detach().clone() for name, t in module.state_dict().items()}


def _to_graph(obj: Any, *args: Any, **kwargs: Any) -> Any:
    from ivy_torch.frontend import to_graph

    return to_graph(obj, args, kwargs)


def test_parameters_and_buffers_are_lifted_by_key_chain() -> None:
    model = ConvBN().eval()
    graph = _to_graph(model, _x(2, 4, 8, 8))
    assert set(graph.params) == {n.replace(".", "/") for n, _ in model.named_parameters()} | set(graph.buffers)
    assert set(graph.buffers) == {"bn/running_mean", "bn/running_var", "bn/num_batches_tracked"}
    assert "head/0/weight" in graph.params
    np.testing.assert_array_equal(
        np.reshape(graph.param_values["conv/weight"].tolist(), (6, 4, 3, 3)),
        model.conv.weight.detach().numpy().astype(np.float64),
    )


def test_convolution_weights_keep_torchs_layout_and_go_to_the_convolution_as_they_are() -> None:
    model = ConvBN().eval()
    graph = _to_graph(model, _x(2, 4, 8, 8))
    assert tuple(graph.params["conv/weight"].shape) == (6, 4, 3, 3)  # OIHW, as in the state dict
    text = str(graph)
    assert "filter_format='OIHW'" in text and "data_format='NCHW'" in text
    assert "permute_dims(conv_weight" not in text  # (a copy of every weight on every call)


@pytest.mark.parametrize("groups", [1, 2, 6])
def test_a_module_in_eval_mode_computes_what_torch_does(groups: int) -> None:
    torch.manual_seed(0)
    model = ConvBN(groups).eval()
    with torch.no_grad():  # running statistics that are not 0 and 1
        model.bn.running_mean.uniform_(-0.5, 0.5)
        model.bn.running_var.uniform_(0.5, 1.5)
    channels = model.conv.in_channels
    graph = _to_graph(model, _x(2, channels, 8, 8))
    if groups == 2:  # neither plain nor depthwise: split and concatenated
        assert "split" in str(graph) and "concat" in str(graph)
    if groups == 6:
        assert "depthwise_conv2d" in str(graph)
    x = _x(2, channels, 8, 8, seed=1)
    got = graph(_state(model), x)
    got = got[0] if isinstance(got, tuple) else got
    np.testing.assert_allclose(got.numpy(), model(x).detach().numpy(), rtol=1e-5, atol=1e-6)


def test_training_mode_threads_the_running_statistics() -> None:
    torch.manual_seed(0)
    model = ConvBN().train()
    x = _x(2, 4, 8, 8)
    graph = _to_graph(copy.deepcopy(model), x)
    assert graph.meta["training"] is True
    assert set(graph.state_updates) == {"bn/running_mean", "bn/running_var", "bn/num_batches_tracked"}
    before = _state(model)
    want = model(x).detach().numpy()  # updates the module's running statistics once
    out, updates = graph(before, x)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-5, atol=1e-6)
    for key in graph.state_updates:
        np.testing.assert_allclose(updates[key].numpy(), _state(model)[key].numpy(), rtol=1e-5, atol=1e-7)


def test_gradients_reach_every_parameter_as_in_torch() -> None:
    torch.manual_seed(0)
    model = ConvBN(2).eval()
    x = _x(2, 4, 8, 8)
    graph = _to_graph(model, x)
    state = {
        k: v.requires_grad_(v.is_floating_point() and k in graph.params and k not in graph.buffers)
        for k, v in _state(model).items()
    }
    loss = (graph(state, x) ** 2).sum()
    trainable = {k: v for k, v in state.items() if v.requires_grad}
    got = dict(zip(trainable, torch.autograd.grad(loss, list(trainable.values()))))
    named = dict(model.named_parameters())
    want = torch.autograd.grad((model(x) ** 2).sum(), list(named.values()))
    for name, w in zip(named, want):
        np.testing.assert_allclose(got[name.replace(".", "/")].numpy(), w.numpy(), rtol=1e-4, atol=1e-6)


def test_params_v_replaces_parameters() -> None:
    from ivy_torch.frontend import to_graph

    model = torch.nn.Linear(3, 2)
    weight = torch.ones(2, 3)
    graph = to_graph(model, (_x(4, 3),), {}, {"weight": weight})
    np.testing.assert_array_equal(
        np.reshape(graph.param_values["weight"].tolist(), (2, 3)), weight.numpy().astype(np.float64)
    )
    with pytest.raises(KeyError, match="no parameter or buffer"):
        to_graph(model, (_x(4, 3),), {}, {"encoder/weight": weight})


def test_outputs_keep_their_structure() -> None:
    def fn(x: Any) -> Any:
        return {"double": x * 2, "pair": (x + 1, torch.tanh(x))}

    x = _x(3)
    out = _to_graph(fn, x)(x)
    assert set(out) == {"double", "pair"} and len(out["pair"]) == 2
    np.testing.assert_allclose(out["pair"][1].numpy(), torch.tanh(x).numpy(), rtol=1e-6)


def test_every_unmapped_op_is_listed_at_once_with_its_line() -> None:
    def special(x: Any) -> Any:
        y = torch.lgamma(x)
        return torch.special.i0e(y) + torch.digamma(x)

    with pytest.raises(ivy.errors.UnsupportedOpsError) as info:
        _to_graph(special, torch.ones(3))
    ops = info.value.ops
    assert set(ops) == {"aten.lgamma.default", "aten.special_i0e.default", "aten.digamma.default"}
    assert all(len(lines) == 1 and "test_torch_frontend.py" in lines[0] for lines in ops.values())
    assert "lgamma" in str(info.value) and "digamma" in str(info.value)


def test_a_use_a_rule_cannot_translate_is_named() -> None:
    def pool(x: Any) -> Any:
        values, indices = torch.nn.functional.max_pool2d(x, 2, return_indices=True)
        return values + indices

    with pytest.raises(ivy.errors.UnsupportedOpsError, match="indices of a max pooling"):
        _to_graph(pool, _x(1, 2, 4, 4))


def test_data_dependent_control_flow_names_the_line() -> None:
    def branchy(x: Any) -> Any:
        if x.sum() > 0:
            return x * 2
        return x

    with pytest.raises(ivy.errors.TranspileError, match=r"test_torch_frontend.py:\d+.*torch\.where"):
        _to_graph(branchy, torch.ones(3))


def test_random_ops_draw_numbers_of_the_requested_shape_and_dtype() -> None:
    def noisy(x: Any) -> Any:
        return x + torch.rand(2000, 3), x * torch.randn(2000, 3), torch.randperm(7)

    x = torch.zeros(3)
    graph = _to_graph(noisy, x)
    uniform, normal, perm = graph(x)
    assert uniform.shape == normal.shape == (2000, 3) and uniform.dtype == torch.float32
    assert 0 <= float(uniform.min()) and float(uniform.max()) < 1 and abs(float(uniform.mean()) - 0.5) < 0.05
    assert normal.abs().max() == 0  # x is zero
    assert sorted(perm.tolist()) == list(range(7)) and perm.dtype == torch.int64


def test_dropout_in_training_mode_keeps_the_expected_scale() -> None:
    model = torch.nn.Dropout(0.25).train()
    x = torch.ones(4000)
    out = _to_graph(model, x)(x)
    out = out[0] if isinstance(out, tuple) else out
    kept = out != 0
    np.testing.assert_allclose(out[kept].numpy(), 1 / 0.75, rtol=1e-6)
    assert abs(float(kept.float().mean()) - 0.75) < 0.05


def test_op_set_covers_core_aten() -> None:
    from ivy_torch.frontend import core_ops, op_set

    ops = op_set()
    core = core_ops()
    assert len(core) > 150 and set(core) <= set(ops)
    mapped = {op for op in core if ops[op]}
    assert {
        "aten.convolution.default",
        "aten.add.Tensor",
        "aten._native_batch_norm_legit_no_training.default",
    } <= mapped
    assert len(mapped) / len(core) > 0.9
    assert ops["aten.linear.default"] and "aten.linear.default" not in core  # a composite kept whole
    assert ops["aten.nonzero.default"] is None  # data-dependent output size


def test_the_plugin_registers_the_frontend_without_importing_torch() -> None:
    code = (
        "import sys, ivy_torch\n"
        "found = []\n"
        "ivy_torch.ivy_register_frontends(found.append)\n"
        "assert [f.name for f in found] == ['torch'] and found[0].load == 'ivy_torch.frontend:load'\n"
        "assert 'torch' not in sys.modules, 'registering imported torch'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    from ivy_torch.frontend import load

    impl = load()
    assert impl.kind(ConvBN()) == "module" and impl.kind(torch.tanh) == "function" and impl.kind(3) is None
    assert impl.fingerprint(ConvBN()) == impl.fingerprint(ConvBN())  # the program, not the weights
    assert impl.fingerprint(ConvBN()) != impl.fingerprint(ConvBN(2))
