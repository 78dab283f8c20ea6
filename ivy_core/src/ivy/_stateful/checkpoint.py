"""Training checkpoints: a model's variables and buffers, its optimizer's state and step count,
the training step and the global random state of the model's backend (what dropout and the other
random ops draw from), in one safetensors file (:func:`save_checkpoint` /
:func:`load_checkpoint`); resuming from it continues exactly as uninterrupted training."""

from __future__ import annotations

import json
import os
from typing import Any

from .. import _registry
from ..container import SEPARATOR, Container

__all__ = ["save_checkpoint", "load_checkpoint"]

_FORMAT = "ivy-checkpoint"


def save_checkpoint(
    path: str | os.PathLike[str],
    model: Any,
    optimizer: Any = None,
    *,
    step: int | None = None,
    extra: dict[str, Any] | None = None,
) -> None:
    """Write ``model`` (``v`` and ``state``), ``optimizer`` (its state, step count, a number
    learning rate or the state of a :class:`~ivy.schedules.ReduceLROnPlateau`), ``step`` and the
    global random state of the model's backend to one safetensors file. Arrays are named
    ``model/<key chain>`` and ``optimizer/<key chain>``; the random state (what the backend's plugin
    saves of it: torch's and paddle's generators, CUDA's too where in use; the JAX plugin's key;
    the TensorFlow and NumPy plugins' generators) is JSON in the metadata, so that dropout draws
    after resuming what it would have drawn without the interruption.

    Args:
        path: the file.
        model: an :class:`ivy.Module` (built).
        optimizer: an :class:`ivy.Optimizer`, or ``None``.
        step: the training step (default: the optimizer's step count, else 0).
        extra: JSON-serialisable values stored beside (an epoch number, a configuration).
    """
    from .. import safetensors

    flat = {f"model{SEPARATOR}{k}": x for k, x in model._weights().items()}
    meta: dict[str, str] = {"format": _FORMAT, "separator": SEPARATOR, "extra": json.dumps(extra or {})}
    if optimizer is not None:
        state = optimizer.state_dict()
        opt_flat = state["state"].to_flat_dict()
        flat.update({f"optimizer{SEPARATOR}{k}": x for k, x in opt_flat.items()})
        meta.update(
            optimizer=type(optimizer).__name__,
            optimizer_step_count=str(state["step_count"]),
            optimizer_micro_step=str(state.get("micro_step", 0)),
            optimizer_keys=json.dumps(list(opt_flat)),
        )
        lr = optimizer.lr
        if isinstance(lr, (int, float)) and not isinstance(lr, bool):
            meta["optimizer_lr"] = repr(float(lr))
        elif hasattr(lr, "state_dict"):
            meta["schedule"] = json.dumps(lr.state_dict())
    meta["step"] = str(step if step is not None else (optimizer.step_count if optimizer is not None else 0))
    snapshot = _snapshot(model.backend)
    if snapshot is not None:
        meta["random_state"] = json.dumps({"backend": model.backend, "state": snapshot[0]()})
    safetensors.save_file(flat, path, metadata=meta)


def load_checkpoint(
    path: str | os.PathLike[str], model: Any, optimizer: Any = None, *, random_state: bool = True
) -> dict[str, Any]:
    """Restore what :func:`save_checkpoint` wrote into ``model`` (and ``optimizer``), on the
    model's backend and device.

    The whole file is checked before anything changes: its format; the model's key chains,
    shapes and dtype kinds; the optimizer's kind, counts and state (the key chains and shapes of
    the model's variables, so another model's state is refused even where its shapes would
    broadcast); the learning rate or schedule; the random state. Then everything is assigned, and
    should an assignment still fail, what was assigned is put back: a failed load leaves the
    model, the optimizer and the random state as they were.

    Args:
        path: the file.
        model: an :class:`ivy.Module`, built or buildable without an input.
        optimizer: an :class:`ivy.Optimizer` of the saved kind, or ``None``.
        random_state: also restore the backend's global random state, where the file holds one
            saved from a model of the same backend (another backend's draws cannot be continued).

    Returns:
        ``{"step": int, "extra": dict}``.

    Raises:
        ValueError: not a checkpoint file (or not a valid safetensors file); the optimizer is of
            another kind than the saved one, or the file holds no optimizer state; a shape or a
            dtype kind differs; a metadata field is malformed. The file and the field or key chain
            are named.
        KeyError: the model's (or the optimizer state's) key chains differ (all are named).
    """
    from .. import safetensors
    from . import _restore

    where = os.fspath(path)
    header, meta = safetensors.read_header(path)
    if meta.get("format") != _FORMAT:
        raise ValueError(f"{where} is not a checkpoint written by ivy.save_checkpoint")
    current = model._weights()  # builds the model (ModuleNotBuiltError if it needs an input first)
    model_prefix, opt_prefix = f"model{SEPARATOR}", f"optimizer{SEPARATOR}"
    _restore.check(_restore.header_specs(header, model_prefix), _restore.specs(current), where, "model: ")
    step = _restore.count(meta.get("step", "0"), "step", where)
    extra = _json_field(meta, "extra", "{}", dict, where)

    opt_counts: dict[str, int] = {}
    order: list[str] = []
    lr: float | None = None
    schedule: dict[str, Any] | None = None
    if optimizer is not None:
        kind = meta.get("optimizer")
        if kind is None:
            raise ValueError(f"{where} holds no optimizer state (it was saved without an optimizer)")
        if kind != type(optimizer).__name__:
            raise ValueError(f"{where} holds the state of {kind}, not of {type(optimizer).__name__}")
        if "optimizer_step_count" not in meta:
            raise ValueError(f"{where}: the metadata has no optimizer_step_count")
        opt_counts = {
            "step_count": _restore.count(meta["optimizer_step_count"], "optimizer_step_count", where),
            "micro_step": _restore.count(meta.get("optimizer_micro_step", "0"), "optimizer_micro_step", where),
        }
        order = _restore.json_list(meta.get("optimizer_keys", "[]"), "optimizer_keys", where)
        in_file = sorted(k[len(opt_prefix) :] for k in header if k.startswith(opt_prefix))
        if sorted(order) != in_file:
            raise ValueError(f"{where}: the metadata's optimizer_keys do not list the file's optimizer arrays")
        # every state the optimizer keeps (moments, momentum) is a nest like the model's variables
        v_specs = _restore.specs(model.v.to_flat_dict())
        for name in sorted({k.split(SEPARATOR, 1)[0] for k in order}):
            found = _restore.header_specs(header, f"{opt_prefix}{name}{SEPARATOR}")
            _restore.check(found, v_specs, where, f"optimizer state {name!r}: ", "in the model's variables")
        if "optimizer_lr" in meta:
            try:
                lr = float(meta["optimizer_lr"])
            except ValueError:
                raise ValueError(
                    f"{where}: the metadata optimizer_lr is not a number: {meta['optimizer_lr']!r}"
                ) from None
        if "schedule" in meta and hasattr(optimizer.lr, "load_state_dict"):
            schedule = _json_field(meta, "schedule", "{}", dict, where)
            want = set(optimizer.lr.state_dict())
            if set(schedule) != want:
                raise ValueError(f"{where}: the saved schedule holds {sorted(schedule)}, this one {sorted(want)}")

    restore_rng = None
    saved_rng: Any = None
    if random_state and "random_state" in meta:
        saved_rng = _json_field(meta, "random_state", "{}", dict, where)
        if not isinstance(saved_rng.get("backend"), str) or "state" not in saved_rng:
            raise ValueError(f"{where}: the metadata random_state lacks its backend or state")
        snapshot = _snapshot(model.backend) if saved_rng["backend"] == model.backend else None
        restore_rng = snapshot

    # the file is sound: read the arrays, and convert them (still assigning nothing)
    arrays = safetensors.load_file(path, backend=model.backend, device=model.device)
    assign_model = model._prepare_flat(
        {k[len(model_prefix) :]: x for k, x in arrays.items() if k.startswith(model_prefix)}, where
    )
    opt_state: dict[str, Any] | None = None
    if optimizer is not None:
        opt_state = {**opt_counts, "state": Container.from_flat_dict({k: arrays[opt_prefix + k] for k in order})}
        _restore.check_optimizer_state(optimizer, opt_state["state"], where)

    undo_model = model._weights_snapshot()
    undo_opt = dict(optimizer.__dict__) if optimizer is not None else None
    sched = optimizer.lr if schedule is not None else None
    undo_sched = dict(vars(sched)) if sched is not None else None
    undo_rng = restore_rng[0]() if restore_rng is not None else None
    try:
        assign_model()
        if optimizer is not None and opt_state is not None:
            _restore.load_optimizer_state(optimizer, opt_state, where)
            if lr is not None:
                optimizer.lr = lr
            if sched is not None:
                sched.load_state_dict(schedule)
        if restore_rng is not None:
            restore_rng[1](saved_rng["state"])
    except BaseException:
        undo_model()
        if optimizer is not None and undo_opt is not None:
            optimizer.__dict__.clear()
            optimizer.__dict__.update(undo_opt)
        if sched is not None and undo_sched is not None:
            vars(sched).clear()
            vars(sched).update(undo_sched)
        if restore_rng is not None:
            restore_rng[1](undo_rng)
        raise
    return {"step": step, "extra": extra}


def _json_field(meta: dict[str, str], key: str, default: str, kind: type, where: str) -> Any:
    """A metadata field holding JSON of the type ``kind``; ValueError naming the field otherwise."""
    try:
        value = json.loads(meta.get(key, default))
    except ValueError:
        value = None
    if not isinstance(value, kind):
        raise ValueError(
            f"{where}: the metadata {key!r} is not a JSON {kind.__name__}: {meta.get(key, default)[:80]!r}"
        )
    return value


def _snapshot(backend: str) -> Any:
    """The backend's ``(save, restore)`` of its global random state (the plugin contract's
    ``random_snapshot``), or None."""
    return _registry.get_backend(backend).impl.random_snapshot
