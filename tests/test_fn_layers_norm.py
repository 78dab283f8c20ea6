"""Normalisation layers (BatchNorm1D/2D/3D with running statistics, GroupNorm, RMSNorm,
LayerNorm over chosen axes) against each backend's own framework layers; the dropout family
(structure and statistics); and the reshaping layers."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from test_fn_layers_harness import Ref, check_layer

import ivy
from ivy.testing.convert import native_to_numpy, to_native

RNG = np.random.default_rng(2)
FIRST = {1: "NCW", 2: "NCHW", 3: "NCDHW"}


def _f32(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def _channel_first(backend: str) -> bool:
    return backend in ("numpy", "torch", "paddle")


def _bn_refs(nd: int, training: bool) -> dict[str, Ref]:
    def torch_bn() -> Any:
        import torch

        m = getattr(torch.nn, f"BatchNorm{nd}d")(4, momentum=0.2)
        return m.train(training)

    def paddle_bn() -> Any:
        import paddle

        m = getattr(paddle.nn, f"BatchNorm{nd}D")(4, momentum=0.8)  # paddle's momentum keeps the old value
        return m.train() if training else m.eval()

    def keras_bn() -> Any:
        import keras

        return keras.layers.BatchNormalization(momentum=0.8, epsilon=1e-5)

    def flax_bn() -> Any:
        import flax.linen as nn

        return nn.BatchNorm(use_running_average=not training, momentum=0.8, epsilon=1e-5)

    return {
        "torch": Ref(
            torch_bn,
            {
                "w": ("weight", None),
                "b": ("bias", None),
                "running_mean": ("running_mean", None),
                "running_var": ("running_var", None),
            },
            buffers=("running_mean", "running_var"),
        ),
        "paddle": Ref(
            paddle_bn,
            {
                "w": ("weight", None),
                "b": ("bias", None),
                "running_mean": ("_mean", None),
                "running_var": ("_variance", None),
            },
            buffers=("_mean", "_variance"),
        ),
        "keras": Ref(
            keras_bn,
            {
                "w": ("gamma", None),
                "b": ("beta", None),
                "running_mean": ("moving_mean", None),
                "running_var": ("moving_variance", None),
            },
            kwargs={"training": training},
            buffers=("moving_mean", "moving_variance"),
        ),
        "flax": Ref(
            flax_bn,
            {
                "w": ("params/scale", None),
                "b": ("params/bias", None),
                "running_mean": ("batch_stats/mean", None),
                "running_var": ("batch_stats/var", None),
            },
            buffers=("batch_stats/mean", "batch_stats/var"),
            mutable=("batch_stats",) if training else (),
        ),
    }


def _bn_layer_and_input(backend: str, nd: int) -> tuple[Any, np.ndarray]:
    spatial = (5, 4, 3)[:nd]
    cls = getattr(ivy, f"BatchNorm{nd}D")
    if _channel_first(backend):
        return cls(4, momentum=0.2, data_format=FIRST[nd]), (_f32(6, 4, *spatial) * 2 + 1)
    return cls(4, momentum=0.2), (_f32(6, *spatial, 4) * 2 + 1)


@pytest.mark.parametrize("nd", [1, 2, 3])
@pytest.mark.parametrize("training", [True, False])
def test_fn_layers_batch_norm_matches_the_framework_layer(backend, nd, training):
    layer, x = _bn_layer_and_input(backend, nd)
    if not training:
        layer.eval()
    w = {"w": _f32(4), "b": _f32(4)}
    state = {"running_mean": _f32(4), "running_var": np.abs(_f32(4)) + 0.5}
    check_layer(backend, layer, w, x, _bn_refs(nd, training), state=state)


def _framework_bn(backend: str, nd: int) -> tuple[Any, Any] | None:
    """torch's or paddle's own layer in training mode: a step on an array, and its statistics."""
    if backend == "torch":
        import torch

        m = getattr(torch.nn, f"BatchNorm{nd}d")(4, momentum=0.2).train()
        return (lambda a: m(torch.from_numpy(a))), lambda: {
            "running_mean": m.running_mean.numpy(),
            "running_var": m.running_var.numpy(),
        }
    if backend == "paddle":
        import paddle

        p = getattr(paddle.nn, f"BatchNorm{nd}D")(4, momentum=0.8)
        p.train()
        # paddle's running variance takes the biased batch variance; its mean follows the same rule
        return (lambda a: p(paddle.to_tensor(a))), lambda: {"running_mean": p._mean.numpy()}
    return None


@pytest.mark.parametrize("nd", [1, 2])
def test_fn_layers_batch_norm_running_statistics(backend, nd):
    # torch's rule (and Ivy's): running = (1 - m) running + m batch, the variance unbiased
    layer, x = _bn_layer_and_input(backend, nd)
    ch = 1 if _channel_first(backend) else -1
    axes = tuple(a for a in range(x.ndim) if a != ch % x.ndim)
    mean, var = np.zeros(4), np.ones(4)
    fw = _framework_bn(backend, nd)
    for step in range(3):
        xs = x * (step + 1)
        layer(to_native(backend, xs))
        n = xs.size // 4
        mean = 0.8 * mean + 0.2 * xs.mean(axis=axes)
        var = 0.8 * var + 0.2 * xs.var(axis=axes) * n / (n - 1)
        if fw is not None:
            fw[0](xs)
    np.testing.assert_allclose(native_to_numpy(backend, layer.state.running_mean), mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(native_to_numpy(backend, layer.state.running_var), var, rtol=1e-5, atol=1e-6)
    if fw is not None:  # the framework's own layer, fed the same batches
        for k, got in fw[1]().items():
            np.testing.assert_allclose(native_to_numpy(backend, layer.state[k]), got, rtol=1e-5, atol=1e-6)
    frozen = layer.eval().state
    layer(to_native(backend, x))
    for k in ("running_mean", "running_var"):  # evaluation mode leaves them
        np.testing.assert_array_equal(native_to_numpy(backend, layer.state[k]), native_to_numpy(backend, frozen[k]))


def test_fn_layers_batch_norm_takes_dense_batches(backend):
    layer = ivy.BatchNorm1D(3)
    x = _f32(8, 3) * 3 + 2
    y = native_to_numpy(backend, layer(to_native(backend, x)))
    want = (x - x.mean(0)) / np.sqrt(x.var(0) + 1e-5)
    np.testing.assert_allclose(y, want, rtol=1e-4, atol=1e-5)
    assert y.shape == (8, 3)


def test_fn_layers_group_norm_matches_the_framework_layer(backend):
    w = {"w": _f32(4), "b": _f32(4)}
    refs = {
        "torch": Ref(lambda: __import__("torch").nn.GroupNorm(2, 4), {"w": ("weight", None), "b": ("bias", None)}),
        "paddle": Ref(lambda: __import__("paddle").nn.GroupNorm(2, 4), {"w": ("weight", None), "b": ("bias", None)}),
        "keras": Ref(
            lambda: __import__("keras").layers.GroupNormalization(2, epsilon=1e-5),
            {"w": ("gamma", None), "b": ("beta", None)},
        ),
        "flax": Ref(
            lambda: __import__("flax.linen", fromlist=["linen"]).GroupNorm(num_groups=2, epsilon=1e-5),
            {"w": ("params/scale", None), "b": ("params/bias", None)},
        ),
    }
    if _channel_first(backend):
        check_layer(backend, ivy.GroupNorm(2, 4, data_format="channels_first"), w, _f32(3, 4, 5, 2), refs)
    else:
        check_layer(backend, ivy.GroupNorm(2, 4), w, _f32(3, 5, 2, 4), refs)


def test_fn_layers_rms_norm_matches_the_framework_layer(backend):
    w = {"w": _f32(8)}
    refs = {
        "torch": Ref(lambda: __import__("torch").nn.RMSNorm(8, eps=1e-6), {"w": ("weight", None)}),
        "keras": Ref(lambda: __import__("keras").layers.RMSNormalization(epsilon=1e-6), {"w": ("scale", None)}),
        "flax": Ref(
            lambda: __import__("flax.linen", fromlist=["linen"]).RMSNorm(epsilon=1e-6), {"w": ("params/scale", None)}
        ),
    }  # paddle.nn has no RMSNorm layer: torch's is the reference there
    check_layer(backend, ivy.RMSNorm(8), w, _f32(2, 3, 8), refs)


def _moved_layer_norm(shape: tuple[int, ...]) -> Any:
    """torch's LayerNorm over axis 1 (the axis moved last and back)."""
    import torch

    class Moved(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.ln = torch.nn.LayerNorm(shape)

        def forward(self, x: Any) -> Any:
            return self.ln(x.movedim(1, -1)).movedim(-1, 1)

    return Moved()


def test_fn_layers_layer_norm_over_chosen_axes_matches_the_framework_layer(backend):
    w = {"w": _f32(4), "b": _f32(4)}
    refs = {
        "torch": Ref(lambda: _moved_layer_norm((4,)), {"w": ("ln.weight", None), "b": ("ln.bias", None)}),
        "keras": Ref(
            lambda: __import__("keras").layers.LayerNormalization(axis=1, epsilon=1e-5),
            {"w": ("gamma", None), "b": ("beta", None)},
        ),
        "flax": Ref(
            lambda: __import__("flax.linen", fromlist=["linen"]).LayerNorm(
                epsilon=1e-5, reduction_axes=1, feature_axes=1
            ),
            {"w": ("params/scale", None), "b": ("params/bias", None)},
        ),
    }
    check_layer(backend, ivy.LayerNorm(axis=1), w, _f32(3, 4, 5, 2), refs)


def test_fn_layers_layer_norm_over_trailing_axes_matches_the_framework_layer(backend):
    w = {"w": _f32(5, 2), "b": _f32(5, 2)}
    flat = (lambda a: a.reshape(-1), lambda g: g.reshape(5, 2))  # paddle keeps the weights flat
    refs = {
        "torch": Ref(lambda: __import__("torch").nn.LayerNorm((5, 2)), {"w": ("weight", None), "b": ("bias", None)}),
        "paddle": Ref(lambda: __import__("paddle").nn.LayerNorm((5, 2)), {"w": ("weight", flat), "b": ("bias", flat)}),
        "keras": Ref(
            lambda: __import__("keras").layers.LayerNormalization(axis=(2, 3), epsilon=1e-5),
            {"w": ("gamma", None), "b": ("beta", None)},
        ),
        "flax": Ref(
            lambda: __import__("flax.linen", fromlist=["linen"]).LayerNorm(
                epsilon=1e-5, reduction_axes=(2, 3), feature_axes=(2, 3)
            ),
            {"w": ("params/scale", None), "b": ("params/bias", None)},
        ),
    }
    check_layer(backend, ivy.LayerNorm((5, 2)), w, _f32(3, 4, 5, 2), refs)


def test_fn_layers_layer_norm_takes_its_shape_from_the_input(backend):
    layer = ivy.LayerNorm(axis=(1, 2))
    y = layer(to_native(backend, _f32(2, 3, 4, 5)))
    assert tuple(layer.v.w.shape) == (3, 4) and tuple(y.shape) == (2, 3, 4, 5)
    with pytest.raises(ValueError, match=r"normalises axes \(1, 2\) of size \(3, 4\)"):
        layer(to_native(backend, _f32(2, 4, 4, 5)))


# ------------------------------------------------------------------ dropout family


def test_fn_layers_channel_dropout_drops_whole_channels(backend):
    ivy.seed(0)
    x = np.abs(_f32(8, 6, 5, 5)) + 0.5  # no zeros of its own
    layer = ivy.Dropout2D(0.5, data_format="NCHW")
    y = native_to_numpy(backend, layer(to_native(backend, x)))
    dropped = (y == 0).all(axis=(2, 3))
    kept = (y != 0).all(axis=(2, 3))
    assert np.all(dropped | kept), "a channel is either dropped or kept whole"
    assert 0 < dropped.sum() < dropped.size
    np.testing.assert_allclose(y[kept], (x / 0.5)[kept], rtol=1e-6)
    y1 = native_to_numpy(backend, ivy.Dropout1D(0.5)(to_native(backend, x[:, 0])))  # [batch, w, channels]
    assert np.all((y1 == 0).all(axis=1) | (y1 != 0).all(axis=1))
    layer.eval()
    np.testing.assert_array_equal(native_to_numpy(backend, layer(to_native(backend, x))), x)


def test_fn_layers_alpha_dropout_keeps_mean_and_variance(backend):
    ivy.seed(1)
    p = 0.2
    x = RNG.standard_normal((200, 100)).astype(np.float32)
    layer = ivy.AlphaDropout(p)
    y = native_to_numpy(backend, layer(to_native(backend, x)))
    alpha = -1.7580993408473766
    a = ((1 - p) * (1 + p * alpha**2)) ** -0.5
    b = -a * alpha * p
    kept = np.isclose(y, a * x + b, atol=1e-5)
    dropped = np.isclose(y, a * alpha + b, atol=1e-5)
    assert np.all(kept | dropped)
    assert abs(dropped.mean() - p) < 0.02
    assert abs(y.mean()) < 0.05 and abs(y.var() - 1.0) < 0.05
    layer.eval()
    np.testing.assert_array_equal(native_to_numpy(backend, layer(to_native(backend, x))), x)


def test_fn_layers_gaussian_noise_and_dropout_statistics(backend):
    ivy.seed(2)
    x = np.full((300, 100), 2.0, np.float32)
    noisy = native_to_numpy(backend, ivy.GaussianNoise(0.5)(to_native(backend, x)))
    assert abs((noisy - x).std() - 0.5) < 0.02 and abs((noisy - x).mean()) < 0.02
    gd = native_to_numpy(backend, ivy.GaussianDropout(0.2)(to_native(backend, x)))
    assert abs((gd / x).std() - np.sqrt(0.2 / 0.8)) < 0.02 and abs((gd / x).mean() - 1.0) < 0.02
    for layer in (ivy.GaussianNoise(0.5), ivy.GaussianDropout(0.2), ivy.Dropout(0.3)):
        np.testing.assert_array_equal(native_to_numpy(backend, layer.eval()(to_native(backend, x))), x)
    with pytest.raises(ValueError, match=r"in \[0, 1\)"):
        ivy.Dropout2D(1.0)


# ------------------------------------------------------------------ reshaping


def test_fn_layers_flatten_reshape_identity_lambda(backend):
    x = _f32(2, 3, 4, 5)
    xn = to_native(backend, x)
    np.testing.assert_array_equal(native_to_numpy(backend, ivy.Flatten()(xn)), x.reshape(2, -1))
    np.testing.assert_array_equal(native_to_numpy(backend, ivy.Flatten(2)(xn)), x.reshape(2, 3, 20))
    np.testing.assert_array_equal(native_to_numpy(backend, ivy.Reshape((4, -1))(xn)), x.reshape(2, 4, 15))
    np.testing.assert_array_equal(native_to_numpy(backend, ivy.Identity()(xn, "ignored")), x)
    np.testing.assert_array_equal(native_to_numpy(backend, ivy.Lambda(lambda t: t * 2)(xn)), x * 2)
    with pytest.raises(ValueError, match=r"cannot take the shape \(7, -1\)"):
        ivy.Reshape((7, -1))(xn)
    seq = ivy.Sequential(ivy.Flatten(), ivy.Linear(None, 3))
    assert tuple(seq(xn).shape) == (2, 3)
