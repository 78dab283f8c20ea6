"""Optimizer state: read, restored by assignment, saved and loaded (safetensors), so that training
resumes exactly: the resumed run equals the uninterrupted one, step for step."""

from __future__ import annotations

import numpy as np
import pytest

import ivy
from ivy.testing._helpers.facts import expect
from ivy.testing.convert import has_autodiff, native_to_numpy, to_native

RNG = np.random.default_rng(21)
X = RNG.standard_normal((12, 3)).astype(np.float32)
Y = RNG.standard_normal((12, 2)).astype(np.float32)
OPTIMIZERS = {
    "Adam": lambda: ivy.Adam(1e-2),
    "AdamW": lambda: ivy.AdamW(1e-2),
    "SGD momentum": lambda: ivy.SGD(1e-2, momentum=0.9, nesterov=True),
    "LAMB": lambda: ivy.LAMB(1e-2),
    "LARS": lambda: ivy.LARS(1e-2),
}


def _model(backend):
    ivy.seed(5)
    return ivy.Sequential(ivy.Linear(3, 4), ivy.ReLU(), ivy.Linear(4, 2), backend=backend)


def _steps(backend, model, opt, n):
    x, y = to_native(backend, X), to_native(backend, Y)
    losses = []
    for _ in range(n):
        loss, grads = ivy.execute_with_gradients(lambda v: ivy.mse_loss(y, model(x, v=v)), model.v)
        model.v = opt.step(model.v, grads)
        losses.append(float(native_to_numpy(backend, loss)))
    return losses


@pytest.mark.ivy_slow
@pytest.mark.parametrize("name", OPTIMIZERS)
def test_optimizer_save_and_load_resume_exactly(autodiff, name, tmp_path):
    backend = autodiff
    straight_model, straight = _model(backend), OPTIMIZERS[name]()
    want = _steps(backend, straight_model, straight, 6)

    model, opt = _model(backend), OPTIMIZERS[name]()
    got = _steps(backend, model, opt, 3)
    model.save_weights(tmp_path / "w.safetensors")
    opt.save(tmp_path / "opt.safetensors")

    model2, opt2 = _model(backend), OPTIMIZERS[name]()
    model2.load_weights(tmp_path / "w.safetensors")
    opt2.load(tmp_path / "opt.safetensors")
    expect(opt2.step_count, 3, "Optimizer.load: opt2.step_count")
    for (k, a), (_, b) in zip(opt2.state.to_flat_dict().items(), opt.state.to_flat_dict().items()):
        # (the loaded arrays move to the variables' backend on the next step)
        np.testing.assert_array_equal(ivy.to_numpy(a), native_to_numpy(backend, b), err_msg=k)
    got += _steps(backend, model2, opt2, 3)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)
    for x in ivy.nest.leaves(opt2.state):
        assert ivy.is_native_array(x), f"Optimizer.load: the state holds a {type(x)!r}, not a native array"
        expect(ivy.namespace(x).name, backend, "Optimizer.load: the backend of the state's arrays")


def test_optimizer_state_assignment_and_state_dict(autodiff):
    backend = autodiff
    model, opt = _model(backend), ivy.Adam(1e-2)
    _steps(backend, model, opt, 2)
    other = ivy.Adam(1e-2)
    other.load_state_dict(opt.state_dict())
    expect(other.step_count, 2, "Optimizer.load_state_dict: other.step_count")
    expect(
        other.state.key_chains(),
        opt.state.key_chains(),
        "Optimizer.load_state_dict: other.state.key_chains()",
    )
    twin = _model(backend)
    twin.v = model.v
    np.testing.assert_allclose(_steps(backend, twin, other, 2), _steps(backend, model, opt, 2), rtol=1e-6)
    fresh = ivy.Adam(1e-2)
    fresh.state = opt.state  # the property is assignable
    expect(
        fresh.state.key_chains(),
        [
            "mw/layers/0/w",
            "mw/layers/0/b",
            "mw/layers/2/w",
            "mw/layers/2/b",
            "vw/layers/0/w",
            "vw/layers/0/b",
            "vw/layers/2/w",
            "vw/layers/2/b",
        ],
        "Optimizer.load_state_dict: fresh.state.key_chains()",
    )
    with pytest.raises(ValueError, match="missing"):
        fresh.state = {"mw": opt.state.mw}


def test_optimizer_load_refuses_other_files(backend, tmp_path):
    model = ivy.Linear(2, 2, backend=backend)
    model.save_weights(tmp_path / "w.safetensors")
    with pytest.raises(ValueError, match="not an optimizer file"):
        ivy.Adam().load(tmp_path / "w.safetensors")
    if has_autodiff(backend):
        opt = ivy.SGD(0.1, momentum=0.9)
        _steps(backend, _model(backend), opt, 1)
        opt.save(tmp_path / "sgd.safetensors")
        with pytest.raises(ValueError, match="SGD, not of Adam"):
            ivy.Adam().load(tmp_path / "sgd.safetensors")
