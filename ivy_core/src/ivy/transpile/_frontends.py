"""The registry of transpiler frontends: collected once from the plugins' ``ivy_register_frontends``
hooks (no framework is imported), each loaded on its first use.

A registration that breaks the contract (not a :class:`~ivy.plugin.Frontend`, a bad field, a name
taken by another plugin) is left out with a warning that names the plugin; the other frontends are
unaffected. The frontend ``"ivy"`` is core's own: Ivy functions and ``ivy.Module``\\ s, read by
:func:`ivy.trace_graph`.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import sys
import threading
import warnings
from collections.abc import Callable
from typing import Any

from .. import _registry
from ..errors import BackendConflictError, PluginValidationError, TranspileError
from ..plugin import Frontend, FrontendImpl

__all__ = [
    "IVY",
    "KNOWN_PLUGINS",
    "frontends",
    "frontend_impl",
    "frontend_label",
    "install_hint",
    "problems",
    "refresh",
    "is_ivy_module",
]

_lock = threading.RLock()
#: name -> (frontend, the label of the plugin that registered it: "ivy-torch 0.1.0")
_found: dict[str, tuple[Frontend, str]] | None = None
#: what was wrong with each left-out registration, naming its plugin
_problems: list[str] = []
_impls: dict[str, FrontendImpl] = {}
_load_errors: dict[str, BaseException] = {}


def is_ivy_module(obj: Any) -> bool:
    """Whether ``obj`` is an ``ivy.Module`` (without importing the stateful API)."""
    stateful = sys.modules.get("ivy._stateful.module")
    return stateful is not None and isinstance(obj, stateful.Module)


def _ivy_kind(obj: Any) -> str | None:
    if is_ivy_module(obj):
        return "module"
    if callable(obj) and not isinstance(obj, type):
        return "function"
    return None


def _ivy_to_graph(obj: Any, args: tuple[Any, ...], kwargs: dict[str, Any], params_v: Any) -> Any:
    if params_v is not None:
        raise TypeError(
            "params_v is for frameworks that keep a module's parameters outside the object (Flax, "
            "Haiku); an ivy.Module holds its variables: set model.v before transpiling instead"
        )
    from ..graph import trace_graph

    return trace_graph(obj, args=args, kwargs=kwargs)


def _ivy_op_set() -> dict[str, str | None]:
    from .._spec import SPECS

    return {name: f"ivy.{name}" for name in SPECS}


def _ivy_impl() -> FrontendImpl:
    return FrontendImpl(kind=_ivy_kind, to_graph=_ivy_to_graph, op_set=_ivy_op_set)


#: core's own frontend: Ivy code, traced by ivy.trace_graph
IVY = Frontend(
    name="ivy",
    modules=("ivy",),
    load=_ivy_impl,
    description="Ivy functions and ivy.Module (traced by ivy.trace_graph)",
)
_IVY_LABEL = "ivy-core (built in)"


def _validate(f: Any) -> str | None:
    """What is wrong with one registered object, or None."""
    if not isinstance(f, Frontend):
        return f"registered a {type(f).__name__}, not an ivy.plugin.Frontend"
    if not isinstance(f.name, str) or not f.name.isidentifier():
        return f"registered a frontend whose name {f.name!r} is not an identifier (e.g. 'torch')"
    if f.name == IVY.name:
        return "registered a frontend named 'ivy', which is core's own"
    mods = f.modules
    if not isinstance(mods, tuple) or not mods or not all(isinstance(m, str) and m.isidentifier() for m in mods):
        return (
            f"registered the frontend {f.name!r} with modules={mods!r}; it must be a non-empty tuple of "
            "top-level module names, e.g. ('jax', 'flax')"
        )
    load = f.load
    if isinstance(load, str):
        mod, sep, attr = load.partition(":")
        if not sep or not mod or not attr:
            return f"registered the frontend {f.name!r} with load={load!r}; it must read 'package.module:function'"
    elif not callable(load):
        return (
            f"registered the frontend {f.name!r} with load={load!r}, neither a 'module:function' string nor a callable"
        )
    if not isinstance(f.description, str):
        return f"registered the frontend {f.name!r} with a description that is not a string"
    return None


def _collect() -> dict[str, tuple[Frontend, str]]:
    global _found
    if _found is not None:
        return _found
    with _lock:
        if _found is not None:
            return _found
        found: dict[str, tuple[Frontend, str]] = {IVY.name: (IVY, _IVY_LABEL)}
        problems: list[str] = []
        pm = _registry.plugin_manager()
        # one hook implementation at a time: a problem is attributed to its plugin, and one
        # plugin's broken hook leaves the others' frontends usable
        for hook in pm.hook.ivy_register_frontends.get_hookimpls():
            label = hook.plugin_name
            got: list[Any] = []
            try:
                hook.function(register=got.append)
            except Exception as e:  # reported, naming the plugin
                problems.append(f"{label}: its ivy_register_frontends hook raised {type(e).__name__}: {e}")
                continue
            for f in got:
                why = _validate(f)
                if why is None and f.name in found:
                    why = f"registered the frontend {f.name!r}, which {found[f.name][1]} registered already"
                if why is not None:
                    problems.append(f"{label}: {why}")
                    continue
                found[f.name] = (f, label)
        for p in problems:
            warnings.warn(f"an Ivy transpiler frontend was left out: {p}", stacklevel=4)
        _problems[:] = problems
        _found = found
        return found


def frontends() -> dict[str, Frontend]:
    """The registered frontends by name, ``"ivy"`` (core's own) first; nothing is imported."""
    return {name: f for name, (f, _) in _collect().items()}


def frontend_label(name: str) -> str:
    """The plugin that registered frontend ``name`` (``"ivy-torch 0.1.0"``)."""
    return _collect()[name][1]


def problems() -> list[str]:
    """The registrations left out, each naming its plugin and what was wrong."""
    _collect()
    return list(_problems)


def refresh() -> None:
    """Forget the collected frontends (after installing or registering a plugin at run time)."""
    global _found
    with _lock:
        _found = None
        _problems.clear()
        _impls.clear()
        _load_errors.clear()


#: top-level module of a framework -> (the frontend of Ivy's own plugins that reads it, its distribution)
KNOWN_PLUGINS: dict[str, tuple[str, str]] = {
    "torch": ("torch", "ivy-torch"),
    "jax": ("jax", "ivy-jax"),
    "jaxlib": ("jax", "ivy-jax"),
    "flax": ("jax", "ivy-jax"),
    "haiku": ("jax", "ivy-jax"),
    "tensorflow": ("tensorflow", "ivy-tensorflow"),
    "keras": ("tensorflow", "ivy-tensorflow"),
    "paddle": ("paddle", "ivy-paddle"),
    "numpy": ("numpy", "ivy-numpy"),
}


def install_hint(module: str) -> str | None:
    """What to install to read programs of the framework whose top-level module is ``module``
    (``"torch"``), where Ivy's own plugins have a frontend for it; None otherwise."""
    got = KNOWN_PLUGINS.get(module.partition(".")[0])
    if got is None:
        return None
    name, dist = got
    try:
        version = importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return f"{name} programs are read by the plugin {dist}: pip install {dist}"
    return (
        f"{dist} {version} is installed but registers no transpiler frontend for {name} programs; a newer "
        f"release may: pip install -U {dist}"
    )


def unknown_source(name: str) -> TranspileError:
    found = _collect()
    msg = f"no transpiler frontend named {name!r} is installed; installed: {', '.join(found)}"
    hint = install_hint(name)
    if hint is not None:
        msg += f"; {hint}"
    elif name in _registry.backends():
        msg += f". The {name!r} backend is installed, but its plugin registers no frontend (yet)"
    bad = [p for p in _problems if f"{name!r}" in p]
    if bad:
        msg += ". Left out: " + "; ".join(bad)
    return TranspileError(msg)


def frontend_impl(name: str) -> FrontendImpl:
    """The loaded frontend ``name`` (its framework is imported here, once)."""
    got = _impls.get(name)
    if got is not None:
        return got
    with _lock:
        got = _impls.get(name)
        if got is not None:
            return got
        if name in _load_errors:
            raise _load_errors[name]
        found = _collect()
        if name not in found:
            raise unknown_source(name)
        f, label = found[name]
        try:
            if name in _registry.backends():
                # the backend of the same name computes the trace, and loading it first refuses
                # imports that would crash the interpreter (paddle after tensorflow)
                _registry.get_backend(name)
            load: Callable[[], Any]
            if isinstance(f.load, str):
                mod, _, attr = f.load.partition(":")
                load = getattr(importlib.import_module(mod), attr)
            else:
                load = f.load
            impl = load()
        except BackendConflictError:
            raise
        except Exception as e:
            err = TranspileError(f"the {name!r} transpiler frontend of {label} failed to load: {type(e).__name__}: {e}")
            _load_errors[name] = err
            raise err from e
        why = _check_impl(impl)
        if why is not None:
            err2 = PluginValidationError(f"{label}: the {name!r} frontend's load() {why}")
            _load_errors[name] = err2
            raise err2
        _impls[name] = impl
        return impl


def _check_impl(impl: Any) -> str | None:
    if not isinstance(impl, FrontendImpl):
        return f"returned a {type(impl).__name__}, not an ivy.plugin.FrontendImpl"
    for field in ("kind", "to_graph", "op_set"):
        if not callable(getattr(impl, field)):
            return f"returned a FrontendImpl whose {field} is not callable"
    if impl.fingerprint is not None and not callable(impl.fingerprint):
        return "returned a FrontendImpl whose fingerprint is neither None nor callable"
    return None
