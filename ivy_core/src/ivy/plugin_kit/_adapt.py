"""Aliasing a conformant Array API library as a backend: the dtype and device forms Ivy passes
normalised to the library's own, so its functions serve as ops without a wrapper each."""

from __future__ import annotations

from typing import Any, Callable, Mapping

from .._codegen import call_args, param_source
from .._dtypes import DTYPE_NAMES, DType, dtype_name
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


def _adapted(name: str, fn: Callable[..., Any], roles: dict[str, str], dtypes: Mapping[str, Any],
             device: Callable[[Any], Any] | None) -> Callable[..., Any]:
    spec = SPECS[name]
    glb: dict[str, Any] = {"_fn": fn, "_dt": lambda x: native_dtype(dtypes, x) if _is_dtype_form(x) else x,
                           "_dev": device or (lambda x: x)}
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
    src = f"def {spec.short_name}({params}):\n" + "\n".join(lines) + f"\n    return _fn({call_args(spec.signature)})\n"
    exec(compile(src, f"<ivy adapted {name}>", "exec"), glb)  # noqa: S102 - generated from the spec
    out = glb[spec.short_name]
    out.__doc__ = getattr(fn, "__doc__", None)
    out.__wrapped__ = fn
    return out  # type: ignore[no-any-return]


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

    ``skip``: op names to leave out (the plugin implements them itself). Returns a dict for
    ``BackendImpl.ops`` (merge the plugin's own ops over it).
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
        ops[name] = _adapted(name, fn, roles, dtypes, device) if roles else fn
    return ops
