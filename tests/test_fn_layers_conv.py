"""Convolution layers against each backend's own framework layers (torch.nn, Keras, Flax,
paddle.nn; see test_fn_layers_harness): outputs and gradients for the same weights; and the errors
a wrong channel layout gets. Pooling and resampling: test_fn_layers_pooling."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from test_fn_layers_harness import Ref, check_layer

import ivy
from ivy.testing.convert import to_native

RNG = np.random.default_rng(1)
FIRST = {1: "NCW", 2: "NCHW", 3: "NCDHW"}


def torch_mod(name: str, *args: Any, **kwargs: Any) -> Any:
    return lambda: getattr(__import__("torch").nn, name)(*args, **kwargs)


def paddle_mod(name: str, *args: Any, **kwargs: Any) -> Any:
    return lambda: getattr(__import__("paddle").nn, name)(*args, **kwargs)


def keras_mod(name: str, *args: Any, **kwargs: Any) -> Any:
    return lambda: getattr(__import__("keras").layers, name)(*args, **kwargs)


def flax_mod(name: str, *args: Any, **kwargs: Any) -> Any:
    return lambda: getattr(__import__("flax.linen", fromlist=["linen"]), name)(*args, **kwargs)


def _f32(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def _own_is_channel_first(backend: str) -> bool:
    return backend in ("numpy", "torch", "paddle")


# ------------------------------------------------------------------ convolutions


@pytest.mark.parametrize("nd", [1, 2, 3])
def test_fn_layers_conv_matches_the_framework_layer(backend, nd):
    k_to_torch = (nd + 1, nd, *range(nd))  # Ivy [*k, in, out] -> torch/paddle [out, in, *k]
    w = {"w": _f32(*(3,) * nd, 3, 4) * 0.5, "b": _f32(4)}
    if _own_is_channel_first(backend):
        layer = getattr(ivy, f"Conv{nd}D")(3, 4, 3, 2, 1, data_format=FIRST[nd], dilations=1)
        x = _f32(2, 3, *(6,) * nd)
    else:
        layer = getattr(ivy, f"Conv{nd}D")(3, 4, 3, 2, "same")
        x = _f32(2, *(6,) * nd, 3)
    refs = {
        "torch": Ref(
            torch_mod(f"Conv{nd}d", 3, 4, 3, stride=2, padding=1), {"w": ("weight", k_to_torch), "b": ("bias", None)}
        ),
        "paddle": Ref(
            paddle_mod(f"Conv{nd}D", 3, 4, 3, stride=2, padding=1), {"w": ("weight", k_to_torch), "b": ("bias", None)}
        ),
        "keras": Ref(
            keras_mod(f"Conv{nd}D", 4, 3, strides=2, padding="same"), {"w": ("kernel", None), "b": ("bias", None)}
        ),
        "flax": Ref(
            flax_mod("Conv", 4, (3,) * nd, strides=2, padding="SAME"),
            {"w": ("params/kernel", None), "b": ("params/bias", None)},
        ),
    }
    check_layer(backend, layer, w, x, refs)


def test_fn_layers_dilated_conv_matches_the_framework_layer(backend):
    w = {"w": _f32(3, 3, 2, 3) * 0.5, "b": _f32(3)}
    if _own_is_channel_first(backend):
        layer, x = ivy.Conv2D(2, 3, 3, 1, 2, dilations=2, data_format="channels_first"), _f32(2, 2, 7, 7)
    else:
        layer, x = ivy.Conv2D(2, 3, 3, 1, "SAME", dilations=2), _f32(2, 7, 7, 2)
    refs = {
        "torch": Ref(
            torch_mod("Conv2d", 2, 3, 3, padding=2, dilation=2), {"w": ("weight", (3, 2, 0, 1)), "b": ("bias", None)}
        ),
        "paddle": Ref(
            paddle_mod("Conv2D", 2, 3, 3, padding=2, dilation=2), {"w": ("weight", (3, 2, 0, 1)), "b": ("bias", None)}
        ),
        "keras": Ref(
            keras_mod("Conv2D", 3, 3, padding="same", dilation_rate=2), {"w": ("kernel", None), "b": ("bias", None)}
        ),
        "flax": Ref(
            flax_mod("Conv", 3, (3, 3), padding="SAME", kernel_dilation=2),
            {"w": ("params/kernel", None), "b": ("params/bias", None)},
        ),
    }
    check_layer(backend, layer, w, x, refs)


@pytest.mark.parametrize("nd", [1, 2, 3])
def test_fn_layers_conv_transpose_matches_the_framework_layer(backend, nd):
    to_torch = (nd + 1, nd, *range(nd))  # Ivy [*k, out, in] -> torch/paddle [in, out, *k]
    w = {"w": _f32(*(3,) * nd, 4, 3) * 0.5, "b": _f32(4)}
    if backend == "tensorflow":
        layer, x = getattr(ivy, f"Conv{nd}DTranspose")(3, 4, 3, 2, "SAME"), _f32(2, *(4,) * nd, 3)
    else:
        layer = getattr(ivy, f"Conv{nd}DTranspose")(3, 4, 3, 2, 1, data_format=FIRST[nd])
        x = _f32(2, 3, *(4,) * nd)
    refs = {
        "torch": Ref(
            torch_mod(f"ConvTranspose{nd}d", 3, 4, 3, stride=2, padding=1),
            {"w": ("weight", to_torch), "b": ("bias", None)},
        ),
        "paddle": Ref(
            paddle_mod(f"Conv{nd}DTranspose", 3, 4, 3, stride=2, padding=1),
            {"w": ("weight", to_torch), "b": ("bias", None)},
        ),
        "keras": Ref(
            keras_mod(f"Conv{nd}DTranspose", 4, 3, strides=2, padding="same"),
            {"w": ("kernel", None), "b": ("bias", None)},
        ),
    }  # Flax's ConvTranspose pads otherwise: torch's layer is the reference on jax
    check_layer(backend, layer, w, x, refs)


def _depthwise_refs(nd: int, mult: int) -> dict[str, Ref]:
    c = 3
    k = (3,) * nd

    def to_torch(a: np.ndarray) -> np.ndarray:  # [*k, c*m] -> [c*m, 1, *k]
        return np.moveaxis(a, -1, 0)[:, None]

    def from_torch(g: np.ndarray) -> np.ndarray:
        return np.moveaxis(g[:, 0], 0, -1)

    def to_keras(a: np.ndarray) -> np.ndarray:  # [*k, c*m] -> [*k, c, m]
        return a.reshape(*k, c, mult)

    def from_keras(g: np.ndarray) -> np.ndarray:
        return g.reshape(*k, c * mult)

    def to_flax(a: np.ndarray) -> np.ndarray:  # [*k, c*m] -> [*k, 1, c*m]
        return a[..., None, :]

    def from_flax(g: np.ndarray) -> np.ndarray:
        return g[..., 0, :]

    tt, kk, ff = (to_torch, from_torch), (to_keras, from_keras), (to_flax, from_flax)
    return {
        "torch": Ref(
            torch_mod(f"Conv{nd}d", c, c * mult, 3, padding=1, groups=c), {"w": ("weight", tt), "b": ("bias", None)}
        ),
        "paddle": Ref(
            paddle_mod(f"Conv{nd}D", c, c * mult, 3, padding=1, groups=c), {"w": ("weight", tt), "b": ("bias", None)}
        ),
        "keras": Ref(
            keras_mod(f"DepthwiseConv{nd}D", 3, depth_multiplier=mult, padding="same"),
            {"w": ("kernel", kk), "b": ("bias", None)},
        ),
        "flax": Ref(
            flax_mod("Conv", c * mult, k, padding="SAME", feature_group_count=c),
            {"w": ("params/kernel", ff), "b": ("params/bias", None)},
        ),
    }


@pytest.mark.parametrize("nd", [1, 2])
def test_fn_layers_depthwise_conv_with_multiplier_matches_the_framework_layer(backend, nd):
    w = {"w": _f32(*(3,) * nd, 6), "b": _f32(6)}
    cls = getattr(ivy, f"DepthwiseConv{nd}D")
    if _own_is_channel_first(backend):
        layer, x = cls(3, 3, 1, 1, depth_multiplier=2, data_format=FIRST[nd]), _f32(2, 3, *(5,) * nd)
    else:
        layer, x = cls(3, 3, 1, "same", depth_multiplier=2), _f32(2, *(5,) * nd, 3)
    check_layer(backend, layer, w, x, _depthwise_refs(nd, 2))


_BIAS_LAYERS = [  # (layer, arguments, spatial rank, bias size)
    ("Conv1D", (3, 4, 3, 2, "SAME"), 1, 4),
    ("Conv2DTranspose", (3, 4, 3, 2, "SAME"), 2, 4),
    ("Conv3D", (3, 4, 2, 1, "VALID"), 3, 4),
    ("DepthwiseConv1D", (3, 3, 1, "SAME"), 1, 6),
    ("DepthwiseConv2D", (3, 3, 2, "SAME"), 2, 6),
    ("SeparableConv2D", (3, 5, 3, 1, "SAME"), 2, 5),
]


@pytest.mark.parametrize("case", _BIAS_LAYERS, ids=lambda c: c[0])
@pytest.mark.parametrize("channel_first", [False, True])
def test_fn_layers_conv_bias_on_the_channel_axis_of_either_layout(backend, case, channel_first):
    """A layer's ``b`` is added on the channel axis of its layout (the output less that of the same
    layer without a bias, in NumPy), and its gradient is the cotangent summed over the batch and
    spatial axes."""
    from test_fn_layers_harness import cotangents, has_autodiff, run_ivy

    name, args, nd, out = case
    fmt = FIRST[nd] if channel_first else None
    kw = {"depth_multiplier": 2} if name.startswith(("Depthwise", "Separable")) else {}
    with_b = getattr(ivy, name)(*args, data_format=fmt, **kw)
    without = getattr(ivy, name)(*args, data_format=fmt, with_bias=False, **kw)
    x = _f32(2, 3, *(5,) * nd) if channel_first else _f32(2, *(5,) * nd, 3)
    with_b(to_native(backend, x))  # builds the variables
    w = {k: _f32(*(int(d) for d in a.shape)) for k, a in with_b.v.to_flat_dict().items()}
    assert w["b"].shape == (out,)
    got, _, gw = run_ivy(backend, with_b, w, x, has_autodiff(backend))
    base, _, _ = run_ivy(backend, without, {k: a for k, a in w.items() if k != "b"}, x, False)
    axis = 1 if channel_first else got[0].ndim - 1
    shape = [1] * got[0].ndim
    shape[axis] = out
    np.testing.assert_allclose(got[0], base[0] + w["b"].reshape(shape), rtol=1e-5, atol=1e-5)
    if gw is not None:
        ct = cotangents([got[0].shape])[0]
        want = ct.sum(axis=tuple(a for a in range(ct.ndim) if a != axis))
        np.testing.assert_allclose(gw["b"], want, rtol=1e-4, atol=1e-4)


def test_fn_layers_separable_conv_matches_the_framework_layer(backend):
    w = {"depthwise_w": _f32(3, 3, 6), "pointwise_w": _f32(1, 1, 6, 5), "b": _f32(5)}

    def torch_sep() -> Any:
        import torch

        return torch.nn.Sequential(torch.nn.Conv2d(3, 6, 3, padding=1, groups=3, bias=False), torch.nn.Conv2d(6, 5, 1))

    def paddle_sep() -> Any:
        import paddle

        return paddle.nn.Sequential(
            paddle.nn.Conv2D(3, 6, 3, padding=1, groups=3, bias_attr=False), paddle.nn.Conv2D(6, 5, 1)
        )

    dw = _depthwise_refs(2, 2)
    pw_t = (3, 2, 0, 1)
    refs = {
        "torch": Ref(
            torch_sep,
            {
                "depthwise_w": ("0.weight", dw["torch"].weights["w"][1]),
                "pointwise_w": ("1.weight", pw_t),
                "b": ("1.bias", None),
            },
        ),
        "paddle": Ref(
            paddle_sep,
            {
                "depthwise_w": ("0.weight", dw["torch"].weights["w"][1]),
                "pointwise_w": ("1.weight", pw_t),
                "b": ("1.bias", None),
            },
        ),
        "keras": Ref(
            keras_mod("SeparableConv2D", 5, 3, depth_multiplier=2, padding="same"),
            {
                "depthwise_w": ("depthwise_kernel", dw["keras"].weights["w"][1]),
                "pointwise_w": ("pointwise_kernel", None),
                "b": ("bias", None),
            },
        ),
    }
    if _own_is_channel_first(backend) or backend == "jax":
        layer, x = ivy.SeparableConv2D(3, 5, 3, 1, 1, depth_multiplier=2, data_format="NCHW"), _f32(2, 3, 5, 5)
    else:
        layer, x = ivy.SeparableConv2D(3, 5, 3, 1, "same", depth_multiplier=2), _f32(2, 5, 5, 3)
    check_layer(backend, layer, w, x, refs)


def test_fn_layers_separable_conv1d_matches_torch(backend):
    def torch_sep() -> Any:
        import torch

        return torch.nn.Sequential(torch.nn.Conv1d(2, 2, 3, padding=1, groups=2, bias=False), torch.nn.Conv1d(2, 4, 1))

    w = {"depthwise_w": _f32(3, 2), "pointwise_w": _f32(1, 2, 4), "b": _f32(4)}
    refs = {
        "torch": Ref(
            torch_sep,
            {
                "depthwise_w": ("0.weight", ((lambda a: a.T[:, None]), (lambda g: g[:, 0].T))),
                "pointwise_w": ("1.weight", (2, 1, 0)),
                "b": ("1.bias", None),
            },
        )
    }
    check_layer(
        backend, ivy.SeparableConv1D(2, 4, 3, 1, 1, data_format="NCW"), w, _f32(3, 2, 6), refs, framework="torch"
    )


# ------------------------------------------------------------------ layouts and their errors


def test_fn_layers_conv_names_the_layout_it_expected(backend):
    layer = ivy.Conv2D(3, 8, 3)  # channel-last by default
    x = to_native(backend, _f32(2, 3, 16, 16))  # a torch user's channel-first batch
    with pytest.raises(ValueError, match=r"data_format='NHWC'.*looks channel-first: pass data_format='NCHW'"):
        layer(x)
    with pytest.raises(ValueError, match=r"rank-4 input \[batch, height, width, channels\]"):
        layer(to_native(backend, _f32(16, 16, 3)))


def test_fn_layers_other_layers_name_their_layout(backend):
    with pytest.raises(ValueError, match="expects 4 channels on axis 1"):
        ivy.BatchNorm2D(4, data_format="NCHW")(to_native(backend, _f32(2, 5, 5, 4)))
    with pytest.raises(ValueError, match=r"Linear expects inputs \[\.\.\., 4\]"):
        ivy.Linear(4, 2)(to_native(backend, _f32(2, 3)))
    with pytest.raises(ValueError, match=r"MaxPool1D expects a rank-3 input"):
        ivy.MaxPool1D(2)(to_native(backend, _f32(2, 3, 4, 4)))
    with pytest.raises(ValueError, match="data_format must be"):
        ivy.Conv2D(3, 4, 3, data_format="NWC")


def test_fn_layers_lazy_conv_takes_channels_from_a_channel_first_input(backend):
    layer = ivy.Conv2D(None, 5, 3, padding="SAME", data_format="channels_first")
    y = layer(to_native(backend, _f32(2, 3, 6, 6)))
    assert tuple(y.shape) == (2, 5, 6, 6) and tuple(layer.v.w.shape) == (3, 3, 3, 5)
