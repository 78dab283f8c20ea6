"""``ivy.compile``: the backend's own compiler (torch.compile, jax.jit, tf.function,
paddle.jit.to_static; identity on NumPy), reached through the plugins' ``ivy_compile`` hook."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from .. import _context, _registry, _tracking, nest
from .._dispatch import _infer
from ..errors import StateNotThreadedError

__all__ = ["compile", "compile_fn"]


def _compiler(backend: _registry.Backend, fn: Callable[..., Any], options: dict[str, Any]) -> Callable[..., Any]:
    pm = _registry.plugin_manager()
    compiled = pm.hook.ivy_compile(backend=backend.name, fn=fn, options=options)
    return fn if compiled is None else compiled  # a backend without a compiler runs eagerly


def _label(fn: Callable[..., Any]) -> str:
    return f"the function {getattr(fn, '__qualname__', fn)!r} compiled by ivy.compile"


def _guarded(fn: Callable[..., Any], backend: _registry.Backend) -> Callable[..., Any]:
    """``fn``, checking that it updates no module or optimizer while a compiler traces it.

    Where the framework's compiler keeps Python side effects (torch.compile) there is nothing to
    check; elsewhere the check runs only while the compiler traces (then the Python of ``fn``
    runs no more), so it costs nothing per call.
    """
    if backend.impl.compiled_side_effects:
        return fn
    session = _tracking.Session((), _label(fn))

    def guarded(*args: Any, **kwargs: Any) -> Any:
        prev = _tracking.enter(session)
        try:
            return fn(*args, **kwargs)
        finally:
            _tracking.leave(prev)

    # named like fn, but no __wrapped__: compilers that read the signature (paddle's to_static)
    # must see the *args of this function, which is what they call
    guarded.__name__ = getattr(fn, "__name__", "guarded")
    guarded.__qualname__ = getattr(fn, "__qualname__", guarded.__name__)
    guarded.__doc__ = fn.__doc__
    source = getattr(fn, "__ivy_source__", None)
    if source is not None:  # a program emitted from an ivy.Graph: compilers may treat it so
        guarded.__ivy_source__ = source  # type: ignore[attr-defined]
    return guarded


def _numbers_to_arrays(tree: Any, xp: Any) -> Any:
    """Python numbers in a state nest as 0-d arrays: compiled programs take them as inputs
    (tf.function would bake a Python number into the program and retrace for each value). Runs on
    every call of a compiled training step: plain dicts, lists and tuples are walked here and only
    rebuilt where a number was found (a module's state has none)."""
    t = type(tree)
    if t is dict:
        out = None
        for k, v in tree.items():
            w = _numbers_to_arrays(v, xp)
            if w is not v:
                if out is None:
                    out = dict(tree)
                out[k] = w
        return tree if out is None else out
    if t is list or t is tuple:
        items = [_numbers_to_arrays(v, xp) for v in tree]
        return tree if all(a is b for a, b in zip(items, tree)) else t(items)
    if tree is None or t is bool or t is str:
        return tree
    if isinstance(tree, (int, float)):  # (NumPy's float64 is a float too)
        return xp.asarray(tree)
    if isinstance(tree, (dict, list, tuple)) or t in nest._NODES:  # other kinds of nest
        leaves, structure = nest.flatten(tree)
        return nest.unflatten(
            structure,
            [xp.asarray(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else x for x in leaves],
        )
    return tree


def _surfaced(e: BaseException) -> BaseException:
    """Ivy's own error behind a compiler's wrapper of it (TensorFlow's StagingError), else ``e``."""
    seen = set()
    inner: BaseException | None = e
    while inner is not None and id(inner) not in seen:
        if isinstance(inner, (StateNotThreadedError, _tracking.Restart)):
            return inner
        seen.add(id(inner))
        inner = inner.__cause__ or inner.__context__
    return e


def _in_order(new: Any, like: Any) -> Any:
    """``new`` with the dict keys in the order of ``like`` (jax.jit and tf.function return dicts
    with sorted keys: a module's variables keep their order)."""
    if isinstance(new, dict) and isinstance(like, dict):
        out = {k: _in_order(new[k], like[k]) for k in like if k in new}
        out.update((k, v) for k, v in new.items() if k not in out)
        return out
    if isinstance(new, (list, tuple)) and isinstance(like, (list, tuple)) and len(new) == len(like):
        return type(new)(_in_order(a, b) for a, b in zip(new, like))
    return new


def _stateful_args(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[dict[int, Any], dict[str, Any]]:
    pos = {i: a for i, a in enumerate(args) if _tracking.is_stateful(a)}
    kw = {k: a for k, a in kwargs.items() if _tracking.is_stateful(a)}
    return pos, kw


class _Threaded:
    """A compiled program that takes and returns the state of the modules and optimizers its
    function uses (see :mod:`ivy._tracking`), and writes the new state back after each call."""

    def __init__(
        self,
        fn: Callable[..., Any],
        backend: _registry.Backend,
        objs: list[Any],
        arg_objs: tuple[dict[int, Any], dict[str, Any]],
        options: dict[str, Any],
    ):
        self._fn = fn
        self._objs = objs
        self._arg_objs = arg_objs
        self._xp = backend.namespace
        self._session = _tracking.Session(objs, _label(fn), strict=not backend.impl.compiled_side_effects)
        options = dict(options)
        for key in ("static_argnums", "donate_argnums"):  # jax.jit's: the state comes first now
            if key in options:
                nums = options[key]
                options[key] = (nums + 1) if isinstance(nums, int) else tuple(n + 1 for n in nums)
        self._compiled = _compiler(backend, _pure_function(fn, objs, arg_objs, self._session), options)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        pos, kw = self._arg_objs
        if pos or kw:
            for i, o in pos.items():
                if i >= len(args) or args[i] is not o:
                    raise TypeError(
                        f"{_label(self._fn)} was first called with {type(o).__name__} object "
                        f"{_tracking._label(o)} as argument {i}; call it with the same object "
                        "(compile another function for another object)"
                    )
            args = tuple(None if i in pos else a for i, a in enumerate(args))
            kwargs = {k: (None if k in kw else a) for k, a in kwargs.items()}
        states = [_numbers_to_arrays(o._ivy_get_state(), self._xp) for o in self._objs]
        try:
            out, new = self._compiled(states, *args, **kwargs)
        except Exception as e:
            inner = _surfaced(e)
            if inner is e:
                raise
            raise inner from None
        for o, st, like in zip(self._objs, new, states):
            o._ivy_set_state(_in_order(st, like), concrete=True)
        return out


def _pure_function(
    fn: Callable[..., Any], objs: list[Any], arg_objs: tuple[dict[int, Any], dict[str, Any]], session: _tracking.Session
) -> Callable[..., Any]:
    """``fn`` with the state of ``objs`` as input and output: what the compiler traces (a plain
    function: paddle's converter rewrites the code it converts, and mishandles methods)."""
    pos, kw = arg_objs

    def pure(states: list[Any], *args: Any, **kwargs: Any) -> tuple[Any, list[Any]]:
        if pos or kw:
            args = tuple(pos.get(i, a) for i, a in enumerate(args))
            kwargs = {**kwargs, **kw}
        saved = [o._ivy_get_state() for o in objs]
        prev = _tracking.enter(session)
        try:
            for o, st, like in zip(objs, states, saved):
                o._ivy_set_state(_in_order(st, like), concrete=False)
            out = fn(*args, **kwargs)
            new = [o._ivy_get_state() for o in objs]
        finally:
            _tracking.leave(prev)
            for o, st in zip(objs, saved):  # no traced value stays in the objects
                o._ivy_set_state(st, concrete=False)
        return out, new

    return pure


def _stateful_objects(fn: Callable[..., Any], pos: dict[int, Any], kw: dict[str, Any]) -> list[Any]:
    found: dict[int, Any] = {id(o): o for o in _tracking.reachable_stateful(fn)}
    for a in (*pos.values(), *kw.values()):
        for m in a._ivy_members():
            found.setdefault(id(m), m)
    return list(found.values())


class Compiled:
    """A function compiled lazily, per backend, on its first call with that backend's arrays.

    The modules and optimizers the function uses (see :func:`compile`) are found on the first
    call; their state is then threaded through the compiled program. While a module the function
    uses has not built its variables, calls run eagerly (a compiled program cannot create them).
    """

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
                try:
                    return f(*args, **kwargs)
                except _tracking.Restart as r:  # a retrace drew random numbers: thread the key too
                    return self._restart(r, args, kwargs)
                except Exception as e:
                    inner = _surfaced(e)
                    if inner is e:
                        raise
                    raise inner from None
        return self._first_call(args, kwargs)

    def _backend_of(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> _registry.Backend:
        if self._backend is not None:
            return _context.resolve(self._backend)
        return _infer("compile", {}, tuple(nest.leaves((args, kwargs))), ())

    def _first_call(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        b = self._backend_of(args, kwargs)
        f = self._cache.get(b.name)
        if f is None:
            pos, kw = _stateful_args(args, kwargs)
            objs = _stateful_objects(self._fn, pos, kw)
            if any(not o._ivy_ready() for o in objs):  # modules build in this (eager) call
                return self._fn(*args, **kwargs)
            f = self._program(b, objs, (pos, kw))
        if args and isinstance(args[0], b.array_types):
            self._by_type[type(args[0])] = f
        try:
            return f(*args, **kwargs)
        except _tracking.Restart as r:
            return self._restart(r, args, kwargs)
        except Exception as e:
            inner = _surfaced(e)
            if inner is e:
                raise
            raise inner from None

    def _program(self, b: _registry.Backend, objs: list[Any], arg_objs: Any) -> Callable[..., Any]:
        if not _has_compiler(b):  # NumPy: the function runs as it is
            f = self._fn
        elif not objs:
            f = _compiler(b, _guarded(self._fn, b), self._options)
        else:
            f = _Threaded(self._fn, b, objs, arg_objs, self._options)
        self._cache[b.name] = f
        return f

    def _restart(self, r: _tracking.Restart, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """Recompile with the backend's random state threaded too, and call again."""
        b = self._backend_of(args, kwargs)
        old = self._cache.get(b.name)
        objs, arg_objs = (
            (old._objs, old._arg_objs) if isinstance(old, _Threaded) else ([], _stateful_args(args, kwargs))
        )
        f = self._program(b, [*objs, r.state], arg_objs)
        for t, g in list(self._by_type.items()):
            if g is old:
                self._by_type[t] = f
        return f(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<ivy.compile of {getattr(self._fn, '__qualname__', self._fn)!r}>"


def _probe() -> None:
    """Compiled to learn whether a backend has a compiler (its hook returns the function itself)."""


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
    backend compiles separately, on its first call). With ``backend`` given (and no state to
    thread, see below), the result is the framework's compiled callable itself (what
    ``jax.jit(fn)`` returns, say: no Ivy wrapper, no per-call cost; paddle's ``to_static``
    cannot convert a function of ``*args``, so such a function is converted once per number of
    arguments behind a small object; JAX, whose random key may need threading, gets that small
    object too); without it, a
    small object that picks the compiled function by the type of the first argument (when that
    is an array; otherwise it infers the backend on each call). Compiler options pass through:
    ``torch.compile(fn, **options)``, ``jax.jit(fn, **options)``, ``tf.function(fn, **options)``,
    ``paddle.jit.to_static(fn, **options)``; NumPy runs ``fn`` as it is. Compiled results equal
    eager results. Ivy's dispatch runs while the compiler traces, so the compiled program is the
    one the framework's own ops would give, and Ivy's state (which implementation an op has, its
    defaults) is read at trace time, as ``jax.jit`` and ``tf.function`` read Python state; on
    torch, dynamo's guards on Ivy's own objects are dropped to the same end (they cost several
    microseconds per call), while those on the inputs and the caller's globals stay.

    **State.** A training step updates state that lives outside its arrays: ``model.v = ...``,
    an optimizer's moments and step count, BatchNorm's running statistics. The modules and
    optimizers the function reaches by name (its globals and closure variables, those of the
    functions it defines or names, the attributes of a bound method's ``self``) or receives as
    arguments have their state *threaded* through the compiled program: it goes in as inputs and
    comes out as outputs, written back to the objects after each call, so a compiled step equals
    the eager step, call after call (as Keras' stateless scope or flax nnx's ``jit``). With
    ``backend=`` the function is searched when ``ivy.compile`` is called (the objects must exist
    then); without it, on the first call. While a module still has to build its variables (it
    takes sizes from its first input), calls run eagerly. A function that updates a module or
    optimizer it was not given this way raises :class:`ivy.errors.StateNotThreadedError` while
    the compiler traces it, rather than lose the update. A learning-rate schedule then receives
    the step count as a scalar array: write it with ``ivy`` ops.

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
    if backend is None or _tracking.reachable_stateful(fn):
        return Compiled(fn, backend, options)  # the first call picks the backend, finds the state
    b = _context.resolve(backend)
    if b.impl.random_state is not None:  # random draws may need its key threaded: found on a call
        return Compiled(fn, backend, options)
    # The backend is known and the function uses no module or optimizer: hand back the
    # framework's own compiled callable (jax.jit's, tf.function's, ...), not a wrapper around it,
    # so that a call costs exactly what the native compiled function costs. The compilers are lazy
    # (they trace on the first call), so compiling now rather than on the first call changes
    # nothing but when the framework is imported.
    if not _has_compiler(b):
        return fn
    return _compiler(b, _guarded(fn, b), options)


_HAS_COMPILER: dict[str, bool] = {}


def _has_compiler(b: _registry.Backend) -> bool:
    got = _HAS_COMPILER.get(b.name)
    if got is None:
        pm = _registry.plugin_manager()
        compiled = pm.hook.ivy_compile(backend=b.name, fn=_probe, options={})
        got = _HAS_COMPILER[b.name] = compiled is not None and compiled is not _probe
    return got


#: The paper's name.
compile_fn = compile
