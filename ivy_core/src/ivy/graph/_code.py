"""Python source of a graph: one line per node. The same generator writes the readable view
(``graph.code``: ``ivy.<op>`` calls), the emitted program (each node calling the target
plugin's function bound once) and the standalone module of ``graph.source(backend)``; only the
*spelling* of ops, constants and dtypes differs.
"""

from __future__ import annotations

import builtins
import keyword
import math
import os
import re
from typing import Any

from .._dtypes import DTYPE_NAMES
from ._errors import GraphEmitError
from ._ir import CALL, ConstArray, Dim, GraphIR, InputRef, Node, Subgraph, Value, tree_leaves

__all__ = ["Spelling", "IvySpelling", "Namer", "generate", "literal", "key_literal", "comment"]

_RESERVED = set(keyword.kwlist) | set(dir(builtins)) | {"self", "ivy"}


class Namer:
    """Unique Python names for values: their hints, made identifiers, ``_1``... on repeats."""

    def __init__(self, taken: set[str] | None = None):
        self.taken: set[str] = set(taken or ())
        self.names: dict[int, str] = {}

    def fresh(self, hint: str) -> str:
        # ASCII only: Python folds other identifiers (NFKC), so two hints could name one variable
        base = re.sub(r"[^A-Za-z0-9_]", "_", str(hint)).strip("_")[:64] or "v"
        if base[0].isdigit():
            base = "v" + base
        if base in _RESERVED:
            base += "_"
        name, i = base, 0
        while name in self.taken:
            i += 1
            name = f"{base.rstrip('_')}_{i}"
        self.taken.add(name)
        return name

    def name(self, v: Value) -> str:
        got = self.names.get(id(v))
        if got is None:
            got = self.names[id(v)] = self.fresh(v.hint)
        return got

    def alias(self, v: Value, name: str) -> None:
        self.names[id(v)] = name


class Spelling:
    """How the generated code spells what the graph holds (see :class:`IvySpelling`)."""

    #: whether shapes, dtypes and static arguments are checked on each call
    checks = False
    #: how guards appear: ``"assert"`` (the view), ``"inline"`` (checked where the value is
    #: made) or ``"return"`` (returned after the outputs, for compiled programs to check outside)
    guards = "assert"
    #: whether a line ends with a comment giving its value's type and source line
    comments = False
    #: whether the arguments that hold no array are left out of the signature (a compiled
    #: program's caller checks them: a compiler must not trace a Python value)
    drop_statics = False
    #: whether each intermediate value is deleted after its last use (an executed program: its
    #: arrays are freed as soon as they are dead, as in code written by hand, and NumPy can reuse
    #: their memory; a view for people reads better without the ``del`` lines)
    release = False

    def op(self, node: Node) -> str:
        raise NotImplementedError(f"{type(self).__name__} must implement op")  # a subclass hook

    def extra_args(self, node: Node) -> tuple[Any, ...]:
        """Positional arguments to append to the node's (a framework function's own defaults
        where the op is bound to it directly)."""
        return ()

    def special(self, node: Node) -> tuple[str, list[Any]] | None:
        """``(callee, array arguments)`` where the node's call is specialised to its static
        arguments (see ``ivy.plugin_kit.specializer``); ``None`` spells the general call."""
        return None

    def const(self, c: ConstArray) -> str:
        raise NotImplementedError

    def dtype(self, name: str) -> str:
        return repr(name)

    def obj(self, x: Any) -> str:
        """A Python object the graph holds that has no literal (an ``finfo`` result)."""
        raise GraphEmitError(f"the graph holds a {type(x).__qualname__}, which {type(self).__name__} cannot spell")

    def container(self) -> str | None:
        """The name that builds an ``ivy.Container`` output (``None``: a plain dict)."""
        return None

    def shape_check(self, name: str, v: Value, index: int) -> str | None:
        return None

    def static_check(self, name: str, value: Any, path: str) -> str | None:
        return None

    def guard_check(self, name: str, kind: str, expected: Any, index: int) -> str:
        return f"assert {_read(name, kind)} == {literal(expected)}"


def _read(name: str, kind: str) -> str:
    if kind not in ("bool", "int", "float", "complex", "scalar", "list"):
        raise GraphEmitError(f"{kind!r} is not a kind of guard")
    return {
        "bool": f"bool({name})",
        "int": f"int({name})",
        "float": f"float({name})",
        "complex": f"complex({name})",
        "scalar": f"ivy.to_scalar({name})",
        "list": f"ivy.to_list({name})",
    }[kind]


class IvySpelling(Spelling):
    """The readable view: ``ivy.<op>`` calls, constants ``_c0``..., dtypes ``ivy.float32``."""

    comments = True

    def __init__(self) -> None:
        self.consts: dict[int, str] = {}

    def op(self, node: Node) -> str:
        return "ivy." + op_name(node.op)

    def const(self, c: ConstArray) -> str:
        got = self.consts.get(id(c))
        if got is None:
            got = self.consts[id(c)] = f"_c{len(self.consts)}"
        return got

    def dtype(self, name: str) -> str:
        return f"ivy.{name}" if name in _DTYPES else repr(str(name))

    def obj(self, x: Any) -> str:
        # an object the view cannot spell: its type's name, made a name (never its repr, which a
        # stored graph's opaque objects would let a file choose)
        return "_" + Namer().fresh(getattr(x, "type_name", None) or type(x).__qualname__)

    def container(self) -> str:
        return "ivy.Container"


_LITERALS = (bool, int, float, complex, str, type(None))
_DTYPES = frozenset(DTYPE_NAMES) | {"float16", "bfloat16"}


def literal(x: Any) -> str:
    """Python source of a constant argument (floats that repr cannot spell included): only
    Python's own constants and containers of them, whose ``repr`` is a literal of the same value
    (an object of another type raises: its repr could be any text)."""
    t = type(x)
    if t is float and not math.isfinite(x):
        return f"float({str(x)!r})"
    if t is complex and not (math.isfinite(x.real) and math.isfinite(x.imag)):
        return f"complex({literal(x.real)}, {literal(x.imag)})"
    if x is Ellipsis:
        return "..."
    if isinstance(x, tuple):
        inner = ", ".join(literal(e) for e in x)
        return f"({inner},)" if len(x) == 1 else f"({inner})"
    if isinstance(x, list):
        return "[" + ", ".join(literal(e) for e in x) + "]"
    if isinstance(x, dict):
        return "{" + ", ".join(f"{key_literal(k)}: {literal(e)}" for k, e in x.items()) + "}"
    if t in _LITERALS:
        return repr(x)
    raise GraphEmitError(f"a graph constant of type {t.__qualname__} has no Python literal")


def key_literal(k: Any) -> str:
    """A dict key (a string or a number) as source."""
    if type(k) not in _LITERALS or type(k) is complex:
        raise GraphEmitError(f"a dict key of type {type(k).__qualname__} in a graph cannot be spelt")
    return literal(k)


def op_name(op: Any) -> str:
    """A node's op as it is spelt after ``ivy.`` (a spec op's dotted name, checked)."""
    if type(op) is not str or not all(part.isidentifier() and not keyword.iskeyword(part) for part in op.split(".")):
        raise GraphEmitError(f"{op!r} is not an op's name")
    return op


def keyword_name(k: Any, node: Node) -> str:
    """A keyword argument's name, checked to be one (it is spelt as ``name=``)."""
    if type(k) is not str or not k.isidentifier() or keyword.iskeyword(k):
        raise GraphEmitError(f"the node {node.op!r} has a keyword argument named {k!r}, which is not an identifier")
    return k


def axis_index(axis: Any) -> int:
    """A dimension's axis (spelt as ``x.shape[axis]``): an int."""
    if type(axis) is not int:
        raise GraphEmitError(f"a dimension's axis must be an int, got {axis!r}")
    return axis


def comment(text: str) -> str:
    """Text for a ``#`` comment: one line (every character that is not printable, line breaks
    included, becomes a space)."""
    return "".join(c if c.isprintable() else " " for c in str(text))


class _Gen:
    def __init__(self, spelling: Spelling, namer: Namer):
        self.sp = spelling
        self.namer = namer
        self.lines: list[str] = []
        self.guard_values: list[str] = []
        self.sub_names: dict[int, str] = {}

    # ------------------------------------------------------------------ expressions

    def expr(self, x: Any, container: bool = False) -> str:
        t = type(x)
        if isinstance(x, Value):
            return self.namer.name(x)
        if isinstance(x, Subgraph):
            return self.sub_names[id(x)]
        if isinstance(x, Dim):
            return f"{self.namer.name(x.value)}.shape[{axis_index(x.axis)}]"
        if isinstance(x, ConstArray):
            return self.sp.const(x)
        if isinstance(x, str) and type(x).__name__ == "DType":
            return self.sp.dtype(str(x))
        if t is tuple:
            inner = ", ".join(self.expr(e, container) for e in x)
            return f"({inner},)" if len(x) == 1 else f"({inner})"
        if t is list:
            return "[" + ", ".join(self.expr(e, container) for e in x) + "]"
        if isinstance(x, dict):
            body = "{" + ", ".join(f"{key_literal(k)}: {self.expr(e, container)}" for k, e in x.items()) + "}"
            if t is not dict and container:
                wrap = self.sp.container()
                return f"{wrap}({body})" if wrap else body
            return body
        if t is slice:
            return f"slice({self.expr(x.start)}, {self.expr(x.stop)}, {self.expr(x.step)})"
        if x is None or x is Ellipsis or t in _LITERALS:
            return literal(x)
        return self.sp.obj(x)

    def call(self, node: Node) -> str:
        special = None if node.op == CALL else self.sp.special(node)
        if special is not None:
            callee, arrays = special
            return f"{callee}({', '.join(self.expr(a) for a in arrays)})"
        callee = self.expr(node.args[0]) if node.op == CALL else self.sp.op(node)
        args = node.args[1:] if node.op == CALL else node.args
        parts = [self.expr(a) for a in args]
        parts += [self.expr(a) for a in self.sp.extra_args(node)]
        parts += [f"{keyword_name(k, node)}={self.expr(v)}" for k, v in node.kwargs.items()]
        return f"{callee}({', '.join(parts)})"

    def target(self, tree: Any, indent: str) -> tuple[str | None, list[str]]:
        """The assignment target of a node's result, and lines that unpack dicts in it."""
        if tree is None:
            return None, []
        extra: list[str] = []

        def pat(t: Any) -> str:
            if isinstance(t, Value):
                return self.namer.name(t)
            if not any(isinstance(v, Value) for v in tree_leaves(t)):
                return "_"
            if type(t) in (tuple, list):
                inner = ", ".join(pat(e) for e in t)
                return f"({inner},)" if len(t) == 1 else f"({inner})"
            if isinstance(t, dict):
                tmp = self.namer.fresh("d")
                for k, e in t.items():
                    if any(isinstance(v, Value) for v in tree_leaves(e)):
                        extra.append(f"{indent}{pat(e)} = {tmp}[{key_literal(k)}]")
                return tmp
            return "_"

        if not any(isinstance(v, Value) for v in tree_leaves(tree)):
            return None, []
        return pat(tree), extra

    # ------------------------------------------------------------------ bodies

    def inputs(self, g: GraphIR, indent: str, top: bool) -> list[str]:
        """Parameter names of the function, filling in the lines that unpack nested inputs."""
        args_tree, kwargs_tree = g.in_tree
        params: list[str] = []
        if top and g.params:
            params.append(self.namer.fresh("params"))
            for key, v in g.params.items():
                self.namer.alias(v, self.namer.fresh(key))
                self.lines.append(f"{indent}{self.namer.name(v)} = {params[0]}[{key_literal(key)}]{self._type_note(v)}")
        names = list(g.arg_names) + [f"arg{i}" for i in range(len(g.arg_names), len(args_tree))]
        drop = top and self.sp.drop_statics
        for i, sub in enumerate(args_tree):
            if drop and _holds_no_input(sub):
                continue  # (the caller checks it and leaves it out)
            nm = self.namer.fresh(names[i])
            params.append(nm)
            self._unpack(g, sub, nm, indent, nm)
        if kwargs_tree:
            odd = []
            for k, sub in kwargs_tree.items():
                if drop and _holds_no_input(sub):
                    continue
                # a keyword argument keeps its name (callers pass it), unless the generated code
                # needs that name: a builtin such as ``bool`` (guards call it), or one starting
                # with "_" (the emitted program's bound functions and constants)
                if type(k) is str and k.isidentifier() and k not in _RESERVED and not k.startswith("_"):
                    if k in self.namer.taken:
                        odd.append((k, sub))
                        continue
                    self.namer.taken.add(k)
                    if "*" not in params:
                        params.append("*")
                    params.append(k)
                    self._unpack(g, sub, k, indent, k)
                else:
                    odd.append((k, sub))
            if odd:
                rest = self.namer.fresh("kwargs")
                params.append("**" + rest)
                for k, sub in odd:
                    self._unpack(g, sub, f"{rest}[{key_literal(k)}]", indent, str(k))
        return params

    def _type_note(self, v: Value) -> str:
        return f"  # {comment(v.type_str)}" if self.sp.comments else ""

    def _unpack(self, g: GraphIR, tree: Any, expr: str, indent: str, path: str) -> None:
        if isinstance(tree, InputRef):
            v = g.inputs[tree.index]
            if expr.isidentifier():
                self.namer.alias(v, expr)
            else:
                self.lines.append(f"{indent}{self.namer.name(v)} = {expr}{self._type_note(v)}")
            return
        if type(tree) in (tuple, list):
            for i, e in enumerate(tree):
                self._unpack(g, e, f"{expr}[{i}]", indent, f"{path}[{i}]")
            return
        if isinstance(tree, dict):
            for k, e in tree.items():
                self._unpack(g, e, f"{expr}[{key_literal(k)}]", indent, f"{path}[{k!r}]")
            return
        check = self.sp.static_check(expr, tree, path)
        if check:
            self.lines.append(f"{indent}{check}")

    def body(self, g: GraphIR, indent: str, top: bool = True) -> None:
        sp = self.sp
        guards_by_value: dict[int, list[int]] = {}
        for i, gd in enumerate(g.guards):
            guards_by_value.setdefault(id(gd.value), []).append(i)
        if sp.checks and top:  # (a subgraph's inputs are what its op passes: nothing to check)
            for i, v in enumerate(g.inputs):
                if v.kind != "capture":
                    check = sp.shape_check(self.namer.name(v), v, i)
                    if check:
                        self.lines.append(f"{indent}{check}")
        for v in g.inputs:
            self._guards(g, guards_by_value.get(id(v), ()), indent)
        dead_after = _dead_after(g) if sp.release and top else {}
        for i, node in enumerate(g.nodes):
            for s in node.subgraphs():
                self.subgraph(s, indent)
            tgt, extra = self.target(node.outputs, indent)
            line = self.call(node) if tgt is None else f"{tgt} = {self.call(node)}"
            if sp.comments:
                note = " ".join(v.type_str for v in node.output_values())
                if node.source:
                    note += f"  {_loc(node.source)}"
                if note:
                    line += f"  # {comment(note).strip()}"
            self.lines.append(indent + line)
            self.lines.extend(extra)
            for v in node.output_values():
                self._guards(g, guards_by_value.get(id(v), ()), indent)
            if i in dead_after:
                self.lines.append(f"{indent}del {', '.join(self.namer.name(v) for v in dead_after[i])}")

    def _guards(self, g: GraphIR, idx: Any, indent: str) -> None:
        for i in idx:
            gd = g.guards[i]
            name = self.namer.name(gd.value)
            if self.sp.guards == "return":
                self.guard_values.append(name)
                continue
            line = self.sp.guard_check(name, gd.kind, gd.expected, i)
            if self.sp.comments and gd.source:
                line += f"  # guard: the traced code branched on this at {comment(_loc(gd.source))}"
            self.lines.append(indent + line)

    def subgraph(self, s: Subgraph, indent: str) -> None:
        g = s.graph
        for inner, outer in zip(g.captures, s.captures):
            self.namer.alias(inner, self.namer.name(outer))
        name = self.namer.fresh(f"_{g.name}")
        s_lines_start = len(self.lines)
        self.lines.append("")  # the def line, filled in once the parameters are known
        params = self.inputs(g, indent + "    ", top=False)
        self.lines[s_lines_start] = f"{indent}def {name}({', '.join(params)}):"
        self.body(g, indent + "    ", top=False)
        self.lines.append(f"{indent}    return {self.expr(g.outputs)}")
        self.sub_names[id(s)] = name


def _dead_after(g: GraphIR) -> dict[int, list[Value]]:
    """Per node index, the values made by the graph's nodes that no later node reads: those
    neither returned, guarded nor captured by a subgraph (a closure reads them when called)."""
    kept = {id(v) for v in tree_leaves((g.outputs, dict(g.state_updates))) if isinstance(v, Value)}
    kept.update(id(gd.value) for gd in g.guards)
    made: set[int] = set()
    last: dict[int, tuple[int, Value]] = {}
    for i, node in enumerate(g.nodes):
        for s in node.subgraphs():
            kept.update(id(v) for v in s.captures)
        for v in node.input_values():
            if id(v) in made:
                last[id(v)] = (i, v)
        made.update(id(v) for v in node.output_values())
    out: dict[int, list[Value]] = {}
    for key, (i, v) in last.items():
        if key not in kept:
            out.setdefault(i, []).append(v)
    return out


def _holds_no_input(tree: Any) -> bool:
    return not any(isinstance(x, InputRef) for x in tree_leaves(tree))


def _loc(source: str) -> str:
    head = source.split(" (via ")[0]
    path, _, rest = head.partition(":")
    return f"{os.path.basename(path)}:{rest}"


def generate(
    g: GraphIR, spelling: Spelling, *, name: str | None = None, namer: Namer | None = None
) -> tuple[list[str], list[str], Namer]:
    """Source lines of ``def <name>(...)`` computing ``g``; also the names of the guarded
    values (returned after the outputs when ``spelling.guards == "return"``) and the namer."""
    gen = _Gen(spelling, namer or Namer())
    fname = name if name is not None and name.isidentifier() and not keyword.iskeyword(name) else None
    fname = fname or gen.namer.fresh(name or g.name)  # (a graph's name may be "<lambda>")
    gen.lines.append("")
    params = gen.inputs(g, "    ", top=True)
    gen.lines[0] = f"def {fname}({', '.join(params)}):"
    direct = [v for v in g.inputs if gen.namer.name(v) in params]  # (the others are unpacked with a note)
    if spelling.comments and direct:
        types = "  ".join(f"{gen.namer.name(v)}: {v.type_str}" for v in direct)
        gen.lines.insert(1, f"    # {comment(types)}")
    gen.body(g, "    ")
    out = gen.expr(g.outputs, container=True)
    if g.state_updates:
        out = f"({out}, {gen.expr(dict(g.state_updates))})"
    if spelling.guards == "return":
        out = f"({out}, ({''.join(n + ', ' for n in gen.guard_values)}))"
    gen.lines.append(f"    return {out}")
    return gen.lines, gen.guard_values, gen.namer
