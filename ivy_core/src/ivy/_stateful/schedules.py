"""``ivy.schedules``: learning-rate schedules, given to an optimizer as its ``lr``
(``ivy.AdamW(ivy.schedules.CosineDecay(1e-3, 1000, warmup_steps=100))``).

A schedule is called with the optimizer's step number ``n`` (1 for the first update) and returns
the learning rate of that update; its formulas are written in terms of ``t = n - 1``, the number
of updates before it, so the first update uses the initial rate (as torch's schedulers, and Keras'
schedules of ``optimizer.iterations``). Called with a Python int it returns a float; inside a
compiled step (:func:`ivy.compile`), where the step count is a traced scalar array, it computes
the same formula with ``ivy`` ops and returns a 0-d float32 array.

:class:`ReduceLROnPlateau` is a schedule whose rate changes with a monitored value rather than
the step: it is also a callback (:class:`ivy.callbacks.Callback`) that :meth:`ivy.Trainer.fit`
calls at the end of each epoch, and its rate is state that ``ivy.compile`` threads.
"""

from __future__ import annotations

import math
from typing import Any

from .. import _api as ivy
from .. import _tracking
from .callbacks import Callback

__all__ = ["Schedule", "StepDecay", "ExponentialDecay", "CosineDecay", "OneCycle", "ReduceLROnPlateau"]


class _MathOps:
    """The operations of the formulas on Python numbers."""

    floor = staticmethod(math.floor)
    cos = staticmethod(math.cos)
    exp = staticmethod(math.exp)

    @staticmethod
    def where(cond: Any, a: Any, b: Any) -> Any:
        return a if cond else b

    @staticmethod
    def clip(x: Any, lo: float, hi: float) -> Any:
        return min(max(x, lo), hi)


class _ArrayOps:
    """The same operations on (traced) arrays, with ``ivy``."""

    @staticmethod
    def floor(x: Any) -> Any:
        return ivy.floor(x)

    @staticmethod
    def cos(x: Any) -> Any:
        return ivy.cos(x)

    @staticmethod
    def exp(x: Any) -> Any:
        return ivy.exp(x)

    @staticmethod
    def where(cond: Any, a: Any, b: Any) -> Any:
        return ivy.where(cond, a, b)

    @staticmethod
    def clip(x: Any, lo: float, hi: float) -> Any:
        return ivy.clip(x, lo, hi)


class Schedule:
    """Base class: subclasses implement ``_rate(t, ops)``, ``t`` the number of earlier updates
    (a number or a float32 array) and ``ops`` the operations to use (floor, cos, exp, where, clip)."""

    def _rate(self, t: Any, ops: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must implement _rate")  # a subclass hook

    def __call__(self, step: Any) -> Any:
        if isinstance(step, (int, float)) and not isinstance(step, bool):
            return float(self._rate(float(step) - 1.0, _MathOps))
        t = ivy.astype(step, "float32") - 1.0
        out = self._rate(t, _ArrayOps)
        return out if ivy.is_native_array(out) else ivy.full_like(t, float(out))

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if not k.startswith("_"))
        return f"{type(self).__name__}({args})"


class StepDecay(Schedule):
    """``lr * gamma ** floor(t / step_size)`` (torch's ``StepLR``, counting updates).

    Args:
        lr: the initial learning rate.
        step_size: updates between decays (``epochs * steps_per_epoch`` for torch's epochs).
        gamma: the factor of each decay.
    """

    def __init__(self, lr: float, step_size: int, gamma: float = 0.1) -> None:
        self.lr, self.step_size, self.gamma = lr, step_size, gamma

    def _rate(self, t: Any, ops: Any) -> Any:
        return self.lr * ops.exp(ops.floor(t / self.step_size) * math.log(self.gamma))


class ExponentialDecay(Schedule):
    """``lr * decay_rate ** (t / decay_steps)`` (Keras' ``ExponentialDecay``); with ``staircase``
    the exponent is floored (torch's ``ExponentialLR`` is ``decay_steps=1``).

    Args:
        lr: the initial learning rate.
        decay_steps: updates per factor of ``decay_rate``.
        decay_rate: the decay factor.
        staircase: decay in steps rather than continuously.
    """

    def __init__(self, lr: float, decay_steps: int, decay_rate: float, *, staircase: bool = False) -> None:
        self.lr, self.decay_steps, self.decay_rate, self.staircase = lr, decay_steps, decay_rate, staircase

    def _rate(self, t: Any, ops: Any) -> Any:
        p = t / self.decay_steps
        if self.staircase:
            p = ops.floor(p)
        return self.lr * ops.exp(p * math.log(self.decay_rate))


class CosineDecay(Schedule):
    """Linear warm-up, then cosine decay (Loshchilov & Hutter, 2017): for ``t < warmup_steps``,
    ``warmup_start_lr + (lr - warmup_start_lr) t / warmup_steps``; then, with ``d = min(t -
    warmup_steps, decay_steps)``, ``final_lr + (lr - final_lr) (1 + cos(π d / decay_steps)) / 2``
    (Keras' ``CosineDecay`` with ``warmup_target=lr``, ``alpha=final_lr/lr``; torch's
    ``CosineAnnealingLR`` without warm-up, ``eta_min=final_lr``), ``final_lr`` afterwards.

    Args:
        lr: the peak learning rate.
        decay_steps: updates of the cosine decay (after the warm-up).
        warmup_steps: updates of the linear warm-up.
        warmup_start_lr: the rate of the first update of the warm-up.
        final_lr: the rate at the end of the decay.
    """

    def __init__(
        self, lr: float, decay_steps: int, *, warmup_steps: int = 0, warmup_start_lr: float = 0.0, final_lr: float = 0.0
    ) -> None:
        self.lr, self.decay_steps, self.warmup_steps = lr, decay_steps, warmup_steps
        self.warmup_start_lr, self.final_lr = warmup_start_lr, final_lr

    def _rate(self, t: Any, ops: Any) -> Any:
        d = ops.clip(t - self.warmup_steps, 0.0, float(self.decay_steps))
        cosine = self.final_lr + (self.lr - self.final_lr) * 0.5 * (1.0 + ops.cos(math.pi * d / self.decay_steps))
        if not self.warmup_steps:
            return cosine
        warm = self.warmup_start_lr + (self.lr - self.warmup_start_lr) * t / self.warmup_steps
        return ops.where(t < self.warmup_steps, warm, cosine)


class OneCycle(Schedule):
    """The one-cycle policy (Smith & Topin, 2019), as torch's ``OneCycleLR`` (without momentum
    cycling): from ``max_lr / div_factor`` up to ``max_lr`` over the first ``pct_start`` of
    ``total_steps`` updates, then down to ``max_lr / (div_factor * final_div_factor)``; with
    ``three_phase``, back to the initial rate before the final annealing. Cosine or linear
    annealing.

    Args:
        max_lr: the peak learning rate.
        total_steps: the number of updates of the cycle.
        pct_start: the fraction of the cycle spent increasing the rate.
        div_factor: initial rate ``max_lr / div_factor``.
        final_div_factor: final rate ``initial / final_div_factor``.
        anneal_strategy: ``"cos"`` or ``"linear"``.
        three_phase: torch's ``three_phase``.
    """

    def __init__(
        self,
        max_lr: float,
        total_steps: int,
        *,
        pct_start: float = 0.3,
        div_factor: float = 25.0,
        final_div_factor: float = 1e4,
        anneal_strategy: str = "cos",
        three_phase: bool = False,
    ) -> None:
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(f"OneCycle: anneal_strategy must be 'cos' or 'linear', got {anneal_strategy!r}")
        self.max_lr, self.total_steps, self.pct_start = max_lr, total_steps, pct_start
        self.div_factor, self.final_div_factor = div_factor, final_div_factor
        self.anneal_strategy, self.three_phase = anneal_strategy, three_phase

    def _phases(self) -> list[tuple[float, float, float]]:
        """``(end_step, start_rate, end_rate)`` per phase (torch's ``_schedule_phases``)."""
        initial = self.max_lr / self.div_factor
        final = initial / self.final_div_factor
        up = float(self.pct_start * self.total_steps) - 1.0
        if self.three_phase:
            return [
                (up, initial, self.max_lr),
                (2.0 * up, self.max_lr, initial),
                (self.total_steps - 1.0, initial, final),
            ]
        return [(up, initial, self.max_lr), (self.total_steps - 1.0, self.max_lr, final)]

    def _anneal(self, start: float, end: float, pct: Any, ops: Any) -> Any:
        if self.anneal_strategy == "cos":
            return end + (start - end) / 2.0 * (1.0 + ops.cos(math.pi * pct))
        return (end - start) * pct + start

    def _rate(self, t: Any, ops: Any) -> Any:
        phases = self._phases()
        out = None
        begin = 0.0
        values = []
        for end, lo, hi in phases:
            pct = ops.clip((t - begin) / (end - begin), 0.0, 1.0) if end > begin else t * 0.0 + 1.0
            values.append((end, self._anneal(lo, hi, pct, ops)))
            begin = end
        out = values[-1][1]
        for end, value in reversed(values[:-1]):  # the first phase whose end is not passed
            out = ops.where(t <= end, value, out)
        return out


class ReduceLROnPlateau(Schedule, Callback):
    """Reduce the learning rate by ``factor`` when ``monitor`` has stopped improving for
    ``patience`` epochs (torch's ``ReduceLROnPlateau``; Keras' callback). Give it to the optimizer
    as its ``lr`` and call :meth:`update` with the monitored value once per epoch;
    :meth:`ivy.Trainer.fit` does so itself (it is also a callback, reading ``monitor`` from the
    epoch's logs).

    Args:
        lr: the initial learning rate.
        monitor: the logged value watched by :meth:`on_epoch_end`.
        factor: the factor of each reduction.
        patience: epochs without improvement tolerated (a reduction on the next one).
        mode: ``"min"`` or ``"max"``.
        threshold: the least improvement that counts.
        threshold_mode: ``"rel"`` (``best * (1 ∓ threshold)``) or ``"abs"`` (``best ∓ threshold``).
        cooldown: epochs after a reduction before counting again.
        min_lr: the lowest rate.
    """

    def __init__(
        self,
        lr: float,
        *,
        monitor: str = "val_loss",
        factor: float = 0.1,
        patience: int = 10,
        mode: str = "min",
        threshold: float = 1e-4,
        threshold_mode: str = "rel",
        cooldown: int = 0,
        min_lr: float = 0.0,
    ) -> None:
        if factor >= 1.0:
            raise ValueError(f"ReduceLROnPlateau: factor must be < 1, got {factor}")
        if mode not in ("min", "max") or threshold_mode not in ("rel", "abs"):
            raise ValueError(
                f"ReduceLROnPlateau: mode must be 'min' or 'max' and threshold_mode 'rel' or 'abs', got "
                f"{mode!r}, {threshold_mode!r}"
            )
        self.lr, self.monitor, self.factor, self.patience = float(lr), monitor, factor, patience
        self.mode, self.threshold, self.threshold_mode = mode, threshold, threshold_mode
        self.cooldown, self.min_lr = cooldown, min_lr
        self.best = math.inf if mode == "min" else -math.inf
        self.num_bad_epochs = 0
        self.cooldown_counter = 0

    def _rate(self, t: Any, ops: Any) -> Any:
        return self.lr

    def __call__(self, step: Any) -> Any:
        if _tracking._session is not None:  # inside an ivy.compile'd call: is the rate threaded?
            _tracking.touch(self)
        return self.lr

    def _is_better(self, value: float) -> bool:
        if self.mode == "min":
            bound = self.best * (1.0 - self.threshold) if self.threshold_mode == "rel" else self.best - self.threshold
            return value < bound
        bound = self.best * (1.0 + self.threshold) if self.threshold_mode == "rel" else self.best + self.threshold
        return value > bound

    def update(self, value: Any) -> float:
        """Record the monitored value of an epoch; returns the learning rate from now on."""
        value = float(ivy.to_scalar(value)) if ivy.is_native_array(value) else float(value)
        if self._is_better(value):
            self.best, self.num_bad_epochs = value, 0
        else:
            self.num_bad_epochs += 1
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0
        if self.num_bad_epochs > self.patience:
            new = max(self.lr * self.factor, self.min_lr)
            if self.lr - new > 1e-8:
                self.lr = new
            self.cooldown_counter, self.num_bad_epochs = self.cooldown, 0
        return self.lr

    def on_epoch_end(self, epoch: int, logs: dict[str, float], trainer: Any) -> None:
        if self.monitor not in logs:
            raise KeyError(f"ReduceLROnPlateau monitors {self.monitor!r}, which is not logged (logged: {sorted(logs)})")
        self.update(logs[self.monitor])

    def state_dict(self) -> dict[str, Any]:
        """What resuming needs: the current rate and the plateau bookkeeping."""
        return {
            "lr": self.lr,
            "best": self.best,
            "num_bad_epochs": self.num_bad_epochs,
            "cooldown_counter": self.cooldown_counter,
        }

    def load_state_dict(self, state: dict[str, Any]) -> ReduceLROnPlateau:
        """Restore what :meth:`state_dict` returned."""
        self.lr, self.best = float(state["lr"]), float(state["best"])
        self.num_bad_epochs, self.cooldown_counter = int(state["num_bad_epochs"]), int(state["cooldown_counter"])
        return self

    # compiled programs read the rate as an input (see ivy._tracking)
    def _ivy_members(self) -> list[ReduceLROnPlateau]:
        return [self]

    def _ivy_get_state(self) -> dict[str, Any]:
        return {"lr": self.lr}

    def _ivy_set_state(self, state: dict[str, Any], *, concrete: bool = True) -> None:
        lr = state["lr"]
        if concrete and not isinstance(lr, float):
            lr = float(ivy.to_scalar(lr))
        self.lr = lr

    def _ivy_ready(self) -> bool:
        return True
