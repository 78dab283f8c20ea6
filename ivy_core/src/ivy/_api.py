"""``ivy``'s public functions for core's own upper layers (the functional and stateful API, the
paper's aliases, Container, safetensors): every op, generated on first access as ``ivy.<op>`` is
(the very same objects), and the helpers below dispatch that they need. Those layers import it as
``ivy`` (``from .. import _api as ivy``) and call ``ivy.<op>`` without importing the ``ivy``
package, which stands above them.
"""

from __future__ import annotations

from typing import Any

from . import _dispatch, _registry, fft, linalg, nest
from ._context import current_backend, set_backend, unset_backend, use_backend
from ._dtypes import DType, dtype_name
from ._spec import SPECS
from .errors import IvyError

__all__ = [
    "backends",
    "namespace",
    "is_native_array",
    "linalg",
    "fft",
    "nest",
    "DType",
    "dtype_name",
    "current_backend",
    "set_backend",
    "unset_backend",
    "use_backend",
]

#: main-namespace op names, generated on first access by ``__getattr__`` below
OPS = frozenset(q for q in SPECS if "." not in q)


def backends(details: bool = False) -> Any:
    """Names of the installed backends, in preference order. Reads package metadata only.

    With ``details=True``, a dict per backend instead: ``name``, ``distribution``,
    ``description``, ``array_modules``, ``status`` (``"loaded"``, ``"not loaded"``,
    ``"broken: why"``), ``conflicts`` (two plugins claiming one array module) and, once it is
    loaded, its coverage of the spec ops (``native``, ``composed``, ``missing``, ``total``).
    ``python -m ivy plugins`` shows the same, loading each backend.
    """
    return _registry.backend_details() if details else _registry.backends()


def namespace(*arrays: Any) -> Any:
    """The backend namespace of the given native arrays (``xp = ivy.namespace(x)``).

    Python scalars are ignored; arrays of two frameworks raise :class:`MixedBackendsError`; with no
    array at all, the current backend's namespace.
    """
    if len(arrays) == 1:
        ns = _NAMESPACES.get(type(arrays[0]))
        if ns is not None:
            return ns
    b = _dispatch._infer("namespace", {}, arrays, ())
    if len(arrays) == 1 and not b.tracing() and isinstance(arrays[0], b.array_types):
        _NAMESPACES[type(arrays[0])] = b.namespace
    return b.namespace


#: type of an array -> its backend's namespace: a table like an op's (``_dispatch.TABLES``), so
#: that it forgets a backend's types with the op tables (libraries call this once per function)
_NAMESPACES: dict[type, Any] = _dispatch.TABLES.setdefault("<namespace>", {})


def _c_namespace() -> Any:
    """``namespace`` with its common call (one array of a known type) answered in C."""
    py = namespace
    obj = _dispatch._cdispatch.TypeLookup(_NAMESPACES, py)
    for attr in ("__doc__", "__module__", "__qualname__", "__name__"):
        setattr(obj, attr, getattr(py, attr))
    obj.__wrapped__ = py  # inspect.signature reads its signature
    obj.__ivy_python__ = py  # what tracing compilers look at
    return obj


if _dispatch._cdispatch is not None:
    namespace = _c_namespace()  # the same function, its hot path in C


def is_native_array(x: Any, /) -> bool:
    """Whether ``x`` is an array of an installed backend's framework (imports no framework)."""
    if type(x) in _dispatch._NEUTRAL:
        return False
    try:
        b = _registry.backend_for_type(type(x))
    except IvyError:  # an array of a framework whose plugin is not installed
        return False
    return b is not None and isinstance(x, b.array_types)


def __getattr__(name: str) -> Any:
    if name in OPS:
        fn = _dispatch.public_function(name)
        globals()[name] = fn
        return fn
    raise AttributeError(f"module 'ivy._api' has no attribute {name!r}")
