"""``ivy.callbacks``: hooks into :meth:`ivy.Trainer.fit` (Keras' callbacks): early stopping,
checkpoints, learning-rate changes per epoch, and the :class:`History` of logged values.

A callback overrides any of ``on_train_begin(trainer)``, ``on_epoch_begin(epoch, trainer)``,
``on_batch_end(batch, logs, trainer)``, ``on_epoch_end(epoch, logs, trainer)`` and
``on_train_end(trainer)``; ``logs`` maps names (``"loss"``, ``"accuracy"``, ``"val_loss"``...)
to Python floats. Setting ``trainer.stop_training = True`` ends training: after the batch in
``on_batch_end`` (the epoch then ends there, with its validation and ``on_epoch_end``), else after
the epoch.
"""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Callable
from typing import Any

from .. import _api

__all__ = [
    "Callback",
    "History",
    "EarlyStopping",
    "ModelCheckpoint",
    "LearningRateScheduler",
    "LambdaCallback",
    "TerminateOnNaN",
]


class Callback:
    """Base class: every hook does nothing."""

    def on_train_begin(self, trainer: Any) -> None:
        """Before the first epoch."""

    def on_epoch_begin(self, epoch: int, trainer: Any) -> None:
        """Before epoch ``epoch`` (from 0)."""

    def on_batch_end(self, batch: int, logs: dict[str, float], trainer: Any) -> None:
        """After training batch ``batch`` of the epoch; ``logs`` holds ``"loss"`` (this batch's)."""

    def on_epoch_end(self, epoch: int, logs: dict[str, float], trainer: Any) -> None:
        """After epoch ``epoch`` and its validation; ``logs`` holds the epoch's values."""

    def on_train_end(self, trainer: Any) -> None:
        """After the last epoch (also when stopped early)."""


class History(Callback):
    """The values logged at the end of each epoch: ``history.history["loss"]`` is a list with one
    float per epoch (as Keras'); ``history.epoch`` the epoch numbers. :meth:`plot` draws them."""

    def __init__(self) -> None:
        self.history: dict[str, list[float]] = {}
        self.epoch: list[int] = []

    def on_epoch_end(self, epoch: int, logs: dict[str, float], trainer: Any) -> None:
        self.epoch.append(epoch)
        for k, v in logs.items():
            self.history.setdefault(k, []).append(float(v))

    def __getitem__(self, key: str) -> list[float]:
        return self.history[key]

    def __repr__(self) -> str:
        return f"History(epochs={len(self.epoch)}, keys={sorted(self.history)})"

    def plot(self, keys: list[str] | None = None, *, ax: Any = None, path: str | os.PathLike[str] | None = None) -> Any:
        """Plot every logged value (or ``keys``) against the epoch with matplotlib, one panel per
        quantity (``loss`` with ``val_loss``, ``accuracy`` with ``val_accuracy``...).

        Args:
            keys: the quantities to plot (without the ``val_`` prefix); default all.
            ax: a matplotlib axes to draw one panel in (only with a single quantity).
            path: also save the figure there.

        Returns:
            The matplotlib figure.

        Raises:
            ImportError: matplotlib is not installed (the message gives the install line).
        """
        try:
            import matplotlib.pyplot as plt
        except ImportError as e:
            raise ImportError("History.plot needs matplotlib: pip install 'ivy-core[progress]'") from e
        names = keys or sorted({k[4:] if k.startswith("val_") else k for k in self.history})
        if ax is not None and len(names) != 1:
            raise ValueError(f"History.plot: ax= draws one quantity, {len(names)} asked ({names})")
        if ax is None:
            fig, grid = plt.subplots(1, len(names), figsize=(4.5 * len(names), 3.5), squeeze=False)
            axes = list(grid[0])
        else:
            fig, axes = ax.figure, [ax]
        for name, a in zip(names, axes):
            for k in (name, f"val_{name}"):
                if k in self.history:
                    a.plot([e + 1 for e in self.epoch], self.history[k], marker="o", label=k)
            a.set_xlabel("epoch")
            a.set_title(name)
            a.legend()
        fig.tight_layout()
        if path is not None:
            from .._atomic import atomic_write

            target = os.fspath(path)
            fmt = os.path.splitext(target)[1][1:] or plt.rcParams["savefig.format"]
            if not os.path.splitext(target)[1]:  # (as savefig names it: the format's extension added)
                target = f"{target}.{fmt}"
            with atomic_write(target) as f:
                fig.savefig(f, format=fmt)
        return fig


def _better(mode: str, min_delta: float) -> Callable[[float, float], bool]:
    if mode == "min":
        return lambda new, best: new < best - min_delta
    if mode == "max":
        return lambda new, best: new > best + min_delta
    raise ValueError(f"mode must be 'min', 'max' or 'auto', got {mode!r}")


def _mode(mode: str, monitor: str) -> str:
    if mode != "auto":
        return mode
    return "max" if any(w in monitor for w in ("acc", "auc", "precision", "recall", "f1")) else "min"


class EarlyStopping(Callback):
    """Stop training when ``monitor`` has not improved by more than ``min_delta`` for
    ``patience`` epochs (Keras' ``EarlyStopping``); optionally restore the best epoch's weights.

    Args:
        monitor: the logged value watched (``"val_loss"`` by default).
        patience: epochs without improvement tolerated.
        min_delta: the least change counted as an improvement.
        mode: ``"min"``, ``"max"`` or ``"auto"`` (``"max"`` for accuracy-like names).
        restore_best_weights: at the end, give the model the variables and buffers of the best epoch.

    Raises:
        KeyError: (at an epoch's end) ``monitor`` is not among the logged values (they are named).
    """

    def __init__(
        self,
        monitor: str = "val_loss",
        *,
        patience: int = 0,
        min_delta: float = 0.0,
        mode: str = "auto",
        restore_best_weights: bool = False,
    ) -> None:
        self.monitor, self.patience, self.min_delta = monitor, patience, abs(min_delta)
        self.mode = _mode(mode, monitor)
        self._better = _better(self.mode, self.min_delta)
        self.restore_best_weights = restore_best_weights
        self.best = math.inf if self.mode == "min" else -math.inf
        self.wait = 0
        self.stopped_epoch: int | None = None
        self._best_weights: Any = None

    def on_train_begin(self, trainer: Any) -> None:
        self.best = math.inf if self.mode == "min" else -math.inf
        self.wait, self.stopped_epoch, self._best_weights = 0, None, None

    def on_epoch_end(self, epoch: int, logs: dict[str, float], trainer: Any) -> None:
        if self.monitor not in logs:
            raise KeyError(
                f"EarlyStopping monitors {self.monitor!r}, which is not logged (logged: {sorted(logs)}); "
                "pass validation_data for val_ values"
            )
        value = logs[self.monitor]
        if self._better(value, self.best):
            self.best, self.wait = value, 0
            if self.restore_best_weights:
                self._best_weights = (trainer.model.v, trainer.model.state)
            return
        self.wait += 1
        if self.wait > self.patience:
            self.stopped_epoch = epoch
            trainer.stop_training = True

    def on_train_end(self, trainer: Any) -> None:
        if self.restore_best_weights and self._best_weights is not None:
            v, state = self._best_weights
            trainer.model.v = v
            if state:
                trainer.model.state = state


class ModelCheckpoint(Callback):
    """Write a checkpoint (model, optimizer, step and random state: :func:`ivy.save_checkpoint`) at
    the end of every epoch, or only when ``monitor`` improved (``save_best_only``).

    The checkpoint's ``extra`` holds ``{"epoch": <epochs done>, "seed": <the shuffling's seed>}``:
    what ``fit(initial_epoch=..., seed=...)`` takes to resume exactly (see :meth:`ivy.Trainer.fit`).
    Weights holding a NaN or an infinity are not written: a warning names them, and the last good
    file stays (nor do they count as the best with ``save_best_only``).

    Args:
        path: the file; ``{epoch}`` (from 1) and logged names (``{val_loss:.3f}``) are filled in.
        monitor: the logged value compared with ``save_best_only``.
        save_best_only: write only when ``monitor`` improved.
        mode: ``"min"``, ``"max"`` or ``"auto"``.
        weights_only: write the model's weights alone (:meth:`ivy.Module.save_weights`).

    Attributes:
        saved: the paths written, in order.
        skipped: the epochs (from 1) whose weights were not finite, so not written.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        monitor: str = "val_loss",
        save_best_only: bool = False,
        mode: str = "auto",
        weights_only: bool = False,
    ) -> None:
        self.path, self.monitor, self.save_best_only = os.fspath(path), monitor, save_best_only
        self.mode, self.weights_only = _mode(mode, monitor), weights_only
        self._better = _better(self.mode, 0.0)
        self.best = math.inf if self.mode == "min" else -math.inf
        self.saved: list[str] = []
        self.skipped: list[int] = []

    def on_epoch_end(self, epoch: int, logs: dict[str, float], trainer: Any) -> None:
        if self.save_best_only:
            if self.monitor not in logs:
                raise KeyError(
                    f"ModelCheckpoint monitors {self.monitor!r}, which is not logged (logged: {sorted(logs)})"
                )
            if not self._better(logs[self.monitor], self.best):
                return
        path = self.path.format(epoch=epoch + 1, **logs)
        bad = _non_finite(trainer.model)
        if bad:
            self.skipped.append(epoch + 1)
            warnings.warn(
                f"ModelCheckpoint: epoch {epoch + 1}'s weights hold NaN or infinite values "
                f"({', '.join(bad[:3])}{', ...' if len(bad) > 3 else ''}): {path} not written",
                RuntimeWarning,
                stacklevel=2,
            )
            return
        if self.save_best_only:
            self.best = logs[self.monitor]
        if self.weights_only:
            trainer.model.save_weights(path)
        else:
            from .checkpoint import save_checkpoint

            extra: dict[str, Any] = {"epoch": epoch + 1}
            if getattr(trainer, "seed", None) is not None:
                extra["seed"] = trainer.seed
            save_checkpoint(path, trainer.model, trainer.optimizer, step=trainer.optimizer.step_count, extra=extra)
        self.saved.append(path)


def _non_finite(model: Any) -> list[str]:
    """The key chains of ``model``'s floating-point variables and buffers that hold a NaN or an
    infinity."""
    ivy = _api
    bad = []
    for chain, x in model._weights().items():
        if ivy.isdtype(x.dtype, "real floating", backend=ivy.namespace(x)):
            if not bool(ivy.to_scalar(ivy.all(ivy.isfinite(x)))):
                bad.append(chain)
    return bad


class LearningRateScheduler(Callback):
    """Set the optimizer's learning rate at the start of each epoch to ``schedule(epoch)`` (or
    ``schedule(epoch, lr)`` for a function of two arguments), as Keras' callback. (A schedule of
    the step, :mod:`ivy.schedules`, goes to the optimizer's ``lr`` instead.)"""

    def __init__(self, schedule: Callable[..., float]) -> None:
        self.schedule = schedule

    def on_epoch_begin(self, epoch: int, trainer: Any) -> None:
        import inspect

        opt = trainer.optimizer
        try:
            two = len(inspect.signature(self.schedule).parameters) >= 2
        except (TypeError, ValueError):
            two = False
        opt.lr = float(self.schedule(epoch, opt.current_lr()) if two else self.schedule(epoch))


class TerminateOnNaN(Callback):
    """Stop training as soon as a batch's loss is NaN or infinite (Keras' ``TerminateOnNaN``): the
    epoch ends at that batch (its logs, validation and ``on_epoch_end`` still run, so a
    :class:`ModelCheckpoint` then refuses the non-finite weights), with a warning.

    Attributes:
        stopped: ``(epoch, batch)`` (from 0) where training was stopped, else ``None``.
    """

    def __init__(self) -> None:
        self.stopped: tuple[int, int] | None = None
        self._epoch = 0

    def on_train_begin(self, trainer: Any) -> None:
        self.stopped = None

    def on_epoch_begin(self, epoch: int, trainer: Any) -> None:
        self._epoch = epoch

    def on_batch_end(self, batch: int, logs: dict[str, float], trainer: Any) -> None:
        loss = logs.get("loss")
        if loss is not None and not math.isfinite(loss):
            self.stopped = (self._epoch, batch)
            trainer.stop_training = True
            warnings.warn(
                f"TerminateOnNaN: epoch {self._epoch + 1}, batch {batch + 1}: the loss is {loss}; training stopped",
                RuntimeWarning,
                stacklevel=2,
            )


class LambdaCallback(Callback):
    """A callback from functions: ``LambdaCallback(on_epoch_end=lambda epoch, logs, trainer: ...)``;
    the keywords are the hook names, each function taking that hook's arguments (``on_batch_end``:
    ``batch, logs, trainer``)."""

    def __init__(self, **hooks: Callable[..., Any]) -> None:
        names = {"on_train_begin", "on_epoch_begin", "on_batch_end", "on_epoch_end", "on_train_end"}
        unknown = sorted(set(hooks) - names)
        if unknown:
            raise TypeError(f"LambdaCallback takes {sorted(names)}, got {unknown}")
        for k, fn in hooks.items():
            setattr(self, k, fn)
