"""Ivy: one deep-learning API that runs natively on NumPy, PyTorch, JAX, TensorFlow and PaddlePaddle.

Every ``ivy.<op>`` follows one spec (the Array API standard 2024.12 plus Ivy's own ops) and runs
on the framework of its array arguments: ops take and return native arrays. The backend of a call
is, in order: the ``backend=`` keyword; the framework of the array arguments; the backend set with
:func:`set_backend` / :func:`use_backend` in this thread or task; ``IVY_BACKEND``; the first
installed of numpy, torch, jax, tensorflow, paddle.

Backends are separate distributions (``ivy-torch``...) found through the ``ivy.backends`` entry
points; ``import ivy`` imports no framework.
"""

from __future__ import annotations

import sys as _sys
import types as _types
from typing import Any as _Any

from . import _dispatch, _registry
from ._aliases import (
    array,
    concatenate,
    get_framework,
    reduce_max,
    reduce_mean,
    reduce_min,
    reduce_prod,
    reduce_sum,
    set_framework,
    unset_framework,
)
from . import nest
from . import container, safetensors
from .container import Container
from ._stateful import *  # noqa: F403 - Module, layers, optimizers, initializers
from ._stateful import __all__ as _stateful_all
from ._stateful.interop import (
    InteropNotSupportedError,
    NativeModuleWrapper,
    from_native_module,
    to_native_module,
)
from ._functional.compile import compile, compile_fn
from ._functional.gradients import execute_with_gradients, grad, jac, value_and_grad
from ._functional.optimizers import (
    adam_update,
    gradient_descent_update,
    lamb_update,
    lars_update,
)
from ._context import (
    backend_namespace,
    current_backend,
    set_backend,
    unset_backend,
    use_backend,
)
from ._dtypes import DType, dtype_name
from ._namespace import ARRAY_API_VERSION as __array_api_version__
from ._namespace import CONSTANTS as _CONSTANTS
from ._namespace import Info as _Info
from ._spec import SPECS as _SPECS
from .errors import (
    BackendConflictError,
    BackendLoadError,
    BackendNotInstalledError,
    IvyError,
    MixedBackendsError,
    PluginValidationError,
    UnsupportedDTypeError,
)

__version__ = "0.1.0"

_public = _dispatch.build_public_functions()
linalg = _types.ModuleType("ivy.linalg", "The Array API linalg extension, dispatched like ``ivy.*``.")
fft = _types.ModuleType("ivy.fft", "The Array API fft extension, dispatched like ``ivy.*``.")
_sys.modules["ivy.linalg"] = linalg
_sys.modules["ivy.fft"] = fft
for _qual, _fn in _public.items():
    _ns, _, _short = _qual.rpartition(".")
    if _ns == "linalg":
        setattr(linalg, _short, _fn)
    elif _ns == "fft":
        setattr(fft, _short, _fn)
    else:
        globals()[_short] = _fn
linalg.__all__ = sorted(q.partition(".")[2] for q in _public if q.startswith("linalg."))  # type: ignore[attr-defined]
fft.__all__ = sorted(q.partition(".")[2] for q in _public if q.startswith("fft."))  # type: ignore[attr-defined]


def backends() -> list[str]:
    """Names of the installed backends, in preference order. Reads package metadata only."""
    return _registry.backends()


def namespace(*arrays: _Any) -> _Any:
    """The backend namespace of the given native arrays (``xp = ivy.namespace(x)``).

    Python scalars are ignored; arrays of two frameworks raise :class:`MixedBackendsError`; with no
    array at all, the current backend's namespace.
    """
    return _dispatch._infer("namespace", {}, arrays, ()).namespace


def is_native_array(x: _Any, /) -> bool:
    """Whether ``x`` is an array of an installed backend's framework (imports no framework)."""
    if type(x) in _dispatch._NEUTRAL:
        return False
    try:
        b = _registry.backend_for_type(type(x))
    except IvyError:  # an array of a framework whose plugin is not installed
        return False
    return b is not None and isinstance(x, b.array_types)


def __array_namespace_info__() -> _Info:
    """Devices, dtypes and capabilities of the current backend, dtypes as ``ivy.DType`` names."""
    from ._context import current_backend_object

    return _Info(current_backend_object(), native=False)


def __getattr__(name: str) -> _Any:
    # ivy.torch, ivy.jax, ...: loaded on first access (that is when the framework is imported).
    if not name.startswith("_") and name in _registry.backends():
        ns = backend_namespace(name)
        _sys.modules.setdefault(f"ivy.{name}", ns)
        return ns
    raise AttributeError(f"module 'ivy' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_registry.backends()))


globals().update(_CONSTANTS)
# The dtypes last: `bool` and `float` shadow the builtins in this module from here on.
for _n in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float32", "float64", "complex64", "complex128"):
    globals()[_n] = DType(_n)
del _n, _qual, _fn, _ns, _short
