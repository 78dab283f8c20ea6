"""Learning-rate schedules (against torch's schedulers, and Keras' schedules on tensorflow), their
use with a traced step count inside ``ivy.compile``; the optimizer options (gradient clipping by
norm and value, AdamW as torch's, gradient accumulation, eager and compiled); and checkpoints
of model + optimizer + step that resume exactly."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ivy
from ivy.testing.convert import native_to_numpy, to_native

RNG = np.random.default_rng(7)


def _torch_lrs(make: Callable[[Any], Any], n: int, lr: float = 1.0) -> list[float]:
    """The learning rate of each of ``n`` optimizer updates under a torch scheduler."""
    import torch

    p = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([p], lr=lr)
    sched = make(opt)
    out = []
    for _ in range(n):
        out.append(opt.param_groups[0]["lr"])
        opt.step()
        sched.step()
    return out


def _ours(schedule: Any, n: int) -> list[float]:
    return [schedule(step) for step in range(1, n + 1)]


def test_fn_schedules_step_and_exponential_match_torch(backend):
    import torch.optim.lr_scheduler as S

    np.testing.assert_allclose(
        _ours(ivy.schedules.StepDecay(1.0, 4, 0.5), 13), _torch_lrs(lambda o: S.StepLR(o, 4, 0.5), 13), rtol=1e-12
    )
    np.testing.assert_allclose(
        _ours(ivy.schedules.ExponentialDecay(1.0, 1, 0.9), 10),
        _torch_lrs(lambda o: S.ExponentialLR(o, 0.9), 10),
        rtol=1e-12,
    )


@pytest.mark.parametrize("warmup", [0, 5])
def test_fn_schedules_cosine_with_warmup_matches_torch(backend, warmup):
    import torch.optim.lr_scheduler as S

    def make(o: Any) -> Any:
        cosine = S.CosineAnnealingLR(o, T_max=20, eta_min=0.1)
        if not warmup:
            return cosine
        return S.SequentialLR(o, [S.LinearLR(o, start_factor=0.2, total_iters=warmup), cosine], [warmup])

    ours = ivy.schedules.CosineDecay(1.0, 20, warmup_steps=warmup, warmup_start_lr=0.2, final_lr=0.1)
    np.testing.assert_allclose(_ours(ours, 30)[: warmup + 21], _torch_lrs(make, 30)[: warmup + 21], rtol=1e-9)
    assert _ours(ours, 30)[-1] == pytest.approx(0.1)  # stays at the final rate


def test_fn_schedules_match_keras(backend):
    if backend != "tensorflow":
        pytest.skip("Keras' schedules run on TensorFlow: tensorflow backend only")
    import keras

    cos = keras.optimizers.schedules.CosineDecay(0.1, 20, alpha=0.05, warmup_target=1.0, warmup_steps=5)
    exp = keras.optimizers.schedules.ExponentialDecay(1.0, 3, 0.5, staircase=True)
    ours_cos = ivy.schedules.CosineDecay(1.0, 20, warmup_steps=5, warmup_start_lr=0.1, final_lr=0.05)
    ours_exp = ivy.schedules.ExponentialDecay(1.0, 3, 0.5, staircase=True)
    steps = range(1, 30)
    np.testing.assert_allclose(_ours(ours_cos, 29), [float(cos(s - 1)) for s in steps], rtol=1e-5)
    np.testing.assert_allclose(_ours(ours_exp, 29), [float(exp(s - 1)) for s in steps], rtol=1e-6)


@pytest.mark.parametrize("kw", [{}, {"anneal_strategy": "linear"}, {"three_phase": True, "pct_start": 0.25}])
def test_fn_schedules_one_cycle_matches_torch(backend, kw):
    import torch.optim.lr_scheduler as S

    ours = ivy.schedules.OneCycle(0.5, 40, **kw)
    np.testing.assert_allclose(
        _ours(ours, 40), _torch_lrs(lambda o: S.OneCycleLR(o, 0.5, total_steps=40, **kw), 40), rtol=1e-9, atol=1e-12
    )


@pytest.mark.parametrize(
    "kw",
    [{}, {"mode": "max", "threshold_mode": "abs", "threshold": 0.05}, {"cooldown": 2, "min_lr": 0.02, "factor": 0.5}],
)
def test_fn_schedules_reduce_on_plateau_matches_torch(backend, kw):
    import torch
    from torch.optim.lr_scheduler import ReduceLROnPlateau

    values = [1.0, 0.9, 0.9, 0.95, 0.91, 0.92, 0.8, 0.81, 0.82, 0.83, 0.84, 0.85, 0.7, 0.7, 0.7, 0.7]
    p = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([p], lr=1.0)
    ref = ReduceLROnPlateau(opt, patience=2, **kw)
    ours = ivy.schedules.ReduceLROnPlateau(1.0, patience=2, **kw)
    for v in values:
        ref.step(v)
        ours.update(v)
        assert ours(7) == pytest.approx(opt.param_groups[0]["lr"])
    restored = ivy.schedules.ReduceLROnPlateau(1.0, patience=2, **kw).load_state_dict(ours.state_dict())
    assert restored.state_dict() == ours.state_dict()


def test_fn_schedules_of_a_traced_step(backend, xp):
    # inside ivy.compile the optimizer's step count is a 0-d array: the same rate, as float32
    schedules = [
        ivy.schedules.StepDecay(0.5, 3),
        ivy.schedules.ExponentialDecay(0.5, 2, 0.7),
        ivy.schedules.CosineDecay(0.5, 10, warmup_steps=3),
        ivy.schedules.OneCycle(0.5, 12),
    ]
    for s in schedules:
        for n in (1, 4, 9):
            got = s(to_native(backend, np.array(n, np.int64)))
            assert native_to_numpy(backend, got).dtype == np.float32 and tuple(got.shape) == ()
            np.testing.assert_allclose(native_to_numpy(backend, got), s(n), rtol=1e-5, err_msg=repr(s))


# ------------------------------------------------------------------ optimizer options


class MLP(ivy.Module):
    def __init__(self, **kw: Any) -> None:
        self.l0 = ivy.Linear(3, 6)
        self.l1 = ivy.Linear(6, 2)
        ivy.Module.__init__(self, **kw)

    def _forward(self, x: Any) -> Any:
        return self.l1(ivy.tanh(self.l0(x)))


W0 = {
    "l0/w": RNG.standard_normal((6, 3)).astype(np.float32),
    "l0/b": RNG.standard_normal(6).astype(np.float32),
    "l1/w": RNG.standard_normal((2, 6)).astype(np.float32),
    "l1/b": RNG.standard_normal(2).astype(np.float32),
}
XS = [RNG.standard_normal((8, 3)).astype(np.float32) for _ in range(6)]
YS = [RNG.standard_normal((8, 2)).astype(np.float32) for _ in range(6)]


def _model(backend: str) -> Any:
    m = MLP(backend=backend)
    m.v = ivy.Container.from_flat_dict({k: to_native(backend, v) for k, v in W0.items()})
    return m


def _torch_run(
    make_opt: Callable[[Any], Any], batches: list[int], clip: Callable[[Any], None] | None = None, accumulate: int = 1
) -> dict[str, np.ndarray]:
    """The same MLP trained by torch.optim on the same batches."""
    import torch

    ps = {k: torch.nn.Parameter(torch.tensor(v)) for k, v in W0.items()}
    opt = make_opt(list(ps.values()))
    for i, b in enumerate(batches):
        x, y = torch.tensor(XS[b]), torch.tensor(YS[b])
        h = torch.tanh(x @ ps["l0/w"].T + ps["l0/b"])
        loss = ((h @ ps["l1/w"].T + ps["l1/b"] - y) ** 2).mean() / accumulate
        loss.backward()
        if (i + 1) % accumulate:
            continue
        if clip:
            clip(list(ps.values()))
        opt.step()
        opt.zero_grad()
    return {k: p.detach().numpy() for k, p in ps.items()}


def _ivy_run(backend: str, opt: Any, batches: list[int], compiled: bool = False) -> tuple[Any, Any]:
    model = _model(backend)

    def step(x: Any, y: Any) -> Any:
        loss, grads = ivy.execute_with_gradients(lambda v: ivy.mse_loss(y, model(x, v=v)), model.v)
        model.v = opt.step(model.v, grads)
        return loss

    if compiled:
        step = ivy.compile(step, **({"options": {"backend": "eager"}} if backend == "torch" else {}))
    for b in batches:
        step(to_native(backend, XS[b]), to_native(backend, YS[b]))
    return model, opt


def _assert_weights(backend: str, model: Any, want: dict[str, np.ndarray], rtol: float = 1e-4) -> None:
    got = {k: native_to_numpy(backend, v) for k, v in model.v.to_flat_dict().items()}
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=rtol, atol=1e-5, err_msg=k)


def test_fn_schedules_clipping_by_norm_and_value_match_torch(autodiff):
    import torch

    backend = autodiff
    want = _torch_run(
        lambda ps: torch.optim.SGD(ps, lr=0.1), [0, 1, 2], clip=lambda ps: torch.nn.utils.clip_grad_norm_(ps, 0.5)
    )
    model, _ = _ivy_run(backend, ivy.SGD(0.1, clip_norm=0.5), [0, 1, 2])
    _assert_weights(backend, model, want)
    want = _torch_run(
        lambda ps: torch.optim.SGD(ps, lr=0.1), [0, 1, 2], clip=lambda ps: torch.nn.utils.clip_grad_value_(ps, 0.05)
    )
    model, _ = _ivy_run(backend, ivy.SGD(0.1, clip_value=0.05), [0, 1, 2])
    _assert_weights(backend, model, want)
    grads = {"a": to_native(backend, np.array([3.0, 4.0], np.float32)), "b": to_native(backend, np.float32(12.0))}
    clipped, norm = ivy.clip_grad_norm(grads, 6.5)
    assert float(native_to_numpy(backend, norm)) == pytest.approx(13.0)
    np.testing.assert_allclose(native_to_numpy(backend, clipped["a"]), [1.5, 2.0], rtol=1e-5)


def test_fn_schedules_adamw_with_a_schedule_matches_torch(autodiff):
    import torch

    backend = autodiff
    want = _torch_run(lambda ps: _with_sched(torch.optim.AdamW(ps, lr=0.05, weight_decay=0.1)), [0, 1, 2, 3, 4])
    model, _ = _ivy_run(
        backend, ivy.AdamW(ivy.schedules.StepDecay(0.05, 2, 0.5), weight_decay=0.1, epsilon=1e-8), [0, 1, 2, 3, 4]
    )
    _assert_weights(backend, model, want)


def _with_sched(opt: Any) -> Any:
    """An optimizer whose step also steps a StepLR(2, 0.5) schedule (torch's two objects as one)."""
    import torch

    sched = torch.optim.lr_scheduler.StepLR(opt, 2, 0.5)
    step = opt.step

    def stepped(*a: Any, **k: Any) -> Any:
        out = step(*a, **k)
        sched.step()
        return out

    opt.step = stepped
    return opt


@pytest.mark.parametrize("compiled", [False, True])
def test_fn_schedules_gradient_accumulation(autodiff, compiled):
    import torch

    backend = autodiff
    want = _torch_run(lambda ps: torch.optim.Adam(ps, lr=0.05, eps=1e-7), [0, 1, 2, 3, 4, 5], accumulate=3)
    model, opt = _ivy_run(backend, ivy.Adam(0.05, accumulate_steps=3), [0, 1, 2, 3, 4, 5], compiled)
    _assert_weights(backend, model, want)
    assert opt.step_count == 2 and opt.micro_step == 0
    if compiled:
        return
    model, opt = _ivy_run(backend, ivy.SGD(0.1, momentum=0.9, accumulate_steps=3), [0, 1, 2, 3, 4])
    want = _torch_run(lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9), [0, 1, 2], accumulate=3)
    _assert_weights(backend, model, want)  # the two pending micro-batches changed nothing yet
    assert opt.step_count == 1 and opt.micro_step == 2


def test_fn_schedules_inside_a_compiled_step_follow_the_traced_count(autodiff):
    backend = autodiff
    sched = ivy.schedules.CosineDecay(0.1, 4, warmup_steps=2)
    eager, _ = _ivy_run(backend, ivy.Adam(sched), [0, 1, 2, 3, 4, 5])
    compiled, opt = _ivy_run(backend, ivy.Adam(sched), [0, 1, 2, 3, 4, 5], compiled=True)
    _assert_weights(backend, compiled, {k: native_to_numpy(backend, v) for k, v in eager.v.to_flat_dict().items()})
    assert opt.step_count == 6


def test_fn_schedules_plateau_rate_changes_reach_a_compiled_step(autodiff):
    backend = autodiff
    plateau = ivy.schedules.ReduceLROnPlateau(0.1, patience=0, factor=0.5)
    model, opt = _model(backend), ivy.SGD(plateau)
    step = ivy.compile(_step_of(model, opt), **({"options": {"backend": "eager"}} if backend == "torch" else {}))
    for b in (0, 1):
        step(to_native(backend, XS[b]), to_native(backend, YS[b]))
    plateau.update(1.0)
    plateau.update(2.0)  # worse: the rate halves
    assert plateau.lr == pytest.approx(0.05) and isinstance(plateau.lr, float)
    ref = _model(backend)
    ref.v = model.v
    _, g = ivy.execute_with_gradients(
        lambda v: ivy.mse_loss(to_native(backend, YS[2]), ref(to_native(backend, XS[2]), v=v)), ref.v
    )
    want = {k: native_to_numpy(backend, v) for k, v in ivy.SGD(0.05).step(ref.v, g).to_flat_dict().items()}
    step(to_native(backend, XS[2]), to_native(backend, YS[2]))  # the same compiled program, the new rate
    _assert_weights(backend, model, want, rtol=1e-5)


def _step_of(model: Any, opt: Any) -> Callable[..., Any]:
    def step(x: Any, y: Any) -> Any:
        loss, grads = ivy.execute_with_gradients(lambda v: ivy.mse_loss(y, model(x, v=v)), model.v)
        model.v = opt.step(model.v, grads)
        return loss

    return step


# ------------------------------------------------------------------ checkpoints


class BNNet(ivy.Module):
    def __init__(self, **kw: Any) -> None:
        self.l0 = ivy.Linear(3, 6)
        self.bn = ivy.BatchNorm1D(6)
        self.l1 = ivy.Linear(6, 2)
        ivy.Module.__init__(self, **kw)

    def _forward(self, x: Any) -> Any:
        return self.l1(ivy.relu(self.bn(self.l0(x))))


def test_fn_schedules_checkpoint_resumes_exactly(autodiff, tmp_path):
    backend = autodiff

    def fresh() -> tuple[Any, Any]:
        ivy.seed(0)
        m = BNNet(backend=backend)
        return m, ivy.AdamW(ivy.schedules.CosineDecay(0.05, 8, warmup_steps=2))

    def train(m: Any, opt: Any, batches: range) -> None:
        step = _step_of(m, opt)
        for b in batches:
            step(to_native(backend, XS[b]), to_native(backend, YS[b]))

    straight, opt = fresh()
    train(straight, opt, range(6))
    first, opt1 = fresh()
    train(first, opt1, range(3))
    path = tmp_path / "ckpt.safetensors"
    ivy.save_checkpoint(path, first, opt1, extra={"epoch": 3})
    resumed, opt2 = fresh()
    resumed.build(to_native(backend, XS[0]))
    info = ivy.load_checkpoint(path, resumed, opt2)
    assert info == {"step": 3, "extra": {"epoch": 3}} and opt2.step_count == 3
    train(resumed, opt2, range(3, 6))
    for k, v in straight.v.to_flat_dict().items():
        np.testing.assert_allclose(
            native_to_numpy(backend, resumed.v.to_flat_dict()[k]),
            native_to_numpy(backend, v),
            rtol=1e-6,
            atol=1e-7,
            err_msg=k,
        )
    np.testing.assert_allclose(
        native_to_numpy(backend, resumed.state.bn.running_var),
        native_to_numpy(backend, straight.state.bn.running_var),
        rtol=1e-6,
    )
    with pytest.raises(ValueError, match="holds the state of AdamW, not of SGD"):
        ivy.load_checkpoint(path, resumed, ivy.SGD(0.1))
    ivy.save_checkpoint(path, first)
    with pytest.raises(ValueError, match="holds no optimizer state"):
        ivy.load_checkpoint(path, resumed, opt2)
    first.save_weights(tmp_path / "w.safetensors")
    with pytest.raises(ValueError, match="not a checkpoint"):
        ivy.load_checkpoint(tmp_path / "w.safetensors", resumed)


class DropNet(ivy.Module):
    def __init__(self, **kw: Any) -> None:
        self.l0 = ivy.Linear(3, 16)
        self.drop = ivy.Dropout(0.5)
        self.l1 = ivy.Linear(16, 2)
        ivy.Module.__init__(self, **kw)

    def _forward(self, x: Any) -> Any:
        return self.l1(self.drop(ivy.relu(self.l0(x))))


def _straight_and_resumed(
    backend: str,
    tmp_path: Any,
    fresh: Callable[[], tuple[Any, Any]],
    train: Callable[[Any, Any, range], None],
    n: int,
    **load: Any,
) -> tuple[tuple[Any, Any], tuple[Any, Any]]:
    """``(model, optimizer)`` trained on batches ``0..n`` uninterrupted, and trained on ``0..n/2``,
    saved, loaded into fresh objects (after another seed: only the checkpoint can bring back the
    random stream) and trained on ``n/2..n``."""
    straight = fresh()
    train(*straight, range(n))
    first = fresh()
    train(*first, range(n // 2))
    path = tmp_path / "resume.safetensors"
    ivy.save_checkpoint(path, *first)
    resumed = fresh()
    ivy.seed(1)
    ivy.load_checkpoint(path, *resumed, **load)
    train(*resumed, range(n // 2, n))
    return straight, resumed


def _flat(backend: str, m: Any) -> dict[str, np.ndarray]:
    return {k: native_to_numpy(backend, v) for k, v in m.v.to_flat_dict().items()}


def _assert_same(backend: str, a: Any, b: Any) -> None:
    want = _flat(backend, a)
    for k, v in _flat(backend, b).items():
        np.testing.assert_allclose(v, want[k], rtol=1e-6, atol=1e-7, err_msg=k)


@pytest.mark.parametrize("compiled", [False, True])
def test_fn_schedules_checkpoint_resumes_dropout_exactly(autodiff, tmp_path, compiled):
    backend = autodiff

    def fresh() -> tuple[Any, Any]:
        ivy.seed(0)
        m = DropNet(backend=backend)
        m.build(to_native(backend, XS[0]))
        return m, ivy.Adam(0.05)

    def train(m: Any, opt: Any, batches: range) -> None:
        step = _step_of(m, opt)
        if compiled:
            if backend == "torch":
                import torch

                # dynamo remembers the other batch sizes earlier tests gave this code and would
                # trace it with symbolic sizes, where torch's own dropout cannot run
                torch._dynamo.reset()
            step = ivy.compile(step, **({"options": {"backend": "eager"}} if backend == "torch" else {}))
        for b in batches:
            step(to_native(backend, XS[b]), to_native(backend, YS[b]))

    straight, resumed = _straight_and_resumed(backend, tmp_path, fresh, train, 6)
    _assert_same(backend, straight[0], resumed[0])
    if not compiled:  # without the saved random state, dropout draws other masks after resuming
        straight, other = _straight_and_resumed(backend, tmp_path, fresh, train, 6, random_state=False)
        want = _flat(backend, straight[0])
        assert any(not np.allclose(v, want[k], rtol=1e-3) for k, v in _flat(backend, other[0]).items())


def test_fn_schedules_checkpoint_restores_the_random_stream(backend, tmp_path):
    ones = to_native(backend, np.ones(64, np.float32))

    def draws() -> np.ndarray:
        return np.stack([native_to_numpy(backend, ivy.dropout(ones, 0.5)) for _ in range(2)])

    ivy.seed(3)
    draws()
    path = tmp_path / "rng.safetensors"
    ivy.save_checkpoint(path, _model(backend))
    want = draws()
    ivy.load_checkpoint(path, _model(backend))
    np.testing.assert_array_equal(draws(), want)  # the draws that followed the save, again
    ivy.load_checkpoint(path, _model(backend), random_state=False)  # the stream goes on
    assert not np.array_equal(draws(), want)


def test_fn_schedules_checkpoint_resumes_mid_accumulation_exactly(autodiff, tmp_path):
    backend = autodiff

    def fresh() -> tuple[Any, Any]:
        return _model(backend), ivy.Adam(0.05, accumulate_steps=4)

    def train(m: Any, opt: Any, batches: range) -> None:
        step = _step_of(m, opt)
        for b in batches:
            step(to_native(backend, XS[b % 6]), to_native(backend, YS[b % 6]))

    # 10 micro-batches, saved after 5: one update done, one micro-batch's gradients pending
    straight, resumed = _straight_and_resumed(backend, tmp_path, fresh, train, 10)
    _assert_same(backend, straight[0], resumed[0])
    assert (resumed[1].step_count, resumed[1].micro_step) == (straight[1].step_count, straight[1].micro_step) == (2, 2)


def test_fn_schedules_checkpoint_resumes_reduce_on_plateau_exactly(autodiff, tmp_path):
    backend = autodiff
    # the monitored value after each epoch: best, better, worse, worse (patience 1: the rate halves),
    # worse, best. Resumed after epoch 3, the best value and the count of bad epochs decide the cut.
    monitored = [1.0, 0.5, 0.6, 0.7, 0.8, 0.3]

    def fresh() -> tuple[Any, Any]:
        plateau = ivy.schedules.ReduceLROnPlateau(0.1, patience=1, factor=0.5)
        return _model(backend), ivy.SGD(plateau, momentum=0.9)

    def train(m: Any, opt: Any, epochs: range) -> None:
        step = _step_of(m, opt)
        for e in epochs:
            step(to_native(backend, XS[e]), to_native(backend, YS[e]))
            opt.lr.update(monitored[e])

    straight, resumed = _straight_and_resumed(backend, tmp_path, fresh, train, 6)
    _assert_same(backend, straight[0], resumed[0])
    assert resumed[1].lr.state_dict() == straight[1].lr.state_dict()
    assert straight[1].lr.lr == pytest.approx(0.05) and straight[1].lr.best == 0.3
