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

from . import _dtypes
from ._constants import ARRAY_API_VERSION as __array_api_version__
from ._constants import CONSTANTS as _CONSTANTS
from ._dtypes import DType, dtype_equal, dtype_name
from ._stateful_names import NAMES as _STATEFUL_NAMES
from .errors import (
    BackendConflictError,
    BackendLoadError,
    BackendNotInstalledError,
    IvyError,
    MixedBackendsError,
    PluginValidationError,
    UnsupportedDTypeError,
)

# `import ivy` loads only this module, the dtype names and the exceptions; every other public name
# loads its module on first access (`__getattr__` below), so that a program pays for what it
# uses. Not `typing.TYPE_CHECKING`: importing typing would cost more than the rest of `import ivy`
# (mypy reads any constant named TYPE_CHECKING the same way).
TYPE_CHECKING = False
if TYPE_CHECKING:  # what type checkers see of the names below that load on first access
    from typing import Any as _Any

    from . import fft as fft
    from . import linalg as linalg
    from . import nest as nest
    from ._aliases import array as array
    from ._aliases import concatenate as concatenate
    from ._aliases import get_framework as get_framework
    from ._aliases import reduce_max as reduce_max
    from ._aliases import reduce_mean as reduce_mean
    from ._aliases import reduce_min as reduce_min
    from ._aliases import reduce_prod as reduce_prod
    from ._aliases import reduce_sum as reduce_sum
    from ._aliases import set_framework as set_framework
    from ._aliases import unset_framework as unset_framework
    from ._api import backends as backends
    from ._api import is_native_array as is_native_array
    from ._api import namespace as namespace
    from ._context import backend_namespace as backend_namespace
    from ._context import current_backend as current_backend
    from ._context import set_backend as set_backend
    from ._context import unset_backend as unset_backend
    from ._context import use_backend as use_backend
    from ._functional.compile import compile as compile
    from ._functional.compile import compile_fn as compile_fn
    from ._functional.gradients import execute_with_gradients as execute_with_gradients
    from ._functional.gradients import grad as grad
    from ._functional.gradients import jac as jac
    from ._functional.gradients import value_and_grad as value_and_grad
    from ._functional.optimizers import adam_update as adam_update
    from ._functional.optimizers import gradient_descent_update as gradient_descent_update
    from ._functional.optimizers import lamb_update as lamb_update
    from ._functional.optimizers import lars_update as lars_update
    from ._functional.random import seed as seed
    from ._namespace import Info as _Info

del TYPE_CHECKING  # not a public name of ivy

__version__ = "0.1.0"


def __array_namespace_info__() -> _Info:
    """Devices, dtypes and capabilities of the current backend, dtypes as ``ivy.DType`` names."""
    from ._context import current_backend_object
    from ._namespace import Info

    return Info(current_backend_object(), native=False)


def _dtype_owner(dtype: _Any) -> _Any:
    # Naming a native dtype asks the registry which backend owns it; the registry installs its own
    # finder in `_dtypes` when it loads, which this does on the first such question.
    from . import _registry

    return _registry._dtype_owner(dtype)


_dtypes._owner = _dtype_owner


def _names(module: str, *names: str) -> dict[str, tuple[str, str | None]]:
    return {n: (module, n) for n in names}


#: public name -> (the module that defines it, its attribute there; None: the module itself),
#: loaded on first access
_LAZY: dict[str, tuple[str, str | None]] = {
    "nest": ("ivy.nest", None),
    "linalg": ("ivy.linalg", None),
    "fft": ("ivy.fft", None),
    **_names("ivy._api", "backends", "namespace", "is_native_array"),
    **_names("ivy._context", "backend_namespace", "current_backend", "set_backend", "unset_backend", "use_backend"),
    **_names(
        "ivy._aliases",
        "array",
        "concatenate",
        "get_framework",
        "reduce_max",
        "reduce_mean",
        "reduce_min",
        "reduce_prod",
        "reduce_sum",
        "set_framework",
        "unset_framework",
    ),
    **_names("ivy._functional.compile", "compile", "compile_fn"),
    **_names("ivy._functional.gradients", "execute_with_gradients", "grad", "jac", "value_and_grad"),
    **_names("ivy._functional.optimizers", "adam_update", "gradient_descent_update", "lamb_update", "lars_update"),
    **_names("ivy._functional.random", "seed"),
    **_names("ivy._stateful", *_STATEFUL_NAMES),
    "Container": ("ivy.container", "Container"),
    "container": ("ivy.container", None),
    "safetensors": ("ivy.safetensors", None),
    "graph": ("ivy.graph", None),
    "trace_graph": ("ivy.graph", "trace_graph"),
    "Graph": ("ivy.graph", "Graph"),
    "transpile": ("ivy.transpile", None),  # a callable package: ivy.transpile(obj, to=...)
    **_names(
        "ivy._stateful.interop",
        "InteropNotSupportedError",
        "NativeModuleWrapper",
        "from_native_module",
        "to_native_module",
    ),
}


def __getattr__(name: str) -> _Any:
    import importlib

    spot = _LAZY.get(name)
    if spot is not None:
        module, attr = spot
        mod = importlib.import_module(module)
        value = mod if attr is None else getattr(mod, attr)
        globals()[name] = value  # later lookups are plain attribute reads
        return value
    if name.startswith("_"):
        if not name.startswith("__"):  # ivy._registry...: private modules, as once a public name loaded them
            try:
                return importlib.import_module(f"ivy.{name}")
            except ModuleNotFoundError as e:
                if e.name != f"ivy.{name}":
                    raise
        raise AttributeError(f"module 'ivy' has no attribute {name!r}")
    from . import _api, _dispatch, _registry

    if name in _api.OPS:  # a public op: generated once, on first access
        fn = _dispatch.public_function(name)
        globals()[name] = fn
        return fn
    # ivy.torch, ivy.jax, ...: loaded on first access (that is when the framework is imported).
    if name in _registry.backends():
        from ._context import backend_namespace

        ns = backend_namespace(name)
        _sys.modules.setdefault(f"ivy.{name}", ns)
        globals()[name] = ns  # a loaded backend stays loaded: later lookups are plain attribute reads
        return ns
    raise AttributeError(f"module 'ivy' has no attribute {name!r}")


def __dir__() -> list[str]:
    from . import _api, _registry

    return sorted(set(globals()) | _api.OPS | set(_LAZY) | set(_registry.backends()))


globals().update(_CONSTANTS)
# The dtypes last: `bool` and `float` shadow the builtins in this module from here on.
globals().update(_dtypes.CONSTANTS)
