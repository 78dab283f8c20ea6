"""Emission: a graph as a program of pure target-backend calls.

Each node is bound once to the target plugin's own function for its op (``Backend.calls``: no
dispatch, no Ivy wrapper left), the program is generated as Python source with one line per node,
compiled by Python once, and (by default) handed to the target's compiler through
``ivy.compile``. It takes and returns native arrays; gradient ops call the target's own transform
on the emitted subgraph, so the program differentiates natively.
"""

from __future__ import annotations

import linecache
from collections.abc import Callable
from typing import Any

from .. import _context
from ._code import Spelling, generate, literal
from ._errors import GraphEmitError, GuardError, ShapeMismatchError
from ._ir import CALL, ConstArray, Dim, GraphIR, Node, Subgraph, Value, tree_leaves

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
    return native, defaults[n - lo :] if defaults else ()


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

    def __init__(self, backend: Any, graph: GraphIR, guards: str = "inline", checks: bool = True):
        self.b = backend
        self.g = graph
        self.guards = guards
        self.checks = checks
        self.glb: dict[str, Any] = {}
        self._ops: dict[tuple[str, bool], str] = {}
        self._consts: dict[int, str] = {}
        self._dtypes: dict[str, str] = {}
        probe = backend.calls["zeros"]((2, 3))
        if probe.shape == (2, 3) and type(probe.shape) is not list:
            self._shape = "tuple"
        elif probe.shape == [2, 3]:
            self._shape = "list"
        else:
            self._shape = "convert"

    def _global(self, hint: str, value: Any) -> str:
        # generated values never start with "_" (see Namer): these names cannot clash with them
        name, i = "_" + hint, 0
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
        except Exception:  # noqa: BLE001 - arguments the specialiser does not cover: the general
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
        bad = self._global("bad_input", _bad_input(v))
        dt = self.dtype(v.dtype) if v.dtype else None
        dtype_test = f" or {name}.dtype != {dt}" if dt else ""
        if all(d is not None for d in v.shape):
            dims = tuple(int(d) for d in v.shape)  # type: ignore[arg-type]
            if self._shape == "tuple":
                test = f"{name}.shape != {literal(dims)}"
            elif self._shape == "list":
                test = f"{name}.shape != {literal(list(dims))}"
            else:
                test = f"tuple({name}.shape) != {literal(dims)}"
        else:
            test = f"{name}.ndim != {len(v.shape)}" + "".join(
                f" or {name}.shape[{i}] != {d}" for i, d in enumerate(v.shape) if d is not None
            )
        return f"if {test}{dtype_test}: {bad}({name})"

    def static_check(self, name: str, value: Any, path: str) -> str | None:
        if type(value) not in (bool, int, float, str, type(None)):  # (functions, opaque objects...)
            return None
        bad = self._global("bad_static", _bad_static(path, value))
        return f"if {name} != {literal(value)}: {bad}({name})"

    def guard_check(self, name: str, kind: str, expected: Any, index: int) -> str:
        gd = self.g.guards[index]
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


def _is_nan(x: Any) -> bool:
    return isinstance(x, (float, complex)) and x != x


def _bad_input(v: Value) -> Callable[[Any], None]:
    def bad(x: Any) -> None:
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
    except Exception:  # noqa: BLE001 - not an array at all
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
    g: GraphIR, backend: Any, *, guards: str = "inline", checks: bool = True, name: str = "forward"
) -> Callable[..., Any]:
    """The graph as a Python function calling ``backend``'s functions (no compiler)."""
    sp = EmitSpelling(backend, g, guards=guards, checks=checks)
    lines, _, _ = generate(g, sp, name=name)
    src = "\n".join(lines) + "\n"
    _counter[0] += 1
    filename = f"<ivy graph {g.name} for {backend.name} #{_counter[0]}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)  # tracebacks show it
    glb = {"__name__": f"ivy.graph.emitted.{g.name}", **sp.glb}  # (compilers read a module name)
    exec(compile(src, filename, "exec"), glb)
    fn = glb[name]
    fn.__qualname__ = name
    fn.__doc__ = f"The graph {g.name!r} emitted for the {backend.name!r} backend."
    fn.__ivy_source__ = src
    return fn


def emit(
    g: GraphIR,
    backend: Any,
    *,
    compile: bool = True,
    checks: bool = True,  # noqa: A002
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

    if not g.guards:
        return ivy_compile(eager, backend=b, options=options or {})
    returning = function(g, b, guards="return", checks=checks)
    compiled = ivy_compile(returning, backend=b, options=options or {})
    if compiled is returning:  # a backend without a compiler: the checks stay inline
        return eager

    def run(*args: Any, **kwargs: Any) -> Any:
        out, values = compiled(*args, **kwargs)
        _check_guards(g, values, b)
        return out

    run.__name__ = eager.__name__
    run.__doc__ = eager.__doc__
    run.__ivy_source__ = returning.__ivy_source__  # type: ignore[attr-defined]
    return run
