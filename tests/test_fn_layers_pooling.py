"""Pooling and resampling layers (max / average pooling, global and adaptive pooling, Upsample;
1D, 2D and 3D; channel-first and channel-last) against each backend's own framework layers
(torch.nn, Keras, Flax, paddle.nn; see test_fn_layers_harness): outputs, and the gradients of the
input. A reference that takes only one layout is wrapped to move the channel axis."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from test_fn_layers_harness import Ref, check_layer

import ivy
from ivy.testing.convert import to_native

RNG = np.random.default_rng(5)
FIRST = {1: "NCW", 2: "NCHW", 3: "NCDHW"}
#: spatial sizes: odd, so that "SAME" pads one on each side for a window of 3 and stride 2 (what
#: torch's layers, which take no "SAME", get as padding=1)
SIZES = (7, 5, 5)


def _f32(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def _x(nd: int, channel_first: bool, sizes: tuple[int, ...] = SIZES) -> np.ndarray:
    return _f32(2, 3, *sizes[:nd]) if channel_first else _f32(2, *sizes[:nd], 3)


def _ivy_format(nd: int, channel_first: bool) -> str:
    # both spellings of a layout: torch-style names for channel-first, Keras' for channel-last
    return FIRST[nd] if channel_first else "channels_last"


def torch_ref(make: Callable[[], Any], channel_first: bool) -> Callable[[], Any]:
    """A torch layer (channel-first) taking the Ivy layer's layout."""

    def build() -> Any:
        import torch

        inner = make()
        if channel_first:
            return inner

        class ChannelLast(torch.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.inner = inner

            def forward(self, x: Any) -> Any:
                return self.inner(x.movedim(-1, 1)).movedim(1, -1)

        return ChannelLast()

    return build


def paddle_ref(make: Callable[[], Any], channel_first: bool) -> Callable[[], Any]:
    """A paddle layer (channel-first) taking the Ivy layer's layout."""

    def build() -> Any:
        import paddle

        inner = make()
        if channel_first:
            return inner

        class ChannelLast(paddle.nn.Layer):
            def __init__(self) -> None:
                super().__init__()
                self.inner = inner

            def forward(self, x: Any) -> Any:
                return paddle.moveaxis(self.inner(paddle.moveaxis(x, -1, 1)), 1, -1)

        return ChannelLast()

    return build


def torch_mod(name: str, *args: Any, **kwargs: Any) -> Callable[[], Any]:
    return lambda: getattr(__import__("torch").nn, name)(*args, **kwargs)


def paddle_mod(name: str, *args: Any, **kwargs: Any) -> Callable[[], Any]:
    return lambda: getattr(__import__("paddle").nn, name)(*args, **kwargs)


def keras_mod(name: str, *args: Any, **kwargs: Any) -> Callable[[], Any]:
    return lambda: getattr(__import__("keras").layers, name)(*args, **kwargs)


def _keras_format(channel_first: bool) -> str:
    return "channels_first" if channel_first else "channels_last"


# ------------------------------------------------------------------ max and average pooling

#: (kind, padding, count_include_pad): "explicit" is a window of (3, 2, 3), strides (2, 1, 2) and
#: one padded element each side; "same" a window of 3 and stride 2 (Keras' and Flax's "SAME",
#: where an average leaves the padding out)
_POOLS = [
    ("Max", "explicit", False),
    ("Max", "same", False),
    ("Avg", "explicit", False),
    ("Avg", "explicit", True),
    ("Avg", "same", False),
]


def _flax_pool(
    kind: str, window: tuple[int, ...], strides: tuple[int, ...], padding: Any, count_pad: bool, channel_first: bool
) -> Any:
    """Flax's pooling (``flax.linen.max_pool`` / ``avg_pool``, which pool channel-last arrays) as
    a module taking the Ivy layer's layout."""

    def build() -> Any:
        import flax.linen as nn
        import jax.numpy as jnp

        class Pool(nn.Module):
            @nn.compact
            def __call__(self, x: Any) -> Any:
                if channel_first:
                    x = jnp.moveaxis(x, 1, -1)
                if kind == "Max":
                    y = nn.max_pool(x, window, strides, padding)
                else:
                    y = nn.avg_pool(x, window, strides, padding, count_include_pad=count_pad)
                return jnp.moveaxis(y, -1, 1) if channel_first else y

        return Pool()

    return build


def _pool_refs(nd: int, kind: str, padding: str, count_pad: bool, channel_first: bool) -> dict[str, Ref]:
    same = padding == "same"
    window = (3,) * nd if same else (3, 2, 3)[:nd]
    strides = (2,) * nd if same else (2, 1, 2)[:nd]
    t_kw: dict[str, Any] = {"count_include_pad": count_pad} if kind == "Avg" else {}
    p_kw: dict[str, Any] = {"exclusive": not count_pad} if kind == "Avg" else {}
    refs = {
        # torch's pools take no "SAME": at these sizes it is one padded element each side
        "torch": Ref(torch_ref(torch_mod(f"{kind}Pool{nd}d", window, strides, 1, **t_kw), channel_first)),
        "paddle": Ref(
            paddle_ref(paddle_mod(f"{kind}Pool{nd}D", window, strides, "SAME" if same else 1, **p_kw), channel_first)
        ),
    }
    flax_pad = "SAME" if same else ((1, 1),) * nd
    refs["flax"] = Ref(_flax_pool(kind, window, strides, flax_pad, count_pad, channel_first))
    if same:  # Keras pads only as "same" (the padding left out of averages)
        name = {"Max": "MaxPooling", "Avg": "AveragePooling"}[kind] + f"{nd}D"
        refs["keras"] = Ref(keras_mod(name, window, strides, "same", data_format=_keras_format(channel_first)))
    return refs


@pytest.mark.parametrize("channel_first", [True, False], ids=["first", "last"])
@pytest.mark.parametrize("case", _POOLS, ids=lambda c: f"{c[0]}-{c[1]}{'-count_pad' if c[2] else ''}")
@pytest.mark.parametrize("nd", [1, 2, 3])
def test_fn_layers_pooling_matches_the_framework_layer(backend, nd, case, channel_first):
    kind, padding, count_pad = case
    cls = getattr(ivy, f"{kind}Pool{nd}D")
    fmt = _ivy_format(nd, channel_first)
    if padding == "same":
        layer = cls(3, 2, "same", data_format=fmt)
    else:
        extra = {"count_include_pad": count_pad} if kind == "Avg" else {}
        layer = cls((3, 2, 3)[:nd], (2, 1, 2)[:nd], 1, data_format=fmt, **extra)
    check_layer(backend, layer, {}, _x(nd, channel_first), _pool_refs(nd, kind, padding, count_pad, channel_first))


# ------------------------------------------------------------------ global and adaptive pooling


@pytest.mark.parametrize("keepdims", [False, True], ids=["flat", "keepdims"])
@pytest.mark.parametrize("channel_first", [True, False], ids=["first", "last"])
@pytest.mark.parametrize("kind", ["Avg", "Max"])
@pytest.mark.parametrize("nd", [1, 2, 3])
def test_fn_layers_global_pooling_matches_the_framework_layer(backend, nd, kind, channel_first, keepdims):
    def torch_global() -> Any:
        import torch

        pool = getattr(torch.nn, f"Adaptive{kind}Pool{nd}d")(1)
        return pool if keepdims else torch.nn.Sequential(pool, torch.nn.Flatten())

    def paddle_global() -> Any:
        import paddle

        pool = getattr(paddle.nn, f"Adaptive{kind}Pool{nd}D")(1)
        return pool if keepdims else paddle.nn.Sequential(pool, paddle.nn.Flatten())

    name = {"Avg": "GlobalAveragePooling", "Max": "GlobalMaxPooling"}[kind] + f"{nd}D"
    refs = {
        "torch": Ref(torch_ref(torch_global, channel_first)),
        "paddle": Ref(paddle_ref(paddle_global, channel_first)),
        "keras": Ref(keras_mod(name, data_format=_keras_format(channel_first), keepdims=keepdims)),
    }  # Flax has no global pooling layer: torch's is the reference on jax
    layer = getattr(ivy, f"Global{kind}Pool{nd}D")(keepdims=keepdims, data_format=_ivy_format(nd, channel_first))
    x = _x(nd, channel_first, (6, 5, 4))
    check_layer(backend, layer, {}, x, refs)


@pytest.mark.parametrize("nd", [1, 2, 3])
@pytest.mark.parametrize("kind", ["Avg", "Max"])
def test_fn_layers_adaptive_pooling_matches_the_framework_layer(backend, kind, nd):
    out = (3, 2, 2)[:nd]
    refs = {"torch": Ref(torch_mod(f"Adaptive{kind}Pool{nd}d", out if nd > 1 else out[0]))}
    if nd in (1, 2) or kind == "Avg":
        refs["paddle"] = Ref(paddle_mod(f"Adaptive{kind}Pool{nd}D", out if nd > 1 else out[0]))
    layer = getattr(ivy, f"Adaptive{kind}Pool{nd}D")(out, data_format=FIRST[nd])
    check_layer(backend, layer, {}, _f32(2, 3, *(7, 5, 4)[:nd]), refs)


# ------------------------------------------------------------------ resampling


@pytest.mark.parametrize("mode", ["nearest", "bilinear"])
def test_fn_layers_upsample_by_a_factor_matches_the_framework_layer(backend, mode):
    refs = {
        "torch": Ref(torch_mod("Upsample", scale_factor=2, mode=mode)),
        "paddle": Ref(paddle_mod("Upsample", scale_factor=2, mode=mode)),
        "keras": Ref(keras_mod("UpSampling2D", 2, interpolation=mode)),
    }
    if backend == "tensorflow":
        check_layer(backend, ivy.Upsample(scale_factor=2, mode=mode), {}, _f32(2, 4, 5, 3), refs)
    else:
        check_layer(
            backend, ivy.Upsample(scale_factor=2, mode=mode, data_format="channels_first"), {}, _f32(2, 3, 4, 5), refs
        )


@pytest.mark.parametrize("align_corners", [False, True])
def test_fn_layers_upsample_to_a_size_matches_torch(backend, align_corners):
    refs = {"torch": Ref(torch_mod("Upsample", size=(7, 4), mode="bilinear", align_corners=align_corners))}
    layer = ivy.Upsample((7, 4), mode="bilinear", align_corners=align_corners, data_format="NCHW")
    check_layer(backend, layer, {}, _f32(2, 3, 4, 6), refs, framework="torch")
    refs = {"torch": Ref(torch_mod("Upsample", size=9, mode="linear", align_corners=align_corners))}
    layer = ivy.Upsample(9, mode="linear", align_corners=align_corners, data_format="channels_first")
    check_layer(backend, layer, {}, _f32(2, 3, 5), refs, framework="torch")


@pytest.mark.parametrize("how", ["scale_factor", "size"])
@pytest.mark.parametrize("channel_first", [True, False], ids=["first", "last"])
@pytest.mark.parametrize("mode", ["nearest", "trilinear"])
def test_fn_layers_upsample_3d_matches_the_framework_layer(backend, mode, channel_first, how):
    # "size": ratios 5/3, 7/4, 6/5 per axis (not integers: the nearest source index is rounded down)
    kw: dict[str, Any] = {"scale_factor": 2} if how == "scale_factor" else {"size": (5, 7, 6)}
    fmt = "NCDHW" if channel_first else "NDHWC"
    refs = {
        "torch": Ref(torch_ref(torch_mod("Upsample", mode=mode, **kw), channel_first)),
        "paddle": Ref(paddle_mod("Upsample", mode=mode, data_format=fmt, **kw)),
    }
    if mode == "nearest" and how == "scale_factor":  # Keras' UpSampling3D repeats (integer factors)
        refs["keras"] = Ref(keras_mod("UpSampling3D", 2, data_format=_keras_format(channel_first)))
    layer = ivy.Upsample(mode=mode, data_format="channels_first" if channel_first else "channels_last", **kw)
    x = _x(3, channel_first, (3, 4, 5))
    check_layer(backend, layer, {}, x, refs)


def _torch_accepts(mode: str, nd: int) -> bool:
    """Whether torch's nn.Upsample takes ``mode`` for ``nd`` spatial axes (the reference)."""
    import torch

    try:
        torch.nn.Upsample(scale_factor=2, mode=mode)(torch.zeros(1, 1, *(2,) * nd))
    except NotImplementedError:
        return False
    return True


@pytest.mark.parametrize("mode", ["nearest", "linear", "bilinear", "trilinear"])
def test_fn_layers_upsample_mode_must_fit_the_rank_as_in_torch(backend, mode):
    linear = {1: "linear", 2: "bilinear", 3: "trilinear"}
    for nd in (1, 2, 3):
        x = to_native(backend, _f32(1, 2, *(3,) * nd))
        at_call = ivy.Upsample(scale_factor=2, mode=mode, data_format="channels_first")  # rank unknown yet
        if _torch_accepts(mode, nd):
            ivy.Upsample(scale_factor=2, mode=mode, data_format=FIRST[nd])
            assert tuple(at_call(x).shape) == (1, 2, *(6,) * nd)
            continue
        fits = rf"for {nd} spatial ax[ie]s use 'nearest' or '{linear[nd]}'"
        for given in ({"scale_factor": 2, "data_format": FIRST[nd]}, {"size": (6,) * nd}):  # rank known
            with pytest.raises(ValueError, match=rf"mode '{mode}' interpolates .*{fits}"):
                ivy.Upsample(mode=mode, **given)
        with pytest.raises(ValueError, match=rf"the input's shape .*{fits}"):
            at_call(x)


def test_fn_layers_upsample_argument_errors(backend):
    with pytest.raises(ValueError, match=r"data_format='NCDHW' \(3 spatial axes\), size=\(4, 4\) \(2 spatial axes\)"):
        ivy.Upsample((4, 4), data_format="NCDHW")
    with pytest.raises(ValueError, match=r"data_format must be 'channels_last', 'channels_first' or one of 'NWC'"):
        ivy.Upsample(scale_factor=2, data_format="NCHWD")
    layer = ivy.Upsample(scale_factor=(2, 2), data_format="channels_first")  # two factors, three axes
    with pytest.raises(ValueError, match=r"scale_factor has 2 entries, the input 3 spatial axes"):
        layer(to_native(backend, _f32(1, 2, 3, 3, 3)))
