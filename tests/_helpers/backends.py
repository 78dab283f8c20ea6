"""Framework-native conversions between NumPy and each backend's arrays.

Deliberately not through ivy: the tests must not trust the code they test to build their inputs or
read their outputs. Each converter imports only its own framework, lazily, so that a test process
never imports a framework other than the selected backend's (paddle segfaults after tensorflow).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

BACKENDS = ("numpy", "torch", "jax", "tensorflow", "paddle")

#: Every dtype of the Array API standard, in promotion-friendly order.
DTYPES = (
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float32",
    "float64",
    "complex64",
    "complex128",
)


def _to_numpy_backend(a: np.ndarray) -> Any:
    return np.array(a, copy=True)


def _to_torch(a: np.ndarray) -> Any:
    import torch

    return torch.from_numpy(np.array(a, copy=True))


def _to_jax(a: np.ndarray) -> Any:
    import jax.numpy as jnp

    return jnp.asarray(a)


def _to_tf(a: np.ndarray) -> Any:
    import tensorflow as tf

    return tf.constant(a)


def _to_paddle(a: np.ndarray) -> Any:
    import paddle

    return paddle.to_tensor(np.array(a, copy=True), place=paddle.CPUPlace())


_TO_NATIVE: dict[str, Callable[[np.ndarray], Any]] = {
    "numpy": _to_numpy_backend,
    "torch": _to_torch,
    "jax": _to_jax,
    "tensorflow": _to_tf,
    "paddle": _to_paddle,
}


def to_native(backend: str, a: Any) -> Any:
    """A native array of ``backend`` holding the values, shape and dtype of NumPy array ``a``."""
    return _TO_NATIVE[backend](np.asarray(a))


def native_to_numpy(backend: str, x: Any) -> np.ndarray:
    """A NumPy copy of native array ``x`` of ``backend``, by the framework's own means."""
    if backend == "numpy":
        return np.array(x, copy=True)
    if backend == "torch":
        return x.detach().cpu().resolve_conj().resolve_neg().numpy()
    if backend == "jax":
        return np.array(x)  # a writable copy (np.asarray would be a read-only view)
    if backend in ("tensorflow", "paddle"):
        return np.asarray(x.numpy())
    raise ValueError(backend)


def dtype_name(dtype: Any) -> str:
    """The standard name of a native dtype ("float32"), read from the framework's own naming."""
    if isinstance(dtype, str):
        name = dtype
    elif isinstance(dtype, type):  # numpy scalar types
        name = np.dtype(dtype).name
    else:
        name = getattr(dtype, "name", None)
        if not isinstance(name, str):
            name = str(dtype)
        name = name.rpartition(".")[2].lower()
    return {"bool_": "bool", "boolean": "bool"}.get(name, name)


def shape_of(x: Any) -> tuple[int, ...]:
    """The shape of a native array as a tuple of Python ints (TF TensorShape, paddle lists...)."""
    return tuple(int(d) for d in x.shape)
