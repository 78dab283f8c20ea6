"""``ivy.compile`` of a training step that paddle's ``to_static`` crashes on (a conv VAE's
encoder step: ``SystemError: (Fatal) Invalid rank for GradTensorHolder::add()``) runs the step
eagerly with a warning: no crash, the eager step's results."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

paddle = pytest.importorskip("paddle")

import ivy
from ivy.errors import CompileFailedWarning


class _Encoder(ivy.Module):
    def __init__(self) -> None:
        super().__init__(backend="paddle")
        self.conv = ivy.Conv2D(1, 2, [3, 3], strides=2, padding="SAME", data_format="NHWC")
        self.mu = ivy.Linear(8, 2)
        self.lv = ivy.Linear(8, 2)

    def _forward(self, x, eps):  # type: ignore[no-untyped-def]
        h = ivy.Flatten()(ivy.relu(self.conv(x)))
        mu, lv = self.mu(h), self.lv(h)
        return mu + ivy.exp(0.5 * lv) * eps, mu, lv


def _step(model, opt):  # type: ignore[no-untyped-def]
    def step(x, eps):  # type: ignore[no-untyped-def]
        def loss_fn(v):  # type: ignore[no-untyped-def]
            z, mu, lv = model(x, eps, v=v)
            return ivy.mean(z**2) - 0.5 * ivy.mean(1 + lv - mu**2 - ivy.exp(lv))

        loss, grads = ivy.execute_with_gradients(loss_fn, model.v)
        model.v = opt.step(model.v, grads)
        return loss

    return step


def test_paddle_compile_falls_back_to_eager_where_to_static_crashes():
    rng = np.random.default_rng(0)
    x = paddle.to_tensor(rng.random((2, 4, 4, 1)).astype("float32"))
    eps = paddle.to_tensor(rng.standard_normal((2, 2)).astype("float32"))
    model, twin = _Encoder(), _Encoder()
    model(x, eps)
    twin(x, eps)
    twin.v = ivy.Container.from_flat_dict({k: a.clone() for k, a in model.v.to_flat_dict().items()})
    step = ivy.compile(_step(model, ivy.Adam(0.01)))
    eager = _step(twin, ivy.Adam(0.01))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        losses = [float(step(x, eps)) for _ in range(3)]
    fell_back = [w for w in caught if issubclass(w.category, CompileFailedWarning)]
    # this paddle crashes on the step (where a later one compiles it, the results must be the same)
    if fell_back:
        assert len(fell_back) == 1 and "on paddle failed (SystemError" in str(fell_back[0].message)
    want = [float(eager(x, eps)) for _ in range(3)]
    np.testing.assert_allclose(losses, want, rtol=1e-5)
    for k, a in twin.v.to_flat_dict().items():
        np.testing.assert_allclose(model.v[k].numpy(), a.numpy(), rtol=1e-5, atol=1e-6, err_msg=k)
