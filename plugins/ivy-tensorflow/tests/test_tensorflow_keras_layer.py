"""The Keras layer of ``ivy.to_native_module`` in the usual Keras APIs: ``keras.Sequential`` with
an ``Input``, the Functional API (symbolic inputs of unknown batch size), ``model.fit`` and
``save_weights`` / ``load_weights``, against the Ivy module it runs."""

from __future__ import annotations

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")
keras = pytest.importorskip("keras")

import ivy

RNG = np.random.default_rng(5)
X = RNG.standard_normal((10, 6, 6, 1)).astype(np.float32)
T = RNG.standard_normal((10, 3)).astype(np.float32)


def _net(seed: int) -> ivy.Module:
    """A small conv net that flattens (its output shape follows the input's batch size)."""
    m = ivy.Sequential(
        ivy.Conv2D(1, 2, [3, 3], padding="SAME", data_format="NHWC"),
        ivy.ReLU(),
        ivy.Flatten(),
        ivy.Linear(2 * 6 * 6, 3),
        backend="tensorflow",
    )
    m.build(tf.constant(X[:1]))
    rng = np.random.default_rng(seed)
    m.v = ivy.Container.from_flat_dict(
        {
            k: tf.constant(rng.standard_normal(tuple(a.shape)).astype(np.float32) * 0.3)
            for k, a in m.v.to_flat_dict().items()
        }
    )
    return m


def _copy(src: ivy.Module, seed: int) -> ivy.Module:
    m = _net(seed)
    m.v = ivy.Container.from_flat_dict({k: tf.constant(a.numpy()) for k, a in src.v.to_flat_dict().items()})
    return m


def test_tensorflow_keras_layer_in_sequential_and_functional_models():
    model = _net(0)
    want = model(tf.constant(X)).numpy()
    seq = keras.Sequential([keras.Input((6, 6, 1)), ivy.to_native_module(model)])
    assert seq.output_shape == (None, 3)
    np.testing.assert_allclose(seq(X).numpy(), want, rtol=1e-6)
    inp = keras.Input((6, 6, 1))
    out = ivy.to_native_module(model)(inp)
    assert tuple(out.shape) == (None, 3) and out.dtype == "float32"
    np.testing.assert_allclose(keras.Model(inp, out).predict(X, verbose=0), want, rtol=1e-6)


def test_tensorflow_keras_layer_model_fit_trains_as_ivy_fit_and_its_weights_save_and_load(tmp_path):
    model = _net(1)
    twin = _copy(model, 2)
    net = keras.Sequential([keras.Input((6, 6, 1)), ivy.to_native_module(model)])
    net.compile(optimizer=keras.optimizers.SGD(learning_rate=0.1), loss="mse")
    # batches of 4, 4, 2: Keras traces its step for a batch of unknown size
    hist = net.fit(X, T, batch_size=4, epochs=2, shuffle=False, verbose=0)
    ref = ivy.fit(twin, X, T, loss="mse", optimizer=ivy.SGD(0.1), batch_size=4, epochs=2, shuffle=False, verbose=0)
    assert hist.history["loss"][-1] < hist.history["loss"][0]
    for k, a in twin.v.to_flat_dict().items():  # the Keras weights are the Ivy module's variables
        np.testing.assert_allclose(model.v[k].numpy(), a.numpy(), rtol=1e-4, atol=1e-6, err_msg=k)
    np.testing.assert_allclose(hist.history["loss"], ref.history["loss"], rtol=1e-4)

    path = str(tmp_path / "net.weights.h5")
    net.save_weights(path)
    want = net(X).numpy()
    fresh = _net(3)  # other weights, loaded over
    net2 = keras.Sequential([keras.Input((6, 6, 1)), ivy.to_native_module(fresh)])
    assert np.abs(net2(X).numpy() - want).max() > 1e-3
    net2.load_weights(path)
    np.testing.assert_allclose(net2(X).numpy(), want, rtol=1e-6)
    np.testing.assert_allclose(fresh(tf.constant(X)).numpy(), want, rtol=1e-6)  # the Ivy module's too
