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
from ._stateful_names import NAMES as _STATEFUL_NAMES
from ._functional.compile import compile, compile_fn
from ._functional.gradients import execute_with_gradients, grad, jac, value_and_grad
from ._functional.random import seed
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

def _submodule(name: str, doc: str) -> _types.ModuleType:
    mod = _types.ModuleType(f"ivy.{name}", doc)
    names = sorted(q.partition(".")[2] for q in _SPECS if q.startswith(name + "."))
    mod.__all__ = names  # type: ignore[attr-defined]

    def __getattr__(attr: str) -> _Any:  # the ops are generated on first access
        if attr in names:
            fn = _dispatch.public_function(f"{name}.{attr}")
            setattr(mod, attr, fn)
            return fn
        raise AttributeError(f"module 'ivy.{name}' has no attribute {attr!r}")

    mod.__getattr__ = __getattr__  # type: ignore[attr-defined]
    mod.__dir__ = lambda: names  # type: ignore[attr-defined]
    _sys.modules[f"ivy.{name}"] = mod
    return mod


linalg = _submodule("linalg", "The Array API linalg extension, dispatched like ``ivy.*``.")
fft = _submodule("fft", "The Array API fft extension, dispatched like ``ivy.*``.")
#: main-namespace op names, generated on first access by ``__getattr__`` below
_OPS = frozenset(q for q in _SPECS if "." not in q)


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


#: names whose modules load on first access: the stateful API is not needed by every program
_LAZY: dict[str, tuple[str, str | None]] = {
    **{n: ("ivy._stateful", n) for n in _STATEFUL_NAMES},
    "Container": ("ivy.container", "Container"),
    "container": ("ivy.container", None),
    "safetensors": ("ivy.safetensors", None),
    **{n: ("ivy._stateful.interop", n) for n in (
        "InteropNotSupportedError", "NativeModuleWrapper", "from_native_module", "to_native_module")},
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
for _n in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float32", "float64", "complex64", "complex128"):
    globals()[_n] = DType(_n)
del _n
