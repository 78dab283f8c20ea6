"""How ``ivy.fit`` compiles its steps: ``compile="auto"`` per backend, one program per step for
every epoch (a last, smaller batch and a learning rate changed between epochs compile nothing
again), the compile messages of the progress output, and ``ivy.compile`` running eagerly, with a
warning, where the framework's compiler crashes."""

from __future__ import annotations

import re
import warnings
from typing import Any

import numpy as np
import pytest

import ivy
from ivy.testing.convert import native_to_numpy, to_native

RNG = np.random.default_rng(11)
X = RNG.standard_normal((40, 4)).astype(np.float32)  # batches of 16, 16, 8
Y = (X[:, 0] - X[:, 2] > 0).astype(np.int64)
XV, YV = X[:20], Y[:20]  # validation batches of 16, 4

#: Whether fit compiles by default: where the compiled step is the faster (jax.jit, tf.function),
#: not where it measured slower after a long compile (torch.compile, paddle's to_static).
AUTO = {"jax": True, "tensorflow": True, "torch": False, "paddle": False}


def _model(backend: str) -> Any:
    return ivy.Sequential(ivy.Linear(4, 8), ivy.Tanh(), ivy.Linear(8, 2), backend=backend)


def _compile_option(backend: str) -> Any:
    if AUTO.get(backend):
        return "auto"
    if backend == "torch":
        return {"options": {"backend": "eager"}}  # dynamo's tracing without inductor's minutes
    pytest.skip(f"{backend}: fit runs eagerly by default, and its compiler takes long on this machine")


def test_fn_training_compile_auto_chooses_per_backend(autodiff):
    backend = autodiff
    tr = ivy.Trainer(_model(backend), ivy.CrossEntropyLoss(from_logits=True), ivy.SGD(0.1))
    assert tr.compile == "auto" and tr.compiled is None
    tr.fit(X, Y, epochs=1, batch_size=40, verbose=0)
    assert tr.compiled is AUTO.get(backend, False)
    assert (tr._train_fn == tr.train_step) is not tr.compiled
    with pytest.raises(ValueError, match="compile must be 'auto', True, False"):
        ivy.Trainer(_model(backend), "mse", ivy.SGD(0.1), compile="yes")


def _same_weights(backend: str, model: Any) -> Any:
    """A model of the same architecture with ``model``'s weights (copies)."""
    twin = _model(backend)
    twin.v = ivy.Container.from_flat_dict(
        {k: to_native(backend, native_to_numpy(backend, a)) for k, a in model.v.to_flat_dict().items()}
    )
    return twin


def test_fn_training_compile_once_whatever_the_last_batch_and_the_rate(autodiff):
    """Epochs with a last, smaller batch, validated, with the learning rate changed each epoch
    (a Python float): each step compiles once, in the first epoch, never again; the results are
    the eager ones."""
    backend = autodiff
    option = _compile_option(backend)
    full_calls: list[int] = []  # Python calls of the loss on a full batch: eager ones and traces
    ce = ivy.CrossEntropyLoss(from_logits=True)

    def loss(true: Any, pred: Any) -> Any:
        if pred.shape[0] == 16:  # a program compiled by jax.jit or tf.function runs no Python
            full_calls.append(1)
        return ce(true, pred)

    def traces() -> int:
        if backend == "torch":  # (dynamo guards on the list that loss appends to): count its graphs
            from torch._dynamo.utils import counters

            return counters["stats"]["unique_graphs"]
        return len(full_calls)

    seen: list[int] = []

    class Epoch(ivy.callbacks.Callback):
        def on_epoch_end(self, e: int, logs: Any, trainer: Any) -> None:
            seen.append(traces())

    def rates() -> Any:
        return ivy.callbacks.LearningRateScheduler(lambda e: 0.1 / (e + 1))

    model = _model(backend)
    model(to_native(backend, X[:1]))
    twin = _same_weights(backend, model)
    runs = []
    for m, option_, cbs in ((model, option, [Epoch(), rates()]), (twin, False, [rates()])):
        counted = loss if option_ and backend != "torch" else ce
        tr = ivy.Trainer(m, counted, ivy.Adam(0.1), metrics=["accuracy"], compile=option_)
        runs.append(tr.fit(X, Y, epochs=3, batch_size=16, validation_data=(XV, YV), callbacks=cbs, verbose=0, seed=0))
        if option_:
            assert tr.compiled
            assert len(seen) == 3 and seen[0] == seen[1] == seen[2], seen  # nothing traced after the first epoch
            assert tr.compile_count == {"train": 1, "eval": 1}
    for k, v in runs[1].history.items():
        np.testing.assert_allclose(runs[0].history[k], v, rtol=1e-4, err_msg=k)


def test_fn_training_compile_says_when_it_compiles(autodiff, capsys):
    backend = autodiff
    option = _compile_option(backend)
    for verbose in (2, 1):  # lines of text; tqdm's bar (installed here) and its lines
        tr = ivy.Trainer(_model(backend), ivy.CrossEntropyLoss(from_logits=True), ivy.SGD(0.1), compile=option)
        tr.fit(X, Y, epochs=2, batch_size=16, validation_data=(XV, YV), verbose=verbose)
        out = capsys.readouterr().out
        for kind in ("train", "eval"):
            if verbose == 2:
                assert f"Epoch 1/2: compiling the {kind} step..." in out
            assert re.search(rf"Epoch 1/2: compiled the {kind} step in \d+\.\d s", out), out
        assert "Epoch 2/2: compil" not in out  # the second epoch compiles nothing
    tr = ivy.Trainer(_model(backend), ivy.CrossEntropyLoss(from_logits=True), ivy.SGD(0.1), compile=False)
    tr.fit(X, Y, epochs=1, batch_size=16, verbose=2)
    assert "compil" not in capsys.readouterr().out


def test_fn_training_compile_runs_eagerly_where_the_compiler_crashes(autodiff, monkeypatch):
    """A compiler that crashes (a SystemError, as paddle's to_static on some steps) makes
    ``ivy.compile`` run the step eagerly, with a warning naming the error; no crash."""
    backend = autodiff
    from ivy._functional import compile as compile_mod

    def crashing(b: Any, fn: Any, options: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            raise SystemError("(Fatal) Invalid rank for GradTensorHolder::add()")

        return run

    monkeypatch.setattr(compile_mod, "_compiler", crashing)
    monkeypatch.setattr(compile_mod, "_has_compiler", lambda b: True)
    model, ref = _model(backend), _model(backend)
    x, y = to_native(backend, X[:8]), to_native(backend, Y[:8])
    model(x)
    ref.v = ivy.Container.from_flat_dict(
        {k: to_native(backend, native_to_numpy(backend, a)) for k, a in model.v.to_flat_dict().items()}
    )
    opt, ref_opt = ivy.SGD(0.1), ivy.SGD(0.1)
    ce = ivy.CrossEntropyLoss(from_logits=True)

    def make(m: Any, o: Any) -> Any:
        def step(x: Any, y: Any) -> Any:
            loss, grads = ivy.execute_with_gradients(lambda v: ce(y, m(x, v=v)), m.v)
            m.v = o.step(m.v, grads)
            return loss

        return step

    step = ivy.compile(make(model, opt))
    with pytest.warns(ivy.errors.CompileFailedWarning, match=r"failed \(SystemError: \(Fatal\) Invalid rank.*eagerly"):
        first = step(x, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        second = step(x, y)  # eagerly from now on, without a new warning
    eager = make(ref, ref_opt)
    want = [eager(x, y), eager(x, y)]
    np.testing.assert_allclose(
        [float(ivy.to_scalar(first)), float(ivy.to_scalar(second))], [float(ivy.to_scalar(w)) for w in want], rtol=1e-6
    )

    def own_error(a: Any) -> Any:
        raise ValueError("the function's own error")

    with pytest.raises(ValueError, match="the function's own error"):  # raised eagerly too: raised
        ivy.compile(own_error)(x)


def test_fn_training_compile_a_reshaping_model_inside_a_compiled_gradient(autodiff):
    """A step that differentiates through ``Reshape`` compiles and equals the eager step (on torch,
    dynamo broke its graph on the layer's size check, and a graph break inside the step's
    ``torch.func.grad`` then failed to compile)."""
    backend = autodiff
    options = _compile_option(backend)
    options = options if isinstance(options, dict) else {}
    layers = lambda: (ivy.Linear(4, 6), ivy.Reshape((2, 3)), ivy.Tanh(), ivy.Flatten(), ivy.Linear(6, 2))  # noqa: E731
    model, ref = ivy.Sequential(*layers(), backend=backend), ivy.Sequential(*layers(), backend=backend)
    ref.v = ivy.Container.from_flat_dict(
        {k: to_native(backend, native_to_numpy(backend, a)) for k, a in model.v.to_flat_dict().items()}
    )
    x, y = to_native(backend, X[:8]), to_native(backend, Y[:8])
    ce = ivy.CrossEntropyLoss(from_logits=True)

    def step(m: Any, o: Any, x: Any, y: Any) -> Any:
        loss, grads = ivy.execute_with_gradients(lambda v: ce(y, m(x, v=v)), m.v)
        m.v = o.step(m.v, grads)
        return loss

    compiled, opt, ref_opt = ivy.compile(step, **options), ivy.SGD(0.1), ivy.SGD(0.1)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # no fallback to eager
        got = [float(ivy.to_scalar(compiled(model, opt, x, y))) for _ in range(2)]
    want = [float(ivy.to_scalar(step(ref, ref_opt, x, y))) for _ in range(2)]
    np.testing.assert_allclose(got, want, rtol=1e-5)
