"""Stateful objects (modules, optimizers) and compiled programs.

A compiler that traces a Python function once (``jax.jit``, ``tf.function``, paddle's
``to_static``) keeps only the array computation: an optimizer's step counter incremented in Python,
or its moments stored on ``self``, would be updated once at trace time and never again (or hold
the compiler's tracers). ``ivy.compile`` therefore *threads* the state of the modules and
optimizers a function uses: their arrays become inputs and outputs of the compiled program, and
are written back after each call (as Keras' stateless scope and flax nnx's ``jit`` do).

A stateful object implements ``_ivy_get_state()`` (a nest of arrays and Python numbers) and
``_ivy_set_state(state)``, ``_ivy_members()`` (itself and the stateful objects whose state its
own includes: a module's submodules), and calls :func:`touch` before it reads or updates its state.
It may also implement ``_ivy_flat_state()`` (``(key, leaves)``: its state as a flat list of leaves
and a key, compared with ``==``, that says how they are laid out; or None) and
``_ivy_set_flat_state(key, leaves)``: a compiled step then moves its state without nested dicts
(see ``ivy._functional.compile``).
While a compiled program is being traced, :func:`touch` checks that the object's state is threaded
and raises :class:`~ivy.errors.StateNotThreadedError` otherwise.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterable
from typing import Any

from .errors import StateNotThreadedError

__all__ = ["touch", "touch_random_state", "Session", "Restart", "is_stateful", "reachable_stateful", "RandomState"]


class Session:
    """The stateful objects a compiled program may touch (by ``id``), while it is traced."""

    __slots__ = ("allowed", "what", "strict")

    def __init__(self, allowed: Iterable[Any], what: str, strict: bool = True):
        self.allowed = frozenset(id(o) for o in allowed)
        self.what = what
        #: whether touching another object is an error (not where the compiler keeps Python
        #: side effects, as torch.compile does: there the update happens as it would eagerly)
        self.strict = strict


#: the session of the compiled call in progress in this process (None outside compiled calls)
_session: Session | None = None

#: while a gradient transform runs its function: the (module, buffer name) of every buffer a
#: layer updates (see :func:`capture_buffers`); None otherwise
_capture: list[tuple[Any, str]] | None = None


def capture_buffers(into: list[tuple[Any, str]] | None) -> list[tuple[Any, str]] | None:
    """Start (or, with the list returned before, stop) recording buffer updates.

    A layer that updates a buffer inside a differentiated function (BatchNorm's running
    statistics) stores a value of the transform's own kind (a JAX tracer, a torch.func wrapper);
    ``ivy.execute_with_gradients`` returns the recorded buffers from the transform as auxiliary
    outputs and stores those instead.
    """
    global _capture
    prev, _capture = _capture, into
    return prev


def touch(obj: Any) -> None:
    """Called by a stateful object before it reads or writes its state."""
    s = _session
    if s is not None and s.strict and id(obj) not in s.allowed:
        raise StateNotThreadedError(
            f"{s.what} uses the {type(obj).__name__} object {_label(obj)}, whose state ivy.compile "
            "did not thread through the compiled program, so its updates would be lost. ivy.compile "
            "threads the modules and optimizers that the function reaches by name (globals, closures, "
            "attributes of a bound method's self) or receives as arguments: pass this one as an "
            "argument, or refer to it by a name the function uses."
        )


class Restart(Exception):
    """Raised while a compiled program is traced, when it reads a backend's global random state
    that is not threaded: ``ivy.compile`` catches it and traces again with that state threaded."""

    def __init__(self, state: RandomState):
        super().__init__(f"the {state.backend!r} backend's random state must be threaded")
        self.state = state


class RandomState:
    """A backend's global random state (JAX's key), as a stateful object ``ivy.compile`` threads
    through compiled programs: without it, a traced program would draw the same numbers on every
    call. The plugin hands core ``(get, set)`` functions (``BackendImpl.random_state``)."""

    def __init__(self, backend: str, get: Callable[[], Any], set_: Callable[[Any], None]):
        self.backend = backend
        self._get, self._set = get, set_

    def _ivy_members(self) -> list[RandomState]:
        return [self]

    def _ivy_get_state(self) -> Any:
        return self._get()

    def _ivy_set_state(self, state: Any, *, concrete: bool = True) -> None:
        self._set(state)

    def _ivy_ready(self) -> bool:
        return True


_RANDOM: dict[str, RandomState] = {}


def random_state(backend: Any) -> RandomState | None:
    """The :class:`RandomState` of a loaded backend (one object per backend), or None."""
    got = _RANDOM.get(backend.name)
    if got is None and backend.impl.random_state is not None:
        get, set_ = backend.impl.random_state
        got = _RANDOM[backend.name] = RandomState(backend.name, get, set_)
    return got


def touch_random_state(backend: str) -> None:
    """Called by a plugin's random ops before they read the backend's global random state in
    Python (JAX's key): inside a compiled call that does not thread it, restart with it threaded."""
    s = _session
    if s is not None:
        state = _RANDOM.get(backend)
        if state is None or id(state) not in s.allowed:
            from . import _registry

            raise Restart(random_state(_registry.get_backend(backend)))  # type: ignore[arg-type]


def _label(obj: Any) -> str:
    return f"at 0x{id(obj):x}"


def enter(session: Session | None) -> Session | None:
    global _session
    prev, _session = _session, session
    return prev


def leave(prev: Session | None) -> None:
    global _session
    _session = prev


def is_stateful(obj: Any) -> bool:
    return hasattr(type(obj), "_ivy_get_state") and not isinstance(obj, type)


def _scan_value(v: Any, found: dict[int, Any], seen: set[int], depth: int) -> None:
    """Stateful objects in ``v``: ``v`` itself, the items of a list/tuple/dict, the attributes of
    a plain object, the objects reached by a function (one level of each)."""
    if id(v) in seen or depth > 3:
        return
    seen.add(id(v))
    if is_stateful(v):
        for m in v._ivy_members():
            found.setdefault(id(m), m)
        return
    if isinstance(v, (types.FunctionType, types.MethodType)) or callable(getattr(v, "func", None)):
        _scan_function(v, found, seen, depth + 1)
    elif isinstance(v, (list, tuple)):
        for item in v:
            _scan_value(item, found, seen, depth + 1)
    elif isinstance(v, dict):
        for item in v.values():
            _scan_value(item, found, seen, depth + 1)
    elif not isinstance(v, (types.ModuleType, type, str, bytes, int, float, complex, bool)) and hasattr(v, "__dict__"):
        for item in vars(v).values():
            if is_stateful(item) or isinstance(item, (list, tuple, dict)):
                _scan_value(item, found, seen, depth + 1)


def _code_objects(code: types.CodeType) -> Iterable[types.CodeType]:
    yield code
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            yield from _code_objects(c)


def _scan_function(fn: Any, found: dict[int, Any], seen: set[int], depth: int) -> None:
    if isinstance(fn, types.MethodType):
        _scan_value(fn.__self__, found, seen, depth)
        fn = fn.__func__
    partial_fn = getattr(fn, "func", None)
    if partial_fn is not None and not isinstance(fn, types.FunctionType):  # functools.partial
        for a in (*getattr(fn, "args", ()), *getattr(fn, "keywords", {}).values()):
            _scan_value(a, found, seen, depth)
        _scan_value(partial_fn, found, seen, depth)
        return
    if not isinstance(fn, types.FunctionType):
        call = type(fn).__call__ if callable(fn) else None
        if call is not None and not isinstance(fn, type):  # a callable object: its attributes
            _scan_value(fn, found, seen, depth)
            # only a __call__ written in Python has names to read (a builtin's __call__ is a
            # method wrapper whose own __call__ is another one: following those never ends)
            if isinstance(call, types.FunctionType):
                _scan_function(types.MethodType(call, fn), found, seen, depth)
        return
    glb = fn.__globals__
    for code in _code_objects(fn.__code__):
        for name in code.co_names:
            if name in glb:
                v = glb[name]
                if not isinstance(v, types.ModuleType):
                    _scan_value(v, found, seen, depth)
    for cell in fn.__closure__ or ():
        try:
            v = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        _scan_value(v, found, seen, depth)
    for d in (*(fn.__defaults__ or ()), *(fn.__kwdefaults__ or {}).values()):
        _scan_value(d, found, seen, depth)


def reachable_values(fn: Callable[..., Any]) -> list[Any]:
    """The values ``fn`` names (globals and closure cells of its code and the code it defines,
    defaults, a bound method's ``self``'s attributes, a ``functools.partial``'s arguments), with
    the items of those that are lists, tuples or dicts: where ``ivy.compile`` looks for the
    arrays a function without array arguments holds."""
    out: list[Any] = []
    if isinstance(fn, types.MethodType):
        out.extend(vars(fn.__self__).values() if hasattr(fn.__self__, "__dict__") else ())
        fn = fn.__func__
    if not isinstance(fn, types.FunctionType):
        inner = getattr(fn, "func", None)
        out.extend((*getattr(fn, "args", ()), *getattr(fn, "keywords", {}).values()))
        if isinstance(inner, (types.FunctionType, types.MethodType)):
            out.extend(reachable_values(inner))
        return _with_items(out)
    glb = fn.__globals__
    for code in _code_objects(fn.__code__):
        out.extend(glb[name] for name in code.co_names if name in glb)
    for cell in fn.__closure__ or ():
        try:
            out.append(cell.cell_contents)
        except ValueError:  # an empty cell
            continue
    out.extend((*(fn.__defaults__ or ()), *(fn.__kwdefaults__ or {}).values()))
    return _with_items(out)


def _with_items(values: list[Any]) -> list[Any]:
    out = []
    for v in values:
        if isinstance(v, types.ModuleType):
            continue
        out.append(v)
        if isinstance(v, (list, tuple)):
            out.extend(v)
        elif isinstance(v, dict):
            out.extend(v.values())
    return out


def reachable_stateful(fn: Callable[..., Any]) -> list[Any]:
    """The stateful objects ``fn`` can reach by name: globals and closure cells of its code (and
    of the functions it defines or refers to), the ``self`` of a bound method, the arguments of a
    ``functools.partial``; a module counts with all its submodules."""
    found: dict[int, Any] = {}
    _scan_function(fn, found, set(), 0)
    return list(found.values())
