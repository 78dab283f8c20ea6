"""Backend discovery (entry points, metadata only), lazy loading, type ownership.

Nothing here runs on the per-op hot path: the generated public functions keep per-op
``{type: implementation}`` tables and only come here on a table miss. The loaded backend is a
:class:`~ivy._backend.Backend`; the plugin checks are in :mod:`ivy._validation`.
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
import warnings
from typing import TYPE_CHECKING, Any

from . import _dtypes
from ._backend import Backend
from ._spec import SPECS
from ._validation import loaded_impl, registered_spec, signature_mismatch, validate
from .errors import (
    BackendConflictError,
    BackendLoadError,
    BackendNotInstalledError,
    PluginValidationError,
)

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from .plugin import BackendImpl, BackendSpec


__all__ = [
    "Backend",
    "backends",
    "get_backend",
    "backend_for_type",
    "default_backend",
    "validate",
    "signature_mismatch",
    "ENTRY_POINT_GROUP",
]

ENTRY_POINT_GROUP = "ivy.backends"
#: Entry-point group of plugins that provide no backend (only hooks such as ivy_register_devices).
PLUGIN_GROUP = "ivy.plugins"

#: The order in which installed backends are tried when nothing else decides.
PREFERENCE = ("numpy", "torch", "jax", "tensorflow", "paddle")

#: Frameworks we know the plugin distribution of, for "pip install ..." hints.
_KNOWN_DISTS = {
    "numpy": "ivy-numpy",
    "torch": "ivy-torch",
    "jax": "ivy-jax",
    "tensorflow": "ivy-tensorflow",
    "paddle": "ivy-paddle",
    "mxnet": "ivy-mxnet in a virtual environment of its own: MXNet 1.9 needs Python 3.10 or 3.11 and numpy<1.24",
}
_KNOWN_MODULES = {
    "numpy": "numpy",
    "torch": "torch",
    "jax": "jax",
    "jaxlib": "jax",
    "tensorflow": "tensorflow",
    "paddle": "paddle",
    "mxnet": "mxnet",
}

_lock = threading.RLock()
_eps: dict[str, EntryPoint] | None = None
_specs: dict[str, tuple[BackendSpec, str]] = {}  # backend name -> (spec, "dist version")
_plugin_errors: dict[str, BaseException] = {}
_loaded: dict[str, Backend] = {}
_load_errors: dict[str, BaseException] = {}
_type_backend: dict[type, Backend | None] = {}
_pm: Any = None
_extra_plugins: dict[str, Any] | None = None  # "ivy.plugins" entry-point name -> loaded module
#: "ivy.plugins" entry-point name -> the error its import or registration raised
_extra_errors: dict[str, BaseException] = {}
_default: Backend | None = None
#: the value of the last ``ivy.seed`` without ``backend=``: backends loading later are seeded with it
_seed: int | None = None


# --------------------------------------------------------------------------- discovery


def _entry_points() -> dict[str, EntryPoint]:
    global _eps
    if _eps is None:
        with _lock:
            if _eps is None:
                from importlib.metadata import entry_points

                found: dict[str, EntryPoint] = {}
                for ep in entry_points(group=ENTRY_POINT_GROUP):
                    if ep.name in found and found[ep.name].value != ep.value:
                        warnings.warn(
                            f"two installed plugins provide the Ivy backend {ep.name!r}: "
                            f"{found[ep.name].value} and {ep.value}; using the first",
                            stacklevel=2,
                        )
                        continue
                    found[ep.name] = ep
                _eps = found
    return _eps


def _dist_label(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    return f"{dist.name} {dist.version}" if dist is not None else ep.value


def backends() -> list[str]:
    """Names of the installed backends (read from package metadata; nothing is imported)."""
    names = list(_entry_points())
    order = {n: i for i, n in enumerate(PREFERENCE)}
    return sorted(names, key=lambda n: (order.get(n, len(order)), n))


def refresh() -> None:
    """Forget discovered plugins (after installing one in a running process). Loaded backends stay."""
    global _eps
    with _lock:
        global _default
        _eps = None
        _default = None
        _type_backend.clear()
        _module_owners.clear()
        for name in [n for n in _specs if n not in _loaded]:
            del _specs[name]
        _plugin_errors.clear()
        global _extra_plugins
        _extra_plugins = None
        _extra_errors.clear()


def _plugin_manager() -> Any:
    global _pm
    if _pm is None:
        import pluggy  # (here, not at the top: `import ivy` does not import pluggy)

        from .plugin import IvyHookSpecs

        pm = pluggy.PluginManager("ivy")
        pm.add_hookspecs(IvyHookSpecs)
        _pm = pm
    return _pm


def plugin_manager() -> Any:
    """The pluggy manager holding every plugin module imported so far (for hooks other than ops)."""
    for name in _entry_points():
        try:
            _spec_for(name)
        except Exception:  # reported when that backend is used
            pass
    _load_extra_plugins()
    return _plugin_manager()


def _load_extra_plugins() -> None:
    """Import and register the modules of the ``ivy.plugins`` group (plugins with no backend).

    A plugin that fails to import is left out, its error kept in ``_extra_errors`` and reported
    once as a warning naming its distribution; the other plugins are unaffected.
    """
    global _extra_plugins
    if _extra_plugins is not None:
        return
    with _lock:
        if _extra_plugins is not None:
            return
        from importlib.metadata import entry_points

        pm = _plugin_manager()
        found: dict[str, Any] = {}
        for ep in entry_points(group=PLUGIN_GROUP):
            label = _dist_label(ep)
            try:
                module = ep.load()
                if pm.get_plugin(label) is None and not pm.is_registered(module):
                    pm.register(module, name=label)
                found[ep.name] = module
            except Exception as e:
                err = BackendLoadError(
                    f"the Ivy plugin {label} (entry point {ep.name!r} in group {PLUGIN_GROUP!r}) failed to load: {e}"
                )
                err.__cause__ = e
                _extra_errors[ep.name] = err
                warnings.warn(str(err), stacklevel=3)
        _extra_plugins = found


def _spec_for(name: str) -> tuple[BackendSpec, str]:
    """Import the (lightweight) plugin module of backend ``name`` and collect its BackendSpec."""
    got = _specs.get(name)
    if got is not None:
        return got
    with _lock:
        got = _specs.get(name)
        if got is not None:
            return got
        if name in _plugin_errors:
            raise _plugin_errors[name]
        ep = _entry_points().get(name)
        if ep is None:
            raise _not_installed(name)
        label = _dist_label(ep)
        try:
            before = set(sys.modules)
            module = ep.load()
            pm = _plugin_manager()
            if pm.get_plugin(label) is None:
                pm.register(module, name=label)
            found: list[BackendSpec] = []
            for impl in pm.hook.ivy_register_backends.get_hookimpls():
                if impl.plugin is module:
                    impl.function(register=found.append)
            imported = {m.partition(".")[0] for m in set(sys.modules) - before}
            spec = registered_spec(label, name, ENTRY_POINT_GROUP, ep.value, found, imported)
        except PluginValidationError as e:
            _plugin_errors[name] = e
            raise
        except Exception as e:
            err = BackendLoadError(f"the Ivy plugin {label} for backend {name!r} failed to import: {e}")
            err.__cause__ = e
            _plugin_errors[name] = err
            raise err from e
        _specs[name] = (spec, label)
        return _specs[name]


def _not_installed(name: str) -> BackendNotInstalledError:
    installed = backends()
    hint = (
        f"pip install {_KNOWN_DISTS[name]}"
        if name in _KNOWN_DISTS
        else f"install the Ivy plugin distribution that provides {name!r}"
    )
    return BackendNotInstalledError(
        f"no Ivy backend named {name!r} is installed ({hint}); installed backends: {', '.join(installed) or 'none'}"
    )


# --------------------------------------------------------------------------- loading


def get_backend(name: str) -> Backend:
    """The loaded backend ``name``, loading it (and importing its framework) on first use."""
    b = _loaded.get(name)
    if b is not None:
        return b
    with _lock:
        b = _loaded.get(name)
        if b is not None:
            return b
        if name in _load_errors:
            raise _load_errors[name]
        spec, label = _spec_for(name)
        for other in spec.unsafe_after:
            own = spec.array_modules[0] if spec.array_modules else name
            if other in sys.modules and own not in sys.modules:
                raise BackendConflictError(
                    f"the {name!r} backend cannot be loaded: {own} must be imported before {other} "
                    f"in one process ({own}'s native library crashes the interpreter otherwise), and "
                    f"{other} is already imported. Use the {name!r} backend first (e.g. "
                    f"ivy.backend_namespace({name!r}) at start-up), or run it in a separate process."
                )
        try:
            loader = spec.load
            if isinstance(loader, str):
                mod_name, _, attr = loader.partition(":")
                loader = getattr(importlib.import_module(mod_name), attr)
            impl = loader()
        except Exception as e:
            msg = f"the Ivy backend {name!r} ({label}) failed to load: {e}"
            missing = getattr(e, "name", None) if isinstance(e, ModuleNotFoundError) else None
            if missing and missing.partition(".")[0] in spec.array_modules:
                msg += (
                    f". Its framework is not installed: install it as {label.split()[0]}'s README "
                    f"says (e.g. pip install {label.split()[0]}[cpu] where the plugin offers extras)"
                )
            err = BackendLoadError(msg)
            _load_errors[name] = err
            raise err from e
        try:
            impl = loaded_impl(label, name, spec, impl)
            _check_array_types(name, label, spec, impl)
        except PluginValidationError as e:
            _load_errors[name] = e
            raise
        _dtypes.declare(impl.dtypes)
        b = Backend(spec, label, impl)
        if _seed is not None and "seed" in b.ops:
            b.calls["seed"](_seed)
        _loaded[name] = b
        return b


def add_runtime_backend(spec: BackendSpec, impl: BackendImpl, label: str) -> Backend:
    """Load a backend that core itself makes at run time (the graph tracer's recording backend),
    with no entry point: validated like a plugin's, then found by name and by its array types.

    Raises:
        PluginValidationError: ``impl`` does not honour the specs.
        ValueError: a backend of that name is loaded already.
    """
    with _lock:
        if spec.name in _loaded:
            raise ValueError(f"a backend named {spec.name!r} is loaded already")
        validate(label, impl)
        _dtypes.declare(impl.dtypes)
        b = Backend(spec, label, impl)
        _loaded[spec.name] = b
        for t in b.array_types:
            _type_backend[t] = b
        return b


def remove_runtime_backend(name: str) -> Backend | None:
    """Forget a backend added by :func:`add_runtime_backend`; returns it (or None). The public
    functions' caches of its array types are dropped with ``_dispatch.drop_types``."""
    with _lock:
        b = _loaded.pop(name, None)
        if b is not None:
            for t in b.array_types:
                _type_backend.pop(t, None)
        return b


def seed_all(value: int) -> None:
    """Seed every loaded backend with ``value``, and each backend that loads later as it loads
    (a backend without random ops has nothing to seed)."""
    global _seed
    with _lock:
        _seed = value
        for b in _loaded.values():
            if "seed" in b.ops:
                b.calls["seed"](value)


def coverage(b: Backend) -> dict[str, Any]:
    """Spec ops the backend implements itself, those core composes for it, those it lacks."""
    native = sorted(n for n in SPECS if n in b.native_ops)
    composed = sorted(n for n in SPECS if n in b.ops and n not in b.native_ops)
    missing = sorted(n for n in SPECS if n not in b.ops)
    return {"native": native, "composed": composed, "missing": missing, "total": len(SPECS)}


def backend_details() -> list[dict[str, Any]]:
    """One dict per installed backend, from package metadata and the plugins' lightweight modules
    (no framework is imported): ``name``, ``distribution``, ``description``, ``array_modules``,
    ``status`` (``"loaded"``, ``"not loaded"`` or ``"broken: why"``), ``conflicts`` and, for loaded
    backends, their :func:`coverage`."""
    rows: list[dict[str, Any]] = []
    claimed: dict[str, list[str]] = {}
    for name in backends():
        row: dict[str, Any] = {
            "name": name,
            "distribution": _dist_label(_entry_points()[name]),
            "description": "",
            "array_modules": [],
            "conflicts": [],
        }
        try:
            spec, _ = _spec_for(name)
            row["description"] = spec.description
            row["array_modules"] = list(spec.array_modules)
            for m in spec.array_modules:
                claimed.setdefault(m, []).append(name)
            if name in _loaded:
                row["status"] = "loaded"
                row.update(coverage(_loaded[name]))
            elif name in _load_errors:
                row["status"] = f"broken: {_load_errors[name]}"
            else:
                row["status"] = "not loaded"
        except Exception as e:  # a plugin that fails to import or validate: reported, not raised
            row["status"] = f"broken: {e}"
        rows.append(row)
    for row in rows:
        for m in row["array_modules"]:
            others = [n for n in claimed[m] if n != row["name"]]
            if others:
                row["conflicts"].append(f"the arrays of {m!r} are claimed by {', '.join(others)} too")
    return rows


def loaded_backends() -> dict[str, Backend]:
    return dict(_loaded)


def default_backend() -> Backend:
    """The backend used when neither arguments nor context decide.

    ``IVY_BACKEND`` if set, else the first installed of numpy, torch, jax, tensorflow, paddle
    (then other installed backends alphabetically).
    """
    global _default
    if _default is not None:
        return _default
    env = os.environ.get("IVY_BACKEND")
    if env:
        _default = get_backend(env)
        return _default
    names = backends()
    if not names:
        raise BackendNotInstalledError(
            "no Ivy backend is installed; install one, e.g. `pip install ivy-numpy` or `pip install ivy-torch`"
        )
    errors = []
    for name in names:
        try:
            _default = get_backend(name)
            return _default
        except Exception as e:  # try the next installed backend, but say so
            errors.append(e)
            warnings.warn(f"default Ivy backend {name!r} could not be loaded ({e}); trying the next", stacklevel=2)
    raise errors[-1]


# --------------------------------------------------------------------------- inference


def backend_for_type(t: type) -> Backend | None:
    """The backend owning native type ``t`` (array or dtype type), or None (scalars, lists...).

    Decided from ``t.__module__`` and the plugins' declared ``array_modules``: no framework is
    imported to find out (an object of that framework exists, so it is imported already).
    """
    try:
        return _type_backend[t]
    except KeyError:
        pass
    mod = getattr(t, "__module__", None)
    top = mod.partition(".")[0] if isinstance(mod, str) else ""
    b: Backend | None = None
    if top and top != "builtins":
        owner = _module_owner(top)
        if owner is None:
            # A subclass defined in user code (class MyArray(np.ndarray)): its base decides.
            for base in t.__mro__[1:]:
                bmod = getattr(base, "__module__", "") or ""
                btop = bmod.partition(".")[0]
                if btop and btop != "builtins" and (owner := _module_owner(btop)) is not None:
                    break
        if owner is not None:
            b = get_backend(owner)
        elif top in _KNOWN_MODULES:
            fw = _KNOWN_MODULES[top]
            raise BackendNotInstalledError(
                f"got a {fw} object ({mod}.{t.__qualname__}) but no Ivy backend for {fw} is "
                f"installed: pip install {_KNOWN_DISTS[fw]}"
            )
    _type_backend[t] = b
    return b


_module_owners: dict[str, str | None] = {}


def _module_owner(top: str) -> str | None:
    if top in _module_owners:
        return _module_owners[top]
    owner = None
    names = backends()
    # A known framework is most likely claimed by the plugin of the same name: look there first
    # so that a broken unrelated plugin cannot get in the way.
    guess = _KNOWN_MODULES.get(top)
    if guess in names:
        names.remove(guess)
        names.insert(0, guess)
    claims = []
    for name in names:
        try:
            spec, label = _spec_for(name)
        except Exception:
            continue
        if top in spec.array_modules:
            claims.append((name, label))
    if len(claims) > 1:  # the first in preference order wins, but say so
        warnings.warn(
            f"two installed Ivy backends claim the arrays of module {top!r}: "
            + ", ".join(f"{n!r} ({label})" for n, label in claims)
            + f"; arrays of {top!r} go to {claims[0][0]!r}. Uninstall one, or pass backend= explicitly.",
            stacklevel=3,
        )
    owner = claims[0][0] if claims else None
    _module_owners[top] = owner
    return owner


# --------------------------------------------------------------------------- type ownership


def _check_array_types(name: str, label: str, spec: BackendSpec, impl: BackendImpl) -> None:
    """Refuse array types that would take over another backend's arrays: inference gives an
    array to the first loaded backend it is an instance of. A type must not be (a base of) a type
    another loaded backend declares, nor come from a module another installed plugin claims in
    its ``array_modules`` (looked up only for a type outside this plugin's own modules, so that
    loading a backend imports no other plugin)."""
    ep = _entry_points().get(name)
    own = set(spec.array_modules) | ({ep.value.partition(":")[0].partition(".")[0]} if ep is not None else set())
    for t in impl.array_types:
        if not isinstance(t, type):
            raise PluginValidationError(f"{label}: BackendImpl.array_types holds {t!r}, which is not a type")
        where = f"{getattr(t, '__module__', '?')}.{t.__qualname__}"
        for b in _loaded.values():
            if b.name != name and any(issubclass(other, t) for other in b.array_types):
                raise PluginValidationError(
                    f"{label}: the array type {where} of the backend {name!r} is (a base of) an array type of "
                    f"the backend {b.name!r} ({b.dist}), whose arrays it would take over; declare only the "
                    "framework's own array types in BackendImpl.array_types"
                )
        top = where.partition(".")[0]
        if top in own or top in ("builtins", "?"):
            continue
        owner = _module_owner(top)
        if owner is not None and owner != name:
            raise PluginValidationError(
                f"{label}: the array type {where} of the backend {name!r} comes from {top!r}, whose arrays "
                f"the backend {owner!r} ({_spec_for(owner)[1]}) claims; declare only the framework's own "
                "array types in BackendImpl.array_types (and its modules in BackendSpec.array_modules)"
            )


def _dtype_owner(dtype: Any) -> tuple[str, Any] | None:
    """``(description, declared dtypes)`` of the backend owning ``dtype`` (by the module of its type,
    as for arrays), loading it if need be (its framework is imported: the dtype exists); None for
    Python's types and dtypes of frameworks no installed plugin claims."""
    t = dtype if isinstance(dtype, type) else type(dtype)
    mod = getattr(t, "__module__", None)
    top = mod.partition(".")[0] if isinstance(mod, str) else ""
    if not top or top == "builtins":
        return None
    owner = _module_owner(top)
    if owner is None:
        return None
    b = get_backend(owner)
    return f"the {b.name!r} backend ({b.dist})", b.impl.dtypes


_dtypes._owner = _dtype_owner
