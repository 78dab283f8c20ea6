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
from typing import Any as _Any

from . import _api, _dispatch, _dtypes, _registry, nest
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
from ._context import (
    backend_namespace,
    current_backend,
    set_backend,
    unset_backend,
    use_backend,
)
from ._context import current_backend_object as _current_backend_object
from ._dtypes import DType, dtype_equal, dtype_name
from ._functional.compile import compile, compile_fn
from ._functional.gradients import execute_with_gradients, grad, jac, value_and_grad
from ._functional.optimizers import (
    adam_update,
    gradient_descent_update,
    lamb_update,
    lars_update,
)
from ._functional.random import seed
from ._namespace import ARRAY_API_VERSION as __array_api_version__
from ._namespace import CONSTANTS as _CONSTANTS
from ._namespace import Info as _Info
from ._spec import SPECS as _SPECS
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

__version__ = "0.1.0"

linalg = _api.linalg
fft = _api.fft
backends = _api.backends
namespace = _api.namespace
is_native_array = _api.is_native_array
_OPS = _api.OPS


def __array_namespace_info__() -> _Info:
    """Devices, dtypes and capabilities of the current backend, dtypes as ``ivy.DType`` names."""
    return _Info(_current_backend_object(), native=False)


#: names whose modules load on first access: the stateful API is not needed by every program
_LAZY: dict[str, tuple[str, str | None]] = {
    **{n: ("ivy._stateful", n) for n in _STATEFUL_NAMES},
    "Container": ("ivy.container", "Container"),
    "container": ("ivy.container", None),
    "safetensors": ("ivy.safetensors", None),
    "graph": ("ivy.graph", None),
    "trace_graph": ("ivy.graph", "trace_graph"),
    "Graph": ("ivy.graph", "Graph"),
    "transpile": ("ivy.transpile", None),  # a callable package: ivy.transpile(obj, to=...)
    **{
        n: ("ivy._stateful.interop", n)
        for n in ("InteropNotSupportedError", "NativeModuleWrapper", "from_native_module", "to_native_module")
    },
}


def __getattr__(name: str) -> _Any:
    if name in _OPS:  # a public op: generated once, on first access
        fn = _dispatch.public_function(name)
        globals()[name] = fn
        return fn
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        mod = importlib.import_module(module)
        value = mod if attr is None else getattr(mod, attr)
        globals()[name] = value
        return value
    # ivy.torch, ivy.jax, ...: loaded on first access (that is when the framework is imported).
    if not name.startswith("_") and name in _registry.backends():
        ns = backend_namespace(name)
        _sys.modules.setdefault(f"ivy.{name}", ns)
        globals()[name] = ns  # a loaded backend stays loaded: later lookups are plain attribute reads
        return ns
    raise AttributeError(f"module 'ivy' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _OPS | set(_LAZY) | set(_registry.backends()))


globals().update(_CONSTANTS)
# The dtypes last: `bool` and `float` shadow the builtins in this module from here on.
globals().update(_dtypes.CONSTANTS)
