"""The recording backend: a backend core makes at run time whose arrays are traced proxies over a
concrete backend's arrays. Each op call runs on the concrete backend (so values exist and Python
control flow follows the example) and is recorded as a node; nothing is monkey-patched.
"""

from __future__ import annotations

import itertools
import numbers
import os
import sys
import threading
from collections.abc import Callable
from typing import Any

from .. import _dispatch, _registry
from .._compose import load_defaults
from .._dtypes import DType, dtype_name
from .._spec import SPECS
from ..plugin import BackendImpl, BackendSpec
from ._errors import GraphTraceError
from ._ir import CALL, ConstArray, Dim, Guard, Node, Value, map_tree, tree_leaves
from ._proxy import DynDim, TracedArray, TracedFunction

__all__ = ["Tracer", "Scope", "State", "HOPS", "EFFECTS", "RANDOM", "source_of"]

#: ops taking a function: recorded with the function's own graph as a subgraph argument
#: (gradient ops, and the control flow of ``_control``)
HOPS = frozenset({"value_and_grad_flat", "vjp", "jvp", "jacobian", "while_loop", "cond", "scan"})
#: ops recorded although they return no array (their effect is the point)
EFFECTS = frozenset({"seed"})
#: ops whose results are random: never folded or merged
RANDOM = frozenset(
    {
        "random_uniform",
        "random_normal",
        "randint",
        "multinomial",
        "shuffle",
        "bernoulli",
        "dropout",
        "empty",
        "empty_like",
        "seed",
    }
)
#: ops that turn an array into Python values: recorded as guards
_CONCRETIZE = {"to_scalar": "scalar", "to_list": "list", "to_numpy": "list"}
_PLAIN = frozenset({bool, int, float, complex, str, type(None), type(Ellipsis)})

_IVY_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_GRAPH_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_counter = itertools.count()
_lock = threading.Lock()


def source_of(depth: int = 2) -> str | None:
    """``file:line in function`` of the traced call: the innermost frame outside the tracer and
    the generated dispatch code, and the first frame outside Ivy itself when that differs."""
    f = sys._getframe(depth)
    inner = user = None
    while f is not None:
        fn = f.f_code.co_filename
        if not (fn.startswith(_GRAPH_DIR) or fn.startswith("<ivy ")):
            here = f"{_short(fn)}:{f.f_lineno} in {f.f_code.co_name}"
            if inner is None:
                inner = here
            if not fn.startswith(_IVY_DIR) and not fn.startswith("<"):
                user = here
                break
        f = f.f_back  # type: ignore[assignment]
    if inner is None:
        return user
    return inner if user is None or user == inner else f"{user} (via {inner})"


def _short(path: str) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return rel if not rel.startswith(".." + os.sep + "..") else path


def _is_default(v: Any, default: Any) -> bool:
    if v is default:
        return True
    t = type(v)
    return t is type(default) and t in _PLAIN and v == default and (t is not float or repr(v) == repr(default))


class _Recorded:
    """A recording backend's op: records the call, runs it on the concrete backend."""

    __slots__ = ("name", "tracer")

    def __init__(self, name: str, tracer: Tracer):
        self.name = name
        self.tracer = tracer

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.tracer.call(self.name, args, kwargs)

    def __repr__(self) -> str:
        return f"<recorded op {self.name}>"


class Scope:
    """The graph being recorded: the traced function's, or a subgraph's (a gradient op's
    function) nested in it."""

    def __init__(self, tracer: Tracer, parent: Scope | None, label: str):
        self.tracer = tracer
        self.parent = parent
        self.label = label
        self.nodes: list[Node] = []
        self.inputs: list[Value] = []
        self.captures: list[Value] = []
        self.outer: list[Value] = []
        self.capture_map: dict[int, Value] = {}
        self.guards: list[Guard] = []

    def value_of(self, obj: Any) -> Value:
        """The value of a proxy in this scope (capturing it when it belongs to an outer scope)."""
        sc = obj._sc
        if sc is self:
            return obj._v
        s = self.parent
        while s is not None and s is not sc:
            s = s.parent
        if s is None:
            raise GraphTraceError(
                f"{obj._v.hint} was computed inside the function of a gradient or control-flow op ({sc.label}) and is "
                f"used outside it ({source_of(3)}); return it from that function (as an auxiliary output)"
            )
        got = self.capture_map.get(id(obj._v))
        if got is None:
            assert self.parent is not None
            outer = self.parent.value_of(obj)
            got = Value(outer.shape, outer.dtype, "capture", outer.hint)
            self.captures.append(got)
            self.outer.append(outer)
            self.capture_map[id(obj._v)] = got
        return got


class State:
    __slots__ = ("values", "foreign")

    def __init__(self) -> None:
        self.values = 0
        self.foreign: list[Any] = []


class Tracer:
    """One trace: the recording backend over ``concrete`` and the scopes being recorded."""

    def __init__(
        self,
        concrete: _registry.Backend,
        *,
        decompose: Any = False,
        shadow: bool = False,
        hop: Callable[..., Any] | None = None,
    ):
        self.concrete = concrete
        #: records the gradient ops (``call_hop(tracer, name, args, kwargs)``, see ``_hops``)
        self.hop = hop
        self.decompose = decompose
        #: whether each value also carries a second example whose dynamic dimensions differ
        self.shadow = shadow
        with _lock:
            n = next(_counter)
        self.cls: Any = type("TracedArray", (TracedArray,), {"__slots__": (), "_tracer": self, "__module__": __name__})
        if decompose is True:
            composed = set(load_defaults())
        elif decompose:
            composed = set(decompose) & set(load_defaults())
        else:
            composed = set()
        ops = {name: _Recorded(name, self) for name in SPECS if name in HOPS or name not in composed}
        ci = concrete.impl
        impl = BackendImpl(
            ops=ops,
            array_types=(self.cls,),
            dtypes=ci.dtypes,
            default_dtypes=ci.default_dtypes,
            devices=ci.devices,
            default_device=ci.default_device,
            capabilities=ci.capabilities,
            autodiff=ci.autodiff,
            framework=ci.framework,
        )
        name = f"graph-trace-{n}"
        spec = BackendSpec(
            name=name,
            array_modules=(),
            load=lambda: impl,
            description=f"the graph tracer's recording backend over {concrete.name}",
        )
        self.backend = _registry.add_runtime_backend(spec, impl, f"ivy.graph tracer over {concrete.name}")
        self.root = Scope(self, None, "the traced function")
        self.scopes = [self.root]
        #: id(value) -> (value, example native) of the values that do not depend on an input
        self.known: dict[int, tuple[Value, Any]] = {}
        self._dependent: set[int] = set()
        self._consts: dict[int, tuple[Any, ConstArray]] = {}
        self._dtype_names = {}
        for dname, native in ci.dtypes.items():
            try:
                self._dtype_names[native] = dname
            except TypeError:  # an unhashable dtype object: found by comparison instead
                pass
        self._devices: list[tuple[Any, str]] | None = None

    def close(self) -> None:
        """Forget the recording backend (its proxies stop dispatching to it)."""
        _registry.remove_runtime_backend(self.backend.name)
        _dispatch.drop_types((self.cls,))

    # ------------------------------------------------------------------ values

    def proxy(self, native: Any, value: Value, scope: Scope, shadow: Any = None) -> TracedArray:
        p = self.cls.__new__(self.cls)
        p._n, p._v, p._sc = native, value, scope
        p._sh = (native if shadow is None else shadow) if self.shadow else None
        return p

    def new_value(self, native: Any, kind: str, hint: str, shadow: Any = None) -> Value:
        shape: tuple[int | None, ...] = tuple(int(d) for d in native.shape)
        if shadow is not None and self.shadow:
            other = tuple(int(d) for d in shadow.shape)
            shape = tuple(d if d == e else None for d, e in zip(shape, other))
        return Value(shape, self.dtype_str(native.dtype), kind, hint)

    def dtype_str(self, dt: Any) -> str:
        try:
            got = self._dtype_names.get(dt)
        except TypeError:
            got = None
        return got if got is not None else dtype_name(dt)

    def add_input(
        self, native: Any, hint: str, kind: str = "input", dynamic: tuple[int, ...] = (), scope: Scope | None = None
    ) -> TracedArray:
        """A graph input holding ``native``; ``dynamic``: its dimensions of any size."""
        scope = scope or self.root
        shadow = self._grown(native, dynamic) if dynamic else None
        v = self.new_value(native, kind, hint, shadow)
        scope.inputs.append(v)
        self._dependent.add(id(v))
        return self.proxy(native, v, scope, shadow)

    def _grown(self, x: Any, dims: tuple[int, ...]) -> Any:
        """``x`` one larger along each of ``dims`` (its last slice repeated): the second example."""
        calls = self.concrete.calls
        for d in dims:
            if int(x.shape[d]) < 2:
                raise GraphTraceError(
                    f"a dynamic dimension needs an example of size 2 or more (dimension {d} has size "
                    f"{int(x.shape[d])}): a size of 1 broadcasts, which a dynamic dimension must not rely on"
                )
            q = (slice(None),) * d + (slice(-1, None),)
            x = calls["concat"]([x, calls["get_item"](x, q)], axis=d)
        return x

    def constant(self, native: Any) -> TracedArray:
        """A proxy for a constant array (made from arguments the graph cannot hold)."""
        c = self._const(native)
        return self._record("asarray", (c,), {}, native, None, self.scopes[-1], known=True)

    def _const(self, x: Any) -> ConstArray:
        got = self._consts.get(id(x))
        if got is not None and got[0] is x:
            return got[1]
        c = ConstArray.from_native(x, self.concrete.name)
        self._consts[id(x)] = (x, c)
        return c

    # ------------------------------------------------------------------ encoding arguments

    def _encode(self, tree: Any, scope: Scope, st: State) -> tuple[Any, Any, Any]:
        t = type(tree)
        if t in _PLAIN:
            return tree, tree, tree
        if t is tuple or t is list:
            parts = [self._encode(x, scope, st) for x in tree]
            return t(p[0] for p in parts), t(p[1] for p in parts), t(p[2] for p in parts)
        if t is slice:
            # an array bound of a slice is read as an int (a guard): the result's shape follows it
            parts = [
                self.concretize(x, "index") if isinstance(x, TracedArray) else x
                for x in (tree.start, tree.stop, tree.step)
            ]
            a, b, c = (self._encode(x, scope, st) for x in parts)
            return slice(a[0], b[0], c[0]), slice(a[1], b[1], c[1]), slice(a[2], b[2], c[2])
        if isinstance(tree, dict):
            parts2 = {k: self._encode(x, scope, st) for k, x in tree.items()}
            enc = {k: p[0] for k, p in parts2.items()}
            nat = {k: p[1] for k, p in parts2.items()}
            sh = {k: p[2] for k, p in parts2.items()}
            return (enc, nat, sh) if t is dict else (t(enc), t(nat), t(sh))
        if isinstance(tree, TracedArray):
            if type(tree) is not self.cls:
                raise GraphTraceError("an array of another (finished or enclosing) trace met this trace's arrays")
            st.values += 1
            return scope.value_of(tree), tree._n, tree._sh if tree._sh is not None else tree._n
        if isinstance(tree, DynDim):
            st.values += 1
            return Dim(scope.value_of(tree.array), tree.axis), tree.size, tree.other
        if isinstance(tree, TracedFunction):
            st.values += 1
            return scope.value_of(tree), tree._native, tree._native
        if isinstance(tree, DType):
            return tree, tree, tree
        if isinstance(tree, self.concrete.array_types):
            return self._const(tree), tree, tree
        if isinstance(tree, tuple):  # a named tuple
            return self._encode(tuple(tree), scope, st)
        name = self._native_dtype(tree)
        if name is not None:
            return DType(name), tree, tree
        dev = self._device_str(tree)
        if dev is not None:
            return dev, tree, tree
        if isinstance(tree, numbers.Number) and hasattr(tree, "item"):  # NumPy scalars
            py = tree.item()
            return py, py, py
        st.foreign.append(tree)
        return None, tree, tree

    def _native_dtype(self, x: Any) -> str | None:
        try:
            got = self._dtype_names.get(x)
        except TypeError:
            got = None
        if got is not None:
            return got
        if isinstance(x, type):
            try:
                return dtype_name(x)
            except TypeError:
                return None
        for native, dname in ((n, d) for d, n in self.concrete.impl.dtypes.items()):
            try:
                if x is native or (type(x) is type(native) and x == native):
                    return dname
            except Exception:  # an object that cannot be compared is not a dtype
                return None
        return None

    def _device_str(self, x: Any) -> str | None:
        if self._devices is None:
            calls = self.concrete.calls
            self._devices = []
            for d in self.concrete.impl.devices():
                try:
                    self._devices.append((d, calls["dev"](calls["zeros"]((1,), device=d))))
                except Exception:  # a device that cannot hold arrays now
                    continue
        for native, s in self._devices:
            try:
                if type(x) is type(native) and x == native:
                    return s
            except Exception:
                return None
        return None

    # ------------------------------------------------------------------ recording

    def where(self) -> str:
        return source_of(3) or "?"

    def call(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """Record ``ivy.<name>(*args, **kwargs)`` and return its result, made of proxies."""
        if name in HOPS:
            if self.hop is None:
                raise GraphTraceError(f"this tracer cannot record ivy.{name}")
            return self.hop(self, name, args, kwargs)
        spec = SPECS[name]
        try:
            bound = spec.signature.bind(*args, **kwargs)
            args, kwargs = bound.args, bound.kwargs
        except TypeError:
            pass  # the concrete function raises its own error below
        else:
            if kwargs:  # options left at their defaults are not recorded: the graph reads as written
                params = spec.signature.parameters
                kwargs = {k: v for k, v in kwargs.items() if not _is_default(v, params[k].default)}
        scope = self.scopes[-1]
        st = State()
        enc, nat, sh = self._encode((args, kwargs), scope, st)
        if st.foreign and st.values:
            kinds = ", ".join(sorted({type(f).__module__ + "." + type(f).__qualname__ for f in st.foreign}))
            raise GraphTraceError(
                f"ivy.{name} got traced arrays together with objects the graph cannot hold ({kinds}) at "
                f"{source_of(2)}; pass arrays of the traced backend ({self.concrete.name}), Python "
                "scalars, dtypes or shapes"
            )
        out = self.concrete.calls[name](*nat[0], **nat[1])
        if st.foreign:  # nothing traced went in: a constant made from what the graph cannot hold
            return self._rebuild(out, lambda x: self.constant(x) if isinstance(x, self.concrete.array_types) else x)
        if not any(isinstance(x, self.concrete.array_types) for x in tree_leaves(out)):
            kind = _CONCRETIZE.get(name)
            if kind is not None and st.values:
                arr = next(x for x in tree_leaves(args) if isinstance(x, TracedArray))
                self._guard(arr, kind, out, source_of(2))
            elif name in EFFECTS:
                scope.nodes.append(Node(name, enc[0], enc[1], None, source_of(2)))
                if self.shadow:
                    self.concrete.calls[name](*sh[0], **sh[1])
            return out
        shadow_out = None
        if self.shadow:
            try:
                shadow_out = self.concrete.calls[name](*sh[0], **sh[1])
            except Exception as e:  # reported with the op and the line
                raise GraphTraceError(
                    f"ivy.{name} at {source_of(2)} fails when the dynamic dimensions have another size "
                    f"({type(e).__name__}: {e}): its arguments fix a size that was marked dynamic"
                ) from e
        known = name not in RANDOM and not any(
            id(v.value if isinstance(v, Dim) else v) in self._dependent
            for v in tree_leaves(enc)
            if isinstance(v, (Value, Dim))
        )
        result = self._record(name, enc[0], enc[1], out, shadow_out, scope, known=known)
        if name == "inplace_update" and isinstance(args[0], TracedArray):  # the array now holds the result
            x = args[0]
            x._n, x._v, x._sc, x._sh = result._n, result._v, result._sc, result._sh
        return result

    def _record(
        self,
        name: str,
        args: Any,
        kwargs: Any,
        out: Any,
        shadow_out: Any,
        scope: Scope,
        *,
        known: bool,
        fn_shadow: Any = None,
    ) -> Any:
        source = source_of(3)
        hint = name.rpartition(".")[2]
        shadows = list(tree_leaves(shadow_out)) if shadow_out is not None else None
        at = [0]
        array_types = self.concrete.array_types
        known = known and scope is self.root  # (inside a transform the natives are its tracers)

        def wrap(x: Any) -> Any:
            if not isinstance(x, array_types):
                if name in HOPS and callable(x):  # vjp's pullback
                    fv = Value(None, None, "function", f"{hint}_fn")
                    self._dependent.add(id(fv))
                    return TracedFunction(self, x, fv, scope, fn_shadow)
                return x
            sh = None
            if shadows is not None:
                sh = shadows[at[0]]
                at[0] += 1
            v = self.new_value(x, "op", hint, sh)
            if known:
                self.known[id(v)] = (v, x)
            else:
                self._dependent.add(id(v))
            return self.proxy(x, v, scope, sh)

        if shadows is not None:  # shadow leaves line up with the arrays among the result's leaves
            shadows = [s for s in shadows if isinstance(s, array_types)]
        result = self._rebuild(out, wrap)
        outputs = map_tree(lambda p: p._v if isinstance(p, (TracedArray, TracedFunction)) else p, result)
        scope.nodes.append(Node(name, tuple(args), dict(kwargs), outputs, source))
        return result

    def _rebuild(self, out: Any, fn: Callable[[Any], Any]) -> Any:
        t = type(out)
        if t is tuple or t is list:
            return t(self._rebuild(x, fn) for x in out)
        if isinstance(out, tuple):
            items = [self._rebuild(x, fn) for x in out]
            return t(*items) if hasattr(out, "_fields") else t(items)
        if isinstance(out, dict):
            return t((k, self._rebuild(x, fn)) for k, x in out.items())
        return fn(out)

    def _guard(self, arr: TracedArray, kind: str, expected: Any, source: str | None) -> None:
        scope = self.scopes[-1]
        if scope is not self.root:
            raise GraphTraceError(
                f"data-dependent Python control flow inside the function of a gradient or control-flow op "
                f"({scope.label}) at {source}: the traced code reads a Python value from an array there. Move "
                "the decision outside that function, or compute it with ivy ops (ivy.where, ivy.cond)"
            )
        if hasattr(expected, "tolist"):  # to_numpy's NumPy array
            expected = expected.tolist()
        scope.guards.append(Guard(scope.value_of(arr), kind, expected, source))

    def concretize(self, arr: TracedArray, kind: str) -> Any:
        """``bool(x)``, ``int(x)``...: the example's value, with a guard on it."""
        n = arr._n
        if kind == "bool":
            got: Any = bool(n)
        elif kind == "int":
            got = int(n)
        elif kind == "index":  # (an integer array used as an index or a size: an int at run time too)
            got = n.__index__()
            kind = "int"
        elif kind == "float":
            got = float(n)
        elif kind == "complex":
            got = complex(n)
        elif kind == "scalar":
            got = self.concrete.calls["to_scalar"](n)
        else:
            got = self.concrete.calls["to_list"](n)
        self._guard(arr, kind, got, source_of(3))
        return got

    def numpy_dtype(self, arr: TracedArray) -> str:
        return arr._v.dtype

    def call_function(self, fn: TracedFunction, args: tuple[Any, ...]) -> Any:
        """Record calling a function value (``vjp``'s pullback)."""
        scope = self.scopes[-1]
        st = State()
        enc, nat, _ = self._encode(args, scope, st)
        if st.foreign:
            raise GraphTraceError(f"a traced function got objects the graph cannot hold at {source_of(2)}")
        out = fn._native(*nat)
        return self._record(CALL, (scope.value_of(fn), *enc), {}, out, fn._shadow, scope, known=False)

    def add_subgraph_node(self, node: Node) -> None:
        self.scopes[-1].nodes.append(node)

    def depends(self, v: Value) -> bool:
        return id(v) in self._dependent
