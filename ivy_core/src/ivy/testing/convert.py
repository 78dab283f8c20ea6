"""Conversions between NumPy and a backend's native arrays, for tests.

For the frameworks of the in-tree plugins the conversion goes through the framework's own API, not
through Ivy (tests must not trust the code they test to build their inputs or read their outputs),
and imports only that framework, lazily. Any other backend converts through its own namespace
(``xp.asarray``) and :func:`ivy.to_numpy`, so a new backend needs no registration here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["DTYPES", "to_native", "native_to_numpy", "dtype_name", "shape_of", "has_autodiff"]

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


def _np() -> Any:
    import numpy as np

    return np


def _to_torch(a: Any) -> Any:
    import torch

    return torch.from_numpy(_np().array(a, copy=True))


def _to_jax(a: Any) -> Any:
    import jax
    import jax.numpy as jnp

    # with its dtype named, jnp.asarray transfers the array; without, it compiles a program per shape
    return jnp.asarray(a, dtype=jax.dtypes.canonicalize_dtype(a.dtype))


def _to_tf(a: Any) -> Any:
    import tensorflow as tf

    return tf.constant(a)


def _to_paddle(a: Any) -> Any:
    import paddle

    return paddle.to_tensor(_np().array(a, copy=True), place=paddle.CPUPlace())


_TO_NATIVE: dict[str, Callable[[Any], Any]] = {
    "numpy": lambda a: _np().array(a, copy=True),
    "torch": _to_torch,
    "jax": _to_jax,
    "tensorflow": _to_tf,
    "paddle": _to_paddle,
}


def to_native(backend: str, a: Any, dtype: Any = None) -> Any:
    """A native array of ``backend`` with the values, shape and dtype of ``a`` (array-like).

    ``dtype`` (a NumPy dtype or name) casts ``a`` first; Python floats become float64 arrays.
    """
    np = _np()
    arr = np.asarray(a, dtype=dtype)
    conv = _TO_NATIVE.get(backend)
    if conv is not None:
        return conv(arr)
    import ivy

    xp = ivy.backend_namespace(backend)
    # through DLPack where the backend takes it (no copy of the semantics through Python lists)
    return xp.asarray(xp.from_dlpack(arr) if hasattr(arr, "__dlpack__") else arr, copy=True)


#: top-level modules of the frameworks whose dtypes the kit names by their own naming
_OWN_NAMING = frozenset({"numpy", "torch", "jax", "jaxlib", "tensorflow", "paddle", "ml_dtypes", "builtins"})


def dtype_name(dtype: Any) -> str:
    """The standard name of a native dtype ("float32").

    The dtypes of the in-tree frameworks (and NumPy's, which several share) are named by the
    framework's own naming, not through Ivy; any other backend's by its declaration
    (``BackendImpl.dtypes``, read in reverse by :func:`ivy.dtype_name`), since its framework may
    name them anything (tinygrad's float32 is ``float``).

    Raises:
        TypeError: a dtype its backend does not declare.
    """
    np = _np()
    if isinstance(dtype, str):
        name = dtype
    elif isinstance(dtype, type) and dtype.__module__.partition(".")[0] in _OWN_NAMING:
        name = np.dtype(dtype).name  # Python's and NumPy's scalar types
    elif type(dtype).__module__.partition(".")[0] in _OWN_NAMING:
        got = getattr(dtype, "name", None)
        name = (got if isinstance(got, str) else str(dtype)).rpartition(".")[2].lower()
    else:
        import ivy

        return ivy.dtype_name(dtype)
    return {"bool_": "bool", "boolean": "bool"}.get(name, name)


def shape_of(x: Any) -> tuple[int, ...]:
    """The shape of a native array as a tuple of Python ints (TF TensorShape, paddle lists...)."""
    return tuple(int(d) for d in x.shape)


def native_to_numpy(backend: str, x: Any) -> Any:
    """A NumPy copy of ``x``, a native array of ``backend`` (Python scalars pass through)."""
    np = _np()
    if isinstance(x, (bool, int, float, complex)):
        return np.asarray(x)
    if backend == "numpy":
        return np.array(x, copy=True)
    if backend == "torch":
        return x.detach().cpu().resolve_conj().resolve_neg().numpy()
    if backend == "jax":
        return np.array(x)  # a writable copy (np.asarray would be a read-only view)
    if backend in ("tensorflow", "paddle"):
        return np.asarray(x.numpy())
    import ivy

    return np.array(ivy.to_numpy(x), copy=True)


def has_autodiff(backend: str) -> bool:
    """Whether ``backend`` differentiates (its gradient ops are not missing or refusing)."""
    from ivy import _registry

    return bool(_registry.get_backend(backend).impl.autodiff)
