"""``ivy.transpile`` from torch to each TARGET (the ``--backend`` of the run): Hugging Face
``transformers`` models built from their configs (random weights, nothing downloaded), small
torch modules and functions, and kornia through a lazily transpiled ``kornia``.

The reference is always torch itself, on the same inputs: outputs (within 1e-4 relative,
float32), gradients of a scalar loss w.r.t. every parameter (the target's autodiff against
``torch.autograd``), and a few steps of the target's own optimizer (optax, keras.optimizers,
paddle.optimizer) lowering that loss.

    python -m pytest tests/test_transpile_from_torch.py --backend jax -q

torchvision cannot be used here (its wheels need a CUDA build of torch), so its two vision
models are stood in for by Hugging Face's ``ResNetModel`` with ResNet-18's blocks (basic blocks,
depths 2-2-2-2) at a quarter of its widths (16-32-64-128), and ``MobileNetV2Model``. Models go to the
targets with autodiff (jax, tensorflow, paddle); numpy runs them for inference only. The torch
target is skipped (source and target would be the same framework).
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from _helpers.transpiling import close, file_cache, not_the_source, rand, scaled_close, target_among

import ivy

torch = pytest.importorskip("torch")

MODULE_TARGETS = ("jax", "tensorflow", "paddle")


_cache = file_cache()
_target = not_the_source("torch", "torch", cache=False)
module_target = target_among(MODULE_TARGETS, "modules are transpiled to targets with autodiff")


# ------------------------------------------------------------------------------ the models


@dataclass
class Case:
    """A torch model in eval mode, an example input, and regression targets for each output."""

    model: Any
    x: np.ndarray
    targets: dict[str, np.ndarray] = field(default_factory=dict)

    def __post_init__(self) -> None:
        with torch.no_grad():
            out = self.model(torch.from_numpy(self.x))
        self.want = {k: v.numpy() for k, v in out.items()}
        self.targets = {k: rand(*v.shape, seed=7 + i) for i, (k, v) in enumerate(self.want.items())}


def _images(seed: int = 0) -> np.ndarray:
    return rand(2, 3, 32, 32, seed=seed)


def _resnet18() -> Case:
    from transformers import ResNetConfig, ResNetModel

    # ResNet-18's blocks at a quarter of its widths: the same graph of ops, a sixteenth of the arithmetic
    config = ResNetConfig(layer_type="basic", depths=[2, 2, 2, 2], hidden_sizes=[16, 32, 64, 128], embedding_size=16)
    return Case(_random_stats(ResNetModel(config)), _images())


def _mobilenet_v2() -> Case:
    from transformers import MobileNetV2Config, MobileNetV2Model

    config = MobileNetV2Config(image_size=32, depth_multiplier=0.35)
    return Case(_random_stats(MobileNetV2Model(config)), _images())


def _bert() -> Case:
    from transformers import BertConfig, BertModel

    config = BertConfig(
        vocab_size=100,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=64,
        max_position_embeddings=32,
    )
    ids = np.random.default_rng(3).integers(0, 100, (2, 10)).astype("int64")
    return Case(BertModel(config).eval(), ids)


def _vit() -> Case:
    from transformers import ViTConfig, ViTModel

    config = ViTConfig(
        image_size=32,
        patch_size=8,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=64,
    )
    return Case(ViTModel(config).eval(), _images())


def _random_stats(model: Any) -> Any:
    """The model in eval mode with BatchNorm running statistics that are not 0 and 1 (a fresh
    model's would hide a translation that ignores them)."""
    g = torch.Generator().manual_seed(0)
    for m in model.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.copy_(torch.randn(m.running_mean.shape, generator=g) * 0.1)
            m.running_var.copy_(torch.rand(m.running_var.shape, generator=g) + 0.5)
    return model.eval()


MODELS: dict[str, Callable[[], Case]] = {
    "resnet18": _resnet18,
    "mobilenet_v2": _mobilenet_v2,
    "bert": _bert,
    "vit": _vit,
}


class Zoo:
    """The models, each built once per test module, and each transpiled once per target."""

    def __init__(self) -> None:
        self.cases: dict[str, Case] = {}
        self.natives: dict[tuple[str, str], Any] = {}

    def case(self, which: str) -> Case:
        if which not in self.cases:
            torch.manual_seed(0)
            self.cases[which] = MODELS[which]()
        return self.cases[which]

    def native(self, which: str, target: str) -> Any:
        if (which, target) not in self.natives:
            case = self.case(which)
            self.natives[which, target] = ivy.transpile(case.model, to=target, args=(torch.from_numpy(case.x),))
        return self.natives[which, target]


@pytest.fixture(scope="module")
def zoo() -> Zoo:
    return Zoo()


# ------------------------------------------------------------------------------ the targets' own idioms


def _loss(out: Any, targets: dict[str, Any]) -> Any:
    """The sum over the model's outputs of the mean squared error to fixed targets."""
    return sum(ivy.mean(ivy.square(ivy.subtract(out[k], t))) for k, t in targets.items())


def _torch_loss_and_grads(case: Case) -> tuple[float, dict[str, np.ndarray]]:
    named = dict(case.model.named_parameters())
    out = case.model(torch.from_numpy(case.x))
    loss = sum(((out[k] - torch.from_numpy(t)) ** 2).mean() for k, t in case.targets.items())
    grads = torch.autograd.grad(loss, list(named.values()), allow_unused=True)
    return loss.item(), {
        n.replace(".", "/"): (np.zeros(tuple(p.shape), np.float32) if g is None else g.numpy())
        for (n, p), g in zip(named.items(), grads)
    }


def _flat(tree: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(tree, dict):
        out: dict[str, Any] = {}
        for k, v in tree.items():
            out.update(_flat(v, f"{prefix}/{k}" if prefix else str(k)))
        return out
    return {prefix: tree}


def _jax_out(native: Any, params: Any, x: Any) -> Any:
    res = native.apply(params, x)
    return res[0] if native.state else res


_JAX_STEPS: dict[int, Any] = {}


def _jax_step(native: Any, x: Any, targets: dict[str, Any]) -> Any:
    """The jitted loss and gradient of a JAX module's parameters, compiled once per model (the
    gradient test and the optimizer test share it)."""
    if id(native) not in _JAX_STEPS:
        import jax

        _JAX_STEPS[id(native)] = jax.jit(jax.value_and_grad(lambda p: _loss(_jax_out(native, p, x), targets)))
    return _JAX_STEPS[id(native)]


def _value_and_grads(target: str, native: Any, x: Any, targets: dict[str, Any]) -> tuple[float, dict[str, Any]]:
    """The loss and its gradient w.r.t. every parameter, by the target's own autodiff."""
    if target == "jax":
        loss, grads = _jax_step(native, x, targets)(native.params)
        return float(loss), _flat(grads)
    if target == "tensorflow":
        import tensorflow as tf

        with tf.GradientTape() as tape:
            loss = _loss(native(x), targets)
        grads = tape.gradient(loss, native.trainable_variables)
        # (an embedding's gradient comes as IndexedSlices, as for a native Keras Embedding)
        return float(loss), {
            native.key_chain(v): None if g is None else tf.convert_to_tensor(g)
            for v, g in zip(native.trainable_variables, grads)
        }
    named = dict(native.named_parameters())
    loss = _loss(native(x), targets)
    import paddle

    grads = paddle.grad(loss, list(named.values()), allow_unused=True)
    return float(loss), {native.key_chain(n): g for n, g in zip(named, grads)}


def _adam_steps(target: str, native: Any, x: Any, targets: dict[str, Any], steps: int, lr: float) -> list[float]:
    """The loss before each of ``steps`` steps of the target's own Adam, and after the last; the
    native module's parameters are left as they were."""
    losses: list[float] = []
    if target == "jax":
        import optax

        opt, params = optax.adam(lr), native.params
        state = opt.init(params)
        step = _jax_step(native, x, targets)
        for _ in range(steps):
            loss, grads = step(params)
            updates, state = opt.update(grads, state, params)
            params = optax.apply_updates(params, updates)
            losses.append(float(loss))
        losses.append(float(step(params)[0]))
        return losses
    if target == "tensorflow":
        import keras
        import tensorflow as tf

        saved = [v.numpy() for v in native.trainable_variables]
        opt = keras.optimizers.Adam(lr)
        try:
            for _ in range(steps):
                with tf.GradientTape() as tape:
                    loss = _loss(native(x), targets)
                opt.apply_gradients(zip(tape.gradient(loss, native.trainable_variables), native.trainable_variables))
                losses.append(float(loss))
            losses.append(float(_loss(native(x), targets)))
        finally:
            for v, s in zip(native.trainable_variables, saved):
                v.assign(s)
        return losses
    import paddle

    saved = {n: p.numpy() for n, p in native.named_parameters()}
    opt = paddle.optimizer.Adam(learning_rate=lr, parameters=native.parameters())
    try:
        for _ in range(steps):
            loss = _loss(native(x), targets)
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(float(loss))
        losses.append(float(_loss(native(x), targets)))
    finally:
        for n, p in native.named_parameters():
            p.set_value(saved[n])
    return losses


# ------------------------------------------------------------------------------ Hugging Face models


@pytest.mark.parametrize("which", list(MODELS))
def test_a_transformers_model_has_the_outputs_of_torch(backend: str, which: str, zoo: Zoo, to_native: Any) -> None:
    case = zoo.case(which)
    if backend in MODULE_TARGETS:
        native = zoo.native(which, backend)
    else:  # no autodiff: the model's graph runs for inference
        native = ivy.transpile(case.model, to="ivy", args=(torch.from_numpy(case.x),)).graph.module(backend=backend)
    out = native(to_native(case.x))
    assert set(out) == set(case.want)
    for k, want in case.want.items():
        close(out[k], want)
    x2 = _images(seed=5) if case.x.dtype == np.float32 else (case.x + 7) % 100  # other values, same program
    with torch.no_grad():
        want2 = case.model(torch.from_numpy(x2))
    close(native(to_native(x2))["last_hidden_state"], want2["last_hidden_state"].numpy())


@pytest.mark.parametrize("which", list(MODELS))
def test_gradients_wrt_every_parameter_match_torch_autograd(
    module_target: str, which: str, zoo: Zoo, to_native: Any
) -> None:
    case = zoo.case(which)
    native = zoo.native(which, module_target)
    targets = {k: to_native(t) for k, t in case.targets.items()}
    loss, grads = _value_and_grads(module_target, native, to_native(case.x), targets)
    want_loss, want = _torch_loss_and_grads(case)
    assert set(grads) == set(want)
    np.testing.assert_allclose(loss, want_loss, rtol=1e-4)
    for chain, g in want.items():
        if grads[chain] is None:  # (paddle: a parameter the loss does not reach)
            assert not g.any(), chain
            continue
        scaled_close(grads[chain], g)


# (the optimizer's integration, on a CNN with batch norm and a transformer: every model's
# gradients are checked exactly above)
@pytest.mark.parametrize("which", ["resnet18", "bert"])
def test_torch_source_trains_with_the_targets_optimizer(
    module_target: str, which: str, zoo: Zoo, to_native: Any
) -> None:
    case = zoo.case(which)
    native = zoo.native(which, module_target)
    targets = {k: to_native(t) for k, t in case.targets.items()}
    losses = _adam_steps(module_target, native, to_native(case.x), targets, steps=3, lr=1e-3)
    assert losses[-1] < losses[0], losses


def test_parameters_keep_torchs_names_and_layouts(module_target: str, zoo: Zoo) -> None:
    """State dicts map 1:1: key chains from torch's names, convolution weights still OIHW."""
    case = zoo.case("resnet18")
    native = zoo.native("resnet18", module_target)
    if module_target == "jax":
        shapes = {k: tuple(v.shape) for k, v in _flat(native.params).items()}
    elif module_target == "tensorflow":
        shapes = {native.key_chain(v): tuple(v.shape) for v in native.trainable_variables}
    else:
        shapes = {native.key_chain(n): tuple(p.shape) for n, p in native.named_parameters()}
    assert shapes == {n.replace(".", "/"): tuple(p.shape) for n, p in case.model.named_parameters()}
    assert shapes["embedder/embedder/convolution/weight"] == (16, 3, 7, 7)  # OIHW, as in torch


# ------------------------------------------------------------------------------ training mode


class ConvBN(torch.nn.Module):
    """A convolution, BatchNorm (whose running statistics a training-mode pass updates) and a head."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3, stride=2, padding=1)
        self.bn = torch.nn.BatchNorm2d(4, momentum=0.3)
        self.head = torch.nn.Linear(4, 2)

    def forward(self, x: Any) -> Any:
        return self.head(torch.relu(self.bn(self.conv(x))).mean((2, 3)))


def _buffers(target: str, native: Any) -> dict[str, Any]:
    if target == "jax":
        return _flat(native.state)
    if target == "tensorflow":
        return {native.key_chain(v): v for v in native.non_trainable_variables}
    return {native.key_chain(n): b for n, b in native.named_buffers()}


def test_training_mode_updates_the_running_statistics_as_torch_does(module_target: str, to_native: Any) -> None:
    torch.manual_seed(0)
    model, x = ConvBN().train(), _images()
    native = ivy.transpile(model, to=module_target, args=(torch.from_numpy(x),))
    want = model(torch.from_numpy(x)).detach().numpy()  # the batch's statistics; running ones updated
    # (a Keras layer runs in inference mode unless called with training=True, as Keras' own)
    extra = {"training": True} if module_target == "tensorflow" else {}
    close(native(to_native(x), **extra), want)
    buffers = _buffers(module_target, native)
    assert set(buffers) == {"bn/running_mean", "bn/running_var", "bn/num_batches_tracked"}
    for name, b in model.named_buffers():
        close(buffers[name.replace(".", "/")], b.numpy())


# ------------------------------------------------------------------------------ trained the Ivy way


def _tiny() -> Any:
    """A small MLP with BatchNorm (buffers a training step updates), in training mode."""
    torch.manual_seed(0)
    layers = [torch.nn.Linear(4, 8), torch.nn.BatchNorm1d(8, momentum=0.3), torch.nn.ReLU(), torch.nn.Linear(8, 2)]
    return torch.nn.Sequential(*layers).train()


def _torch_sgd_steps(model: Any, batches: list[tuple[np.ndarray, np.ndarray]], lr: float) -> list[float]:
    """The loss (mean squared error) of each batch, before torch.optim.SGD's step on it."""
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for xb, yb in batches:
        loss = torch.nn.functional.mse_loss(model(torch.from_numpy(xb)), torch.from_numpy(yb))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def _wrapped(model: Any, target: str, x: np.ndarray) -> Any:
    """``ivy.from_native_module`` of the module ``ivy.transpile`` makes of (a copy of) ``model``."""
    native = ivy.transpile(copy.deepcopy(model), to=target, args=(torch.from_numpy(x),))
    return ivy.from_native_module(native)


def _eval_outputs(model: Any, wrapped: Any, x: np.ndarray, to_native: Any) -> None:
    """Both modules in inference mode give the same outputs: same weights, same running statistics."""
    model.eval()
    wrapped.eval()
    with torch.no_grad():
        want = model(torch.from_numpy(x)).numpy()
    close(wrapped(to_native(x)), want)


def test_a_transpiled_module_takes_an_ivy_optimizers_step_as_torch_does(module_target: str, to_native: Any) -> None:
    """``ivy.from_native_module`` takes the module ``ivy.transpile`` returns on each target, and a
    step of an Ivy optimizer on it is torch.optim's on the source, BatchNorm's statistics included."""
    model, x, y = _tiny(), rand(6, 4, seed=1), rand(6, 2, seed=2)
    wrapped = _wrapped(model, module_target, x)

    def loss_fn(v: Any) -> Any:
        return ivy.mean(ivy.square(ivy.subtract(wrapped(to_native(x), v=v), to_native(y))))

    loss, grads = ivy.execute_with_gradients(loss_fn, wrapped.v)
    wrapped.v = ivy.SGD(lr=0.1).step(wrapped.v, grads)
    (want,) = _torch_sgd_steps(model, [(x, y)], lr=0.1)
    np.testing.assert_allclose(float(ivy.to_numpy(loss)), want, rtol=1e-5)
    _eval_outputs(model, wrapped, rand(3, 4, seed=3), to_native)


def test_a_transpiled_module_trains_under_ivy_fit_as_torch_does(module_target: str, to_native: Any) -> None:
    """``fit`` compiles its step around a transpiled module; the last, smaller batch is a new
    input signature, read from the source while the compiled step is traced (no eager fallback)."""
    model, x, y = _tiny(), rand(10, 4, seed=4), rand(10, 2, seed=5)
    wrapped = _wrapped(model, module_target, x[:4])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        history = ivy.fit(wrapped, x, y, loss="mse", optimizer=ivy.SGD(lr=0.1), batch_size=4, shuffle=False, verbose=0)
    fallbacks = [str(w.message) for w in caught if "running it eagerly" in str(w.message)]
    assert not fallbacks, fallbacks
    losses = _torch_sgd_steps(model, [(x[i : i + 4], y[i : i + 4]) for i in (0, 4, 8)], lr=0.1)
    np.testing.assert_allclose(history.history["loss"], [np.average(losses, weights=[4, 4, 2])], rtol=1e-5)
    with torch.no_grad():  # (the trained weights, on inputs of a signature read already)
        want = model(torch.from_numpy(x[:4])).numpy()
    close(wrapped(to_native(x[:4])), want)


# ------------------------------------------------------------------------------ functions


def _patches(x: Any, w: Any) -> Any:
    """A grouped convolution (neither plain nor depthwise), pooling and a softmax over channels."""
    y = torch.nn.functional.conv2d(x, w, padding=1, groups=2)
    y = torch.nn.functional.max_pool2d(torch.nn.functional.gelu(y), 2, ceil_mode=True)
    return torch.softmax(y, dim=1), y.amax((2, 3))


def _gather_scatter(x: Any, idx: Any) -> Any:
    rows = x[idx] * 2.0
    out = x.index_add(0, idx, torch.ones_like(rows))
    return rows, torch.cumsum(out, dim=1)[:, ::2], torch.where(x > 0, x, 0.1 * x).logsumexp(-1)


def _convnext_block(x: Any, w: Any, b: Any) -> Any:
    """ConvNeXt's block: a 7x7 depthwise convolution (stride 2 too), a layer norm over the
    channels between permutes, GELU."""
    y = torch.nn.functional.conv2d(x, w, b, padding=3, groups=x.shape[1])
    z = torch.nn.functional.conv2d(x, w, None, stride=2, padding=(1, 3), groups=x.shape[1])
    y = torch.nn.functional.layer_norm(y.permute(0, 2, 3, 1), (x.shape[1],)).permute(0, 3, 1, 2)
    return (torch.nn.functional.gelu(y), z)


FUNCTIONS = {
    "grouped_conv": (_patches, lambda: (rand(2, 4, 7, 7), rand(6, 2, 3, 3, seed=1))),
    "convnext_block": (_convnext_block, lambda: (rand(2, 5, 9, 10), rand(5, 1, 7, 7, seed=1), rand(5, seed=2))),
    "gather_scatter": (_gather_scatter, lambda: (rand(5, 4), np.array([3, 0, 3], np.int64))),
}


def _input_grads(
    target: str, fn: Any, inputs: list[Any], floats: list[int], weights: list[np.ndarray], to_native: Any
) -> list[Any]:
    """Gradients of sum(outputs * weights) w.r.t. the float inputs, by the target's autodiff."""

    def total(*xs: Any) -> Any:
        args = list(inputs)
        for i, x in zip(floats, xs):
            args[i] = x
        outs = fn(*args)
        return sum(ivy.sum(ivy.multiply(o, to_native(w))) for o, w in zip(outs, weights))

    if target == "jax":
        import jax

        return list(jax.grad(total, argnums=tuple(range(len(floats))))(*[inputs[i] for i in floats]))
    if target == "tensorflow":
        import tensorflow as tf

        xs = [inputs[i] for i in floats]
        with tf.GradientTape() as tape:
            for x in xs:
                tape.watch(x)
            t = total(*xs)
        return tape.gradient(t, xs)
    import paddle

    xs = [inputs[i] for i in floats]
    for x in xs:
        x.stop_gradient = False
    return paddle.grad(total(*xs), xs)


@pytest.mark.parametrize("which", list(FUNCTIONS))
def test_a_torch_function_becomes_a_native_function(backend: str, which: str, to_native: Any) -> None:
    fn, make = FUNCTIONS[which]
    args = make()
    native = ivy.transpile(fn, to=backend, args=tuple(torch.from_numpy(a) for a in args))
    got = native(*[to_native(a) for a in args])
    want = [w.numpy() for w in fn(*[torch.from_numpy(a) for a in args])]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        close(g, w)
    if backend not in MODULE_TARGETS:
        return
    floats = [i for i, a in enumerate(args) if a.dtype.kind == "f"]
    weights = [rand(*w.shape, seed=11 + i) for i, w in enumerate(want)]
    xs = [torch.from_numpy(args[i]).requires_grad_(True) for i in floats]
    full = [xs[floats.index(i)] if i in floats else torch.from_numpy(a) for i, a in enumerate(args)]
    total = sum((o * torch.from_numpy(w)).sum() for o, w in zip(fn(*full), weights))
    want_grads = torch.autograd.grad(total, xs)
    got_grads = _input_grads(backend, native, [to_native(a) for a in args], floats, weights, to_native)
    for g, w in zip(got_grads, want_grads):
        close(g, w.numpy(), rtol=1e-4, atol=1e-5)


def test_a_depthwise_convolution_on_jax_cpu_is_no_grouped_convolution(backend: str, to_native: Any) -> None:
    """XLA's CPU grouped convolution is 10-200x slower than the element-wise sum of shifted
    products the JAX plugin writes a depthwise convolution as there: the program has none."""
    if backend != "jax":
        pytest.skip("a JAX program")
    import jax

    if jax.default_backend() != "cpu":
        pytest.skip("XLA's CPU backend")
    fn, make = FUNCTIONS["convnext_block"]
    args = make()
    native = ivy.transpile(fn, to="jax", args=tuple(torch.from_numpy(a) for a in args))
    jaxpr = str(jax.make_jaxpr(native)(*[to_native(a) for a in args]))
    assert "conv_general_dilated" not in jaxpr


def test_unsupported_ops_are_listed_together_with_their_lines(backend: str) -> None:
    def special(x: Any) -> Any:
        return torch.lgamma(x) + torch.special.i0e(x) * 2

    with pytest.raises(ivy.errors.UnsupportedOpsError) as info:
        ivy.transpile(special, to=backend, args=(torch.ones(3),))
    ops = info.value.ops
    assert {"aten.lgamma.default", "aten.special_i0e.default"} <= set(ops), ops
    assert all(any("test_transpile_from_torch.py" in line for line in ops[op]) for op in ops)


def test_data_dependent_control_flow_is_named_with_its_line(backend: str) -> None:
    def branchy(x: Any) -> Any:
        if x.sum() > 0:
            return x * 2
        return x

    with pytest.raises(ivy.errors.TranspileError, match=r"test_transpile_from_torch.py:\d+.*torch\.where"):
        ivy.transpile(branchy, to=backend, args=(torch.ones(3),))


# ------------------------------------------------------------------------------ the disk cache


_SECOND_PROCESS = """
import logging, sys
import numpy as np, torch
import ivy
logging.basicConfig(level=logging.DEBUG, format="%(message)s", stream=sys.stdout)
x = torch.from_numpy(np.random.default_rng(0).random((2, 3, 8, 8), dtype=np.float32))
for stride in {strides}:
    print("TRANSPILE stride", stride, flush=True)
    torch.manual_seed(0)
    net = torch.nn.Sequential(
        torch.nn.Conv2d(3, 4, 3, stride=stride), torch.nn.BatchNorm2d(4), torch.nn.ReLU()
    ).eval()
    net[1].running_mean.copy_(torch.arange(4.0) / 10)
    native = ivy.transpile(net, to={target!r}, args=(x,))
    out = native(ivy.asarray(x.numpy(), backend={target!r}))
    print("MAXDIFF", float(np.max(np.abs(ivy.to_numpy(out) - net(x).detach().numpy()))), flush=True)
"""


def test_a_second_process_takes_a_torch_module_from_the_disk_cache(module_target: str, tmp_path: Any) -> None:
    """BatchNorm's 0-d counter among the weights, and another hash seed in each process: the
    entry is found again; a module of another stride (the same weights) is not given it."""
    import os
    import subprocess
    import sys

    def run(strides: list[int], seed: str) -> list[str]:
        """The output of each transpile, in order."""
        code = _SECOND_PROCESS.format(target=module_target, strides=strides)
        env = {**os.environ, "IVY_CACHE_DIR": str(tmp_path / "cache"), "PYTHONHASHSEED": seed}
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=900)
        assert r.returncode == 0, r.stderr[-3000:]
        outputs = r.stdout.split("TRANSPILE stride")[1:]
        assert len(outputs) == len(strides), r.stdout[-3000:]
        for out in outputs:
            assert float(out.split("MAXDIFF")[1].split()[0]) < 1e-5
        return outputs

    assert "transpile cache hit" not in run([1], "1")[0]
    same, other_stride = run([1, 2], "2")
    assert "transpile cache hit" in same
    assert "transpile cache hit" not in other_stride


# ------------------------------------------------------------------------------ kornia, lazily


KORNIA: dict[str, Callable[[Any, Any, Any], Any]] = {
    "filters.gaussian_blur2d": lambda k, x, angles: k.filters.gaussian_blur2d(x, (5, 5), (1.5, 1.5)),
    "filters.sobel": lambda k, x, angles: k.filters.sobel(x),
    "color.rgb_to_grayscale": lambda k, x, angles: k.color.rgb_to_grayscale(x),
    "color.rgb_to_hsv": lambda k, x, angles: k.color.rgb_to_hsv(x),
    "geometry.rotate": lambda k, x, angles: k.geometry.transform.rotate(x, angles),
    "geometry.hflip": lambda k, x, angles: k.geometry.transform.hflip(x),
    "geometry.resize": lambda k, x, angles: k.geometry.transform.resize(x, (8, 12)),
}


@pytest.fixture(scope="module")
def lazy_kornia(backend: str) -> Any:
    kornia = pytest.importorskip("kornia")
    return kornia, ivy.transpile(kornia, to=backend)


@pytest.mark.parametrize("which", list(KORNIA))
def test_kornia_through_a_lazily_transpiled_kornia(backend: str, which: str, lazy_kornia: Any, to_native: Any) -> None:
    # (gaussian_blur2d and resize take tuples of Python ints, which the compiled program must not trace)
    kornia, transpiled = lazy_kornia
    x = np.random.default_rng(0).uniform(size=(2, 3, 16, 16)).astype("float32")
    angles = np.array([30.0, -45.0], np.float32)
    want = KORNIA[which](kornia, torch.from_numpy(x), torch.from_numpy(angles)).numpy()
    close(KORNIA[which](transpiled, to_native(x), to_native(angles)), want)
