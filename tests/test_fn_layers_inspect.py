"""Model inspection: ``model.summary()`` (layers, output shapes, parameter counts, as Keras') and
``repr(model)`` (each layer's settings, as torch's)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ivy
from ivy.testing.convert import native_to_numpy, to_native


class CNN(ivy.Module):
    def __init__(self, **kw: Any) -> None:
        self.features = ivy.Sequential(
            ivy.Conv2D(1, 8, 3, padding="same"), ivy.BatchNorm2D(8), ivy.ReLU(), ivy.MaxPool2D(2)
        )
        self.head = ivy.Sequential(ivy.Flatten(), ivy.Dropout(0.5), ivy.Linear(None, 10))
        ivy.Module.__init__(self, **kw)

    def _forward(self, x: Any) -> Any:
        return self.head(self.features(x))


def _torch_param_count() -> int:
    import torch

    net = torch.nn.Sequential(
        torch.nn.Conv2d(1, 8, 3, padding=1),
        torch.nn.BatchNorm2d(8),
        torch.nn.ReLU(),
        torch.nn.MaxPool2d(2),
        torch.nn.Flatten(),
        torch.nn.Linear(8 * 4 * 4, 10),
    )
    return sum(p.numel() for p in net.parameters())


def test_fn_layers_summary_lists_layers_shapes_and_counts(backend):
    model = CNN(backend=backend)
    x = to_native(backend, np.random.default_rng(0).standard_normal((4, 8, 8, 1)).astype(np.float32))
    text = model.summary(x, print_fn=None)
    lines = text.splitlines()
    assert lines[0] == 'Model: "CNN"'
    rows = {
        ln.split()[0] + " " + ln.split()[1]: ln
        for ln in lines
        if ln.strip().startswith(("features", "head", "0 (", "1 (", "2 (", "3 ("))
    }
    assert "(4, 4, 4, 8)" in rows["features (Sequential)"] and rows["features (Sequential)"].endswith("96")
    assert "(4, 10)" in rows["head (Sequential)"] and rows["head (Sequential)"].endswith("1,290")
    conv = next(ln for ln in lines if "(Conv2D)" in ln)
    assert "(4, 8, 8, 8)" in conv and conv.endswith("80") and conv.startswith("  0 (Conv2D)")
    n = _torch_param_count()
    assert f"Trainable params: {n:,}" in lines and "Non-trainable params (buffers): 16" in lines
    assert f"Total params: {n + 16:,}" in lines and model.count_params() == n
    # the example pass ran in evaluation mode and changed nothing
    assert model.training and model.features.layers[1].training
    np.testing.assert_array_equal(native_to_numpy(backend, model.state.features.layers["1"].running_mean), np.zeros(8))


def test_fn_layers_summary_depth_and_print(backend, capsys):
    model = CNN(backend=backend)
    x = to_native(backend, np.zeros((2, 8, 8, 1), np.float32))
    assert model.summary(x, depth=1) is None
    out = capsys.readouterr().out
    assert "features (Sequential)" in out and "(Conv2D)" not in out
    lazy = ivy.Sequential(ivy.Linear(None, 3))
    with pytest.raises(ivy.ModuleNotBuiltError):
        lazy.summary()
    built = ivy.Sequential(ivy.Linear(4, 3), backend=backend)
    text = built.summary(print_fn=None)
    assert "0 (Linear)" in text and "?" in text and "Trainable params: 15" in text


def test_fn_layers_repr_shows_each_layer_settings(backend):
    model = CNN(backend=backend)
    text = repr(model)
    assert text.splitlines()[0] == "CNN("
    assert (
        "  (features): Sequential(\n    (0): Conv2D(input_channels=1, output_channels=8, filter_shape=(3, 3), "
        "padding='same')" in text
    )
    assert "(1): BatchNorm2D(num_features=8)" in text and "(1): Dropout(prob=0.5)" in text
    assert "(2): Linear(input_channels=None, output_channels=10)" in text
    assert repr(ivy.Conv2D(3, 4, 3, 2, data_format="channels_first")).startswith(
        "Conv2D(input_channels=3, output_channels=4, filter_shape=(3, 3), strides=2, data_format='NCHW'"
    )
    assert repr(ivy.LSTM(3, 4, bidirectional=True)) == "LSTM(input_channels=3, output_channels=4, bidirectional=True)"
    assert repr(ivy.Lambda(np.tanh)) == "Lambda(fn=tanh)"
    assert repr(ivy.GELU(approximate=True)) == "GELU(approximate=True)"


_LAYER_MODULES = ("basic", "layers", "pooling", "normalization", "embeddings", "recurrent", "attention", "sequential")


def test_fn_layers_constructors_name_every_option(backend):
    """Each layer's constructor signature (what repr, the generated reference of docs/stateful.md
    and type checkers read) names every option of its base classes' constructors: ``**kwargs``
    is left only :class:`ivy.Module`'s own (``device``, ``backend``...)."""
    import importlib
    import inspect

    if backend != "numpy":
        pytest.skip("the signatures do not depend on the backend: runs in the numpy test process")
    variadic = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    hidden = {}
    for mod in _LAYER_MODULES:
        module = importlib.import_module(f"ivy._stateful.{mod}")
        for name in module.__all__:
            cls = getattr(module, name)
            if not (inspect.isclass(cls) and issubclass(cls, ivy.Module)):
                continue
            own = set(inspect.signature(cls.__init__).parameters)
            for base in cls.__mro__[1:]:
                if base is ivy.Module or not issubclass(base, ivy.Module) or "__init__" not in vars(base):
                    continue
                params = inspect.signature(base.__init__).parameters.items()
                missing = {p for p, q in params if q.kind not in variadic and p != "self"} - own
                if missing:
                    hidden[name] = sorted(missing)
    assert not hidden, f"options only reachable through **kwargs: {hidden}"
    layer = ivy.SimpleRNN(3, 4, num_layers=2, bidirectional=True, batch_first=False, activation="relu")
    assert repr(layer) == (
        "SimpleRNN(input_channels=3, output_channels=4, num_layers=2, bidirectional=True, batch_first=False, "
        "activation='relu')"
    )


def test_fn_layers_summary_takes_numpy_input(backend):
    """As ``fit`` does, ``summary`` converts an example of NumPy arrays to the model's backend."""
    x = np.random.default_rng(0).standard_normal((4, 8, 8, 1)).astype(np.float32)
    native = CNN(backend=backend).summary(to_native(backend, x), print_fn=None)
    model = CNN(backend=backend)  # not built: built by the example, on its backend
    assert model.summary(x, print_fn=None) == native
    assert ivy.namespace(model.v.head.layers["2"].w).name == backend
    built = ivy.Sequential(ivy.Linear(4, 3), backend=backend)
    built.v  # noqa: B018 - builds
    text = built.summary(np.zeros((2, 4), np.float32), print_fn=None)
    assert "0 (Linear)" in text and "(2, 3)" in text
