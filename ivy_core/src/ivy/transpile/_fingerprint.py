"""Stable identities of source objects, for the disk cache: what program an object runs (its code
and configuration), not its weights; and the weights themselves, read from the object.

The default fingerprint walks the object: Python values by value, functions by their code (byte
code, constants, names: not their line numbers), the classes of user code by the code of their
methods, classes of the frameworks by name (the frameworks' versions are part of the cache key),
objects by their attributes, arrays that are the object's weights by shape and dtype, and every
other array (a constant the program bakes in) by its value too. Everything it cannot describe
deterministically makes the object uncacheable (:class:`Unfingerprintable`) rather than risk
two programs sharing a key.
"""

from __future__ import annotations

import enum
import functools
import hashlib
import os
import site
import sys
import sysconfig
import threading
import types
from collections.abc import Iterable
from typing import Any

from .._dtypes import dtype_name
from ._frontends import is_ivy_module
from ._inputs import is_array

__all__ = ["Unfingerprintable", "code_names", "code_fingerprint", "fingerprint", "inert", "weights"]

#: limits of the walk: an object graph beyond them is not fingerprinted (and not cached)
_MAX_DEPTH = 40
_MAX_ITEMS = 400_000
_PRIMITIVES = (bool, int, float, complex, str, bytes, type(None))


class Unfingerprintable(Exception):
    """The object cannot be described deterministically: it is transpiled without the disk cache."""


def weights(obj: Any, params_v: Any = None) -> tuple[dict[str, Any], list[str]] | None:
    """The object's weights by key chain and which of them are buffers, read from the object
    itself (``ivy.Module``, modules with ``named_parameters``/``named_buffers`` as torch and
    paddle have, or ``params_v``), or None where core cannot read them."""
    if params_v is not None:
        flat: dict[str, Any] = {}
        _flatten_params(params_v, "", flat)
        return flat, []
    if is_ivy_module(obj):
        if not obj.built:  # (reading v would build it, on whatever backend is current)
            return None
        v = obj.v.to_flat_dict()
        st = obj.state.to_flat_dict()
        return {**v, **st}, list(st)
    named_p = getattr(obj, "named_parameters", None)
    named_b = getattr(obj, "named_buffers", None)
    if callable(named_p) and callable(named_b) and not isinstance(obj, type):
        try:
            params = {n.replace(".", "/"): p for n, p in named_p()}
            bufs = {n.replace(".", "/"): b for n, b in named_b()}
        except Exception:  # not the torch/paddle protocol after all
            return None
        return {**params, **bufs}, list(bufs)
    return _variables(obj)


def _variables(obj: Any) -> tuple[dict[str, Any], list[str]] | None:
    """The weights of an object that lists its variables (``weights`` of Keras layers and models,
    ``variables`` of ``tf.Module``), named by their paths, the non-trainable ones as buffers."""
    if isinstance(obj, type):
        return None
    for attr in ("weights", "variables"):
        try:
            found = getattr(obj, attr, None)
        except Exception:  # a property that fails (a Keras layer not built yet)
            continue
        if not isinstance(found, (list, tuple)) or not found:
            continue
        if not all(hasattr(v, "shape") and hasattr(v, "dtype") and callable(getattr(v, "numpy", None)) for v in found):
            continue
        out: dict[str, Any] = {}
        buffers: list[str] = []
        for i, v in enumerate(found):
            name = str(getattr(v, "path", None) or getattr(v, "name", None) or i)
            name = name if name not in out else f"{name}#{i}"
            out[name] = v
            if getattr(v, "trainable", True) is False:
                buffers.append(name)
        return out, buffers
    return None


def _flatten_params(x: Any, prefix: str, out: dict[str, Any]) -> None:
    if isinstance(x, dict) or (hasattr(x, "items") and hasattr(x, "keys") and not is_array(x)):
        for k, e in x.items():
            _flatten_params(e, f"{prefix}/{k}" if prefix else str(k), out)
    elif isinstance(x, (list, tuple)):
        for i, e in enumerate(x):
            _flatten_params(e, f"{prefix}/{i}" if prefix else str(i), out)
    elif x is not None:
        out[prefix] = x


def _framework_tops() -> set[str]:
    from ._frontends import frontends

    tops = {"ivy", "builtins", "numpy", "typing", "collections", "abc", "functools", "enum", "dataclasses"}
    for f in frontends().values():
        tops.update(f.modules)
    return tops


class _Walker:
    def __init__(self, weight_ids: set[int]):
        self.h = hashlib.sha256()
        self.weight_ids = weight_ids
        self.seen: dict[int, int] = {}
        self.keep: list[Any] = []  # objects described so far stay alive: their ids stay unique
        self.items = 0
        self.frameworks = _framework_tops()

    def put(self, *tokens: Any) -> None:
        for t in tokens:
            self.h.update(repr(t).encode("utf-8", "surrogatepass"))
            self.h.update(b"\x00")

    def walk(self, x: Any, depth: int = 0) -> None:
        self.items += 1
        if self.items > _MAX_ITEMS or depth > _MAX_DEPTH:
            raise Unfingerprintable("the object graph is too large to fingerprint")
        t = type(x)
        if t in _PRIMITIVES:
            self.put(t.__name__, x)
            return
        if isinstance(x, float):  # (subclasses of the primitives, e.g. numpy's float64)
            self.put("float", float(x))
            return
        if t is tuple:  # (no cycle runs through tuples alone: walked each time they appear)
            self.put("tuple", len(x))
            for e in x:
                self.walk(e, depth + 1)
            return
        key = id(x)
        if key in self.seen:
            self.put("ref", self.seen[key])
            return
        self.seen[key] = len(self.seen)
        self.keep.append(x)
        if t is list or t is set or t is frozenset:
            items: Iterable[Any] = x if t is list else sorted(x, key=repr)
            self.put(t.__name__, len(x))
            for e in items:
                self.walk(e, depth + 1)
            return
        if isinstance(x, dict):
            self.put("dict", self.cls_name(t), len(x))
            for k, e in x.items():
                self.walk(k, depth + 1)
                self.walk(e, depth + 1)
            return
        if isinstance(x, types.ModuleType):
            self.put("module", x.__name__)
            return
        if isinstance(x, type):
            self.cls(x, depth)
            return
        if isinstance(x, types.FunctionType):
            self.function(x, depth)
            return
        if isinstance(x, functools.partial):
            self.put("partial")
            self.walk((x.func, x.args, x.keywords), depth + 1)
            return
        if isinstance(x, types.MethodType):
            self.put("method")
            self.walk(x.__func__, depth + 1)
            self.walk(x.__self__, depth + 1)
            return
        if isinstance(x, (types.BuiltinFunctionType, types.WrapperDescriptorType, types.MethodDescriptorType)):
            self.put("builtin", getattr(x, "__module__", None), getattr(x, "__qualname__", repr(x)))
            return
        if isinstance(x, types.CodeType):
            self.code(x, depth)
            return
        if is_array(x) or _array_like(x):
            self.array(x)
            return
        try:
            self.put("dtype", dtype_name(x))
            return
        except Exception:  # not a dtype
            pass
        quiet = inert(x)
        if quiet is not None:
            self.put("inert", quiet)
            return
        self.obj(x, depth)

    def cls_name(self, t: type) -> str:
        return f"{t.__module__}.{t.__qualname__}"

    def cls(self, c: type, depth: int) -> None:
        self.put("class", self.cls_name(c))
        if (c.__module__ or "").partition(".")[0] in self.frameworks or c.__module__ in sys.builtin_module_names:
            return  # a framework's own class: its version is in the cache key
        for base in c.__mro__[1:]:
            self.put("base", self.cls_name(base))
        for name, member in sorted(vars(c).items()):
            if name in ("__dict__", "__weakref__", "__doc__", "__module__", "__qualname__", "__annotations__"):
                continue
            fn = member
            if isinstance(member, (staticmethod, classmethod)):
                fn = member.__func__
            elif isinstance(member, property):
                fn = (member.fget, member.fset)
            if isinstance(fn, (types.FunctionType, tuple)) or isinstance(member, (int, float, str, bool)):
                self.put("member", name)
                self.walk(fn, depth + 1)
        for base in c.__mro__[1:]:  # (inherited methods run too; each class once, by the ids seen)
            if base is not object:
                self.walk(base, depth + 1)

    def function(self, f: types.FunctionType, depth: int) -> None:
        self.put("function", f.__module__, f.__qualname__)
        if (f.__module__ or "").partition(".")[0] in self.frameworks:
            return  # a framework's own function: its version is in the cache key
        self.code(f.__code__, depth)
        # an installed library's code is identified by its version and files (the cache key has
        # the frameworks', the torch fingerprint the files'): of what it reads, only plain values
        # (a module-level constant, a mode string) are followed, not its objects and helpers
        # (the functions a library's closure holds are followed: a decorator's wrapper holds
        # the user's function)
        installed = _installed(f.__module__)
        follow = self.walk if not installed else self.plain
        inner = self.walk if not installed else self.plain_or_code
        follow(f.__defaults__, depth + 1)
        follow(f.__kwdefaults__, depth + 1)
        for cell in f.__closure__ or ():
            try:
                inner(cell.cell_contents, depth + 1)
            except ValueError:  # an empty cell
                self.put("empty cell")
        # the globals it reads: helper functions and constants of user code are part of the
        # program; modules by name only
        g = f.__globals__
        for name in code_names(f.__code__):
            if name in g:
                self.put("global", name)
                follow(g[name], depth + 1)
        wrapped = getattr(f, "__wrapped__", None)
        if wrapped is not None:
            inner(wrapped, depth + 1)

    def plain(self, x: Any, depth: int) -> None:
        """``x`` where it is a plain value (numbers, strings, arrays, containers of them); else its
        type's name only."""
        if _plain(x, 0):
            self.walk(x, depth)
        else:
            self.put("object", self.cls_name(type(x)))

    def plain_or_code(self, x: Any, depth: int) -> None:
        """A plain value, or a function (walked: :meth:`function` decides how far)."""
        if isinstance(x, (types.FunctionType, types.MethodType, functools.partial)):
            self.walk(x, depth)
        else:
            self.plain(x, depth)

    def code(self, c: types.CodeType, depth: int) -> None:
        self.put("code", c.co_name, c.co_argcount, c.co_kwonlyargcount, c.co_flags, c.co_names, c.co_varnames)
        self.h.update(c.co_code)
        for k in c.co_consts:
            if isinstance(k, types.CodeType):
                self.code(k, depth + 1)
            else:
                self.walk(k, depth + 1)

    def array(self, x: Any) -> None:
        shape = tuple(None if d is None else int(d) for d in x.shape)
        try:
            dt = dtype_name(x.dtype)
        except Exception:  # a framework variable whose dtype Ivy does not name
            dt = str(x.dtype)
        self.put("array", shape, dt)
        if id(x) in self.weight_ids:
            return
        # a constant of the program (not a weight): its value is part of the program
        try:
            from .. import _api

            a = _api.to_numpy(x)
        except Exception:  # a framework variable or an abstract value
            raise Unfingerprintable(f"cannot read the value of a {type(x).__name__} the object holds") from None
        self.h.update(a.tobytes())

    def obj(self, x: Any, depth: int) -> None:
        t = type(x)
        self.cls(t, depth)
        state: Any = getattr(x, "__dict__", None)
        slots = [s for c in t.__mro__ for s in getattr(c, "__slots__", ()) if isinstance(s, str)]
        if state is None and not slots:
            # a C object (a device, a dtype of a framework): its repr, where it is not the
            # default one, which holds an address
            r = repr(x)
            if t.__repr__ is object.__repr__ or " at 0x" in r:
                raise Unfingerprintable(f"cannot describe a {self.cls_name(t)}")
            self.put("repr", r)
            return
        if state is not None:
            self.walk(dict(state), depth + 1)
        for s in slots:
            if s in ("__dict__", "__weakref__"):
                continue
            self.put("slot", s)
            self.walk(getattr(x, s, None), depth + 1)


def inert(x: Any) -> str | None:
    """A description of an object that a program may hold or read but that cannot change what
    it computes (a ``logging`` logger: its level and handlers decide only what is printed; a
    lock), or None. A fingerprint describes it by this alone: its state differs between
    processes (a logger's manager lists every logger made so far)."""
    import logging

    if isinstance(x, (logging.Logger, logging.LoggerAdapter, logging.PlaceHolder)):
        return f"logger {getattr(x, 'name', '')}"
    if isinstance(x, _LOCKS):
        return "lock"
    return None


_LOCKS = (type(threading.Lock()), type(threading.RLock()))


def _plain(x: Any, depth: int) -> bool:
    t = type(x)
    if t in _PRIMITIVES or isinstance(x, (enum.Enum, float, int)):
        return True
    if t in (tuple, list, set, frozenset):
        return depth < 4 and len(x) <= 10_000 and all(_plain(e, depth + 1) for e in x)
    if t is dict:
        return (
            depth < 4 and len(x) <= 10_000 and all(_plain(k, depth + 1) and _plain(e, depth + 1) for k, e in x.items())
        )
    return is_array(x)


@functools.cache
def _install_dirs() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    dirs = {paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib") if k in paths}
    try:
        dirs.update(site.getsitepackages())
        dirs.add(site.getusersitepackages())
    except AttributeError:  # (an embedded or virtual environment without them)
        pass
    return tuple(os.path.join(os.path.realpath(d), "") for d in dirs if d)


@functools.lru_cache(maxsize=4096)
def _installed(module: str | None) -> bool:
    """Whether a module is installed code (the standard library, site-packages), as opposed to
    the user's (a script, a notebook, a project folder, an editable install)."""
    if not module:
        return False
    mod = sys.modules.get(module)
    path = getattr(mod, "__file__", None)
    if not isinstance(path, str):
        return module in sys.builtin_module_names
    return os.path.realpath(path).startswith(_install_dirs())


def _array_like(x: Any) -> bool:
    return hasattr(x, "shape") and hasattr(x, "dtype") and not isinstance(x, type)


def code_names(c: types.CodeType) -> list[str]:
    """The global (and attribute) names a code object and the functions defined in it read:
    what a fingerprint of a function must follow (``ivy.plugin_kit.code_names``)."""
    names = list(c.co_names)
    for k in c.co_consts:
        if isinstance(k, types.CodeType):
            names.extend(code_names(k))
    return names


def fingerprint(obj: Any, params_v: Any = None) -> str:
    """Core's default fingerprint of ``obj`` (see the module docstring).

    Raises:
        Unfingerprintable: the object holds something that cannot be described deterministically.
    """
    got = weights(obj, params_v)
    ids = {id(x) for x in got[0].values()} if got else set()
    w = _Walker(ids)
    w.walk(obj)
    if params_v is not None:
        w.put("params_v")
        w.walk(params_v)
    return w.h.hexdigest()


def code_fingerprint(*roots: Any) -> str | None:
    """A hash of everything the code of ``roots`` (functions, methods, classes, partials) depends
    on beyond its source text: byte code, defaults, closure cells and the values of the globals
    it reads, followed through the functions and classes of user code it reaches (those of the
    frameworks and of Ivy by name: their versions are in the cache key). Arrays count by value.
    A frontend's fingerprint adds it where it identifies code by its source alone
    (``ivy.plugin_kit.code_fingerprint``); None where something cannot be described
    deterministically (then the object must not be cached)."""
    w = _Walker(set())
    try:
        for r in roots:
            w.walk(r)
    except (Unfingerprintable, RecursionError):
        return None
    return w.h.hexdigest()
