"""Aliasing a conformant Array API library as a backend: the dtype and device forms Ivy passes
normalised to the library's own, so its functions serve as ops without a wrapper each."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

from .._codegen import param_source
from .._dtypes import DTYPE_NAMES, DType, dtype_name
from .._registry import signature_mismatch
from .._spec import SPECS

__all__ = ["native_dtype", "conformant_ops"]


def native_dtype(dtypes: Mapping[str, Any], dtype: Any) -> Any:
    """The framework's dtype object for any dtype form Ivy passes to an op: an ``ivy.DType``, a
    name (``"float32"``), or the framework's own object (returned as it is).

    ``dtypes`` is the backend's ``BackendImpl.dtypes``.

    Raises:
        ivy.errors.UnsupportedDTypeError: the name is a standard dtype the framework lacks.
    """
    if isinstance(dtype, (str, DType)):
        name = dtype_name(dtype)
        got = dtypes.get(name)
        if got is None:
            from ..errors import UnsupportedDTypeError

            raise UnsupportedDTypeError(f"this backend has no {name} dtype (it has {', '.join(dtypes)})")
        return got
    return dtype


def _is_dtype_form(x: Any) -> bool:
    return isinstance(x, DType) or (isinstance(x, str) and x in DTYPE_NAMES)


def _roles(name: str) -> dict[str, str]:
    """The parameters of spec ``name`` that take a dtype or a device: name -> "dtype"/"device"."""
    out = {}
    for p in SPECS[name].signature.parameters.values():
        ann = str(p.annotation)
        if "DType" in ann:
            out[p.name] = "dtype"
        elif "Device" in ann:
            out[p.name] = "device"
    return out


def _adapted(
    name: str,
    fn: Callable[..., Any],
    roles: dict[str, str],
    dtypes: Mapping[str, Any],
    device: Callable[[Any], Any] | None,
) -> Callable[..., Any]:
    spec = SPECS[name]
    glb: dict[str, Any] = {
        "_fn": fn,
        "_dt": lambda x: native_dtype(dtypes, x) if _is_dtype_form(x) else x,
        "_dev": device or (lambda x: x),
    }
    lines = []
    for p in spec.signature.parameters.values():
        if p.name not in roles:
            continue
        conv = "_dt" if roles[p.name] == "dtype" else "_dev"
        if p.kind is p.VAR_POSITIONAL:
            lines.append(f"    {p.name} = tuple({conv}(_a) for _a in {p.name})")
        elif roles[p.name] == "dtype" and "tuple" in str(p.annotation):  # isdtype's kind
            lines.append(f"    if type({p.name}) is tuple:\n        {p.name} = tuple({conv}(_a) for _a in {p.name})")
            lines.append(f"    elif {p.name} is not None:\n        {p.name} = {conv}({p.name})")
        else:
            lines.append(f"    if {p.name} is not None:\n        {p.name} = {conv}({p.name})")
    params = param_source(spec.signature, glb, "_d_", with_backend=False)
    # positional-only parameters by position, every other one by name (the library may make a
    # parameter keyword-only that the spec lets be positional)
    call = ", ".join(
        (f"*{p.name}" if p.kind is p.VAR_POSITIONAL else p.name)
        if p.kind in (p.POSITIONAL_ONLY, p.VAR_POSITIONAL)
        else f"{p.name}={p.name}"
        for p in spec.signature.parameters.values()
    )
    src = f"def {spec.short_name}({params}):\n" + "\n".join(lines) + f"\n    return _fn({call})\n"
    exec(compile(src, f"<ivy adapted {name}>", "exec"), glb)  # generated from the spec
    out = glb[spec.short_name]
    out.__doc__ = getattr(fn, "__doc__", None)
    out.__ivy_adapted__ = fn  # (not __wrapped__: signature checks must see this function's own)
    return out


def _accepts(fn: Callable[..., Any], name: str) -> bool:
    """Whether ``fn`` takes every parameter of spec ``name`` (by name, where not positional-only)."""
    try:
        have = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return True  # no signature to read (a builtin): trust the library
    if any(p.kind is p.VAR_KEYWORD for p in have.values()):
        return True
    positional = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in have.values())
    var = any(p.kind is p.VAR_POSITIONAL for p in have.values())
    for i, p in enumerate(SPECS[name].signature.parameters.values()):
        if p.kind is p.POSITIONAL_ONLY:
            if i >= positional and not var:
                return False
        elif p.kind is not p.VAR_POSITIONAL and p.name not in have:
            return False
    return True


def conformant_ops(
    namespace: Any,
    *,
    dtypes: Mapping[str, Any],
    device: Callable[[Any], Any] | None = None,
    skip: tuple[str, ...] = (),
) -> dict[str, Callable[..., Any]]:
    """Ops from an Array API namespace (a conformant library, e.g. ``array_api_strict``): every
    spec op the namespace has (main namespace, ``linalg``, ``fft``), its own function where no
    dtype or device parameter needs translating, otherwise a thin generated function with the
    spec's signature that turns ``ivy.float32`` / ``"float32"`` into the library's dtype (through
    ``dtypes``) and device strings into its devices (through ``device``, if given).

    A function whose signature differs from the spec only in how parameters may be passed
    (keyword-only where the spec allows positional) is called through such a function too; one
    that lacks a parameter of the spec (an Ivy extension) is left out, so core's composed default
    serves where there is one. ``skip``: op names to leave out (the plugin implements them
    itself). Returns a dict for ``BackendImpl.ops`` (merge the plugin's own ops over it).
    """
    ops: dict[str, Callable[..., Any]] = {}
    for name in SPECS:
        if name in skip:
            continue
        space, _, short = name.rpartition(".")
        owner = getattr(namespace, space, None) if space else namespace
        fn = getattr(owner, short, None) if owner is not None else None
        if fn is None or not callable(fn):
            continue
        roles = _roles(name)
        if device is None:
            roles = {k: r for k, r in roles.items() if r == "dtype"}
        if not roles and signature_mismatch(name, fn) is None:
            ops[name] = fn  # the library's function itself
        elif _accepts(fn, name):
            ops[name] = _adapted(name, fn, roles, dtypes, device)
        # else: the library lacks a parameter of Ivy's spec (an extension such as linspace's
        # axis): left out, so core's composed default serves (or the op is reported missing)
    return ops
