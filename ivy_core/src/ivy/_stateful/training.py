"""The training loop: :class:`Trainer` (``fit`` / ``evaluate`` / ``predict``) and :func:`fit`.

``ivy.fit(model, x, y, loss=ivy.CrossEntropyLoss(from_logits=True), optimizer=ivy.Adam(1e-3),
metrics=["accuracy"], epochs=5, validation_data=(x_val, y_val))`` trains an :class:`ivy.Module` on any backend, as
Keras' ``model.fit``: epochs over batches, validation, metrics, callbacks, a progress bar, and a
returned :class:`~ivy.callbacks.History`. By default (``compile="auto"``) the training step is
compiled with :func:`ivy.compile` where that is the faster choice (jax, tensorflow: the module's
variables and buffers, the optimizer's state and the metrics' sums threaded through the compiled
program) and runs eagerly elsewhere (torch, paddle); if compiling fails, training goes on eagerly
with a warning.
"""

from __future__ import annotations

import math
import numbers
import sys
import time
import warnings
from collections.abc import Callable, Iterable, Sequence, Sized
from typing import Any

from .. import _api as ivy
from .. import _registry
from .._functional.compile import _has_compiler
from .._functional.compile import compile as _compile
from .._functional.gradients import execute_with_gradients
from ..errors import StateNotThreadedError
from . import losses as _losses
from . import metrics as _metrics
from ._compiling import StepMonitor, _CompileFailed, auto_compiles
from .callbacks import Callback, History

__all__ = ["Trainer", "fit"]


_METRIC_NAMES: dict[str, Callable[[], Any]] = {
    "accuracy": _metrics.Accuracy,
    "acc": _metrics.Accuracy,
    "binary_accuracy": _metrics.BinaryAccuracy,
    "top_5_accuracy": lambda: _metrics.TopKAccuracy(5),
    "auc": _metrics.AUC,
    "precision": _metrics.Precision,
    "recall": _metrics.Recall,
    "f1_score": _metrics.F1Score,
}


def _loss_fn(loss: Any) -> Callable[[Any, Any], Any]:
    if callable(loss):
        return loss
    aliases = {
        "mae": "mae",
        "l1": "mae",
        "mse": "mse",
        "bce": "binary_cross_entropy",
        "sparse_categorical_crossentropy": "cross_entropy",
        "categorical_crossentropy": "cross_entropy",
        "binary_crossentropy": "binary_cross_entropy",
    }
    name = aliases.get(loss, loss)
    fn = getattr(_losses, name, None) if isinstance(name, str) and name in _losses.__all__ else None
    if fn is None or isinstance(fn, type):
        raise ValueError(
            f"unknown loss {loss!r}: pass a function (true, pred) -> scalar, a loss object, or one of "
            f"{sorted(n for n in _losses.__all__ if n.islower())}"
        )
    return fn


def _metric(m: Any) -> Any:
    if isinstance(m, _metrics.Metric):
        return m
    if isinstance(m, str) and m in _METRIC_NAMES:
        return _METRIC_NAMES[m]()
    raise ValueError(f"unknown metric {m!r}: pass an ivy.metrics.Metric or one of {sorted(_METRIC_NAMES)}")


# ------------------------------------------------------------------ data


def _is_array(a: Any) -> bool:
    return ivy.is_native_array(a) or type(a).__module__ == "numpy"


def to_backend(a: Any, backend: str, device: Any = None) -> Any:
    """``a`` (a native array of any backend, a NumPy array, a list) as a native array of
    ``backend`` (a copy through NumPy when it belongs to another framework)."""
    if ivy.is_native_array(a):
        if ivy.namespace(a).name == backend:
            return a
        a = ivy.to_numpy(a)
    try:
        return ivy.asarray(a, backend=backend, device=device)
    except Exception as e:  # a 64-bit dtype the backend lacks (JAX without x64)
        import numpy as np

        arr = np.asarray(a)
        smaller = {np.dtype("int64"): np.int32, np.dtype("float64"): np.float32}.get(arr.dtype)
        if smaller is None:
            raise e
        return ivy.asarray(arr.astype(smaller), backend=backend, device=device)


class _ArrayBatches:
    """Batches of ``(x, y)`` sliced from whole arrays; with ``shuffle``, in an order drawn for each
    epoch from ``(seed, epoch)`` alone, so that a resumed ``fit`` (same seed, ``initial_epoch``)
    sees the batches the uninterrupted one would have seen."""

    def __init__(self, x: Any, y: Any, batch_size: int, shuffle: bool, seed: int | None, drop_remainder: bool):
        n = int(x.shape[0])
        if y is not None and int(y.shape[0]) != n:
            raise ValueError(f"fit: x has {n} samples, y has {int(y.shape[0])}")
        self.x, self.y, self.n = x, y, n
        self.batch_size, self.shuffle, self.drop_remainder = batch_size, shuffle, drop_remainder
        self.seed = seed
        self.epoch = 0  # set by fit before each epoch

    def __len__(self) -> int:
        return self.n // self.batch_size if self.drop_remainder else math.ceil(self.n / self.batch_size)

    def __iter__(self) -> Any:
        order = None
        if self.shuffle:
            import numpy as np

            order = np.random.default_rng([self.seed or 0, self.epoch]).permutation(self.n)
        for i in range(len(self)):
            lo, hi = i * self.batch_size, min((i + 1) * self.batch_size, self.n)
            if order is None:
                xb = self.x[lo:hi]
                yb = None if self.y is None else self.y[lo:hi]
            else:
                idx = order[lo:hi]
                xb = _take(self.x, idx)
                yb = None if self.y is None else _take(self.y, idx)
            yield (xb, yb)


def _take(a: Any, idx: Any) -> Any:
    if not ivy.is_native_array(a):
        return a[idx]
    return ivy.take(a, ivy.asarray(idx, device=ivy.dev(a), backend=ivy.namespace(a)), axis=0)


def _split_batch(batch: Any) -> tuple[Any, Any]:
    if isinstance(batch, dict):
        for xk, yk in (("x", "y"), ("inputs", "targets"), ("image", "label"), ("input", "target")):
            if xk in batch and yk in batch:
                return batch[xk], batch[yk]
        raise ValueError(f"a dict batch needs keys ('x', 'y') or similar, got {sorted(batch)}")
    if isinstance(batch, (tuple, list)) and len(batch) == 2:
        return batch[0], batch[1]
    if isinstance(batch, (tuple, list)) and len(batch) == 1:
        return batch[0], None
    raise ValueError(
        f"each batch must be (x, y), got a {type(batch).__name__}"
        f"{' of length ' + str(len(batch)) if isinstance(batch, (tuple, list)) else ''}"
    )


def _batches(x: Any, y: Any, batch_size: int, shuffle: bool, seed: int | None, drop_remainder: bool) -> Iterable[Any]:
    if y is not None or _is_array(x):
        return _ArrayBatches(x, y, batch_size, shuffle, seed, drop_remainder)
    if isinstance(x, (tuple, list)) and len(x) == 2 and _is_array(x[0]) and _is_array(x[1]):
        return _ArrayBatches(x[0], x[1], batch_size, shuffle, seed, drop_remainder)
    if not hasattr(x, "__iter__"):
        raise TypeError(
            f"fit: x must be an array (with y), or an iterable of (x, y) batches (a torch DataLoader, "
            f"a tf.data.Dataset, a list...), got {type(x).__name__}"
        )
    return x


def _split_validation(x: Any, y: Any, fraction: float) -> tuple[Any, Any, tuple[Any, Any]]:
    """``(x_train, y_train, (x_val, y_val))``: the last ``fraction`` of the samples, before any
    shuffling, held out for validation (Keras' ``validation_split``)."""
    if not (isinstance(fraction, (int, float)) and not isinstance(fraction, bool) and 0.0 < fraction < 1.0):
        raise ValueError(f"fit: validation_split must be a fraction between 0 and 1 (exclusive), got {fraction!r}")
    if y is None and isinstance(x, (tuple, list)) and len(x) == 2 and _is_array(x[0]) and _is_array(x[1]):
        x, y = x
    if not (_is_array(x) and (y is None or _is_array(y))):
        raise ValueError(
            "fit: validation_split needs array data (x and y arrays); with an iterable of batches "
            f"(got {type(x).__name__}) pass validation_data instead"
        )
    n = int(x.shape[0])
    if y is not None and int(y.shape[0]) != n:
        raise ValueError(f"fit: x has {n} samples, y has {int(y.shape[0])}")
    split = int(math.floor(n * (1.0 - fraction)))
    if split in (0, n):
        raise ValueError(
            f"fit: validation_split={fraction} of {n} samples leaves "
            f"{'no training' if split == 0 else 'no validation'} sample: pass more data or another fraction"
        )
    return x[:split], None if y is None else y[:split], (x[split:], None if y is None else y[split:])


def _count(y: Any, x: Any) -> Any:
    """The number of samples in a batch, the length of the first axis of ``y``'s first array (else
    ``x``'s): a Python int where the shape says it (eager, or a trace of static shapes), else a
    float32 0-d array computed with the batch (a compiled step of dynamic batch size)."""
    leaf = y if ivy.is_native_array(y) else None  # (the common case, without walking a nest)
    for tree in () if leaf is not None else (y, x):
        leaf = next((a for a in ivy.nest.leaves(tree) if ivy.is_native_array(a)), None)
        if leaf is not None:
            break
    if leaf is None or len(leaf.shape) == 0:
        return None
    n = leaf.shape[0]
    if type(n) is int and n >= 0:  # (not a symbolic size, None, or paddle's -1)
        return n
    first = leaf[(slice(None),) + (0,) * (len(leaf.shape) - 1)]  # one element per sample
    return ivy.sum(ivy.ones_like(ivy.astype(first, "float32")))


def placement(model: Any, x: Any) -> tuple[str, Any]:
    """``(backend, device)`` that inputs of ``model`` are converted to: those of its variables, else
    a layer's ``backend=``/``device=``, else those of ``x`` (a native array), else the current
    backend."""
    for _, m in model.modules():
        if m._own_v:
            first = next(iter(ivy.nest.leaves(m._own_v)))
            return ivy.namespace(first).name, ivy.dev(first)
    device = None
    for _, m in model.modules():
        if m._backend_arg is not None:
            b = m._backend_arg if isinstance(m._backend_arg, str) else m._backend_arg.name
            return b, m._device_arg
        device = m._device_arg
    if ivy.is_native_array(x):
        return ivy.namespace(x).name, ivy.dev(x)
    return ivy.current_backend().name, device


def inputs_for(model: Any, tree: Any) -> Any:
    """``tree`` with every array (native of any backend, or NumPy) converted to ``model``'s backend
    and device (see :func:`placement`); other leaves as they are."""
    first = next((a for a in ivy.nest.leaves(tree) if _is_array(a)), None)
    if first is None:
        return tree
    b, d = placement(model, first)
    return ivy.nest.map(lambda a: to_backend(a, b, d) if _is_array(a) else a, tree)


# ------------------------------------------------------------------ progress


class _Progress:
    """One epoch's progress: a tqdm bar when tqdm is installed, else a line of text."""

    def __init__(self, verbose: int, epoch: int, epochs: int, total: int | None) -> None:
        self.verbose, self.start = verbose, time.perf_counter()
        self.label = f"Epoch {epoch + 1}/{epochs}"
        self.bar = None
        self._last = 0.0
        if verbose == 1:
            try:
                from tqdm.auto import tqdm
            except ImportError:
                tqdm = None
            if tqdm is not None:
                self.bar = tqdm(total=total, desc=self.label, unit="batch", leave=True, file=sys.stdout)

    def due(self) -> bool:
        """Whether the bar shows new values now (at most ten times a second: reading them waits
        for the device)."""
        return self.bar is not None and time.perf_counter() - self._last > 0.1

    def batch(self, logs: dict[str, float] | None) -> None:
        if self.bar is not None:
            self.bar.update(1)
            if logs is not None:
                self._last = time.perf_counter()
                self.bar.set_postfix({k: f"{v:.4g}" for k, v in logs.items()}, refresh=False)

    def note(self, text: str | None, done: bool = False) -> None:
        """Say what the step is doing (compiling: on the bar while it does), or that it is done
        (a line of its own); ``None``: nothing any more."""
        if self.bar is not None:
            self.bar.set_description(self.label if text is None or done else f"{self.label} ({text}...)")
            if done:
                self.bar.write(f"{self.label}: {text}", file=sys.stdout)
        elif self.verbose and text is not None:
            print(f"{self.label}: {text}{'' if done else '...'}", flush=True)

    def end(self, logs: dict[str, float], batches: int) -> None:
        text = " - ".join(f"{k}: {v:.4g}" for k, v in logs.items())
        if self.bar is not None:
            self.bar.set_postfix({k: f"{v:.4g}" for k, v in logs.items()})
            self.bar.close()
        elif self.verbose:
            print(f"{self.label} - {batches} batches - {time.perf_counter() - self.start:.1f}s - {text}", flush=True)


# ------------------------------------------------------------------ trainer


class Trainer:
    """Trains ``model`` with ``loss`` and ``optimizer``, tracking ``metrics``.

    Args:
        model: an :class:`ivy.Module`.
        loss: ``loss(true, pred) -> scalar``: a function (:mod:`ivy.losses`), a loss object
            (``ivy.CrossEntropyLoss(from_logits=True)`` for a model that outputs logits), or the
            name of an :mod:`ivy.losses` function with its defaults (``"cross_entropy"`` on
            probabilities, ``"mse"``, ``"binary_cross_entropy"``...).
        optimizer: an :class:`ivy.Optimizer`.
        metrics: :class:`ivy.metrics.Metric` objects or names (``"accuracy"``, ``"auc"``...),
            logged under their ``name`` (``val_<name>`` on validation data).
        compile: ``"auto"`` (default): compile the training and evaluation steps with
            :func:`ivy.compile` on the backends where that is faster (jax, tensorflow), eager
            elsewhere (torch, paddle: a long compile, for steps measured slower or little
            faster), as Keras' ``jit_compile="auto"``; ``True``: compile (a step compiled on
            torch or paddle is then timed against the eager one over a few steps, and a
            warning names both times if it is slower); ``False``: eager; a dict: compile with
            these compiler options (``{"options": {"backend": "eager"}}`` for a cheap
            torch.compile). Backends without a compiler run eagerly. A compiled step announces
            its compiling on the progress bar, with the time it took; the last, smaller batch
            of an epoch runs eagerly, so that later epochs compile nothing.
        strategy: a data-parallel strategy of :mod:`ivy.distributed` (default: one process, one
            device).

    Attributes:
        stop_training: set by a callback to end training: after the current batch when set in
            ``on_batch_end``, else after the current epoch.
        history: the :class:`~ivy.callbacks.History` of the last :meth:`fit`.
        compiled: whether the steps run compiled (None before the first step).
        compile_count: how many times each step (``"train"``, ``"eval"``) was compiled.
        seed: the seed of the last :meth:`fit`'s shuffling.
    """

    def __init__(
        self,
        model: Any,
        loss: Any,
        optimizer: Any,
        *,
        metrics: Sequence[Any] = (),
        compile: bool | str | dict[str, Any] = "auto",
        strategy: Any = None,
    ) -> None:
        self.model, self.optimizer = model, optimizer
        self.loss = _loss_fn(loss)
        self.metrics = [_metric(m) for m in metrics]
        names = [m.name for m in self.metrics]
        if len(set(names)) != len(names) or "loss" in names:
            raise ValueError(f"metric names must be distinct and not 'loss', got {names}")
        self.loss_tracker = _metrics.Mean(name="loss")
        if not (isinstance(compile, (bool, dict)) or compile == "auto"):
            raise ValueError(f"compile must be 'auto', True, False or a dict of compiler options, got {compile!r}")
        self.compile = compile
        self.compiled: bool | None = None
        self.strategy = strategy
        self.stop_training = False
        self.history: History | None = None
        self.seed: int | None = None
        self._train_fn: Any = None
        self._eval_fn: Any = None
        self._compiled_calls = {"train": 0, "eval": 0}
        self._monitors: dict[str, StepMonitor] = {}
        self._progress: _Progress | None = None  # the epoch's, where compile messages go
        if strategy is not None:
            strategy.setup(self)

    # -- steps
    def _loss_and_pred(self, v: Any, x: Any, y: Any) -> tuple[Any, Any]:
        pred = self.model(x, v=v)
        return self.loss(y, pred), pred

    def train_step(self, x: Any, y: Any) -> Any:
        """One eager training step on a batch: forward, gradients, optimizer update, metrics;
        returns the batch loss (what :meth:`fit` compiles). A strategy runs its own."""
        if self.strategy is not None:
            return self.strategy.train_step(self, x, y)
        return self._local_train_step(x, y)

    def _local_train_step(self, x: Any, y: Any) -> Any:
        model, opt = self.model, self.optimizer
        loss, grads, pred = execute_with_gradients(lambda v: self._loss_and_pred(v, x, y), model.v)
        model.v = opt.step(model.v, grads)
        self._track(loss, x, y, pred)
        return loss

    def _track(self, loss: Any, x: Any, y: Any, pred: Any) -> None:
        """Add a batch to the running loss and metrics: the loss weighted by the batch's number of
        samples (a loss is the mean over its batch's samples), so that the logged loss is the exact
        mean over the samples whatever the batching, a last, smaller batch included (as the
        metrics, which add up their samples)."""
        self.loss_tracker.update(loss, sample_weight=_count(y, x))
        for m in self.metrics:
            m.update(y, pred)

    def eval_step(self, x: Any, y: Any) -> Any:
        """One evaluation step: forward in the model's current mode, loss and metrics."""
        pred = self.model(x)
        loss = self.loss(y, pred)
        self._track(loss, x, y, pred)
        return loss

    def _compiles(self, backend: str) -> bool:
        """Whether the steps run compiled, by ``compile`` and the backend."""
        if self.compile is False or (self.strategy is not None and not self.strategy.compiles):
            return False
        if not _has_compiler(_registry.get_backend(backend)):
            return False
        return auto_compiles(backend) if self.compile == "auto" else True

    def _step_fn(self, kind: str, x: Any = None) -> Any:
        attr = "_train_fn" if kind == "train" else "_eval_fn"
        fn = getattr(self, attr)
        if fn is None:
            eager = self.train_step if kind == "train" else self.eval_step
            backend = placement(self.model, x)[0]
            if self.compiled is None:
                self.compiled = self._compiles(backend)
            if not self.compiled:
                fn = eager
            else:
                options = self.compile if isinstance(self.compile, dict) else {}
                objs = (self.model, self.optimizer, self.metrics, self.loss_tracker, self.strategy)
                fn = _compile(_reference(eager, objs), **options)
                ready = (self.model, self.optimizer, *self.metrics, self.loss_tracker)
                # a step compiled where eager is the default is timed against the eager step
                self._monitors[kind] = StepMonitor(kind, ready, check=not auto_compiles(backend))
            setattr(self, attr, fn)
        return fn

    @property
    def compile_count(self) -> dict[str, int]:
        """How many times each compiled step (``"train"``, ``"eval"``) was compiled so far."""
        return {k: m.compiles for k, m in self._monitors.items()}

    def _run(self, kind: str, x: Any, y: Any) -> Any:
        fn = self._step_fn(kind, x)
        eager = self.train_step if kind == "train" else self.eval_step
        monitor = self._monitors.get(kind)
        if monitor is None or fn == eager:  # (a bound method: equal, not the same object)
            return fn(x, y)
        monitor.progress = self._progress
        calls = self._compiled_calls[kind]
        self._compiled_calls[kind] = calls + 1
        try:
            return monitor.call(fn, eager, x, y)
        except _CompileFailed as e:  # ivy.compile ran the step eagerly already
            out, text = e.out, str(e)
        except StateNotThreadedError:
            raise
        except Exception as e:  # the compiler failed? then the eager step works: say so
            if calls >= 2:  # compiled (or run eagerly while building) twice already: errors are the step's own
                raise
            # (an error of the step itself is raised again here, uncompiled)
            out, text = eager(x, y), f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        warnings.warn(
            f"ivy.Trainer: compiling the {kind} step failed ({text}); running it eagerly",
            RuntimeWarning,
            stacklevel=3,
        )
        setattr(self, "_train_fn" if kind == "train" else "_eval_fn", eager)
        return out

    # -- data
    def _prepare(self, batch: Any) -> tuple[Any, Any]:
        x, y = _split_batch(batch)
        b, d = placement(self.model, x)
        x = to_backend(x, b, d)
        y = None if y is None else to_backend(y, b, d)
        if self.strategy is not None:
            x, y = self.strategy.place(self, x, y)
        return x, y

    def _results(self, prefix: str = "") -> dict[str, float]:
        out = {}
        for m in (self.loss_tracker, *self.metrics):
            if m.built:
                r = m.result() if self.strategy is None else m._result(self.strategy.reduce_state(m._state))
                out[prefix + m.name] = float(ivy.to_scalar(r)) if len(r.shape) == 0 else float("nan")
        return out

    def _reset(self) -> None:
        self.loss_tracker.reset()
        for m in self.metrics:
            m.reset()

    # -- public
    def fit(
        self,
        x: Any,
        y: Any = None,
        *,
        epochs: int = 1,
        batch_size: int = 32,
        shuffle: bool = True,
        validation_data: Any = None,
        validation_split: float = 0.0,
        callbacks: Sequence[Callback] = (),
        verbose: int = 1,
        seed: int | None = None,
        drop_remainder: bool = False,
        initial_epoch: int = 0,
    ) -> History:
        """Train until epoch ``epochs`` (from epoch ``initial_epoch``).

        The logged loss and metrics of an epoch (``loss``, ``val_loss``, ``val_<metric>``...) are
        their exact means over the epoch's samples, whatever the batch size (a last, smaller batch
        counts by its number of samples); the loss function is taken to average over its batch.

        Args:
            x: inputs (a native or NumPy array, with ``y``), or an iterable of ``(x, y)`` batches:
                a list, a generator function's iterable, a ``torch.utils.data.DataLoader``, a
                ``tf.data.Dataset``... (iterated once per epoch; batches of another framework are
                converted to the model's backend).
            y: targets, with array ``x``.
            epochs: the epoch to train until (the number of epochs when ``initial_epoch`` is 0).
            batch_size: samples per batch, with array ``x`` (also of validation arrays).
            shuffle: shuffle array data each epoch, in an order drawn from ``seed`` and the epoch
                number.
            validation_data: ``(x_val, y_val)`` arrays or an iterable of batches, evaluated at
                the end of each epoch (logged as ``val_loss``, ``val_<metric>``).
            validation_split: a fraction (between 0 and 1) of array data held out for
                validation instead: the last samples of ``x`` and ``y``, before shuffling (Keras'
                ``validation_split``); not with ``validation_data``.
            callbacks: :mod:`ivy.callbacks` objects (a schedule that is a callback, such as
                :class:`~ivy.schedules.ReduceLROnPlateau`, is added by itself).
            verbose: 0 silent, 1 a progress bar per epoch (tqdm if installed, else a line), 2
                a line per epoch.
            seed: seed of the shuffling; default a fresh random one. The seed used is
                ``trainer.seed``, and :class:`~ivy.callbacks.ModelCheckpoint` stores it in its
                checkpoints (``extra["seed"]``).
            drop_remainder: drop the last, smaller batch of array data (a compiled step then
                sees one batch shape only).
            initial_epoch: the epoch to start at (from 0), to resume training: epoch numbers, the
                shuffling order, :class:`~ivy.callbacks.LearningRateScheduler` and the
                checkpoints' ``{epoch}`` continue from there (Keras' ``initial_epoch``). Resuming
                from a :class:`~ivy.callbacks.ModelCheckpoint` file ``f``:
                ``info = ivy.load_checkpoint(f, model, optimizer)``, then ``fit(...,
                initial_epoch=info["extra"]["epoch"], seed=info["extra"]["seed"])`` trains as
                the uninterrupted ``fit`` would have.

        Returns:
            The :class:`~ivy.callbacks.History` of the epochs trained (also ``trainer.history``).

        Raises:
            ValueError: an epoch got no batch; ``initial_epoch`` is negative or after
                ``epochs``; ``seed`` is not a non-negative int; ``validation_split`` is not a
                fraction, leaves no sample on a side, or comes with ``validation_data`` or with
                data that are not arrays.
        """
        integral = isinstance(initial_epoch, numbers.Integral) and not isinstance(initial_epoch, bool)
        if not integral or not 0 <= initial_epoch <= epochs:
            raise ValueError(f"fit: initial_epoch must be an int from 0 to epochs={epochs}, got {initial_epoch!r}")
        initial_epoch = int(initial_epoch)
        if validation_split:
            if validation_data is not None:
                raise ValueError("fit: pass validation_data or validation_split, not both")
            x, y, validation_data = _split_validation(x, y, validation_split)
        if seed is None:
            import secrets

            seed = secrets.randbits(63)
        elif not isinstance(seed, numbers.Integral) or isinstance(seed, bool) or seed < 0:
            raise ValueError(f"fit: seed must be a non-negative int, got {seed!r}")
        self.seed = seed = int(seed)
        data = _batches(x, y, batch_size, shuffle, seed, drop_remainder)
        val = None
        if validation_data is not None:
            pair = isinstance(validation_data, tuple) and len(validation_data) == 2 and _is_array(validation_data[0])
            x_val, y_val = validation_data if pair else (validation_data, None)
            val = _batches(x_val, y_val, batch_size, False, None, False)
        history = History()
        cbs = [history, *callbacks]
        if isinstance(self.optimizer.lr, Callback) and self.optimizer.lr not in cbs:
            cbs.append(self.optimizer.lr)
        per_batch = [cb for cb in cbs if _has_hook(cb, "on_batch_end")]
        if self.strategy is not None:
            verbose = verbose if self.strategy.is_main else 0
        self.stop_training = False
        self.model.train()
        for cb in cbs:
            cb.on_train_begin(self)
        for epoch in range(initial_epoch, epochs):
            for cb in cbs:
                cb.on_epoch_begin(epoch, self)
            self._reset()
            self.model.train()
            if isinstance(data, _ArrayBatches):
                data.epoch = epoch
            progress = _Progress(verbose, epoch, epochs, len(data) if isinstance(data, Sized) else None)
            self._progress = progress
            n = 0
            for n, batch in enumerate(data, 1):
                xb, yb = self._prepare(batch)
                loss = self._run("train", xb, yb)
                logs = None
                if per_batch or progress.due():
                    batch_loss = float(ivy.to_scalar(loss))
                    logs = self._results() if progress.due() else {"loss": batch_loss}
                    for cb in per_batch:
                        cb.on_batch_end(n - 1, {"loss": batch_loss}, self)
                progress.batch(logs)
                if self.stop_training:  # set by a batch's callback (TerminateOnNaN): the epoch ends here
                    break
            if n == 0:
                raise ValueError(
                    f"fit: epoch {epoch + 1} got no batch (an exhausted iterator? pass a re-iterable "
                    "such as a list, a DataLoader or a tf.data.Dataset)"
                )
            logs = self._results()
            if val is not None:
                logs.update(self.evaluate(val, verbose=0, _prefix="val_"))
            progress.end(logs, n)
            for cb in cbs:
                cb.on_epoch_end(epoch, logs, self)
            if self.stop_training:
                break
        for cb in cbs:
            cb.on_train_end(self)
        self.history = history
        self._progress = None
        return history

    def evaluate(
        self, x: Any, y: Any = None, *, batch_size: int = 32, verbose: int = 0, _prefix: str = ""
    ) -> dict[str, float]:
        """The loss and metrics over ``x`` (arrays with ``y``, or an iterable of batches) in
        evaluation mode, as a dict of names to values (the model's mode is restored after): their
        exact means over the samples, whatever ``batch_size``."""
        data = _batches(x, y, batch_size, False, None, False) if not isinstance(x, _ArrayBatches) else x
        modes = [(m, m.training) for _, m in self.model.modules()]
        self.model.eval()
        self._reset()
        try:
            n = 0
            for batch in data:
                xb, yb = self._prepare(batch)
                self._run("eval", xb, yb)
                n += 1
            if n == 0:
                raise ValueError("evaluate: no batch")
            out = self._results(_prefix)
        finally:
            for m, mode in modes:
                m.training = mode
        if verbose:
            print(" - ".join(f"{k}: {v:.4g}" for k, v in out.items()), flush=True)
        return out

    def predict(self, x: Any, *, batch_size: int = 32) -> Any:
        """The model's outputs on ``x`` (an array, or an iterable of batches or of ``(x, ...)``
        tuples), in evaluation mode, concatenated along the batch axis."""
        data = _ArrayBatches(x, None, batch_size, False, None, False) if _is_array(x) else x
        modes = [(m, m.training) for _, m in self.model.modules()]
        self.model.eval()
        outs = []
        try:
            for batch in data:
                xb = batch[0] if isinstance(batch, (tuple, list)) else batch
                b, d = placement(self.model, xb)
                outs.append(self.model(to_backend(xb, b, d)))
        finally:
            for m, mode in modes:
                m.training = mode
        return ivy.concat(outs, axis=0)

    def __repr__(self) -> str:
        return (
            f"Trainer(model={type(self.model).__name__}, loss={getattr(self.loss, '__name__', self.loss)!r}, "
            f"optimizer={self.optimizer!r}, metrics={[m.name for m in self.metrics]}, compile={self.compile!r})"
        )


def _has_hook(cb: Any, name: str) -> bool:
    """Whether callback ``cb`` does something in hook ``name``: its class overrides it, or the
    instance holds its own (a :class:`~ivy.callbacks.LambdaCallback`'s functions)."""
    return name in getattr(cb, "__dict__", {}) or getattr(type(cb), name) is not getattr(Callback, name)


def _reference(step: Callable[..., Any], objs: tuple[Any, ...]) -> Callable[..., Any]:
    """``step``, with ``objs`` among its defaults: where ``ivy.compile`` finds the modules,
    optimizer and metrics whose state it threads through the compiled program."""

    def compiled_step(x: Any, y: Any, _objs: tuple[Any, ...] = objs) -> Any:
        return step(x, y)

    compiled_step.__qualname__ = f"Trainer.{getattr(step, '__name__', 'step')}"
    return compiled_step


def fit(
    model: Any,
    x: Any,
    y: Any = None,
    *,
    loss: Any,
    optimizer: Any,
    metrics: Sequence[Any] = (),
    compile: bool | str | dict[str, Any] = "auto",
    strategy: Any = None,
    **fit_kwargs: Any,
) -> History:
    """``Trainer(model, loss, optimizer, metrics=..., compile=..., strategy=...).fit(x, y,
    **fit_kwargs)``: see :class:`Trainer` and :meth:`Trainer.fit`. Returns the History."""
    return Trainer(model, loss, optimizer, metrics=metrics, compile=compile, strategy=strategy).fit(x, y, **fit_kwargs)
