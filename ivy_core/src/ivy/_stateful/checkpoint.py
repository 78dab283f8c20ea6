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

    Args:
        path: the file.
        model: an :class:`ivy.Module`, built or buildable without an input.
        optimizer: an :class:`ivy.Optimizer` of the saved kind, or ``None``.
        random_state: also restore the backend's global random state, where the file holds one
            saved from a model of the same backend (another backend's draws cannot be continued).

    Returns:
        ``{"step": int, "extra": dict}``.

    Raises:
        ValueError: not a checkpoint file; the optimizer is of another kind than the saved one,
            or the file holds no optimizer state.
        KeyError, ValueError: the model's key chains or shapes differ (see
            :meth:`ivy.Module.load_weights`).
    """
    from .. import safetensors

    where = os.fspath(path)
    _, meta = safetensors.read_header(path)
    if meta.get("format") != _FORMAT:
        raise ValueError(f"{where} is not a checkpoint written by ivy.save_checkpoint")
    model._weights()  # builds the model (ModuleNotBuiltError if it needs an input first)
    arrays = safetensors.load_file(path, backend=model.backend, device=model.device)
    prefix = f"model{SEPARATOR}"
    model._load_flat({k[len(prefix) :]: x for k, x in arrays.items() if k.startswith(prefix)}, where)
    if optimizer is not None:
        kind = meta.get("optimizer")
        if kind is None:
            raise ValueError(f"{where} holds no optimizer state (it was saved without an optimizer)")
        if kind != type(optimizer).__name__:
            raise ValueError(f"{where} holds the state of {kind}, not of {type(optimizer).__name__}")
        prefix = f"optimizer{SEPARATOR}"
        order = json.loads(meta.get("optimizer_keys", "[]"))
        optimizer.load_state_dict(
            {
                "step_count": int(meta["optimizer_step_count"]),
                "micro_step": int(meta.get("optimizer_micro_step", 0)),
                "state": Container.from_flat_dict({k: arrays[prefix + k] for k in order}),
            }
        )
        if "optimizer_lr" in meta:
            optimizer.lr = float(meta["optimizer_lr"])
        if "schedule" in meta and hasattr(optimizer.lr, "load_state_dict"):
            optimizer.lr.load_state_dict(json.loads(meta["schedule"]))
    if random_state and "random_state" in meta:
        saved = json.loads(meta["random_state"])
        snapshot = _snapshot(model.backend) if saved["backend"] == model.backend else None
        if snapshot is not None:
            snapshot[1](saved["state"])
    return {"step": int(meta.get("step", 0)), "extra": json.loads(meta.get("extra", "{}"))}


def _snapshot(backend: str) -> Any:
    """The backend's ``(save, restore)`` of its global random state (the plugin contract's
    ``random_snapshot``), or None."""
    return _registry.get_backend(backend).impl.random_snapshot
