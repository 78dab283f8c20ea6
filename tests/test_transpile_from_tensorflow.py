"""``ivy.transpile`` from TensorFlow to each TARGET (the ``--backend`` of the run): Keras 3
models (a CNN, a functional-API model) and TF functions.

The reference is always TensorFlow itself, on the same inputs: outputs (within 1e-4 relative),
gradients of a scalar loss w.r.t. every trainable variable (the target's autodiff against
``tf.GradientTape``), and the target's own optimizer (``torch.optim.SGD``, optax) lowering the
loss. On numpy (no autodiff) models run for inference as Ivy modules (``to="ivy"``) on NumPy
arrays, and functions are transpiled to NumPy.

    python -m pytest tests/test_transpile_from_tensorflow.py --backend torch -q

Skipped targets: tensorflow (the same framework), and paddle: a process that imported
TensorFlow must never import paddle (paddle after tensorflow crashes the interpreter), and every
test here imports TensorFlow. TensorFlow is imported lazily, after that skip, so that collecting
this file in a paddle run imports nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from _helpers.transpiling import LOOP_INPUTS, close, doubling_reference, not_the_source, rand, target_among

import ivy

TARGETS = ("torch", "jax", "numpy")
AUTODIFF = ("torch", "jax")


_target = not_the_source(
    "tensorflow",
    "TensorFlow",
    also_skip={"paddle": "paddle is never imported in a process that imported TensorFlow (it crashes there)"},
    needs=("tensorflow", "keras"),
)
autodiff_target = target_among(AUTODIFF, "training needs a target with autodiff")


# ------------------------------------------------------------------------------ the models


@dataclass
class Case:
    model: Any
    x: np.ndarray
    y: np.ndarray


def _cnn() -> Case:
    import keras

    model = keras.Sequential(
        [
            keras.Input((16, 16, 3)),
            keras.layers.Conv2D(6, 3, padding="same", name="conv_a"),
            keras.layers.BatchNormalization(name="bn"),
            keras.layers.ReLU(),
            keras.layers.MaxPooling2D(2, name="max_pool"),
            keras.layers.Conv2D(8, 3, strides=2, name="conv_b", activation="relu"),
            keras.layers.AveragePooling2D(2, padding="same", name="avg_pool"),
            keras.layers.Flatten(),
            keras.layers.Dense(3, name="head"),
        ],
        name="cnn",
    )
    bn = model.get_layer("bn")
    # moving statistics that are not the identity, so that inference really uses them
    bn.moving_mean.assign(rand(6, seed=3) * 0.1)
    bn.moving_variance.assign(np.abs(rand(6, seed=4)) + 0.5)
    return Case(model, rand(2, 16, 16, 3), rand(2, 3, seed=9))


def _functional() -> Case:
    import keras

    inp = keras.Input((6,), name="features")
    h = keras.layers.Dense(16, activation="tanh", name="embed")(inp)
    a = keras.layers.Dense(8, activation="gelu", name="branch_a")(h)
    b = keras.layers.Dense(8, activation="sigmoid", name="branch_b")(h)
    z = keras.layers.Concatenate(name="join")([a, b])
    z = keras.layers.LayerNormalization(name="norm")(z)
    z = keras.layers.Dropout(0.3)(z)  # off in inference
    out = keras.layers.Add()([keras.layers.Dense(2, name="head")(z), keras.layers.Dense(2, name="skip")(inp)])
    targets = np.eye(2, dtype="float32")[[0, 1, 1, 0]]  # class probabilities, what a softmax can reach
    return Case(keras.Model(inp, keras.layers.Softmax()(out), name="functional_net"), rand(4, 6), targets)


MODELS: dict[str, Callable[[], Case]] = {"cnn": _cnn, "functional": _functional}
_built: dict[str, Case] = {}


def _case(which: str) -> Case:
    if which not in _built:
        import keras

        keras.utils.set_random_seed(0)  # the same initial weights in every run
        _built[which] = MODELS[which]()
    return _built[which]


def _loss(out: Any, y: Any) -> Any:
    return ivy.mean(ivy.square(ivy.subtract(out, y)))


def _reference(case: Case) -> tuple[float, dict[str, np.ndarray]]:
    """The loss and its gradient w.r.t. every trainable variable, by ``tf.GradientTape``."""
    import tensorflow as tf

    variables = case.model.trainable_variables
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(case.model(case.x, training=False) - case.y))
    grads = tape.gradient(loss, variables)
    # key chains are the Keras paths without the outer model's name (a Sequential puts it first)
    return float(loss), {v.path.removeprefix(f"{case.model.name}/"): np.asarray(g) for v, g in zip(variables, grads)}


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


def _value_and_grads(
    backend: str, native: Any, x: np.ndarray, y: np.ndarray, to_native: Any
) -> tuple[float, dict[str, Any]]:
    if backend == "torch":
        loss = _loss(native(to_native(x)), to_native(y))
        loss.backward()
        return float(loss.detach()), {native.key_chain(n): p.grad for n, p in native.named_parameters()}
    import jax

    def loss_fn(p: Any) -> Any:
        return _loss(_jax_forward(native, p, to_native(x)), to_native(y))

    loss, grads = jax.value_and_grad(loss_fn)(native.params)
    return float(loss), _flat(grads)


def _train(backend: str, native: Any, x: np.ndarray, y: np.ndarray, to_native: Any, steps: int = 6) -> list[float]:
    """``steps`` steps of the target's own SGD; the loss before each."""
    losses = []
    if backend == "torch":
        import torch

        opt = torch.optim.SGD(native.parameters(), lr=0.1)
        for _ in range(steps):
            opt.zero_grad()
            loss = _loss(native(to_native(x)), to_native(y))
            loss.backward()
            opt.step()
            losses.append(float(loss.detach()))
        return losses
    import jax
    import optax

    opt = optax.sgd(0.1)
    params = native.params
    state = opt.init(params)
    step = jax.jit(jax.value_and_grad(lambda p: _loss(_jax_forward(native, p, to_native(x)), to_native(y))))
    for _ in range(steps):
        loss, grads = step(params)
        updates, state = opt.update(grads, state)
        params = optax.apply_updates(params, updates)
        losses.append(float(loss))
    native.params = params
    return losses


# ------------------------------------------------------------------------------ modules


@pytest.mark.parametrize("which", list(MODELS))
def test_a_keras_model_becomes_a_native_module_with_the_same_outputs(backend: str, which: str, to_native: Any) -> None:
    case = _case(which)
    want = np.asarray(case.model(case.x, training=False))
    x2 = rand(*case.x.shape, seed=5)  # other values, same program
    if backend == "numpy":  # no autodiff, so no native module: the Ivy module, run on NumPy
        # (to="ivy" gives a module whose variables live on the source's backend: its graph's
        # module on numpy holds them as NumPy arrays)
        module = ivy.transpile(case.model, to="ivy", args=(case.x,)).graph.module(backend="numpy")
        close(module(case.x), want)
        close(module(x2), np.asarray(case.model(x2, training=False)))
        return
    native = ivy.transpile(case.model, to=backend, args=(case.x,))
    close(native(to_native(case.x)), want)
    close(native(to_native(x2)), np.asarray(case.model(x2, training=False)))


@pytest.mark.parametrize("which", list(MODELS))
def test_gradients_wrt_every_variable_match_gradient_tape(autodiff_target: str, which: str, to_native: Any) -> None:
    case = _case(which)
    native = ivy.transpile(case.model, to=autodiff_target, args=(case.x,))
    loss, grads = _value_and_grads(autodiff_target, native, case.x, case.y, to_native)
    want_loss, want = _reference(case)
    assert set(grads) == set(want)
    np.testing.assert_allclose(loss, want_loss, rtol=1e-4)
    for chain, g in want.items():
        close(grads[chain], g, rtol=1e-3, atol=1e-5)


@pytest.mark.parametrize("which", list(MODELS))
def test_tensorflow_source_trains_with_the_targets_optimizer(autodiff_target: str, which: str, to_native: Any) -> None:
    case = _case(which)
    native = ivy.transpile(case.model, to=autodiff_target, args=(case.x,))
    losses = _train(autodiff_target, native, case.x, case.y, to_native)
    assert losses[-1] < 0.95 * losses[0], losses


def test_variables_are_named_by_keras_paths_and_moving_statistics_are_buffers(autodiff_target: str) -> None:
    native = ivy.transpile(_case("cnn").model, to=autodiff_target, args=(_case("cnn").x,))
    if autodiff_target == "torch":
        params = {native.key_chain(n) for n, _ in native.named_parameters()}
        buffers = {native.key_chain(n) for n, _ in native.named_buffers()}
    else:
        params, buffers = set(_flat(native.params)), set(_flat(native.state))
    assert params == {f"{layer}/{p}" for layer in ("conv_a", "conv_b", "head") for p in ("kernel", "bias")} | {
        "bn/gamma",
        "bn/beta",
    }
    assert buffers == {"bn/moving_mean", "bn/moving_variance"}


def test_the_layout_stays_nhwc(backend: str) -> None:
    case = _case("cnn")
    from ivy_tensorflow.frontend import to_graph

    graph = to_graph(case.model, (case.x,), {}, None)
    convs = [n for n in graph.nodes if n.op == "conv2d"]
    assert len(convs) == 2 and all(n.kwargs.get("data_format", "NHWC") == "NHWC" for n in convs)
    assert "permute_dims" not in graph.ops()


# ------------------------------------------------------------------------------ functions


def attention(q: Any, k: Any, v: Any) -> Any:
    import tensorflow as tf

    w = tf.nn.softmax(tf.einsum("bqd,bkd->bqk", q, k) / tf.sqrt(float(q.shape[-1])), axis=-1)
    return tf.matmul(w, v)


def conv_block(x: Any, w: Any, b: Any) -> Any:
    import tensorflow as tf

    h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w, strides=1, padding="SAME"), b))
    return tf.reduce_mean(tf.nn.max_pool2d(h, 2, 2, "VALID"), axis=[1, 2])


def slicing(x: Any) -> Any:
    import tensorflow as tf

    top = tf.reduce_max(x[:, 1:, ::2], axis=-1, keepdims=True)
    return tf.concat([x[:, :2, 0], tf.squeeze(top, -1)[:, :2]], axis=1), tf.stack([x[0], x[-1]], 0)


FUNCTIONS = {
    "attention": (attention, lambda: (rand(2, 4, 8), rand(2, 5, 8, seed=1), rand(2, 5, 8, seed=2))),
    "conv_block": (conv_block, lambda: (rand(2, 8, 8, 3), rand(3, 3, 3, 4, seed=1), rand(4, seed=2))),
    "slicing": (slicing, lambda: (rand(3, 4, 5),)),
}


def _leaves(tree: Any) -> list[Any]:
    return list(tree) if isinstance(tree, (tuple, list)) else [tree]


def _target_grads(
    backend: str, fn: Any, args: list[np.ndarray], weights: list[np.ndarray], to_native: Any
) -> list[Any]:
    if backend == "torch":
        xs = [to_native(a).requires_grad_(True) for a in args]
        sum(ivy.sum(ivy.multiply(o, to_native(w))) for o, w in zip(_leaves(fn(*xs)), weights)).backward()
        return [x.grad for x in xs]
    import jax

    def total(*xs: Any) -> Any:
        return sum(ivy.sum(ivy.multiply(o, to_native(w))) for o, w in zip(_leaves(fn(*xs)), weights))

    return list(jax.grad(total, argnums=tuple(range(len(args))))(*[to_native(a) for a in args]))


@pytest.mark.parametrize("which", list(FUNCTIONS))
def test_a_tf_function_becomes_a_native_function(backend: str, which: str, to_native: Any) -> None:
    import tensorflow as tf

    fn, make = FUNCTIONS[which]
    args = make()
    native = ivy.transpile(fn, to=backend, args=tuple(tf.constant(a) for a in args))
    want = [np.asarray(w) for w in _leaves(fn(*[tf.constant(a) for a in args]))]
    got = _leaves(native(*[to_native(a) for a in args]))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        close(g, w)
    if backend not in AUTODIFF:
        return
    weights = [rand(*w.shape, seed=11 + i) for i, w in enumerate(want)]
    xs = [tf.constant(a) for a in args]
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        total = sum(tf.reduce_sum(o * w) for o, w in zip(_leaves(fn(*xs)), weights))
    for g, w in zip(_target_grads(backend, native, args, weights, to_native), tape.gradient(total, xs)):
        close(g, np.asarray(w))


def test_a_tf_function_decorated_with_tf_function(backend: str, to_native: Any) -> None:
    import tensorflow as tf

    @tf.function
    def gelu_mlp(x: Any, w: Any) -> Any:
        return tf.nn.gelu(x @ w, approximate=True)

    x, w = rand(3, 4), rand(4, 2, seed=1)
    native = ivy.transpile(gelu_mlp, to=backend, args=(x, w))
    close(native(to_native(x), to_native(w)), np.asarray(gelu_mlp(x, w)))


def test_unsupported_ops_are_all_named_with_their_lines(backend: str) -> None:
    import tensorflow as tf

    def special(x: Any) -> Any:
        return tf.math.lgamma(x) * tf.math.bessel_i0e(x)

    with pytest.raises(ivy.errors.UnsupportedOpsError) as info:
        ivy.transpile(special, to=backend, args=(tf.ones(3),))
    assert set(info.value.ops) == {"Lgamma", "BesselI0e"}
    assert all("test_transpile_from_tensorflow.py" in w[0] for w in info.value.ops.values())


def _tf_loop_and_branch(x: Any) -> Any:
    import tensorflow as tf

    i, v = tf.while_loop(lambda i, v: tf.reduce_sum(v) < 100.0, lambda i, v: (i + 1, v * 2.0), (tf.constant(0), x))
    return i, tf.cond(i > 3, lambda: v + 1.0, lambda: v - 1.0)


def test_a_tf_while_and_if_become_one_loop_and_one_branch(
    backend: str, to_native: Any, to_numpy: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tensorflow as tf

    fn = tf.function(_tf_loop_and_branch)
    monkeypatch.setenv("IVY_CACHE_DIR", str(tmp_path / "cache"))
    prog = ivy.transpile(fn, source="tensorflow", to=backend)
    graph = ivy.transpile(fn, source="tensorflow", to="ivy", args=(LOOP_INPUTS[0],))
    assert graph.ops()["while_loop"] == 1 and graph.ops()["cond"] == 1
    for x in LOOP_INPUTS:  # 6, 1 and 0 steps: the step count is decided at run time
        i, y = prog(to_native(x))
        want_i, want_y = doubling_reference(x, 2.0)
        assert int(to_numpy(i)) == want_i
        np.testing.assert_allclose(to_numpy(y), want_y, rtol=1e-6)
