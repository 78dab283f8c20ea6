"""``ivy.transpile`` from paddle to each TARGET (the ``--backend`` of the run): a small CNN
(``Conv2D``, ``BatchNorm2D``, pooling, ``Linear``), an MLP (``Linear``, ``GELU``, ``LayerNorm``,
``Dropout``), a transformer encoder (``Embedding``, ``TransformerEncoderLayer``) and a paddle function.

The reference is always paddle itself, on the same inputs: outputs (within 1e-4 relative),
gradients of a scalar loss w.r.t. every parameter (the target's autodiff against paddle's
autograd), and the target's own optimizer (``torch.optim.SGD``, optax) lowering the loss. On
numpy (no autodiff) Layers run for inference as Ivy modules (``to="ivy"``) on NumPy arrays, and
functions are transpiled to NumPy.

    python -m pytest tests/test_transpile_from_paddle.py --backend torch -q

Skipped targets: paddle (the same framework), and tensorflow: a process that imported TensorFlow
must never import paddle (paddle after tensorflow crashes the interpreter), and every test here
imports paddle. Paddle is imported lazily, after that skip.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from _helpers.transpiling import close, not_the_source, rand, target_among

import ivy

AUTODIFF = ("torch", "jax")


_target = not_the_source(
    "paddle",
    "paddle",
    also_skip={"tensorflow": "paddle is never imported in a process that imports TensorFlow (it crashes there)"},
    needs=("paddle",),
)
autodiff_target = target_among(AUTODIFF, "training needs a target with autodiff")


# ------------------------------------------------------------------------------ the models


def _layers() -> dict[str, Any]:
    """The Layer classes, defined once paddle is imported (their source is what to_static reads)."""
    import paddle
    import paddle.nn.functional as F
    from paddle import nn

    class SmallCNN(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.conv_a = nn.Conv2D(3, 6, 3, padding=1)
            self.bn = nn.BatchNorm2D(6)
            self.pool = nn.MaxPool2D(2)
            self.conv_b = nn.Conv2D(6, 8, 3, stride=2)
            self.avg = nn.AvgPool2D(2, padding=1, exclusive=True)
            self.head = nn.Linear(8 * 2 * 2, 3)

        def forward(self, x):
            h = F.relu(self.bn(self.conv_a(x)))
            h = self.pool(h)
            h = F.relu(self.conv_b(h))
            h = self.avg(h)
            return self.head(paddle.flatten(h, 1))

    class MLP(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.embed = nn.Linear(6, 16)
            self.norm = nn.LayerNorm(16)
            self.drop = nn.Dropout(0.3)
            self.out = nn.Linear(16, 2)

        def forward(self, x):
            h = self.drop(self.norm(F.gelu(self.embed(x))))
            return F.softmax(self.out(h) + paddle.tanh(x[:, :2]), axis=-1)

    class Encoder(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.embed = nn.Embedding(10, 8)
            self.layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0)
            self.head = nn.Linear(8, 8)

        def forward(self, x):
            h = self.layer(x + self.embed(paddle.arange(5)).unsqueeze(0))
            return self.head(h.mean(axis=1))

    return {"cnn": SmallCNN, "mlp": MLP, "encoder": Encoder}


@dataclass
class Case:
    model: Any
    x: np.ndarray
    y: np.ndarray


_built: dict[str, Case] = {}


def _case(which: str) -> Case:
    if which not in _built:
        import paddle

        paddle.seed(0)  # the same initial weights in every run
        model = _layers()[which]()
        if which == "cnn":
            # running statistics that are not the identity, so that inference really uses them
            model.bn._mean.set_value(paddle.to_tensor(rand(6, seed=3) * 0.1))
            model.bn._variance.set_value(paddle.to_tensor(np.abs(rand(6, seed=4)) + 0.5))
            case = Case(model, rand(2, 3, 16, 16), rand(2, 3, seed=9))
        elif which == "mlp":
            case = Case(model, rand(4, 6), np.eye(2, dtype="float32")[[0, 1, 1, 0]])
        else:
            case = Case(model, rand(2, 5, 8), rand(2, 8, seed=9))
        model.eval()
        _built[which] = case
    return _built[which]


MODELS = ("cnn", "mlp", "encoder")


def _paddle_out(case: Case, x: np.ndarray) -> np.ndarray:
    import paddle

    return case.model(paddle.to_tensor(x)).numpy()


def _loss(out: Any, y: Any) -> Any:
    return ivy.mean(ivy.square(ivy.subtract(out, y)))


def _reference(case: Case) -> tuple[float, dict[str, np.ndarray]]:
    """The loss and its gradient w.r.t. every parameter, by paddle's autograd."""
    import paddle

    named = [(n, p) for n, p in case.model.named_parameters() if not p.stop_gradient]
    out = case.model(paddle.to_tensor(case.x))
    loss = paddle.mean(paddle.square(out - paddle.to_tensor(case.y)))
    grads = paddle.grad(loss, [p for _, p in named])
    return float(loss), {n.replace(".", "/"): g.numpy() for (n, _), g in zip(named, grads)}


def _flat(tree: Any, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in tree.items():
        if isinstance(v, dict):
            out.update(_flat(v, f"{prefix}{k}/"))
        else:
            out[f"{prefix}{k}"] = v
    return out


def _jax_forward(native: Any, params: Any, x: Any) -> Any:
    out = native.apply(params, x)
    return out[0] if native.state else out  # (outputs, state) where the module has buffers


def _transpile(case: Case, target: str) -> Any:
    import paddle

    return ivy.transpile(case.model, to=target, args=(paddle.to_tensor(case.x),))


def _value_and_grads(backend: str, native: Any, case: Case, to_native: Any) -> tuple[float, dict[str, Any]]:
    if backend == "torch":
        loss = _loss(native(to_native(case.x)), to_native(case.y))
        loss.backward()
        return float(loss.detach()), {native.key_chain(n): p.grad for n, p in native.named_parameters()}
    import jax

    def loss_fn(p: Any) -> Any:
        return _loss(_jax_forward(native, p, to_native(case.x)), to_native(case.y))

    loss, grads = jax.value_and_grad(loss_fn)(native.params)
    return float(loss), _flat(grads)


def _train(backend: str, native: Any, case: Case, to_native: Any, steps: int = 6) -> list[float]:
    """``steps`` steps of the target's own SGD; the loss before each."""
    x, y = to_native(case.x), to_native(case.y)
    losses = []
    if backend == "torch":
        import torch

        opt = torch.optim.SGD(native.parameters(), lr=0.1)
        for _ in range(steps):
            opt.zero_grad()
            loss = _loss(native(x), y)
            loss.backward()
            opt.step()
            losses.append(float(loss.detach()))
        return losses
    import jax
    import optax

    opt = optax.sgd(0.1)
    params = native.params
    state = opt.init(params)
    step = jax.jit(jax.value_and_grad(lambda p: _loss(_jax_forward(native, p, x), y)))
    for _ in range(steps):
        loss, grads = step(params)
        updates, state = opt.update(grads, state)
        params = optax.apply_updates(params, updates)
        losses.append(float(loss))
    return losses


# ------------------------------------------------------------------------------ Layers


@pytest.mark.parametrize("which", MODELS)
def test_paddle_layer_becomes_a_native_module_with_the_same_outputs(backend: str, which: str, to_native: Any) -> None:
    case = _case(which)
    x2 = rand(*case.x.shape, seed=5)  # other values, same program
    if backend == "numpy":  # no autodiff, so no native module: the Ivy module, run on NumPy
        import paddle

        module = ivy.transpile(case.model, to="ivy", args=(paddle.to_tensor(case.x),)).graph.module(backend="numpy")
        close(module(case.x), _paddle_out(case, case.x))
        close(module(x2), _paddle_out(case, x2))
        return
    native = _transpile(case, backend)
    close(native(to_native(case.x)), _paddle_out(case, case.x))
    close(native(to_native(x2)), _paddle_out(case, x2))


@pytest.mark.parametrize("which", MODELS)
def test_paddle_layer_gradients_wrt_every_parameter_match_paddle_autograd(
    autodiff_target: str, which: str, to_native: Any
) -> None:
    case = _case(which)
    native = _transpile(case, autodiff_target)
    loss, grads = _value_and_grads(autodiff_target, native, case, to_native)
    want_loss, want = _reference(case)
    assert set(grads) == set(want)
    np.testing.assert_allclose(loss, want_loss, rtol=1e-4)
    for chain, g in want.items():
        close(grads[chain], g, rtol=1e-3, atol=1e-5)


@pytest.mark.parametrize("which", MODELS)
def test_paddle_layer_is_trained_by_the_targets_own_optimizer(autodiff_target: str, which: str, to_native: Any) -> None:
    case = _case(which)
    native = _transpile(case, autodiff_target)
    losses = _train(autodiff_target, native, case, to_native)
    assert losses[-1] < 0.95 * losses[0], losses


def test_paddle_parameters_are_named_by_state_dict_and_running_stats_are_buffers(autodiff_target: str) -> None:
    native = _transpile(_case("cnn"), autodiff_target)
    if autodiff_target == "torch":
        params = {native.key_chain(n) for n, _ in native.named_parameters()}
        buffers = {native.key_chain(n) for n, _ in native.named_buffers()}
    else:
        params, buffers = set(_flat(native.params)), set(_flat(native.state))
    assert params == {f"{layer}/{p}" for layer in ("conv_a", "conv_b", "head") for p in ("weight", "bias")} | {
        "bn/weight",
        "bn/bias",
    }
    assert buffers == {"bn/_mean", "bn/_variance"}


def test_paddle_layout_stays_nchw(backend: str) -> None:
    import paddle

    from ivy_paddle.frontend import to_graph

    case = _case("cnn")
    graph = to_graph(case.model, (paddle.to_tensor(case.x),), None, None)
    convs = [n for n in graph.nodes if n.op == "conv2d"]
    assert len(convs) == 2
    assert all(n.kwargs.get("data_format") == "NCHW" for n in convs)
    # the parameter keeps paddle's [out, in, kh, kw] layout; the graph permutes it
    assert tuple(graph.params["conv_a/weight"].shape) == (6, 3, 3, 3)


def test_paddle_layer_in_training_mode_updates_its_running_statistics(autodiff_target: str, to_native: Any) -> None:
    import paddle

    paddle.seed(1)
    layer = _layers()["cnn"]()
    layer.train()
    x = rand(2, 3, 16, 16, seed=7)
    native = ivy.transpile(layer, to=autodiff_target, args=(paddle.to_tensor(x),))
    want = layer(paddle.to_tensor(x)).numpy()  # batch statistics; the running ones updated once
    if autodiff_target == "torch":
        got = native(to_native(x))
        state = {native.key_chain(n): b for n, b in native.named_buffers()}
    else:
        got, state = native.apply(native.params, to_native(x))
        state = _flat(state)
    close(got, want)
    close(state["bn/_mean"], layer.bn._mean.numpy())
    close(state["bn/_variance"], layer.bn._variance.numpy())


# ------------------------------------------------------------------------------ functions


def paddle_fn(x, y):
    import paddle

    h = paddle.tanh(x) * y + 2.0
    return paddle.sum(paddle.nn.functional.softmax(h, axis=-1) * x, axis=-1), paddle.maximum(x, y)


def test_paddle_function_becomes_a_native_function(backend: str, to_native: Any) -> None:
    import paddle

    x, y = rand(3, 4), rand(3, 4, seed=1)
    fn = ivy.transpile(paddle_fn, to=backend, args=(paddle.to_tensor(x), paddle.to_tensor(y)))
    got = fn(to_native(x), to_native(y))
    want = paddle_fn(paddle.to_tensor(x), paddle.to_tensor(y))
    assert isinstance(got, tuple) and len(got) == 2
    for g, w in zip(got, want):
        close(g, w.numpy())


def test_paddle_function_is_differentiable_in_the_target(autodiff_target: str, to_native: Any) -> None:
    import paddle

    x, y = rand(3, 4), rand(3, 4, seed=1)
    fn = ivy.transpile(paddle_fn, to=autodiff_target, args=(paddle.to_tensor(x), paddle.to_tensor(y)))
    px = paddle.to_tensor(x, stop_gradient=False)
    (want,) = paddle.grad(paddle_fn(px, paddle.to_tensor(y))[0].sum(), [px])
    if autodiff_target == "torch":
        tx = to_native(x).requires_grad_(True)
        fn(tx, to_native(y))[0].sum().backward()
        got = tx.grad
    else:
        import jax

        got = jax.grad(lambda a: fn(a, to_native(y))[0].sum())(to_native(x))
    close(got, want.numpy())


def test_paddle_unsupported_ops_are_listed_at_once(backend: str) -> None:
    import paddle

    from ivy_paddle.frontend import to_graph

    def uses_rare_ops(x):
        return paddle.erfinv(x) + paddle.digamma(x)

    # (to_static needs the source: a nested def in this file has it)
    with pytest.raises(ivy.errors.UnsupportedOpsError) as info:
        to_graph(uses_rare_ops, (paddle.to_tensor(rand(3) * 0.1 + 0.5),), None, None)
    assert {"pd_op.erfinv", "pd_op.digamma"} <= set(info.value.ops)
