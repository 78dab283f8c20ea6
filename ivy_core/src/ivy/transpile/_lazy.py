"""Transpiling on first call: functions (per call signature), modules (on their first input) and
whole libraries (a proxy of a Python package whose functions are transpiled as they are called).

Membership in a library is decided by module objects, never by file paths: a submodule belongs
to the package ``lib`` when its ``__name__`` is ``lib`` or starts with ``lib.``, and a function or
class when its ``__module__`` does. What does not belong (a re-exported function of another
package, a constant) is passed through untouched.
"""

from __future__ import annotations

import functools
import threading
import time
import types
from typing import Any

from ._inputs import array_backend, is_array, map_arrays, signature, to_backend
from ._programs import _show
from ._source import Source, describe, log
from ._targets import function_program, module_object, outside_compiler_traces

__all__ = ["LazyFunction", "LazyModule", "LazyClass", "LazyLibrary"]


def _to_target(tree: Any, to: str) -> Any:
    """Arrays of other frameworks (NumPy's...) converted to the target's: the transpiled program
    takes the target's arrays."""
    if to == "ivy":
        return tree

    def conv(x: Any) -> Any:
        return x if array_backend(x) == to else to_backend(x, to)

    return map_arrays(conv, tree)


class LazyFunction:
    """A function transpiled on its first call for each call signature (array shapes and dtypes,
    static arguments); later calls with that signature run the target program directly.

    Attributes:
        programs: call signature -> the target program (or ``ivy.Graph`` for ``to="ivy"``).
    """

    def __init__(self, source: Source, to: str):
        self._source = source
        self._to = to
        self._lock = threading.Lock()
        self.programs: dict[Any, Any] = {}
        functools.update_wrapper(self, source.obj, updated=())

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        args, kwargs = _to_target((args, kwargs), self._to)
        sig = signature(args, kwargs)
        prog = self.programs.get(sig)
        if prog is None:
            with self._lock:
                prog = self.programs.get(sig)
                if prog is None:
                    prog = self.programs[sig] = self._transpile(sig, args, kwargs)
        return prog(*args, **kwargs)

    def _transpile(self, sig: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        start = time.perf_counter()
        with outside_compiler_traces(self._source.name, self._to):
            graph = self._source.graph(args, kwargs)
            prog = function_program(graph, self._to)
        log.info(
            "transpiled %s from %s to %s for %s in %.2f s",
            getattr(self._source.obj, "__qualname__", describe(self._source.obj)),
            self._source.name,
            self._to,
            _show(sig),
            time.perf_counter() - start,
        )
        return prog

    def __repr__(self) -> str:
        name = getattr(self._source.obj, "__qualname__", "?")
        return f"<{name} transpiled from {self._source.name} to {self._to} on first call per signature>"


class LazyModule:
    """A module transpiled on its first call (the call's inputs are the example inputs). After
    that, :attr:`native` is the target's module (trainable with the target's optimizers): calls
    go to it, and so do attribute lookups."""

    def __init__(self, source: Source, to: str):
        self._source = source
        self._to = to
        self._lock = threading.Lock()
        self.native: Any = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.native is None:
            with self._lock:
                if self.native is None:
                    start = time.perf_counter()
                    args_t, kwargs_t = _to_target((args, kwargs), self._to)
                    with outside_compiler_traces(self._source.name, self._to):
                        graph = self._source.graph(args_t, kwargs_t)
                        self.native = module_object(graph, self._to, self._source.retrace)
                    log.info(
                        "transpiled %s from %s to %s in %.2f s",
                        describe(self._source.obj),
                        self._source.name,
                        self._to,
                        time.perf_counter() - start,
                    )
        args, kwargs = _to_target((args, kwargs), self._to)
        return self.native(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        native = self.__dict__.get("native")
        if native is None:
            raise AttributeError(
                f"{name!r}: this lazily transpiled module is built on its first call; call it once on an input "
                "(or pass args= to ivy.transpile) before using its attributes"
            )
        return getattr(native, name)

    def __repr__(self) -> str:
        state = repr(self.native) if self.native is not None else "not transpiled yet: built on its first call"
        return f"<{describe(self._source.obj)} transpiled from {self._source.name} to {self._to}: {state}>"


class LazyClass:
    """A class of a transpiled library: calling it builds the source object, and returns a
    :class:`LazyModule` of it where the frontend reads it as a module (the object itself
    otherwise). Other attributes are the class's own."""

    def __init__(self, cls: type, library: LazyLibrary):
        self._cls = cls
        self._library = library
        functools.update_wrapper(self, cls, updated=())

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        obj = self._cls(*args, **kwargs)
        src = Source(obj, self._library._source_name, cache=self._library._cache)
        if src.impl.kind(obj) == "module":
            return LazyModule(src, self._library._to)
        return obj

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cls, name)

    # isinstance(x, lib.Class) and issubclass(...) answer for the library's own class (a lazily
    # transpiled module made by the class counts as one of its instances)
    def __instancecheck__(self, obj: Any) -> bool:
        if isinstance(obj, LazyModule):
            return isinstance(obj._source.obj, self._cls)
        return isinstance(obj, self._cls)

    def __subclasscheck__(self, cls: type) -> bool:
        return issubclass(cls, self._cls)

    def __repr__(self) -> str:
        return f"<class {self._cls.__module__}.{self._cls.__qualname__} of a library transpiled to {self._library._to}>"


class LazyLibrary(types.ModuleType):
    """A Python package transpiled lazily: its functions are transpiled on their first call per
    call signature, its module classes on their first input, its submodules are libraries of the
    same kind, and everything else is the package's own attribute."""

    def __init__(
        self,
        module: types.ModuleType,
        *,
        source: str,
        to: str,
        cache: bool,
        root: str | None = None,
        members: dict[int, Any] | None = None,
    ):
        super().__init__(module.__name__, module.__doc__)
        self._module = module
        self._source_name = source
        self._to = to
        self._cache = cache
        self._root = root or module.__name__
        # one proxy per member across the whole library: kornia.filters.f and kornia.f are one
        self._members: dict[int, Any] = {} if members is None else members

    def _belongs(self, name: Any) -> bool:
        return isinstance(name, str) and (name == self._root or name.startswith(self._root + "."))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            return getattr(self._module, name)
        value = getattr(self._module, name)
        got = self._members.get(id(value))
        if got is not None and got[0] is value:
            return got[1]
        wrapped = self._wrap(value)
        if wrapped is not value:
            self._members[id(value)] = (value, wrapped)
        return wrapped

    def _wrap(self, value: Any) -> Any:
        if isinstance(value, types.ModuleType):
            if not self._belongs(value.__name__):
                return value
            return LazyLibrary(
                value, source=self._source_name, to=self._to, cache=self._cache, root=self._root, members=self._members
            )
        if is_array(value):
            return value
        if isinstance(value, type):
            return LazyClass(value, self) if self._belongs(value.__module__) else value
        if callable(value) and self._belongs(getattr(value, "__module__", None)):
            return LazyFunction(Source(value, self._source_name, cache=self._cache), self._to)
        return value

    def __dir__(self) -> list[str]:
        return dir(self._module)

    def __repr__(self) -> str:
        return f"<library {self._module.__name__!r} transpiled from {self._source_name} to {self._to} (lazily)>"
