"""Variable initializers: ``init.create(shape, fan_in=..., fan_out=..., dtype=, device=, backend=)``.

Fans: for a dense weight ``[out, in]``, ``fan_in = in`` and ``fan_out = out``; for a convolution
filter ``[*spatial, in, out]``, ``fan_in = prod(spatial) * in`` and ``fan_out = prod(spatial) * out``.
Layers pass them explicitly; :func:`fans` computes these defaults from a shape.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .. import _api as ivy

__all__ = [
    "Initializer",
    "Zeros",
    "Ones",
    "Constant",
    "Uniform",
    "RandomNormal",
    "GlorotUniform",
    "GlorotNormal",
    "KaimingUniform",
    "KaimingNormal",
    "fans",
]


def fans(shape: Sequence[int]) -> tuple[int, int]:
    """Default ``(fan_in, fan_out)``: ``[n]`` -> ``(n, n)``; ``[out, in]`` -> ``(in, out)``;
    ``[*spatial, in, out]`` -> ``(prod(spatial) * in, prod(spatial) * out)``."""
    shape = tuple(shape)
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[1], shape[0]
    field = math.prod(shape[:-2])
    return field * shape[-2], field * shape[-1]


class Initializer:
    """Base class: subclasses implement :meth:`create`."""

    def create(
        self,
        shape: Sequence[int],
        *,
        fan_in: int | None = None,
        fan_out: int | None = None,
        dtype: Any = None,
        device: Any = None,
        backend: Any = None,
    ) -> Any:
        """A new native array of ``shape``.

        Args:
            shape: the shape of the variable.
            fan_in: number of inputs per output unit; default from :func:`fans`.
            fan_out: number of outputs per input unit; default from :func:`fans`.
            dtype: default: the backend's default floating-point dtype.
            device: default: the backend's default device.
            backend: the Ivy backend; default: the current backend.
        """
        raise NotImplementedError(f"{type(self).__name__} must implement create()")

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({args})"


class Constant(Initializer):
    """Every element ``value``."""

    def __init__(self, value: float) -> None:
        self.value = value

    def create(
        self,
        shape: Sequence[int],
        *,
        fan_in: int | None = None,
        fan_out: int | None = None,
        dtype: Any = None,
        device: Any = None,
        backend: Any = None,
    ) -> Any:
        return ivy.full(tuple(shape), self.value, dtype=dtype or "float32", device=device, backend=backend)


class Zeros(Constant):
    """Every element 0."""

    def __init__(self) -> None:
        super().__init__(0.0)


class Ones(Constant):
    """Every element 1."""

    def __init__(self) -> None:
        super().__init__(1.0)


class Uniform(Initializer):
    """``U[low, high)``."""

    def __init__(self, low: float = -0.05, high: float = 0.05) -> None:
        self.low, self.high = low, high

    def create(
        self,
        shape: Sequence[int],
        *,
        fan_in: int | None = None,
        fan_out: int | None = None,
        dtype: Any = None,
        device: Any = None,
        backend: Any = None,
    ) -> Any:
        return ivy.random_uniform(
            low=self.low, high=self.high, shape=tuple(shape), dtype=dtype or "float32", device=device, backend=backend
        )


class RandomNormal(Initializer):
    """``N(mean, std²)``."""

    def __init__(self, mean: float = 0.0, std: float = 1.0) -> None:
        self.mean, self.std = mean, std

    def create(
        self,
        shape: Sequence[int],
        *,
        fan_in: int | None = None,
        fan_out: int | None = None,
        dtype: Any = None,
        device: Any = None,
        backend: Any = None,
    ) -> Any:
        return ivy.random_normal(
            mean=self.mean, std=self.std, shape=tuple(shape), dtype=dtype or "float32", device=device, backend=backend
        )


class _FanScaled(Initializer):
    """Zero-mean uniform or normal with a variance ``scale / fan`` (the fans' formulas below)."""

    def __init__(self, mode: str, distribution: str, scale: float) -> None:
        self.mode, self.distribution, self.scale = mode, distribution, scale

    def std(self, fan_in: int, fan_out: int) -> float:
        """The standard deviation for these fans."""
        fan = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        return math.sqrt(self.scale / max(fan, 1))

    def create(
        self,
        shape: Sequence[int],
        *,
        fan_in: int | None = None,
        fan_out: int | None = None,
        dtype: Any = None,
        device: Any = None,
        backend: Any = None,
    ) -> Any:
        d_in, d_out = fans(shape)
        std = self.std(d_in if fan_in is None else fan_in, d_out if fan_out is None else fan_out)
        if self.distribution == "uniform":
            bound = math.sqrt(3.0) * std  # U[-a, a] has variance a² / 3
            return Uniform(-bound, bound).create(shape, dtype=dtype, device=device, backend=backend)
        return RandomNormal(0.0, std).create(shape, dtype=dtype, device=device, backend=backend)


class GlorotUniform(_FanScaled):
    """Glorot & Bengio (2010): ``U[-a, a]``, ``a = sqrt(6 / (fan_in + fan_out))``."""

    def __init__(self) -> None:
        super().__init__("fan_avg", "uniform", 1.0)


class GlorotNormal(_FanScaled):
    """Glorot & Bengio (2010): ``N(0, 2 / (fan_in + fan_out))`` (not truncated)."""

    def __init__(self) -> None:
        super().__init__("fan_avg", "normal", 1.0)


class KaimingUniform(_FanScaled):
    """He et al. (2015): ``U[-a, a]``, ``a = gain * sqrt(3 / fan)``; ``gain = sqrt(2)`` (ReLU).

    Args:
        gain: the nonlinearity's gain (``sqrt(2)`` for ReLU, 1 for linear).
        mode: ``"fan_in"`` (preserves the forward variance) or ``"fan_out"`` (the backward one).
    """

    def __init__(self, gain: float = math.sqrt(2.0), mode: str = "fan_in") -> None:
        super().__init__(mode, "uniform", gain * gain)


class KaimingNormal(_FanScaled):
    """He et al. (2015): ``N(0, gain² / fan)``; ``gain = sqrt(2)`` (ReLU), not truncated.

    Args:
        gain: the nonlinearity's gain.
        mode: ``"fan_in"`` or ``"fan_out"``.
    """

    def __init__(self, gain: float = math.sqrt(2.0), mode: str = "fan_in") -> None:
        super().__init__(mode, "normal", gain * gain)
