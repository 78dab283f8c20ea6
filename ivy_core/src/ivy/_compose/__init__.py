"""Composed ops: implementations written once, against an Array API namespace ``xp``.

A composed op is a spec whose default implementation lives here, in a module named after the spec
category (``nn.py`` for ``_spec/nn.py``). When a backend loads, every composed op that the plugin
does not implement natively is bound to the backend's namespace. The composition then calls the
plugin's functions directly (``xp.exp``), with no dispatch inside, and appears in that backend's
op table and namespace like any native op. A plugin that implements the op itself (e.g.
``softmax = torch.softmax``) overrides the default.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._codegen import call_args, param_source
from .._spec import SPECS
from ..errors import MissingOpError

if TYPE_CHECKING:
    from .._namespace import BackendNamespace

__all__ = ["composes", "DEFAULTS", "load_defaults", "bind", "index_dtype"]

#: qualified op name -> default implementation taking the namespace first: ``fn(xp, *args, **kw)``.
DEFAULTS: dict[str, Callable[..., Any]] = {}
_MODULES = ("creation", "nn", "general", "gradients")
_loaded = False


def composes(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Register ``fn(xp, ...)`` as the default implementation of the spec of the same name."""
    category = fn.__module__.rpartition(".")[2]
    name = f"{category}.{fn.__name__}" if category in ("linalg", "fft") else fn.__name__
    if name not in SPECS:
        raise RuntimeError(f"composed op {name!r} has no spec")
    DEFAULTS[name] = fn
    return fn


def index_dtype(xp: Any) -> Any:
    """The backend's default indexing dtype (int64, or int32 on JAX without x64): compositions
    never name a dtype the backend may lack."""
    return xp.__array_namespace_info__().default_dtypes()["indexing"]


def load_defaults() -> dict[str, Callable[..., Any]]:
    global _loaded
    if not _loaded:
        for m in _MODULES:
            try:
                importlib.import_module(f"{__name__}.{m}")
            except ModuleNotFoundError as e:
                if e.name != f"{__name__}.{m}":
                    raise
        _loaded = True
    return DEFAULTS


def bind(name: str, default: Callable[..., Any], xp: BackendNamespace) -> Callable[..., Any]:
    """A function with the spec's exact signature that calls ``default(xp, ...)``."""
    spec = SPECS[name]
    glb: dict[str, Any] = {"_impl": default, "_xp": xp, "_Missing": MissingOpError, "_name": name}
    params = param_source(spec.signature, glb, "_c_", with_backend=False)
    # An op the backend lacks, needed by this composition: the error names the op the user called.
    src = (
        f"def {spec.short_name}({params}):\n"
        f"    try:\n"
        f"        return _impl(_xp, {call_args(spec.signature)})\n"
        f"    except _Missing as e:\n"
        f"        raise _Missing(e.backend, e.op, _name, e.dist) from None\n"
    )
    exec(compile(src, f"<ivy composed {name}>", "exec"), glb)
    fn = glb[spec.short_name]
    fn.__doc__ = spec.doc
    fn.__signature__ = spec.signature
    fn.__qualname__ = spec.short_name
    fn.__module__ = f"{xp.__name__}"
    fn.__ivy_composed__ = default
    return fn
