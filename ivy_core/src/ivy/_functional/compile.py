"""``ivy.compile``: the backend's own compiler (torch.compile, jax.jit, tf.function,
paddle.jit.to_static; identity on NumPy), reached through the plugins' ``ivy_compile`` hook."""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable, Mapping
from typing import Any

from .. import _context, _registry, _stack, _tracking, nest
from .._dispatch import _NEUTRAL, _cdispatch, _infer, _loaded_owner, _traceable_call
from ..errors import CompileFailedWarning, StateNotThreadedError

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
        guarded.__ivy_ops__ = getattr(fn, "__ivy_ops__", frozenset())  # type: ignore[attr-defined]
    try:  # what guarded passes its arguments to (see the ivy_compile hook's contract)
        guarded.__ivy_signature__ = inspect.signature(fn)  # type: ignore[attr-defined]
    except (TypeError, ValueError):  # a callable without a signature: compilers see *args
        pass
    return guarded


#: Structure marks of a state nest (see :func:`_flatten_state`): a leaf, and ``None``.
_LEAF = "leaf"
_NONE = "none"


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _flatten_state(tree: Any, leaves: list[Any]) -> Any:
    """Appends the leaves of a state nest to ``leaves``; returns its structure as nested tuples,
    which ``==`` compares at C speed on every call of a compiled training step. ``None``, bools
    and strings are part of the structure, not leaves (a compiled program takes arrays)."""
    t = type(tree)
    if t is dict:
        return (dict, tuple(tree), tuple([_flatten_state(v, leaves) for v in tree.values()]))
    if t is list or t is tuple:
        return (t, None, tuple([_flatten_state(v, leaves) for v in tree]))
    if tree is None:
        return _NONE
    if t is bool or t is str:
        return ("const", tree, ())
    if isinstance(tree, (dict, list, tuple)) or t in nest._NODES:  # other kinds of nest
        sub, structure = nest.tree_flatten(tree)
        leaves.extend(sub)
        return (nest, structure, len(sub))
    leaves.append(tree)
    return _LEAF


def _object_state(o: Any, leaves: list[Any]) -> Any:
    """Appends the leaves of the state of the stateful object ``o``; returns its structure. An
    object may hand its leaves over directly (``_ivy_flat_state()``: ``(key, leaves)``, ``key``
    comparable with ``==``, or None for the nested form), saving the nested dicts."""
    flat = getattr(o, "_ivy_flat_state", None)
    if flat is not None:
        got = flat()
        if got is not None:
            leaves.extend(got[1])
            return ("flat", got[0], len(got[1]))
    return _flatten_state(o._ivy_get_state(), leaves)


def _set_object_state(o: Any, sig: Any, it: Any, concrete: bool) -> None:
    """Sets the state of ``o``, of structure ``sig`` (:func:`_object_state`), leaves from ``it``."""
    if type(sig) is tuple and sig[0] == "flat":
        o._ivy_set_flat_state(sig[1], [next(it) for _ in range(sig[2])], concrete=concrete)
    else:
        o._ivy_set_state(_unflatten_state(sig, it), concrete=concrete)


def _unflatten_state(sig: Any, it: Any) -> Any:
    """The nest of structure ``sig`` (from :func:`_flatten_state`) with leaves from ``it``."""
    if sig is _LEAF:
        return next(it)
    if sig is _NONE:
        return None
    kind, meta, children = sig
    if kind is dict:
        return dict(zip(meta, [_unflatten_state(c, it) for c in children]))
    if kind is nest:
        return nest.tree_unflatten(meta, [next(it) for _ in range(children)])
    if kind == "const":
        return meta
    return kind([_unflatten_state(c, it) for c in children])


def _leaf_paths(sig: Any, prefix: tuple[Any, ...], out: list[tuple[Any, ...]]) -> None:
    """The path (keys, indices) of each leaf of a state of structure ``sig``, in leaf order."""
    if sig is _LEAF:
        out.append(prefix)
    elif sig is not _NONE:
        kind, meta, children = sig
        if kind is dict:
            for k, c in zip(meta, children):
                _leaf_paths(c, (*prefix, k), out)
        elif kind is nest or kind == "flat":
            out.extend((*prefix, "#", n) for n in range(children))
        elif kind != "const":
            for n, c in enumerate(children):
                _leaf_paths(c, (*prefix, n), out)


def _paths(sigs: list[Any]) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for n, sig in enumerate(sigs):
        _leaf_paths(sig, (n,), out)
    return out


class _Layout:
    """How the states of the threaded objects lie in the flat tuple of leaves a compiled program
    takes: per object, the structure of its state (:func:`_flatten_state`). A compiled program is
    made for one layout; a call whose states have another (an optimizer made its moments, a
    module's variables were replaced by others of another structure) gets the program of that
    layout, compiled then (never the old program on state it was not traced for).

    Python numbers (a step count, a learning rate) are inputs as 0-d arrays; the array of an
    unchanged number is reused. The program returns the numbers it changed only, by position:
    one it leaves as it was (a learning rate) keeps its Python value, neither rounded to the
    array's dtype nor read back (which would wait for the program to finish)."""

    def __init__(self, sigs: list[Any], leaves: list[Any]):
        self.sigs = sigs
        #: positions of the Python numbers among the leaves
        self.numbers = tuple(i for i, x in enumerate(leaves) if _is_number(x))
        #: position -> (number, its array) of the last call
        self.converted: dict[int, tuple[Any, Any]] = {}
        #: set when the program is traced: the structures of the new states; the positions of
        #: their leaves that the program returns in a tuple; (new position, input position) of
        #: the leaves at a number's path, returned in a dict where they changed
        self.out_sigs: list[Any] | None = None
        #: what the last trace worked out: (structures, out_arrays, out_numbers)
        self.traced: tuple[Any, tuple[int, ...], tuple[tuple[int, int], ...]] = (None, (), ())
        self.out_arrays: tuple[int, ...] = ()
        self.out_numbers: tuple[tuple[int, int], ...] = ()
        self.compiled: Callable[..., Any] | None = None
        #: whether a call of ``compiled`` succeeded (before that, its error is the compiler's)
        self.ok = False

    def inputs(self, leaves: list[Any], xp: Any) -> tuple[Any, ...]:
        args = list(leaves)
        converted = self.converted
        # every leaf is looked at, not only those that were numbers when the layout was made: a
        # count set back to an int where the program returned an array must not become a constant
        for i, x in enumerate(args):
            if _is_number(x):
                got = converted.get(i)
                if got is None or type(got[0]) is not type(x) or got[0] != x:
                    got = converted[i] = (x, xp.asarray(x))
                args[i] = got[1]
        return tuple(args)

    def outputs(self, sigs: list[Any], leaves: tuple[Any, ...], new: list[Any]) -> tuple[Any, Any]:
        """What the traced program returns for the new leaves: ``(arrays, changed numbers)``.

        Worked out anew on each trace, from the structures alone, and only written here (checked
        by :meth:`write_back`, after the call): a compiler that guards on the Python state its
        trace reads (torch.compile) would otherwise compile the program a second time, once
        this layout's first trace had set it."""
        at = {p: i for i, p in enumerate(_paths(self.sigs))}
        numbers = set(self.numbers)
        pairs = [(j, at.get(p)) for j, p in enumerate(_paths(sigs))]
        out_numbers = tuple((j, i) for j, i in pairs if i in numbers)
        out_arrays = tuple(j for j, i in pairs if i not in numbers)
        self.traced = (sigs, out_arrays, out_numbers)
        changed = {}
        for j, i in out_numbers:
            if new[j] is not leaves[i]:
                changed[j] = new[j]
        return tuple([new[j] for j in out_arrays]), changed

    def write_back(self, objs: list[Any], leaves: list[Any], arrays: tuple[Any, ...], changed: dict[Any, Any]) -> None:
        """Sets the objects' new states from the program's outputs (``leaves``: the call's
        inputs, the numbers as they were)."""
        traced = self.traced
        if self.out_sigs is None:
            self.out_sigs, self.out_arrays, self.out_numbers = traced
        elif traced[0] is not self.out_sigs:
            if traced[0] != self.out_sigs:
                raise RuntimeError(
                    "ivy.compile: the structure of the state a training step returns depends on the inputs' "
                    "shapes or dtypes; it must not (a module or optimizer creating state on some calls only)"
                )
            self.out_sigs = traced[0]  # (the same: compared by identity on the next call)
        new: list[Any] = [None] * (len(self.out_arrays) + len(self.out_numbers))
        for j, a in zip(self.out_arrays, arrays):
            new[j] = a
        for j, i in self.out_numbers:
            new[j] = changed[j] if j in changed else leaves[i]
        it = iter(new)
        for o, sig in zip(objs, self.out_sigs):
            _set_object_state(o, sig, it, True)


def _no() -> bool:
    return False


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


def _stateful_args(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[dict[int, Any], dict[str, Any]]:
    pos = {i: a for i, a in enumerate(args) if _tracking.is_stateful(a)}
    kw = {k: a for k, a in kwargs.items() if _tracking.is_stateful(a)}
    return pos, kw


def _compiler_crash(e: BaseException) -> bool:
    """Whether ``e`` is the compiler's own failure rather than the function's: an internal error
    of the framework (a ``SystemError``: paddle's ``(Fatal)`` errors of its C++ core), which the
    eager function may well not raise. Errors of the function under tracing (Python control flow
    on a traced value) are raised: compiling it is what fails, and the user's to fix."""
    return isinstance(e, SystemError)


def _eager_instead(fn: Callable[..., Any], backend: str, e: BaseException, args: Any, kwargs: Any) -> Any:
    """``fn(*args, **kwargs)`` run eagerly after the compiler failed on its first call, with a
    warning naming the compiler's error; an error of ``fn`` itself (raised eagerly too) is
    raised as it is."""
    out = fn(*args, **kwargs)
    first = str(e).strip().splitlines()[0] if str(e).strip() else ""
    warnings.warn(
        CompileFailedWarning(
            f"ivy.compile: compiling {getattr(fn, '__qualname__', fn)!r} on {backend} failed "
            f"({type(e).__name__}: {first[:300]}); running it eagerly from now on",
            e,
        ),
        stacklevel=4,
    )
    return out


class _Threaded:
    """A compiled program that takes and returns the state of the modules and optimizers its
    function uses (see :mod:`ivy._tracking`), and writes the new state back after each call.

    The states go in as one flat tuple of leaves (a compiler handles nested dicts of a hundred
    arrays at a cost per call: tf.function some milliseconds), laid out by :class:`_Layout`."""

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
        self._backend = backend
        self._xp = backend.namespace
        self._side_effects = backend.impl.compiled_side_effects
        self._session = _tracking.Session(objs, _label(fn), strict=not self._side_effects)
        options = dict(options)
        for key in ("static_argnums", "donate_argnums"):  # jax.jit's: the state comes first now
            if key in options:
                nums = options[key]
                options[key] = (nums + 1) if isinstance(nums, int) else tuple(n + 1 for n in nums)
        self._options = options
        #: the layouts compiled so far, the last used first
        self._layouts: list[_Layout] = []
        #: set when the compiler failed (see :func:`_eager_instead`): every call runs eagerly
        self.eager = False
        #: whether a call may still run eagerly for an object to create its state (see __call__)
        self._warm = any(getattr(o, "_ivy_lazy", _no)() for o in objs)

    def _layout(self, sigs: list[Any], leaves: list[Any]) -> _Layout:
        for k, lay in enumerate(self._layouts):
            if lay.sigs == sigs:
                if k:
                    self._layouts.insert(0, self._layouts.pop(k))
                return lay
        lay = _Layout(sigs, leaves)
        lay.compiled = _compiler(
            self._backend,
            _pure_function(self._fn, self._objs, self._arg_objs, self._session, lay, not self._side_effects),
            self._options,
        )
        self._layouts.insert(0, lay)
        del self._layouts[8:]  # (a state whose structure keeps changing: no unbounded cache)
        return lay

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.eager:
            return self._fn(*args, **kwargs)
        if self._warm:
            # an object that makes its state on first use (an optimizer's moments) makes it in
            # one eager call: a program traced before would be for a state the object no longer
            # has after that call, and the next call would compile a second program
            self._warm = False
            return self._fn(*args, **kwargs)
        given = (args, kwargs)
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
        leaves: list[Any] = []
        sigs = [_object_state(o, leaves) for o in self._objs]
        lay = self._layouts[0] if self._layouts else None
        if lay is None or lay.sigs != sigs:
            lay = self._layout(sigs, leaves)
        # (the program does not restore the states: until it has run once, a failure must)
        saved = [o._ivy_get_state() for o in self._objs] if self._side_effects and not lay.ok else None
        try:
            out, arrays, changed = lay.compiled(lay.inputs(leaves, self._xp), *args, **kwargs)  # type: ignore[misc]
        except Exception as e:
            for o, st in zip(self._objs, saved or ()):
                o._ivy_set_state(st, concrete=True)
            inner = _surfaced(e)
            if inner is not e:
                raise inner from None
            if lay.ok or not _compiler_crash(e):
                raise
            # the pure function restored the objects' states: the eager step starts from them
            out = _eager_instead(self._fn, self._backend.name, e, *given)
            self.eager = True
            return out
        lay.ok = True
        lay.write_back(self._objs, leaves, arrays, changed)
        return out


def _pure_function(
    fn: Callable[..., Any],
    objs: list[Any],
    arg_objs: tuple[dict[int, Any], dict[str, Any]],
    session: _tracking.Session,
    layout: _Layout,
    restore: bool = True,
) -> Callable[..., Any]:
    """``fn`` with the state of ``objs`` (laid out as ``layout`` says) as input and output: what
    the compiler traces (a plain function: paddle's converter rewrites the code it converts, and
    mishandles methods). With ``restore``, the objects get their states back after a trace (no
    traced value stays in them); without (a compiler that replays Python side effects, whose
    outputs are real arrays, set by :meth:`_Layout.write_back` anyway), the state is not read
    inside the program: torch.compile would guard on its Python numbers (a learning rate) and
    compile the step again when one changes."""
    pos, kw = arg_objs

    def pure(leaves: tuple[Any, ...], *args: Any, **kwargs: Any) -> tuple[Any, Any, Any]:
        if pos or kw:
            args = tuple(pos.get(i, a) for i, a in enumerate(args))
            kwargs = {**kwargs, **kw}
        saved = [o._ivy_get_state() for o in objs] if restore else None
        prev = _tracking.enter(session)
        try:
            it = iter(leaves)
            for o, sig in zip(objs, layout.sigs):
                _set_object_state(o, sig, it, False)
            out = fn(*args, **kwargs)
            new: list[Any] = []
            sigs = [_object_state(o, new) for o in objs]
        finally:
            _tracking.leave(prev)
            for o, st in zip(objs, saved or ()):  # no traced value stays in the objects
                o._ivy_set_state(st, concrete=False)
        arrays, changed = layout.outputs(sigs, leaves, new)
        return out, arrays, changed

    pure.__ivy_private_call__ = True  # type: ignore[attr-defined]
    return pure


def _owner(x: Any) -> _registry.Backend | None:
    """The backend whose array ``x`` is, if any."""
    t = type(x)
    if t in _NEUTRAL:
        return None
    b = _loaded_owner(x)
    return b if b is not None else _registry.backend_for_type(t)


def _has_array(values: Any) -> bool:
    """Whether any of ``values`` is an array of an Ivy backend."""
    return any(_owner(x) is not None for x in values)


def _stateful_objects(fn: Callable[..., Any], pos: dict[int, Any], kw: dict[str, Any]) -> list[Any]:
    found: dict[int, Any] = {id(o): o for o in _tracking.reachable_stateful(fn)}
    for a in (*pos.values(), *kw.values()):
        for m in a._ivy_members():
            found.setdefault(id(m), m)
    return list(found.values())


#: The per-call base of :class:`Compiled`: in C where the extension is built (a compiled call then
#: costs one dict lookup more than the framework's own compiled function, not a Python frame).
_Switch: Any = _cdispatch.TypeSwitch if _cdispatch is not None else object


class Compiled(_Switch):
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
        #: type of the first argument -> compiled function: the per-call fast path (read by the
        #: C base, which sends the other calls to ``_miss`` and the failed ones to ``_on_error``)
        self._by_type: dict[type, Callable[..., Any]] = {}
        self._miss = self._first_call_of
        self._on_error = self._failed
        #: without array arguments: the backend of the arrays the function holds, False where it
        #: holds none, None until worked out (see :meth:`_backend_of`)
        self._held: _registry.Backend | bool | None = None
        self._warned = False
        self.__ivy_python__ = self._python_call  # what torch.compile's dynamo traces

    def _python_call(self, *args: Any, **kwargs: Any) -> Any:
        """A call, in Python (without the C extension, and for bytecode-tracing compilers)."""
        if args:
            f = self._by_type.get(type(args[0]))
            if f is not None:
                try:
                    return f(*args, **kwargs)
                except Exception as e:
                    return self._failed(e, args, kwargs)
        return self._first_call(args, kwargs)

    def _first_call_of(self, *args: Any, **kwargs: Any) -> Any:
        return self._first_call(args, kwargs)

    def _failed(self, e: BaseException, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """A compiled program raised: a retrace that drew random numbers is traced again with the
        key threaded; Ivy's own error is taken out of a compiler's wrapper of it."""
        if isinstance(e, _tracking.Restart):
            return self._restart(e, args, kwargs)
        inner = _surfaced(e)
        if inner is e:
            raise e
        raise inner from None

    def _backend_of(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> _registry.Backend:
        if self._backend is not None:
            return _context.resolve(self._backend)
        leaves = tuple(nest.leaves((args, kwargs)))
        if _has_array(leaves):
            return _infer("compile", {}, leaves, ())
        # No array argument (a training step closing over its data): the arrays the function
        # holds decide, not the default backend (NumPy, whose "compiled" step is the eager one)
        held = self._held
        if held is None:
            held = self._held_backend(args, kwargs)
        if isinstance(held, _registry.Backend):
            return held
        stack = _stack.stack_get()
        if stack:
            return stack[-1]
        b = _registry.default_backend()
        if not self._warned and not _has_compiler(b):
            self._warned = True
            warnings.warn(
                f"ivy.compile: {_label(self._fn)} got no array arguments and holds no arrays (no "
                f"module, optimizer or array it reaches by name), so it runs on the default backend "
                f"{b.name!r}, which has no compiler: it runs eagerly. Pass backend= to ivy.compile, or "
                "call it under ivy.use_backend(...)",
                stacklevel=4,
            )
        return b

    def _held_backend(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> _registry.Backend | bool:
        """The backend of the arrays the function holds (its modules' and optimizers' states,
        the arrays it reaches by name), or False where it holds none. Kept once every object is
        built (a module still to build holds no variables yet)."""
        pos, kw = _stateful_args(args, kwargs)
        objs = _stateful_objects(self._fn, pos, kw)
        ready = all(o._ivy_ready() for o in objs)
        leaves: list[Any] = []
        for o in objs:
            if o._ivy_ready():
                _object_state(o, leaves)
        got: _registry.Backend | bool = False
        if _has_array(leaves):
            got = _infer("compile", {}, tuple(leaves), ())
        else:  # no state: the arrays it names, where they are of one framework (NumPy data aside)
            found = {id(b): b for b in map(_owner, _tracking.reachable_values(self._fn)) if b is not None}
            if len(found) > 1:
                found = {k: b for k, b in found.items() if _has_compiler(b)}
            if len(found) == 1:
                got = next(iter(found.values()))
        if ready and not pos and not kw:  # (objects given as arguments may differ per call)
            self._held = got
        return got

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
        except Exception as e:
            if f is self._fn or isinstance(f, _Threaded) or not _compiler_crash(e):
                return self._failed(e, args, kwargs)
            out = _eager_instead(self._fn, b.name, e, args, kwargs)  # the compiler failed: eager from now on
            self._cache[b.name] = self._fn
            for t, g in list(self._by_type.items()):
                if g is f:
                    self._by_type[t] = self._fn
            return out

    def _programs(self) -> int:
        """How many programs the compilers were given so far: one per state layout of a function
        whose state is threaded, one per backend for another (not those run eagerly instead)."""
        n = 0
        for f in self._cache.values():
            if isinstance(f, _Threaded):
                n += 0 if f.eager else len(f._layouts)
            elif f is not self._fn:
                n += 1
        return n

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


if _cdispatch is None:
    Compiled.__call__ = Compiled._python_call
else:  # set on the class after its statement, so that calls keep the C slot
    _cdispatch._set_python_call(_traceable_call, Compiled)


def _probe() -> None:
    """Compiled to learn whether a backend has a compiler (its hook returns the function itself)."""


def compile(  # the paper's name
    fn: Callable[..., Any] | None = None,
    /,
    *,
    backend: Any = None,
    options: Mapping[str, Any] | None = None,
    **more_options: Any,
) -> Any:
    """Compile ``fn`` with the backend's own compiler; usable as a decorator.

    The backend is ``backend`` if given, else the framework of the first call's arrays (each
    backend compiles separately, on its first call); a call without array arguments (a training
    step closing over its model, optimizer and data) takes the framework of the arrays the
    function holds (its modules' and optimizers' state, the arrays it names), else the backend
    in context, else the default one (with a warning where that one has no compiler). With
    ``backend`` given (and no state to thread, see below), the result is the framework's
    compiled callable itself (what ``jax.jit(fn)`` returns, say: no Ivy wrapper, no per-call
    cost; paddle's ``to_static`` cannot convert a function of ``*args``, so such a function is
    converted once per number of arguments behind a small object; JAX, whose random key may
    need threading, gets that small object too); without it, a
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
    takes sizes from its first input), calls run eagerly; so does the first call where an
    optimizer has yet to make its state (Adam's moments), so that one program is compiled. A
    function that updates a module or optimizer it was not given this way raises
    :class:`ivy.errors.StateNotThreadedError` while the compiler traces it, rather than lose the
    update. A learning-rate schedule then receives the step count as a scalar array: write it
    with ``ivy`` ops.

    **Compiler crashes.** Where the framework's compiler crashes on the first call of a program
    (an internal error of the framework, a ``SystemError``: paddle's ``to_static`` on some
    training steps), the call runs eagerly instead, and so do the later ones, with a
    :class:`ivy.errors.CompileFailedWarning` (a ``RuntimeWarning``) naming the compiler's error; an error
    the function raises eagerly too is raised as it is. Other errors while tracing (Python
    control flow on a traced value under ``jax.jit``) are raised.

    Args:
        fn: the function to compile (omit it to use ``ivy.compile(...)`` as a decorator).
        backend: the Ivy backend to compile for; default: the first call's arrays decide (see
            above for a call without array arguments).
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
