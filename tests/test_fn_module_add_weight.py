"""``Module.add_weight``: a custom variable (a ViT's class token, a learned scale) or buffer of a
module, created at build on the module's backend, read as ``self.<name>`` in ``_forward``,
differentiated, updated, used in pure calls (``v=``), saved and loaded with the others."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ivy
from ivy.testing.convert import has_autodiff, native_to_numpy, to_native

DIM = 4
SCALE = np.array([1.0, 2.0, -1.0, 0.5], np.float32)


class TokenModel(ivy.Module):
    """Prepends a learned class token to projected tokens, then scales every feature."""

    def __init__(self, **kw: Any) -> None:
        self.proj = ivy.Linear(3, DIM)
        ivy.Module.__init__(self, **kw)
        self.add_weight("cls_token", (1, 1, DIM), initializer=ivy.Zeros())
        self.add_weight("scale", initializer=SCALE)  # the shape from the initial value
        self.add_weight("calls", (), initializer=ivy.Zeros(), trainable=False)  # a buffer

    def _forward(self, x: Any) -> Any:
        tok = ivy.broadcast_to(self.cls_token, (int(x.shape[0]), 1, DIM))
        return ivy.concat([tok, self.proj(x)], axis=1) * self.scale


def _np(backend: str, x: Any) -> np.ndarray:
    return native_to_numpy(backend, x)


def test_fn_module_add_weight_creates_reads_and_saves(backend, tmp_path):
    model = TokenModel(backend=backend)
    assert sorted(model.v.to_flat_dict()) == ["cls_token", "proj/b", "proj/w", "scale"]
    assert sorted(model.state.to_flat_dict()) == ["calls"]
    assert ivy.namespace(model.v.cls_token).name == backend and ivy.is_variable(model.v.scale)
    np.testing.assert_array_equal(_np(backend, model.cls_token), np.zeros((1, 1, DIM), np.float32))
    np.testing.assert_array_equal(_np(backend, model.v.scale), SCALE)
    assert model.count_params() == DIM + 3 * DIM + DIM + DIM
    x = np.random.default_rng(0).standard_normal((2, 5, 3)).astype(np.float32)
    out = _np(backend, model(to_native(backend, x)))
    w, b = _np(backend, model.v.proj.w), _np(backend, model.v.proj.b)
    want = np.concatenate([np.zeros((2, 1, DIM)), x @ w.T + b], axis=1) * SCALE  # NumPy reference
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-6)
    # pure use: the given v's token, the module's own untouched
    other = model.v.to_flat_dict()
    other["cls_token"] = to_native(backend, np.ones((1, 1, DIM), np.float32))
    out2 = _np(backend, model(to_native(backend, x), v=ivy.Container.from_flat_dict(other)))
    np.testing.assert_allclose(out2[:, 0], np.broadcast_to(SCALE, (2, DIM)), rtol=1e-6)
    np.testing.assert_array_equal(_np(backend, model.cls_token), np.zeros((1, 1, DIM), np.float32))
    # saved and loaded with the others
    model.v = ivy.Container.from_flat_dict(other)
    model.save_weights(tmp_path / "w.safetensors")
    fresh = TokenModel(backend=backend)
    fresh.load_weights(tmp_path / "w.safetensors")
    np.testing.assert_array_equal(_np(backend, fresh.cls_token), np.ones((1, 1, DIM), np.float32))


def test_fn_module_add_weight_is_trained(backend):
    if not has_autodiff(backend):
        pytest.skip(f"the {backend!r} backend has no automatic differentiation")
    model = TokenModel(backend=backend)
    x = to_native(backend, np.random.default_rng(1).standard_normal((3, 2, 3)).astype(np.float32))
    loss, grads = ivy.execute_with_gradients(lambda v: ivy.sum(model(x, v=v)), model.v)
    # d sum / d cls_token = batch * scale (NumPy, by hand)
    np.testing.assert_allclose(_np(backend, grads.cls_token), (3 * SCALE).reshape(1, 1, DIM), rtol=1e-6)
    model.v = ivy.SGD(0.1).step(model.v, grads)
    np.testing.assert_allclose(_np(backend, model.cls_token), (-0.3 * SCALE).reshape(1, 1, DIM), rtol=1e-6)


def test_fn_module_add_weight_errors(backend):
    model = TokenModel(backend=backend)
    with pytest.raises(ValueError, match="'cls_token' is already taken"):
        model.add_weight("cls_token", (1,))
    with pytest.raises(ValueError, match="'proj' is already taken"):
        model.add_weight("proj", (1,))
    with pytest.raises(ValueError, match="'train' is already taken"):
        model.add_weight("train", (1,))
    with pytest.raises(ValueError, match="an identifier not starting with '_'"):
        model.add_weight("a/b", (1,))
    with pytest.raises(ValueError, match="give a shape"):
        model.add_weight("w")
    with pytest.raises(ValueError, match=r"shape \(3,\) but the initial value has shape \(2,\)"):
        model.add_weight("w", 3, initializer=[1.0, 2.0])
    with pytest.raises(AttributeError, match="is a weight .*assign module.v"):
        model.cls_token = 1.0
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        model.nothing  # noqa: B018
    model.v  # noqa: B018 - builds
    with pytest.raises(RuntimeError, match="already built; declare its weights in __init__"):
        model.add_weight("late", (1,))
