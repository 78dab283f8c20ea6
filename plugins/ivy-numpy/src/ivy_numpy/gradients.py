"""Gradient primitives. NumPy has no automatic differentiation: arrays are never tracked, so
``variable`` and ``stop_gradient`` are the identity, and the function transforms raise
:class:`ivy.errors.NoAutodiffError`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NoReturn

import numpy as np

from ivy.errors import NoAutodiffError

__all__ = ["variable", "is_variable", "stop_gradient", "value_and_grad_flat", "vjp", "jvp", "jacobian"]

_ARRAYS = (np.ndarray, np.generic)


def variable(x: np.ndarray, /) -> np.ndarray:
    # Nothing to mark: NumPy tracks no gradients, and no transform of this backend could use a mark.
    return x


def is_variable(x: Any, /, *, exclusive: bool = False) -> bool:
    # NumPy has no distinct variable kind: with `exclusive` nothing counts; without it, every
    # floating-point (real or complex) array does, as the spec says for such frameworks.
    if exclusive:
        return False
    return isinstance(x, _ARRAYS) and x.dtype.kind in "fc"


def stop_gradient(x: np.ndarray, /) -> np.ndarray:
    return x  # no gradient ever flows through a NumPy array


def _no_autodiff(what: str) -> NoReturn:
    raise NoAutodiffError(
        f"ivy.{what}: the numpy backend has no automatic differentiation. Run the computation on a "
        "backend that has it (torch, jax, tensorflow or paddle), e.g. with ivy.set_backend('jax') "
        "and arrays created by that backend."
    )


def value_and_grad_flat(
    func: Callable[..., Any], xs: Sequence[np.ndarray], /, *, has_aux: bool = False
) -> tuple[np.ndarray, list[np.ndarray], Any]:
    _no_autodiff("value_and_grad_flat")


def vjp(func: Callable[..., Any], /, *primals: np.ndarray) -> tuple[Any, Callable[..., Any]]:
    _no_autodiff("vjp")


def jvp(func: Callable[..., Any], primals: Sequence[np.ndarray], tangents: Sequence[np.ndarray], /) -> tuple[Any, Any]:
    _no_autodiff("jvp")


def jacobian(
    func: Callable[..., Any], /, *primals: np.ndarray, argnums: int | Sequence[int] = 0
) -> np.ndarray | tuple[np.ndarray, ...]:
    _no_autodiff("jacobian")
