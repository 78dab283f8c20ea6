"""``ivy.transpile`` from JAX to each TARGET (the ``--backend`` of the run): JAX functions, and
Flax linen, Flax nnx and Haiku models with their parameters.

The reference is always JAX itself, on the same inputs: outputs (within 1e-4 relative),
gradients of a scalar loss w.r.t. every parameter (the target's autodiff against ``jax.grad``),
and the target's own optimizer lowering the loss. The paper's example, a Haiku backbone inside a
``torch.nn.Module`` classifier trained with ``torch.optim``, runs on torch.

    python -m pytest tests/test_transpile_from_jax.py --backend torch -q

Modules go to the targets with autodiff (torch, tensorflow, paddle); functions also to numpy.
The jax target is skipped (source and target would be the same framework).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from _helpers.transpiling import close, file_cache, not_the_source, rand, target_among

import ivy

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
lax = jax.lax

MODULE_TARGETS = ("torch", "tensorflow", "paddle")


_cache = file_cache()
_target = not_the_source("jax", "JAX", cache=False)
module_target = target_among(MODULE_TARGETS, "modules are transpiled to targets with autodiff")


# ------------------------------------------------------------------------------ the models


@dataclass
class Case:
    """A JAX model: ``obj`` transpiled with ``params_v``; ``ref(params, x)`` its JAX forward pass
    over the trainable parameters ``params``; ``chains(grads)`` the gradient tree of ``params``
    flattened by the key chains the transpiled module names its parameters with."""

    obj: Any
    params_v: Any
    params: Any
    ref: Callable[[Any, Any], Any]
    chains: Callable[[Any], dict[str, Any]]
    x: np.ndarray
    y: np.ndarray
    by_keyword: str | None = None  # the input's keyword, where the model is called with one

    def __post_init__(self) -> None:
        self.ref = jax.jit(self.ref)  # JAX's eager ops compile one by one: slow for a reference


def _nested(tree: Any, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in tree.items():
        if hasattr(v, "items"):
            out.update(_nested(v, f"{prefix}{k}/"))
        else:
            out[f"{prefix}{k}"] = v
    return out


def _draw(path: Any, leaf: Any, rng: np.random.Generator) -> Any:
    """A value for a variable of the given shape: fan-in scaled weights, positive variances."""
    shape, dtype, name = tuple(leaf.shape), leaf.dtype, jax.tree_util.keystr(path)
    if jax.dtypes.issubdtype(dtype, jax.dtypes.prng_key):
        return jax.random.key(0)
    if not jnp.issubdtype(dtype, jnp.floating):
        return jnp.zeros(shape, dtype)  # counters
    z = rng.standard_normal(shape)
    if "var" in name:
        z = 0.5 + np.abs(z)
    elif "scale" in name:
        z = 1.0 + 0.1 * z
    else:
        z = z / np.sqrt(np.prod(shape[:-1])) if len(shape) > 1 else 0.1 * z
    return jnp.asarray(z.astype(dtype))


def _init(init: Callable[..., Any], *args: Any, seed: int = 0, **kwargs: Any) -> Any:
    """What ``init(key, *args, **kwargs)`` returns, drawn with NumPy rather than by the model's
    initializers: XLA takes seconds to compile JAX's random numbers on a CPU."""
    shapes = jax.eval_shape(init, jax.random.key(0), *args, **kwargs)
    rng = np.random.default_rng(seed)
    return jax.tree_util.tree_map_with_path(lambda p, leaf: _draw(p, leaf, rng), shapes)


def _linen_cnn() -> Case:
    import flax.linen as nn

    class CNN(nn.Module):
        @nn.compact
        def __call__(self, images: Any) -> Any:
            x = nn.relu(nn.Conv(4, (3, 3))(images))
            x = nn.max_pool(x, (2, 2), (2, 2))
            x = nn.gelu(nn.Conv(6, (3, 3), strides=2, padding="VALID")(x))
            x = nn.avg_pool(x, (2, 2), (1, 1))
            x = nn.LayerNorm()(x.reshape((x.shape[0], -1)))
            return nn.Dense(3)(x)

    model, x = CNN(), rand(2, 12, 12, 3)
    variables = _init(model.init, jnp.asarray(x))
    return Case(
        model,
        variables,
        variables["params"],
        lambda p, x: model.apply({"params": p}, images=x),
        lambda g: _nested(g),
        x,
        rand(2, 3, seed=9),
        by_keyword="images",
    )


def _linen_bn_mlp() -> Case:
    import flax.linen as nn

    class MLP(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            x = nn.Dense(8)(x)
            x = nn.BatchNorm(use_running_average=True)(x)
            x = nn.Dropout(0.5, deterministic=True)(nn.silu(x))
            return nn.Dense(2)(jnp.concatenate([x, jnp.tanh(x)], axis=-1))

    model, x = MLP(), rand(4, 5)
    variables = _init(model.init, jnp.asarray(x))  # batch statistics too: not the identity
    stats = variables["batch_stats"]
    return Case(
        model,
        variables,
        variables["params"],
        lambda p, x: model.apply({"params": p, "batch_stats": stats}, x),
        lambda g: _nested(g),
        x,
        rand(4, 2, seed=9),
    )


def _nnx_model() -> Case:
    from flax import nnx

    class Net(nnx.Module):
        def __init__(self, rngs: Any) -> None:
            self.conv = nnx.Conv(3, 4, (3, 3), rngs=rngs)
            self.bn = nnx.BatchNorm(4, rngs=rngs)
            self.drop = nnx.Dropout(0.2, rngs=rngs)
            self.head = nnx.Linear(4, 2, rngs=rngs)

        def __call__(self, x: Any) -> Any:
            x = self.drop(nnx.relu(self.bn(self.conv(x))))
            return self.head(x.mean(axis=(1, 2)))

    graphdef, shapes = nnx.split(nnx.eval_shape(lambda: Net(nnx.Rngs(0))))
    rng = np.random.default_rng(0)
    model = nnx.merge(graphdef, jax.tree_util.tree_map_with_path(lambda p, leaf: _draw(p, leaf, rng), shapes))
    model.eval()
    graphdef, params, rest = nnx.split(model, nnx.Param, ...)

    def ref(p: Any, x: Any) -> Any:
        return nnx.merge(graphdef, p, rest)(x)

    def chains(g: Any) -> dict[str, Any]:
        return {
            "/".join(str(k) for k in path): v.value if hasattr(v, "value") else v for path, v in nnx.to_flat_state(g)
        }

    return Case(model, None, params, ref, chains, rand(2, 6, 6, 3), rand(2, 2, seed=9))


def _haiku_chains(g: Any) -> dict[str, Any]:
    return {f"{module.replace('/~/', '/')}/{name}": v for module, leaves in g.items() for name, v in leaves.items()}


def _haiku_mlp() -> Case:
    import haiku as hk

    def mlp(x: Any) -> Any:
        return hk.nets.MLP([16, 8, 2], activation=jax.nn.gelu)(x)

    t = hk.transform(mlp)
    x = rand(4, 6)
    params = _init(t.init, jnp.asarray(x))
    return Case(t, params, params, lambda p, x: t.apply(p, None, x), _haiku_chains, x, rand(4, 2, seed=9))


def _haiku_resblock() -> Case:
    import haiku as hk

    def block(images: Any, training: bool = False) -> Any:
        h = jax.nn.relu(hk.Conv2D(4, 3, name="stem")(images))
        r = hk.Conv2D(4, 3, name="conv_a")(h)
        r = hk.BatchNorm(True, True, 0.5, name="bn")(r, is_training=training)
        r = hk.Conv2D(4, 3, name="conv_b")(jax.nn.relu(r))
        out = jax.nn.relu(h + r)
        return hk.Linear(2, name="head")(jnp.mean(out, axis=(1, 2)))

    t = hk.transform_with_state(block)
    x = rand(2, 8, 8, 3)
    params, state = _init(functools.partial(t.init, training=True), jnp.asarray(x))  # running statistics included
    return Case(
        t,
        (params, state),
        params,
        lambda p, x: t.apply(p, state, None, images=x)[0],
        _haiku_chains,
        x,
        rand(2, 2, seed=9),
        by_keyword="images",
    )


def _haiku_transformer() -> Case:
    import haiku as hk

    def block(x: Any) -> Any:
        causal = jnp.tril(jnp.ones((1, 1, x.shape[1], x.shape[1]), bool))
        h = hk.LayerNorm(-1, True, True, name="ln_1")(x)
        x = x + hk.MultiHeadAttention(2, 4, w_init=hk.initializers.VarianceScaling(1.0), name="attn")(
            h, h, h, mask=causal
        )
        h = hk.LayerNorm(-1, True, True, name="ln_2")(x)
        x = x + hk.nets.MLP([16, 8], activation=jax.nn.gelu, name="mlp")(h)
        return hk.Linear(2, name="head")(x[:, -1])

    t = hk.transform(block)
    x = rand(2, 5, 8)
    params = _init(t.init, jnp.asarray(x))
    return Case(t, params, params, lambda p, x: t.apply(p, None, x), _haiku_chains, x, rand(2, 2, seed=9))


MODELS = {
    "linen_cnn": _linen_cnn,
    "linen_bn_mlp": _linen_bn_mlp,
    "nnx_conv_bn": _nnx_model,
    "haiku_mlp": _haiku_mlp,
    "haiku_resblock": _haiku_resblock,
    "haiku_transformer": _haiku_transformer,
}
_built: dict[str, Case] = {}


def _case(which: str) -> Case:
    if which not in _built:
        _built[which] = MODELS[which]()
    return _built[which]


# ------------------------------------------------------------------------------ the targets' own idioms


def _call(backend: str, native: Any, case: Case, x: Any) -> Any:
    return native(**{case.by_keyword: x}) if case.by_keyword else native(x)


def _loss(out: Any, y: Any) -> Any:
    return ivy.mean(ivy.square(ivy.subtract(out, y)))


def _params(backend: str, native: Any) -> dict[str, Any]:
    if backend == "tensorflow":
        return {native.key_chain(v): v for v in native.trainable_variables}
    return {native.key_chain(n): p for n, p in native.named_parameters()}


def _value_and_grads(backend: str, native: Any, case: Case, x: Any, y: Any) -> tuple[float, dict[str, Any]]:
    """The loss and its gradient w.r.t. every parameter, by the target's own autodiff."""
    if backend == "tensorflow":
        import tensorflow as tf

        with tf.GradientTape() as tape:
            loss = _loss(_call(backend, native, case, x), y)
        grads = tape.gradient(loss, native.trainable_variables)
        return float(ivy.to_numpy(loss)), {native.key_chain(v): g for v, g in zip(native.trainable_variables, grads)}
    loss = _loss(_call(backend, native, case, x), y)
    loss.backward()
    grads = {native.key_chain(n): p.grad for n, p in native.named_parameters()}
    return float(ivy.to_numpy(loss)), grads


def _sgd(backend: str, native: Any, case: Case, x: Any, y: Any, steps: int, lr: float) -> list[float]:
    """``steps`` steps of the target's own SGD; the loss before each."""
    losses = []
    if backend == "torch":
        import torch

        opt = torch.optim.SGD(native.parameters(), lr=lr)
        for _ in range(steps):
            opt.zero_grad()
            loss = _loss(_call(backend, native, case, x), y)
            loss.backward()
            opt.step()
            losses.append(float(loss))
    elif backend == "tensorflow":
        import keras
        import tensorflow as tf

        opt = keras.optimizers.SGD(lr)
        for _ in range(steps):
            with tf.GradientTape() as tape:
                loss = _loss(_call(backend, native, case, x), y)
            opt.apply_gradients(zip(tape.gradient(loss, native.trainable_variables), native.trainable_variables))
            losses.append(float(loss))
    else:
        import paddle

        opt = paddle.optimizer.SGD(learning_rate=lr, parameters=native.parameters())
        for _ in range(steps):
            loss = _loss(_call(backend, native, case, x), y)
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(float(loss))
    return losses


def _transpile(case: Case, backend: str) -> Any:
    x = jnp.asarray(case.x)
    given = {"kwargs": {case.by_keyword: x}} if case.by_keyword else {"args": (x,)}
    return ivy.transpile(case.obj, to=backend, params_v=case.params_v, **given)


# ------------------------------------------------------------------------------ modules


@pytest.mark.parametrize("which", list(MODELS))
def test_a_jax_model_becomes_a_native_module_with_the_same_outputs(
    module_target: str, which: str, to_native: Any
) -> None:
    case = _case(which)
    native = _transpile(case, module_target)
    want = case.ref(case.params, jnp.asarray(case.x))
    close(_call(module_target, native, case, to_native(case.x)), want)
    x2 = rand(*case.x.shape, seed=5)  # other values, same program
    close(_call(module_target, native, case, to_native(x2)), case.ref(case.params, jnp.asarray(x2)))


@pytest.mark.parametrize("which", list(MODELS))
def test_gradients_wrt_every_parameter_match_jax_grad(module_target: str, which: str, to_native: Any) -> None:
    case = _case(which)
    native = _transpile(case, module_target)
    loss, grads = _value_and_grads(module_target, native, case, to_native(case.x), to_native(case.y))

    def ref_loss(p: Any) -> Any:
        return jnp.mean(jnp.square(case.ref(p, jnp.asarray(case.x)) - jnp.asarray(case.y)))

    want_loss, want_grads = jax.jit(jax.value_and_grad(ref_loss))(case.params)
    want = case.chains(want_grads)
    assert set(grads) == set(want)
    np.testing.assert_allclose(loss, float(want_loss), rtol=1e-4)
    for chain, g in want.items():
        close(grads[chain], g, rtol=1e-3, atol=1e-5)


@pytest.mark.parametrize("which", list(MODELS))
def test_jax_source_trains_with_the_targets_optimizer(module_target: str, which: str, to_native: Any) -> None:
    case = _case(which)
    native = _transpile(case, module_target)
    losses = _sgd(module_target, native, case, to_native(case.x), to_native(case.y), steps=5, lr=0.1)
    assert losses[-1] < 0.95 * losses[0], losses


def test_parameters_are_named_by_key_chains(module_target: str) -> None:
    assert set(_params(module_target, _transpile(_case("linen_cnn"), module_target))) == {
        f"{layer}/{p}" for layer in ("Conv_0", "Conv_1", "Dense_0") for p in ("kernel", "bias")
    } | {"LayerNorm_0/scale", "LayerNorm_0/bias"}
    assert set(_params(module_target, _transpile(_case("haiku_mlp"), module_target))) == {
        f"mlp/linear_{i}/{p}" for i in range(3) for p in ("w", "b")
    }
    assert set(_params(module_target, _transpile(_case("nnx_conv_bn"), module_target))) == {
        "conv/kernel",
        "conv/bias",
        "bn/scale",
        "bn/bias",
        "head/kernel",
        "head/bias",
    }


def test_flax_variables_other_than_params_are_buffers(module_target: str) -> None:
    native = _transpile(_case("linen_bn_mlp"), module_target)
    if module_target == "tensorflow":
        buffers = {native.key_chain(v) for v in native.non_trainable_variables}
    else:
        buffers = {native.key_chain(n) for n, _ in native.named_buffers()}
    assert buffers == {"batch_stats/BatchNorm_0/mean", "batch_stats/BatchNorm_0/var"}


def _pure_mlp(params: Any, images: Any) -> Any:
    h = jax.nn.relu(images.reshape(images.shape[0], -1) @ params["hidden"]["w"] + params["hidden"]["b"])
    return h @ params["out"]["w"]


@pytest.mark.parametrize(
    "form",
    ["params_v", "pair"],
)
def test_a_pure_function_of_a_params_tree_is_a_module(module_target: str, form: str, to_native: Any) -> None:
    """``fn(params, *args)`` with ``params_v=params`` (or the pair ``(fn, params)``): the tree's
    leaves become trainable parameters named by their paths."""
    params = {
        "hidden": {"w": jnp.asarray(rand(12, 5) / 3), "b": jnp.asarray(rand(5))},
        "out": {"w": jnp.asarray(rand(5, 2))},
    }
    x = rand(3, 2, 6)
    if form == "pair":
        native = ivy.transpile((_pure_mlp, params), to=module_target, args=(jnp.asarray(x),))
    else:
        native = ivy.transpile(_pure_mlp, to=module_target, params_v=params, kwargs={"images": jnp.asarray(x)})
    assert set(_params(module_target, native)) == {"hidden/w", "hidden/b", "out/w"}
    got = native(to_native(x)) if form == "pair" else native(images=to_native(x))
    close(got, jax.jit(_pure_mlp)(params, jnp.asarray(x)))


def test_haiku_backbone_inside_a_torch_classifier(backend: str, to_native: Any) -> None:
    """The paper's example: a Haiku backbone, transpiled to torch, under a torch classifier head
    trained with torch.optim."""
    if backend != "torch":
        pytest.skip("a torch.nn.Module classifier")
    import haiku as hk
    import torch

    def backbone_fn(images: Any) -> Any:
        h = jax.nn.relu(hk.Conv2D(8, 3, stride=2, name="stem")(images))
        r = hk.Conv2D(8, 3, name="res")(h)
        return jax.nn.relu(h + r)  # [N, H, W, C] features

    backbone_t = hk.transform(backbone_fn)
    dummy = jnp.asarray(rand(2, 16, 16, 3))
    params = _init(backbone_t.init, images=dummy)
    backbone = ivy.transpile(backbone_t, to="torch", params_v=params, kwargs={"images": dummy})
    assert isinstance(backbone, torch.nn.Module)

    class Classifier(torch.nn.Module):
        def __init__(self, num_classes: int = 3) -> None:
            super().__init__()
            self.backbone = backbone
            self.pool = torch.nn.AdaptiveMaxPool2d(1)
            self.fc = torch.nn.Linear(8, num_classes)

        def forward(self, x: Any) -> Any:
            feats = self.backbone(images=x).permute(0, 3, 1, 2)  # the backbone keeps JAX's NHWC
            return self.fc(torch.flatten(self.pool(feats), 1))

    model = Classifier()
    x = to_native(np.asarray(dummy))
    labels = torch.tensor([0, 2])
    before = {n: p.detach().clone() for n, p in model.backbone.named_parameters()}
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    losses = []
    for _ in range(8):
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), labels)
        loss.backward()
        opt.step()
        losses.append(float(loss))
    assert losses[-1] < 0.7 * losses[0], losses
    assert all(not torch.equal(p, before[n]) for n, p in model.backbone.named_parameters())  # trained too
    trained = {
        k: {n: jnp.asarray(v.detach().numpy()) for n, v in d.items()} for k, d in _haiku_tree(model.backbone).items()
    }
    close(backbone(images=x), jax.jit(backbone_t.apply)(trained, None, images=dummy))  # the weights are Haiku's still


def _haiku_tree(native: Any) -> dict[str, dict[str, Any]]:
    """The torch module's parameters back in Haiku's params layout (``stem/w`` -> ``{"stem": {"w"}}``)."""
    tree: dict[str, dict[str, Any]] = {}
    for n, p in native.named_parameters():
        module, _, name = native.key_chain(n).rpartition("/")
        tree.setdefault(module, {})[name] = p
    return tree


# ------------------------------------------------------------------------------ functions


def indexing(x: Any, idx: Any) -> Any:
    rows = x[idx] * 2.0
    x = x.at[0, 1].set(-1.0).at[idx, 0].add(3.0)
    return rows, x[:, ::2], x[-1]


def where_softmax(x: Any) -> Any:
    return jax.nn.softmax(jnp.where(x > 0, x, 0.1 * x), axis=-1)


def attention(q: Any, k: Any, v: Any) -> Any:
    w = jax.nn.softmax(jnp.einsum("bqd,bkd->bqk", q, k) / jnp.sqrt(np.float32(q.shape[-1])), axis=-1)
    return jnp.einsum("bqk,bkd->bqd", w, v)


def rnn(xs: Any, w: Any) -> Any:
    def step(h: Any, x: Any) -> Any:
        h = jnp.tanh(h @ w + x)
        return h, h.sum()

    return lax.scan(step, jnp.zeros(xs.shape[1:], xs.dtype), xs)


FUNCTIONS = {
    "indexing": (indexing, lambda: (rand(5, 4), np.array([3, 0, 3], np.int32))),
    "where_softmax": (where_softmax, lambda: (rand(3, 7),)),
    "attention": (attention, lambda: (rand(2, 4, 8), rand(2, 5, 8, seed=1), rand(2, 5, 8, seed=2))),
    "rnn": (rnn, lambda: (rand(6, 2, 3), rand(3, 3, seed=1) * 0.5)),
}


def _float_grads(
    backend: str, fn: Any, inputs: list[Any], floats: list[int], weights: list[np.ndarray], to_native: Any
) -> list[Any]:
    """Gradients of sum(outputs * weights) w.r.t. the float inputs, by the target's autodiff."""

    def total(outs: list[Any]) -> Any:
        return sum(ivy.sum(ivy.multiply(o, to_native(w))) for o, w in zip(outs, weights))

    if backend == "torch":
        for i in floats:
            inputs[i].requires_grad_(True)
        total(jax.tree_util.tree_leaves(fn(*inputs))).backward()
        return [inputs[i].grad for i in floats]
    if backend == "tensorflow":
        import tensorflow as tf

        with tf.GradientTape() as tape:
            for i in floats:
                tape.watch(inputs[i])
            t = total(jax.tree_util.tree_leaves(fn(*inputs)))
        return tape.gradient(t, [inputs[i] for i in floats])
    import paddle

    for i in floats:
        inputs[i].stop_gradient = False
    t = total(jax.tree_util.tree_leaves(fn(*inputs)))
    return paddle.grad(t, [inputs[i] for i in floats])


@pytest.mark.parametrize("which", list(FUNCTIONS))
def test_a_jax_function_becomes_a_native_function(backend: str, which: str, to_native: Any) -> None:
    fn, make = FUNCTIONS[which]
    args = make()
    native = ivy.transpile(fn, to=backend, args=tuple(jnp.asarray(a) for a in args))
    got = native(*[to_native(a) for a in args])
    want = jax.jit(fn)(*[jnp.asarray(a) for a in args])
    got_leaves, want_leaves = jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)
    assert len(got_leaves) == len(want_leaves)
    for g, w in zip(got_leaves, want_leaves):
        close(g, w)
    if backend not in MODULE_TARGETS:
        return
    floats = [i for i, a in enumerate(args) if a.dtype.kind == "f"]
    weights = [rand(*np.shape(w), seed=11 + i) for i, w in enumerate(want_leaves)]

    def ref_total(*xs: Any) -> Any:
        outs = jax.tree_util.tree_leaves(fn(*xs))
        return sum(jnp.sum(o * w) for o, w in zip(outs, weights))

    want_grads = jax.jit(jax.grad(ref_total, argnums=tuple(floats)))(*[jnp.asarray(a) for a in args])
    got_grads = _float_grads(backend, native, [to_native(a) for a in args], floats, weights, to_native)
    for g, w in zip(got_grads, want_grads):
        close(g, w, rtol=1e-4, atol=1e-5)


def test_an_unsupported_primitive_is_named_with_its_line(backend: str) -> None:
    def needs_lgamma(x: Any) -> Any:
        return jax.scipy.special.gammaln(x) * 2

    with pytest.raises(ivy.errors.UnsupportedOpsError, match="lgamma") as info:
        ivy.transpile(needs_lgamma, to=backend, args=(jnp.ones(3, jnp.float32),))
    assert any("test_transpile_from_jax.py" in w for w in info.value.ops["lgamma"])
