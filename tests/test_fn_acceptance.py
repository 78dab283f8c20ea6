"""The issue's acceptance tests for the stateful API, per backend (``--backend NAME``).

1. The paper's ``IvyFcModel`` trained with ``ivy.Adam`` and ``ivy.execute_with_gradients``: from
   the same initial weights (a fixed NumPy seed, loaded through a weights Container) and data,
   every backend follows the loss trajectory of a NumPy reference (forward, backward and Adam
   written by hand in float64) within float32 tolerance, and the loss falls. Since every backend
   matches the same reference, the four backends follow the same trajectory.
2. A small convnet (Conv2D, BatchNorm2D, MaxPool2D, Linear) and an LSTM model train the same way:
   the loss falls and follows the trajectory of the same model written with torch layers and
   trained with ``torch.optim.Adam`` (in-process on torch, in a torch subprocess elsewhere); on
   torch, each layer's output at the trained weights matches torch's own layer (the single layers
   are compared with torch in ``test_fn_stateful.py``; here the trained compositions).
3. Weights trained and saved (safetensors) on torch load on jax, tensorflow, numpy and paddle,
   each in its own subprocess, and give torch's outputs.

A backend still missing a primitive these need (``value_and_grad_flat``, ``variable``, the nn
ops...) fails here with the missing name in the message.
"""

from __future__ import annotations

import numpy as np
import pytest
from _helpers import acceptance as A

import ivy
from ivy.testing.convert import native_to_numpy, to_native

STEPS = {"fc": 40, "conv": 25, "lstm": 25}
OTHER_BACKENDS = ("jax", "tensorflow", "numpy", "paddle")


def _needs_autodiff(backend):
    if backend == "numpy":
        pytest.skip("numpy has no autodiff: nothing to train")


def _require_primitives(backend, names):
    missing = [n for n in names if n not in ivy._registry.get_backend(backend).ops]
    if missing:
        pytest.fail(f"the {backend} backend lacks the primitives {missing}: acceptance cannot run")


def _close(actual, expected, *, rtol, atol):
    np.testing.assert_allclose(np.asarray(actual, np.float64), np.asarray(expected, np.float64), rtol=rtol, atol=atol)


def _train(backend, name):
    _require_primitives(backend, ["value_and_grad_flat", "variable", "relu", "sigmoid"])
    return A.train_ivy(
        backend,
        name,
        STEPS[name],
        to_native=lambda a: to_native(backend, a),
        to_numpy=lambda x: native_to_numpy(backend, x),
    )


def _falls(losses):
    assert losses[-1] < 0.8 * losses[0], f"the loss did not fall: {losses[0]} -> {losses[-1]}"


# ------------------------------------------------------------------------- 1: the paper's model


def test_acceptance_paper_fc_model_follows_the_numpy_reference_trajectory(backend):
    _needs_autodiff(backend)
    losses, model = _train(backend, "fc")
    x, t = A.data("fc")
    ref_losses, ref_w = A.np_adam_trajectory(A.init_weights("fc"), x, t, STEPS["fc"])
    _falls(losses)
    _falls(ref_losses)
    _close(losses, ref_losses, rtol=1e-4, atol=1e-6)
    got = model.v.map(lambda a, _: native_to_numpy(backend, a))
    for kc, want in A.flat(ref_w).items():
        _close(got[kc], want, rtol=1e-3, atol=1e-5)
    assert ivy.namespace(model.v.linear0.w).name == backend


def test_acceptance_paper_fc_model_first_gradients_match_numpy(backend):
    _needs_autodiff(backend)
    _require_primitives(backend, ["value_and_grad_flat"])
    x, t = A.data("fc")
    w = A.init_weights("fc")
    model = A.IvyFcModel(backend=backend)
    model.v = ivy.Container(w).map(lambda a, _: to_native(backend, a))
    xn, tn = to_native(backend, x), to_native(backend, t)
    loss, grads = ivy.execute_with_gradients(lambda v: ivy.mean((model(xn, v=v) - tn) ** 2), model.v)
    ref_loss, ref_g = A.np_fc_loss_and_grads(A._tree_map(lambda a: a.astype(np.float64), w), x.astype(np.float64), t)
    _close(native_to_numpy(backend, loss), ref_loss, rtol=1e-5, atol=1e-7)
    for kc, want in A.flat(ref_g).items():
        _close(native_to_numpy(backend, grads[kc]), want, rtol=1e-4, atol=1e-6)


# ----------------------------------------------------------------------- 2: convnet and LSTM


@pytest.mark.parametrize("name", ["conv", "lstm"])
def test_acceptance_model_trains_like_the_torch_model(backend, name, tmp_path):
    _needs_autodiff(backend)
    losses, model = _train(backend, name)
    if backend == "torch":
        ref_losses, ref_w, _ = A.torch_trajectory(name, STEPS[name])
    else:
        ref_losses, ref_w = A.torch_trajectory_in_subprocess(name, STEPS[name], str(tmp_path))
    _falls(losses)
    _close(losses, ref_losses, rtol=2e-4, atol=1e-6)
    got = model.v.map(lambda a, _: native_to_numpy(backend, a))
    for kc, want in A.flat(ref_w).items():
        _close(got[kc], want, rtol=2e-3, atol=2e-4)


@pytest.mark.parametrize("name", ["conv", "lstm"])
def test_acceptance_each_layer_of_the_trained_model_matches_torch(backend, name):
    if backend != "torch":
        pytest.skip("compares with torch's own layers: torch backend only")
    import torch

    _, model = _train(backend, name)
    weights = model.v.map(lambda a, _: native_to_numpy(backend, a)).to_dict()
    ref = A.torch_model(name, weights)
    x, _ = A.data(name, seed=7)  # fresh inputs
    for mode in ("train", "eval"):
        if mode == "eval":  # BatchNorm: the running statistics of the trained Ivy model
            model.eval()
            ref.eval()
            if name == "conv":
                with torch.no_grad():
                    ref.norm.running_mean.copy_(
                        torch.from_numpy(native_to_numpy(backend, model.state.norm.running_mean))
                    )
                    ref.norm.running_var.copy_(torch.from_numpy(native_to_numpy(backend, model.state.norm.running_var)))
        got = model.intermediates(to_native(backend, x))
        with torch.no_grad():
            want = ref.intermediates(torch.from_numpy(x))
        assert set(got) == set(want)
        for layer in want:
            _close(native_to_numpy(backend, got[layer]), want[layer].numpy(), rtol=1e-4, atol=1e-5)


# --------------------------------------------------------------- 3: weights across backends


def test_acceptance_weights_trained_on_torch_load_on_every_backend(backend, tmp_path):
    if backend != "torch":
        pytest.skip("trains and saves in the torch process; the other backends load in subprocesses")
    names = ("fc", "conv", "lstm")
    want = {}
    for name in names:
        _, model = _train(backend, name)
        model.eval()  # the convnet's batch norm: its running statistics, saved as state
        model.save_weights(tmp_path / f"{name}.safetensors")
        x, _ = A.data(name, seed=5)
        np.savez(tmp_path / f"{name}_x.npz", x=x)
        want[name] = native_to_numpy(backend, model(to_native(backend, x)))
    failures = []
    for other in OTHER_BACKENDS:  # one subprocess each: paddle must not follow tensorflow
        if other not in ivy.backends():
            failures.append(f"{other}: not installed")
            continue
        try:
            A.run_helper("evaluate", other, str(tmp_path), *names)
        except AssertionError as e:
            failures.append(f"{other}: {e}")
            continue
        for name in names:
            z = np.load(tmp_path / f"{name}_{other}.npz")
            assert str(z["backend"]) == other
            try:
                _close(z["out"], want[name], rtol=1e-5, atol=1e-6)
            except AssertionError as e:
                failures.append(f"{other}, {name}: outputs differ from torch's: {e}")
    assert not failures, "\n\n".join(failures)
