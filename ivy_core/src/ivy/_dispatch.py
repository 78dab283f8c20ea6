"""Generates the public ``ivy.<op>`` functions from the specs.

Each generated function has the spec's exact signature plus a keyword-only ``backend=None``, and a
per-op table ``{type(first array): implementation}``. The hot path is: ``type(x)``, one dict
lookup, a type check of the other array arguments, and a direct call of the backend's own function.
A table miss (first call with a new type, Python scalars first, mixed frameworks, explicit
``backend=``, or no array argument at all) goes to :func:`_infer`, which fills the table.

All functions are generated as one source string and compiled once, which keeps ``import ivy``
fast.

Where the C extension ``ivy._cdispatch`` is built (the default install), the public object is a C
callable that does that hot path without an interpreted frame (~40 ns instead of ~200 ns) and hands
every other call to the generated Python function, which keeps the complete semantics. Setting the
environment variable ``IVY_PURE_PYTHON=1`` before ``import ivy`` uses the Python functions alone.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable
from typing import Any

from . import _context, _registry, _stack
from ._codegen import call_args as _call_args
from ._codegen import param_source as _param_source
from ._spec import SPECS, Spec
from ._spec._base import _Annotation
from .errors import MixedBackendsError

__all__ = ["build_public_functions", "public_function", "public_signature", "TABLES", "C_DISPATCH"]

_cdispatch: Any
if os.environ.get("IVY_PURE_PYTHON", "").strip() not in ("", "0"):
    _cdispatch = None
else:
    try:
        from . import _cdispatch  # type: ignore[no-redef]
    except ImportError:  # built without a C compiler: the Python functions alone, same behaviour
        _cdispatch = None

#: Whether the public ops dispatch in C (see the module docstring).
C_DISPATCH: bool = _cdispatch is not None


def _traceable_call(self: Any, /, *args: Any, **kwargs: Any) -> Any:
    """What bytecode-tracing compilers (torch.compile, paddle's SOT) see when they trace a call
    of a C dispatcher: its complete Python implementation. Plain calls never come here."""
    return self.__ivy_python__(*args, **kwargs)


if _cdispatch is not None:
    _cdispatch._set_python_call(_traceable_call)

#: Types that never decide the backend (Python scalars, None, dtype names).
_NEUTRAL = frozenset({bool, int, float, complex, type(None), str})

#: op name -> {argument type -> implementation}. Filled lazily.
TABLES: dict[str, dict[type, Callable[..., Any]]] = {}

_BACKEND_PARAM = inspect.Parameter(
    "backend", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=_Annotation("str | BackendNamespace | None")
)


def _describe(t: type) -> str:
    return f"{t.__module__}.{t.__qualname__}"


def _loaded_owner(x: Any) -> _registry.Backend | None:
    """The loaded backend whose array types ``x`` is an instance of, if any. Checked before any
    discovery: it also recognises compiler tracers and array subclasses, and keeps tracing
    compilers (paddle's SOT, dynamo) away from the entry-point machinery."""
    for b in _registry._loaded.values():
        if isinstance(x, b.array_types):
            return b
    return None


def _infer(name: str, table: dict[type, Any], cands: tuple[Any, ...], seqs: tuple[Any, ...]) -> _registry.Backend:
    """Slow path: the backend of a call from all its array arguments (or from context)."""
    found: _registry.Backend | None = None
    found_t: type | None = None
    seen: list[type] = []
    flat: list[Any] = list(cands)
    for s in seqs:
        if isinstance(s, (list, tuple)):
            flat.extend(s)
        else:
            flat.append(s)
    for x in flat:
        t = type(x)
        if t in _NEUTRAL:
            continue
        b = _loaded_owner(x)
        if b is None:
            b = _registry.backend_for_type(t)
        if b is None:
            continue
        seen.append(t)
        if found is None:
            found, found_t = b, t
        elif b is not found:
            assert found_t is not None
            raise MixedBackendsError(
                f"ivy.{name} got arrays of two frameworks: {found.name} ({_describe(found_t)}) and "
                f"{b.name} ({_describe(t)}). Convert one first, e.g. "
                f"ivy.asarray(x, backend={found.name!r})."
            )
    if found is None:
        stack = _stack.stack_get()
        return stack[-1] if stack else _registry.default_backend()
    impl = found.ops.get(name)
    if impl is not None and not found.tracing():  # a cache write would be replayed per call
        for t in seen:
            table[t] = impl
    return found


def _short_call(sig: inspect.Signature, prefix: str) -> tuple[str, str]:
    """(condition, call) for calling with the keyword-only arguments left out when every one of
    them is its default: the implementation's defaults equal the spec's (checked when the backend
    loads), and many frameworks' Python-level functions are much slower with keywords passed."""
    kw = [
        (i, p) for i, p in enumerate(sig.parameters.values()) if p.kind is p.KEYWORD_ONLY and p.default is not p.empty
    ]
    if not kw:
        return "", ""
    cond = " and ".join(f"{p.name} is {prefix}d{i}" for i, p in kw)
    params = [p for p in sig.parameters.values() if not (p.kind is p.KEYWORD_ONLY and p.default is not p.empty)]
    return cond, _call_args(sig.replace(parameters=params))


def _source(spec: Spec, idx: int, glb: dict[str, Any]) -> str:
    sig = spec.signature
    # The generated code's own names all start with "_" (builtins it needs are bound as
    # "_type"...), so a parameter can shadow none of them as long as none starts with "_".
    clash = [p for p in sig.parameters if p.startswith("_") or p == "backend"]
    if clash:
        raise RuntimeError(f"spec {spec.name!r}: parameter names {clash} are reserved for the generated function")
    prefix = f"_o{idx}_"
    params = _param_source(sig, glb, prefix)
    call = _call_args(sig)
    short_cond, short = _short_call(sig, prefix)
    q = repr(spec.name)
    fname = spec.short_name
    lines = [f"def {fname}({params}):"]
    if spec.infer:
        table: dict[type, Any] = {}
        TABLES[spec.name] = table
        glb[prefix + "T"] = table
        glb[prefix + "get"] = table.get
        get = prefix + "get"
        first, role = spec.roles[0]
        others = [p for p, r in spec.roles[1:] if r == "array"]
        checks = "".join(f" and ((_u := _type({p})) is _t or _u in _NEUTRAL or {get}(_u) is _f)" for p in others)
        lines.append("    if backend is None:")
        if spec.convert:  # a selected backend decides before the argument's framework
            lines += ["        _s = _stack()", "        if _s:", f"            return _s[-1].calls[{q}]({call})"]
        if role == "array":
            lines += [
                f"        _t = _type({first})",
                f"        _f = {get}(_t)",
                f"        if _f is not None{checks}:",
            ]
            if short_cond:
                lines += [f"            if {short_cond}:", f"                return _f({short})"]
            lines += [f"            return _f({call})"]
        else:  # a sequence (or *varargs) of arrays comes first
            lines += [
                f"        if _type({first}) in _SEQ and {first}:",
                f"            _t = _type({first}[0])",
                f"            _f = {get}(_t)",
                f"            if _f is not None{checks}:",
                f"                for _a in {first}:",
                f"                    if (_u := _type(_a)) is not _t and {get}(_u) is not _f:",
                "                        break",
                "                else:",
            ]
            if short_cond:
                lines += [f"                    if {short_cond}:", f"                        return _f({short})"]
            lines += [f"                    return _f({call})"]
        cands = ", ".join(p for p, r in spec.roles if r == "array")
        seqs = ", ".join(p for p, r in spec.roles if r != "array")
        lines += [
            f"        _b = _infer({q}, {prefix}T, ({cands}{',' if cands else ''}), ({seqs}{',' if seqs else ''}))",
            "    else:",
            "        _b = _resolve(backend)",
            f"    return _b.calls[{q}]({call})",
        ]
    else:
        lines += [
            "    if backend is None:",
            "        _s = _stack()",
            "        _b = _s[-1] if _s else _default()",
            "    else:",
            "        _b = _resolve(backend)",
        ]
        if short_cond:
            lines += [f"    if {short_cond}:", f"        return _b.calls[{q}]({short})"]
        lines += [f"    return _b.calls[{q}]({call})"]
    lines.append(f"{prefix}fn = {fname}")
    return "\n".join(lines)


_GLOBALS: dict[str, Any] = {
    "_type": type,  # spec parameters may be named like builtins (``finfo(type, /)``)
    "_infer": _infer,
    "_resolve": _context.resolve,
    "_stack": _stack.stack_get,
    "_default": _registry.default_backend,
    "_NEUTRAL": _NEUTRAL,
    "_SEQ": (list, tuple),
}
_PUBLIC: dict[str, Callable[..., Any]] = {}
_INDEX = {name: i for i, name in enumerate(SPECS)}


def public_signature(s: Spec) -> inspect.Signature:
    """The signature of a public op: the spec's, plus the keyword-only ``backend=None``."""
    return s.signature.replace(parameters=[*s.signature.parameters.values(), _BACKEND_PARAM])


def public_function(name: str) -> Callable[..., Any]:
    """The public ``ivy.<op>`` of spec ``name``, generated on first request.

    Generating all of them at ``import ivy`` would cost tens of milliseconds; ``ivy`` and its
    ``linalg``/``fft`` submodules ask for each one on first attribute access (PEP 562).
    """
    fn = _PUBLIC.get(name)
    if fn is not None:
        return fn
    s = SPECS[name]
    i = _INDEX[name]
    exec(compile(_source(s, i, _GLOBALS), f"<ivy generated {name}>", "exec"), _GLOBALS)
    fn = _GLOBALS[f"_o{i}_fn"]
    fn.__signature__ = public_signature(s)
    fn.__doc__ = s.doc
    fn.__module__ = "ivy" if "." not in s.name else "ivy." + s.name.partition(".")[0]
    fn.__qualname__ = s.short_name
    fn.__ivy_spec__ = s
    if _cdispatch is not None:
        fn = _c_wrap(s, fn)
    _PUBLIC[name] = fn
    return fn


def _c_wrap(s: Spec, py: Callable[..., Any]) -> Callable[..., Any]:
    """The C callable doing ``py``'s hot path (itself where the call shape is beyond the C code)."""
    P = inspect.Parameter
    params = list(s.signature.parameters.values())
    if any(p.kind is P.KEYWORD_ONLY and p.default is P.empty for p in params):
        return py  # a required option: only the Python function checks it is there
    positional = [p for p in params if p.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)]
    var = any(p.kind is P.VAR_POSITIONAL for p in params)
    roles = dict(s.roles) if s.infer else {}
    # Keyword arguments the implementation can take as they come: the options, never an array
    # (its type must be checked) and never a positional parameter (passed positionally to it).
    kwonly = frozenset(p.name for p in params if p.kind is P.KEYWORD_ONLY and p.name not in roles)
    npos_min = sum(p.default is P.empty for p in positional)
    npos_max = -1 if var else len(positional)
    obj: Any
    if s.convert:
        # the context is read before the arguments (beyond the C code), except where the call
        # names its backend: ivy.asarray(values, dtype=d, backend=xp)
        obj = _cdispatch.ContextDispatcher(py, s.name, _stack.STACK, kwonly, npos_min, npos_max, True)
    elif s.infer:
        index = {p.name: i for i, p in enumerate(positional)}
        arrays = tuple(index[n] for n, r in s.roles if r == "array" and n in index)
        seqs = [index[n] for n, r in s.roles if r != "array" and n in index]
        var_from = len(positional) if any(p.kind is P.VAR_POSITIONAL and p.name in roles for p in params) else -1
        if len(seqs) > 1 or len(arrays) > 8:
            return py
        # positional parameters a call may name (expand_dims(x, axis=-1)): moved to their places
        poskw = tuple(p.name if p.kind is P.POSITIONAL_OR_KEYWORD else None for p in positional)
        obj = _cdispatch.Dispatcher(
            py,
            TABLES[s.name],
            kwonly,
            npos_min,
            npos_max,
            arrays,
            seqs[0] if seqs else -1,
            var_from,
            poskw if any(poskw) and len(poskw) <= 16 else None,
        )
    else:
        obj = _cdispatch.ContextDispatcher(py, s.name, _stack.STACK, kwonly, npos_min, npos_max)
    for attr in ("__signature__", "__doc__", "__module__", "__qualname__", "__ivy_spec__"):
        setattr(obj, attr, getattr(py, attr))
    obj.__name__ = py.__name__
    obj.__ivy_python__ = py  # the complete Python function (tests compare the two)
    return obj


def drop_types(types: tuple[type, ...]) -> None:
    """Forget the cached implementations of array types (a backend that was removed)."""
    for table in TABLES.values():
        for t in types:
            table.pop(t, None)


def build_public_functions() -> dict[str, Callable[..., Any]]:
    """Every public op (qualified name -> function), generating the missing ones."""
    return {name: public_function(name) for name in SPECS}
