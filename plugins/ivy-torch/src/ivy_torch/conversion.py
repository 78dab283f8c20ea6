"""Conversion functions: to NumPy, Python scalars and lists (host copies)."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from ._helpers import Tensor

__all__ = ["to_numpy", "to_scalar", "to_list"]

_cpu = torch.device("cpu")


def to_numpy(x: Tensor, /) -> np.ndarray:
    # force=True detaches, moves to the host and resolves lazy conj/neg views
    a = x.numpy(force=True)
    return a.copy() if x.device == _cpu else a  # on the CPU numpy() shares memory: copy


def to_scalar(x: Tensor, /) -> bool | int | float | complex:
    if x.numel() != 1:
        raise ValueError(f"to_scalar: the array has {x.numel()} elements, not exactly one")
    return x.item()


def to_list(x: Tensor, /) -> Any:
    return x.tolist()
