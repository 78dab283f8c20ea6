"""Checks of a plugin against the contract: what its entry module registers, and what its
``BackendSpec.load`` returns (op names and signatures against the specs, declared dtypes).

Pure functions of what they are given: the checks that need the registry's state (array types
another backend owns) stay in :mod:`ivy._registry`.
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import _dtypes
from ._spec import SPECS
from .errors import PluginValidationError

if TYPE_CHECKING:
    from .plugin import BackendImpl, BackendSpec

__all__ = ["registered_spec", "loaded_impl", "validate", "signature_mismatch"]


def registered_spec(label: str, name: str, group: str, entry: str, found: list[Any], imported: set[str]) -> BackendSpec:
    """The BackendSpec named ``name`` among those the entry module ``entry`` (entry point ``name``
    in ``group``) registered, ``found``, checked: only BackendSpecs, one of that name, the
    framework not imported (``imported``: what importing the entry module imported), the plugin
    API this ivy-core supports."""
    # ivy.plugin imports pluggy, which dispatch never needs: imported where a plugin is checked
    from .plugin import PLUGIN_API
    from .plugin import BackendSpec as _Spec

    for s in found:
        if not isinstance(s, _Spec):
            raise PluginValidationError(
                f"{label}: its ivy_register_backends hook registered a {type(s).__qualname__}, "
                "not an ivy.plugin.BackendSpec"
            )
    specs = {s.name: s for s in found}
    if name not in specs:
        raise PluginValidationError(
            f"{label}: its entry point {name!r} in group {group!r} registers no "
            f"backend of that name (it registered {sorted(specs) or 'none'}); the "
            "entry-point name must equal BackendSpec.name"
        )
    spec: BackendSpec = specs[name]
    _check_entry_imports(label, entry, spec, imported)
    if spec.plugin_api != PLUGIN_API:
        raise PluginValidationError(
            f"{label} implements Ivy plugin API {spec.plugin_api}, but this ivy-core "
            f"supports plugin API {PLUGIN_API}; install matching versions of ivy-core and "
            f"{label.split()[0]}"
        )
    return spec


def _check_entry_imports(label: str, entry: str, spec: BackendSpec, imported: set[str]) -> None:
    """Refuse an entry module that imported the framework: ``import ivy`` and listing backends
    must stay fast and framework-free. ``imported``: the top-level modules that importing the
    entry module (and registering its hooks) added to ``sys.modules``; the plugin's own package
    may hold the array type (a pure-Python framework)."""
    own = entry.partition(":")[0].partition(".")[0]
    framework = sorted(m for m in spec.array_modules if m in imported and m != own)
    if framework:
        raise PluginValidationError(
            f"{label}: importing its entry module {entry!r} imported the framework "
            f"({', '.join(framework)}); the entry module must not import it (import it in the "
            f"function BackendSpec.load names, {spec.load!r}, which runs on the backend's first use)"
        )


def loaded_impl(label: str, name: str, spec: BackendSpec, impl: Any) -> BackendImpl:
    """``impl``, what ``spec.load`` of the backend ``name`` returned, checked with :func:`validate`."""
    from .plugin import BackendImpl as _Impl

    if not isinstance(impl, _Impl):
        raise PluginValidationError(
            f"{label}: BackendSpec.load ({spec.load!r}) of the backend {name!r} returned a "
            f"{type(impl).__qualname__}, not an ivy.plugin.BackendImpl"
        )
    validate(label, impl)
    return impl


def _check_dtypes(label: str, impl: BackendImpl) -> None:
    """``BackendImpl.dtypes``: standard names (or float16/bfloat16), one dtype object per name,
    none named otherwise by another loaded backend: Ivy names native dtypes by reading it in
    reverse."""
    allowed = set(_dtypes.DTYPE_NAMES) | set(_dtypes.HALF_NAMES)
    unknown = sorted(n for n in impl.dtypes if n not in allowed)
    if unknown:
        raise PluginValidationError(
            f"{label}: BackendImpl.dtypes has keys that are no standard dtype names: {', '.join(map(repr, unknown))} "
            f"(the keys are {', '.join(_dtypes.DTYPE_NAMES)}, or float16, bfloat16)"
        )
    seen: dict[int, str] = {}
    for dname, native in impl.dtypes.items():
        if native is None or isinstance(native, str):
            raise PluginValidationError(
                f"{label}: BackendImpl.dtypes[{dname!r}] is {native!r}, not the framework's dtype object "
                "(leave out a dtype the framework lacks; a string would be read as a dtype name, not as "
                "the framework's dtype)"
            )
        if id(native) in seen:
            raise PluginValidationError(
                f"{label}: BackendImpl.dtypes declares one dtype object, {native!r}, as both "
                f"{seen[id(native)]!r} and {dname!r}; each name needs a dtype of its own (leave out a "
                "dtype the framework lacks)"
            )
        seen[id(native)] = dname
        got = _dtypes._NATIVE.get(id(native))
        if got is not None and got[0] is native and got[1] != dname:
            raise PluginValidationError(
                f"{label}: BackendImpl.dtypes declares {native!r} as {dname!r}, but a loaded backend "
                f"declares that very object as {got[1]!r}"
            )


def validate(label: str, impl: BackendImpl) -> None:
    """Check a loaded backend against the specs: known op names and compatible signatures, and
    its declared dtypes (see :func:`_check_dtypes`)."""
    _check_dtypes(label, impl)
    unknown = sorted(set(impl.ops) - set(SPECS))
    if unknown:
        raise PluginValidationError(
            f"{label} provides ops that are not in Ivy's specs: {', '.join(unknown)} "
            "(misspelt, or written for another ivy-core version); put other public names in BackendImpl.extras"
        )
    problems = []
    for name, fn in impl.ops.items():
        msg = signature_mismatch(name, fn)
        if msg:
            problems.append(f"  {name}: {msg}")
    if problems:
        raise PluginValidationError(f"{label}: op signatures do not match their specs:\n" + "\n".join(problems))


_P = inspect.Parameter


def signature_mismatch(name: str, fn: Callable[..., Any]) -> str | None:
    """Why ``fn`` cannot be called every way spec ``name`` allows, or None if it can.

    Only Python functions are checked (builtins and ufuncs carry no reliable signature). The
    implementation may rename positional-only parameters, accept positional-only ones by keyword
    too, and add parameters of its own as long as they have defaults; defaults of spec parameters
    must be equal.
    """
    fn = getattr(fn, "__ivy_python__", fn)  # a fastpath: its full Python function has the signature
    if not isinstance(fn, types.FunctionType):
        return None
    spec = SPECS[name]
    try:
        got = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return None
    want = list(spec.signature.parameters.values())
    by_name = {p.name: p for p in got}
    positional = [p for p in got if p.kind in (_P.POSITIONAL_ONLY, _P.POSITIONAL_OR_KEYWORD)]
    var_pos = next((p for p in got if p.kind is _P.VAR_POSITIONAL), None)
    var_kw = next((p for p in got if p.kind is _P.VAR_KEYWORD), None)
    used: set[str] = set()
    i = 0
    g: inspect.Parameter | None
    for w in want:
        if w.kind is _P.POSITIONAL_ONLY:
            if i < len(positional):
                g = positional[i]
            elif var_pos is not None:
                i += 1
                continue
            else:
                return f"takes {len(positional)} positional parameters, the spec has more ({spec.signature})"
            i += 1
        elif w.kind is _P.VAR_POSITIONAL:
            if var_pos is None:
                return f"needs *{w.name} ({spec.signature})"
            continue
        elif w.kind is _P.POSITIONAL_OR_KEYWORD:
            g = by_name.get(w.name)
            if g is None and i >= len(positional) and var_pos is not None and var_kw is not None:
                i += 1  # taken by *args when positional, by **kwargs when named
                continue
            if (
                g is None
                or g.kind not in (_P.POSITIONAL_OR_KEYWORD,)
                or (i < len(positional) and positional[i] is not g)
            ):
                return f"parameter {w.name!r} must be positional-or-keyword at position {i} ({spec.signature})"
            i += 1
        else:  # keyword-only in the spec
            g = by_name.get(w.name)
            if g is None:
                if var_kw is not None:
                    continue
                return f"keyword {w.name!r} is missing ({spec.signature})"
            if g.name in used:
                return f"keyword {w.name!r} is already taken by a positional parameter ({spec.signature})"
            if g.kind not in (_P.KEYWORD_ONLY, _P.POSITIONAL_OR_KEYWORD):
                return f"{w.name!r} must be accepted by keyword ({spec.signature})"
        used.add(g.name)
        if w.default is not _P.empty:
            if g.default is _P.empty:
                return f"{w.name!r} needs the default {w.default!r} ({spec.signature})"
            if not _same_default(g.default, w.default):
                return f"default of {w.name!r} is {g.default!r}, the spec says {w.default!r}"
    for g in got:
        if g.name in used or g.kind in (_P.VAR_POSITIONAL, _P.VAR_KEYWORD):
            continue
        if g.default is _P.empty:
            return f"extra parameter {g.name!r} has no default ({spec.signature})"
    return None


def _same_default(a: Any, b: Any) -> bool:
    if a is b:
        return True
    if type(a) is not type(b) and not (isinstance(a, (int, float)) and isinstance(b, (int, float))):
        return False
    try:
        return bool(a == b)
    except Exception:
        return False
