"""Native interop on tensorflow (Keras 3) and jax: ``ivy.to_native_module`` / ``ivy.from_native_module``.

Run with ``--backend tensorflow`` or ``--backend jax``; the tests of the other framework skip
(one framework per process). Every trained model is checked against a reference written without
Ivy: the paper's FC model's forward and backward pass in NumPy (``_helpers/acceptance.py``), with
SGD, Adam as Keras implements it, or Adam as Kingma & Ba / torch / Ivy, in float64; or the same
model written with the framework's own functions and trained by its own optimizer.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from _helpers import acceptance as A

import ivy
from ivy._stateful.interop import NativeModuleWrapper
from ivy.testing.convert import native_to_numpy, to_native

FC_KEYS = ["linear0/w", "linear0/b", "linear1/w", "linear1/b"]


def _close(actual, expected, *, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(np.asarray(actual, np.float64), np.asarray(expected, np.float64), rtol=rtol, atol=atol)


def _np_fc(w, x):
    h = np.maximum(x @ w["linear0"]["w"].T + w["linear0"]["b"], 0.0)
    return 1.0 / (1.0 + np.exp(-(h @ w["linear1"]["w"].T + w["linear1"]["b"])))


def _f64(w):
    return A._tree_map(lambda a: np.asarray(a, np.float64), w)


def _np_sgd_trajectory(w, x, t, steps, lr):
    w, x, t = _f64(w), x.astype(np.float64), t.astype(np.float64)
    losses = []
    for _ in range(steps):
        loss, g = A.np_fc_loss_and_grads(w, x, t)
        losses.append(loss)
        w = A._tree_map(lambda wi, gi: wi - lr * gi, w, g)
    return losses, w


def _np_keras_adam_trajectory(w, x, t, steps, lr, eps=1e-7, b1=0.9, b2=0.999):
    """Adam as ``keras.optimizers.Adam`` computes it: the bias corrections folded into the step
    size, epsilon added to the uncorrected ``sqrt(v)`` ("epsilon hat")."""
    w, x, t = _f64(w), x.astype(np.float64), t.astype(np.float64)
    m, v = A._tree_map(np.zeros_like, w), A._tree_map(np.zeros_like, w)
    losses = []
    for step in range(1, steps + 1):
        loss, g = A.np_fc_loss_and_grads(w, x, t)
        losses.append(loss)
        m = A._tree_map(lambda mi, gi: mi + (gi - mi) * (1 - b1), m, g)
        v = A._tree_map(lambda vi, gi: vi + (gi * gi - vi) * (1 - b2), v, g)
        a = lr * np.sqrt(1 - b2**step) / (1 - b1**step)
        w = A._tree_map(lambda wi, mi, vi, a=a: wi - a * mi / (np.sqrt(vi) + eps), w, m, v)
    return losses, w


def _fc_model(backend):
    model = A.IvyFcModel(backend=backend)
    model.v = ivy.Container(A.init_weights("fc")).map(lambda a, _: ivy.variable(to_native(backend, a)))
    return model


def _check_weights(got_flat, want_tree, *, rtol=1e-4, atol=1e-6):
    want = A.flat(want_tree)
    assert sorted(got_flat) == sorted(want)
    for kc in want:
        _close(got_flat[kc], want[kc], rtol=rtol, atol=atol)


# ================================================================================== tensorflow


def _tf(backend):
    if backend != "tensorflow":
        pytest.skip("tensorflow / Keras interop: run with --backend tensorflow")
    import keras
    import tensorflow as tf

    return tf, keras


def test_fn_interop_tf_to_native_module_is_a_keras_layer_whose_weights_are_the_ivy_variables(backend):
    tf, keras = _tf(backend)
    model = _fc_model(backend)
    layer = ivy.to_native_module(model)
    assert isinstance(layer, keras.layers.Layer) and layer.built
    assert [w.name for w in layer.trainable_weights] == [k.replace("/", "__") for k in FC_KEYS]
    assert layer.non_trainable_weights == []
    for w in layer.trainable_weights:
        kc = layer.key_chain(w)
        assert model.v[kc] is w.value  # the very tf.Variable: an update of one is an update of the other
        _close(w.numpy(), A.flat(A.init_weights("fc"))[kc], rtol=0, atol=0)
    x, _ = A.data("fc")
    _close(layer(x).numpy(), _np_fc(A.init_weights("fc"), x))
    assert ivy.tensorflow.to_native_module is not None and ivy.tensorflow.from_native_module is not None


def test_fn_interop_tf_keras_layer_trains_with_gradient_tape_and_keras_adam_like_numpy(backend):
    tf, keras = _tf(backend)
    model = _fc_model(backend)
    layer = ivy.to_native_module(model)
    x, t = A.data("fc")
    opt = keras.optimizers.Adam(learning_rate=0.01, epsilon=1e-7)
    losses = []
    for _ in range(15):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(layer(x) - t))
        grads = tape.gradient(loss, layer.trainable_variables)
        assert all(g is not None for g in grads)
        opt.apply_gradients(zip(grads, layer.trainable_variables))
        losses.append(float(loss))
    want_losses, want_w = _np_keras_adam_trajectory(A.init_weights("fc"), x, t, 15, 0.01)
    _close(losses, want_losses, rtol=1e-4)
    assert losses[-1] < losses[0]
    # the Ivy module's variables were trained too
    _check_weights(
        {k: native_to_numpy(backend, a) for k, a in model.v.to_flat_dict().items()}, want_w, rtol=1e-3, atol=1e-5
    )
    _close(native_to_numpy(backend, model(tf.constant(x))), layer(x).numpy(), rtol=1e-6)


def test_fn_interop_tf_keras_layer_trains_with_model_fit_like_numpy_sgd(backend):
    tf, keras = _tf(backend)
    model = _fc_model(backend)
    net = keras.Sequential([ivy.to_native_module(model)])
    net.compile(optimizer=keras.optimizers.SGD(learning_rate=0.5), loss="mse")
    x, t = A.data("fc")
    hist = net.fit(x, t, batch_size=len(x), epochs=8, shuffle=False, verbose=0)
    want_losses, want_w = _np_sgd_trajectory(A.init_weights("fc"), x, t, 8, 0.5)
    _close(hist.history["loss"], want_losses, rtol=1e-4)
    assert want_losses[-1] < want_losses[0]
    _check_weights(
        {k: native_to_numpy(backend, a) for k, a in model.v.to_flat_dict().items()}, want_w, rtol=1e-3, atol=1e-5
    )


def test_fn_interop_tf_keras_layer_in_a_functional_model(backend):
    tf, keras = _tf(backend)
    model = _fc_model(backend)
    inp = keras.Input((3,))
    out = ivy.to_native_module(model)(inp)  # symbolic: Keras traces the Ivy forward pass
    assert tuple(out.shape) == (None, 1)
    net = keras.Model(inp, out)
    x, _ = A.data("fc")
    _close(net(x).numpy(), _np_fc(A.init_weights("fc"), x))
    assert len(net.trainable_weights) == 4


def test_fn_interop_tf_keras_layer_updates_the_ivy_buffers_in_training_mode(backend):
    tf, keras = _tf(backend)
    rng = np.random.default_rng(3)
    w, b = rng.standard_normal((4, 3)).astype("float32"), rng.standard_normal(4).astype("float32")
    model = ivy.Sequential(ivy.Linear(3, 4), ivy.BatchNorm2D(4, momentum=0.2), backend=backend)
    model.v = ivy.Container(
        {"layers": {"0": {"w": w, "b": b}, "1": {"w": np.ones(4, "float32"), "b": np.zeros(4, "float32")}}}
    ).map(lambda a, _: ivy.variable(to_native(backend, a)))
    layer = ivy.to_native_module(model)
    assert sorted(v.name for v in layer.non_trainable_weights) == ["layers__1__running_mean", "layers__1__running_var"]
    x = rng.standard_normal((6, 3)).astype("float32")
    h = x.astype(np.float64) @ w.T + b
    out = layer(x, training=True).numpy()
    _close(out, (h - h.mean(0)) / np.sqrt(h.var(0) + 1e-5), rtol=1e-4, atol=1e-5)
    rm, rv = 0.2 * h.mean(0), 0.8 + 0.2 * h.var(0, ddof=1)
    stats = {v.name: v.numpy() for v in layer.non_trainable_weights}
    _close(stats["layers__1__running_mean"], rm, rtol=1e-5)
    _close(stats["layers__1__running_var"], rv, rtol=1e-5)
    _close(layer(x, training=False).numpy(), (h - rm) / np.sqrt(rv + 1e-5), rtol=1e-4, atol=1e-5)
    assert model.training  # the call's training= did not stick


def test_fn_interop_tf_keras_model_using_ivy_functions_trains_like_tf_functions(backend):
    """The paper's TorchFcModel (appendix A.2), as a Keras model: Keras layers, Ivy functions."""
    tf, keras = _tf(backend)

    class KerasFcModel(keras.Model):
        def __init__(self, relu, sigmoid):
            super().__init__()
            self.fc0 = keras.layers.Dense(64)
            self.fc1 = keras.layers.Dense(1)
            self.relu, self.sigmoid = relu, sigmoid

        def call(self, x):
            x = self.relu(self.fc0(x))
            return self.sigmoid(self.fc1(x))

    x, t = A.data("fc")
    w0 = A.init_weights("fc")
    kernels = [w0["linear0"]["w"].T, w0["linear0"]["b"], w0["linear1"]["w"].T, w0["linear1"]["b"]]
    runs = []
    for relu, sigmoid in ((ivy.relu, ivy.sigmoid), (tf.nn.relu, tf.sigmoid)):
        m = KerasFcModel(relu, sigmoid)
        m(x[:1])
        m.set_weights(kernels)
        opt = keras.optimizers.Adam(learning_rate=0.01)
        losses = []
        for _ in range(10):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(m(x) - t))
            opt.apply_gradients(zip(tape.gradient(loss, m.trainable_variables), m.trainable_variables))
            losses.append(float(loss))
        runs.append((losses, [v.numpy() for v in m.trainable_variables]))
    (ivy_losses, ivy_w), (tf_losses, tf_w) = runs
    _close(ivy_losses, tf_losses, rtol=1e-6)
    for a, b in zip(ivy_w, tf_w):
        _close(a, b, rtol=1e-5, atol=1e-7)
    want, _ = _np_keras_adam_trajectory(w0, x, t, 10, 0.01)
    _close(ivy_losses, want, rtol=1e-4)
    assert ivy_losses[-1] < ivy_losses[0]


def _keras_fc(keras, x):
    net = keras.Sequential(
        [
            keras.layers.Dense(64, activation="relu", name="hidden"),
            keras.layers.Dense(1, activation="sigmoid", name="out"),
        ],
        name="net",
    )
    net(x[:1])
    w = A.init_weights("fc")
    net.set_weights([w["linear0"]["w"].T, w["linear0"]["b"], w["linear1"]["w"].T, w["linear1"]["b"]])
    return net


def _as_fc_tree(flat):
    """The wrapper's ``v`` of :func:`_keras_fc` (NumPy) in the Ivy FC layout of the references."""
    return {
        "linear0": {"w": flat["hidden/kernel"].T, "b": flat["hidden/bias"]},
        "linear1": {"w": flat["out/kernel"].T, "b": flat["out/bias"]},
    }


def test_fn_interop_tf_from_native_module_wraps_a_keras_model_trainable_the_ivy_way(backend):
    tf, keras = _tf(backend)
    x, t = A.data("fc")
    net = _keras_fc(keras, x)
    wrapper = ivy.from_native_module(net)
    assert isinstance(wrapper, NativeModuleWrapper) and isinstance(wrapper, ivy.Module)
    assert wrapper.v.key_chains() == ["hidden/kernel", "hidden/bias", "out/kernel", "out/bias"]
    assert wrapper.native_name("hidden/kernel") == "hidden/kernel"
    xn, tn = tf.constant(x), tf.constant(t)
    _close(native_to_numpy(backend, wrapper(xn)), net(x).numpy(), rtol=1e-6)
    # gradients: the same as tf.GradientTape on the Keras model, and as the NumPy reference
    loss, grads = ivy.execute_with_gradients(lambda v: ivy.mean((wrapper(xn, v=v) - tn) ** 2), wrapper.v)
    with tf.GradientTape() as tape:
        ref_loss = tf.reduce_mean(tf.square(net(x) - t))
    ref_grads = tape.gradient(ref_loss, net.trainable_variables)
    _close(native_to_numpy(backend, loss), float(ref_loss), rtol=1e-6)
    for kc, g in zip(wrapper.v.key_chains(), ref_grads):
        _close(native_to_numpy(backend, grads[kc]), g.numpy(), rtol=1e-5, atol=1e-8)
    # trained with ivy.SGD: the NumPy SGD trajectory; the Keras model is untouched until to_native
    opt = ivy.SGD(0.5)
    losses = []
    for _ in range(8):
        loss, grads = ivy.execute_with_gradients(lambda v: ivy.mean((wrapper(xn, v=v) - tn) ** 2), wrapper.v)
        wrapper.v = opt.step(wrapper.v, grads)
        losses.append(float(native_to_numpy(backend, loss)))
    want_losses, want_w = _np_sgd_trajectory(A.init_weights("fc"), x, t, 8, 0.5)
    _close(losses, want_losses, rtol=1e-4)
    got = _as_fc_tree({k: native_to_numpy(backend, a) for k, a in wrapper.v.to_flat_dict().items()})
    _check_weights(A.flat(got), want_w, rtol=1e-3, atol=1e-5)
    _close(net.get_weights()[0], A.init_weights("fc")["linear0"]["w"].T, rtol=0, atol=0)
    assert wrapper.to_native() is net
    _close(net(x).numpy(), native_to_numpy(backend, wrapper(xn)), rtol=1e-6)
    _close(net.get_weights()[0], got["linear0"]["w"].T, rtol=0, atol=0)


def test_fn_interop_tf_from_native_module_keeps_batch_norm_statistics_as_state(backend):
    tf, keras = _tf(backend)
    rng = np.random.default_rng(4)
    x = rng.standard_normal((8, 3)).astype("float32")

    def make():
        net = keras.Sequential(
            [keras.layers.Dense(4, name="d"), keras.layers.BatchNormalization(momentum=0.9, name="bn")]
        )
        net(x[:1])
        return net

    net, ref = make(), make()
    ref.set_weights(net.get_weights())
    wrapper = ivy.from_native_module(net)
    assert wrapper.state.key_chains() == ["bn/moving_mean", "bn/moving_variance"]
    assert wrapper.v.key_chains() == ["d/kernel", "d/bias", "bn/gamma", "bn/beta"]
    xn = tf.constant(x)
    _close(native_to_numpy(backend, wrapper(xn)), ref(x, training=True).numpy(), rtol=1e-5, atol=1e-6)
    _close(
        native_to_numpy(backend, wrapper.state.bn.moving_mean), ref.layers[1].moving_mean.numpy(), rtol=1e-6, atol=1e-7
    )
    _close(native_to_numpy(backend, wrapper.state.bn.moving_variance), ref.layers[1].moving_variance.numpy(), rtol=1e-6)
    _close(net.layers[1].moving_mean.numpy(), np.zeros(4), rtol=0, atol=0)  # a pure (stateless) call
    wrapper.eval()
    _close(native_to_numpy(backend, wrapper(xn)), ref(x, training=False).numpy(), rtol=1e-5, atol=1e-6)
    wrapper.to_native()
    _close(net.layers[1].moving_mean.numpy(), ref.layers[1].moving_mean.numpy(), rtol=1e-6, atol=1e-7)


def test_fn_interop_tf_from_native_module_needs_a_built_layer(backend):
    tf, keras = _tf(backend)
    with pytest.raises(ValueError, match="not built"):
        ivy.from_native_module(keras.layers.Dense(3))


def test_fn_interop_tf_round_trip(backend):
    tf, keras = _tf(backend)
    model = _fc_model(backend)
    wrapper = ivy.from_native_module(ivy.to_native_module(model))
    assert wrapper.v.key_chains() == [k.replace("/", "__") for k in FC_KEYS]
    x, _ = A.data("fc")
    _close(native_to_numpy(backend, wrapper(tf.constant(x))), _np_fc(A.init_weights("fc"), x))


# ========================================================================================= jax


def _jax(backend):
    if backend != "jax":
        pytest.skip("jax interop: run with --backend jax")
    import jax
    import jax.numpy as jnp

    return jax, jnp


def test_fn_interop_jax_to_native_module_gives_params_and_a_pure_apply(backend):
    jax, jnp = _jax(backend)
    model = _fc_model(backend)
    params, apply = ivy.to_native_module(model)
    assert isinstance(params, ivy.Container) and params.key_chains() == FC_KEYS
    for kc in FC_KEYS:
        assert params[kc] is model.v[kc]
    x, _ = A.data("fc")
    want = _np_fc(A.init_weights("fc"), x)
    _close(np.asarray(apply(params, jnp.asarray(x))), want)
    _close(np.asarray(jax.jit(apply)(params, jnp.asarray(x))), want)
    # NumPy inputs, as any JAX function takes them
    assert isinstance(apply(params, x), jax.Array)
    _close(np.asarray(apply(params, x)), want)
    assert jax.tree_util.tree_structure(params) == jax.tree_util.tree_structure(model.v)
    assert ivy.jax.to_native_module is not None and ivy.jax.from_native_module is not None


def test_fn_interop_jax_apply_trains_with_jax_grad_and_hand_written_sgd_like_numpy(backend):
    jax, jnp = _jax(backend)
    model = _fc_model(backend)
    params, apply = ivy.to_native_module(model)
    x, t = A.data("fc")
    xj, tj = jnp.asarray(x), jnp.asarray(t)
    step = jax.jit(jax.value_and_grad(lambda p: jnp.mean((apply(p, xj) - tj) ** 2)))
    _, g0 = step(params)
    _, ref_g0 = A.np_fc_loss_and_grads(_f64(A.init_weights("fc")), x.astype(np.float64), t)
    assert isinstance(g0, ivy.Container)
    _check_weights({k: np.asarray(a) for k, a in g0.to_flat_dict().items()}, ref_g0, rtol=1e-4, atol=1e-7)
    losses = []
    for _ in range(12):
        loss, g = step(params)
        params = jax.tree_util.tree_map(lambda p, gi: p - 0.5 * gi, params, g)
        losses.append(float(loss))
    want_losses, want_w = _np_sgd_trajectory(A.init_weights("fc"), x, t, 12, 0.5)
    _close(losses, want_losses, rtol=1e-4)
    assert losses[-1] < losses[0]
    _check_weights({k: np.asarray(a) for k, a in params.to_flat_dict().items()}, want_w, rtol=1e-3, atol=1e-5)
    model.v = params  # hand the trained parameters back to the Ivy module
    _close(np.asarray(model(xj)), _np_fc(want_w, x), rtol=1e-4, atol=1e-6)


def test_fn_interop_jax_apply_trains_with_optax(backend):
    jax, jnp = _jax(backend)
    optax = pytest.importorskip("optax", reason="optax is not installed")
    model = _fc_model(backend)
    params, apply = ivy.to_native_module(model)
    x, t = A.data("fc")
    xj, tj = jnp.asarray(x), jnp.asarray(t)
    opt = optax.adam(0.01, eps=1e-7)
    state = opt.init(params)
    vg = jax.jit(jax.value_and_grad(lambda p: jnp.mean((apply(p, xj) - tj) ** 2)))
    losses = []
    for _ in range(10):
        loss, g = vg(params)
        updates, state = opt.update(g, state, params)
        params = optax.apply_updates(params, updates)
        losses.append(float(loss))
    want, _ = A.np_adam_trajectory(A.init_weights("fc"), x, t, 10, lr=0.01)
    _close(losses, want, rtol=1e-4)


def test_fn_interop_jax_apply_with_state_returns_the_new_buffers(backend):
    jax, jnp = _jax(backend)
    rng = np.random.default_rng(3)
    w, b = rng.standard_normal((4, 3)).astype("float32"), rng.standard_normal(4).astype("float32")
    model = ivy.Sequential(ivy.Linear(3, 4), ivy.BatchNorm2D(4, momentum=0.2), backend=backend)
    model.v = ivy.Container(
        {"layers": {"0": {"w": w, "b": b}, "1": {"w": np.ones(4, "float32"), "b": np.zeros(4, "float32")}}}
    ).map(lambda a, _: to_native(backend, a))
    x = rng.standard_normal((6, 3)).astype("float32")
    h = x.astype(np.float64) @ w.T + b
    params, state, apply = ivy.to_native_module(model, with_state=True)
    assert state.key_chains() == ["layers/1/running_mean", "layers/1/running_var"]
    out, new_state = jax.jit(apply)(params, state, jnp.asarray(x))
    _close(np.asarray(out), (h - h.mean(0)) / np.sqrt(h.var(0) + 1e-5), rtol=1e-4, atol=1e-5)
    _close(np.asarray(apply(params, state, x)[0]), np.asarray(out), rtol=1e-5, atol=1e-6)  # NumPy input
    _close(np.asarray(new_state["layers/1/running_mean"]), 0.2 * h.mean(0), rtol=1e-5)
    _close(np.asarray(new_state["layers/1/running_var"]), 0.8 + 0.2 * h.var(0, ddof=1), rtol=1e-5)
    _close(np.asarray(model.state["layers/1/running_mean"]), np.zeros(4), rtol=0, atol=0)  # pure
    # without with_state: the module's buffers are read, their updates dropped (apply stays pure)
    params, apply = ivy.to_native_module(model)
    a1 = np.asarray(jax.jit(apply)(params, jnp.asarray(x)))
    a2 = np.asarray(apply(params, jnp.asarray(x)))
    _close(a1, a2, rtol=1e-6)
    _close(np.asarray(model.state["layers/1/running_var"]), np.ones(4), rtol=0, atol=0)


def _jax_mlp(jnp):
    def mlp(p, x):
        h = jnp.maximum(x @ p["hidden"]["kernel"] + p["hidden"]["bias"], 0.0)
        return 1.0 / (1.0 + jnp.exp(-(h @ p["out"]["kernel"] + p["out"]["bias"])))

    w = A.init_weights("fc")
    params = {
        "hidden": {"kernel": jnp.asarray(w["linear0"]["w"].T), "bias": jnp.asarray(w["linear0"]["b"])},
        "out": {"kernel": jnp.asarray(w["linear1"]["w"].T), "bias": jnp.asarray(w["linear1"]["b"])},
    }
    return mlp, params


def test_fn_interop_jax_from_native_module_wraps_an_apply_fn_and_params(backend):
    jax, jnp = _jax(backend)
    mlp, params = _jax_mlp(jnp)
    wrapper = ivy.from_native_module((mlp, params))
    assert isinstance(wrapper, NativeModuleWrapper)
    assert wrapper.v.key_chains() == ["hidden/kernel", "hidden/bias", "out/kernel", "out/bias"]
    x, t = A.data("fc")
    xj, tj = jnp.asarray(x), jnp.asarray(t)
    _close(np.asarray(wrapper(xj)), np.asarray(mlp(params, xj)), rtol=1e-6)
    loss, grads = ivy.execute_with_gradients(lambda v: ivy.mean((wrapper(xj, v=v) - tj) ** 2), wrapper.v)
    ref = jax.grad(lambda p: jnp.mean((mlp(p, xj) - tj) ** 2))(params)
    for kc in wrapper.v.key_chains():
        a, b = kc.split("/")
        _close(np.asarray(grads[kc]), np.asarray(ref[a][b]), rtol=1e-5, atol=1e-8)
    # trained with ivy.Adam: the NumPy Adam trajectory
    opt = ivy.Adam(0.01)
    losses = []
    for _ in range(12):
        loss, grads = ivy.execute_with_gradients(lambda v: ivy.mean((wrapper(xj, v=v) - tj) ** 2), wrapper.v)
        wrapper.v = opt.step(wrapper.v, grads)
        losses.append(float(loss))
    want_losses, want_w = A.np_adam_trajectory(A.init_weights("fc"), x, t, 12, lr=0.01)
    _close(losses, want_losses, rtol=1e-4)
    fn, new_params = wrapper.to_native()
    assert fn is mlp and jax.tree_util.tree_structure(new_params) == jax.tree_util.tree_structure(params)
    _close(np.asarray(new_params["hidden"]["kernel"]), want_w["linear0"]["w"].T, rtol=1e-3, atol=1e-5)
    _close(np.asarray(mlp(new_params, xj)), np.asarray(wrapper(xj)), rtol=1e-6)
    # (params, apply_fn) order, and pytrees with sequences
    w2 = ivy.from_native_module(
        (
            {"layers": [params["hidden"], params["out"]]},
            lambda p, x: mlp({"hidden": p["layers"][0], "out": p["layers"][1]}, x),
        )
    )
    assert w2.v.key_chains() == ["layers/0/bias", "layers/0/kernel", "layers/1/bias", "layers/1/kernel"]
    _close(np.asarray(w2(xj)), np.asarray(mlp(params, xj)), rtol=1e-6)


def test_fn_interop_jax_round_trip_and_errors(backend):
    jax, jnp = _jax(backend)
    model = _fc_model(backend)
    wrapper = ivy.from_native_module(ivy.to_native_module(model))
    assert wrapper.v.key_chains() == FC_KEYS
    x, _ = A.data("fc")
    _close(np.asarray(wrapper(jnp.asarray(x))), _np_fc(A.init_weights("fc"), x))
    with pytest.raises(TypeError, match="apply_fn"):
        ivy.from_native_module((jnp.ones(2), jnp.ones(2)))


def test_fn_interop_jax_flax_module(backend):
    jax, jnp = _jax(backend)
    nn = pytest.importorskip("flax.linen", reason="flax is not installed")
    dense = nn.Dense(2)
    variables = dense.init(jax.random.PRNGKey(0), jnp.ones((1, 3)))
    wrapper = ivy.from_native_module((dense, variables))
    x = jnp.asarray(np.random.default_rng(0).standard_normal((4, 3)).astype("float32"))
    _close(
        np.asarray(wrapper(x)), np.asarray(x @ variables["params"]["kernel"] + variables["params"]["bias"]), rtol=1e-6
    )


def _flax_train(wrapper: Any, xj: Any, tj: Any, steps: int = 15) -> list[float]:
    opt = ivy.Adam(0.05)
    losses = []
    for _ in range(steps):
        loss, grads = ivy.execute_with_gradients(lambda v: ivy.mean((wrapper(xj, v=v) - tj) ** 2), wrapper.v)
        wrapper.v = opt.step(wrapper.v, grads)
        losses.append(float(loss))
    return losses


def test_fn_interop_jax_flax_linen_module_trains_as_an_ivy_module(backend):
    jax, jnp = _jax(backend)
    nn = pytest.importorskip("flax.linen", reason="flax is not installed")
    dense = nn.Dense(2)
    variables = dense.init(jax.random.PRNGKey(1), jnp.ones((1, 3)))
    wrapper = ivy.from_native_module((dense, variables))
    rng = np.random.default_rng(1)
    xj = jnp.asarray(rng.standard_normal((8, 3)).astype("float32"))
    tj = jnp.asarray(rng.standard_normal((8, 2)).astype("float32"))
    _, grads = ivy.execute_with_gradients(lambda v: ivy.mean((wrapper(xj, v=v) - tj) ** 2), wrapper.v)
    ref = jax.grad(lambda p: jnp.mean((dense.apply({"params": p}, xj) - tj) ** 2))(variables["params"])
    for kc in wrapper.v.key_chains():
        _close(np.asarray(grads[kc]), np.asarray(ref[kc.split("/")[-1]]), rtol=1e-5, atol=1e-7)
    losses = _flax_train(wrapper, xj, tj)
    assert losses[-1] < 0.7 * losses[0]


def test_fn_interop_jax_flax_nnx_module_is_used_and_trained(backend):
    jax, jnp = _jax(backend)
    nnx = pytest.importorskip("flax.nnx", reason="flax is not installed")
    lin = nnx.Linear(3, 2, rngs=nnx.Rngs(0))
    kernel, bias = np.asarray(lin.kernel[...]), np.asarray(lin.bias[...])
    wrapper = ivy.from_native_module(lin)
    rng = np.random.default_rng(2)
    x = rng.standard_normal((8, 3)).astype("float32")
    t = rng.standard_normal((8, 2)).astype("float32")
    xj, tj = jnp.asarray(x), jnp.asarray(t)
    _close(np.asarray(wrapper(xj)), x @ kernel + bias, rtol=1e-5, atol=1e-6)
    _, grads = ivy.execute_with_gradients(lambda v: ivy.mean((wrapper(xj, v=v) - tj) ** 2), wrapper.v)
    err = x @ kernel + bias - t  # d/dW mean((xW + b - t)^2) = 2 x^T err / n, by hand
    n = err.size
    assert sorted(kc.split("/")[0] for kc in wrapper.v.key_chains()) == ["bias", "kernel"]  # nnx.Param states
    want = {"kernel": 2 * x.T @ err / n, "bias": 2 * err.sum(0) / n}
    for kc in wrapper.v.key_chains():
        _close(np.asarray(grads[kc]), want[kc.split("/")[0]], rtol=1e-4, atol=1e-6)
    losses = _flax_train(wrapper, xj, tj)
    assert losses[-1] < 0.7 * losses[0]


def test_fn_interop_jax_container_is_a_registered_pytree(backend):
    jax, jnp = _jax(backend)
    from ivy_jax.interop import register_container_pytree

    register_container_pytree()
    register_container_pytree()  # idempotent
    c = ivy.Container(a=jnp.ones(2), b={"c": jnp.zeros(3)})
    assert len(jax.tree_util.tree_leaves(c)) == 2
    doubled = jax.tree_util.tree_map(lambda a: a * 2 + 1, c)
    assert isinstance(doubled, ivy.Container) and doubled.key_chains() == ["a", "b/c"]
    _close(np.asarray(doubled.b.c), np.ones(3))
