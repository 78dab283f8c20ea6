"""Emission: a graph as a program of pure target-backend calls.

Each node is bound once to the target plugin's own function for its op (``Backend.calls``: no
dispatch, no Ivy wrapper left), the program is generated as Python source with one line per node,
compiled by Python once, and (by default) handed to the target's compiler through
``ivy.compile``. It takes and returns native arrays; gradient ops call the target's own transform
on the emitted subgraph, so the program differentiates natively.
"""

from __future__ import annotations

import linecache
import re
from collections.abc import Callable
from typing import Any

from .. import _context
from ._code import Spelling, comment, generate, literal
from ._errors import GraphEmitError, GuardError, ShapeMismatchError
from ._ir import CALL, ConstArray, Dim, GraphIR, InputRef, Node, Subgraph, Value, tree_leaves

__all__ = ["EmitSpelling", "emit", "missing_ops"]

_counter = [0]


def direct(fn: Any, node: Node, backend: Any) -> tuple[Any, tuple[Any, ...]] | None:
    """The framework function behind a plugin's fast path (``ivy.plugin_kit.fastpath``) with the
    defaults to append, where this node's call is one the fast path hands it (positional
    arguments in its range, the dtypes it accepts): binding it removes the last wrapping layer.
    None otherwise, or where the fast path does not say which calls it hands on."""
    native = getattr(fn, "__ivy_native__", None)
    info = getattr(fn, "__ivy_fastpath__", None)
    if native is None or not isinstance(info, dict) or node.kwargs or info.get("retry"):
        return None
    lo, hi = info["nargs"]
    n = len(node.args)
    if not lo <= n <= hi:
        return None
    dts = info.get("dtypes")
    if dts is not None:
        a0 = node.args[0] if node.args else None
        if not isinstance(a0, Value) or a0.dtype not in backend.impl.dtypes or backend.impl.dtypes[a0.dtype] not in dts:
            return None
    same = info.get("same")
    if same is not None:
        i, j = same
        a, b = (node.args[k] if k < n else None for k in (i, j))
        if not (isinstance(a, Value) and isinstance(b, Value) and a.dtype == b.dtype):
            return None
    defaults = tuple(info.get("defaults") or ())
    # the last native_defaults are the framework's own defaults too: left out, as the fast path does
    keep = len(defaults) - info.get("native_defaults", 0)
    return native, defaults[n - lo : keep] if n - lo < keep else ()


def missing_ops(g: GraphIR, backend: Any) -> list[Node]:
    """The nodes of ``g`` (subgraphs included) whose op ``backend`` does not implement."""
    return [n for n in g.walk() if n.op in backend.calls and getattr(backend.calls[n.op], "__ivy_missing__", False)]


def _missing_error(node: Node, backend: Any) -> GraphEmitError:
    return GraphEmitError(
        f"the {backend.name!r} backend has no op {node.op!r}, which the graph calls "
        f"({node!r}; traced at {node.source or 'an unknown line'}). Emit for a backend that has it, or "
        "rewrite that call with ops the target has"
    )


class EmitSpelling(Spelling):
    """Spells the emitted program: bound functions ``_f_<op>``, native constants ``_c0``, native
    dtypes ``_dt_<name>``, with input checks and guards."""

    checks = True
    #: dtype checks by identity where the backend allows it (eager programs; a compiler's
    #: tracer may not follow ``is``: paddle's SOT then recompiles, and each call is ~10% slower)
    identity_checks = True
    release = True

    def __init__(self, backend: Any, graph: GraphIR, guards: str = "inline", checks: bool = True):
        self.b = backend
        self.g = graph
        self.guards = guards
        self.checks = checks
        self.glb: dict[str, Any] = {}
        self._ops: dict[tuple[str, bool], str] = {}
        self._consts: dict[int, str] = {}
        self._dtypes: dict[str, str] = {}
        self._same_dtype: dict[str, bool] = {}
        # the cheapest test of a shape that is exact for this backend's arrays (TensorFlow's
        # TensorShape compares with a tuple by converting it, ten times slower than as_list())
        probe = backend.calls["zeros"]((2, 3))
        if type(probe.shape) is tuple or (probe.shape == (2, 3) and not hasattr(probe.shape, "as_list")):
            self._shape = "tuple" if type(probe.shape) is not list else "list"
        elif probe.shape == [2, 3] and type(probe.shape) is list:
            self._shape = "list"
        elif hasattr(probe.shape, "as_list") and probe.shape.as_list() == [2, 3]:
            self._shape = "as_list"
        else:
            self._shape = "convert"

    def _global(self, hint: str, value: Any) -> str:
        # generated values never start with "_" (see Namer): these names cannot clash with them
        name, i = "_" + re.sub(r"[^A-Za-z0-9_]", "_", hint), 0
        while name in self.glb:
            i += 1
            name = f"_{hint}_{i}"
        self.glb[name] = value
        return name

    def op(self, node: Node) -> str:
        fn = self.b.calls.get(node.op)
        if fn is None or getattr(fn, "__ivy_missing__", False):
            raise _missing_error(node, self.b)
        got = direct(fn, node, self.b)
        key = (node.op, got is not None)
        name = self._ops.get(key)
        if name is None:
            name = self._ops[key] = self._global("f_" + node.op.replace(".", "_"), got[0] if got else fn)
        return name

    def special(self, node: Node) -> tuple[str, list[Any]] | None:
        fn = self.b.calls.get(node.op)
        make = getattr(fn, "__ivy_specialize__", None)
        if make is None:
            return None
        leaves = list(tree_leaves((node.args, node.kwargs)))
        if any(isinstance(x, (Dim, Subgraph)) for x in leaves):
            return None
        arrays = [x for x in leaves if isinstance(x, (Value, ConstArray))]
        if any(isinstance(a, Value) and (a.shape is None or None in a.shape) for a in arrays):
            return None  # a specialisation is for the traced shapes; dynamic ones take the general call
        try:
            made = make(*node.args, **node.kwargs)
        except Exception:  # arguments the specialiser does not cover: the general
            made = None  # call handles them, and raises its own error where they are wrong
        if made is None:
            return None
        name = self._global("k_" + node.op.replace(".", "_"), made)
        return name, arrays

    def extra_args(self, node: Node) -> tuple[Any, ...]:
        if node.op == CALL:
            return ()
        got = direct(self.b.calls[node.op], node, self.b)
        return got[1] if got else ()

    def const(self, c: ConstArray) -> str:
        got = self._consts.get(id(c))
        if got is None:
            got = self._consts[id(c)] = self._global(f"c{len(self._consts)}", c.to_native(self.b))
        return got

    def dtype(self, name: str) -> str:
        try:
            native = self.b.impl.dtypes[name]
        except KeyError:
            from ..errors import UnsupportedDTypeError

            raise UnsupportedDTypeError(
                f"the graph uses dtype {name}, which the {self.b.name!r} backend lacks"
            ) from None
        got = self._dtypes.get(name)
        if got is None:
            got = self._dtypes[name] = self._global(name, native)
        return got

    def obj(self, x: Any) -> str:
        return self._global("obj", x)

    def container(self) -> str:
        from ..container import Container

        return self._global("Container", Container)

    def shape_check(self, name: str, v: Value, index: int) -> str | None:
        if v.kind == "function" or v.shape is None:
            return None
        dt = self.dtype(v.dtype) if v.dtype else None
        # an identity test where the backend's arrays carry the very dtype object (a fraction of
        # an equality test's cost on paddle and TensorFlow); another object equal to it (a NumPy
        # dtype spelt differently) fails it, and _bad_input lets it through after comparing
        same = self.identity_checks and dt is not None and v.dtype is not None and self.identical_dtype(v.dtype)
        bad = self._global("bad_input", _bad_input(v, self.glb[dt] if same and dt else None))
        dtype_test = f" or {name}.dtype {'is not' if same else '!='} {dt}" if dt else ""
        if all(d is not None for d in v.shape):
            dims = tuple(_dim(d) for d in v.shape)
            if self._shape == "tuple":
                test = f"{name}.shape != {literal(dims)}"
            elif self._shape == "list":
                test = f"{name}.shape != {literal(list(dims))}"
            elif self._shape == "as_list":
                test = f"{name}.shape.as_list() != {literal(list(dims))}"
            else:
                test = f"tuple({name}.shape) != {literal(dims)}"
        else:
            test = f"{name}.ndim != {len(v.shape)}" + "".join(
                f" or {name}.shape[{i}] != {_dim(d)}" for i, d in enumerate(v.shape) if d is not None
            )
        return f"if {test}{dtype_test}: {bad}({name})"

    def identical_dtype(self, name: str) -> bool:
        """Whether this backend's arrays of dtype ``name`` carry the native dtype object itself."""
        got = self._same_dtype.get(name)
        if got is None:
            native = self.b.impl.dtypes[name]
            try:
                got = self.b.calls["zeros"]((1,), dtype=native).dtype is native
            except Exception:  # a dtype the backend cannot make arrays of: compare
                got = False
            self._same_dtype[name] = got
        return got

    def static_check(self, name: str, value: Any, path: str) -> str | None:
        if type(value) not in (bool, int, float, str, type(None)):  # (functions, opaque objects...)
            return None
        bad = self._global("bad_static", _bad_static(path, value))
        return f"if {name} != {literal(value)}: {bad}({name})"

    def guard_check(self, name: str, kind: str, expected: Any, index: int) -> str:
        gd = self.g.guards[index]
        if kind not in _GUARD_READS:
            raise GraphEmitError(f"{kind!r} is not a kind of guard")
        fail = self._global("guard_failed", _guard_failed(gd.kind, gd.expected, gd.source))
        read = self.read(name, kind)
        if _is_nan(expected):  # (nan equals nothing: the guard is that the value is nan again)
            return f"if {read} == {read}: {fail}({name})"
        return f"if {read} != {literal(expected)}: {fail}({name})"

    def read(self, name: str, kind: str) -> str:
        if kind in ("bool", "int", "float", "complex"):
            return f"{kind}({name})"
        fn = self._global(
            "to_scalar" if kind == "scalar" else "to_list", self.b.calls["to_scalar" if kind == "scalar" else "to_list"]
        )
        return f"{fn}({name})"


_GUARD_READS = ("bool", "int", "float", "complex", "scalar", "list")


def _dim(d: Any) -> int:
    """A traced dimension, spelt into a shape test: an int (anything else is not a size)."""
    if type(d) is not int or d < 0:
        raise GraphEmitError(f"a value's dimension must be a non-negative int, got {d!r}")
    return d


def _is_nan(x: Any) -> bool:
    return isinstance(x, (float, complex)) and x != x


def _bad_input(v: Value, native_dtype: Any = None) -> Callable[[Any], None]:
    dims = None if v.shape is None else list(v.shape)

    def bad(x: Any) -> None:
        if native_dtype is not None and dims is not None:
            # the emitted test was for the dtype object itself: an equal dtype object passes
            try:
                got = [int(d) for d in x.shape]
                fits = len(got) == len(dims) and all(d is None or d == g for d, g in zip(dims, got))
                if fits and x.dtype == native_dtype:
                    return
            except Exception:  # not an array: the error below says what it is
                pass
        raise ShapeMismatchError(
            f"input {v.hint!r} of the graph must be {v.type_str} (as traced; '?' marks a dynamic "
            f"dimension), got {_describe(x)}. Trace again with an example of this shape, or mark the "
            "dimension dynamic (trace_graph(..., dynamic=...))"
        )

    return bad


def _describe(x: Any) -> str:
    try:
        from .._dtypes import dtype_name

        return f"{dtype_name(x.dtype)}[{', '.join(str(int(d)) for d in x.shape)}]"
    except Exception:  # not an array at all
        return type(x).__name__


def _bad_static(path: str, value: Any) -> Callable[[Any], None]:
    def bad(x: Any) -> None:
        raise ShapeMismatchError(
            f"argument {path} was {value!r} when the graph was traced, and the graph holds that value; "
            f"got {x!r}. Trace again with this value (or pass it as an array, if it should vary)"
        )

    return bad


def _guard_failed(kind: str, expected: Any, source: str | None) -> Callable[[Any], None]:
    def fail(x: Any) -> None:
        raise GuardError(
            f"the traced code branched on {kind}(...) of an array at {source or 'an unknown line'}, which "
            f"was {expected!r} for the traced example; these inputs give another value, so they take "
            "another path through the Python code than the graph holds. Trace the function again with "
            "such inputs (one graph per path), or write the branch with ivy.where"
        )

    return fail


def _check_guards(g: GraphIR, values: Any, backend: Any) -> None:
    """The guards of a compiled program, checked on the values it returned."""
    for gd, x in zip(g.guards, values):
        if gd.kind in ("bool", "int", "float", "complex"):
            got: Any = {"bool": bool, "int": int, "float": float, "complex": complex}[gd.kind](x)
        elif gd.kind == "scalar":
            got = backend.calls["to_scalar"](x)
        else:
            got = backend.calls["to_list"](x)
        if (got == got) if _is_nan(gd.expected) else got != gd.expected:
            _guard_failed(gd.kind, gd.expected, gd.source)(x)


def function(
    g: GraphIR,
    backend: Any,
    *,
    guards: str = "inline",
    checks: bool = True,
    name: str = "forward",
    drop_statics: bool = False,
    compiled: bool = False,
) -> Callable[..., Any]:
    """The graph as a Python function calling ``backend``'s functions; with ``drop_statics``,
    without the parameters that hold no array (the graph holds their values); ``compiled``: the
    function is for the backend's compiler."""
    sp = EmitSpelling(backend, g, guards=guards, checks=checks)
    sp.drop_statics = drop_statics
    sp.identity_checks = not compiled
    lines, _, _ = generate(g, sp, name=name)
    src = "\n".join(lines) + "\n"
    _counter[0] += 1
    filename = f"<ivy graph {comment(g.name)} for {backend.name} #{_counter[0]}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)  # tracebacks show it
    # (compilers read the module name, and torch.compile imports it: the emitting module)
    glb = {**sp.glb}
    exec(compile(src, filename, "exec"), glb)
    fn = glb[name]
    fn.__qualname__ = name
    fn.__doc__ = f"The graph {g.name!r} emitted for the {backend.name!r} backend."
    fn.__ivy_source__ = src
    fn.__ivy_ops__ = frozenset(n.op for n in g.walk())  # (the op names the graph's nodes call)
    return fn


def emit(
    g: GraphIR,
    backend: Any,
    *,
    compile: bool = True,
    checks: bool = True,
    options: dict[str, Any] | None = None,
) -> Callable[..., Any]:
    """The program of ``g`` for ``backend``: see :meth:`ivy.Graph.to`."""
    b = _context.resolve(backend)
    for node in missing_ops(g, b):
        raise _missing_error(node, b)
    eager = function(g, b, checks=checks)
    if not compile:
        return eager
    from .._functional.compile import compile as ivy_compile

    statics = _static_arguments(g)
    program = function(
        g, b, guards="return" if g.guards else "inline", checks=checks, drop_statics=bool(statics), compiled=True
    )
    compiled = ivy_compile(program, backend=b, options=options or {})
    if compiled is program:  # a backend without a compiler: the checks stay inline
        return eager
    if not statics and not g.guards:
        return compiled  # (the compiler's own callable: no Python of Ivy's around its calls)
    n_args = len(g.in_tree[0])

    def run(*args: Any, **kwargs: Any) -> Any:
        if statics:
            # the graph holds its static arguments: they are checked here, in Python, and the
            # compiled program takes only the arrays (a compiler must not trace a Python int)
            if len(args) != n_args:
                raise TypeError(f"the graph {g.name!r} takes {n_args} positional arguments, got {len(args)}")
            for key, want in statics.items():
                got = args[key] if isinstance(key, int) else kwargs.pop(key, _MISSING)
                if not _same_static(got, want):
                    _bad_static(_arg_path(g, key), want)(got)
            args = tuple(a for i, a in enumerate(args) if i not in statics)
        if not g.guards:
            return compiled(*args, **kwargs)
        out, values = compiled(*args, **kwargs)
        _check_guards(g, values, b)
        return out

    run.__name__ = eager.__name__
    run.__doc__ = eager.__doc__
    run.__ivy_source__ = program.__ivy_source__  # type: ignore[attr-defined]
    run.__ivy_ops__ = program.__ivy_ops__  # type: ignore[attr-defined]
    return run


_MISSING = object()


def _static_arguments(g: GraphIR) -> dict[int | str, Any]:
    """The graph's arguments (positional index or keyword) that hold no array: Python values the
    graph was traced with, such as a kernel size ``(5, 5)``."""
    args_tree, kwargs_tree = g.in_tree
    out: dict[int | str, Any] = {}
    for key, sub in [*enumerate(args_tree), *kwargs_tree.items()]:
        if not any(isinstance(x, InputRef) for x in tree_leaves(sub)):
            out[key] = sub
    return out


def _arg_path(g: GraphIR, key: int | str) -> str:
    if isinstance(key, str):
        return key
    return g.arg_names[key] if key < len(g.arg_names) else f"arg{key}"


def _same_static(got: Any, want: Any) -> bool:
    """Whether a static argument is the traced one (a list for a tuple is, as the inline checks
    of each leaf allow)."""
    if type(want) in (tuple, list):
        return (
            type(got) in (tuple, list) and len(got) == len(want) and all(_same_static(a, b) for a, b in zip(got, want))
        )
    if isinstance(want, dict):
        return isinstance(got, dict) and got.keys() == want.keys() and all(_same_static(got[k], want[k]) for k in want)
    if _is_nan(want):
        return _is_nan(got)
    try:
        return bool(got == want)
    except Exception:  # an array where a number was traced
        return False
