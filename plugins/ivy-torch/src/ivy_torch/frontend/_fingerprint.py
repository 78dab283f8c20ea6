"""The torch frontend's fingerprint of a program, for the transpiler's disk cache.

It must be cheap (a cached transpile of a Hugging Face model in a new process takes well under a
second) and must change whenever the program could: so it hashes

* each submodule's path, class and mode, and its configuration: the plain attributes a module's
  ``forward`` reads (``stride``, ``eps``, ``normalized_shape``, a Hugging Face ``config``...),
  non-empty hooks by their code, tensors that are not parameters or buffers by value;
* the parameters' and buffers' names, shapes and dtypes (not their values);
* each class of user or library code once (not per submodule): its methods' byte code, and the
  identity (path, size, modification time) of the file defining it and of the files of the same
  package its module imports names from, plus that package's version. Reading the source text
  (``inspect.getsource``) per class took seconds for a transformers model;
* what the code of those classes (every method, not only ``forward``: the trace may run any)
  and of the functions met reads beyond its byte code: defaults, closures and the values of the
  module-level globals it names, followed through the user code it calls
  (``ivy.plugin_kit.code_fingerprint``): a ``SCALE`` or a mode string another process sets
  otherwise gives another fingerprint.

Something it cannot describe deterministically makes the object uncacheable (the fingerprint is
None) rather than risk two programs sharing a key.
"""

from __future__ import annotations

import enum
import functools
import hashlib
import os
import sys
import types
from typing import Any

import torch

from ivy.plugin_kit import code_fingerprint, inert

__all__ = ["fingerprint"]

#: packages whose code is identified by their version alone (it is in the cache key)
_FRAMEWORKS = frozenset({"torch", "builtins", "typing", "collections", "abc", "functools", "enum", "ivy", "ivy_torch"})
_HOOKS_SKIPPED = frozenset({"_parameters", "_buffers", "_modules", "_non_persistent_buffers_set", "training"})
_MAX_DEPTH = 12


class _Opaque(Exception):
    """Something the fingerprint cannot describe."""


def fingerprint(obj: Any, table_stamp: str) -> str | None:
    """The fingerprint of ``obj`` (a module or a function), or None where it cannot be made."""
    h = hashlib.sha256()
    h.update(f"torch {torch.__version__};{table_stamp};".encode())
    d = _Describer(h)
    try:
        if isinstance(obj, torch.nn.Module):
            d.module_tree(obj, weights_by_value=False)
        else:
            d.value(obj, 0)
    except (_Opaque, RecursionError):
        return None
    # the values of the globals every method and function read (a module-level SCALE, a mode
    # string), not only forward's: the trace may run any of them; None: not cacheable
    reads = code_fingerprint(*d.roots)
    if reads is None:
        return None
    h.update(reads.encode())
    return h.hexdigest()


class _Describer:
    def __init__(self, h: Any):
        self.h = h
        self.classes: set[type] = set()
        #: the classes and functions of user and library code described: what their code reads
        #: (globals, closures, followed through the code they call) is hashed by core at the end
        self.roots: list[Any] = []
        self.seen: dict[int, int] = {}
        self.keep: list[Any] = []  # (what is described stays alive: ids stay unique)

    def put(self, *tokens: Any) -> None:
        self.h.update(repr(tokens).encode("utf-8", "surrogatepass"))

    def module_tree(self, root: torch.nn.Module, weights_by_value: bool) -> None:
        """A module and its submodules: classes, modes, configuration, and the weights' names,
        shapes and dtypes; ``weights_by_value``: their values too (a module a function closes
        over: its weights are constants of the function's program)."""
        for name, sub in root.named_modules():
            if id(sub) not in self.seen:  # (a reference to it elsewhere is then a "ref")
                self.seen[id(sub)] = len(self.seen)
                self.keep.append(sub)
            t = type(sub)
            self.put("module", name, t.__module__, t.__qualname__, sub.training)
            self.cls(t)
            self.attributes(sub)
        # every name of a tied weight, with the first name it had (ties and trainability are
        # part of the program: one parameter, its gradient, its optimizer state)
        first: dict[int, str] = {}
        weights = (
            *root.named_parameters(remove_duplicate=False),
            *root.named_buffers(remove_duplicate=False),
        )
        for name, x in weights:
            self.put("weight", name, first.setdefault(id(x), name), x.requires_grad)
            if weights_by_value:
                self.tensor(x)
            else:
                self.put(tuple(x.shape), str(x.dtype))

    def tensor(self, x: torch.Tensor) -> None:
        if x.is_meta or x.layout != torch.strided:
            raise _Opaque
        self.put("tensor", tuple(x.shape), str(x.dtype))
        x = x.detach().cpu().contiguous()
        self.h.update((x.view(torch.int16) if x.dtype == torch.bfloat16 else x).numpy().tobytes())

    def attributes(self, m: torch.nn.Module) -> None:
        for k, v in vars(m).items():
            if k in _HOOKS_SKIPPED:
                continue
            if "hook" in k and isinstance(v, dict):
                if not v:
                    continue  # (the empty hook tables every module has)
                v = list(v.values())  # (keyed by a counter of the process: its hooks in order)
            self.put("attr", k)
            self.value(v, 0)

    def value(self, x: Any, depth: int) -> None:
        if depth > _MAX_DEPTH:
            raise _Opaque
        t = type(x)
        if t in (bool, int, float, complex, str, bytes, type(None)) or isinstance(x, enum.Enum):
            self.put(t.__name__, x)
            return
        if isinstance(x, (torch.dtype, torch.device, torch.Size, torch.memory_format, torch.layout)):
            self.put(t.__name__, str(x))
            return
        if t in (tuple, list) or isinstance(x, (set, frozenset)):
            items = sorted(x, key=repr) if isinstance(x, (set, frozenset)) else x
            self.put(t.__name__, len(x))
            for e in items:
                self.value(e, depth + 1)
            return
        key = id(x)
        if key in self.seen:  # (a shared config, a module referenced twice)
            self.put("ref", self.seen[key])
            return
        self.seen[key] = len(self.seen)
        self.keep.append(x)
        if isinstance(x, dict):
            self.put("dict", len(x))
            for k, e in x.items():
                self.value(k, depth + 1)
                self.value(e, depth + 1)
        elif isinstance(x, torch.nn.Module):
            # (one the module tree has already described is a "ref" above)
            self.module_tree(x, weights_by_value=True)
        elif isinstance(x, torch.Tensor):
            self.tensor(x)  # a constant the program bakes in (not a parameter or buffer): by value
        elif isinstance(x, type):
            self.cls(x)
        elif isinstance(x, (types.FunctionType, types.MethodType, functools.partial)):
            self.function(x, depth)
        elif isinstance(x, (types.BuiltinFunctionType, types.MethodWrapperType, types.WrapperDescriptorType)):
            self.put("builtin", getattr(x, "__module__", None), getattr(x, "__qualname__", None))
        elif isinstance(x, types.ModuleType):
            self.put("pymodule", x.__name__)
        elif (quiet := inert(x)) is not None:
            self.put("inert", quiet)  # (a logger, a lock: nothing the program computes)
        elif callable(getattr(x, "to_dict", None)) and hasattr(x, "model_type"):
            self.put("config", type(x).__qualname__)  # (a transformers configuration)
            self.cls(type(x))
            self.value(x.to_dict(), depth + 1)
        else:
            self.obj(x, depth)

    def obj(self, x: Any, depth: int) -> None:
        t = type(x)
        self.put("object", t.__module__, t.__qualname__)
        self.cls(t)
        state = getattr(x, "__dict__", None)
        if state is not None:
            self.value(dict(state), depth + 1)
            return
        r = repr(x)
        if t.__repr__ is object.__repr__ or " at 0x" in r:
            raise _Opaque
        self.put("repr", r)

    def function(self, f: Any, depth: int) -> None:
        if isinstance(f, functools.partial):
            self.put("partial")
            self.value((f.func, f.args, f.keywords), depth + 1)
            return
        if isinstance(f, types.MethodType):
            self.put("method")
            self.function(f.__func__, depth + 1)
            self.value(f.__self__, depth + 1)
            return
        self.put("function", f.__module__, f.__qualname__)
        if _top(f.__module__) in _FRAMEWORKS:
            return
        self.code(f.__code__)
        self.put("file", _file_stamp(f.__code__.co_filename), _module_files(f.__module__))
        self.roots.append(f)
        self.value((f.__defaults__, f.__kwdefaults__), depth + 1)
        for cell in f.__closure__ or ():
            try:
                self.value(cell.cell_contents, depth + 1)
            except ValueError:  # (an empty cell)
                self.put("empty cell")

    def code(self, c: types.CodeType) -> None:
        self.put("code", c.co_name, c.co_argcount, c.co_kwonlyargcount, c.co_flags, c.co_names, c.co_varnames)
        self.h.update(c.co_code)
        for k in c.co_consts:
            if isinstance(k, types.CodeType):
                self.code(k)
            else:
                self.put(_const(k))

    def cls(self, c: type) -> None:
        """A class of user or library code, once per fingerprint: its bases, its methods' byte
        code, the files its module and the same package's modules it imports from live in."""
        if c in self.classes:
            return
        self.classes.add(c)
        top = _top(c.__module__)
        if top in _FRAMEWORKS or c.__module__ in sys.builtin_module_names:
            return  # (its version is in the cache key)
        self.put("class", c.__module__, c.__qualname__, [f"{b.__module__}.{b.__qualname__}" for b in c.__mro__])
        self.put("package", top, _package_version(top))
        self.put("files", _module_files(c.__module__))
        for name, member in sorted(vars(c).items()):
            fn = member.__func__ if isinstance(member, (staticmethod, classmethod)) else member
            if isinstance(member, property):
                for part in (member.fget, member.fset):
                    if isinstance(part, types.FunctionType):
                        self.put("member", name)
                        self.code(part.__code__)
            elif isinstance(fn, types.FunctionType):
                self.put("member", name)
                self.code(fn.__code__)
        self.roots.append(c)  # (what its methods read: see fingerprint)
        for base in c.__mro__[1:]:
            self.cls(base)


def _const(k: Any) -> Any:
    """A code object's constant, deterministically (a frozenset's order varies between processes)."""
    if isinstance(k, tuple):
        return tuple(_const(e) for e in k)
    if isinstance(k, frozenset):
        return ("frozenset", sorted(repr(_const(e)) for e in k))
    return (type(k).__name__, repr(k))


def _top(module: str | None) -> str:
    return (module or "").partition(".")[0]


def _package_version(top: str) -> str:
    mod = sys.modules.get(top)
    return str(getattr(mod, "__version__", "")) if mod is not None else ""


def _file_stamp(path: str | None) -> str:
    """A file's identity: path, size, modification time ("" where there is no such file: code typed
    in a notebook or the interpreter, identified by its byte code alone)."""
    if not path:
        return ""
    try:
        st = os.stat(path)
    except OSError:
        return ""
    return f"{path}:{st.st_size}:{st.st_mtime_ns}"


def _module_files(module: str) -> str:
    """The identities of a module's file and of the files of the same package's modules it
    imports names from (its helper functions live there)."""
    mod = sys.modules.get(module)
    top = _top(module)
    files = {_file_stamp(getattr(mod, "__file__", None))}
    for v in list(vars(mod).values()) if mod is not None else ():
        name = v.__name__ if isinstance(v, types.ModuleType) else getattr(v, "__module__", None)
        if isinstance(name, str) and name != module and _top(name) == top:
            files.add(_file_stamp(getattr(sys.modules.get(name), "__file__", None)))
    return ";".join(sorted(files))
