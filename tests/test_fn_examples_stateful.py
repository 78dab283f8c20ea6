"""The models of examples/cnn_classifier.py and examples/transformer_lm.py build and train (a few
eager steps on a small slice of their data: the loss falls) on every autodiff backend; the
scripts' one command trains to above 90% accuracy (run here with ``--quick`` on each backend)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import ivy

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fit(backend: str, model: ivy.Module, loss: object, x: np.ndarray, y: np.ndarray, metric: object) -> list[float]:
    to = lambda a: ivy.asarray(a, backend=backend)  # noqa: E731
    h = ivy.fit(
        model,
        to(x),
        to(y),
        loss=loss,
        optimizer=ivy.Adam(3e-3),
        metrics=[metric],
        epochs=3,
        batch_size=32,
        compile=backend == "jax",  # jax.jit compiles in seconds and eager JAX is slow; torch.compile takes minutes
        verbose=0,
        seed=0,
    )
    return h["loss"]


def test_fn_examples_cnn_classifier_trains(autodiff):
    ex = _load("cnn_classifier")
    ivy.seed(0)
    x, y = ex.make_data(256, seed=1)
    assert x.shape == (256, 1, 16, 16) and set(np.unique(y)) <= set(range(ex.CLASSES))
    model = ex.make_model(autodiff)
    losses = _fit(autodiff, model, ivy.CrossEntropyLoss(from_logits=True), x, y, "accuracy")
    assert losses[-1] < 0.8 * losses[0], losses


def test_fn_examples_transformer_lm_trains(autodiff):
    ex = _load("transformer_lm")
    ivy.seed(0)
    x, y = ex.make_data(128, seed=1)
    np.testing.assert_array_equal(x[:, 1:], y[:, :-1])  # the targets are the inputs shifted by one
    model = ex.TinyLM(ex.VOCAB, 32, layers=1, backend=autodiff)
    losses = _fit(autodiff, model, ex.next_token_loss, x, y, ex.PredictableAccuracy())
    assert losses[-1] < 0.9 * losses[0], losses
    logits = model(ivy.asarray(x[:2], backend=autodiff))
    assert tuple(logits.shape) == (2, ex.LENGTH, ex.VOCAB)


@pytest.mark.parametrize("script", ["cnn_classifier", "transformer_lm"])
def test_fn_examples_one_command_trains_above_90_percent(autodiff, script):
    """The script as a user runs it (``python examples/<script>.py --quick --backends <backend>``):
    the parent starts the backend's own process, which trains with the script's defaults (the
    Trainer compiles its step) and exits non-zero below 90%."""
    cmd = [sys.executable, str(EXAMPLES / f"{script}.py"), "--quick", "--backends", autodiff]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    found = re.search(rf"{autodiff}: [a-z -]*accuracy ([0-9.]+)", p.stdout)
    assert found is not None, p.stdout
    assert float(found.group(1)) > 0.9
