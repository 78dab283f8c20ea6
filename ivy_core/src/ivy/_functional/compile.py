"""``ivy.compile``: the backend's own compiler (torch.compile, jax.jit, tf.function,
paddle.jit.to_static; identity on NumPy), reached through the plugins' ``ivy_compile`` hook."""

from __future__ import annotations

import functools
from typing import Any, Callable, Mapping

from .. import _context, _registry, nest
from .._dispatch import _infer

__all__ = ["compile", "compile_fn"]


def _compiler(backend: "_registry.Backend", fn: Callable[..., Any], options: dict[str, Any]) -> Callable[..., Any]:
    pm = _registry.plugin_manager()
    compiled = pm.hook.ivy_compile(backend=backend.name, fn=fn, options=options)
    return fn if compiled is None else compiled  # a backend without a compiler runs eagerly


class Compiled:
    """A function compiled lazily, per backend, on its first call with that backend's arrays."""

    def __init__(self, fn: Callable[..., Any], backend: Any, options: dict[str, Any]):
        functools.update_wrapper(self, fn)
        self._fn = fn
        self._backend = backend
        self._options = options
        self._cache: dict[str, Callable[..., Any]] = {}
        #: type of the first argument -> compiled function: the per-call fast path
        self._by_type: dict[type, Callable[..., Any]] = {}

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if args:
            f = self._by_type.get(type(args[0]))
            if f is not None:
                return f(*args, **kwargs)
        return self._first_call(args, kwargs)

    def _first_call(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if self._backend is not None:
            b = _context.resolve(self._backend)
        else:
            b = _infer("compile", {}, tuple(nest.leaves((args, kwargs))), ())
        f = self._cache.get(b.name)
        if f is None:
            f = self._cache[b.name] = _compiler(b, self._fn, self._options)
        if args and isinstance(args[0], b.array_types):
            self._by_type[type(args[0])] = f
        return f(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<ivy.compile of {getattr(self._fn, '__qualname__', self._fn)!r}>"


def compile(  # noqa: A001 - the paper's name
    fn: Callable[..., Any] | None = None,
    /,
    *,
    backend: Any = None,
    options: Mapping[str, Any] | None = None,
    **more_options: Any,
) -> Any:
    """Compile ``fn`` with the backend's own compiler; usable as a decorator.

    The backend is ``backend`` if given, else the framework of the first call's arrays (each
    backend compiles separately, on its first call). With ``backend`` given, the result is the
    framework's compiled callable itself (what ``jax.jit(fn)`` returns, say: no Ivy wrapper, no
    per-call cost; paddle's ``to_static`` cannot convert a function of ``*args``, so such a
    function is converted once per number of arguments behind a small object); without it, a
    small object that picks the compiled function by the type of the first argument (when that
    is an array; otherwise it infers the backend on each call). Compiler options pass through:
    ``torch.compile(fn, **options)``, ``jax.jit(fn, **options)``, ``tf.function(fn, **options)``,
    ``paddle.jit.to_static(fn, **options)``; NumPy runs ``fn`` as it is. Compiled results equal
    eager results. Ivy's dispatch runs while the compiler traces, so the compiled program is the
    one the framework's own ops would give, and Ivy's state (which implementation an op has, its
    defaults) is read at trace time, as ``jax.jit`` and ``tf.function`` read Python state; on
    torch, dynamo's guards on Ivy's own objects are dropped to the same end (they cost several
    microseconds per call), while those on the inputs and the caller's globals stay.

    Args:
        fn: the function to compile (omit it to use ``ivy.compile(...)`` as a decorator).
        backend: the Ivy backend to compile for; default: the first call's arrays decide.
        options: compiler options, as a mapping; the way to pass options whose names clash with
            this function's own (``options={"backend": "aot_eager"}`` for ``torch.compile``).
        **more_options: further compiler options (``static_argnums=(1,)`` for ``jax.jit``).
    """
    merged = {**(options or {}), **more_options}
    if fn is None:
        return lambda f: _compile(f, backend, merged)
    return _compile(fn, backend, merged)


def _compile(fn: Callable[..., Any], backend: Any, options: dict[str, Any]) -> Any:
    if not callable(fn):
        raise TypeError(f"ivy.compile needs a callable, got {type(fn).__name__}")
    if backend is None:
        return Compiled(fn, None, options)  # the first call's arrays pick the backend
    # The backend is known: hand back the framework's own compiled callable (jax.jit's,
    # tf.function's, ...), not a wrapper around it, so that a call costs exactly what the native
    # compiled function costs. The compilers are lazy (they trace on the first call), so compiling
    # now rather than on the first call changes nothing but when the framework is imported.
    return _compiler(_context.resolve(backend), fn, options)


#: The paper's name.
compile_fn = compile
